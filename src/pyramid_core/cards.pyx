# cython: language_level=3
"""Card arithmetic of the core (docs/rules.md), exposed to Python for tests and tools."""

RANKS = "A23456789TJQK"
SUITS = "cdhs"


def rank(int c):
    """Rank 1..13 of card index ``c`` (A=1, J=11, Q=12, K=13)."""
    return card_rank(c)


def suit(int c):
    """Suit 0..3 of card index ``c`` (clubs, diamonds, hearts, spades)."""
    return card_suit(c)
