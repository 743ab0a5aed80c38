"""Shared helpers for the tests: hand-built deals, the repository's files."""

from __future__ import annotations

import contextlib
import os
import pathlib
import random
import re
import sys
import threading

import numpy as np
import pytest

from pyramid_solitaire import CARDS, Card, Deal

# The source checkout, for the tests that read its files (README.md, data/): PYRAMID_REPO when
# set (tools/check_wheel.sh runs a copy of tests/ against the installed wheel and points it at
# the checkout), else the parent of tests/ (a checkout, an unpacked sdist, cibuildwheel's
# `pytest {project}/tests`).
REPO = pathlib.Path(
    os.environ.get("PYRAMID_REPO") or pathlib.Path(__file__).resolve().parent.parent
)


#: The optional parts: the module each extra brings, and the extra's name. A test of an
#: optional part skips only when its extra is missing (tools/without_extras.py checks).
EXTRAS = {
    "textual": "tui",
    "rich": "tui",  # (textual brings it)
    "aiohttp": "web",
    "gymnasium": "rl",
    "distributed": "distributed",
    "dask": "distributed",
    "matplotlib": "plot",
    "pyarrow": "survey",
    "playwright": "browser",
}


# The package's worker threads (runtime.parallel's pools and its one-call thread). A call
# returns, or raises, only once its workers have ended: one left behind holds a core, and
# a pool that is never shut down lives until the process exits.
_WORKER_THREAD = re.compile(r"pyramid(_\d+|-call)$")


def _workers() -> list[str]:
    return sorted(t.name for t in threading.enumerate() if _WORKER_THREAD.match(t.name))


@pytest.fixture(autouse=True)
def no_worker_thread_left_behind():
    """Every test: the package's worker threads that were not there before it are gone
    after it (each call ends its own pools, whether it returns or raises)."""
    before = set(_workers())
    yield
    left = [name for name in _workers() if name not in before]
    assert left == [], f"worker threads left running: {left}"


# ---- tests that measure speed run alone --------------------------------------------------
# The README's run spreads the suite over the cores (pytest-xdist, `-n auto`). A test marked
# `alone` compares speeds measured back to back, which a test running beside it on the other
# core would skew: it holds a lock that every other test shares, taken exclusively, so it
# starts once the tests under way have ended and no test starts until it has. The turnstile
# keeps the tests that come after it from starving it.


@contextlib.contextmanager
def _lock(path: pathlib.Path, mode: int):
    import fcntl

    with open(path, "a") as f:
        fcntl.flock(f, mode)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


@contextlib.contextmanager
def _turn(config, alone: bool):
    """Under an xdist worker: the shared lock for a test, the exclusive one for an `alone`
    test. Elsewhere (one process, or a pytest a test starts) nothing."""
    run = getattr(config, "workerinput", {}).get("testrunuid")
    if run is None or sys.platform == "win32":
        yield
        return
    import fcntl
    import tempfile

    base = pathlib.Path(tempfile.gettempdir()) / f"pyramid-tests-{run}"
    with contextlib.ExitStack() as stack:
        with _lock(base.with_suffix(".turnstile"), fcntl.LOCK_EX):
            stack.enter_context(
                _lock(base.with_suffix(".lock"), fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
            )
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    with _turn(item.config, item.get_closest_marker("alone") is not None):
        yield


def import_or_skip_extra(name: str):
    """``importlib.import_module(name)``; a skip naming the extra when the module needs an
    optional extra that is not installed (any other ImportError is a failure)."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError as e:
        top = (e.name or "").split(".")[0]
        if top in EXTRAS:
            pytest.skip(f"the {EXTRAS[top]} extra ({top}) is not installed")
        raise


def repo_file(*parts: str) -> pathlib.Path:
    """A file or directory of the checkout; FileNotFoundError (never a skip) when missing."""
    path = REPO.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"{path} not found: set PYRAMID_REPO to the source checkout")
    return path


# The simulator's paths by name ("one-lane": the lockstep's text compiled for one lane of plain
# C, which every CPU runs; only the tests take it). A test names the path it wants to the
# hooks (core_hooks._simulate_tests.run and friends), which build its record and pass it to
# the batch: nothing process-wide changes, so no test can leave another on a different path.
SIM_PATHS = ("avx512", "one-lane", "scalar")


def sim_paths() -> list[str]:
    """The paths this CPU has, as the core sees it (PYRAMID_DISABLE_CPU_FEATURES hides
    AVX-512): AVX-512 where it is there, then the one-lane lockstep and plain C."""
    from core_hooks import _simulate_tests as hooks

    return [p for p in SIM_PATHS if p in hooks.paths()]


def require_path(path: str) -> str:
    """`path`, or a skip that says this CPU (as the core sees it) lacks it: never the plain C
    path run under the vector path's name (the CI job without AVX-512 deselects those tests
    with -k "not avx512")."""
    if path not in sim_paths():
        pytest.skip(f"this CPU (as the core sees it) has no {path} path")
    return path


def run_on(
    path: str,
    policy: str,
    options: dict,
    seed: int,
    start: int,
    n: int,
    deals=None,
    lo: int = 0,
    move_cap: int | None = None,
) -> list:
    """Games lo .. n-1 of a numbered batch (as simulate.run) on `path`: [won, removed, moves,
    score] arrays of n rows (rows before lo left 0)."""
    from pyramid_core import simulate as core

    from core_hooks import _simulate_tests as hooks

    out = [
        np.zeros(n, np.uint8),
        np.zeros(n, np.uint8),
        np.zeros(n, np.uint16),
        np.zeros(n, np.uint16),
    ]
    extra = {} if move_cap is None else {"move_cap": move_cap}
    hooks.run(
        require_path(path), core.POLICIES[policy], options, seed, start, deals, lo, n, *out, **extra
    )
    return out


def repo_module(name: str, *parts: str):
    """A script of the checkout (``tools/atlas_table.py``, ``setup.py``) loaded as module
    ``name``, without running it as ``__main__``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, repo_file(*parts))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Seed 000's example layout: its pyramid, 7d on the waste at the deal, then the other cards.
SEED000_PYRAMID = (
    "Jd 6c 7h As 4d Qs 5h 3d 6h 8s Kh Kc Ad Ks 9c Qc 2c 8d Td Ts Js 7c Tc 3h 4h 3s Kd 7s"
).split()

# A deal whose pyramid clears row by row with Kings and pyramid pairs, and whose talon is the
# hearts and spades A..Q with each pair summing to 13 drawn one after the other.
EASY_ROWS = [
    "Kc",
    "6c 7c",
    "5c 8c Kd",
    "3c Tc 4c 9c",
    "Ac Qc 2c Jc Kh",
    "4d 9d 5d 8d 6d 7d",
    "Ad Qd 2d Jd 3d Td Ks",
]
EASY_TALON = "Ah Qh As Qs 2h Jh 2s Js 3h Th 3s Ts 4h 9h 4s 9s 5h 8h 5s 8s 6h 7h 6s 7s".split()
EASY_CLEAR = [
    "Ks",
    "Ad+Qd",
    "2d+Jd",
    "3d+Td",
    "4d+9d",
    "5d+8d",
    "6d+7d",
    "Kh",
    "Ac+Qc",
    "2c+Jc",
    "3c+Tc",
    "4c+9c",
    "Kd",
    "5c+8c",
    "6c+7c",
    "Kc",
]


def complete(pyramid: dict[int, str] | list[str], talon: list[str] = ()) -> list[str]:
    """52 tokens: the given pyramid places and talon prefix, the rest filled in card order."""
    places = dict(enumerate(pyramid)) if isinstance(pyramid, list) else dict(pyramid)
    used = {Card(t) for t in list(places.values()) + list(talon)}
    assert len(used) == len(places) + len(talon), "a card is used twice"
    rest = iter(c.token for c in CARDS if c not in used)
    pyr = [places.get(i) or next(rest) for i in range(28)]
    return pyr + list(talon) + list(rest)


def easy_deal() -> Deal:
    return Deal.from_cards(" ".join(" ".join(EASY_ROWS).split() + EASY_TALON))


def seed000_deal() -> Deal:
    return Deal.from_cards(" ".join(complete(SEED000_PYRAMID, ["7d"])))


def clearable_deck(rng: random.Random) -> list[int]:
    """A random deal that can be cleared completely, even under win='all': removing the
    pyramid in descending position order, each pyramid card is a King or pairs with the next
    talon card (the four Kings and one card of each of the 24 rank-13 pairs in the pyramid,
    their partners in the talon)."""
    pairs = []
    for r in range(1, 7):
        lo = [s * 13 + r - 1 for s in range(4)]
        hi = [s * 13 + 12 - r for s in range(4)]
        rng.shuffle(hi)
        pairs += [(a, b) if rng.random() < 0.5 else (b, a) for a, b in zip(lo, hi)]
    rng.shuffle(pairs)
    kings = [s * 13 + 12 for s in range(4)]
    king_pos = set(rng.sample(range(28), 4))
    pyramid, talon, it = [0] * 28, [], iter(pairs)
    for i in range(27, -1, -1):
        if i in king_pos:
            pyramid[i] = kings.pop()
        else:
            p, t = next(it)
            pyramid[i] = p
            talon.append(t)
    return pyramid + talon


def run_main(capsys, *argv) -> tuple[int, str, str]:
    """The CLI's main(argv) -> (exit status, stdout, stderr); argparse exits by SystemExit."""
    from pyramid_solitaire.cli import main

    try:
        status = main(list(argv))
    except SystemExit as e:
        status = e.code
    out, err = capsys.readouterr()
    return status, out, err
