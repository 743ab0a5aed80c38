"""Memory stays flat: 10,000,000 simulated games and 100,000 solves in one process.

A leak benchmark, run by hand; it prints the process's resident memory (VmRSS from
/proc/self/status, with the peak VmHWM) before, between and after rounds of the same work:

1. ``simulate``: 10 calls of 1,000,000 games with the per-game arrays (alternating the greedy
   and random policies and the rule sets), then one call of 10,000,000 games with
   ``arrays=False``;
2. ``solve_many``: 100,000 ``pyramide`` deal numbers in 10 chunks of 10,000, then 10 chunks
   of 500 ``msc`` deals with ``max_removed=True`` and a budget of 100,000 positions (larger
   searches: their hash tables grow, and are freed after each deal);
3. ``solve``: 5,000 single calls (``pyramide``), then 1,000 ``msc`` calls with a budget of
   200,000 positions (searches that grow their hash tables and hit the budget);
4. ``simulate(policy="solver")``: 5 calls of 2,000 games under ``msc`` with a node budget.

Nothing is asserted about time. Within each phase the RSS after the last round must not be
more than ``MARGIN_MB`` above the RSS after the first round (the first round pays for the
allocator's arenas and the caches that warm up once): memory that grows round after round
is a leak.

Run::

    python -m pytest bench/test_bench_memory.py --benchmark-enable -s    # the full run
    PYTHONPATH=python:src python bench/test_bench_memory.py              # the same, as a script
    python -m pytest bench/test_bench_memory.py                          # a 1/100 smoke run

(about a minute on the 2-core development machine; ``--benchmark-enable`` is what the other
benchmarks need too, see bench/README.md). Linux only for VmRSS; elsewhere it falls back to
``resource.getrusage``'s peak.
"""

from __future__ import annotations

import gc
import sys
import time

from pyramid_solitaire import simulate, solve, solve_many

MARGIN_MB = 50.0
PRESETS = ["pyramide", "msc", "classic", "three-pass", "unlimited", "classic-draw3"]


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident memory of this process in MB (MiB)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)
    except (OSError, KeyError, ValueError):  # not Linux: the peak only
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        peak_mb = peak / (1 << 20) if sys.platform == "darwin" else peak / 1024
        return peak_mb, peak_mb


class Log:
    """Prints one line per round and keeps the RSS after each, by phase."""

    def __init__(self, out=print) -> None:
        self.out = out
        self.phases: dict[str, list[float]] = {}
        self.t0 = time.perf_counter()

    def point(self, phase: str, what: str) -> float:
        gc.collect()
        rss, peak = rss_mb()
        self.phases.setdefault(phase, []).append(rss)
        self.out(
            f"{time.perf_counter() - self.t0:7.1f} s  {phase:<16} {what:<44} "
            f"RSS {rss:8.1f} MB  (peak {peak:8.1f} MB)  "
            f"{len(gc.get_objects()):,} Python objects"
        )
        return rss

    def growth(self) -> dict[str, float]:
        """RSS after the last round minus RSS after the first, per phase."""
        return {p: v[-1] - v[0] for p, v in self.phases.items() if len(v) > 1}


def run(scale: int = 1, out=print) -> Log:
    """The whole benchmark; ``scale`` divides every count (100 for a smoke run)."""
    log = Log(out)
    log.point("start", "after import")
    games = 1_000_000 // scale
    total_games = 0
    for i in range(10):
        policy = ("greedy", "random")[i % 2]
        r = simulate(
            games,
            start=i * games,
            rules=PRESETS[i % len(PRESETS)],
            policy=policy,
            seed=i,
            threads=2,
        )
        total_games += r.games
        assert r.has_arrays and r.won.size == games
        del r
        log.point("simulate", f"call {i + 1}: {games:,} games ({policy})")
    r = simulate(
        10 * games, start=10 * games, rules="msc", policy="random", seed=1, threads=2, arrays=False
    )
    total_games += r.games
    assert not r.has_arrays and r.games == 10 * games
    del r
    log.point("simulate", f"arrays=False: {10 * games:,} games")
    out(f"            {total_games:,} games simulated")

    chunk = 10_000 // scale
    solved = 0
    for i in range(10):
        r = solve_many(range(i * chunk, (i + 1) * chunk), rules="pyramide", threads=2)
        solved += len(r)
        assert (r.winnable >= 0).all()
        del r
        log.point("solve_many", f"chunk {i + 1}: {chunk:,} deals")

    hard = 500 // scale
    for i in range(10):
        r = solve_many(
            range(10**6 + i * hard, 10**6 + (i + 1) * hard),
            rules="msc",
            max_nodes=100_000,
            max_removed=True,
            threads=2,
        )
        solved += len(r)
        del r
        log.point("solve_many msc", f"chunk {i + 1}: {hard:,} msc, max_removed")

    singles = 500 // max(1, scale // 10)
    for i in range(10):
        for d in range(i * singles, (i + 1) * singles):
            s = solve(100_000 + d)
            assert s.winnable is not None
        solved += singles
        log.point("solve", f"round {i + 1}: {singles:,} solve() calls")

    budgeted = 100 // max(1, scale // 10)
    for i in range(10):
        for d in range(i * budgeted, (i + 1) * budgeted):
            solve(d, rules="msc", max_nodes=200_000)
        solved += budgeted
        log.point("solve msc", f"round {i + 1}: {budgeted:,} msc, <= 200,000 nodes")
    out(f"            {solved:,} deals solved")

    sgames = 2_000 // scale
    for i in range(5):
        r = simulate(
            sgames, start=i * sgames, rules="msc", policy="solver", max_nodes=50_000, threads=2
        )
        assert r.games == sgames
        del r
        log.point("solver policy", f"call {i + 1}: {sgames:,} games")
    for phase, grew in log.growth().items():
        out(f"            {phase:<16} RSS after the last round - after the first: {grew:+7.1f} MB")
    return log


def check(log: Log) -> None:
    for phase, grew in log.growth().items():
        assert grew <= MARGIN_MB, (
            f"{phase}: RSS grew {grew:.1f} MB from the first round to the last"
        )


def test_memory_flat(benchmark):
    """The full run with --benchmark-enable; a 1/100 smoke run without."""
    benchmark.group = "memory"
    scale = 100 if benchmark.disabled else 1
    log = benchmark.pedantic(run, kwargs=dict(scale=scale), rounds=1, iterations=1)
    rss = {phase: [round(v, 1) for v in values] for phase, values in log.phases.items()}
    benchmark.extra_info.update(rss_mb=rss, growth_mb=log.growth(), scale=scale)
    check(log)


if __name__ == "__main__":
    check(run(scale=int(sys.argv[1]) if len(sys.argv) > 1 else 1))
