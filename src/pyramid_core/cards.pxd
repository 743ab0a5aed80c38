# Cards (docs/rules.md): index c in 0..51, rank c % 13 + 1 (A=1 .. K=13), suit c // 13
# (0 clubs, 1 diamonds, 2 hearts, 3 spades). Token parsing and formatting for people lives in
# the Python layer (pyramid_solitaire.cards); the core only needs the arithmetic.

cdef enum:
    N_CARDS = 52
    N_PYRAMID = 28
    N_TALON = 24
    KING = 13

cdef inline int card_rank(int c) noexcept nogil:
    return c % 13 + 1

cdef inline int card_suit(int c) noexcept nogil:
    return c // 13
