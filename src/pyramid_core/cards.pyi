"""Type stubs for the compiled pyramid_core.cards module."""

RANKS: str  # "A23456789TJQK": a card index's rank letter is RANKS[rank(c)]
SUITS: str  # "cdhs"

def rank(c: int) -> int: ...
def suit(c: int) -> int: ...
