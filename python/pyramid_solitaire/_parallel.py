"""Thread counts and chunked work for the batch entry points (the core releases the GIL)."""
from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, TextIO


def resolve_threads(threads: int | None) -> int:
    """None or 0: all cores; n > 0: n; n < 0: cores + 1 + n (scikit-learn's convention)."""
    cores = os.cpu_count() or 1
    if threads is None or threads == 0:
        return cores
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise ValueError(f"threads must be a whole number or None, got {threads!r}")
    n = threads if threads > 0 else cores + 1 + threads
    if n < 1:
        raise ValueError(f"threads={threads} leaves no thread on this {cores}-core machine")
    return n


class Progress:
    """A one-line text progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, total: int, label: str, enabled: bool | None = None,
                 stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = (self.stream.isatty() if enabled is None else enabled) and total > 0
        self.total, self.label, self.done = total, label, 0
        self.start = time.perf_counter()
        self._last = 0.0

    def update(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if self.enabled and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            frac = self.done / self.total
            rate = self.done / max(now - self.start, 1e-9)
            bar = "#" * int(30 * frac)
            self.stream.write(f"\r{self.label} [{bar:<30}] {self.done:,}/{self.total:,} "
                              f"({rate:,.0f}/s)")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def run_chunks(work: Callable[[int, int], None], total: int, threads: int | None,
               chunk: int, progress: Progress | None = None) -> None:
    """Call work(lo, hi) over [0, total) in chunks, on `threads` threads (work releases the
    GIL). Results must not depend on the chunking: each item is computed on its own."""
    n = resolve_threads(threads)
    bounds = [(lo, min(lo + chunk, total)) for lo in range(0, total, chunk)]

    def one(b: tuple[int, int]) -> None:
        work(*b)
        if progress is not None:
            progress.update(b[1] - b[0])

    try:
        if n == 1 or len(bounds) <= 1:
            for b in bounds:
                one(b)
        else:
            with ThreadPoolExecutor(max_workers=n) as pool:
                for _ in pool.map(one, bounds):
                    pass
    finally:
        if progress is not None:
            progress.close()
