/* The small vector layer the lockstep playouts are written on (pyr_sim_lockstep.h): lanes of
 * 32-bit unsigned integers (pv), a mask of lanes (pm), and the few operations the playouts
 * use, so that one text of a policy serves every backend. Masks combine with C's &, | and ~
 * and are tested with pm_any. Masked forms follow one rule: lanes outside the mask keep
 * `src` (the _mask_ forms) or become 0 (the _maskz_ forms).
 *
 * Backend: AVX-512 (F, DQ, BW, VL, VPOPCNTDQ, CD): sixteen lanes, masks in k registers. */
#ifndef PYR_VEC_H
#define PYR_VEC_H
#include <stdint.h>

#ifdef PYR_SIM_AVX512
#include <immintrin.h>
#define PV_TARGET __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx512vpopcntdq,avx512cd")))
#define PV_LANES 16
typedef __m512i pv;
typedef __mmask16 pm;
#define PM_ALL ((pm)0xFFFF)

#define PV_FN PV_TARGET static inline __attribute__((always_inline))
PV_FN pv v1(int x) { return _mm512_set1_epi32(x); }
PV_FN pv vzero(void) { return _mm512_setzero_si512(); }
PV_FN pv vload(const uint32_t *p) { return _mm512_loadu_si512((const void *)p); }
PV_FN void vstore(uint32_t *p, pv a) { _mm512_storeu_si512((void *)p, a); }
PV_FN pv vlanes(void) { return _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }
/* lane k: the 32-bit word at base + off[k] */
PV_FN pv vgather(const void *base, pv off) { return _mm512_i32gather_epi32(off, base, 1); }

PV_FN pv vadd(pv a, pv b) { return _mm512_add_epi32(a, b); }
PV_FN pv vsub(pv a, pv b) { return _mm512_sub_epi32(a, b); }
PV_FN pv vmul(pv a, pv b) { return _mm512_mullo_epi32(a, b); }
PV_FN pv vand(pv a, pv b) { return _mm512_and_si512(a, b); }
PV_FN pv vor(pv a, pv b) { return _mm512_or_si512(a, b); }
PV_FN pv vxor(pv a, pv b) { return _mm512_xor_si512(a, b); }
PV_FN pv vandnot(pv a, pv b) { return _mm512_andnot_si512(a, b); }     /* ~a & b */
PV_FN pv vsllv(pv a, pv n) { return _mm512_sllv_epi32(a, n); }
PV_FN pv vsrlv(pv a, pv n) { return _mm512_srlv_epi32(a, n); }
#define vslli(a, k) _mm512_slli_epi32((a), (k))
#define vsrli(a, k) _mm512_srli_epi32((a), (k))
PV_FN pv vminu(pv a, pv b) { return _mm512_min_epu32(a, b); }
PV_FN pv vmin(pv a, pv b) { return _mm512_min_epi32(a, b); }
PV_FN pv vmax(pv a, pv b) { return _mm512_max_epi32(a, b); }
PV_FN pv vpopcnt(pv a) { return _mm512_popcnt_epi32(a); }
PV_FN pv vlzcnt(pv a) { return _mm512_lzcnt_epi32(a); }

PV_FN pm veq(pv a, pv b) { return _mm512_cmpeq_epi32_mask(a, b); }
PV_FN pm vne(pv a, pv b) { return _mm512_cmpneq_epi32_mask(a, b); }
PV_FN pm vlt(pv a, pv b) { return _mm512_cmplt_epi32_mask(a, b); }
PV_FN pm vgt(pv a, pv b) { return _mm512_cmpgt_epi32_mask(a, b); }
PV_FN pm vge(pv a, pv b) { return _mm512_cmpge_epi32_mask(a, b); }
PV_FN pm vle(pv a, pv b) { return _mm512_cmple_epi32_mask(a, b); }
PV_FN pm vltu(pv a, pv b) { return _mm512_cmplt_epu32_mask(a, b); }
PV_FN pm vtest(pv a, pv b) { return _mm512_test_epi32_mask(a, b); }    /* a & b != 0 */
PV_FN pm vtestn(pv a, pv b) { return _mm512_testn_epi32_mask(a, b); }  /* a & b == 0 */
PV_FN int pm_any(pm m) { return m != 0; }
PV_FN pm pm_first(int n) { return n >= 16 ? PM_ALL : (pm)((1u << n) - 1); }   /* lanes < n */
PV_FN int pm_lane(pm m, int i) { return (m >> i) & 1; }

PV_FN pv vsel(pm m, pv a, pv src) { return _mm512_mask_mov_epi32(src, m, a); }  /* m ? a : src */
PV_FN pv vmaskz(pm m, pv a) { return _mm512_maskz_mov_epi32(m, a); }
PV_FN pv vmask_add(pv src, pm m, pv a, pv b) { return _mm512_mask_add_epi32(src, m, a, b); }
PV_FN pv vmask_sub(pv src, pm m, pv a, pv b) { return _mm512_mask_sub_epi32(src, m, a, b); }
PV_FN pv vmask_and(pv src, pm m, pv a, pv b) { return _mm512_mask_and_epi32(src, m, a, b); }
PV_FN pv vmask_or(pv src, pm m, pv a, pv b) { return _mm512_mask_or_epi32(src, m, a, b); }
PV_FN pv vmask_andnot(pv src, pm m, pv a, pv b) { return _mm512_mask_andnot_epi32(src, m, a, b); }
PV_FN pv vmask_min(pv src, pm m, pv a, pv b) { return _mm512_mask_min_epi32(src, m, a, b); }
PV_FN pv vmaskz_and(pm m, pv a, pv b) { return _mm512_maskz_and_epi32(m, a, b); }
PV_FN pv vmaskz_add(pm m, pv a, pv b) { return _mm512_maskz_add_epi32(m, a, b); }

/* A 32-entry table of 32-bit words, looked up per lane (indices 0..31) */
typedef struct { pv lo, hi; } pv_tab32;
PV_FN pv_tab32 vtab32(const uint32_t *t) { pv_tab32 r = {vload(t), vload(t + 16)}; return r; }
PV_FN pv vlook32(const pv_tab32 *t, pv i) { return _mm512_permutex2var_epi32(t->lo, i, t->hi); }
/* A 16-entry table (indices 0..15) */
PV_FN pv vlook16(pv t, pv i) { return _mm512_permutexvar_epi32(i, t); }

/* Each lane's SplitMix64 generator: lanes 0..7 in s[0], 8..15 in s[1] */
typedef struct { pv s[2]; } pv_rng;
PV_FN void vrng_load(pv_rng *g, const uint64_t *state)
{
    g->s[0] = _mm512_loadu_si512((const void *)state);
    g->s[1] = _mm512_loadu_si512((const void *)(state + 8));
}
PV_FN void vrng_store(const pv_rng *g, uint64_t *state)
{
    _mm512_storeu_si512((void *)state, g->s[0]);
    _mm512_storeu_si512((void *)(state + 8), g->s[1]);
}
PV_FN pv vrng_mix(pv z, uint64_t m1, uint64_t m2)
{
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)), _mm512_set1_epi64((long long)m1));
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)), _mm512_set1_epi64((long long)m2));
    return _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
}
/* In the lanes `need`: advance the generator by gamma and draw (z >> 32) * n; the high words
 * (the draw) into *k and the low words into *lo, lanes 0..15. */
PV_FN void vrng_draw(pv_rng *g, pm need, pv n, uint64_t gamma, uint64_t m1, uint64_t m2,
                     pv *k, pv *lo)
{
    const pv golden = _mm512_set1_epi64((long long)gamma);
    pv z0, z1, p0, p1;
    g->s[0] = _mm512_mask_add_epi64(g->s[0], (__mmask8)need, g->s[0], golden);
    g->s[1] = _mm512_mask_add_epi64(g->s[1], (__mmask8)(need >> 8), g->s[1], golden);
    z0 = vrng_mix(g->s[0], m1, m2);
    z1 = vrng_mix(g->s[1], m1, m2);
    p0 = _mm512_mul_epu32(_mm512_srli_epi64(z0, 32), _mm512_cvtepu32_epi64(_mm512_castsi512_si256(n)));
    p1 = _mm512_mul_epu32(_mm512_srli_epi64(z1, 32), _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(n, 1)));
    *k = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(_mm512_srli_epi64(p0, 32))),
                            _mm512_cvtepi64_epi32(_mm512_srli_epi64(p1, 32)), 1);
    *lo = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(p0)),
                             _mm512_cvtepi64_epi32(p1), 1);
}
#endif
#endif
