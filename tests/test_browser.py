"""The browser game in a real Chromium (Playwright, Debian's /usr/bin/chromium): seed 000's
walkthrough with clicks, a drag and drop, the keyboard, a reload and a server restart that
resume the game, a phone-sized screen, two browsers kept apart, the dark mode and the
Vietnamese messages. The page only draws what the server sends: each check fails if the
page, the WebSocket or the session behind it breaks."""

from __future__ import annotations

import json
import os
import re
import time

import pytest

pytest.importorskip("aiohttp")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser extra (playwright) is not installed"
)
expect = sync_api.expect

from pyramid_solitaire.reasons import InputError  # noqa: E402
from pyramid_solitaire.session.messages import message  # noqa: E402
from pyramid_solitaire.session.protocol import Server  # noqa: E402
from pyramid_solitaire.web.server import GAMES, ServerThread, make_app  # noqa: E402

from conftest import seed000_deal  # noqa: E402

#: the Chromium to drive: PYRAMID_CHROMIUM, else the system's (Debian's /usr/bin/chromium);
#: where there is none (a wheel tested on macOS or Windows), these tests skip, saying so
CHROMIUM = os.environ.get("PYRAMID_CHROMIUM", "/usr/bin/chromium")
if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"no Chromium at {CHROMIUM} (set PYRAMID_CHROMIUM to a Chromium or Chrome)",
        allow_module_level=True,
    )
CARDS = seed000_deal().to_cards()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        plain = b.new_context

        def new_context(**options):
            # no motion unless a test asks for it: cards stay where they are measured and
            # clicked (test_motion_helps_and_stops_under_reduced_motion asks)
            options.setdefault("reduced_motion", "reduce")
            return plain(**options)

        b.new_context = new_context
        yield b
        b.close()


def serve(tmp_path, port=0):
    app = make_app(data_dir=tmp_path / "data", stats_path=str(tmp_path / "stats.sqlite3"))
    return ServerThread(app, port=port)


@pytest.fixture
def server(tmp_path):
    with serve(tmp_path) as s:
        yield s


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    yield page
    context.close()
    assert errors == []


def card(page, target):
    return page.locator(f'.card[data-target="{target}"]')


def open_game(page, url, deal=CARDS):
    """The page at ``url``, then ``deal`` (a card list or a code) pasted into its field."""
    page.goto(url)
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    page.fill("#code-input", deal)
    page.click("#code-play")
    if deal == CARDS:
        expect(card(page, 0)).to_have_attribute("data-card", "Jd")
        expect(card(page, 27)).to_have_attribute("data-card", "7s")
    else:
        expect(page.locator("#deal-code")).to_have_text(deal)
    expect(page.locator("#moves")).to_have_text("0")


def click(page, target):
    """A click near a card's top left corner (what shows of a card partly covered)."""
    card(page, target).click(position={"x": 6, "y": 6})


def test_seed000_walkthrough_with_clicks(page, server):
    open_game(page, server.url)
    expect(card(page, 15)).to_have_attribute("data-card", "Qc")
    expect(card(page, 15)).to_have_class(re.compile(r"\bblocked\b"))  # dimmed
    expect(card(page, 26).locator(".corner")).to_have_text("K♦")
    click(page, 15)  # Q♣, row 6: blocked
    expect(page.locator("#messages")).to_have_text("This card is blocked by another card")
    click(page, 26)  # K♦: gone
    expect(page.locator("#score")).to_have_text("10")
    expect(card(page, 26)).to_have_count(0)
    click(page, 22)  # 10♣ then 3♠
    expect(card(page, 22)).to_have_class(re.compile(r"\bselected\b"))
    click(page, 25)
    expect(page.locator("#score")).to_have_text("30")
    expect(card(page, 22)).to_have_count(0)
    expect(card(page, 25)).to_have_count(0)
    expect(page.locator("#moves")).to_have_text("2")
    click(page, 21)  # 7♣ then 7♠: 14
    click(page, 27)
    expect(page.locator("#messages")).to_have_text("Sum must be 13")
    expect(card(page, 27)).to_have_class(re.compile(r"\bselected\b"))
    expect(card(page, 21)).not_to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#score")).to_have_text("30")
    expect(page.locator("#clock")).not_to_have_text("0:00", timeout=5000)  # it ticks


def test_a_pair_removed_by_drag_and_drop(page, server):
    open_game(page, server.url)
    page.drag_and_drop('.card[data-target="22"]', '.card[data-target="25"]')  # 10♣ on 3♠
    expect(page.locator("#score")).to_have_text("20")
    expect(card(page, 22)).to_have_count(0)
    expect(card(page, 25)).to_have_count(0)
    expect(page.locator("#messages")).to_have_text("")
    # a drop on a card that does not make 13: the session's message, nothing removed
    page.drag_and_drop('.card[data-target="21"]', '.card[data-target="27"]')  # 7♣ on 7♠
    expect(page.locator("#messages")).to_have_text("Sum must be 13")
    expect(page.locator("#score")).to_have_text("20")


def test_the_keyboard(page, server):
    open_game(page, server.url)
    page.locator("body").click(position={"x": 2, "y": 2})  # focus on the page
    page.keyboard.press("ArrowRight")  # the first target: 7♣ (21)
    expect(card(page, 21)).to_have_class(re.compile(r"\bcursor\b"))
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    expect(card(page, 26)).to_have_class(re.compile(r"\bcursor\b"))
    page.keyboard.press("Enter")  # K♦ goes
    expect(page.locator("#score")).to_have_text("10")
    expect(card(page, 26)).to_have_count(0)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")  # 3♠ (25) selected
    expect(card(page, 25)).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#talon .count").first).to_have_text("Stock 23")
    page.keyboard.press("d")  # draw
    expect(page.locator("#talon .count").first).to_have_text("Stock 22")
    expect(page.locator("#moves")).to_have_text("2")
    page.keyboard.press("z")  # undo the draw
    expect(page.locator("#talon .count").first).to_have_text("Stock 23")
    expect(card(page, "waste")).to_have_attribute("data-card", "7d")
    page.keyboard.press("z")  # and the King
    expect(card(page, 26)).to_have_attribute("data-card", "Kd")
    expect(page.locator("#score")).to_have_text("0")
    page.keyboard.press("r")  # redo
    expect(page.locator("#score")).to_have_text("10")
    page.keyboard.press("h")  # a hint rings its cards
    expect(page.locator("#messages")).to_have_text(  # in words: "Pair 10♣ with 3♠", ...
        re.compile(r"^(Pair .+ with .+|Remove .+|Draw a card|Turn the waste over)$")
    )
    expect(page.locator(".card.hinted").first).to_be_visible()
    page.keyboard.press("p")  # pause hides the table
    expect(page.locator("#paused")).to_be_visible()
    page.keyboard.press("p")
    expect(page.locator("#paused")).to_be_hidden()


def pyramid_of(page):
    return page.eval_on_selector_all("#pyramid .card", "cs => cs.map(c => c.dataset.card || null)")


def test_a_reload_and_a_server_restart_resume_the_game(browser, tmp_path):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    first = serve(tmp_path).start()
    try:
        open_game(page, first.url)
        click(page, 26)
        click(page, 22)  # 10♣ selected
        expect(page.locator("#score")).to_have_text("10")
        cards = pyramid_of(page)
        game = page.evaluate("localStorage.getItem('pyramid.game')")
        assert len(game) >= 22
        page.reload()
        expect(page.locator("#moves")).to_have_text("1")
        expect(page.locator("#score")).to_have_text("10")
        expect(card(page, 22)).to_have_class(re.compile(r"\bselected\b"))
        assert pyramid_of(page) == cards
        assert page.evaluate("localStorage.getItem('pyramid.game')") == game
    finally:
        first.stop()
    assert (tmp_path / "data" / "games" / f"{game}.json").is_file()
    expect(page.locator("#messages")).to_contain_text("Connection lost")
    with serve(tmp_path, port=first.port):  # same origin, same data
        # the page connects again by itself and attaches to its game
        expect(page.locator("#messages")).to_have_text("", timeout=15_000)
        expect(page.locator("#score")).to_have_text("10")
        click(page, 25)  # 3♠ completes the pair
        expect(page.locator("#score")).to_have_text("30")
        page.reload()
        expect(page.locator("#score")).to_have_text("30")
        expect(page.locator("#moves")).to_have_text("2")
        assert pyramid_of(page) == [c if c not in ("Kd", "Tc", "3s") else None for c in cards]
    context.close()


def test_a_phone_screen_shows_the_whole_pyramid(browser, server):
    context = browser.new_context(
        viewport={"width": 360, "height": 640},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    open_game(page, server.url)
    page.evaluate("window.scrollTo(0, 0)")  # (the code's field, below, was scrolled to)
    boxes = [card(page, i).bounding_box() for i in range(28)]
    for i, b in enumerate(boxes):
        assert b["x"] >= 0 and b["y"] >= 0, i
        assert b["x"] + b["width"] <= 360 and b["y"] + b["height"] <= 640, (i, b)
        assert b["width"] >= 30, "cards are big enough to tap"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate("document.body.scrollWidth") <= 360
    card(page, 26).tap()  # touch works too
    expect(page.locator("#score")).to_have_text("10")
    # every control a finger reaches is 44 px or more each way (a box: its label)
    small = page.evaluate(
        """() => [...document.querySelectorAll(
               "button, select, input[type=text], label.check")]
             .filter((e) => e.offsetParent !== null && !e.closest("dialog:not([open])"))
             .map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
             .filter(([, r]) => r.width < 44 || r.height < 44)
             .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == []
    context.close()


def test_two_browsers_keep_their_games_apart(browser, server):
    a = browser.new_context()
    b = browser.new_context()
    pa, pb = a.new_page(), b.new_page()
    open_game(pa, server.url)
    open_game(pb, server.url)
    ida = pa.evaluate("localStorage.getItem('pyramid.game')")
    idb = pb.evaluate("localStorage.getItem('pyramid.game')")
    assert ida and idb and ida != idb
    c = browser.new_context()  # an id guessed next to a's
    pc = c.new_page()
    pc.goto(server.url)
    guess = ida[:-1] + ("B" if ida[-1] != "B" else "C")
    pc.evaluate(f"localStorage.setItem('pyramid.game', '{guess}')")
    pc.reload()
    expect(pc.locator("#pyramid .card[data-card]").first).to_be_visible()
    idc = pc.evaluate("localStorage.getItem('pyramid.game')")
    assert idc not in (guess, ida, idb) and len(idc) >= 22  # refused: a game of its own
    c.close()
    click(pa, 26)
    expect(pa.locator("#score")).to_have_text("10")
    pb.reload()
    expect(card(pb, 26)).to_have_attribute("data-card", "Kd")
    expect(pb.locator("#score")).to_have_text("0")
    click(pb, 22)
    click(pb, 25)
    expect(pb.locator("#score")).to_have_text("20")
    pa.reload()
    expect(pa.locator("#score")).to_have_text("10")
    expect(card(pa, 22)).to_have_attribute("data-card", "Tc")
    a.close()
    b.close()


def test_dark_mode_languages_codes_and_high_scores(browser, server):
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    open_game(page, server.url, "PY1-N-AAAAAAS")
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "dark")  # prefers-color-scheme
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.click("#theme")
    expect(html).to_have_attribute("data-theme", "light")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != background
    page.click("#theme")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == background

    click(page, 22)  # Kc: a move, then the language
    expect(page.locator("#score")).to_have_text("10")
    page.select_option("#lang", "vi")  # labels and messages at once,
    expect(page.locator("#undo")).to_have_text("Hoàn tác")  # the game goes on
    expect(page.locator("#score")).to_have_text("10")
    click(page, 0)
    expect(page.locator("#messages")).to_have_text(message("blocked", "vi").text)
    card(page, 25).click()  # 3♦, then 5♦
    card(page, 21).click()
    expect(page.locator("#messages")).to_have_text(message("sum_not_13", "vi").text)

    page.on("dialog", lambda d: d.accept())  # yes, leave the game
    page.fill("#code-input", "PY1-Q-AAAAAAA")  # a bad code: why, in Vietnamese
    page.click("#code-play")
    error = json.loads(Server().handle('{"op": "new", "code": "PY1-Q-AAAAAAA", "lang": "vi"}'))
    assert error["error"]["text"] == InputError(
        "rules_letter", letter="'Q'", letters="N T U C D M"
    ).text("vi")
    expect(page.locator("#messages")).to_have_text(error["error"]["text"])
    expect(page.locator("#messages")).to_have_class(re.compile(r"\berror\b"))
    expect(page.locator("#deal-code")).to_have_text("PY1-N-AAAAAAS")  # the game goes on

    page.click("#new")  # K♣ went: abandoned
    expect(page.locator("#deal-code")).not_to_have_text("PY1-N-AAAAAAS")
    page.click("#scores")
    panel = page.locator("#scores-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("#summary")).to_contain_text("Số ván")
    expect(panel.locator("#summary dd").first).to_have_text("1")  # one game recorded
    page.click("#close-scores")
    expect(panel).to_be_hidden()
    context.close()


def test_two_tabs_of_one_game_see_each_others_moves(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    a = context.new_page()
    open_game(a, server.url, "PY1-N-AAAAAAS")
    b = context.new_page()  # the same browser: the same game
    b.goto(server.url)
    expect(b.locator("#deal-code")).to_have_text("PY1-N-AAAAAAS")
    click(a, 22)  # K♣ in one tab...
    expect(b.locator("#score")).to_have_text("10")  # ...shows in the other
    click(a, 25)  # 3♦ selected in A: B shows it selected too
    expect(card(b, 25)).to_have_class(re.compile(r"\bselected\b"))
    click(b, 25)  # B deselects it; A sees that
    expect(card(a, 25)).not_to_have_class(re.compile(r"\bselected\b"))
    context.close()


def test_the_buttons_work_from_the_keyboard(page, server):
    open_game(page, server.url, "PY1-N-AAAAAAS")
    page.focus("#new")
    page.keyboard.press("Enter")  # the focused button, not the game's Enter
    expect(page.locator("#deal-code")).not_to_have_text("PY1-N-AAAAAAS")
    page.focus("#hint")
    page.keyboard.press(" ")
    expect(page.locator("#messages")).to_have_text(  # in words: "Pair 10♣ with 3♠", ...
        re.compile(r"^(Pair .+ with .+|Remove .+|Draw a card|Turn the waste over)$")
    )
    page.select_option("#profile", "msc")  # a select gives the arrow keys back
    expect(page.locator("#deal-code")).to_contain_text("PY1-M-")  # no move yet: at once
    page.keyboard.press("ArrowDown")  # the game's key now, not the select's
    expect(page.locator("#profile")).to_have_value("msc")


def test_a_save_that_fails_shows_a_notice_until_one_succeeds(browser, tmp_path):
    """The page tells the player at once when the game can no longer be saved, and takes the
    notice away when saving works again (the server tries every few seconds)."""
    from pyramid_solitaire.web.server import Limits

    app = make_app(
        data_dir=tmp_path / "data",
        stats_path=str(tmp_path / "stats.sqlite3"),
        limits=Limits(save_delay=0.05, save_retry=0.2),
    )
    with ServerThread(app) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        open_game(page, server.url)
        expect(page.locator("#not-saved")).to_be_hidden()
        gid = page.evaluate("localStorage.getItem('pyramid.game')")
        path = tmp_path / "data" / "games" / f"{gid}.json"
        expect(page.locator("#moves")).to_have_text("0")
        for _ in range(200):  # the new deal's autosave has happened
            if path.is_file():
                break
            time.sleep(0.05)
        for _ in range(100):  # its place is taken: every save fails (a save landing
            try:  # between the two steps puts the file back: again)
                path.unlink(missing_ok=True)
                path.mkdir()
                break
            except FileExistsError:
                time.sleep(0.05)
        assert path.is_dir()
        page.click("#draw")
        notice = page.locator("#not-saved")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("cannot be saved")
        assert notice.get_attribute("role") == "alert"
        path.rmdir()  # room again: the next try saves
        expect(notice).to_be_hidden()
        expect(page.locator("#messages")).to_have_text(message("saved").text)
        assert json.loads(path.read_text())["moves"] == 1
        context.close()


def test_an_unreadable_saved_game_becomes_a_new_deal_with_a_message(browser, tmp_path):
    with serve(tmp_path) as server:
        context = browser.new_context()
        page = context.new_page()
        open_game(page, server.url)
        gid = page.evaluate("localStorage.getItem('pyramid.game')")
        games = tmp_path / "data" / "games"
        path = games / f"{gid}.json"
        context.close()  # the game is saved, then leaves memory
        for _ in range(200):
            if not server.app[GAMES].games:
                break
            time.sleep(0.05)
        assert path.is_file() and not server.app[GAMES].games
        path.write_bytes(b"[" * 200_000)  # and its file is damaged
        context = browser.new_context(storage_state=None)
        page = context.new_page()
        page.goto(server.url)
        expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
        page.evaluate(f"localStorage.setItem('pyramid.game', {json.dumps(gid)})")
        page.reload()
        expect(page.locator("#messages")).to_contain_text(f"{path.name}.bad")
        expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
        assert (games / f"{path.name}.bad").read_bytes() == b"[" * 200_000
        context.close()


def test_play_web_code_opens_that_deal(browser, tmp_path, monkeypatch):
    """``play --web CODE`` prints (and opens) the page's address with ``#deal=CODE``; the
    page plays that deal, under the game its letter names, and asks before it leaves a game
    under way."""
    from pyramid_solitaire.web import server as web_server

    seen = {}
    monkeypatch.setattr(web_server.web, "run_app", lambda app, **kw: seen.setdefault("app", app))
    monkeypatch.setattr(
        web_server,
        "print",
        lambda *a, **k: seen.setdefault("url", a[0]) if "file" not in k else None,
        raising=False,
    )
    from pyramid_solitaire.cli import main

    assert (
        main(
            [
                "play",
                "--web",
                "py1-m-aaaaaab",
                "--no-browser",
                "--save",
                str(tmp_path / "data"),
                "--db",
                str(tmp_path / "s.db"),
            ]
        )
        == 0
    )
    assert seen["url"].endswith("/#deal=PY1-M-AAAAAAB")
    fragment = seen["url"].split("/", 3)[3]
    with serve(tmp_path) as server:
        context = browser.new_context()
        page = context.new_page()
        page.goto(server.url + fragment)
        expect(page.locator("#deal-code")).to_have_text("PY1-M-AAAAAAB")
        expect(page.locator("#profile")).to_have_value("msc")
        assert "deal=" not in page.url  # played once, not on reload
        page.click("#draw")
        expect(page.locator("#moves")).to_have_text("1")
        page.on("dialog", lambda d: d.dismiss())  # "leave this game?" no
        page.goto(server.url + "#deal=PY1-N-AAAAAAS")
        page.reload()
        expect(page.locator("#deal-code")).to_have_text("PY1-M-AAAAAAB")
        expect(page.locator("#moves")).to_have_text("1")  # the game was kept
        context.close()


def test_random_deals_are_winnable_by_default(page, server):
    """A fresh profile's first five deals are winnable, and none says "cannot be won"."""
    from pyramid_solitaire import solve

    page.goto(server.url)
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    expect(page.locator("#winnable")).to_be_checked()
    seen = []
    for n in range(5):
        if n:
            page.click("#new")
        expect(page.locator("#deal-code")).not_to_have_text(seen[-1] if seen else "–")
        code = page.locator("#deal-code").text_content()
        seen.append(code)
        assert solve(code).winnable, code
        assert page.locator("#difficulty").text_content() != "cannot be won"
    assert len(set(seen)) == 5


def test_the_rules_page_is_offered_once_and_opens_in_both_languages(page, server):
    page.goto(server.url)
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    welcome = page.locator("#welcome")
    expect(welcome).to_be_visible()  # a first visit
    page.click("#welcome-howto")
    panel = page.locator("#howto-panel")
    expect(panel).to_be_visible()
    expect(page.locator("#howto-title")).to_have_text("How to play: Pyramide")
    expect(panel).to_contain_text("A + Q, 2 + J, 3 + 10, 4 + 9, 5 + 8, 6 + 7")
    expect(panel).to_contain_text("as often as you like")  # this game's redeals
    page.click("#close-howto")
    expect(panel).to_be_hidden()
    expect(welcome).to_be_hidden()
    page.select_option("#lang", "vi")
    page.keyboard.press("?")
    expect(page.locator("#howto-title")).to_have_text("Cách chơi: Pyramide")
    expect(panel).to_contain_text("Các cặp có tổng 13")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    page.reload()
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    expect(welcome).to_be_hidden()  # offered once


def test_keys_after_form_controls_go_to_the_game(page, server):
    """Enter after "Play it" never plays the deal again (it would throw the game away), and
    Space on the checkbox is the game's Space; leaving a game under way is asked first."""
    open_game(page, server.url, "PY1-N-AAAAAAS")
    page.keyboard.press("d")  # a move: a game under way
    expect(page.locator("#moves")).to_have_text("1")
    page.keyboard.press("Enter")  # after "Play it": the game's
    page.keyboard.press("Enter")
    expect(page.locator("#moves")).to_have_text("1")  # the game is kept
    page.click("#winnable")
    page.keyboard.press("Space")
    page.keyboard.press("d")  # the game's keys still work
    expect(page.locator("#moves")).to_have_text("2")
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#new")  # asked, and kept
    page.keyboard.press("n")
    page.click("#restart")
    page.fill("#code-input", "PY1-N-AAAAAAB")
    page.click("#code-play")
    for _ in range(50):  # (the code is read by the server before the question)
        if len(asked) == 4:
            break
        page.wait_for_timeout(100)
    expect(page.locator("#moves")).to_have_text("2")
    expect(page.locator("#deal-code")).to_have_text("PY1-N-AAAAAAS")
    assert len(asked) == 4 and all("abandoned" in m for m in asked), asked


def follow_hints(page, limit=200):
    """Play the page's hints to the end: H, then a click on each card it rings (or the
    stock)."""
    for _ in range(limit):
        if page.locator("#status").text_content() != "Playing":
            return
        page.keyboard.press("h")
        expect(page.locator(".hinted").first).to_be_visible()
        tokens = page.eval_on_selector_all(
            ".card.hinted[data-card]", "es => es.map(e => e.dataset.card)"
        )
        if not tokens:  # draw or turn over: the stock
            moves = page.locator("#moves").text_content()
            page.locator(".hinted").first.click()
        else:
            moves = page.locator("#moves").text_content()
            for token in tokens:
                page.locator(f'.card[data-card="{token}"]').first.click(position={"x": 6, "y": 6})
        expect(page.locator("#moves")).not_to_have_text(moves)
    raise AssertionError("the hints did not end the game")


def test_a_game_won_with_hints_ends_in_a_dialog_that_survives_a_reload(page, server):
    open_game(page, server.url, "PY1-N-AAAAAAS")
    follow_hints(page)
    panel = page.locator("#end-panel")
    expect(panel).to_be_visible()
    expect(page.locator("#end-title")).to_have_text("You won!")
    from pyramid_solitaire import solve

    shortest = solve("PY1-N-AAAAAAS", objective="min_moves").n_moves
    expect(page.locator("#end-figures")).to_contain_text(str(shortest))  # the hints: fastest
    expect(page.locator("#end-figures")).to_contain_text("Score")
    expect(page.locator("#end-best")).to_contain_text("Wins 1")
    page.reload()  # it still says how it ended
    expect(panel).to_be_visible()
    expect(page.locator("#end-title")).to_have_text("You won!")
    expect(page.locator("#end-undo")).to_be_enabled()
    page.click("#end-replay")  # the same deal again
    expect(panel).to_be_hidden()
    expect(page.locator("#moves")).to_have_text("0")
    expect(page.locator("#deal-code")).to_have_text("PY1-N-AAAAAAS")


def test_a_game_without_points_shows_no_score(page, server):
    page.goto(server.url)
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    page.fill("#code-input", "PY1-U-AAAAAAS")  # seed 003's game
    page.click("#code-play")
    expect(page.locator("#profile")).to_have_value("unlimited")
    expect(page.locator("#score-figure")).to_be_hidden()
    page.click("#scores")
    expect(page.locator("#scores-panel th.score-cell")).to_have_count(2)  # scores, history
    for header in page.locator("#scores-panel th.score-cell").all():
        expect(header).to_be_hidden()
    expect(page.locator("#summary")).not_to_contain_text("Best score")


def test_cards_removed_the_foundation_and_the_redeals_left(page, server):
    open_game(page, server.url, "PY1-T-AAAAAAS")  # three-pass: seed 002's game
    expect(page.locator("#removed")).to_have_text("0/28")
    expect(page.locator(".redeals-left")).to_have_text("Redeals left 2")
    from pyramid_solitaire import Game, solve

    first = solve("PY1-T-AAAAAAS").moves[0]
    page.evaluate(f"send({{op: 'play', move: '{first}'}})")
    game = Game("PY1-T-AAAAAAS")
    game.play(first)
    removed = game.pyramid_removed  # toward the goal: 28
    expect(page.locator("#removed")).to_have_text(f"{removed}/28")
    token = first.cards[-1].token
    expect(page.locator(".foundation .card")).to_have_attribute("data-card", token)
    assert Game("PY1-T-AAAAAAS").rules.redeals == 2


def test_a_hidden_tab_stops_the_clock_and_says_so(page, server):
    open_game(page, server.url, "PY1-N-AAAAAAS")
    hide = (
        "Object.defineProperty(document, 'visibilityState', {value: '%s', "
        "configurable: true}); document.dispatchEvent(new Event('visibilitychange'))"
    )
    page.evaluate(hide % "hidden")
    expect(page.locator("#paused")).to_be_visible()  # the game's pause: clock stops
    page.evaluate(hide % "visible")
    expect(page.locator("#paused")).to_be_hidden()
    expect(page.locator("#messages")).to_have_text("The clock stopped while this tab was hidden.")


def test_a_reload_resumes_without_a_word_and_keeps_the_next_game_type(page, server):
    """A reload is no hidden tab: the game goes on, its clock running, and nothing says the
    clock stopped; a game type chosen during a game is still the next deal's after it."""
    open_game(page, server.url, "PY1-N-AAAAAAS")
    page.keyboard.press("d")  # a game under way
    expect(page.locator("#moves")).to_have_text("1")
    page.select_option("#profile", "msc")  # for the next deal
    expect(page.locator("#messages")).to_have_text("The game changes from the next deal.")
    page.reload()
    expect(page.locator("#moves")).to_have_text("1")
    expect(page.locator("#paused")).to_be_hidden()
    expect(page.locator("#status")).to_have_text("Playing")
    page.wait_for_timeout(500)  # (the resume's answer has come)
    expect(page.locator("#messages")).not_to_contain_text("hidden")
    expect(page.locator("#deal-code")).to_have_text("PY1-N-AAAAAAS")
    expect(page.locator("#profile")).to_have_value("msc")  # still the next deal's type
    page.once("dialog", lambda d: d.accept())
    page.click("#new")
    expect(page.locator("#deal-code")).to_contain_text("PY1-M-")
    page.reload()
    expect(page.locator("#profile")).to_have_value("msc")


def test_the_page_starts_in_the_browsers_language(browser, server):
    context = browser.new_context(locale="vi-VN")
    page = context.new_page()
    page.goto(server.url)
    expect(page.locator("#undo")).to_have_text("Hoàn tác")
    expect(page.locator("#messages")).to_contain_text("Độ khó")  # the session's too
    context.close()


CONTRAST_JS = """
() => {
  const parse = (c) => {
    const v = (c.match(/[\\d.]+/g) || []).map(Number);
    return v.length === 3 ? [...v, 1] : v;
  };
  const lum = (rgb) => {
    const [r, g, b] = rgb.slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const over = (top, under, alpha) =>
    top.slice(0, 3).map((v, i) => v * alpha + under[i] * (1 - alpha));
  // the opacity an element is drawn with: its own times its ancestors'
  const fade = (e) => {
    let a = 1;
    for (let n = e; n; n = n.parentElement) a *= Number(getComputedStyle(n).opacity);
    return a;
  };
  // the colour behind an element's content: its and its ancestors' backgrounds, each
  // with its alpha and opacity, composited from the page up
  const background = (e) => {
    const layers = [];
    for (let n = e; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c.length === 4 && c[3] > 0) layers.push([c, c[3] * fade(n)]);
      if (c.length === 4 && c[3] === 1 && fade(n) === 1) break;
    }
    let colour = [255, 255, 255];                  // (the canvas under everything)
    for (const [c, a] of layers.reverse()) colour = over(c, colour, a);
    return colour;
  };
  const visible = (e) => {
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  const felt = background(document.getElementById("board"));
  const bad = [];
  const check = (what, r, least) => { if (r < least) bad.push(`${what}: ${r.toFixed(2)}`); };
  for (const e of document.querySelectorAll("body *")) {
    if (!visible(e) || e.closest("dialog:not([open])")) continue;
    if (document.querySelector("dialog[open]") && !e.closest("dialog[open]")) continue;
    if (e.closest(":disabled")) continue;          // an inactive control: WCAG exempts it
    const name = `${e.tagName}#${e.id}.${e.className} "${e.textContent.trim().slice(0, 20)}"`;
    if ([...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) {
      const s = getComputedStyle(e), size = parseFloat(s.fontSize);
      const large = size >= 24 || (Number(s.fontWeight) >= 700 && size >= 18.66);
      const bg = background(e), fg = parse(s.color);
      check(`text ${name}`, ratio(over(fg, bg, fg[3] * fade(e)), bg), large ? 3 : 4.5);
    }
    if (e.classList.contains("card") && !e.classList.contains("empty")
        && !e.closest(".cascade") && !e.classList.contains("ghost")) {
      const s = getComputedStyle(e), edge = parse(s.borderTopColor);
      // a card's edge (a pile's dashed outline) against the felt
      check(`card edge ${name}`, ratio(over(edge, felt, edge[3] * fade(e)), felt), 3);
      // a state's ring (free, selected, hinted, a partner) and the keyboard's cursor
      const ring = s.boxShadow.match(/rgba?\\([^)]*\\)(?= 0px 0px 0px [1-9])/);
      if (ring) check(`ring ${name}`, ratio(parse(ring[0]), felt), 3);
      if (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0)
        check(`outline ${name}`, ratio(parse(s.outlineColor), felt), 3);
    }
  }
  return bad;
}
"""


def lose_a_game(page):
    """Play the classic deal PY1-C-AAAAAAD to its end: 24 draws, then no move is left."""
    open_game(page, page.url, "PY1-C-AAAAAAD")
    for _ in range(24):
        page.click("#draw")
    expect(page.locator("#end-panel")).to_be_visible()


@pytest.mark.matrix
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_contrast_is_wcag_aa(browser, server, theme):
    """Text at least 4.5:1 (3:1 when large), card edges, piles' outlines and the rings of a
    card's state at least 3:1 against what is behind them, computed from the page's own
    styles (opacity and translucent layers composited), in both languages, on a desktop and
    a phone, in every state of the table: blocked and free cards, a selection, a hint, the
    keyboard's cursor, a pause, a dialog, the end of a game."""
    for size, lang in (((1280, 800), "en"), ((360, 640), "vi")):
        context = browser.new_context(viewport={"width": size[0], "height": size[1]})
        page = context.new_page()
        page.add_init_script(
            f"localStorage.setItem('pyramid.theme', '{theme}');"
            f"localStorage.setItem('pyramid.lang', '{lang}')"
        )
        page.goto(server.url)
        open_game(page, server.url, "PY1-N-AAAAAAS")
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        bad = page.evaluate(CONTRAST_JS)  # blocked and free cards
        click(page, 22)  # a selection
        page.keyboard.press("h")  # a hint
        expect(page.locator(".hinted").first).to_be_visible()
        page.locator("body").focus()
        page.keyboard.press("ArrowUp")  # the keyboard's cursor, on a blocked card
        bad += page.evaluate(CONTRAST_JS)
        page.keyboard.press("p")  # paused
        expect(page.locator("#paused")).to_be_visible()
        bad += page.evaluate(CONTRAST_JS)
        page.keyboard.press("p")
        expect(page.locator("#paused")).to_be_hidden()
        page.keyboard.press("?")  # the panels
        expect(page.locator("#howto-panel")).to_be_visible()
        bad += page.evaluate(CONTRAST_JS)
        page.click("#close-howto")
        page.click("#scores")
        expect(page.locator("#scores-panel")).to_be_visible()
        bad += page.evaluate(CONTRAST_JS)
        page.click("#close-scores")
        page.once("dialog", lambda d: d.accept())
        lose_a_game(page)  # the end: its dialog, then the table once it is closed
        bad += page.evaluate(CONTRAST_JS)
        page.click("#end-close")
        bad += page.evaluate(CONTRAST_JS)
        context.close()
        assert bad == [], f"{size} {lang}:\n" + "\n".join(sorted(set(bad)))


def test_motion_helps_and_stops_under_reduced_motion(browser, server):
    for reduced in ("no-preference", "reduce"):
        context = browser.new_context(reduced_motion=reduced)
        page = context.new_page()
        page.goto(server.url)
        expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
        page.evaluate("localStorage.setItem('pyramid.seen_howto', '1')")
        page.click("#new")  # a new deal is dealt
        name = page.evaluate(
            "getComputedStyle(document.querySelector('#pyramid .card[data-card]')).animationName"
        )
        assert name == ("deal" if reduced == "no-preference" else "none"), (reduced, name)
        context.close()


def test_a_win_cascades_then_the_dialog_opens(browser, server):
    """With motion: the 52 cards leap from the foundation, the end dialog waits for them
    (a key cuts them short). Under reduced motion the dialog opens at once (the other win
    tests), and no cascade is made."""
    context = browser.new_context(reduced_motion="no-preference")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    open_game(page, server.url, "PY1-N-AAAAAAS")
    follow_hints(page)
    expect(page.locator("#status")).to_have_text("Won")
    flying = page.locator("#cascade .card")
    expect(flying).to_have_count(52)
    assert (
        page.evaluate(
            "document.getAnimations().filter(a => a.effect.target.closest('#cascade')).length"
        )
        == 52
    )
    expect(page.locator("#end-panel")).to_be_hidden()  # the dialog waits
    expect(page.locator("#skip-cascade")).to_have_text(  # and the page says how to skip
        "You won! Press any key or click to skip."
    )
    page.keyboard.press("Escape")  # a key (Escape too): the cascade ends, not the dialog
    expect(page.locator("#cascade")).to_have_count(0)
    expect(page.locator("#skip-cascade")).to_have_count(0)
    expect(page.locator("#end-panel")).to_be_visible()
    expect(page.locator("#end-title")).to_have_text("You won!")
    page.wait_for_timeout(300)
    expect(page.locator("#end-panel")).to_be_visible()  # still open
    page.keyboard.press("Escape")  # the next Escape is the dialog's
    expect(page.locator("#end-panel")).to_be_hidden()
    context.close()
    assert errors == []


def test_while_dragging_only_partners_light_up(page, server):
    open_game(page, server.url)  # seed 000's deal
    source = card(page, 22)  # 10♣: its partners are 3s
    box = source.bounding_box()
    page.mouse.move(box["x"] + 6, box["y"] + 6)
    page.mouse.down()
    page.mouse.move(box["x"] + 40, box["y"] + 40, steps=4)
    lit = page.eval_on_selector_all(".card.partner", "es => es.map(e => e.dataset.card)")
    assert lit and all(t[0] == "3" for t in lit), lit  # 10 + 3 = 13, nothing else
    page.mouse.up()
    assert page.locator(".card.partner").count() == 0


#: the arrow key that takes the table's cursor towards the card ``where`` (a selector), or
#: null once it is there: up or down to its row first (the pyramid's rows, then the
#: talon's), then along it
WALK_JS = """
(where) => {
  const rows = [...document.querySelectorAll("#board [role=row]")];
  const at = (e) => {
    const r = rows.findIndex((row) => row.contains(e));
    return [r, [...rows[r].querySelectorAll("[role=gridcell]")].indexOf(e)];
  };
  const from = document.querySelector("#board .card.cursor");
  const to = document.querySelector(`#board .card${where}`);
  if (!from) return "ArrowRight";
  if (from === to) return null;
  const [fr, fc] = at(from), [tr, tc] = at(to);
  if (fr !== tr) return fr < tr ? "ArrowDown" : "ArrowUp";
  return fc < tc ? "ArrowRight" : "ArrowLeft";
}
"""


def test_keyboard_alone_plays_a_game_to_a_win(page, server):
    """Arrows and Enter only (and H for the hints to follow): the cursor reaches every card
    a hint names, and the game is won."""
    open_game(page, server.url, "PY1-N-AAAAAAS")
    page.locator("body").focus()
    for _ in range(120):
        if page.locator("#status").text_content() != "Playing":
            break
        page.keyboard.press("h")
        expect(page.locator(".hinted").first).to_be_visible()
        tokens = page.eval_on_selector_all(
            ".card.hinted[data-card]", "es => es.map(e => e.dataset.card)"
        ) or ["stock"]
        moves = page.locator("#moves").text_content()
        for token in tokens:
            where = '[data-target="stock"]' if token == "stock" else f'[data-card="{token}"]'
            for _ in range(40):  # the arrows, until the cursor is there
                key = page.evaluate(WALK_JS, where)
                if key is None:
                    break
                page.keyboard.press(key)
            assert page.locator(f".card.cursor{where}").count(), token
            assert page.evaluate("document.activeElement.classList.contains('cursor')")
            page.keyboard.press("Enter")
        expect(page.locator("#moves")).not_to_have_text(moves)
    expect(page.locator("#status")).to_have_text("Won")
    expect(page.locator("#end-panel")).to_be_visible()
    assert page.locator(".card[aria-label]").count() > 0  # cards have accessible names


def test_game_type_names_in_both_languages(page, server):
    page.goto(server.url)
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    option = page.locator('#profile option[value="three-pass"]')
    expect(option).to_have_text("Three passes")
    page.select_option("#lang", "vi")
    expect(option).to_have_text("Ba lượt")


def test_fair_hints_and_the_chance_to_win(browser, server):
    """The checkbox asks for hints that never look at the stock (kept across deals and
    reloads), the chance button says it from what is seen, in the page's language."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    open_game(page, server.url, "PY1-M-AAAAABF")
    expect(page.locator("#fair-hints")).not_to_be_checked()
    page.click("#hint")
    expect(page.locator(".card.hinted[data-card='8c']")).to_have_count(1)
    plain = page.eval_on_selector_all(
        ".card.hinted[data-card]", "es => es.map(e => e.dataset.card)"
    )
    assert sorted(plain) == ["5c", "8c"]  # the solver's move: it sees the stock
    page.check("#fair-hints")
    expect(page.locator("#messages")).to_contain_text("face-down stock")
    page.click("#hint")
    expect(page.locator(".card.hinted[data-card='8d']")).to_have_count(1)
    fair = page.eval_on_selector_all(".card.hinted[data-card]", "es => es.map(e => e.dataset.card)")
    assert sorted(fair) == ["5c", "8d"]  # the hindsight policy's
    page.click("#chance")
    expect(page.locator("#messages")).to_contain_text("Chance to win: about")
    page.select_option("#lang", "vi")
    page.keyboard.press("w")
    expect(page.locator("#messages")).to_contain_text("Cơ hội thắng")
    page.reload()
    expect(page.locator("#fair-hints")).to_be_checked()
    open_game(page, server.url, "PY1-M-AAAAAAS")  # a new deal: still fair
    expect(page.locator("#fair-hints")).to_be_checked()
    context.close()


def test_keys_that_only_answer_game_over_are_off_once_it_is(page, server):
    """Once the game is over (classic deal 3, drawn to the end with no move left), Hint,
    Draw, Chance and Pause are disabled, their keys send nothing, and no card shows as
    playable; a new deal turns them on again."""
    open_game(page, server.url, "PY1-C-AAAAAAD")
    for _ in range(24):
        page.evaluate("send({op: 'tap', target: 'stock'})")
    expect(page.locator("#end-panel")).to_be_visible()
    expect(page.locator("#status")).to_have_text("No moves")
    page.click("#end-close")  # look at the table
    expect(page.locator("#end-panel")).to_be_hidden()
    for button in ("#hint", "#draw", "#chance", "#pause"):
        expect(page.locator(button)).to_be_disabled()
    expect(page.locator(".card.free")).to_have_count(0)
    moves = page.locator("#moves").inner_text()
    page.locator("#pyramid").click(position={"x": 2, "y": 2})
    for key in ("d", "h", "w", "p"):
        page.keyboard.press(key)
    expect(page.locator("#messages")).not_to_contain_text("over")
    expect(page.locator("#moves")).to_have_text(moves)
    page.fill("#code-input", "PY1-N-AAAAAAS")  # a new deal (the ended game asks nothing)
    page.click("#code-play")
    expect(page.locator("#deal-code")).to_have_text("PY1-N-AAAAAAS")
    for button in ("#hint", "#draw", "#pause"):
        expect(page.locator(button)).to_be_enabled()
    expect(page.locator(".card.free").first).to_be_visible()


def test_the_stock_top_is_named_apart_from_the_stock(page, server):
    """Under msc the stock's top card has its own pile: labelled "Stock top" (as in the
    terminal game), not "Stock" a second time."""
    open_game(page, server.url, "PY1-M-AAAAAAS")
    top = page.locator(".pile", has=page.locator('.card[data-target="stock:top"]'))
    expect(top.locator(".count")).to_have_text("Stock top")
    labels = page.locator("#talon .pile .count").all_inner_texts()
    assert sum(text.startswith("Stock ") and text != "Stock top" for text in labels) == 1


@pytest.mark.matrix
def test_no_accessibility_violation_in_any_state(browser, server):
    """axe-core's WCAG 2.1 A and AA rules find nothing, in both themes and languages, on a
    desktop and a phone, in each state of the page: a new deal, a selection and a hint with
    the keyboard in the table, a pause, each dialog, a game over."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    axe = axe_module.Axe()
    tags = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
    found = []

    def check(page, where):
        results = axe.run(page, options=tags)
        for v in results.response["violations"]:
            nodes = "; ".join(n["target"][0] for n in v["nodes"][:3])
            found.append(f"{where}: {v['id']} ({v['impact']}) {nodes}")

    for theme, lang, size in (
        ("light", "en", (1280, 800)),
        ("dark", "vi", (1280, 800)),
        ("dark", "en", (360, 640)),
        ("light", "vi", (360, 640)),
    ):
        where = f"{theme} {lang} {size[0]}x{size[1]}"
        context = browser.new_context(viewport={"width": size[0], "height": size[1]})
        page = context.new_page()
        page.add_init_script(
            f"localStorage.setItem('pyramid.theme', '{theme}');"
            f"localStorage.setItem('pyramid.lang', '{lang}')"
        )
        open_game(page, server.url, "PY1-N-AAAAAAS")
        check(page, f"{where} new deal")
        page.locator("body").focus()
        page.keyboard.press("ArrowRight")  # into the table
        page.keyboard.press("Enter")
        page.keyboard.press("h")
        expect(page.locator(".hinted").first).to_be_visible()
        check(page, f"{where} selection and hint")
        page.keyboard.press("p")
        expect(page.locator("#paused")).to_be_visible()
        check(page, f"{where} paused")
        page.keyboard.press("p")
        expect(page.locator("#paused")).to_be_hidden()
        for opener, panel, closer in (
            ("#howto", "#howto-panel", "#close-howto"),
            ("#scores", "#scores-panel", "#close-scores"),
        ):
            page.click(opener)
            expect(page.locator(panel)).to_be_visible()
            check(page, f"{where} {panel}")
            page.click(closer)
        page.once("dialog", lambda d: d.accept())
        lose_a_game(page)
        check(page, f"{where} end dialog")
        page.click("#end-close")
        check(page, f"{where} game over")
        context.close()
    assert found == [], "\n".join(found)


def test_the_table_is_a_grid_a_screen_reader_can_walk(page, server):
    """The ARIA grid pattern: one tab stop in the table (roving tabindex), arrows move it
    across all the cards (blocked ones too, so a screen reader user learns the layout), each
    named with its state; what happens is said in a live region."""
    open_game(page, server.url, "PY1-N-AAAAAAS")
    grid = page.get_by_role("grid", name="Table")
    expect(grid).to_be_visible()
    assert page.locator('#board [tabindex="0"]').count() == 1  # one tab stop
    snapshot = grid.aria_snapshot()
    rows = re.findall(r"- '?row ", snapshot)
    assert "rowgroup" in snapshot and len(rows) == 8, snapshot  # 7 + the talon's
    assert 'gridcell "Ace of diamonds, blocked"' in snapshot, snapshot  # the apex
    assert re.search(r'gridcell "[^"]+, free"', snapshot), snapshot
    assert re.search(r'gridcell "Stock: 23 cards', snapshot), snapshot
    assert re.search(r'gridcell "[^"]+ on the waste, 1 card', snapshot), snapshot
    # Tab from the control before the table reaches the grid's one stop: a free card
    page.locator("body").focus()
    page.keyboard.press("Tab")
    while not page.evaluate("document.getElementById('board').contains(document.activeElement)"):
        page.keyboard.press("Tab")
    focused = lambda: page.evaluate("document.activeElement.getAttribute('aria-label')")  # noqa: E731
    assert focused().endswith(", free"), focused()
    page.keyboard.press("ArrowUp")  # a blocked card above: reachable and said so
    assert focused().endswith(", blocked"), focused()
    page.keyboard.press("Enter")  # a blocked card: refused, in the live region
    live = page.locator("#messages")
    assert live.get_attribute("aria-live") == "polite"
    expect(live).to_have_text("This card is blocked by another card")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    first = focused()
    page.keyboard.press("End")
    assert focused() != first
    for _ in range(8):
        page.keyboard.press("ArrowDown")  # down to the talon's row
    assert focused().startswith(("Stock", "Removed")) or "on the waste" in focused(), focused()
    page.keyboard.press("Home")
    assert focused().startswith("Stock: 23 cards"), focused()
    page.keyboard.press("Enter")  # a draw, said as it is
    expect(page.locator("#moves")).to_have_text("1")
    assert focused().startswith("Stock: 22 cards"), focused()  # the focus stays in place
    assert page.locator('#board [tabindex="0"]').count() == 1
    # the selection is named too
    page.keyboard.press("ArrowRight")  # the waste's top
    page.keyboard.press("Enter")
    expect(page.locator("#talon .card.selected")).to_have_count(1)
    assert ", selected" in focused(), focused()


def test_every_control_works_from_the_keyboard(page, server):
    """The "Winnable deals only" box toggles with Space (the game's keys reach the game only
    from the table or the page), the lists change with the arrows, and the focus stays on
    the control a keyboard user changed."""
    open_game(page, server.url, "PY1-N-AAAAAAS")
    page.focus("#winnable")
    assert page.is_checked("#winnable")
    page.keyboard.press(" ")
    assert not page.is_checked("#winnable")
    assert page.evaluate("localStorage.getItem('pyramid.winnable')") == "0"
    assert page.evaluate("document.activeElement.id") == "winnable"
    page.keyboard.press("d")  # not the game's: the focus is on a control
    expect(page.locator("#moves")).to_have_text("0")
    page.keyboard.press(" ")
    assert page.is_checked("#winnable")
    page.focus("#fair-hints")
    page.keyboard.press(" ")
    assert page.is_checked("#fair-hints")
    page.focus("#lang")
    page.keyboard.press("ArrowDown")  # the list's own key: Tiếng Việt
    expect(page.locator("#undo")).to_have_text("Hoàn tác")
    assert page.evaluate("document.activeElement.id") == "lang"
    page.evaluate("document.activeElement.blur()")  # (as a click on the page does)
    page.keyboard.press("d")  # from the page: the game's
    expect(page.locator("#moves")).to_have_text("1")


def test_share_a_deal_and_open_its_link(browser, server):
    """Copy link gives a link that opens the same deal in another browser; Copy code the
    code; the clipboard holds them and the page says what it copied."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    open_game(page, server.url, "PY1-M-AAAAAAS")
    page.click("#copy-code")
    expect(page.locator("#messages")).to_have_text("Copied: PY1-M-AAAAAAS")
    assert page.evaluate("navigator.clipboard.readText()") == "PY1-M-AAAAAAS"
    page.click("#copy-link")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == f"{server.url.rstrip('/')}/#deal=PY1-M-AAAAAAS", link
    expect(page.locator("#messages")).to_have_text(f"Copied: {link}")
    other = browser.new_context().new_page()  # another player opens it
    other.goto(link)
    expect(other.locator("#deal-code")).to_have_text("PY1-M-AAAAAAS")
    expect(other.locator("#profile")).to_have_value("msc")
    other.context.close()
    open_game(page, server.url)  # a card list: its link names the 52 cards
    page.click("#copy-link")
    expect(page.locator("#messages")).to_contain_text("Copied: ")
    link = page.evaluate("navigator.clipboard.readText()")
    assert "#deal=" in link and "%20" in link, link
    other = browser.new_context().new_page()
    other.goto(link)
    expect(other.locator("#deal-code")).to_have_text("a card list")
    expect(other.locator(".card[data-target='0']")).to_have_attribute("data-card", "Jd")
    assert pyramid_of(other) == pyramid_of(page)
    other.context.close()
    context.close()


def test_removed_cards_fly_to_the_foundation_and_sounds_are_a_choice(browser, server):
    """With motion, the cards of a pair fly from their place to the foundation (they do not
    just vanish); sounds are off until the player turns them on, then each kind of move has
    its own."""
    context = browser.new_context(reduced_motion="no-preference")
    page = context.new_page()
    open_game(page, server.url, "PY1-N-AAAAAAS")
    page.wait_for_timeout(900)  # (the deal's own motion ends)
    assert not page.is_checked("#sounds")  # off by default
    click(page, 25)  # 3♦ and 10♥
    click(page, 26)
    expect(page.locator("body > .card.flying")).to_have_count(2)  # two cards in flight
    expect(page.locator("body > .card.flying")).to_have_count(0)  # then landed
    assert page.evaluate("document.body.dataset.sound") is None  # nothing played
    page.click("#sounds")
    assert page.evaluate("localStorage.getItem('pyramid.sounds')") == "1"
    page.keyboard.press("d")
    expect(page.locator("body")).to_have_attribute("data-sound", "draw")
    click(page, 15)  # blocked: a refusal
    expect(page.locator("body")).to_have_attribute("data-sound", "refuse")
    context.close()


def test_daily_deal_difficulty_and_statistics_worth_looking_at(browser, server):
    """The daily deal is the session's (the same for every player of a game type that day,
    dated by the player's clock); new deals by difficulty; the statistics panel has the
    daily figures, win rates by difficulty (a chart named in words, and a table), the high
    scores with the hints taken, the recent games, and a reset that asks first."""
    from datetime import date

    from pyramid_solitaire.session.daily import daily_deal

    context = browser.new_context()
    page = context.new_page()
    page.goto(server.url)
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    page.select_option("#profile", "msc")
    page.click("#daily")
    expected = daily_deal("msc", date.today()).code
    expect(page.locator("#deal-code")).to_have_text(expected)
    expect(page.locator("#daily-badge")).to_have_text(f"Daily deal {date.today().isoformat()}")
    expect(page.locator("#messages")).to_contain_text("Daily deal of")
    # another player, the same deal
    other = browser.new_context().new_page()
    other.goto(server.url)
    expect(other.locator("#pyramid .card[data-card]").first).to_be_visible()
    other.select_option("#profile", "msc")
    other.click("#daily")
    expect(other.locator("#deal-code")).to_have_text(expected)
    other.context.close()
    # a hard deal: the session rates it so
    page.select_option("#level", "hard")
    assert page.is_disabled("#winnable")  # a difficulty is a winnable deal
    page.click("#new")
    expect(page.locator("#daily-badge")).to_be_hidden()
    expect(page.locator("#difficulty")).to_have_text(re.compile(r"^(hard|very hard|expert)$"))
    # play it a little with a hint, leave it (abandoned), then lose a classic game
    page.keyboard.press("h")
    expect(page.locator(".hinted").first).to_be_visible()
    page.keyboard.press("d")
    expect(page.locator("#moves")).to_have_text("1")
    page.once("dialog", lambda d: d.accept())
    page.select_option("#level", "")
    lose_a_game(page)
    expect(page.locator("#end-best")).to_have_text(
        "Best of this game type: Games 1 · Wins 0 · Best score 0"
    )
    page.click("#end-close")
    page.select_option("#profile", "msc")
    page.click("#scores")
    panel = page.locator("#scores-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("#history tr")).to_have_count(1)  # the msc game left
    expect(panel.locator("#history")).to_contain_text("abandoned")
    row = panel.locator("#history tr").first
    expect(row.locator("td").nth(6)).to_have_text("1")  # its hint
    expect(panel.locator("#by-difficulty tr")).to_have_count(1)
    expect(panel.locator("#chart")).to_have_attribute(
        "aria-label", re.compile(r"^Win rate by difficulty: (Hard|Very hard|Expert) 0%$")
    )
    expect(panel.locator("#daily-summary")).to_contain_text("Daily deals played")
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#reset-stats")  # asked, and kept
    assert asked and "cannot be undone" in asked[0], asked
    expect(panel.locator("#history tr")).to_have_count(1)
    page.once("dialog", lambda d: d.accept())
    page.click("#reset-stats")
    expect(page.locator("#messages")).to_have_text("1 games deleted.")
    expect(panel.locator("#history")).to_have_text("No games yet.")
    context.close()


def test_a_bad_code_is_refused_before_asking_and_a_hint_survives_a_language_switch(page, server):
    """Pasting a code that cannot be played during a game says why at once, without asking
    to leave the game (nothing would be left); a good one asks first. Switching language
    translates the hint shown (its ring stays), where it used to clear it."""
    open_game(page, server.url, "PY1-N-AAAAAAS")
    page.keyboard.press("d")  # a game under way
    expect(page.locator("#moves")).to_have_text("1")
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.fill("#code-input", "PY1-N-AAAAAA")  # six letters
    page.click("#code-play")
    expect(page.locator("#messages")).to_have_class(re.compile(r"\berror\b"))
    expect(page.locator("#messages")).to_contain_text("AAAAAA")
    assert asked == []  # refused before any question
    page.fill("#code-input", "PY1-M-AAAAAAB")
    page.click("#code-play")
    for _ in range(50):  # (the question comes once the server has read the code)
        if asked:
            break
        page.wait_for_timeout(100)
    assert len(asked) == 1 and "abandoned" in asked[0]
    expect(page.locator("#deal-code")).to_have_text("PY1-N-AAAAAAS")  # dismissed: kept
    page.keyboard.press("h")
    expect(page.locator(".hinted").first).to_be_visible()
    english = page.locator("#messages").text_content()
    hinted = page.eval_on_selector_all(".hinted", "es => es.map(e => e.dataset.target)")
    page.select_option("#lang", "vi")
    expect(page.locator("#messages")).not_to_have_text(english)
    expect(page.locator("#messages")).to_have_text(re.compile(r"^(Ghép|Bỏ|Rút|Lật)"))
    assert page.eval_on_selector_all(".hinted", "es => es.map(e => e.dataset.target)") == hinted


def test_the_game_offers_to_finish_once_no_choice_is_left(page, server):
    """Once the rest needs no choice (the session's can_finish), a Finish button (and F)
    plays it out; it is not offered before."""
    from conftest import EASY_CLEAR, easy_deal

    page.goto(server.url)
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    page.fill("#code-input", easy_deal().to_cards())
    page.click("#code-play")
    expect(page.locator("#deal-code")).to_have_text("a card list")
    expect(page.locator("#moves")).to_have_text("0")
    first = 9  # tests/test_finish.py: EASY_CLEAR[:9] played, the rest needs no choice
    for k, move in enumerate(EASY_CLEAR[:first]):
        expect(page.locator("#finish")).to_be_hidden()
        for token in move.split("+"):
            page.locator(f'#board .card[data-target][data-card="{token}"]').click(
                position={"x": 6, "y": 6}
            )
        expect(page.locator("#moves")).to_have_text(str(k + 1))
    expect(page.locator("#finish")).to_be_visible()
    expect(page.locator("#messages")).to_have_text(
        "The rest needs no choice: the game can finish itself"
    )
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("f")
    expect(page.locator("#status")).to_have_text("Won")
    expect(page.locator("#finish")).to_be_hidden()
    expect(page.locator("#end-panel")).to_be_visible()


@pytest.mark.matrix
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_what_players_come_back_for_on_a_phone_in_vietnamese(browser, server, theme):
    """The daily deal, the choice of difficulty, sharing, the statistics panel and its reset
    on a 360 x 640 phone in Vietnamese: each works, says itself in Vietnamese and fits the
    screen (no sideways scrolling; the panel scrolls within itself)."""
    from datetime import date

    from pyramid_solitaire.session.daily import daily_deal

    context = browser.new_context(
        viewport={"width": 360, "height": 640},
        has_touch=True,
        is_mobile=True,
        permissions=["clipboard-read", "clipboard-write"],
    )
    page = context.new_page()
    page.add_init_script(
        f"localStorage.setItem('pyramid.theme', '{theme}');"
        "localStorage.setItem('pyramid.lang', 'vi')"
    )
    page.goto(server.url)
    expect(page.locator("#pyramid .card[data-card]").first).to_be_visible()
    expect(page.locator("#daily")).to_have_text("Ván hằng ngày")
    page.click("#daily")
    expect(page.locator("#deal-code")).to_have_text(daily_deal("pyramide", date.today()).code)
    expect(page.locator("#daily-badge")).to_have_text(f"Ván hằng ngày {date.today().isoformat()}")
    expect(page.locator("#messages")).to_contain_text("Ván bài hằng ngày")
    page.click("#copy-code")
    expect(page.locator("#messages")).to_contain_text("Đã chép: PY1-N-")
    assert page.locator('#level option[value="easy"]').text_content() == "Dễ"
    page.select_option("#level", "easy")
    page.click("#new")
    expect(page.locator("#daily-badge")).to_be_hidden()
    expect(page.locator("#difficulty")).to_have_text("dễ")
    page.keyboard.press("d")
    expect(page.locator("#moves")).to_have_text("1")
    page.once("dialog", lambda d: d.accept())
    page.click("#new")  # the game left: abandoned, recorded
    expect(page.locator("#moves")).to_have_text("0")
    page.click("#scores")
    panel = page.locator("#scores-panel")
    expect(panel).to_be_visible()
    for title in ("Ván hằng ngày", "Theo độ khó", "Các ván gần đây"):
        expect(panel).to_contain_text(title)
    expect(panel.locator("#history")).to_contain_text("bỏ dở")
    expect(panel.locator("#chart")).to_have_attribute(
        "aria-label", "Tỉ lệ thắng theo độ khó: Dễ 0%"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    box = panel.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    page.once("dialog", lambda d: d.accept())
    panel.locator("#reset-stats").scroll_into_view_if_needed()
    page.click("#reset-stats")
    expect(page.locator("#messages")).to_have_text("Đã xoá 1 ván.")
    context.close()
