"""How every entry point reads deals: one validation path, so that nothing reaches the core
that the core cannot handle.

A deal can be given as a :class:`Deal`, a deal code (``"PY1-M-AAAAAAS"``), a card list (text
of 52 tokens, or a sequence of 52 tokens or card indices), or a deal number. Many deals can
be given as a sequence of those, a ``range`` or a 1-D integer numpy array of deal numbers, or
a 2-D integer numpy array of decks (one row of 52 card indices per deal).

Rules: a deal code names its rule set by its letter, and that is binding. With no ``rules=``
the codes' rules are used (all the codes of one batch must agree); an explicit ``rules=``
that differs from a code's raises. A :class:`Deal` object is a layout that can be played
under any rules: an explicit ``rules=`` renames it (its code follows the rules played).
Deal numbers and card lists take ``rules=``, else ``pyramide``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from pyramid_core.shuffle import MAX_DEAL_NUMBER
from pyramid_core.shuffle import decks as _shuffle_decks

from ..model.cards import parse_cards
from ..model.deal import Deal, looks_like_code
from ..model.reading import (
    _deck_list,
    _explicit,
    _number,
    _read_code,
    deal_number_of,
    read_deal,
)
from ..model.rules import Rules
from ..runtime.args import excerpt

# read_deal and deal_number_of belong to the model (model/reading.py reads one deal); they are
# named here too, beside the readers of many deals
__all__ = ["DealBatch", "deal_number_of", "read_deal", "read_deals"]


@dataclass(frozen=True)
class DealBatch:
    """Many deals, validated, as the core takes them.

    ``numbers``: the deal numbers (uint64) when every deal is a numbered one, else None.
    ``keys``: uint64 per row, the deal number or, for a deal given as a card list, its row;
    the random policy seeds each game from it. ``rules``: the one rule set of the batch.
    ``numbered``: bool per row. ``layouts``: the (n, 52) uint8 decks when some deal has no
    number (each row a permutation of 0..51), else None: numbered deals are shuffled chunk by
    chunk (:meth:`decks_of`), so a batch of numbers costs 8 bytes a deal."""

    numbers: np.ndarray | None
    keys: np.ndarray
    rules: Rules
    numbered: np.ndarray
    layouts: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def decks_of(self, lo: int, hi: int) -> np.ndarray:
        """Rows lo..hi-1 as an (hi - lo, 52) uint8 array of decks."""
        if self.layouts is not None:
            return self.layouts[lo:hi]
        assert self.numbers is not None  # (no layouts: every deal is a numbered one)
        out = np.empty((hi - lo, 52), dtype=np.uint8)
        _shuffle_decks(np.ascontiguousarray(self.numbers[lo:hi]), out)
        return out

    @property
    def decks(self) -> np.ndarray:
        return self.decks_of(0, len(self))

    def name(self, i: int) -> str:
        """Deal i's code, or its card list."""
        if self.numbered[i]:
            code = Deal.from_number(int(self.keys[i]), rules=self.rules).code
            assert code is not None  # (a numbered deal has its code)
            return code
        return Deal.from_cards(self.decks_of(i, i + 1)[0].tolist()).to_cards()

    def describe(self, limit: int = 20) -> dict[str, Any]:
        """The deals as JSON-ready data: a range of numbers, or a list (shortened past
        ``limit``)."""
        n = len(self)
        if self.numbers is not None:
            nums = self.numbers
            if n > 1 and bool(np.all(np.diff(nums.astype(np.int64)) == 1)) or n == 1:
                return {"count": n, "first": int(nums[0]), "last": int(nums[-1])}
            listed = [int(x) for x in nums[:limit]]
            return {"count": n, "numbers": listed, **({"more": n - limit} if n > limit else {})}
        names = [self.name(i) for i in range(min(n, limit))]
        return {"count": n, "deals": names, **({"more": n - limit} if n > limit else {})}


def _numbers_array(arr: np.ndarray) -> np.ndarray:
    if arr.size == 0:
        raise ValueError("deals is empty: give at least one deal")
    if arr.dtype.kind == "i" and int(arr.min()) < 0:
        raise ValueError(
            f"deal numbers must be 0..{MAX_DEAL_NUMBER:,}, got {int(arr.min()):,} "
            f"(deal {int(np.argmin(arr)) + 1})"
        )
    if int(arr.max()) > MAX_DEAL_NUMBER:
        raise ValueError(
            f"deal numbers must be 0..{MAX_DEAL_NUMBER:,}, got {int(arr.max()):,} "
            f"(deal {int(np.argmax(arr)) + 1})"
        )
    return np.ascontiguousarray(arr, dtype=np.uint64)


def check_decks(arr: np.ndarray) -> np.ndarray:
    """A 2-D integer array of decks, checked row by row: 52 columns, each row the card
    indices 0..51 once each. Returns it as contiguous uint8."""
    if arr.ndim != 2 or arr.shape[1] != 52:
        raise ValueError(
            f"a deck array has one row of 52 card indices per deal, got shape {arr.shape}"
        )
    if arr.shape[0] == 0:
        raise ValueError("deals is empty: give at least one deal")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"a deck array holds whole card indices 0..51, got {arr.dtype}")
    low, high = int(arr.min()), int(arr.max())
    if low < 0 or high > 51:
        bad = np.argwhere((arr < 0) | (arr > 51))[0]
        raise ValueError(
            f"deck {bad[0] + 1}: column {bad[1] + 1} holds {int(arr[tuple(bad)])}, "
            "not a card index 0..51"
        )
    decks = np.ascontiguousarray(arr, dtype=np.uint8)
    ok = (np.sort(decks, axis=1) == np.arange(52, dtype=np.uint8)).all(axis=1)
    if not ok.all():
        row = int(np.flatnonzero(~ok)[0])
        counts = np.bincount(decks[row], minlength=52)
        twice = int(np.flatnonzero(counts > 1)[0])
        from ..model.cards import CARDS

        raise ValueError(
            f"deck {row + 1}: card {CARDS[twice].token} (index {twice}) appears "
            f"{int(counts[twice])} times; each of the 52 cards must appear once"
        )
    return decks


def read_deals(deals: Any, rules: Any = None) -> DealBatch:
    """Many deals (see the module's docstring), validated, under one rule set (a DealBatch
    read already is given back, when its rules are those asked for)."""
    explicit = _explicit(rules)
    if isinstance(deals, DealBatch):
        if explicit is not None and explicit != deals.rules:
            raise ValueError(
                f"these deals were read under the {deals.rules.name} rules, not {explicit.name}"
            )
        return deals
    if isinstance(deals, range):
        if len(deals) == 0:
            raise ValueError("deals is empty: give at least one deal")
        if deals.start < 0 or deals[-1] < 0 or max(deals.start, deals[-1]) > MAX_DEAL_NUMBER:
            raise ValueError(f"deal numbers must be 0..{MAX_DEAL_NUMBER:,}, got {excerpt(deals)}")
        deals = np.arange(deals.start, deals.stop, deals.step, dtype=np.int64)
    if isinstance(deals, np.ndarray) and deals.ndim == 0:
        raise ValueError(
            f"deals must be a sequence or an array of deals, got a 0-d array "
            f"{_excerpt_array(deals)} (wrap one deal in a list)"
        )
    if isinstance(deals, np.ndarray) and deals.dtype.kind != "O":
        if deals.dtype.kind not in "iu":
            raise ValueError(
                f"deals as an array are integer deal numbers (1-D) or decks "
                f"(2-D, 52 columns), got an array of {deals.dtype}"
            )
        if deals.ndim == 2:
            decks = check_decks(deals)
            rows = np.arange(len(decks), dtype=np.uint64)
            return DealBatch(None, rows, explicit or Rules(), np.zeros(len(decks), np.bool_), decks)
        if deals.ndim != 1:
            raise ValueError(
                f"deals as an array are 1-D (deal numbers) or 2-D (decks), got shape {deals.shape}"
            )
        numbers = _numbers_array(deals)
        return _numbered(numbers, explicit or Rules())
    if isinstance(deals, (str, bytes, Deal, dict)) or _number(deals) is not None:
        raise ValueError(
            "deals is a sequence of deals (codes, card lists, Deals or deal "
            f"numbers) or an array; got one {type(deals).__name__}: "
            f"{excerpt(deals)} (wrap it in a list)"
        )
    if not isinstance(deals, Iterable):
        raise ValueError(f"deals must be a sequence or an array of deals, got {excerpt(deals)}")
    return _read_items(deals, explicit)


def _excerpt_array(arr: np.ndarray) -> str:
    try:
        return excerpt(arr.item())
    except Exception:  # pragma: no cover - an odd dtype
        return f"of {arr.dtype}"


def _numbered(numbers: np.ndarray, rules: Rules) -> DealBatch:
    return DealBatch(numbers, numbers, rules, np.ones(len(numbers), np.bool_))


def _read_items(deals: Iterable[Any], explicit: Rules | None) -> DealBatch:
    numbers: list[int] = []  # per row: the deal number, or -1
    cards: dict[int, list[int]] = {}  # row -> the layout of a deal without a number
    named: Rules | None = None  # the rules the codes and Deals name
    named_at = ""
    from ..model.game import Game

    for i, item in enumerate(deals):
        where = f"deal {i + 1}"
        try:
            if isinstance(item, Game):
                item = item.deal
            if isinstance(item, str) and looks_like_code(item):
                number, own = _read_code(item, explicit)
                numbers.append(number)
            elif isinstance(item, Deal):
                own = item.rules  # (None: a layout naming no rules, played as the rest)
                numbers.append(-1 if item.number is None else item.number)
                if item.number is None:
                    cards[i] = [int(c) for c in item.cards]
            else:
                own = None
                n = _number(item)
                if n is not None:
                    numbers.append(n)
                else:
                    if isinstance(item, np.ndarray):
                        item = _deck_list(item)
                    if not isinstance(item, (str, list, tuple)):
                        raise ValueError(
                            "a deal is a Deal, a deal code, a card list or a deal "
                            f"number, got {excerpt(item)}"
                        )
                    numbers.append(-1)
                    cards[i] = [int(c) for c in parse_cards(item)]
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
        if own is not None and explicit is None:
            if named is None:
                named, named_at = own, where
            elif own != named:
                raise ValueError(
                    f"{named_at} names the {named.name} rules and {where} the "
                    f"{own.name} rules: one call plays one rule set (solve them "
                    "apart, or pass rules=)"
                )
    if not numbers:
        raise ValueError("deals is empty: give at least one deal")
    rules = explicit or named or Rules()
    nums = np.array(numbers, dtype=np.int64)
    numbered = nums >= 0
    if numbered.all():
        return _numbered(nums.astype(np.uint64), rules)
    decks = np.empty((len(nums), 52), dtype=np.uint8)
    if numbered.any():
        sub = np.empty((int(numbered.sum()), 52), dtype=np.uint8)
        _shuffle_decks(nums[numbered].astype(np.uint64), sub)
        decks[numbered] = sub
    for row, layout in cards.items():
        decks[row] = layout
    keys = np.where(numbered, nums, np.arange(len(nums))).astype(np.uint64)
    return DealBatch(None, keys, rules, numbered, decks)
