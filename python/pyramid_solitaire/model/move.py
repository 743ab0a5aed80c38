"""Moves and their short text form.

A move names cards, not places: every card is unique, so ``Kd`` (remove a King), ``Tc+3s``
(remove a pair), ``draw`` and ``recycle`` say everything, wherever the cards lie (pyramid,
waste or stock). The text round-trips:

>>> Move.parse("10♣ + 3♠")
Move('Tc+3s')
>>> str(Move.parse("Kd")), Move.parse("3s+Tc") == Move.parse("Tc+3s"), str(Move.DRAW)
('Kd', True, 'draw')
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..runtime.args import excerpt
from .cards import TOKENS, Card, parse_card
from .reasons import InputError

_DRAW_WORDS = ("draw", "d")
_RECYCLE_WORDS = ("recycle", "r", "redeal")


class Move:
    """A move: ``kind`` is ``"king"``, ``"pair"``, ``"draw"`` or ``"recycle"``; ``cards`` holds
    the removed cards (none for draw and recycle). Hashable; pairs compare equal in either
    order. ``Move("Tc+3s")`` parses the text form."""

    __slots__ = ("kind", "cards")
    kind: str
    cards: tuple[Card, ...]
    DRAW: ClassVar[Move]
    RECYCLE: ClassVar[Move]

    def __init__(self, kind: str, cards: tuple[int, ...] | None = None) -> None:
        if cards is None:
            if kind not in ("draw", "recycle"):
                # Move("Tc+3s"): the text form, so that repr(move) evaluates back.
                parsed = Move.parse(kind)
                kind, cards = parsed.kind, parsed.cards
            else:
                cards = ()
        if isinstance(cards, (int, str)):  # Move("king", "Kd"): one card
            cards = (cards,)
        try:
            cards = tuple(Card(c) for c in cards)
        except TypeError:
            raise ValueError(
                f"a move's cards are a sequence of cards, got {excerpt(cards)}"
            ) from None
        if kind == "king":
            if len(cards) != 1 or cards[0].rank != 13:
                raise ValueError(
                    f"{'+'.join(map(str, cards)) or 'nothing'}: a card alone is a "
                    "move only when it is a King"
                )
        elif kind == "pair":
            if len(cards) != 2:
                raise ValueError(f"a pair is two cards, got {len(cards)}")
            a, b = cards
            if a == b:
                raise ValueError(f"{a}+{b}: a card cannot pair with itself")
            if a.rank + b.rank != 13:
                what = (
                    "a King is removed alone"
                    if 13 in (a.rank, b.rank)
                    else f"ranks sum to {a.rank + b.rank}, not 13"
                )
                raise ValueError(f"{a}+{b}: {what}")
        elif kind in ("draw", "recycle"):
            if cards:
                raise ValueError(f"{kind} takes no cards")
        else:
            raise ValueError(
                f"unknown move kind {excerpt(kind)}: expected king, pair, draw or recycle"
            )
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cards", cards)

    @classmethod
    def _of(cls, kind: str, cards: tuple[Card, ...]) -> Move:
        """A move the engine made (legal by construction: nothing to check)."""
        move = object.__new__(cls)
        object.__setattr__(move, "kind", kind)
        object.__setattr__(move, "cards", cards)
        return move

    @classmethod
    def king(cls, card: int | str) -> Move:
        return cls("king", (Card(card),))

    @classmethod
    def pair(cls, a: int | str, b: int | str) -> Move:
        return cls("pair", (Card(a), Card(b)))

    @classmethod
    def parse(cls, text: Move | str) -> Move:
        """``Kd``, ``Tc+3s`` (or ``10♣ + 3♠``), ``draw`` / ``d``, ``recycle`` / ``r``."""
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise ValueError(
                f"a move is a string like 'Kd', 'Tc+3s', 'draw' or 'recycle', got {excerpt(text)}"
            )
        t = text.strip()
        if t.lower() in _DRAW_WORDS:
            return cls.DRAW
        if t.lower() in _RECYCLE_WORDS:
            return cls.RECYCLE
        parts = [p.strip() for p in t.split("+")]
        if not t or not all(parts) or len(parts) > 2:
            raise InputError("move_text", text=excerpt(text))
        try:
            cards = tuple(parse_card(p) for p in parts)
        except InputError as e:
            raise InputError("move_card", move=excerpt(text), **e.params) from None
        return cls("king" if len(cards) == 1 else "pair", cards)

    def _key(self) -> tuple[str, frozenset[int]]:
        return self.kind, frozenset(self.cards)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move, (self.kind, tuple(int(c) for c in self.cards)))

    def __str__(self) -> str:
        if self.cards:
            return "+".join([TOKENS[c] for c in self.cards])
        return self.kind

    def symbols(self) -> str:
        """The form for people: ``10♣ + 3♠``."""
        if self.cards:
            return " + ".join(c.symbol for c in self.cards)
        return self.kind

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


Move.DRAW = Move("draw")
Move.RECYCLE = Move("recycle")
