"""The terminal game (the ``tui`` extra, Textual): ``pyramid-solitaire play``."""

from __future__ import annotations

from typing import Any


def run_tui(
    code: Any = None,
    profile: str = "pyramide",
    lang: str | None = None,
    save_path: Any = None,
    stats_path: Any = None,
) -> int:
    from .app import PyramidApp

    return (
        PyramidApp(
            code=code, profile=profile, lang=lang, save_path=save_path, stats_path=stats_path
        ).run()
        or 0
    )
