"""The card widgets of the terminal game, and how a card token is shown (a display helper:
no rule lives here; what is free, selected or playable comes from the session's state)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from ..model.cards import Card

if TYPE_CHECKING:
    from .table import TableScreen

#: How wide a card's text is, in terminal cells ("10♦" and a cell on each side for the
#: cursor's marks); its edges are drawn around it (pyramid.tcss).
CARD_WIDTH = 5


def face(token: str | None) -> tuple[str, bool]:
    """The text of a card token for people, and whether it is red: ``("10♦", True)``;
    ``("", False)`` for no card."""
    if token is None:
        return "", False
    card = Card.parse(token)
    return card.symbol, card.is_red


def widget_id(target: Any) -> str:
    """The id of the widget a tap target is drawn by: ``p0``..``p27``, ``stock``,
    ``stock-top``, ``waste``, ``waste-0``..``waste-2``."""
    if isinstance(target, int):
        return f"p{target}"
    return str(target).replace(":", "-")


class CardWidget(Static):
    """One place of the table: a pyramid place, the stock, its top card or a waste pile. A
    click posts :class:`CardWidget.Tapped` with the place's tap target; a drag from one
    place to another (the button pressed on one, released on the other) posts
    :class:`CardWidget.Dragged`."""

    class Tapped(Message):
        def __init__(self, target: Any) -> None:
            self.target = target
            super().__init__()

    class Dragged(Message):
        def __init__(self, source: Any, target: Any) -> None:
            self.source = source
            self.target = target
            super().__init__()

    def __init__(self, target: Any, **kwargs: Any) -> None:
        super().__init__("", id=widget_id(target), **kwargs)
        self.target = target
        self.token: str | None = None  # the card shown (None: none, or hidden)
        self.label = ""  # the text drawn, without the cursor marks

    def show(
        self,
        token: str | None,
        *,
        kind: str,
        cursor: bool = False,
        selected: bool = False,
        hinted: bool = False,
        moved: bool = False,
        gone: str | None = None,
        text: str | None = None,
    ) -> None:
        """Draw ``token`` (or ``text`` for a card back); ``kind`` is ``free``, ``blocked``,
        ``empty`` or ``back``; ``moved``: the card just came here (or, on an empty place,
        the card ``gone`` just left it: drawn a moment, struck through)."""
        label, red = face(token) if text is None else (text, False)
        if gone is not None:
            label, red = face(gone)
        self.token = token if text is None else None
        self.label = label
        classes = {
            "free": kind == "free",
            "blocked": kind == "blocked",
            "empty": kind == "empty",
            "back": kind == "back",
            "red": red,
            "selected": selected,
            "cursor": cursor,
            "hinted": hinted,
            "moved": moved,
            "gone": gone is not None,
        }
        for name, on in classes.items():
            self.set_class(on, name)
        body = label if label else ("·" if kind == "empty" else "")
        inner = body.center(CARD_WIDTH - 2)
        self.update(Text(("›" if cursor else " ") + inner + ("‹" if cursor else " ")))

    def on_click(self, event: Any) -> None:
        event.stop()
        self.post_message(self.Tapped(self.target))

    @property
    def table(self) -> TableScreen:
        """The screen the card is on: the table (the only screen with cards)."""
        return cast("TableScreen", self.screen)

    def on_mouse_down(self, event: Any) -> None:
        self.table.card_pressed = self.target  # where a drag starts

    def on_mouse_up(self, event: Any) -> None:
        source = getattr(self.table, "card_pressed", None)
        self.table.card_pressed = None
        if source is not None and source != self.target:
            self.post_message(self.Dragged(source, self.target))


def clock_text(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour)."""
    s = int(seconds)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"
