"""Free threading (docs/internals/free-threading.md): the core's modules are marked safe
without the GIL. What that rests on is checked here on every build: Python threads calling
the simulator, the solver and the engine at once get exactly the results of the same calls
made one after another (the core releases the GIL, so their C runs at once on any build).
On a free-threaded CPython (the wheel workflow's 3.14t job) importing every module must also
leave the GIL off."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import threading

import numpy as np

from pyramid_core.position import Table
from pyramid_core.shuffle import deal_cards
from pyramid_solitaire import Hindsight, Rules, simulate, solve_many

from conftest import repo_file

CORE_MODULES = [
    "batch", "bounds", "cards", "fair", "geometry", "lastpass", "position", "rules", "shortest",
    "shuffle", "simulate", "solver",
]  # fmt: skip


def _engine_walk(number: int) -> list[int]:
    """A deterministic walk through the engine's moves (the first legal move each time)."""
    table = Table(deal_cards(number))
    pos, seen = table.start(), []
    for _ in range(200):
        moves = table.moves(pos)
        if not moves:
            break
        seen.append(moves[len(moves) // 2])
        pos = table.apply(pos, seen[-1])
    return seen


# Each call returns something comparable with ==; every one is run by a thread of its own.
CALLS = {
    "simulate greedy msc": lambda: simulate(30_000, rules="msc", threads=1).wins,
    "simulate random pyramide": lambda: simulate(
        30_000, rules="pyramide", policy="random", seed=7, threads=1
    ).moves.tobytes(),
    "simulate greedy classic-draw3": lambda: simulate(
        30_000, rules="classic-draw3", threads=1
    ).removed.tobytes(),
    "solve_many pyramide": lambda: solve_many(np.arange(60), "pyramide").winnable.tobytes(),
    "solve_many unlimited": lambda: solve_many(np.arange(300, 400), "unlimited").n_moves.tobytes(),
    "solve_many msc": lambda: solve_many(np.arange(80), "msc").n_moves.tobytes(),
    "solve_many one pass, stock top (frames)": lambda: solve_many(
        np.arange(100), Rules(waste_at_deal=0, redeals=0, stock_top_playable=True)
    ).n_moves.tobytes(),
    "engine walks": lambda: [_engine_walk(n) for n in range(40)],
    "simulate hindsight msc": lambda: simulate(
        40, rules="msc", policy=Hindsight(samples=4, max_nodes=3000), threads=1
    ).moves.tobytes(),
}


def _at_once(calls: dict) -> dict:
    """Every call in a thread of its own, released together; their results by name."""
    start = threading.Barrier(len(calls))
    got: dict[str, object] = {}
    errors: list[BaseException] = []

    def run(name, call):
        try:
            start.wait()
            got[name] = call()
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return got


def test_threads_at_once_agree_with_one_after_another():
    serial = {name: call() for name, call in CALLS.items()}
    for _ in range(2):
        assert _at_once(CALLS) == serial


def test_importing_the_core_leaves_the_gil_off():
    """On a free-threaded CPython: importing every module of the core and the package leaves
    the GIL off, with no warning. On an ordinary one (no GIL to leave off): the build marks
    every module so (setup.py's directives; the wheel workflow's 3.14t job runs the rest)."""
    if not sysconfig.get_config_var("Py_GIL_DISABLED"):
        setup = repo_file("setup.py").read_text()
        assert '"freethreading_compatible": True' in setup
        return
    code = (
        "import sys, warnings\n"
        "warnings.simplefilter('error')\n"
        + "".join(f"import pyramid_core.{m}\n" for m in CORE_MODULES)
        + "import pyramid_solitaire\n"
        "print(sys._is_gil_enabled())\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False"


def test_every_core_module_is_listed():
    import pathlib

    import pyramid_core

    shipped = {
        p.name.split(".")[0]
        for p in pathlib.Path(pyramid_core.__file__).parent.iterdir()
        if p.suffix in (".so", ".pyd")
    }
    assert shipped == set(CORE_MODULES)
