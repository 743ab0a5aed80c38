"""The browser game (the ``web`` extra, aiohttp): ``pyramid-solitaire play --web``."""

from __future__ import annotations

from typing import Any


def run_web(
    host: str = "127.0.0.1",
    port: int = 0,
    profile: str = "pyramide",
    lang: str = "en",
    data_dir: Any = None,
    stats_path: Any = None,
    open_browser: bool = True,
    code: Any = None,
) -> int:
    from .server import run

    return run(
        host=host,
        port=port,
        profile=profile,
        lang=lang,
        data_dir=data_dir,
        stats_path=stats_path,
        open_browser=open_browser,
        code=code,
    )
