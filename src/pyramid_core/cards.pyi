"""Type stubs for the compiled pyramid_core.cards module."""

RANKS: str
SUITS: str

def rank(c: int) -> int: ...
def suit(c: int) -> int: ...
