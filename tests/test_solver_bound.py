"""A*'s lower bound (the core hook _solver_tests.lower_bound_of) is admissible: at every position of
a shortest winning line it is at most the moves left, and it is exact at the last move. Then
the shortest line from positions off the line (a few random moves away) is never shorter
than the bound there either. Under every preset, on public msc deals and numbered deals.

The free-talon relaxation (the core hook _solver_tests.relaxed_ok_of, which the searches prune with)
never calls a winnable position lost: along those lines, and against the search without
pruning at positions it calls lost."""

from __future__ import annotations

import random

import pytest

from pyramid_core.solver import OBJECTIVES, solve_table
from pyramid_solitaire import Game, Rules, Status, solve

from conftest import repo_file
from core_hooks import _solver_tests

lower_bound_of, relaxed_ok_of = _solver_tests.lower_bound_of, _solver_tests.relaxed_ok_of
stack_ok_of = _solver_tests.stack_ok_of

MSC = repo_file("data", "msc-1500-deals.txt").read_text().splitlines()


def check_line(game: Game) -> int:
    """Walk a shortest line from game's position, checking the bound; returns its length."""
    line = solve(game, objective="min_moves", max_seconds=20).moves
    assert line is not None
    for k, move in enumerate(line):
        assert lower_bound_of(game._table, game.position) <= len(line) - k, (game.moves, k)
        assert relaxed_ok_of(game._table, game.position), (game.moves, k)
        assert stack_ok_of(game._table, game.position), (game.moves, k)
        game.play(move)
    assert game.status is Status.WON
    return len(line)


@pytest.mark.parametrize("i", range(0, 1500, 150))
def test_admissible_along_msc_lines(i):
    game = Game(MSC[i], "msc")
    if solve(game).winnable:
        check_line(game)


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_admissible_off_the_line(preset):
    rng = random.Random(preset)
    checked = 0
    for number in range(60):
        game = Game(number, preset)
        for _ in range(rng.randrange(0, 12)):
            moves = game.legal_moves
            if not moves or game.status is not Status.PLAYING:
                break
            game.play(rng.choice(moves))
        if game.status is Status.PLAYING and solve(game, max_seconds=5).winnable:
            check_line(game)
            checked += 1
        if checked >= 6:
            break
    assert checked >= 3


RELAXED_RULES = {
    **{name: Rules.preset(name) for name in ("msc", "three-pass", "unlimited")},
    "covering-finite": Rules(waste_at_deal=0, redeals=1, pair_with_covering=True),
    "stock-top-unlimited": Rules(waste_at_deal=0, stock_top_playable=True),
    "top-two": Rules(waste_at_deal=0, redeals=1, pair_waste_top_two=True),
}


def _lost_where_called_lost(rules, probe, seed, deals, moves, bias):
    """Positions up to ``moves`` random moves into numbered deals (removals taken with
    probability ``bias``): wherever ``probe`` says lost, the search without any pruning
    agrees. Returns how many such positions it decided lost (stops at 15)."""
    rng = random.Random(seed)
    decided = 0
    for number in range(deals):
        game = Game(number, rules)
        for _ in range(rng.randrange(0, moves)):
            legal = game.legal_moves
            if not legal or game.status is not Status.PLAYING:
                break
            removals = [m for m in legal if m.kind in ("king", "pair")]
            game.play(rng.choice(removals if removals and rng.random() < bias else legal))
        if game.status is not Status.PLAYING or probe(game._table, game.position):
            continue
        r = solve_table(
            game._table, game.position, OBJECTIVES["any"], max_nodes=300_000, no_prune=True
        )
        assert r["winnable"] != 1, (number, game.moves)
        decided += r["winnable"] == 0
        if decided >= 15:
            break
    return decided


@pytest.mark.parametrize("name", sorted(RELAXED_RULES))
def test_relaxation_calls_only_lost_positions_lost(name):
    """Positions a few random moves into numbered deals: wherever the relaxation says lost,
    the search without any pruning agrees."""
    rules = RELAXED_RULES[name]
    assert _lost_where_called_lost(rules, relaxed_ok_of, f"relaxed-{name}", 400, 30, 0.7) >= 5


@pytest.mark.parametrize(
    "rules",
    [
        Rules(redeals=0),
        Rules(waste_at_deal=0, redeals=0),
        Rules(redeals=0, stock_top_playable=True),
        Rules(redeals=0, win="all", stock_top_playable=True),
    ],
    ids=str,
)
def test_bounds_hold_along_one_pass_wins(rules):
    """Every position of a shortest win (found by A*, which does not prune with the
    waste-order relaxation) passes every bound, under one pass."""
    wins = 0
    for number in range(400):
        game = Game(number, rules)
        if solve(game).winnable:
            check_line(game)
            wins += 1
            if wins >= 6:
                break
    assert wins >= 3


STACK_RULES = {
    "one-pass": Rules(redeals=0),
    "one-pass-no-waste": Rules(waste_at_deal=0, redeals=0),
    "one-pass-stock-top": Rules(redeals=0, stock_top_playable=True),
    "one-pass-win-all": Rules(redeals=0, win="all"),
    "msc": Rules.preset("msc"),
}


@pytest.mark.parametrize("name", sorted(STACK_RULES))
def test_stack_relaxation_calls_only_lost_positions_lost(name):
    """Positions some random moves into numbered deals (the last pass under one pass; under
    msc, moves until it is reached): wherever the waste-order relaxation (bounds.pyx's
    stack_ok) says lost, the search without any pruning agrees; and it does call some lost."""
    rules = STACK_RULES[name]
    assert _lost_where_called_lost(rules, stack_ok_of, f"stack-{name}", 3000, 60, 0.8) >= 5


def test_hooks_refuse_a_missing_table():
    for hook in (lower_bound_of, relaxed_ok_of):
        with pytest.raises(TypeError):
            hook(None, 0)
    with pytest.raises(TypeError):
        solve_table(None, 0, OBJECTIVES["any"])
