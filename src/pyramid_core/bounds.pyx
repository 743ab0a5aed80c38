# cython: language_level=3
"""What a position can still achieve (bounds.pxd): the solver's pruning and A*'s lower bound.

* The rank classes. The pyramid cards of ranks r and 13 - r need partners, a pyramid pair
  needs two cards neither of which covers the other, and no two pyramid pairs may cover each
  other's cards: per class, the most pyramid pairs (class_matchings, on pyr_match.h's
  matching), the rest going with talon cards (classes_ok). pyramid_partners works out, over
  the pyramid's shapes, the fewest talon partners any game needs with its timing counted.
* The talon. In the last pass a waste card lies under the ones drawn after it: below a card
  that can never go, nothing comes back (reachable_talon, buries).
* The most pyramid cards any line removes (removal_bound), for the exhaustive search.
* The lower bound on the moves to a win (lower_bound): the moves that remove pyramid cards
  (pyramid_part) and, under draw one, what reaching the talon partners costs (talon_bound).

The results that depend on the pyramid only are remembered per search in direct-mapped
caches (search.mcache and search.dcache, MCACHE entries each, stamped with the search's
epoch), and so are the cards that stay when the talon offers only some ranks
(search.scache, for stuck_of).
"""
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memset

from pyramid_core.cards cimport KING
from pyramid_core.geometry cimport (free_mask, pyr_ctz32, pyr_msb32, pyr_popcount32,
                                    PYRAMID_ALL, PYR_GEO, pyr_geometry_init, pyr_match,
                                    pyr_match_init)
from pyramid_core.hashset cimport hmix, hset_slot, hset_at, hset_put, hset_set, hset_value
from pyramid_core.position cimport (pyr_table, pyr_pos, pyr_move, MAX_MOVES, LOC_TALON, pos_pyr,
                                    pos_talon, pos_cur, pos_recycles, can_recycle, below,
                                    gen_covering_pairs, move_a, move_b)
from pyramid_core.rules cimport REDEALS_UNLIMITED
from pyramid_core.shortcuts cimport (SC_CLASSES, SC_PARTNERS, SC_STACK, SC_RELAX,
                                     SC_LOWER_BOUND_NEEDS)
from pyramid_core.search cimport search, MCACHE, talon_counts
from pyramid_core.solver cimport OBJ_MIN_MOVES, MAX_LINE

pyr_geometry_init()
pyr_match_init()

# ---- the rank classes -----------------------------------------------------------------------


cdef enum:
    CLASS_SIDE = 4      # the places of one rank in the pyramid (a rank has four cards): the
                        # most places on either side of a class, and so the most pairs


cdef int pyramid_matching(const search* s, uint32_t am, uint32_t bm) noexcept nogil:
    """How many disjoint pairs (a, b) of places in am x bm can all be removed as pyramid
    pairs in one game: each pair can meet (neither card covers the other) and no two pairs
    cover each other's cards (a pair goes once its cards are free, so a pair whose cards
    cover the other's goes second: both ways round, neither can go). Under
    pair_with_covering only the first condition is used (a card may go with its cover)."""
    cdef int A[CLASS_SIDE]
    cdef int B[CLASS_SIDE]
    cdef uint32_t cards[CLASS_SIDE]
    cdef uint32_t cover[CLASS_SIDE]
    cdef int na = 0, nb = 0, m = pyr_match(am, bm, s.rel)
    if m < 2 or s.t.rules.pair_with_covering:
        return m                           # one pair has no other to cover
    while am and na < CLASS_SIDE:
        A[na] = pyr_ctz32(am)
        na += 1
        am &= am - 1
    while bm and nb < CLASS_SIDE:
        B[nb] = pyr_ctz32(bm)
        nb += 1
        bm &= bm - 1
    return acyclic_pairs(s, A, na, B, nb, 0, 0, cards, cover, 0, 0, m)


cdef int acyclic_pairs(const search* s, const int* A, int na, const int* B, int nb, int i,
                       uint32_t used_b, uint32_t* cards, uint32_t* cover, int size, int best,
                       int limit) noexcept nogil:
    """The most pairs of A[i:] x B (not in used_b) that can join the `size` chosen ones
    (cards[k], cover[k]: a chosen pair's places and the places they cover) with no two
    covering each other's cards; at most `limit` (the plain matching: nothing can do
    better). cards and cover have room for CLASS_SIDE pairs."""
    cdef int j, k, got
    cdef uint32_t pc, pv
    cdef bint ok
    if size > best:
        best = size
    if i == na or best >= limit or size + (na - i) <= best:
        return best
    # (Never so from pyramid_matching: size <= i < na <= CLASS_SIDE. Said here, where the
    # arrays are written, because nothing else bounds size at the writes below: gcc, which
    # inlines this recursion into pyramid_matching, saw a path writing past their end.)
    if size >= CLASS_SIDE:
        return best
    for j in range(nb):
        if (used_b >> j) & 1 or (s.rel[A[i]] >> B[j]) & 1:
            continue
        pc = ((<uint32_t>1) << A[i]) | ((<uint32_t>1) << B[j])
        pv = PYR_GEO.above[A[i]] | PYR_GEO.above[B[j]]
        ok = True
        for k in range(size):
            if (pc & cover[k]) and (cards[k] & pv):
                ok = False
                break
        if not ok:
            continue
        cards[size] = pc
        cover[size] = pv
        got = acyclic_pairs(s, A, na, B, nb, i + 1, used_b | ((<uint32_t>1) << j), cards, cover,
                            size + 1, best, limit)
        if got > best:
            best = got
        if best >= limit:
            return best
    return acyclic_pairs(s, A, na, B, nb, i + 1, used_b, cards, cover, size, best, limit)


cdef uint32_t class_matchings(const search* s, uint32_t pyr) noexcept nogil:
    """pyramid_matching of each rank class r = 1..6 of the pyramid cards left, 3 bits each
    (class r at bits 3r - 3): remembered in s.mcache, a direct-mapped cache keyed by the
    pyramid (entries of another search are told apart by s.epoch)."""
    cdef uint64_t slot, e
    cdef uint32_t am, bm, out = 0
    cdef int r
    if s.mcache != NULL:
        slot = (hmix(pyr) >> 40) & (MCACHE - 1)
        e = s.mcache[slot]
        if (e >> 48) == s.epoch and ((e >> 20) & PYRAMID_ALL) == pyr:
            return <uint32_t>(e & 0x3FFFF)
    for r in range(1, 7):
        am = pyr & s.t.pyr_rank[r]
        bm = pyr & s.t.pyr_rank[13 - r]
        if am and bm:
            out |= <uint32_t>pyramid_matching(s, am, bm) << (3 * r - 3)
    if s.mcache != NULL:
        s.mcache[slot] = (<uint64_t>s.epoch << 48) | (<uint64_t>pyr << 20) | out
    return out


cdef inline int class_m(uint32_t packed, int r) noexcept nogil:
    return <int>((packed >> (3 * r - 3)) & 7)


cdef int pyramid_partners(const search* s, uint32_t pyr) noexcept nogil:
    """(Needs s.dcache: without it the search would be exponential.) The fewest talon
    partners any game needs to clear the pyramid cards `pyr` (the pyramid alone, exactly:
    which cards are free when; a talon partner of a rank is assumed at hand whenever the
    deal's talon has that rank): PARTNERS_NONE when no game can clear them. Free Kings go
    first (alone, no partner). Remembered in s.dcache, so each pyramid (at most some 1,400
    shapes a deal) is worked out once."""
    cdef uint64_t slot = 0, e
    cdef uint32_t f, x, y, kings
    cdef int best = PARTNERS_NONE, got, a, r
    if pyr == 0 or not (s.t.shortcuts & SC_PARTNERS):
        return 0                           # (not shown sound for these rules: nothing said)
    if s.dcache == NULL:
        return 0                           # (no memory for it: nothing said)
    slot = (hmix(pyr) >> 40) & (MCACHE - 1)
    e = s.dcache[slot]
    if (e >> 48) == s.epoch and ((e >> 20) & PYRAMID_ALL) == pyr:
        return <int>(e & 0xFF)
    f = free_mask(pyr)
    kings = f & s.t.pyr_rank[KING]
    if kings:
        best = pyramid_partners(s, pyr & ~kings)
    else:
        x = f
        while x:
            a = pyr_ctz32(x)
            r = s.t.rank[a]
            y = f & s.t.pyr_rank[13 - r] & ~(((<uint32_t>2) << a) - 1)   # partners after a
            while y:
                got = pyramid_partners(s, pyr & ~((<uint32_t>1) << a)
                                       & ~((<uint32_t>1) << pyr_ctz32(y)))
                if got < best:
                    best = got
                y &= y - 1
            if s.talon_rank[13 - r]:
                got = pyramid_partners(s, pyr & ~((<uint32_t>1) << a)) + 1
                if got < best:
                    best = got
            x &= x - 1
    if best > PARTNERS_NONE:
        best = PARTNERS_NONE
    s.dcache[slot] = (<uint64_t>s.epoch << 48) | (<uint64_t>pyr << 20) | <uint64_t>best
    return best


cdef bint classes_ok(const search* s, uint32_t pyr, const int* tc, bint strict) noexcept nogil:
    """Can every rank class still be paired off? tc[r]: talon cards of rank r still there.
    strict (win all, free talon): every talon card must pair with a pyramid card too."""
    cdef int r, q, a, b, need
    cdef uint32_t am, bm, packed = 0xFFFFFFFFU
    if not (s.t.shortcuts & SC_CLASSES):
        return True
    for r in range(1, 7):
        q = 13 - r
        am = pyr & s.t.pyr_rank[r]
        bm = pyr & s.t.pyr_rank[q]
        a = pyr_popcount32(am)
        b = pyr_popcount32(bm)
        if strict:
            need = a - tc[q]
            if need < 0 or need != b - tc[r]:
                return False
        else:
            need = a - tc[q]
            if b - tc[r] > need:
                need = b - tc[r]
        if need > 0:
            if need > a or need > b:
                return False
            if packed == 0xFFFFFFFFU:
                packed = class_matchings(s, pyr)
            if class_m(packed, r) < need:
                return False
    return True

# ---- the talon ------------------------------------------------------------------------------


cdef uint32_t reachable_talon(const search* s, pyr_pos p) noexcept nogil:
    """Talon cards that may still be played. In the last pass a waste card lies under the
    ones drawn after it: below a card that can never go, nothing comes back. Under draw one
    (without pair_waste_top_two) the waste comes back from the top only, each card with a
    partner of its own: a pyramid card of the complementary rank (or, with the stock top
    playable, a stock card), used up by that card (Kings need none). Counting them from the
    top, the first card left without one can never go: it and all under it are out of play."""
    cdef uint32_t talon = pos_talon(p), waste, pile
    cdef int k, t, r, q
    cdef int avail[14]
    if not last_pass(s, p):
        return talon
    waste = talon & below(pos_cur(p))
    if s.t.rules.draw == 1 and not s.t.rules.pair_waste_top_two:
        for q in range(1, 13):
            avail[q] = pyr_popcount32(pos_pyr(p) & s.t.pyr_rank[q])
            if s.t.rules.stock_top_playable:
                avail[q] += pyr_popcount32(talon & ~waste & s.talon_rank[q])
        pile = waste
        while pile:
            t = pyr_msb32(pile)
            r = s.t.rank[LOC_TALON + t]
            if r != KING:
                q = 13 - r
                if avail[q] == 0:
                    return talon & ~(pile & (((<uint32_t>2) << t) - 1))   # t and all under it
                avail[q] -= 1
            pile &= ~((<uint32_t>1) << t)
        return talon
    for k in range(1 if s.t.rules.draw == 1 else 3):
        pile = waste if s.t.rules.draw == 1 else waste & s.t.pile[k]
        while pile:
            t = pyr_msb32(pile)
            if not can_ever_go(s, p, t):
                talon &= ~(pile & (((<uint32_t>2) << t) - 1))   # t and all under it
                break
            pile &= ~((<uint32_t>1) << t)
    return talon


cdef bint stack_ok(const search* s, pyr_pos p) noexcept nogil:
    """The last pass under draw one: can the pyramid still be cleared when the waste comes
    back from the top only? A relaxation of the game: every stock card is at hand at any
    time; a card in play may serve as a partner any number of times, but each waste card
    that goes takes a pyramid partner of its own; a pyramid card can go once every card
    covering it can (a King alone; else with a talon card in play or a pyramid card that can
    go and does not cover it nor lie under it). The waste's cards come into play one at a
    time from the top: the next one once the one above it can go (a King; a pyramid partner
    that can go and that no card above it took; under stock_top_playable a stock partner).
    Every line of the game is a line of the relaxation, so when even there some pyramid card
    can never go, no line wins. (Where the shortcuts' record does not allow it, True: not
    under pair_with_covering, pair_waste_top_two or draw three.)"""
    cdef const pyr_table* t = s.t
    cdef uint32_t pyr = pos_pyr(p), talon = pos_talon(p), waste, stock, rem = 0, f, x, add
    cdef uint32_t acc = 0
    cdef int k, r, top
    cdef int used[14]
    if not (t.shortcuts & SC_STACK) or not last_pass(s, p):
        return True
    waste = talon & below(pos_cur(p))
    stock = talon & ~waste
    memset(used, 0, sizeof(used))
    for r in range(1, 13):
        if stock & s.talon_rank[r]:
            acc |= (<uint32_t>1) << r
    top = -1
    if waste:
        top = pyr_msb32(waste)
        waste &= ~((<uint32_t>1) << top)
        acc |= (<uint32_t>1) << t.rank[LOC_TALON + top]
    while True:
        while True:                             # the pyramid cards that can go, so far
            f = free_mask(pyr & ~rem)
            add = 0
            x = f
            while x:
                k = pyr_ctz32(x)
                x &= x - 1
                r = t.rank[k]
                if r == KING or (acc >> (13 - r)) & 1 \
                        or (f | rem) & t.pyr_rank[13 - r] & ~s.rel[k]:
                    add |= (<uint32_t>1) << k
            if not add:
                break
            rem |= add
        if rem == pyr:
            return True
        if top < 0 or not waste:
            return False
        r = t.rank[LOC_TALON + top]             # can the waste's top go, to bring the next?
        if r != KING:
            if t.rules.stock_top_playable and stock & s.talon_rank[13 - r]:
                pass
            elif pyr_popcount32(rem & t.pyr_rank[13 - r]) > used[13 - r]:
                used[13 - r] += 1               # (each with a pyramid card of its own)
            else:
                return False
        top = pyr_msb32(waste)
        waste &= ~((<uint32_t>1) << top)
        acc |= (<uint32_t>1) << t.rank[LOC_TALON + top]


cdef bint position_ok(search* s, pyr_pos p) noexcept nogil:
    """Can the position still be won, as far as the rank classes (with the talon cards still
    playable) and the pyramid's own order of removals (pyramid_partners: some game clears
    it) tell?"""
    cdef int tc[14]
    talon_counts(s, reachable_talon(s, p), tc)
    return (classes_ok(s, pos_pyr(p), tc, False)
            and pyramid_partners(s, pos_pyr(p)) < PARTNERS_NONE)

cdef inline int relax_note(search* s, uint64_t key, uint64_t val) noexcept nogil:
    """Remember an answer in s.relax (overwriting the key's entry in place when it has one:
    that needs no room). -1 when the table is full: then s.relax is NULL, and the relaxation
    is dropped for the rest of the search (without its table it could take long)."""
    cdef uint64_t slot = hset_slot(s.relax, key)   # (again: the table may have grown since)
    if hset_at(s.relax, slot, key):
        hset_set(s.relax, slot, val)
        return 0
    if hset_put(s.relax, key, val) < 0:
        s.relax = NULL
        return -1
    return 0


cdef int relaxed_won(search* s, uint32_t pyr, uint64_t cnt) noexcept nogil:
    """Can the pyramid cards pyr be cleared with a free talon holding cnt (3 bits a rank
    1..12: the free-talon search's counts): any talon card at hand at any time? 1 yes, 0 no
    (remembered in s.relax; once that table is full the relaxation is dropped for the rest
    of the search, s.relax NULL, and the answer is 1)."""
    cdef uint32_t f, k, x, y
    cdef uint64_t key, slot, kept
    cdef int r, a, q, i, n, res = 0
    cdef int tc[14]
    cdef pyr_move mv[MAX_MOVES]
    f = free_mask(pyr)
    k = f & s.t.pyr_rank[KING]
    while k:
        pyr &= ~k
        f = free_mask(pyr)
        k = f & s.t.pyr_rank[KING]
    if pyr == 0 or s.relax == NULL:
        return 1
    key = <uint64_t>pyr | (cnt << 28)
    slot = hset_slot(s.relax, key)
    kept = 0
    if hset_at(s.relax, slot, key):
        kept = hset_value(s.relax, slot)
        if kept & 3:
            return <int>(kept & 3) - 1
        if (kept >> 2) == <uint64_t>pyr_popcount32(pyr) + 1:
            return 1                           # (relaxed_most: every card can go)
        if kept >> 2:
            return 0
    tc[0] = tc[13] = 0
    for r in range(1, 13):
        tc[r] = <int>((cnt >> (3 * (r - 1))) & 7)
    if classes_ok(s, pyr, tc, False) and pyramid_partners(s, pyr) < PARTNERS_NONE:
        if s.t.rules.pair_with_covering:           # a card with the one card covering it
            n = gen_covering_pairs(s.t, pyr, f, mv)
            for i in range(n):
                if relaxed_won(s, pyr & ~((<uint32_t>1) << move_a(mv[i]))
                               & ~((<uint32_t>1) << move_b(mv[i])), cnt):
                    res = 1
                    break
        for r in range(1, 7):
            if res:
                break
            x = f & s.t.pyr_rank[r]
            y = f & s.t.pyr_rank[13 - r]
            while x and not res:
                a = pyr_ctz32(x)
                k = y & ~s.rel[a]
                while k:
                    if relaxed_won(s, pyr & ~((<uint32_t>1) << a)
                                   & ~((<uint32_t>1) << pyr_ctz32(k)), cnt):
                        res = 1
                        break
                    k &= k - 1
                x &= x - 1
        x = f
        while x and not res:
            a = pyr_ctz32(x)
            q = 13 - s.t.rank[a]
            if tc[q] and relaxed_won(s, pyr & ~((<uint32_t>1) << a),
                                     cnt - ((<uint64_t>1) << (3 * (q - 1)))):
                res = 1
            x &= x - 1
    if s.relax != NULL and relax_note(s, key, kept | <uint64_t>(res + 1)) < 0:
        return 1                       # (the table is full: s.relax NULL)
    return res


cdef int relaxed_most(search* s, uint32_t pyr, uint64_t cnt) noexcept nogil:
    """The most of the pyramid cards pyr that can go with a free talon holding cnt (as for
    relaxed_won, in the same table: an entry's bits 2 and up hold this answer + 1, bits 0-1
    relaxed_won's); -1 once the table is full (s.relax NULL)."""
    cdef uint32_t f, k, x, y
    cdef uint64_t key, slot, kept = 0
    cdef int r, a, q, i, n, got, best = 0, kings = 0, top
    cdef pyr_move mv[MAX_MOVES]
    f = free_mask(pyr)
    k = f & s.t.pyr_rank[KING]
    while k:
        kings += pyr_popcount32(k)
        pyr &= ~k
        f = free_mask(pyr)
        k = f & s.t.pyr_rank[KING]
    if pyr == 0:
        return kings
    if s.relax == NULL:
        return -1
    key = <uint64_t>pyr | (cnt << 28)
    slot = hset_slot(s.relax, key)
    if hset_at(s.relax, slot, key):
        kept = hset_value(s.relax, slot)
        if kept >> 2:
            return kings + <int>(kept >> 2) - 1
        if (kept & 3) == 2:
            return kings + pyr_popcount32(pyr)          # (relaxed_won: all of them)
    top = pyr_popcount32(pyr)
    if s.t.rules.pair_with_covering:
        n = gen_covering_pairs(s.t, pyr, f, mv)
        for i in range(n):
            got = relaxed_most(s, pyr & ~((<uint32_t>1) << move_a(mv[i]))
                               & ~((<uint32_t>1) << move_b(mv[i])), cnt)
            if got < 0:
                return -1
            if got + 2 > best:
                best = got + 2
    for r in range(1, 7):
        x = f & s.t.pyr_rank[r]
        y = f & s.t.pyr_rank[13 - r]
        while x and best < top:
            a = pyr_ctz32(x)
            k = y & ~s.rel[a]
            while k and best < top:
                got = relaxed_most(s, pyr & ~((<uint32_t>1) << a)
                                   & ~((<uint32_t>1) << pyr_ctz32(k)), cnt)
                if got < 0:
                    return -1
                if got + 2 > best:
                    best = got + 2
                k &= k - 1
            x &= x - 1
    x = f
    while x and best < top:
        a = pyr_ctz32(x)
        q = 13 - s.t.rank[a]
        if (cnt >> (3 * (q - 1))) & 7:
            got = relaxed_most(s, pyr & ~((<uint32_t>1) << a),
                               cnt - ((<uint64_t>1) << (3 * (q - 1))))
            if got < 0:
                return -1
            if got + 1 > best:
                best = got + 1
        x &= x - 1
    if relax_note(s, key, kept | (<uint64_t>(best + 1) << 2)) < 0:
        return -1
    return kings + best


cdef int relaxed_removal_bound(search* s, pyr_pos p) noexcept nogil:
    """At most how many pyramid cards can be gone in the end, by the free-talon relaxation
    with the talon cards still playable (28 when the table is full, and, as measured, not
    worked out in the last pass under draw one: there the talon's order binds, and the
    relaxation cost more than it saved)."""
    cdef int most
    if not (s.t.shortcuts & SC_RELAX) or s.relax == NULL or (
            s.t.rules.draw == 1 and last_pass(s, p)):
        return 28
    most = relaxed_most(s, pos_pyr(p), relax_counts(s, p))
    return 28 if most < 0 else 28 - pyr_popcount32(pos_pyr(p)) + most


cdef uint64_t relax_counts(const search* s, pyr_pos p) noexcept nogil:
    """The relaxation's talon counts for p: the talon cards still playable of each rank, 3
    bits a rank 1..12. (Capping each at the pyramid cards it could go with made the answers
    no more often shared: measured level.)"""
    cdef uint32_t talon = reachable_talon(s, p)
    cdef uint64_t cnt = 0
    cdef int r
    for r in range(1, 13):
        cnt |= (<uint64_t>pyr_popcount32(talon & s.talon_rank[r])) << (3 * (r - 1))
    return cnt


cdef bint relaxed_ok(search* s, pyr_pos p) noexcept nogil:
    """Could p be won if the talon cards still playable were all at hand at any time (the
    free-talon relaxation: every move of p's rules is one there, and talon cards that go
    together only make it harder)? Not worked out (True) for win="all", nor, as measured, in
    the last pass: there the talon's order binds, and the relaxation pruned little and cost
    more than it saved."""
    if not (s.t.shortcuts & SC_RELAX) or s.win_all or s.relax == NULL or last_pass(s, p):
        return True
    return relaxed_won(s, pos_pyr(p), relax_counts(s, p)) != 0

# ---- the most pyramid cards a line removes --------------------------------------------------


cdef uint32_t stuck_set(const search* s, uint32_t pyr, const int* tc) noexcept nogil:
    """The pyramid cards that can never go: a card with no partner left (no card of the
    complementary rank in the talon, and every pyramid one it could ever meet stays too)
    stays, and so does every card it covers. Worked out to a fixed point: a card that stays
    can leave another one without a partner."""
    cdef uint32_t x, partners, stuck = 0, before
    cdef int a, r
    while True:
        before = stuck
        for r in range(1, 13):
            if tc[13 - r]:
                continue             # a talon partner is always there
            x = pyr & s.t.pyr_rank[r] & ~stuck
            partners = pyr & s.t.pyr_rank[13 - r] & ~stuck
            while x:
                a = pyr_ctz32(x)
                if (partners & ~s.rel[a]) == 0:
                    stuck |= ((<uint32_t>1) << a) | PYR_GEO.above[a]
                x &= x - 1
        if stuck == before:
            return stuck & pyr


cdef int stuck_bound(const search* s, uint32_t pyr, const int* tc) noexcept nogil:
    """At most how many pyramid cards can be gone in the end (stuck_set's stay)."""
    if not (s.t.shortcuts & SC_CLASSES):
        return 28
    return 28 - pyr_popcount32(stuck_set(s, pyr, tc))


cdef int removal_bound(const search* s, uint32_t pyr, const int* tc) noexcept nogil:
    """stuck_bound, and a count class by class: at most m pyramid pairs (m: the largest set
    of pairs that can meet), the rest of each rank needing a talon partner of the other."""
    cdef uint32_t am, bm
    cdef int a, b, q, r, m
    cdef int counted = 28 - pyr_popcount32(pyr & ~s.t.pyr_rank[KING])
    if not (s.t.shortcuts & SC_CLASSES):
        return 28
    for r in range(1, 7):
        q = 13 - r
        am = pyr & s.t.pyr_rank[r]
        bm = pyr & s.t.pyr_rank[q]
        a = pyr_popcount32(am)
        b = pyr_popcount32(bm)
        m = pyramid_matching(s, am, bm) if a and b else 0
        counted += 2 * m + min(a - m, tc[q]) + min(b - m, tc[r])
    return min(stuck_bound(s, pyr, tc), counted)

# ---- the lower bound on the moves to a win --------------------------------------------------


cdef int pyramid_part(search* s, uint32_t pyr, pyr_part* pp) noexcept nogil:
    """Fill pp for the pyramid cards pyr: the moves that remove them (each pyramid King
    alone, and per rank class the pyramid cards that cannot all go in pyramid pairs: one
    move removes at most one pair) and the talon partners they need. MAX_LINE when no game
    can clear them."""
    cdef uint32_t am, bm
    cdef int h = pyr_popcount32(pyr & s.t.pyr_rank[KING]), r, a, b, m, t
    cdef uint32_t packed
    if (s.t.shortcuts & SC_LOWER_BOUND_NEEDS) != SC_LOWER_BOUND_NEEDS:
        memset(pp, 0, sizeof(pyr_part))    # (not shown sound for these rules: 0)
        return 0
    packed = class_matchings(s, pyr)
    pp.need[0] = pp.need[7] = pp.need[13] = 0
    pp.pc[0] = pp.pc[7] = 0
    pp.pc[13] = h
    pp.total = 0
    for r in range(1, 7):
        am = pyr & s.t.pyr_rank[r]
        bm = pyr & s.t.pyr_rank[13 - r]
        a = pyr_popcount32(am)
        b = pyr_popcount32(bm)
        pp.pc[r] = a
        pp.pc[13 - r] = b
        m = class_m(packed, r)
        h += a + b - m
        pp.need[13 - r] = a - m      # talon partners of rank 13 - r needed at least
        pp.need[r] = b - m
        pp.least[r] = a + b - 2 * m  # talon partners of the class needed at least
        pp.total += pp.least[r]
    # The talon partners the pyramid needs, its timing counted (pyramid_partners), beyond
    # the classes' least: each two more is a move more (talon_bound shares it out).
    pp.d = 0
    if s.objective == OBJ_MIN_MOVES and s.t.shortcuts & SC_PARTNERS:
        t = pyramid_partners(s, pyr)
        if t >= PARTNERS_NONE:
            return MAX_LINE
        t -= pp.total
        if t > 0:
            pp.d = t >> 1
    if s.t.rules.draw != 1:
        h += pp.d
    pp.h = h
    return h


cdef int lower_bound(search* s, pyr_pos p) noexcept nogil:
    """Moves still needed at least: pyramid_part's count, plus, under draw one, what
    reaching the talon partners costs (talon_bound)."""
    cdef pyr_part pp
    if pyramid_part(s, pos_pyr(p), &pp) >= MAX_LINE:
        return MAX_LINE
    return part_bound(s, p, &pp)


ctypedef struct way:
    # The cards in the way of a talon card (see talon_bound), counted the way the bound
    # needs them, kept up to date card by card: per class c (ranks c and 13 - c), ub[c] of
    # them can go with pyramid cards (at most min(cards of rank x, pyramid cards of rank
    # 13 - x) per rank x); u is their sum and half the half moves they add.
    int n                     # cards in the way
    int u
    int half
    int count[14]             # cards in the way by rank
    int ub[7]


cdef inline int class_of(int r) noexcept nogil:
    """The rank class of rank r (1..12): r and 13 - r; 0 for a King."""
    return r if r <= 6 else (13 - r if r < 13 else 0)


cdef inline int halves(const pyr_part* pp, int c, int use) noexcept nogil:
    """The half moves class c adds when `use` talon partners go with its pyramid cards."""
    return (use - pp.least[c] + 1) >> 1 if use > pp.least[c] else 0   # a + b + t is even


cdef inline void way_change(way* w, const pyr_part* pp, int y, int by,
                            bint pairable) noexcept nogil:
    """One card of rank y more (by = 1) or fewer (by = -1) in the way; pairable: it may go
    with a pyramid card (else it costs a whole move)."""
    cdef int c = class_of(y), before = w.count[y]
    w.n += by
    if c == 0 or not pairable:
        return
    w.count[y] += by
    # min(count[y], pyramid cards of rank 13 - y) moves when the smaller count is y's
    if (before < pp.pc[13 - y]) if by > 0 else (before <= pp.pc[13 - y]):
        w.half -= halves(pp, c, w.ub[c])
        w.ub[c] += by
        w.u += by
        w.half += halves(pp, c, w.ub[c])


cdef inline int way_cost(const way* w, const pyr_part* pp, int y, int extra, bint y_in,
                         bint y_pairable) noexcept nogil:
    """The moves that remove no pyramid card (beyond lower_bound's count) needed to get the
    cards in the way out of the way of a talon partner of rank y, plus `extra` moves (its
    draw, a recycle). y_in: y itself is counted in w (pairable or not: y_pairable) and is
    not in its own way."""
    cdef int c = class_of(y), n = w.n + extra, u = w.u, half = w.half, ub
    if c:
        ub = w.ub[c]
        if y_in:
            n -= 1
            if y_pairable and w.count[y] <= pp.pc[13 - y]:
                ub -= 1
                u -= 1
        half += halves(pp, c, ub + 1) - halves(pp, c, w.ub[c])   # y is a partner too
    elif y_in:
        n -= 1
    return n - u + (half if half > pp.d else pp.d)


cdef enum:
    NO_RANKS = 0xFFFFFFFF         # partner_free: no stuck_of answer carried yet


cdef uint32_t stuck_of(const search* s, uint32_t pyr, uint32_t ranks) noexcept nogil:
    """stuck_set of the pyramid cards pyr when the talon offers the ranks in `ranks` (bit r:
    rank r), remembered in s.scache (direct-mapped: a key word, then the set)."""
    cdef uint32_t stuck
    cdef int tc[14]
    cdef int r
    cdef uint64_t key, slot
    ranks &= 0x1FFE                        # (a King partners nothing)
    key = (s.epoch << 41) | (<uint64_t>ranks << 28) | pyr
    slot = 2 * ((hmix(key) >> 40) & (MCACHE - 1))
    if s.scache != NULL and s.scache[slot] == key:
        return <uint32_t>s.scache[slot + 1]
    for r in range(1, 14):
        tc[r] = (ranks >> r) & 1
    stuck = stuck_set(s, pyr, tc)
    if s.scache == NULL:
        return stuck
    s.scache[slot] = key
    s.scache[slot + 1] = stuck
    return stuck


cdef inline bint all_free(const search* s, uint32_t pyr, uint32_t wq,
                          uint32_t stuck) noexcept nogil:
    """Has each rank in wq (bit r: rank r) a pyramid card outside stuck?"""
    cdef int r
    while wq:
        r = pyr_ctz32(wq)
        wq &= wq - 1
        if not (pyr & s.t.pyr_rank[r] & ~stuck):
            return False
    return True


cdef bint route_ok(const search* s, uint32_t pyr, uint32_t ranks, uint32_t wq,
                   uint32_t* stuck, uint32_t* known) noexcept nogil:
    """Can a pyramid card of each rank in wq be free while the talon offers only the ranks
    in `ranks`? (stuck and known as for partner_free.)"""
    if known[0] != NO_RANKS and all_free(s, pyr, wq, stuck[0]):
        return True                      # the last answer, from fewer ranks, does
    if ranks != known[0]:
        stuck[0] = stuck_of(s, pyr, ranks)
        known[0] = ranks
    return all_free(s, pyr, wq, stuck[0])


cdef inline bint partner_free(const search* s, uint32_t pyr, int y, uint32_t ranks,
                              uint32_t* stuck, uint32_t* known) noexcept nogil:
    """Can a pyramid partner of a card of rank y (not a King) be free while the talon offers
    only the ranks in `ranks`? stuck and known carry stuck_of's last answer and its ranks
    between calls whose ranks only grow (known NO_RANKS: none yet). With more ranks fewer
    cards stay, so an answer "free" from fewer ranks holds: stuck_of is asked again only when
    the last answer says no."""
    cdef uint32_t want = pyr & s.t.pyr_rank[13 - y]
    if known[0] != NO_RANKS and want & ~stuck[0]:
        return True
    if ranks != known[0]:
        stuck[0] = stuck_of(s, pyr, ranks)
        known[0] = ranks
    return (want & ~stuck[0]) != 0


cdef int talon_bound(search* s, pyr_pos p, const pyr_part* pp) noexcept nogil:
    """Draw one: a lower bound on the moves, beyond lower_bound's count, that reaching the
    talon partners in pp.need (by rank) costs.

    A talon card N is reached once the cards in its way (the set X) are gone: for a stock
    card, every stock card above it (drawn, or removed as the playable stock top); for a
    waste card under the top, either every waste card above it (removed), or, when a
    recycle is left, every stock card (drawn or removed), the recycle itself, then every
    card before N in the next pass. A card of X that goes without a pyramid card costs a
    move that removes no pyramid card (a draw, a talon King, a pair of talon cards). One
    that goes with a pyramid card costs half a move more than lower_bound counts, once its
    class (ranks r and 13 - r) uses more talon partners than the pp.least it must: a class
    with a + b pyramid cards and t talon partners takes (a + b + t) / 2 moves, lower_bound
    counted t = least. At most min(cards of rank x in X, pyramid cards of rank 13 - x) of X
    go with pyramid cards. Where the stock top is not playable, none of the stock cards in
    N's way (nor, after a recycle, the cards before N in the next pass) can: each is drawn, a
    whole move. A card reached in the stock is drawn too (unless the stock top is playable);
    N is a talon partner of its class. The bound is the largest over the ranks
    needed of the k-th cheapest card of a rank needed k times; a position without enough
    talon partners left can never be won (a bound above any line).

    The timing, where it is cheap to know (stuck_of: the pyramid cards that cannot go while
    the talon offers only some ranks):
    * The way from above is open only if every waste card above N can find a partner before
      N is reached, while N and the cards under it are out of reach: a stock card (where the
      stock top is playable) or a pyramid card that can be free then (route_ok); and if N's
      own pyramid partner can be free while the cards under N are (partner_free). Else N is
      reached only by recycling.
    * Where the stock top is playable, a stock card goes with a pyramid card only as the
      stock top, so that card must be free while the stock under it is out of reach: a card
      of X that cannot costs a move, and so does N (it is drawn first). A waste card of X
      goes with a pyramid card only if that card can be free while the waste under it is out
      of reach (worked out only where the stock top is playable: elsewhere it did not pay).

    The cards in the way are counted card by card (way_change: O(1) a card), so the bound
    costs one pass over the talon.

    pp.d: half the talon partners the pyramid needs, its timing counted, beyond the
    classes' least (pyramid_partners). The talon partners t of all classes number at least
    the classes' least plus 2d, and the pyramid cards take (cards + t) / 2 moves: the half moves a
    partner's way adds and these d moves are the same extra partners counted twice, so
    the larger of the two counts (and d alone when no partner is needed)."""
    cdef uint32_t talon, stock, waste, x_bits
    cdef int cur = pos_cur(p), y, t, worst = 0, cost, k, i, j
    cdef int draw_self = 0 if s.t.rules.stock_top_playable else 1
    cdef bint recycle
    cdef way above                # the cards above the card looked at
    cdef way rest                 # every talon card but those above it (the way round)
    cdef int costs[14][4]
    cdef int n_costs[14]
    cdef bint stp = s.t.rules.stock_top_playable
    cdef uint32_t stock_ranks = 0, wranks = 0, wq = 0
    cdef bint dead = False, pairable, free_p, open_above
    cdef uint32_t pyr = pos_pyr(p), ranks = 0, known = NO_RANKS, stuck = 0
    if pp.total == 0:
        return pp.d
    talon = reachable_talon(s, p)
    stock = talon & ~below(cur)
    waste = talon & below(cur)
    recycle = can_recycle(s.t, p) or (
        stock != 0 and (s.t.rules.redeals == REDEALS_UNLIMITED
                        or pos_recycles(p) < s.t.rules.redeals))
    memset(&above, 0, sizeof(way))
    memset(n_costs, 0, sizeof(n_costs))
    rest.n = rest.u = rest.half = 0      # (read only after a recycle fills it: for GCC)
    # The stock, top first: the cards above each. A card's cost only grows with its depth
    # (one more card in the way adds a move, or half a move and a partner), so of a rank
    # needed k times only the k nearest can be among its k cheapest.
    if stp:
        for y in range(1, 13):
            if waste & s.talon_rank[y]:
                ranks |= (<uint32_t>1) << y
    x_bits = stock
    while x_bits:
        y = s.t.rank[LOC_TALON + pyr_ctz32(x_bits)]
        # A stock card goes with a pyramid card only as the playable stock top (where the
        # stock top is not playable it is drawn, a whole move), its partner free while the
        # cards under it are out of reach.
        ranks |= (<uint32_t>1) << y
        pairable = stp and y != KING and (pyr & s.t.pyr_rank[13 - y]) != 0 and partner_free(
            s, pyr, y, ranks & 0x1FFE, &stuck, &known)
        if n_costs[y] < pp.need[y]:
            costs[y][n_costs[y]] = way_cost(&above, pp, y, draw_self if pairable or not stp else 1,
                                            False, False)
            n_costs[y] += 1
        stock_ranks |= (<uint32_t>1) << y
        way_change(&above, pp, y, 1, pairable)
        x_bits &= x_bits - 1
    # The waste, top first: the cards above each, or the recycle: the stock, then the
    # waste cards under it (every card but those above it, and itself).
    if recycle:
        rest = above
        x_bits = waste
        while x_bits:
            way_change(&rest, pp, s.t.rank[LOC_TALON + pyr_ctz32(x_bits)], 1, stp)
            x_bits &= x_bits - 1
    memset(&above, 0, sizeof(way))
    known = NO_RANKS                     # (the waste's ranks below are not the stock's)
    x_bits = waste
    while x_bits:
        t = pyr_msb32(x_bits)
        y = s.t.rank[LOC_TALON + t]
        # From above: can the cards above N go first (their partners free while N and the
        # cards under it are out of reach)? Then can N's own partner be free while the cards
        # under it are? (Asked in this order, the ranks only grow.) The second is worked
        # out for every card only where the stock top is playable (measured).
        open_above = True
        if wq and pp.need[y] > 0 and n_costs[y] < 4 and not s.t.rules.pair_waste_top_two:
            open_above = not dead and route_ok(s, pyr, (stock_ranks | wranks) & 0x1FFE, wq,
                                               &stuck, &known)
        wranks |= (<uint32_t>1) << y
        free_p = False
        if (stp or pp.need[y] > 0) and y != KING and (pyr & s.t.pyr_rank[13 - y]) != 0:
            free_p = partner_free(s, pyr, y, (stock_ranks | wranks) & 0x1FFE, &stuck, &known)
        if pp.need[y] > 0 and n_costs[y] < 4:
            cost = way_cost(&above, pp, y, 0, False, False)
            k = way_cost(&rest, pp, y, 1 + draw_self, True, stp) if recycle else MAX_LINE
            if k < cost:
                cost = k
            elif not s.t.rules.pair_waste_top_two and (not free_p or (cost > 0 and not open_above)):
                cost = k                 # (from above: N's partner and those of the cards
                                         # above it must be free with what is in reach)
            if cost < MAX_LINE:
                costs[y][n_costs[y]] = cost
                n_costs[y] += 1
        way_change(&above, pp, y, 1, free_p if stp else True)
        if recycle:
            way_change(&rest, pp, y, -1, stp)
        if y != KING and not (stp and (stock_ranks >> (13 - y)) & 1):
            if not (pyr & s.t.pyr_rank[13 - y]):
                dead = True      # (a card above N, and so above all under it)
            wq |= (<uint32_t>1) << (13 - y)
        x_bits &= ~((<uint32_t>1) << t)
    # Each rank needed k times: its k-th cheapest card.
    for y in range(1, 13):
        k = pp.need[y]
        if k == 0:
            continue
        if n_costs[y] < k:
            return MAX_LINE
        for i in range(1, n_costs[y]):          # sort (at most 4)
            j = i
            while j > 0 and costs[y][j - 1] > costs[y][j]:
                costs[y][j - 1], costs[y][j] = costs[y][j], costs[y][j - 1]
                j -= 1
        if costs[y][k - 1] > worst:
            worst = costs[y][k - 1]
    return worst
