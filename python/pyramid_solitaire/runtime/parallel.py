"""Running native work so that it can be stopped: threads, cancellation, progress.

The core releases the GIL, so its batch entry points run in worker threads while the calling
thread waits in Python, where it sees Ctrl-C (``KeyboardInterrupt``) and the caller's
``cancel`` event. Either one sets a one-byte flag that the native loops read (the solver
every 1,024 positions, the batch loops between deals), so the work stops within
milliseconds; the calling thread then re-raises: ``KeyboardInterrupt`` for Ctrl-C,
:class:`Cancelled` for the event. Progress is reported from the calling thread only.

``progress`` anywhere in the API: ``False``/``None`` (nothing), ``True`` (a tqdm bar on
stderr, or a notebook widget through ``tqdm.auto``), or a callable ``progress(done, total)``.
``cancel``: any object with ``is_set()``, such as a ``threading.Event``; it is polled every
50 ms.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import numpy as np

from .args import threads as resolve_threads

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = [
    "Cancelled",
    "Progress",
    "make_progress",
    "new_flag",
    "resolve_threads",
    "run_call",
    "run_chunks",
]

POLL_SECONDS = 0.05


class Cancelled(Exception):
    """The work was stopped because its ``cancel`` event was set."""

    def __init__(self, what: str = "the work") -> None:
        super().__init__(f"{what} was cancelled")


def new_flag() -> np.ndarray:
    """The one-byte flag the native loops read: non-zero means stop."""
    return np.zeros(1, dtype=np.uint8)


class CancelEvent(Protocol):
    """What ``cancel=`` takes everywhere: anything with ``is_set()``, such as a
    ``threading.Event``; the work stops soon after it is set."""

    def is_set(self) -> bool: ...


#: What ``progress=`` takes everywhere: True (a tqdm bar), False or None (nothing), a
#: callable ``progress(done, total)``, or a :class:`Progress` of the caller's.
ProgressArg: TypeAlias = "bool | None | Callable[[int, int], object] | Progress"


class Progress:
    """What the batch code reports progress to: a tqdm bar, a callback or nothing."""

    def __init__(
        self,
        total: int,
        unit: str,
        progress: ProgressArg = False,
        desc: str | None = None,
        delay: float = 0.0,
    ) -> None:
        self.total, self.done = total, 0
        self._bar: tqdm[Any] | None = None
        self._callback: Callable[[int, int], Any] | None = None
        self._pending: dict[str, Any] | None = None  # a bar drawn only after `delay` seconds
        if callable(progress) and not isinstance(progress, bool):
            self._callback = progress
        elif not isinstance(progress, (bool, type(None))):
            from .args import excerpt

            raise ValueError(
                "progress must be True, False or a callable progress(done, total),"
                f" got {excerpt(progress)}"
            )
        elif progress:
            self._pending = dict(
                total=total or None,
                unit=unit,
                desc=desc,
                dynamic_ncols=True,
                leave=False,
                unit_scale=total > 100_000,
            )
            if not total:  # work of unknown size: the time it has taken so far
                self._pending["bar_format"] = "{desc}... {elapsed}"
            self._start, self._delay = time.monotonic(), delay
            self._show()

    def _show(self) -> None:
        if self._pending is not None and time.monotonic() - self._start >= self._delay:
            from tqdm.auto import tqdm

            self._bar = tqdm(initial=self.done, **self._pending)
            self._bar.start_t -= time.monotonic() - self._start  # the time since the work began
            self._pending = None

    @property
    def enabled(self) -> bool:
        return self._bar is not None or self._callback is not None or self._pending is not None

    def update(self, n: int) -> None:
        self.done += n
        self._show()
        if self._bar is not None:
            self._bar.update(n)
        if self._callback is not None:
            self._callback(self.done, self.total)

    def refresh(self) -> None:
        """Redraw (a bar with no total shows the time spent)."""
        self._show()
        if self._bar is not None:
            self._bar.refresh()

    def write(self, text: str, out: Callable[[str], object] | None = None) -> None:
        """Print a line of output without breaking the bar (with ``out(text)`` if given)."""
        if self._bar is not None:
            self._bar.clear()
        if out is None:
            print(text, flush=True)
        else:
            out(text)
        if self._bar is not None:
            self._bar.refresh()

    def close(self) -> None:
        self._pending = None
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def make_progress(
    progress: ProgressArg, total: int, unit: str, desc: str | None = None
) -> Progress:
    """A :class:`Progress` from the API's ``progress`` argument (or one given through)."""
    if isinstance(progress, Progress):
        return progress
    return Progress(total, unit, progress, desc)


def _check_cancel(cancel: Any) -> None:
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        from .args import excerpt

        raise ValueError(
            f"cancel must be an event with is_set() (threading.Event), got {excerpt(cancel)}"
        )


def _drain(pool: ThreadPoolExecutor, pending: dict[Any, Any], flag: np.ndarray) -> None:
    """Stop everything: raise the flag, drop what has not started, wait for the rest (the
    native loops see the flag within milliseconds)."""
    flag[0] = 1
    for f in pending:
        f.cancel()
    pool.shutdown(wait=True)


def run_chunks(
    work: Callable[[int, int, np.ndarray], None],
    total: int,
    threads: Any,
    chunk: int,
    progress: Progress | None = None,
    cancel: CancelEvent | None = None,
    what: str = "the batch",
) -> int:
    """Call ``work(lo, hi, flag)`` over [0, total) in chunks on ``threads`` worker threads and
    return how many ran. Every item must be computed on its own, so results do not depend on
    the chunking or the thread count. Ctrl-C or ``cancel`` stop it (see the module)."""
    _check_cancel(cancel)
    if cancel is not None and cancel.is_set():
        raise Cancelled(what)
    n = resolve_threads(threads)
    flag = new_flag()
    bounds: Iterator[tuple[int, int]] = (
        (lo, min(lo + chunk, total)) for lo in range(0, total, chunk)
    )
    chunks = -(-total // chunk) if total else 0
    used = max(1, min(n, chunks))
    pool = ThreadPoolExecutor(max_workers=used, thread_name_prefix="pyramid")
    pending: dict[Future[Any], int] = {}
    try:
        more = True
        while more or pending:
            while more and len(pending) < 2 * used:  # a short queue: quick to cancel
                lohi = next(bounds, None)
                if lohi is None:
                    more = False
                    break
                pending[pool.submit(work, lohi[0], lohi[1], flag)] = lohi[1] - lohi[0]
            done, _ = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for f in done:
                size = pending.pop(f)
                f.result()
                if progress is not None:
                    progress.update(size)
            if cancel is not None and cancel.is_set():
                raise Cancelled(what)
    except BaseException:
        _drain(pool, pending, flag)
        raise
    pool.shutdown(wait=True)
    return used


def run_call(
    fn: Callable[[np.ndarray], Any],
    cancel: CancelEvent | None = None,
    progress: Progress | None = None,
    what: str = "the search",
) -> Any:
    """``fn(flag)`` in a worker thread, the calling thread waiting where it sees Ctrl-C and
    ``cancel``; ``progress`` (a bar with no total) is refreshed while it waits."""
    _check_cancel(cancel)
    if cancel is not None and cancel.is_set():
        raise Cancelled(what)
    flag = new_flag()
    box: dict[str, Any] = {}
    finished = threading.Event()  # waited on instead of join(): an interrupted join() can
    # leave a thread that reads as alive forever (CPython 3.11)

    def target() -> None:
        try:
            box["result"] = fn(flag)
        except BaseException as e:  # handed to the caller
            box["error"] = e
        finally:
            finished.set()

    worker = threading.Thread(target=target, name="pyramid-call", daemon=True)
    try:
        worker.start()
        while not finished.wait(POLL_SECONDS):
            if progress is not None:
                progress.refresh()
            if cancel is not None and cancel.is_set():
                raise Cancelled(what)
    except BaseException:
        flag[0] = 1
        if worker.ident is not None:  # started: wait for it to see the flag
            finished.wait()
            worker.join()
        raise
    finally:
        if progress is not None:
            progress.close()
    worker.join()
    if cancel is not None and cancel.is_set():
        raise Cancelled(what)
    if "error" in box:
        raise box["error"]
    return box["result"]


def map_ordered(
    fn: Callable[[Any, np.ndarray], Any],
    items: Iterable[Any],
    threads: Any,
    cancel: CancelEvent | None = None,
    what: str = "the batch",
) -> Generator[Any, None, None]:
    """``fn(item, flag)`` for every item on worker threads, yielded in the items' order as
    soon as each is ready (for output that streams in input order). Ctrl-C and ``cancel``
    stop it like :func:`run_chunks`.

    ``items`` other than a list or tuple is a stream, read on a thread of its own (at most
    two items a worker ahead): making the next item (reading a file, a pipe that waits for
    its writer) never holds back a result that is ready. An error the stream raises is
    raised after the results of the items before it.

    A caller that may stop reading early closes the generator (``try``/``finally:
    gen.close()``): its worker threads end then, not whenever it is collected."""
    _check_cancel(cancel)
    n = resolve_threads(threads)
    if isinstance(items, (list, tuple)):
        n = max(1, min(n, len(items)))
    feed = _Feed(items, 2 * n)
    flag = new_flag()
    pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="pyramid")
    pending: deque[Future[Any]] = deque()
    error: BaseException | None = None
    more = True
    try:
        while more or pending:
            while pending and pending[0].done():
                yield pending.popleft().result()
            if cancel is not None and cancel.is_set():
                raise Cancelled(what)
            if more and len(pending) < 2 * n:
                got = feed.next(POLL_SECONDS / 10 if pending else POLL_SECONDS)
                if got is _END or isinstance(got, _Raised):
                    more = False
                    error = got.error if isinstance(got, _Raised) else None
                elif got is not _NOTHING:
                    pending.append(pool.submit(fn, got, flag))
            elif pending:
                wait([pending[0]], timeout=POLL_SECONDS)
    except BaseException:
        feed.stop()
        _drain(pool, dict.fromkeys(pending, 0), flag)
        raise
    pool.shutdown(wait=True)
    if error is not None:
        raise error


_END = object()  # (map_ordered: the items ran out)
_NOTHING = object()  # (map_ordered: no item yet)


class _Raised:
    def __init__(self, error: BaseException) -> None:
        self.error = error


class _Feed:
    """map_ordered's items: a list read as it is, any other iterable on a daemon thread that
    keeps at most ``ahead`` items ready (a thread blocked reading a pipe ends with the
    process; one that can go on stops at its next item once stopped)."""

    def __init__(self, items: Iterable[Any], ahead: int) -> None:
        self._list: Iterator[Any] | None = None
        if isinstance(items, (list, tuple)):
            self._list = iter(items)
            return
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=max(1, ahead))
        self._stopped = threading.Event()
        source = iter(items)

        def produce() -> None:
            try:
                for item in source:
                    if not self._put(item):
                        return
                self._put(_END)
            except BaseException as e:  # handed to the consumer, in its turn
                self._put(_Raised(e))

        threading.Thread(target=produce, name="pyramid-feed", daemon=True).start()

    def _put(self, item: Any) -> bool:
        while not self._stopped.is_set():
            try:
                self._queue.put(item, timeout=POLL_SECONDS)
                return True
            except queue.Full:
                continue
        return False

    def next(self, timeout: float) -> Any:
        """The next item, _END after the last, _Raised(error), or _NOTHING when none came
        within ``timeout`` seconds."""
        if self._list is not None:
            return next(self._list, _END)
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return _NOTHING

    def stop(self) -> None:
        if self._list is None:
            self._stopped.set()
