"""Screenshots of the browser game for docs/frontends.md: the desktop (1280 x 800) and phone
(360 x 640) layouts, on seed 000's deal after a few moves (a pair and a King removed, a card
selected, a hint shown on the phone).

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

from playwright.sync_api import expect, sync_playwright     # noqa: E402

from conftest import seed000_deal                           # noqa: E402
from pyramid_solitaire.web.server import ServerThread, make_app   # noqa: E402

LAYOUTS = {  # name: (viewport, context options, theme)
    "web-desktop.png": ({"width": 1280, "height": 800}, {}, "light"),
    "web-phone.png": ({"width": 360, "height": 640},
                      {"is_mobile": True, "has_touch": True, "device_scale_factor": 2}, "dark"),
}


def shoot(page, url: str, theme: str, out: Path, phone: bool) -> None:
    page.goto(url)
    page.evaluate(f"localStorage.setItem('pyramid.theme', '{theme}')")
    page.reload()
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    page.fill("#code-input", seed000_deal().to_cards())
    page.click("#code-play")
    expect(page.locator('.card[data-target="0"]')).to_have_attribute("data-card", "Jd")
    for target in (26, 22, 25):                      # K♦, then 10♣ with 3♠
        page.locator(f'.card[data-target="{target}"]').click(position={"x": 6, "y": 6})
    expect(page.locator("#score")).to_have_text("30")
    page.locator('.card[data-target="21"]').click(position={"x": 6, "y": 6})   # 7♣ selected
    if phone:
        page.keyboard.press("h")
        expect(page.locator("#messages")).to_contain_text("Hint")
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    page.mouse.move(0, 0)
    expect(page.locator("#clock")).not_to_have_text("0:00")      # the clock ticks
    page.screenshot(path=str(out))
    print(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=str(ROOT / "docs" / "images"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, \
            ServerThread(make_app(data_dir=tmp, stats_path=str(Path(tmp) / "stats.sqlite3"))) \
            as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, headless=True,
                                    args=["--no-sandbox"])
        for name, (viewport, options, theme) in LAYOUTS.items():
            context = browser.new_context(viewport=viewport, **options)
            shoot(context.new_page(), server.url, theme, out / name, "phone" in name)
            context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
