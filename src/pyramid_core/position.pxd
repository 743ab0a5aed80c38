# The game position and its moves: the C-level API the solver and the simulator call millions
# of times per second. Everything here is `cdef inline ... noexcept nogil` so that it compiles
# into every module that cimports it (a call across extension modules would be an indirect call
# through a capsule, too slow for the inner loops).
#
# A position is ONE 64-bit word (pyr_pos):
#   bits  0..27  pyramid position i still on the table           (PRESENT_PYR)
#   bits 28..51  talon card t (draw order) still in stock/waste   (bit 28 + t)
#   bits 52..56  cur: talon cards t < cur were drawn (the waste), t >= cur are the stock
#   bits 57..62  recycles used so far (always 0 under unlimited redeals); bit 63 is always 0
# With draw 1 the cursor is kept canonical (cur = waste top + 1, or 0 for an empty waste), so
# equal games are equal words: a transposition-table key for free, and undo is "restore the
# previous word".
#
# A location names where a card lies in the deal: 0..27 pyramid positions, 28 + t talon card t.
# A move is a 16-bit code: a | b << 6 with locations a < b for a pair, b = LOC_NONE for a lone
# King, and a = LOC_NONE for the talon actions MOVE_DRAW and MOVE_RECYCLE.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memchr, memset
from pyramid_core.cards cimport card_rank, N_CARDS, N_PYRAMID, N_TALON, KING
from pyramid_core.rules cimport pyr_rules, REDEALS_UNLIMITED
from pyramid_core.shortcuts cimport pyr_shortcuts
from pyramid_core.geometry cimport (free_mask, half_covered_mask, only_cover, pyr_ctz32,
                                    pyr_msb32, PYRAMID_ALL)

ctypedef uint64_t pyr_pos
ctypedef uint16_t pyr_move

cdef enum:
    TALON_ALL = 0xFFFFFF
    CUR_SHIFT = 52
    REC_SHIFT = 57
    LOC_TALON = 28          # location of talon card 0
    LOC_NONE = 63
    MOVE_DRAW = 63          # a = LOC_NONE, b = 0
    MOVE_RECYCLE = 127      # a = LOC_NONE, b = 1
    MAX_MOVES = 96          # more than any position has (<= 11 available cards, 55 pairs)
    STATUS_PLAYING = 0
    STATUS_WON = 1
    STATUS_NO_MOVES = 2

# Why a move is not legal (pos_why_illegal); the Python layer words each one (reasons.py)
cdef enum:
    WHY_LEGAL = 0
    WHY_GAME_OVER = 1               # won, or no legal move left
    WHY_DRAW_RECYCLE_FIRST = 2      # the stock is empty; recycle the waste first
    WHY_DRAW_ALL_EMPTY = 3          # stock and waste both empty
    WHY_DRAW_NO_RECYCLES = 4        # the stock is empty and no recycle is left
    WHY_RECYCLE_STOCK_LEFT = 5      # cards are left in the stock
    WHY_RECYCLE_WASTE_EMPTY = 6     # nothing to turn over
    WHY_RECYCLE_NONE_LEFT = 7       # the rules' recycles are used up
    WHY_CARD_REMOVED = 8            # the card is gone
    WHY_CARD_COVERED_BY = 9         # a pyramid card paired with the one card covering it
    WHY_CARD_BLOCKED = 10           # a pyramid card still covered
    WHY_STOCK_TOP_NOT_PLAYABLE = 11  # the stock's top, under rules where it cannot be played
    WHY_CARD_IN_STOCK = 12          # a card still in the stock, under its top
    WHY_WASTE_TOP_TWO = 13          # the waste's top two cards, under rules without that pair
    WHY_WASTE_UNDER = 14            # a waste card under another
    WHY_NOT_LEGAL = 15              # none of those: the move is not one of the rules'
    KIND_KING = 0
    KIND_PAIR = 1
    KIND_DRAW = 2
    KIND_RECYCLE = 3

ctypedef struct pyr_table:
    # A deal under a rule set: everything constant during one game.
    pyr_rules rules
    uint8_t card[52]        # location -> card index
    uint8_t rank[52]        # location -> rank 1..13 (a card's location: table_loc)
    uint32_t pyr_rank[14]   # pyramid positions holding each rank
    uint32_t pile[3]        # draw 3: talon bits of waste piles 1, 2, 3
    uint32_t shortcuts      # the shortcuts that may run under the rules (pyr_shortcuts.h)

# ---- fields of a position -------------------------------------------------------------------

cdef inline uint32_t pos_pyr(pyr_pos p) noexcept nogil:
    return <uint32_t>(p & PYRAMID_ALL)

cdef inline uint32_t pos_talon(pyr_pos p) noexcept nogil:
    return <uint32_t>((p >> LOC_TALON) & TALON_ALL)

cdef inline int pos_cur(pyr_pos p) noexcept nogil:
    return <int>((p >> CUR_SHIFT) & 31)

cdef inline int pos_recycles(pyr_pos p) noexcept nogil:
    return <int>(p >> REC_SHIFT)

cdef inline pyr_pos pos_with_cur(pyr_pos p, int cur) noexcept nogil:
    return (p & ~((<pyr_pos>31) << CUR_SHIFT)) | ((<pyr_pos>cur) << CUR_SHIFT)

cdef inline uint32_t below(int n) noexcept nogil:
    return ((<uint32_t>1) << n) - 1

# ---- the deal -------------------------------------------------------------------------------

cdef inline void table_init(pyr_table* t, const uint8_t* deck,
                            const pyr_rules* rules) noexcept nogil:
    """Fill t from 52 card indices (pyramid row-major, then the talon in draw order)."""
    cdef int i, c, w
    t.rules = rules[0]
    t.shortcuts = pyr_shortcuts(rules)
    memset(t.pyr_rank, 0, sizeof(t.pyr_rank))
    memset(t.pile, 0, sizeof(t.pile))
    for i in range(N_CARDS):
        c = deck[i]
        t.card[i] = <uint8_t>c
        t.rank[i] = <uint8_t>card_rank(c)
    for i in range(N_PYRAMID):
        t.pyr_rank[t.rank[i]] |= (<uint32_t>1) << i
    # Draw three: the dealt waste cards sit on pile 1, then each draw of three goes onto
    # piles 1, 2, 3 in turn.
    w = rules.waste_at_deal
    for i in range(N_TALON):
        t.pile[0 if i < w else (i - w) % 3] |= (<uint32_t>1) << i

cdef inline int table_loc(const pyr_table* t, int c) noexcept nogil:
    """The location of card index c (0..51) in the deal (a scan of t.card: the table keeps
    no inverse, to stay small for the batch's one table per game)."""
    return <int>(<const uint8_t*>memchr(t.card, c, N_CARDS) - t.card)

cdef inline pyr_pos pos_start(const pyr_table* t) noexcept nogil:
    return (<pyr_pos>PYRAMID_ALL) | ((<pyr_pos>TALON_ALL) << LOC_TALON) \
        | ((<pyr_pos>t.rules.waste_at_deal) << CUR_SHIFT)

# ---- what is available ----------------------------------------------------------------------

cdef inline int waste_top(pyr_pos p) noexcept nogil:
    """Draw 1: talon index of the waste's top card, or -1."""
    cdef uint32_t w = pos_talon(p) & below(pos_cur(p))
    return pyr_msb32(w) if w else -1

cdef inline int stock_top(pyr_pos p) noexcept nogil:
    """Talon index of the stock's top (next to draw) card, or -1."""
    cdef uint32_t s = pos_talon(p) & ~below(pos_cur(p))
    return pyr_ctz32(s) if s else -1

cdef inline int pile_top(const pyr_table* t, pyr_pos p, int k) noexcept nogil:
    """Draw 3: talon index of waste pile k's top card, or -1."""
    cdef uint32_t w = pos_talon(p) & below(pos_cur(p)) & t.pile[k]
    return pyr_msb32(w) if w else -1

cdef inline void sort_tops(int* av, int n) noexcept nogil:
    """Sort the (at most 3) draw-3 pile tops av[0..n-1] ascending."""
    if n >= 2 and av[0] > av[1]:
        av[0], av[1] = av[1], av[0]
    if n == 3:
        if av[1] > av[2]:
            av[1], av[2] = av[2], av[1]
        if av[0] > av[1]:
            av[0], av[1] = av[1], av[0]

cdef inline int talon_available(const pyr_table* t, pyr_pos p, int* av) noexcept nogil:
    """Talon indices of the available talon cards (waste top(s), stock top if playable),
    ascending; returns how many (0..3)."""
    cdef int n = 0, k, x
    if t.rules.draw == 3:
        for k in range(3):
            x = pile_top(t, p, k)
            if x >= 0:
                av[n] = x
                n += 1
        sort_tops(av, n)
        return n
    x = waste_top(p)
    if x >= 0:
        av[n] = x
        n += 1
    if t.rules.stock_top_playable:
        x = stock_top(p)
        if x >= 0:
            av[n] = x
            n += 1
    return n

cdef inline uint32_t pos_seen(const pyr_table* t, pyr_pos p, uint32_t seen) noexcept nogil:
    """The talon cards a player has seen once at p, given those seen before (`seen`, talon
    bits; 0 at the deal): every card turned so far (under draw 3 each card of a turned three,
    covered or not) and the stock's top where it is playable. A seen card stays known after a
    recycle, and every pyramid card is seen: this is what is hidden, and the one definition
    of it (docs/rules.md, "What a player sees")."""
    cdef int s
    seen |= below(pos_cur(p))
    if t.rules.stock_top_playable:
        s = stock_top(p)
        if s >= 0:
            seen |= (<uint32_t>1) << s
    return seen


cdef inline bint pos_won(const pyr_table* t, pyr_pos p) noexcept nogil:
    if t.rules.win_all:
        return (p & ((<pyr_pos>1 << 52) - 1)) == 0
    return (p & PYRAMID_ALL) == 0

cdef inline bint can_recycle(const pyr_table* t, pyr_pos p) noexcept nogil:
    return ((pos_talon(p) & below(pos_cur(p))) != 0 and
            (t.rules.redeals == REDEALS_UNLIMITED or pos_recycles(p) < t.rules.redeals))

# ---- moves ----------------------------------------------------------------------------------

cdef inline pyr_move move_king(int a) noexcept nogil:
    return <pyr_move>(a | (LOC_NONE << 6))

cdef inline pyr_move move_pair(int a, int b) noexcept nogil:
    if a > b:
        a, b = b, a
    return <pyr_move>(a | (b << 6))

cdef inline int move_a(pyr_move m) noexcept nogil:
    return m & 63

cdef inline int move_b(pyr_move m) noexcept nogil:
    return m >> 6

cdef inline int covering_pairs(const uint8_t* rank, uint32_t pyr, uint32_t f,
                               pyr_move* out) noexcept nogil:
    """pair_with_covering: each card covered by one card only, paired with that (free) card
    when they sum to 13 (rank: location -> rank). Writes them to out; returns how many."""
    cdef int n = 0, a, b
    cdef uint32_t x = half_covered_mask(pyr)
    while x:
        a = pyr_ctz32(x)
        b = only_cover(pyr, a)
        if (f >> b) & 1 and rank[a] + rank[b] == 13:
            out[n] = move_pair(a, b)
            n += 1
        x &= x - 1
    return n

cdef inline int gen_covering_pairs(const pyr_table* t, uint32_t pyr, uint32_t f,
                                   pyr_move* out) noexcept nogil:
    return covering_pairs(t.rank, pyr, f, out)

cdef inline int card_moves(const uint8_t* rank, const uint32_t* pyr_rank, uint32_t f,
                           const int* av, int n_av, bint pyramid_pairs,
                           pyr_move* out) noexcept nogil:
    """The Kings and the plain pairs, in gen_moves order: free pyramid Kings, available talon
    Kings, pairs of free pyramid cards, then each available talon card (av: ascending) with
    its free pyramid partners and with the later available cards. f: the free pyramid cards;
    rank: location -> rank; pyr_rank: rank -> pyramid positions (the engine's table or the
    simulator's deal). pyramid_pairs: False when the caller knows there is no pair of free
    pyramid cards (their search is skipped). Writes them to out; returns how many."""
    cdef int n = 0, i, j, a, r
    cdef uint32_t x, y, h
    # Kings go alone.
    x = f & pyr_rank[KING]
    while x:
        out[n] = move_king(pyr_ctz32(x))
        n += 1
        x &= x - 1
    for i in range(n_av):
        if rank[LOC_TALON + av[i]] == KING:
            out[n] = move_king(LOC_TALON + av[i])
            n += 1
    # Pairs of free pyramid cards: ranks r and 13 - r.
    for r in range(1, 7 if pyramid_pairs else 1):
        x = f & pyr_rank[r]
        if x:
            y = f & pyr_rank[13 - r]
            while x:
                a = pyr_ctz32(x)
                h = y
                while h:
                    out[n] = move_pair(a, pyr_ctz32(h))
                    n += 1
                    h &= h - 1
                x &= x - 1
    # An available talon card with a free pyramid card, or with another available one.
    for i in range(n_av):
        a = LOC_TALON + av[i]
        r = rank[a]
        if r == KING:
            continue
        y = f & pyr_rank[13 - r]
        while y:
            out[n] = move_pair(pyr_ctz32(y), a)
            n += 1
            y &= y - 1
        for j in range(i + 1, n_av):
            if r + rank[LOC_TALON + av[j]] == 13:
                out[n] = move_pair(a, LOC_TALON + av[j])
                n += 1
    return n

cdef inline int gen_moves(const pyr_table* t, pyr_pos p, pyr_move* out) noexcept nogil:
    """Write every legal move of p to out (room for MAX_MOVES); return the count. A won
    position has none. Order: Kings, pyramid pairs, pairs with talon cards, talon pairs,
    pairs with a covering card, then draw or recycle."""
    cdef int n, n_av, i, j
    cdef int av[3]
    cdef uint32_t pyr = pos_pyr(p), talon, f
    if pos_won(t, p):
        return 0
    f = free_mask(pyr)
    n_av = talon_available(t, p, av)
    n = card_moves(t.rank, t.pyr_rank, f, av, n_av, True, out)
    if t.rules.pair_waste_top_two and t.rules.draw == 1:
        i = waste_top(p)
        if i > 0:
            talon = pos_talon(p) & below(i)
            if talon:
                j = pyr_msb32(talon)
                if t.rank[LOC_TALON + i] + t.rank[LOC_TALON + j] == 13:
                    out[n] = move_pair(LOC_TALON + j, LOC_TALON + i)
                    n += 1
    if t.rules.pair_with_covering:
        n += covering_pairs(t.rank, pyr, f, out + n)
    if pos_talon(p) & ~below(pos_cur(p)):
        out[n] = MOVE_DRAW
        n += 1
    elif can_recycle(t, p):
        out[n] = MOVE_RECYCLE
        n += 1
    return n

cdef inline pyr_pos pos_apply(const pyr_table* t, pyr_pos p, pyr_move m) noexcept nogil:
    """The position after legal move m (the caller guarantees legality)."""
    cdef int a = move_a(m), cur
    cdef uint32_t w
    if a == LOC_NONE:
        if m == MOVE_DRAW:
            cur = pos_cur(p)
            if t.rules.draw == 1:
                return pos_with_cur(p, pyr_ctz32(pos_talon(p) & ~below(cur)) + 1)
            return pos_with_cur(p, cur + 3 if cur + 3 < N_TALON else N_TALON)
        # Recycle: the waste turns over into the stock, in the same order.
        p = pos_with_cur(p, 0)
        if t.rules.redeals != REDEALS_UNLIMITED:
            p += (<pyr_pos>1) << REC_SHIFT
        return p
    # Bit 63 is never part of the game, so a King's b = LOC_NONE clears nothing.
    p &= ~(((<pyr_pos>1) << a) | ((<pyr_pos>1) << move_b(m)))
    if t.rules.draw == 1:
        # Keep the cursor canonical (a no-op unless a waste card went).
        w = pos_talon(p) & below(pos_cur(p))
        p = pos_with_cur(p, pyr_msb32(w) + 1 if w else 0)
    return p

cdef inline bint _waste_top_two(pyr_pos p, int top, int a, int b) noexcept nogil:
    """Draw 1: are talon indices a and b the waste's top card and the one under it?"""
    cdef uint32_t under = pos_talon(p) & below(top)
    cdef int second = pyr_msb32(under) if under else -1
    return (a == top and b == second) or (b == top and a == second)


cdef inline int pos_why_illegal(const pyr_table* t, pyr_pos p, int kind, const int* cards,
                                int n_cards, int* card) noexcept nogil:
    """Why a move is not legal at p (WHY_*; WHY_LEGAL when it is), from the rules the move
    generator plays: kind KIND_KING, KIND_PAIR (cards: its n_cards card indices, in the
    order the player named them), KIND_DRAW or KIND_RECYCLE. card: the card the reason is
    about (the first one found), or -1. Beside gen_moves so that a rule and its
    explanation change together."""
    cdef pyr_move buf[MAX_MOVES]
    cdef int n = gen_moves(t, p, buf), k, j, c, loc, other, top
    cdef pyr_move m
    cdef int av[3]
    cdef int n_av
    cdef uint32_t pyr = pos_pyr(p)
    cdef bint found
    card[0] = -1
    if n == 0:
        return WHY_GAME_OVER
    if kind == KIND_DRAW:
        if buf[n - 1] == MOVE_DRAW:
            return WHY_LEGAL
        if buf[n - 1] == MOVE_RECYCLE:
            return WHY_DRAW_RECYCLE_FIRST
        return WHY_DRAW_ALL_EMPTY if (pos_talon(p) & below(pos_cur(p))) == 0 \
            else WHY_DRAW_NO_RECYCLES
    if kind == KIND_RECYCLE:
        if buf[n - 1] == MOVE_RECYCLE:
            return WHY_LEGAL
        if pos_talon(p) & ~below(pos_cur(p)):
            return WHY_RECYCLE_STOCK_LEFT
        if (pos_talon(p) & below(pos_cur(p))) == 0:
            return WHY_RECYCLE_WASTE_EMPTY
        return WHY_RECYCLE_NONE_LEFT
    # a King or a pair: legal when the generator lists it
    if kind == KIND_KING and n_cards == 1:
        m = move_king(table_loc(t, cards[0]))
    elif kind == KIND_PAIR and n_cards == 2:
        m = move_pair(table_loc(t, cards[0]), table_loc(t, cards[1]))
    else:
        return WHY_NOT_LEGAL
    for k in range(n):
        if buf[k] == m:
            return WHY_LEGAL
    n_av = talon_available(t, p, av)
    for k in range(n_cards):
        c = cards[k]
        loc = table_loc(t, c)
        card[0] = c
        if not (p >> loc) & 1:
            return WHY_CARD_REMOVED
        if loc < N_PYRAMID:
            if (free_mask(pyr) >> loc) & 1:
                continue
            if n_cards == 2 and not t.rules.pair_with_covering \
                    and (half_covered_mask(pyr) >> loc) & 1 \
                    and only_cover(pyr, loc) == table_loc(t, cards[1 - k]):
                return WHY_CARD_COVERED_BY
            return WHY_CARD_BLOCKED
        found = False
        for j in range(n_av):
            if LOC_TALON + av[j] == loc:
                found = True
        if found:
            continue
        if loc - LOC_TALON >= pos_cur(p):                 # in the stock
            if not t.rules.stock_top_playable and loc - LOC_TALON == stock_top(p):
                return WHY_STOCK_TOP_NOT_PLAYABLE
            return WHY_CARD_IN_STOCK
        if t.rules.draw == 1 and n_cards == 2:
            top = waste_top(p)
            other = table_loc(t, cards[1 - k]) - LOC_TALON
            if top >= 0 and _waste_top_two(p, top, loc - LOC_TALON, other):
                return WHY_WASTE_TOP_TWO
        return WHY_WASTE_UNDER
    card[0] = -1
    return WHY_NOT_LEGAL


cdef inline int pos_status(const pyr_table* t, pyr_pos p) noexcept nogil:
    cdef pyr_move buf[MAX_MOVES]
    if pos_won(t, p):
        return STATUS_WON
    if gen_moves(t, p, buf) == 0:
        return STATUS_NO_MOVES
    return STATUS_PLAYING


cdef class Table:
    cdef pyr_table t
