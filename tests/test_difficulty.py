"""The difficulty rating: defined by the playouts and the solver, fixed per deal, shown and
stored."""

from __future__ import annotations

import json

import pytest

from pyramid_solitaire import Deal, solve
from pyramid_solitaire.session import Session, StatsStore
from pyramid_solitaire.session.difficulty import LABELS, Difficulty, level_of, rate


def test_levels_from_the_playouts():
    assert [level_of(p, False) for p in (1.0, 0.5, 0.49, 0.15, 0.1, 0.03, 0.01, 0.0)] == [
        1,
        1,
        2,
        2,
        3,
        3,
        4,
        5,
    ]
    assert [level_of(p, True) for p in (1.0, 0.3, 0.1, 0.01, 0.0)] == [1, 1, 2, 3, 4]


@pytest.mark.parametrize("rules", ["pyramide", "three-pass", "classic", "msc"])
def test_the_verdict_agrees_with_the_solver(rules):
    for number in range(25):
        d = rate(number, rules)
        truth = solve(Deal.from_number(number, rules=rules), max_seconds=5).winnable
        assert d.winnable in (truth, None), (rules, number)
        assert (d.level == 6) == (d.winnable is False)
        if d.random_win_rate > 0 or d.greedy_won:
            assert d.winnable is True and d.solver_nodes == 0  # a won game is the proof
        assert d.level == 6 or d.level == level_of(d.random_win_rate, d.greedy_won)


def test_the_rating_is_a_function_of_the_deal_and_rules():
    a = rate("PY1-M-AAAAAAS")
    assert rate(Deal.from_code("PY1-M-AAAAAAS").to_cards(), "msc") == a
    assert rate("PY1-C-AAAAAAS") == rate(18, "classic")  # the code names its rules
    assert Difficulty.from_dict(json.loads(json.dumps(a.to_dict()))) == a
    assert a.to_dict()["label"] == LABELS[a.level]


def test_a_session_shows_and_keeps_its_difficulty(tmp_path):
    s = Session("PY1-T-AAAAAAS", "three-pass", clock=lambda: 0.0)
    d = rate("PY1-T-AAAAAAS", "three-pass")
    assert s.state()["difficulty"] == {
        "level": d.level,
        "label": d.label,
        "text": s.greeting()[0].args["words"],
        "winnable": d.winnable,
        "withheld": False,  # an easy deal: a playout won, no verdict of the solver's to keep
    }
    assert s.greeting()[0].code == "difficulty"
    assert s.greeting()[0].args["label"] == d.label  # a fixed word, whatever the language
    assert [m.code for m in s.restart()] == ["difficulty"]
    vi = Session("PY1-T-AAAAAAS", "three-pass", clock=lambda: 0.0, lang="vi")
    assert vi.greeting()[0].text.startswith("Độ khó: ")
    saved = json.loads(s.to_json())
    assert saved["difficulty"]["level"] == d.level
    assert Session.from_json(s.to_json())._difficulty == d  # read back, not recomputed
    saved["difficulty"]["level"] = 9
    with pytest.raises(ValueError, match="difficulty"):
        Session.from_json(json.dumps(saved))
    store = StatsStore(tmp_path / "stats.sqlite3")
    s.play(s.game.legal_moves[0])
    store.record(s)
    (level,) = store._db.execute("SELECT difficulty FROM games").fetchone()
    assert level == d.level
