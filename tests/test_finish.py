"""Auto-finish (issue 45): once every order of removals of the cards in sight wins, the session
offers to finish (state can_finish, the finish_offer notice once) and finish() plays the rest
as ordinary moves; checked against a brute force of the definition on real games."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_protocol import ask

from pyramid_solitaire import Deal, Game, solve
from pyramid_solitaire.session import Session, StatsStore
from pyramid_solitaire.session import finish as finish_module
from pyramid_solitaire.session.finish import can_finish, finish_line
from pyramid_solitaire.session.protocol import Server

from conftest import EASY_CLEAR, EASY_ROWS, EASY_TALON, easy_deal

FIRST_FINISHABLE = 9  # EASY_CLEAR[:9] played: the rest of the easy deal needs no choice


def every_order_wins(game: Game, unseen=None) -> bool | None:
    """The definition, by brute force over Game copies: every sequence of removals (no draw,
    no recycle, no card unseen at the start) played until none is left wins. None: too big."""
    unseen = set(game.unseen) if unseen is None else unseen
    count = [0]

    def walk(g: Game) -> bool:
        count[0] += 1
        if count[0] > 20_000:
            raise OverflowError
        if g.is_won:
            return True
        moves = [
            m
            for m in g.legal_moves
            if m.kind in ("king", "pair") and not any(c in unseen for c in m.cards)
        ]
        if not moves:
            return False
        for m in moves:
            h = g.copy()
            h.play(m)
            if not walk(h):
                return False
        return True

    if not game.status.value == "playing":
        return False
    try:
        return walk(game)
    except OverflowError:
        return None


def test_the_easy_deal_finishes_once_no_choice_is_left():
    s = Session(easy_deal(), "pyramide", clock=lambda: 0.0)
    offers = []
    for k, move in enumerate(EASY_CLEAR[:FIRST_FINISHABLE]):
        assert not s.state()["can_finish"], k
        offers += [m.code for m in s.play(move)]
    # before: Ah on the waste could take Qc and leave Ac without a Queen in sight
    assert offers == ["finish_offer"]  # said once, with the move that made it true
    assert s.state()["can_finish"] and s.can_finish
    moves, line = s.moves, finish_line(s.game)
    out = s.finish()
    assert [m.code for m in out] == ["won"]
    assert s.status.value == "won" and s.score == 280  # 10 a pyramid card
    assert s.moves == moves + len(line) and s.game.moves[-len(line) :] == line
    assert not s.state()["can_finish"]
    s.undo()  # the finish's moves are ordinary moves
    assert s.status.value == "playing" and s.state()["can_finish"]
    assert [m.code for m in s.finish()] == ["won"]
    assert [m.code for m in s.finish()] == ["game_over"]


def test_the_offer_is_given_once_a_game_and_saved():
    s = Session(easy_deal(), "pyramide", clock=lambda: 0.0)
    said = [m.code for move in EASY_CLEAR[:FIRST_FINISHABLE] for m in s.play(move)]
    assert said.count("finish_offer") == 1
    s.undo()
    assert not s.can_finish
    assert "finish_offer" not in [m.code for m in s.redo()]  # not again this game
    back = Session.from_json(s.to_json())
    assert back._finish_told and back.state()["can_finish"]
    assert "finish_offer" not in [m.code for m in back.play(EASY_CLEAR[FIRST_FINISHABLE])]
    old = json.loads(s.to_json())
    del old["finish_offered"]  # a save from before auto-finish
    assert not Session.from_json(json.dumps(old))._finish_told
    s.restart()  # a new game: a new offer
    said = [m.code for move in EASY_CLEAR[:FIRST_FINISHABLE] for m in s.play(move)]
    assert said.count("finish_offer") == 1
    assert s._msg("finish_offer").text.startswith("The rest needs no choice")
    s.set_lang("vi")
    assert s._msg("finish_offer").text.startswith("Phần còn lại không cần lựa chọn")


def test_finish_when_it_cannot_and_while_paused(tmp_path):
    s = Session(easy_deal(), "pyramide", clock=lambda: 0.0, stats=tmp_path / "stats.sqlite3")
    assert [m.code for m in s.finish()] == ["cannot_finish"] and s.moves == 0
    for move in EASY_CLEAR[:FIRST_FINISHABLE]:
        s.play(move)
    s.pause()
    assert [m.code for m in s.finish()] == ["game_paused"] and s.status.value == "playing"
    s.resume()
    s.finish()
    (row,) = StatsStore(tmp_path / "stats.sqlite3").history()
    assert row["result"] == "won" and row["moves"] == s.moves  # recorded as any win


def test_an_unseen_card_is_no_finishing_card():
    """msc: the last pyramid card (Qh) pairs only with the card under the stock's top (Kc,
    playable and seen): removing Kc turns up Ah, so before that nothing says it will help."""
    rows = " ".join(EASY_ROWS).split()
    rows[0] = "Qh"  # in place of Kc
    talon = ["Kc", "Ah"] + [c for c in EASY_TALON if c not in ("Ah", "Qh")]
    game = Game(Deal.from_cards(" ".join(rows + talon)), "msc")
    game.play_all(EASY_CLEAR[:-1])
    assert [c.token for c in game.pyramid if c] == ["Qh"]
    assert not can_finish(game) and every_order_wins(game) is False
    assert solve(game).winnable  # winnable, but through a card not seen yet
    game.play("Kc")  # Ah is the stock's top now: seen
    assert can_finish(game) and [str(m) for m in finish_line(game)] == ["Qh+Ah"]


def test_the_budget_makes_no_false_offer(monkeypatch):
    g = Game(easy_deal(), "pyramide")
    g.play_all(EASY_CLEAR[:FIRST_FINISHABLE])
    assert can_finish(g)
    assert not can_finish(g, max_nodes=2)  # not settled within the budget: no
    monkeypatch.setattr(finish_module, "NODES", 2)
    assert finish_line(g, max_nodes=2) is None


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 300), st.sampled_from(["msc", "pyramide", "three-pass", "classic-draw3"]))
@example(179, "msc")  # a choice left at the last move: never offered, rightly
def test_can_finish_is_the_definition_on_real_games(number, rules):
    """Along a winning line of a real deal, can_finish agrees with the brute force, and
    where it is true the finish wins."""
    solution = solve(Deal.from_number(number, rules=rules), max_nodes=200_000)
    if not solution.winnable:
        return
    game = Game(Deal.from_number(number, rules=rules))
    offered, truth = False, None
    for move in solution.moves:
        truth = every_order_wins(game) if game.pyramid_left <= 14 else None
        if truth is not None:
            assert can_finish(game) == truth, (number, rules, str(move))
        if can_finish(game):
            offered = True
            probe = game.copy()
            probe.play_all(finish_line(game))
            assert probe.is_won
        game.play(move)
    # offered by the last move at the latest, unless a choice is still left there (msc deal
    # 179: 9d+4d clears the apex, 4d+9s pairs two talon cards and leaves it alone)
    assert offered or truth is False


def test_on_a_solver_line_through_a_session():
    code = "PY1-M-AAAAAAS"
    line = solve(code).moves
    s = Session(code, "msc", clock=lambda: 0.0)
    said = []
    for move in line:
        if s.can_finish:
            break
        said += [m.code for m in s.play(move)]
    assert said.count("finish_offer") == 1 and s.can_finish
    assert [m.code for m in s.finish()][-1] == "won"


def test_the_protocol():
    server = Server(clock=lambda: 0.0)
    r = ask(server, {"op": "new", "cards": easy_deal().to_cards()})
    assert r["state"]["can_finish"] is False
    r = ask(server, {"op": "finish"})
    assert r["ok"] and [m["code"] for m in r["messages"]] == ["cannot_finish"]
    for move in EASY_CLEAR[:FIRST_FINISHABLE]:
        r = ask(server, {"op": "play", "move": move})
    assert [m["code"] for m in r["messages"]] == ["finish_offer"] and r["state"]["can_finish"]
    r = ask(server, {"op": "finish"})
    assert [m["code"] for m in r["messages"]] == ["won"] and r["state"]["status"] == "won"
    assert r["state"]["score"] == 280 and not r["state"]["can_finish"]
    hello = ask(server, {"op": "hello"})
    assert "finish" in hello["ops"] and "finish" in hello["capabilities"]


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_both_languages(lang):
    s = Session(easy_deal(), "pyramide", clock=lambda: 0.0, lang=lang)
    assert s.finish()[0].text == s._msg("cannot_finish").text != ""
