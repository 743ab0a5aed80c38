"""The table screen: the pyramid, the stock and the waste, the score line, the messages.
It draws ``Session.state()`` and forwards clicks and keys to the app (which forwards them
to the session); no rule is decided here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..session.labels import LABELS, label
from ..session.messages import game_name, message
from ..session.translate import in_lang as in_lang_message
from . import cursor as cursor_moves
from .widgets import CardWidget, clock_text, face, widget_id
from .words import in_lang

if TYPE_CHECKING:
    from textual import getters

    from .app import PyramidApp

TALON = ("stock", "stock:top", "waste", "waste:0", "waste:1", "waste:2")
PAUSED_BACK = "░░░"


def row_of(index: int) -> tuple[int, int]:
    """The row (0 at the top) and the place in the row of a pyramid index."""
    row = 0
    while (row + 1) * (row + 2) // 2 <= index:
        row += 1
    return row, index - row * (row + 1) // 2


def drawn_place(target: Any) -> tuple[float, float]:
    """Where a target is drawn before the layout is known (rows, cells): the pyramid's
    rows are offset by half a card (a card and its margin: 8 cells), the talon is the
    eighth row."""
    if isinstance(target, int):
        row, k = row_of(target)
        return float(row), (6 - row) * 4 + k * 8 + 3.5
    return 7.0, TALON.index(target) * 12 + 3.5


def _places(st: dict[str, Any]) -> dict[str, tuple[Any, bool]]:
    """Where each card face up is: its target, and whether it is on top there (a waste
    card under the top one is not)."""
    out: dict[str, tuple[Any, bool]] = {
        e["card"]: (e["index"], True) for e in st["pyramid"] if e["card"]
    }
    if st["stock_top"]:
        out[st["stock_top"]] = ("stock:top", True)
    piles = st["waste"]
    for k, pile in enumerate(piles):
        target = "waste" if st["rules"]["draw"] != 3 else f"waste:{k}"
        for n, token in enumerate(pile):
            out[token] = (target, n == len(pile) - 1)
    return out


def moved_between(before: dict[str, Any], after: dict[str, Any]) -> dict[Any, str | None]:
    """The places whose cards moved from the state ``before`` to ``after`` (one move, an
    undo or a redo): a place a card came to (None: the card drawn to the waste, a card put
    back by an undo); a pyramid place a card left for the removed pile (that card, shown
    there a moment), and ``"foundation"``; ``"stock"`` when cards went back to it (the
    waste turned over, a draw undone). A card uncovered in the waste, or turned face up on
    the stock, did not move."""
    was, now = _places(before), _places(after)
    out: dict[Any, str | None] = {}
    to_stock = after["stock"] > before["stock"]
    for token, (target, _) in was.items():
        if token in now:
            continue
        if to_stock:
            out["stock"] = None
        else:  # removed
            out["foundation"] = None
            if isinstance(target, int):
                out[target] = token
    drew = after["stock"] < before["stock"]
    for token, (target, top) in now.items():
        if not top or (token in was and was[token][0] == target):
            continue
        if target == "stock:top" and token not in was and drew:
            continue  # the next card of the stock, turned face up
        out[target] = None
    return out


class TableScreen(Screen[None]):
    """The game."""

    card_pressed: Any = None  # the card the mouse button went down on (a drag)
    #: How long the cards that just moved are shown so (seconds).
    MOVED_SECONDS = 0.6
    _moved_timer: Any = None

    if TYPE_CHECKING:  # the screen runs in the game's app; at run time, Textual's own property
        app = getters.app(PyramidApp)

    BINDINGS = [
        Binding("left", "cursor('left')", "Move", show=False),
        Binding("right", "cursor('right')", "Move", show=False),
        Binding("up", "cursor('up')", "Move", show=False),
        Binding("down", "cursor('down')", "Move", show=False),
        Binding("enter,space", "tap_cursor", "Tap", show=False),
        Binding("d", "draw", "Draw"),
        Binding("z", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("h", "hint", "Hint"),
        Binding("f", "fair_hints", "Fair hints", show=False),  # in the help (?)
        Binding("w", "chance", "Chance", show=False),
        Binding("a", "finish", "Finish", show=False),  # said on the table while offered
        Binding("p", "pause", "Pause"),
        Binding("n", "new_deal", "New"),
        Binding("y", "daily", "Daily deal", show=False),  # in the help (?): the footer
        Binding("e", "difficulty", "New deals", show=False),  # keeps to 80 columns
        Binding("x", "restart", "Restart", show=False),
        Binding("l", "language", "Language", show=False),
        Binding("c", "enter_code", "Code"),
        Binding("s", "stats", "Stats"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("t", "toggle_theme", "Theme", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Static("", id="info")
        yield Static("", id="status")
        with Vertical(id="pyramid"):
            for row in range(7):
                with Horizontal(classes="row"):
                    for index in range(row * (row + 1) // 2, (row + 1) * (row + 2) // 2):
                        yield CardWidget(index)
        with Horizontal(id="talon"):
            for target in TALON:
                with Vertical(classes="pile", id="pile-" + widget_id(target)):
                    yield Static("", classes="pile-label")
                    yield CardWidget(target)
                    yield Static("", classes="pile-info")
            with Vertical(classes="pile", id="pile-foundation"):  # the cards removed
                yield Static("", classes="pile-label")
                yield Static("", id="foundation")
                yield Static("", classes="pile-info")
            with Vertical(classes="pile", id="pile-daily"):  # a daily deal says its date
                yield Static("", classes="pile-label")
                yield Static("", id="daily-date")
        yield Static("", id="messages")
        yield Footer(compact=True, show_command_palette=False)

    #: From this size on (columns, lines), cards are taller and wider (the ``tall`` class).
    TALL = (100, 36)

    def on_mount(self) -> None:
        self.translate_footer(self.app.session.lang)
        self.redraw()
        self.set_interval(1.0, self.tick)

    def translate_footer(self, lang: str) -> None:
        """The footer's key names in ``lang`` (labels.py, ``key_<action>``). Textual keeps a
        screen's bindings in ``_bindings``; should that change, the footer stays English."""
        import dataclasses

        try:
            table = self._bindings.key_to_bindings
        except AttributeError:  # pragma: no cover - another Textual
            return
        for key, bindings in table.items():
            table[key] = [
                dataclasses.replace(b, description=footer_label(b, lang)) for b in bindings
            ]
        self.refresh_bindings()

    def on_resize(self, event: Any) -> None:
        """A big terminal gets bigger cards; 80 x 24 keeps the compact ones."""
        self.set_class(
            event.size.width >= self.TALL[0] and event.size.height >= self.TALL[1], "tall"
        )

    # ---- drawing -----------------------------------------------------------------------------
    def card(self, target: Any) -> CardWidget:
        return self.query_one("#" + widget_id(target), CardWidget)

    def places(self, targets: list[Any]) -> dict[Any, tuple[float, float]]:
        """Where each target is drawn: (row on the screen, column of its centre)."""
        out = {}
        for t in targets:
            region = self.card(t).region
            out[t] = (
                (float(region.y), region.x + region.width / 2) if region.width else drawn_place(t)
            )
        return out

    def tick(self) -> None:
        """Once a second: the clock (the session's time: it stops while paused)."""
        self.query_one("#status", Static).update(self.status_text(self.app.session.state()))

    def status_text(self, st: dict[str, Any]) -> str:
        app = self.app
        lang = app.session.lang
        parts = []
        if app.shows_score:
            parts.append(f"{label('score', lang)} [b]{st['score']}[/b]")
        parts += [
            f"{label('moves', lang)} [b]{st['moves']}[/b]",
            f"{label('removed', lang)} [b]{st['removed']}/{st['to_remove']}[/b]",
            f"{label('time', lang)} [b]{clock_text(st['seconds'])}[/b]",
        ]
        # (the redeals left are said under the stock)
        if st["assisted"]:
            parts.append(f"[i]{label('assisted', lang)}[/i]")
        return "   ".join(parts)  # (paused: the one line below the table)

    def redraw(self) -> None:
        """Draw the session's state."""
        app = self.app
        session = app.session
        st = session.state()
        lang = session.lang
        paused = st["paused"]
        targets = [] if paused else st["targets"]
        places = self.places(targets)
        if app.cursor not in places:
            app.cursor = cursor_moves.nearest(places, app.cursor_place)
        if app.cursor is not None:
            app.cursor_place = places[app.cursor]
        selected = st["selection"]["target"] if st["selection"] else None

        moved = {} if paused else app.moved

        def show(target: Any, token: str | None, kind: str, text: str | None = None) -> None:
            gone = moved.get(target) if kind == "empty" else None
            self.card(target).show(
                token,
                kind=kind,
                text=text,
                cursor=target == app.cursor and target in places,
                selected=target == selected,
                hinted=target in app.hinted,
                moved=target in moved,
                gone=gone,
            )

        difficulty = message("difficulty", lang, words=st["difficulty"]["text"]).text
        self.query_one("#info", Static).update(
            f"[b]{st['code'] or message('card_list', session.lang).text}[/b]   "
            f"{game_name(session.profile.name, session.lang)}   {difficulty}"
        )
        self.query_one("#status", Static).update(self.status_text(st))
        self.refresh_bindings()  # (check_action: some keys are off once the game is over)
        playing = st["status"] == "playing"  # (an ended game has no playable card)
        for entry in st["pyramid"]:
            if paused:
                show(entry["index"], None, "back", PAUSED_BACK)
            elif entry["card"] is None:
                show(entry["index"], None, "empty")
            else:
                show(
                    entry["index"],
                    entry["card"],
                    "free" if entry["free"] and playing else "blocked",
                )
        rules = st["rules"]
        three = rules["draw"] == 3
        shown = {
            "stock": True,
            "stock:top": rules["stock_top_playable"],
            "waste": not three,
            "waste:0": three,
            "waste:1": three,
            "waste:2": three,
        }
        for target in TALON:
            pile = self.query_one("#pile-" + widget_id(target))
            pile.display = shown[target]
            if not shown[target]:
                continue
            head, info = (
                pile.query(".pile-label").first(Static),
                pile.query(".pile-info").first(Static),
            )
            if target == "stock":
                head.update(label("stock", lang))
                left = st["redeals_left"]
                info.update(label("redeals_left_n", lang, n="∞" if left is None else left))
                if st["stock"]:
                    show(target, None, "back", PAUSED_BACK if paused else str(st["stock"]))
                else:
                    show(target, None, "empty")
                continue
            if target == "stock:top":
                head.update(label("stock_top", lang))
                token = st["stock_top"]
                info.update("")
            else:
                k = 0 if target == "waste" else int(target[-1])
                head.update(label("waste", lang) + ("" if target == "waste" else f" {k + 1}"))
                token = st["waste_tops"][k]
                count = len(st["waste"][k])
                info.update(f"{count} {label('n_card' if count == 1 else 'n_cards', lang)}")
            if paused and token is not None:
                show(target, None, "back", PAUSED_BACK)
            else:
                show(target, token, "empty" if token is None else "free" if playing else "blocked")
        self._draw_foundation(st, lang, paused, "foundation" in moved)
        self._draw_daily(st, lang)
        lines = [
            in_lang(n, lang)  # written again in the language of the moment
            for n in app.notes
            if getattr(n, "code", None) not in ("paused", "resumed", "game_paused")
        ]  # one paused line, below, while paused
        if paused:
            lines = lines[-2:] + [label("paused_hint", lang)]
        elif st["can_finish"]:  # the finish offered, and its key, while it is
            lines = lines[-2:] + [label("tui_finish_key", lang)]
        self.query_one("#messages", Static).update(
            "\n".join(
                (f"[b]{_escape(t)}[/b]" if i == len(lines) - 1 else _escape(t))
                for i, t in enumerate(lines)
            )
        )

    def _draw_foundation(self, st: dict[str, Any], lang: str, paused: bool, moved: bool) -> None:
        """The foundation: the last card removed on top, and how many of those to remove
        are gone (not a target: nothing happens on a click); ``moved``: cards just came."""
        pile = self.query_one("#pile-foundation")
        pile.query(".pile-label").first(Static).update(label("removed", lang))
        pile.query(".pile-info").first(Static).update(f"{st['removed']}/{st['to_remove']}")
        top = self.query_one("#foundation", Static)
        token = None if paused else st["foundation"]
        if token is None:
            top.update("·")
        else:
            text, red = face(token)
            top.update(text)
            top.set_class(red, "red")
        top.set_class(token is not None, "shown")
        top.set_class(moved and token is not None, "moved")

    def _draw_daily(self, st: dict[str, Any], lang: str) -> None:
        """A daily deal says so beside the foundation, with its date as the language writes
        it (the session's daily message's)."""
        pile = self.query_one("#pile-daily")
        pile.display = st["daily"] is not None
        if st["daily"] is None:
            return
        pile.query(".pile-label").first(Static).update(label("daily", lang))
        said = message("daily", "en", date=st["daily"], shown=st["daily"])
        shown = in_lang_message(said, lang).args["shown"]
        self.query_one("#daily-date", Static).update(f"[b]{shown}[/b]")

    def flash(self) -> None:
        """The cards that just moved (``app.moved``) stay shown so for
        :attr:`MOVED_SECONDS`, then are drawn as the others."""
        if self._moved_timer is not None:
            self._moved_timer.stop()
        self._moved_timer = self.set_timer(self.MOVED_SECONDS, self._end_flash)

    def _end_flash(self) -> None:
        self._moved_timer = None
        if self.app.moved:
            self.app.moved = {}
            self.redraw()

    # ---- input -------------------------------------------------------------------------------
    def on_card_widget_tapped(self, event: CardWidget.Tapped) -> None:
        app = self.app
        if app.session.paused:  # the paused line says what to do
            self.redraw()
            return
        if event.target in app.session.targets():
            app.cursor = event.target
        app.act("tap", event.target)

    def on_card_widget_dragged(self, event: CardWidget.Dragged) -> None:
        """A card dropped on another: the session's drag (a tap on each)."""
        if self._playing():
            self.app.act("drag", event.source, event.target)

    #: The keys that only answer "the game is over" once it is: greyed out in the footer then.
    WHILE_PLAYING = ("draw", "hint", "chance", "pause", "finish")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Draw, Hint, Chance and Pause are off (None: shown greyed) once the game is over."""
        if action in self.WHILE_PLAYING and str(self.app.session.status) != "playing":
            return None
        return True

    def _playing(self) -> bool:
        """Game keys wait while the game is paused (the cards are hidden)."""
        if self.app.session.paused:  # the paused line says what to do
            self.redraw()
            return False
        return True

    def action_cursor(self, direction: str) -> None:
        if not self._playing():
            return
        app = self.app
        places = self.places(app.session.targets())
        app.cursor = cursor_moves.move(places, app.cursor, direction)
        self.redraw()

    def action_tap_cursor(self) -> None:
        if self._playing() and self.app.cursor is not None:
            self.app.act("tap", self.app.cursor)

    def action_draw(self) -> None:
        if self._playing():
            self.app.act("tap", "stock")

    def action_undo(self) -> None:
        if self._playing():
            self.app.act("undo")

    def action_redo(self) -> None:
        if self._playing():
            self.app.act("redo")

    def action_hint(self) -> None:
        if self._playing():
            self.app.act("hint")

    def action_fair_hints(self) -> None:
        self.app.switch_fair_hints()

    def action_chance(self) -> None:
        if self._playing():
            self.app.act("chance")

    def action_pause(self) -> None:
        self.app.act("resume" if self.app.session.paused else "pause")

    def action_new_deal(self) -> None:
        self.app.when_left("new", self.app.new_game)

    def action_daily(self) -> None:
        self.app.when_left("daily", self.app.new_daily)

    def action_difficulty(self) -> None:
        self.app.cycle_difficulty()

    def action_finish(self) -> None:
        if self._playing():
            self.app.act("finish")

    def action_restart(self) -> None:
        self.app.when_left("restart", lambda: self.app.act("restart"))

    def action_language(self) -> None:
        self.app.switch_language()

    def action_enter_code(self) -> None:
        self.app.when_left("code", self.app.ask_code)

    def action_stats(self) -> None:
        self.app.show_stats()

    def action_help(self) -> None:
        self.app.show_help()

    def action_toggle_theme(self) -> None:
        self.app.toggle_theme()

    def action_quit(self) -> None:
        self.app.quit_game()


def footer_label(binding: Any, lang: str) -> str:
    """A binding's name in the footer, in ``lang`` (its own description when labels.py has
    none)."""
    texts = LABELS.get(f"key_{binding.action.split('(')[0]}")
    return texts[lang] if texts and binding.description else binding.description


def _escape(text: str) -> str:
    from textual.markup import escape

    return escape(text)
