"""Type stubs for the compiled pyramid_core._bench module (C-level loops for bench/)."""

def shuffle_many(start: int, count: int) -> int: ...

class RandomPositions:
    count: int
    def __init__(
        self, count: int, n_deals: int = 1000, rules: dict[str, int] | None = None, seed: int = 1
    ) -> None: ...
    def generate_and_apply(self) -> int: ...
