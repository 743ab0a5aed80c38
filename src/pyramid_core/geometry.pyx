# cython: language_level=3
"""Pyramid geometry seen from Python (for tests and the Python layer's drawings)."""


def free(unsigned int pyramid_mask):
    """Mask of free cards among the present positions ``pyramid_mask``."""
    return free_mask(pyramid_mask)


def covers(int i):
    """The two positions covering position ``i`` (empty for the bottom row)."""
    cdef int r = row_of(i)
    if r == 6:
        return ()
    return (i + r + 1, i + r + 2)


def row(int i):
    return row_of(i)
