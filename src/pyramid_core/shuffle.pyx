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
