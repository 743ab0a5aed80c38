"""Type stubs for the compiled pyramid_core.solver module."""

from typing import Any

import numpy

from .position import Table

OBJECTIVES: dict[str, int]
STOPS: dict[int, str | None]

def solve_table(
    table: Table,
    pos: int,
    objective: int = 0,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | None = None,
    no_prune: bool = False,
    cancel: Any = None,
) -> dict[str, Any]: ...
def solve_decks(
    decks: numpy.ndarray,
    rules: dict[str, int],
    objective: int,
    max_nodes: int | None,
    max_seconds: float | None,
    max_memory: int | None,
    lo: int,
    hi: int,
    winnable: numpy.ndarray,
    n_moves: numpy.ndarray,
    max_removed: numpy.ndarray,
    nodes: numpy.ndarray,
    seconds: numpy.ndarray,
    stop: numpy.ndarray,
    optimal: numpy.ndarray,
    cancel: Any = None,
) -> None: ...
