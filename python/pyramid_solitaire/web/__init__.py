"""The browser game (the ``web`` extra, aiohttp): ``pyramid-solitaire play --web``."""

from __future__ import annotations


def run_web(
    host="127.0.0.1",
    port=0,
    profile="pyramide",
    lang="en",
    data_dir=None,
    stats_path=None,
    open_browser=True,
    code=None,
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
