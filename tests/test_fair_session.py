"""Fair hints and the chance to win in the session, its saves, the protocol and the terminal
game: hints that never look at the face-down stock, and the "no chance to win" notice only
once every card has been seen."""

from __future__ import annotations

import asyncio
import json

import numpy as np
import pytest

from pyramid_solitaire import Deal, Game, hint, solve_many
from pyramid_solitaire.fair import fair_hint
from pyramid_solitaire.session import Session
from pyramid_solitaire.session.protocol import Server


def _codes(out):
    return [m.code for m in out]


def test_a_fair_hint_is_the_hindsight_move():
    s = Session("PY1-M-AAAAABF", "msc", fair_hints=True)
    out = s.hint()
    assert _codes(out) == ["hint"] and out[0].args["fair"] is True
    assert out[0].args["move"] == str(fair_hint(s.game)) == "5c+8d"
    assert "win_in" not in out[0].args and s.assisted
    plain = Session("PY1-M-AAAAABF", "msc").hint()[0]
    assert plain.args["move"] == str(hint(Game("PY1-M-AAAAABF"))) and "fair" not in plain.args


def test_switching_fair_hints_says_so_in_both_languages():
    s = Session("PY1-M-AAAAABF", "msc", lang="vi")
    assert s.set_fair_hints(True)[0].code == "fair_hints_on" and s.fair_hints
    assert "nọc" in s.set_fair_hints(False)[0].text and not s.fair_hints
    with pytest.raises(ValueError, match="on is on or off"):
        s.set_fair_hints("yes")
    with pytest.raises(ValueError, match="fair_hints is on or off"):
        Session("PY1-M-AAAAABF", "msc", fair_hints="maybe")


def _lost_unlimited_deal() -> int:
    numbers = np.arange(200)
    lost = numbers[solve_many(numbers, "unlimited").winnable == 0]
    return int(lost[0])


def test_the_no_chance_notice_waits_until_every_card_is_seen():
    number = _lost_unlimited_deal()
    told = Session(Deal.from_number(number, rules="unlimited"), "unlimited")
    assert "no_chance" in _codes(told.tap("stock"))  # the solver knows at once
    fair = Session(Deal.from_number(number, rules="unlimited"), "unlimited", fair_hints=True)
    said = []
    while fair.game.unseen:
        assert "no_chance" not in said
        said = _codes(fair.tap("stock"))
    assert "no_chance" in said  # the last card turned: now the player could know it


def test_chance_from_what_is_seen():
    s = Session("PY1-M-AAAAABF", "msc")
    out = s.chance()
    assert _codes(out) == ["chance"]
    args = out[0].args
    assert 0 <= args["low"] <= args["percent"] <= args["high"] <= 100 and args["samples"] > 0
    assert "%" in out[0].text and not s.assisted
    vi = Session("PY1-M-AAAAABF", "msc", lang="vi").chance()[0]
    assert vi.text.startswith("Cơ hội thắng")
    done = Session(Deal.from_number(3, rules="unlimited"), "unlimited")
    while done.game.unseen:
        done.tap("stock")
    assert _codes(done.chance())[0] in ("chance_exact_won", "chance_exact_lost")


def test_saves_keep_the_choice_and_old_saves_load(tmp_path):
    s = Session("PY1-M-AAAAABF", "msc", fair_hints=True)
    s.tap("stock")
    path = tmp_path / "game.json"
    s.save(path)
    assert Session.load(path).fair_hints is True
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["fair_hints"]  # a save written before the setting existed
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert Session.load(path).fair_hints is False


def test_the_protocol_ops(tmp_path):
    from test_protocol import ask

    server = Server(clock=lambda: 0.0)
    ask(server, {"op": "new", "code": "PY1-M-AAAAABF"})
    r = ask(server, {"id": 1, "op": "fair_hints", "on": True})
    assert r["ok"] and r["state"]["fair_hints"] and r["messages"][0]["code"] == "fair_hints_on"
    r = ask(server, {"id": 2, "op": "hint"})
    assert r["messages"][0]["args"]["move"] == "5c+8d"
    r = ask(server, {"id": 3, "op": "chance"})
    assert r["messages"][0]["code"] == "chance"
    r = ask(server, {"id": 4, "op": "fair_hints", "on": "yes"})
    assert not r["ok"] and r["error"]["code"] == "bad_request"
    r = ask(server, {"id": 5, "op": "fair_hints"})
    assert r["error"]["code"] == "missing_field"
    r = ask(server, {"id": 6, "op": "new", "code": "PY1-M-AAAAAAS"})
    assert r["state"]["fair_hints"]  # the next deal keeps the player's choice
    hello = ask(server, {"id": 7, "op": "hello"})
    assert (
        {"fair_hints", "chance"}
        <= set(hello["capabilities"])
        <= set(hello["ops"])
        | {
            "tap",
            "drag",
            "save",
            "stats",
            "winnable_only",
            "hint",
            "undo",
            "redo",
            "history",
            "daily",
            "difficulty",
        }
    )


def test_the_terminal_game_keys(tmp_path):
    pytest.importorskip("textual")
    from test_tui import make_app, messages_shown

    app = make_app(tmp_path, code="PY1-M-AAAAABF", profile="msc")

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("f")
            assert app.session.fair_hints
            assert "face-down" in messages_shown(app)
            await pilot.press("h")
            assert app.session.state()["assisted"]
            await pilot.press("w")
            await pilot.pause()
            assert "Chance to win" in messages_shown(app)

    asyncio.run(main())
    settings = json.loads((tmp_path / "terminal-settings.json").read_text(encoding="utf-8"))
    assert settings["fair_hints"] == "on"
    again = make_app(tmp_path, code=None, profile="msc")
    assert again.session.fair_hints
