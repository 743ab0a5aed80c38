# The frozen version-1 deal shuffle (docs/deal-codes.md): SplitMix64 seeded with the deal number,
# then Fisher-Yates from the top. Never change this: deal codes name deals through it.
from libc.stdint cimport uint8_t, uint64_t

cdef inline uint64_t splitmix64_next(uint64_t* state) noexcept nogil:
    cdef uint64_t z
    state[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)

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
