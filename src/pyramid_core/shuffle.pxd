# The frozen version-1 deal shuffle (docs/deal-codes.md): SplitMix64 seeded with the deal number,
# then Fisher-Yates from the top. Never change this: deal codes name deals through it.
from libc.stdint cimport uint8_t, uint32_t, uint64_t

cdef extern from "pyr_rng.h" nogil:
    # The core's one generator (pyr_rng.h): SplitMix64's next value, and a uniform draw below n.
    uint64_t splitmix64_next "pyr_sm_next"(uint64_t* state)
    uint32_t rand_below "pyr_rand_below"(uint64_t* state, uint32_t n)

cdef inline void deal_shuffle(uint64_t number, uint8_t* deck) noexcept nogil:
    """Write deal `number`'s 52 card indices to deck: pyramid row-major, then the talon in
    draw order."""
    cdef uint64_t state = number
    cdef int i, j
    cdef uint8_t tmp
    for i in range(52):
        deck[i] = <uint8_t>i
    for i in range(51, 0, -1):
        j = <int>(splitmix64_next(&state) % <uint64_t>(i + 1))
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
