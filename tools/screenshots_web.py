"""Screenshots of the browser game for docs/frontends.md: the desktop (1280 x 800) and phone
(360 x 640) layouts in light and dark, on seed 000's deal after a few moves (a pair and a
King removed, a card selected, a hint shown on the phone), and the end-of-game dialog.

Run from a checkout with the package importable (installed, or ``PYTHONPATH=python:src``
after ``python setup.py build_ext --inplace``)::

    python tools/screenshots_web.py [OUT_DIR]      # default docs/images

It serves the game on a free port of 127.0.0.1 (its games in a temporary folder) and drives
Chromium through Playwright (``--chromium PATH``, default /usr/bin/chromium)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "src"), str(ROOT / "tests")]

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from pyramid_solitaire.web.server import ServerThread, make_app  # noqa: E402

from conftest import seed000_deal  # noqa: E402

PHONE = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2}
LAYOUTS = {  # name: (viewport, context options, theme)
    "web-desktop.png": ({"width": 1280, "height": 800}, {}, "light"),
    "web-desktop-dark.png": ({"width": 1280, "height": 800}, {}, "dark"),
    "web-phone.png": ({"width": 360, "height": 640}, PHONE, "dark"),
    "web-phone-light.png": ({"width": 360, "height": 640}, PHONE, "light"),
}


def shoot(page, url: str, theme: str, out: Path, phone: bool) -> None:
    page.goto(url)
    page.evaluate(f"localStorage.setItem('pyramid.theme', '{theme}')")
    page.evaluate("localStorage.setItem('pyramid.seen_howto', '1')")  # not a first visit
    page.reload()
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    page.fill("#code-input", seed000_deal().to_cards())
    page.click("#code-play")
    expect(page.locator('.card[data-target="0"]')).to_have_attribute("data-card", "Jd")
    for target in (26, 22, 25):  # K♦, then 10♣ with 3♠
        page.locator(f'.card[data-target="{target}"]').click(position={"x": 6, "y": 6})
    expect(page.locator("#score")).to_have_text("30")
    page.locator('.card[data-target="21"]').click(position={"x": 6, "y": 6})  # 7♣ selected
    if phone:
        page.keyboard.press("h")
        expect(page.locator(".hinted").first).to_be_visible()
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    page.mouse.move(0, 0)
    expect(page.locator("#clock")).not_to_have_text("0:00")  # the clock ticks
    page.screenshot(path=str(out))
    print(out)


def shoot_end(page, url: str, out: Path) -> None:
    """The dialog at the end of a won game (PY1-N-AAAAAAS, played along its hints)."""
    from pyramid_solitaire import solve

    page.goto(url)
    page.evaluate("localStorage.setItem('pyramid.seen_howto', '1')")
    page.reload()
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    page.fill("#code-input", "PY1-N-AAAAAAS")
    page.click("#code-play")
    expect(page.locator("#deal-code")).to_have_text("PY1-N-AAAAAAS")
    for move in solve("PY1-N-AAAAAAS", objective="min_moves").moves:
        page.evaluate(f"send({{op: 'play', move: '{move}'}})")
    expect(page.locator("#status")).to_have_text("Won")
    page.keyboard.press("Shift")  # the win cascade skipped
    expect(page.locator("#end-panel")).to_be_visible()
    expect(page.locator("#end-best")).not_to_be_empty()
    page.screenshot(path=str(out))
    print(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=str(ROOT / "docs" / "images"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as tmp,
        ServerThread(make_app(data_dir=tmp, stats_path=str(Path(tmp) / "stats.sqlite3"))) as server,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(
            executable_path=args.chromium, headless=True, args=["--no-sandbox"]
        )
        for name, (viewport, options, theme) in LAYOUTS.items():
            context = browser.new_context(viewport=viewport, **options)
            shoot(context.new_page(), server.url, theme, out / name, "phone" in name)
            context.close()
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        shoot_end(context.new_page(), server.url, out / "web-end.png")
        context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
