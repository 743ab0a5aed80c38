"""Decide the same deals with two builds of the package, side by side: the speed-up of a
change to the solver, measured as the docs/internals/perf-log.md entries are.

    python bench/compare_builds.py OLD_CHECKOUT NEW_CHECKOUT [RULES:DEALS ...]

Each checkout is a source tree built in place (``python setup.py build_ext --inplace``). The
two builds run alternately in fresh processes, three rounds on different deal numbers (from
20,000 on), one thread each; every round checks that both give the same answers. Printed per
rule set: the median of the rounds' speed-ups (old time / new time), each build's mean time
and nodes a deal. RULES is a preset or one of the named rule sets below.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

RUN = r"""
import json, sys, time
import numpy as np
from pyramid_solitaire import Rules, solve_many
NAMED = {
    "one-pass": Rules(redeals=0),
    "one-pass-stock-top": Rules(redeals=0, stock_top_playable=True),
    "two-redeals": Rules(redeals=2),
    "atlas-once": Rules(waste_at_deal=0, redeals=0, stock_top_playable=True),
    "atlas-once-overlap": Rules(waste_at_deal=0, redeals=0, stock_top_playable=True,
                                pair_with_covering=True),
    "atlas-once-all": Rules(waste_at_deal=0, redeals=0, stock_top_playable=True, win="all"),
    "atlas-once-all-overlap": Rules(waste_at_deal=0, redeals=0, stock_top_playable=True,
                                    win="all", pair_with_covering=True),
    "one-pass-all": Rules(redeals=0, win="all"),
    "one-pass-overlap": Rules(waste_at_deal=0, redeals=0, pair_with_covering=True),
    "draw3-all": Rules(waste_at_deal=0, draw=3, redeals=0, win="all"),
}
name, lo, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = NAMED.get(name, name)
t = time.perf_counter()
r = solve_many(np.arange(lo, lo + n), rules, threads=1)
dt = time.perf_counter() - t
print(json.dumps([dt, int(r.nodes.sum()), r.winnable.tobytes().hex()]))
"""

DEFAULT = ["one-pass:1000", "classic:1000", "one-pass-stock-top:300", "two-redeals:1000",
           "msc:2000", "classic-draw3:300", "unlimited:10000"]  # fmt: skip


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    builds = {"old": argv[0], "new": argv[1]}
    for case in argv[2:] or DEFAULT:
        name, n_text = case.split(":")
        n = int(n_text)
        times: dict[str, list[float]] = {b: [] for b in builds}
        nodes = dict.fromkeys(builds, 0)
        for rnd in range(3):
            lo = 20_000 + rnd * n
            answers = set()
            for b in list(builds) if rnd % 2 == 0 else list(builds)[::-1]:
                root = os.path.abspath(builds[b])
                env = dict(os.environ, PYTHONPATH=f"{root}/python{os.pathsep}{root}/src")
                run = subprocess.run(
                    [sys.executable, "-c", RUN, name, str(lo), str(n)],
                    env=env, capture_output=True, text=True,
                )  # fmt: skip
                if run.returncode:
                    print(f"{name}, build {b}: {run.stderr.strip()}", file=sys.stderr)
                    return 1
                dt, nd, won = json.loads(run.stdout)
                times[b].append(dt)
                nodes[b] += nd
                answers.add(won)
            if len(answers) != 1:
                print(f"{name}: the builds disagree on deals {lo}..{lo + n - 1}", file=sys.stderr)
                return 1
        speedup = statistics.median(o / w for o, w in zip(times["old"], times["new"]))
        print(
            f"{name}: x{speedup:.2f}  "
            + "  ".join(
                f"{b} {sum(times[b]) / 3 / n * 1e3:.3f} ms {nodes[b] / 3 / n:,.0f} nodes a deal"
                for b in builds
            ),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
