"""Type stubs for the compiled pyramid_core.fair module."""

import numpy as np
import numpy.typing as npt

DEFAULTS: dict[str, int]

class _Ctx:  # one call's working state (a thread's solver tables)
    def __init__(
        self, params: dict[str, int], cancel: npt.NDArray[np.uint8] | None = None
    ) -> None: ...

def run(
    params: dict[str, int],
    rules: dict[str, int],
    start: int,
    deals: npt.NDArray[np.uint64] | None,
    decks: npt.NDArray[np.uint8] | None,
    lo: int,
    hi: int,
    won: npt.NDArray[np.uint8],
    removed: npt.NDArray[np.uint8],
    moves: npt.NDArray[np.uint16],
    score: npt.NDArray[np.uint16],
    cancel: npt.NDArray[np.uint8] | None = None,
) -> tuple[int, int, int] | None: ...
def play(
    params: dict[str, int], rules: dict[str, int], deck: list[int]
) -> tuple[bool, int, int, int, list[int]]: ...
def decide(
    params: dict[str, int],
    rules: dict[str, int],
    deck: list[int],
    pos: int,
    seen: int,
    stuck: bool = False,
    cancel: npt.NDArray[np.uint8] | None = None,
) -> tuple[int, dict[int, int], int]: ...
def chance(
    params: dict[str, int],
    rules: dict[str, int],
    deck: list[int],
    pos: int,
    seen: int,
    cancel: npt.NDArray[np.uint8] | None = None,
) -> tuple[int, int, int]: ...
def completion(
    rules: dict[str, int], deck: list[int], pos: int, seen: int, seed: int, sample: int
) -> list[int]: ...
def unseen(
    rules: dict[str, int], deck: list[int], pos: int, seen: int
) -> tuple[list[int], list[int]]: ...
def seen_after(rules: dict[str, int], deck: list[int], pos: int, seen: int) -> int: ...
