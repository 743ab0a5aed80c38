# cython: language_level=3
"""Pyramid geometry seen from Python (for tests and the Python layer's drawings)."""


def free(unsigned int pyramid_mask):
    """Mask of free cards among the present positions ``pyramid_mask``."""
    return free_mask(pyramid_mask)


cdef int _position(int i) except -1:
    if not 0 <= i < 28:
        raise ValueError(f"position: expected a pyramid position 0..27, got {i}")
    return i


def covers(int i):
    """The two positions covering position ``i`` (empty for the bottom row)."""
    cdef int r = row_of(_position(i))
    if r == 6:
        return ()
    return (i + r + 1, i + r + 2)


def row(int i):
    """The row (0..6, from the top) of position ``i``."""
    return row_of(_position(i))


pyr_geometry_init()
pyr_match_init()


def tables():
    """The per-position tables (pyr_geometry.h) as a dict of lists, for the tests."""
    cdef dict out = PYR_GEO        # (Cython turns the struct into a dict, arrays into lists,
    cdef int i                     # but byte arrays into bytes: those by hand)
    out["covered_l"] = [PYR_GEO.covered_l[i] for i in range(28)]
    out["covered_r"] = [PYR_GEO.covered_r[i] for i in range(28)]
    out["support"] = [PYR_GEO.support[i] for i in range(28)]
    return out


def match(unsigned int rset, unsigned int sset, bint pair_with_covering=False):
    """pyr_match.h's rank-class matching of the pyramid masks rset and sset (at most four
    positions each), for the tests."""
    return pyr_match(rset, sset, &PYR_GEO.bad_pwc[0] if pair_with_covering else &PYR_GEO.bad[0])
