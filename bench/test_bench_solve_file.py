"""``solve --file`` against ``solve_many`` plus writing the same answers, back to back.

Three timings of the same deal numbers (0..N-1, ``pyramide``, both cores):

- ``solve_many``: the batch API, in this process;
- writing: the answers ``solve --file`` prints (a head line and the winning line of each
  deal; ``--json``: one object a deal), rendered and written to /dev/null, in this process,
  from answers solved beforehand (the formatting and the writes alone);
- the command: ``python -m pyramid_solitaire solve --file F > /dev/null`` as a user runs it
  (interpreter start and imports included).

The figure is the command's time over the sum of the first two. Run with
``python -m pytest bench/test_bench_solve_file.py --benchmark-enable -s`` (N = 100,001);
without ``--benchmark-enable`` it runs once on 2,000 deals as a smoke test.
"""

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pyramid_solitaire import solve_many
from pyramid_solitaire.commands import _solve_file
from pyramid_solitaire.commands._answers import render
from pyramid_solitaire.commands.cli import build_parser, write_whole


def _answers(path, args):
    """The file's answers, solved here (the writing is timed apart)."""
    from pyramid_solitaire.analysis.solver import _budgets

    budget = _budgets(None, None, None)
    flag = __import__("numpy").zeros(1, "uint8")
    return [
        _solve_file._solve_block(block, args, "any", budget, flag)[1]
        for block in _solve_file._blocks(str(path), args, [])
    ]


def _write_all(answers, args):
    with open(os.devnull, "wb") as sink:
        out = io.TextIOWrapper(sink, encoding="utf-8")
        saved, sys.stdout = sys.stdout, out
        try:
            t0 = time.perf_counter()
            for a in answers:
                write_whole(render(args, a))
            return time.perf_counter() - t0
        finally:
            sys.stdout = saved


def _command(path, flags):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire", "solve", "--file", str(path), *flags],
        stdout=subprocess.DEVNULL,
        check=True,
        env=env,
    )
    return time.perf_counter() - t0


@pytest.mark.parametrize("flags", [[], ["--json"]], ids=["text", "json"])
def test_solve_file_against_solve_many(benchmark, tmp_path, flags):
    benchmark.group = "solve --file"
    n = 2_000 if benchmark.disabled else 100_001
    path = Path(tmp_path) / "deals.txt"
    path.write_text("".join(f"{i}\n" for i in range(n)))
    args = build_parser().parse_args(["solve", "--file", str(path), *flags])
    answers = _answers(path, args)

    def run():
        t0 = time.perf_counter()
        solve_many(range(n))
        batch = time.perf_counter() - t0
        writing = _write_all(answers, args)
        command = _command(path, flags)
        return batch, writing, command

    batch, writing, command = benchmark.pedantic(run, rounds=1, iterations=1)
    ratio = command / (batch + writing)
    benchmark.extra_info.update(
        deals=n, solve_many_s=batch, writing_s=writing, command_s=command, ratio=ratio
    )
    print(
        f"\nsolve --file {' '.join(flags) or '(text)'}, {n:,} deal numbers: solve_many "
        f"{batch:.2f} s + writing {writing:.2f} s = {batch + writing:.2f} s; the command "
        f"{command:.2f} s ({ratio:.2f} times)"
    )
