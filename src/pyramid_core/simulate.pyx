# cython: language_level=3
"""Monte Carlo playouts: the random and greedy policies in C, and the batch loop.

See simulate.pxd for the design and docs/simulation.md for what the policies do. The Python
layer (pyramid_solitaire.simulate) calls `run` on chunks of a batch from a thread pool;
`run_decks` is the same batch on explicit layouts (card lists) instead of deal numbers; `play`
records one game's moves; `simd_path` and `cpu_features` say which vector path runs: one
record (SIM_PATH, pyr_sim_lockstep.h's pyr_sim_path) resolved once at import and read by every
batch. The hooks of the tests and benchmarks are in tests/core_hooks/_simulate_tests.pyx; they
pass records of their own to sim_batch_on and never change SIM_PATH.
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from pyramid_core.cards cimport card_rank, N_CARDS, N_PYRAMID, N_TALON, KING
from pyramid_core.rules cimport pyr_rules, rules_from_options, REDEALS_UNLIMITED
from pyramid_core.shortcuts cimport (pyr_shortcuts, SC_PLAYOUT_DRAW1, SC_PLAYOUT_DRAW3,
                                     SC_LOCKSTEP_DRAW1, SC_LOCKSTEP_DRAW3)
from pyramid_core.geometry cimport (pyr_ctz32, pyr_msb32, pyr_popcount32, PYRAMID_ALL,
                                    PYR_GEO, pyr_geometry_init, pyr_match_init)
from pyramid_core.position cimport (pyr_table, pyr_pos, MAX_MOVES, LOC_TALON, LOC_NONE,
                                    MOVE_DRAW, MOVE_RECYCLE, TALON_ALL, pos_start, gen_moves,
                                    pos_apply, pos_pyr, pos_talon, move_pair, move_king, below)
from pyramid_core.shuffle cimport deal_shuffle, splitmix64_next, rand_below

cdef extern from "pyr_cpu.h" nogil:
    int pyr_cpu_avx512()

cdef extern from "pyr_sim_lockstep.h" nogil:
    void pyr_ls_init_greedy(const uint32_t* bad, const uint8_t* support, uint32_t has_left,
                            uint32_t has_right)
    bint pyr_sim_veto(const sim_deal* d, uint32_t pyr, const uint8_t* pc, const uint8_t* tc,
                      int a, int b)

POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY}
MAX_RECORD = SIM_MAX_RECORD
MOVE_CAP = SIM_MOVE_CAP

# ---- constant tables ------------------------------------------------------------------------

# The pyramid's geometry and the rank-class matching are the core's one table set
# (pyr_geometry.h, pyr_match.h through geometry.pxd); below, the simulator's own tables.
cdef uint8_t PAR_L52[52]    # PYR_GEO's covered_l, covered_r and support by location: the
cdef uint8_t PAR_R52[52]    # sentinel 28 and 0 for talon cards (branch-free code indexes
cdef uint8_t SUPPORT52[52]  # them with any location)
cdef enum:
    TALON_EVERY_3 = 0x249249    # talon bits 0, 3, 6, ..., 21
cdef uint8_t RANK_OF[52]    # card index -> rank
cdef uint32_t DIV4[5]       # ceil(256 / f): (k * DIV4[f]) >> 8 == k // f for k < 16, f <= 4
cdef sim_path SIM_PATH               # what a batch runs: resolved at import, then read-only


cdef void _init_tables():
    cdef int i
    pyr_geometry_init()
    pyr_match_init()
    for i in range(52):
        PAR_L52[i] = PYR_GEO.covered_l[i] if i < 28 else 28
        PAR_R52[i] = PYR_GEO.covered_r[i] if i < 28 else 28
        SUPPORT52[i] = PYR_GEO.support[i] if i < 28 else 0
    for i in range(52):
        RANK_OF[i] = <uint8_t>card_rank(i)
    DIV4[0] = 0
    for i in range(1, 5):
        DIV4[i] = (256 + i - 1) // i


_init_tables()
pyr_sim_init()
PATH_NAMES = ("scalar", "avx512", "one-lane")    # by PATH_* (one-lane: the tests' only)
_SIMD_CHOICES = ("auto", "avx512", "off")


def _path_from_environment():
    """SIM_PATH from the CPU and PYRAMID_SIMD (auto, the default: AVX-512 where the CPU has
    it, else the scalar path; avx512; off: the scalar path), once, at import. A value that
    cannot be honoured warns and keeps what can."""
    import os
    import warnings
    want = os.environ.get("PYRAMID_SIMD", "auto").strip().lower() or "auto"
    if want not in _SIMD_CHOICES:
        warnings.warn(f"PYRAMID_SIMD={want!r} is not one of {', '.join(_SIMD_CHOICES)}: "
                      f"using auto", RuntimeWarning, stacklevel=2)
        want = "auto"
    if want == "off":
        sim_path_make(PATH_SCALAR, &SIM_PATH)
    elif not sim_path_make(PATH_AVX512, &SIM_PATH) and want == "avx512":
        warnings.warn("PYRAMID_SIMD=avx512 but this CPU (or build) has no AVX-512 F, DQ, BW, "
                      "VL, VPOPCNTDQ and CD: using the scalar path", RuntimeWarning, stacklevel=2)


_path_from_environment()
pyr_ls_init_greedy(PYR_GEO.bad, PYR_GEO.support, PYR_GEO.has_left, PYR_GEO.has_right)

# ---- small helpers --------------------------------------------------------------------------

cdef inline int _few_bits(uint32_t x) noexcept nogil:
    """The set bits of x, which has at most three."""
    cdef uint32_t y = x & (x - 1)
    return <int>(x != 0) + <int>(y != 0) + <int>((y & (y - 1)) != 0)


cdef uint64_t sim_game_seed(uint64_t seed, uint64_t number) noexcept nogil:
    """The state of game `number`'s generator: a function of (seed, number) only."""
    cdef uint64_t s = seed ^ <uint64_t>0x6A09E667F3BCC909ULL
    s = splitmix64_next(&s) ^ number
    return splitmix64_next(&s)

# ---- the deal -------------------------------------------------------------------------------

cdef inline void _deal_masks(sim_deal* d, const pyr_rules* rules) noexcept nogil:
    cdef int i
    d.rules = rules[0]
    d.move_cap = SIM_MOVE_CAP
    memset(d.prank, 0, sizeof(d.prank))
    memset(d.trank, 0, sizeof(d.trank))
    memset(d.pc0, 0, sizeof(d.pc0))
    memset(d.tc0, 0, sizeof(d.tc0))
    for i in range(N_PYRAMID):
        d.prank[d.rank[i]] |= (<uint32_t>1) << i
        d.pc0[d.rank[i]] += 1
    for i in range(N_TALON):
        d.trank[d.rank[LOC_TALON + i]] |= (<uint32_t>1) << i
        d.tc0[d.rank[LOC_TALON + i]] += 1
    d.pile[0] = d.pile[1] = d.pile[2] = 0
    if rules.draw == 3:
        _deal_piles(d)
    _deal_tnext(d)


cdef inline void _deal_piles(sim_deal* d) noexcept nogil:
    # Talon card i goes to pile 0 when i < w (dealt to the waste), else to pile (i - w) % 3:
    # the cards w + k, w + k + 3, ... (TALON_EVERY_3: bits 0, 3, ..., 21) for pile k.
    cdef int w = d.rules.waste_at_deal
    d.pile[0] = ((((<uint32_t>1) << w) - 1) | (<uint32_t>TALON_EVERY_3 << w)) & TALON_ALL
    d.pile[1] = (<uint32_t>TALON_EVERY_3 << (w + 1)) & TALON_ALL
    d.pile[2] = (<uint32_t>TALON_EVERY_3 << (w + 2)) & TALON_ALL


cdef void sim_deal_from_number(const sim_path* path, sim_deal* d, uint64_t number,
                               const pyr_rules* rules, bint with_cards) noexcept nogil:
    """Deal `number` of the version-1 shuffle. Without cards only the ranks are shuffled
    (a Fisher-Yates shuffle moves places, so they are the ranks of the shuffled cards)."""
    cdef int i
    if with_cards:
        deal_shuffle(number, d.card)
        for i in range(N_CARDS):
            d.rank[i] = RANK_OF[d.card[i]]
        _deal_masks(d, rules)
    else:
        pyr_sim_shuffle_masks(path.vector_setup, number, RANK_OF, d.rank, d.prank, d.trank,
                              d.pc0, d.tc0)
        _deal_rules(d, rules)
        _deal_tnext(d)


cdef inline void _deal_tnext(sim_deal* d) noexcept nogil:
    """The talon cards that pair with the next talon card (sim_deal.tnext), and those that
    start three talon cards of which two pair (sim_deal.t3)."""
    pyr_sim_talon_masks(d.rank, &d.tnext, &d.t3)


cdef inline void _deal_rules(sim_deal* d, const pyr_rules* rules) noexcept nogil:
    """The parts of a deal that depend on the rules only: the rules, the draw-3 piles (and
    the move cap, SIM_MOVE_CAP)."""
    d.rules = rules[0]
    d.move_cap = SIM_MOVE_CAP
    d.pile[0] = d.pile[1] = d.pile[2] = 0
    if rules.draw == 3:
        _deal_piles(d)


cdef inline void _deal_block(const sim_path* path, sim_deal* ds, const uint64_t* numbers,
                             const uint64_t* nxt, pyr_sim_blocker* b) noexcept nogil:
    """sim_deal_from_number (without cards) for the SIM_BLOCK deals numbers[k] into ds[k],
    whose rules are set (_deal_rules): their shuffles interleaved. nxt: the deals of the next
    block (or NULL), a hint for b (zeroed before the first block)."""
    pyr_sim_shuffle_masks_block(path.vector_setup, b, numbers, nxt, RANK_OF, ds)


cdef void sim_deal_from_deck(sim_deal* d, const uint8_t* deck,
                             const pyr_rules* rules) noexcept nogil:
    cdef int i
    for i in range(N_CARDS):
        d.card[i] = deck[i]
        d.rank[i] = RANK_OF[deck[i]]
    _deal_masks(d, rules)

# ---- playouts -------------------------------------------------------------------------------

cdef inline int _record(pyr_move* rec, int* n_rec, pyr_move m, int times) noexcept nogil:
    cdef int i
    if n_rec[0] + times > SIM_MAX_RECORD:
        return SIM_RECORD_FULL
    for i in range(times):
        rec[n_rec[0] + i] = m
    n_rec[0] += times
    return SIM_OK


cdef inline void _set_result(sim_result* res, uint32_t pyr, uint32_t talon, bint win_all,
                             int moves) noexcept nogil:
    """A finished game's row (score: seed 000's 10 per pyramid card removed)."""
    res.won = pyr == 0 and (not win_all or talon == 0)
    res.removed = <uint8_t>(N_PYRAMID - pyr_popcount32(pyr))
    res.moves = <uint16_t>moves
    res.score = <uint16_t>(10 * res.removed)


# ---- the greedy policy ----------------------------------------------------------------------
#
# One step of lookahead, no search. In order:
#  1. a King is removed at once (a free pyramid King first, lowest position first);
#  2. every legal pair gets a score (_greedy_first) and the best is played (the first of
#     equals, in gen_moves order), unless all score below zero;
#  3. otherwise the policy draws, or recycles; when neither is possible it plays the best
#     pair anyway, and so it does at the end of a pass that removed nothing under unlimited
#     redeals (rather than end the game);
# The score of a pair: 100 per pyramid card it removes, 30 per pyramid card it frees, 1 per
# card the removed cards cover (directly or not: clearing the middle of the lower rows opens
# the pyramid faster), and a veto (-1) when it would leave its rank pair (say the 5s and 8s)
# unclearable while it was clearable before. "Clearable" counts partners: each pyramid 5
# needs an 8 that is not in a covering relation with it (an 8 above the 5 is freed only once
# the 5 is gone), or a talon 8; the largest set of pyramid 5-8 pairs is a matching on at most
# 4 x 4 cards, and the rank pair is clearable when the talon 8s and 5s cover the rest. This is
# the seeds' "a 4 covering its own 9 needs another 9: keep one" and "prefer the waste partner
# when the pyramid partner is scarce". A pair of two talon cards (win = pyramid) removes no
# pyramid card and uses up partners: it scores 0 when the rank pair stays clearable, else -1.

cdef inline int _freed_by(uint32_t after, int p) noexcept nogil:
    """1 when position p (or the sentinel 28, never) is present in `after` and uncovered."""
    return <int>((after >> p) & 1) & <int>((PYR_GEO.covering[p] & after) == 0)


cdef inline int _greedy_merit(uint32_t pyr, int a, int b) noexcept nogil:
    """The positive part of a pair's score: 100 per pyramid card removed, 30 per pyramid card
    freed, plus how many cards the removed ones cover (directly or not). Branch-free (talon
    locations have no parents and support 0): the outcome of a branch here is as good as
    random, and a mispredicted branch costs more than this whole function."""
    cdef int ia = a < N_PYRAMID, ib = b < N_PYRAMID, pra = PAR_R52[a], plb = PAR_L52[b]
    cdef uint32_t after = pyr & ~(((<uint32_t>ia) << (a & 31)) | ((<uint32_t>ib) << (b & 31)))
    cdef int freed = (_freed_by(after, PAR_L52[a]) + _freed_by(after, pra)
                      + _freed_by(after, plb) + _freed_by(after, PAR_R52[b]))
    # a and b side by side share a parent: count it once
    freed -= (pra == plb) & _freed_by(after, pra)
    return SUPPORT52[a] + SUPPORT52[b] + 100 * (ia + ib) + 30 * freed


cdef inline (uint64_t, uint64_t) _freeing_masks(uint32_t pyr) noexcept nogil:
    """The free cards whose removal frees the card they cover to the upper left (first mask)
    or upper right (second): that card's other cover, the free card's left (right)
    neighbour in its row, is gone. Bits 28 and up (talon locations) are 0."""
    cdef uint64_t p = pyr
    return <uint64_t>PYR_GEO.has_left & ~(p << 1), <uint64_t>PYR_GEO.has_right & ~(p >> 1)


cdef inline int _greedy_merit_free(uint64_t f1, uint64_t f2, int a, int b) noexcept nogil:
    """_greedy_merit for a pair of free cards (a < b; what the draw-1 and draw-3 playouts
    list): from _freeing_masks, with no loop and no branch. Two neighbours in a row free
    the card they both cover (it was counted for neither)."""
    cdef int freed = <int>(((f1 >> a) & 1) + ((f2 >> a) & 1) + ((f1 >> b) & 1) + ((f2 >> b) & 1)
                           + (<uint64_t>(b == a + 1) & (<uint64_t>PYR_GEO.has_right >> a) & 1))
    return (SUPPORT52[a] + SUPPORT52[b] + 100 * ((a < N_PYRAMID) + (b < N_PYRAMID))
            + 30 * freed)


cdef inline int _greedy_first(const sim_deal* d, uint32_t pyr, const uint8_t* pc,
                              const uint8_t* tc, const uint8_t* ca, const uint8_t* cb,
                              int* merit, int nc, int* best_score) noexcept nogil:
    """The first best-scoring of the nc >= 1 pairs (ca[k], cb[k]) in gen_moves order, of
    merits merit[k] (overwritten; not read when nc is 1: then only the veto matters), and
    in best_score the sign of its score: -1 when vetoed (all are, then: the first pair),
    else its merit (0 when nc is 1). The veto, the dear part, is worked out only for the
    pair with the best merit (then the next best, when vetoed), not for every pair."""
    cdef int k, best = 0, bm = 0
    while True:
        if nc > 1:
            best = -1
            bm = -1
            for k in range(nc):
                if merit[k] > bm:
                    bm = merit[k]
                    best = k
        if best < 0:
            best_score[0] = -1                  # all vetoed: the first pair scores -1
            return ca[0] | (cb[0] << 6)
        if not pyr_sim_veto(d, pyr, pc, tc, ca[best], cb[best]):
            best_score[0] = bm
            return ca[best] | (cb[best] << 6)
        if nc > 1:
            merit[best] = -1
        else:
            best = -1


cdef inline int _greedy_best(const sim_deal* d, uint32_t pyr, const uint8_t* pc,
                             const uint8_t* tc, const uint8_t* ca, const uint8_t* cb, int nc,
                             int* best_score) noexcept nogil:
    """_greedy_first for the nc >= 1 pairs of free cards (ca[k], cb[k]) of the specialised
    playouts."""
    cdef int merit[MAX_MOVES]
    cdef int k
    cdef uint64_t f1, f2
    if nc > 1:
        f1, f2 = _freeing_masks(pyr)
        for k in range(nc):
            merit[k] = _greedy_merit_free(f1, f2, ca[k], cb[k])
    return _greedy_first(d, pyr, pc, tc, ca, cb, merit, nc, best_score)


cdef inline int _greedy_pick(int best, int best_score, int fallback, bint stuck) noexcept nogil:
    """The greedy rule once the pairs are scored: the best pair unless it is vetoed and a draw
    or recycle is possible (at the end of a pass that removed nothing, play it anyway)."""
    if best >= 0 and (best_score >= 0 or fallback < 0 or (fallback == MOVE_RECYCLE and stuck)):
        return best
    return fallback


cdef inline int _greedy_choose(const sim_deal* d, uint32_t pyr, const uint8_t* pc,
                               const uint8_t* tc, const pyr_move* buf, int n,
                               bint stuck) noexcept nogil:
    """The greedy policy's pick among the legal moves buf[0..n-1] (gen_moves order), or -1
    when there are none. `stuck`: unlimited redeals and nothing removed in this pass."""
    cdef uint8_t ca[MAX_MOVES]
    cdef uint8_t cb[MAX_MOVES]
    cdef int merit[MAX_MOVES]
    cdef int k, a, nc = 0, best = -1, best_score = -1, fallback = -1
    cdef pyr_move m
    for k in range(n):
        m = buf[k]
        a = m & 63
        if a == LOC_NONE:
            fallback = m
        elif (m >> 6) == LOC_NONE:
            return m
        else:
            ca[nc] = <uint8_t>a
            cb[nc] = <uint8_t>(m >> 6)
            merit[nc] = _greedy_merit(pyr, a, m >> 6)
            nc += 1
    if nc:
        best = _greedy_first(d, pyr, pc, tc, ca, cb, merit, nc, &best_score)
    return _greedy_pick(best, best_score, fallback, stuck)


cdef int sim_play_engine(int policy, const sim_deal* d, uint64_t rng, sim_result* res,
                         pyr_move* rec) noexcept nogil:
    """Either policy under any rules, one move at a time on the engine's positions
    (position.pxd: gen_moves, pos_apply): the definition of the policies, the tests' oracle
    for the specialised playouts below, and the playout of the rarer options
    pair_waste_top_two and pair_with_covering. Greedy plays _greedy_choose's pick; random a
    uniform legal move, with no random number taken when drawing or recycling is the only
    move; the stop rules are simulate.pxd's."""
    cdef pyr_table t
    cdef pyr_pos p
    cdef pyr_move buf[MAX_MOVES]
    cdef uint8_t cnt[28]        # present cards of each rank: the pyramid's, then the talon's
    cdef int m, n, moves = 0, n_rec = 0, rc = SIM_OK
    cdef int removed = 0        # removals in this pass (since the last recycle or the deal)
    cdef bint unlimited = d.rules.redeals == REDEALS_UNLIMITED
    cdef bint seen = False      # random: a removal was legal in this pass (see _random_talon)
    if policy != POLICY_GREEDY and policy != POLICY_RANDOM:
        return SIM_BAD_POLICY
    t.rules = d.rules
    t.shortcuts = 0             # (the engine's moves only: no shortcut asked)
    memcpy(t.rank, d.rank, sizeof(t.rank))
    memcpy(t.pyr_rank, d.prank, sizeof(t.pyr_rank))
    memcpy(t.pile, d.pile, sizeof(t.pile))
    memcpy(cnt, d.pc0, 14)
    memcpy(cnt + 14, d.tc0, 14)
    p = pos_start(&t)
    while True:
        n = gen_moves(&t, p, buf)               # none: won, or no legal move
        if n == 0:
            break
        if policy == POLICY_GREEDY:
            m = _greedy_choose(d, pos_pyr(p), cnt, cnt + 14, buf, n, unlimited and removed == 0)
            if m == MOVE_RECYCLE and unlimited and removed == 0:
                break
        elif (buf[0] & 63) == LOC_NONE:         # drawing or recycling is the only move
            m = buf[0]
            if m == MOVE_RECYCLE and unlimited and (not seen or moves >= d.move_cap):
                break
        else:
            seen = True
            m = buf[0] if n == 1 else buf[rand_below(&rng, n)]
            if m == MOVE_RECYCLE and unlimited and moves >= d.move_cap:
                break
        if rec != NULL:
            rc = _record(rec, &n_rec, <pyr_move>m, 1)
            if rc != SIM_OK:
                break
        moves += 1
        p = pos_apply(&t, p, <pyr_move>m)
        if m == MOVE_RECYCLE:
            removed = 0
            seen = False
        elif (m & 63) != LOC_NONE:              # a King or a pair: keep the rank counts
            removed += 1
            cnt[14 * ((m & 63) >= N_PYRAMID) + d.rank[m & 63]] -= 1
            if (m >> 6) != LOC_NONE:
                cnt[14 * ((m >> 6) >= N_PYRAMID) + d.rank[m >> 6]] -= 1
    _set_result(res, pos_pyr(p), pos_talon(p), d.rules.win_all, moves)
    return rc


cdef inline void _free_up(const sim_deal* d, int q, uint32_t* pyr, uint32_t* free,
                          uint32_t* fr, uint32_t* frr, uint32_t* useful, uint8_t* fc,
                          bint counts) noexcept nogil:
    """Branch-free: position q, which a card just removed was covering (or the sentinel 28,
    never), becomes free when nothing covers it any more (q is present and was not free).
    counts: keep fc, the free cards by rank (else fc is not used: the greedy playouts ask
    the free mask whether q is the first free card of its rank, with no store to memory)."""
    cdef uint32_t now = ((PYR_GEO.covering[q] & pyr[0]) == 0) & (q < N_PYRAMID)
    cdef int r = d.rank[q]
    cdef uint32_t first
    if counts:
        first = now & (fc[r] == 0)
        fc[r] += now
    else:
        first = now & ((free[0] & d.prank[r]) == 0)
    free[0] |= now << q
    fr[0] |= first << r
    frr[0] |= first << (13 - r)
    useful[0] |= d.trank[13 - r] & (<uint32_t>0 - first)


cdef inline void _free_up_bottom(const sim_deal* d, int q, uint32_t* free, uint32_t* fr,
                                 uint32_t* frr, uint32_t* useful, uint8_t* fc) noexcept nogil:
    """Bottom-row position q is free at the deal (branch-free, like _free_up)."""
    cdef int r = d.rank[q]
    cdef uint32_t first = fc[r] == 0
    free[0] |= (<uint32_t>1) << q
    fr[0] |= first << r
    frr[0] |= first << (13 - r)
    useful[0] |= d.trank[13 - r] & (<uint32_t>0 - first)
    fc[r] += 1


cdef inline void _free_bottom_row(const sim_deal* d, uint32_t* free, uint32_t* fr,
                                  uint32_t* frr, uint32_t* useful, uint8_t* fc) noexcept nogil:
    """The specialised playouts' start: the bottom row is free (fc: zeroed, then counted)."""
    cdef int q
    memset(fc, 0, 14)
    for q in range(21, 28):
        _free_up_bottom(d, q, free, fr, frr, useful, fc)


cdef inline uint32_t _play_cards(const sim_deal* d, int m, uint32_t* talon,
                                 uint8_t* tc) noexcept nogil:
    """The specialised playouts' removal m (a King or a pair): its talon cards leave the
    talon (and their rank counts tc, unless NULL); returns its pyramid cards, for
    _take_pyr."""
    cdef int a = m & 63, b = m >> 6
    cdef uint32_t gone = 0
    if a < N_PYRAMID:
        gone = (<uint32_t>1) << a
    else:
        talon[0] &= ~((<uint32_t>1) << (a - LOC_TALON))
        if tc != NULL:
            tc[d.rank[a]] -= 1
    if b < N_PYRAMID:
        gone |= (<uint32_t>1) << b
    elif b != LOC_NONE:
        talon[0] &= ~((<uint32_t>1) << (b - LOC_TALON))
        if tc != NULL:
            tc[d.rank[b]] -= 1
    return gone


cdef inline int _pyramid_pairs(const sim_deal* d, uint32_t free, uint32_t pp, uint8_t* ca,
                               uint8_t* cb) noexcept nogil:
    """The greedy playouts' candidate pairs of free pyramid cards, in gen_moves order, into
    ca[k] < cb[k]; pp: the ranks with a pyramid pair. Returns how many."""
    cdef uint32_t x, y, h
    cdef int nc = 0, r, a, b
    pp &= 0x7E
    while pp:
        r = pyr_ctz32(pp)
        pp &= pp - 1
        x = free & d.prank[r]
        y = free & d.prank[13 - r]
        while x:
            a = pyr_ctz32(x)
            x &= x - 1
            h = y
            while h:
                b = pyr_ctz32(h)
                h &= h - 1
                ca[nc] = a if a < b else b
                cb[nc] = b if a < b else a
                nc += 1
    return nc


cdef inline int _fallback(const sim_deal* d, uint32_t stock, uint32_t waste,
                          int recycles) noexcept nogil:
    """What the greedy policy plays when no pair is worth it: draw, else recycle if the rules
    allow one more, else nothing (-1)."""
    if stock:
        return MOVE_DRAW
    if waste and (d.rules.redeals == REDEALS_UNLIMITED or recycles < d.rules.redeals):
        return MOVE_RECYCLE
    return -1


cdef inline void _take_pyr(const sim_deal* d, int p, uint32_t* pyr, uint32_t* free,
                           uint32_t* fr, uint32_t* frr, uint32_t* useful, uint8_t* fc,
                           uint8_t* pc, bint counts) noexcept nogil:
    """Remove free pyramid card p (the specialised playouts' scalar state), branch-free:
    update the free cards and what is derived from them (counts: as in _free_up)."""
    cdef int r = d.rank[p]
    cdef uint32_t last
    pc[r] -= 1
    pyr[0] &= ~((<uint32_t>1) << p)
    free[0] &= ~((<uint32_t>1) << p)
    if counts:
        fc[r] -= 1
        last = fc[r] == 0
    else:
        last = (free[0] & d.prank[r]) == 0
    fr[0] &= ~(last << r)
    frr[0] &= ~(last << (13 - r))
    useful[0] &= ~(d.trank[13 - r] & (<uint32_t>0 - last))
    _free_up(d, PYR_GEO.covered_l[p], pyr, free, fr, frr, useful, fc, counts)
    _free_up(d, PYR_GEO.covered_r[p], pyr, free, fr, frr, useful, fc, counts)


cdef inline int _nth_bit(uint32_t x, int k) noexcept nogil:
    """Position of the k-th (from 0) set bit of x, counting from the lowest."""
    while k > 0:
        x &= x - 1
        k -= 1
    return pyr_ctz32(x)


cdef inline int _skip_draws_stp(const sim_deal* d, uint32_t talon, uint32_t useful,
                                int* cur) noexcept nogil:
    """stock_top_playable: draw (at least once) until the waste top or the stock top is
    useful, or they pair, or the stock runs out. Returns the number of draws."""
    cdef uint32_t st = talon & ~below(cur[0])
    cdef uint32_t low = st & (<uint32_t>0 - st), stop
    cdef int k = 0, w, t
    if ((st + low) & st) == 0:
        # A gapless stock (the first pass: only its top card ever goes): the card after w is
        # w + 1, so where the drawing stops is the lowest bit of a mask.
        stop = (useful | (useful >> 1) | (d.tnext & (st >> 1)) | (st ^ (st >> 1))) & st
        w = pyr_ctz32(stop)
        cur[0] = w + 1
        return w + 1 - pyr_ctz32(st)
    while True:
        w = pyr_ctz32(st)
        k += 1
        st &= st - 1
        if (useful >> w) & 1 or not st:
            break
        t = pyr_ctz32(st)
        if (useful >> t) & 1 or d.rank[LOC_TALON + w] + d.rank[LOC_TALON + t] == 13:
            break
    cur[0] = w + 1
    return k


cdef inline uint32_t _top_bit(uint32_t x) noexcept nogil:
    """The highest set bit of x as a mask (0 for x = 0), without a branch."""
    return ((<uint32_t>1) << pyr_msb32(x | 1)) & (<uint32_t>0 - <uint32_t>(x != 0))


cdef inline uint32_t _tops_mask(uint32_t wm, uint32_t p0, uint32_t p1, uint32_t p2) noexcept nogil:
    """Draw 3: the tops of the three waste piles (wm: the waste; p0, p1, p2: each pile's
    talon bits) as a mask: walking it from the lowest bit lists them as position.pxd's
    talon_available does."""
    return _top_bit(wm & p0) | _top_bit(wm & p1) | _top_bit(wm & p2)


cdef inline bint _tops_moves(const sim_deal* d, uint32_t useful, uint32_t tops) noexcept nogil:
    """Is a move with a talon card in play (tops: under draw 3 the pile tops) legal: a King
    or a card with a free pyramid partner (both in `useful`), or two of them that pair?"""
    cdef uint32_t x = tops
    cdef int t
    if tops & useful:
        return True
    # At most three cards: the lowest with the others, then the middle one with the last.
    if (x & (x - 1)) == 0:
        return False
    t = pyr_ctz32(x)
    x &= x - 1
    if x & d.trank[13 - d.rank[LOC_TALON + t]]:
        return True
    if (x & (x - 1)) == 0:
        return False
    t = pyr_ctz32(x)
    x &= x - 1
    return (x & d.trank[13 - d.rank[LOC_TALON + t]]) != 0


cdef inline int _skip_draws3(const sim_deal* d, uint32_t talon, uint32_t useful, uint32_t p0,
                             uint32_t p1, uint32_t p2, int* cur) noexcept nogil:
    """Draw 3: draw (at least once) until a pile top has a move or the stock is empty (as
    _draw3_stops, one draw at a time). Returns the number of draws. While the stock is whole
    (no card of it ever went: always in the first pass) and starts at or after waste_at_deal,
    every draw puts three cards c, c + 1, c + 2 on the piles, and where the drawing stops is
    the lowest bit of a mask: a start c with one of the three useful, or two that pair
    (d.t3), else the last draw."""
    cdef int c = cur[0], k = 0, last
    cdef uint32_t starts, stop
    if c >= d.rules.waste_at_deal and (talon >> c) == (<uint32_t>TALON_ALL >> c):
        starts = (<uint32_t>TALON_EVERY_3 << c) & TALON_ALL      # c, c + 3, ...
        last = pyr_msb32(starts)
        stop = starts & (useful | (useful >> 1) | (useful >> 2) | d.t3) & below(last)
        stop |= (<uint32_t>1) << last
        c = pyr_ctz32(stop)
        k = (c - cur[0]) // 3 + 1
        cur[0] = c + 3 if c + 3 < N_TALON else N_TALON
        return k
    while True:
        k += 1
        if _draw3_stops(d, talon, useful, p0, p1, p2, cur):
            return k


cdef inline bint _draw3_stops(const sim_deal* d, uint32_t talon, uint32_t useful, uint32_t p0,
                              uint32_t p1, uint32_t p2, int* cur) noexcept nogil:
    """Draw 3: draw once; True when the drawing stops there (the stock is empty, or a pile
    top has a move). Three cards drawn that are all there and were dealt to the stock
    (c >= waste_at_deal) lie in the three piles: they are the new tops, in order."""
    cdef int c = cur[0], r0, r1, r2
    if c + 3 < N_TALON and c >= d.rules.waste_at_deal and ((talon >> c) & 7) == 7:
        cur[0] = c + 3
        if not (talon >> (c + 3)):
            return True
        if (useful >> c) & 7:
            return True
        r0 = d.rank[LOC_TALON + c]
        r1 = d.rank[LOC_TALON + c + 1]
        r2 = d.rank[LOC_TALON + c + 2]
        return r0 + r1 == 13 or r0 + r2 == 13 or r1 + r2 == 13
    cur[0] = c + 3 if c + 3 < N_TALON else N_TALON
    if not (talon & ~below(cur[0])):
        return True
    return _tops_moves(d, useful, _tops_mask(talon & below(cur[0]), p0, p1, p2))


# The draw-1 and draw-3 playouts are compiled once each (`draws`, as scikit-learn's
# splitters specialise with fused types): `if draws is _draw1` is decided at compile time.
ctypedef struct _draw1:
    int unused
ctypedef struct _draw3:
    int unused
ctypedef fused draws:
    _draw1
    _draw3


cdef inline int _skip_draws(const draws* kind, const sim_deal* d, uint32_t talon, uint32_t st,
                            uint32_t useful, bint stp, uint32_t p0, uint32_t p1, uint32_t p2,
                            int* cur) noexcept nogil:
    """Both playouts, when drawing is the only move they would make: draw until a talon card
    in play has a partner (or is a King, or, under draw 3, two of them pair), or the stock
    (st, not empty) is empty. Moves *cur on; returns the draws made, the moves gen_moves would
    have listed one at a time."""
    cdef uint32_t u
    cdef int j, k
    if draws is _draw3:
        k = _skip_draws3(d, talon, useful, p0, p1, p2, cur)
    elif stp:
        k = _skip_draws_stp(d, talon, useful, cur)
    else:
        u = st & useful
        j = pyr_ctz32(u) if u else pyr_msb32(st)
        k = pyr_popcount32(st & below(j + 1))
        cur[0] = j + 1
    return k


cdef int _greedy_talon(const draws* kind, const sim_deal* d, sim_result* res,
                       pyr_move* rec) noexcept nogil:
    """The greedy playout specialised for draw 1 and draw 3 without pair_waste_top_two and
    pair_with_covering: the talon cards in play, a mask (tops) walked from its lowest bit,
    are under draw 1 the waste top and (stock_top_playable) the stock top, under draw 3 the
    waste piles' tops; so the candidates are few and found from bit masks. The state lives
    in local variables. Same moves as sim_play_engine (tests/test_simulate.py checks). Under
    draw 1 the cursor is kept canonical (cur - 1 is the waste top)."""
    cdef uint32_t pyr = PYRAMID_ALL, free = 0, talon = TALON_ALL, fr = 0, frr = 0
    cdef uint32_t useful = d.trank[KING], x, y, h, pp, st, wm, gone, tops
    cdef uint32_t p0 = d.pile[0], p1 = d.pile[1], p2 = d.pile[2]
    cdef uint8_t pc[14]
    cdef uint8_t tc[14]
    cdef uint8_t fc[14]
    cdef uint8_t ca[MAX_MOVES]
    cdef uint8_t cb[MAX_MOVES]
    cdef int cur = d.rules.waste_at_deal, recycles = 0, moves = 0, pass_removed = 0
    cdef int m, nc, a, r, k, n_rec = 0, rc = SIM_OK, best, best_score, alt, alt_score
    cdef bint unlimited = d.rules.redeals == REDEALS_UNLIMITED, vetoed = False, stuck
    cdef bint win_all = d.rules.win_all, stp = d.rules.stock_top_playable
    memcpy(pc, d.pc0, sizeof(pc))
    memcpy(tc, d.tc0, sizeof(tc))
    _free_bottom_row(d, &free, &fr, &frr, &useful, fc)
    while pyr != 0 or (win_all and talon != 0):
        gone = 0
        if fr >> KING:
            # The first move gen_moves lists: the free pyramid King with the lowest position.
            a = pyr_ctz32(free & d.prank[KING])
            gone = (<uint32_t>1) << a
            m = move_king(a)
            vetoed = False
        else:
            pp = fr & frr                       # ranks with a pyramid pair
            wm = talon & below(cur)             # the waste
            st = talon & ~below(cur)            # the stock
            if draws is _draw3:
                tops = _tops_mask(wm, p0, p1, p2)
            else:
                tops = (<uint32_t>1) << (cur - 1) if cur else 0
                if stp:
                    tops |= st & (<uint32_t>0 - st)
            if (pp == 0 or vetoed) and st and not _tops_moves(d, useful, tops):
                k = _skip_draws(kind, d, talon, st, useful, stp, p0, p1, p2, &cur)
                moves += k
                if rec != NULL:
                    rc = _record(rec, &n_rec, MOVE_DRAW, k)
                    if rc != SIM_OK:
                        break
                continue
            # Talon Kings go at once (after pyramid Kings, in location order).
            x = tops & d.trank[KING]
            if x:
                m = move_king(LOC_TALON + pyr_ctz32(x))
                talon &= ~((<uint32_t>1) << ((m & 63) - LOC_TALON))
                tc[KING] -= 1
                if draws is _draw1:
                    x = talon & below(cur)
                    cur = pyr_msb32(x) + 1 if x else 0
                moves += 1
                pass_removed += 1
                vetoed = False
                if rec != NULL:
                    rc = _record(rec, &n_rec, <pyr_move>m, 1)
                    if rc != SIM_OK:
                        break
                continue
            stuck = unlimited and pass_removed == 0
            # The pairs, in gen_moves order: pyramid pairs, then for each talon card in play
            # (ascending) its pyramid partners and its pairs with the later ones. A pyramid
            # pair's merit (200 or more) beats any pair with a talon card (under 200), so the
            # talon cards' pairs are listed only when no pyramid pair is playable; when every
            # pair is vetoed the first one listed stands, with score -1.
            nc = _pyramid_pairs(d, free, pp, ca, cb)
            best = -1
            best_score = -1
            if nc:
                best = _greedy_best(d, pyr, pc, tc, ca, cb, nc, &best_score)
            if best_score < 0:
                k = 0
                x = tops
                while x:
                    a = pyr_ctz32(x)
                    x &= x - 1
                    r = d.rank[LOC_TALON + a]
                    y = free & d.prank[13 - r]
                    while y:
                        ca[k] = pyr_ctz32(y)
                        cb[k] = LOC_TALON + a
                        k += 1
                        y &= y - 1
                    h = x & d.trank[13 - r]         # the later ones it pairs with
                    while h:
                        ca[k] = LOC_TALON + a
                        cb[k] = LOC_TALON + pyr_ctz32(h)
                        k += 1
                        h &= h - 1
                if k:
                    alt = _greedy_best(d, pyr, pc, tc, ca, cb, k, &alt_score)
                    if alt_score >= 0 or nc == 0:
                        best = alt
                        best_score = alt_score
            if best_score >= 0:                 # (the commonest case: no need of the fallback)
                m = best
            else:
                m = _greedy_pick(best, best_score, _fallback(d, st, wm, recycles), stuck)
            if m < 0 or (m == MOVE_RECYCLE and stuck):
                break
            if m == MOVE_DRAW:
                vetoed = True
                if draws is _draw3:
                    cur = cur + 3 if cur + 3 < N_TALON else N_TALON
                else:
                    cur = pyr_ctz32(st) + 1
            elif m == MOVE_RECYCLE:
                vetoed = True
                cur = 0
                if not unlimited:
                    recycles += 1
                pass_removed = 0
                moves += 1
                if rec != NULL:
                    rc = _record(rec, &n_rec, <pyr_move>m, 1)
                    if rc != SIM_OK:
                        break
                continue
            else:
                vetoed = False
                gone = _play_cards(d, m, &talon, tc)
                if draws is _draw1:
                    if (m >> 6) >= N_PYRAMID:   # a waste card went: the one below is the top
                        x = talon & below(cur)
                        cur = pyr_msb32(x) + 1 if x else 0
        while gone:
            # one call site, so that the compiler inlines it and keeps the state in registers
            _take_pyr(d, pyr_ctz32(gone), &pyr, &free, &fr, &frr, &useful, fc, pc, False)
            gone &= gone - 1
        if m != MOVE_DRAW:
            pass_removed += 1
        moves += 1
        if rec != NULL:
            rc = _record(rec, &n_rec, <pyr_move>m, 1)
            if rc != SIM_OK:
                break
    _set_result(res, pyr, talon, win_all, moves)
    return rc


cdef int _random_talon(const draws* kind, const sim_deal* d, uint64_t rng, sim_result* res,
                       pyr_move* rec) noexcept nogil:
    """The random playout specialised like _greedy_talon for draw 1 and draw 3: the legal
    moves are counted by kind and the chosen one is found without listing them, in gen_moves
    order (so the same games as sim_play_engine; tests/test_simulate.py checks). The talon cards
    in play are, under draw 3, the pile tops as a mask; under draw 1 the waste top w and the
    stock top t, in straight-line code (walking them as a mask was 10% slower under msc)."""
    cdef uint32_t pyr = PYRAMID_ALL, free = 0, talon = TALON_ALL, fr = 0, frr = 0
    cdef uint32_t useful = d.trank[KING], x, pp, st, wm, gone, kings, tops = 0, tk = 0
    cdef uint32_t p0 = d.pile[0], p1 = d.pile[1], p2 = d.pile[2]
    cdef uint8_t pc[14]
    cdef uint8_t fc[14]
    cdef int cur = d.rules.waste_at_deal, recycles = 0, moves = 0
    cdef int m, n, a, b, r, j, k, nk, n_rec = 0, rc = SIM_OK
    cdef int t0, q0, w = -1, t = -1, rw = 0, rt = 0, cw = 0, ct = 0
    cdef uint32_t y0
    cdef bint unlimited = d.rules.redeals == REDEALS_UNLIMITED, can_step, wuse, tuse, forced
    cdef bint wt = False
    # seen: a removal (a King or a pair) was legal at some position since the last recycle
    # (or the deal). Under unlimited redeals the game ends at a recycle only when none was
    # (the pass could only repeat), or once it has played SIM_MOVE_CAP moves.
    cdef bint seen = False
    cdef bint win_all = d.rules.win_all, stp = d.rules.stock_top_playable
    memcpy(pc, d.pc0, sizeof(pc))
    _free_bottom_row(d, &free, &fr, &frr, &useful, fc)
    while pyr != 0 or (win_all and talon != 0):
        pp = fr & frr & 0x7E                    # ranks r <= 6 with a pyramid pair
        kings = free & d.prank[KING]
        wm = talon & below(cur)                 # the waste
        st = talon & ~below(cur)                # the stock
        if draws is _draw3:
            tops = _tops_mask(wm, p0, p1, p2)
            forced = not _tops_moves(d, useful, tops) and pp == 0 and kings == 0
        else:
            w = cur - 1                         # the waste top, or -1
            t = -1                              # the stock top, when playable
            wuse = w >= 0 and (useful >> w) & 1
            tuse = wt = False
            if stp and st:
                t = pyr_ctz32(st)
                tuse = (useful >> t) & 1
                wt = w >= 0 and d.rank[LOC_TALON + w] + d.rank[LOC_TALON + t] == 13
            forced = not (wuse or tuse or wt) and pp == 0 and kings == 0
        if forced:
            # Drawing (or recycling) is the only legal move: no random number is used.
            if st:
                k = _skip_draws(kind, d, talon, st, useful, stp, p0, p1, p2, &cur)
                moves += k
                if rec != NULL:
                    rc = _record(rec, &n_rec, MOVE_DRAW, k)
                    if rc != SIM_OK:
                        break
                continue
            if not wm or not (unlimited or recycles < d.rules.redeals) \
                    or (unlimited and (not seen or moves >= d.move_cap)):
                break
            m = MOVE_RECYCLE
        else:
            seen = True
            # Count the legal moves by kind, in gen_moves order: pyramid Kings, talon Kings,
            # pyramid pairs, then for each talon card in play (ascending) its pyramid
            # partners and its pairs with the later ones, then the draw or recycle. Under
            # draw 1 the talon cards in play are two at most, counted in straight-line code.
            if draws is _draw1:
                rw = d.rank[LOC_TALON + w] if wuse else 0
                rt = d.rank[LOC_TALON + t] if tuse else 0
                nk = fc[KING] + (rw == KING) + (rt == KING)    # (fc[KING] = popcount(kings))
                cw = fc[13 - rw] if wuse and rw != KING else 0
                ct = fc[13 - rt] if tuse and rt != KING else 0
                n = nk + cw + wt + ct
            else:
                tk = tops & d.trank[KING]
                nk = fc[KING] + _few_bits(tk)
                n = nk
                x = tops & ~tk
                while x:
                    q0 = 13 - d.rank[LOC_TALON + pyr_ctz32(x)]
                    x &= x - 1
                    n += fc[q0] + _few_bits(x & d.trank[q0])
            x = pp
            while x:
                r = pyr_ctz32(x)
                x &= x - 1
                n += fc[r] * fc[13 - r]
            can_step = st != 0 or (wm != 0 and (unlimited or recycles < d.rules.redeals))
            k = 0
            if n + can_step > 1:                # (can_step: a draw or a recycle is legal)
                k = <int>rand_below(&rng, n + can_step)
            m = -1
            if k < nk:
                if k < fc[KING]:
                    m = move_king(_nth_bit(kings, k))
                elif draws is _draw3:
                    m = move_king(LOC_TALON + _nth_bit(tk, k - fc[KING]))
                elif k == fc[KING] and rw == KING:
                    m = move_king(LOC_TALON + w)
                else:
                    m = move_king(LOC_TALON + t)
            else:
                k -= nk
                x = pp
                while x:
                    r = pyr_ctz32(x)
                    x &= x - 1
                    j = fc[r] * fc[13 - r]
                    if k < j:
                        a = (k * DIV4[fc[13 - r]]) >> 8     # k // fc[13 - r] (k < 16)
                        b = k - a * fc[13 - r]
                        m = move_pair(_nth_bit(free & d.prank[r], a),
                                      _nth_bit(free & d.prank[13 - r], b))
                        break
                    k -= j
                if m < 0 and draws is _draw1:
                    if k < cw:
                        m = move_pair(_nth_bit(free & d.prank[13 - rw], k), LOC_TALON + w)
                    elif k < cw + wt:
                        m = move_pair(LOC_TALON + w, LOC_TALON + t)
                    elif k < cw + wt + ct:
                        m = move_pair(_nth_bit(free & d.prank[13 - rt], k - cw - wt),
                                      LOC_TALON + t)
                elif m < 0:
                    x = tops & ~tk
                    while x:
                        t0 = pyr_ctz32(x)
                        x &= x - 1
                        q0 = 13 - d.rank[LOC_TALON + t0]
                        if k < fc[q0]:
                            m = move_pair(_nth_bit(free & d.prank[q0], k), LOC_TALON + t0)
                            break
                        k -= fc[q0]
                        y0 = x & d.trank[q0]        # the later ones it pairs with
                        if k < _few_bits(y0):
                            m = move_pair(LOC_TALON + t0, LOC_TALON + _nth_bit(y0, k))
                            break
                        k -= _few_bits(y0)
                if m < 0:
                    if st:
                        m = MOVE_DRAW
                    else:
                        m = MOVE_RECYCLE
                        if unlimited and moves >= d.move_cap:
                            break
        a = m & 63
        b = m >> 6
        moves += 1
        if a == LOC_NONE:
            if m == MOVE_DRAW:
                if draws is _draw3:
                    cur = cur + 3 if cur + 3 < N_TALON else N_TALON
                else:
                    cur = pyr_ctz32(st) + 1
            else:
                cur = 0
                if not unlimited:
                    recycles += 1
                seen = False
        else:
            gone = _play_cards(d, m, &talon, NULL)
            if draws is _draw1:
                if a >= N_PYRAMID or b != LOC_NONE:
                    x = talon & below(cur)
                    cur = pyr_msb32(x) + 1 if x else 0
            while gone:
                _take_pyr(d, pyr_ctz32(gone), &pyr, &free, &fr, &frr, &useful, fc, pc, True)
                gone &= gone - 1
        if rec != NULL:
            rc = _record(rec, &n_rec, <pyr_move>m, 1)
            if rc != SIM_OK:
                break
    _set_result(res, pyr, talon, win_all, moves)
    return rc


cdef enum:
    KIND_DRAW1 = 0    # the specialised draw-1 playouts (and the lockstep ones)
    KIND_DRAW3 = 1    # the specialised draw-3 playouts (and the lockstep ones)
    KIND_ANY = 2      # the engine playout (sim_play_engine): where the record allows neither


cdef inline int _playout_kind(const pyr_rules* r) noexcept nogil:
    """Which playouts a rule set takes: the one place that asks the shortcuts' record
    (pyr_shortcuts.h) for the scalar ones (a few compares, once a game)."""
    cdef uint32_t sc = pyr_shortcuts(r)
    if sc & SC_PLAYOUT_DRAW1:
        return KIND_DRAW1
    if sc & SC_PLAYOUT_DRAW3:
        return KIND_DRAW3
    return KIND_ANY


cdef inline bint _lockstep_applies(const sim_path* path, int policy,
                                   const pyr_rules* r) noexcept nogil:
    """Does a numbered batch run in lockstep (the path has a lockstep playout, the greedy or
    the random policy, rules the lockstep playouts know)?"""
    return (path.play != NULL and (policy == POLICY_RANDOM or policy == POLICY_GREEDY)
            and (pyr_shortcuts(r) & (SC_LOCKSTEP_DRAW1 | SC_LOCKSTEP_DRAW3)) != 0)


cdef int sim_play_greedy(const sim_deal* d, sim_result* res, pyr_move* rec) noexcept nogil:
    cdef int kind = _playout_kind(&d.rules)
    if kind == KIND_DRAW1:
        return _greedy_talon(<_draw1*>NULL, d, res, rec)
    if kind == KIND_DRAW3:
        return _greedy_talon(<_draw3*>NULL, d, res, rec)
    return sim_play_engine(POLICY_GREEDY, d, 0, res, rec)


cdef int sim_play_random(const sim_deal* d, uint64_t rng, sim_result* res,
                         pyr_move* rec) noexcept nogil:
    cdef int kind = _playout_kind(&d.rules)
    if kind == KIND_DRAW1:
        return _random_talon(<_draw1*>NULL, d, rng, res, rec)
    if kind == KIND_DRAW3:
        return _random_talon(<_draw3*>NULL, d, rng, res, rec)
    return sim_play_engine(POLICY_RANDOM, d, rng, res, rec)


cdef int sim_play(int policy, const sim_deal* d, uint64_t rng, sim_result* res,
                  pyr_move* rec) noexcept nogil:
    if policy == POLICY_GREEDY:
        return sim_play_greedy(d, res, rec)
    if policy == POLICY_RANDOM:
        return sim_play_random(d, rng, res, rec)
    return SIM_BAD_POLICY


cdef int sim_batch(int policy, const pyr_rules* rules, uint64_t seed, uint64_t start,
                   const uint64_t* deals, Py_ssize_t lo, Py_ssize_t hi, uint8_t* won,
                   uint8_t* removed, uint16_t* moves, uint16_t* score) noexcept nogil:
    return sim_batch_on(&SIM_PATH, SIM_MOVE_CAP, policy, rules, seed, start, deals, lo, hi, won,
                        removed, moves, score)


cdef int sim_batch_on(const sim_path* path, int move_cap, int policy, const pyr_rules* rules,
                      uint64_t seed, uint64_t start, const uint64_t* deals, Py_ssize_t lo,
                      Py_ssize_t hi, uint8_t* won, uint8_t* removed, uint16_t* moves,
                      uint16_t* score) noexcept nogil:
    cdef sim_deal ds[SIM_BLOCK]
    cdef uint64_t numbers[SIM_BLOCK]
    cdef uint64_t nxt[SIM_BLOCK]
    cdef pyr_sim_blocker b
    cdef sim_result res
    cdef Py_ssize_t i, base
    cdef int rc, k, cnt
    cdef bint more
    if policy < 0 or policy >= N_POLICIES:
        return SIM_BAD_POLICY
    if _lockstep_applies(path, policy, rules):
        return _batch_lockstep(path, move_cap, policy, rules, seed, start, deals, lo, hi, won,
                               removed, moves, score)
    for k in range(SIM_BLOCK):
        _deal_rules(&ds[k], rules)
        ds[k].move_cap = move_cap
    memset(&b, 0, sizeof(b))
    _block_numbers(numbers, start, deals, lo, hi)
    base = lo
    while base < hi:
        # SIM_BLOCK deals set up together (a short last block repeats its last deal), and
        # the next block named, so that its set-up can begin during this one's
        cnt = SIM_BLOCK if hi - base >= SIM_BLOCK else <int>(hi - base)
        more = base + cnt < hi
        if more:
            _block_numbers(nxt, start, deals, base + cnt, hi)
        _deal_block(path, ds, numbers, nxt if more else NULL, &b)
        for k in range(cnt):
            rc = sim_play(policy, &ds[k], sim_game_seed(seed, numbers[k])
                          if policy == POLICY_RANDOM else 0, &res, NULL)
            if rc != SIM_OK:
                return rc
            i = base + k
            won[i] = res.won
            removed[i] = res.removed
            moves[i] = res.moves
            score[i] = res.score
        memcpy(numbers, nxt, sizeof(numbers))
        base += cnt
    return SIM_OK


cdef int _batch_lockstep(const sim_path* path, int move_cap, int policy, const pyr_rules* rules,
                         uint64_t seed, uint64_t start, const uint64_t* deals, Py_ssize_t lo,
                         Py_ssize_t hi, uint8_t* won, uint8_t* removed, uint16_t* moves,
                         uint16_t* score) noexcept nogil:
    """sim_batch_on where _lockstep_applies: sixteen games at a time in lockstep
    (pyr_sim_lockstep.h: one call of sixteen lanes, or sixteen of one on the tests' one-lane
    path), their deals set up as two blocks."""
    cdef sim_deal ds[2 * SIM_BLOCK]
    cdef uint64_t numbers[2 * SIM_BLOCK]
    cdef uint64_t nxt[2 * SIM_BLOCK]
    cdef uint64_t rng[2 * SIM_BLOCK]
    cdef pyr_sim_blocker b
    cdef Py_ssize_t at
    cdef int k, cnt
    cdef bint more
    for k in range(2 * SIM_BLOCK):
        _deal_rules(&ds[k], rules)
    memset(&b, 0, sizeof(b))
    _block_numbers(numbers, start, deals, lo, hi)
    _block_numbers(numbers + SIM_BLOCK, start, deals, lo + SIM_BLOCK, hi)
    at = lo
    while at < hi:
        cnt = 2 * SIM_BLOCK if hi - at >= 2 * SIM_BLOCK else <int>(hi - at)
        more = at + cnt < hi
        if more:
            _block_numbers(nxt, start, deals, at + cnt, hi)
            _block_numbers(nxt + SIM_BLOCK, start, deals, at + cnt + SIM_BLOCK, hi)
        _deal_block(path, ds, numbers, numbers + SIM_BLOCK, &b)
        _deal_block(path, ds + SIM_BLOCK, numbers + SIM_BLOCK, nxt if more else NULL, &b)
        if policy == POLICY_RANDOM:
            for k in range(2 * SIM_BLOCK):
                rng[k] = sim_game_seed(seed, numbers[k])
        path.play(policy == POLICY_GREEDY, rules, move_cap, ds, rng, cnt, won + at,
                  removed + at, moves + at, score + at)
        memcpy(numbers, nxt, sizeof(numbers))
        at += cnt
    return SIM_OK


cdef int sim_batch_decks(int policy, const pyr_rules* rules, uint64_t seed, const uint8_t* decks,
                         const uint64_t* keys, Py_ssize_t lo, Py_ssize_t hi, uint8_t* won,
                         uint8_t* removed, uint16_t* moves, uint16_t* score) noexcept nogil:
    """Games lo .. hi-1 on explicit layouts: game i plays decks[52 i .. 52 i + 51] (each a
    permutation of the card indices 0..51: the pyramid row-major, then the talon in draw
    order), its random generator seeded from (seed, keys[i]) as sim_batch seeds a numbered
    deal's. The scalar playouts, one deal at a time: for the deck of a numbered deal and its
    number as key, the same rows as sim_batch."""
    cdef sim_deal d
    cdef sim_result res
    cdef Py_ssize_t i
    cdef int rc
    if policy < 0 or policy >= N_POLICIES:
        return SIM_BAD_POLICY
    for i in range(lo, hi):
        sim_deal_from_deck(&d, decks + 52 * i, rules)
        rc = sim_play(policy, &d, sim_game_seed(seed, keys[i]) if policy == POLICY_RANDOM else 0,
                      &res, NULL)
        if rc != SIM_OK:
            return rc
        won[i] = res.won
        removed[i] = res.removed
        moves[i] = res.moves
        score[i] = res.score
    return SIM_OK


cdef Py_ssize_t _bad_deck(const uint8_t* decks, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """The first row in lo .. hi-1 that is not a permutation of 0..51, or -1."""
    cdef Py_ssize_t i
    cdef uint64_t seen
    cdef int k
    cdef const uint8_t* row
    for i in range(lo, hi):
        row = decks + 52 * i
        seen = 0
        for k in range(52):
            if row[k] < 52:
                seen |= (<uint64_t>1) << row[k]
        if seen != (((<uint64_t>1) << 52) - 1):
            return i
    return -1


cdef inline void _block_numbers(uint64_t* numbers, uint64_t start, const uint64_t* deals,
                                Py_ssize_t base, Py_ssize_t hi) noexcept nogil:
    """The deal numbers of the block of games base .. (a short last block repeats its last
    deal): start + i, or deals[i]."""
    cdef Py_ssize_t i
    cdef int k
    for k in range(SIM_BLOCK):
        i = base + k if base + k < hi else hi - 1
        numbers[k] = deals[i] if deals != NULL else start + <uint64_t>i

# ---- Python entry points --------------------------------------------------------------------

cdef int sim_check(int rc) except -1:
    """Raise for a playout's error code."""
    if rc == SIM_BAD_POLICY:
        raise ValueError("unknown policy code")
    if rc == SIM_RECORD_FULL:
        raise RuntimeError("a simulated game played more moves than the record holds")
    return 0


def run(int policy, dict rules, unsigned long long seed, unsigned long long start,
        const uint64_t[::1] deals, Py_ssize_t lo, Py_ssize_t hi, uint8_t[::1] won,
        uint8_t[::1] removed, uint16_t[::1] moves, uint16_t[::1] score):
    """Play games lo .. hi-1 of a batch into the arrays (index i: deal start + i, or deals[i]
    when deals is not None). Releases the GIL; safe to call from several threads on disjoint
    ranges of the same arrays."""
    cdef pyr_rules r
    cdef int rc
    cdef const uint64_t* dp = NULL
    rules_from_options(&r, rules)
    if lo < 0 or hi > won.shape[0] or hi > removed.shape[0] or hi > moves.shape[0] \
            or hi > score.shape[0] or lo > hi:
        raise ValueError("range outside the result arrays")
    if deals is not None:
        if hi > deals.shape[0]:
            raise ValueError("range outside the deals array")
        dp = &deals[0] if deals.shape[0] else NULL
    if lo == hi:
        return
    with nogil:
        rc = sim_batch(policy, &r, seed, start, dp, lo, hi, &won[0], &removed[0], &moves[0],
                       &score[0])
    sim_check(rc)


def run_decks(int policy, dict rules, unsigned long long seed,
              const uint8_t[:, ::1] decks not None, const uint64_t[::1] keys not None,
              Py_ssize_t lo, Py_ssize_t hi, uint8_t[::1] won not None,
              uint8_t[::1] removed not None, uint16_t[::1] moves not None,
              uint16_t[::1] score not None):
    """Play rows lo .. hi-1 of `decks` (n x 52 uint8 card indices, each row a layout: the
    pyramid row-major, then the talon in draw order) into the arrays at the same indices. Row
    i's random generator is seeded from (seed, keys[i]) as `run` seeds a deal's from (seed,
    deal number): a numbered deal's shuffle with its number as key gives `run`'s row. Releases
    the GIL; safe to call from several threads on disjoint ranges of the same arrays. Raises
    ValueError for a bad shape or range, or a row that is not a permutation of 0..51."""
    cdef pyr_rules r
    cdef int rc = SIM_OK
    cdef Py_ssize_t bad
    rules_from_options(&r, rules)
    if decks.shape[1] != 52:
        raise ValueError(f"decks must be n x 52 (card indices), got {decks.shape[0]} x "
                         f"{decks.shape[1]}")
    if keys.shape[0] != decks.shape[0]:
        raise ValueError(f"keys must have one entry per row of decks: {keys.shape[0]} keys, "
                         f"{decks.shape[0]} rows")
    if lo < 0 or lo > hi or hi > decks.shape[0]:
        raise ValueError(f"range {lo} .. {hi} outside the decks array ({decks.shape[0]} rows)")
    for name, n in (("won", won.shape[0]), ("removed", removed.shape[0]),
                    ("moves", moves.shape[0]), ("score", score.shape[0])):
        if hi > n:
            raise ValueError(f"range {lo} .. {hi} outside the result array {name} ({n} entries)")
    if lo == hi:
        return
    with nogil:
        bad = _bad_deck(&decks[0, 0], lo, hi)
        if bad < 0:
            rc = sim_batch_decks(policy, &r, seed, &decks[0, 0], &keys[0], lo, hi, &won[0],
                                 &removed[0], &moves[0], &score[0])
    if bad >= 0:
        raise ValueError(f"decks row {bad} is not a permutation of the card indices 0..51")
    sim_check(rc)


def play(int policy, dict rules, unsigned long long seed, unsigned long long number, deck=None):
    """One game with its moves recorded: (won, removed, moves, score, [move codes]). The deal
    is `number`'s; `deck` (52 card indices) overrides the layout, the seed still uses number."""
    cdef pyr_rules r
    cdef sim_deal d
    cdef sim_result res
    cdef pyr_move rec[SIM_MAX_RECORD]
    cdef uint8_t cards[52]
    cdef int rc, i
    rules_from_options(&r, rules)
    if deck is None:
        sim_deal_from_number(&SIM_PATH, &d, number, &r, True)
    else:
        for i in range(52):
            cards[i] = deck[i]
        sim_deal_from_deck(&d, cards, &r)
    memset(rec, 0xFF, sizeof(rec))
    with nogil:
        rc = sim_play(policy, &d, sim_game_seed(seed, number), &res, rec)
    sim_check(rc)
    codes = []
    for i in range(res.moves):
        codes.append(rec[i])
    return bool(res.won), res.removed, res.moves, res.score, codes


def simd_path(policy=None, rules=None):
    """The vector path the simulator uses: "avx512" or "scalar", resolved once at import from
    the CPU and the PYRAMID_SIMD environment variable; given a policy and rules, the path a
    numbered batch of them takes (the lockstep playouts know the greedy and random policies
    and every rule set but pair_waste_top_two and pair_with_covering)."""
    cdef pyr_rules r
    if policy is None:
        return PATH_NAMES[SIM_PATH.id]
    rules_from_options(&r, rules)
    return PATH_NAMES[SIM_PATH.id] if _lockstep_applies(&SIM_PATH, policy, &r) else "scalar"


def playout_kind(dict rules):
    """The playouts a game under these rules takes, one at a time: "draw1" or "draw3" (the
    specialised ones) or "engine" (sim_play_engine: every rule set, slower), as the
    shortcuts' record (pyr_shortcuts.h) allows."""
    cdef pyr_rules r
    rules_from_options(&r, rules)
    return ("draw1", "draw3", "engine")[_playout_kind(&r)]


def cpu_features():
    """The vector instruction sets this CPU has that the core can use (as the core sees it:
    PYRAMID_DISABLE_CPU_FEATURES hides them)."""
    return {"avx512": bool(pyr_cpu_avx512())}


# ---- for the test and benchmark hooks (tests/core_hooks; declared in simulate.pxd) ---------


cdef const sim_path* sim_path_in_use() noexcept nogil:
    return &SIM_PATH


cdef int sim_path_for(int id, sim_path* p) noexcept nogil:
    """Path id's record (sim_path_make) made here, so that its playout is this module's
    compiled code, the code a batch runs (the hooks' module has its own copy of the C)."""
    return sim_path_make(id, p)


cdef void sim_deal_rules(sim_deal* d, const pyr_rules* rules) noexcept nogil:
    _deal_rules(d, rules)


cdef void sim_deal_block(const sim_path* path, sim_deal* ds, const uint64_t* numbers,
                         const uint64_t* nxt, pyr_sim_blocker* b) noexcept nogil:
    _deal_block(path, ds, numbers, nxt, b)


cdef bint sim_veto(const sim_deal* d, uint32_t pyr, const uint8_t* pc, const uint8_t* tc,
                   int a, int b) noexcept nogil:
    return pyr_sim_veto(d, pyr, pc, tc, a, b)


cdef int sim_greedy_at(const pyr_table* t, const sim_deal* d, pyr_pos p, const pyr_move* buf,
                       int n, bint stuck) noexcept nogil:
    cdef uint8_t pc[14]
    cdef uint8_t tc[14]
    cdef uint32_t pyr = pos_pyr(p), talon = pos_talon(p)
    cdef int i
    memset(pc, 0, sizeof(pc))
    memset(tc, 0, sizeof(tc))
    for i in range(N_PYRAMID):
        if (pyr >> i) & 1:
            pc[t.rank[i]] += 1
    for i in range(N_TALON):
        if (talon >> i) & 1:
            tc[t.rank[LOC_TALON + i]] += 1
    return _greedy_choose(d, pyr, pc, tc, buf, n, stuck)


cdef Py_ssize_t sim_bad_deck(const uint8_t* decks, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    return _bad_deck(decks, lo, hi)
