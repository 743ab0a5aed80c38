/* The rank-class matching: how many disjoint pairs (a, b), a among the pyramid cards of one
 * rank and b among those of the complementary rank (at most four each), can meet at all, a
 * card never meeting one it covers or is covered by (bad[a]: pyr_geometry.h's bad, or bad_pwc
 * under pair_with_covering). The solver refines it (no two pairs covering each other's
 * cards); the simulator's pruning and the solver's bounds both start from it.
 *
 * The 4 x 4 adjacency matrix (missing cards are the sentinel 28, adjacent to nothing) indexes
 * PYR_MATCH16, the maximum matching of every such matrix: 4 minus the largest deficiency
 * |A| - |N(A)| over the row subsets A (Hall's theorem), filled by pyr_match_init() at import. */
#ifndef PYR_MATCH_H
#define PYR_MATCH_H
#include <stdint.h>
#include "pyr_bitops.h"

static uint8_t PYR_MATCH16[65536];
static int pyr_match_ready = 0;

static PYR_INLINE void pyr_match_init(void) {
    uint32_t idx, nb;
    int a, k, worst, d;
    if (pyr_match_ready)
        return;
    for (idx = 0; idx < 65536; idx++) {
        worst = 0;
        for (a = 0; a < 16; a++) {
            nb = 0;
            for (k = 0; k < 4; k++)
                if ((a >> k) & 1)
                    nb |= (idx >> (4 * k)) & 0xF;
            d = pyr_popcount32((uint32_t)a) - pyr_popcount32(nb);
            if (d > worst)
                worst = d;
        }
        PYR_MATCH16[idx] = (uint8_t)(4 - worst);
    }
    pyr_match_ready = 1;
}

/* Bits s0..s3 of ok as a 4-bit row. */
static PYR_INLINE uint32_t pyr_match_row(uint32_t ok, const int* s) {
    return ((ok >> s[0]) & 1) | (((ok >> s[1]) & 1) << 1) | (((ok >> s[2]) & 1) << 2)
           | (((ok >> s[3]) & 1) << 3);
}

/* The largest number of disjoint pairs of rset x sset (pyramid masks of at most four
 * positions each) with b not in bad[a]. */
static PYR_INLINE int pyr_match(uint32_t rset, uint32_t sset, const uint32_t* bad) {
    const uint32_t sentinel = 1u << 28;
    uint32_t x = sset, idx = 0;
    int s[4], k;
    for (k = 0; k < 4; k++) {
        s[k] = pyr_ctz32(x | sentinel);
        x &= x - 1;
    }
    x = rset;
    for (k = 0; k < 4; k++) {
        idx |= pyr_match_row(sset & ~bad[pyr_ctz32(x | sentinel)], s) << (4 * k);
        x &= x - 1;
    }
    return PYR_MATCH16[idx];
}

#endif
