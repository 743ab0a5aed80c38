# cython: language_level=3
"""Shortest winning lines (OBJ_MIN_MOVES): A* on f = g + h with bounds.pyx's admissible
lower_bound, over macro-moves: each node is the position after a removal, and expanding it
walks the draws and recycles after it (see astar).

The nodes (anodes, 16 bytes each and two beside) keep the parent and the move, so the
line is read back at the end (astar_line); the frontier is a bucket queue (fqueue: a stack
per f and g, the smallest f first, among equal f the deepest); s.seen maps each position to
its node, and under draw one with finite redeals s.visit keeps, per set of cards, where in
the passes positions with those cards were reached and how cheaply (dominated_by_cursor).
"""
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, realloc, free
from libc.string cimport memset

from pyramid_core.cards cimport KING
from pyramid_core.geometry cimport free_mask, pyr_ctz32, pyr_popcount32
from pyramid_core.hashset cimport (hset, hset_slot, hset_at, hset_put, hset_value,
                                   hset_prefetch)
from pyramid_core.position cimport (pyr_table, pyr_pos, pyr_move, MAX_MOVES, LOC_TALON,
                                    LOC_NONE, MOVE_DRAW, MOVE_RECYCLE, pos_apply, pos_won,
                                    pos_pyr, pos_talon, pos_cur, pos_recycles, waste_top,
                                    stock_top, can_recycle, move_king, move_pair, move_a,
                                    move_b, below)
from pyramid_core.rules cimport REDEALS_UNLIMITED
from pyramid_core.search cimport search, spent, no_room, order_moves, pos_cards
from pyramid_core.bounds cimport (pyr_part, lower_bound, pyramid_part, part_bound,
                                  position_ok, relaxed_ok, buries)
from pyramid_core.solver cimport MAX_LINE, STOP_MEMORY
from pyramid_core.shortcuts cimport SC_MACRO, SC_FRESH, SC_CURSOR, SC_ROUND

# ---- the nodes and the frontier -------------------------------------------------------------


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

# ---- the walk of draws and recycles ---------------------------------------------------------


cdef inline pyr_move talon_step(const pyr_table* t, pyr_pos p) noexcept nogil:
    """The draw, else the recycle, p allows; 0 when neither."""
    if pos_talon(p) & ~below(pos_cur(p)):
        return MOVE_DRAW
    if can_recycle(t, p):
        return MOVE_RECYCLE
    return 0


cdef inline uint32_t newly_available(const pyr_table* t, pyr_pos before,
                                     pyr_pos after) noexcept nogil:
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
    cdef uint64_t key = pos_cards(c), slot, v, e, keep = 0
    cdef uint32_t talon = pos_talon(c)
    cdef int tau = pos_recycles(c) * (pyr_popcount32(talon) + 1) \
        + pyr_popcount32(talon & below(pos_cur(c)))
    cdef int delta = g - tau + 256, j, et, ed, n = 0, worst = -1, worst_d = -1
    cdef uint64_t entries[2]
    if tau > 0xFF or delta <= 0 or delta > 0xFFFF:
        return 0                                   # (many redeals: not kept)
    slot = hset_slot(cards, key)
    if hset_at(cards, slot, key):
        v = hset_value(cards, slot)
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

# ---- the search -----------------------------------------------------------------------------


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
    cdef int n, i, g, h, result = 0, k, cost, f, fq, origin, resume, ready = -1
    cdef uint32_t cur, fresh, a, b
    cdef uint64_t slot
    cdef pyr_pos p, c, q, prev
    cdef pyr_move step
    cdef bint recycled
    # Macro-moves (the shortcuts' record says where they are sound): after a step, only the
    # removals with a card the step made available; without them, every removal.
    cdef bint macro = (s.t.shortcuts & SC_MACRO) != 0
    # Draw one without the waste's top-two pairs: the removals with a card a step made
    # available are written directly (fresh_moves), not picked from all the moves.
    cdef bint quick = macro and (s.t.shortcuts & SC_FRESH) != 0
    # Draw one with finite redeals: s.visit keeps, per set of cards left, where (in steps)
    # and how cheaply positions with those cards were reached (dominated_by_cursor).
    cdef bint by_cards = (s.t.shortcuts & SC_CURSOR) != 0
    cdef int dom, m
    cdef pyr_pos kids[MAX_MOVES]
    cdef pyr_move kid_moves[MAX_MOVES]
    cdef uint32_t superseded
    cdef pyr_part walk_part            # the pyramid's part of the bound, for p's walk
    memset(&N, 0, sizeof(N))
    if fq_init(&open_) < 0 \
            or open_.bytes + (1 << 12) * <int64_t>(sizeof(anode) + 2) > max_bytes \
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
        ready = -1                         # fresh_moves already in mv (their count), or -1
        while k < resume:
            step = talon_step(s.t, q)
            prev = q
            q = pos_apply(s.t, q, step)
            k += 1
            recycled = recycled or step == MOVE_RECYCLE
            fresh = newly_available(s.t, prev, q) if macro else 0xFFFFFFFFU
        while True:
            # The removals at q (after k steps from p): all of them at p, else those using
            # what the last step made available. A free pyramid King goes alone, first.
            if ready >= 0:
                n = ready                          # (the walk's step below wrote them)
                ready = -1
            elif fresh == 0xFFFFFFFFU or not quick:
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
                hset_prefetch(s.seen, kids[m])
                if by_cards:
                    hset_prefetch(s.visit, pos_cards(kids[m]))
                m += 1
            for i in range(m):
                cost = g + k + 1
                c = kids[i]
                slot = hset_slot(s.seen, c)
                if hset_at(s.seen, slot, c):
                    if N.at[hset_value(s.seen, slot)].g <= cost:
                        continue
                    superseded = <uint32_t>hset_value(s.seen, slot)
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
                elif not relaxed_ok(s, c):
                    continue                       # lost even with the talon all at hand
                elif pos_pyr(c) == pos_pyr(p):         # talon cards only: p's pyramid part
                    if walk_part.h < 0 and pyramid_part(s, pos_pyr(p), &walk_part) >= MAX_LINE:
                        continue
                    h = part_bound(s, c, &walk_part)
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
            elif (recycled and s.t.shortcuts & SC_ROUND
                    and s.t.rules.redeals == REDEALS_UNLIMITED and pos_cur(q) >= origin):
                break                              # round to where the walk began
            fresh = newly_available(s.t, prev, q) if macro else 0xFFFFFFFFU
            if not quick and buries(s, q) and not position_ok(s, q):
                break                              # lost: so is everything after it (the
                                                   # cards are p's: only a buried talon
                                                   # card can make q lost where p is not)
            if quick:
                ready = fresh_moves(s.t, q, fresh, mv)
                if ready == 0:
                    continue                       # nothing new to remove here: no node can
                                                   # come from q, so walk on without its f
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


cdef int astar_line(search* s, const anodes* N, uint32_t goal, pyr_pos start) noexcept nogil:
    """Write the line to node `goal` into s.path (each node's steps, then its removal);
    1, or -1 when it is too long to return."""
    cdef uint32_t idx = goal
    cdef int n = 0, i, _k, total = N.at[goal].g
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
        for _k in range(N.steps[chain[i]]):
            s.path[s.path_len] = talon_step(s.t, q)
            q = pos_apply(s.t, q, s.path[s.path_len])
            s.path_len += 1
        s.path[s.path_len] = N.at[chain[i]].move
        q = pos_apply(s.t, q, N.at[chain[i]].move)
        s.path_len += 1
    return 1

# ---- the entry point ------------------------------------------------------------------------
