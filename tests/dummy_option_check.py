"""Run by tools/dummy_option_build.sh (in CI) against a core built with one more rule option,
"dummy", that the engine plays as if absent and that no shortcut of pyr_shortcuts.h lists:
setting it must turn every shortcut off, and every answer must stay right (the solver's against
exhaustive search on the reference model, the simulator's against its games without the
option). Not collected by the suite (its name does not start with test_): the normal build has
no such option."""

from __future__ import annotations

import os

import numpy as np
import pytest
from late_positions import RULE_SETS, late_cases

from pyramid_core import rules as core_rules
from pyramid_core import simulate as core_sim
from pyramid_core.position import Table
from pyramid_core.solver import OBJECTIVES, solve_table

DUMMY_CORE = os.environ.get("PYRAMID_DUMMY_CORE", "")


def test_this_is_the_core_with_the_dummy_option():
    assert DUMMY_CORE and os.path.realpath(core_rules.__file__).startswith(
        os.path.realpath(DUMMY_CORE)
    ), core_rules.__file__
    Table(range(52), dummy=1)
    with pytest.raises(ValueError, match="dummy must be 0 or 1"):
        Table(range(52), dummy=2)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_the_dummy_option_turns_every_shortcut_off(name):
    opts = RULE_SETS[name].core_options()
    assert core_rules.shortcuts({**opts, "dummy": 0}) == core_rules.shortcuts(opts) != ()
    assert core_rules.shortcuts({**opts, "dummy": 1}) == ()
    assert Table(range(52), **opts, dummy=1).shortcuts == ()
    assert core_sim.playout_kind({**opts, "dummy": 1}) == "engine"
    assert core_sim.simd_path(core_sim.POLICIES["greedy"], {**opts, "dummy": 1}) == "scalar"


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_the_solver_stays_exact_under_the_dummy_option(name):
    rules = RULE_SETS[name]
    checked = 0
    for game, (winnable, depth, most) in late_cases(rules, f"dummy-{name}", 100):
        table = Table([int(c) for c in game.deal.cards], **rules.core_options(), dummy=1)
        decided = solve_table(table, game.position, OBJECTIVES["any"])
        shortest = solve_table(table, game.position, OBJECTIVES["min_moves"])
        exhausted = solve_table(table, game.position, OBJECTIVES["max_removed"])
        assert decided["winnable"] == int(winnable), (name, game.moves)
        if winnable:
            assert len(shortest["line"]) == depth and shortest["optimal"], (name, game.moves)
        assert exhausted["max_removed"] == most, (name, game.moves)
        checked += 1
        if checked >= 6:
            break
    assert checked >= 3, f"only {checked} positions were small enough"


@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_the_simulator_plays_the_same_games_under_the_dummy_option(name, policy):
    """The engine's playout under dummy=1, the specialised (or lockstep) ones without it: the
    same games, move for move in count and score."""
    opts = RULE_SETS[name].core_options()
    n = 3000
    got = {}
    for dummy in (0, 1):
        out = [np.zeros(n, np.uint8), np.zeros(n, np.uint8)]
        out += [np.zeros(n, np.uint16), np.zeros(n, np.uint16)]
        core_sim.run(core_sim.POLICIES[policy], {**opts, "dummy": dummy}, 7, 1000, None, 0, n, *out)
        got[dummy] = out
    for a, b in zip(got[0], got[1]):
        assert np.array_equal(a, b), name
