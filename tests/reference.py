"""A small pure-Python model of the Pyramid rules, written from docs/rules.md.

It is deliberately naive (plain sets and lists, no bit tricks, nothing shared with the Cython
core) so that it can serve as an oracle in the differential tests. Moves are expressed in terms
of CARDS, never locations:

    ("king", card)                     a King removed alone
    ("pair", frozenset({c1, c2}))      two cards summing to 13 removed together
    ("draw",)                          draw from the stock
    ("recycle",)                       turn the waste over into the stock

Cards are indices 0..51: rank c % 13 + 1, suit c // 13 (docs/rules.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

N_PYRAMID = 28
N_TALON = 24
KING = 13
UNLIMITED = 255

DRAW = ("draw",)
RECYCLE = ("recycle",)


def rank(card: int) -> int:
    return card % 13 + 1


# ---- pyramid geometry (docs/rules.md), as (row, column) arithmetic --------------------------

ROW_COL = [(r, k) for r in range(7) for k in range(r + 1)]  # index -> (row, column)
INDEX = {rc: i for i, rc in enumerate(ROW_COL)}  # (row, column) -> index


def covers(i: int) -> list[int]:
    """The pyramid positions covering position i: (r+1, k) and (r+1, k+1); none on row 6."""
    r, k = ROW_COL[i]
    if r == 6:
        return []
    return [INDEX[(r + 1, k)], INDEX[(r + 1, k + 1)]]


def above(i: int) -> set[int]:
    """Positions i covers, directly or not (they wait for i to go)."""
    out = set()
    for j in range(28):
        stack = list(covers(j))
        while stack:
            c = stack.pop()
            if c == i:
                out.add(j)
                break
            stack.extend(covers(c))
    return out


# ---- rules ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    waste_at_deal: int = 1
    draw: int = 1
    redeals: int = UNLIMITED  # UNLIMITED (255) = recycle without limit
    win_all: bool = False
    stock_top_playable: bool = False
    pair_waste_top_two: bool = False
    pair_with_covering: bool = False

    def __post_init__(self):
        assert self.waste_at_deal in (0, 1)
        assert self.draw in (1, 3)
        if self.draw == 3:
            assert self.redeals == 0 and not self.stock_top_playable and not self.pair_waste_top_two

    def kwargs(self) -> dict:
        """Keyword arguments for pyramid_core.position.Table."""
        return dict(
            waste_at_deal=self.waste_at_deal,
            draw=self.draw,
            redeals=self.redeals,
            win_all=self.win_all,
            stock_top_playable=self.stock_top_playable,
            pair_waste_top_two=self.pair_waste_top_two,
            pair_with_covering=self.pair_with_covering,
        )


PRESETS = {
    "pyramide": Rules(waste_at_deal=1, draw=1, redeals=UNLIMITED),
    "three-pass": Rules(waste_at_deal=0, draw=1, redeals=2),
    "unlimited": Rules(waste_at_deal=0, draw=1, redeals=UNLIMITED),
    "classic": Rules(waste_at_deal=0, draw=1, redeals=0),
    "classic-draw3": Rules(waste_at_deal=0, draw=3, redeals=0),
    "msc": Rules(waste_at_deal=0, draw=1, redeals=2, stock_top_playable=True),
}


# ---- state ----------------------------------------------------------------------------------


@dataclass
class State:
    rules: Rules
    deck: tuple  # the deal: 52 card indices
    pyramid: dict  # position -> card, present cards only
    stock: list  # cards, the next to draw first
    waste: list  # draw 1: [pile]; draw 3: [pile1, pile2, pile3]
    recycles: int = 0  # recycles used so far
    removed: set = field(default_factory=set)

    def copy(self) -> State:
        return State(
            self.rules,
            self.deck,
            dict(self.pyramid),
            list(self.stock),
            [list(p) for p in self.waste],
            self.recycles,
            set(self.removed),
        )

    def key(self):
        """Hashable value of everything that matters for the rest of the game."""
        rec = 0 if self.rules.redeals == UNLIMITED else self.recycles
        return (
            frozenset(self.pyramid.items()),
            tuple(self.stock),
            tuple(tuple(p) for p in self.waste),
            rec,
        )


def deal(deck, rules: Rules) -> State:
    deck = tuple(deck)
    assert sorted(deck) == list(range(52))
    pyramid = {i: deck[i] for i in range(N_PYRAMID)}
    talon = list(deck[N_PYRAMID:])
    n_piles = 1 if rules.draw == 1 else 3
    waste = [[] for _ in range(n_piles)]
    # Cards turned onto the waste at the deal lie on (the first) waste pile.
    waste[0].extend(talon[: rules.waste_at_deal])
    stock = talon[rules.waste_at_deal :]
    return State(rules, deck, pyramid, stock, waste)


def free_positions(s: State) -> set:
    """Present pyramid positions with no covering card present."""
    return {i for i in s.pyramid if all(c not in s.pyramid for c in covers(i))}


def free_cards(s: State) -> set:
    return {s.pyramid[i] for i in free_positions(s)}


def waste_tops(s: State) -> list:
    return [p[-1] for p in s.waste if p]


def talon_available(s: State) -> set:
    """Available talon cards: the top of each waste pile, plus the stock top if playable."""
    av = set(waste_tops(s))
    if s.rules.stock_top_playable and s.stock:
        av.add(s.stock[0])
    return av


def available(s: State) -> set:
    return free_cards(s) | talon_available(s)


def won(s: State) -> bool:
    if s.rules.win_all:
        return len(s.removed) == 52
    return not s.pyramid


def can_recycle(s: State) -> bool:
    return (
        not s.stock
        and any(s.waste)
        and (s.rules.redeals == UNLIMITED or s.recycles < s.rules.redeals)
    )


def legal_moves(s: State) -> set:
    """Every legal move (docs/rules.md); a won game has none."""
    if won(s):
        return set()
    moves = set()
    av = sorted(available(s))
    for c in av:
        if rank(c) == KING:
            moves.add(("king", c))
    for x in range(len(av)):
        for y in range(x + 1, len(av)):
            if rank(av[x]) + rank(av[y]) == 13:
                moves.add(("pair", frozenset((av[x], av[y]))))
    if s.rules.pair_waste_top_two and s.rules.draw == 1:
        w = s.waste[0]
        if len(w) >= 2 and rank(w[-1]) + rank(w[-2]) == 13:
            moves.add(("pair", frozenset((w[-1], w[-2]))))
    if s.rules.pair_with_covering:
        free = free_positions(s)
        for i in s.pyramid:
            present = [c for c in covers(i) if c in s.pyramid]
            if len(present) == 1 and present[0] in free:
                if rank(s.pyramid[i]) + rank(s.pyramid[present[0]]) == 13:
                    moves.add(("pair", frozenset((s.pyramid[i], s.pyramid[present[0]]))))
    if s.stock:
        moves.add(DRAW)
    elif can_recycle(s):
        moves.add(RECYCLE)
    return moves


def _remove(s: State, card: int) -> None:
    """Take one available card off the table (pyramid, a waste pile top, or the stock top)."""
    for i, c in list(s.pyramid.items()):
        if c == card:
            del s.pyramid[i]
            break
    else:
        for p in s.waste:
            if p and p[-1] == card:
                p.pop()
                break
        else:
            assert s.stock and s.stock[0] == card, card
            s.stock.pop(0)
    assert card not in s.removed
    s.removed.add(card)


def apply(s: State, move) -> State:
    """A new state after legal move `move` (ValueError if it is not legal)."""
    if move not in legal_moves(s):
        raise ValueError(f"illegal move {move!r}")
    s = s.copy()
    if move == DRAW:
        if s.rules.draw == 1:
            s.waste[0].append(s.stock.pop(0))
        else:
            # the next (up to) three stock cards, one each onto piles 1, 2, 3
            dealt, s.stock = s.stock[:3], s.stock[3:]
            for k, c in enumerate(dealt):
                s.waste[k].append(c)
    elif move == RECYCLE:
        # Turn the waste over: the next pass draws the remaining cards in the same order.
        assert s.rules.draw == 1
        s.stock = list(s.waste[0])
        s.waste[0] = []
        s.recycles += 1
    elif move[0] == "king":
        _remove(s, move[1])
    else:
        w = s.waste[0]
        if len(w) >= 2 and move[1] == {w[-1], w[-2]}:
            # pair_waste_top_two: the top card first, then the one it covered
            top, beneath = w[-1], w[-2]
            _remove(s, top)
            _remove(s, beneath)
        else:
            for c in move[1]:
                _remove(s, c)
    return s


PLAYING, WON, NO_MOVES = 0, 1, 2


def status(s: State) -> int:
    if won(s):
        return WON
    if not legal_moves(s):
        return NO_MOVES
    return PLAYING


def from_move(move) -> tuple:
    """A move of the package (anything with ``kind`` and ``cards``, such as a
    pyramid_solitaire.Move) as this module's tuple."""
    if move.kind == "draw":
        return DRAW
    if move.kind == "recycle":
        return RECYCLE
    if move.kind == "king":
        return ("king", int(move.cards[0]))
    return ("pair", frozenset(int(c) for c in move.cards))
