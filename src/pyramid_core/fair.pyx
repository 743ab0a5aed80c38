# cython: language_level=3
"""Fair play (docs/fair.md): policies that never look at the face-down stock.

What a player has seen is position.pxd's pos_seen, carried beside the position as a mask of
talon cards; the rest of the present talon cards are *unseen*. A *completion* of a position
deals the unseen cards uniformly at random into the unseen places: the cards are sorted
first, so a completion depends on which cards are unseen and never on where they really lie.
Its generator is keyed by (seed, game, decision, sample), where the game is named by its
pyramid's 28 cards and the decision by the position word and the seen cards: the same
information state gets the same completions in a simulation, a hint or a batch, whatever the
threads or the batch's split.

The hindsight policy (fair_decide), at each position:

1. no legal move: none; one legal move, or a King: play it (the first King in gen_moves
   order: a King alone never hurts, as the solver's own search assumes);
2. at most one unseen card (nothing is hidden): perfect play. The solver decides the real
   position (budget known_nodes) and its winning line is followed from then on; a position
   that cannot be won (or is not decided) is played by the greedy policy;
3. otherwise `samples` completions, the same for every legal move. On each, the solver
   decides the position (budget max_nodes); when it is won, the first move of its line wins
   that completion and each other move is decided after it. A move that can no longer reach
   the best count is not decided again. Undecided positions count as not won;
4. the move that won the most completions; among equals, a draw or recycle when
   prefer_draw (it loses nothing the others keep and shows a card), else the greedy
   policy's pick among them. When no completion is won, the greedy policy's move (the
   sampling has nothing to say, and greedy then still removes the most cards).

A whole game (fair_play) ends when it is won, when no move is legal, after SIM_MOVE_CAP
moves, or under unlimited redeals at a recycle after a pass that removed nothing and began
with every card seen (it would repeat).
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

from pyramid_core.cards cimport N_PYRAMID, N_TALON, card_rank
from pyramid_core.rules cimport pyr_rules, REDEALS_UNLIMITED
from pyramid_core.geometry cimport pyr_popcount32, pyr_geometry_init
from pyramid_core.position cimport (pyr_table, pyr_pos, pyr_move, MAX_MOVES, LOC_NONE,
                                    LOC_TALON, MOVE_RECYCLE, gen_moves, pos_apply, pos_start,
                                    pos_pyr, pos_talon, pos_won, pos_seen, move_a, move_b,
                                    table_init)
from pyramid_core.rules cimport rules_from_options
from pyramid_core.shuffle cimport splitmix64_next, rand_below, deal_shuffle
from pyramid_core.solver cimport (solve_out, solve_limits, solve_with, ws_init,
                                  ws_free, OBJ_ANY, MAX_LINE)
from pyramid_core.simulate cimport (sim_deal, sim_result, sim_deal_from_deck, sim_greedy_at,
                                    sim_bad_deck, SIM_MOVE_CAP, SIM_MAX_RECORD, SIM_OK,
                                    SIM_RECORD_FULL)

pyr_geometry_init()

cdef extern from "pyr_cancel.h" nogil:
    int pyr_cancelled(const volatile uint8_t* f)

cdef uint64_t C_FAIR = 0xA4093822299F31D0ULL     # the completions' key (digits of pi)

#: The hindsight policy's defaults (docs/fair.md says how they were chosen).
DEFAULTS = {"samples": 16, "max_nodes": 20000, "known_nodes": 0, "seed": 0, "prefer_draw": 0}


# ---- the information set --------------------------------------------------------------------

cdef int fair_unseen(const pyr_table* t, pyr_pos p, uint32_t seen, uint8_t* places,
                     uint8_t* cards) noexcept nogil:
    """The unseen places (talon indices, ascending) and cards (card indices, ascending) of p;
    returns how many."""
    cdef uint32_t x = pos_talon(p) & ~seen
    cdef int u = 0, i, j
    cdef uint8_t c
    for i in range(N_TALON):
        if (x >> i) & 1:
            places[u] = <uint8_t>i
            # insertion into the sorted cards (at most 24)
            c = t.card[LOC_TALON + i]
            j = u
            while j > 0 and cards[j - 1] > c:
                cards[j] = cards[j - 1]
                j -= 1
            cards[j] = c
            u += 1
    return u


cdef uint64_t fair_game_key(const pyr_table* t) noexcept nogil:
    """A game's name for the completions' keys: a hash of its pyramid's cards (always seen)."""
    cdef uint64_t h = C_FAIR, s
    cdef int i
    for i in range(N_PYRAMID):
        s = h ^ t.card[i]
        h = splitmix64_next(&s)
    return h


cdef uint64_t fair_sample_key(uint64_t seed, uint64_t game, pyr_pos p, uint32_t seen,
                              int sample) noexcept nogil:
    """The generator of completion `sample` at the information state (game, p, seen)."""
    cdef uint64_t s = seed ^ C_FAIR
    s = splitmix64_next(&s) ^ game
    s = splitmix64_next(&s) ^ p
    s = splitmix64_next(&s) ^ seen
    s = splitmix64_next(&s) ^ <uint64_t>sample
    return splitmix64_next(&s)


cdef void fair_complete(const pyr_table* t, const uint8_t* places, const uint8_t* cards, int u,
                        uint64_t key, pyr_table* out) noexcept nogil:
    """out: t with the u unseen cards (sorted) shuffled by Fisher-Yates on `key` and laid in
    the unseen places in order. The pyramid, the seen cards and the piles stay."""
    cdef uint8_t deck[N_TALON]
    cdef int i, j, loc
    cdef uint8_t tmp
    cdef uint64_t state = key
    memcpy(out, t, sizeof(pyr_table))
    memcpy(deck, cards, u)
    for i in range(u - 1, 0, -1):
        j = <int>rand_below(&state, <uint32_t>(i + 1))
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    for i in range(u):
        loc = LOC_TALON + places[i]
        out.card[loc] = deck[i]
        out.rank[loc] = <uint8_t>card_rank(deck[i])


# ---- the working state ----------------------------------------------------------------------

cdef int fair_ctx_init(fair_ctx* c, const fair_params* prm,
                       const volatile uint8_t* cancel) noexcept nogil:
    memset(c, 0, sizeof(fair_ctx))
    c.prm = prm[0]
    c.out = <solve_out*>malloc(sizeof(solve_out))
    c.line = <pyr_move*>malloc(MAX_LINE * sizeof(pyr_move))
    if c.out == NULL or c.line == NULL or ws_init(&c.ws) < 0:
        fair_ctx_free(c)
        return -1
    c.lim.max_nodes = prm.max_nodes
    c.lim.cancel = cancel
    c.lim_known.max_nodes = prm.known_nodes
    c.lim_known.cancel = cancel
    return 0


cdef void fair_ctx_free(fair_ctx* c) noexcept nogil:
    free(c.out)
    free(c.line)
    c.out = NULL
    c.line = NULL
    ws_free(&c.ws)


# ---- the hindsight policy -------------------------------------------------------------------

cdef inline int _solve(fair_ctx* c, const pyr_table* t, pyr_pos p,
                       const solve_limits* lim) noexcept nogil:
    """1 won, 0 lost, -1 undecided (the line, when won, in c.out)."""
    solve_with(&c.ws, t, p, OBJ_ANY, lim, c.out)
    c.solves += 1
    c.nodes += c.out.nodes
    if c.out.winnable < 0:
        c.unknown += 1
    return c.out.winnable


cdef inline int _index(const pyr_move* buf, int n, pyr_move m) noexcept nogil:
    cdef int i
    for i in range(n):
        if buf[i] == m:
            return i
    return -1


cdef int _known(fair_ctx* c, const pyr_table* t, const sim_deal* d, pyr_pos p,
                const pyr_move* buf, int n, bint stuck) noexcept nogil:
    """Nothing is hidden: follow the solver's winning line (solving once), else greedy."""
    cdef int m
    if c.line_at < c.line_len and c.line_pos == p and _index(buf, n, c.line[c.line_at]) >= 0:
        m = c.line[c.line_at]
        c.line_at += 1
        c.line_pos = pos_apply(t, p, <pyr_move>m)
        return m
    c.line_len = 0
    if _solve(c, t, p, &c.lim_known) == 1 and c.out.n_moves > 0 \
            and _index(buf, n, c.out.line[0]) >= 0:
        m = c.out.line[0]
        c.line_len = c.out.n_moves
        memcpy(c.line, c.out.line, c.line_len * sizeof(pyr_move))
        c.line_at = 1
        c.line_pos = pos_apply(t, p, <pyr_move>m)
        return m
    return sim_greedy_at(t, d, p, buf, n, stuck)


cdef int fair_decide(fair_ctx* c, const pyr_table* t, const sim_deal* d, pyr_pos p,
                     uint32_t seen, bint stuck, int* wins, int* counted) noexcept nogil:
    cdef pyr_move buf[MAX_MOVES]
    cdef pyr_move tied[MAX_MOVES]
    cdef int own[MAX_MOVES]
    cdef uint8_t places[N_TALON]
    cdef uint8_t cards[N_TALON]
    cdef pyr_table tk
    cdef int n = gen_moves(t, p, buf), i, k, u, w, best = 0, alive, nt, K = c.prm.samples
    cdef uint64_t game
    if wins == NULL:
        wins = own
    if counted != NULL:
        counted[0] = 0
    memset(wins, 0, n * sizeof(int))
    if n == 0:
        return -1
    for i in range(n):
        if move_b(buf[i]) == LOC_NONE and move_a(buf[i]) != LOC_NONE:
            return buf[i]               # a King
        if move_a(buf[i]) == LOC_NONE or move_b(buf[i]) != LOC_NONE:
            break                       # Kings come first in gen_moves order
    if n == 1:
        return buf[0]
    u = fair_unseen(t, p, seen, places, cards)
    if u <= 1:
        return _known(c, t, d, p, buf, n, stuck)
    c.line_len = 0
    game = fair_game_key(t)
    for k in range(K):
        alive = 0
        for i in range(n):
            alive += wins[i] + (K - k) >= best
        if alive <= 1:
            break
        if counted != NULL:
            counted[0] = k + 1
        fair_complete(t, places, cards, u, fair_sample_key(c.prm.seed, game, p, seen, k), &tk)
        if _solve(c, &tk, p, &c.lim) != 1:
            continue
        w = _index(buf, n, c.out.line[0]) if c.out.n_moves > 0 else -1
        for i in range(n):
            if wins[i] + (K - k) < best:
                continue
            if i == w or _solve(c, &tk, pos_apply(&tk, p, buf[i]), &c.lim) == 1:
                wins[i] += 1
                if wins[i] > best:
                    best = wins[i]
        if pyr_cancelled(c.lim.cancel):
            break
    if best == 0:
        return sim_greedy_at(t, d, p, buf, n, stuck)
    nt = 0
    for i in range(n):
        if wins[i] == best:
            if c.prm.prefer_draw and move_a(buf[i]) == LOC_NONE:
                return buf[i]
            tied[nt] = buf[i]
            nt += 1
    return sim_greedy_at(t, d, p, tied, nt, stuck)


cdef int fair_play(fair_ctx* c, const pyr_table* t, sim_result* res,
                   pyr_move* rec) noexcept nogil:
    cdef sim_deal d
    cdef pyr_pos p = pos_start(t)
    cdef uint32_t seen = pos_seen(t, p, 0), pyr
    cdef int m, moves = 0, removed_pass = 0, rc = SIM_OK
    cdef bint unlimited = t.rules.redeals == REDEALS_UNLIMITED
    cdef bint pass_known = (pos_talon(p) & ~seen) == 0
    sim_deal_from_deck(&d, t.card, &t.rules)
    c.line_len = 0
    while moves < SIM_MOVE_CAP:
        if pyr_cancelled(c.lim.cancel):
            rc = FAIR_CANCELLED
            break
        m = fair_decide(c, t, &d, p, seen, unlimited and removed_pass == 0, NULL, NULL)
        if m < 0:                               # won, or no legal move
            break
        if m == MOVE_RECYCLE and unlimited and removed_pass == 0 and pass_known:
            break
        if rec != NULL:
            if moves >= SIM_MAX_RECORD:
                rc = SIM_RECORD_FULL
                break
            rec[moves] = <pyr_move>m
        moves += 1
        p = pos_apply(t, p, <pyr_move>m)
        seen = pos_seen(t, p, seen)
        if m == MOVE_RECYCLE:
            removed_pass = 0
            pass_known = (pos_talon(p) & ~seen) == 0
        elif move_a(<pyr_move>m) != LOC_NONE:
            removed_pass += 1
    pyr = pos_pyr(p)
    res.won = pos_won(t, p)
    res.removed = <uint8_t>(N_PYRAMID - pyr_popcount32(pyr))
    res.moves = <uint16_t>moves
    res.score = <uint16_t>(10 * res.removed)
    return rc


# ---- from Python ----------------------------------------------------------------------------

cdef int fair_params_from(fair_params* prm, dict d) except -1:
    """Fill prm from a dict of DEFAULTS' keys (missing ones: DEFAULTS), checked."""
    cdef dict v = dict(DEFAULTS)
    for k in d:
        if k not in DEFAULTS:
            raise ValueError(f"unknown hindsight parameter {k!r}")
    v.update(d)
    if not 1 <= v["samples"] <= 4096:
        raise ValueError(f"samples must be 1..4096, got {v['samples']}")
    prm.samples = v["samples"]
    prm.max_nodes = v["max_nodes"]
    prm.known_nodes = v["known_nodes"]
    prm.seed = v["seed"]
    prm.prefer_draw = 1 if v["prefer_draw"] else 0
    return 0


cdef int _table(pyr_table* t, deck, dict rules) except -1:
    cdef pyr_rules r
    cdef uint8_t cards[52]
    cdef int i
    deck = list(deck)
    if len(deck) != 52 or sorted(deck) != list(range(52)):
        raise ValueError("a deck is the 52 card indices 0..51, each once")
    for i in range(52):
        cards[i] = deck[i]
    rules_from_options(&r, rules)
    table_init(t, cards, &r)
    return 0


cdef class _Ctx:
    """A fair_ctx owned by Python (one per call)."""
    cdef fair_ctx c

    def __cinit__(self, dict params, const uint8_t[:] cancel=None):
        cdef fair_params prm
        fair_params_from(&prm, params)
        if fair_ctx_init(&self.c, &prm, &cancel[0] if cancel is not None else NULL) < 0:
            raise MemoryError()

    def __dealloc__(self):
        fair_ctx_free(&self.c)


def run(dict params, dict rules, unsigned long long start, const uint64_t[::1] deals,
        const uint8_t[:, ::1] decks, Py_ssize_t lo, Py_ssize_t hi, uint8_t[::1] won,
        uint8_t[::1] removed, uint16_t[::1] moves, uint16_t[::1] score,
        const uint8_t[:] cancel=None):
    """Play games lo .. hi-1 with the hindsight policy into the arrays: deal start + i, or
    deals[i] when deals is given, or the layout decks[i] when decks is given. Releases the
    GIL; safe from several threads on disjoint ranges. Returns (solves, undecided, nodes):
    the positions given to the solver, how many its budget left undecided, and the positions
    it expanded in all; None when cancel was set."""
    cdef _Ctx ctx = _Ctx(params, cancel)
    cdef pyr_rules r
    cdef pyr_table t
    cdef sim_result res
    cdef uint8_t deck[52]
    cdef Py_ssize_t i
    cdef int rc = SIM_OK
    cdef uint64_t number
    rules_from_options(&r, rules)
    if lo < 0 or lo > hi or hi > won.shape[0] or hi > removed.shape[0] \
            or hi > moves.shape[0] or hi > score.shape[0]:
        raise ValueError("range outside the result arrays")
    if deals is not None and hi > deals.shape[0]:
        raise ValueError("range outside the deals array")
    if decks is not None:
        if hi > decks.shape[0] or decks.shape[1] != 52:
            raise ValueError("range outside the decks array (n x 52)")
        i = sim_bad_deck(&decks[0, 0], lo, hi)
        if i >= 0:
            raise ValueError(f"decks row {i} is not a permutation of the card indices 0..51")
    with nogil:
        for i in range(lo, hi):
            if decks is not None:
                table_init(&t, &decks[i, 0], &r)
            else:
                number = deals[i] if deals is not None else start + <uint64_t>i
                deal_shuffle(number, deck)
                table_init(&t, deck, &r)
            rc = fair_play(&ctx.c, &t, &res, NULL)
            if rc != SIM_OK:
                break
            won[i] = res.won
            removed[i] = res.removed
            moves[i] = res.moves
            score[i] = res.score
    if rc == FAIR_CANCELLED:
        return None
    if rc != SIM_OK:
        raise RuntimeError("a fair game played more moves than the record holds")
    return ctx.c.solves, ctx.c.unknown, ctx.c.nodes


def play(dict params, dict rules, deck):
    """One game with its moves recorded: (won, removed, moves, score, [move codes])."""
    cdef _Ctx ctx = _Ctx(params)
    cdef pyr_table t
    cdef sim_result res
    cdef pyr_move rec[SIM_MAX_RECORD]
    cdef int rc
    _table(&t, deck, rules)
    with nogil:
        rc = fair_play(&ctx.c, &t, &res, rec)
    if rc != SIM_OK:
        raise RuntimeError("a fair game played more moves than the record holds")
    return bool(res.won), res.removed, res.moves, res.score, [rec[i] for i in range(res.moves)]


def decide(
    dict params, dict rules, deck, pyr_pos pos, uint32_t seen, bint stuck=False,
    const uint8_t[:] cancel=None,
):
    """The hindsight policy's move at pos (seen: the talon cards seen, pos's own included):
    (move code or -1, {move code: completions won}, completions used). A set ``cancel``
    flag stops it soon (what it returns then is not to be used)."""
    cdef _Ctx ctx = _Ctx(params, cancel)
    cdef pyr_table t
    cdef sim_deal d
    cdef pyr_move buf[MAX_MOVES]
    cdef int wins[MAX_MOVES]
    cdef int counted = 0, m, n
    _table(&t, deck, rules)
    sim_deal_from_deck(&d, t.card, &t.rules)
    seen = pos_seen(&t, pos, seen)
    n = gen_moves(&t, pos, buf)
    with nogil:
        m = fair_decide(&ctx.c, &t, &d, pos, seen, stuck, wins, &counted)
    return m, {buf[i]: wins[i] for i in range(n)}, counted


def chance(dict params, dict rules, deck, pyr_pos pos, uint32_t seen, const uint8_t[:] cancel=None):
    """How many of `samples` completions of pos can be won: (won, undecided, samples); with
    nothing hidden, the real position once (samples 1)."""
    cdef _Ctx ctx = _Ctx(params, cancel)
    cdef pyr_table t, tk
    cdef uint8_t places[N_TALON]
    cdef uint8_t cards[N_TALON]
    cdef int u, k, r, n_won = 0, n_unknown = 0, K
    cdef uint64_t game
    _table(&t, deck, rules)
    seen = pos_seen(&t, pos, seen)
    u = fair_unseen(&t, pos, seen, places, cards)
    K = 1 if u <= 1 else ctx.c.prm.samples
    game = fair_game_key(&t)
    with nogil:
        for k in range(K):
            if u <= 1:
                r = _solve(&ctx.c, &t, pos, &ctx.c.lim_known)
            else:
                fair_complete(&t, places, cards, u,
                              fair_sample_key(ctx.c.prm.seed, game, pos, seen, k), &tk)
                r = _solve(&ctx.c, &tk, pos, &ctx.c.lim)
            n_won += r == 1
            n_unknown += r < 0
            if pyr_cancelled(ctx.c.lim.cancel):
                break
    return n_won, n_unknown, K


def completion(dict rules, deck, pyr_pos pos, uint32_t seen, unsigned long long seed,
               int sample):
    """The deck of completion `sample` of pos (the sampler, for tests and the curious)."""
    cdef pyr_table t, tk
    cdef uint8_t places[N_TALON]
    cdef uint8_t cards[N_TALON]
    cdef int u
    _table(&t, deck, rules)
    seen = pos_seen(&t, pos, seen)
    u = fair_unseen(&t, pos, seen, places, cards)
    fair_complete(&t, places, cards, u,
                  fair_sample_key(seed, fair_game_key(&t), pos, seen, sample), &tk)
    return [tk.card[i] for i in range(52)]


def unseen(dict rules, deck, pyr_pos pos, uint32_t seen):
    """(places, cards) of pos's information set: the unseen talon indices and card indices,
    each ascending (seen: the cards seen before pos; pos's own are added)."""
    cdef pyr_table t
    cdef uint8_t places[N_TALON]
    cdef uint8_t cards[N_TALON]
    cdef int u
    _table(&t, deck, rules)
    u = fair_unseen(&t, pos, pos_seen(&t, pos, seen), places, cards)
    return [places[i] for i in range(u)], [cards[i] for i in range(u)]


def seen_after(dict rules, deck, pyr_pos pos, uint32_t seen):
    """pos_seen: the talon cards seen once at pos, given those seen before."""
    cdef pyr_table t
    _table(&t, deck, rules)
    return pos_seen(&t, pos, seen)
