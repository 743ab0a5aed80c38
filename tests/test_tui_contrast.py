"""The terminal game's contrast, measured from what Textual draws (WCAG 2 AA): every
character's colour against its own background once Textual has resolved the theme, the
transparency and the dimming (4.5:1 for text, 3:1 for lines and blocks), and every card's
edge against the table around it (3:1), in both themes, both languages and the states a
player sees: cards free, blocked, selected, under the cursor, hinted, just moved, paused,
each dialog, the end of a game and the footer (greyed keys too)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

textual = pytest.importorskip("textual")

from pyramid_solitaire import solve  # noqa: E402
from pyramid_solitaire.tui.app import THEMES, PyramidApp  # noqa: E402
from pyramid_solitaire.tui.screens import EndScreen  # noqa: E402
from pyramid_solitaire.tui.widgets import CardWidget  # noqa: E402

from conftest import easy_deal, seed000_deal  # noqa: E402

pytestmark = pytest.mark.matrix  # (once per CI run: tools/check_wheel.sh)

TEXT, SHAPE = 4.5, 3.0  # WCAG 2 AA: 1.4.3 (text), 1.4.11 (non-text: a card against the table)
RGB = tuple[int, int, int]


# ---- the measure -------------------------------------------------------------------------
def luminance(rgb: RGB) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0..255 channels)."""

    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2's contrast ratio of two colours, 1 to 21."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_measure():
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    assert contrast((255, 255, 255), (118, 118, 118)) == contrast((118, 118, 118), (255,) * 3)
    assert contrast((250, 250, 250), (250, 250, 250)) == 1


def reddish(c: RGB) -> bool:
    return c[0] > 120 and c[0] > 1.6 * c[1] and c[0] > 1.6 * c[2]


def greenish(c: RGB) -> bool:
    return c[1] > 100 and c[1] > 1.2 * c[0] and c[1] > 1.2 * c[2]


def is_shape(char: str) -> bool:
    """Box-drawing and block characters: lines and edges (3:1), not text."""
    return "\u2500" <= char <= "\u259f"


@dataclass(frozen=True)
class Cell:
    x: int
    y: int
    char: str
    fg: RGB
    bg: RGB


def screen_cells(app: Any) -> dict[tuple[int, int], Cell]:
    """Every cell of the screen as the terminal gets it: the compositor's full update (the
    screens under a dialog included), each character with its colours after Textual has
    resolved the theme and the transparencies; ``reverse`` swapped and ``dim`` blended half
    way to the background, as Textual's own dim filter does. A character drawn with the
    terminal's default colour fails (it would depend on the terminal)."""
    from rich.cells import cell_len

    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    cells = {}
    for y, line in enumerate(update.strips):
        x = 0
        for strip in line:
            for text, style, control in strip:
                if control:
                    continue
                for char in text:
                    width = cell_len(char)
                    if width == 0:  # a combining mark: part of the cell before it
                        continue
                    fg = style.color.get_truecolor() if style and style.color else None
                    bg = style.bgcolor.get_truecolor() if style and style.bgcolor else None
                    assert fg is not None and bg is not None or not char.strip(), (x, y, char)
                    fg_rgb = tuple(fg) if fg else (0, 0, 0)
                    bg_rgb = tuple(bg) if bg else (0, 0, 0)
                    if style and style.reverse:
                        fg_rgb, bg_rgb = bg_rgb, fg_rgb
                    if style and style.dim:
                        fg_rgb = tuple(round((f + b) / 2) for f, b in zip(fg_rgb, bg_rgb))
                    for k in range(width):
                        cells[x + k, y] = Cell(x + k, y, char if k == 0 else "", fg_rgb, bg_rgb)
                    x += width
    return cells


@dataclass
class Seen:
    """The lowest contrasts met, and every failure, over the states looked at."""

    text: float = 21.0
    shapes: float = 21.0
    edges: float = 21.0
    failures: list[str] | None = None

    def __post_init__(self) -> None:
        self.failures = []

    def fail(self, what: str) -> None:
        assert self.failures is not None
        self.failures.append(what)


def measure(app: Any, state: str, seen: Seen) -> None:
    """Every character of the screen against its background, and every card's edges
    against the table, into ``seen``. A card's own lines (its edges) are measured against
    the table, not against its face."""
    cells = screen_cells(app)
    cards = []
    if app.screen is app.table:
        for card in (*app.screen.query(CardWidget), app.screen.query_one("#foundation")):
            if not card.display or card.region.width == 0:
                continue
            if "empty" in card.classes and "gone" not in card.classes:
                continue  # no card there: the table (a card just removed is shown a moment)
            if card.id == "foundation" and "shown" not in card.classes:
                continue
            cards.append(card)
    edges = {(x, y) for card in cards for x, y in _perimeter(card.region)}
    for cell in cells.values():
        if not cell.char.strip():
            continue
        ratio = contrast(cell.fg, cell.bg)
        if is_shape(cell.char):
            if (cell.x, cell.y) in edges:
                continue
            seen.shapes = min(seen.shapes, ratio)
            if ratio < SHAPE:
                seen.fail(f"{state}: line {cell.char!r} at {cell.x},{cell.y} {ratio:.2f}")
        else:
            seen.text = min(seen.text, ratio)
            if reddish(cell.fg) and greenish(cell.bg):
                seen.fail(f"{state}: red on green at {cell.x},{cell.y}")
            if ratio < TEXT:
                row = "".join(cells[x, cell.y].char or "" for x in range(app.size.width))
                seen.fail(
                    f"{state}: {cell.char!r} at {cell.x},{cell.y} {cell.fg} on {cell.bg}"
                    f" {ratio:.2f} in {row.strip()!r}"
                )
    for card in cards:
        region = card.region
        for y in range(region.y, region.bottom):
            table = _table_beside(cells, region, y)
            for x in (region.x, region.right - 1):
                cell = cells[x, y]
                # a card's edge: its face, or the line drawn at its side
                edge = cell.fg if is_shape(cell.char) else cell.bg
                ratio = max(contrast(edge, table), contrast(cell.bg, table))
                seen.edges = min(seen.edges, ratio)
                if ratio < SHAPE:
                    seen.fail(
                        f"{state}: the edge of {card.id} {sorted(card.classes)} at {x},{y}:"
                        f" {edge} against the table {table} {ratio:.2f}"
                    )


def _perimeter(region: Any) -> list[tuple[int, int]]:
    return [
        (x, y)
        for y in range(region.y, region.bottom)
        for x in range(region.x, region.right)
        if y in (region.y, region.bottom - 1) or x in (region.x, region.right - 1)
    ]


def _table_beside(cells: dict[tuple[int, int], Cell], region: Any, y: int) -> RGB:
    """The table's colour beside a card: the cell left of it (right of it at the edge)."""
    x = region.x - 1 if (region.x - 1, y) in cells else region.right
    return cells[x, y].bg


# ---- the states ----------------------------------------------------------------------------
class FakeClock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def index_of(app: PyramidApp, token: str) -> int:
    return next(e["index"] for e in app.session.state()["pyramid"] if e["card"] == token)


async def _walk(app: PyramidApp, pilot: Any, seen: Seen, tag: str) -> None:
    """The states of a game of seed 000's deal, measured one by one."""

    async def look(state: str) -> None:
        await pilot.pause()
        measure(app, f"{tag} {state}", seen)

    # what just moved stays shown until ended by hand (a loaded machine could end it first)
    app.table.MOVED_SECONDS = 60

    await look("start (free, blocked, the cursor)")
    await pilot.press("ctrl+c")
    await look("Ctrl+C's notice")
    app.clear_notifications()
    await pilot.hover("FooterKey")
    await look("a footer key under the mouse")
    await pilot.click(f"#p{index_of(app, '7c')}")
    await look("a card selected")
    await pilot.press("h")
    await look("a hint")
    await pilot.press("escape")
    await pilot.click(f"#p{index_of(app, 'Kd')}")  # a King removed: the foundation shown
    await look("a card just removed")
    await pilot.press("d")
    await look("a card just drawn")
    app.table._moved_timer.stop()
    app.table._end_flash()
    await look("the waste, the foundation, empty places")
    await pilot.press("p")
    await look("paused")
    await pilot.press("p", "question_mark")
    await look("the help")
    await pilot.press("escape", "s")
    await look("the statistics")
    await pilot.press("escape", "c")
    await look("a question (leave the game?)")
    await pilot.press("y")
    await look("a deal code to enter")
    await pilot.press(*"nonsense", "enter")
    await look("a bad deal code")
    await pilot.press("escape")
    for move in solve(app.session.game).moves:
        app.act("play", str(move))
    await pilot.pause()
    assert isinstance(app.screen, EndScreen)
    await look("won")
    await pilot.press("escape")
    await look("after a win (greyed keys)")
    await pilot.hover("FooterKey.-disabled")
    await look("a greyed key under the mouse")
    await pilot.press("s")
    await look("the statistics after a win")
    for page in ("by difficulty", "the best wins", "the recent games"):
        await pilot.press("right")
        await look(f"the statistics: {page}")
    await pilot.click("Tab")  # a page's tab under the mouse
    await look("a tab clicked")
    await pilot.press("r")
    await look("the statistics' reset question")
    await pilot.press("y")
    await look("the statistics reset")
    await pilot.press("escape", "e", "y")  # how hard new deals are; a daily deal
    await look("a daily deal")


async def _offer(app: PyramidApp, pilot: Any, seen: Seen, tag: str) -> None:
    """The easy deal of the session's tests, nine moves in: the finish offered."""
    from conftest import EASY_CLEAR

    for move in EASY_CLEAR[:9]:
        app.act("play", move)
    await pilot.pause(1.0)
    assert app.session.state()["can_finish"]
    measure(app, f"{tag} the finish offered", seen)


async def _lose(app: PyramidApp, pilot: Any, seen: Seen, tag: str) -> None:
    """Classic deal 3 drawn to its end: no moves left."""
    for _ in range(24):
        app.act("tap", "stock")
    await pilot.pause()
    assert isinstance(app.screen, EndScreen) and app.session.state()["status"] == "no moves"
    measure(app, f"{tag} lost", seen)
    await pilot.press("escape")
    await pilot.pause()
    measure(app, f"{tag} after a loss", seen)


#: The lowest contrasts measured, by theme and language (``-s`` prints them).
LOWEST: dict[str, Seen] = {}


# each theme, and each language (the colours are the theme's; the words, and so where text
# lies and how long it is, the language's), in two runs rather than four (the suite's time)
@pytest.mark.parametrize(("theme", "lang"), list(zip(THEMES, ["en", "vi"])))
def test_every_text_and_card_edge_meets_wcag_aa(tmp_path, theme, lang):
    """4.5:1 for every character of text against its background, 3:1 for every line and
    block, and 3:1 for every card's edge against the table; measured on what is drawn at
    80 x 24 and on a big terminal (taller cards), in every state of a game played to a
    win (then each page of the statistics, their reset, a daily deal), of one lost, and
    of one offered to finish itself."""
    seen = Seen()
    easy = " ".join(c.token for c in easy_deal().cards)
    for size, code, profile, walk in (
        ((80, 24), None, "pyramide", _walk),
        ((120, 40), None, "pyramide", _walk),
        ((80, 24), "PY1-C-AAAAAAD", "classic", _lose),
        ((80, 24), easy, "pyramide", _offer),
    ):
        cards = " ".join(c.token for c in seed000_deal().cards)
        folder = tmp_path / f"{size[0]}-{profile}-{walk.__name__}"
        folder.mkdir()
        app = PyramidApp(
            code or cards,
            profile,
            lang=lang,
            save_path=folder / "game.json",
            stats_path=folder / "stats.sqlite3",
            clock=FakeClock(),
            theme=theme,
        )

        async def main(app: PyramidApp = app, size: Any = size, walk: Any = walk) -> None:
            async with app.run_test(size=size, notifications=True) as pilot:
                await pilot.pause()
                await walk(app, pilot, seen, f"{theme} {lang} {size[0]}x{size[1]}")

        asyncio.run(main())
    LOWEST[f"{theme} {lang}"] = seen
    print(
        f"{theme} {lang}: lowest text {seen.text:.2f}, lines {seen.shapes:.2f},"
        f" card edges {seen.edges:.2f}"
    )
    assert seen.failures == []
