# cython: language_level=3
"""The simulator's test and benchmark hooks, kept out of the shipped simulate module (as
numpy keeps its test extensions apart): the engine-based reference playouts (the tests'
oracle), the engine-agreement walk, the deal set-up checks, the greedy veto on a given
position, the switches the tests flip (the vector path, the random policy's move cap) and the
set-up benchmark. Everything here reaches
the simulator through simulate.pxd.
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy, memset

from pyramid_core.cards cimport card_rank, N_PYRAMID, N_TALON
from pyramid_core.rules cimport pyr_rules, REDEALS_UNLIMITED
from pyramid_core.position cimport (pyr_table, pyr_pos, pyr_move, MAX_MOVES, LOC_TALON, LOC_NONE,
                                    MOVE_RECYCLE, table_init, pos_start, gen_moves, pos_apply,
                                    pos_won, pos_pyr, pos_talon)
from pyramid_core.geometry cimport pyr_popcount32
from pyramid_core.shuffle cimport deal_shuffle, rand_below
from pyramid_core.simulate cimport (sim_deal, sim_state, sim_result, SIM_MAX_RECORD, SIM_MOVE_CAP,
                                    SIM_OK, SIM_BAD_POLICY, SIM_RECORD_FULL, SIM_BLOCK,
                                    POLICY_RANDOM, POLICY_GREEDY, pyr_sim_blocker,
                                    pyr_sim_init, pyr_sim_shuffle, sim_deal_from_number,
                                    sim_game_seed, sim_start, sim_pos, sim_from_pos, sim_gen,
                                    sim_apply, sim_rules_from, sim_check, sim_deal_rules,
                                    sim_deal_block, sim_talon_moves, sim_greedy_pick, sim_veto,
                                    sim_simd, sim_move_cap)

cdef uint8_t RANK_OF[52]    # card index -> rank


cdef void _init():
    cdef int i
    for i in range(52):
        RANK_OF[i] = <uint8_t>card_rank(i)
    pyr_sim_init()          # (this module's copy of the shuffle's tables)


_init()


cdef inline bint _record(pyr_move* rec, int* n_rec, pyr_move m) noexcept nogil:
    """Append m to rec; False when it is full."""
    if n_rec[0] >= SIM_MAX_RECORD:
        return False
    rec[n_rec[0]] = m
    n_rec[0] += 1
    return True

# ---- the engine-based reference playouts (slow: the tests' oracle) --------------------------

cdef int _reference_play(int policy, const pyr_table* t, const sim_deal* d, uint64_t rng,
                         sim_result* res, pyr_move* rec, int* n_rec) noexcept nogil:
    cdef pyr_pos p = pos_start(t)
    cdef pyr_move buf[MAX_MOVES]
    cdef uint8_t pc[14]
    cdef uint8_t tc[14]
    cdef int n, m, r, i, moves = 0, pass_removed = 0
    cdef bint unlimited = t.rules.redeals == REDEALS_UNLIMITED
    cdef bint seen = False      # random: a removal was legal somewhere in this pass
    n_rec[0] = 0
    res.won = res.removed = res.moves = res.score = 0
    while True:
        n = gen_moves(t, p, buf)
        if n == 0:
            break
        if policy == POLICY_RANDOM:
            for i in range(n):
                if (buf[i] & 63) != LOC_NONE:
                    seen = True
            m = buf[0] if n == 1 else buf[rand_below(&rng, n)]
            # under unlimited redeals: end at a recycle when no removal was legal since the
            # last one (the pass can only repeat), or once SIM_MOVE_CAP moves are played
            if m == MOVE_RECYCLE and unlimited and (not seen or moves >= sim_move_cap(0)):
                break
        elif policy == POLICY_GREEDY:
            for r in range(14):
                pc[r] = <uint8_t>pyr_popcount32(pos_pyr(p) & d.prank[r])
                tc[r] = <uint8_t>pyr_popcount32(pos_talon(p) & d.trank[r])
            m = sim_greedy_pick(d, pos_pyr(p), pc, tc, buf, n, unlimited and pass_removed == 0)
            # under unlimited redeals: end at a recycle after a pass that removed nothing
            if m < 0 or (m == MOVE_RECYCLE and unlimited and pass_removed == 0):
                break
        else:
            return SIM_BAD_POLICY
        if m == MOVE_RECYCLE:
            pass_removed = 0
            seen = False
        elif (m & 63) != LOC_NONE:
            pass_removed += 1
        p = pos_apply(t, p, <pyr_move>m)
        moves += 1
        if not _record(rec, n_rec, <pyr_move>m):
            return SIM_RECORD_FULL
    res.won = pos_won(t, p)
    res.removed = <uint8_t>(N_PYRAMID - pyr_popcount32(pos_pyr(p)))
    res.moves = <uint16_t>moves
    res.score = <uint16_t>(10 * res.removed)
    return SIM_OK

# ---- hooks ----------------------------------------------------------------------------------


def reference(int policy, dict rules, unsigned long long seed, unsigned long long number):
    """The same game played with the engine's gen_moves and pos_apply (slow; for tests)."""
    cdef pyr_rules r
    cdef sim_deal d
    cdef pyr_table t
    cdef sim_result res
    cdef pyr_move rec[SIM_MAX_RECORD]
    cdef int rc, n_rec = 0
    sim_rules_from(&r, rules)
    sim_deal_from_number(&d, number, &r, True)
    table_init(&t, d.card, &r)
    rc = _reference_play(policy, &t, &d, sim_game_seed(seed, number), &res, rec, &n_rec)
    sim_check(rc)
    return bool(res.won), res.removed, res.moves, res.score, [rec[i] for i in range(n_rec)]


def check_engine(dict rules, int n_deals, int walks, unsigned long long seed,
                 int max_steps=400):
    """Compare sim_gen/sim_apply with gen_moves/pos_apply along random walks (for tests).
    Returns a list of (deal, position, what) for every disagreement (empty when all agree)."""
    cdef pyr_rules r
    cdef sim_deal d
    cdef pyr_table t
    cdef sim_state s, s2
    cdef pyr_pos p
    cdef pyr_move a[MAX_MOVES]
    cdef pyr_move b[MAX_MOVES]
    cdef int na, nb, i, k, w, forced, steps
    cdef uint64_t rng = seed
    bad = []
    sim_rules_from(&r, rules)
    for k in range(n_deals):
        sim_deal_from_number(&d, seed + k, &r, True)
        table_init(&t, d.card, &r)
        for w in range(walks):
            p = pos_start(&t)
            sim_start(&d, &s)
            for steps in range(max_steps):
                if sim_pos(&s) != p:
                    bad.append((seed + k, p, "state"))
                    break
                sim_from_pos(&d, p, &s2)
                if (s2.free != s.free or s2.flags != s.flags or s2.useful != s.useful
                        or s2.fr != s.fr or s2.frr != s.frr
                        or any(s2.pc[i] != s.pc[i] or s2.tc[i] != s.tc[i] or s2.fc[i] != s.fc[i]
                               for i in range(14))):
                    bad.append((seed + k, p, "derived fields"))
                    break
                na = gen_moves(&t, p, a)
                nb = sim_gen(&d, &s, b)
                same = na == nb
                only_talon_actions = True
                for i in range(na):
                    if i < nb and a[i] != b[i]:
                        same = False
                    if (a[i] & 63) != LOC_NONE:
                        only_talon_actions = False
                if not same:
                    bad.append((seed + k, p, "moves"))
                    break
                forced = s.flags == 0 and not sim_talon_moves(&d, &s)
                if not pos_won(&t, p) and forced != only_talon_actions:
                    bad.append((seed + k, p, "forced"))
                    break
                if na == 0:
                    break
                i = rand_below(&rng, na)
                p = pos_apply(&t, p, a[i])
                sim_apply(&d, &s, b[i])
    return bad


def shuffle_ranks(unsigned long long number):
    """The 52 ranks of deal `number` as the batch loop shuffles them (for tests)."""
    cdef uint8_t deck[52]
    memcpy(deck, RANK_OF, 52)
    pyr_sim_shuffle(number, deck)
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


def check_deal_setup(unsigned long long start, long long count, dict rules):
    """Deal numbers in start .. start+count-1 whose batch set-up (ranks shuffled, masks built
    during the shuffle; one deal, and SIM_BLOCK deals at a time) differs from the one built
    from deal_shuffle's cards (for tests)."""
    cdef pyr_rules r
    cdef sim_deal a, b
    cdef sim_deal ds[SIM_BLOCK]
    cdef uint64_t numbers[SIM_BLOCK]
    cdef uint64_t nxt[SIM_BLOCK]
    cdef pyr_sim_blocker blk
    cdef uint64_t n
    cdef int j, k
    sim_rules_from(&r, rules)
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
            sim_deal_block(ds, numbers, nxt, &blk)
        sim_deal_from_number(&a, n, &r, False)
        sim_deal_from_number(&b, n, &r, True)
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
    sim_rules_from(&r, rules)
    sim_deal_from_number(&d, number, &r, False)
    for k in range(14):
        pc[k] = <uint8_t>pyr_popcount32(pyr & d.prank[k])
        tc[k] = <uint8_t>pyr_popcount32(talon & d.trank[k])
    return bool(sim_veto(&d, pyr, pc, tc, a, b)), [d.rank[k] for k in range(52)]


def simd(int on=-1):
    """Which vector path the simulator takes: 0 scalar, 1 AVX-512 (the lockstep and the deal
    set-up, where the CPU has F, DQ, BW, VL, VPOPCNTDQ and CD), 2 AVX2 (the lockstep eight
    games at a time, the scalar set-up), 3 one lane (the lockstep's text compiled for one
    lane of plain C, a game at a time, on any CPU: slower than the scalar playouts, it is
    there so that the tests check that text everywhere); on = one of those sets it, as far
    as the CPU allows (tests compare every path; not while a batch runs). The games are the
    same on every path. Returns the path in use."""
    return sim_simd(on)


def move_cap(int cap=-1):
    """The random policy's safety bound under unlimited redeals: a game ends at a recycle once
    it has played this many moves (SIM_MOVE_CAP). cap >= 1 sets it, for tests that make the
    bound trigger (not while a batch runs); returns the bound in force."""
    if cap > SIM_MOVE_CAP:
        raise ValueError(f"move cap {cap} above SIM_MOVE_CAP ({SIM_MOVE_CAP})")
    return sim_move_cap(cap)


def game_seed(unsigned long long seed, unsigned long long number):
    return sim_game_seed(seed, number)


def bench_setup(unsigned long long start, long long count, dict rules, int mode=0):
    """Deal set-up only for `count` deals; a checksum (for bench/). mode 0: what the batch
    loop does (SIM_BLOCK deals at a time: shuffle the ranks, build the rank masks); 1: the
    engine's deal_shuffle; 2: the unrolled shuffle alone; 3: mode 0 one deal at a time."""
    cdef pyr_rules r
    cdef sim_deal d
    cdef sim_deal ds[SIM_BLOCK]
    cdef uint64_t numbers[SIM_BLOCK]
    cdef uint64_t nxt[SIM_BLOCK]
    cdef pyr_sim_blocker b
    cdef uint64_t acc = 0, n
    cdef uint8_t deck[52]
    cdef int k
    sim_rules_from(&r, rules)
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
                sim_deal_block(ds, numbers, nxt, &b)
                for k in range(SIM_BLOCK):
                    acc += ds[k].prank[1] + ds[k].trank[12]
                n += SIM_BLOCK
                continue
            if mode == 3:
                sim_deal_from_number(&d, n, &r, False)
                acc += d.prank[1] + d.trank[12]
            elif mode == 1:
                deal_shuffle(n, deck)
                acc += deck[0] + deck[51]
            else:
                memcpy(deck, RANK_OF, 52)
                pyr_sim_shuffle(n, deck)
                acc += deck[0] + deck[51]
            n += 1
    return acc
