"""Batch APIs called from many Python threads at once give the same results as alone.

Each test makes one call per thread, each with its own deals, rules and seed, first one after
the other (the reference), then all at once: the threads wait at a barrier and start their
calls together, so the native work overlaps (the core releases the GIL). Every result must
equal its reference exactly: arrays element by element, lines of play move by move. Timings
(``seconds``) differ and are not compared; no call has a time budget, so a budget that runs
out runs out the same way both times (node budgets count positions, not time).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from pyramid_solitaire import Game, Rules, replay, simulate, solve, solve_many

PRESETS = ["pyramide", "msc", "classic", "three-pass", "unlimited", "classic-draw3"]
N_THREADS = 6


def run_together(calls: list[Callable[[], Any]], repeat: int = 1) -> list[list[Any]]:
    """Run every call in its own thread, all starting at once (``repeat`` times each);
    return each thread's results, re-raising the first error a thread met."""
    barrier = threading.Barrier(len(calls))
    results: list[list[Any]] = [[] for _ in calls]
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            for _ in range(repeat):
                barrier.wait()
                results[i].append(calls[i]())
        except BaseException as e:  # handed to the test below
            errors.append(e)
            barrier.abort()

    threads = [
        threading.Thread(target=worker, args=(i,), name=f"caller-{i}") for i in range(len(calls))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def many_key(r) -> dict[str, np.ndarray]:
    return {
        name: getattr(r, name)
        for name in ("winnable", "n_moves", "max_removed", "nodes", "stopped_by", "optimal")
    }


def sim_key(r) -> dict[str, Any]:
    out = {
        name: getattr(r, name)
        for name in ("deal", "won", "removed", "moves", "score", "decided", "removed_known")
    }
    out.update(histogram=r.histogram(), wins=r.wins, games=r.games, rules=r.rules, seed=r.seed)
    return out


def solution_key(s) -> tuple:
    return (
        s.winnable,
        None if s.moves is None else [str(m) for m in s.moves],
        s.nodes,
        s.stopped_by,
        s.optimal,
        s.objective,
    )


def assert_same(got: Any, want: Any, what: str) -> None:
    if isinstance(want, dict):
        assert got.keys() == want.keys(), what
        for k in want:
            assert_same(got[k], want[k], f"{what}, {k}")
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype, what
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        assert got == want, what


def check(calls: list[Callable[[], Any]], key: Callable[[Any], Any], repeat: int = 1) -> None:
    alone = [key(c()) for c in calls]
    together = run_together(calls, repeat)
    for i, rs in enumerate(together):
        assert len(rs) == repeat
        for j, r in enumerate(rs):
            assert_same(key(r), alone[i], f"thread {i}, round {j + 1}")


# ---- solve_many ----------------------------------------------------------------------------


def test_solve_many_threads():
    """Six callers, six rule sets, node budgets that some deals exhaust."""
    calls = [
        lambda k=k: solve_many(
            range(100 * k, 100 * k + 150), rules=PRESETS[k], max_nodes=40_000, threads=1
        )
        for k in range(N_THREADS)
    ]
    check(calls, many_key, repeat=3)


def test_solve_many_threads_objectives():
    """min_moves and max_removed, card-list decks and mixed inputs, from eight callers."""
    rng = np.random.default_rng(7)
    decks = [np.array([rng.permutation(52) for _ in range(12)]) for _ in range(4)]
    calls = []
    for k in range(4):
        calls.append(
            lambda k=k: solve_many(
                decks[k], rules=PRESETS[k], max_nodes=20_000, max_removed=True, threads=1
            )
        )
        calls.append(
            lambda k=k: solve_many(
                [f"PY1-C-AAAAAA{'ABCD'[k]}", 3 + k, 40 + k],
                objective="min_moves",
                max_nodes=20_000,
                threads=1,
            )
        )
    check(calls, many_key)


# ---- simulate ------------------------------------------------------------------------------


def test_simulate_greedy_threads():
    calls = [
        lambda k=k: simulate(
            200_000,
            start=500_000 * k,
            rules=PRESETS[k],
            policy="greedy",
            threads=1,
            chunk_size=4096,
        )
        for k in range(N_THREADS)
    ]
    check(calls, sim_key, repeat=3)


def test_simulate_random_threads():
    calls = [
        lambda k=k: simulate(
            200_000,
            start=1000 * k,
            rules=PRESETS[k],
            policy="random",
            seed=1000 + k,
            threads=1,
            chunk_size=3000,
        )
        for k in range(N_THREADS)
    ]
    check(calls, sim_key, repeat=3)


def test_simulate_decks_threads():
    """Decks (no deal numbers) under the random policy: each game seeded from its row."""
    rng = np.random.default_rng(11)
    decks = [
        np.array([rng.permutation(52) for _ in range(20_000)], dtype=np.int16) for _ in range(4)
    ]
    calls = [
        lambda k=k: simulate(
            deals=decks[k], rules=PRESETS[k], policy="random", seed=k, threads=1, chunk_size=512
        )
        for k in range(4)
    ]
    check(calls, sim_key)


def test_simulate_solver_policy_threads():
    """The solver policy with a node budget: undecided games are undecided both times."""
    calls = [
        lambda k=k: simulate(
            120, start=300 * k, rules=PRESETS[k], policy="solver", max_nodes=30_000, threads=1
        )
        for k in range(N_THREADS)
    ]
    check(calls, sim_key)


# ---- solve and replay ----------------------------------------------------------------------

# Deals needing more than the solver's probe (20,000 positions), so the search also runs in
# a worker thread of its own (run_call), and some that the budget stops.
HARD = [
    (4, "msc"),
    (43, "msc"),
    (2, "classic"),
    (33, "classic"),
    (3, "three-pass"),
    (5, "classic-draw3"),
    (7, "classic-draw3"),
    (158, "msc"),
]


def test_solve_threads():
    calls = [lambda d=d, r=r: solve(d, rules=r, max_nodes=100_000) for d, r in HARD]
    check(calls, solution_key, repeat=2)


def test_solve_min_moves_threads():
    calls = [
        lambda k=k: solve(
            10 + k, rules=PRESETS[k % len(PRESETS)], objective="min_moves", max_nodes=30_000
        )
        for k in range(N_THREADS)
    ]
    check(calls, solution_key)


def test_solve_positions_threads():
    """solve of Games in progress (each thread its own Game)."""

    def game(k: int) -> Game:
        g = Game(20 + k, PRESETS[k])
        for _ in range(6):
            if g.legal_moves:
                g.play(g.legal_moves[-1])
        return g

    calls = [lambda k=k: solve(game(k), max_nodes=30_000) for k in range(N_THREADS)]
    check(calls, solution_key)


def test_replay_threads():
    def moves(deal: int, rules: str, policy: str, seed: int) -> list[str]:
        return [str(m) for m in replay(deal, rules=rules, policy=policy, seed=seed)]

    calls = []
    for k in range(8):
        policy = ("greedy", "random")[k % 2]
        calls.append(
            lambda k=k, p=policy: [
                moves(d, PRESETS[k % len(PRESETS)], p, k) for d in range(100 * k, 100 * k + 40)
            ]
        )
    check(calls, lambda r: r, repeat=2)


def test_replay_matches_simulate_under_threads():
    """What replay plays from many threads is what simulate counted."""
    sims = {
        r: simulate(30, start=500, rules=r, policy="random", seed=99, threads=1) for r in PRESETS
    }

    def replayed(rules: str) -> list[int]:
        out = []
        for i in range(30):
            g = Game(500 + i, rules)
            g.play_all(replay(500 + i, rules=rules, policy="random", seed=99))
            out.append(g.pyramid_removed)
        return out

    together = run_together([lambda r=r: replayed(r) for r in PRESETS])
    for r, (removed,) in zip(PRESETS, together):
        np.testing.assert_array_equal(np.array(removed), sims[r].removed.astype(int))


# ---- batch calls using threads themselves, side by side ------------------------------------


def test_two_threaded_batches_side_by_side():
    """Two batch calls sharing nothing, each with threads=2, running at the same time."""
    calls = [
        lambda: solve_many(range(2000, 2600), rules="msc", max_nodes=40_000, threads=2, chunk=8),
        lambda: simulate(
            2_000_000, start=7_000_000, rules="classic", policy="random", seed=5, threads=2
        ),
    ]
    alone = [many_key(calls[0]()), sim_key(calls[1]())]
    (a,), (b,) = run_together(calls)
    assert_same(many_key(a), alone[0], "solve_many beside simulate")
    assert_same(sim_key(b), alone[1], "simulate beside solve_many")


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_threaded_simulations_side_by_side(policy):
    calls = [
        lambda k=k: simulate(
            500_000, start=k * 10**6, rules=PRESETS[k], policy=policy, seed=k, threads=2
        )
        for k in range(3)
    ]
    check(calls, sim_key)


def test_rules_objects_shared_between_threads():
    """One Rules object (and one deal list) passed to every thread at once."""
    rules = Rules(waste_at_deal=0, redeals=1, pair_with_covering=True)
    deals = list(range(900, 960))
    calls = [lambda: solve_many(deals, rules=rules, max_nodes=20_000, threads=1)] * 4 + [
        lambda: simulate(deals=deals, rules=rules, policy="random", seed=3, threads=1)
    ] * 4
    keys = [many_key] * 4 + [sim_key] * 4
    alone = [k(c()) for k, c in zip(keys, calls)]
    together = run_together(calls)
    for i, ((r,), k) in enumerate(zip(together, keys)):
        assert_same(k(r), alone[i], f"thread {i}")


def test_cancel_in_one_thread_leaves_the_others_alone():
    """Cancelling one caller's batch (its own event, its own stop flag) stops that call only:
    the calls beside it finish with the results they give alone."""
    from pyramid_solitaire import Cancelled

    event = threading.Event()
    others = [
        lambda k=k: simulate(
            100_000, start=k * 10**5, rules=PRESETS[k], policy="random", seed=k, threads=1
        )
        for k in range(3)
    ]
    others.append(lambda: solve_many(range(300), rules="msc", max_nodes=40_000, threads=1))
    keys = [sim_key] * 3 + [many_key]
    alone = [k(c()) for k, c in zip(keys, others)]

    def cancelled() -> str:
        timer = threading.Timer(0.3, event.set)
        timer.start()
        try:
            simulate(
                50_000_000, rules="msc", policy="greedy", threads=2, arrays=False, cancel=event
            )
        except Cancelled:
            return "cancelled"
        finally:
            timer.cancel()
        return "finished"

    together = run_together(others + [cancelled])
    assert together[-1] == ["cancelled"]
    for i, ((r,), k) in enumerate(zip(together[:-1], keys)):
        assert_same(k(r), alone[i], f"thread {i}")
