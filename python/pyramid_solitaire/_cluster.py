"""Tasks on other processes: a local process pool of the standard library, or a Dask
cluster (dask.distributed, the ``distributed`` extra). Surveys, and ``simulate`` and
``solve_many`` given a ``scheduler``, hand out their shards through :func:`run_tasks`.

A task is a picklable top-level function and its arguments; each runs the native batch code
on all the cores of the process that takes it (on the local pool, its share of the cores).
The results come back as they finish; the caller places them by index, so the order of
completion never shows in a result.
"""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor
from concurrent.futures import wait as wait_local
from typing import Any, Callable, Iterator, Sequence

from . import _args

IN_FLIGHT = 2          # tasks handed out per worker at a time


class _Local:
    """A process pool of ``workers`` processes (spawned: no state of the caller's threads is
    inherited), each running its tasks with its share of the cores."""

    def __init__(self, workers: int) -> None:
        self.threads = max(1, (os.cpu_count() or 1) // workers)
        self.pool = ProcessPoolExecutor(max_workers=workers,
                                        mp_context=multiprocessing.get_context("spawn"))
        self.width = workers

    def submit(self, fn: Callable, args: tuple, key: str | None, threads: bool):
        return self.pool.submit(fn, *args, self.threads) if threads else \
            self.pool.submit(fn, *args)

    def wait(self, pending: set) -> set:
        return wait_local(pending, return_when=FIRST_COMPLETED).done

    def close(self, cancel: bool) -> None:
        self.pool.shutdown(wait=not cancel, cancel_futures=cancel)


class _Dask:
    """A Dask cluster: its scheduler's address, or a ``distributed.Client`` (the caller's to
    close). A task is retried on another worker when its worker dies."""

    def __init__(self, scheduler: Any) -> None:
        try:
            import distributed
        except ImportError:
            raise ImportError('running on a cluster needs dask.distributed: python -m pip '
                              'install "pyramid-solitaire[distributed]"') from None
        self.distributed = distributed
        self.own = not isinstance(scheduler, distributed.Client)
        if self.own:
            if not isinstance(scheduler, str) or not scheduler.strip():
                raise ValueError("scheduler must be an address (tcp://host:port) or a "
                                 f"distributed.Client, got {_args.excerpt(scheduler)}")
            try:
                scheduler = distributed.Client(scheduler.strip(), timeout=10)
            except (OSError, TimeoutError) as e:
                raise ValueError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        self.client = scheduler
        self.width = max(1, len(self.client.scheduler_info().get("workers", {})))

    def submit(self, fn: Callable, args: tuple, key: str | None, threads: bool):
        return self.client.submit(fn, *args, key=key, pure=False, retries=2)

    def wait(self, pending: set) -> set:
        return set(self.distributed.wait(list(pending), return_when="FIRST_COMPLETED").done)

    def close(self, cancel: bool) -> None:
        if self.own:
            self.client.close()


def run_tasks(fn: Callable, tasks: Sequence[tuple], scheduler: Any = None, workers: Any = 1,
              keys: Sequence[str] | None = None, local_threads: bool = False,
              info: dict | None = None) -> Iterator[tuple[int, Any]]:
    """``fn(*tasks[i])`` for every i, on the local pool of ``workers`` processes (scheduler
    None) or on the Dask cluster ``scheduler``; yields ``(i, result)`` as each finishes, at
    most IN_FLIGHT tasks a worker handed out at a time. With ``local_threads`` the local
    pool passes each task its share of the cores as a last argument. ``keys``: the tasks'
    names on a cluster; ``info`` gets "workers", how many there are. Closing the iterator
    early (an error, Ctrl-C) cancels the rest."""
    runner = _Dask(scheduler) if scheduler is not None else _Local(
        _args.whole("workers", workers, 1, 4096))
    if info is not None:
        info["workers"] = runner.width
    cancel = True
    try:
        queue = list(range(len(tasks)))[::-1]
        pending: dict[Any, int] = {}
        while queue or pending:
            while queue and len(pending) < IN_FLIGHT * runner.width:
                i = queue.pop()
                pending[runner.submit(fn, tuple(tasks[i]), keys[i] if keys else None,
                                      local_threads)] = i
            for fut in runner.wait(set(pending)):
                i = pending.pop(fut)
                yield i, fut.result()
        cancel = False
    finally:
        runner.close(cancel)


def shards(n: int, size: int) -> list[tuple[int, int]]:
    """Rows 0 .. n-1 cut into (lo, hi) shards of ``size``."""
    return [(lo, min(n, lo + size)) for lo in range(0, n, size)]


class LazyTasks(Sequence):
    """``count`` tasks made when handed out (``make(i)``), so that a big run's arguments
    (a shard's layouts, say) are never all in memory at once."""

    def __init__(self, count: int, make: Callable[[int], tuple]) -> None:
        self.count, self.make = count, make

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i):  # type: ignore[override]
        return self.make(i)
