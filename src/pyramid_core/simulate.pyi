"""Type stubs for the compiled pyramid_core.simulate module."""

import enum
from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

class sim_policy(enum.IntEnum):
    POLICY_RANDOM = 0
    POLICY_GREEDY = 1
    N_POLICIES = 2

POLICIES: dict[str, sim_policy]
MAX_RECORD: int
MOVE_CAP: int

# ---- the vector path (PYRAMID_SIMD, the CPU's instruction sets) ----
PATH_NAMES: tuple[str, ...]  # the path names, by PATH_* ("one-lane": the tests' only)
_SIMD_CHOICES: tuple[str, ...]  # the values PYRAMID_SIMD takes

def _path_from_environment() -> None: ...
def simd_path(
    policy: int | None = None, rules: dict[str, int] | None = None
) -> Literal["scalar", "avx512"]: ...
def cpu_features() -> dict[str, bool]: ...  # {"avx512": ...}

# ---- the playouts ----
def run(
    policy: int,
    rules: dict[str, int],
    seed: int,
    start: int,
    deals: npt.NDArray[np.uint64] | None,
    lo: int,
    hi: int,
    won: npt.NDArray[np.uint8],
    removed: npt.NDArray[np.uint8],
    moves: npt.NDArray[np.uint16],
    score: npt.NDArray[np.uint16],
) -> None: ...
def run_decks(
    policy: int,
    rules: dict[str, int],
    seed: int,
    decks: npt.NDArray[np.uint8],
    keys: npt.NDArray[np.uint64],
    lo: int,
    hi: int,
    won: npt.NDArray[np.uint8],
    removed: npt.NDArray[np.uint8],
    moves: npt.NDArray[np.uint16],
    score: npt.NDArray[np.uint16],
) -> None: ...
def play(
    policy: int, rules: dict[str, int], seed: int, number: int, deck: Sequence[int] | None = None
) -> tuple[bool, int, int, int, list[int]]: ...
def playout_kind(rules: dict[str, int]) -> str: ...
