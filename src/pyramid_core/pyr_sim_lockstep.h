/* The random and greedy playouts in lockstep, draw 1 and draw 3: sixteen games at once, one
 * per 32-bit lane of AVX-512 vectors, every lane making one move per step with no branch on
 * its cards (a lane that has finished sits out under a mask). They play the same games as
 * simulate.pyx's _random_talon and _greedy_talon (each for draw 1 and draw 3), move for
 * move and random number for random number (tests/test_simulate.py compares whole batches
 * both ways). The random playout:
 *  - the legal moves are counted by kind in gen_moves order, and the k-th is found by
 *    comparing k with the running counts (masks instead of branches);
 *  - each game's SplitMix64 state sits in a 64-bit lane; Lemire's rejection step, needed
 *    about once in 10^8 draws, is finished in plain C for the lanes that need it;
 *  - the derived state (free cards by rank, the talon cards with a free partner) is worked
 *    out afresh each step from the free mask by vector popcounts instead of being kept up to
 *    date, and the free cards from the pyramid by row shifts (PYR_COVERED);
 *  - a run of draws that is the only legal move goes in one step while the stock has no gap
 *    (the stock_top_playable mask of _skip_draws_stp, the triples of _skip_draws3), else one
 *    draw a step: the same moves.
 * Each lane's deal (its rank masks) is gathered once from the batch's pyr_sim_deal records,
 * field by field, as the set-up wrote them; a step then reads no memory: a card's rank
 * and the cards of a rank that differs from lane to lane come from masks and blend trees
 * (pyr_ls_rank, pyr_ls_pick), as a step is one chain (what is in play, the candidates, the
 * veto, the removal) on which a gather's latency would be paid in full. Branch
 * mispredictions, a third of a scalar game, are gone; what costs now is the work of every
 * path in every lane.
 *
 * The text (pyr_sim_lockstep_body.h) is written on the small vector layer of pyr_vec.h
 * (lanes pv, masks pm) and compiled once per backend: AVX-512 (where the compiler can target
 * it) and one lane of plain C (everywhere). On one lane it is about half as fast as the
 * scalar playouts of simulate.pyx (each step works out afresh what they keep up to date):
 * the tests' path, which checks the text on any CPU; and its veto (LS(veto_n)) is the scalar
 * playouts' veto too (pyr_sim_veto), so that the greedy policy's veto is written once.
 *
 * Which set-up and which playouts a batch runs is one record, pyr_sim_path (below), which
 * simulate.pyx resolves once at import and passes to every batch; the tests build records
 * of their own and pass them explicitly, so nothing process-wide is ever switched. */
#ifndef PYR_SIM_LOCKSTEP_H
#define PYR_SIM_LOCKSTEP_H
#include <stddef.h>
#include <stdint.h>
#include "pyr_sim_shuffle.h"
#include "pyr_geometry.h"
#include "pyr_match.h"
#include "pyr_vec.h"

static const uint32_t pyr_ls_div[16] = {0, 256, 128, 86, 64};  /* (k * div[f]) >> 8 = k / f */

/* The greedy playout's tables come from simulate.pyx at import (pyr_ls_init_greedy): the
 * veto's covering relation BAD (28: the sentinel, related to everything), SUPPORT and the
 * row-neighbour masks. */
static uint32_t pyr_ls_bad[32];
static uint32_t pyr_ls_sup[32];
static uint32_t pyr_ls_hasl, pyr_ls_hasr;

static PYR_INLINE void pyr_ls_init_greedy(const uint32_t *bad, const uint8_t *support,
                                          uint32_t has_left, uint32_t has_right)
{
    int i;
    for (i = 0; i < 32; i++) {
        pyr_ls_bad[i] = i < 28 ? bad[i] : 0xFFFFFFFFu;
        pyr_ls_sup[i] = i < 28 ? support[i] : 0;
    }
    pyr_ls_hasl = has_left;
    pyr_ls_hasr = has_right;
}

#define LS(x) PV_CAT(PV_CAT(pyr_ls_, PV_PREFIX), x)
#ifdef PYR_SIM_AVX512
#define PV_PREFIX pv512_
#include "pyr_sim_lockstep_body.h"
#undef PV_PREFIX
#endif
#define PV_PREFIX pv1_
#include "pyr_sim_lockstep_body.h"
#undef PV_PREFIX
#undef LS

/* The one-lane instance over a batch's games (16 at most), one game a call. */
static void pyr_ls_one_lane_play(int greedy, const pyr_rules *rules, int cap,
                                 const pyr_sim_deal *deals, const uint64_t *rng, int cnt,
                                 uint8_t *won, uint8_t *removed, uint16_t *moves, uint16_t *score)
{
    int at;
    for (at = 0; at < cnt; at++)
        pyr_ls_pv1_play(greedy, rules, cap, deals + at, rng + at, 1, won + at, removed + at,
                        moves + at, score + at);
}

/* A lockstep playout of games 0 .. cnt-1 (cnt <= 16) of deals[] (LS(play)'s arguments). */
typedef void (*pyr_ls_play_fn)(int greedy, const pyr_rules *rules, int cap,
                               const pyr_sim_deal *deals, const uint64_t *rng, int cnt,
                               uint8_t *won, uint8_t *removed, uint16_t *moves, uint16_t *score);

/* The simulator's paths. */
enum { PYR_PATH_SCALAR = 0, PYR_PATH_AVX512 = 1, PYR_PATH_ONE_LANE = 2, PYR_N_PATHS = 3 };

/* What a batch runs, resolved once (simulate.pyx at import; the tests' hooks for the path
 * they test) and read-only after: the deal set-up (vector_setup: the AVX-512 one of
 * pyr_sim_shuffle.h, else plain C) and the playouts (play: a lockstep one, for the rules and
 * policies it knows; NULL: the scalar playouts of simulate.pyx). */
typedef struct {
    int id;                 /* PYR_PATH_* */
    int vector_setup;
    pyr_ls_play_fn play;
} pyr_sim_path;

/* Path `id`'s record into *p. Returns 1, or 0 when this CPU (or build) lacks it: *p is then
 * the scalar path. Call pyr_sim_init first (the CPU check is pyr_cpu_avx512's). */
static PYR_INLINE int pyr_sim_path_make(int id, pyr_sim_path *p)
{
    p->id = PYR_PATH_SCALAR;
    p->vector_setup = 0;
    p->play = NULL;
    if (id == PYR_PATH_ONE_LANE) {
        p->id = id;
        p->play = pyr_ls_one_lane_play;
        return 1;
    }
#ifdef PYR_SIM_AVX512
    if (id == PYR_PATH_AVX512 && pyr_cpu_avx512()) {
        p->id = id;
        p->vector_setup = 1;
        p->play = pyr_ls_pv512_play;
        return 1;
    }
#endif
    return id == PYR_PATH_SCALAR;
}

/* The greedy veto of the scalar playouts (simulate.pyx's _greedy_best and _greedy_choose):
 * the lockstep's text on one lane (pyr_ls_pv1_veto_n) for the pair at locations a < b of
 * deal d, its pyramid pyr and present cards by rank pc (pyramid) and tc (talon). The table is
 * PYR_GEO's bad or bad_pwc itself, 29 words: the veto looks it up only at pyramid positions
 * and the sentinel 28. */
PYR_FORCE_INLINE int pyr_sim_veto(const pyr_sim_deal *d, uint32_t pyr, const uint8_t *pc,
                                  const uint8_t *tc, int a, int b)
{
    const int r = d->rank[a], q = 13 - r;
    pv1_tab32 bad = {d->rules.pair_with_covering ? PYR_GEO.bad_pwc : PYR_GEO.bad};
    if (d->rules.win_all)
        return 0;
    return pyr_ls_pv1_veto_n(&bad, pv1_ALL, (uint32_t)a, (uint32_t)b, d->prank[r], d->prank[q],
                             pc[r], pc[q], tc[r], tc[q], pyr) != 0;
}
#endif
