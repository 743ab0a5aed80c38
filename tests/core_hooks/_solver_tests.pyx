# cython: language_level=3
"""The solver's test hooks: each bound the searches prune with, at one position, so the tests
can check it against the true answers (solver.pxd's solve_probe)."""
from pyramid_core.position cimport Table, pyr_pos
from pyramid_core.solver cimport (solve_probe, PROBE_LOWER_BOUND, PROBE_RELAXED_OK,
                                  PROBE_RELAXED_REMOVAL, PROBE_STACK_OK)


cdef int _probe(Table table, pyr_pos pos, int what) except? -1:
    cdef int out
    with nogil:
        out = solve_probe(&table.t, pos, what)
    if out < 0:
        raise MemoryError()
    return out


def lower_bound_of(Table table not None, pyr_pos pos):
    """A*'s lower bound on the moves still needed from pos to a win (the tests check it
    never exceeds the true distance)."""
    return _probe(table, pos, PROBE_LOWER_BOUND)


def relaxed_ok_of(Table table not None, pyr_pos pos):
    """bounds.pyx's relaxed_ok (the tests check it never calls a winnable position lost):
    False when pos cannot be won even with every talon card still playable at hand at any
    time (True in the last pass and for win="all", where it is not used)."""
    return _probe(table, pos, PROBE_RELAXED_OK) != 0


def relaxed_removal_bound_of(Table table not None, pyr_pos pos):
    """bounds.pyx's relaxed_removal_bound (the tests check it is never below the most
    pyramid cards a line removes): 28 where it is not worked out."""
    return _probe(table, pos, PROBE_RELAXED_REMOVAL)


def stack_ok_of(Table table not None, pyr_pos pos):
    """bounds.pyx's stack_ok (the tests check it never calls a winnable position lost): False
    when, in the last pass under draw one, the pyramid cannot be cleared even with the stock
    at hand and the waste coming back from the top only (True where it does not apply)."""
    return _probe(table, pos, PROBE_STACK_OK) != 0
