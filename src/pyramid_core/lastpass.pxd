# The last pass through the talon under draw one, decided by frame summaries (lastpass.pyx,
# docs/solver.md, "One pass: frames"): the solver's decisions under one pass (draw one, not
# pair_waste_top_two) are made here. The tables (lp_store) live in the solver's workspace.
from libc.stdint cimport int64_t

from pyramid_core.position cimport pyr_pos, pyr_move
from pyramid_core.search cimport search
from pyramid_core.solver cimport lp_store


cdef int lp_init(lp_store* L) noexcept nogil
cdef void lp_free(lp_store* L) noexcept nogil
# Empty the tables for a new search allowed max_bytes in all.
cdef void lp_clear(lp_store* L, int64_t max_bytes) noexcept nogil
# Can the position (in its last pass, draw one) still be won? 1 yes, 0 no, -1 a budget ran out.
cdef int lp_won(search* s, pyr_pos p) noexcept nogil
# lp_won, and when won the line in s.path[:s.path_len].
cdef int lp_decide(search* s, pyr_pos p) noexcept nogil
# A winning line from a won position of the last pass, written from line[n]: the line's new
# length, or -1 when a budget ran out.
cdef int lp_line(search* s, pyr_pos p, pyr_move* line, int n) noexcept nogil
