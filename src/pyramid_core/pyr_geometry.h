/* The pyramid's geometry as tables, worked out from its one definition (docs/rules.md):
 * position i = r (r + 1) / 2 + k, row r from the top (0..6), k-th card of its row, is covered
 * by i + r + 1 and i + r + 2 in the row below. PYR_COVERED and geometry.pxd have the bit
 * operations on whole masks (which cards are free); the solver and the simulator read these per-position tables.
 * Position 28 is a sentinel ("no card") where a table has 29 entries.
 *
 * pyr_geometry_init() fills PYR_GEO once (each extension module that includes this header
 * calls it at import; calling it again does nothing). */
#ifndef PYR_GEOMETRY_H
#define PYR_GEOMETRY_H
#include <stdint.h>
#include "pyr_bitops.h"

#define PYR_NO_PLACE 28

/* The row (0..6, from the top) of each position: a constant, so that it needs no set-up. */
static const uint8_t PYR_ROW[28] = {0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4,
                                    5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6};

/* The positions (present or not) with a covering card still present, of pyramid mask p: the
 * cards of row r are covered r + 1 and r + 2 places on. Written once over the operations it
 * needs, so that a word (pyr_covered, geometry.pxd's covered_mask) and vector lanes (the
 * lockstep playouts) share it: SHR(x, k) shifts right by a constant, AND(x, c) masks with a
 * constant, OR. p is evaluated many times: pass a variable. */
#define PYR_COVERED(p, SHR, AND, OR)                                                          \
    OR(OR(OR(AND(OR(SHR(p, 1), SHR(p, 2)), 0x0000001u), AND(OR(SHR(p, 2), SHR(p, 3)), 0x0000006u)), \
          OR(AND(OR(SHR(p, 3), SHR(p, 4)), 0x0000038u), AND(OR(SHR(p, 4), SHR(p, 5)), 0x00003C0u))), \
       OR(AND(OR(SHR(p, 5), SHR(p, 6)), 0x0007C00u), AND(OR(SHR(p, 6), SHR(p, 7)), 0x01F8000u)))
#define PYR_SHR_(x, k) ((x) >> (k))
#define PYR_AND_(x, c) ((x) & (c))
#define PYR_OR_(x, y) ((x) | (y))
static PYR_INLINE uint32_t pyr_covered(uint32_t p) { return PYR_COVERED(p, PYR_SHR_, PYR_AND_, PYR_OR_); }

typedef struct {
    uint32_t covering[29]; /* the (two) positions directly covering i; 0 for the bottom row, 28 */
    uint32_t covered[28];  /* the (one or two) positions i covers directly; 0 for the top */
    uint8_t covered_l[28]; /* the position i covers to its upper left, or 28 */
    uint8_t covered_r[28]; /* ... to its upper right, or 28 */
    uint32_t above[28];    /* the positions i covers, directly or not: they wait for i to go */
    uint8_t support[28];   /* how many those are */
    uint32_t rel[28];      /* the positions i covers or is covered by, directly or not: a pair
                              needs both cards free at once, so i never pairs with these */
    uint32_t direct[28];   /* the positions i covers or is covered by directly */
    uint32_t bad[29];      /* rel; every position for the sentinel 28 */
    uint32_t bad_pwc[29];  /* the same under pair_with_covering (a card may pair with a card
                              directly covering it): rel minus direct */
    uint32_t has_left;     /* positions with a neighbour to their left in their row */
    uint32_t has_right;    /* ... to their right */
} pyr_geometry;

static pyr_geometry PYR_GEO;
static int pyr_geometry_ready = 0;

static PYR_INLINE void pyr_geometry_init(void) {
    int r, k, i, j;
    uint32_t up;
    if (pyr_geometry_ready)
        return;
    for (r = 0, i = 0; r < 7; r++) {
        for (k = 0; k <= r; k++, i++) {
            PYR_GEO.covering[i] = r < 6 ? (1u << (i + r + 1)) | (1u << (i + r + 2)) : 0;
            PYR_GEO.covered_l[i] = (uint8_t)(r > 0 && k > 0 ? i - r - 1 : PYR_NO_PLACE);
            PYR_GEO.covered_r[i] = (uint8_t)(r > 0 && k < r ? i - r : PYR_NO_PLACE);
            PYR_GEO.covered[i] = (k > 0 && r > 0 ? 1u << (i - r - 1) : 0)
                                 | (k < r ? 1u << (i - r) : 0);
            PYR_GEO.has_left |= (uint32_t)(k > 0) << i;
            PYR_GEO.has_right |= (uint32_t)(k < r) << i;
        }
    }
    PYR_GEO.covering[PYR_NO_PLACE] = 0;
    /* Rows from the top: what i covers directly, then what those cover. */
    for (i = 0; i < 28; i++) {
        up = PYR_GEO.covered[i];
        for (j = i - 1; j >= 0; j--)
            if ((up >> j) & 1)
                up |= PYR_GEO.covered[j];
        PYR_GEO.above[i] = up;
        PYR_GEO.support[i] = (uint8_t)pyr_popcount32(up);
    }
    for (i = 0; i < 28; i++) {
        PYR_GEO.rel[i] = PYR_GEO.above[i];
        for (j = 0; j < 28; j++)
            if ((PYR_GEO.above[j] >> i) & 1)
                PYR_GEO.rel[i] |= 1u << j;
        PYR_GEO.direct[i] = PYR_GEO.covered[i] | PYR_GEO.covering[i];
        PYR_GEO.bad[i] = PYR_GEO.rel[i];
        PYR_GEO.bad_pwc[i] = PYR_GEO.rel[i] & ~PYR_GEO.direct[i];
    }
    PYR_GEO.bad[PYR_NO_PLACE] = PYR_GEO.bad_pwc[PYR_NO_PLACE] = 0xFFFFFFFFu;
    pyr_geometry_ready = 1;
}

#endif
