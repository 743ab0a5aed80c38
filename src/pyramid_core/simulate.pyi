"""Type stubs for the compiled pyramid_core.simulate module."""

import enum

import numpy

class sim_policy(enum.IntEnum):
    POLICY_RANDOM: int
    POLICY_GREEDY: int
    N_POLICIES: int

POLICIES: dict[str, int]
MAX_RECORD: int
MOVE_CAP: int

def run(
    policy: int,
    rules: dict,
    seed: int,
    start: int,
    deals: numpy.ndarray | None,
    lo: int,
    hi: int,
    won: numpy.ndarray,
    removed: numpy.ndarray,
    moves: numpy.ndarray,
    score: numpy.ndarray,
) -> None: ...
def run_decks(
    policy: int,
    rules: dict,
    seed: int,
    decks: numpy.ndarray,
    keys: numpy.ndarray,
    lo: int,
    hi: int,
    won: numpy.ndarray,
    removed: numpy.ndarray,
    moves: numpy.ndarray,
    score: numpy.ndarray,
) -> None: ...
def play(
    policy: int, rules: dict, seed: int, number: int, deck: list[int] | None = None
) -> tuple[bool, int, int, int, list[int]]: ...
def simd_path(policy: int | None = None, rules: dict | None = None) -> str: ...
def cpu_features() -> dict[str, bool]: ...
