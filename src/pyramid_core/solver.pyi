"""Type stubs for the compiled pyramid_core.solver module."""

from typing import TypedDict

import numpy as np
import numpy.typing as npt

from .position import Table

class _Solved(TypedDict):
    """What solve_table returns."""

    winnable: int  # 1, 0, or -1 (unknown: a budget ran out, or cancelled)
    stop: str | None  # None, or the STOPS name of what stopped the search
    optimal: bool
    line: list[int]  # move codes
    max_removed: int
    nodes: int
    seconds: float

OBJECTIVES: dict[str, int]
STOPS: dict[int, str | None]

class Workspace:
    def __init__(self) -> None: ...

def solve_table(
    table: Table,
    pos: int,
    objective: int = 0,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | None = None,
    no_prune: bool = False,
    cancel: npt.NDArray[np.uint8] | None = None,
    workspace: Workspace | None = None,
) -> _Solved: ...
def solve_decks(
    decks: npt.NDArray[np.uint8],
    rules: dict[str, int],
    objective: int,
    max_nodes: int | None,
    max_seconds: float | None,
    max_memory: int | None,
    lo: int,
    hi: int,
    winnable: npt.NDArray[np.int8],
    n_moves: npt.NDArray[np.int32],
    max_removed: npt.NDArray[np.int32],
    nodes: npt.NDArray[np.int64],
    seconds: npt.NDArray[np.float64],
    stop: npt.NDArray[np.int8],
    optimal: npt.NDArray[np.int8],
    cancel: npt.NDArray[np.uint8] | None = None,
    lines: npt.NDArray[np.uint16] | None = None,
    by_cards: bool = False,
) -> None: ...
