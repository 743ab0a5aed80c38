"""Surveys of whole deal-number ranges: resumable, on one machine or on a Dask cluster.

A survey solves (policy ``solver``: perfect play) or plays (``greedy``, ``random``) the deal
numbers ``start .. start + count - 1`` under one rule set. The range is cut into shards of
``shard_size`` deals (tens of thousands: one task each, not millions of tiny ones); a shard
runs the native batch code on all the cores of the process that takes it, and its per-deal
rows become one Parquet file in the survey's folder, written atomically, beside
``_manifest.json``, the run's parameters:

- ``deal`` (uint64): the deal number;
- ``won`` (int8): solver: 1 winnable, 0 not, -1 undecided (its time budget ran out);
  playouts: 1 won, 0 lost;
- ``length`` (int16): solver: the length of the winning line found (the shortest one with
  ``objective="min_moves"``), -1 for the others; playouts: the moves played;
- ``removed`` (int8): the most pyramid cards removed: solver, the most removable (28 for a
  winnable deal; -1 when undecided, or for every lost deal with ``max_removed=False``, which
  saves the search for them: under ``msc`` it costs about twenty times the deciding);
  playouts, what the game removed;
- ``nodes`` (uint64): positions the solver searched (0 for playouts);
- ``seconds`` (float32): the deal's solving time; for playouts the shard's time shared out.

Run again with the same parameters into the same folder, a survey does only the shards that
are missing (after Ctrl-C, a killed worker or a killed client), cut short or of other
columns; with a larger count it grows (only the new deals are done); with other parameters
it refuses. Each shard file names its parameters and deals in its Parquet metadata
(:func:`shard_metadata`). :func:`report` and :func:`load` check every
shard they read (its Parquet, columns, rows and the range of every value) and name a
damaged one. Shards run on a local process pool (the standard library's; no extra needed) or,
with ``scheduler`` (an address or a ``distributed.Client``), on a Dask cluster, where a
worker that dies mid-shard has its shard redone (on the local pool too). A shard's rows
depend only on its deals and the parameters, so the results are the same whatever the shard
size, the number of workers and the order the shards finish in (with ``max_seconds``, which
deals are decided in time depends on the machine and its load). One run at a time uses a
folder (a lock file says so; another run into it is refused).

The Parquet files are pyarrow's, the ``survey`` extra (``pip install
"pyramid-solitaire[survey]"``; without it a survey says so before it starts); a cluster also
needs dask.distributed (the ``distributed`` extra).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

import numpy as np

from pyramid_core.shuffle import MAX_DEAL_NUMBER

from ..inputs.jsonin import loads
from ..model.rules import Rules
from ..runtime import args as _args
from ..runtime.atomic import write_atomic, write_atomic_with
from ..runtime.jobs import FolderLock, Task, clear_stale, run_job
from ..runtime.parallel import ProgressArg
from ..runtime.plotting import figure_path, pyplot, save_figure

FORMAT = "pyramid-solitaire survey 1"
MANIFEST = "_manifest.json"  # a leading _: readers of the folder as a dataset skip it
LOCK = ".lock"
POLICIES = ("solver", "greedy", "random")
OBJECTIVES = ("any", "min_moves")
DEFAULT_SHARD_SIZE = 20_000
MAX_SHARD_SIZE = 10_000_000
COLUMNS = {
    "deal": np.uint64,
    "won": np.int8,
    "length": np.int16,
    "removed": np.int8,
    "nodes": np.uint64,
    "seconds": np.float32,
}


#: what a survey says when pyarrow is not installed
NEEDS_PYARROW = (
    "surveys write and read Parquet files with pyarrow: python -m pip install "
    '"pyramid-solitaire[survey]"'
)


def _pyarrow() -> Any:
    """pyarrow with its Parquet module (imported when a survey needs it: it takes a while);
    ImportError saying which extra brings it when it is not installed."""
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError as e:
        if (e.name or "").split(".")[0] != "pyarrow":
            raise
        raise ImportError(NEEDS_PYARROW, name="pyarrow") from None
    return pyarrow


@dataclass(frozen=True)
class Plan:
    """A survey's parameters: what it computes (so what its manifest records)."""

    rules: Rules
    policy: str
    start: int
    count: int
    shard_size: int
    seed: int | None = None  # the random policy's
    objective: str = "any"  # the solver's
    max_seconds: float | None = None  # the solver's budget per deal (None: none)
    max_removed: bool = False  # the solver: also the most removable cards of lost deals

    @classmethod
    def make(
        cls,
        *,
        rules: Any,
        policy: str,
        start: Any,
        count: Any,
        shard_size: Any = DEFAULT_SHARD_SIZE,
        seed: Any = None,
        objective: str = "any",
        max_seconds: Any = None,
        max_removed: Any = None,
    ) -> Plan:
        """The plan of checked parameters (ValueError naming the bad one)."""
        rules = Rules.coerce(rules if rules is not None else "pyramide")
        policy = _args.choice("policy", policy, POLICIES)
        start = _args.whole("start", start, 0, MAX_DEAL_NUMBER)
        count = _args.whole("count", count, 1, MAX_DEAL_NUMBER + 1 - start)
        shard_size = _args.whole("shard_size", shard_size, 1, MAX_SHARD_SIZE)
        objective = _args.choice("objective", objective, OBJECTIVES)
        if policy == "random":
            from .simulate import _seed

            seed = _seed(seed, policy)  # a fresh one, as simulate draws it, or checked
        elif seed is not None:
            raise ValueError("seed goes with policy 'random' only")
        if policy != "solver" and (
            objective != "any" or max_seconds is not None or max_removed is not None
        ):
            raise ValueError("objective, max_seconds and max_removed go with policy 'solver' only")
        if max_seconds is not None:
            max_seconds = _args.real("max_seconds", max_seconds)
        max_removed = policy == "solver" and (
            max_removed is None or _args.flag("max_removed", max_removed)
        )
        return cls(
            rules, policy, start, count, shard_size, seed, objective, max_seconds, max_removed
        )

    @property
    def shards(self) -> int:
        return -(-self.count // self.shard_size)

    def deals(self, index: int) -> tuple[int, int]:
        """Shard ``index``'s deal numbers: lo .. hi - 1."""
        lo = self.start + index * self.shard_size
        return lo, min(lo + self.shard_size, self.start + self.count)

    def manifest(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "rules_name": self.rules.name,
            "policy": self.policy,
            "start": self.start,
            "count": self.count,
            "shard_size": self.shard_size,
            "seed": self.seed,
            "objective": self.objective,
            "max_seconds": self.max_seconds,
            "max_removed": self.max_removed,
        }

    @classmethod
    def from_manifest(cls, m: dict[str, Any]) -> Plan:
        if m.get("format") != FORMAT:
            raise ValueError(
                f"not a survey manifest of this version ({FORMAT!r} expected, "
                f"got {_args.excerpt(m.get('format'))})"
            )
        return cls.make(
            rules=Rules.from_dict(m["rules"]),
            policy=m["policy"],
            start=m["start"],
            count=m["count"],
            shard_size=m["shard_size"],
            seed=m["seed"],
            objective=m["objective"],
            max_seconds=m["max_seconds"],
            max_removed=m["max_removed"] if m["policy"] == "solver" else None,
        )

    @property
    def key(self) -> str:
        """A short digest of the parameters (task names on a cluster)."""
        text = json.dumps(self.manifest(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


#: The key of a shard file's own description in its Parquet metadata (:func:`shard_metadata`).
SHARD_KEY = "pyramid_solitaire.survey"


def shard_metadata(plan: Plan, index: int) -> str:
    """What a shard file says of itself (JSON, in its Parquet schema's metadata under
    :data:`SHARD_KEY`): the survey's parameters but its count (a survey may grow), the
    shard's index and its first and last deal numbers; so a shard read alone still says its
    rules, policy, seed and budget."""
    lo, hi = plan.deals(index)
    described = {k: v for k, v in plan.manifest().items() if k != "count"}
    return json.dumps({**described, "shard": index, "first": lo, "last": hi - 1}, sort_keys=True)


def shard_name(index: int) -> str:
    return f"shard-{index:07d}.parquet"


# ---- one shard: runs where the task runs (a pool process or a Dask worker) -----------------


def run_shard(
    manifest: dict[str, Any], index: int, threads: int | None = None
) -> dict[str, np.ndarray]:
    """The rows of shard ``index`` of the survey ``manifest`` (a plain dict, so that it
    travels to any process), on ``threads`` threads (None: all cores)."""
    from .simulate import simulate
    from .solver import solve_many

    plan = Plan.from_manifest(manifest)
    lo, hi = plan.deals(index)
    n = hi - lo
    numbers = np.arange(lo, hi, dtype=np.uint64)
    t0 = time.perf_counter()
    if plan.policy == "solver":
        solved = solve_many(
            numbers,
            plan.rules,
            objective=plan.objective,
            max_removed=plan.max_removed,
            threads=threads,
            max_seconds=plan.max_seconds,
        )
        won = solved.winnable.astype(np.int8)
        length = np.where(won == 1, solved.n_moves, -1)
        removed = np.where(won == 1, 28, np.where(won == 0, solved.max_removed, -1))  # -1 unasked
        nodes, seconds = solved.nodes, solved.seconds
    else:
        r = simulate(
            n, start=lo, rules=plan.rules, policy=plan.policy, seed=plan.seed, threads=threads
        )
        assert r.won is not None and r.moves is not None and r.removed is not None  # (arrays)
        won, length, removed = r.won, r.moves, r.removed
        nodes = np.zeros(n, np.uint64)
        seconds = np.full(n, (time.perf_counter() - t0) / n)
    rows = {
        "deal": numbers,
        "won": won,
        "length": length,
        "removed": removed,
        "nodes": nodes,
        "seconds": seconds,
    }
    return {k: np.ascontiguousarray(rows[k], dtype=t) for k, t in COLUMNS.items()}


# ---- the folder --------------------------------------------------------------------------


class ParquetShards:
    """The survey's store (runtime.jobs): each finished shard's rows as one Parquet file of
    the folder, written atomically under its final name (``shard-<index>.parquet``); the
    folder's manifest first, with the first shard of a new survey."""

    def __init__(self, folder: Path, plan: Plan) -> None:
        self.folder, self.plan = folder, plan
        self.undecided = 0  # deals of the shards written now that a budget left undecided

    def write(self, task: Task[int], result: Any) -> Path:
        pa = _pyarrow()
        manifest = self.folder / MANIFEST
        if not manifest.exists():
            text = json.dumps(self.plan.manifest(), indent=1, sort_keys=True) + "\n"
            write_atomic(manifest, text, mode=0o644)
        self.undecided += int(np.sum(result["won"] < 0))
        table = pa.table({k: result[k] for k in COLUMNS})
        table = table.replace_schema_metadata({SHARD_KEY: shard_metadata(self.plan, task.tag)})
        path = self.folder / shard_name(task.tag)
        write_atomic_with(
            path,
            lambda f: pa.parquet.write_table(table, f, compression="zstd"),
            mode=0o644,
        )
        return path


def _shard_done(folder: Path, plan: Plan, index: int) -> bool:
    """Whether shard ``index`` is on disk, whole (its row count as planned, its columns of
    their types): a shard cut short or of other columns is redone."""
    path = folder / shard_name(index)
    if not path.exists():
        return False
    pa = _pyarrow()
    lo, hi = plan.deals(index)
    try:
        f = pa.parquet.ParquetFile(path)
        return f.metadata.num_rows == hi - lo and _column_problem(f.schema_arrow) is None
    except (OSError, pa.ArrowException):
        return False


#: The values each column may hold (besides its type's range): (lowest, highest).
_RANGES = {"won": (-1, 1), "length": (-1, (1 << 15) - 1), "removed": (-1, 28)}


def _column_problem(schema: Any) -> str | None:
    """What is wrong with a shard's columns (a missing one, another type), or None."""
    pa = _pyarrow()
    for name, dtype in COLUMNS.items():
        if name not in schema.names:
            have = ", ".join(map(repr, schema.names)) or "no columns"
            return (
                f"it has no column {name!r} (it has {have}; a shard has "
                f"{', '.join(map(repr, COLUMNS))})"
            )
        have, want = schema.field(name).type, pa.from_numpy_dtype(np.dtype(dtype))
        if have != want:
            return f"its column {name!r} is of type {have}, not {want}"
    return None


def _read_shard(folder: Path, plan: Plan, index: int) -> dict[str, np.ndarray] | None:
    """Shard ``index``'s rows, checked: None when its file is missing; a damaged file (cut
    short, not Parquet, other columns, a value out of range) raises a ValueError naming the
    file and what is wrong."""
    path = folder / shard_name(index)
    if not path.exists():
        return None
    pa = _pyarrow()
    lo, hi = plan.deals(index)

    def damaged(what: str, resumed: bool = True) -> ValueError:
        # a resumed survey redoes a shard that _shard_done finds unfinished; other damage
        # (a value out of range) it cannot see
        fix = (
            "run the survey again to redo it"
            if resumed
            else "delete it and run the survey again to redo it"
        )
        return ValueError(f"survey shard {path} is damaged: {what}; {fix}")

    if not path.is_file():
        raise damaged("it is not a file", resumed=False)
    try:
        table = pa.parquet.read_table(path)
    except (OSError, pa.ArrowException) as e:
        text = " ".join(str(e).split())  # pyarrow's reason, without the path
        text = text.split(f"{path}': ", 1)[-1].split(f"{path}: ", 1)[-1]
        raise damaged(
            "not a readable Parquet file ("
            + (text if len(text) <= 120 else text[:117] + "...")
            + ")"
        ) from None
    problem = _column_problem(table.schema)
    if problem is not None:
        raise damaged(problem)
    if table.num_rows != hi - lo:
        raise damaged(
            f"it has {table.num_rows:,} rows, not the {hi - lo:,} deals "
            f"{lo:,}..{hi - 1:,} of shard {index}"
        )
    rows = {}
    for name in COLUMNS:
        column = table.column(name)
        if column.null_count:
            raise damaged(
                f"its column {name!r} has {column.null_count:,} empty values", resumed=False
            )
        rows[name] = column.to_numpy()
    expected = np.arange(lo, hi, dtype=np.uint64)
    if not np.array_equal(rows["deal"], expected):
        at = int(np.flatnonzero(rows["deal"] != expected)[0])
        raise damaged(
            f"row {at + 1:,} is deal {int(rows['deal'][at]):,}, not "
            f"{int(expected[at]):,} (shard {index} holds deals {lo:,}..{hi - 1:,})",
            resumed=False,
        )
    for name, (low, high) in _RANGES.items():
        values = rows[name]
        bad = np.flatnonzero((values < low) | (values > high))
        if bad.size:
            at = int(bad[0])
            raise damaged(
                f"column {name!r} holds {int(values[at])} for deal {lo + at:,}, "
                f"not a value {low}..{high}",
                resumed=False,
            )
    seconds = rows["seconds"]
    bad = np.flatnonzero(~np.isfinite(seconds) | (seconds < 0))
    if bad.size:
        at = int(bad[0])
        raise damaged(
            f"column 'seconds' holds {float(seconds[at])!r} for deal {lo + at:,}, "
            "not a time of 0 or more",
            resumed=False,
        )
    return rows


MAX_MANIFEST = 1 << 20  # a manifest is a few hundred bytes


def _manifest_at(path: Path) -> dict[str, Any]:
    """The manifest in ``path`` as a dict (ValueError when it is not one)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block, a device...
            raise ValueError("not a regular file")
        with open(path, "rb") as f:
            data = f.read(MAX_MANIFEST + 1)
        if len(data) > MAX_MANIFEST:
            raise ValueError(f"over {MAX_MANIFEST:,} bytes")
        have = loads(data, bom=True)
    except (OSError, ValueError) as e:
        raise ValueError(f"{path} is not a survey manifest ({e})") from None
    if not isinstance(have, dict):
        raise ValueError(f"{path} is not a survey manifest (not a JSON object)")
    return have


def _open_folder(folder: Path, plan: Plan) -> None:
    """Check that the folder's manifest, if any, is this plan's (with the folder's lock
    held: _lock). A new survey's manifest is written with its first shard (ParquetShards),
    so a run that never started (a scheduler out of reach) leaves nothing behind."""
    manifest = plan.manifest()
    path = folder / MANIFEST
    if path.exists():
        have = _manifest_at(path)
        if have != manifest:
            diff = sorted(k for k in set(have) | set(manifest) if have.get(k) != manifest.get(k))
            if diff == ["count"] and isinstance(have["count"], int):
                if have["count"] > plan.count:
                    raise ValueError(
                        f"{folder} holds a survey of {have['count']:,} deals from "
                        f"{plan.start:,}: give a count of at least that (a survey grows; "
                        "report reads any part of it)"
                    )
                # a survey grown to a larger count: its shards stay (the last one, when it
                # was cut at the old count, is redone whole); the manifest says the new count
                text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
                write_atomic(path, text, mode=0o644)
            else:
                advice = (
                    "another range goes in another folder"
                    if "start" in diff
                    else "resume it with its own"
                )
                raise ValueError(
                    f"{folder} holds a survey of other parameters ({', '.join(diff)} "
                    f"differ): {advice}, or use another folder"
                )
    else:
        if any(folder.glob("shard-*.parquet")):
            raise ValueError(f"{folder} has shards but no manifest: not a survey folder to reuse")
    clear_stale(folder, ".shard-*.tmp")  # a killed run's half-written shards


def _remove_empty(folder: Path) -> None:
    """Remove a folder this run made and wrote nothing into (its lock file aside)."""
    try:
        (folder / LOCK).unlink(missing_ok=True)
        folder.rmdir()
    except OSError:
        pass  # something else is in it: left as it is


def _lock(folder: Path) -> FolderLock:
    """The folder's lock for a run (its .lock file): a second run into the folder is refused
    rather than mixed in."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"survey folder {folder} is a file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"cannot use {folder} as a survey folder: {e}") from None
    return FolderLock(
        folder / LOCK,
        f"another survey run is using {folder}: wait for it to end (or stop it), then run again",
    )


def _folder_seed(folder: Path) -> int | None:
    """The seed of the random survey in ``folder``, if it holds one."""
    try:
        have = _manifest_at(folder / MANIFEST)
        return int(have["seed"]) if have.get("policy") == "random" else None
    except (ValueError, KeyError, TypeError):
        return None


def read_manifest(folder: str | os.PathLike[str]) -> Plan:
    path = _args.path_name("folder", folder) / MANIFEST
    if not path.exists():
        raise ValueError(f"{folder} is not a survey folder (no {MANIFEST})")
    have = _manifest_at(path)
    try:
        return Plan.from_manifest(have)
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"{path} is not a survey manifest ({type(e).__name__}: {e})") from None
    except ValueError as e:  # a parameter out of range, unknown rules...
        raise ValueError(f"survey manifest {path}: {e}") from None


# ---- running -----------------------------------------------------------------------------


class SurveyRun(TypedDict):
    """What :func:`survey` returns: the folder, its shards (done now, and before this run),
    the deals done now, and this run's seconds and deals per second."""

    folder: str
    shards: int
    done_now: int
    done_before: int
    deals_now: int
    undecided: int
    seconds: float
    deals_per_second: float | None


def survey(
    out: str | os.PathLike[str],
    *,
    rules: Any = "pyramide",
    policy: str = "solver",
    start: Any = 0,
    count: Any,
    shard_size: Any = DEFAULT_SHARD_SIZE,
    seed: Any = None,
    objective: str = "any",
    max_seconds: Any = None,
    max_removed: Any = None,
    scheduler: Any = None,
    workers: Any = 1,
    progress: ProgressArg = False,
    on_shard: Callable[[int], None] | None = None,
) -> SurveyRun:
    """Run (or resume) the survey of deals ``start .. start + count - 1`` into folder ``out``
    (see the module's docstring); returns a summary dict: the folder, the shards done now
    and before, the deals per second of this run.

    A random survey given no ``seed`` draws one (kept in the manifest), or resumes with the
    folder's. ``scheduler``: None for the local process pool of ``workers`` processes, or a Dask
    scheduler's address or a ``distributed.Client``. ``progress``: True for a bar (deals,
    rate, time left) or a callable ``progress(done, total)``. ``on_shard(index)`` is called
    after each shard is written (tests stop a run there)."""
    folder = _args.path_name("out", out)
    if seed is None and isinstance(policy, str) and policy.strip().lower() == "random":
        seed = _folder_seed(folder)  # resuming without the seed: the folder's
    plan = Plan.make(
        rules=rules,
        policy=policy,
        start=start,
        count=count,
        shard_size=shard_size,
        seed=seed,
        objective=objective,
        max_seconds=max_seconds,
        max_removed=max_removed,
    )
    workers = _args.workers(workers)
    _pyarrow()  # the extra, once the arguments are known good and before anything is done
    created = not folder.exists()
    store = ParquetShards(folder, plan)
    try:
        with _lock(folder):
            _open_folder(folder, plan)
            manifest = plan.manifest()
            tasks = [
                Task((manifest, i), *plan.deals(i), key=f"pyramid-survey-{plan.key}-{i}", tag=i)
                for i in range(plan.shards)
                if not _shard_done(folder, plan, i)
            ]
            ran = run_job(
                run_shard,
                tasks,
                store,
                total=plan.count,
                desc=f"survey {plan.rules.name}",
                progress=progress,
                scheduler=scheduler,
                workers=workers,
                on_written=[]
                if on_shard is None
                else [lambda task, _path, _rows: on_shard(task.tag)],
            )  # an interruption: the shards in flight are cancelled, the written ones kept
    finally:
        if created and not (folder / MANIFEST).exists():  # never started: leave nothing
            _remove_empty(folder)
    return SurveyRun(
        folder=str(folder),
        shards=plan.shards,
        done_now=len(ran.written),
        done_before=plan.shards - len(tasks),
        deals_now=ran.deals,
        undecided=store.undecided,
        seconds=ran.seconds,
        deals_per_second=ran.deals_per_second,
    )


# ---- reading and reporting ---------------------------------------------------------------


def load(folder: str | os.PathLike[str]) -> tuple[Plan, dict[str, np.ndarray], int]:
    """A survey folder's plan, its finished shards' rows (in deal order, all in memory: about
    24 bytes a deal) and how many shards are still missing. A damaged shard raises a
    ValueError naming it."""
    folder = _args.path_name("folder", folder)
    _pyarrow()
    plan = read_manifest(folder)
    parts, missing = [], 0
    for i in range(plan.shards):
        rows = _read_shard(folder, plan, i)
        if rows is None:
            missing += 1
        else:
            parts.append(rows)
    out = {
        k: (
            np.concatenate([p[k] for p in parts]).astype(c, copy=False) if parts else np.zeros(0, c)
        )
        for k, c in COLUMNS.items()
    }
    return plan, out, missing


def to_pandas(folder: str | os.PathLike[str]) -> Any:
    """A survey folder's finished shards as one pandas DataFrame in the layout every
    per-deal result shares (:mod:`.layout`: deal, code, rules, policy, won (<NA>:
    undecided), moves, removed, nodes, seconds), so that a survey, a simulation and
    ``solve_many`` compare column by column; the plan (with ``missing_shards``) in
    ``.attrs``. Needs pandas (and pyarrow, as every survey)."""
    from .layout import frame

    plan, rows, missing = load(folder)
    n = len(rows["deal"])
    df = frame(
        "survey.to_pandas()",
        rules=plan.rules,
        policy=plan.policy,
        deal=rows["deal"],
        numbered=np.ones(n, np.bool_),
        won=rows["won"] == 1,
        decided=rows["won"] >= 0,
        moves=np.maximum(rows["length"], 0),
        moves_known=rows["length"] >= 0,
        removed=np.maximum(rows["removed"], 0),
        removed_known=rows["removed"] >= 0,
        nodes=rows["nodes"],
        seconds=rows["seconds"] if plan.policy == "solver" else None,
    )
    df.attrs.update(plan.manifest(), missing_shards=missing)
    return df


class SurveyReport(TypedDict):
    """What :func:`report` returns (JSON-ready)."""

    folder: str
    rules: dict[str, Any]
    policy: str
    objective: str | None
    seed: int | None
    start: int
    count: int
    shards: int
    missing_shards: int
    deals: int
    decided: int
    wins: int
    win_rate: float | None
    ci95: list[float] | None
    length_histogram: dict[str, int]
    removed_histogram: dict[str, int]
    mean_length: float | None
    mean_removed: float | None
    nodes: int
    seconds: float


def report(folder: str | os.PathLike[str]) -> SurveyReport:
    """The results of a survey folder as JSON-ready data: the win rate with its 95% (Wilson)
    interval over the decided deals, the distribution of the winning lines' lengths (the
    solver's lines, or the won games' moves) and of the pyramid cards removed, the totals of
    nodes and seconds, and how many shards are missing (a survey still under way). Every
    shard is checked as it is read: a damaged one (cut short, not Parquet, other columns, a
    value out of range) raises a ValueError naming its file and what is wrong."""
    from .intervals import wilson_interval

    folder = _args.path_name("folder", folder)
    _pyarrow()
    plan = read_manifest(folder)
    missing = deals = decided = wins = nodes = 0
    seconds = 0.0
    lengths = np.zeros(1 << 15, np.int64)
    removed = np.zeros(29, np.int64)
    for i in range(plan.shards):  # shard by shard: a survey of any size fits
        rows = _read_shard(folder, plan, i)
        if rows is None:
            missing += 1
            continue
        won = rows["won"]
        length = rows["length"].astype(np.int64)
        rem = rows["removed"].astype(np.int64)
        deals += won.size
        decided += int(np.sum(won >= 0))
        wins += int(np.sum(won == 1))
        lengths += np.bincount(length[(won == 1) & (length >= 0)], minlength=lengths.size)
        removed += np.bincount(rem[rem >= 0], minlength=29)
        top, bottom = rows["nodes"] >> np.uint64(32), rows["nodes"] & np.uint64(0xFFFFFFFF)
        nodes += (int(top.sum()) << 32) + int(bottom.sum())  # never wraps round 2**64
        seconds += float(rows["seconds"].astype(np.float64).sum())
    low, high = wilson_interval(wins, decided) if decided else (None, None)

    def mean(hist: np.ndarray) -> float | None:
        total = int(hist.sum())
        return float(np.dot(np.arange(hist.size), hist) / total) if total else None

    return SurveyReport(
        {
            "folder": str(folder),
            "rules": plan.rules.describe_dict(),
            "policy": plan.policy,
            "objective": plan.objective if plan.policy == "solver" else None,
            "seed": plan.seed,
            "start": plan.start,
            "count": plan.count,
            "shards": plan.shards,
            "missing_shards": missing,
            "deals": deals,
            "decided": decided,
            "wins": wins,
            "win_rate": wins / decided if decided else None,
            "ci95": None if low is None or high is None else [low, high],
            "length_histogram": {str(k): int(v) for k, v in enumerate(lengths) if v},
            "removed_histogram": {str(k): int(v) for k, v in enumerate(removed) if v},
            "mean_length": mean(lengths),
            "mean_removed": mean(removed),
            "nodes": nodes,
            "seconds": seconds,
        }
    )


def report_text(rep: SurveyReport) -> str:
    """The report as text (what ``survey report`` prints)."""
    from .report import histogram_table

    what = {
        "solver": f"perfect play (solver, objective {rep['objective']})",
        "greedy": "the greedy policy",
        "random": f"the random policy (seed {rep['seed']})",
    }[rep["policy"]]
    lines = [
        f"survey {rep['folder']}: {what}, rules {rep['rules']['name']}",
        f"deals {rep['start']:,}..{rep['start'] + rep['count'] - 1:,}: {rep['deals']:,} done"
        + (
            f" ({rep['missing_shards']:,} of {rep['shards']:,} shards missing: resume the "
            "survey to finish it)"
            if rep["missing_shards"]
            else ""
        ),
    ]
    rate, ci95 = rep["win_rate"], rep["ci95"]
    if rate is not None and ci95 is not None:  # (some deals decided)
        low, high = ci95
        label = "winnable" if rep["policy"] == "solver" else "won"
        lines.append(
            f"{label} {rep['wins']:,} of {rep['decided']:,}: {rate * 100:.3f}% "
            f"(95% interval {low * 100:.3f}% .. {high * 100:.3f}%)"
        )
        if rep["decided"] < rep["deals"]:
            lines.append(f"undecided (budget ran out) {rep['deals'] - rep['decided']:,}")
    if rep["length_histogram"]:
        name = "winning line length" if rep["policy"] == "solver" else "moves of won games"
        lines += [
            "",
            f"{name}: mean {rep['mean_length']:.2f}",
            _length_table({int(k): v for k, v in rep["length_histogram"].items()}),
        ]
    if rep["removed_histogram"]:
        hist = [0] * 29
        for k, v in rep["removed_histogram"].items():
            hist[int(k)] = v
        lines += [
            "",
            f"pyramid cards removed: mean {rep['mean_removed']:.2f}",
            histogram_table(hist),
        ]
    if rep["policy"] == "solver":
        lines += ["", f"solver: {rep['nodes']:,} positions, {rep['seconds']:,.1f} s of solving"]
    return "\n".join(lines)


def _length_table(hist: dict[int, int], width: int = 40) -> str:
    total, top = sum(hist.values()), max(hist.values())
    rows = [f"{'length':>7}  {'deals':>12}  {'share':>7}"]
    for k in range(min(hist), max(hist) + 1):
        n = hist.get(k, 0)
        bar = "#" * round(n / top * width) if n else ""
        rows.append(f"{k:>7}  {n:>12,}  {n / total * 100:>6.2f}%  {bar or ('.' if n else '')}")
    return "\n".join(rows)


def plot(rep: SurveyReport, path: str | os.PathLike[str]) -> None:
    """The two distributions of a report as a figure saved to ``path`` (needs matplotlib:
    the plot extra)."""
    figure_path(path)
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, counts, label in (
        (axes[0], rep["length_histogram"], "winning line length"),
        (axes[1], rep["removed_histogram"], "pyramid cards removed"),
    ):
        hist = {int(k): v for k, v in counts.items()}
        ax.bar(list(hist), list(hist.values()), color="#3a6ea5")
        ax.set_xlabel(label)
        ax.set_ylabel("deals")
    rate = rep["win_rate"]
    fig.suptitle(
        f"{rep['rules']['name']}, {rep['policy']}: {_args.count_of(rep['deals'], 'deal')}"
        + (f", {rate * 100:.2f}% won" if rate is not None else "")
    )
    fig.tight_layout()
    save_figure(fig, path)
