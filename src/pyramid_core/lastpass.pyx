# cython: language_level=3
"""The last pass through the talon under draw one, decided by frame summaries (lastpass.pxd;
docs/solver.md, "One pass: frames"). The solver uses it for every one-pass rule set under
draw one but pair_waste_top_two (the shortcuts' record, pyr_shortcuts.h: PYR_SC_FRAMES), where
the tests compare it with the plain search; nothing in it needs the pass to be the only one
(docs/solver.md says why the search with bounds stays for redeals).

In the last pass the waste is a stack: a card drawn onto it covers the cards below until it
goes, and nothing ever goes back to the stock. While a waste card w is on top, the cards under
it cannot be reached, so what can happen until w goes depends on the pyramid, the stock and
w's rank only, never on what lies under w. A *frame* is that: (pyramid, stock, w), or the
floor (no waste card that matters). For each frame, worked out once per solve:

* won: the rules' goal can be reached without w going (the pyramid cleared; under win="all"
  only the floor wins, with nothing left anywhere);
* its *returns*: every (pyramid, stock) in which w has just gone (paired, or a King).

A frame's answer comes from its moves (position.pxd's card_moves and covering_pairs, with w
and the playable stock top as the talon cards in play): a move that
takes w away is a return; any other move but a draw leads to a frame with the same w; a draw
of card d opens the frame (pyramid, stock - d, d), and each of that frame's returns puts w
back on top, a frame with the same w again. Every move takes a card away or draws one, so
this recursion ends; a frame's key is its pyramid, its stock and w's rank (two waste cards
of a rank are interchangeable).

A whole position with waste w1 .. wm (wm on top) is won when wm's frame is won, or one of its
returns, with w1 .. wm-1 under it, is won (lp_won, remembered per position in `known`).

The cards that can only help go at once: a free pyramid King, a King on top of the stock
(drawn and removed, or removed where it lies: nothing pairs with a King, so the line is as
good without it) or of the waste. A waste card whose partner rank is gone from the pyramid
(and, with the stock's top card playable, from the stock) can never go: under the pyramid
goal it is the floor (nothing under it matters), under win="all" the frame is lost.

A frame whose pyramid could not go even with every talon card that may still be in play
there (the rank classes: _may_clear) is neither won nor has a return worth following: it
ends at once, in every position it stands for.

Each frame worked out counts one node of the search's budget.
"""
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memset

from pyramid_core.cards cimport KING
from pyramid_core.geometry cimport free_mask, pyr_ctz32, pyr_msb32
from pyramid_core.hashset cimport (hmix, hset_init, hset_free, hset_clear, hset_clear_to,
                                   hset_slot, hset_at, hset_put, hset_value, HSET_SMALL)
from pyramid_core.position cimport (pyr_table, pyr_pos, pyr_move, MAX_MOVES, LOC_TALON,
                                    TALON_ALL, CUR_SHIFT, REC_SHIFT, gen_moves, pos_apply,
                                    pos_won, pos_pyr, pos_talon, pos_cur, below, move_a,
                                    move_b, card_moves, covering_pairs)
from pyramid_core.bounds cimport classes_ok
from pyramid_core.search cimport search, spent, no_room, talon_counts
from pyramid_core.solver cimport lp_store, MAX_LINE


cdef enum:
    FRAMES_KEEP = 1 << 16         # slots the frames' table keeps between solves (1 MiB)
    LISTS_KEEP = 1 << 18          # entries the lists keep between solves (2 MiB)
    DEDUP = 1 << 12               # slots of the table taking repeats out of long lists
    SCRATCH_START = 1 << 10
    ARENA_START = 1 << 12


cdef int lp_init(lp_store* L) noexcept nogil:
    L.arena = <uint64_t*>malloc(ARENA_START * sizeof(uint64_t))
    L.scratch = <uint64_t*>malloc(SCRATCH_START * sizeof(uint64_t))
    L.arena_cap = ARENA_START
    L.scratch_cap = SCRATCH_START
    L.arena_len = 0
    L.scratch_len = 0
    L.arena_max = 0
    L.dedup_key = <uint64_t*>malloc(DEDUP * sizeof(uint64_t))
    L.dedup_seen = <uint32_t*>calloc(DEDUP, sizeof(uint32_t))
    L.dedup_stamp = 0
    if not L.dedup_key or not L.dedup_seen:
        return -1
    if hset_init(&L.frames, HSET_SMALL) < 0 or hset_init(&L.known, 1 << 6) < 0:
        return -1
    return 0 if L.arena and L.scratch else -1


cdef void lp_free(lp_store* L) noexcept nogil:
    hset_free(&L.frames)
    hset_free(&L.known)
    free(L.arena)
    free(L.scratch)
    free(L.dedup_key)
    free(L.dedup_seen)
    L.dedup_key = NULL
    L.dedup_seen = NULL
    L.arena = NULL
    L.scratch = NULL


cdef void lp_clear(lp_store* L, int64_t max_bytes) noexcept nogil:
    """Half the bytes for the frames' table, a quarter for their returns' lists, an eighth for
    the positions decided. Lists grown large by a hard search shrink back."""
    cdef uint64_t* small
    hset_clear_to(&L.frames, max_bytes // 2, FRAMES_KEEP)
    hset_clear(&L.known, max_bytes // 8)
    L.arena_max = max(max_bytes // 4 // <int64_t>sizeof(uint64_t), ARENA_START)
    if L.arena_cap > LISTS_KEEP:
        small = <uint64_t*>realloc(L.arena, ARENA_START * sizeof(uint64_t))
        if small:
            L.arena = small
            L.arena_cap = ARENA_START
    if L.scratch_cap > LISTS_KEEP:
        small = <uint64_t*>realloc(L.scratch, SCRATCH_START * sizeof(uint64_t))
        if small:
            L.scratch = small
            L.scratch_cap = SCRATCH_START
    L.arena[0] = 0                  # offset 0: the empty list
    L.arena_len = 1
    L.scratch_len = 0


cdef int _grow(uint64_t** a, int64_t* cap, int64_t need, int64_t most) noexcept nogil:
    """Make room for `need` entries in a (doubling; at most `most` when most > 0): 0 or -1."""
    cdef int64_t c = cap[0]
    cdef uint64_t* b
    if need <= c:
        return 0
    while c < need:
        c *= 2
    if most > 0 and c > most:
        c = most
        if c < need:
            return -1
    b = <uint64_t*>realloc(a[0], c * sizeof(uint64_t))
    if not b:
        return -1
    a[0] = b
    cap[0] = c
    return 0


cdef inline int _push(lp_store* L, uint64_t x) noexcept nogil:
    if L.scratch_len == L.scratch_cap and _grow(&L.scratch, &L.scratch_cap,
                                                L.scratch_len + 1, 0) < 0:
        return -1
    L.scratch[L.scratch_len] = x
    L.scratch_len += 1
    return 0


cdef int _push_list(lp_store* L, int64_t off) noexcept nogil:
    """Append the returns' list at arena[off] to the scratch stack."""
    cdef int64_t n = <int64_t>L.arena[off], i
    if _grow(&L.scratch, &L.scratch_cap, L.scratch_len + n, 0) < 0:
        return -1
    for i in range(n):
        L.scratch[L.scratch_len + i] = L.arena[off + 1 + i]
    L.scratch_len += n
    return 0


cdef inline int _add_list(lp_store* L, int64_t off, int64_t* only) noexcept nogil:
    """A child's returns for the frame being worked out: the first non-empty list is only
    remembered (only[0]; a frame with just that one takes it as its own), the others go to
    the scratch stack (only[0] -1 once the first has gone there too)."""
    if off == 0 or off == only[0]:
        return 0
    if only[0] == 0:
        only[0] = off
        return 0
    if only[0] > 0:
        if _push_list(L, only[0]) < 0:
            return -1
        only[0] = -1
    return _push_list(L, off)


cdef int _cmp(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<const uint64_t*>a)[0], y = (<const uint64_t*>b)[0]
    return (x > y) - (x < y)


cdef int64_t _unique(lp_store* L, uint64_t* x, int64_t n) noexcept nogil:
    """Keep one of each value of x[:n] (order kept otherwise); the count left. Short lists
    by comparison, long ones through a stamped table of DEDUP slots."""
    cdef int64_t i, j, k = 0
    cdef uint64_t v, h
    if n <= 16:
        for i in range(n):
            v = x[i]
            for j in range(k):
                if x[j] == v:
                    break
            else:
                x[k] = v
                k += 1
        return k
    if n > DEDUP // 2:
        qsort(x, n, sizeof(uint64_t), _cmp)
        for i in range(1, n):
            if x[i] != x[k]:
                k += 1
                x[k] = x[i]
        return k + 1
    L.dedup_stamp += 1
    if L.dedup_stamp == 0:
        memset(L.dedup_seen, 0, DEDUP * sizeof(uint32_t))
        L.dedup_stamp = 1
    for i in range(n):
        v = x[i]
        h = hmix(v) & (DEDUP - 1)
        while L.dedup_seen[h] == L.dedup_stamp and L.dedup_key[h] != v:
            h = (h + 1) & (DEDUP - 1)
        if L.dedup_seen[h] != L.dedup_stamp:
            L.dedup_seen[h] = L.dedup_stamp
            L.dedup_key[h] = v
            x[k] = v
            k += 1
    return k


cdef int64_t _store(lp_store* L, int64_t base) noexcept nogil:
    """Move scratch[base:] (without repeats) to a new list in the arena; its offset, or -1
    when the budget says no. The scratch stack is cut back to base."""
    cdef int64_t n = L.scratch_len - base, i, off
    cdef uint64_t* x = L.scratch + base
    if n == 0:
        return 0
    if n > 1:
        n = _unique(L, x, n)
    off = L.arena_len
    if _grow(&L.arena, &L.arena_cap, off + 1 + n, L.arena_max) < 0:
        return -1
    x = L.scratch + base
    L.arena[off] = <uint64_t>n
    for i in range(n):
        L.arena[off + 1 + i] = x[i]
    L.arena_len = off + 1 + n
    L.scratch_len = base
    return off


cdef inline uint32_t _no_kings_on_top(const pyr_table* t, uint32_t stock) noexcept nogil:
    while stock and t.rank[LOC_TALON + pyr_ctz32(stock)] == KING:
        stock &= stock - 1
    return stock


cdef inline uint64_t _cards(uint32_t pyr, uint32_t talon) noexcept nogil:
    """A return: the cards left (the waste empty)."""
    return <uint64_t>pyr | (<uint64_t>talon << LOC_TALON)


cdef inline pyr_pos _word(const pyr_table* t, uint32_t pyr, uint32_t talon, int cur) noexcept nogil:
    """A last-pass position word (recycles: all used)."""
    return (<pyr_pos>pyr | (<pyr_pos>talon << LOC_TALON) | (<pyr_pos>cur << CUR_SHIFT)
            | (<pyr_pos>t.rules.redeals << REC_SHIFT))


cdef inline bint _may_clear(search* s, uint32_t pyr, uint32_t stock, int w) noexcept nogil:
    """Could the pyramid cards pyr still go from the frame (pyr, stock, w) whatever lies under
    w? The rank classes (bounds.pyx's classes_ok) with every talon card that may still be in
    play there: the stock, and under the floor nothing else; else every talon card before the
    stock's first in the talon's order (w and all the cards under it are among them: the
    waste holds the cards drawn before the stock's). It depends on the frame's key only, so
    its answer holds in every position the frame stands for."""
    cdef uint32_t talon = stock
    cdef int tc[14]
    if w >= 0:
        talon |= TALON_ALL if stock == 0 else below(pyr_ctz32(stock))
    talon_counts(s, talon, tc)
    return classes_ok(s, pyr, tc, False)


cdef int frame(search* s, uint32_t pyr, uint32_t stock, int w, int64_t* off) noexcept nogil:
    """The frame (pyr, stock, w) (w: talon index of the waste top, -1 for the floor; never a
    King: lp_won takes them off the waste, and a draw's card is never one, the stock's Kings
    going at once): 1 won, 0 not (its returns' list at arena[off[0]]: position words with no
    waste), -1 a budget ran out."""
    cdef const pyr_table* t = s.t
    cdef lp_store* L = s.lp
    cdef uint32_t k, f, p2, s2
    cdef uint64_t key, slot, ret, left
    cdef int64_t base, sub, j, n_sub, o, only = 0
    cdef int n, q, i, a, b, n_av, res = 0
    cdef int av[2]
    cdef pyr_move mv[MAX_MOVES]
    # What can only help goes at once: free pyramid Kings, Kings on the stock's top.
    k = free_mask(pyr) & t.pyr_rank[KING]
    while k:
        pyr &= ~k
        k = free_mask(pyr) & t.pyr_rank[KING]
    stock = _no_kings_on_top(t, stock)
    if w >= 0:
        q = 13 - t.rank[LOC_TALON + w]
        if not (pyr & t.pyr_rank[q]) and not (
                t.rules.stock_top_playable and stock & s.talon_rank[q]):
            # w can never go.
            if t.rules.win_all:
                off[0] = 0
                return 0
            w = -1
    key = <uint64_t>pyr | (<uint64_t>stock << LOC_TALON) \
        | (<uint64_t>(t.rank[LOC_TALON + w] if w >= 0 else 0) << CUR_SHIFT)
    slot = hset_slot(&L.frames, key)
    if hset_at(&L.frames, slot, key):
        o = <int64_t>hset_value(&L.frames, slot)
        if o & 1:
            return 1
        off[0] = o >> 1
        return 0
    if spent(s):
        return -1
    base = L.scratch_len
    if pyr == 0 and (not t.rules.win_all or (w < 0 and stock == 0)):
        res = 1
    elif not _may_clear(s, pyr, stock, w):
        res = 0                             # neither won nor any return that could be
    else:
        # The moves (position.pxd's card_moves and covering_pairs) with w and, when it is
        # playable, the stock's top card as the talon cards in play.
        f = free_mask(pyr)
        n_av = 0
        if w >= 0:
            av[n_av] = w
            n_av += 1
        if t.rules.stock_top_playable and stock:
            av[n_av] = pyr_ctz32(stock)
            n_av += 1
        n = card_moves(t.rank, t.pyr_rank, f, av, n_av, True, mv)
        if t.rules.pair_with_covering:
            n += covering_pairs(t.rank, pyr, f, mv + n)
        for i in range(n):
            # The cards left: a location is its bit of the cards' word (a King's b, LOC_NONE,
            # is bit 63, outside it), as in pos_apply.
            a = move_a(mv[i])
            b = move_b(mv[i])
            left = _cards(pyr, stock) & ~(((<uint64_t>1) << a) | ((<uint64_t>1) << b))
            p2 = pos_pyr(left)
            s2 = pos_talon(left)
            if w >= 0 and (a == LOC_TALON + w or b == LOC_TALON + w):
                # w goes: a return (under the pyramid goal, a win once the pyramid is clear).
                if not t.rules.win_all and p2 == 0:
                    res = 1
                    break
                if _push(L, _cards(p2, s2)) < 0:
                    res = no_room(s)
                    break
            else:
                res = frame(s, p2, s2, w, &o)
                if res == 0 and _add_list(L, o, &only) < 0:
                    res = no_room(s)
                if res != 0:
                    break
        if res == 0 and stock:
            # A draw: the stock's top card onto the waste, its frame, then w on top again
            # after each of that frame's returns.
            q = pyr_ctz32(stock)
            res = frame(s, pyr, stock & ~((<uint32_t>1) << q), q, &sub)
            if res == 0:
                n_sub = <int64_t>L.arena[sub]
                for j in range(n_sub):
                    ret = L.arena[sub + 1 + j]      # (the arena may move: read it each time)
                    res = frame(s, pos_pyr(ret), pos_talon(ret), w, &o)
                    if res == 0 and _add_list(L, o, &only) < 0:
                        res = no_room(s)
                    if res != 0:
                        break
    if res < 0:
        return res
    if res == 1:
        L.scratch_len = base
        if hset_put(&L.frames, key, 1) < 0:
            return no_room(s)
        return 1
    if only >= 0 and L.scratch_len == base:
        off[0] = only                       # one list and nothing else: that list
    else:
        if only > 0:
            if _push_list(L, only) < 0:
                return no_room(s)
        off[0] = _store(L, base)
    if off[0] < 0 or hset_put(&L.frames, key, <uint64_t>off[0] << 1) < 0:
        return no_room(s)
    return 0


cdef int lp_won(search* s, pyr_pos p) noexcept nogil:
    cdef const pyr_table* t = s.t
    cdef lp_store* L = s.lp
    cdef uint32_t pyr = pos_pyr(p), talon = pos_talon(p)
    cdef uint32_t waste = talon & below(pos_cur(p)), stock = talon & ~below(pos_cur(p)), rest
    cdef uint64_t key = p, slot, ret
    cdef int64_t off, n, j
    cdef int res, w
    slot = hset_slot(&L.known, key)
    if hset_at(&L.known, slot, key):
        return <int>hset_value(&L.known, slot)
    # Kings on the waste's top go at once.
    while waste and t.rank[LOC_TALON + pyr_msb32(waste)] == KING:
        waste &= ~((<uint32_t>1) << pyr_msb32(waste))
    w = pyr_msb32(waste) if waste else -1
    res = frame(s, pyr, stock, w, &off)
    if res == 0 and w >= 0:
        # w's returns, with the rest of the waste under them.
        rest = waste & ~((<uint32_t>1) << w)
        n = <int64_t>L.arena[off]
        for j in range(n):
            ret = L.arena[off + 1 + j]
            res = lp_won(s, _word(t, pos_pyr(ret), pos_talon(ret) | rest,
                                  pyr_msb32(rest) + 1 if rest else 0))
            if res != 0:
                break
    if res >= 0 and hset_put(&L.known, key, res) < 0:
        return no_room(s)
    return res


cdef int lp_decide(search* s, pyr_pos p) noexcept nogil:
    cdef int res = lp_won(s, p)
    if res == 1:
        s.path_len = lp_line(s, p, s.path, 0)
        if s.path_len < 0:
            return -1
    return res


cdef int lp_line(search* s, pyr_pos p, pyr_move* line, int n) noexcept nogil:
    cdef const pyr_table* t = s.t
    cdef pyr_move mv[MAX_MOVES]
    cdef int m, i, res
    cdef pyr_pos c
    while not pos_won(t, p):
        m = gen_moves(t, p, mv)
        res = 0
        for i in range(m):
            c = pos_apply(t, p, mv[i])
            res = lp_won(s, c)
            if res != 0:
                break
        if res < 0:
            return -1
        if res == 0 or n >= MAX_LINE - 1:
            # (Cannot happen: a won position has a move to a won one.)
            return no_room(s)
        line[n] = mv[i]
        n += 1
        p = c
    return n
