"""Benchmarks of the hindsight policy (pyramid_core.fair, docs/fair.md): games per second.

Run with ``python -m pytest bench/test_bench_fair.py --benchmark-enable`` (see
bench/README.md). Each benchmark plays GAMES held-out deals (10,000,000 ..) with the default
``Hindsight()`` (K=16, 20,000 positions a solve):

- ``test_hindsight_one_thread``: the core's batch loop (``pyramid_core.fair.run``) on the
  calling thread: the time a game costs on one core.
- ``test_hindsight_threads``: ``simulate(policy="hindsight", threads=2)``: the public API
  over both cores (the speed-up is the ratio of the two rates).

Targets (docs/fair.md): an msc game at most 15 ms on one core on average, 2 threads 1.8x or
better. There are no assertions on speed.
"""

import numpy as np
import pytest

from pyramid_core import fair as core
from pyramid_solitaire import Hindsight, Rules, simulate

FIRST = 10_000_000
GAMES = {"msc": 400, "three-pass": 400, "classic": 400, "classic-draw3": 60, "pyramide": 2000}
ROUNDS = 3


@pytest.mark.parametrize("preset", list(GAMES))
def test_hindsight_one_thread(benchmark, record_rate, preset):
    benchmark.group = "hindsight 1 thread"
    n = GAMES[preset]
    won, removed = np.zeros(n, np.uint8), np.zeros(n, np.uint8)
    moves, score = np.zeros(n, np.uint16), np.zeros(n, np.uint16)
    options = Rules.preset(preset).core_options()
    benchmark.pedantic(
        core.run,
        args=(Hindsight().params(), options, FIRST, None, None, 0, n, won, removed, moves, score),
        rounds=ROUNDS,
        iterations=1,
    )
    assert removed.max() <= 28
    benchmark.extra_info["win_rate"] = float(won.mean())
    rate = record_rate(n, "games", preset=preset, threads=1)
    if rate is not None:
        print(f"\nhindsight[{preset}, 1 thread]: {1000 / rate:.1f} ms a game")


@pytest.mark.parametrize("preset", ["msc"])
def test_hindsight_threads(benchmark, record_rate, preset):
    benchmark.group = "hindsight 2 threads"
    n = GAMES[preset]
    result = benchmark.pedantic(
        simulate,
        args=(n,),
        kwargs=dict(start=FIRST, rules=preset, policy="hindsight", threads=2),
        rounds=ROUNDS,
        iterations=1,
    )
    assert result.games == n
    rate = record_rate(n, "games", preset=preset, threads=2)
    if rate is not None:
        print(f"\nhindsight[{preset}, 2 threads]: {rate:,.0f} games/s")
