"""Benchmarks of the Cython core's hot loops (shuffle, move generation).

Run with ``python -m pytest bench --benchmark-enable`` (see bench/README.md). Each benchmark
uses pedantic mode with a fixed number of rounds so the whole file takes a few seconds; the
measured rates go to ``benchmark.extra_info`` and to a summary at the end of the run.
"""

import pytest

from core_hooks import _bench

RandomPositions, shuffle_many = _bench.RandomPositions, _bench.shuffle_many

# Work per timed call. Big enough that one call takes tens of milliseconds (the Python
# call overhead is noise), small enough that the fixed rounds finish quickly.
SHUFFLE_COUNT = 500_000
SHUFFLE_ROUNDS = 10

N_POSITIONS = 1_000_000
N_DEALS = 1000
MOVEGEN_ROUNDS = 20
MOVEGEN_WARMUP = 2

BUILD_POSITIONS = 100_000
BUILD_ROUNDS = 5

PRESETS = {
    # The core's defaults: one card to the waste at the deal, draw 1, unlimited redeals.
    "default": None,
    # Microsoft Solitaire Collection: empty waste at the deal, two redeals, the stock's
    # top card is playable.
    "msc": {"waste_at_deal": 0, "redeals": 2, "stock_top_playable": 1},
}


def test_shuffle_many(benchmark, record_rate):
    """Deal shuffles per second (deal number -> 52-card deck, nogil C loop)."""
    benchmark.group = "shuffle"
    result = benchmark.pedantic(
        shuffle_many, args=(0, SHUFFLE_COUNT), rounds=SHUFFLE_ROUNDS, warmup_rounds=1, iterations=1
    )
    assert isinstance(result, int)
    rate = record_rate(SHUFFLE_COUNT, "deals")
    if rate is not None:
        print(f"\nshuffle_many: {rate:,.0f} deals/s")


@pytest.fixture(scope="module", params=sorted(PRESETS))
def positions(request):
    """One set of random positions per rules preset, built once (not timed here)."""
    name = request.param
    return name, RandomPositions(N_POSITIONS, n_deals=N_DEALS, rules=PRESETS[name], seed=1)


def test_movegen(benchmark, record_rate, positions):
    """Positions per second through gen_moves + pos_apply (one move applied per position)."""
    preset, rp = positions
    benchmark.group = "movegen"
    result = benchmark.pedantic(
        rp.generate_and_apply, rounds=MOVEGEN_ROUNDS, warmup_rounds=MOVEGEN_WARMUP, iterations=1
    )
    # The loop is deterministic: a second call must give the same checksum.
    assert result == rp.generate_and_apply()
    rate = record_rate(rp.count, "positions", preset=preset, n_deals=N_DEALS)
    if rate is not None:
        print(f"\nmovegen[{preset}]: {rate:,.0f} positions/s")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_playout_build(benchmark, record_rate, preset):
    """Positions per second built by random play (up to 60 random moves from a deal each),
    including the per-deal table setup for N_DEALS deals."""
    benchmark.group = "random-playout"
    rules = PRESETS[preset]
    rp = benchmark.pedantic(
        RandomPositions,
        args=(BUILD_POSITIONS,),
        kwargs={"n_deals": N_DEALS, "rules": rules, "seed": 1},
        rounds=BUILD_ROUNDS,
        warmup_rounds=0,
        iterations=1,
    )
    assert rp.count == BUILD_POSITIONS
    rate = record_rate(BUILD_POSITIONS, "positions", preset=preset, n_deals=N_DEALS)
    if rate is not None:
        print(f"\nRandomPositions[{preset}]: {rate:,.0f} positions/s")
