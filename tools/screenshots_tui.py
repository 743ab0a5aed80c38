"""Regenerate docs/images/tui.svg and tui-light.svg: the terminal game on a fixed deal
after a few moves and a hint (80 x 24, a fixed clock; the dark and the light theme), saved
and counted in a temporary folder; and tui-stats.svg: the statistics' page "By difficulty"
after a few games of fixed deals (won by the solver's line, or left after a draw).

    PYTHONPATH=python:src python tools/screenshots_tui.py [OUT_DIR]
"""

from __future__ import annotations

import asyncio
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "src")]

from pyramid_solitaire import solve  # noqa: E402
from pyramid_solitaire.session import Session, StatsStore  # noqa: E402
from pyramid_solitaire.tui.app import PyramidApp  # noqa: E402

DEAL = "PY1-N-AAAAAAS"


async def shoot(out: pathlib.Path, folder: pathlib.Path, theme: str) -> None:
    now = [1000.0]
    app = PyramidApp(
        DEAL,
        "pyramide",
        save_path=folder / "game.json",
        stats_path=folder / "stats.sqlite3",
        clock=lambda: now[0],
        theme=theme,
        lang="en",
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.click("#p22")  # K♣: a free King goes in one tap
        now[0] += 21
        await pilot.click("#p15")  # a covered card: the session says why not
        await pilot.click("#p25")  # 3♦ ...
        await pilot.click("#waste")  # ... and the 10♣ on the waste: 13
        now[0] += 17
        await pilot.click("#p24")  # J♥ selected
        await pilot.press("left")  # the keyboard cursor on 2♠
        await pilot.press("h")  # a hint, in words, its cards in light blue
        now[0] += 4
        app.table.tick()
        await pilot.pause()
        app.save_screenshot(str(out))


#: The games of the statistics' picture: a deal (a code, or a hard deal's seed) and whether
#: it is won (else left after a draw): easy, medium and hard deals, and two that cannot be won.
GAMES = [
    ("PY1-N-AAAAAAB", True),
    ("PY1-N-AAAAAAC", True),
    ("PY1-N-AAAAAAG", True),
    ("PY1-N-AAAAAAL", False),
    ("PY1-N-AAAAAAF", True),
    ("PY1-N-AAAAAAK", False),
    (1, True),
    (2, False),
    (3, False),
    ("PY1-N-AAAAAAA", False),
    ("PY1-N-AAAAAAD", False),
]


async def shoot_stats(out: pathlib.Path, folder: pathlib.Path) -> None:
    store = StatsStore(folder / "stats.sqlite3")
    for deal, won in GAMES:
        if isinstance(deal, int):
            game = Session.new_random("pyramide", rng=deal, difficulty="hard", stats=store)
        else:
            game = Session(deal, "pyramide", stats=store, clock=lambda: 0.0)
        if won:
            for move in solve(game.game).moves:
                game.play(move)
        else:
            game.tap("stock")
            game.abandon()
    store.close()
    app = PyramidApp(
        "PY1-N-AAAAAAS",
        "pyramide",
        save_path=folder / "game.json",
        stats_path=folder / "stats.sqlite3",
        clock=lambda: 1000.0,
        theme="textual-dark",
        lang="en",
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s", "right")
        await pilot.pause()
        app.save_screenshot(str(out))


def main() -> None:
    folder_out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    for name, theme in (("tui.svg", "textual-dark"), ("tui-light.svg", "textual-light")):
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(shoot(folder_out / name, pathlib.Path(folder), theme))
        print(folder_out / name)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(shoot_stats(folder_out / "tui-stats.svg", pathlib.Path(folder)))
    print(folder_out / "tui-stats.svg")


if __name__ == "__main__":
    main()
