"""The terminal game's modal screens: help, statistics, a deal code to enter, the end of a
game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static

from ..session.labels import label
from .widgets import clock_text

KEYS = """\
[b]Mouse[/b]  click a card, the stock or the waste: a card, then its partner
       (click a selected card again to let it go)

[b]Keys[/b]   ← → ↑ ↓  move the cursor over the cards you can play now
       Enter    tap the card under the cursor (Space too)
       D  draw (or turn the waste over)   H  hint (shown in blue)
       F  hints that never look at the face-down stock (on / off)
       W  your chance to win, from the cards you have seen
       Z  undo          R  redo           P  pause / resume
       N  new deal      X  restart this deal   C  enter or paste a deal code
       L  language      S  statistics    T  light / dark   ?  this help    Q  quit

Every action is saved: the next start goes on with this game.
Esc closes this help."""


KEYS_VI = """\
[b]Chuột[/b]  bấm một lá, nọc hoặc bài bỏ: một lá, rồi lá ghép với nó
       (bấm lại lá đang chọn để bỏ chọn)

[b]Phím[/b]   ← → ↑ ↓  đưa con trỏ qua các lá chơi được lúc này
       Enter    chạm lá dưới con trỏ (cả Space)
       D  rút bài (hoặc lật lại bài bỏ)   H  gợi ý (tô xanh)
       F  gợi ý không nhìn các lá úp trong nọc (bật / tắt)
       W  cơ hội thắng của bạn, theo những lá bạn đã thấy
       Z  hoàn tác      R  làm lại        P  tạm dừng / tiếp tục
       N  ván mới       X  chơi lại ván này   C  nhập hoặc dán mã ván
       L  ngôn ngữ      S  thống kê       T  sáng / tối   ?  trợ giúp này   Q  thoát

Mọi thao tác đều được lưu: lần mở sau sẽ chơi tiếp ván này.
Esc để đóng trợ giúp."""


def help_text(profile: Any = "pyramide", lang: str = "en") -> str:
    """The help: the game's rules page (the session layer's, docs/session.md "How to
    play", in the game's language), then the terminal game's mouse and keys."""
    from rich.markup import escape

    from ..session.howto import how_to_play

    page = how_to_play(profile, lang)
    parts = [f"[b]{escape(page['title'])}[/b]"]
    for section in page["sections"]:
        parts.append(
            f"[b]{escape(section['title'])}[/b]  "
            + " ".join(escape(p) for p in section["paragraphs"])
        )
    return "\n\n".join(parts + [KEYS_VI if lang == "vi" else KEYS])


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q,enter", "app.pop_screen", "Close")]

    def __init__(self, profile: Any = "pyramide", lang: str = "en") -> None:
        super().__init__()
        self.text = help_text(profile, lang)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box", classes="dialog"):
            yield Static(self.text, id="help-text")


class StatsScreen(ModalScreen[None]):
    """The statistics of the profile: the summary and the best wins."""

    BINDINGS = [Binding("escape,s,q,enter", "app.pop_screen", "Close")]

    def __init__(
        self,
        profile: str,
        summary: dict[str, Any] | None,
        high_scores: list[dict[str, Any]],
        error: str | None = None,
        lang: str = "en",
        show_score: bool = True,
    ) -> None:
        super().__init__()
        self.profile = profile
        self.summary = summary
        self.high_scores = high_scores
        self.error = error
        self.lang = lang
        self.show_score = show_score  # seed 003's game has no points: no score shown

    def compose(self) -> ComposeResult:
        from ..session.messages import game_name

        lang = self.lang
        with Vertical(id="stats-box", classes="dialog"):
            yield Static(
                f"[b]{label('statistics', lang)}: {game_name(self.profile, lang)}[/b]",
                id="stats-title",
            )
            if self.error is not None:
                yield Static(self.error, id="stats-error")
            else:
                yield DataTable(id="stats-summary", show_cursor=False)
                yield Static(f"[b]{label('best_wins', lang)}[/b]", id="stats-best-title")
                yield DataTable(id="stats-high", show_cursor=False)
            yield Static(label("esc_close", lang), classes="dialog-keys")

    def on_mount(self) -> None:
        if self.error is not None:
            return
        from ..session.messages import message

        lang = self.lang
        s = self.summary or {}
        rate = s.get("win_rate")
        table = self.query_one("#stats-summary", DataTable)
        table.show_header = False
        table.add_columns("", "")
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
        high = self.query_one("#stats-high", DataTable)
        columns = [
            "#",
            label("score", lang),
            label("moves", lang),
            label("time", lang),
            label("deal", lang),
            label("date", lang),
            label("hints", lang),
        ]
        if not self.show_score:
            columns.pop(1)
        high.add_columns(*columns)
        for n, row in enumerate(self.high_scores, 1):
            cells = [
                str(n),
                str(row["score"]),
                str(row["moves"]),
                clock_text(row["seconds"]),
                row["code"] or message("card_list", lang).text,
                str(row["finished_at"])[:10],
                label("yes", lang) if row["assisted"] else "",
            ]
            if not self.show_score:
                cells.pop(1)
            high.add_row(*cells)
        if not self.high_scores:
            high.add_row("", label("no_scores", lang), *[""] * (len(columns) - 2))


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
