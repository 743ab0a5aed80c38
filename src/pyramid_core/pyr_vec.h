/* The small vector layer the lockstep playouts are written on (pyr_sim_lockstep.h): lanes of
 * 32-bit unsigned integers (pv), a mask of lanes (pm, which combines with C's &, | and ~ and
 * is tested with pm_any; PM_NONE and PM_ALL are the empty and the full one), and the few
 * operations the playouts use, so that one text of a policy serves every backend. Masked
 * forms follow one rule: lanes outside the mask keep `src` (the _mask_ forms) or become 0
 * (the _maskz_ forms).
 *
 * Backends (chosen at run time by the caller):
 *  - pv512_: AVX-512 (F, DQ, BW, VL, VPOPCNTDQ, CD), sixteen lanes, masks in k registers
 *    (__mmask16: a stored ~m keeps no bits beyond the lanes); on x86-64 with GCC or Clang;
 *  - pv1_: one lane of plain C, compiled everywhere (a lane a uint32_t, a mask 0 or all
 *    ones; the tables plain array reads, as are the 14-entry picks of
 *    pyr_sim_lockstep_body.h's LS(pick) on one lane).
 * Tables of 16 (pv_tab16) and 32 (pv_tab32) words looked up per lane are types of their own:
 * registers on the vector backends, a pointer on one lane.
 * The generic names (v1, vadd, ..., pv, pm) stand for the backend PV_PREFIX names: define it
 * (pv512_ or pv1_) before the code that uses them. */
#ifndef PYR_VEC_H
#define PYR_VEC_H
#include <stdint.h>
#include "pyr_bitops.h"
#include "pyr_cpu.h"           /* PYR_CPU_X86_DISPATCH: the x86 backends can be compiled */
#ifdef PYR_CPU_X86_DISPATCH
#include <immintrin.h>
#endif

#define PV_CAT_(a, b) a##b
#define PV_CAT(a, b) PV_CAT_(a, b)
#define PV_NAME(x) PV_CAT(PV_PREFIX, x)

#ifdef PYR_CPU_X86_DISPATCH
/* ---- AVX-512 -------------------------------------------------------------------------- */
#define pv512_TARGET __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx512vpopcntdq,avx512cd")))
#define pv512_LANES 16
#define pv512_ALL ((pv512_m)0xFFFF)
typedef __m512i pv512_v;
typedef __mmask16 pv512_m;
#define PV512 pv512_TARGET static inline __attribute__((always_inline))
PV512 pv512_v pv512_1(int x) { return _mm512_set1_epi32(x); }
PV512 pv512_v pv512_zero(void) { return _mm512_setzero_si512(); }
PV512 pv512_v pv512_load(const uint32_t *p) { return _mm512_loadu_si512((const void *)p); }
PV512 void pv512_store(uint32_t *p, pv512_v a) { _mm512_storeu_si512((void *)p, a); }
PV512 pv512_v pv512_lanes(void) { return _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }
PV512 pv512_v pv512_gather(const void *base, pv512_v off) { return _mm512_i32gather_epi32(off, base, 1); }
PV512 pv512_v pv512_add(pv512_v a, pv512_v b) { return _mm512_add_epi32(a, b); }
PV512 pv512_v pv512_sub(pv512_v a, pv512_v b) { return _mm512_sub_epi32(a, b); }
PV512 pv512_v pv512_mul(pv512_v a, pv512_v b) { return _mm512_mullo_epi32(a, b); }
PV512 pv512_v pv512_and(pv512_v a, pv512_v b) { return _mm512_and_si512(a, b); }
PV512 pv512_v pv512_or(pv512_v a, pv512_v b) { return _mm512_or_si512(a, b); }
PV512 pv512_v pv512_xor(pv512_v a, pv512_v b) { return _mm512_xor_si512(a, b); }
PV512 pv512_v pv512_andnot(pv512_v a, pv512_v b) { return _mm512_andnot_si512(a, b); }
PV512 pv512_v pv512_sllv(pv512_v a, pv512_v n) { return _mm512_sllv_epi32(a, n); }
PV512 pv512_v pv512_srlv(pv512_v a, pv512_v n) { return _mm512_srlv_epi32(a, n); }
#define pv512_slli(a, k) _mm512_slli_epi32((a), (k))
#define pv512_srli(a, k) _mm512_srli_epi32((a), (k))
PV512 pv512_v pv512_min(pv512_v a, pv512_v b) { return _mm512_min_epi32(a, b); }
PV512 pv512_v pv512_max(pv512_v a, pv512_v b) { return _mm512_max_epi32(a, b); }
PV512 pv512_v pv512_popcnt(pv512_v a) { return _mm512_popcnt_epi32(a); }
PV512 pv512_v pv512_lzcnt(pv512_v a) { return _mm512_lzcnt_epi32(a); }
PV512 pv512_m pv512_eq(pv512_v a, pv512_v b) { return _mm512_cmpeq_epi32_mask(a, b); }
PV512 pv512_m pv512_ne(pv512_v a, pv512_v b) { return _mm512_cmpneq_epi32_mask(a, b); }
PV512 pv512_m pv512_lt(pv512_v a, pv512_v b) { return _mm512_cmplt_epi32_mask(a, b); }
PV512 pv512_m pv512_gt(pv512_v a, pv512_v b) { return _mm512_cmpgt_epi32_mask(a, b); }
PV512 pv512_m pv512_ge(pv512_v a, pv512_v b) { return _mm512_cmpge_epi32_mask(a, b); }
PV512 pv512_m pv512_le(pv512_v a, pv512_v b) { return _mm512_cmple_epi32_mask(a, b); }
PV512 pv512_m pv512_ltu(pv512_v a, pv512_v b) { return _mm512_cmplt_epu32_mask(a, b); }
PV512 pv512_m pv512_test(pv512_v a, pv512_v b) { return _mm512_test_epi32_mask(a, b); }
PV512 pv512_m pv512_testn(pv512_v a, pv512_v b) { return _mm512_testn_epi32_mask(a, b); }
PV512 pv512_m pv512_bit(pv512_v x, pv512_v n) { return _mm512_test_epi32_mask(_mm512_srlv_epi32(x, n), _mm512_set1_epi32(1)); }
#define pv512_biti(x, k) _mm512_test_epi32_mask((x), _mm512_set1_epi32(1 << (k)))
PV512 pv512_v pv512_ctz(pv512_v x)     /* -1 for 0 */
{
    return _mm512_sub_epi32(_mm512_set1_epi32(31), _mm512_lzcnt_epi32(_mm512_and_si512(x, _mm512_sub_epi32(_mm512_setzero_si512(), x))));
}
PV512 pv512_m pv512_nz(pv512_v x) { return _mm512_test_epi32_mask(x, x); }
PV512 pv512_m pv512_z(pv512_v x) { return _mm512_testn_epi32_mask(x, x); }
#define pv512_NONE ((pv512_m)0)
PV512 int pv512_any(pv512_m m) { return m != 0; }
PV512 uint32_t pv512_bits(pv512_m m) { return m; }
PV512 pv512_m pv512_first(int n) { return n >= 16 ? pv512_ALL : (pv512_m)((1u << n) - 1); }
PV512 pv512_v pv512_sel(pv512_m m, pv512_v a, pv512_v src) { return _mm512_mask_mov_epi32(src, m, a); }
PV512 pv512_v pv512_maskz(pv512_m m, pv512_v a) { return _mm512_maskz_mov_epi32(m, a); }
PV512 pv512_v pv512_mask_add(pv512_v s, pv512_m m, pv512_v a, pv512_v b) { return _mm512_mask_add_epi32(s, m, a, b); }
PV512 pv512_v pv512_mask_sub(pv512_v s, pv512_m m, pv512_v a, pv512_v b) { return _mm512_mask_sub_epi32(s, m, a, b); }
PV512 pv512_v pv512_mask_and(pv512_v s, pv512_m m, pv512_v a, pv512_v b) { return _mm512_mask_and_epi32(s, m, a, b); }
PV512 pv512_v pv512_mask_or(pv512_v s, pv512_m m, pv512_v a, pv512_v b) { return _mm512_mask_or_epi32(s, m, a, b); }
PV512 pv512_v pv512_mask_andnot(pv512_v s, pv512_m m, pv512_v a, pv512_v b) { return _mm512_mask_andnot_epi32(s, m, a, b); }
PV512 pv512_v pv512_mask_min(pv512_v s, pv512_m m, pv512_v a, pv512_v b) { return _mm512_mask_min_epi32(s, m, a, b); }
PV512 pv512_v pv512_maskz_and(pv512_m m, pv512_v a, pv512_v b) { return _mm512_maskz_and_epi32(m, a, b); }
PV512 pv512_v pv512_maskz_add(pv512_m m, pv512_v a, pv512_v b) { return _mm512_maskz_add_epi32(m, a, b); }
typedef struct { pv512_v lo, hi; } pv512_tab32;          /* 32 words, looked up per lane */
PV512 pv512_tab32 pv512_tab(const uint32_t *t) { pv512_tab32 r = {pv512_load(t), pv512_load(t + 16)}; return r; }
PV512 pv512_v pv512_look32(const pv512_tab32 *t, pv512_v i) { return _mm512_permutex2var_epi32(t->lo, i, t->hi); }
typedef pv512_v pv512_tab16;
PV512 pv512_tab16 pv512_tab16_(const uint32_t *t) { return pv512_load(t); }
PV512 pv512_v pv512_look16(const pv512_tab16 *t, pv512_v i) { return _mm512_permutexvar_epi32(i, *t); }
/* the lanes' SplitMix64 generators: lanes 0..7 in s[0], 8..15 in s[1] */
typedef struct { __m512i s[2]; } pv512_rng;
PV512 void pv512_rng_load(pv512_rng *g, const uint64_t *st)
{
    g->s[0] = _mm512_loadu_si512((const void *)st);
    g->s[1] = _mm512_loadu_si512((const void *)(st + 8));
}
PV512 void pv512_rng_store(const pv512_rng *g, uint64_t *st)
{
    _mm512_storeu_si512((void *)st, g->s[0]);
    _mm512_storeu_si512((void *)(st + 8), g->s[1]);
}
PV512 __m512i pv512_mix(__m512i z, uint64_t m1, uint64_t m2)
{
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)), _mm512_set1_epi64((long long)m1));
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)), _mm512_set1_epi64((long long)m2));
    return _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
}
/* In the lanes `need`: step the generator by gamma and multiply its output's high word by
 * n: the products' high words into *k, their low words into *lo. */
PV512 void pv512_rng_draw(pv512_rng *g, pv512_m need, pv512_v n, uint64_t gamma, uint64_t m1,
                          uint64_t m2, pv512_v *k, pv512_v *lo)
{
    const __m512i golden = _mm512_set1_epi64((long long)gamma);
    __m512i z0, z1, p0, p1;
    g->s[0] = _mm512_mask_add_epi64(g->s[0], (__mmask8)need, g->s[0], golden);
    g->s[1] = _mm512_mask_add_epi64(g->s[1], (__mmask8)(need >> 8), g->s[1], golden);
    z0 = pv512_mix(g->s[0], m1, m2);
    z1 = pv512_mix(g->s[1], m1, m2);
    p0 = _mm512_mul_epu32(_mm512_srli_epi64(z0, 32), _mm512_cvtepu32_epi64(_mm512_castsi512_si256(n)));
    p1 = _mm512_mul_epu32(_mm512_srli_epi64(z1, 32), _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(n, 1)));
    *k = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(_mm512_srli_epi64(p0, 32))),
                            _mm512_cvtepi64_epi32(_mm512_srli_epi64(p1, 32)), 1);
    *lo = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(p0)),
                             _mm512_cvtepi64_epi32(p1), 1);
}
#endif

/* ---- one lane: plain C ---------------------------------------------------------------- */
#ifndef pv1_TARGET
#define pv1_TARGET
#endif
#define pv1_LANES 1
#define pv1_ALL (~0u)
#define pv1_NONE 0u
typedef uint32_t pv1_v;
typedef uint32_t pv1_m;             /* 0 or all ones */
#define PV1 pv1_TARGET PYR_FORCE_INLINE
#define PV1_M(c) ((pv1_m)0 - (pv1_m)((c) != 0))
PV1 pv1_v pv1_1(int x) { return (uint32_t)x; }
PV1 pv1_v pv1_zero(void) { return 0; }
PV1 pv1_v pv1_load(const uint32_t *p) { return *p; }
PV1 void pv1_store(uint32_t *p, pv1_v a) { *p = a; }
PV1 pv1_v pv1_lanes(void) { return 0; }
PV1 pv1_v pv1_gather(const void *base, pv1_v off) { return *(const uint32_t *)((const char *)base + off); }
PV1 pv1_v pv1_add(pv1_v a, pv1_v b) { return a + b; }
PV1 pv1_v pv1_sub(pv1_v a, pv1_v b) { return a - b; }
PV1 pv1_v pv1_mul(pv1_v a, pv1_v b) { return a * b; }
PV1 pv1_v pv1_and(pv1_v a, pv1_v b) { return a & b; }
PV1 pv1_v pv1_or(pv1_v a, pv1_v b) { return a | b; }
PV1 pv1_v pv1_xor(pv1_v a, pv1_v b) { return a ^ b; }
PV1 pv1_v pv1_andnot(pv1_v a, pv1_v b) { return ~a & b; }
PV1 pv1_v pv1_sllv(pv1_v a, pv1_v n) { return n < 32 ? a << n : 0; }
PV1 pv1_v pv1_srlv(pv1_v a, pv1_v n) { return n < 32 ? a >> n : 0; }
#define pv1_slli(a, k) ((pv1_v)(a) << (k))
#define pv1_srli(a, k) ((pv1_v)(a) >> (k))
PV1 pv1_v pv1_min(pv1_v a, pv1_v b) { return (int32_t)a < (int32_t)b ? a : b; }
PV1 pv1_v pv1_max(pv1_v a, pv1_v b) { return (int32_t)a > (int32_t)b ? a : b; }
PV1 pv1_v pv1_popcnt(pv1_v a) { return (uint32_t)pyr_popcount32(a); }
PV1 pv1_v pv1_lzcnt(pv1_v a) { return a ? 31 - (uint32_t)pyr_msb32(a) : 32; }
PV1 pv1_m pv1_eq(pv1_v a, pv1_v b) { return PV1_M(a == b); }
PV1 pv1_m pv1_ne(pv1_v a, pv1_v b) { return PV1_M(a != b); }
PV1 pv1_m pv1_lt(pv1_v a, pv1_v b) { return PV1_M((int32_t)a < (int32_t)b); }
PV1 pv1_m pv1_gt(pv1_v a, pv1_v b) { return PV1_M((int32_t)a > (int32_t)b); }
PV1 pv1_m pv1_ge(pv1_v a, pv1_v b) { return PV1_M((int32_t)a >= (int32_t)b); }
PV1 pv1_m pv1_le(pv1_v a, pv1_v b) { return PV1_M((int32_t)a <= (int32_t)b); }
PV1 pv1_m pv1_ltu(pv1_v a, pv1_v b) { return PV1_M(a < b); }
PV1 pv1_m pv1_test(pv1_v a, pv1_v b) { return PV1_M(a & b); }
PV1 pv1_m pv1_testn(pv1_v a, pv1_v b) { return PV1_M(!(a & b)); }
PV1 pv1_m pv1_bit(pv1_v x, pv1_v n) { return PV1_M(n < 32 && ((x >> n) & 1)); }
#define pv1_biti(x, k) PV1_M(((x) >> (k)) & 1)
PV1 pv1_v pv1_ctz(pv1_v x) { return x ? (uint32_t)pyr_ctz32(x) : (uint32_t)-1; }
PV1 pv1_m pv1_nz(pv1_v x) { return PV1_M(x); }
PV1 pv1_m pv1_z(pv1_v x) { return PV1_M(!x); }
PV1 int pv1_any(pv1_m m) { return m != 0; }
PV1 uint32_t pv1_bits(pv1_m m) { return m & 1; }
PV1 pv1_m pv1_first(int n) { return PV1_M(n > 0); }
PV1 pv1_v pv1_sel(pv1_m m, pv1_v a, pv1_v src) { return m ? a : src; }
PV1 pv1_v pv1_maskz(pv1_m m, pv1_v a) { return m ? a : 0; }
PV1 pv1_v pv1_mask_add(pv1_v s, pv1_m m, pv1_v a, pv1_v b) { return m ? a + b : s; }
PV1 pv1_v pv1_mask_sub(pv1_v s, pv1_m m, pv1_v a, pv1_v b) { return m ? a - b : s; }
PV1 pv1_v pv1_mask_and(pv1_v s, pv1_m m, pv1_v a, pv1_v b) { return m ? a & b : s; }
PV1 pv1_v pv1_mask_or(pv1_v s, pv1_m m, pv1_v a, pv1_v b) { return m ? a | b : s; }
PV1 pv1_v pv1_mask_andnot(pv1_v s, pv1_m m, pv1_v a, pv1_v b) { return m ? ~a & b : s; }
PV1 pv1_v pv1_mask_min(pv1_v s, pv1_m m, pv1_v a, pv1_v b) { return m ? pv1_min(a, b) : s; }
PV1 pv1_v pv1_maskz_and(pv1_m m, pv1_v a, pv1_v b) { return m ? a & b : 0; }
PV1 pv1_v pv1_maskz_add(pv1_m m, pv1_v a, pv1_v b) { return m ? a + b : 0; }
typedef struct { const uint32_t *p; } pv1_tab32;
PV1 pv1_tab32 pv1_tab(const uint32_t *t) { pv1_tab32 r = {t}; return r; }
PV1 pv1_v pv1_look32(const pv1_tab32 *t, pv1_v i) { return t->p[i & 31]; }
typedef const uint32_t *pv1_tab16;
PV1 pv1_tab16 pv1_tab16_(const uint32_t *t) { return t; }
PV1 pv1_v pv1_look16(const pv1_tab16 *t, pv1_v i) { return (*t)[i & 15]; }
typedef struct { uint64_t s[1]; } pv1_rng;
PV1 void pv1_rng_load(pv1_rng *g, const uint64_t *st) { g->s[0] = st[0]; }
PV1 void pv1_rng_store(const pv1_rng *g, uint64_t *st) { st[0] = g->s[0]; }
PV1 void pv1_rng_draw(pv1_rng *g, pv1_m need, pv1_v n, uint64_t gamma, uint64_t m1,
                      uint64_t m2, pv1_v *k, pv1_v *lo)
{
    uint64_t z, p;
    if (need)
        g->s[0] += gamma;
    z = g->s[0];
    z = (z ^ (z >> 30)) * m1;
    z = (z ^ (z >> 27)) * m2;
    z ^= z >> 31;
    p = (z >> 32) * (uint64_t)n;
    *k = (uint32_t)(p >> 32);
    *lo = (uint32_t)p;
}

/* ---- the generic names ---------------------------------------------------------------- */
#define pv PV_NAME(v)
#define pm PV_NAME(m)
#define PV_TARGET PV_NAME(TARGET)
#define PV_LANES PV_NAME(LANES)
#define PM_ALL PV_NAME(ALL)
#define pv_tab32 PV_NAME(tab32)
#define pv_rng PV_NAME(rng)
#define v1 PV_NAME(1)
#define vzero PV_NAME(zero)
#define vload PV_NAME(load)
#define vstore PV_NAME(store)
#define vlanes PV_NAME(lanes)
#define vgather PV_NAME(gather)
#define vadd PV_NAME(add)
#define vsub PV_NAME(sub)
#define vmul PV_NAME(mul)
#define vand PV_NAME(and)
#define vor PV_NAME(or)
#define vxor PV_NAME(xor)
#define vandnot PV_NAME(andnot)
#define vsllv PV_NAME(sllv)
#define vsrlv PV_NAME(srlv)
#define vslli PV_NAME(slli)
#define vsrli PV_NAME(srli)
#define vmin PV_NAME(min)
#define vmax PV_NAME(max)
#define vpopcnt PV_NAME(popcnt)
#define vlzcnt PV_NAME(lzcnt)
#define veq PV_NAME(eq)
#define vne PV_NAME(ne)
#define vlt PV_NAME(lt)
#define vgt PV_NAME(gt)
#define vge PV_NAME(ge)
#define vle PV_NAME(le)
#define vltu PV_NAME(ltu)
#define vtest PV_NAME(test)
#define vtestn PV_NAME(testn)
#define vnz PV_NAME(nz)
#define vz PV_NAME(z)
#define pm_first PV_NAME(first)
#define pm_any PV_NAME(any)
#define vbit PV_NAME(bit)
#define vbiti PV_NAME(biti)
#define vctz PV_NAME(ctz)
#define pm_bits PV_NAME(bits)
#define PM_NONE PV_NAME(NONE)
#define vsel PV_NAME(sel)
#define vmaskz PV_NAME(maskz)
#define vmask_add PV_NAME(mask_add)
#define vmask_sub PV_NAME(mask_sub)
#define vmask_and PV_NAME(mask_and)
#define vmask_or PV_NAME(mask_or)
#define vmask_andnot PV_NAME(mask_andnot)
#define vmask_min PV_NAME(mask_min)
#define vmaskz_and PV_NAME(maskz_and)
#define vmaskz_add PV_NAME(maskz_add)
#define vtab32 PV_NAME(tab)
#define vlook32 PV_NAME(look32)
#define vlook16 PV_NAME(look16)
#define pv_tab16 PV_NAME(tab16)
#define vtab16 PV_NAME(tab16_)
#define vrng_load PV_NAME(rng_load)
#define vrng_store PV_NAME(rng_store)
#define vrng_draw PV_NAME(rng_draw)
#endif
