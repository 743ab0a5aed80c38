"""One deal from anything a user hands in, with the rules it is played under: the single-deal
entry points (``Game``, ``solve``, ``replay``) read deals through :func:`read_deal`, and the
readers of many deals (:mod:`pyramid_solitaire.inputs.deals`) share its checks of numbers
and codes.

A deal can be given as a :class:`Deal`, a deal code (``"PY1-M-AAAAAAS"``), a card list (text
of 52 tokens, or a sequence of 52 tokens or card indices), or a deal number. A deal code
names its rule set by its letter, and that is binding: an explicit ``rules=`` that differs
raises. A :class:`Deal` object is a layout that can be played under any rules: an explicit
``rules=`` renames it (its code follows the rules played), and one that names no rules
(made from cards and a number, or from an ``X`` code) plays under ``pyramide``, as the same
cards without a number do. Deal numbers (an int, or its digits as text: ``"18"``,
``"1_000"``) and card lists take ``rules=``, else ``pyramide``.
"""

from __future__ import annotations

import operator
import re
from typing import Any

import numpy as np

from pyramid_core.shuffle import MAX_DEAL_NUMBER

from ..runtime.args import excerpt, whole
from .deal import Deal, code_rules, looks_like_code, parse_code
from .rules import Rules

__all__ = ["deal_number_of", "read_deal"]

#: A deal number as text: ASCII digits, underscores only between them.
_DEAL_NUMBER = re.compile(r"[0-9](?:_?[0-9])*")
#: Text meant as a number that is no deal number: a sign, a decimal point, an exponent,
#: separators (no card token, code or card list looks like this).
_NUMBER_LIKE = re.compile(
    r"[+-]?(?:[0-9][0-9_.,]*|[.][0-9][0-9_.,]*)(?:[eE][+-]?[0-9_]*)?|[+-][0-9][0-9a-z_.,]*",
    re.IGNORECASE,
)


def _explicit(rules: Any) -> Rules | None:
    return None if rules is None else Rules.coerce(rules)


def _number(value: Any) -> int | None:
    """A deal number from an int-like (not bool); None when ``value`` is not one."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        n = operator.index(value)
    except TypeError:
        return None
    if not 0 <= n <= MAX_DEAL_NUMBER:
        raise ValueError(
            f"a deal number is a whole number 0..{MAX_DEAL_NUMBER:,}, got {excerpt(n)}"
        )
    return n


def deal_number_of(value: Any) -> int | None:
    """The deal number ``value`` names when it is one: an int (not a bool), or a text of
    ASCII digits, as the command line and ``stats --deal`` take them (0..MAX_DEAL_NUMBER,
    else ValueError); None for anything else (a code, a card list)."""
    if isinstance(value, str):
        text = value.strip()
        if text.isdigit() and text.isascii() and len(text) < 12:  # (the common case)
            number = int(text)
            if number <= MAX_DEAL_NUMBER:
                return number
        if _DEAL_NUMBER.fullmatch(text):
            return whole("a deal number", text, 0, MAX_DEAL_NUMBER)
        if _NUMBER_LIKE.fullmatch(text):  # "-1", "18.0", "1e3", "1,000": meant as a number
            raise ValueError(
                f"a deal number is a whole number 0..{MAX_DEAL_NUMBER:,} in digits "
                f"(underscores between them allowed, as in 1_000), got {excerpt(text)}"
            )
        return None
    return _number(value)


def _read_code(text: str, explicit: Rules | None) -> tuple[int, Rules | None]:
    """A code's deal number and the rules its letter names, checked against ``rules=``."""
    number, letter = parse_code(text)
    named = Rules.from_letter(letter)
    code_rules(text, named, explicit)
    return number, named


def _deck_list(arr: np.ndarray) -> list[Any]:
    """One deal given as a numpy array: its 52 card indices as a list."""
    if arr.ndim != 1 or arr.dtype.kind not in "iuO":
        raise ValueError(
            f"a deal as an array is 52 card indices, got an array of {arr.dtype} "
            f"with shape {arr.shape}"
        )
    return list(arr.tolist())


def read_deal(deal: Any, rules: Any = None) -> Deal:
    """One deal, with the rules it is played under resolved (``deal.rules`` is never None):
    the single-deal entry points (``Game``, ``solve``, ``replay``) read deals through this.
    None is refused (only ``Game()`` deals a random deal when given none)."""
    if deal is None:
        raise ValueError(
            "deal must be a Deal, a deal code such as PY1-N-AAAAAAS, a card list "
            "or a deal number, got None (for a random deal: Deal.random())"
        )
    explicit = _explicit(rules)
    if isinstance(deal, Deal):
        if explicit is not None:
            return deal if deal.rules == explicit else deal.with_rules(explicit)
        if deal.rules is not None:
            return deal
        # a layout that names no rules (numbered or not, as from an X code): the same cards
        # play the same way, under pyramide
        return deal.with_rules(Rules())
    if isinstance(deal, str):
        number = deal_number_of(deal)  # digits; "-1" or "18.0" is refused as a deal number
        if number is not None:
            return Deal.from_number(number, rules=explicit or Rules())
        if looks_like_code(deal):
            number, named = _read_code(deal, explicit)
            return Deal.from_number(number, rules=explicit or named)
        return Deal.from_cards(deal, rules=explicit or Rules())
    given = _number(deal)
    if given is not None:
        return Deal.from_number(given, rules=explicit or Rules())
    if isinstance(deal, np.ndarray):
        return Deal.from_cards(_deck_list(deal), rules=explicit or Rules())
    if isinstance(deal, (list, tuple)):
        return Deal.from_cards(deal, rules=explicit or Rules())
    raise ValueError(
        "deal must be a Deal, a deal code such as PY1-N-AAAAAAS, a card list or "
        f"a deal number, got {excerpt(deal)}"
    )
