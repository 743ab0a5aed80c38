"""The terminal game (Textual): driven through its pilot, with a fake clock and the save and
statistics files in a temporary folder. Each test checks both the session's state and what
the widgets draw."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest

textual = pytest.importorskip("textual")

from pyramid_solitaire import cli, solve  # noqa: E402
from pyramid_solitaire.session import Session, StatsStore  # noqa: E402
from pyramid_solitaire.tui import cursor  # noqa: E402
from pyramid_solitaire.tui.app import PyramidApp  # noqa: E402
from pyramid_solitaire.tui.screens import (  # noqa: E402
    CodeScreen,
    ConfirmScreen,
    EndScreen,
    HelpScreen,
    StatsScreen,
)
from pyramid_solitaire.tui.widgets import CardWidget, face  # noqa: E402

from conftest import seed000_deal  # noqa: E402

SIZE = (80, 24)
SEED000_CARDS = " ".join(c.token for c in seed000_deal().cards)


class FakeClock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def make_app(tmp_path, code=SEED000_CARDS, profile="pyramide", **kwargs) -> PyramidApp:
    kwargs.setdefault("clock", FakeClock())
    return PyramidApp(
        code,
        profile,
        save_path=tmp_path / "game.json",
        stats_path=tmp_path / "stats.sqlite3",
        **kwargs,
    )


def run(app: PyramidApp, script, size=SIZE, notifications=False) -> None:
    async def main():
        async with app.run_test(size=size, notifications=notifications) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def index_of(app: PyramidApp, token: str) -> int:
    return next(e["index"] for e in app.session.state()["pyramid"] if e["card"] == token)


def card(app: PyramidApp, target) -> CardWidget:
    return app.table.card(target)


def messages_shown(app: PyramidApp) -> str:
    return str(app.table.query_one("#messages").render())


def status_shown(app: PyramidApp) -> str:
    return str(app.table.query_one("#status").render())


def test_face_and_cursor_helpers():
    assert face("Td") == ("10♦", True) and face("Ks") == ("K♠", False)
    assert face(None) == ("", False)
    places = {21: (6, 0), 23: (6, 8), 15: (5, 3), "stock": (7, 1), "waste": (7, 9)}
    assert cursor.move(places, 21, "right") == 23 and cursor.move(places, 23, "right") == 23
    assert cursor.move(places, 23, "up") == 15 and cursor.move(places, 15, "up") == 15
    assert cursor.move(places, 23, "down") == "waste" and cursor.move(places, 21, "down") == "stock"
    assert cursor.move(places, "gone", "left") == 21 and cursor.move({}, 21, "up") is None


def test_seed000_walkthrough_by_mouse(tmp_path):
    app = make_app(tmp_path)

    async def script(pilot):
        # what just moved stays shown until the next move (a loaded machine could end its
        # moment before the check below)
        app.table.MOVED_SECONDS = 60
        qc, kd, tc, s3 = (index_of(app, t) for t in ("Qc", "Kd", "Tc", "3s"))
        assert qc == 15 and "blocked" in card(app, qc).classes and card(app, qc).label == "Q♣"
        assert await pilot.click(f"#p{qc}")  # the click lands on Q♣
        assert "This card is blocked by another card" in messages_shown(app)
        assert app.session.state()["score"] == 0
        assert await pilot.click(f"#p{kd}")  # K♦: one click removes it
        assert app.session.state()["pyramid"][kd]["card"] is None
        assert app.session.state()["score"] == 10 and "Score 10" in status_shown(app)
        assert "empty" in card(app, kd).classes and card(app, kd).token is None
        assert "gone" in card(app, kd).classes and card(app, kd).label == "K♦"  # a moment
        await pilot.click(f"#p{tc}")
        assert "selected" in card(app, tc).classes  # the selection is drawn
        await pilot.click(f"#p{s3}")
        st = app.session.state()
        assert st["score"] == 30 and st["moves"] == 2 and st["selection"] is None
        assert card(app, tc).token is None and card(app, s3).token is None
        assert "Score 30" in status_shown(app)
        assert not app.table.query("CardWidget.selected")
        c7, s7 = index_of(app, "7c"), index_of(app, "7s")
        await pilot.click(f"#p{c7}")
        await pilot.click(f"#p{s7}")
        assert "Sum must be 13" in messages_shown(app)
        assert app.session.state()["selection"] == {"target": s7, "card": "7s"}
        assert "selected" in card(app, s7).classes and "selected" not in card(app, c7).classes
        assert card(app, s7).label == "7♠" and "red" not in card(app, s7).classes
        assert "red" in card(app, index_of(app, "Jd")).classes

    run(app, script)


def test_drag_a_card_onto_its_partner(tmp_path):
    app = make_app(tmp_path)

    async def script(pilot):
        tc, s3 = index_of(app, "Tc"), index_of(app, "3s")
        await pilot.mouse_down(f"#p{tc}")
        await pilot.mouse_up(f"#p{s3}")
        st = app.session.state()
        assert st["pyramid"][tc]["card"] is None and st["pyramid"][s3]["card"] is None
        assert st["score"] == 20 and card(app, tc).token is None

    run(app, script)


def test_keyboard_path(tmp_path):
    app = make_app(tmp_path, "PY1-T-AAAAAAS", "three-pass")

    async def script(pilot):
        st = app.session.state()
        assert app.cursor == st["targets"][0] == 21  # the cursor starts on a target
        assert "cursor" in card(app, 21).classes and card(app, 21).render().plain.startswith("›")
        kc = index_of(app, "Kc")  # a free King, right of 21
        for _ in range(kc - 21):
            await pilot.press("right")
        assert app.cursor == kc and "cursor" in card(app, kc).classes
        await pilot.press("enter")
        st = app.session.state()
        assert st["pyramid"][kc]["card"] is None and st["score"] == 10 and st["moves"] == 1
        assert app.cursor in st["targets"]  # moved to a card still there
        await pilot.press("down")  # from row 7 to the talon row
        assert app.cursor == "stock"
        await pilot.press("up")
        assert isinstance(app.cursor, int) and app.cursor >= 21
        stock = st["stock"]
        await pilot.press("d")
        st = app.session.state()
        assert st["stock"] == stock - 1 and st["moves"] == 2
        assert card(app, "stock").label == str(stock - 1) and card(app, "waste").token is not None
        await pilot.press("z")  # the draw taken back
        st = app.session.state()
        assert st["stock"] == stock and st["score"] == 10 and st["moves"] == 3  # an undo counts
        assert card(app, "stock").label == str(stock)
        await pilot.press("r")
        st = app.session.state()
        assert st["stock"] == stock - 1 and st["moves"] == 4 and st["score"] == 10

    run(app, script)


def test_undo_by_key_and_state(tmp_path):
    app = make_app(tmp_path)

    async def script(pilot):
        kd = index_of(app, "Kd")
        await pilot.press("z")
        assert "Nothing to undo" in messages_shown(app)
        await pilot.click(f"#p{kd}")
        assert app.session.state()["can_undo"] and app.session.state()["score"] == 10
        await pilot.press("z")
        st = app.session.state()
        assert st["score"] == 0 and st["moves"] == 1  # pyramide: the counter stays
        assert st["pyramid"][kd]["card"] == "Kd" and card(app, kd).label == "K♦"
        assert st["can_redo"] and not st["can_undo"] and "Score 0" in status_shown(app)

    run(app, script)


def test_win_panel(tmp_path):
    app = make_app(tmp_path)

    async def script(pilot):
        line = [str(m) for m in solve(app.session.game).moves]
        for move in line[:-1]:
            app.act("play", move)
        assert not isinstance(app.screen, EndScreen)
        last = line[-1]
        app.act("play", last)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        st = app.session.state()
        assert st["status"] == "won" and st["score"] == 280
        assert str(app.screen.query_one("#end-title").render()) == "You won!"
        summary = str(app.screen.query_one("#end-summary").render())
        assert "Score 280" in summary and f"Moves {st['moves']}" in summary
        best = str(app.screen.query_one("#end-best").render())  # the best of this game type
        assert "Best of this game type" in best and "Wins 1" in best
        await pilot.press("escape")
        assert not isinstance(app.screen, EndScreen) and "You won!" in messages_shown(app)
        assert StatsStore(tmp_path / "stats.sqlite3").summary("pyramide")["wins"] == 1
        await pilot.press("s")  # the win is in the statistics
        assert isinstance(app.screen, StatsScreen)
        assert app.screen.query_one("#stats-summary").get_row("Wins")[1] == "1"
        high = app.screen.query_one("#stats-high")
        assert high.row_count == 1 and "280" in [str(c) for c in high.get_row_at(0)]
        await pilot.press("escape")

    run(app, script)
    again = make_app(tmp_path, code=None)  # the won game, resumed

    async def resumed(pilot):
        assert isinstance(again.screen, EndScreen)
        await pilot.press("n")  # a new deal from the panel
        st = again.session.state()
        assert not isinstance(again.screen, EndScreen)
        assert st["status"] == "playing" and st["moves"] == 0 and st["code"] is not None

    run(again, resumed)


def test_resume_after_restart(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, clock=clock)
    seen = {}

    async def first(pilot):
        await pilot.click(f"#p{index_of(app, 'Kd')}")
        await pilot.click(f"#p{index_of(app, 'Tc')}")
        await pilot.click(f"#p{index_of(app, '3s')}")
        clock.t += 65
        await pilot.press("q")
        seen.update(app.session.state())

    run(app, first)
    assert seen["score"] == 30 and seen["moves"] == 2
    again = make_app(tmp_path, code=None, clock=FakeClock(5000.0))

    async def second(pilot):
        st = again.session.state()
        assert (st["score"], st["moves"], st["pyramid"], st["code"]) == (
            seen["score"],
            seen["moves"],
            seen["pyramid"],
            seen["code"],
        )
        assert st["seconds"] == 65  # the clock kept at the quit
        assert "Saved game resumed" in messages_shown(again) and "Time 1:05" in status_shown(again)
        assert [card(again, i).label == "" for i in range(28)] == [
            e["card"] is None for e in seen["pyramid"]
        ]  # the removed places drawn

    run(again, second)


def test_ctrl_q_saves_the_clock_too(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, clock=clock)

    async def script(pilot):
        await pilot.click(f"#p{index_of(app, 'Kd')}")
        clock.t += 100
        await pilot.press("ctrl+q")  # Textual's own quit

    run(app, script)
    assert json.loads((tmp_path / "game.json").read_text())["seconds"] == 100


def test_corrupt_save_is_kept(tmp_path):
    bad = tmp_path / "game.json"
    bad.write_text('{"format": "something else"}')
    app = make_app(tmp_path, code=None, winnable_only=False)

    async def script(pilot):
        assert "not a pyramid-solitaire save" in " ".join(map(str, app.notes))
        assert app.save_path == tmp_path / "game-1.json"
        await pilot.press("d")

    run(app, script)
    assert bad.read_text() == '{"format": "something else"}'  # never written over
    assert Session.load(tmp_path / "game-1.json").moves == 1


def test_a_bad_statistics_file_is_kept_and_the_game_goes_on(tmp_path):
    db = tmp_path / "stats.sqlite3"
    db.write_text("not a database")
    app = make_app(tmp_path)

    async def script(pilot):
        assert "Statistics are off" in messages_shown(app)
        await pilot.press("s")
        assert isinstance(app.screen, StatsScreen) and app.screen.query("#stats-error")
        await pilot.press("escape")
        await pilot.click(f"#p{index_of(app, 'Kd')}")
        assert app.session.state()["score"] == 10

    run(app, script)
    assert db.read_text() == "not a database"


def test_theme_help_stats_and_a_bad_code(tmp_path):
    app = make_app(tmp_path)

    async def script(pilot):
        assert app.theme == "textual-dark"
        await pilot.press("t")
        assert app.theme == "textual-light"
        await pilot.press("t")
        assert app.theme == "textual-dark"
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = str(app.screen.query_one("#help-text").render())
        assert "undo" in shown and "How to play: Pyramide" in shown
        assert "as often as you like" in shown and "A + Q, 2 + J" in shown  # the rules page
        await pilot.press("z")  # game keys wait under help
        assert app.session.state()["moves"] == 0
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("s")
        assert isinstance(app.screen, StatsScreen)
        assert app.screen.query_one("#stats-summary").get_row("Games")[1] == "0"  # no game yet
        await pilot.press("escape")
        code = app.session.state()["code"]
        await pilot.press("c")
        assert isinstance(app.screen, CodeScreen)
        await pilot.press(*"nonsense", "enter")
        assert isinstance(app.screen, CodeScreen)  # the error shown, still open
        assert "not a card" in str(app.screen.query_one("#code-error").render())
        await pilot.press("escape")
        assert app.session.state()["code"] == code and app.session.state()["moves"] == 0
        await pilot.click(f"#p{index_of(app, 'Kd')}")  # the game goes on
        assert app.session.state()["score"] == 10
        await pilot.press("c")  # a game under way: asked
        assert isinstance(app.screen, ConfirmScreen)
        assert "abandoned" in str(app.screen.query_one("#confirm-text").render())
        await pilot.press("y")
        await pilot.press(*"PY1-N-AAAAAAS", "enter")  # a good code: a new game
        assert not isinstance(app.screen, CodeScreen)
        assert app.session.state()["code"] == "PY1-N-AAAAAAS" and app.session.moves == 0
        assert "Difficulty: easy" in messages_shown(app)

    run(app, script)


def test_pause_hides_the_cards_and_stops_the_clock(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, clock=clock)

    async def script(pilot):
        clock.t += 10
        app.table.tick()
        assert "Time 0:10" in status_shown(app)
        await pilot.press("p")
        assert app.session.state()["paused"]
        assert all(card(app, i).token is None for i in range(28))  # the faces hidden
        clock.t += 50
        app.table.tick()
        assert "Time 0:10" in status_shown(app)
        await pilot.click(f"#p{index_of(app, 'Kd')}")  # clicks wait too
        assert app.session.state()["score"] == 0
        await pilot.press("d", "z", "h")  # and keys
        shown = messages_shown(app) + status_shown(app)
        assert shown.count("Paused") == 1 and "press P" in shown  # one paused line
        await pilot.press("p")
        assert not app.session.state()["paused"] and card(app, 0).label == "J♦"

    run(app, script)


def test_hint_highlights_its_cards(tmp_path):
    app = make_app(tmp_path)

    async def script(pilot):
        await pilot.press("h")
        said = messages_shown(app)
        assert any(w in said for w in ("Remove ", "Pair ", "Draw a card", "Turn the waste"))
        assert app.session.state()["assisted"]
        assert app.hinted and all("hinted" in card(app, t).classes for t in app.hinted)

    run(app, script)


def test_draw_three_shows_three_piles(tmp_path):
    app = make_app(tmp_path, "PY1-D-DTFEDBK", "classic-draw3")

    async def script(pilot):
        assert not card(app, "waste").parent.display
        assert all(card(app, f"waste:{k}").parent.display for k in range(3))
        await pilot.press("d")
        tops = app.session.state()["waste_tops"]
        assert [card(app, f"waste:{k}").token for k in range(3)] == tops
        assert "Score" in status_shown(app)

    run(app, script)


def test_cli_play(tmp_path, capsys, monkeypatch):
    assert cli.main(["play", "--profile", "vegas"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "vegas" in err
    monkeypatch.setitem(sys.modules, "textual", None)  # as if the extra is not there
    assert cli.main(["play"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and 'pip install "pyramid-solitaire[tui]"' in err
    cards = " ".join(c.token for c in __import__("pyramid_solitaire").CARDS)
    for argv, says in (
        (["play", "--web", cards], "give a deal code"),
        (["play", "--web", "PY1-N-AAAAAA"], "deal code"),
        (["play", "--port", "8000"], "--port goes with --web"),
        (["play", "--web", "--port", "70000"], "--port must be 0..65,535"),
    ):
        assert cli.main(argv) == 2, argv
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and says in err, err
    monkeypatch.setitem(sys.modules, "aiohttp", None)
    assert cli.main(["play", "--web"]) == 2
    assert 'pip install "pyramid-solitaire[web]"' in capsys.readouterr().err


def test_cli_play_runs_the_app(tmp_path, monkeypatch):
    seen = {}

    def fake_run(self):
        seen.update(
            code=self.session.state()["code"],
            profile=self.session.profile.name,
            lang=self.session.lang,
            save=self.save_path,
            stats=self.stats_path,
        )
        return 0

    monkeypatch.setattr(PyramidApp, "run", fake_run)
    args = [
        "play",
        "PY1-T-AAAAAAS",
        "--profile",
        "three-pass",
        "--lang",
        "vi",
        "--save",
        str(tmp_path / "g.json"),
        "--db",
        str(tmp_path / "s.sqlite3"),
    ]
    assert cli.main(args) == 0
    assert seen == dict(
        code="PY1-T-AAAAAAS",
        profile="three-pass",
        lang="vi",
        save=tmp_path / "g.json",
        stats=tmp_path / "s.sqlite3",
    )
    assert json.loads((tmp_path / "g.json").read_text())["format"] == "pyramid-solitaire-session"
    assert (
        cli.main(
            [
                "play",
                "not-a-code",
                "--save",
                str(tmp_path / "h.json"),
                "--db",
                str(tmp_path / "s.sqlite3"),
            ]
        )
        == 2
    )


def test_help_is_the_games_rules_page_in_its_language(tmp_path):
    app = make_app(tmp_path, "PY1-U-AAAAAAS", "unlimited", lang="vi")

    async def script(pilot):
        await pilot.press("question_mark")
        shown = str(app.screen.query_one("#help-text").render())
        assert "Cách chơi: Không giới hạn" in shown and "không tính điểm" in shown  # no points
        await pilot.press("escape")

    run(app, script)


def test_leaving_a_game_under_way_is_asked_and_restart_and_language_keys(tmp_path):
    app = make_app(tmp_path, "PY1-N-AAAAAAS")

    async def script(pilot):
        await pilot.press("n")  # no move yet: no question
        assert not isinstance(app.screen, ConfirmScreen)
        code = app.session.state()["code"]
        await pilot.press("d")
        assert app.session.state()["moves"] == 1
        for key in ("n", "x", "c"):
            await pilot.press(key)
            assert isinstance(app.screen, ConfirmScreen), key
            await pilot.press("n")  # no: the game is kept
            assert app.session.state()["moves"] == 1 and app.session.state()["code"] == code
        await pilot.press("x", "y")  # restart, yes
        assert app.session.state()["moves"] == 0 and app.session.state()["code"] == code
        await pilot.press("l")  # the language key
        assert app.session.lang == "vi"
        await pilot.press("t")  # the theme key

    run(app, script)
    again = make_app(tmp_path, "PY1-N-AAAAAAS")  # both remembered
    assert again.lang == "vi" and again._theme_name == "textual-light"
    assert make_app(tmp_path, "PY1-N-AAAAAAS", lang="en").lang == "en"  # unless given


def test_play_code_over_a_game_under_way_asks_first(tmp_path):
    first = make_app(tmp_path, "PY1-N-AAAAAAS")

    async def play_one(pilot):
        await pilot.press("d")

    run(first, play_one)
    app = make_app(tmp_path, "PY1-N-AAAAAAB")

    async def script(pilot):
        assert isinstance(app.screen, ConfirmScreen)
        assert app.session.state()["code"] == "PY1-N-AAAAAAS"  # not thrown away yet
        await pilot.press("n")
        assert app.session.state()["code"] == "PY1-N-AAAAAAS"
        assert app.session.state()["moves"] == 1

    run(app, script)


def test_a_pasted_code_plays_as_its_own_game(tmp_path):
    app = make_app(tmp_path, "PY1-N-AAAAAAS")

    async def script(pilot):
        await pilot.press("c")
        await pilot.press(*"PY1-M-AAAAAAB", "enter")
        assert not isinstance(app.screen, CodeScreen)
        st = app.session.state()
        assert st["code"] == "PY1-M-AAAAAAB" and st["profile"] == "msc"

    run(app, script)


def test_the_status_line_counts_the_cards_removed(tmp_path):
    app = make_app(tmp_path, "PY1-N-AAAAAAS")

    async def script(pilot):
        assert "Removed 0/28" in status_shown(app)
        foundation = app.table.query_one("#foundation")
        assert str(foundation.render()) == "·" and "shown" not in foundation.classes
        await pilot.click(f"#p{index_of(app, 'Kc')}")
        assert "Removed 1/28" in status_shown(app)
        assert str(foundation.render()) == "K♣" and "shown" in foundation.classes
        info = app.table.query_one("#pile-foundation .pile-info")
        assert str(info.render()) == "1/28"
        await pilot.click("#foundation")  # not a card to play
        assert app.session.state()["moves"] == 1

    run(app, script)


def test_the_end_panel_replays_the_deal(tmp_path):
    app = make_app(tmp_path)

    async def script(pilot):
        code = app.session.state()["code"]
        for move in solve(app.session.game).moves:
            app.act("play", str(move))
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("x")  # replay this deal
        st = app.session.state()
        assert not isinstance(app.screen, EndScreen)
        assert st["status"] == "playing" and st["moves"] == 0 and st["code"] == code

    run(app, script)


def test_old_messages_go_after_an_undo(tmp_path):
    app = make_app(tmp_path)

    async def script(pilot):
        first, second = index_of(app, "7c"), index_of(app, "7s")
        await pilot.click(f"#p{first}")
        await pilot.click(f"#p{second}")  # 7 + 7: Sum must be 13
        assert "Sum must be 13" in messages_shown(app)
        await pilot.click(f"#p{index_of(app, 'Kd')}")
        await pilot.press("z")  # undo: the old news goes
        assert "Sum must be 13" not in messages_shown(app)

    run(app, script)


def test_big_terminals_get_taller_cards_and_80x24_still_fits(tmp_path):
    for size, tall in (((120, 44), True), ((80, 24), False)):
        app = make_app(tmp_path / str(size[0]))

        async def script(pilot, app=app, tall=tall, size=size):
            await pilot.pause()
            widget = card(app, 27)
            assert ("tall" in app.table.classes) is tall
            assert widget.outer_size.height == (3 if tall else 1)
            bottom = app.table.query_one("#messages").region.bottom
            assert bottom <= size[1] - 1  # the footer still shows

        async def main(app=app, script=script, size=size):
            async with app.run_test(size=size) as pilot:
                await script(pilot)

        asyncio.run(main())


def test_a_first_start_offers_the_rules_and_texts_follow_the_language(tmp_path):
    app = make_app(tmp_path, lang="vi")

    async def script(pilot):
        assert "Bấm ? để xem cách chơi" in messages_shown(app)  # offered once
        await pilot.press("question_mark")
        shown = str(app.screen.query_one("#help-text").render())
        assert "Phím" in shown and "ván mới" in shown  # the keys in Vietnamese
        await pilot.press("escape", "s")
        assert isinstance(app.screen, StatsScreen)
        assert "Thống kê" in str(app.screen.query_one("#stats-title").render())
        await pilot.press("escape")

    run(app, script)
    again = make_app(tmp_path)
    assert not any("how to play" in str(getattr(n, "text", n)) for n in again.notes)


def test_the_footer_follows_the_language(tmp_path):
    from textual.widgets._footer import FooterKey

    app = make_app(tmp_path)

    async def script(pilot):
        await pilot.pause()
        names = {k.description for k in app.table.query(FooterKey)}
        assert "Undo" in names and "Hoàn tác" not in names
        await pilot.press("l")  # Vietnamese
        await pilot.pause()
        names = {k.description for k in app.table.query(FooterKey)}
        assert "Hoàn tác" in names and "Thoát" in names and "Undo" not in names

    run(app, script)


def test_questions_boxes_and_refusals_are_in_the_players_language(tmp_path):
    from pyramid_solitaire.reasons import InputError
    from pyramid_solitaire.session.labels import label

    app = make_app(tmp_path, "PY1-N-AAAAAAS", lang="vi")

    async def script(pilot):
        await pilot.press("d", "c")  # under way: asked, in Vietnamese
        assert isinstance(app.screen, ConfirmScreen)
        shown = str(app.screen.query_one("#confirm-text").render())
        assert shown == label("replace_game", "vi") and "bỏ dở" in shown
        await pilot.press("y")
        assert isinstance(app.screen, CodeScreen)
        assert label("tui_code_keys", "vi") in str(
            app.screen.query(".dialog-keys").first().render()
        )
        await pilot.press(*"PY1-N-AAAAAA", "enter")  # six letters: why, in Vietnamese
        shown = str(app.screen.query_one("#code-error").render())
        assert shown == InputError(
            "code_digits_length", code="'PY1-N-AAAAAA'", digits="'AAAAAA'", length=6
        ).text("vi")
        assert "phải có 7 chữ cái" in shown
        await pilot.press("escape")

    run(app, script)


def test_a_save_that_fails_is_said_in_the_players_language(tmp_path, monkeypatch):
    from pyramid_solitaire.session.messages import message

    app = make_app(tmp_path, "PY1-N-AAAAAAS", lang="vi")

    async def script(pilot):
        def refuse(*args, **kwargs):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(Session, "save", refuse)
        await pilot.press("d")
        assert message("not_saved", "vi", why="No space left on device").text in messages_shown(app)

    run(app, script)


def _clipped(app) -> list[str]:
    """The drawn widgets (leaves) cut by a container they are in, or by the screen."""
    from textual.widget import Widget

    out = []
    for w in app.screen.query(Widget):
        if not w.display or w.region.width == 0 or w.children:
            continue
        for outer in w.ancestors_with_self[1:]:
            if not isinstance(outer, Widget):
                break
            inner = outer.content_region if outer is not app.screen else outer.region
            if w.region.x < inner.x or w.region.right > inner.right:
                out.append(f"{type(w).__name__} {sorted(w.classes)} {str(w.render())!r}")
                break
            if outer is app.screen:
                break
    return out


@pytest.mark.parametrize("lang", ["en", "vi"])
@pytest.mark.parametrize(
    "code, profile",
    [
        ("PY1-N-AAAAAAS", "pyramide"),
        ("PY1-M-AAAAAAS", "msc"),
        ("PY1-D-AAAAAAS", "classic-draw3"),
        ("PY1-U-AAAAAAS", "unlimited"),
    ],
)
def test_nothing_is_cut_at_80x24(tmp_path, lang, code, profile):
    """At 80 x 24, in both languages, every label is drawn whole: the redeals left under
    the stock (with their number), the header after a hint ("assisted"), the footer's keys;
    before and after a draw and a hint."""
    app = make_app(tmp_path, code=code, profile=profile, lang=lang)

    async def script(pilot):
        assert _clipped(app) == []
        info = " ".join(str(w.render()) for w in app.screen.query(".pile-info"))
        assert (
            "∞" if profile in ("pyramide", "unlimited") else "2" if profile == "msc" else "0"
        ) in info
        await pilot.press("d")
        await pilot.press("h")
        await pilot.pause()
        assert app.session.assisted
        assert _clipped(app) == []

    run(app, script)


def test_keys_that_only_answer_game_over_are_off_once_it_is(tmp_path):
    """Once the game is over (here: classic deal 3, drawn to the end with no move left),
    Draw, Hint, Chance and Pause are off (greyed in the footer, their keys do nothing) and
    no card is drawn as playable; a new deal turns them on again."""
    app = make_app(tmp_path, code="PY1-C-AAAAAAD", profile="classic")

    async def script(pilot):
        table = app.table
        for action in table.WHILE_PLAYING:
            assert table.check_action(action, ()) is True
        for _ in range(24):
            app.act("tap", "stock")
        await pilot.pause()
        assert app.session.state()["status"] == "no moves"
        if isinstance(app.screen, EndScreen):
            await pilot.press("escape")
        for action in table.WHILE_PLAYING:
            assert table.check_action(action, ()) is None
        assert table.check_action("undo", ()) is True
        moves = app.session.state()["moves"]
        await pilot.press("d")
        await pilot.press("h")
        assert app.session.state()["moves"] == moves
        assert "over" not in messages_shown(app).lower()
        cards = [w for w in app.screen.query(CardWidget) if "free" in w.classes]
        assert cards == []

    run(app, script)


def screen_text(app) -> str:
    """The characters on the screen (the dialogs' and notifications' included), a line a row."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return "\n".join(
        "".join(text for strip in line for text, _, control in strip if not control)
        for line in update.strips
    )


def _english_only_words() -> set[str]:
    """The words of the labels and messages in English that none of their Vietnamese
    texts has (a Vietnamese screen shows none of them)."""
    import re

    from pyramid_solitaire.model.reasons import REASONS
    from pyramid_solitaire.session.labels import LABELS
    from pyramid_solitaire.session.messages import CATALOGUE

    def words(text: str) -> set[str]:
        return set(re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", " ", text)))

    texts = [*LABELS.values(), *CATALOGUE.values(), *REASONS.values()]
    english = set().union(*(words(t["en"]) for t in texts))
    return english - set().union(*(words(t["vi"]) for t in texts))


def english_on(app) -> set[str]:
    import re

    return set(re.findall(r"[A-Za-z]{3,}", screen_text(app))) & _english_only_words()


def test_switching_to_vietnamese_leaves_no_english(tmp_path):
    """Messages noted in English are written again in Vietnamese (a hint shown stays
    shown), and every screen (the table, the footer, the help, the statistics, a question,
    Ctrl+C's notice, the end of a game) is in Vietnamese."""
    from pyramid_solitaire.tui.words import in_lang

    assert {"Score", "Undo", "blocked", "Pair"} <= _english_only_words()
    app = make_app(tmp_path)

    async def script(pilot):
        await pilot.click(f"#p{index_of(app, 'Qc')}")  # blocked
        await pilot.click(f"#p{index_of(app, '7c')}")
        await pilot.click(f"#p{index_of(app, '7s')}")  # sum not 13
        await pilot.press("h")  # a hint, its cards shown
        hinted = set(app.hinted)
        assert hinted and "Sum must be 13" in messages_shown(app)
        assert english_on(app)  # (the list finds English on an English screen)
        await pilot.press("l")
        await pilot.pause()
        assert app.session.lang == "vi"
        assert app.hinted == hinted and all("hinted" in card(app, t).classes for t in hinted)
        shown = messages_shown(app).splitlines()
        assert shown == [in_lang(n, "vi") for n in app.notes] and "Tổng phải bằng 13" in shown
        assert any(line.startswith(("Ghép ", "Bỏ ", "Rút ", "Lật ")) for line in shown)
        assert english_on(app) == set(), screen_text(app)
        await pilot.press("ctrl+c")  # Textual's own notice, in the game's language
        await pilot.pause()
        assert "Bạn muốn thoát?" in screen_text(app) and english_on(app) == set()
        app.clear_notifications()
        await pilot.press("d")  # a game under way: C asks first
        for key in ("question_mark", "s", "c"):
            await pilot.press(key)
            await pilot.pause()
            assert english_on(app) == set(), (key, screen_text(app))
            await pilot.press("escape")
        for move in solve(app.session.game).moves:
            app.act("play", str(move))
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        assert english_on(app) == set(), screen_text(app)
        await pilot.press("escape")
        assert english_on(app) == set(), screen_text(app)
        await pilot.press("l")  # and back: the same lines in English
        assert app.session.lang == "en", app.screen
        assert "Bạn đã thắng!" not in messages_shown(app) and "You won!" in messages_shown(app)

    run(app, script, notifications=True)


def test_message_lines_are_written_in_the_language_of_the_moment():
    """Every kind of line the table shows comes back in the other language: the session's
    messages (a hint, the difficulty, why two cards cannot go together), the game's own
    labels (a game type's name in them), an error with its reason."""
    from pyramid_solitaire.model.reasons import InputError, reason_text
    from pyramid_solitaire.session.messages import message
    from pyramid_solitaire.tui.words import GameName, Said, in_lang

    session = Session("PY1-N-AAAAAAS", "pyramide")
    (greeting,) = session.greeting()
    (hint,) = session.hint()
    assert (
        in_lang(greeting, "vi").startswith("Độ khó: ") and in_lang(greeting, "en") == greeting.text
    )
    assert in_lang(hint, "vi") != hint.text and in_lang(hint, "en") == hint.text
    blocked = reason_text("card_blocked", "en", card="K♦", covers=["5♠", "9♦"])
    said = message("not_allowed", "en", why=blocked)
    assert (
        in_lang(said, "vi")
        == message(
            "not_allowed",
            "vi",
            why=reason_text("card_blocked", "vi", card="K♦", covers=["5♠", "9♦"]),
        ).text
    )
    illegal = message(
        "illegal_move", "vi", why="Kd+5s: " + reason_text("card_removed", "vi", card="K♦")
    )
    assert in_lang(illegal, "en") == "Not a legal move: Kd+5s: K♦ was already removed"
    other = Said.of("saved_other_game", saved=GameName("three-pass"), asked=GameName("msc"))
    assert "Ba lượt" in in_lang(other, "vi") and "Three passes" in str(other)
    daily = message("daily", "vi", date="2026-12-07", shown="07/12/2026")
    assert (
        in_lang(daily, "en") == message("daily", "en", date="2026-12-07", shown="2026-12-07").text
    )
    assert in_lang(daily, "vi") == daily.text
    error = InputError("code_digits_length", code="'X'", digits="'A'", length=1)
    assert in_lang(error, "vi") == error.text("vi") and in_lang("as is", "vi") == "as is"


def test_moved_between_names_the_places_whose_cards_moved():
    from pyramid_solitaire.tui.table import moved_between

    session = Session("PY1-M-AAAAAAS", "msc")  # the stock's top card is played too
    before = session.state()
    session.tap("stock")  # a draw: the waste's new card (the next stock card turns up)
    assert moved_between(before, session.state()) == {"waste": None}
    before = session.state()
    session.undo()  # the card back on the stock
    assert moved_between(before, session.state()) == {"stock": None, "stock:top": None}
    st = session.state()
    free = [e for e in st["pyramid"] if e["free"]]
    king = next((e for e in free if e["card"][0] == "K"), None)
    if king is None:
        pytest.skip("no free King in this deal")
    before = session.state()
    session.tap(king["index"])
    assert moved_between(before, session.state()) == {
        king["index"]: king["card"],
        "foundation": None,
    }
    before = session.state()
    session.undo()  # the King back in its place
    assert moved_between(before, session.state()) == {king["index"]: None}


def test_the_cards_that_just_moved_are_shown_a_moment(tmp_path):
    """A removed card is shown where it was a moment (struck through) and the foundation
    too; a card drawn to the waste, a card put back by an undo: lilac a moment; then the
    table as usual. A new move replaces the last one's."""
    app = make_app(tmp_path)

    async def script(pilot):
        # (a long moment, ended by hand, so that a loaded machine cannot end it before it is
        # looked at; the timer itself is checked at the end)
        app.table.MOVED_SECONDS = 60

        async def moment_ends():
            app.table._moved_timer.stop()
            app.table._end_flash()
            await pilot.pause()

        foundation = app.table.query_one("#foundation")
        kd = index_of(app, "Kd")
        await pilot.click(f"#p{kd}")
        w = card(app, kd)
        assert {"empty", "gone", "moved"} <= w.classes and w.label == "K♦" and w.token is None
        assert "moved" in foundation.classes
        await moment_ends()
        assert not {"gone", "moved"} & w.classes and w.label == "" and w.token is None
        assert "moved" not in foundation.classes
        await pilot.press("d")
        waste = card(app, "waste")
        assert "moved" in waste.classes and waste.token == app.session.state()["waste_tops"][0]
        tc = index_of(app, "Tc")
        await pilot.click(f"#p{tc}")  # a new move: the draw's highlight goes at once
        await pilot.click(f"#p{index_of(app, '3s')}")
        assert "moved" not in waste.classes and {"gone", "moved"} <= card(app, tc).classes
        await moment_ends()
        assert not app.table.query(".moved") and not app.table.query(".gone")
        await pilot.press("z")  # the pair back in its places
        assert "moved" in card(app, tc).classes and card(app, tc).token == "Tc"
        app.table.MOVED_SECONDS = 0.1  # the timer ends the moment by itself
        await pilot.press("r")
        await pilot.pause(1.5)
        assert not app.table.query(".moved")

    run(app, script)


def test_the_best_of_this_game_type_reads_the_same_after_a_loss(tmp_path):
    """The end panel's "best of this game type" has the same fields after a win and after
    a loss (the statistics' best_of, as the browser game shows it)."""
    import re

    app = make_app(tmp_path, profile="classic")  # seed 000's deal, won under classic
    shown = {}

    def fields(text: str) -> list[str]:
        return re.findall(r"([A-Z][a-z ]+?) [\d:]+", text.split(": ", 1)[1])

    async def script(pilot):
        for move in solve(app.session.game).moves:
            app.act("play", str(move))
        await pilot.pause()
        assert isinstance(app.screen, EndScreen) and app.session.state()["status"] == "won"
        shown["won"] = str(app.screen.query_one("#end-best").render())
        await pilot.press("escape")
        assert app.new_game("PY1-C-AAAAAAD") is None  # classic deal 3: drawn to no moves
        for _ in range(24):
            app.act("tap", "stock")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen) and app.session.state()["status"] == "no moves"
        shown["lost"] = str(app.screen.query_one("#end-best").render())

    run(app, script)
    assert shown["won"].startswith("Best of this game type: Games 1 · Wins 1 · Best score")
    assert "Fastest win" in shown["won"] and "Games 2 · Wins 1" in shown["lost"]
    assert (
        fields(shown["lost"])
        == fields(shown["won"])
        == [
            "Games",
            "Wins",
            "Best score",
            "Fewest moves",
            "Fastest win",
        ]
    )


def _cut(app) -> list[str]:
    """What is not drawn whole on the screen shown: a label cut by its container or by the
    screen (:func:`_clipped`), a widget below the screen's bottom, a screen or a table that
    would need scrolling to be read (the help's text scrolls: it is meant to)."""
    from textual.widget import Widget
    from textual.widgets import DataTable, Static

    out = _clipped(app)
    screen = app.screen
    height = app.size.height
    for w in screen.query(Widget):
        if not w.display or w.region.width == 0 or w.children:
            continue
        if any(a.id == "help-box" for a in w.ancestors):
            continue
        if w.region.bottom > height:
            out.append(f"{type(w).__name__} {w.id} below the screen: {w.region}")
        if isinstance(w, Static) and w.content_region.width:  # a line wrapped out of sight
            box = w.content_region
            lines = w.get_content_height(box.size, app.size, box.width)
            if lines > box.height:
                out.append(f"Static {w.id} needs {lines} lines, has {box.height}: {w.render()}")
        if isinstance(w, DataTable) and w.max_scroll_x > 0:
            out.append(f"DataTable {w.id} scrolls sideways ({w.virtual_size.width} > {w.size})")
    if screen.max_scroll_x or screen.max_scroll_y:
        out.append(f"{type(screen).__name__} scrolls: {screen.virtual_size} on {screen.size}")
    return out


def _finish(app) -> None:
    """Play the game to its end: the solver's win, else any legal move until none is left."""
    result = solve(app.session.game)
    if result.winnable:
        for move in result.moves:
            app.act("play", str(move))
        return
    for _ in range(1000):
        legal = app.session.state()["legal_moves"]
        if app.session.state()["status"] != "playing" or not legal:
            return
        app.act("play", legal[-1])


LAYOUT_SIZES = ((80, 24), (100, 30), (160, 50))
PROFILE_NAMES = __import__("pyramid_solitaire.model.profiles").model.profiles.Profile.names()


@pytest.mark.matrix
@pytest.mark.parametrize("lang", ["en", "vi"])
@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_nothing_is_cut_in_any_game_type_language_or_size(tmp_path, profile, lang):
    """For every game type, in both languages, at 80 x 24 (and 100 x 30 and 160 x 50 for msc
    and three-pass in Vietnamese): the
    table, each dialog (the help, the statistics, a question, a deal code with its error)
    and the end of a game (its panel, then the table, each page of the statistics and the
    question before a reset), how hard new deals are said, and a daily deal's table are
    drawn whole (no text wrapped out of its line either)."""
    from pyramid_solitaire.model.profiles import Profile

    letter = Profile.preset(profile).rules.letter
    app = make_app(tmp_path, code=f"PY1-{letter}-AAAAAAS", profile=profile, lang=lang)
    seen: list[str] = []

    # 80 x 24 is the tightest: every game type there, in both languages; the larger sizes
    # for the two whose tables say the most (msc's stock top, three-pass's redeals), in the
    # longer language (Vietnamese), keep the suite short
    larger = profile in ("msc", "three-pass") and lang == "vi"
    sizes = LAYOUT_SIZES if larger else LAYOUT_SIZES[:1]

    async def check(pilot, what):
        for size in sizes:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            seen.extend(f"{size} {what}: {c}" for c in _cut(app))

    async def script(pilot):
        await check(pilot, "the table")
        await pilot.press("h", "d")  # assisted, a card drawn, the game under way
        await check(pilot, "after a hint and a draw")
        for key, what in (("question_mark", "the help"), ("s", "the statistics")):
            await pilot.press(key)
            await check(pilot, what)
            await pilot.press("escape")
        await pilot.press("c")
        assert isinstance(app.screen, ConfirmScreen)
        await check(pilot, "a question")
        await pilot.press("y", *"PY1-Q-AAAAAA", "enter")
        assert isinstance(app.screen, CodeScreen)
        await check(pilot, "a deal code's error")
        await pilot.press("escape")
        _finish(app)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen), app.session.state()["status"]
        await check(pilot, "the end panel")
        await pilot.press("escape")
        await check(pilot, "the table after the end")
        await pilot.press("s")
        await check(pilot, "the statistics after a game")
        for page in ("by difficulty", "the best wins", "the recent games"):
            await pilot.press("right")
            await check(pilot, f"the statistics: {page}")
        await pilot.press("r")
        assert isinstance(app.screen, ConfirmScreen)
        await check(pilot, "the statistics' reset question")
        await pilot.press("n", "escape", "e", "y")  # how hard new deals are; a daily deal
        await pilot.pause()
        assert app.session.state()["daily"] is not None
        await check(pilot, "a daily deal")

    run(app, script)
    assert seen == []


# ---- the daily deal, how hard new deals are, the statistics, auto-finish, fair play -------
BOTH_SIZES = ((80, 24), (120, 40))
DAY = __import__("datetime").date(2026, 12, 7)  # docs/session.md: pyramide's is PY1-N-KXYAGRG


def label_of(key: str, lang: str, **args) -> str:
    from pyramid_solitaire.session.labels import label

    return label(key, lang, **args)


def text_of(app, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


@pytest.fixture
def on_the_day(monkeypatch):
    """Today is :data:`DAY` for the daily deal (the session's ``daily.today``)."""
    from pyramid_solitaire.session import daily

    monkeypatch.setattr(daily, "today", lambda: DAY)


@pytest.mark.parametrize("size", BOTH_SIZES)
@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_daily_deal_key_asks_first_and_the_table_says_its_date(
    tmp_path, on_the_day, lang, size
):
    """Y starts today's daily deal of the game type (asked first over a game under way);
    the table says it is the daily deal of its date, in the language's way of writing it;
    another new deal is not one."""
    from pyramid_solitaire.session.daily import daily_deal

    app = make_app(tmp_path, "PY1-N-AAAAAAS", lang=lang)
    shown = "07/12/2026" if lang == "vi" else "2026-12-07"

    async def script(pilot):
        daily = app.table.query_one("#pile-daily")
        assert not daily.display and app.session.state()["daily"] is None
        await pilot.press("d")  # a game under way: asked first
        await pilot.press("y")
        assert isinstance(app.screen, ConfirmScreen)
        assert text_of(app, "#confirm-text") == label_of("leave_for_new", lang)
        await pilot.press("n")
        assert app.session.state()["code"] == "PY1-N-AAAAAAS" and app.session.moves == 1
        await pilot.press("y", "y")
        await pilot.pause()
        st = app.session.state()
        assert st["daily"] == "2026-12-07" and st["moves"] == 0
        assert st["code"] == daily_deal("pyramide", DAY).code == "PY1-N-KXYAGRG"
        assert daily.display and daily.region.width
        assert str(daily.query_one(".pile-label").render()) == label_of("daily", lang)
        assert str(app.table.query_one("#daily-date").render()) == shown
        assert shown in messages_shown(app)  # the session's greeting says it too
        assert _cut(app) == []
        await pilot.press("l")  # the other language: its own way of writing the date
        other = "2026-12-07" if lang == "vi" else "07/12/2026"
        assert str(app.table.query_one("#daily-date").render()) == other
        await pilot.press("l", "n")  # a new deal (no move yet: not asked) is not a daily one
        assert app.session.state()["daily"] is None and not daily.display

    run(app, script, size=size)


@pytest.mark.parametrize("size", BOTH_SIZES)
@pytest.mark.parametrize("lang", ["en", "vi"])
def test_new_deals_by_difficulty_cycle_are_remembered_and_used(tmp_path, lang, size):
    """E cycles how hard new deals are through Any and the difficulties the game type
    offers (the session's difficulty.offered: classic has Hard only), says it, remembers it
    beside the theme and language; N deals one of that difficulty, and so does a first
    start; the help says the choice of the moment."""
    from pyramid_solitaire.session.difficulty import CHOICES, offered

    app = make_app(tmp_path, "PY1-N-AAAAAAS", lang=lang)
    settings = tmp_path / "terminal-settings.json"

    async def script(pilot):
        assert (
            app.difficulty_choices == ("any", *offered("pyramide")) and app.new_difficulty is None
        )
        await pilot.press("e")
        assert app.new_difficulty == "easy"
        level = label_of("level_easy", lang)
        assert messages_shown(app).splitlines()[-1] == label_of(
            "tui_new_deals_level", lang, level=level
        )
        assert json.loads(settings.read_text())["difficulty"] == "easy"
        await pilot.press("n")
        st = app.session.state()
        assert st["code"] != "PY1-N-AAAAAAS" and st["difficulty"]["label"] == "easy"
        assert app.session.difficulty.level in CHOICES["easy"]
        await pilot.press("e")  # medium
        await pilot.press("n")
        assert app.session.difficulty.level in CHOICES["medium"]
        await pilot.press("question_mark")
        now = label_of("level_medium", lang)
        assert f"({'đang' if lang == 'vi' else 'now'} {now})" in text_of(app, "#help-text")
        await pilot.press("escape", "e", "n")  # hard
        assert app.session.difficulty.level in CHOICES["hard"]
        await pilot.press("e")  # then any again
        assert app.new_difficulty is None
        assert label_of("level_any", lang) in messages_shown(app).splitlines()[-1]
        await pilot.press("e")
        assert _cut(app) == []

    run(app, script, size=size)
    assert json.loads(settings.read_text())["difficulty"] == "easy"
    # a first start (no save) deals one of the difficulty remembered
    first = tmp_path / "first"
    first.mkdir()
    (first / "terminal-settings.json").write_text('{"difficulty": "medium"}')
    again = make_app(first, code=None)
    assert again.new_difficulty == "medium" and again.session.difficulty.level == 2
    # classic offers Hard only: E goes Any, Hard, Any; a remembered Easy counts as Any there
    folder = tmp_path / "classic"
    folder.mkdir()
    (folder / "terminal-settings.json").write_text('{"difficulty": "easy"}')
    classic = make_app(folder, "PY1-C-AAAAAAS", "classic", lang=lang)
    assert classic.difficulty_choices == ("any", "hard") and classic.new_difficulty is None

    async def cycle(pilot):
        await pilot.press("e")
        assert classic.new_difficulty == "hard"
        await pilot.press("n")
        assert classic.session.difficulty.level in CHOICES["hard"]
        await pilot.press("e")
        assert classic.new_difficulty is None

    run(classic, cycle, size=size)


def record_games(path) -> dict:
    """Games of pyramide in a statistics file: a win with a hint, a game abandoned, the daily
    deals of today and yesterday won and of three days ago abandoned; and one msc game."""
    import datetime

    store = StatsStore(path)
    won = Session("PY1-N-AAAAAAS", "pyramide", stats=store, clock=lambda: 0.0)
    won.hint()
    for move in solve(won.game).moves:
        won.play(move)
    left = Session("PY1-N-AAAAAAB", "pyramide", stats=store, clock=lambda: 0.0)
    left.tap("stock")
    left.abandon()
    today = datetime.date.today()
    for days in (3, 1, 0):
        daily = Session.new_daily("pyramide", today - datetime.timedelta(days), stats=store)
        if days == 3:
            daily.tap("stock")
            daily.abandon()
        else:
            for move in solve(daily.game).moves:
                daily.play(move)
    other = Session("PY1-M-AAAAAAS", "msc", stats=store)
    other.tap("stock")
    other.abandon()
    figures = {
        "summary": store.summary("pyramide"),
        "high": store.high_scores("pyramide"),
        "history": store.history("pyramide", limit=10),
    }
    store.close()
    return figures


def rows_of(app, selector: str) -> list[list[str]]:
    table = app.screen.query_one(selector)
    return [[str(c) for c in table.get_row_at(k)] for k in range(table.row_count)]


@pytest.mark.parametrize("size", BOTH_SIZES)
@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_statistics_pages_and_a_reset_that_asks_first(tmp_path, lang, size):
    """S shows, for the game type: the summary and the daily deals' figures, the win rate by
    difficulty as bars, the best wins with the hints taken, the last games (four pages,
    turned with the arrows), each drawn whole; R asks, then deletes this game type's games
    only and shows the emptied statistics."""
    from pyramid_solitaire.tui.screens import BAR, win_rate_bar

    figures = record_games(tmp_path / "stats.sqlite3")
    summary = figures["summary"]
    assert summary["games"] == 5 and summary["daily"]["current_streak"] == 2
    app = make_app(tmp_path, lang=lang)
    seen: list[str] = []

    def look(what):
        seen.extend(f"{what}: {c}" for c in _cut(app))
        if lang == "vi":
            seen.extend(f"{what}: English {w}" for w in english_on(app))

    async def script(pilot):
        await pilot.press("s")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        pages = screen.query_one("#stats-pages")
        assert pages.active == "page-summary"
        table = screen.query_one("#stats-summary")
        assert table.get_row("Games")[1] == "5" and table.get_row("Wins")[1] == "3"
        assert table.get_row("Win rate")[1] == "60%"
        assert table.get_row("Fewest moves (a win)")[1] == str(summary["fewest_moves"])
        assert table.get_row("Winning streak")[1] == str(summary["current_streak"])
        assert rows_of(app, "#stats-daily") == [
            [label_of("daily_played", lang), "3"],
            [label_of("daily_won", lang), "2"],
            [label_of("daily_streak", lang), "2"],
            [label_of("daily_best_streak", lang), "2"],
        ]
        look("the summary")
        await pilot.press("right")
        assert pages.active == "page-difficulty"
        bars = rows_of(app, "#stats-difficulty")
        assert bars == [
            [
                label_of(f"level_{name}", lang),
                win_rate_bar(f["win_rate"]),
                str(f["games"]),
                str(f["wins"]),
            ]
            for name, f in summary["by_difficulty"].items()
        ]
        assert any(row[1].startswith("█") for row in bars)  # a bar for the levels won
        assert all(row[1] == "-" for row in bars if row[2] == "0")
        assert win_rate_bar(0.5) == "█" * (BAR // 2) + "░" * (BAR // 2) + "  50%"
        look("by difficulty")
        await pilot.press("right")
        assert pages.active == "page-best"
        best = rows_of(app, "#stats-high")
        assert len(best) == 3 and [r[1] for r in best] == [str(h["score"]) for h in figures["high"]]
        assert [r[4] for r in best] == [str(h["hints"]) for h in figures["high"]]  # hints
        assert "1" in [r[4] for r in best]  # the win with a hint
        look("the best wins")
        await pilot.press("right")
        assert pages.active == "page-recent"
        recent = rows_of(app, "#stats-recent")
        assert [r[1] for r in recent] == [
            label_of(f"result_{g['result']}", lang) for g in figures["history"]
        ]
        assert recent[-1][2] == label_of(f"level_{figures['history'][-1]['difficulty']}", lang)
        look("the recent games")
        await pilot.press("right")
        assert pages.active == "page-summary"
        await pilot.press("left")
        assert pages.active == "page-recent"
        await pilot.press("r")  # asked first
        assert isinstance(app.screen, ConfirmScreen)
        assert text_of(app, "#confirm-text") == label_of("reset_ask", lang, game="Pyramide")
        look("the reset's question")
        await pilot.press("n")
        assert app.screen is screen and rows_of(app, "#stats-recent") == recent
        await pilot.press("r", "y")
        await pilot.pause()
        assert app.screen is screen
        assert text_of(app, "#stats-note") == label_of("reset_done", lang, n=5)
        assert rows_of(app, "#stats-recent") == [["", label_of("no_games", lang), *[""] * 5]]
        assert screen.query_one("#stats-summary").get_row("Games")[1] == "0"
        assert [r[1] for r in rows_of(app, "#stats-daily")] == ["0"] * 4
        look("after the reset")

    run(app, script, size=size)
    assert seen == []
    store = StatsStore(tmp_path / "stats.sqlite3")
    assert store.summary("pyramide")["games"] == 0 and store.summary("msc")["games"] == 1
    store.close()


#: EASY_CLEAR[:9] played, the rest of the easy deal needs no choice (tests/test_finish.py)
FIRST_FINISHABLE = 9


@pytest.mark.parametrize("size", BOTH_SIZES)
@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_game_offers_to_finish_and_a_plays_the_rest(tmp_path, lang, size):
    """On the position of the session's own tests (the easy deal, nine moves in): no offer
    before; then the session's finish_offer and a line saying A finishes it, drawn whole; A
    plays the rest as the player's moves (the game won, its panel shown); A before the
    offer is the session's refusal."""
    from pyramid_solitaire.session.messages import message

    from conftest import EASY_CLEAR, easy_deal

    cards = " ".join(c.token for c in easy_deal().cards)
    app = make_app(tmp_path, cards, lang=lang)
    offer = label_of("tui_finish_key", lang)

    async def script(pilot):
        for move in EASY_CLEAR[: FIRST_FINISHABLE - 1]:
            app.act("play", move)
        await pilot.pause()
        assert not app.session.state()["can_finish"] and offer not in messages_shown(app)
        await pilot.press("a")  # not offered: the session says why not, nothing played
        assert message("cannot_finish", lang).text in messages_shown(app)
        moves = app.session.moves
        assert moves == FIRST_FINISHABLE - 1
        app.act("play", EASY_CLEAR[FIRST_FINISHABLE - 1])
        await pilot.pause()
        assert app.session.state()["can_finish"]
        lines = messages_shown(app).splitlines()
        assert lines[-2:] == [message("finish_offer", lang).text, offer]
        assert _cut(app) == []
        await pilot.press("l")  # the offer in the other language too
        other = "en" if lang == "vi" else "vi"
        assert messages_shown(app).splitlines()[-1] == label_of("tui_finish_key", other)
        await pilot.press("l", "p")  # paused: the paused line, not the offer
        assert offer not in messages_shown(app)
        await pilot.press("a")
        assert app.session.state()["status"] == "playing"
        await pilot.press("p", "a")
        await pilot.pause()
        st = app.session.state()
        assert st["status"] == "won" and st["moves"] > FIRST_FINISHABLE and st["score"] == 280
        assert isinstance(app.screen, EndScreen)
        assert _cut(app) == []
        await pilot.press("escape")
        assert offer not in messages_shown(app)
        await pilot.press("z")  # the finish's moves are ordinary moves: one undone
        assert app.session.state()["status"] == "playing" and offer in messages_shown(app)

    run(app, script, size=size)


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_fair_hints_and_the_chance_to_win_are_reached_by_keys_and_in_the_help(tmp_path, lang):
    """F turns on hints that never look at the face-down stock (said, remembered, the help
    says it is on), H then gives such a hint, W the chance to win from the cards seen; the
    help names both keys in the game's language."""
    from pyramid_solitaire.session.messages import message

    app = make_app(tmp_path, "PY1-M-AAAAABF", "msc", lang=lang)

    async def script(pilot):
        await pilot.press("question_mark")
        help_text = text_of(app, "#help-text")
        now, on = ("đang", "bật") if lang == "vi" else ("now", "on")
        assert f"({now} {label_of('tui_off', lang)})" in help_text
        for key in ("F  ", "W  "):
            assert key in help_text
        await pilot.press("escape", "f")
        assert app.session.fair_hints
        assert messages_shown(app).splitlines()[-1] == message("fair_hints_on", lang).text
        await pilot.press("h")
        hint = next(n for n in reversed(app.notes) if getattr(n, "code", "") == "hint")
        assert hint.args.get("fair") is True and app.session.state()["assisted"]
        await pilot.press("w")
        chance = app.notes[-1]
        assert chance.code in ("chance", "chance_exact_won", "chance_exact_lost")
        assert messages_shown(app).splitlines()[-1] == chance.text
        await pilot.press("question_mark")
        assert f"({now} {on})" in text_of(app, "#help-text")
        await pilot.press("escape", "f")
        assert not app.session.fair_hints
        assert messages_shown(app).splitlines()[-1] == message("fair_hints_off", lang).text
        await pilot.press("f")

    run(app, script)
    settings = json.loads((tmp_path / "terminal-settings.json").read_text(encoding="utf-8"))
    assert settings["fair_hints"] == "on"
    assert make_app(tmp_path, code=None, profile="msc").session.fair_hints
