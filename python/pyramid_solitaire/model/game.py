"""A game in progress: legal moves, play, undo, status and views of the table.

>>> game = Game("PY1-N-AAAAAAS")
>>> " ".join(map(str, game.free_cards)), str(game.waste[-1])
('5d Kc 2s Jh 3d Th As', 'Tc')
>>> game.play("Kc"); game.play("3d+Tc"); game.status
<Status.PLAYING: 'playing'>
>>> game.play("Th+3s")
Traceback (most recent call last):
...
pyramid_solitaire.model.game.IllegalMoveError: Th+3s: 3s is in the stock (the next card to draw ...
>>> game.undo()
Move('3d+Tc')
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any

from pyramid_core import geometry
from pyramid_core.position import (
    DRAW,
    DRAW_MOVE,
    KING_MOVE,
    NONE,
    PAIR_MOVE,
    RECYCLE,
    RECYCLE_MOVE,
    TALON,
    WHY,
    Table,
)

from ..runtime.args import excerpt
from .cards import CARDS, Card
from .deal import Deal
from .move import Move
from .reading import read_deal
from .reasons import reason_text
from .rules import Rules


def move_of_code(cards: Any, code: int) -> Move:
    """The Move an engine move code makes on a deal whose cards by location are ``cards``
    (a code names locations: ``a | b << 6``, pyramid_core/position.pxd)."""
    a, b = code & 63, code >> 6
    if a == NONE:
        return Move.DRAW if code == DRAW else Move.RECYCLE
    card_a = CARDS[int(cards[a])]  # (the engine's move: legal, nothing to check)
    if b == NONE:
        return Move._of("king", (card_a,))
    return Move._of("pair", (card_a, CARDS[int(cards[b])]))


def card_code(move: Move) -> int:
    """A move's code by its cards (``a | b << 6`` with a, b the cards, as the core writes a
    line with ``by_cards``; the draw and recycle codes as they are): what
    ``move_of_code(CARDS, code)`` reads back, a pair's cards in the order they have."""
    if not move.cards:
        return DRAW if move.kind == "draw" else RECYCLE
    b = NONE if len(move.cards) == 1 else int(move.cards[1])
    return int(move.cards[0]) | b << 6


_KEYED: dict[str, Any] = {}


def keyed_moves(form: str) -> Any:
    """Every move's ``form`` ("text": str(move); "symbols": move.symbols()) by its
    :func:`card_code` (a numpy object array of 4,096, "" where no move has the code), to
    write many lines of card codes at once. Built once, with move_of_code."""
    if form not in _KEYED:
        import numpy as np

        texts = [""] * 4096
        for code in range(4096):
            a, b = code & 63, code >> 6
            if (a < 52 and (b < 52 or b == NONE)) or code in (DRAW, RECYCLE):
                move = move_of_code(CARDS, code)
                texts[code] = str(move) if form == "text" else move.symbols()
        _KEYED[form] = np.array(texts, dtype=object)
    return _KEYED[form]


class Status(str, Enum):
    """Where a game stands (docs/rules.md, "End of the game")."""

    PLAYING = "playing"
    WON = "won"
    NO_MOVES = "no moves"

    def __str__(self) -> str:
        return self.value


_STATUS = {0: Status.PLAYING, 1: Status.WON, 2: Status.NO_MOVES}


class IllegalMoveError(ValueError):
    """A move that is not legal in the current position; the message says why."""


class Game:
    """One game of a deal under a rule set.

    ``deal`` is a :class:`Deal`, a deal code, a card list (text, or a list of tokens or card
    indices), a deal number, or None for a random deal; ``rules`` a :class:`Rules`, preset
    name or dict (default: the deal's rules, else ``pyramide``). A code's rules letter is
    binding: other ``rules`` raise (see :mod:`pyramid_solitaire.model.reading`).
    """

    def __init__(self, deal: Deal | str | None = None, rules: Rules | str | None = None) -> None:
        if deal is None:
            deal = Deal.random(rules=Rules.coerce(rules))
        self._deal = read_deal(deal, rules)
        assert self._deal.rules is not None  # (read_deal resolves the rules)
        self._rules: Rules = self._deal.rules
        self._table = Table([int(c) for c in self._deal.cards], **self._rules.core_options())
        self._loc = {card: loc for loc, card in enumerate(self._deal.cards)}
        self._pos: int = self._table.start()
        self._history: list[tuple[int, Move]] = []  # (position before, move)
        self._seen0 = 0  # talon cards seen before the history (a batch's game: GameBatch.game)
        self._codes: list[int] | None = None

    # ---- identity ---------------------------------------------------------------------------
    @property
    def deal(self) -> Deal:
        return self._deal

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def code(self) -> str | None:
        """The deal code (None for a deal given as a card list)."""
        return self._deal.code

    @property
    def position(self) -> int:
        """The engine's position word (see pyramid_core/position.pxd)."""
        return self._pos

    # ---- moves ------------------------------------------------------------------------------
    def _legal_codes(self) -> list[int]:
        if self._codes is None:
            self._codes = self._table.moves(self._pos)
        return self._codes

    def _to_move(self, code: int) -> Move:
        return move_of_code(self._deal.cards, code)

    def _to_code(self, move: Move) -> int:
        if move.kind == "draw":
            return DRAW
        if move.kind == "recycle":
            return RECYCLE
        locs = sorted(self._loc[c] for c in move.cards)
        return locs[0] | ((locs[1] if len(locs) == 2 else NONE) << 6)

    @property
    def legal_moves(self) -> list[Move]:
        """Every legal move: Kings, pyramid pairs, pairs with talon cards, draw or recycle."""
        return [self._to_move(c) for c in self._legal_codes()]

    def is_legal(self, move: Move | str) -> bool:
        try:
            move = Move.parse(move)
        except ValueError:
            return False
        return self._to_code(move) in self._legal_codes()

    def play(self, move: Move | str) -> None:
        """Play ``move`` (a :class:`Move` or its text); IllegalMoveError says why not."""
        try:
            move = Move.parse(move)
        except ValueError as e:
            raise IllegalMoveError(str(e)) from None
        code = self._to_code(move)
        if code not in self._legal_codes():
            raise IllegalMoveError(f"{move}: {self._why_illegal(move)}")
        self._history.append((self._pos, move))
        self._pos = self._table.apply(self._pos, code)
        self._codes = None

    def play_all(self, moves: Iterable[Move | str]) -> None:
        """Play several moves; on an illegal one, nothing after it is played."""
        if isinstance(moves, str):
            moves = moves.replace(",", " ").split()  # "Kc 3d+Tc draw"
        elif not isinstance(moves, Iterable):
            raise IllegalMoveError(f"play_all takes a sequence of moves, got {excerpt(moves)}")
        for i, m in enumerate(moves):
            try:
                self.play(m)
            except IllegalMoveError as e:
                raise IllegalMoveError(f"move {i + 1}: {e}") from None

    def undo(self) -> Move:
        """Take back the last move and return it; IndexError when there is none."""
        if not self._history:
            raise IndexError("no move to undo")
        self._pos, move = self._history.pop()
        self._codes = None
        return move

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, first first."""
        return [m for _, m in self._history]

    # ---- status -----------------------------------------------------------------------------
    @property
    def status(self) -> Status:
        if self._table.status(self._pos) == 1:
            return Status.WON
        return Status.PLAYING if self._legal_codes() else Status.NO_MOVES

    @property
    def is_over(self) -> bool:
        return self.status is not Status.PLAYING

    @property
    def is_won(self) -> bool:
        return self.status is Status.WON

    # ---- views ------------------------------------------------------------------------------
    def _pyr_mask(self) -> int:
        return Table.pyramid_mask(self._pos)

    @property
    def pyramid(self) -> list[Card | None]:
        """The 28 pyramid places (row-major from the top): the card, or None once removed."""
        mask = self._pyr_mask()
        return [c if (mask >> i) & 1 else None for i, c in enumerate(self._deal.pyramid)]

    @property
    def free_mask(self) -> int:
        return self._table.free(self._pos)

    @property
    def free_cards(self) -> list[Card]:
        """Pyramid cards with both covering cards gone, in place order."""
        free = self.free_mask
        return [c for i, c in enumerate(self._deal.pyramid) if (free >> i) & 1]

    def _talon_cards(self, idx: Iterable[int]) -> list[Card]:
        return [self._deal.cards[TALON + t] for t in idx]

    @property
    def stock(self) -> list[Card]:
        """Cards in the stock, the next to draw first."""
        return self._talon_cards(self._table.stock(self._pos))

    @property
    def waste_piles(self) -> list[list[Card]]:
        """The waste, bottom to top: one pile (draw 1) or three (draw 3)."""
        return [self._talon_cards(p) for p in self._table.waste_piles(self._pos)]

    @property
    def waste(self) -> list[Card]:
        """All waste cards in the order they were drawn (the last is the top under draw 1)."""
        cur, talon = Table.cursor(self._pos), Table.talon_mask(self._pos)
        return self._talon_cards(t for t in range(cur) if (talon >> t) & 1)

    @property
    def available(self) -> list[Card]:
        """Talon cards that may be played now: the waste top(s), and the stock top when
        ``stock_top_playable``."""
        return self._talon_cards(self._table.available(self._pos))

    @property
    def playable_cards(self) -> list[Card]:
        """Free pyramid cards and available talon cards."""
        return self.free_cards + self.available

    @property
    def seen_mask(self) -> int:
        """The talon cards a player has seen so far, as bits by talon index: every card
        turned face up (under draw 3 each card of a turned three), and the stock's top where
        it is playable; a seen card stays known after a recycle (docs/rules.md, "What a
        player sees"). Pyramid cards are always seen."""
        seen = self._seen0
        for pos, _ in self._history:
            seen = self._table.seen(pos, seen)
        return int(self._table.seen(self._pos, seen))

    @property
    def unseen(self) -> list[Card]:
        """The cards a player has not seen yet (face-down talon cards never turned), in
        card order: what a fair player knows is only that they are somewhere in the stock."""
        hidden = Table.talon_mask(self._pos) & ~self.seen_mask
        return sorted(self._deal.cards[TALON + t] for t in range(24) if (hidden >> t) & 1)

    @property
    def removed(self) -> list[Card]:
        """Removed cards, in the order they went."""
        return [c for _, m in self._history for c in m.cards]

    def _still_removed(self, card: Card) -> bool:
        loc = self._loc[card]
        if loc < TALON:
            return not (self._pyr_mask() >> loc) & 1
        return not (Table.talon_mask(self._pos) >> (loc - TALON)) & 1

    @property
    def pyramid_left(self) -> int:
        return bin(self._pyr_mask()).count("1")

    @property
    def pyramid_removed(self) -> int:
        return 28 - self.pyramid_left

    @property
    def recycles_used(self) -> int:
        """Recycles done so far (counted only under a finite redeal limit)."""
        if self._rules.redeals == "unlimited":
            return sum(1 for _, m in self._history if m.kind == "recycle")
        return Table.recycles(self._pos)

    @property
    def recycles_left(self) -> int | None:
        """Recycles still allowed; None under unlimited redeals."""
        if self._rules.redeals == "unlimited":
            return None
        return int(self._rules.redeals) - Table.recycles(self._pos)

    # ---- explaining ------------------------------------------------------------------------
    def where(self, card: Card | str) -> str:
        """``"pyramid"``, ``"waste"``, ``"stock"`` or ``"removed"``."""
        card = Card(card)
        loc = self._loc[card]
        if self._still_removed(card):
            return "removed"
        if loc < TALON:
            return "pyramid"
        return "waste" if loc - TALON < Table.cursor(self._pos) else "stock"

    def _why_illegal(self, move: Move, lang: str = "en") -> str:
        """Why ``move`` is not legal here, in words (``lang``: en or vi)."""
        reason, args = self._why_illegal_reason(move)
        return reason_text(reason, lang, **args)

    def _why_illegal_reason(self, move: Move) -> tuple[str, dict[str, Any]]:
        """Why ``move`` is not legal here: a reason code of :mod:`.reasons` and its args. The
        engine decides which reason (position.pxd's pos_why_illegal, beside the move
        generator, so that it follows the rules played); here only its words' arguments
        are gathered."""
        status = self.status
        if status is not Status.PLAYING:
            return "move_game_over", {"status": status}
        kind = {"king": KING_MOVE, "pair": PAIR_MOVE, "draw": DRAW_MOVE}.get(
            move.kind, RECYCLE_MOVE
        )
        why, index = self._table.why_illegal(self._pos, kind, [int(c) for c in move.cards])
        reason = WHY[why]
        if index < 0:
            return reason, (
                {"redeals": self._rules.redeals} if reason == "recycle_none_left" else {}
            )
        card = Card(index)
        if reason in ("card_covered_by", "card_blocked"):
            covers = [
                self._deal.cards[i]
                for i in geometry.covers(self._loc[card])
                if (self._pyr_mask() >> i) & 1
            ]
            if reason == "card_covered_by":
                return reason, {"card": card, "other": covers[0]}
            return reason, {"card": card, "covers": covers}
        if reason in ("stock_top_not_playable", "card_in_stock"):
            return reason, {"card": card, "next": self.stock[0]}
        if reason in ("waste_top_two", "waste_under"):
            piles = [p for p in self.waste_piles if card in p]
            return reason, {"card": card, "top": piles[0][-1] if piles else None}
        return reason, {"card": card}

    # ---- copying, pickling, display ---------------------------------------------------------
    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._history = list(self._history)
        return g

    def __copy__(self) -> Game:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self._deal, self._rules, [str(m) for m in self.moves]))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self._deal.cards, self._rules, self._pos, self.moves) == (
            other._deal.cards,
            other._rules,
            other._pos,
            other.moves,
        )

    __hash__ = None  # type: ignore[assignment]  # games change as they are played

    def __repr__(self) -> str:
        name = self.code or "card list"
        return (
            f"<Game {name} {self._rules.name}: {self.status}, {len(self._history)} moves, "
            f"{self.pyramid_left} pyramid cards left>"
        )

    def __str__(self) -> str:
        from .render import table_text

        return table_text(self)

    def _repr_svg_(self) -> str:
        from .render import table_svg

        return table_svg(self)


def _restore(deal: Deal, rules: Rules, moves: list[str]) -> Game:
    g = Game(deal, rules)
    g.play_all(moves)
    return g
