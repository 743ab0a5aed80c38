"""Cards and their text forms (docs/rules.md, "Cards and notation").

A card is an int 0..51: rank ``c % 13 + 1`` (A=1 .. K=13), suit ``c // 13`` (clubs, diamonds,
hearts, spades). :class:`Card` is an ``int`` with a readable face:

>>> Card.parse("10♦")
Card('Td')
>>> Card("Kh").rank, Card("Kh").suit, str(Card(51)), Card(9).symbol
(13, 2, 'Ks', '10♣')
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..runtime.args import excerpt
from .reasons import InputError

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_SUIT_INPUT = {
    "c": 0,
    "d": 1,
    "h": 2,
    "s": 3,
    "♣": 0,
    "♦": 1,
    "♥": 2,
    "♠": 3,
    "♧": 0,
    "♢": 1,
    "♡": 2,
    "♤": 3,
}
# One card token: a rank (10 or one char) then a suit; case-insensitive.
_TOKEN = re.compile(r"(10|[A2-9TJQK])([CDHS♣♦♥♠♧♢♡♤])\ufe0f?", re.IGNORECASE | re.ASCII)
# What may separate tokens in a card list.
_SEPARATORS = re.compile(r"[\s,;|/]+")
MAX_TEXT = 5_000  # far more than 52 tokens with any separators need


class Card(int):
    """A card: an int 0..51 that prints as its ASCII token (``Td``, ``Kh``)."""

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if type(value) is int and 0 <= value < 52:  # (the common case: a card index)
            return CARDS[value]
        if isinstance(value, str):
            return parse_card(value)
        if isinstance(value, Card):
            return value
        try:
            index = -1 if type(value).__name__ in ("bool", "bool_") else operator.index(value)
        except TypeError:
            index = -1
        if not 0 <= index < 52:
            raise ValueError(f"a card index is an int 0..51, got {excerpt(value)}")
        return super().__new__(cls, index)

    @classmethod
    def parse(cls, token: str) -> Card:
        return parse_card(token)

    @property
    def rank(self) -> int:
        """1..13 (A=1, J=11, Q=12, K=13)."""
        return int(self) % 13 + 1

    @property
    def suit(self) -> int:
        """0..3: clubs, diamonds, hearts, spades."""
        return int(self) // 13

    @property
    def token(self) -> str:
        """The ASCII token, for machines: ``Td``."""
        return TOKENS[self]

    @property
    def symbol(self) -> str:
        """The form for people: ``10♦``."""
        r = RANKS[int(self) % 13]
        return ("10" if r == "T" else r) + SUIT_SYMBOLS[int(self) // 13]

    @property
    def is_red(self) -> bool:
        return self.suit in (1, 2)

    def __str__(self) -> str:
        return self.token

    def __repr__(self) -> str:
        return f"Card({self.token!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (int(self),))


#: The 52 cards, by index (``CARDS[c]`` is ``Card(c)``): Ac..Kc, Ad..Kd, Ah..Kh, As..Ks.
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, c) for c in range(52))
#: Each card's ASCII token, by index (``TOKENS[c]``: ``Card.token``).
TOKENS: tuple[str, ...] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))


def parse_card(token: str) -> Card:
    """Parse one card token: ``Td``, ``10d``, ``TD``, ``10♦``; ValueError naming the token."""
    if not isinstance(token, str):
        raise ValueError(f"a card token is a string, got {excerpt(token)}")
    m = _TOKEN.fullmatch(token.strip())
    if not m:
        raise InputError("card_token", token=excerpt(token))
    return _card_of(m)


def _card_of(m: re.Match[str]) -> Card:
    rank = m.group(1).upper()
    r = 9 if rank == "10" else RANKS.index(rank)
    return CARDS[_SUIT_INPUT[m.group(2).lower()] * 13 + r]


def parse_cards(text: str | Iterable[Any], count: int | None = 52) -> list[Card]:
    """Parse a card list: tokens separated by anything (spaces, commas, new lines...).

    Checks the count (when ``count`` is given) and that no card appears twice; every error
    names the token, its position (1-based) and what was expected.
    """
    tokens: Sequence[tuple[int, str | Card, str | None]]
    if isinstance(text, str):
        if len(text) > MAX_TEXT:
            raise InputError("list_too_long", length=len(text))
        fast = _read_plain(text, count)
        if fast is not None:
            return fast
        tokens = _tokens(text)
    elif not isinstance(text, Iterable):
        raise ValueError(
            "cards must be a card list: a string of tokens or a sequence of cards "
            f"(Card, index 0..51 or token), got {excerpt(text)}"
        )
    else:
        tokens = [
            (i + 1, x.strip() if isinstance(x, str) else Card(x), None) for i, x in enumerate(text)
        ]
    cards: list[Card] = []
    seen: dict[int, int] = {}
    for pos, tok, run in tokens:
        if isinstance(tok, Card):
            card = tok
        else:
            m = _TOKEN.fullmatch(tok)
            if not m:
                if run:
                    raise InputError("list_token_in", pos=pos, token=excerpt(tok), run=excerpt(run))
                raise InputError("list_token", pos=pos, token=excerpt(tok))
            card = _card_of(m)
        if card in seen:
            raise InputError("card_twice", card=card.token, first=seen[card], second=pos)
        seen[card] = pos
        cards.append(card)
    if count is not None and len(cards) != count:
        missing = [c.token for c in CARDS if c not in seen]
        if 0 < len(missing) <= 8 and len(cards) < count:
            raise InputError(
                "card_count_missing", count=count, got=len(cards), missing=" ".join(missing)
            )
        raise InputError("card_count", count=count, got=len(cards))
    return cards


def _spellings() -> dict[str, Card]:
    """Every way _TOKEN reads one card, written alone (``Td``, ``10D``, ``t♦``, ``10♦\ufe0f``):
    the card it names."""
    out = {}
    for card in CARDS:
        rank = RANKS[card % 13]
        for r in {rank, rank.lower(), *(("10",) if rank == "T" else ())}:
            for suit in _SUIT_INPUT:
                for s in {suit, suit.upper()}:
                    if _SUIT_INPUT[suit] == card // 13:
                        for tail in ("", "\ufe0f"):
                            token = r + s + tail
                            if _TOKEN.fullmatch(token):
                                out[token] = card
    return out


_SPELLED: dict[str, Card] = _spellings()


def _read_plain(text: str, count: int | None) -> list[Card] | None:
    """The cards of a list of whitespace-separated tokens naming ``count`` cards once each
    (what nearly every card list is), read by looking each token up; None for anything
    else, which the tokenizer reads and explains."""
    words = text.split()
    if count is not None and len(words) != count:
        return None
    try:
        cards = [_SPELLED[w] for w in words]
    except KeyError:
        return None
    return cards if len(set(cards)) == len(cards) else None


def _tokens(text: str) -> list[tuple[int, str, str | None]]:
    """Split a card list into (position, token, run) triples; a run of characters without
    separators may hold several cards (``Jd6c``), and a bad token inside one names it."""
    out: list[tuple[int, str, str | None]] = []
    for chunk in _SEPARATORS.split(text.strip()):
        if not chunk:
            continue
        i = 0
        while i < len(chunk):
            m = _TOKEN.match(chunk, i)
            if not m:
                # Not a card; inside a run of cards written together, show the run too.
                out.append((len(out) + 1, chunk[i:], chunk if i else None))
                break
            out.append((len(out) + 1, m.group(0), None))
            i = m.end()
    return out


def format_cards(cards: Iterable[int], symbols: bool = False) -> str:
    """Space-separated tokens (ASCII by default, ``10♦`` forms with ``symbols=True``) of a
    sequence of cards (Cards, indices 0..51 or tokens); ValueError naming a bad one."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise ValueError(
            "format_cards: cards must be a sequence of cards (Card, index 0..51 "
            f"or token), got {excerpt(cards)}"
        )
    out = [Card(c) for c in cards]
    return " ".join(c.symbol if symbols else c.token for c in out)
