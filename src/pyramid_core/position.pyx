# cython: language_level=3
"""The engine seen from Python: a `Table` (one deal under one rule set) whose methods take and
return positions as plain ints (the 64-bit words of position.pxd). The Python layer
(pyramid_solitaire.Game) builds on this; nothing here is meant for loops of millions."""
from libc.stdint cimport uint8_t

from pyramid_core.rules cimport rules_from_options
from pyramid_core.shortcuts cimport pyr_sc_name, SC_COUNT

PLAYING = STATUS_PLAYING
WON = STATUS_WON
NO_MOVES = STATUS_NO_MOVES
DRAW = MOVE_DRAW
RECYCLE = MOVE_RECYCLE
NONE = LOC_NONE
TALON = LOC_TALON
KING_MOVE, PAIR_MOVE, DRAW_MOVE, RECYCLE_MOVE = KIND_KING, KIND_PAIR, KIND_DRAW, KIND_RECYCLE
#: pos_why_illegal's codes, in order: the reason codes of the Python layer (reasons.py)
WHY = ("legal", "move_game_over", "draw_recycle_first", "draw_all_empty", "draw_no_recycles",
       "recycle_stock_left", "recycle_waste_empty", "recycle_none_left", "card_removed",
       "card_covered_by", "card_blocked", "stock_top_not_playable", "card_in_stock",
       "waste_top_two", "waste_under", "not_legal")


cdef tuple _shortcut_names(uint32_t bits):
    """The names of the shortcuts whose PYR_SC_* bits are set."""
    cdef int i
    return tuple(pyr_sc_name(i).decode() for i in range(SC_COUNT) if (bits >> i) & 1)


cdef class Table:
    """One deal (52 card indices) under one rule set, ready to play."""

    def __cinit__(self, deck, **options):
        """``options``: the rules by their core names (Rules.core_options(); missing ones
        take their defaults), checked by rules_from_options."""
        cdef uint8_t cards[52]
        cdef pyr_rules rules
        cdef int i
        deck = list(deck)
        if len(deck) != 52 or sorted(deck) != list(range(52)):
            raise ValueError("a deck is the 52 card indices 0..51, each once")
        rules_from_options(&rules, options)
        for i in range(52):
            cards[i] = deck[i]
        table_init(&self.t, cards, &rules)

    @property
    def shortcuts(self):
        """The names of the shortcuts (the solver's and the simulator's) that may run under
        this table's rules: pyr_shortcuts.h's record, less those dropped."""
        return _shortcut_names(self.t.shortcuts)

    def drop_shortcuts(self, names):
        """Turn the shortcuts ``names`` (a name, several, or ``"all"``) off for this table:
        the solver's answers stay the same, found slower. For the tests, and to measure what
        a shortcut is worth."""
        cdef uint32_t mask = 0
        cdef int i
        known = {pyr_sc_name(i).decode(): i for i in range(SC_COUNT)}
        if isinstance(names, str):
            names = known if names == "all" else [names]
        for name in names:
            if name not in known:
                raise ValueError(f"unknown shortcut {name!r}: expected one of "
                                 + ", ".join(known))
            mask |= (<uint32_t>1) << known[name]
        self.t.shortcuts &= ~mask

    def start(self):
        """The position at the deal."""
        return pos_start(&self.t)

    def moves(self, pyr_pos pos):
        """The legal move codes of ``pos``, in the engine's order."""
        cdef pyr_move buf[MAX_MOVES]
        cdef int n = gen_moves(&self.t, pos, buf)
        return [buf[i] for i in range(n)]

    def apply(self, pyr_pos pos, pyr_move move):
        """The position after ``move``; ValueError if it is not legal in ``pos``."""
        cdef pyr_move buf[MAX_MOVES]
        cdef int n = gen_moves(&self.t, pos, buf)
        for i in range(n):
            if buf[i] == move:
                return pos_apply(&self.t, pos, move)
        raise ValueError(f"move code {move} is not legal in this position")

    def status(self, pyr_pos pos):
        return pos_status(&self.t, pos)

    def seen(self, pyr_pos pos, unsigned int seen=0):
        """The talon cards (bits by talon index) a player has seen once at ``pos``, given
        those seen before (position.pxd's pos_seen: the one definition of what is hidden)."""
        return pos_seen(&self.t, pos, seen)

    def why_illegal(self, pyr_pos pos, int kind, cards=()):
        """Why a move is not legal at ``pos`` (position.pxd's pos_why_illegal): (a WHY_*
        code, the card index it is about or -1); (WHY_LEGAL, -1) when it is legal. ``kind``:
        KIND_KING, KIND_PAIR, KIND_DRAW or KIND_RECYCLE; ``cards``: the move's card indices
        in the order the player named them."""
        cdef int c[2]
        cdef int n = len(cards), card = -1, why
        if n > 2:
            raise ValueError("a move has at most two cards")
        for k in range(n):
            c[k] = cards[k]
            if not 0 <= c[k] < N_CARDS:
                raise ValueError(f"a card index is 0..51, got {c[k]}")
        why = pos_why_illegal(&self.t, pos, kind, c, n, &card)
        return why, card

    def free(self, pyr_pos pos):
        """Mask of the free pyramid positions."""
        return free_mask(pos_pyr(pos))

    def available(self, pyr_pos pos):
        """Talon indices of the available talon cards, ascending."""
        cdef int av[3]
        cdef int n = talon_available(&self.t, pos, av)
        return [av[i] for i in range(n)]

    def waste_piles(self, pyr_pos pos):
        """The waste as lists of talon indices, bottom to top: one list (draw 1) or three."""
        cdef int cur = pos_cur(pos), k
        cdef unsigned int talon = pos_talon(pos)
        drawn = [i for i in range(cur) if (talon >> i) & 1]
        if self.t.rules.draw == 1:
            return [drawn]
        return [[i for i in drawn if (self.t.pile[k] >> i) & 1] for k in range(3)]

    def stock(self, pyr_pos pos):
        """Talon indices still in the stock, the next card to draw first."""
        cdef int cur = pos_cur(pos)
        cdef unsigned int talon = pos_talon(pos)
        return [i for i in range(cur, 24) if (talon >> i) & 1]

    def card(self, int loc):
        """Card index at location ``loc`` (0..27 pyramid, 28 + t talon card t)."""
        return self.t.card[loc]

    def loc(self, int card):
        """Location of card index ``card`` (0..51)."""
        if not 0 <= card < 52:
            raise ValueError(f"a card index is 0..51, got {card}")
        return table_loc(&self.t, card)

    @staticmethod
    def pyramid_mask(pyr_pos pos):
        return pos_pyr(pos)

    @staticmethod
    def talon_mask(pyr_pos pos):
        return pos_talon(pos)

    @staticmethod
    def cursor(pyr_pos pos):
        return pos_cur(pos)

    @staticmethod
    def recycles(pyr_pos pos):
        return pos_recycles(pos)
