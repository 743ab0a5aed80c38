"""The terminal game's modal screens: help, statistics, a deal code to enter, the end of a
game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static, TabbedContent, TabPane

from ..session.labels import label
from .widgets import clock_text

KEYS = """\
[b]Mouse[/b]  click a card, the stock or the waste: a card, then its partner
       (click a selected card again to let it go)

[b]Keys[/b]   ← → ↑ ↓  move the cursor over the cards you can play now
       Enter    tap the card under the cursor (Space too)
       D  draw (or turn the waste over)   H  hint (shown in blue)
       A  let the game finish itself, when the rest needs no choice
       F  hints that never look at the face-down stock (now {fair})
       W  your chance to win, from the cards you have seen
       Z  undo          R  redo           P  pause / resume
       N  new deal      X  restart this deal   C  enter or paste a code
       Y  today's daily deal   E  how hard new deals are (now {level})
       L  language      S  statistics     T  light / dark
       ?  this help     Q  quit

Every action is saved: the next start goes on with this game.
Esc closes this help."""


KEYS_VI = """\
[b]Chuột[/b]  bấm một lá, nọc hoặc bài bỏ: một lá, rồi lá ghép với nó
       (bấm lại lá đang chọn để bỏ chọn)

[b]Phím[/b]   ← → ↑ ↓  đưa con trỏ qua các lá chơi được lúc này
       Enter    chạm lá dưới con trỏ (cả Space)
       D  rút bài (hoặc lật lại bài bỏ)   H  gợi ý (tô xanh)
       A  để ván bài tự hoàn tất, khi phần còn lại không cần chọn
       F  gợi ý không nhìn các lá úp trong nọc (đang {fair})
       W  cơ hội thắng của bạn, theo những lá bạn đã thấy
       Z  hoàn tác      R  làm lại        P  tạm dừng / tiếp tục
       N  ván mới       X  chơi lại ván này   C  nhập hoặc dán mã ván
       Y  ván hằng ngày hôm nay   E  độ khó của ván mới (đang {level})
       L  ngôn ngữ      S  thống kê       T  sáng / tối
       ?  trợ giúp này  Q  thoát

Mọi thao tác đều được lưu: lần mở sau sẽ chơi tiếp ván này.
Esc để đóng trợ giúp."""


def help_text(
    profile: Any = "pyramide", lang: str = "en", now: dict[str, str] | None = None
) -> str:
    """The help: the game's rules page (the session layer's, docs/session.md "How to
    play", in the game's language), then the terminal game's mouse and keys; ``now``: the
    settings as they are (``level``: how hard new deals are, ``fair``: fair hints on or
    off), in ``lang``."""
    from rich.markup import escape

    from ..session.howto import how_to_play

    page = how_to_play(profile, lang)
    parts = [f"[b]{escape(page['title'])}[/b]"]
    for section in page["sections"]:
        parts.append(
            f"[b]{escape(section['title'])}[/b]  "
            + " ".join(escape(p) for p in section["paragraphs"])
        )
    now = {
        "level": label("level_any", lang),
        "fair": label("tui_off", lang),
        **(now or {}),
    }
    keys = (KEYS_VI if lang == "vi" else KEYS).format(**{k: escape(v) for k, v in now.items()})
    return "\n\n".join(parts + [keys])


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q,enter", "app.pop_screen", "Close")]

    def __init__(
        self, profile: Any = "pyramide", lang: str = "en", now: dict[str, str] | None = None
    ) -> None:
        super().__init__()
        self.text = help_text(profile, lang, now)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box", classes="dialog"):
            yield Static(self.text, id="help-text")


#: The width of the win-rate bars of the statistics (cells).
BAR = 20


def win_rate_bar(rate: float | None) -> str:
    """A win rate as a bar of :data:`BAR` cells (``█`` won, ``░`` the rest) and its
    percentage; ``-`` without games."""
    if rate is None:
        return "-"
    full = round(rate * BAR)
    return "█" * full + "░" * (BAR - full) + f" {rate:4.0%}"


class StatsScreen(ModalScreen[None]):
    """The statistics of a game type, on four pages (tabs; ← → or a click): the summary
    and the daily deals' figures, the win rate by difficulty (a bar chart), the best wins
    with the hints taken, the last games. ``R`` resets them, once the player says yes
    (``reset(screen)``, the app's: it asks, then :meth:`show` draws the emptied ones)."""

    BINDINGS = [
        Binding("escape,s,q,enter", "app.pop_screen", "Close"),
        Binding("left", "page(-1)", "Previous page", priority=True),
        Binding("right", "page(1)", "Next page", priority=True),
        Binding("r", "reset", "Reset"),
    ]
    #: The pages, in order (the ids of their tabs).
    PAGES = ("page-summary", "page-difficulty", "page-best", "page-recent")
    #: How many of the last games are shown.
    RECENT = 10

    def __init__(
        self,
        profile: str,
        data: dict[str, Any] | None,
        error: str | None = None,
        lang: str = "en",
        show_score: bool = True,
        reset: Callable[[StatsScreen], None] | None = None,
    ) -> None:
        super().__init__()
        self.profile = profile
        self.data = data
        self.error = error
        self.lang = lang
        self.show_score = show_score  # seed 003's game has no points: no score shown
        self.reset = reset
        self.note = ""

    def compose(self) -> ComposeResult:
        from ..session.messages import game_name

        lang = self.lang
        with Vertical(id="stats-box", classes="dialog"):
            yield Static(
                f"[b]{label('statistics', lang)}: {game_name(self.profile, lang)}[/b]",
                id="stats-title",
            )
            yield Static("", id="stats-error")
            with TabbedContent(id="stats-pages"):
                with TabPane(label("tui_summary", lang), id="page-summary"):
                    with Horizontal(id="stats-figures"):
                        yield _table("stats-summary")
                        yield _table("stats-daily")
                with TabPane(label("by_difficulty", lang), id="page-difficulty"):
                    yield _table("stats-difficulty")
                with TabPane(label("best_wins", lang), id="page-best"):
                    yield _table("stats-high")
                with TabPane(label("recent_games", lang), id="page-recent"):
                    yield _table("stats-recent")
            yield Static("", id="stats-note")
            keys = "tui_stats_keys" if self.reset is not None else "tui_stats_keys_no_reset"
            yield Static(label(keys, lang), classes="dialog-keys")

    def on_mount(self) -> None:
        self.show(self.data, error=self.error)

    def show(self, data: dict[str, Any] | None, error: str | None = None, note: str = "") -> None:
        """Draw ``data`` (the app's :meth:`~.app.PyramidApp.stats_of`), or ``error``;
        ``note``: a line under the pages (the games a reset deleted)."""
        self.data, self.error, self.note = data, error, note
        failed = error is not None or data is None
        self.query_one("#stats-error", Static).update(error or "")
        self.query_one("#stats-error").display = failed
        self.query_one("#stats-pages").display = not failed
        self.query_one("#stats-note", Static).update(note)
        self.query_one("#stats-note").display = bool(note)
        if failed or data is None:
            return
        self._summary(data["summary"])
        self._by_difficulty(data["summary"].get("by_difficulty") or {})
        self._high_scores(data["high_scores"])
        self._recent(data["history"])

    def _summary(self, s: dict[str, Any]) -> None:
        lang = self.lang
        rate = s.get("win_rate")
        table = self._clear("#stats-summary", "", "")
        table.show_header = False
        rows = [
            ("Games", "games", str(s.get("games", 0))),
            ("Wins", "wins", str(s.get("wins", 0))),
            ("Win rate", "win_rate", "-" if rate is None else f"{rate:.0%}"),
            ("Best score", "best_score", _dash(s.get("best_score"))),
            ("Fewest moves (a win)", "fewest_moves", _dash(s.get("fewest_moves"))),
            (
                "Fastest win",
                "fastest_win",
                "-" if s.get("fastest_win") is None else clock_text(s["fastest_win"]),
            ),
            ("Winning streak", "current_streak", str(s.get("current_streak", 0))),
            ("Best streak", "best_streak", str(s.get("best_streak", 0))),
        ]
        for key, name, value in rows:  # keys stay English (tests, programs)
            if key == "Best score" and not self.show_score:
                continue
            table.add_row(label(name, lang), value, key=key)
        daily = s.get("daily") or {}
        table = self._clear("#stats-daily", label("daily", lang), "")
        for key, name in (
            ("played", "daily_played"),
            ("won", "daily_won"),
            ("current_streak", "daily_streak"),
            ("best_streak", "daily_best_streak"),
        ):
            table.add_row(label(name, lang), str(daily.get(key, 0)), key=key)

    def _by_difficulty(self, by: dict[str, dict[str, Any]]) -> None:
        lang = self.lang
        table = self._clear(
            "#stats-difficulty",
            label("difficulty", lang),
            label("win_rate", lang),
            label("games", lang),
            label("wins", lang),
        )
        for name, figures in by.items():  # every level, easy first (the statistics' order)
            table.add_row(
                label(f"level_{name}", lang),
                win_rate_bar(figures["win_rate"]),
                str(figures["games"]),
                str(figures["wins"]),
                key=name,
            )

    def _high_scores(self, high_scores: list[dict[str, Any]]) -> None:
        from ..session.messages import message

        lang = self.lang
        columns = [
            "#",
            label("score", lang),
            label("moves", lang),
            label("time", lang),
            label("hints", lang),
            label("deal", lang),
            label("date", lang),
        ]
        if not self.show_score:
            columns.pop(1)
        high = self._clear("#stats-high", *columns)
        for n, row in enumerate(high_scores, 1):
            cells = [
                str(n),
                str(row["score"]),
                str(row["moves"]),
                clock_text(row["seconds"]),
                str(row.get("hints") or 0),
                row["code"] or message("card_list", lang).text,
                str(row["finished_at"])[:10],
            ]
            if not self.show_score:
                cells.pop(1)
            high.add_row(*cells)
        if not high_scores:
            high.add_row("", label("no_scores", lang), *[""] * (len(columns) - 2))

    def _recent(self, history: list[dict[str, Any]]) -> None:
        lang = self.lang
        columns = [
            label("date", lang),
            label("result", lang),
            label("difficulty", lang),
            label("score", lang),
            label("moves", lang),
            label("time", lang),
            label("hints", lang),
        ]
        if not self.show_score:
            columns.pop(3)
        table = self._clear("#stats-recent", *columns)
        for game in history:
            level = game["difficulty"]
            cells = [
                str(game["finished_at"])[:10],
                label(f"result_{game['result']}", lang),
                "-" if level is None else label(f"level_{level}", lang),
                str(game["score"]),
                str(game["moves"]),
                clock_text(game["seconds"]),
                str(game["hints"]),
            ]
            if not self.show_score:
                cells.pop(3)
            table.add_row(*cells)
        if not history:
            table.add_row("", label("no_games", lang), *[""] * (len(columns) - 2))

    def _clear(self, selector: str, *columns: str) -> DataTable[Any]:
        table: DataTable[Any] = self.query_one(selector, DataTable)
        table.clear(columns=True)
        table.add_columns(*columns)
        return table

    def action_page(self, step: int) -> None:
        pages = self.query_one("#stats-pages", TabbedContent)
        k = self.PAGES.index(pages.active) if pages.active in self.PAGES else 0
        pages.active = self.PAGES[(k + step) % len(self.PAGES)]

    def action_reset(self) -> None:
        if self.reset is not None and self.data is not None:
            self.reset(self)


def _table(id: str) -> DataTable[Any]:
    """A table of figures (no cursor, not focused: the arrows turn the pages)."""
    table: DataTable[Any] = DataTable(id=id, show_cursor=False)
    table.can_focus = False
    return table


def _dash(value: Any) -> str:
    return "-" if value is None else str(value)


class CodeScreen(ModalScreen[None]):
    """A deal code (or a card list) to type or paste; ``submit(text)`` starts it and returns
    None, or returns the error to show (the screen stays open)."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Cancel")]

    def __init__(self, submit: Callable[[str], str | None], lang: str = "en") -> None:
        super().__init__()
        self.submit, self.lang = submit, lang

    def compose(self) -> ComposeResult:
        with Vertical(id="code-box", classes="dialog"):
            yield Static(f"[b]{label('tui_code_title', self.lang)}[/b]")
            yield Input(placeholder="PY1-N-AAAAAAS", id="code-input")
            yield Static("", id="code-error")
            yield Static(label("tui_code_keys", self.lang), classes="dialog-keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        error = self.submit(event.value.strip())
        if error is None:
            self.dismiss()
        else:
            self.query_one("#code-error", Static).update(error)


class EndScreen(ModalScreen[str | None]):
    """The end of a game: won, or no moves left. Dismissed with ``"new"``, ``"undo"`` or
    None (to look at the table)."""

    BINDINGS = [
        Binding("n", "choose('new')", "New deal"),
        Binding("x", "choose('replay')", "Replay"),
        Binding("z", "choose('undo')", "Undo"),
        Binding("escape,enter", "choose('')", "Close"),
        Binding("q", "app.quit_game", "Quit"),
    ]

    def __init__(
        self,
        title: str,
        state: dict[str, Any],
        lang: str,
        show_score: bool,
        best: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.won = state["status"] == "won"
        self.title_text = title
        parts = ([f"{label('score', lang)} {state['score']}"] if show_score else []) + [
            f"{label('moves', lang)} {state['moves']}",
            f"{label('time', lang)} {clock_text(state['seconds'])}",
        ]
        self.summary = "   ".join(parts)
        self.best = "" if best is None else best_text(best, lang)
        keys = [
            label("tui_new_deal", lang),
            label("tui_replay", lang),
            label("tui_undo", lang),
            label("tui_look", lang),
            label("tui_quit", lang),
        ]
        self.keys = " · ".join(keys)

    def compose(self) -> ComposeResult:
        with Vertical(id="end-box", classes="dialog " + ("won" if self.won else "lost")):
            yield Static(self.title_text, id="end-title")
            yield Static(self.summary, id="end-summary")
            yield Static(self.best, id="end-best")
            yield Static(self.keys, classes="dialog-keys")

    def action_choose(self, what: str) -> None:
        self.dismiss(what or None)


def best_text(best: dict[str, Any], lang: str) -> str:
    """The best of this game type (:meth:`StatsStore.best_of
    <pyramid_solitaire.session.stats.StatsStore.best_of>`: the same fields after a win or a
    loss, as the browser game shows them), each under the label of its name."""
    parts = [
        f"{label(key, lang)} " + (clock_text(best[key]) if key == "fastest_win" else str(best[key]))
        for key in best["shown"]
    ]
    return f"{label('best_of', lang)}: " + " · ".join(parts)


class ConfirmScreen(ModalScreen[bool]):
    """A question to answer Y (yes) or N / Esc (no): leaving a game under way."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str, lang: str = "en") -> None:
        super().__init__()
        self.question, self.lang = question, lang

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box", classes="dialog"):
            yield Static(self.question, id="confirm-text")
            yield Static(label("tui_yes_no", self.lang), classes="dialog-keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
