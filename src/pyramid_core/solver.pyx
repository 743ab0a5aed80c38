# cython: language_level=3
"""The exact solver (docs/solver.md): one entry point, three questions.

solve_with answers one of three objectives, choosing its depth-first search once
(solve_run.free_talon) and running it through dfs():

* decide (OBJ_ANY): is there a win, and one winning line;
* exhaust (OBJ_MAX_REMOVED): the most pyramid cards any line removes, the win search first;
* shortest (OBJ_MIN_MOVES): decide, then A* for a shortest line (shortest.pyx); when A*'s
  budget runs out, the win search's line is returned (winnable 1, optimal 0, stop naming
  the budget).

The two depth-first searches, both with a transposition table of positions already searched:

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
positions where a rank class cannot be paired off (bounds.pyx). The search context is
search.pxd's; the hash set is pyr_hashset.h's.

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
from pyramid_core.shortcuts cimport SC_FREE_TALON, SC_FRAMES, SC_CLASSES, SC_PROGRESS
from pyramid_core.geometry cimport (free_mask, pyr_ctz32, pyr_popcount32, PYR_GEO,
                                    pyr_geometry_init)
from pyramid_core.position cimport (pyr_table, pyr_pos, pyr_move, Table, MAX_MOVES, LOC_TALON,
                                    LOC_NONE, MOVE_DRAW, MOVE_RECYCLE, pos_apply, pos_won,
                                    pos_pyr, pos_talon, pos_cur, pos_recycles, waste_top,
                                    can_recycle, move_king, table_init, pos_start,
                                    gen_covering_pairs, move_pair, move_a, move_b, below)
from pyramid_core.hashset cimport (hset_init, hset_free, hset_clear, hset_slot, hset_at,
                                   hset_put, hset_value, HSET_SMALL)
from pyramid_core.search cimport (search, MCACHE, pyr_now, pyr_cancelled, over_budget, spent,
                                  no_room, order_moves, talon_counts, pos_cards)
from pyramid_core.bounds cimport (classes_ok, stuck_bound, removal_bound, reachable_talon,
                                  position_ok, relaxed_ok, relaxed_removal_bound, buries,
                                  lower_bound, stack_ok)
from pyramid_core.shortest cimport astar
from pyramid_core.lastpass cimport lp_init, lp_free, lp_clear, lp_decide


cdef enum:
    TALON_RANK = 1 << 12     # abstract move of the free-talon search: pyramid a + a talon card
    DEFAULT_MEMORY = 1 << 30
    WIN_GLANCE_NODES = 48    # exhaust's first look for a win under the free-talon rules
    RELAX_MEMORY = 1 << 23   # bytes for the relaxation's table, at most (the most one solve
                             # used, over the 1,500 msc deals' shortest lines and the most
                             # removable cards of 1,000 numbered deals under msc, three-pass,
                             # classic and classic-draw3: 42,000 entries of the 262,000 this
                             # allows)

pyr_geometry_init()


cdef void search_init(search* s, const pyr_table* t, int objective, const solve_limits* lim,
                      pyr_move* path, pyr_move* best) noexcept nogil:
    cdef int i
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
    if not (s.t.shortcuts & SC_CLASSES):
        return False
    if hset_at(s.visit, slot, key):
        kept = hset_value(s.visit, slot)
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
    cdef int r, q, a, res, n = 0, i
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
            res = free_dfs(s, pyr & ~(((<uint32_t>1) << move_a(mv[i]))
                                      | ((<uint32_t>1) << move_b(mv[i]))), cnt, depth + 1)
        if res != 0:
            return res
    return 0


cdef int bring_to_waste(const pyr_table* t, pyr_pos* p, int rank, pyr_move* line,
                        int* n) noexcept nogil:
    """Draw (and recycle) until the waste top has `rank`; 0 ok, -1 impossible."""
    cdef int _steps, w
    for _steps in range(3 * (N_TALON + 1)):
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
    cdef int n = 0, i, a
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


cdef uint64_t _talon_cnt(const pyr_table* t, pyr_pos p) noexcept nogil:
    """The free-talon search's count of non-King talon cards by rank (3 bits a rank)."""
    cdef uint64_t cnt = 0
    cdef uint32_t talon = pos_talon(p)
    cdef int i
    for i in range(N_TALON):
        if (talon >> i) & 1 and t.rank[LOC_TALON + i] != KING:
            cnt += (<uint64_t>1) << (3 * (t.rank[LOC_TALON + i] - 1))
    return cnt

# ---- the general search ---------------------------------------------------------------------


ctypedef struct frame:
    pyr_pos pos
    int n
    int i
    pyr_move mv[MAX_MOVES]


cdef inline uint32_t general_progress(pyr_pos p) noexcept nogil:
    """How far through the talon passes p is. A position with the same cards (pos_cards: the
    key of s.seen) and less progress reaches p by drawing (and recycling), so it stands for
    p: p can be skipped when such a position was searched. (Under draw 3 a draw moves the
    cursor three places, and every cursor of a pass is one of those steps from the pass's
    first, or past the last stock card, where the cursor changes nothing.)"""
    return <uint32_t>(pos_recycles(p) * 32 + pos_cur(p))


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
    # The shortcuts' record: a position stands for those with its cards and more progress
    # (keyed by the cards), or, where it may not, for itself alone (keyed by the position).
    cdef bint by_cards = (s.t.shortcuts & SC_PROGRESS) != 0
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
            key = pos_cards(F.pos) if by_cards else F.pos
            progress = general_progress(F.pos) if by_cards else 0
            slot = hset_slot(s.seen, key)
            if not hset_at(s.seen, slot, key) or hset_value(s.seen, slot) > progress:
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
        key = pos_cards(c) if by_cards else c
        slot = hset_slot(s.seen, key)
        if hset_at(s.seen, slot, key) and hset_value(s.seen, slot) <= (
                general_progress(c) if by_cards else 0):
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
                and not (position_ok(s, c) and stack_ok(s, c) and relaxed_ok(s, c)):
            continue
        if s.objective == OBJ_MAX_REMOVED:
            talon_counts(s, reachable_talon(s, c), tc)
            if stuck_bound(s, pos_pyr(c), tc) <= s.best_removed or (
                    not s.no_prune and relaxed_removal_bound(s, c) <= s.best_removed):
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

# ---- one solve: decide, exhaust, or the shortest line ---------------------------------------


cdef bint free_talon_rules(const pyr_table* t) noexcept nogil:
    """May the free-talon search run (the shortcuts' record: draw one, unlimited redeals,
    neither the stock top nor the waste's top two playable)?"""
    return (t.shortcuts & SC_FREE_TALON) != 0


cdef bint frames_rules(const pyr_table* t) noexcept nogil:
    """Do the last pass's frames decide (draw one, one pass, not the waste's top two)? With
    redeals the search with its bounds is faster: before the last pass its entries are many
    and each one's frames are its own (docs/solver.md)."""
    return (t.shortcuts & SC_FRAMES) != 0


cdef int ws_init(solve_ws* ws) noexcept nogil:
    """Allocate a workspace; 0 ok, -1 out of memory (then ws_free it anyway)."""
    ws.path = <pyr_move*>malloc(MAX_LINE * sizeof(pyr_move))
    ws.best = <pyr_move*>malloc(MAX_LINE * sizeof(pyr_move))
    ws.mcache = <uint64_t*>calloc(MCACHE, sizeof(uint64_t))
    ws.dcache = <uint64_t*>calloc(MCACHE, sizeof(uint64_t))
    ws.scache = <uint64_t*>calloc(2 * MCACHE, sizeof(uint64_t))
    ws.epoch = 0
    if hset_init(&ws.seen, HSET_SMALL) < 0 or hset_init(&ws.visit, 1 << 4) < 0 \
            or hset_init(&ws.relax, HSET_SMALL) < 0 or lp_init(&ws.lp) < 0:
        return -1
    return 0 if ws.path and ws.best and ws.mcache and ws.dcache and ws.scache else -1


cdef void ws_free(solve_ws* ws) noexcept nogil:
    hset_free(&ws.seen)
    hset_free(&ws.visit)
    hset_free(&ws.relax)
    lp_free(&ws.lp)
    free(ws.path)
    free(ws.best)
    free(ws.mcache)
    free(ws.dcache)
    free(ws.scache)
    ws.dcache = NULL
    ws.scache = NULL
    ws.path = NULL
    ws.best = NULL
    ws.mcache = NULL


cdef inline void out_reset(solve_out* out, int stop) noexcept nogil:
    """A result that says nothing yet (not decided, no line, no nodes), stopped by `stop`."""
    out.winnable = -1
    out.stop = stop
    out.optimal = 0
    out.n_moves = -1
    out.max_removed = -1
    out.nodes = 0
    out.seconds = 0


cdef int solve_position(const pyr_table* t, pyr_pos start, int objective,
                        const solve_limits* lim, solve_out* out) noexcept nogil:
    cdef solve_ws ws
    cdef int res
    memset(&ws, 0, sizeof(ws))
    if ws_init(&ws) < 0:
        ws_free(&ws)
        out_reset(out, STOP_MEMORY)
        return -1
    res = solve_with(&ws, t, start, objective, lim, out)
    ws_free(&ws)
    return res


ctypedef struct solve_run:
    # One solve's search and its tables' budgets: the depth-first search is chosen once
    # (free_talon), every phase below runs it through dfs().
    search s
    pyr_pos start
    bint free_talon           # the free-talon search's rules hold
    int64_t mem               # bytes for the tables
    int64_t visit_mem         # of which s.visit's
    int64_t lp_mem            # bytes for the last pass's frames (0: not used)


cdef inline void fresh_tables(solve_run* run) noexcept nogil:
    hset_clear(run.s.seen, run.mem - run.visit_mem)
    hset_clear(run.s.visit, run.visit_mem)


cdef int dfs(solve_run* run) noexcept nogil:
    """The depth-first search for run.s.objective (OBJ_ANY or OBJ_MAX_REMOVED) from the start:
    1 won (the line in s.path, abstract under the free-talon search), 0 not, -1 stopped."""
    if run.free_talon:
        return free_dfs(&run.s, pos_pyr(run.start), _talon_cnt(run.s.t, run.start), 0)
    if run.s.lp != NULL and run.s.objective == OBJ_ANY and not run.s.track_best:
        return lp_decide(&run.s, run.start)
    return general_dfs(&run.s, run.start)


cdef int real_line(solve_run* run, const pyr_move* line, int n, bint win_all,
                   pyr_move* out) noexcept nogil:
    """A line of dfs()'s as real moves in out (draws and recycles included): its length."""
    if run.free_talon:
        return realize(run.s.t, run.start, line, n, win_all, out)
    memcpy(out, line, n * sizeof(pyr_move))
    return n


cdef int decide(solve_run* run, solve_out* out) noexcept nogil:
    """OBJ_ANY: is there a win? (and one winning line, into out)."""
    cdef int res = dfs(run)
    if res == 1:
        out.n_moves = real_line(run, run.s.path, run.s.path_len, run.s.win_all, out.line)
    return res


cdef int exhaust(solve_run* run, solve_out* out) noexcept nogil:
    """OBJ_MAX_REMOVED: the most pyramid cards any line removes, and such a line (into out).
    First the cheap search for a win, keeping its best line (under the free-talon rules only
    a glance of WIN_GLANCE_NODES positions: it settles most won deals in fewer positions than
    the exhaustive search would, and the exhaustive search with its dominance table costs
    less than a full win search followed by it for lost deals); only a lost position whose
    best line may not be the best possible needs the exhaustive search."""
    cdef search* s = &run.s
    cdef int res
    cdef int64_t user_nodes = s.max_nodes
    cdef bint glance = run.free_talon and not s.win_all
    cdef bint proved_lost
    s.track_best = True
    s.objective = OBJ_ANY
    if glance and (user_nodes <= 0 or user_nodes > WIN_GLANCE_NODES):
        s.max_nodes = WIN_GLANCE_NODES
    res = dfs(run)
    s.max_nodes = user_nodes
    s.objective = OBJ_MAX_REMOVED
    proved_lost = res == 0
    if res == 1:
        s.best_removed = 28
    elif glance:
        if res == 0 or not over_budget(s, True):
            # Not won at a glance (proved lost, or the glance's budget ran out): the
            # exhaustive search, keeping the best line seen so far.
            s.stop = STOP_NONE
            fresh_tables(run)
            res = dfs(run)
    elif res == 0 and s.best_removed < s.root_bound:
        fresh_tables(run)
        res = dfs(run)
        res = 0 if res >= 0 else res
    if glance:
        proved_lost = res >= 0 and s.best_removed < 28
        if res >= 0 and s.best_removed == 28:
            memcpy(s.path, s.best, s.best_len * sizeof(pyr_move))
            s.path_len = s.best_len
            res = 1
        elif res >= 0:
            res = 0
    if res == 1:
        out.n_moves = real_line(run, s.path, s.path_len, s.win_all, out.line)
        return 1
    # Lost: searched everything, or reached the bound: the best line is the answer.
    if proved_lost:
        out.winnable = 0
    out.max_removed = s.best_removed     # (a stopped search's: a lower bound only)
    if res >= 0 or s.best_removed >= s.root_bound:
        # A stopped search whose best line reached the bound: below 28 the bound proves
        # the position lost too. Only win="all" with the pyramid cleared is left unknown,
        # and then stop still names what stopped the search.
        if s.best_removed < 28:
            out.winnable = 0
        if out.winnable >= 0:
            s.stop = STOP_NONE
        out.n_moves = real_line(run, s.best, s.best_len, False, out.line)
    return res


cdef int shortest(solve_run* run, solve_out* out) noexcept nogil:
    """OBJ_MIN_MOVES: a shortest winning line, into out. Decide first (much cheaper); only a
    winnable position needs A*. The win search's line is kept (as real moves) for when A*'s
    budget runs out: then winnable 1, optimal 0, and stop names the budget."""
    cdef search* s = &run.s
    cdef int res
    s.objective = OBJ_ANY
    res = decide(run, out)
    if res != 1:
        return res
    s.objective = OBJ_MIN_MOVES
    if run.lp_mem:
        # A* has no use for the frames: their memory is its.
        lp_clear(s.lp, 0)
        s.lp = NULL
        run.mem += run.lp_mem
        run.lp_mem = 0
    hset_clear(s.seen, run.mem // 3)     # a third for the positions' table, one for the
    hset_clear(s.visit, run.mem // 3)    # card sets' (astar), one for the nodes and the
    res = astar(s, run.start, run.mem // 3)   # frontier
    if res == 1:
        memcpy(out.line, s.path, s.path_len * sizeof(pyr_move))
        out.n_moves = s.path_len
        out.optimal = 1
    return 1                             # (A* stopped: the win search's line stands)


cdef inline void _stamp(solve_ws* ws, search* s) noexcept nogil:
    """Give a new search the workspace's caches under a new stamp (an entry of an older
    search is stale: its stamp differs), clearing them when the stamps wrap."""
    if ws.epoch == 0xFFFF:                 # (ws_init's calloc zeroed it before the first)
        memset(ws.mcache, 0, MCACHE * sizeof(uint64_t))
        memset(ws.dcache, 0, MCACHE * sizeof(uint64_t))
        memset(ws.scache, 0, 2 * MCACHE * sizeof(uint64_t))
        ws.epoch = 0
    ws.epoch += 1
    s.mcache = ws.mcache
    s.dcache = ws.dcache
    s.scache = ws.scache
    s.epoch = ws.epoch


cdef int solve_with(solve_ws* ws, const pyr_table* t, pyr_pos start, int objective,
                    const solve_limits* lim, solve_out* out) noexcept nogil:
    cdef solve_run run
    cdef search* s = &run.s
    cdef double t0 = pyr_now()
    cdef int res
    cdef int tc[14]
    out_reset(out, STOP_NONE)
    if pyr_cancelled(lim.cancel):          # (solve_decks: the deals after a cancel)
        out.stop = STOP_CANCELLED
        out.seconds = pyr_now() - t0
        return 0
    search_init(s, t, objective, lim, ws.path, ws.best)
    _stamp(ws, s)
    run.start = start
    run.free_talon = free_talon_rules(t)
    run.mem = lim.max_memory if lim.max_memory > 0 else DEFAULT_MEMORY
    # A sixteenth (at most RELAX_MEMORY) for the relaxation's answers.
    hset_clear(&ws.relax, min(RELAX_MEMORY, run.mem // 16))
    run.mem -= min(RELAX_MEMORY, run.mem // 16)
    # The last pass's frames decide where they serve (frames_rules; not for the tests'
    # plain search): half the rest for their tables.
    run.lp_mem = 0
    if frames_rules(t) and objective != OBJ_MAX_REMOVED and not lim.no_prune:
        run.lp_mem = run.mem // 2
        run.mem -= run.lp_mem
        lp_clear(&ws.lp, run.lp_mem)
        ws.lp.frames.cancel = lim.cancel
        ws.lp.known.cancel = lim.cancel
        s.lp = &ws.lp
    # Unlimited redeals also need the set of positions entered (general search): a quarter.
    run.visit_mem = run.mem // 4 if t.rules.redeals == REDEALS_UNLIMITED else 1 << 10
    s.seen = &ws.seen
    s.visit = &ws.visit
    ws.seen.cancel = lim.cancel
    ws.visit.cancel = lim.cancel
    ws.relax.cancel = lim.cancel
    s.relax = &ws.relax
    fresh_tables(&run)
    talon_counts(s, pos_talon(start), tc)
    s.root_bound = removal_bound(s, pos_pyr(start), tc) if objective == OBJ_MAX_REMOVED else 28
    s.best_removed = 28 - pyr_popcount32(pos_pyr(start))
    s.best_len = 0
    if pos_won(t, start):
        res = 1
        out.n_moves = 0
        out.optimal = objective == OBJ_MIN_MOVES
    elif objective == OBJ_MAX_REMOVED:
        res = exhaust(&run, out)
    elif objective == OBJ_MIN_MOVES:
        res = shortest(&run, out)
    else:
        res = decide(&run, out)
    out.stop = s.stop
    out.nodes = s.nodes
    if res == 1:
        out.winnable = 1
        out.max_removed = 28
    elif res == 0 and objective != OBJ_MAX_REMOVED:
        out.winnable = 0
    out.seconds = pyr_now() - t0
    return 0

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


cdef inline void _trim(solve_ws* ws) noexcept nogil:
    """Give back what a hard search grew (a kept workspace holds no more than an easy one's
    tables between solves): emptying a large table shrinks it."""
    hset_clear(&ws.seen, 0)
    hset_clear(&ws.visit, 0)
    hset_clear(&ws.relax, 0)
    lp_clear(&ws.lp, 0)


cdef class Workspace:
    """A search's tables and caches, kept between solves (what ws_init allocates): one per
    thread saves each solve_table call allocating and clearing them anew, which costs more
    than an easy deal's search. Not to be shared by two threads at once."""
    cdef solve_ws ws

    def __cinit__(self):
        memset(&self.ws, 0, sizeof(self.ws))
        if ws_init(&self.ws) < 0:
            ws_free(&self.ws)
            raise MemoryError()

    def __dealloc__(self):
        ws_free(&self.ws)


def solve_table(Table table not None, pyr_pos pos, int objective=OBJ_ANY, max_nodes=None,
                max_seconds=None, max_memory=None, bint no_prune=False, cancel=None,
                Workspace workspace=None):
    """Solve one position; a dict with winnable (1/0/-1), stop (None or the STOPS name of
    what stopped the search), optimal (True: line is a shortest winning line, only under
    OBJ_MIN_MOVES once A* has finished; objective "any" always gives False), line (move
    codes), max_removed, nodes, seconds.

    Under OBJ_MIN_MOVES, a position the win search proves won whose A* then runs out of
    budget (or is cancelled) gives winnable 1, the win search's line, optimal False and stop
    set. cancel: a writable uint8 buffer (numpy.zeros(1, numpy.uint8)); the search stops with
    stop "cancelled" soon after another thread sets cancel[0] to nonzero (winnable -1 unless
    already decided). no_prune (for tests) turns the pruning off. workspace: a Workspace to
    search in (this thread's own), else the call allocates one."""
    cdef solve_limits lim
    cdef uint8_t[:] flag = _cancel_flag(cancel)
    cdef solve_out* out = <solve_out*>malloc(sizeof(solve_out))
    if not out:
        raise MemoryError()
    _limits(&lim, max_nodes, max_seconds, max_memory, no_prune)
    if flag is not None:
        lim.cancel = &flag[0]
    try:
        if workspace is None:
            with nogil:
                solve_position(&table.t, pos, objective, &lim, out)
        else:
            with nogil:
                solve_with(&workspace.ws, &table.t, pos, objective, &lim, out)
                _trim(&workspace.ws)
        return {"winnable": out.winnable, "stop": STOPS[out.stop], "optimal": out.optimal != 0,
                "line": [out.line[i] for i in range(max(out.n_moves, 0))],
                "max_removed": out.max_removed, "nodes": out.nodes, "seconds": out.seconds}
    finally:
        free(out)


cdef inline pyr_move _by_cards(const uint8_t* deck, pyr_move m) noexcept nogil:
    """Move code m (places a | b << 6) as the cards it moves (see solve_decks)."""
    cdef int a = m & 63, b = m >> 6
    if a == LOC_NONE:
        return m
    return <pyr_move>(deck[a] | ((LOC_NONE if b == LOC_NONE else deck[b]) << 6))


def solve_decks(const uint8_t[:, ::1] decks, dict rules, int objective, max_nodes, max_seconds,
                max_memory, int64_t lo, int64_t hi, int8_t[::1] winnable, int32_t[::1] n_moves,
                int32_t[::1] max_removed, int64_t[::1] nodes, double[::1] seconds,
                int8_t[::1] stop, int8_t[::1] optimal, cancel=None,
                uint16_t[:, ::1] lines=None, bint by_cards=False):
    """Solve decks[lo:hi] at their deals' start without the GIL, writing rows lo..hi-1
    (the fields of solve_table; stop as its STOP_* code, optimal 1/0). cancel: as for
    solve_table; once it is set, the deal being searched stops and the rows not started yet
    are left unknown (winnable -1, nodes 0) with stop STOP_CANCELLED. lines: where row i's
    line of move codes goes (its first n_moves[i] entries; a line longer than the row is
    cut to its width, for the caller to solve that deal again alone); by_cards: each code
    names the cards it moves instead of their places (a | b << 6 with a, b the cards of
    locations a, b of the deck; LOC_NONE, MOVE_DRAW and MOVE_RECYCLE as they are)."""
    cdef solve_limits lim
    cdef uint8_t[:] flag = _cancel_flag(cancel)
    cdef pyr_rules r
    cdef pyr_table t
    cdef int64_t i
    cdef int k
    cdef solve_ws ws
    cdef bint keep = lines is not None
    cdef int width = lines.shape[1] if keep else 0
    if keep and lines.shape[0] < hi:
        raise ValueError(f"lines has {lines.shape[0]} rows, fewer than the {hi} needed")
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
                if keep and out.n_moves > 0:
                    if by_cards:
                        for k in range(min(out.n_moves, width)):
                            lines[i, k] = _by_cards(&decks[i, 0], out.line[k])
                    else:
                        memcpy(&lines[i, 0], &out.line[0],
                               min(out.n_moves, width) * sizeof(pyr_move))
    finally:
        free(out)
        ws_free(&ws)


cdef int solve_probe(const pyr_table* t, pyr_pos pos, int what) noexcept nogil:
    """One of the search's bounds at pos (PROBE_LOWER_BOUND, PROBE_RELAXED_OK,
    PROBE_RELAXED_REMOVAL or PROBE_STACK_OK), in a search context of its own; -1 when its
    memory cannot be had. For the tests (tests/core_hooks/_solver_tests.pyx), which check
    each bound against the true answers."""
    cdef search s
    cdef solve_ws ws
    cdef solve_limits lim
    cdef int out
    memset(&ws, 0, sizeof(solve_ws))
    if ws_init(&ws) < 0:
        ws_free(&ws)
        return -1
    memset(&lim, 0, sizeof(solve_limits))
    search_init(&s, t, OBJ_MIN_MOVES if what == PROBE_LOWER_BOUND else OBJ_ANY, &lim,
                NULL, NULL)
    ws.epoch = 1
    s.mcache = ws.mcache
    s.dcache = ws.dcache
    s.scache = ws.scache
    s.epoch = 1
    hset_clear(&ws.relax, RELAX_MEMORY)
    s.relax = &ws.relax
    if what == PROBE_LOWER_BOUND:
        out = lower_bound(&s, pos)
    elif what == PROBE_RELAXED_OK:
        out = relaxed_ok(&s, pos)
    elif what == PROBE_STACK_OK:
        out = stack_ok(&s, pos)
    else:
        out = relaxed_removal_bound(&s, pos)
    ws_free(&ws)
    return out


cdef void relaxed_moves(solve_ws* ws, const pyr_table* t, pyr_pos p, const pyr_move* buf,
                        int n, uint8_t* ok) noexcept nogil:
    """For each of the n moves buf[k] at p, ok[k] = 0 when the free-talon relaxation proves
    the position after it lost (bounds.pyx's relaxed_ok: every talon card still in play at
    hand at any time; not worked out, 1, in the last pass and for win="all"), else 1. The
    relaxation reads only the pyramid and which cards the talon holds, never their order:
    a player who cannot see the stock knows as much. ws: a workspace of ws_init, for one
    table (its caches are stamped anew here). A move whose relaxation outgrows its table is
    answered 1 (relaxed_won's rule: no proof), and the next move gets the table afresh."""
    cdef search s
    cdef solve_limits lim
    cdef int k
    memset(&lim, 0, sizeof(solve_limits))
    search_init(&s, t, OBJ_ANY, &lim, ws.path, ws.best)
    _stamp(ws, &s)
    for k in range(n):
        if k == 0 or s.relax == NULL:
            hset_clear(&ws.relax, RELAX_MEMORY // 8)
            s.relax = &ws.relax
        ok[k] = relaxed_ok(&s, pos_apply(t, p, buf[k])) != 0
