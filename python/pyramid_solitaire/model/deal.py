"""Deals and deal codes (docs/deal-codes.md: version 1, frozen).

>>> d = Deal.from_code("PY1-N-AAAAAAS")
>>> d.number, d.code, d.rules
(18, 'PY1-N-AAAAAAS', Rules.preset('pyramide'))
>>> d.to_cards()[:23]
'Ad 3c 7d 6c 5c 8d 2h 4c'
>>> Deal.from_number(18, rules="msc").code
'PY1-M-AAAAAAS'
"""

from __future__ import annotations

import operator
import random as _random
from collections.abc import Iterable
from typing import Any, Literal, SupportsIndex, cast, overload

import numpy as np

from pyramid_core.shuffle import MAX_DEAL_NUMBER, deal_cards

from ..runtime.args import _is_bool, excerpt, whole
from .cards import CARDS, Card, format_cards, parse_cards
from .reasons import InputError
from .rules import CUSTOM_LETTER, Rules

CODE_VERSION = "PY1"
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FORMAT = "PY1-<rules letter>-<7 letters A-Z>, e.g. PY1-N-AAAAAAS"


def _deal_number(number: object) -> int:
    """A whole number 0..26**7-1 (Python or numpy integer), or ValueError."""
    try:
        if isinstance(number, bool):
            raise TypeError
        n = operator.index(cast(SupportsIndex, number))  # TypeError for anything else
    except TypeError:
        raise InputError("deal_number", top=MAX_DEAL_NUMBER, got=excerpt(number)) from None
    if not 0 <= n <= MAX_DEAL_NUMBER:
        raise InputError(
            "deal_number", top=MAX_DEAL_NUMBER, got=f"{n:,}" if abs(n) < 1 << 64 else excerpt(n)
        )
    return n


def number_to_letters(number: int) -> str:
    """The 7-letter base-26 form of a deal number (A = 0, most significant first)."""
    number = _deal_number(number)
    out = []
    for _ in range(7):
        number, digit = divmod(number, 26)
        out.append(_ALPHABET[digit])
    return "".join(reversed(out))


def parse_code(code: str) -> tuple[int, str]:
    """``PY1-N-AAAAAAS`` -> (deal number, rules letter); ValueError naming the bad part."""
    if not isinstance(code, str):
        raise ValueError(f"code must be a deal code, a string like {_FORMAT}, got {excerpt(code)}")
    if not code.isascii():
        bad = next(ch for ch in code if not ch.isascii())
        raise InputError("code_not_ascii", code=excerpt(code), char=bad)
    parts = code.strip().upper().split("-")
    if len(parts) != 3:
        raise InputError("code_malformed", code=excerpt(code))
    version, letter, digits = parts
    if version != CODE_VERSION:
        raise InputError("code_version", code=excerpt(code), version=excerpt(version))
    if len(letter) != 1:
        raise InputError("code_letter_length", code=excerpt(code), letter=excerpt(letter))
    Rules.from_letter(letter)  # an unknown letter raises, naming the letters there are
    if len(digits) != 7:
        raise InputError(
            "code_digits_length", code=excerpt(code), digits=excerpt(digits), length=len(digits)
        )
    number = 0
    for i, ch in enumerate(digits):
        if ch not in _ALPHABET:
            raise InputError("code_digit", code=excerpt(code), pos=i + 1, char=ch)
        number = number * 26 + _ALPHABET.index(ch)
    return number, letter


def looks_like_code(text: str) -> bool:
    """Whether ``text`` is meant as a deal code (one word starting with PY), not a card list:
    the one test every reader of deals uses."""
    stripped = text.strip()
    return stripped.upper().startswith("PY") and len(stripped.split()) == 1


@overload
def code_rules(
    code: str,
    named: Rules | None,
    given: Rules | None,
    *,
    cli: bool = False,
    required: Literal[True] = True,
) -> Rules: ...
@overload
def code_rules(
    code: str, named: Rules | None, given: Rules | None, *, cli: bool = False, required: bool
) -> Rules | None: ...
def code_rules(
    code: str, named: Rules | None, given: Rules | None, *, cli: bool = False, required: bool = True
) -> Rules | None:
    """The rules a deal code is played under: the preset its letter names (``named``; None
    for ``X``), which ``given`` (an explicit ``rules=``, or the CLI's ``--rules``) must
    agree with; for an ``X`` code, ``given``. The one check of a code's letter: every entry
    point goes through it. ``cli`` words the errors for the command line."""
    digits = code.strip().upper()[-7:]
    code = excerpt(code.strip())
    if named is None:
        if given is None and required:
            raise ValueError(
                f"deal code {code} was named under custom rules (letter X): "
                + (
                    "give --rules or option flags to play it"
                    if cli
                    else "pass rules=Rules(...) to play it"
                )
            )
        return given
    if given is not None and given != named:
        what, drop = (
            ("--rules " + given.name, "drop --rules")
            if cli
            else (f"rules={given.name!r}", "drop rules=")
        )
        raise ValueError(
            f"deal code {code} names the {named.name} rules (letter "
            f"{named.letter}), but {what} was given: {drop} to play the code's "
            f"rules, or name the deal under the other rules "
            f"(PY1-{given.letter}-{digits})"
        )
    return named


class Deal:
    """A layout: 28 pyramid cards (row-major from the top) and 24 talon cards in draw order.

    Numbered deals come from the version-1 shuffle and have a code; any layout can be given as
    a card list. ``rules`` is the rule set the deal was named with (from its code's letter), or
    None when unknown. ``number`` names the deal's shuffle, so it must be the number those
    cards were dealt by (ValueError otherwise): a number never names another deal's layout.
    """

    __slots__ = ("_cards", "_number", "_rules")

    def __init__(
        self,
        cards: Iterable[int] | str,
        *,
        number: int | None = None,
        rules: Rules | str | None = None,
    ) -> None:
        self._cards: tuple[Card, ...] = tuple(parse_cards(cards))
        self._number = None if number is None else _number_of(self._cards, number)
        self._rules = None if rules is None else Rules.coerce(rules)

    @classmethod
    def _of_shuffle(cls, number: int, rules: Rules | str | None) -> Deal:
        """Deal ``number`` (checked) as the shuffle deals it: its cards need no reading and
        its number no checking (what ``Deal(cards, number=...)`` does for cards given)."""
        deal = object.__new__(cls)
        deal._cards = tuple([CARDS[i] for i in deal_cards(number)])
        deal._number = number
        deal._rules = None if rules is None else Rules.coerce(rules)
        return deal

    # ---- constructors -----------------------------------------------------------------------
    @classmethod
    def from_number(cls, number: int, rules: Rules | str | None = "pyramide") -> Deal:
        """Deal ``number`` (0 .. 26**7 - 1) of the version-1 shuffle."""
        number = _deal_number(number)
        return cls._of_shuffle(number, rules)

    @classmethod
    def from_code(cls, code: str) -> Deal:
        """A deal from its code, ``PY1-N-AAAAAAS``; ``X`` codes leave ``rules`` None."""
        number, letter = parse_code(code)
        return cls._of_shuffle(number, Rules.from_letter(letter))

    @classmethod
    def from_cards(cls, cards: str | Iterable[int], rules: Rules | str | None = None) -> Deal:
        """A deal from 52 card tokens: the pyramid row by row, then the talon in draw order."""
        return cls(cards, rules=rules)

    @classmethod
    def parse(cls, text: str, rules: Rules | str | None = None) -> Deal:
        """A deal code or a card list, whichever ``text`` is."""
        if not isinstance(text, str):
            raise ValueError(
                "Deal.parse: text must be a deal code such as PY1-N-AAAAAAS or 52 "
                f"card tokens, got {excerpt(text)}"
            )
        stripped = text.strip()
        if looks_like_code(stripped):
            deal = cls.from_code(stripped)
            if rules is None:
                return deal
            return deal.with_rules(code_rules(stripped, deal.rules, Rules.coerce(rules)))
        return cls.from_cards(stripped, rules=rules)

    @classmethod
    def random(cls, rng: Any = None, rules: Rules | str | None = "pyramide") -> Deal:
        """A random numbered deal (so it has a code to share). ``rng``: None, a seed, a
        ``random.Random`` or a ``numpy.random.Generator``."""
        if rng is None or (isinstance(rng, (int, np.integer)) and not _is_bool(rng)):
            rng = None if rng is None else whole("rng", rng)
            number = _random.Random(rng).randrange(MAX_DEAL_NUMBER + 1)
        elif hasattr(rng, "integers"):
            number = int(rng.integers(0, MAX_DEAL_NUMBER + 1))
        elif hasattr(rng, "randrange"):
            number = rng.randrange(MAX_DEAL_NUMBER + 1)
        else:
            raise ValueError(
                f"rng must be None, an int seed, random.Random or "
                f"numpy.random.Generator, got {type(rng).__name__}"
            )
        return cls.from_number(number, rules=rules)

    def with_rules(self, rules: Rules | str | None) -> Deal:
        """The same layout named under other rules."""
        deal = object.__new__(Deal)  # (cards and number already checked)
        deal._cards, deal._number = self._cards, self._number
        deal._rules = None if rules is None else Rules.coerce(rules)
        return deal

    # ---- views ------------------------------------------------------------------------------
    @property
    def cards(self) -> tuple[Card, ...]:
        """The 52 cards: pyramid row-major from the top, then the talon in draw order."""
        return self._cards

    @property
    def pyramid(self) -> tuple[Card, ...]:
        return self._cards[:28]

    @property
    def talon(self) -> tuple[Card, ...]:
        return self._cards[28:]

    @property
    def rows(self) -> list[tuple[Card, ...]]:
        """The pyramid's 7 rows, top first."""
        return [self._cards[r * (r + 1) // 2 : (r + 1) * (r + 2) // 2] for r in range(7)]

    @property
    def number(self) -> int | None:
        return self._number

    @property
    def rules(self) -> Rules | None:
        return self._rules

    @property
    def code(self) -> str | None:
        """``PY1-<letter>-<number>``; None for a deal given only as a card list."""
        if self._number is None:
            return None
        letter = self._rules.letter if self._rules is not None else CUSTOM_LETTER
        return f"{CODE_VERSION}-{letter}-{number_to_letters(self._number)}"

    def to_cards(self, symbols: bool = False) -> str:
        """The 52 tokens in spec order, space-separated (``10♦`` forms with ``symbols``)."""
        return format_cards(self._cards, symbols=symbols)

    def to_dict(self) -> dict[str, Any]:
        """The layout as JSON-ready data."""
        return {
            "code": self.code,
            "number": self._number,
            "rules": None if self._rules is None else self._rules.name,
            "pyramid": [[c.token for c in row] for row in self.rows],
            "talon": [c.token for c in self.talon],
            "cards": self.to_cards(),
        }

    # ---- value semantics --------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return (self._cards, self._number, self._rules) == (
            other._cards,
            other._number,
            other._rules,
        )

    def __hash__(self) -> int:
        return hash((self._cards, self._number, self._rules))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_deal, (tuple(map(int, self._cards)), self._number, self._rules))

    def __repr__(self) -> str:
        if self._number is not None and self._rules is not None:
            return f"Deal.from_code({self.code!r})"
        if self._number is not None:
            return f"Deal.from_number({self._number}, rules=None)"
        return f"Deal.from_cards({self.to_cards()!r})"

    def __str__(self) -> str:
        return self.code or self.to_cards()


def _number_of(cards: tuple[Card, ...], number: object) -> int:
    """``number``, checked: a deal number whose shuffle deals exactly ``cards``."""
    n = _deal_number(number)
    dealt = tuple(deal_cards(n))
    if dealt != cards:
        raise ValueError(
            f"number {n:,} does not deal these cards (deal {n:,} starts "
            f"{format_cards(dealt[:4])}, these start {format_cards(cards[:4])}): "
            "a deal's number names its shuffle; give the cards alone for a "
            f"layout without a number, or Deal.from_number({n})"
        )
    return n


def _deal(cards: tuple[int, ...], number: int | None, rules: Rules | None) -> Deal:
    """An unpickled Deal (its number checked against its cards like the constructor's)."""
    d = Deal.__new__(Deal)
    d._cards = tuple(CARDS[c] for c in cards)
    d._number = None if number is None else _number_of(d._cards, number)
    d._rules = rules
    return d


def codes_of(numbers: np.ndarray, rules: Rules) -> np.ndarray:
    """The deal codes (``PY1-<letter>-<7 letters>``, numpy ``<U13``) of deal numbers under
    ``rules``, without a Python loop (docs/deal-codes.md: the number in base 26, A = 0): what
    :attr:`Deal.code` says of each."""
    x = np.array(numbers, dtype=np.uint64).ravel()
    raw = np.empty((x.size, 13), np.uint8)
    raw[:, :4] = np.frombuffer(f"{CODE_VERSION}-".encode(), np.uint8)
    raw[:, 4] = ord(rules.letter)
    raw[:, 5] = ord("-")
    for k in range(12, 5, -1):
        raw[:, k] = (x % 26).astype(np.uint8) + ord("A")
        x //= 26
    return raw.view("S13").ravel().astype("U13")
