/* The random and greedy playouts in lockstep, draw 1 and draw 3: sixteen games at once, one
 * per 32-bit lane of AVX-512 vectors (eight with AVX2), every lane making one move per step
 * with no branch on
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
 * path in every lane. Which lockstep runs, if any, is pyr_ls_mode's choice (the tests switch
 * among them to compare with the scalar playouts).
 *
 * The text (pyr_sim_lockstep_body.h) is written on the small vector layer of pyr_vec.h
 * (lanes pv, masks pm) and compiled once per backend: AVX-512, AVX2 (where the compiler can
 * target them) and one lane of plain C (everywhere). On AVX2 it plays the same games a little
 * slower than the scalar playouts here (sixteen registers where the text keeps some thirty
 * vectors live, popcounts and the 32-entry tables worked out): not auto's choice. On one lane
 * it is about half as fast as them (each step works out afresh what they keep up to date):
 * the tests' path 3, which checks the text on any CPU; and its veto (LS(veto_n)) is the
 * scalar playouts' veto too (pyr_sim_veto), so that the greedy policy's veto is written once. */
#ifndef PYR_SIM_LOCKSTEP_H
#define PYR_SIM_LOCKSTEP_H
#include <stddef.h>
#include <stdint.h>
#include "pyr_sim_shuffle.h"
#include "pyr_geometry.h"
#include "pyr_match.h"
#include "pyr_vec.h"

static const uint32_t pyr_ls_div[16] = {0, 256, 128, 86, 64};  /* (k * div[f]) >> 8 = k / f */

static int pyr_ls_avx2_cpu;         /* the CPU has AVX2 (and the lockstep's other needs) */
static int pyr_ls_avx2;             /* the AVX2 lockstep is chosen (the AVX-512 set-up is off) */
static int pyr_ls_one;              /* the one-lane instance is chosen (tests: the text on one lane) */

static PYR_INLINE void pyr_ls_init(void)
{
    pyr_ls_avx2_cpu = pyr_cpu_avx2();
}

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
#define PV_PREFIX pv256_
#include "pyr_sim_lockstep_body.h"
#undef PV_PREFIX
#endif
#define PV_PREFIX pv1_
#include "pyr_sim_lockstep_body.h"
#undef PV_PREFIX
#undef LS

/* The batch's entry (16 games at most, as pyr_ls_pv512_play says): on the AVX-512 lockstep,
 * on the AVX2 one eight games at a time, or on one lane a game at a time. */
static void pyr_ls_play(int greedy, const pyr_rules *rules, int cap, const pyr_sim_deal *deals,
                        const uint64_t *rng, int cnt, uint8_t *won, uint8_t *removed,
                        uint16_t *moves, uint16_t *score)
{
    int at, step = 1;         /* one lane: a game a call; AVX2: eight */
#ifdef PYR_SIM_AVX512
    step = pyr_ls_one ? 1 : 8;
    if (!pyr_ls_one && !pyr_ls_avx2) {
        pyr_ls_pv512_play(greedy, rules, cap, deals, rng, cnt, won, removed, moves, score);
        return;
    }
#endif
    for (at = 0; at < cnt; at += step) {
        int n = cnt - at < step ? cnt - at : step;
#ifdef PYR_SIM_AVX512
        if (!pyr_ls_one) {
            pyr_ls_pv256_play(greedy, rules, cap, deals + at, rng + at, n, won + at,
                              removed + at, moves + at, score + at);
            continue;
        }
#endif
        pyr_ls_pv1_play(greedy, rules, cap, deals + at, rng + at, n, won + at, removed + at,
                        moves + at, score + at);
    }
}

/* Which lockstep runs: 0 none, 1 AVX-512 (with the AVX-512 set-up), 2 AVX2 (with the scalar
 * set-up), 3 the text on one lane (the tests'). mode: one of those to choose (as far as the
 * CPU allows; 1 or 2 where it lacks them falls back to none), or -1 to only ask. Not while a
 * batch runs. */
static PYR_INLINE int pyr_ls_mode(int mode)
{
    if (mode >= 0) {
        pyr_sim_simd(mode == 1);
        pyr_ls_avx2 = mode == 2 && pyr_ls_avx2_cpu;
        pyr_ls_one = mode == 3;
    }
    return pyr_sim_simd(-1) ? 1 : pyr_ls_avx2 ? 2 : pyr_ls_one ? 3 : 0;
}

/* Whether a lockstep runs. */
static PYR_INLINE int pyr_ls_on(void)
{
    return pyr_ls_mode(-1) != 0;
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
