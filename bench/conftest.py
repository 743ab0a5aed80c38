"""Shared helpers for the pytest-benchmark suite in bench/.

Every benchmark times one call of a C-level loop from the core hooks' ``_bench``
(tests/core_hooks, built on first use) that handles ``n_items`` deals or positions, turns
the timing into a rate (items per second) stored in ``benchmark.extra_info`` (so it lands in
``--benchmark-json`` output too), and adds a line to a short summary printed at the end of
the run.

There are deliberately no assertions on speed: the numbers are for reading, not for gating.
"""

import sys
import time
from pathlib import Path

# the core hooks (tests/core_hooks) and the tests' helpers
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import pytest  # noqa: E402

_RESULTS = []


def pytest_configure(config):
    """The benchmarks run once each, untimed, unless ``--benchmark-enable`` is given (what
    pyproject's addopts used to say; here, so that the test suite runs without
    pytest-benchmark installed)."""
    if config.pluginmanager.hasplugin("benchmark") and not config.getoption(
        "benchmark_enable", False
    ):
        config.option.benchmark_disable = True


@pytest.fixture(scope="session", autouse=True)
def _settle(request):
    """Keep both cores busy with simulations for about a second before the first timed test.

    On the shared development VM the first benchmark of a run measured 10-30% low (a rerun
    alone was back in range): the machine needs a moment under load before it runs at full
    speed. It also switches between slow and fast spells every few seconds, which no warm-up
    removes (docs/internals/perf-log.md). Skipped when benchmarks are disabled (the
    plain test run)."""
    config = request.config
    if config.getoption("benchmark_disable", False) and not config.getoption(
        "benchmark_enable", False
    ):
        return
    from pyramid_solitaire import simulate

    end = time.perf_counter() + 1.0
    while time.perf_counter() < end:
        simulate(200_000, rules="msc", policy="greedy", threads=2)


def _fmt_rate(rate):
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if rate >= scale:
            return f"{rate / scale:8.2f} {suffix}"
    return f"{rate:8.2f}  "


@pytest.fixture
def record_rate(benchmark):
    """Return ``record(n_items, unit, **info)``; call it after ``benchmark.pedantic(...)``.

    Uses the per-call time of the median and the fastest round. Does nothing useful when
    benchmarks are disabled (pyproject's addopts has ``--benchmark-disable``): the target
    then runs once, untimed, as a smoke test.
    """

    def record(n_items, unit, **info):
        benchmark.extra_info.update(info)
        benchmark.extra_info["items_per_call"] = n_items
        benchmark.extra_info["unit"] = unit
        if benchmark.disabled or benchmark.stats is None:
            return None
        stats = benchmark.stats.stats
        median_rate = n_items / stats.median
        best_rate = n_items / stats.min
        benchmark.extra_info[f"{unit}_per_s_median"] = median_rate
        benchmark.extra_info[f"{unit}_per_s_best"] = best_rate
        _RESULTS.append((benchmark.name, unit, median_rate, best_rate, stats.rounds))
        return median_rate

    return record


def pytest_terminal_summary(terminalreporter):
    if not _RESULTS:
        return
    tr = terminalreporter
    tr.section("pyramid_core rates (items per second)")
    width = max(len(name) for name, *_ in _RESULTS)
    tr.write_line(f"{'benchmark':<{width}}  {'median':>11}  {'best':>11}  unit         rounds")
    for name, unit, median_rate, best_rate, rounds in _RESULTS:
        tr.write_line(
            f"{name:<{width}}  {_fmt_rate(median_rate)}  {_fmt_rate(best_rate)}  "
            f"{unit + '/s':<12} {rounds}"
        )
