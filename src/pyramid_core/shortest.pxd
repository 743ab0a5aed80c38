# Shortest winning lines: A* over the positions after removals (shortest.pyx).
from libc.stdint cimport int64_t

from pyramid_core.position cimport pyr_pos
from pyramid_core.search cimport search

# 1: s.path holds a shortest line from start (real moves); 0: none; -1: a budget ran out
# (s.stop says which). s.seen and s.visit are the search's tables, emptied by the caller;
# max_bytes bounds the nodes and the frontier.
cdef int astar(search* s, pyr_pos start, int64_t max_bytes) noexcept nogil
