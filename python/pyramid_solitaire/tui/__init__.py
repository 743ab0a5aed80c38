"""The terminal game (the ``tui`` extra, Textual): ``pyramid-solitaire play``."""

from __future__ import annotations

import asyncio
import signal
import threading
from typing import Any

#: What :func:`run_tui` returns when SIGTERM ended the game (128 + SIGTERM, as a shell says).
TERMINATED = 128 + int(signal.SIGTERM)


def run_tui(
    code: Any = None,
    profile: str = "pyramide",
    lang: str | None = None,
    save_path: Any = None,
    stats_path: Any = None,
) -> int:
    """Play in the terminal until the player quits; the exit status (:data:`TERMINATED`
    when SIGTERM ended the game: it is saved and the terminal put back as on a quit)."""
    from .app import PyramidApp

    app = PyramidApp(
        code=code, profile=profile, lang=lang, save_path=save_path, stats_path=stats_path
    )
    if threading.current_thread() is not threading.main_thread():
        app.run()
        return app.return_code or 0

    def on_sigterm(signum: int, frame: Any) -> None:
        # `timeout` and service managers send SIGCONT right after SIGTERM: once ending,
        # resuming means nothing (Textual's own SIGCONT handler would restart the screen).
        if hasattr(signal, "SIGCONT"):
            signal.signal(signal.SIGCONT, _ignore)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # before the game runs or after it ended: end as usual
            before_handler(signum, frame)
            return
        # Quit from the loop itself, as the quit key does: an exception raised here would
        # cross asyncio's and Textual's tasks and leave them half torn down.
        loop.call_soon_threadsafe(app.quit_game, TERMINATED)

    before = signal.getsignal(signal.SIGTERM)

    def before_handler(signum: int, frame: Any) -> None:
        if callable(before):
            before(signum, frame)
        elif before != signal.SIG_IGN:
            raise SystemExit(TERMINATED)

    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        app.run()
        return app.return_code or 0
    finally:
        signal.signal(signal.SIGTERM, before)


def _ignore(signum: int, frame: object) -> None:
    """A signal that means nothing now (a Python no-op, not SIG_DFL: a signal already
    pending would find no Python handler, which CPython 3.10 reports as an error)."""
