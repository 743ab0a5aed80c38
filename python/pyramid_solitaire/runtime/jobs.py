"""One job runner for the studies kept in folders (surveys, the atlas): a job is cut into tasks,
each a range of deals, run on the local process pool or a Dask cluster (cluster.py), and each
finished task's result handed to the job's store as it comes back, so that an interrupted job
keeps every task it finished and a run resumes where any earlier one stopped.

The parts each study writes for itself are its plan (which tasks, with what arguments: a
survey's shards, the atlas's blocks), its store (a survey's Parquet shards, the atlas's JSON
blocks: a :class:`Store` writes one task's result where the next run finds it) and its
summary. The rest is here: the folder's lock, clearing a killed run's half-written files, the
progress bar over the whole job (tasks already on disk counted as done), the run itself,
the callbacks after each write and the timing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Generic, Protocol, TypeVar

from .atomic import lock_file
from .cluster import shard_results
from .parallel import ProgressArg, make_progress

T = TypeVar("T")


@dataclass(frozen=True)
class Task(Generic[T]):
    """One task of a job: ``fn(*args)`` works out deals ``lo .. hi - 1``; ``key`` names it on
    a cluster (the same task keeps its key from run to run); ``tag`` is the study's own
    (which shard, which row)."""

    args: tuple[Any, ...]
    lo: int
    hi: int
    key: str
    tag: T

    @property
    def deals(self) -> int:
        return self.hi - self.lo


class Store(Protocol[T]):
    """Where a job's finished tasks go: ``write`` keeps one task's result (atomically: a
    killed run leaves no half-written file under the final name) and says where."""

    def write(self, task: Task[T], result: Any) -> Path: ...


@dataclass
class JobRun(Generic[T]):
    """What one run of a job did: each task written now (in the order they finished) with
    its file and result, and the seconds it took."""

    written: list[tuple[Task[T], Path, Any]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def deals(self) -> int:
        return sum(task.deals for task, _, _ in self.written)

    @property
    def deals_per_second(self) -> float | None:
        return self.deals / self.seconds if self.deals and self.seconds > 0 else None


class FolderLock:
    """One run at a time into a folder: an exclusive lock on ``path`` (flock, or msvcrt on
    Windows); a second run is refused with ``busy`` rather than mixed in. Released on
    :meth:`close` (or at the end of a ``with`` block)."""

    def __init__(self, path: Path, busy: str) -> None:
        self._f: IO[str] = lock_file(path, busy)

    def close(self) -> None:
        self._f.close()  # releases the lock

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def clear_stale(folder: Path, pattern: str) -> None:
    """Remove a killed run's half-written files (``pattern``: their temporary names)."""
    if not folder.exists():
        return
    for stale in folder.glob(pattern):
        try:
            stale.unlink()
        except OSError:
            pass


def run_job(
    fn: Callable[..., Any],
    tasks: Sequence[Task[T]],
    store: Store[T],
    *,
    total: int,
    desc: str,
    progress: ProgressArg = False,
    scheduler: Any = None,
    workers: int = 1,
    on_written: Iterable[Callable[[Task[T], Path, Any], None]] = (),
) -> JobRun[T]:
    """Run ``tasks``: ``fn(*task.args)`` each, on the local pool of ``workers`` processes
    (with the task's share of the cores as a last argument) or on ``scheduler``'s cluster.
    Each result goes to ``store`` as it finishes, then to the ``on_written`` callbacks.
    ``total``: the job's deals, of which those not in ``tasks`` are done already (the bar
    starts there). Leaving in any way (the end, an error, Ctrl-C) cancels the tasks in
    flight at once; every task written stays written."""
    import time

    bar = make_progress(progress, total, "deals", desc=desc)
    bar.update(total - sum(task.deals for task in tasks))
    run: JobRun[T] = JobRun()
    callbacks = list(on_written)
    t0 = time.perf_counter()
    with shard_results(
        fn,
        [task.args for task in tasks],
        [(task.lo, task.hi) for task in tasks],
        bar,
        scheduler,
        workers=workers,
        keys=[task.key for task in tasks],
        local_threads=True,
    ) as results:
        for i, _, _, got in results:
            task = tasks[i]
            path = store.write(task, got)
            run.written.append((task, path, got))
            for callback in callbacks:
                callback(task, path, got)
    run.seconds = time.perf_counter() - t0
    return run
