"""The terminal game (Textual): ``pyramid-solitaire play``. A frontend of the session layer:
it draws ``Session.state()``, forwards clicks and keys as taps, and shows the session's
messages; every rule, score and notice comes from :mod:`pyramid_solitaire.session`.

Files: the game autosaves after every action to ``terminal-game.json`` in the user's data
directory (or ``save_path``) and resumes from it at the next start (see :mod:`.start`); the
statistics go to the session's SQLite file (``stats_path``, default
:func:`pyramid_solitaire.session.stats.default_path`).
"""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App

from ..model.move import Move
from ..model.profiles import Profile, profile_of_code
from ..model.reasons import error_text
from ..session import Session
from ..session.difficulty import offered
from ..session.labels import label
from ..session.messages import Message, check_lang, game_name, message
from ..session.stats import StatsStore, default_path
from . import start as starting
from .screens import CodeScreen, ConfirmScreen, EndScreen, HelpScreen, StatsScreen
from .table import TableScreen, moved_between
from .words import Note, Said

THEMES = ("textual-dark", "textual-light")
MESSAGE_LINES = 3

#: The colours pyramid.tcss uses that depend on the theme, each with a WCAG AA contrast
#: (tests/test_tui_contrast.py measures what is drawn): a card's edge and the lines 3:1
#: against the table (or the dialog), the footer's keys 4.5:1 against the footer, the
#: statistics' tabs 4.5:1 (the page shown: its tab's text on ``tab-active``, 3:1 its bar).
PALETTE: dict[str, dict[str, str]] = {
    "dark": {
        "card-edge": "#9e9e9e",  # 7.0:1 on the table (#121212)
        "table-rule": "#8a8a8a",  # the line above the messages
        "dialog-border": "#fea62b",
        "won-border": "#4ebf71",
        "lost-border": "#fea62b",
        "scroll-thumb": "#8a8a8a",
        "footer-key-foreground": "#ffa62b",
        "footer-key-off": "#b4b4b4",  # a greyed key, still 4.5:1 under the mouse
        "tab-active": "#ffa62b",  # the statistics' page shown: its tab and its bar
        "tab-active-text": "#000000",
    },
    "light": {
        "card-edge": "#5c5c5c",  # 5.1:1 on the table (#e0e0e0): free cards are light too
        "table-rule": "#767676",
        "dialog-border": "#7a4f10",
        "won-border": "#2e6b40",
        "lost-border": "#7a4f10",
        "scroll-thumb": "#6b6b6b",
        "footer-key-foreground": "#004578",  # (Textual's #0178d4 is 2.9:1 on the footer)
        "footer-key-off": "#474747",
        "tab-active": "#004578",
        "tab-active-text": "#ffffff",
    },
}


class PyramidApp(App[None]):
    """The game. ``code``: a deal to play (else the saved game, else a new random deal);
    ``profile``, ``lang``: the game and the messages' language; ``save_path``: the autosave
    file; ``stats_path``: the statistics file; ``clock``: a function returning seconds (tests
    pass a fake one); ``winnable_only``: new random deals are ones the solver proves
    winnable."""

    CSS_PATH = "pyramid.tcss"
    TITLE = "Pyramid Solitaire"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        code: str | None = None,
        profile: str = "pyramide",
        lang: str | None = None,
        save_path: str | Path | None = None,
        stats_path: str | Path | None = None,
        *,
        clock: Callable[[], float] | None = None,
        winnable_only: bool = True,
        theme: str | None = None,
    ) -> None:
        super().__init__()
        self.profile_name = Profile.preset(profile).name
        # the theme and language remembered beside the autosave, unless given
        base = Path(save_path) if save_path is not None else starting.default_save_path()
        self.settings_path = starting.settings_path(base)
        remembered = starting.read_settings(self.settings_path)
        self.lang = check_lang(lang if lang is not None else remembered.get("lang", "en"))
        theme = theme if theme is not None else remembered.get("theme", "textual-dark")
        self.clock = clock
        self.winnable_only = winnable_only
        # how hard new deals are: "any", or a difficulty (those the game type offers count)
        self.difficulty_choice = remembered.get("difficulty", "any")
        # the message lines: kept as given, written in the language of the moment (words.py)
        self.notes: deque[Note] = deque(maxlen=MESSAGE_LINES)
        self.stats_path = Path(stats_path) if stats_path is not None else default_path()
        self.store = self._open_store()
        try:
            begun = starting.start(
                code,
                self.profile_name,
                self.lang,
                save_path,
                self.store,
                clock,
                winnable_only,
                self.new_difficulty,
            )
        except BaseException:  # a bad code: the command line says so
            if self.store is not None:
                self.store.close()
            raise
        self.session: Session = begun.session
        if "fair_hints" in remembered:  # a player's choice, kept across games and starts
            self.session.fair_hints = remembered["fair_hints"] == "on"
        self.save_path = begun.save_path
        if self.settings_path is not None and not self.settings_path.exists():
            self.note(Said("first_visit"))  # a first start: the rules, offered
            self.remember(lang=self.lang)
        self.pending_code = begun.pending
        self.note(*begun.notes)
        self.cursor: Any = None  # the keyboard cursor's target
        self.cursor_place: tuple[float, float] | None = None
        self.hinted: set[Any] = set()  # targets of the last hint's move
        # the places whose cards just moved: a card that came there (None), or the card that
        # left a pyramid place (shown there a moment); "foundation": cards were removed
        self.moved: dict[Any, str | None] = {}
        self._theme_name = theme

    def _open_store(self) -> StatsStore | None:
        try:
            return StatsStore(self.stats_path)
        except (ValueError, OSError, sqlite3.Error) as e:
            self.note(Said.of("stats_off", why=e))
            return None

    # ---- the app -----------------------------------------------------------------------------
    def get_default_screen(self) -> TableScreen:
        return TableScreen()

    def on_mount(self) -> None:
        self.theme = self._theme_name
        if self.session.state()["status"] != "playing":
            self.show_end()
        elif self.pending_code is not None:  # play CODE over a game under way
            code, self.pending_code = self.pending_code, None
            self.when_left("code", lambda: self.new_game(code))

    def get_css_variables(self) -> dict[str, str]:
        """Textual's variables for the theme, and the game's own (:data:`PALETTE`)."""
        variables = super().get_css_variables()
        variables.update(PALETTE["dark" if self.current_theme.dark else "light"])
        self.theme_variables = variables
        return variables

    def on_unmount(self) -> None:
        if self.store is not None:
            self.store.close()

    @property
    def table(self) -> TableScreen | None:
        """The table screen (at the bottom of the screen stack), once the app runs."""
        stack = self.screen_stack
        return stack[0] if stack and isinstance(stack[0], TableScreen) else None

    @property
    def shows_score(self) -> bool:
        """The profile gives points (else only moves and time are shown)."""
        return self.session.profile.scoring.gives_points

    def note(self, *notes: Note) -> None:
        """Add messages to the message lines (the last three are shown)."""
        self.notes.extend(notes)

    def not_saved(self, error: Exception) -> Message:
        """The session's notice for a game that could not be saved (the next action tries
        again)."""
        why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return message("not_saved", self.session.lang, why=why)

    def redraw(self) -> None:
        table = self.table
        if table is not None and table.is_mounted:
            table.redraw()

    # ---- playing -----------------------------------------------------------------------------
    #: What the session does that moves cards (the cards that moved are shown a moment).
    MOVING = ("tap", "drag", "play", "undo", "redo", "finish")
    #: What leaves the table as it is (a hint shown stays shown).
    STILL = ("set_lang",)

    def act(self, name: str, *args: Any) -> list[Message]:
        """Call the session's ``name`` (tap, undo, redo, hint, pause, resume, play, ...),
        show its messages, draw the new state (the cards that moved shown a moment); a
        game that ends shows the end panel."""
        before = self.session.state()
        try:
            out: list[Message] = list(getattr(self.session, name)(*args))
        except (OSError, sqlite3.Error) as e:  # the autosave or the statistics failed
            out = [self.not_saved(e)]
        after = self.session.state()
        if name not in self.STILL:
            self.hinted = self._hinted(out) if name == "hint" else set()
            self.moved = moved_between(before, after) if name in self.MOVING else {}
        if name in ("undo", "redo", "restart"):  # the table changed back: old news goes
            self.notes.clear()
        self.note(*out)
        self.redraw()
        if self.moved and self.table is not None and self.table.is_mounted:
            self.table.flash()
        if before["status"] == "playing" and after["status"] != "playing":
            self.show_end()
        return out

    def _hinted(self, out: list[Any]) -> set[Any]:
        """The targets showing the cards of a hint's move (a draw or recycle: the stock)."""
        hints = [m for m in out if isinstance(m, Message) and m.code == "hint"]
        if not hints:
            return set()
        move = Move.parse(hints[0].args["move"])
        if not move.cards:
            return {"stock"}
        st = self.session.state()
        where: dict[str, Any] = {e["card"]: e["index"] for e in st["pyramid"] if e["card"]}
        if st["stock_top"]:
            where[st["stock_top"]] = "stock:top"
        tops = st["waste_tops"]
        for k, token in enumerate(tops):
            if token:
                where[token] = "waste" if len(tops) == 1 else f"waste:{k}"
        return {where[c.token] for c in move.cards if c.token in where}

    def new_game(self, code: str | None = None, *, daily: bool = False) -> str | None:
        """A new game under the profile asked for at the start: ``code``'s deal, today's
        daily deal (``daily``), or a random one (of the difficulty chosen, if any). Returns
        the error of a bad code (nothing changes then), else None."""
        try:
            # Under the profile asked for at the start (a resumed game may be of another);
            # the game left is recorded as abandoned.
            # a pasted code plays as the game its letter names (PY1-M-...: msc)
            profile = profile_of_code(code, Profile.preset(self.profile_name))
            if daily:
                out = self.session.new_deal(profile=profile, daily=True)
            elif code is None and self.new_difficulty is not None:
                out = self.session.new_deal(profile=profile, difficulty=self.new_difficulty)
            else:
                out = self.session.new_deal(code, profile, winnable_only=self.winnable_only)
        except ValueError as e:
            return error_text(e, self.session.lang)
        except (OSError, sqlite3.Error) as e:
            out = [self.not_saved(e)]
        self.cursor = self.cursor_place = None
        self.hinted = set()
        self.moved = {}
        self.notes.clear()
        self.note(*out)
        self.redraw()
        return None

    def new_daily(self) -> None:
        """Today's daily deal of the game type asked for (the session's: the same deal for
        every player on this date)."""
        error = self.new_game(daily=True)
        if error is not None:
            self.note(error)
            self.redraw()

    # ---- how hard new deals are --------------------------------------------------------------
    @property
    def difficulty_choices(self) -> tuple[str, ...]:
        """What the difficulty setting cycles through: any deal, then the difficulties the
        game type offers (the session's :func:`~pyramid_solitaire.session.difficulty.offered`:
        classic offers hard only)."""
        return ("any", *offered(self.profile_name))

    @property
    def new_difficulty(self) -> str | None:
        """The difficulty of the next random deal (None: any deal), from the setting: one
        the game type does not offer counts as any."""
        choice = self.difficulty_choice
        return choice if choice in self.difficulty_choices[1:] else None

    def cycle_difficulty(self) -> None:
        """The next choice of how hard new deals are (remembered; said on the table)."""
        choices = self.difficulty_choices
        now = self.new_difficulty or "any"
        self.difficulty_choice = choices[(choices.index(now) + 1) % len(choices)]
        self.remember(difficulty=self.difficulty_choice)
        self.note(Said.of("tui_new_deals_level", level=Said(f"level_{self.difficulty_choice}")))
        self.redraw()

    # ---- leaving a game ----------------------------------------------------------------------
    #: the question asked before leaving a game under way, by what leaves it
    LEAVE = {
        "new": "leave_for_new",
        "daily": "leave_for_new",
        "restart": "leave_for_restart",
        "code": "replace_game",
    }

    def when_left(self, what: str, then: Callable[[], Any]) -> None:
        """``then()`` at once when no game is under way; else after the player says yes
        (the game left counts as abandoned in the statistics, which the question says)."""
        if not self.session.under_way:
            then()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        lang = self.session.lang
        self.push_screen(ConfirmScreen(label(self.LEAVE[what], lang), lang), answered)

    def switch_language(self) -> None:
        """English and Vietnamese in turn: every line shown (the messages kept are written
        again, :mod:`.words`), the labels and the footer; remembered."""
        lang = "vi" if self.session.lang == "en" else "en"
        self.lang = lang
        self.act("set_lang", lang)
        if self.table is not None:
            self.table.translate_footer(lang)
        self.remember(lang=lang)

    # ---- screens -----------------------------------------------------------------------------
    def show_end(self) -> None:
        st = self.session.state()
        title = message("won" if st["status"] == "won" else "no_moves", self.session.lang).text

        def chosen(what: str | None) -> None:
            if what == "new":
                self.new_game()
            elif what == "replay":
                self.act("restart")
            elif what == "undo":
                self.act("undo")

        best = None
        if self.store is not None:
            try:
                best = self.store.best_of(self.session.profile.name)
            except (ValueError, sqlite3.Error):
                best = None  # a damaged file: the panel goes without
        self.push_screen(EndScreen(title, st, self.session.lang, self.shows_score, best), chosen)

    def show_help(self) -> None:
        lang = self.session.lang
        now = {
            "level": label(f"level_{self.new_difficulty or 'any'}", lang),
            "fair": label("tui_on" if self.session.fair_hints else "tui_off", lang),
        }
        self.push_screen(HelpScreen(self.session.profile, lang, now))

    def show_stats(self) -> None:
        """The statistics of the game type played (a reset there asks first)."""
        profile = self.session.profile.name
        lang = self.session.lang
        if self.store is None:
            why = label("stats_file_unusable", lang, path=self.stats_path)
            self.push_screen(
                StatsScreen(profile, None, error=label("stats_off", lang, why=why), lang=lang)
            )
            return
        data, error = self.stats_of(profile)
        self.push_screen(
            StatsScreen(
                profile,
                data,
                error=error,
                lang=lang,
                show_score=self.shows_score,
                reset=self.reset_stats,
            )
        )

    def stats_of(self, profile: str) -> tuple[dict[str, Any] | None, str | None]:
        """What the statistics screen shows of ``profile``: the summary (with the daily
        deals' figures and the win rate by difficulty), the best wins and the last games;
        or the error of a damaged file."""
        if self.store is None:
            return None, None
        try:
            return {
                "summary": self.store.summary(profile),
                "high_scores": self.store.high_scores(profile),
                "history": self.store.history(profile, limit=StatsScreen.RECENT),
            }, None
        except (ValueError, sqlite3.Error) as e:
            return None, str(e)

    def reset_stats(self, screen: StatsScreen) -> None:
        """Delete the games recorded of the statistics screen's game type, once the player
        says yes; the screen then shows the emptied statistics."""
        profile = screen.profile
        lang = self.session.lang
        question = label("reset_ask", lang, game=game_name(profile, lang))

        def answered(yes: bool | None) -> None:
            if not yes or self.store is None:
                return
            try:
                n = self.store.reset(profile)
            except (ValueError, OSError, sqlite3.Error) as e:
                screen.show(None, error=str(e))
                return
            data, error = self.stats_of(profile)
            screen.show(data, error=error, note=label("reset_done", lang, n=n))

        self.push_screen(ConfirmScreen(question, lang), answered)

    def ask_code(self) -> None:
        self.push_screen(CodeScreen(self._submit_code, self.session.lang))

    def _submit_code(self, text: str) -> str | None:
        if not text:
            return label("tui_code_empty", self.session.lang)
        return self.new_game(text)

    def toggle_theme(self) -> None:
        self.theme = THEMES[1] if self.theme == THEMES[0] else THEMES[0]
        self.remember(theme=self.theme)

    def switch_fair_hints(self) -> None:
        """Hints that look at the face-down stock, or that never do (remembered)."""
        on = not self.session.fair_hints
        self.act("set_fair_hints", on)
        self.remember(fair_hints="on" if on else "off")

    def remember(self, **changes: str) -> None:
        """Keep the theme or language for the next start (a file that cannot be written
        only costs the remembering)."""
        try:
            starting.write_settings(self.settings_path, **changes)
        except OSError as e:
            self.note(Said.of("not_remembered", why=e.strerror or e))

    def quit_game(self, return_code: int = 0) -> None:
        """Save (so the clock is kept to the second) and quit (``return_code``: the exit
        status :meth:`run` gives back)."""
        if self.save_path is not None:
            try:
                self.session.save(self.save_path)
            except OSError:
                pass
        self.exit(return_code=return_code)

    def action_help_quit(self) -> None:
        """Ctrl+C (Textual's, which says how to quit): said in the game's language."""
        lang = self.session.lang
        self.notify(label("tui_quit_how", lang), title=label("tui_quit_title", lang))

    def action_quit_game(self) -> None:
        self.quit_game()

    async def action_quit(self) -> None:
        """Textual's own quit (Ctrl+Q, from any screen) saves too."""
        self.quit_game()
