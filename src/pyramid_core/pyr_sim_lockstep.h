/* The random and greedy playouts in lockstep, draw 1 and draw 3: sixteen games at once, one
 * per 32-bit lane of AVX-512 vectors, every lane making one move per step with no branch on
 * its cards (a lane that has finished sits out under a mask). They play the same games as
 * simulate.pyx's _random_draw1, _greedy_draw1, _random_draw3 and _greedy_draw3, move for
 * move and random number for random number (tests/test_simulate.py compares whole batches
 * both ways). The random playout:
 *  - the legal moves are counted by kind in gen_moves order, and the k-th is found by
 *    comparing k with the running counts (masks instead of branches);
 *  - each game's SplitMix64 state sits in a 64-bit lane; Lemire's rejection step, needed
 *    about once in 10^8 draws, is finished in plain C for the lanes that need it;
 *  - the derived state (free cards by rank, the talon cards with a free partner) is worked
 *    out afresh each step from the free mask by vector popcounts instead of being kept up to
 *    date, and the pyramid's geometry (the cards a card covers, what covers it) comes from
 *    32-entry tables held in registers (two-register permutes, no memory access);
 *  - a run of draws that is the only legal move goes in one step while the stock has no gap
 *    (the stock_top_playable mask of _skip_draws_stp, the triples of _skip_draws3), else one
 *    draw a step: the same moves.
 * Each lane's deal (its rank masks) is gathered once from the batch's sim_deal records (byte
 * offsets passed in), as the set-up wrote them; a step then reads no memory: a card's rank
 * and the cards of a rank that differs from lane to lane come from masks and blend trees
 * (pyr_ls_rank, pyr_ls_pick), as a step is one chain (what is in play, the candidates, the
 * veto, the removal) on which a gather's latency would be paid in full. Branch
 * mispredictions, a third of a scalar game, are gone; what costs now is the work of every
 * path in every lane. Only where the AVX-512 set-up is in use (pyr_sim_simd): the tests
 * switch it off to compare with the scalar playouts. */
#ifndef PYR_SIM_LOCKSTEP_H
#define PYR_SIM_LOCKSTEP_H
#include <stddef.h>
#include <stdint.h>
#include "pyr_sim_shuffle.h"
#include "pyr_geometry.h"

#ifdef PYR_SIM_AVX512
#define PYR_LS_TARGET __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx512vpopcntdq,avx512cd")))
#define PYR_LS_1(x) _mm512_set1_epi32(x)
typedef __m512i pyr_ls_v;

static uint32_t pyr_ls_parl[32];    /* pyramid position -> the one it covers up-left, or 28 */
static uint32_t pyr_ls_parr[32];    /* ... up-right, or 28 (28..31: 28) */
static uint32_t pyr_ls_cov[32];     /* the two positions covering it (0 on the bottom row) */
static const uint32_t pyr_ls_div[16] = {0, 256, 128, 86, 64};  /* (k * div[f]) >> 8 = k / f */

static PYR_INLINE void pyr_ls_init(void)
{
    int i;
    pyr_geometry_init();               /* PYR_GEO, padded to 32 lanes with the sentinel */
    for (i = 0; i < 32; i++) {
        pyr_ls_parl[i] = i < 28 ? PYR_GEO.covered_l[i] : 28;
        pyr_ls_parr[i] = i < 28 ? PYR_GEO.covered_r[i] : 28;
        pyr_ls_cov[i] = i < 28 ? PYR_GEO.covering[i] : 0;
    }
}

/* below(n) = (1 << n) - 1; the lowest set bit's index (-1 for 0); the highest's plus one (0
 * for 0); the index of the i-th set bit (i <= 3, from the lowest) */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_below(pyr_ls_v n)
{
    return _mm512_sub_epi32(_mm512_sllv_epi32(PYR_LS_1(1), n), PYR_LS_1(1));
}
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_ctz(pyr_ls_v x)
{
    pyr_ls_v low = _mm512_and_si512(x, _mm512_sub_epi32(_mm512_setzero_si512(), x));
    return _mm512_sub_epi32(PYR_LS_1(31), _mm512_lzcnt_epi32(low));
}
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_top1(pyr_ls_v x)
{
    return _mm512_sub_epi32(PYR_LS_1(32), _mm512_lzcnt_epi32(x));
}
/* the highest set bit as a mask (0 for 0) */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_topbit(pyr_ls_v x)
{
    return _mm512_sllv_epi32(PYR_LS_1(1), _mm512_sub_epi32(PYR_LS_1(31), _mm512_lzcnt_epi32(x)));
}
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_nth(pyr_ls_v x, pyr_ls_v i)
{
    const pyr_ls_v one = PYR_LS_1(1);
    x = _mm512_mask_and_epi32(x, _mm512_cmpgt_epi32_mask(i, PYR_LS_1(0)), x, _mm512_sub_epi32(x, one));
    x = _mm512_mask_and_epi32(x, _mm512_cmpgt_epi32_mask(i, one), x, _mm512_sub_epi32(x, one));
    x = _mm512_mask_and_epi32(x, _mm512_cmpgt_epi32_mask(i, PYR_LS_1(2)), x, _mm512_sub_epi32(x, one));
    return pyr_ls_ctz(x);
}

/* SplitMix64's output function on eight 64-bit lanes */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_mix(pyr_ls_v z)
{
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)),
                           _mm512_set1_epi64((long long)PYR_SM_M1));
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)),
                           _mm512_set1_epi64((long long)PYR_SM_M2));
    return _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
}

typedef struct {
    pyr_ls_v parl0, parl1, parr0, parr1, cov0, cov1;   /* the geometry tables, in registers */
} pyr_ls_geo;

/* Remove the pyramid card at location a in lanes m (a talon location or 63 changes nothing)
 * and free the cards it covered that nothing covers any more (as _take_pyr/_free_up). */
PYR_LS_TARGET static PYR_INLINE void pyr_ls_take(const pyr_ls_geo *g, __mmask16 m, pyr_ls_v a,
                                                 pyr_ls_v *pyr, pyr_ls_v *fre)
{
    const pyr_ls_v bit = _mm512_sllv_epi32(PYR_LS_1(1), a);
    const pyr_ls_v ai = _mm512_min_epu32(a, PYR_LS_1(28));
    pyr_ls_v q, cq;
    __mmask16 now;
    *pyr = _mm512_mask_andnot_epi32(*pyr, m, bit, *pyr);
    *fre = _mm512_mask_andnot_epi32(*fre, m, bit, *fre);
    q = _mm512_permutex2var_epi32(g->parl0, ai, g->parl1);
    cq = _mm512_permutex2var_epi32(g->cov0, q, g->cov1);
    now = m & _mm512_cmplt_epu32_mask(q, PYR_LS_1(28)) & _mm512_testn_epi32_mask(cq, *pyr);
    *fre = _mm512_mask_or_epi32(*fre, now, *fre, _mm512_sllv_epi32(PYR_LS_1(1), q));
    q = _mm512_permutex2var_epi32(g->parr0, ai, g->parr1);
    cq = _mm512_permutex2var_epi32(g->cov0, q, g->cov1);
    now = m & _mm512_cmplt_epu32_mask(q, PYR_LS_1(28)) & _mm512_testn_epi32_mask(cq, *pyr);
    *fre = _mm512_mask_or_epi32(*fre, now, *fre, _mm512_sllv_epi32(PYR_LS_1(1), q));
}

/* The geometry tables into registers, and the deals' rank masks, the talon masks of the
 * ranks' bits (TB[k]: the cards whose rank has bit k) and tnext (t3 under draw 3) as vectors
 * (lane k: the record at base + k * stride, rec holding those offsets). */
PYR_LS_TARGET static PYR_INLINE void pyr_ls_load(pyr_ls_geo *g, pyr_ls_v *PR, pyr_ls_v *TR,
                                                 pyr_ls_v *TN, pyr_ls_v *TB, pyr_ls_v rec, const char *base,
                                                 size_t prank_off, size_t trank_off,
                                                 size_t tnext_off)
{
    int r;
    g->parl0 = _mm512_loadu_si512((const void *)pyr_ls_parl);
    g->parl1 = _mm512_loadu_si512((const void *)(pyr_ls_parl + 16));
    g->parr0 = _mm512_loadu_si512((const void *)pyr_ls_parr);
    g->parr1 = _mm512_loadu_si512((const void *)(pyr_ls_parr + 16));
    g->cov0 = _mm512_loadu_si512((const void *)pyr_ls_cov);
    g->cov1 = _mm512_loadu_si512((const void *)(pyr_ls_cov + 16));
    for (r = 0; r < 14; r++) {
        PR[r] = _mm512_i32gather_epi32(_mm512_add_epi32(rec, PYR_LS_1((int)prank_off + 4 * r)),
                                       (const void *)base, 1);
        TR[r] = _mm512_i32gather_epi32(_mm512_add_epi32(rec, PYR_LS_1((int)trank_off + 4 * r)),
                                       (const void *)base, 1);
    }
    for (r = 0; r < 4; r++) {
        int k;
        TB[r] = _mm512_setzero_si512();
        for (k = 1; k <= 13; k++)
            if ((k >> r) & 1)
                TB[r] = _mm512_or_si512(TB[r], TR[k]);
    }
    *TN = _mm512_i32gather_epi32(_mm512_add_epi32(rec, PYR_LS_1((int)tnext_off)),
                                 (const void *)base, 1);
}

/* Lanes m draw on while drawing is all they would do: with stock_top_playable, while the
 * stock has no gap, to the lowest bit of the stop mask (_skip_draws_stp), across gaps one
 * draw a step (the same moves); with the waste top only, to the first useful card or the
 * end. st: the stock, t: its top, useful: the talon cards with a move. */
PYR_LS_TARGET static PYR_INLINE void pyr_ls_draws(int stp, __mmask16 m, pyr_ls_v st, pyr_ls_v t,
                                                  pyr_ls_v useful, pyr_ls_v TN, pyr_ls_v *moves,
                                                  pyr_ls_v *cur)
{
    const pyr_ls_v one = PYR_LS_1(1), zero = _mm512_setzero_si512();
    if (stp) {
        pyr_ls_v low = _mm512_and_si512(st, _mm512_sub_epi32(zero, st));
        __mmask16 gl = m & _mm512_testn_epi32_mask(_mm512_add_epi32(st, low), st);
        pyr_ls_v stop = _mm512_and_si512(st, _mm512_or_si512(
            _mm512_or_si512(useful, _mm512_srli_epi32(useful, 1)),
            _mm512_or_si512(_mm512_and_si512(TN, _mm512_srli_epi32(st, 1)),
                            _mm512_xor_si512(st, _mm512_srli_epi32(st, 1)))));
        pyr_ls_v last = _mm512_mask_mov_epi32(t, gl, pyr_ls_ctz(stop));
        *moves = _mm512_mask_add_epi32(*moves, m, *moves,
                                       _mm512_add_epi32(_mm512_sub_epi32(last, t), one));
        *cur = _mm512_mask_add_epi32(*cur, m, last, one);
    } else {
        pyr_ls_v u = _mm512_and_si512(st, useful);
        pyr_ls_v j = _mm512_mask_mov_epi32(pyr_ls_top1(st), _mm512_test_epi32_mask(u, u),
                                           _mm512_add_epi32(pyr_ls_ctz(u), one));
        *moves = _mm512_mask_add_epi32(*moves, m, *moves,
                                       _mm512_popcnt_epi32(_mm512_and_si512(st, pyr_ls_below(j))));
        *cur = _mm512_mask_mov_epi32(*cur, m, j);
    }
}

/* Draw 3: lanes m draw once (the cursor three cards on, at most to the end) */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_draw3(__mmask16 m, pyr_ls_v cur)
{
    return _mm512_mask_min_epi32(cur, m, _mm512_add_epi32(cur, PYR_LS_1(3)), PYR_LS_1(24));
}

/* Draw 3: lanes m draw on while drawing is all they would do (_skip_draws3): while the stock
 * is whole and starts at or after waste_at_deal (wad), to the lowest start c of three cards of
 * which one has a move or two pair (t3), else the last draw; otherwise one draw a step (the
 * same moves: the next step looks again). useful: the talon cards with a move. */
PYR_LS_TARGET static PYR_INLINE void pyr_ls_draws3(__mmask16 m, int wad, pyr_ls_v talon,
                                                   pyr_ls_v useful, pyr_ls_v T3, pyr_ls_v *moves,
                                                   pyr_ls_v *cur)
{
    const pyr_ls_v all = PYR_LS_1(0xFFFFFF), every3 = PYR_LS_1(0x249249);
    __mmask16 whole = m & _mm512_cmpge_epi32_mask(*cur, PYR_LS_1(wad))
                      & _mm512_cmpeq_epi32_mask(_mm512_srlv_epi32(talon, *cur), _mm512_srlv_epi32(all, *cur));
    pyr_ls_v starts = _mm512_and_si512(_mm512_sllv_epi32(every3, *cur), all);
    pyr_ls_v last = _mm512_sub_epi32(pyr_ls_top1(starts), PYR_LS_1(1));
    pyr_ls_v stop = _mm512_and_si512(_mm512_and_si512(starts, pyr_ls_below(last)), _mm512_or_si512(
        _mm512_or_si512(useful, _mm512_srli_epi32(useful, 1)), _mm512_or_si512(_mm512_srli_epi32(useful, 2), T3)));
    pyr_ls_v c = pyr_ls_ctz(_mm512_or_si512(stop, _mm512_sllv_epi32(PYR_LS_1(1), last)));
    /* (c - cur) / 3 draws before the last: c - cur is a multiple of 3 up to 21 */
    pyr_ls_v k = _mm512_srli_epi32(_mm512_mullo_epi32(_mm512_sub_epi32(c, *cur), PYR_LS_1(11)), 5);
    *moves = _mm512_mask_add_epi32(*moves, m, *moves, _mm512_maskz_add_epi32(whole, k, PYR_LS_1(1)));
    *moves = _mm512_mask_add_epi32(*moves, m & ~whole, *moves, PYR_LS_1(1));
    *cur = _mm512_mask_mov_epi32(*cur, whole, c);
    *cur = pyr_ls_draw3(m, *cur);
}

/* Lanes m play the removal of a and b (locations, 63: none): talon locations 28.. leave the
 * talon (a shift by a pyramid location's negative offset, or by 63 - 28, clears nothing),
 * pyramid ones leave the pyramid, and under draw 1 (canon) the waste top is worked out again
 * (draw 3 keeps its cursor where it is). */
PYR_LS_TARGET static PYR_INLINE void pyr_ls_remove(const pyr_ls_geo *g, int canon, __mmask16 m,
                                                   pyr_ls_v a, pyr_ls_v b, pyr_ls_v *pyr,
                                                   pyr_ls_v *fre, pyr_ls_v *talon, pyr_ls_v *cur)
{
    const pyr_ls_v one = PYR_LS_1(1);
    *talon = _mm512_mask_andnot_epi32(*talon, m, _mm512_or_si512(
        _mm512_sllv_epi32(one, _mm512_sub_epi32(a, PYR_LS_1(28))),
        _mm512_sllv_epi32(one, _mm512_sub_epi32(b, PYR_LS_1(28)))), *talon);
    pyr_ls_take(g, m, a, pyr, fre);
    pyr_ls_take(g, m, b, pyr, fre);
    if (canon)
        *cur = _mm512_mask_mov_epi32(*cur, m, pyr_ls_top1(_mm512_and_si512(*talon, pyr_ls_below(*cur))));
}

/* The finished games' rows */
PYR_LS_TARGET static PYR_INLINE void pyr_ls_rows(pyr_ls_v pyr, pyr_ls_v talon, pyr_ls_v moves,
                                                 int win_all, int cnt, uint8_t *won,
                                                 uint8_t *removed, uint16_t *moves_out,
                                                 uint16_t *score)
{
    uint32_t P[16] = {0}, T[16] = {0}, M[16] = {0};
    int i;
    _mm512_storeu_si512((void *)P, pyr);
    _mm512_storeu_si512((void *)T, talon);
    _mm512_storeu_si512((void *)M, moves);
    for (i = 0; i < cnt; i++) {
        won[i] = P[i] == 0 && (!win_all || T[i] == 0);
        removed[i] = (uint8_t)(28 - pyr_popcount32(P[i]));
        moves_out[i] = (uint16_t)M[i];
        score[i] = (uint16_t)(10 * removed[i]);
    }
}

/* What a step looks at, for every lane: free cards by rank, the talon cards that are Kings
 * or pair with a free card (useful), the free pyramid Kings, the waste top w (-1: none) and,
 * with stock_top_playable, the stock top t, their ranks (for lanes m, from the rank-bit
 * masks TB), whether they have a move (wuse, tuse) or pair (wt). */
typedef struct {
    pyr_ls_v fc[14], useful, kings, w, bc, st, t, rw0, rt0;
    __mmask16 stnz, wnn, wuse, tuse, wt;
} pyr_ls_view;

/* T[i] in each lane (T: 14 vectors, i: 0..13) by a tree of blends: no memory access */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_pick(const pyr_ls_v *T, pyr_ls_v i)
{
    __mmask16 b0 = _mm512_test_epi32_mask(i, PYR_LS_1(1)), b1 = _mm512_test_epi32_mask(i, PYR_LS_1(2));
    __mmask16 b2 = _mm512_test_epi32_mask(i, PYR_LS_1(4)), b3 = _mm512_test_epi32_mask(i, PYR_LS_1(8));
    pyr_ls_v x[7];
    int j;
    for (j = 0; j < 7; j++)
        x[j] = _mm512_mask_mov_epi32(T[2 * j], b0, T[2 * j + 1]);
    x[0] = _mm512_mask_mov_epi32(x[0], b1, x[1]);
    x[1] = _mm512_mask_mov_epi32(x[2], b1, x[3]);
    x[2] = _mm512_mask_mov_epi32(x[4], b1, x[5]);
    x[0] = _mm512_mask_mov_epi32(x[0], b2, x[1]);
    x[2] = _mm512_mask_mov_epi32(x[2], b2, x[6]);
    return _mm512_mask_mov_epi32(x[0], b3, x[2]);
}

/* The rank of talon card i (0..23), from the talon masks of the ranks' bits (TB[k]: the
 * cards whose rank has bit k) */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_rank(const pyr_ls_v *TB, pyr_ls_v i)
{
    const pyr_ls_v one = PYR_LS_1(1);
    pyr_ls_v r = _mm512_and_si512(_mm512_srlv_epi32(TB[0], i), one);
    r = _mm512_or_si512(r, _mm512_slli_epi32(_mm512_and_si512(_mm512_srlv_epi32(TB[1], i), one), 1));
    r = _mm512_or_si512(r, _mm512_slli_epi32(_mm512_and_si512(_mm512_srlv_epi32(TB[2], i), one), 2));
    return _mm512_or_si512(r, _mm512_slli_epi32(_mm512_and_si512(_mm512_srlv_epi32(TB[3], i), one), 3));
}

PYR_LS_TARGET static PYR_INLINE void pyr_ls_look(pyr_ls_view *v, int stp, __mmask16 m,
                                                 const pyr_ls_v *PR, const pyr_ls_v *TR,
                                                 pyr_ls_v fre, pyr_ls_v talon, pyr_ls_v cur,
                                                 const pyr_ls_v *TB)
{
    const pyr_ls_v one = PYR_LS_1(1), zero = _mm512_setzero_si512();
    int r;
    v->useful = TR[13];
    for (r = 1; r <= 13; r++)
        v->fc[r] = _mm512_popcnt_epi32(_mm512_and_si512(fre, PR[r]));
    for (r = 1; r <= 12; r++)
        v->useful = _mm512_mask_or_epi32(v->useful, _mm512_test_epi32_mask(v->fc[r], v->fc[r]),
                                         v->useful, TR[13 - r]);
    v->kings = _mm512_and_si512(fre, PR[13]);
    v->w = _mm512_sub_epi32(cur, one);
    v->bc = pyr_ls_below(cur);
    v->st = _mm512_andnot_si512(v->bc, talon);
    v->stnz = _mm512_test_epi32_mask(v->st, v->st);
    v->wnn = _mm512_cmpgt_epi32_mask(cur, zero);
    v->wuse = _mm512_test_epi32_mask(_mm512_srlv_epi32(v->useful, v->w), one);
    v->t = pyr_ls_ctz(v->st);
    v->rw0 = _mm512_maskz_mov_epi32(v->wnn & m, pyr_ls_rank(TB, v->w));
    v->tuse = v->wt = 0;
    v->rt0 = zero;
    if (stp) {
        v->tuse = _mm512_test_epi32_mask(_mm512_srlv_epi32(v->useful, v->t), one);
        v->rt0 = _mm512_maskz_mov_epi32(v->stnz & m, pyr_ls_rank(TB, v->t));
        v->wt = v->wnn & v->stnz
                & _mm512_cmpeq_epi32_mask(_mm512_add_epi32(v->rw0, v->rt0), PYR_LS_1(13));
    }
}

/* Draw 3: the waste piles' tops (pile[k]: pile k's talon bits; card i < waste_at_deal goes
 * to pile 0, else to pile (i - waste_at_deal) % 3), as a mask and in order, tp[0] < tp[1] <
 * tp[2] (talon indices) in lanes th[i], of ranks tr[i] (0 where none); inplay: the lanes
 * where a top has a move (a King or a free partner: useful) or two tops pair. */
typedef struct {
    pyr_ls_v pile[3], tops, tp[3], tr[3];
    __mmask16 th[3], inplay;
} pyr_ls_tops;

PYR_LS_TARGET static PYR_INLINE void pyr_ls_piles(pyr_ls_tops *p, int waste_at_deal)
{
    const uint32_t every3 = 0x249249u, all = 0xFFFFFFu, w = (uint32_t)waste_at_deal;
    p->pile[0] = PYR_LS_1((int)((((1u << w) - 1) | (every3 << w)) & all));
    p->pile[1] = PYR_LS_1((int)((every3 << (w + 1)) & all));
    p->pile[2] = PYR_LS_1((int)((every3 << (w + 2)) & all));
}

PYR_LS_TARGET static PYR_INLINE void pyr_ls_look3(pyr_ls_tops *p, const pyr_ls_view *v,
                                                  pyr_ls_v talon, const pyr_ls_v *TB)
{
    const pyr_ls_v thirteen = PYR_LS_1(13);
    pyr_ls_v wm = _mm512_and_si512(talon, v->bc), x;
    int i;
    p->tops = _mm512_or_si512(_mm512_or_si512(pyr_ls_topbit(_mm512_and_si512(wm, p->pile[0])),
                                              pyr_ls_topbit(_mm512_and_si512(wm, p->pile[1]))),
                              pyr_ls_topbit(_mm512_and_si512(wm, p->pile[2])));
    x = p->tops;
    for (i = 0; i < 3; i++) {
        p->th[i] = _mm512_test_epi32_mask(x, x);
        p->tp[i] = pyr_ls_ctz(x);
        p->tr[i] = _mm512_maskz_mov_epi32(p->th[i], pyr_ls_rank(TB, p->tp[i]));
        x = _mm512_and_si512(x, _mm512_sub_epi32(x, PYR_LS_1(1)));
    }
    p->inplay = _mm512_test_epi32_mask(p->tops, v->useful)
                | (p->th[1] & _mm512_cmpeq_epi32_mask(_mm512_add_epi32(p->tr[0], p->tr[1]), thirteen))
                | (p->th[2] & (_mm512_cmpeq_epi32_mask(_mm512_add_epi32(p->tr[0], p->tr[2]), thirteen)
                               | _mm512_cmpeq_epi32_mask(_mm512_add_epi32(p->tr[1], p->tr[2]), thirteen)));
}

/* Lemire's k < n for the lanes in `need` (n > 1): advances their generators (s0: lanes
 * 0..7, s1: lanes 8..15). */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_rand(__mmask16 need, pyr_ls_v n, pyr_ls_v *s0,
                                                     pyr_ls_v *s1)
{
    const pyr_ls_v golden = _mm512_set1_epi64((long long)PYR_SM_GAMMA);
    pyr_ls_v z0, z1, p0, p1, k, lo;
    __mmask16 bad;
    *s0 = _mm512_mask_add_epi64(*s0, (__mmask8)need, *s0, golden);
    *s1 = _mm512_mask_add_epi64(*s1, (__mmask8)(need >> 8), *s1, golden);
    z0 = pyr_ls_mix(*s0);
    z1 = pyr_ls_mix(*s1);
    p0 = _mm512_mul_epu32(_mm512_srli_epi64(z0, 32),
                          _mm512_cvtepu32_epi64(_mm512_castsi512_si256(n)));
    p1 = _mm512_mul_epu32(_mm512_srli_epi64(z1, 32),
                          _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(n, 1)));
    k = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(_mm512_srli_epi64(p0, 32))),
                           _mm512_cvtepi64_epi32(_mm512_srli_epi64(p1, 32)), 1);
    lo = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(p0)),
                            _mm512_cvtepi64_epi32(p1), 1);
    bad = need & _mm512_cmplt_epu32_mask(lo, n);
    if (bad) {                  /* the low product word below n: maybe reject (rare) */
        uint64_t ss[16];
        uint32_t kk[16], nn[16], ll[16];
        int i;
        _mm512_storeu_si512((void *)ss, *s0);
        _mm512_storeu_si512((void *)(ss + 8), *s1);
        _mm512_storeu_si512((void *)kk, k);
        _mm512_storeu_si512((void *)nn, n);
        _mm512_storeu_si512((void *)ll, lo);
        for (i = 0; i < 16; i++) {
            uint32_t t;
            if (!((bad >> i) & 1))
                continue;
            t = (0u - nn[i]) % nn[i];
            while (ll[i] < t) {
                uint64_t m = (pyr_sm_next(&ss[i]) >> 32) * nn[i];
                ll[i] = (uint32_t)m;
                kk[i] = (uint32_t)(m >> 32);
            }
        }
        *s0 = _mm512_loadu_si512((const void *)ss);
        *s1 = _mm512_loadu_si512((const void *)(ss + 8));
        k = _mm512_loadu_si512((const void *)kk);
    }
    return k;
}

/* Games 0 .. cnt-1 (cnt <= 16) of the records `stride` bytes apart from base (their rank,
 * prank, trank arrays and tnext word at the given offsets), game k's generator in rng[k];
 * their rows into won/removed/moves/score[0 .. cnt-1]. redeals: 255 for unlimited; then a
 * game ends at a recycle when no removal was legal since the last one (or the deal), or once
 * it has played cap moves (SIM_MOVE_CAP). */
PYR_LS_TARGET static PYR_INLINE void pyr_ls_random(int draw3, int stp, int redeals, int cap,
                                                   int waste_at_deal, int win_all,
                                                   const char *base, size_t stride,
                                                   size_t prank_off, size_t trank_off,
                                                   size_t tnext_off, const uint64_t *rng, int cnt,
                                                   uint8_t *won, uint8_t *removed,
                                                   uint16_t *moves_out, uint16_t *score)
{
    const pyr_ls_v one = PYR_LS_1(1), zero = _mm512_setzero_si512(), thirteen = PYR_LS_1(13);
    const pyr_ls_v lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const pyr_ls_v rec = _mm512_mullo_epi32(lane, PYR_LS_1((int)stride));   /* record offsets */
    const pyr_ls_v div = _mm512_loadu_si512((const void *)pyr_ls_div);
    const int unl = redeals == 255;
    const pyr_ls_v nredeals = PYR_LS_1(redeals), ncap = PYR_LS_1(cap);
    pyr_ls_v PR[14], TR[14], TN, TB[4];
    pyr_ls_v pyr = PYR_LS_1(0x0FFFFFFF), fre = PYR_LS_1(0x0FE00000), talon = PYR_LS_1(0xFFFFFF);
    pyr_ls_v cur = PYR_LS_1(waste_at_deal), moves = zero, recycles = zero;
    pyr_ls_v s0 = _mm512_loadu_si512((const void *)rng);
    pyr_ls_v s1 = _mm512_loadu_si512((const void *)(rng + 8));
    __mmask16 act = cnt >= 16 ? 0xFFFF : (__mmask16)((1u << cnt) - 1);
    /* 1 in the lanes where a removal was legal since the last recycle (a vector: as a mask,
     * live through the loop beside the others, it measured 2-3% slower on msc) */
    pyr_ls_v seen = zero;
    pyr_ls_tops p3;
    pyr_ls_geo g;
    int r, i;
    pyr_ls_load(&g, PR, TR, &TN, TB, rec, base, prank_off, trank_off, tnext_off);
    pyr_ls_piles(&p3, waste_at_deal);
    if (draw3)
        stp = 0;
    while (1) {
        pyr_ls_view v;
        pyr_ls_v npairs, rw, rt, nk, pmw, pmt, pm3[3], c3[3], ktop = zero;
        pyr_ls_v cw, ct, cwt, n, k, k2, a, b;
        __mmask16 forced, wnz, canrec, nf, kw, kt, isk, kp, kwl, inplay, e3[3][3];
        __mmask16 chosen, l1, l2, l3, l4, rc, rem, need;
        act &= _mm512_test_epi32_mask(pyr, pyr)
               | (win_all ? _mm512_test_epi32_mask(talon, talon) : 0);
        if (!act)
            break;
        pyr_ls_look(&v, stp, act, PR, TR, fre, talon, cur, TB);
        if (draw3)
            pyr_ls_look3(&p3, &v, talon, TB);
        inplay = draw3 ? p3.inplay : v.wuse | v.tuse | v.wt;
        npairs = zero;                          /* the number of pyramid pairs */
        for (r = 1; r <= 6; r++)
            npairs = _mm512_add_epi32(npairs, _mm512_mullo_epi32(v.fc[r], v.fc[13 - r]));
        forced = act & ~inplay & _mm512_cmpeq_epi32_mask(npairs, zero)
                 & _mm512_testn_epi32_mask(v.kings, v.kings);
        wnz = _mm512_test_epi32_mask(talon, v.bc);
        canrec = unl ? (__mmask16)0xFFFF : _mm512_cmplt_epi32_mask(recycles, nredeals);
        if (forced) {
            /* drawing or recycling is the only move: no random number is used */
            __mmask16 fs = forced & v.stnz, fe = forced & ~v.stnz;
            if (fs && draw3)
                pyr_ls_draws3(fs, waste_at_deal, talon, v.useful, TN, &moves, &cur);
            else if (fs)
                pyr_ls_draws(stp, fs, v.st, v.t, v.useful, TN, &moves, &cur);
            if (fe) {
                __mmask16 end = fe & (~wnz | ~canrec
                                      | (unl ? _mm512_testn_epi32_mask(seen, seen)
                                               | _mm512_cmpge_epi32_mask(moves, ncap) : 0));
                act &= ~end;
                fe &= ~end;
                cur = _mm512_mask_mov_epi32(cur, fe, zero);
                if (!unl)
                    recycles = _mm512_mask_add_epi32(recycles, fe, recycles, one);
                seen = _mm512_mask_mov_epi32(seen, fe, zero);
                moves = _mm512_mask_add_epi32(moves, fe, moves, one);
            }
        }
        nf = act & ~forced;
        if (!nf)
            continue;
        seen = _mm512_mask_mov_epi32(seen, nf, one);    /* a removal is legal here */
        /* count the legal moves by kind, in gen_moves order: pyramid Kings, talon Kings,
         * pyramid pairs, then under draw 1 the waste top's partners, waste top + stock top,
         * the stock top's partners, under draw 3 each pile top's partners and its pairs with
         * the later tops (e3[i][j]: tops i < j pair), and last draw or recycle */
        kw = kt = l1 = l2 = l3 = 0;
        rw = rt = pmw = pmt = cw = ct = cwt = zero;
        if (draw3) {
            ktop = _mm512_and_si512(p3.tops, TR[13]);
            nk = _mm512_add_epi32(v.fc[13], _mm512_popcnt_epi32(ktop));
            n = _mm512_add_epi32(nk, npairs);
            for (i = 0; i < 3; i++) {
                pyr_ls_v q = _mm512_sub_epi32(thirteen, p3.tr[i]);
                __mmask16 live = nf & p3.th[i] & _mm512_cmpneq_epi32_mask(p3.tr[i], thirteen);
                int j;
                pm3[i] = _mm512_maskz_and_epi32(live, fre, pyr_ls_pick(PR, q));
                c3[i] = _mm512_popcnt_epi32(pm3[i]);
                n = _mm512_add_epi32(n, c3[i]);
                for (j = i + 1; j < 3; j++) {
                    e3[i][j] = live & p3.th[j] & _mm512_cmpeq_epi32_mask(p3.tr[j], q);
                    n = _mm512_mask_add_epi32(n, e3[i][j], n, one);
                }
            }
        } else {
            rw = _mm512_maskz_mov_epi32(v.wuse, v.rw0);
            rt = _mm512_maskz_mov_epi32(v.tuse, v.rt0);
            kw = _mm512_cmpeq_epi32_mask(rw, thirteen);
            kt = _mm512_cmpeq_epi32_mask(rt, thirteen);
            nk = _mm512_mask_add_epi32(v.fc[13], kw, v.fc[13], one);
            nk = _mm512_mask_add_epi32(nk, kt, nk, one);
            pmw = _mm512_maskz_and_epi32(nf & v.wuse & ~kw, fre, pyr_ls_pick(PR, _mm512_sub_epi32(thirteen, rw)));
            cw = _mm512_popcnt_epi32(pmw);
            if (stp) {
                pmt = _mm512_maskz_and_epi32(nf & v.tuse & ~kt, fre, pyr_ls_pick(PR, _mm512_sub_epi32(thirteen, rt)));
                ct = _mm512_popcnt_epi32(pmt);
            }
            n = _mm512_add_epi32(_mm512_add_epi32(nk, npairs), _mm512_add_epi32(cw, ct));
            n = _mm512_mask_add_epi32(n, v.wt, n, one);
        }
        n = _mm512_mask_add_epi32(n, v.stnz | (wnz & canrec), n, one);
        need = nf & _mm512_cmpgt_epi32_mask(n, one);
        k = need ? pyr_ls_rand(need, n, &s0, &s1) : zero;
        k = _mm512_maskz_mov_epi32(need, k);
        /* the k-th legal move: a, b (63: none) */
        a = b = PYR_LS_1(63);
        isk = nf & _mm512_cmplt_epi32_mask(k, nk);
        kp = isk & _mm512_cmplt_epi32_mask(k, v.fc[13]);
        if (kp)
            a = _mm512_mask_mov_epi32(a, kp, pyr_ls_nth(v.kings, k));
        if (draw3) {
            a = _mm512_mask_add_epi32(a, isk & ~kp, pyr_ls_nth(ktop, _mm512_sub_epi32(k, v.fc[13])),
                                      PYR_LS_1(28));
        } else {
            kwl = isk & ~kp & _mm512_cmpeq_epi32_mask(k, v.fc[13]) & kw;
            a = _mm512_mask_add_epi32(a, kwl, v.w, PYR_LS_1(28));
            a = _mm512_mask_add_epi32(a, isk & ~kp & ~kwl, v.t, PYR_LS_1(28));
        }
        k2 = _mm512_sub_epi32(k, nk);
        chosen = isk | ~nf;
        for (r = 1; r <= 6; r++) {
            pyr_ls_v j = _mm512_mullo_epi32(v.fc[r], v.fc[13 - r]);
            __mmask16 sel = ~chosen & _mm512_cmplt_epi32_mask(k2, j);
            if (sel) {
                pyr_ls_v f = v.fc[13 - r];
                pyr_ls_v ai = _mm512_srli_epi32(_mm512_mullo_epi32(k2, _mm512_permutexvar_epi32(f, div)), 8);
                pyr_ls_v bi = _mm512_sub_epi32(k2, _mm512_mullo_epi32(ai, f));
                a = _mm512_mask_mov_epi32(a, sel, pyr_ls_nth(_mm512_and_si512(fre, PR[r]), ai));
                b = _mm512_mask_mov_epi32(b, sel, pyr_ls_nth(_mm512_and_si512(fre, PR[13 - r]), bi));
                chosen |= sel;
            }
            k2 = _mm512_mask_sub_epi32(k2, ~chosen, k2, j);
        }
        if (draw3) {
            /* each pile top: its partners, then its pairs with the later tops */
            for (i = 0; i < 3; i++) {
                int j;
                __mmask16 sel = ~chosen & _mm512_cmplt_epi32_mask(k2, c3[i]);
                pyr_ls_v loc = _mm512_add_epi32(p3.tp[i], PYR_LS_1(28));
                if (sel) {
                    a = _mm512_mask_mov_epi32(a, sel, pyr_ls_nth(pm3[i], k2));
                    b = _mm512_mask_mov_epi32(b, sel, loc);
                    chosen |= sel;
                }
                k2 = _mm512_mask_sub_epi32(k2, ~chosen, k2, c3[i]);
                for (j = i + 1; j < 3; j++) {
                    sel = ~chosen & e3[i][j] & _mm512_cmpeq_epi32_mask(k2, zero);
                    a = _mm512_mask_mov_epi32(a, sel, loc);
                    b = _mm512_mask_add_epi32(b, sel, p3.tp[j], PYR_LS_1(28));
                    chosen |= sel;
                    k2 = _mm512_mask_sub_epi32(k2, ~chosen & e3[i][j], k2, one);
                }
            }
            l4 = ~chosen;
        } else {
            cwt = _mm512_mask_add_epi32(cw, v.wt, cw, one);
            l1 = ~chosen & _mm512_cmplt_epi32_mask(k2, cw);
            l2 = ~chosen & ~l1 & _mm512_cmplt_epi32_mask(k2, cwt);
            l3 = ~chosen & ~l1 & ~l2 & _mm512_cmplt_epi32_mask(k2, _mm512_add_epi32(cwt, ct));
            l4 = ~chosen & ~(l1 | l2 | l3);
        }
        if (!draw3 && l1) {
            a = _mm512_mask_mov_epi32(a, l1, pyr_ls_nth(pmw, k2));
            b = _mm512_mask_add_epi32(b, l1, v.w, PYR_LS_1(28));
        }
        if (!draw3 && l2) {
            a = _mm512_mask_add_epi32(a, l2, v.w, PYR_LS_1(28));
            b = _mm512_mask_add_epi32(b, l2, v.t, PYR_LS_1(28));
        }
        if (!draw3 && l3) {
            a = _mm512_mask_mov_epi32(a, l3, pyr_ls_nth(pmt, _mm512_sub_epi32(k2, cwt)));
            b = _mm512_mask_add_epi32(b, l3, v.t, PYR_LS_1(28));
        }
        /* play it: a draw, a recycle (unless under unlimited redeals the game has played
         * cap moves: a removal is legal here, so the pass has seen one), or a removal */
        if (draw3)
            cur = pyr_ls_draw3(l4 & v.stnz, cur);
        else
            cur = _mm512_mask_add_epi32(cur, l4 & v.stnz, v.t, one);
        rc = l4 & ~v.stnz;
        if (rc) {
            if (unl) {
                __mmask16 end = rc & _mm512_cmpge_epi32_mask(moves, ncap);
                act &= ~end;
                rc &= ~end;
                nf &= ~end;
            } else {
                recycles = _mm512_mask_add_epi32(recycles, rc, recycles, one);
            }
            cur = _mm512_mask_mov_epi32(cur, rc, zero);
            seen = _mm512_mask_mov_epi32(seen, rc, zero);
        }
        moves = _mm512_mask_add_epi32(moves, nf, moves, one);
        rem = nf & ~l4;
        pyr_ls_remove(&g, !draw3, rem, a, b, &pyr, &fre, &talon, &cur);
    }
    pyr_ls_rows(pyr, talon, moves, win_all, cnt, won, removed, moves_out, score);
}

PYR_LS_TARGET
static void pyr_ls_random_draw1(int stp, int redeals, int cap, int waste_at_deal, int win_all,
                                const char *base, size_t stride,
                                size_t prank_off, size_t trank_off, size_t tnext_off,
                                const uint64_t *rng, int cnt, uint8_t *won, uint8_t *removed,
                                uint16_t *moves_out, uint16_t *score)
{
    pyr_ls_random(0, stp, redeals, cap, waste_at_deal, win_all, base, stride, prank_off,
                  trank_off, tnext_off, rng, cnt, won, removed, moves_out, score);
}

PYR_LS_TARGET
static void pyr_ls_random_draw3(int redeals, int cap, int waste_at_deal, int win_all,
                                const char *base, size_t stride,
                                size_t prank_off, size_t trank_off, size_t t3_off,
                                const uint64_t *rng, int cnt, uint8_t *won, uint8_t *removed,
                                uint16_t *moves_out, uint16_t *score)
{
    pyr_ls_random(1, 0, redeals, cap, waste_at_deal, win_all, base, stride, prank_off,
                  trank_off, t3_off, rng, cnt, won, removed, moves_out, score);
}

/* ---- the greedy draw-1 playout in lockstep (simulate.pyx's _greedy_draw1, move for move) ----
 * Its tables come from simulate.pyx at import (pyr_ls_init_greedy): the veto's covering
 * relation BAD (28: the sentinel, related to everything), SUPPORT and the row-neighbour
 * masks. */
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

typedef struct {
    pyr_ls_v bad0, bad1, sup0, sup1;
} pyr_ls_gtab;

/* The largest matching of up to 4 x 4 cards (rset and sset, pyramid positions) not in a
 * covering relation: simulate.pyx's _matching, a lane at a time. Its MATCH16 table holds the
 * Konig-Ore formula, worked out here directly: 4 - the largest deficiency |S| - |N(S)| over
 * the sets S of rset's (up to) four cards, N(S) their compatible cards in sset (a missing
 * card, the sentinel, has none). A gather from that 64 KB table was slower. */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_matching(const pyr_ls_gtab *gt, pyr_ls_v rset,
                                                         pyr_ls_v sset)
{
    const pyr_ls_v sent = PYR_LS_1(1 << 28), one = PYR_LS_1(1);
    pyr_ls_v x = rset, ok[4], n01, n23, d, best;
    int i;
    for (i = 0; i < 4; i++) {
        pyr_ls_v c = pyr_ls_ctz(_mm512_or_si512(x, sent));
        ok[i] = _mm512_andnot_si512(_mm512_permutex2var_epi32(gt->bad0, c, gt->bad1), sset);
        x = _mm512_and_si512(x, _mm512_sub_epi32(x, one));
    }
#define PYR_LS_DEF(k, n) _mm512_sub_epi32(PYR_LS_1(k), _mm512_popcnt_epi32(n))
    n01 = _mm512_or_si512(ok[0], ok[1]);
    n23 = _mm512_or_si512(ok[2], ok[3]);
    best = _mm512_max_epi32(_mm512_max_epi32(PYR_LS_DEF(1, ok[0]), PYR_LS_DEF(1, ok[1])),
                            _mm512_max_epi32(PYR_LS_DEF(1, ok[2]), PYR_LS_DEF(1, ok[3])));
    d = _mm512_max_epi32(_mm512_max_epi32(PYR_LS_DEF(2, n01), PYR_LS_DEF(2, n23)),
                         _mm512_max_epi32(PYR_LS_DEF(2, _mm512_or_si512(ok[0], ok[2])),
                                          PYR_LS_DEF(2, _mm512_or_si512(ok[0], ok[3]))));
    best = _mm512_max_epi32(best, d);
    d = _mm512_max_epi32(PYR_LS_DEF(2, _mm512_or_si512(ok[1], ok[2])),
                         PYR_LS_DEF(2, _mm512_or_si512(ok[1], ok[3])));
    best = _mm512_max_epi32(best, d);
    d = _mm512_max_epi32(_mm512_max_epi32(PYR_LS_DEF(3, _mm512_or_si512(n01, ok[2])),
                                          PYR_LS_DEF(3, _mm512_or_si512(n01, ok[3]))),
                         _mm512_max_epi32(PYR_LS_DEF(3, _mm512_or_si512(n23, ok[0])),
                                          PYR_LS_DEF(3, _mm512_or_si512(n23, ok[1]))));
    best = _mm512_max_epi32(best, _mm512_max_epi32(d, PYR_LS_DEF(4, _mm512_or_si512(n01, n23))));
#undef PYR_LS_DEF
    return _mm512_sub_epi32(PYR_LS_1(4), _mm512_max_epi32(best, _mm512_setzero_si512()));
}

/* Is some card of rset compatible with some card of sset (their matching at least 1)? */
PYR_LS_TARGET static PYR_INLINE __mmask16 pyr_ls_any(const pyr_ls_gtab *gt, pyr_ls_v rset,
                                                     pyr_ls_v sset)
{
    const pyr_ls_v sent = PYR_LS_1(1 << 28), one = PYR_LS_1(1);
    pyr_ls_v x = rset, acc = _mm512_setzero_si512();
    int i;
    for (i = 0; i < 4; i++) {
        pyr_ls_v c = pyr_ls_ctz(_mm512_or_si512(x, sent));
        acc = _mm512_or_si512(acc, _mm512_andnot_si512(_mm512_permutex2var_epi32(gt->bad0, c, gt->bad1), sset));
        x = _mm512_and_si512(x, _mm512_sub_epi32(x, one));
    }
    return _mm512_test_epi32_mask(acc, acc);
}

/* The matching where the veto needs its value (lanes in `full`: at least 2 pairs needed),
 * else only whether it is at least 1 (lanes in `part`) */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_match_or_any(const pyr_ls_gtab *gt, __mmask16 full,
                                                             __mmask16 part, pyr_ls_v rset,
                                                             pyr_ls_v sset)
{
    pyr_ls_v m = _mm512_setzero_si512();
    if (part)
        m = _mm512_maskz_mov_epi32(pyr_ls_any(gt, rset, sset), PYR_LS_1(1));
    if (full)
        m = _mm512_mask_mov_epi32(m, full, pyr_ls_matching(gt, rset, sset));
    return m;
}

/* _slack's value from its parts (m: the matching of the rank pair's present pyramid cards) */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_slack(pyr_ls_v need, pyr_ls_v small, pyr_ls_v m)
{
    const pyr_ls_v zero = _mm512_setzero_si512(), one = PYR_LS_1(1);
    __mmask16 any = _mm512_cmpgt_epi32_mask(small, zero) & _mm512_cmpge_epi32_mask(m, one);
    pyr_ls_v v = _mm512_sub_epi32(_mm512_maskz_mov_epi32(any, one), need);
    v = _mm512_mask_sub_epi32(v, _mm512_cmpge_epi32_mask(need, PYR_LS_1(2)), m, need);
    v = _mm512_mask_mov_epi32(v, _mm512_cmpgt_epi32_mask(need, small), PYR_LS_1(-1));
    return _mm512_mask_sub_epi32(v, _mm512_cmplt_epi32_mask(need, zero), zero, need);
}

/* _greedy_veto for the pairs (a < b) of lanes m: would the pair leave its rank pair
 * unclearable (it was clearable)? */
PYR_LS_TARGET static PYR_INLINE __mmask16 pyr_ls_veto(const pyr_ls_gtab *gt, const pyr_ls_v *PR,
                                                      const pyr_ls_v *TR,
                                                      __mmask16 m, pyr_ls_v a, pyr_ls_v b,
                                                      pyr_ls_v r, pyr_ls_v pyr, pyr_ls_v talon)
{
    const pyr_ls_v zero = _mm512_setzero_si512(), one = PYR_LS_1(1);
    pyr_ls_v q, prr, prq, trr, trq, pr, pq, tr, tq, need, small, rA, sA, rB, sB, mA, mB;
    pyr_ls_v pyr2, bitx, ia1, ib1, needB, smallB;
    __mmask16 ia, ib, mixed, mx, same, wantA, wantB, veto, two;
    if (!m)
        return 0;
    q = _mm512_sub_epi32(PYR_LS_1(13), r);
    prr = pyr_ls_pick(PR, r);
    prq = pyr_ls_pick(PR, q);
    trr = pyr_ls_pick(TR, r);
    trq = pyr_ls_pick(TR, q);
    pr = _mm512_popcnt_epi32(_mm512_and_si512(pyr, prr));
    pq = _mm512_popcnt_epi32(_mm512_and_si512(pyr, prq));
    tr = _mm512_popcnt_epi32(_mm512_and_si512(talon, trr));
    tq = _mm512_popcnt_epi32(_mm512_and_si512(talon, trq));
    ia = _mm512_cmplt_epi32_mask(a, PYR_LS_1(28));
    ib = _mm512_cmplt_epi32_mask(b, PYR_LS_1(28));
    ia1 = _mm512_maskz_mov_epi32(ia, one);
    ib1 = _mm512_maskz_mov_epi32(ib, one);
    mixed = m & (ia ^ ib);
    same = m & ~mixed;
    need = _mm512_max_epi32(_mm512_sub_epi32(pr, tq), _mm512_sub_epi32(pq, tr));
    small = _mm512_min_epi32(pr, pq);
    /* a pyramid card x with a talon partner: vetoed when the matching is exactly what is
     * needed and every largest matching uses x */
    mx = mixed & _mm512_cmpgt_epi32_mask(need, zero) & _mm512_cmple_epi32_mask(need, small);
    bitx = _mm512_sllv_epi32(one, _mm512_mask_mov_epi32(b, ia, a));
    rA = _mm512_and_si512(pyr, _mm512_mask_mov_epi32(prr, mixed & ib, prq));
    sA = _mm512_and_si512(pyr, _mm512_mask_mov_epi32(prq, mixed & ib, prr));
    rB = _mm512_mask_andnot_epi32(rA, mixed, bitx, rA);
    sB = sA;
    /* two cards of one kind: the rank pair's slack before (0: tight) and after (< 0) */
    pyr2 = _mm512_andnot_si512(_mm512_or_si512(_mm512_sllv_epi32(one, a), _mm512_sllv_epi32(one, b)), pyr);
    rB = _mm512_mask_and_epi32(rB, same, pyr2, prr);
    sB = _mm512_mask_and_epi32(sB, same, pyr2, prq);
    needB = _mm512_max_epi32(_mm512_sub_epi32(_mm512_sub_epi32(pr, ia1), _mm512_sub_epi32(tq, _mm512_sub_epi32(one, ib1))),
                             _mm512_sub_epi32(_mm512_sub_epi32(pq, ib1), _mm512_sub_epi32(tr, _mm512_sub_epi32(one, ia1))));
    smallB = _mm512_min_epi32(_mm512_sub_epi32(pr, ia1), _mm512_sub_epi32(pq, ib1));
    /* (with at most one pair needed, "the matching is at least 1" decides: a matching
     * loses at most one pair when x goes) */
    two = _mm512_cmpge_epi32_mask(need, PYR_LS_1(2));
    wantA = mx | (same & _mm512_cmpge_epi32_mask(need, zero) & _mm512_cmple_epi32_mask(need, small));
    mA = pyr_ls_match_or_any(gt, wantA & two, wantA & ~two, rA, sA);
    veto = mx & _mm512_cmpeq_epi32_mask(mA, need);
    same &= _mm512_cmpeq_epi32_mask(pyr_ls_slack(need, small, mA), zero);
    needB = _mm512_mask_mov_epi32(needB, mixed, need);
    two = _mm512_cmpge_epi32_mask(needB, PYR_LS_1(2));
    wantB = veto | (same & _mm512_cmpge_epi32_mask(needB, zero) & _mm512_cmple_epi32_mask(needB, smallB));
    mB = pyr_ls_match_or_any(gt, wantB & two, wantB & ~two, rB, sB);
    veto &= _mm512_cmplt_epi32_mask(mB, need);
    veto |= same & _mm512_cmplt_epi32_mask(pyr_ls_slack(needB, smallB, mB), zero);
    return veto;
}

/* A candidate list's best pair below a ceiling: candidates in gen_moves order (their index
 * o), best = the largest merit, the first of equals, among those ranking after (cm, co) in
 * the order (merit down, index up). Used again after a veto with the vetoed pair as the
 * ceiling: the next best. */
typedef struct {
    pyr_ls_v m, o, a, b, r;    /* best merit (-1: none), its index, its pair, a's rank */
    pyr_ls_v fa, fb;           /* the first candidate's pair */
} pyr_ls_best;

PYR_LS_TARGET static PYR_INLINE void pyr_ls_offer(pyr_ls_best *bs, __mmask16 l, pyr_ls_v merit,
                                                  pyr_ls_v *o, pyr_ls_v cm, pyr_ls_v co,
                                                  pyr_ls_v a, pyr_ls_v b, pyr_ls_v r)
{
    __mmask16 ok = l & (_mm512_cmplt_epi32_mask(merit, cm)
                        | (_mm512_cmpeq_epi32_mask(merit, cm) & _mm512_cmpgt_epi32_mask(*o, co)));
    __mmask16 better = ok & _mm512_cmpgt_epi32_mask(merit, bs->m);
    __mmask16 first = l & _mm512_cmpeq_epi32_mask(*o, _mm512_setzero_si512());
    bs->m = _mm512_mask_mov_epi32(bs->m, better, merit);
    bs->o = _mm512_mask_mov_epi32(bs->o, better, *o);
    bs->a = _mm512_mask_mov_epi32(bs->a, better, a);
    bs->b = _mm512_mask_mov_epi32(bs->b, better, b);
    bs->r = _mm512_mask_mov_epi32(bs->r, better, r);
    bs->fa = _mm512_mask_mov_epi32(bs->fa, first, a);
    bs->fb = _mm512_mask_mov_epi32(bs->fb, first, b);
    *o = _mm512_mask_add_epi32(*o, l, *o, PYR_LS_1(1));
}

/* _greedy_merit_free of a pyramid card a with a talon card: 100 + SUPPORT[a] + 30 for each
 * card it frees */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_merit1(const pyr_ls_gtab *gt, pyr_ls_v f1,
                                                       pyr_ls_v f2, pyr_ls_v a)
{
    const pyr_ls_v one = PYR_LS_1(1);
    pyr_ls_v fr = _mm512_add_epi32(_mm512_and_si512(_mm512_srlv_epi32(f1, a), one),
                                   _mm512_and_si512(_mm512_srlv_epi32(f2, a), one));
    pyr_ls_v sup = _mm512_permutex2var_epi32(gt->sup0, a, gt->sup1);
    return _mm512_add_epi32(_mm512_add_epi32(sup, PYR_LS_1(100)), _mm512_mullo_epi32(fr, PYR_LS_1(30)));
}

/* ... and of two pyramid cards a < b: both cards' merits, and 30 more for the card above two
 * row neighbours */
PYR_LS_TARGET static PYR_INLINE pyr_ls_v pyr_ls_merit2(const pyr_ls_gtab *gt, pyr_ls_v f1,
                                                       pyr_ls_v f2, pyr_ls_v a, pyr_ls_v b)
{
    const pyr_ls_v one = PYR_LS_1(1);
    __mmask16 adj = _mm512_cmpeq_epi32_mask(b, _mm512_add_epi32(a, one))
                    & _mm512_test_epi32_mask(_mm512_srlv_epi32(PYR_LS_1((int)pyr_ls_hasr), a), one);
    pyr_ls_v m = _mm512_add_epi32(pyr_ls_merit1(gt, f1, f2, a), pyr_ls_merit1(gt, f1, f2, b));
    return _mm512_mask_add_epi32(m, adj, m, PYR_LS_1(30));
}

/* The partners y of one talon card (location loc) in lanes l, each offered as (y, loc) */
PYR_LS_TARGET static PYR_INLINE void pyr_ls_offer_partners(const pyr_ls_gtab *gt, pyr_ls_best *bs,
                                                           __mmask16 l, pyr_ls_v y, pyr_ls_v loc,
                                                           pyr_ls_v f1, pyr_ls_v f2, pyr_ls_v *o,
                                                           pyr_ls_v cm, pyr_ls_v co, pyr_ls_v r)
{
    const pyr_ls_v one = PYR_LS_1(1);
    y = _mm512_maskz_mov_epi32(l, y);
    while ((l = _mm512_test_epi32_mask(y, y))) {
        pyr_ls_v a = pyr_ls_ctz(y);
        pyr_ls_offer(bs, l, pyr_ls_merit1(gt, f1, f2, a), o, cm, co, a, loc, r);
        y = _mm512_and_si512(y, _mm512_sub_epi32(y, one));
    }
}

/* What the candidate lists are made of. The talon cards in play: under draw 1 the waste top
 * w and the stock top t (stock_top_playable), under draw 3 (draw3) the waste piles' tops. */
typedef struct {
    const pyr_ls_gtab *gt;
    const pyr_ls_v *PR, *TR;
    const pyr_ls_tops *p3;
    pyr_ls_v pyr, fre, talon, f1, f2, w, t, rw, rt;
    __mmask16 wuse, tuse, wt;
    int r_pairs[7];            /* ranks 1..6 with a pyramid pair in some lane */
    int win_all, draw3;
} pyr_ls_cands;

/* The candidates of lanes l0 (the pyramid pairs) and l1 (the talon cards' pairs), in
 * gen_moves order, offered to *bs with the ceiling (cm, co) */

PYR_LS_TARGET static PYR_INLINE void pyr_ls_list(const pyr_ls_cands *c, __mmask16 l0, __mmask16 l1,
                                                 pyr_ls_best *bs, pyr_ls_v cm, pyr_ls_v co)
{
    const pyr_ls_v one = PYR_LS_1(1), p28 = PYR_LS_1(28);
    pyr_ls_v o = _mm512_setzero_si512();
    int r;
    __mmask16 l = l0;
    bs->m = PYR_LS_1(-1);
    if (l0) {
        for (r = 1; r <= 6; r++) {
            pyr_ls_v x, y0;
            __mmask16 lx;
            if (!c->r_pairs[r])
                continue;
            x = _mm512_maskz_and_epi32(l, c->fre, c->PR[r]);
            y0 = _mm512_and_si512(c->fre, c->PR[13 - r]);
            /* lanes without a card of rank 13 - r list nothing for rank r */
            x = _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(y0, y0), x);
            while ((lx = _mm512_test_epi32_mask(x, x))) {
                pyr_ls_v a = pyr_ls_ctz(x), y = _mm512_maskz_mov_epi32(lx, y0);
                __mmask16 ly;
                while ((ly = _mm512_test_epi32_mask(y, y))) {
                    pyr_ls_v b = pyr_ls_ctz(y);
                    pyr_ls_v lo = _mm512_min_epi32(a, b), hi = _mm512_max_epi32(a, b);
                    pyr_ls_offer(bs, ly, pyr_ls_merit2(c->gt, c->f1, c->f2, lo, hi), &o, cm, co, lo, hi, PYR_LS_1(r));
                    y = _mm512_and_si512(y, _mm512_sub_epi32(y, one));
                }
                x = _mm512_and_si512(x, _mm512_sub_epi32(x, one));
            }
        }
    }
    l = l1;
    if (l1 && c->draw3) {
        /* each pile top in order: its pyramid partners, then its pairs with the later tops */
        const pyr_ls_tops *p = c->p3;
        int i, j;
        for (i = 0; i < 3; i++) {
            pyr_ls_v loc = _mm512_add_epi32(p->tp[i], p28), q = _mm512_sub_epi32(PYR_LS_1(13), p->tr[i]);
            __mmask16 li = l & p->th[i];
            if (!li)
                continue;
            pyr_ls_offer_partners(c->gt, bs, li, _mm512_and_si512(c->fre, pyr_ls_pick(c->PR, q)), loc,
                                  c->f1, c->f2, &o, cm, co, q);
            for (j = i + 1; j < 3; j++)
                pyr_ls_offer(bs, li & p->th[j] & _mm512_cmpeq_epi32_mask(p->tr[j], q),
                             _mm512_setzero_si512(), &o, cm, co, loc,
                             _mm512_add_epi32(p->tp[j], p28), p->tr[i]);
        }
    } else if (l1) {
        pyr_ls_v wl = _mm512_add_epi32(c->w, p28), tl = _mm512_add_epi32(c->t, p28);
        pyr_ls_v y = _mm512_maskz_and_epi32(l & c->wuse, c->fre, pyr_ls_pick(c->PR, _mm512_sub_epi32(PYR_LS_1(13), c->rw)));
        pyr_ls_offer_partners(c->gt, bs, l & c->wuse, y, wl, c->f1, c->f2, &o, cm, co, _mm512_sub_epi32(PYR_LS_1(13), c->rw));
        pyr_ls_offer(bs, l & c->wt, _mm512_setzero_si512(), &o, cm, co, wl, tl, c->rw);
        y = _mm512_maskz_and_epi32(l & c->tuse, c->fre, pyr_ls_pick(c->PR, _mm512_sub_epi32(PYR_LS_1(13), c->rt)));
        pyr_ls_offer_partners(c->gt, bs, l & c->tuse, y, tl, c->f1, c->f2, &o, cm, co, _mm512_sub_epi32(PYR_LS_1(13), c->rt));
    }
}

/* The pair for lanes np (with pyramid pairs: those first) and nt (talon cards' pairs, the
 * only ones where np is not set): found (returned) or, when every pair is vetoed, the first
 * pyramid pair (else the first talon pair). Both lists share each round of enumeration and
 * veto; a lane whose pyramid pairs are all vetoed goes on with its talon pairs. */
PYR_LS_TARGET static PYR_INLINE __mmask16 pyr_ls_choose(const pyr_ls_cands *c, __mmask16 np,
                                                        __mmask16 nt, pyr_ls_v *a, pyr_ls_v *b)
{
    const pyr_ls_v top = PYR_LS_1(0x7FFFFFFF), none = PYR_LS_1(-1);
    pyr_ls_best bs;
    pyr_ls_v cm = top, co = none;
    __mmask16 found = 0, l0 = np, l1 = nt & ~np, fresh = l0 | l1;
    bs.fa = bs.fb = bs.a = bs.b = bs.o = PYR_LS_1(63);
    bs.r = PYR_LS_1(1);
    while (l0 | l1) {
        __mmask16 v, some, sw;
        pyr_ls_list(c, l0, l1, &bs, cm, co);
        if (fresh) {
            *a = _mm512_mask_mov_epi32(*a, fresh, bs.fa);   /* all vetoed: the first pair */
            *b = _mm512_mask_mov_epi32(*b, fresh, bs.fb);
            fresh = 0;
        }
        some = (l0 | l1) & _mm512_cmpge_epi32_mask(bs.m, _mm512_setzero_si512());
        sw = l0 & ~some & nt;
        v = c->win_all ? 0 : pyr_ls_veto(c->gt, c->PR, c->TR,
                                         some, bs.a, bs.b, bs.r, c->pyr, c->talon);
        found |= some & ~v;
        *a = _mm512_mask_mov_epi32(*a, some & ~v, bs.a);
        *b = _mm512_mask_mov_epi32(*b, some & ~v, bs.b);
        l0 &= v;
        l1 = (l1 & v) | sw;
        cm = _mm512_mask_mov_epi32(bs.m, sw, top);
        co = _mm512_mask_mov_epi32(bs.o, sw, none);
    }
    return found;
}

/* Games 0 .. cnt-1 as pyr_ls_random_draw1's, under the greedy policy: draw 1 (as
 * _greedy_draw1) or draw 3 (draw3, as _greedy_draw3: the waste piles' tops in play, tnext_off
 * then the offset of the records' t3 word). */
PYR_LS_TARGET static PYR_INLINE void pyr_ls_greedy(int draw3, int stp, int redeals,
                                                   int waste_at_deal, int win_all,
                                                   const char *base, size_t stride,
                                                   size_t prank_off, size_t trank_off,
                                                   size_t tnext_off, int cnt, uint8_t *won,
                                                   uint8_t *removed, uint16_t *moves_out,
                                                   uint16_t *score)
{
    const pyr_ls_v one = PYR_LS_1(1), zero = _mm512_setzero_si512();
    const pyr_ls_v lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const pyr_ls_v rec = _mm512_mullo_epi32(lane, PYR_LS_1((int)stride));
    const pyr_ls_v hasl = PYR_LS_1((int)pyr_ls_hasl), hasr = PYR_LS_1((int)pyr_ls_hasr);
    const int unl = redeals == 255;
    const pyr_ls_v nredeals = PYR_LS_1(redeals);
    pyr_ls_v PR[14], TR[14], TN, TB[4];
    pyr_ls_v pyr = PYR_LS_1(0x0FFFFFFF), fre = PYR_LS_1(0x0FE00000), talon = PYR_LS_1(0xFFFFFF);
    pyr_ls_v cur = PYR_LS_1(waste_at_deal), moves = zero, recycles = zero, prem = zero;
    __mmask16 act = cnt >= 16 ? 0xFFFF : (__mmask16)((1u << cnt) - 1), vetoed = 0;
    pyr_ls_tops p3;
    pyr_ls_geo g;
    pyr_ls_gtab gt;
    pyr_ls_cands c;
    int r;
    gt.bad0 = _mm512_loadu_si512((const void *)pyr_ls_bad);
    gt.bad1 = _mm512_loadu_si512((const void *)(pyr_ls_bad + 16));
    gt.sup0 = _mm512_loadu_si512((const void *)pyr_ls_sup);
    gt.sup1 = _mm512_loadu_si512((const void *)(pyr_ls_sup + 16));
    pyr_ls_load(&g, PR, TR, &TN, TB, rec, base, prank_off, trank_off, tnext_off);
    c.gt = &gt;
    c.PR = PR;
    c.TR = TR;
    c.win_all = win_all;
    c.draw3 = draw3;
    c.p3 = &p3;
    pyr_ls_piles(&p3, waste_at_deal);
    if (draw3)
        stp = 0;
    while (1) {
        pyr_ls_view v;
        pyr_ls_v a, b;
        __mmask16 pp, kp, skip, tk, dl, wnz, canrec, np, nt, found, inplay;
        __mmask16 stuck, hasbest, fdraw, frec, take, endl, rc, rem, dr;
        act &= _mm512_test_epi32_mask(pyr, pyr)
               | (win_all ? _mm512_test_epi32_mask(talon, talon) : 0);
        if (!act)
            break;
        pyr_ls_look(&v, stp, act, PR, TR, fre, talon, cur, TB);
        pp = 0;
        for (r = 1; r <= 6; r++) {
            __mmask16 h = _mm512_test_epi32_mask(v.fc[r], v.fc[r])
                          & _mm512_test_epi32_mask(v.fc[13 - r], v.fc[13 - r]);
            c.r_pairs[r] = (h & act) != 0;
            pp |= h;
        }
        kp = act & _mm512_test_epi32_mask(v.kings, v.kings);   /* a free pyramid King: at once */
        if (draw3) {
            pyr_ls_look3(&p3, &v, talon, TB);
            inplay = p3.inplay;
        } else {
            inplay = v.wuse | v.tuse | v.wt;
        }
        /* nothing in play and no pyramid pair worth a look: draw on */
        skip = act & ~kp & ~inplay & (~pp | vetoed) & v.stnz;
        if (skip && draw3)
            pyr_ls_draws3(skip, waste_at_deal, talon, v.useful, TN, &moves, &cur);
        else if (skip)
            pyr_ls_draws(stp, skip, v.st, v.t, v.useful, TN, &moves, &cur);
        /* Kings: a free pyramid King (lowest position), else a talon King in play (draw 1:
         * the waste top first; draw 3: the lowest pile top) */
        a = b = PYR_LS_1(63);
        a = _mm512_mask_mov_epi32(a, kp, pyr_ls_ctz(v.kings));
        if (draw3) {
            pyr_ls_v x = _mm512_and_si512(p3.tops, TR[13]);
            tk = act & ~kp & ~skip & _mm512_test_epi32_mask(x, x);
            a = _mm512_mask_add_epi32(a, tk, pyr_ls_ctz(x), PYR_LS_1(28));
        } else {
            tk = act & ~kp & ~skip & v.wuse & _mm512_test_epi32_mask(_mm512_srlv_epi32(TR[13], v.w), one);
            a = _mm512_mask_add_epi32(a, tk, v.w, PYR_LS_1(28));
            dl = act & ~kp & ~skip & ~tk & v.tuse & _mm512_test_epi32_mask(_mm512_srlv_epi32(TR[13], v.t), one);
            a = _mm512_mask_add_epi32(a, dl, v.t, PYR_LS_1(28));
            tk |= dl;
        }
        /* the other lanes decide among the pairs: the pyramid pairs first (their merit, 200
         * or more, beats any pair with a talon card); the talon cards' pairs when there is no
         * pyramid pair or every one is vetoed */
        dl = act & ~kp & ~skip & ~tk;
        wnz = _mm512_test_epi32_mask(talon, v.bc);
        canrec = unl ? (__mmask16)0xFFFF : _mm512_cmplt_epi32_mask(recycles, nredeals);
        found = 0;
        hasbest = 0;
        if (dl) {
            c.pyr = pyr;
            c.fre = fre;
            c.talon = talon;
            c.f1 = _mm512_andnot_si512(_mm512_slli_epi32(pyr, 1), hasl);
            c.f2 = _mm512_andnot_si512(_mm512_srli_epi32(pyr, 1), hasr);
            c.w = v.w;
            c.t = v.t;
            c.rw = v.rw0;
            c.rt = v.rt0;
            c.wuse = v.wuse;
            c.tuse = v.tuse;
            c.wt = v.wt;
            np = dl & pp;
            nt = dl & inplay;
            found = pyr_ls_choose(&c, np, nt, &a, &b);
            hasbest = np | nt;
        }
        /* the fallback when no pair scores 0 or more: draw, else recycle, else nothing; a
         * vetoed pair is played when there is no fallback, or at the end of a pass that
         * removed nothing under unlimited redeals (stuck) */
        stuck = unl ? _mm512_cmpeq_epi32_mask(prem, zero) : 0;
        fdraw = dl & ~found & v.stnz;
        frec = dl & ~found & ~v.stnz & wnz & canrec;
        take = (dl & found) | (hasbest & ~fdraw & (~frec | stuck));
        endl = dl & ~take & ~fdraw & ~frec;            /* no move at all */
        endl |= dl & ~take & frec & stuck;             /* unlimited: the pass removed nothing */
        act &= ~endl;
        dr = dl & ~take & fdraw;
        rc = dl & ~take & ~endl & frec;
        vetoed = (vetoed & ~(kp | tk | take)) | dr | rc;
        if (draw3)
            cur = pyr_ls_draw3(dr, cur);
        else
            cur = _mm512_mask_add_epi32(cur, dr, v.t, one);
        cur = _mm512_mask_mov_epi32(cur, rc, zero);
        if (!unl)
            recycles = _mm512_mask_add_epi32(recycles, rc, recycles, one);
        prem = _mm512_mask_mov_epi32(prem, rc, zero);
        rem = kp | tk | take;
        moves = _mm512_mask_add_epi32(moves, rem | dr | rc, moves, one);
        prem = _mm512_mask_add_epi32(prem, rem, prem, one);
        pyr_ls_remove(&g, !draw3, rem, a, b, &pyr, &fre, &talon, &cur);
    }
    pyr_ls_rows(pyr, talon, moves, win_all, cnt, won, removed, moves_out, score);
}

PYR_LS_TARGET
static void pyr_ls_greedy_draw1(int stp, int redeals, int waste_at_deal, int win_all,
                                const char *base, size_t stride,
                                size_t prank_off, size_t trank_off, size_t tnext_off, int cnt,
                                uint8_t *won, uint8_t *removed, uint16_t *moves_out,
                                uint16_t *score)
{
    pyr_ls_greedy(0, stp, redeals, waste_at_deal, win_all, base, stride, prank_off, trank_off,
                  tnext_off, cnt, won, removed, moves_out, score);
}

PYR_LS_TARGET
static void pyr_ls_greedy_draw3(int redeals, int waste_at_deal, int win_all,
                                const char *base, size_t stride,
                                size_t prank_off, size_t trank_off, size_t t3_off, int cnt,
                                uint8_t *won, uint8_t *removed, uint16_t *moves_out,
                                uint16_t *score)
{
    pyr_ls_greedy(1, 0, redeals, waste_at_deal, win_all, base, stride, prank_off, trank_off,
                  t3_off, cnt, won, removed, moves_out, score);
}

/* The batch's entry: games 0 .. cnt-1 (cnt <= 16) of deals[0 .. cnt-1] (their prank,
 * trank and talon mask: tnext under draw 1, t3 under draw 3) under `rules`, with the greedy
 * or the random policy (game k's generator in rng[k]); their rows into
 * won/removed/moves/score[0 .. cnt-1]. cap: the random policy's bound on moves under
 * unlimited redeals (SIM_MOVE_CAP; greedy needs none). */
static void pyr_ls_play(int greedy, const pyr_rules *rules, int cap, const pyr_sim_deal *deals,
                        const uint64_t *rng, int cnt, uint8_t *won, uint8_t *removed,
                        uint16_t *moves, uint16_t *score)
{
    const char *base = (const char *)deals;
    const size_t stride = sizeof(pyr_sim_deal), prank_off = offsetof(pyr_sim_deal, prank),
                 trank_off = offsetof(pyr_sim_deal, trank),
                 talon_off = rules->draw == 3 ? offsetof(pyr_sim_deal, t3)
                                              : offsetof(pyr_sim_deal, tnext);
    const int stp = rules->stock_top_playable, redeals = rules->redeals,
              waste_at_deal = rules->waste_at_deal, win_all = rules->win_all;
    if (greedy && rules->draw == 3)
        pyr_ls_greedy_draw3(redeals, waste_at_deal, win_all, base, stride, prank_off, trank_off,
                            talon_off, cnt, won, removed, moves, score);
    else if (greedy)
        pyr_ls_greedy_draw1(stp, redeals, waste_at_deal, win_all, base, stride, prank_off,
                            trank_off, talon_off, cnt, won, removed, moves, score);
    else if (rules->draw == 3)
        pyr_ls_random_draw3(redeals, cap, waste_at_deal, win_all, base, stride, prank_off,
                            trank_off, talon_off, rng, cnt, won, removed, moves, score);
    else
        pyr_ls_random_draw1(stp, redeals, cap, waste_at_deal, win_all, base, stride, prank_off,
                            trank_off, talon_off, rng, cnt, won, removed, moves, score);
}
#undef PYR_LS_1
#endif

/* Whether the lockstep playouts run (the AVX-512 set-up is in use). */
static PYR_INLINE int pyr_ls_on(void)
{
#ifdef PYR_SIM_AVX512
    return pyr_sim_avx512;
#else
    return 0;
#endif
}

#ifndef PYR_SIM_AVX512
/* Never called without AVX-512 (pyr_ls_on() is 0); declared so that the caller compiles. */
static PYR_INLINE void pyr_ls_init(void) {}
static PYR_INLINE void pyr_ls_init_greedy(const uint32_t *bad, const uint8_t *support,
                                          uint32_t has_left, uint32_t has_right)
{
    (void)bad; (void)support; (void)has_left; (void)has_right;
}
static PYR_INLINE void pyr_ls_play(int greedy, const pyr_rules *rules, int cap,
                                   const pyr_sim_deal *deals, const uint64_t *rng, int cnt,
                                   uint8_t *won, uint8_t *removed, uint16_t *moves,
                                   uint16_t *score)
{
    (void)greedy; (void)rules; (void)cap; (void)deals; (void)rng; (void)cnt; (void)won;
    (void)removed; (void)moves; (void)score;
}
#endif
#endif
