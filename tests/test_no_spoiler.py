"""No spoiler (issue 45): a deal no playout won shows the playouts' level (5, expert) while
it is played; the solver's verdict (cannot be won, or winnable) shows once the game is over
or after the player asked the chance to win."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from test_protocol import ask

from pyramid_solitaire import Deal
from pyramid_solitaire.session import Session, StatsStore
from pyramid_solitaire.session.difficulty import rate
from pyramid_solitaire.session.protocol import Server

LOST = 0  # msc deal 0: no playout wins it, the solver proves it lost (level 6)
HARD_WON = 6  # msc deal 6: no playout wins it, the solver proves it winnable (level 5)

WITHHELD = {
    "level": 5,
    "label": "expert",
    "text": "expert",
    "winnable": None,
    "withheld": True,
}


def session(number: int, **kwargs) -> Session:
    return Session(Deal.from_number(number, rules="msc"), "msc", clock=lambda: 0.0, **kwargs)


def play_to_the_end(s: Session) -> None:
    while s.status.value == "playing":
        s.play(s.game.legal_moves[0])


def test_a_lost_deal_says_expert_until_the_end():
    assert rate(LOST, "msc").level == 6
    s = session(LOST)
    assert s.state()["difficulty"] == WITHHELD
    assert s.greeting()[-1].text == "Difficulty: expert" and s.greeting()[-1].args["level"] == 5
    s.play(s.game.legal_moves[0])
    assert s.state()["difficulty"] == WITHHELD  # from the first move on too
    assert s.difficulty.level == 6  # the whole rating is there, not shown
    play_to_the_end(s)
    assert s.state()["difficulty"] == {
        "level": 6,
        "label": "unwinnable",
        "text": "cannot be won",
        "winnable": False,
        "withheld": False,
    }
    s.undo()  # playing again: the verdict was shown, it stays shown
    assert s.status.value == "playing" and s.state()["difficulty"]["level"] == 6


def test_asking_the_chance_shows_the_verdict_and_is_saved():
    s = session(LOST, lang="vi")
    assert s.state()["difficulty"]["text"] == "chuyên gia"
    s.chance()
    d = s.state()["difficulty"]
    assert (d["level"], d["text"], d["winnable"], d["withheld"]) == (
        6,
        "không thể thắng",
        False,
        False,
    )
    back = Session.from_json(s.to_json())
    assert back.state()["difficulty"] == d
    old = json.loads(s.to_json())
    del old["verdict_shown"]  # a save from before: withheld again
    assert Session.from_json(json.dumps(old)).state()["difficulty"]["withheld"]
    s.restart()  # a new game of the deal
    assert s.state()["difficulty"]["withheld"]


def test_a_winnable_expert_deal_keeps_its_verdict_too():
    assert rate(HARD_WON, "msc").level == 5 and rate(HARD_WON, "msc").winnable
    s = session(HARD_WON)
    assert s.state()["difficulty"] == WITHHELD  # winnable null: as for a lost deal
    s.chance()
    assert s.state()["difficulty"]["winnable"] is True and s.state()["difficulty"]["level"] == 5


def test_the_statistics_record_the_whole_rating(tmp_path):
    s = session(LOST, stats=tmp_path / "stats.sqlite3")
    s.play(s.game.legal_moves[0])
    s.abandon()
    assert StatsStore(tmp_path / "stats.sqlite3").history()[0]["difficulty"] == "unwinnable"


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 199), st.sampled_from(["msc", "classic", "three-pass"]))  # (redeals end)
def test_never_a_verdict_while_playing(number, profile):
    s = Session(Deal.from_number(number, rules=profile), profile, clock=lambda: 0.0)
    whole = s.difficulty
    shown = s.state()["difficulty"]
    assert shown["level"] <= 5 and shown["label"] != "unwinnable"
    if whole.level <= 4:  # a won playout: nothing to keep
        assert not shown["withheld"] and shown["level"] == whole.level and shown["winnable"]
    else:
        assert shown["withheld"] and shown["level"] == 5 and shown["winnable"] is None
    play_to_the_end(s)
    over = s.state()["difficulty"]
    assert (over["level"], over["winnable"], over["withheld"]) == (
        whole.level,
        whole.winnable,
        False,
    )


def test_the_protocol():
    server = Server(clock=lambda: 0.0)
    code = Deal.from_number(LOST, rules="msc").code
    r = ask(server, {"op": "new", "code": code})
    assert r["messages"][-1]["text"] == "Difficulty: expert"
    assert r["state"]["difficulty"] == WITHHELD
    r = ask(server, {"op": "chance"})
    assert r["state"]["difficulty"]["level"] == 6 and not r["state"]["difficulty"]["withheld"]
