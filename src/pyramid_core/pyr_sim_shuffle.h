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

#define PYR_SIM_STEP(I)                                                     \
    do {                                                                    \
        uint64_t z_ = state + (uint64_t)(52 - (I)) * 0x9E3779B97F4A7C15ULL; \
        z_ = (z_ ^ (z_ >> 30)) * 0xBF58476D1CE4E5B9ULL;                     \
        z_ = (z_ ^ (z_ >> 27)) * 0x94D049BB133111EBULL;                     \
        z_ = z_ ^ (z_ >> 31);                                               \
        js[I] = (uint8_t)(z_ % (uint64_t)((I) + 1));                        \
    } while (0)

/* Shuffle deck[0..51] in place with deal number `state`'s generator. */
static inline void pyr_sim_shuffle(uint64_t state, uint8_t *deck)
{
    /* First the 51 swap partners (independent of each other: they pipeline), then the
     * swaps (their addresses are known early, so loads and stores do not wait on them). */
    uint8_t js[52];
    int i;
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
static inline void pyr_sim_shuffle_masks(uint64_t state, const uint8_t *ranks, uint8_t *deck,
                                         uint32_t *prank, uint32_t *trank, uint8_t *pc,
                                         uint8_t *tc)
{
    uint8_t js[52];
    int i;
    memcpy(deck, ranks, 52);
    memset(prank, 0, 14 * sizeof(uint32_t));
    memset(trank, 0, 14 * sizeof(uint32_t));
    memset(pc, 0, 14);
    memset(tc, 0, 14);
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
    for (i = 51; i >= 28; i--) {
        uint8_t t = deck[js[i]];
        deck[js[i]] = deck[i];
        deck[i] = t;
        trank[t] |= (uint32_t)1 << (i - 28);
        tc[t]++;
    }
    for (; i > 0; i--) {
        uint8_t t = deck[js[i]];
        deck[js[i]] = deck[i];
        deck[i] = t;
        prank[t] |= (uint32_t)1 << i;
        pc[t]++;
    }
    prank[deck[0]] |= 1;
    pc[deck[0]]++;
}

#undef PYR_SIM_STEP
#endif
