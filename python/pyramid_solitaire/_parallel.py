"""Thread counts, progress bars and chunked work for the batch entry points (the core
releases the GIL inside each chunk, so threads run in parallel)."""
from __future__ import annotations

import math
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Any, Callable, TextIO


def resolve_threads(threads: Any) -> int:
    """None: all cores; n >= 1: n; negative n: cores + 1 + n (scikit-learn's convention:
    -1 all cores, -2 all but one)."""
    cores = os.cpu_count() or 1
    if threads is None:
        return cores
    if isinstance(threads, bool) or not hasattr(threads, "__index__"):
        raise ValueError(f"threads must be a whole number or None, got {threads!r}")
    n = int(threads)
    if n == 0:
        raise ValueError("threads must be >= 1, or negative to count back from the number of "
                         f"cores (-1 = all {cores}), got 0")
    if n < 0:
        if cores + 1 + n < 1:
            raise ValueError(f"threads={n} leaves no thread on {cores} core(s): use -1 .. -{cores}")
        return cores + 1 + n
    return n


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class Progress:
    """A one-line text progress bar on stderr with rate and time left; drawn only when
    ``enabled`` is true (None: when stderr is a terminal). Updated from one thread."""

    def __init__(self, total: int, unit: str, enabled: bool | None = None,
                 stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = (_isatty(self.stream) if enabled is None else bool(enabled)
                        and _isatty(self.stream)) and total > 0
        self.total, self.unit, self.done = total, unit, 0
        self.start = time.perf_counter()
        self.last = 0.0
        if self.enabled:
            self._draw(force=True)

    def update(self, n: int) -> None:
        self.done += n
        if self.enabled:
            self._draw(force=self.done >= self.total)

    def _draw(self, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last < 0.1:
            return
        self.last = now
        frac = self.done / self.total
        filled = int(frac * 30)
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 and self.done else 0.0
        eta = (self.total - self.done) / rate if rate else float("nan")
        eta_text = f"{eta:4.0f}s left" if math.isfinite(eta) else ""
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {frac * 100:5.1f}% "
                          f"{self.done:,}/{self.total:,} {self.unit}  {rate:,.0f}/s  {eta_text}")
        self.stream.flush()

    def clear_line(self) -> None:
        """Blank the bar so that a line of output can be printed."""
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.clear_line()
            self.enabled = False


def run_chunks(work: Callable[[int, int], None], total: int, threads: Any, chunk: int,
               progress: Progress | None = None) -> int:
    """Call work(lo, hi) over [0, total) in chunks on `threads` threads; returns how many
    threads ran. Every item must be computed on its own, so results do not depend on the
    chunking or the thread count."""
    n = resolve_threads(threads)
    bounds = [(lo, min(lo + chunk, total)) for lo in range(0, total, chunk)]
    used = min(n, len(bounds))
    try:
        if used <= 1:
            for lo, hi in bounds:
                work(lo, hi)
                if progress is not None:
                    progress.update(hi - lo)
        else:
            with ThreadPoolExecutor(max_workers=used, thread_name_prefix="pyramid") as pool:
                pending = {pool.submit(work, lo, hi): hi - lo for lo, hi in bounds}
                try:
                    while pending:
                        done, _ = wait(pending, return_when=FIRST_COMPLETED)
                        for f in done:
                            f.result()
                            size = pending.pop(f)
                            if progress is not None:
                                progress.update(size)
                except BaseException:
                    for f in pending:
                        f.cancel()
                    raise
    finally:
        if progress is not None:
            progress.close()
    return max(1, used)
