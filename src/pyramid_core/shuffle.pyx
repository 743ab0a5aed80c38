# cython: language_level=3
"""The version-1 deal shuffle seen from Python."""
from libc.stdint cimport uint8_t, uint64_t

MAX_DEAL_NUMBER = 26 ** 7 - 1


def deal_cards(unsigned long long number):
    """The 52 card indices of deal ``number`` (pyramid row-major, then the talon)."""
    cdef uint8_t deck[52]
    deal_shuffle(number, deck)
    return [deck[i] for i in range(52)]


def splitmix64(unsigned long long state, int count):
    """The first ``count`` outputs of the generator seeded with ``state`` (for tests)."""
    cdef uint64_t s = state
    return [splitmix64_next(&s) for _ in range(count)]


def decks(const uint64_t[::1] numbers, uint8_t[:, ::1] out):
    """Shuffle every deal number into a row of `out` (shape (n, 52)), without the GIL."""
    cdef Py_ssize_t i
    if out.shape[0] != numbers.shape[0] or out.shape[1] != 52:
        raise ValueError("out must have shape (len(numbers), 52)")
    with nogil:
        for i in range(numbers.shape[0]):
            deal_shuffle(numbers[i], &out[i, 0])
