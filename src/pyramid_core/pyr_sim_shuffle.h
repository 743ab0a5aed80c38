/* The version-1 deal shuffle (SPEC section 6, shuffle.pxd's deal_shuffle) unrolled for the
 * simulator: every `z % (i + 1)` has a constant divisor, so the compiler turns the 51 slow
 * 64-bit divisions into multiply-and-shift sequences, and the 51 SplitMix64 outputs, which do
 * not depend on each other, can be computed in parallel. It shuffles whatever 52 bytes it is
 * given (card indices, or their ranks: a Fisher-Yates shuffle moves places, not values), so
 * the result is bit-identical to deal_shuffle (tests/test_simulate.py checks it). */
#ifndef PYR_SIM_SHUFFLE_H
#define PYR_SIM_SHUFFLE_H
#include <stdint.h>
#include <string.h>
#include "pyr_bitops.h"   /* PYR_INLINE: MSVC's C compiler spells it __inline */

#define PYR_SIM_STEP(I)                                                     \
    do {                                                                    \
        uint64_t z_ = state + (uint64_t)(52 - (I)) * 0x9E3779B97F4A7C15ULL; \
        z_ = (z_ ^ (z_ >> 30)) * 0xBF58476D1CE4E5B9ULL;                     \
        z_ = (z_ ^ (z_ >> 27)) * 0x94D049BB133111EBULL;                     \
        z_ = z_ ^ (z_ >> 31);                                               \
        js[I] = (uint8_t)(z_ % (uint64_t)((I) + 1));                        \
    } while (0)

/* Swap step I of pyr_sim_shuffle_masks: place I is final; record it as talon card I - 28
 * (PYR_SIM_SWAP_T) or pyramid position I (PYR_SIM_SWAP_P). */
#define PYR_SIM_SWAP_T(I)                                                   \
    do {                                                                    \
        uint8_t t_ = deck[js[I]];                                           \
        deck[js[I]] = deck[I];                                              \
        deck[I] = t_;                                                       \
        trank[t_] |= (uint32_t)1 << ((I) - 28);                             \
        tc[t_]++;                                                           \
    } while (0)
#define PYR_SIM_SWAP_P(I)                                                   \
    do {                                                                    \
        uint8_t t_ = deck[js[I]];                                           \
        deck[js[I]] = deck[I];                                              \
        deck[I] = t_;                                                       \
        prank[t_] |= (uint32_t)1 << (I);                                    \
        pc[t_]++;                                                           \
    } while (0)

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

/* Shuffle deck[0..51] in place with deal number `state`'s generator. */
static PYR_INLINE void pyr_sim_shuffle(uint64_t state, uint8_t *deck)
{
    uint8_t js[52];
    int i;
    pyr_sim_partners(state, js);
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
static PYR_INLINE void pyr_sim_shuffle_masks(uint64_t state, const uint8_t *ranks, uint8_t *deck,
                                         uint32_t *prank, uint32_t *trank, uint8_t *pc,
                                         uint8_t *tc)
{
    uint8_t js[52];
    memcpy(deck, ranks, 52);
    memset(prank, 0, 14 * sizeof(uint32_t));
    memset(trank, 0, 14 * sizeof(uint32_t));
    memset(pc, 0, 14);
    memset(tc, 0, 14);
    pyr_sim_partners(state, js);
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

#undef PYR_SIM_STEP
#undef PYR_SIM_SWAP_T
#undef PYR_SIM_SWAP_P
#endif
