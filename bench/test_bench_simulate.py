"""Benchmarks of the Monte Carlo simulator: games per second, shuffle included.

Run with ``python -m pytest bench/test_bench_simulate.py --benchmark-enable`` (see
bench/README.md). Each benchmark plays GAMES deals (deal numbers 0 ..) with one policy under one
preset; the rate (games/s, median and best round) goes to ``benchmark.extra_info`` and to the
summary printed at the end.

- ``test_simulate_one_thread``: the core's batch loop (``pyramid_core.simulate.run``) on the
  calling thread: per-core speed, no thread pool.
- ``test_simulate_threads``: ``pyramid_solitaire.simulate(..., threads=2)``, the public API
  with its thread pool over both cores of the benchmark machine.
- ``test_deal_setup``: the per-game set-up alone (the v1 shuffle and the rank masks), as the
  batch loop does it (eight deals at a time) and one deal at a time.

Targets: greedy and random at least 1,000,000 games/s per core and 1,800,000 games/s
on two cores. There are no assertions on speed.
"""

import numpy as np
import pytest

from pyramid_core import simulate as core
from pyramid_solitaire import Rules, simulate

from core_hooks import _simulate_tests as hooks

GAMES = 200_000
ROUNDS = 5
PRESETS = Rules.preset_names()
POLICIES = ["greedy", "random"]


def _arrays(n):
    return (
        np.zeros(n, np.uint8),
        np.zeros(n, np.uint8),
        np.zeros(n, np.uint16),
        np.zeros(n, np.uint16),
    )


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("preset", PRESETS)
def test_simulate_one_thread(benchmark, record_rate, preset, policy):
    benchmark.group = f"simulate 1 thread: {policy}"
    won, removed, moves, score = _arrays(GAMES)
    options = Rules.preset(preset).core_options()
    code = core.POLICIES[policy]
    benchmark.pedantic(
        core.run,
        args=(code, options, 1, 0, None, 0, GAMES, won, removed, moves, score),
        rounds=ROUNDS,
        warmup_rounds=1,
        iterations=1,
    )
    assert removed.max() <= 28
    benchmark.extra_info["win_rate"] = float(won.mean())
    rate = record_rate(GAMES, "games", preset=preset, policy=policy, threads=1)
    if rate is not None:
        print(f"\nsimulate[{preset}, {policy}, 1 thread]: {rate:,.0f} games/s")


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("preset", PRESETS)
def test_simulate_threads(benchmark, record_rate, preset, policy):
    threads = 2
    benchmark.group = f"simulate {threads} threads: {policy}"
    result = benchmark.pedantic(
        simulate,
        args=(GAMES * threads,),
        kwargs=dict(rules=preset, policy=policy, seed=1, threads=threads),
        rounds=ROUNDS,
        warmup_rounds=1,
        iterations=1,
    )
    assert result.games == GAMES * threads
    benchmark.extra_info["win_rate"] = result.win_rate
    rate = record_rate(GAMES * threads, "games", preset=preset, policy=policy, threads=threads)
    if rate is not None:
        benchmark.extra_info["games_per_s_per_thread"] = rate / threads
        print(f"\nsimulate[{preset}, {policy}, {threads} threads]: {rate:,.0f} games/s")


@pytest.mark.parametrize("mode", [0, 3], ids=["batch", "one-at-a-time"])
def test_deal_setup(benchmark, record_rate, mode):
    """The per-game set-up of the batch loop alone: shuffle the ranks, build the rank masks
    (batch: eight deals at a time, as the batch loop does; one-at-a-time: for comparison)."""
    benchmark.group = "simulate deal set-up"
    benchmark.pedantic(
        hooks.bench_setup,
        args=(0, 1_000_000, Rules().core_options(), mode),
        rounds=ROUNDS,
        warmup_rounds=1,
        iterations=1,
    )
    record_rate(1_000_000, "deals", mode=mode)
