"""Tasks on other processes: a local process pool of the standard library, or a Dask
cluster (dask.distributed, the ``distributed`` extra). Surveys, and ``simulate`` and
``solve_many`` given a ``scheduler``, hand out their shards through :func:`run_tasks`.

A task is a picklable top-level function and its arguments; each runs the native batch code
on all the cores of the process that takes it (on the local pool, its share of the cores).
The results come back as they finish; the caller places them by index, so the order of
completion never shows in a result.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor
from concurrent.futures import wait as wait_local
from concurrent.futures.process import BrokenProcessPool
from typing import Any, overload

from . import args as _args

IN_FLIGHT = 2  # tasks handed out per worker at a time
RETRIES = 2  # times a task is handed out again after its worker died


def watch_parent() -> None:
    """In a pool's worker (the pool's initializer): end this process as soon as the process
    that started the pool is gone, however it ended (killed with SIGKILL too), so that no
    worker outlives its client holding its files and output open. The results the client
    received are kept by it (a survey's shards, the atlas's blocks); the worker's task in
    flight is lost with it and done again by the next run. On every platform: the spawned
    worker's parent sentinel (a pipe on POSIX, the process handle on Windows) becomes ready
    when the parent ends."""
    import multiprocessing.connection
    import threading

    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:  # pragma: no cover - not a pool worker
        return

    def watch(sentinel: Any) -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(1)  # (no cleanup to wait for: the parent, which wanted the results, is gone)

    threading.Thread(
        target=watch, args=(parent.sentinel,), daemon=True, name="pyramid-parent"
    ).start()


class _Local:
    """A process pool of ``workers`` processes (spawned: no state of the caller's threads is
    inherited), each running its tasks with its share of the cores."""

    lost = BrokenProcessPool  # what a task's result raises when its process died

    def __init__(self, workers: int) -> None:
        self.threads = max(1, (os.cpu_count() or 1) // workers)
        self.width = workers
        self.pool = self._new()

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.width,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=watch_parent,
        )

    def restart(self) -> None:
        """A new pool after a worker died (the old one is broken: all its tasks are lost)."""
        self.close(True)
        self.pool = self._new()

    def refresh(self) -> None:
        pass

    def submit(
        self, fn: Callable[..., Any], args: tuple[Any, ...], key: str | None, threads: bool
    ) -> Any:
        return self.pool.submit(fn, *args, self.threads) if threads else self.pool.submit(fn, *args)

    def wait(self, pending: set[Any]) -> set[Any]:
        return wait_local(pending, return_when=FIRST_COMPLETED).done

    def close(self, cancel: bool, pending: Any = ()) -> None:
        if not cancel:
            self.pool.shutdown(wait=True)
            return
        # Ctrl-C, an error or a dead worker: the running tasks are stopped, not waited for.
        # A process stopped while it sends a result leaves half a message in the result
        # pipe, on which the pool's manager thread would wait for ever (and the interpreter's
        # exit with it): once the processes are gone, the pipe's last writing end (this
        # process's) is closed, so that the manager reads the end of it and stops.
        procs = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.join(5)
        writer = getattr(getattr(self.pool, "_result_queue", None), "_writer", None)
        if writer is not None:
            try:
                writer.close()
            except OSError:  # pragma: no cover
                pass


class _Dask:
    """A Dask cluster: its scheduler's address, or a ``distributed.Client`` (the caller's to
    close). A task is retried on another worker when its worker dies."""

    def __init__(self, scheduler: Any) -> None:
        try:
            import distributed
        except ImportError:
            raise ImportError(
                "running on a cluster needs dask.distributed: python -m pip "
                'install "pyramid-solitaire[distributed]"',
                name="distributed",
            ) from None
        self.distributed = distributed
        self.own = not isinstance(scheduler, distributed.Client)
        if self.own:
            if not isinstance(scheduler, str) or not scheduler.strip():
                raise ValueError(
                    "scheduler must be an address (tcp://host:port) or a "
                    f"distributed.Client, got {_args.excerpt(scheduler)}"
                )
            try:
                scheduler = distributed.Client(  # type: ignore[no-untyped-call]
                    scheduler.strip(), timeout=10
                )
            except (OSError, TimeoutError) as e:
                raise ValueError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        self.client = scheduler
        self.lost = ()  # Dask redoes a dead worker's tasks itself
        self.checked = 0.0
        self.refresh()
        if self.count == 0:  # the tasks wait for one
            print(
                f"pyramid-solitaire: the Dask scheduler at {self.client.scheduler.address} has "
                "no workers yet: the tasks wait until one joins (dask worker ADDRESS)",
                file=sys.stderr,
                flush=True,
            )

    def refresh(self) -> None:
        """The number of workers, asked again every few seconds (workers come and go)."""
        if time.monotonic() - self.checked > 5:
            self.count = len(self.client.scheduler_info().get("workers", {}))
            self.width = max(1, self.count)
            self.checked = time.monotonic()

    def restart(self) -> None:  # pragma: no cover - never: lost is empty
        pass

    def submit(
        self, fn: Callable[..., Any], args: tuple[Any, ...], key: str | None, threads: bool
    ) -> Any:
        return self.client.submit(fn, *args, key=key, pure=False, retries=2)

    def wait(self, pending: set[Any]) -> set[Any]:
        wait = self.distributed.wait
        done = wait(list(pending), return_when="FIRST_COMPLETED").done  # type: ignore[no-untyped-call]
        return set(done)

    def close(self, cancel: bool, pending: Any = ()) -> None:
        if cancel and pending:
            self.client.cancel(list(pending))
        if self.own:
            self.client.close()


def run_tasks(
    fn: Callable[..., Any],
    tasks: Sequence[tuple[Any, ...]],
    scheduler: Any = None,
    workers: Any = 1,
    keys: Sequence[str] | None = None,
    local_threads: bool = False,
    info: dict[str, Any] | None = None,
) -> Generator[tuple[int, Any], None, None]:
    """``fn(*tasks[i])`` for every i, on the local pool of ``workers`` processes (scheduler
    None) or on the Dask cluster ``scheduler``; yields ``(i, result)`` as each finishes, at
    most IN_FLIGHT tasks a worker handed out at a time. With ``local_threads`` the local
    pool passes each task its share of the cores as a last argument. ``keys``: the tasks'
    names on a cluster; ``info`` gets "workers", how many there are. Closing the iterator
    early (an error, Ctrl-C) cancels the rest."""
    runner = _Dask(scheduler) if scheduler is not None else _Local(_args.workers(workers))
    if info is not None:
        info["workers"] = runner.width
    cancel = True
    tries = [0] * len(tasks)
    pending: dict[Any, int] = {}
    try:
        queue = list(range(len(tasks)))[::-1]
        while queue or pending:
            runner.refresh()
            while queue and len(pending) < IN_FLIGHT * runner.width:
                i = queue.pop()
                pending[
                    runner.submit(fn, tuple(tasks[i]), keys[i] if keys else None, local_threads)
                ] = i
            for fut in runner.wait(set(pending)):
                i = pending.pop(fut)
                try:
                    result = fut.result()
                except runner.lost:
                    # a local worker process died (killed, out of memory): the pool is
                    # broken, so every task in flight is handed out again on a new one
                    lost = sorted([i, *pending.values()])
                    pending.clear()
                    for j in lost:
                        tries[j] += 1
                        if tries[j] > RETRIES:
                            raise RuntimeError(
                                f"a worker process died {tries[j]} times on task {j}: giving up"
                            ) from None
                    runner.restart()
                    queue.extend(reversed(lost))
                    break
                yield i, result
        cancel = False
    finally:
        runner.close(cancel, pending)


def shards(n: int, size: int) -> list[tuple[int, int]]:
    """Rows 0 .. n-1 cut into (lo, hi) shards of ``size``."""
    return [(lo, min(n, lo + size)) for lo in range(0, n, size)]


@contextlib.contextmanager
def shard_results(
    fn: Callable[..., Any],
    tasks: Sequence[tuple[Any, ...]],
    parts: Sequence[tuple[int, int]],
    bar: Any,
    scheduler: Any = None,
    **run: Any,
) -> Iterator[Iterator[tuple[int, int, int, Any]]]:
    """The loop every sharded run makes: ``fn(*tasks[i])`` for the shard ``parts[i]`` (rows
    lo .. hi-1) through :func:`run_tasks` (``run``: its other arguments), yielding
    ``(i, lo, hi, result)`` as each shard finishes and then advancing the progress ``bar`` by
    its rows. Leaving the ``with`` block in any way (the end, an error, Ctrl-C) cancels the
    shards in flight at once and closes the bar."""
    results = run_tasks(fn, tasks, scheduler, **run)

    def each() -> Iterator[tuple[int, int, int, Any]]:
        for i, got in results:
            lo, hi = parts[i]
            yield i, lo, hi, got
            bar.update(hi - lo)

    try:
        yield each()
    finally:
        results.close()
        bar.close()


def place(rows: dict[str, Any], lo: int, hi: int, got: dict[str, Any]) -> None:
    """A shard's columns into rows lo .. hi-1 of the run's arrays."""
    for k, v in got.items():
        rows[k][lo:hi] = v


class LazyTasks(Sequence[tuple[Any, ...]]):
    """``count`` tasks made when handed out (``make(i)``), so that a big run's arguments
    (a shard's layouts, say) are never all in memory at once."""

    def __init__(self, count: int, make: Callable[[int], tuple[Any, ...]]) -> None:
        self._count, self.make = count, make  # (not .count: Sequence's method)

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, i: int) -> tuple[Any, ...]: ...
    @overload
    def __getitem__(self, i: slice) -> list[tuple[Any, ...]]: ...
    def __getitem__(self, i: int | slice) -> tuple[Any, ...] | list[tuple[Any, ...]]:
        if isinstance(i, slice):
            return [self.make(j) for j in range(*i.indices(self._count))]
        return self.make(i)
