/* The version-1 deal shuffle (docs/deal-codes.md, shuffle.pxd's deal_shuffle) unrolled for the
 * simulator: every `z % (i + 1)` has a constant divisor, so the compiler turns the 51 slow
 * 64-bit divisions into multiply-and-shift sequences, and the 51 SplitMix64 outputs, which do
 * not depend on each other, can be computed in parallel. It shuffles whatever 52 bytes it is
 * given (card indices, or their ranks: a Fisher-Yates shuffle moves places, not values), so
 * the result is bit-identical to deal_shuffle (tests/test_simulate.py checks it). */
#ifndef PYR_SIM_SHUFFLE_H
#define PYR_SIM_SHUFFLE_H
#include <stdint.h>
#include <string.h>
#include <stddef.h>
#include "pyr_bitops.h"   /* PYR_INLINE: MSVC's C compiler spells it __inline */
#include "pyr_sim_deal.h"
#include "pyr_rng.h"

/* Step I's partner: the (52 - I)-th value of SplitMix64 seeded with the deal number. */
#define PYR_SIM_STEP(I)                                                                \
    (js[I] = (uint8_t)(pyr_sm_mix(state + (uint64_t)(52 - (I)) * PYR_SM_GAMMA)          \
                       % (uint64_t)((I) + 1)))

/* Swap step I of pyr_sim_shuffle_masks: place I is final; its card goes into its rank's
 * MASK (bit BIT) and COUNT: as talon card I - 28 (PYR_SIM_SWAP_T) or pyramid position I
 * (PYR_SIM_SWAP_P). */
#define PYR_SIM_SWAP_RECORD(I, MASK, COUNT, BIT)                            \
    do {                                                                    \
        uint8_t t_ = deck[js[I]];                                           \
        deck[js[I]] = deck[I];                                              \
        deck[I] = t_;                                                       \
        MASK[t_] |= (uint32_t)1 << (BIT);                                   \
        COUNT[t_]++;                                                        \
    } while (0)
#define PYR_SIM_SWAP_T(I) PYR_SIM_SWAP_RECORD(I, trank, tc, (I) - 28)
#define PYR_SIM_SWAP_P(I) PYR_SIM_SWAP_RECORD(I, prank, pc, I)

/* The 51 swap partners of deal number `state`'s shuffle: js[i] for the swap at place i
 * (i = 51 .. 1). They do not depend on each other, so they pipeline; the swaps come after
 * (their addresses known early, loads and stores do not wait on them). */
static PYR_INLINE void pyr_sim_partners(uint64_t state, uint8_t *js)
{
    PYR_SIM_STEP(51); PYR_SIM_STEP(50); PYR_SIM_STEP(49); PYR_SIM_STEP(48);
    PYR_SIM_STEP(47); PYR_SIM_STEP(46); PYR_SIM_STEP(45); PYR_SIM_STEP(44);
    PYR_SIM_STEP(43); PYR_SIM_STEP(42); PYR_SIM_STEP(41); PYR_SIM_STEP(40);
    PYR_SIM_STEP(39); PYR_SIM_STEP(38); PYR_SIM_STEP(37); PYR_SIM_STEP(36);
    PYR_SIM_STEP(35); PYR_SIM_STEP(34); PYR_SIM_STEP(33); PYR_SIM_STEP(32);
    PYR_SIM_STEP(31); PYR_SIM_STEP(30); PYR_SIM_STEP(29); PYR_SIM_STEP(28);
    PYR_SIM_STEP(27); PYR_SIM_STEP(26); PYR_SIM_STEP(25); PYR_SIM_STEP(24);
    PYR_SIM_STEP(23); PYR_SIM_STEP(22); PYR_SIM_STEP(21); PYR_SIM_STEP(20);
    PYR_SIM_STEP(19); PYR_SIM_STEP(18); PYR_SIM_STEP(17); PYR_SIM_STEP(16);
    PYR_SIM_STEP(15); PYR_SIM_STEP(14); PYR_SIM_STEP(13); PYR_SIM_STEP(12);
    PYR_SIM_STEP(11); PYR_SIM_STEP(10); PYR_SIM_STEP(9);  PYR_SIM_STEP(8);
    PYR_SIM_STEP(7);  PYR_SIM_STEP(6);  PYR_SIM_STEP(5);  PYR_SIM_STEP(4);
    PYR_SIM_STEP(3);  PYR_SIM_STEP(2);  PYR_SIM_STEP(1);
}

/* The same 51 partners eight at a time with AVX-512 (F, DQ, BW, VL and VPOPCNTDQ, which the
 * block set-up below uses too), where the CPU has it (the wheels target the baseline x86-64,
 * so this is chosen at run time): SplitMix64 with 64-bit
 * vector multiplies; z % n exactly, as z = hi * 2^32 + lo gives z % n = x % n with
 * x = hi * (2^32 % n) + lo < 2^39, an integer that doubles hold exactly. floor(x * (1/n)) is
 * then off by at most one below the quotient (its error is under 2^-14, every fraction of
 * x / n at least 1/52 away from the next integer), and one compare corrects it.
 * js needs room for 57 bytes (lanes 52 to 56 are padding). */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__APPLE__) \
    && !defined(PYR_NO_AVX512) && !defined(_MSC_VER)
#define PYR_SIM_AVX512 1
#include <immintrin.h>

static uint64_t pyr_sim_k[56];     /* lane I - 1: (52 - I) * golden, the generator's step */
static uint64_t pyr_sim_c[56];     /* 2^32 % (I + 1) */
static double pyr_sim_inv[56];     /* 1 / (I + 1) */
static double pyr_sim_n[56];       /* I + 1 */
#endif

/* Once, before any thread shuffles (each module's import: every extension module has its own
 * copy of these tables): the AVX-512 set-up's constants. Which set-up runs is the caller's
 * choice, an argument `vec` (1: AVX-512, 0: plain C) of the functions below, taken from the
 * simulator's path record (pyr_sim_lockstep.h's pyr_sim_path, resolved once at import);
 * vec = 1 only where the CPU has AVX-512, which that record guarantees. */
static PYR_INLINE void pyr_sim_init(void)
{
#ifdef PYR_SIM_AVX512
    int i;
    for (i = 0; i < 56; i++) {
        uint64_t n = (uint64_t)i + 2;                     /* lane i holds I = i + 1 */
        pyr_sim_k[i] = (uint64_t)(51 - i) * PYR_SM_GAMMA;
        pyr_sim_c[i] = (((uint64_t)1) << 32) % n;
        pyr_sim_inv[i] = 1.0 / (double)n;
        pyr_sim_n[i] = (double)n;
    }
#endif
}

#ifdef PYR_SIM_AVX512
#define PYR_SIM_TARGET __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx512vpopcntdq")))

/* Partner lanes I = v + 1 .. v + 8 (v = 0, 8, ..., 48) of deal number `state`'s shuffle into
 * js[v + 1 ..]: a group of eight, so that a caller can spread the groups out (see below). */
PYR_SIM_TARGET
static PYR_INLINE void pyr_sim_partner_group(uint64_t state, uint8_t *js, int v)
{
    const __m512i c1 = _mm512_set1_epi64((long long)PYR_SM_M1);
    const __m512i c2 = _mm512_set1_epi64((long long)PYR_SM_M2);
    __m512i z = _mm512_add_epi64(_mm512_set1_epi64((long long)state),
                                 _mm512_loadu_si512((const void *)(pyr_sim_k + v)));
    __m512i x;
    __m512d xd, q, r, n;
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)), c1);
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)), c2);
    z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
    x = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64(z, 32),
                                          _mm512_loadu_si512((const void *)(pyr_sim_c + v))),
                         _mm512_and_si512(z, _mm512_set1_epi64(0xFFFFFFFFLL)));
    xd = _mm512_cvtepu64_pd(x);
    n = _mm512_loadu_pd(pyr_sim_n + v);
    q = _mm512_roundscale_pd(_mm512_mul_pd(xd, _mm512_loadu_pd(pyr_sim_inv + v)),
                             _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    r = _mm512_fnmadd_pd(q, n, xd);
    r = _mm512_mask_sub_pd(r, _mm512_cmp_pd_mask(r, n, _CMP_GE_OQ), r, n);
    _mm_storel_epi64((__m128i *)(js + v + 1), _mm512_cvtepi64_epi8(_mm512_cvttpd_epi64(r)));
}

PYR_SIM_TARGET
static PYR_INLINE void pyr_sim_partners_avx512(uint64_t state, uint8_t *js)
{
    int v;
    for (v = 0; v < 56; v += 8)
        pyr_sim_partner_group(state, js, v);
}
#endif


/* The partners with AVX-512 (vec) or in plain C. js needs room for 57 bytes. */
static PYR_INLINE void pyr_sim_partners_any(int vec, uint64_t state, uint8_t *js)
{
#ifdef PYR_SIM_AVX512
    if (vec) {
        pyr_sim_partners_avx512(state, js);
        return;
    }
#else
    (void)vec;
#endif
    pyr_sim_partners(state, js);
}

/* Shuffle deck[0..51] in place with deal number `state`'s generator. */
static PYR_INLINE void pyr_sim_shuffle(int vec, uint64_t state, uint8_t *deck)
{
    uint8_t js[64];
    int i;
    pyr_sim_partners_any(vec, state, js);
    for (i = 51; i > 0; i--) {
        uint8_t t = deck[i];
        deck[i] = deck[js[i]];
        deck[js[i]] = t;
    }
}

/* The same shuffle of the 52 ranks (from RANK_OF-like `ranks`), building the rank masks as
 * each place becomes final: after swap step i, deck[i] never moves again. prank[r]: pyramid
 * positions of rank r; trank[r]: talon indices of rank r; pc, tc: their counts. The arrays
 * are overwritten. */
static PYR_INLINE void pyr_sim_shuffle_masks(int vec, uint64_t state, const uint8_t *ranks,
                                             uint8_t *deck, uint32_t *prank, uint32_t *trank,
                                             uint8_t *pc, uint8_t *tc)
{
    uint8_t js[64];
    memcpy(deck, ranks, 52);
    memset(prank, 0, 14 * sizeof(uint32_t));
    memset(trank, 0, 14 * sizeof(uint32_t));
    memset(pc, 0, 14);
    memset(tc, 0, 14);
    pyr_sim_partners_any(vec, state, js);
    /* The swaps unrolled: constant places and constant mask bits (no loop counter, no
     * variable shift). */
    PYR_SIM_SWAP_T(51); PYR_SIM_SWAP_T(50); PYR_SIM_SWAP_T(49); PYR_SIM_SWAP_T(48);
    PYR_SIM_SWAP_T(47); PYR_SIM_SWAP_T(46); PYR_SIM_SWAP_T(45); PYR_SIM_SWAP_T(44);
    PYR_SIM_SWAP_T(43); PYR_SIM_SWAP_T(42); PYR_SIM_SWAP_T(41); PYR_SIM_SWAP_T(40);
    PYR_SIM_SWAP_T(39); PYR_SIM_SWAP_T(38); PYR_SIM_SWAP_T(37); PYR_SIM_SWAP_T(36);
    PYR_SIM_SWAP_T(35); PYR_SIM_SWAP_T(34); PYR_SIM_SWAP_T(33); PYR_SIM_SWAP_T(32);
    PYR_SIM_SWAP_T(31); PYR_SIM_SWAP_T(30); PYR_SIM_SWAP_T(29); PYR_SIM_SWAP_T(28);
    PYR_SIM_SWAP_P(27); PYR_SIM_SWAP_P(26); PYR_SIM_SWAP_P(25); PYR_SIM_SWAP_P(24);
    PYR_SIM_SWAP_P(23); PYR_SIM_SWAP_P(22); PYR_SIM_SWAP_P(21); PYR_SIM_SWAP_P(20);
    PYR_SIM_SWAP_P(19); PYR_SIM_SWAP_P(18); PYR_SIM_SWAP_P(17); PYR_SIM_SWAP_P(16);
    PYR_SIM_SWAP_P(15); PYR_SIM_SWAP_P(14); PYR_SIM_SWAP_P(13); PYR_SIM_SWAP_P(12);
    PYR_SIM_SWAP_P(11); PYR_SIM_SWAP_P(10); PYR_SIM_SWAP_P(9);  PYR_SIM_SWAP_P(8);
    PYR_SIM_SWAP_P(7);  PYR_SIM_SWAP_P(6);  PYR_SIM_SWAP_P(5);  PYR_SIM_SWAP_P(4);
    PYR_SIM_SWAP_P(3);  PYR_SIM_SWAP_P(2);  PYR_SIM_SWAP_P(1);
    prank[deck[0]] |= 1;
    pc[deck[0]]++;
}

/* pyr_sim_shuffle_masks for PYR_SIM_BLOCK deals at once: deal numbers[k] into the k-th of
 * PYR_SIM_BLOCK records `stride` bytes apart from `base`, whose deck, prank, trank, pc and tc
 * arrays and tnext and t3 words (pyr_sim_talon_masks) lie at the given offsets in each. A
 * swap reads what an earlier swap may just have written, so one deal's swaps wait on each
 * other; eight deals' swaps interleaved do not (about twice as fast here). */
#define PYR_SIM_BLOCK 8
#define PYR_SIM_AT(T, off, k) ((T *)(base + (size_t)(k) * stride + (off)))

/* What a batch keeps from one block to the next. With AVX-512 the swap partners of the next
 * block are worked out during this block's swaps (vector arithmetic beside scalar loads and
 * stores: they overlap), and js holds them for the deals `of` when `ready`. Zero it first. */
typedef struct {
    uint8_t js[PYR_SIM_BLOCK][64];
    uint64_t of[PYR_SIM_BLOCK];
    int ready;
} pyr_sim_blocker;

/* The block's swaps at places hi down to lo, each deal in turn; the card that lands at place
 * i is final: it goes into its rank's mask (bit i - first) and count. */
static PYR_INLINE void pyr_sim_block_swaps(uint8_t js[][64], char *base, size_t stride,
                                           size_t deck, int hi, int lo, int first,
                                           size_t mask, size_t count)
{
    int i, k;
    for (i = hi; i >= lo; i--) {
        for (k = 0; k < PYR_SIM_BLOCK; k++) {
            uint8_t *d = PYR_SIM_AT(uint8_t, deck, k);
            uint8_t j = js[k][i], t = d[j];
            d[j] = d[i];
            d[i] = t;
            PYR_SIM_AT(uint32_t, mask, k)[t] |= (uint32_t)1 << (i - first);
            PYR_SIM_AT(uint8_t, count, k)[t]++;
        }
    }
}

/* t3 (talon cards t <= 21 such that two of t, t + 1, t + 2 pair) from n1 (t pairs with
 * t + 1) and n2 (t pairs with t + 2). */
static PYR_INLINE uint32_t pyr_sim_t3(uint32_t n1, uint32_t n2)
{
    return (n1 | (n1 >> 1) | n2) & 0x3FFFFFu;
}

#ifdef PYR_SIM_AVX512
#define PYR_SIM_52 0xFFFFFFFFFFFFFULL     /* byte mask of a deck's 52 places */
#define PYR_SIM_DK_SWAP(K)                                                   \
    do {                                                                    \
        uint8_t j_ = js[K][i], t_ = dk[K][j_];                              \
        dk[K][j_] = dk[K][i];                                               \
        dk[K][i] = t_;                                                      \
    } while (0)

/* The block with AVX-512: the decks are shuffled side by side in a local array (constant
 * offsets, plain swaps), while the next block's partners (`next`, unless NULL) are worked
 * out a group per place; then each rank's masks come from one byte compare of the finished
 * deck, and the counts from one vector popcount per mask array. */
PYR_SIM_TARGET
static void pyr_sim_block_avx512(pyr_sim_blocker *b, const uint64_t *numbers,
                                 const uint64_t *next, const uint8_t *ranks, char *base,
                                 size_t stride, size_t deck, size_t prank, size_t trank,
                                 size_t pc, size_t tc, size_t tnext, size_t t3)
{
    uint8_t js[PYR_SIM_BLOCK][64];
    uint8_t dk[PYR_SIM_BLOCK][64];
    const __m512i rv = _mm512_maskz_loadu_epi8(PYR_SIM_52, ranks);
    int i, k, r, g = 0;
    if (b->ready && memcmp(b->of, numbers, sizeof(b->of)) == 0)
        memcpy(js, b->js, sizeof(js));
    else
        for (k = 0; k < PYR_SIM_BLOCK; k++)
            pyr_sim_partners_avx512(numbers[k], js[k]);
    b->ready = 0;
    for (k = 0; k < PYR_SIM_BLOCK; k++)
        _mm512_storeu_si512((void *)dk[k], rv);
    for (i = 51; i >= 1; i--) {
        PYR_SIM_DK_SWAP(0); PYR_SIM_DK_SWAP(1); PYR_SIM_DK_SWAP(2); PYR_SIM_DK_SWAP(3);
        PYR_SIM_DK_SWAP(4); PYR_SIM_DK_SWAP(5); PYR_SIM_DK_SWAP(6); PYR_SIM_DK_SWAP(7);
        if (next != NULL) {        /* group g: deal g / 7, lanes 8 * (g % 7) + 1 .. */
            pyr_sim_partner_group(next[g / 7], b->js[g / 7], 8 * (g % 7));
            g++;
        }
    }
    if (next != NULL) {
        for (; g < 7 * PYR_SIM_BLOCK; g++)
            pyr_sim_partner_group(next[g / 7], b->js[g / 7], 8 * (g % 7));
        memcpy(b->of, next, sizeof(b->of));
        b->ready = 1;
    }
    for (k = 0; k < PYR_SIM_BLOCK; k++) {
        const __m512i v = _mm512_maskz_loadu_epi8(PYR_SIM_52, dk[k]);
        const __m512i v1 = _mm512_maskz_loadu_epi8(PYR_SIM_52 >> 1, dk[k] + 1);
        const __m512i v2 = _mm512_maskz_loadu_epi8(PYR_SIM_52 >> 2, dk[k] + 2);
        const __m512i thirteen = _mm512_set1_epi8(13);
        uint32_t *pm = PYR_SIM_AT(uint32_t, prank, k), *tm = PYR_SIM_AT(uint32_t, trank, k);
        uint32_t n1, n2;
        _mm512_mask_storeu_epi8(PYR_SIM_AT(uint8_t, deck, k), PYR_SIM_52, v);
        /* talon places i = 28 .. 50 and i + 1 summing to 13, and i = 28 .. 49 and i + 2 */
        n1 = (uint32_t)(_mm512_cmpeq_epi8_mask(_mm512_add_epi8(v, v1), thirteen) >> 28)
             & 0x7FFFFFu;
        n2 = (uint32_t)(_mm512_cmpeq_epi8_mask(_mm512_add_epi8(v, v2), thirteen) >> 28)
             & 0x3FFFFFu;
        *PYR_SIM_AT(uint32_t, tnext, k) = n1;
        *PYR_SIM_AT(uint32_t, t3, k) = pyr_sim_t3(n1, n2);
        pm[0] = tm[0] = 0;
        for (r = 1; r < 14; r++) {
            uint64_t e = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)r));
            pm[r] = (uint32_t)e & 0xFFFFFFFu;      /* places 0..27: the pyramid */
            tm[r] = (uint32_t)(e >> 28);           /* places 28..51: the talon */
        }
        _mm_mask_storeu_epi8(PYR_SIM_AT(uint8_t, pc, k), 0x3FFF, _mm512_cvtepi32_epi8(
            _mm512_popcnt_epi32(_mm512_maskz_loadu_epi32(0x3FFF, pm))));
        _mm_mask_storeu_epi8(PYR_SIM_AT(uint8_t, tc, k), 0x3FFF, _mm512_cvtepi32_epi8(
            _mm512_popcnt_epi32(_mm512_maskz_loadu_epi32(0x3FFF, tm))));
    }
}
#undef PYR_SIM_DK_SWAP
#endif

/* The talon masks of a deal from its 52 ranks: tnext (talon cards t that pair with t + 1)
 * and t3 (talon cards t <= 21 such that two of t, t + 1, t + 2 pair). On little-endian
 * machines eight cards at a time: the talon's ranks in three 64-bit words, each against
 * itself shifted by one or two cards; a byte of x + y is 13 exactly where it is 0 after
 * ^ 0x0D (ranks are at most 13, so no sum carries), and the zero bytes' flags are gathered
 * into eight bits by a multiply. */
#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_WIN32)
static PYR_INLINE uint32_t pyr_sim_sum13(uint64_t x, uint64_t y)
{
    uint64_t t;
    x = (x + y) ^ 0x0D0D0D0D0D0D0D0DULL;
    t = ~(((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x) & 0x8080808080808080ULL;
    return (uint32_t)(((t >> 7) * 0x0102040810204080ULL) >> 56);
}

static PYR_INLINE void pyr_sim_talon_masks(const uint8_t *deck, uint32_t *tnext, uint32_t *t3)
{
    uint64_t w0, w1, w2;                    /* talon cards 0..7, 8..15, 16..23 */
    uint32_t n1, n2;
    memcpy(&w0, deck + 28, 8);
    memcpy(&w1, deck + 36, 8);
    memcpy(&w2, deck + 44, 8);
    n1 = pyr_sim_sum13(w0, (w0 >> 8) | (w1 << 56))
         | pyr_sim_sum13(w1, (w1 >> 8) | (w2 << 56)) << 8
         | pyr_sim_sum13(w2, w2 >> 8) << 16;
    n2 = pyr_sim_sum13(w0, (w0 >> 16) | (w1 << 48))
         | pyr_sim_sum13(w1, (w1 >> 16) | (w2 << 48)) << 8
         | pyr_sim_sum13(w2, w2 >> 16) << 16;
    n1 &= 0x7FFFFFu;
    *tnext = n1;
    *t3 = pyr_sim_t3(n1, n2);
}
#else
static PYR_INLINE void pyr_sim_talon_masks(const uint8_t *deck, uint32_t *tnext, uint32_t *t3)
{
    uint32_t n1 = 0, n2 = 0;
    int i;
    for (i = 0; i < 23; i++)
        n1 |= (uint32_t)(deck[28 + i] + deck[29 + i] == 13) << i;
    for (i = 0; i < 22; i++)
        n2 |= (uint32_t)(deck[28 + i] + deck[30 + i] == 13) << i;
    *tnext = n1;
    *t3 = pyr_sim_t3(n1, n2);
}
#endif

/* The block: numbers[k] into deals[k] (its rank, prank, trank, pc0, tc0, tnext and t3; the
 * rules and the rest are the caller's). `next`: the deals of the block that will come next
 * (a hint, or NULL); b keeps what carries over (see pyr_sim_blocker). */
static PYR_INLINE void pyr_sim_shuffle_masks_block(int vec, pyr_sim_blocker *b,
                                                   const uint64_t *numbers, const uint64_t *next,
                                                   const uint8_t *ranks, pyr_sim_deal *deals)
{
    char *base = (char *)deals;
    const size_t stride = sizeof(pyr_sim_deal), deck = offsetof(pyr_sim_deal, rank),
                 prank = offsetof(pyr_sim_deal, prank), trank = offsetof(pyr_sim_deal, trank),
                 pc = offsetof(pyr_sim_deal, pc0), tc = offsetof(pyr_sim_deal, tc0);
    uint8_t js[PYR_SIM_BLOCK][64];
    int k;
#ifdef PYR_SIM_AVX512
    if (vec) {
        pyr_sim_block_avx512(b, numbers, next, ranks, base, stride, deck, prank, trank, pc, tc,
                             offsetof(pyr_sim_deal, tnext), offsetof(pyr_sim_deal, t3));
        return;
    }
#endif
    (void)vec;
    (void)next;
    b->ready = 0;
    for (k = 0; k < PYR_SIM_BLOCK; k++) {
        pyr_sim_partners(numbers[k], js[k]);
        memcpy(deals[k].rank, ranks, 52);
        memset(deals[k].prank, 0, sizeof(deals[k].prank));
        memset(deals[k].trank, 0, sizeof(deals[k].trank));
        memset(deals[k].pc0, 0, sizeof(deals[k].pc0));
        memset(deals[k].tc0, 0, sizeof(deals[k].tc0));
    }
    pyr_sim_block_swaps(js, base, stride, deck, 51, 28, 28, trank, tc);   /* the talon */
    pyr_sim_block_swaps(js, base, stride, deck, 27, 1, 0, prank, pc);     /* the pyramid */
    for (k = 0; k < PYR_SIM_BLOCK; k++) {
        deals[k].prank[deals[k].rank[0]] |= 1;
        deals[k].pc0[deals[k].rank[0]]++;
        pyr_sim_talon_masks(deals[k].rank, &deals[k].tnext, &deals[k].t3);
    }
}
#undef PYR_SIM_AT

#undef PYR_SIM_STEP
#undef PYR_SIM_SWAP_T
#undef PYR_SIM_SWAP_P
#undef PYR_SIM_SWAP_RECORD
#endif
