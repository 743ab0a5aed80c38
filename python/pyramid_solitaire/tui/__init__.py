"""The terminal game (the ``tui`` extra, Textual): ``pyramid-solitaire play``."""

from __future__ import annotations


def run_tui(code=None, profile="pyramide", lang=None, save_path=None, stats_path=None) -> int:
    from .app import PyramidApp

    return (
        PyramidApp(
            code=code, profile=profile, lang=lang, save_path=save_path, stats_path=stats_path
        ).run()
        or 0
    )
