"""Type stubs for the compiled core_hooks._simulate_tests module (the simulator's test and
benchmark hooks)."""

import numpy as np
import numpy.typing as npt

PATH_NAMES: tuple[str, ...]

def paths() -> list[str]: ...
def path_in_use() -> str: ...
def run(
    path: str,
    policy: int,
    rules: dict,
    seed: int,
    start: int,
    deals: npt.NDArray[np.uint64] | None,
    lo: int,
    hi: int,
    won: npt.NDArray[np.uint8],
    removed: npt.NDArray[np.uint8],
    moves: npt.NDArray[np.uint16],
    score: npt.NDArray[np.uint16],
    move_cap: int = ...,
) -> None: ...
def play(
    policy: int, rules: dict, seed: int, number: int, move_cap: int = ...
) -> tuple[bool, int, int, int]: ...
def reference(
    policy: int, rules: dict, seed: int, number: int, move_cap: int = ...
) -> tuple[bool, int, int, int, list[int]]: ...
def check_deal_setup(start: int, count: int, rules: dict, path: str) -> list[int]: ...
def shuffle_ranks(number: int, path: str = "scalar") -> list[int]: ...
def game_seed(seed: int, number: int) -> int: ...
def bench_setup(
    start: int, count: int, rules: dict, mode: int = 0, path: str | None = None
) -> int: ...
def veto(
    rules: dict, number: int, pyr: int, talon: int, a: int, b: int
) -> tuple[bool, list[int]]: ...
