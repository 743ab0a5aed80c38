"""The solver against plain exhaustive search on positions small enough to enumerate.

Late positions (few pyramid cards left) are reached by random play on the engine and mirrored
move by move on the pure-Python reference model (tests/reference.py). A breadth-first search
over the reference's states then gives the exact answers: can it be won, in how few moves, and
how many pyramid cards at most can be removed.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from late_positions import RULE_SETS, late_cases  # noqa: E402

from pyramid_solitaire.solver import max_removable, solve  # noqa: E402

from core_hooks import _solver_tests  # noqa: E402

lower_bound_of = _solver_tests.lower_bound_of
relaxed_ok_of = _solver_tests.relaxed_ok_of
relaxed_removal_bound_of = _solver_tests.relaxed_removal_bound_of


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_solver_matches_exhaustive_search(name):
    rules = RULE_SETS[name]
    checked = wins = losses = 0
    for game, (winnable, depth, most) in late_cases(rules, f"brute-{name}", 150):
        s = solve(game)
        assert s.winnable is winnable, (name, game.moves)
        if winnable:
            assert s.replay().is_won
            shortest = solve(game, objective="min_moves")
            assert shortest.n_moves == depth, (name, game.moves)
            assert shortest.replay().is_won
            # A*'s lower bound never says more than the true distance, and the free-talon
            # relaxation never calls a winnable position lost
            assert lower_bound_of(game._table, game.position) <= depth, (name, game.moves)
            assert relaxed_ok_of(game._table, game.position), (name, game.moves)
        assert max_removable(game) == most, (name, game.moves)
        assert relaxed_removal_bound_of(game._table, game.position) >= most, (name, game.moves)
        checked += 1
        wins += winnable
        losses += not winnable
        if checked >= 12 and wins >= 2 and losses >= 2:
            break
    assert checked >= 6, f"only {checked} positions were small enough"
    assert wins and losses, (wins, losses)
