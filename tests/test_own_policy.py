"""simulate(policy=callable): your own policy played through the native batch.

The built-in greedy policy, written here as such a callable from its documented definition
(docs/simulation.md, "greedy": Kings at once, pairs scored with the veto, ties to the first
in the engine's order, draw or recycle otherwise) and reading only the full observation and
the mask, must play exactly the built-in greedy's games: the same wins, cards removed and
moves on every deal.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from pyramid_solitaire import Rules, simulate
from pyramid_solitaire.batch import ACTIONS, OBS_LAYOUT

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_greedy_veto import covers as covers_transitively  # noqa: E402
from test_greedy_veto import expected_veto

import reference as ref  # noqa: E402

SUPPORT = [len(ref.above(i)) for i in range(28)]
PASS_REMOVED = OBS_LAYOUT["pass_removed"][0]


def _free(pyr: set[int]) -> set[int]:
    return {i for i in pyr if not any(c in pyr for c in ref.covers(i))}


def _order_key(a: int, b: int | None, rank: list[int], avail: set[int]) -> tuple:
    """Where gen_moves lists the move of locations a < b (b None: a King), as docs say:
    Kings, pyramid pairs by rank, each available talon card with its pyramid partners and
    later available talon cards, the waste's top two, covering pairs, draw or recycle."""
    if b is None:
        return (0, a)
    if b < 28:
        if covers_transitively(a, b) or covers_transitively(b, a):
            covered = a if covers_transitively(b, a) else b
            return (4, covered)
        low, high = (a, b) if rank[a] <= 6 else (b, a)
        return (1, rank[low], low, high)
    if a < 28:
        return (2, b - 28, 0, a)
    if a - 28 in avail and b - 28 in avail:
        return (2, a - 28, 1, b - 28)
    return (3,)


def greedy_policy_for(rules: Rules):
    pwc = rules.pair_with_covering
    win_all = rules.win == "all"
    unlimited = rules.redeals == "unlimited"

    def greedy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = np.zeros(len(obs), np.int64)
        for g in range(len(obs)):
            o = obs[g]
            legal = np.flatnonzero(mask[g])
            if not legal.size:
                continue
            loc = {}
            rank = [0] * 52
            pyr = {i for i in range(28) if o[52 + i]}
            talon = {t for t in range(24) if o[80 + t]}
            avail = {t for t in talon if o[80 + t] in (2, 4)}
            for i in range(52):  # (full: every card is shown)
                loc[int(o[i]) - 1] = i
                rank[i] = (int(o[i]) - 1) % 13 + 1
            moves = []
            fallback = None
            for a in legal:
                m = ACTIONS[a]
                if m.kind in ("draw", "recycle"):
                    fallback = a
                    continue
                locs = sorted(loc[int(c)] for c in m.cards)
                key = _order_key(locs[0], locs[1] if len(locs) == 2 else None, rank, avail)
                moves.append((key, a, locs))
            moves.sort()
            kings = [a for key, a, locs in moves if len(locs) == 1]
            if kings:
                out[g] = kings[0]
                continue
            stuck = unlimited and not o[PASS_REMOVED]
            best = best_score = None
            free_now = _free(pyr)
            for _, a, (x, y) in moves:
                if expected_veto(pyr, talon, rank, x, y, pwc, win_all):
                    score = -1
                else:
                    gone = [z for z in (x, y) if z < 28]
                    score = (
                        100 * len(gone)
                        + 30 * len(_free(pyr - set(gone)) - free_now)
                        + sum(SUPPORT[z] for z in gone)
                    )
                if best is None or score > best_score:
                    best, best_score = a, score
            if best is not None and (
                best_score >= 0 or fallback is None or (fallback == 101 and stuck)
            ):
                out[g] = best
            else:
                out[g] = fallback
        return out

    return greedy


RULE_SETS = {
    "msc": Rules.preset("msc"),
    "pyramide": Rules.preset("pyramide"),
    "classic-draw3": Rules.preset("classic-draw3"),
    "unlimited+pair_with_covering": Rules.preset("unlimited").replace(pair_with_covering=True),
    "msc+pair_waste_top_two": Rules.preset("msc").replace(pair_waste_top_two=True),
    "three-pass+win_all": Rules.preset("three-pass").replace(win="all"),
}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_greedy_as_a_callable_plays_the_builtin_games(name):
    rules = RULE_SETS[name]
    mine = simulate(
        120,
        start=1000,
        rules=rules,
        policy=greedy_policy_for(rules),
        observation="full",
        deterministic=True,
        batch_size=50,
        threads=2,
    )
    builtin = simulate(120, start=1000, rules=rules, policy="greedy", threads=1)
    np.testing.assert_array_equal(mine.won, builtin.won)
    np.testing.assert_array_equal(mine.removed, builtin.removed)
    np.testing.assert_array_equal(mine.moves, builtin.moves)
    assert mine.wins == builtin.wins and mine.deals == builtin.deals
    assert mine.replay(7) == builtin.replay(7)


def test_same_result_on_any_thread_count_and_with_rng():
    def noisy(obs, mask, rng):
        score = rng.random(mask.shape) + mask * 2.0
        return score.argmax(axis=1)

    a = simulate(300, rules="msc", policy=noisy, seed=3, batch_size=64, threads=1)
    b = simulate(300, rules="msc", policy=noisy, seed=3, batch_size=64, threads=2)
    c = simulate(300, rules="msc", policy=noisy, seed=4, batch_size=64)
    np.testing.assert_array_equal(a.moves, b.moves)
    assert not np.array_equal(a.moves, c.moves)
    assert a.to_dict()["policy"] == "noisy" and a.seed == 3
    with pytest.raises(ValueError, match="cannot replay"):
        a.replay(0)


def test_given_deals_and_the_result_api():
    lowest = lambda obs, mask: mask.argmax(axis=1)  # noqa: E731
    r = simulate(deals=["PY1-M-AAAAAAS", 77, "PY1-M-AAAABBB"], policy=lowest, deterministic=True)
    assert r.games == 3 and r.rules == Rules.preset("msc")
    assert [int(x) for x in r.deal] == [18, 77, 703] and r.code(0) == "PY1-M-AAAAAAS"
    assert len(r.replay(1)) == r.moves[1]
    df = r.to_pandas()
    assert list(df["won"]) == list(r.won)


@pytest.mark.parametrize(
    "policy, match",
    [
        (lambda obs, mask: np.zeros(3, np.int64), r"shape \(8,\)"),
        (lambda obs, mask: np.full(len(obs), 150), "actions are 0..101"),
        (lambda obs, mask: np.full(len(obs), np.nan), "NaN"),
        (lambda obs, mask: (~mask).argmax(axis=1), "not legal"),
        (lambda obs, mask: ["x"] * len(obs), "integer actions"),
    ],
)
def test_bad_policies_get_clear_errors(policy, match):
    with pytest.raises(ValueError, match=match):
        simulate(8, rules="msc", policy=policy)


def test_options_only_with_a_callable():
    with pytest.raises(ValueError, match="callable policy"):
        simulate(8, policy="greedy", batch_size=4)
    with pytest.raises(ValueError, match="observation must be"):
        simulate(8, policy=lambda o, m: m.argmax(axis=1), observation="partial")
    with pytest.raises(ValueError, match="in this process"):
        simulate(8, policy=lambda o, m: m.argmax(axis=1), scheduler="tcp://127.0.0.1:1")


def test_cancel_stops_a_callable_policy_run():
    import threading

    from pyramid_solitaire import Cancelled

    ev = threading.Event()
    calls = []

    def policy(obs, mask):
        calls.append(1)
        if len(calls) == 3:
            ev.set()
        return mask.argmax(axis=1)

    with pytest.raises(Cancelled):
        simulate(100_000, rules="msc", policy=policy, cancel=ev, batch_size=64)
    assert len(calls) == 3


@pytest.mark.alone  # (speeds compared: conftest.py)
def test_more_threads_never_slow_a_callable():
    """The batch of a callable policy steps on one thread per 4,096 games at most (the
    policy runs between steps in the calling thread): two threads are never slower than one
    at the default batch size, measured back to back (best of three each)."""
    import time

    from pyramid_solitaire.analysis.callable_policy import stepping_threads

    assert stepping_threads(2, 1024) == 1 and stepping_threads(2, 16_384) == 2
    assert stepping_threads(None, 100) == 1

    def lowest(obs, mask):
        return mask.argmax(axis=1)

    best = {}
    for threads in (1, 2, 1, 2, 1, 2):
        t0 = time.perf_counter()
        simulate(20_000, rules="msc", policy=lowest, threads=threads)
        dt = time.perf_counter() - t0
        best[threads] = min(best.get(threads, dt), dt)
    assert best[2] < 1.25 * best[1], best
