# Pyramid geometry (docs/rules.md) as bit operations on a 28-bit mask.
# Position i is row-major from the top; (r, k) has index r*(r+1)/2 + k and is covered by
# (r+1, k) = i + r + 1 and (r+1, k+1) = i + r + 2. So for the cards of row r, "left cover
# present" is (mask >> (r+1)) and "right cover present" is (mask >> (r+2)), masked to row r.
from libc.stdint cimport uint8_t, uint32_t

cdef extern from "pyr_bitops.h" nogil:
    int pyr_ctz32(uint32_t x)
    int pyr_msb32(uint32_t x)
    int pyr_popcount32(uint32_t x)

cdef enum:
    ROW0 = 0x0000001
    ROW1 = 0x0000006
    ROW2 = 0x0000038
    ROW3 = 0x00003C0
    ROW4 = 0x0007C00
    ROW5 = 0x01F8000
    ROW6 = 0xFE00000
    PYRAMID_ALL = 0xFFFFFFF

cdef extern from "pyr_geometry.h" nogil:
    uint32_t pyr_covered(uint32_t p)
    const uint8_t PYR_ROW[28]

cdef inline uint32_t covered_mask(uint32_t p) noexcept nogil:
    """Positions (present or not) with at least one covering card still present (pyr_covered:
    the one formula, shared with the lockstep playouts)."""
    return pyr_covered(p)

cdef inline uint32_t free_mask(uint32_t p) noexcept nogil:
    """Present pyramid cards whose two covering cards are both gone."""
    return p & ~covered_mask(p)

cdef inline uint32_t half_covered_mask(uint32_t p) noexcept nogil:
    """Present cards covered by exactly one present card (for pair_with_covering)."""
    cdef uint32_t x = ((((p >> 1) ^ (p >> 2)) & ROW0) | (((p >> 2) ^ (p >> 3)) & ROW1)
                       | (((p >> 3) ^ (p >> 4)) & ROW2) | (((p >> 4) ^ (p >> 5)) & ROW3)
                       | (((p >> 5) ^ (p >> 6)) & ROW4) | (((p >> 6) ^ (p >> 7)) & ROW5))
    return p & x

cdef inline int row_of(int i) noexcept nogil:
    """The row of pyramid position i (0 <= i < 28)."""
    return PYR_ROW[i]


cdef inline int only_cover(uint32_t p, int i) noexcept nogil:
    """The position of the single present card covering i (i must be half covered)."""
    cdef int left = i + row_of(i) + 1
    return left + <int>(((p >> left) & 1) ^ 1)


# The per-position tables (pyr_geometry.h) and the rank-class matching (pyr_match.h): one
# table set for the engine, the solver and the simulator. A module using them calls
# pyr_geometry_init() (and pyr_match_init()) once at import.
cdef extern from "pyr_geometry.h" nogil:
    ctypedef struct pyr_geometry:
        uint32_t covering[29]
        uint32_t covered[28]
        uint8_t covered_l[28]
        uint8_t covered_r[28]
        uint32_t above[28]
        uint8_t support[28]
        uint32_t rel[28]
        uint32_t direct[28]
        uint32_t bad[29]
        uint32_t bad_pwc[29]
        uint32_t has_left
        uint32_t has_right
    pyr_geometry PYR_GEO
    void pyr_geometry_init()

cdef extern from "pyr_match.h" nogil:
    void pyr_match_init()
    int pyr_match(uint32_t rset, uint32_t sset, const uint32_t* bad)
