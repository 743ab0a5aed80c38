# cython: language_level=3
"""The simulator's test and benchmark hooks, kept out of the shipped simulate module (as
numpy keeps its test extensions apart): the engine playout (the tests' oracle), the deal
set-up checks, the greedy veto on a given position, batches on a path of the test's choice
with a move cap of its choice, and the set-up benchmark. Everything here reaches the
simulator through simulate.pxd. A path is named ("scalar", "avx512", "one-lane"); the hooks
build its record (sim_path_for, in the simulate module) and pass it explicitly: nothing
process-wide changes, so a test can never leave the simulator on another path.
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy, memset

from pyramid_core.cards cimport card_rank, N_TALON
from pyramid_core.rules cimport pyr_rules, rules_from_options
from pyramid_core.position cimport pyr_move, LOC_TALON
from pyramid_core.geometry cimport pyr_popcount32
from pyramid_core.shuffle cimport deal_shuffle
from pyramid_core.simulate cimport (sim_deal, sim_result, SIM_MAX_RECORD, SIM_MOVE_CAP,
                                    SIM_BLOCK, pyr_sim_blocker, sim_path, sim_path_for,
                                    sim_path_in_use,
                                    pyr_sim_init, pyr_sim_shuffle, sim_deal_from_number,
                                    sim_game_seed, sim_play, sim_play_engine,
                                    sim_check, sim_batch_on, sim_deal_rules, sim_deal_block,
                                    sim_veto)

cdef uint8_t RANK_OF[52]    # card index -> rank


cdef void _init():
    cdef int i
    for i in range(52):
        RANK_OF[i] = <uint8_t>card_rank(i)
    pyr_sim_init()          # (this module's copy of the shuffle's tables)


_init()

PATH_NAMES = ("scalar", "avx512", "one-lane")      # simulate.pyx's, by PATH_*


cdef int _path(sim_path* p, str name) except -1:
    """The record of the path named `name`; ValueError when this CPU (as the core sees it)
    lacks it (conftest turns that into a skip that says so)."""
    if name not in PATH_NAMES:
        raise ValueError(f"unknown path {name!r}: one of {', '.join(PATH_NAMES)}")
    if not sim_path_for(PATH_NAMES.index(name), p):
        raise ValueError(f"this CPU (as the core sees it) has no {name} path")
    return 0


def paths():
    """The paths this CPU can run, the one-lane path included (on every CPU)."""
    cdef sim_path p
    return [name for i, name in enumerate(PATH_NAMES) if sim_path_for(i, &p)]


def path_in_use():
    """The path the simulator resolved at import (what simulate.simd_path() names)."""
    return PATH_NAMES[sim_path_in_use().id]


def _cap(int move_cap):
    if not 1 <= move_cap <= SIM_MOVE_CAP:
        raise ValueError(f"move cap {move_cap} outside 1 .. SIM_MOVE_CAP ({SIM_MOVE_CAP})")
    return move_cap


def run(str path, int policy, dict rules, unsigned long long seed, unsigned long long start,
        const uint64_t[::1] deals, Py_ssize_t lo, Py_ssize_t hi, uint8_t[::1] won,
        uint8_t[::1] removed, uint16_t[::1] moves, uint16_t[::1] score,
        int move_cap=SIM_MOVE_CAP):
    """simulate.run on the path named `path` with the random policy's move cap `move_cap`
    (under unlimited redeals; lowered by the tests that make it trigger)."""
    cdef sim_path p
    cdef pyr_rules r
    cdef int rc, cap = _cap(move_cap)
    cdef const uint64_t* dp = NULL
    _path(&p, path)
    rules_from_options(&r, rules)
    if lo < 0 or lo > hi or hi > won.shape[0] or hi > removed.shape[0] or hi > moves.shape[0] \
            or hi > score.shape[0] or (deals is not None and hi > deals.shape[0]):
        raise ValueError("range outside the arrays")
    if deals is not None and deals.shape[0]:
        dp = &deals[0]
    if lo == hi:
        return
    with nogil:
        rc = sim_batch_on(&p, cap, policy, &r, seed, start, dp, lo, hi, &won[0], &removed[0],
                          &moves[0], &score[0])
    sim_check(rc)


def play(int policy, dict rules, unsigned long long seed, unsigned long long number,
         int move_cap=SIM_MOVE_CAP):
    """simulate.play (without the moves) with the random policy's move cap `move_cap`."""
    cdef pyr_rules r
    cdef sim_deal d
    cdef sim_result res
    rules_from_options(&r, rules)
    sim_deal_from_number(sim_path_in_use(), &d, number, &r, False)
    d.move_cap = _cap(move_cap)
    sim_check(sim_play(policy, &d, sim_game_seed(seed, number), &res, NULL))
    return bool(res.won), res.removed, res.moves, res.score


# ---- hooks ----------------------------------------------------------------------------------


def reference(int policy, dict rules, unsigned long long seed, unsigned long long number,
              int move_cap=SIM_MOVE_CAP):
    """The same game played by sim_play_engine, one move at a time with the engine's
    gen_moves and pos_apply (the tests' oracle for the specialised and lockstep playouts),
    with the random policy's move cap `move_cap`."""
    cdef pyr_rules r
    cdef sim_deal d
    cdef sim_result res
    cdef pyr_move rec[SIM_MAX_RECORD]
    cdef int i, rc, n_rec
    rules_from_options(&r, rules)
    sim_deal_from_number(sim_path_in_use(), &d, number, &r, True)
    d.move_cap = _cap(move_cap)
    rc = sim_play_engine(policy, &d, sim_game_seed(seed, number), &res, rec)
    sim_check(rc)
    n_rec = res.moves
    return bool(res.won), res.removed, res.moves, res.score, [rec[i] for i in range(n_rec)]


def shuffle_ranks(unsigned long long number, str path="scalar"):
    """The 52 ranks of deal `number` as the batch loop shuffles them on `path` (for tests)."""
    cdef uint8_t deck[52]
    cdef sim_path p
    _path(&p, path)
    memcpy(deck, RANK_OF, 52)
    pyr_sim_shuffle(p.vector_setup, number, deck)
    return [deck[i] for i in range(52)]


cdef bint _talon_masks_right(const sim_deal* d) noexcept nogil:
    """d.tnext and d.t3 as their definitions say, card by card (the set-up's are worked out
    eight cards at a time)."""
    cdef uint32_t n1 = 0, t3 = 0
    cdef int i, j, k
    for i in range(N_TALON - 1):
        if d.rank[LOC_TALON + i] + d.rank[LOC_TALON + i + 1] == 13:
            n1 |= (<uint32_t>1) << i
    for i in range(N_TALON - 2):
        for j in range(i, i + 3):
            for k in range(j + 1, i + 3):
                if d.rank[LOC_TALON + j] + d.rank[LOC_TALON + k] == 13:
                    t3 |= (<uint32_t>1) << i
    return d.tnext == n1 and d.t3 == t3


cdef inline bint _same_setup(const sim_deal* a, const sim_deal* b) noexcept nogil:
    return not (memcmp(a.rank, b.rank, 52) or memcmp(a.prank, b.prank, sizeof(a.prank))
                or memcmp(a.trank, b.trank, sizeof(a.trank)) or memcmp(a.pc0, b.pc0, 14)
                or memcmp(a.tc0, b.tc0, 14) or memcmp(a.pile, b.pile, sizeof(a.pile))
                or a.tnext != b.tnext or a.t3 != b.t3)


def check_deal_setup(unsigned long long start, long long count, dict rules, str path):
    """Deal numbers in start .. start+count-1 whose batch set-up on `path` (ranks shuffled,
    masks built during the shuffle; one deal, and SIM_BLOCK deals at a time) differs from the
    one built from deal_shuffle's cards (for tests)."""
    cdef sim_path p
    cdef pyr_rules r
    cdef sim_deal a, b
    cdef sim_deal ds[SIM_BLOCK]
    cdef uint64_t numbers[SIM_BLOCK]
    cdef uint64_t nxt[SIM_BLOCK]
    cdef pyr_sim_blocker blk
    cdef uint64_t n
    cdef int j, k
    _path(&p, path)
    rules_from_options(&r, rules)
    for j in range(SIM_BLOCK):
        sim_deal_rules(&ds[j], &r)
    memset(&blk, 0, sizeof(blk))
    bad = []
    for n in range(start, start + <uint64_t>count):
        k = (n - start) % SIM_BLOCK           # deal n is ds[k] of its block
        if k == 0:
            for j in range(SIM_BLOCK):      # past the end: more deals than asked
                numbers[j] = n + <uint64_t>j
                nxt[j] = n + <uint64_t>(SIM_BLOCK + j)
            # the next block named as the batch loop does (its partners worked out during
            # this block's swaps, with AVX-512): every block but the first uses them
            sim_deal_block(&p, ds, numbers, nxt, &blk)
        sim_deal_from_number(&p, &a, n, &r, False)
        sim_deal_from_number(&p, &b, n, &r, True)
        if not _same_setup(&a, &b) or not _same_setup(&ds[k], &b) or not _talon_masks_right(&b):
            bad.append(n)
    return bad


def veto(dict rules, unsigned long long number, uint32_t pyr, uint32_t talon, int a, int b):
    """The greedy policy's veto, the one every path runs (pyr_sim_veto): would the pair at
    locations a < b (0..27 the pyramid, 28 + t talon card t) leave its rank pair unclearable,
    in deal `number` under `rules`, with the pyramid cards pyr and the talon cards talon (bit
    masks) still there? Returns (vetoed, the deal's rank by location)."""
    cdef pyr_rules r
    cdef sim_deal d
    cdef uint8_t pc[14]
    cdef uint8_t tc[14]
    cdef int k
    rules_from_options(&r, rules)
    sim_deal_from_number(sim_path_in_use(), &d, number, &r, False)
    for k in range(14):
        pc[k] = <uint8_t>pyr_popcount32(pyr & d.prank[k])
        tc[k] = <uint8_t>pyr_popcount32(talon & d.trank[k])
    return bool(sim_veto(&d, pyr, pc, tc, a, b)), [d.rank[k] for k in range(52)]


def game_seed(unsigned long long seed, unsigned long long number):
    return sim_game_seed(seed, number)


def bench_setup(unsigned long long start, long long count, dict rules, int mode=0,
                str path=None):
    """Deal set-up only for `count` deals on `path` (default: the one in use); a checksum
    (for bench/). mode 0: what the batch loop does (SIM_BLOCK deals at a time: shuffle the
    ranks, build the rank masks); 1: the engine's deal_shuffle; 2: the unrolled shuffle
    alone; 3: mode 0 one deal at a time."""
    cdef sim_path p = sim_path_in_use()[0]
    cdef pyr_rules r
    cdef sim_deal d
    cdef sim_deal ds[SIM_BLOCK]
    cdef uint64_t numbers[SIM_BLOCK]
    cdef uint64_t nxt[SIM_BLOCK]
    cdef pyr_sim_blocker b
    cdef uint64_t acc = 0, n
    cdef uint8_t deck[52]
    cdef int k
    if path is not None:
        _path(&p, path)
    rules_from_options(&r, rules)
    for k in range(SIM_BLOCK):
        sim_deal_rules(&ds[k], &r)
    memset(&b, 0, sizeof(b))
    with nogil:
        n = start
        while n < start + <uint64_t>count:
            if mode == 0:
                for k in range(SIM_BLOCK):
                    numbers[k] = n + <uint64_t>k
                    nxt[k] = n + <uint64_t>(SIM_BLOCK + k)
                sim_deal_block(&p, ds, numbers, nxt, &b)
                for k in range(SIM_BLOCK):
                    acc += ds[k].prank[1] + ds[k].trank[12]
                n += SIM_BLOCK
                continue
            if mode == 3:
                sim_deal_from_number(&p, &d, n, &r, False)
                acc += d.prank[1] + d.trank[12]
            elif mode == 1:
                deal_shuffle(n, deck)
                acc += deck[0] + deck[51]
            else:
                memcpy(deck, RANK_OF, 52)
                pyr_sim_shuffle(p.vector_setup, n, deck)
                acc += deck[0] + deck[51]
            n += 1
    return acc
