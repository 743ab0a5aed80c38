"""Benchmarks of the exact solver (figures go in the README).

- msc: the 1,500 public deals decided one after another on one thread: total seconds, the
  slowest deal, and the process's peak memory.
- deals decided per second on one thread, by preset and for two of the atlas's published
  one-pass rows (docs/atlas.md), from deal number 0; and with the most removable cards of
  the lost deals (``max_removed``).
- msc shortest lines (min_moves) on a sample.
Run with ``python -m pytest bench/test_bench_solver.py --benchmark-enable``.
"""

import pathlib
import sys

import numpy as np
import pytest

from pyramid_solitaire import Deal, atlas
from pyramid_solitaire.solver import solve_many

DATA = pathlib.Path(__file__).resolve().parent.parent / "data"
MSC = [Deal.from_cards(x) for x in (DATA / "msc-1500-deals.txt").read_text().splitlines()]
OPTIMAL = np.array([int(x) for x in (DATA / "msc-1500-optimal-lengths.txt").read_text().split()])


def peak_rss_mib():
    if sys.platform == "win32":
        return float("nan")
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def test_msc_1500_decided(benchmark, record_rate):
    benchmark.group = "solver"
    result = benchmark.pedantic(
        solve_many, args=(MSC, "msc"), kwargs=dict(threads=1), rounds=1, iterations=1
    )
    assert (result.winnable == (OPTIMAL > 0)).all()
    benchmark.extra_info.update(
        total_seconds=float(result.seconds.sum()),
        max_seconds=float(result.seconds.max()),
        mean_seconds=float(result.seconds.mean()),
        peak_rss_mib=peak_rss_mib(),
    )
    print(
        f"\nmsc: 1500 deals in {result.seconds.sum():.2f} s, slowest {result.seconds.max():.3f} s, "
        f"peak RSS {peak_rss_mib():.0f} MiB"
    )
    record_rate(len(MSC), "deals")


@pytest.mark.parametrize(
    "rules, n",
    [
        ("pyramide", 100_000),
        ("unlimited", 100_000),
        ("classic", 2_000),
        ("three-pass", 300),
        ("msc", 2_000),
        ("classic-draw3", 300),
        ("pyramid-once-no-overlap", 1_000),
        ("all-once-overlap", 500),
    ],
)
def test_deals_per_second(benchmark, record_rate, rules, n):
    _deals_per_second(benchmark, record_rate, rules, n, max_removed=False)


@pytest.mark.parametrize(
    "rules, n", [("pyramide", 20_000), ("unlimited", 20_000), ("msc", 300), ("three-pass", 300)]
)
def test_max_removed_per_second(benchmark, record_rate, rules, n):
    _deals_per_second(benchmark, record_rate, rules, n, max_removed=True)


def _deals_per_second(benchmark, record_rate, rules, n, max_removed):
    benchmark.group = "solver, max_removed" if max_removed else "solver"
    numbers = np.arange(n)
    name = rules + (" max_removed" if max_removed else "")
    if "-once-" in rules:
        rules = atlas.row(rules).rules
    result = benchmark.pedantic(
        solve_many,
        args=(numbers, rules),
        kwargs=dict(threads=1, max_removed=max_removed),
        rounds=1,
        iterations=1,
    )
    assert (result.winnable >= 0).all()
    benchmark.extra_info.update(
        win_rate=result.win_rate,
        mean_seconds=float(result.seconds.mean()),
        max_seconds=float(result.seconds.max()),
    )
    print(
        f"\n{name}: win rate {result.win_rate:.4f}, mean {result.seconds.mean() * 1e3:.3f} ms, "
        f"slowest {result.seconds.max():.3f} s"
    )
    record_rate(n, "deals")


def test_msc_shortest_lines_sample(benchmark, record_rate):
    benchmark.group = "solver"
    sample = list(range(0, 1500, 15))
    result = benchmark.pedantic(
        solve_many,
        args=([MSC[i] for i in sample], "msc"),
        kwargs=dict(threads=1, objective="min_moves"),
        rounds=1,
        iterations=1,
    )
    won = OPTIMAL[sample] > 0
    assert (result.n_moves[won] == OPTIMAL[sample][won]).all()
    print(
        f"\nmsc shortest lines: {len(sample)} deals, mean {result.seconds.mean():.3f} s, "
        f"slowest {result.seconds.max():.3f} s"
    )
    record_rate(len(sample), "deals")


@pytest.mark.parametrize("rules, n", [("pyramide", 300), ("three-pass", 100), ("classic", 300)])
def test_shortest_lines_per_preset(benchmark, record_rate, rules, n):
    """min_moves on deal numbers 0..n-1 of other presets, one thread: every winnable deal's
    line is proved shortest (optimal), none left undecided."""
    benchmark.group = "solver"
    result = benchmark.pedantic(
        solve_many,
        args=(np.arange(n), rules),
        kwargs=dict(threads=1, objective="min_moves"),
        rounds=1,
        iterations=1,
    )
    won = result.winnable == 1
    assert (result.winnable >= 0).all() and result.optimal[won].all()
    benchmark.extra_info.update(
        mean_seconds=float(result.seconds.mean()),
        max_seconds=float(result.seconds.max()),
        total_seconds=float(result.seconds.sum()),
    )
    print(
        f"\n{rules} shortest lines: {n} deals in {result.seconds.sum():.1f} s, mean "
        f"{result.seconds.mean() * 1e3:.0f} ms, slowest {result.seconds.max():.2f} s"
    )
    record_rate(n, "deals")


@pytest.mark.parametrize("rules", ["pyramide", "unlimited"])
def test_solver_policy_games_per_second(benchmark, record_rate, rules):
    """simulate(policy="solver"): perfect play, the most removable cards for lost deals."""
    from pyramid_solitaire import simulate

    benchmark.group = "solver policy"
    n = 100_000
    result = benchmark.pedantic(
        simulate,
        args=(n,),
        kwargs=dict(rules=rules, policy="solver", threads=1),
        rounds=1,
        iterations=1,
    )
    assert result.undecided == 0
    print(
        f"\nsolver policy, {rules}: {result.win_rate:.4f} won, "
        f"{result.games_per_second:,.0f} games/s"
    )
    record_rate(n, "games")


_SHORTEST_ALL = r"""
import json, resource, sys, time
import numpy as np
from pyramid_solitaire import solve_many
deals = open(sys.argv[1]).read().splitlines()
t = time.perf_counter()
r = solve_many(deals, "msc", objective="min_moves", threads=1)
print(json.dumps({"seconds": time.perf_counter() - t, "slowest": float(r.seconds.max()),
                  "slowest_deal": int(r.seconds.argmax()),
                  "over_1s": int((r.seconds > 1).sum()),
                  "n_moves": np.where(r.winnable == 1, r.n_moves, 0).tolist(),
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def test_msc_1500_shortest_lines(benchmark, record_rate):
    """Every winnable msc deal's shortest line, one thread, in a process of its own (so its
    peak memory is the solver's own, plus about 35 MB of Python and numpy): about 15 s."""
    import json
    import subprocess
    import sys

    benchmark.group = "solver"
    out = benchmark.pedantic(
        lambda: (
            subprocess.run(
                [sys.executable, "-c", _SHORTEST_ALL, str(DATA / "msc-1500-deals.txt")],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        ),
        rounds=1,
        iterations=1,
    )
    figures = json.loads(out)
    assert figures.pop("n_moves") == OPTIMAL.tolist()
    benchmark.extra_info.update(figures)
    print(
        "\nmsc 1500 shortest lines:",
        ", ".join(
            f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items()
        ),
    )
    record_rate(1500, "deals")
