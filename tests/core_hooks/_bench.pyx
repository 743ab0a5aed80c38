# cython: language_level=3
"""C-level loops for bench/: they time the core without Python in the loop."""
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport malloc, free

from pyramid_core.position cimport (pyr_table, pyr_pos, pyr_move, MAX_MOVES, table_init,
                                    pos_start, gen_moves, pos_apply)
from pyramid_core.rules cimport pyr_rules, rules_from_options
from pyramid_core.shuffle cimport deal_shuffle, splitmix64_next


def shuffle_many(unsigned long long start, long long count):
    """Shuffle deals start .. start+count-1; return a checksum so nothing is optimised away."""
    cdef uint8_t deck[52]
    cdef uint64_t acc = 0, n
    with nogil:
        for n in range(start, start + count):
            deal_shuffle(n, deck)
            acc += deck[0] + deck[27] * 7 + deck[51] * 13
    return acc


cdef class RandomPositions:
    """`count` positions reached by uniformly random play on `n_deals` deals."""
    cdef pyr_table* tables
    cdef pyr_pos* pos
    cdef int* which
    cdef readonly long long count
    cdef int n_deals

    def __cinit__(self, long long count, int n_deals=1000, dict rules=None,
                  unsigned long long seed=1):
        cdef pyr_rules r
        cdef uint8_t deck[52]
        cdef pyr_move buf[MAX_MOVES]
        cdef uint64_t rng = seed
        cdef long long i
        cdef int d, n, steps, _s
        cdef pyr_pos p
        rules_from_options(&r, rules or {})
        self.count = count
        self.n_deals = n_deals
        self.tables = <pyr_table*>malloc(n_deals * sizeof(pyr_table))
        self.pos = <pyr_pos*>malloc(count * sizeof(pyr_pos))
        self.which = <int*>malloc(count * sizeof(int))
        if not self.tables or not self.pos or not self.which:
            raise MemoryError()
        for d in range(n_deals):
            deal_shuffle(d, deck)
            table_init(&self.tables[d], deck, &r)
        with nogil:
            for i in range(count):
                d = <int>(splitmix64_next(&rng) % <uint64_t>n_deals)
                p = pos_start(&self.tables[d])
                steps = <int>(splitmix64_next(&rng) % 60)
                for _s in range(steps):
                    n = gen_moves(&self.tables[d], p, buf)
                    if n == 0:
                        break
                    p = pos_apply(&self.tables[d], p, buf[splitmix64_next(&rng) % <uint64_t>n])
                self.pos[i] = p
                self.which[i] = d

    def __dealloc__(self):
        free(self.tables)
        free(self.pos)
        free(self.which)

    def generate_and_apply(self):
        """For each position: generate its legal moves and apply the last one. Returns a
        checksum of the resulting positions."""
        cdef pyr_move buf[MAX_MOVES]
        cdef uint64_t acc = 0
        cdef long long i
        cdef int n
        cdef const pyr_table* t
        with nogil:
            for i in range(self.count):
                t = &self.tables[self.which[i]]
                n = gen_moves(t, self.pos[i], buf)
                if n:
                    acc += pos_apply(t, self.pos[i], buf[n - 1])
        return acc
