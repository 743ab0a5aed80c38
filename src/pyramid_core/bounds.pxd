# What a position can still achieve, for the solver's searches to prune with and for A* to
# be guided by (bounds.pyx): whether every rank class can still be paired off, which talon
# cards can still be played, the most pyramid cards a line can remove, and the lower bound on
# the moves to a win.
from libc.stdint cimport uint32_t

from pyramid_core.cards cimport KING
from pyramid_core.position cimport (pyr_pos, LOC_TALON, pos_pyr, pos_talon, pos_cur, below,
                                    pile_top)
from pyramid_core.search cimport search, last_pass
from pyramid_core.shortcuts cimport SC_LOWER_BOUND_NEEDS


cdef enum:
    PARTNERS_NONE = 99        # pyramid_partners: no game clears the pyramid


ctypedef struct pyr_part:
    # lower_bound's count for a pyramid (the same for every position with those pyramid
    # cards: worked out once for A*'s walk of draws, which keeps the pyramid).
    int h                     # the moves removing pyramid cards (and d, under draw three)
    int d                     # the moves the extra talon partners cost: see talon_bound
    int total                 # talon partners needed, all ranks
    int need[14]              # talon partners of each rank needed at least
    int least[7]              # talon partners of each class needed at least
    int pc[14]                # pyramid cards of each rank


# The rank classes: can each still be paired off (tc[r]: talon cards of rank r left)?
cdef bint classes_ok(const search* s, uint32_t pyr, const int* tc, bint strict) noexcept nogil
# The most pyramid cards any line from here removes, at most (stuck_bound: only counting
# the cards that can never find a partner).
cdef int stuck_bound(const search* s, uint32_t pyr, const int* tc) noexcept nogil
cdef int removal_bound(const search* s, uint32_t pyr, const int* tc) noexcept nogil
# The talon cards that may still be played, and whether the rank classes allow a win.
cdef uint32_t reachable_talon(const search* s, pyr_pos p) noexcept nogil
cdef bint position_ok(search* s, pyr_pos p) noexcept nogil
cdef bint stack_ok(const search* s, pyr_pos p) noexcept nogil
cdef bint relaxed_ok(search* s, pyr_pos p) noexcept nogil
cdef int relaxed_removal_bound(search* s, pyr_pos p) noexcept nogil
# The lower bound on the moves to a win (A*), whole or in its two parts.
cdef int lower_bound(search* s, pyr_pos p) noexcept nogil
cdef int pyramid_part(search* s, uint32_t pyr, pyr_part* pp) noexcept nogil
cdef int talon_bound(search* s, pyr_pos p, const pyr_part* pp) noexcept nogil


cdef inline int part_bound(search* s, pyr_pos p, const pyr_part* pp) noexcept nogil:
    """lower_bound of p, whose pyramid's part is pp (0 where the shortcuts' record does not
    allow the bound)."""
    if (s.t.shortcuts & SC_LOWER_BOUND_NEEDS) != SC_LOWER_BOUND_NEEDS:
        return 0
    if s.t.rules.draw == 1:
        return pp.h + talon_bound(s, p, pp)
    return pp.h


cdef inline bint can_ever_go(const search* s, pyr_pos p, int t) noexcept nogil:
    """Could talon card t ever be removed? Not if no card of the complementary rank is left
    where it could meet t: the pyramid, the stock when its top is playable, the other waste
    piles under draw three. "True" may be wrong, "False" never."""
    cdef int q = 13 - s.t.rank[LOC_TALON + t]
    if q == 0 or pos_pyr(p) & s.t.pyr_rank[q]:
        return True
    if s.t.rules.pair_waste_top_two:
        return True
    if s.t.rules.draw == 3:              # pile tops pair with each other
        return (pos_talon(p) & s.talon_rank[q]) != 0
    return (s.t.rules.stock_top_playable
            and (pos_talon(p) & ~below(pos_cur(p)) & s.talon_rank[q]) != 0)


cdef inline bint buries(const search* s, pyr_pos p) noexcept nogil:
    """After a draw or recycle: can reachable_talon(p) have lost cards? Only in the last pass,
    and only when a card just drawn can never go (it buries what lies under it)."""
    cdef int k, t
    if not last_pass(s, p) or pos_cur(p) == 0:
        return False
    if s.t.rules.draw == 1:
        return not can_ever_go(s, p, pos_cur(p) - 1)
    for k in range(3):
        t = pile_top(s.t, p, k)
        if t >= 0 and not can_ever_go(s, p, t):
            return True
    return False
