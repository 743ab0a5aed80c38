# cython: language_level=3
"""The exact solver (docs/solver.md).

Two searches, both depth-first with a transposition table of positions already searched:

* the *free talon* search, for draw 1 with unlimited redeals and neither
  stock_top_playable nor pair_waste_top_two (pyramide, unlimited and their variants): there,
  any talon card can be brought to the top of the waste by drawing and recycling, so the
  cursor and the recycle count are irrelevant and a position is just the pyramid mask plus how
  many talon cards of each rank are left (one 64-bit key). The line found is turned into real
  moves (draws and recycles included) at the end. There a pyramid already searched with at
  least the same talon cards left dominates (unless every talon card must go: win="all");
* the *general* search over real positions (one 64-bit word each) for every other rule set,
  with an explicit stack. A position already searched with no more recycles used dominates.

Both remove a free King at once (it never hurts: no card pairs with a King) and prune
positions where a rank class cannot be paired off: the pyramid cards of ranks r and 13 - r
need partners, and a pyramid pair needs two cards neither of which covers the other.
Shortest lines (OBJ_MIN_MOVES) come from an A* search over the positions after removals (each
removal after the draws it needs: see astar), with lower_bound (the pyramid's removals, the
talon partners it needs and what reaching them costs), after the cheap win search has
decided the position; when A*'s budget runs out, the win search's line is returned instead
(winnable 1, optimal 0, stop naming the budget).

Budgets (positions, seconds, memory) and the cancel flag (a byte another thread sets while the
search runs without the GIL) stop a search with winnable -1 (unknown) and stop saying why:
STOP_NODES, STOP_TIME, STOP_MEMORY or STOP_CANCELLED. The clock and the flag are read every
1,024 positions expanded, in every search loop; a stopped search never answers "cannot be won".
"""
from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy

from pyramid_core.cards cimport KING, N_TALON
from pyramid_core.rules cimport REDEALS_UNLIMITED, pyr_rules, rules_from_options
from pyramid_core.geometry cimport (free_mask, pyr_ctz32, pyr_msb32, pyr_popcount32, PYRAMID_ALL,
                                    PYR_GEO, pyr_geometry_init, pyr_match, pyr_match_init)
from pyramid_core.position cimport (pyr_table, pyr_pos, pyr_move, Table, MAX_MOVES, LOC_TALON,
                                    LOC_NONE, MOVE_DRAW, MOVE_RECYCLE, TALON_ALL, CUR_SHIFT,
                                    gen_moves,
                                    pos_apply, pos_won, pos_pyr, pos_talon, pos_cur,
                                    pos_recycles, waste_top, stock_top, can_recycle, move_king,
                                    table_init, pos_start, gen_covering_pairs, pile_top,
                                    move_pair, move_a, move_b, below)

cdef extern from "pyr_clock.h" nogil:
    double pyr_now()

cdef extern from * nogil:
    void __builtin_prefetch(const void* p)

cdef extern from "pyr_cancel.h" nogil:
    int pyr_cancelled(const volatile uint8_t* f)

cdef uint64_t CARD_BITS = ((<uint64_t>1) << CUR_SHIFT) - 1   # a position's cards

cdef enum:
    TALON_RANK = 1 << 12     # abstract move of the free-talon search: pyramid a + a talon card
    DEFAULT_MEMORY = 1 << 30
    REC_MASK_SHIFT = 57

pyr_geometry_init()
pyr_match_init()

# ---- a growable hash set of 64-bit keys with a small value ------------------------------------

# (hset and solve_ws are declared in solver.pxd.) A slot is in use when its stamp is the
# table's epoch, so emptying the table for the next solve is one increment, not a memset.

cdef inline uint64_t hmix(uint64_t k) noexcept nogil:
    k ^= k >> 33
    k *= <uint64_t>0xFF51AFD7ED558CCDULL
    k ^= k >> 33
    k *= <uint64_t>0xC4CEB9FE1A85EC53ULL
    k ^= k >> 33
    return k


cdef enum:
    HSET_SMALL = 1 << 12       # a table larger than this shrinks back when emptied
    MCACHE = 1 << 14           # class_matchings' cache entries (128 KiB)
    PARTNERS_NONE = 99         # pyramid_partners: no game clears the pyramid


cdef int hset_init(hset* h, int64_t capacity) noexcept nogil:
    h.mask = <uint64_t>(capacity - 1)
    h.count = 0
    h.epoch = 1
    h.max_entries = 0
    h.cancel = NULL
    h.e = <hentry*>calloc(capacity, sizeof(hentry))
    return 0 if h.e else -1


cdef void hset_free(hset* h) noexcept nogil:
    free(h.e)
    h.e = NULL


cdef void hset_clear(hset* h, int64_t max_bytes) noexcept nogil:
    """Empty the table for a new search allowed max_bytes. A table grown large by a hard
    search shrinks back: a few entries spread over a big one would miss the cache."""
    cdef hentry* small
    h.count = 0
    h.max_entries = max_bytes // <int64_t>sizeof(hentry) // 2   # at most half full
    h.epoch += 1
    if h.mask + 1 > HSET_SMALL:
        small = <hentry*>calloc(HSET_SMALL, sizeof(hentry))
        if small:
            free(h.e)
            h.e = small
            h.mask = HSET_SMALL - 1
            h.epoch = 1
            return
    if h.epoch == 0:
        memset(h.e, 0, (h.mask + 1) * sizeof(hentry))
        h.epoch = 1


cdef inline uint64_t hset_slot(const hset* h, uint64_t key) noexcept nogil:
    """The slot holding key, or the empty slot where it would go."""
    cdef uint64_t i = hmix(key) & h.mask
    while h.e[i].stamp == h.epoch and h.e[i].key != key:
        i = (i + 1) & h.mask
    return i


cdef inline bint hset_at(const hset* h, uint64_t slot, uint64_t key) noexcept nogil:
    """Does `slot` (from hset_slot) hold key?"""
    return h.e[slot].stamp == h.epoch and h.e[slot].key == key


cdef enum:
    GROW_CHECK = 1 << 14       # a grow looks at the cancel flag every this many old slots


cdef int hset_grow(hset* h) noexcept nogil:
    """Double the table; -1 when the memory budget (or malloc) says no, or when the cancel
    flag is set part-way (rehashing tens of millions of entries takes seconds)."""
    cdef uint64_t old_cap = h.mask + 1, new_cap = old_cap * 2, i, j
    cdef hentry* e
    if <int64_t>new_cap // 2 > h.max_entries:
        return -1
    e = <hentry*>calloc(new_cap, sizeof(hentry))
    if not e:
        return -1
    for i in range(old_cap):
        if (i & (GROW_CHECK - 1)) == 0 and pyr_cancelled(h.cancel):
            free(e)
            return -1
        if h.e[i].stamp == h.epoch:
            j = hmix(h.e[i].key) & (new_cap - 1)
            while e[j].stamp:
                j = (j + 1) & (new_cap - 1)
            e[j] = h.e[i]
            e[j].stamp = 1
    free(h.e)
    h.e = e
    h.epoch = 1
    h.mask = new_cap - 1
    return 0


cdef inline int hset_put(hset* h, uint64_t key, uint64_t val) noexcept nogil:
    """Insert or overwrite (val: up to 48 bits); -1 when the memory budget is spent."""
    cdef uint64_t i
    if (h.count + 1) * 2 > <int64_t>(h.mask + 1):
        if hset_grow(h) < 0:
            return -1
    i = hset_slot(h, key)
    if h.e[i].stamp != h.epoch:
        h.e[i].stamp = h.epoch
        h.e[i].key = key
        h.count += 1
    h.e[i].val = <uint32_t>val
    h.e[i].hi = <uint16_t>(val >> 32)
    return 0


# ---- the search context ---------------------------------------------------------------------

ctypedef struct search:
    const pyr_table* t
    int objective
    int win_all
    int stop
    int64_t nodes
    int64_t max_nodes
    double deadline
    const volatile uint8_t* cancel   # NULL: never cancelled
    hset* seen                # positions searched (meaning depends on the search)
    hset* visit               # general search under unlimited redeals: positions entered;
                              # free-talon OBJ_MAX_REMOVED: talon counts expanded per pyramid
    const uint32_t* rel       # places a pyramid card can never pair with (PYR_GEO's bad)
    uint32_t talon_rank[14]   # talon bits by rank
    int best_removed          # OBJ_MAX_REMOVED: best so far, its line in `best`
    int root_bound            # OBJ_MAX_REMOVED: no line removes more (removal_bound)
    bint track_best           # keep the line removing the most pyramid cards seen so far
    bint no_prune             # tests: no pruning by rank classes or buried cards
    int best_len
    pyr_move* best
    pyr_move* path
    int path_len
    uint64_t* mcache          # class_matchings' cache (MCACHE entries), or NULL
    uint64_t* dcache          # pyramid_partners', the same way
    uint64_t epoch            # this search's stamp in mcache (1 .. 65535)


cdef enum:
    WIN_GLANCE_NODES = 48     # the free-talon max_removed search's first look for a win


cdef inline bint over_budget(search* s, bint check_clock) noexcept nogil:
    """Has the nodes budget (or, with check_clock, the time budget, or has the cancel flag
    been set) run out? Sets s.stop."""
    if s.max_nodes > 0 and s.nodes > s.max_nodes:
        s.stop = STOP_NODES
        return True
    if check_clock:
        if pyr_cancelled(s.cancel):
            s.stop = STOP_CANCELLED
            return True
        if s.deadline > 0 and pyr_now() > s.deadline:
            s.stop = STOP_TIME
            return True
    return False


cdef inline int no_room(search* s) noexcept nogil:
    """A table could not grow: out of memory, or the grow gave up on the cancel flag. Sets
    s.stop; returns -1 (the search's "budget ran out")."""
    s.stop = STOP_CANCELLED if pyr_cancelled(s.cancel) else STOP_MEMORY
    return -1


cdef inline bint spent(search* s) noexcept nogil:
    """Count one expanded position; True when a budget has run out (the clock and the cancel
    flag are read every 1,024 positions)."""
    s.nodes += 1
    return over_budget(s, (s.nodes & 1023) == 0)


cdef int pyramid_matching(const search* s, uint32_t am, uint32_t bm) noexcept nogil:
    """How many disjoint pairs (a, b) of places in am x bm can all be removed as pyramid
    pairs in one game: each pair can meet (neither card covers the other) and no two pairs
    cover each other's cards (a pair goes once its cards are free, so a pair whose cards
    cover the other's goes second: both ways round, neither can go). Under
    pair_with_covering only the first condition is used (a card may go with its cover)."""
    cdef int A[4]
    cdef int B[4]
    cdef uint32_t cards[4]
    cdef uint32_t cover[4]
    cdef int na = 0, nb = 0, m = pyr_match(am, bm, s.rel)
    if m < 2 or s.t.rules.pair_with_covering:
        return m                           # one pair has no other to cover
    while am and na < 4:
        A[na] = pyr_ctz32(am)
        na += 1
        am &= am - 1
    while bm and nb < 4:
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
    better)."""
    cdef int j, k, got
    cdef uint32_t pc, pv
    cdef bint ok
    if size > best:
        best = size
    if i == na or best >= limit or size + (na - i) <= best:
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
    """(Needs s.dcache: without it the search would be exponential.) The fewest talon partners any game needs to clear the pyramid cards `pyr` (the
    pyramid alone, exactly: which cards are free when; a talon partner of a rank is
    assumed at hand whenever the deal's talon has that rank): PARTNERS_NONE when no game
    can clear them. Free Kings go first (alone, no partner). Remembered in s.dcache, so
    each pyramid (at most some 1,400 shapes a deal) is worked out once."""
    cdef uint64_t slot = 0, e
    cdef uint32_t f, x, y, kings
    cdef int best = PARTNERS_NONE, got, a, r
    if pyr == 0:
        return 0
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


cdef void search_init(search* s, const pyr_table* t, int objective, const solve_limits* lim,
                      pyr_move* path, pyr_move* best) noexcept nogil:
    cdef int i, r
    memset(s, 0, sizeof(search))
    s.t = t
    s.objective = objective
    s.win_all = t.rules.win_all
    s.max_nodes = lim.max_nodes
    s.no_prune = lim.no_prune
    s.cancel = lim.cancel
    s.deadline = pyr_now() + lim.max_seconds if lim.max_seconds > 0 else 0
    s.path = path
    s.best = best
    s.best_removed = -1
    # a card may pair with a direct cover under pair_with_covering
    s.rel = &PYR_GEO.bad_pwc[0] if t.rules.pair_with_covering else &PYR_GEO.bad[0]
    for i in range(N_TALON):
        s.talon_rank[t.rank[LOC_TALON + i]] |= (<uint32_t>1) << i


cdef inline bint note_best(search* s, uint32_t pyr, int depth) noexcept nogil:
    """Keep the line if it removes more than any before; True once it reaches the bound
    (nothing better exists: the search can stop)."""
    cdef int removed = 28 - pyr_popcount32(pyr)
    if removed > s.best_removed:
        s.best_removed = removed
        s.best_len = depth
        memcpy(s.best, s.path, depth * sizeof(pyr_move))
    return s.best_removed >= s.root_bound

cdef int stuck_bound(const search* s, uint32_t pyr, const int* tc) noexcept nogil:
    """At most how many pyramid cards can be gone in the end: a card with no partner left
    (no card of the complementary rank in the talon, and every pyramid one it could ever
    meet stays too) stays, and so does every card it covers. Worked out to a fixed point: a
    card that stays can leave another one without a partner."""
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
            return 28 - pyr_popcount32(stuck & pyr)


cdef int removal_bound(const search* s, uint32_t pyr, const int* tc) noexcept nogil:
    """stuck_bound, and a count class by class: at most m pyramid pairs (m: the largest set
    of pairs that can meet), the rest of each rank needing a talon partner of the other."""
    cdef uint32_t am, bm
    cdef int a, b, q, r, m
    cdef int counted = 28 - pyr_popcount32(pyr & ~s.t.pyr_rank[KING])
    for r in range(1, 7):
        q = 13 - r
        am = pyr & s.t.pyr_rank[r]
        bm = pyr & s.t.pyr_rank[q]
        a = pyr_popcount32(am)
        b = pyr_popcount32(bm)
        m = pyramid_matching(s, am, bm) if a and b else 0
        counted += 2 * m + min(a - m, tc[q]) + min(b - m, tc[r])
    return min(stuck_bound(s, pyr, tc), counted)


cdef inline void talon_counts(const search* s, uint32_t talon, int* tc) noexcept nogil:
    cdef int r
    for r in range(1, 14):
        tc[r] = pyr_popcount32(talon & s.talon_rank[r])


# ---- the free-talon search ------------------------------------------------------------------

cdef inline int cnt_get(uint64_t cnt, int r) noexcept nogil:
    return <int>((cnt >> (3 * (r - 1))) & 7)


# The talon counts as 12 fields of 3 bits (values 0..4). Fields of even and of odd rank
# index, taken apart, have an empty field above each one to borrow from.
cdef uint64_t CNT_EVEN = 0o0707070707070707          # fields 0, 2, ..., (3 bits each)
cdef uint64_t CNT_GUARD_EVEN = 0o1010101010101010    # the bit above each of them
cdef uint64_t CNT_ODD = CNT_EVEN << 3
cdef uint64_t CNT_GUARD_ODD = CNT_GUARD_EVEN << 3


cdef inline bint cnt_within(uint64_t c, uint64_t s) noexcept nogil:
    """Is every field of c at most the same field of s? (SWAR: a field's guard bit survives
    the subtraction exactly when nothing was borrowed from it.)"""
    cdef uint64_t e = ((s & CNT_EVEN) | CNT_GUARD_EVEN) - (c & CNT_EVEN)
    cdef uint64_t o = ((s & CNT_ODD) | CNT_GUARD_ODD) - (c & CNT_ODD)
    return (e & CNT_GUARD_EVEN) == CNT_GUARD_EVEN and (o & CNT_GUARD_ODD) == CNT_GUARD_ODD


cdef inline bint dominated(search* s, uint32_t pyr, uint64_t cnt) noexcept nogil:
    """The free-talon search (unless talon cards must all go): was the same pyramid already
    expanded with at least these talon cards? Any talon card can be reached at any time and
    none has to go, so every line from here is also a line from there: this state adds
    nothing (no win, no more cards removed; the pyramid only shrinks along a line, so that
    state is not on the current line). Else remember these counts for the pyramid, unless
    the ones kept are not below them."""
    cdef uint64_t key = (<uint64_t>1 << 63) | pyr, slot = hset_slot(s.visit, key), kept
    if hset_at(s.visit, slot, key):
        kept = s.visit.e[slot].val | ((<uint64_t>s.visit.e[slot].hi) << 32)
        if cnt_within(cnt, kept):
            return True
        if not cnt_within(kept, cnt):
            return False
    hset_put(s.visit, key, cnt)         # (out of memory: just not remembered)
    return False


cdef int free_dfs(search* s, uint32_t pyr, uint64_t cnt, int depth) noexcept nogil:
    """1: a win below (line in s.path[:s.path_len]); 0: none; -1: a budget ran out."""
    cdef const pyr_table* t = s.t
    cdef uint32_t f, k, x, y
    cdef uint64_t key
    cdef int tc[14]
    cdef int r, q, a, b, res, n = 0, i
    cdef pyr_move mv[64]
    # Free Kings go at once.
    f = free_mask(pyr)
    k = f & t.pyr_rank[KING]
    while k:
        while k:
            a = pyr_ctz32(k)
            s.path[depth] = move_king(a)
            depth += 1
            pyr &= ~((<uint32_t>1) << a)
            k &= k - 1
        f = free_mask(pyr)
        k = f & t.pyr_rank[KING]
    if s.track_best and note_best(s, pyr, depth) and s.objective == OBJ_MAX_REMOVED:
        return 1
    if pyr == 0 and (not s.win_all or cnt == 0):
        s.path_len = depth
        return 1
    key = <uint64_t>pyr | (cnt << 28)
    if hset_at(s.seen, hset_slot(s.seen, key), key):
        return 0
    if hset_put(s.seen, key, 0) < 0:
        return no_room(s)
    if spent(s):
        return -1
    for r in range(1, 13):
        tc[r] = cnt_get(cnt, r)
    if s.objective == OBJ_ANY and not s.no_prune and (
            not classes_ok(s, pyr, tc, s.win_all) or (not s.win_all and dominated(s, pyr, cnt))):
        return 0
    if s.objective == OBJ_MAX_REMOVED and (stuck_bound(s, pyr, tc) <= s.best_removed
                                           or (not s.no_prune and dominated(s, pyr, cnt))):
        return 0
    # Moves: pairs of free pyramid cards first (they spare the talon), then a free card with
    # a talon card, the scarcer partner rank first.
    for r in range(1, 7):
        x = f & t.pyr_rank[r]
        y = f & t.pyr_rank[13 - r]
        while x:
            a = pyr_ctz32(x)
            k = y & ~s.rel[a]
            while k:
                mv[n] = move_pair(a, pyr_ctz32(k))
                n += 1
                k &= k - 1
            x &= x - 1
    if t.rules.pair_with_covering:
        n += gen_covering_pairs(t, pyr, f, mv + n)
    x = f & ~t.pyr_rank[KING]
    while x:
        a = pyr_ctz32(x)
        q = 13 - t.rank[a]
        if tc[q]:
            mv[n] = <pyr_move>(TALON_RANK | a | (q << 6))
            n += 1
        x &= x - 1
    for i in range(n):
        s.path[depth] = mv[i]
        if mv[i] & TALON_RANK:
            q = (mv[i] >> 6) & 15
            a = mv[i] & 63
            res = free_dfs(s, pyr & ~((<uint32_t>1) << a), cnt - ((<uint64_t>1) << (3 * (q - 1))),
                           depth + 1)
        else:
            res = free_dfs(s, pyr & ~(((<uint32_t>1) << move_a(mv[i])) | ((<uint32_t>1) << move_b(mv[i]))),
                           cnt, depth + 1)
        if res != 0:
            return res
    return 0


cdef int bring_to_waste(const pyr_table* t, pyr_pos* p, int rank, pyr_move* line, int* n) noexcept nogil:
    """Draw (and recycle) until the waste top has `rank`; 0 ok, -1 impossible."""
    cdef int steps, w
    for steps in range(3 * (N_TALON + 1)):
        w = waste_top(p[0])
        if w >= 0 and t.rank[LOC_TALON + w] == rank:
            return 0
        if n[0] >= MAX_LINE - 1:
            return -1
        if pos_talon(p[0]) & ~below(pos_cur(p[0])):
            line[n[0]] = MOVE_DRAW
        elif can_recycle(t, p[0]):
            line[n[0]] = MOVE_RECYCLE
        else:
            return -1
        p[0] = pos_apply(t, p[0], line[n[0]])
        n[0] += 1
    return -1


cdef int realize(const pyr_table* t, pyr_pos p, const pyr_move* abstract, int count,
                 bint finish_talon, pyr_move* line) noexcept nogil:
    """Turn a free-talon line into real moves from p; returns the count (-1 on failure)."""
    cdef int n = 0, i, a, w
    cdef pyr_move m
    for i in range(count):
        m = abstract[i]
        if m & TALON_RANK:
            a = m & 63
            if bring_to_waste(t, &p, (m >> 6) & 15, line, &n) < 0:
                return -1
            m = move_pair(a, LOC_TALON + waste_top(p))
        if n >= MAX_LINE:
            return -1
        line[n] = m
        n += 1
        p = pos_apply(t, p, m)
    # Win all: the talon Kings are left; take each one to the waste top and remove it.
    while finish_talon and not pos_won(t, p):
        if bring_to_waste(t, &p, KING, line, &n) < 0 or n >= MAX_LINE:
            return -1
        line[n] = move_king(LOC_TALON + waste_top(p))
        p = pos_apply(t, p, line[n])
        n += 1
    return n

# ---- the general search ---------------------------------------------------------------------

ctypedef struct frame:
    pyr_pos pos
    int n
    int i
    pyr_move mv[MAX_MOVES]


cdef int order_moves(search* s, pyr_pos p, pyr_move* mv) noexcept nogil:
    """The moves of p worth trying, best first: a King alone if there is one (pyramid Kings
    always; talon Kings unless the line must be shortest)."""
    cdef int n = gen_moves(s.t, p, mv), i
    for i in range(n):
        if move_b(mv[i]) == LOC_NONE and move_a(mv[i]) != LOC_NONE:
            if move_a(mv[i]) < LOC_TALON or s.objective != OBJ_MIN_MOVES:
                mv[0] = mv[i]
                return 1
        else:
            break
    return n


cdef inline bint last_pass(const search* s, pyr_pos p) noexcept nogil:
    return (s.t.rules.redeals != REDEALS_UNLIMITED
            and pos_recycles(p) >= s.t.rules.redeals)


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
    return s.t.rules.stock_top_playable and (pos_talon(p) & ~below(pos_cur(p)) & s.talon_rank[q]) != 0


cdef uint32_t reachable_talon(const search* s, pyr_pos p) noexcept nogil:
    """Talon cards that may still be played. In the last pass a waste card lies under the
    ones drawn after it: below a card that can never go, nothing comes back."""
    cdef uint32_t talon = pos_talon(p), waste, pile
    cdef int k, t
    if not last_pass(s, p):
        return talon
    waste = talon & below(pos_cur(p))
    for k in range(1 if s.t.rules.draw == 1 else 3):
        pile = waste if s.t.rules.draw == 1 else waste & s.t.pile[k]
        while pile:
            t = pyr_msb32(pile)
            if not can_ever_go(s, p, t):
                talon &= ~(pile & (((<uint32_t>2) << t) - 1))   # t and all under it
                break
            pile &= ~((<uint32_t>1) << t)
    return talon


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


cdef bint position_ok(search* s, pyr_pos p) noexcept nogil:
    cdef int tc[14]
    talon_counts(s, reachable_talon(s, p), tc)
    return classes_ok(s, pos_pyr(p), tc, False)


cdef inline uint64_t general_key(const search* s, pyr_pos p) noexcept nogil:
    """What must match for one position to stand for another: the cards left (draw 1), plus
    the cursor (draw 3, whose draws skip cursors)."""
    if s.t.rules.draw == 1:
        return p & (((<uint64_t>1) << CUR_SHIFT) - 1)
    return p & (((<uint64_t>1) << REC_MASK_SHIFT) - 1)


cdef inline uint32_t general_progress(const search* s, pyr_pos p) noexcept nogil:
    """How far through the talon passes p is. Under draw 1, a position with the same cards
    and less progress reaches p by drawing (and recycling), so it stands for p: p can be
    skipped when such a position was searched."""
    if s.t.rules.draw == 1:
        return <uint32_t>(pos_recycles(p) * 32 + pos_cur(p))
    return <uint32_t>pos_recycles(p)


cdef int general_dfs(search* s, pyr_pos start) noexcept nogil:
    """1: a win (line in s.path[:s.path_len]); 0: none; -1: a budget ran out.

    s.seen holds the positions searched to the end with no win (their cards as key, the least
    progress as value: see general_progress). Under unlimited redeals draws and recycles make
    cycles, so positions on the way are also marked in s.visit (exact words) and not entered
    twice; marking them before they are finished is sound for "is there a win", as the search
    stops at the first one.
    """
    cdef int cap = 256, depth = 0, i
    cdef frame* st = <frame*>malloc(cap * sizeof(frame))
    cdef frame* tmp
    cdef frame* F
    cdef pyr_pos c
    cdef uint64_t key, slot
    cdef uint32_t progress
    cdef int result = 0
    cdef bint prune = s.objective == OBJ_ANY and not s.no_prune
    cdef bint cyclic = s.t.rules.redeals == REDEALS_UNLIMITED
    cdef int tc[14]
    if not st:
        s.stop = STOP_MEMORY
        return -1
    st[0].pos = start
    st[0].n = order_moves(s, start, st[0].mv)
    st[0].i = 0
    depth = 1
    if cyclic and hset_put(s.visit, start, 0) < 0:
        free(st)
        return no_room(s)
    while depth > 0:
        F = &st[depth - 1]
        if F.i == F.n:
            # Searched to the end: remember it (the least progress wins).
            key = general_key(s, F.pos)
            progress = general_progress(s, F.pos)
            slot = hset_slot(s.seen, key)
            if not hset_at(s.seen, slot, key) or s.seen.e[slot].val > progress:
                if hset_put(s.seen, key, progress) < 0:
                    result = no_room(s)
                    break
            depth -= 1
            continue
        c = pos_apply(s.t, F.pos, F.mv[F.i])
        F.i += 1
        if pos_won(s.t, c) or (s.track_best and 28 - pyr_popcount32(pos_pyr(c)) > s.best_removed):
            for i in range(depth):
                s.path[i] = st[i].mv[st[i].i - 1]
            if s.track_best and note_best(s, pos_pyr(c), depth) and s.objective == OBJ_MAX_REMOVED:
                result = 1
                break
            if pos_won(s.t, c):
                s.path_len = depth
                result = 1
                break
        key = general_key(s, c)
        slot = hset_slot(s.seen, key)
        if hset_at(s.seen, slot, key) and s.seen.e[slot].val <= general_progress(s, c):
            continue           # a position standing for this one was searched to the end
        if cyclic:
            slot = hset_slot(s.visit, c)
            if hset_at(s.visit, slot, c):
                continue
            if hset_put(s.visit, c, 0) < 0:
                result = no_room(s)
                break
        if spent(s):
            result = -1
            break
        if prune and (move_a(F.mv[F.i - 1]) != LOC_NONE or buries(s, c)) \
                and not position_ok(s, c):
            continue
        if s.objective == OBJ_MAX_REMOVED:
            talon_counts(s, reachable_talon(s, c), tc)
            if stuck_bound(s, pos_pyr(c), tc) <= s.best_removed:
                continue
        if depth >= MAX_LINE - 1:
            s.stop = STOP_MEMORY
            result = -1
            break
        if depth == cap:
            tmp = <frame*>realloc(st, 2 * cap * sizeof(frame))
            if not tmp:
                s.stop = STOP_MEMORY
                result = -1
                break
            st = tmp
            cap *= 2
        st[depth].pos = c
        st[depth].n = order_moves(s, c, st[depth].mv)
        st[depth].i = 0
        depth += 1
    free(st)
    return result

# ---- shortest lines: A* ---------------------------------------------------------------------

ctypedef struct pyr_part:
    # lower_bound's count for a pyramid (the same for every position with those pyramid
    # cards: worked out once for A*'s walk of draws, which keeps the pyramid).
    int h                     # the moves removing pyramid cards (and d, under draw three)
    int d                     # pairs_shortfall: see talon_bound
    int total                 # talon partners needed, all ranks
    int need[14]              # talon partners of each rank needed at least
    int least[7]              # talon partners of each class needed at least
    int pc[14]                # pyramid cards of each rank


cdef int pyramid_part(search* s, uint32_t pyr, pyr_part* pp) noexcept nogil:
    """Fill pp for the pyramid cards pyr: the moves that remove them (each pyramid King
    alone, and per rank class the pyramid cards that cannot all go in pyramid pairs: one
    move removes at most one pair) and the talon partners they need. MAX_LINE when no game
    can clear them."""
    cdef uint32_t am, bm
    cdef int h = pyr_popcount32(pyr & s.t.pyr_rank[KING]), r, a, b, m, t
    cdef uint32_t packed = class_matchings(s, pyr)
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
    if s.objective == OBJ_MIN_MOVES and not s.t.rules.pair_with_covering:
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


cdef inline int part_bound(search* s, pyr_pos p, const pyr_part* pp) noexcept nogil:
    """lower_bound of p, whose pyramid's part is pp."""
    if s.t.rules.draw == 1:
        return pp.h + talon_bound(s, p, pp)
    return pp.h


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


cdef inline void way_change(way* w, const pyr_part* pp, int y, int by) noexcept nogil:
    """One card of rank y more (by = 1) or fewer (by = -1) in the way."""
    cdef int c = class_of(y), before = w.count[y]
    w.count[y] += by
    w.n += by
    if c == 0:
        return
    # min(count[y], pyramid cards of rank 13 - y) moves when the smaller count is y's
    if (before < pp.pc[13 - y]) if by > 0 else (before <= pp.pc[13 - y]):
        w.half -= halves(pp, c, w.ub[c])
        w.ub[c] += by
        w.u += by
        w.half += halves(pp, c, w.ub[c])


cdef inline int way_cost(const way* w, const pyr_part* pp, int y, int extra, bint y_in) noexcept nogil:
    """The moves that remove no pyramid card (beyond lower_bound's count) needed to get the
    cards in the way out of the way of a talon partner of rank y, plus `extra` moves (its
    draw, a recycle). y_in: y itself is counted in w and is not in its own way."""
    cdef int c = class_of(y), n = w.n + extra, u = w.u, half = w.half, ub
    if c:
        ub = w.ub[c]
        if y_in:
            n -= 1
            if w.count[y] <= pp.pc[13 - y]:
                ub -= 1
                u -= 1
        half += halves(pp, c, ub + 1) - halves(pp, c, w.ub[c])   # y is a partner too
    return n - u + (half if half > pp.d else pp.d)


cdef int talon_bound(search* s, pyr_pos p, const pyr_part* pp) noexcept nogil:
    """Draw one: a lower bound on the moves, beyond lower_bound's count, that reaching the
    talon partners in `need` (by rank) costs.

    A talon card N is reached once the cards in its way (the set X) are gone: for a stock
    card, every stock card above it (drawn, or removed as the playable stock top); for a
    waste card under the top, either every waste card above it (removed), or, when a
    recycle is left, every stock card (drawn or removed), the recycle itself, then every
    card before N in the next pass. A card of X that goes without a pyramid card costs a
    move that removes no pyramid card (a draw, a talon King, a pair of talon cards). One
    that goes with a pyramid card costs half a move more than lower_bound counts, once its
    class (ranks r and 13 - r) uses more talon partners than the least[] it must: a class
    with a + b pyramid cards and t talon partners takes (a + b + t) / 2 moves, lower_bound
    counted t = least. At most min(cards of rank x in X, pyramid cards of rank 13 - x) of X
    go with pyramid cards. A card reached in the stock is drawn too (unless the stock top is
    playable); N is a talon partner of its class. The bound is the largest over the ranks
    needed of the k-th cheapest card of a rank needed k times; a position without enough
    talon partners left can never be won (a bound above any line).

    `d`: pyramid pairs the classes count that cannot all be had in one game
    (pairs_shortfall). The talon partners t of all classes number at least the classes'
    least plus 2d, and the pyramid cards take (cards + t) / 2 moves: the half moves a
    partner's way adds and these d moves are the same extra partners counted twice, so
    the larger of the two counts (and d alone when no partner is needed)."""
    cdef uint32_t talon, stock, waste, x_bits
    cdef int cur = pos_cur(p), x, y, t, worst = 0, cost, k, i, j
    cdef int draw_self = 0 if s.t.rules.stock_top_playable else 1
    cdef bint recycle
    cdef way above                # the cards above the card looked at
    cdef way rest                 # every talon card but those above it (the way round)
    cdef int costs[14][4]
    cdef int n_costs[14]
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
    # The stock, top first: the cards above each. A card's cost only grows with its depth
    # (one more card in the way adds a move, or half a move and a partner), so of a rank
    # needed k times only the k nearest can be among its k cheapest.
    x_bits = stock
    while x_bits:
        y = s.t.rank[LOC_TALON + pyr_ctz32(x_bits)]
        if n_costs[y] < pp.need[y]:
            costs[y][n_costs[y]] = way_cost(&above, pp, y, draw_self, False)
            n_costs[y] += 1
        way_change(&above, pp, y, 1)
        x_bits &= x_bits - 1
    # The waste, top first: the cards above each, or the recycle: the stock, then the
    # waste cards under it (every card but those above it, and itself).
    rest = above
    x_bits = waste
    while x_bits:
        way_change(&rest, pp, s.t.rank[LOC_TALON + pyr_ctz32(x_bits)], 1)
        x_bits &= x_bits - 1
    memset(&above, 0, sizeof(way))
    x_bits = waste
    while x_bits:
        t = pyr_msb32(x_bits)
        y = s.t.rank[LOC_TALON + t]
        if pp.need[y] > 0 and n_costs[y] < 4:
            cost = way_cost(&above, pp, y, 0, False)
            if cost > 0 and recycle:
                k = way_cost(&rest, pp, y, 1 + draw_self, True)
                if k < cost:
                    cost = k
            costs[y][n_costs[y]] = cost
            n_costs[y] += 1
        way_change(&above, pp, y, 1)
        way_change(&rest, pp, y, -1)
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


ctypedef struct anode:
    pyr_pos pos
    uint32_t parent
    uint16_t g
    pyr_move move           # the removal that made this node (0 for the start)

ctypedef struct anodes:
    # A*'s nodes: 16 bytes each, and two bytes beside: the draws and recycles played (from
    # the parent) before the node's removal, and where the node's walk resumes (0: the node
    # is not expanded yet).
    anode* at
    uint8_t* steps
    uint8_t* walk
    int64_t n
    int64_t cap


ctypedef struct fbucket:
    uint32_t* v
    int64_t n
    int64_t cap

ctypedef struct flayer:
    fbucket* by_g             # FQ_G stacks, by g (capped), allocated when first used
    int64_t n
    int gtop                  # no stack above this one holds a node

ctypedef struct fqueue:
    # A* frontier: the smallest f first; among equal f the deepest (largest g) first, last
    # in first out among equal f and g. A layer of stacks per f (f < MAX_LINE).
    flayer* layer
    int fmin
    int64_t count
    int64_t bytes


cdef enum:
    FQ_G = 256                # g above this shares the top stack (the order is a tie-break)
    MAX_G = 0xFFF0            # A*'s longest line (g is 16 bits)
    DEAD = 255                # anodes.walk of a node a shorter line to its position replaced


cdef int fq_init(fqueue* q) noexcept nogil:
    q.layer = <flayer*>calloc(MAX_LINE, sizeof(flayer))
    q.fmin = MAX_LINE
    q.count = 0
    q.bytes = MAX_LINE * sizeof(flayer)
    return 0 if q.layer else -1


cdef void fq_free(fqueue* q) noexcept nogil:
    cdef int f, g
    if q.layer:
        for f in range(MAX_LINE):
            if q.layer[f].by_g:
                for g in range(FQ_G):
                    free(q.layer[f].by_g[g].v)
                free(q.layer[f].by_g)
        free(q.layer)
    q.layer = NULL


cdef int fq_push(fqueue* q, int f, int g, uint32_t node) noexcept nogil:
    """-1 when memory runs out."""
    cdef flayer* L = &q.layer[f]
    cdef fbucket* b
    cdef uint32_t* tmp
    cdef int64_t cap
    if g >= FQ_G:
        g = FQ_G - 1
    if not L.by_g:
        L.by_g = <fbucket*>calloc(FQ_G, sizeof(fbucket))
        if not L.by_g:
            return -1
        q.bytes += FQ_G * sizeof(fbucket)
    b = &L.by_g[g]
    if b.n == b.cap:
        cap = 2 * b.cap if b.cap else 64
        tmp = <uint32_t*>realloc(b.v, cap * sizeof(uint32_t))
        if not tmp:
            return -1
        q.bytes += (cap - b.cap) * <int64_t>sizeof(uint32_t)
        b.v = tmp
        b.cap = cap
    b.v[b.n] = node
    b.n += 1
    L.n += 1
    if g > L.gtop:
        L.gtop = g
    q.count += 1
    if f < q.fmin:
        q.fmin = f
    return 0


cdef uint32_t fq_pop(fqueue* q, int* f) noexcept nogil:
    """The next node (the queue is not empty); its f in f[0]."""
    cdef flayer* L
    cdef fbucket* b
    while q.layer[q.fmin].n == 0:
        q.fmin += 1
    L = &q.layer[q.fmin]
    while L.by_g[L.gtop].n == 0:
        L.gtop -= 1
    f[0] = q.fmin
    b = &L.by_g[L.gtop]
    b.n -= 1
    L.n -= 1
    q.count -= 1
    return b.v[b.n]


cdef inline pyr_move talon_step(const pyr_table* t, pyr_pos p) noexcept nogil:
    """The draw, else the recycle, p allows; 0 when neither."""
    if pos_talon(p) & ~below(pos_cur(p)):
        return MOVE_DRAW
    if can_recycle(t, p):
        return MOVE_RECYCLE
    return 0


cdef inline uint32_t newly_available(const pyr_table* t, pyr_pos before, pyr_pos after) noexcept nogil:
    """Talon bits of the cards a draw or recycle from `before` to `after` made available:
    the new stock top where it is playable, else the card drawn (draw 1) or the cards drawn
    (draw 3)."""
    cdef int x
    if t.rules.stock_top_playable:
        x = stock_top(after)
        return (<uint32_t>1) << x if x >= 0 else 0
    if pos_cur(after) <= pos_cur(before):
        return 0                                   # a recycle: the waste is empty
    return pos_talon(after) & below(pos_cur(after)) & ~below(pos_cur(before))


cdef int dominated_by_cursor(hset* cards, pyr_pos c, int g) noexcept nogil:
    """Draw one, finite redeals: -1 when position c, reached in g moves, is dominated by a
    position with the same cards reached earlier: one that is `d` draws and recycles
    before c in the talon's passes and was reached in at most g - d moves walks to c's
    position at no greater cost, and its walk makes every removal c could make (or one
    leading to a position that dominates the result). Else c is noted: 0, or 1 when the
    table is full.

    A position's place in the passes is tau = recycles x (talon cards left + 1) + cards on
    the waste: each draw or recycle adds one. Per set of cards the table keeps two
    (tau, g - tau) pairs, 24 bits each in the 48-bit value; c is dominated by a pair with
    tau <= c's tau and g - tau <= c's g - tau."""
    cdef uint64_t key = c & CARD_BITS, slot, v, e, keep = 0
    cdef uint32_t talon = pos_talon(c)
    cdef int tau = pos_recycles(c) * (pyr_popcount32(talon) + 1) \
        + pyr_popcount32(talon & below(pos_cur(c)))
    cdef int delta = g - tau + 256, j, et, ed, n = 0, worst = -1, worst_d = -1
    cdef uint64_t entries[2]
    if tau > 0xFF or delta <= 0 or delta > 0xFFFF:
        return 0                                   # (many redeals: not kept)
    slot = hset_slot(cards, key)
    if hset_at(cards, slot, key):
        v = cards.e[slot].val | (<uint64_t>cards.e[slot].hi << 32)
        for j in range(2):
            e = (v >> (24 * j)) & 0xFFFFFF
            if e == 0:
                continue
            et = <int>(e & 0xFF)
            ed = <int>(e >> 8)
            if et <= tau and ed <= delta:
                return -1
            if not (tau <= et and delta <= ed):      # not dominated by c: kept
                entries[n] = e
                if ed > worst_d:
                    worst_d = ed
                    worst = n
                n += 1
    e = <uint64_t>(tau & 0xFF) | (<uint64_t>(delta & 0xFFFF) << 8)
    if n < 2:
        entries[n] = e
        n += 1
    elif delta < worst_d:
        entries[worst] = e
    for j in range(n):
        keep |= entries[j] << (24 * j)
    return 1 if hset_put(cards, key, keep) < 0 else 0


cdef int fresh_moves(const pyr_table* t, pyr_pos q, uint32_t fresh, pyr_move* out) noexcept nogil:
    """Draw one, no top-two waste pairs: the removals at q that use the talon card in
    `fresh` (one card: the new stock top where it is playable, else the new waste top).
    The order is gen_moves' (the King, the pyramid partners, the other talon card)."""
    cdef int n = 0, x, r, w
    cdef uint32_t y
    if not fresh:
        return 0
    x = LOC_TALON + pyr_ctz32(fresh)
    r = t.rank[x]
    if r == KING:
        out[0] = move_king(x)
        return 1
    y = free_mask(pos_pyr(q)) & t.pyr_rank[13 - r]
    while y:
        out[n] = move_pair(pyr_ctz32(y), x)
        n += 1
        y &= y - 1
    if t.rules.stock_top_playable:                 # x is the stock top; the waste top too
        w = waste_top(q)
        if w >= 0 and t.rank[LOC_TALON + w] + r == 13:
            out[n] = move_pair(LOC_TALON + w, x)
            n += 1
    return n


cdef int astar(search* s, pyr_pos start, int64_t max_bytes) noexcept nogil:
    """The shortest winning line: A* on f = g + h with the admissible lower_bound; the
    smallest f first, among equal f the deepest. s.seen maps each position reached by a
    removal (full word) to its node.

    A line is removals, each after some draws and recycles (a line ends with a removal). A
    removal after a draw or recycle must use a card that step made available: any other
    removal could go before the step (pyramid cards and the cards available before commute
    with it), or would cost a move more than removing the card from the stock top before
    drawing it. So a node's expansion generates its removals, then walks its draws and
    recycles, generating at each step only the removals with what the step made available.
    The walk goes on while the step's position has f no larger than the node's; otherwise
    the node goes back into the frontier with that f, and its walk resumes there when it
    comes out again (nothing is stored for the positions on the way). Under unlimited
    redeals the walk stops once it has come round to where it began (going on would repeat
    what it passed, dearer)."""
    cdef anodes N
    cdef fqueue open_
    cdef pyr_move mv[MAX_MOVES]
    cdef int n, i, g, h, result = 0, k, cost, f, fq, origin, resume
    cdef uint32_t cur, fresh, a, b
    cdef uint64_t slot
    cdef pyr_pos p, c, q, prev
    cdef pyr_move step
    cdef bint recycled
    # Draw one without the waste's top-two pairs: the removals with a card a step made
    # available are written directly (fresh_moves), not picked from all the moves.
    cdef bint quick = s.t.rules.draw == 1 and not s.t.rules.pair_waste_top_two
    # Draw one with finite redeals: s.visit keeps, per set of cards left, where (in steps)
    # and how cheaply positions with those cards were reached (dominated_by_cursor).
    cdef bint by_cards = s.t.rules.draw == 1 and s.t.rules.redeals != REDEALS_UNLIMITED
    cdef int dom, m
    cdef pyr_pos kids[MAX_MOVES]
    cdef pyr_move kid_moves[MAX_MOVES]
    cdef uint32_t superseded
    cdef pyr_part walk_part            # the pyramid's part of the bound, for p's walk
    memset(&N, 0, sizeof(N))
    if fq_init(&open_) < 0 or open_.bytes + (1 << 12) * (sizeof(anode) + 2) > max_bytes \
            or anodes_grow(&N, 1 << 12) < 0:
        anodes_free(&N)
        fq_free(&open_)
        s.stop = STOP_MEMORY
        return -1
    anodes_add(&N, start, 0xFFFFFFFFU, 0, 0, 0)
    hset_put(s.seen, start, 0)
    h = lower_bound(s, start)
    if h >= MAX_LINE or fq_push(&open_, h, 0, 0) < 0:
        anodes_free(&N)
        fq_free(&open_)
        return 0 if h >= MAX_LINE else no_room(s)
    while open_.count > 0:
        cur = fq_pop(&open_, &f)
        if N.walk[cur] == DEAD:
            continue                       # a shorter line reached this position since
        p = N.at[cur].pos
        g = N.at[cur].g
        if pos_won(s.t, p):
            result = astar_line(s, &N, cur, start)
            break
        if spent(s):
            result = -1
            break
        # Where the walk is: at p (a node not expanded yet), or `resume` steps on.
        resume = N.walk[cur]
        q = p
        k = 0
        fresh = 0xFFFFFFFFU
        origin = pos_cur(p)
        recycled = False
        walk_part.h = -1                   # worked out at the walk's first step
        while k < resume:
            step = talon_step(s.t, q)
            prev = q
            q = pos_apply(s.t, q, step)
            k += 1
            recycled = recycled or step == MOVE_RECYCLE
            fresh = newly_available(s.t, prev, q)
        while True:
            # The removals at q (after k steps from p): all of them at p, else those using
            # what the last step made available. A free pyramid King goes alone, first.
            if fresh == 0xFFFFFFFFU or not quick:
                n = order_moves(s, q, mv)
            else:
                n = fresh_moves(s.t, q, fresh, mv)
            # The children first, their table slots fetched ahead (the tables are far
            # larger than the caches: a probe that waits for memory is what costs here).
            m = 0
            for i in range(n):
                a = move_a(mv[i])
                if a == LOC_NONE:
                    continue                       # the draw or recycle: the walk below
                b = move_b(mv[i])
                if fresh != 0xFFFFFFFFU and not (
                        (a >= LOC_TALON and (fresh >> (a - LOC_TALON)) & 1)
                        or (b >= LOC_TALON and b != LOC_NONE and (fresh >> (b - LOC_TALON)) & 1)):
                    continue                       # it could have gone before the step
                kids[m] = pos_apply(s.t, q, mv[i])
                kid_moves[m] = mv[i]
                __builtin_prefetch(&s.seen.e[hmix(kids[m]) & s.seen.mask])
                if by_cards:
                    __builtin_prefetch(&s.visit.e[hmix(kids[m] & CARD_BITS) & s.visit.mask])
                m += 1
            for i in range(m):
                cost = g + k + 1
                c = kids[i]
                slot = hset_slot(s.seen, c)
                if hset_at(s.seen, slot, c):
                    if N.at[s.seen.e[slot].val].g <= cost:
                        continue
                    superseded = s.seen.e[slot].val
                else:
                    superseded = 0xFFFFFFFFU
                if by_cards:
                    dom = dominated_by_cursor(s.visit, c, cost)
                    if dom < 0:
                        continue
                    if dom > 0:
                        result = no_room(s)
                        break
                if pos_won(s.t, c):
                    h = 0
                elif not quick and not position_ok(s, c):
                    continue                       # (draw one: lower_bound says it)
                else:
                    h = lower_bound(s, c)
                if cost + h >= MAX_LINE or cost > MAX_G:
                    continue
                if N.n == N.cap and (
                        2 * N.cap * <int64_t>(sizeof(anode) + 2) + open_.bytes > max_bytes
                        or N.cap >= 0x7FFFFFFF or anodes_grow(&N, 2 * N.cap) < 0):
                    s.stop = STOP_MEMORY
                    result = -1
                    break
                anodes_add(&N, c, cur, cost, kid_moves[i], k)
                if superseded != 0xFFFFFFFFU:
                    N.walk[superseded] = DEAD
                if hset_put(s.seen, c, <uint32_t>(N.n - 1)) < 0 or fq_push(
                        &open_, cost + h, cost, <uint32_t>(N.n - 1)) < 0:
                    result = no_room(s)
                    break
            if result != 0:
                break
            if n == 1 and k == 0 and move_b(mv[0]) == LOC_NONE and move_a(mv[0]) < LOC_TALON:
                break                              # a free pyramid King: nothing else
            # The next draw or recycle.
            step = talon_step(s.t, q)
            if step == 0 or g + k + 1 > MAX_G or k >= 250:
                break
            prev = q
            q = pos_apply(s.t, q, step)
            k += 1
            if step == MOVE_RECYCLE:
                recycled = True
            elif (recycled and s.t.rules.redeals == REDEALS_UNLIMITED
                    and pos_cur(q) >= origin):
                break                              # round to where the walk began
            fresh = newly_available(s.t, prev, q)
            if not quick and buries(s, q) and not position_ok(s, q):
                break                              # lost: so is everything after it (the
                                                   # cards are p's: only a buried talon
                                                   # card can make q lost where p is not)
            if walk_part.h < 0 and pyramid_part(s, pos_pyr(p), &walk_part) >= MAX_LINE:
                break                              # (p was pushed: lower_bound allowed it)
            fq = g + k + part_bound(s, q, &walk_part)
            if fq >= MAX_LINE:
                break
            if fq > f:
                N.walk[cur] = <uint8_t>k           # later: back into the frontier
                if fq_push(&open_, fq, g + k, cur) < 0:
                    result = no_room(s)
                break
        if result != 0:
            break
    anodes_free(&N)
    fq_free(&open_)
    return result


cdef int anodes_grow(anodes* N, int64_t cap) noexcept nogil:
    cdef anode* at = <anode*>realloc(N.at, cap * sizeof(anode))
    cdef uint8_t* steps
    cdef uint8_t* walk
    if not at:
        return -1
    N.at = at
    steps = <uint8_t*>realloc(N.steps, cap)
    if not steps:
        return -1
    N.steps = steps
    walk = <uint8_t*>realloc(N.walk, cap)
    if not walk:
        return -1
    N.walk = walk
    N.cap = cap
    return 0


cdef inline void anodes_add(anodes* N, pyr_pos pos, uint32_t parent, int g, pyr_move move,
                            int steps) noexcept nogil:
    """Append a node (the caller made room)."""
    cdef anode* x = &N.at[N.n]
    x.pos = pos
    x.parent = parent
    x.g = <uint16_t>g
    x.move = move
    N.steps[N.n] = <uint8_t>steps
    N.walk[N.n] = 0
    N.n += 1


cdef void anodes_free(anodes* N) noexcept nogil:
    free(N.at)
    free(N.steps)
    free(N.walk)
    N.at = NULL
    N.steps = NULL
    N.walk = NULL


cdef int astar_line(search* s, const anodes* N, uint32_t goal, pyr_pos start) noexcept nogil:
    """Write the line to node `goal` into s.path (each node's steps, then its removal);
    1, or -1 when it is too long to return."""
    cdef uint32_t idx = goal
    cdef int n = 0, i, k, total = N.at[goal].g
    cdef pyr_pos q = start
    cdef uint32_t chain[MAX_LINE]
    if total >= MAX_LINE:
        s.stop = STOP_MEMORY
        return -1
    while N.at[idx].parent != 0xFFFFFFFFU:
        chain[n] = idx
        n += 1
        idx = N.at[idx].parent
    s.path_len = 0
    for i in range(n - 1, -1, -1):
        for k in range(N.steps[chain[i]]):
            s.path[s.path_len] = talon_step(s.t, q)
            q = pos_apply(s.t, q, s.path[s.path_len])
            s.path_len += 1
        s.path[s.path_len] = N.at[chain[i]].move
        q = pos_apply(s.t, q, N.at[chain[i]].move)
        s.path_len += 1
    return 1

# ---- the entry point ------------------------------------------------------------------------

cdef bint free_talon_rules(const pyr_table* t) noexcept nogil:
    return (t.rules.draw == 1 and t.rules.redeals == REDEALS_UNLIMITED
            and not t.rules.stock_top_playable and not t.rules.pair_waste_top_two)


cdef int ws_init(solve_ws* ws) noexcept nogil:
    """Allocate a workspace; 0 ok, -1 out of memory (then ws_free it anyway)."""
    ws.path = <pyr_move*>malloc(MAX_LINE * sizeof(pyr_move))
    ws.best = <pyr_move*>malloc(MAX_LINE * sizeof(pyr_move))
    ws.mcache = <uint64_t*>calloc(MCACHE, sizeof(uint64_t))
    ws.dcache = <uint64_t*>calloc(MCACHE, sizeof(uint64_t))
    ws.epoch = 0
    if hset_init(&ws.seen, HSET_SMALL) < 0 or hset_init(&ws.visit, 1 << 4) < 0:
        return -1
    return 0 if ws.path and ws.best and ws.mcache and ws.dcache else -1


cdef void ws_free(solve_ws* ws) noexcept nogil:
    hset_free(&ws.seen)
    hset_free(&ws.visit)
    free(ws.path)
    free(ws.best)
    free(ws.mcache)
    free(ws.dcache)
    ws.dcache = NULL
    ws.path = NULL
    ws.best = NULL
    ws.mcache = NULL


cdef int solve_position(const pyr_table* t, pyr_pos start, int objective,
                        const solve_limits* lim, solve_out* out) noexcept nogil:
    cdef solve_ws ws
    cdef int res
    memset(&ws, 0, sizeof(ws))
    if ws_init(&ws) < 0:
        ws_free(&ws)
        out.winnable = -1
        out.stop = STOP_MEMORY
        out.optimal = 0
        out.n_moves = -1
        out.max_removed = -1
        out.nodes = 0
        out.seconds = 0
        return -1
    res = solve_with(&ws, t, start, objective, lim, out)
    ws_free(&ws)
    return res


cdef int solve_with(solve_ws* ws, const pyr_table* t, pyr_pos start, int objective,
                    const solve_limits* lim, solve_out* out) noexcept nogil:
    cdef search s
    cdef double t0 = pyr_now()
    cdef int64_t mem = lim.max_memory if lim.max_memory > 0 else DEFAULT_MEMORY
    cdef int64_t visit_mem
    cdef int res
    cdef int tc[14]
    cdef bint proved_lost = False
    cdef int64_t user_nodes
    cdef bint free_talon = free_talon_rules(t) and objective != OBJ_MIN_MOVES
    cdef int kept = -1        # OBJ_MIN_MOVES: the win search's line (real moves) in out.line
    out.winnable = -1
    out.stop = STOP_NONE
    out.optimal = 0
    out.n_moves = -1
    out.max_removed = -1
    out.nodes = 0
    if pyr_cancelled(lim.cancel):          # (solve_decks: the deals after a cancel)
        out.stop = STOP_CANCELLED
        out.seconds = pyr_now() - t0
        return 0
    search_init(&s, t, objective, lim, ws.path, ws.best)
    if ws.epoch == 0xFFFF:                 # (ws_init's calloc zeroed it before the first)
        memset(ws.mcache, 0, MCACHE * sizeof(uint64_t))
        memset(ws.dcache, 0, MCACHE * sizeof(uint64_t))
        ws.epoch = 0
    ws.epoch += 1
    s.mcache = ws.mcache
    s.dcache = ws.dcache
    s.epoch = ws.epoch
    # Unlimited redeals also need the set of positions entered (general search): a quarter.
    visit_mem = mem // 4 if t.rules.redeals == REDEALS_UNLIMITED else 1 << 10
    s.seen = &ws.seen
    s.visit = &ws.visit
    ws.seen.cancel = lim.cancel
    ws.visit.cancel = lim.cancel
    hset_clear(s.seen, mem - visit_mem)
    hset_clear(s.visit, visit_mem)
    talon_counts(&s, pos_talon(start), tc)
    s.root_bound = removal_bound(&s, pos_pyr(start), tc) if objective == OBJ_MAX_REMOVED else 28
    s.best_removed = 28 - pyr_popcount32(pos_pyr(start))
    s.best_len = 0
    if pos_won(t, start):
        res = 1
        s.path_len = 0
    elif objective == OBJ_MAX_REMOVED and free_talon and not s.win_all:
        # The free-talon search goes straight to the exhaustive search for the most cards
        # removed: it also finds a win (28 removed: no talon card has to go) and, with the
        # dominance table, costs less than the win search followed by it for lost deals.
        # First a glance for a win (the win search, held to WIN_GLANCE_NODES positions):
        # it settles most won deals in fewer positions than the exhaustive search would.
        s.track_best = True
        s.objective = OBJ_ANY
        user_nodes = s.max_nodes
        if user_nodes <= 0 or user_nodes > WIN_GLANCE_NODES:
            s.max_nodes = WIN_GLANCE_NODES
        res = free_dfs(&s, pos_pyr(start), _talon_cnt(t, start), 0)
        s.max_nodes = user_nodes
        s.objective = OBJ_MAX_REMOVED
        if res == 1:
            s.best_removed = 28
        elif res == 0 or not over_budget(&s, True):
            # Not won at a glance (proved lost, or the glance's budget ran out): the
            # exhaustive search, keeping the best line seen so far.
            s.stop = STOP_NONE
            hset_clear(s.seen, mem - visit_mem)
            hset_clear(s.visit, visit_mem)
            res = free_dfs(&s, pos_pyr(start), _talon_cnt(t, start), 0)
        if res >= 0 and s.best_removed == 28:
            memcpy(s.path, s.best, s.best_len * sizeof(pyr_move))
            s.path_len = s.best_len
            res = 1
        elif res >= 0:
            res = 0
            proved_lost = True
    elif objective == OBJ_MAX_REMOVED:
        # First the cheap search for a win, keeping its best line; only a lost position whose
        # best line may not be the best possible needs the exhaustive search.
        s.track_best = True
        s.objective = OBJ_ANY
        res = free_dfs(&s, pos_pyr(start), _talon_cnt(t, start), 0) if free_talon \
            else general_dfs(&s, start)
        proved_lost = res == 0
        if res == 1:
            s.best_removed = 28
        elif res == 0 and s.best_removed < s.root_bound:
            s.objective = OBJ_MAX_REMOVED
            hset_clear(s.seen, mem - visit_mem)
            hset_clear(s.visit, visit_mem)
            res = free_dfs(&s, pos_pyr(start), _talon_cnt(t, start), 0) if free_talon \
                else general_dfs(&s, start)
            res = 0 if res >= 0 else res
        s.objective = OBJ_MAX_REMOVED
    elif free_talon:
        res = free_dfs(&s, pos_pyr(start), _talon_cnt(t, start), 0)
    elif objective == OBJ_MIN_MOVES:
        # Decide first (much cheaper); only a winnable position needs the shortest line. The
        # win search's line is kept (as real moves: under the free-talon rules it is the
        # free-talon search's) for when A* runs out of budget.
        s.objective = OBJ_ANY
        if free_talon_rules(t):
            res = free_dfs(&s, pos_pyr(start), _talon_cnt(t, start), 0)
            if res == 1:
                kept = realize(t, start, s.path, s.path_len, s.win_all, out.line)
        else:
            res = general_dfs(&s, start)
            if res == 1:
                kept = _copy_line(out.line, s.path, s.path_len)
        if res == 1:
            s.objective = OBJ_MIN_MOVES
            hset_clear(s.seen, mem // 3)         # a third for the positions' table, one
            hset_clear(s.visit, mem // 3)        # for the card sets' (astar), one for the
            res = astar(&s, start, mem // 3)     # nodes and the frontier
    else:
        res = general_dfs(&s, start)
    out.stop = s.stop
    out.nodes = s.nodes
    if objective == OBJ_MAX_REMOVED and res != 1:
        # Lost: searched everything, or reached the bound: the best line is the answer.
        if proved_lost:
            out.winnable = 0
        if res >= 0 or s.best_removed >= s.root_bound:
            out.max_removed = s.best_removed
            # A stopped search whose best line reached the bound: below 28 the bound proves
            # the position lost too. Only win="all" with the pyramid cleared is left unknown,
            # and then stop still names what stopped the search.
            if s.best_removed < 28:
                out.winnable = 0
            if out.winnable >= 0:
                out.stop = STOP_NONE
            out.n_moves = (realize(t, start, s.best, s.best_len, False, out.line) if free_talon
                           else _copy_line(out.line, s.best, s.best_len))
        else:
            out.max_removed = s.best_removed  # a lower bound only
    elif res == 1:
        out.winnable = 1
        out.n_moves = (realize(t, start, s.path, s.path_len, s.win_all, out.line) if free_talon
                       else _copy_line(out.line, s.path, s.path_len))
        out.max_removed = 28
        out.optimal = objective == OBJ_MIN_MOVES   # A*'s line (or the start is won)
    elif kept >= 0:
        # OBJ_MIN_MOVES, won, but A* stopped (a budget, the cancel flag): the win search's
        # line, not known to be shortest; out.stop says what stopped A*.
        out.winnable = 1
        out.n_moves = kept
        out.max_removed = 28
    elif res == 0:
        out.winnable = 0
    out.seconds = pyr_now() - t0
    return 0


cdef uint64_t _talon_cnt(const pyr_table* t, pyr_pos p) noexcept nogil:
    """The free-talon search's count of non-King talon cards by rank (3 bits a rank)."""
    cdef uint64_t cnt = 0
    cdef uint32_t talon = pos_talon(p)
    cdef int i
    for i in range(N_TALON):
        if (talon >> i) & 1 and t.rank[LOC_TALON + i] != KING:
            cnt += (<uint64_t>1) << (3 * (t.rank[LOC_TALON + i] - 1))
    return cnt


cdef int _copy_line(pyr_move* dst, const pyr_move* src, int n) noexcept nogil:
    memcpy(dst, src, n * sizeof(pyr_move))
    return n

# ---- Python entry points --------------------------------------------------------------------

OBJECTIVES = {"any": OBJ_ANY, "min_moves": OBJ_MIN_MOVES, "max_removed": OBJ_MAX_REMOVED}
STOPS = {STOP_NONE: None, STOP_NODES: "nodes", STOP_TIME: "time", STOP_MEMORY: "memory",
         STOP_CANCELLED: "cancelled"}


cdef void _limits(solve_limits* lim, max_nodes, max_seconds, max_memory, bint no_prune=False):
    lim.no_prune = no_prune
    lim.max_nodes = 0 if max_nodes is None else max_nodes
    lim.max_seconds = 0 if max_seconds is None else max_seconds
    lim.max_memory = 0 if max_memory is None else max_memory
    lim.cancel = NULL


cdef uint8_t[:] _cancel_flag(cancel):
    """The cancel argument as a view of its bytes (the caller keeps it alive while the
    search runs); None when there is none."""
    cdef uint8_t[:] flag
    if cancel is None:
        return None
    try:
        flag = cancel
    except (TypeError, ValueError, BufferError) as e:
        raise TypeError("cancel must be a writable 1-D buffer of uint8, such as "
                        f"numpy.zeros(1, numpy.uint8): {e}") from None
    if flag.shape[0] < 1:
        raise ValueError("cancel must hold at least one byte")
    return flag


def solve_table(Table table, pyr_pos pos, int objective=OBJ_ANY, max_nodes=None,
                max_seconds=None, max_memory=None, bint no_prune=False, cancel=None):
    """Solve one position; a dict with winnable (1/0/-1), stop (None or the STOPS name of
    what stopped the search), optimal (True: line is a shortest winning line, only under
    OBJ_MIN_MOVES once A* has finished; objective "any" always gives False), line (move
    codes), max_removed, nodes, seconds.

    Under OBJ_MIN_MOVES, a position the win search proves won whose A* then runs out of
    budget (or is cancelled) gives winnable 1, the win search's line, optimal False and stop
    set. cancel: a writable uint8 buffer (numpy.zeros(1, numpy.uint8)); the search stops with
    stop "cancelled" soon after another thread sets cancel[0] to nonzero (winnable -1 unless
    already decided). no_prune (for tests) turns the pruning off."""
    cdef solve_limits lim
    cdef uint8_t[:] flag = _cancel_flag(cancel)
    cdef solve_out* out = <solve_out*>malloc(sizeof(solve_out))
    if not out:
        raise MemoryError()
    _limits(&lim, max_nodes, max_seconds, max_memory, no_prune)
    if flag is not None:
        lim.cancel = &flag[0]
    try:
        with nogil:
            solve_position(&table.t, pos, objective, &lim, out)
        return {"winnable": out.winnable, "stop": STOPS[out.stop], "optimal": out.optimal != 0,
                "line": [out.line[i] for i in range(max(out.n_moves, 0))],
                "max_removed": out.max_removed, "nodes": out.nodes, "seconds": out.seconds}
    finally:
        free(out)


def solve_decks(const uint8_t[:, ::1] decks, dict rules, int objective, max_nodes, max_seconds,
                max_memory, int64_t lo, int64_t hi, int8_t[::1] winnable, int32_t[::1] n_moves,
                int32_t[::1] max_removed, int64_t[::1] nodes, double[::1] seconds,
                int8_t[::1] stop, int8_t[::1] optimal, cancel=None):
    """Solve decks[lo:hi] at their deals' start without the GIL, writing rows lo..hi-1
    (the fields of solve_table; stop as its STOP_* code, optimal 1/0). cancel: as for
    solve_table; once it is set, the deal being searched stops and the rows not started yet
    are left unknown (winnable -1, nodes 0) with stop STOP_CANCELLED."""
    cdef solve_limits lim
    cdef uint8_t[:] flag = _cancel_flag(cancel)
    cdef pyr_rules r
    cdef pyr_table t
    cdef int64_t i
    cdef solve_ws ws
    cdef solve_out* out = <solve_out*>malloc(sizeof(solve_out))
    memset(&ws, 0, sizeof(ws))
    if not out or ws_init(&ws) < 0:
        free(out)
        ws_free(&ws)
        raise MemoryError()
    _limits(&lim, max_nodes, max_seconds, max_memory)
    if flag is not None:
        lim.cancel = &flag[0]
    rules_from_options(&r, rules)
    try:
        with nogil:
            for i in range(lo, hi):
                table_init(&t, &decks[i, 0], &r)
                solve_with(&ws, &t, pos_start(&t), objective, &lim, out)
                winnable[i] = out.winnable
                n_moves[i] = out.n_moves
                max_removed[i] = out.max_removed
                nodes[i] = out.nodes
                seconds[i] = out.seconds
                stop[i] = out.stop
                optimal[i] = out.optimal
    finally:
        free(out)
        ws_free(&ws)


def lower_bound_of(Table table, pyr_pos pos):
    """A*'s lower bound on the moves still needed from pos to a win (for the tests, which
    check it never exceeds the true distance)."""
    cdef search s
    cdef solve_limits lim
    cdef solve_ws ws
    cdef int h
    memset(&ws, 0, sizeof(ws))
    if ws_init(&ws) < 0:
        ws_free(&ws)
        raise MemoryError()
    _limits(&lim, None, None, None)
    search_init(&s, &table.t, OBJ_MIN_MOVES, &lim, NULL, NULL)
    ws.epoch = 1
    s.mcache = ws.mcache
    s.dcache = ws.dcache
    s.epoch = 1
    h = lower_bound(&s, pos)
    ws_free(&ws)
    return h
