"""Type stubs for the compiled pyramid_core.batch module (N games stepped at once)."""

import numpy

N_ACTIONS_: int
OBS_SIZE_: int
UNKNOWN_: int
BYTES_PER_GAME: int
REWARDS: dict[str, int]
ILLEGAL: dict[str, int]
AUTORESET: dict[str | None, int]

class Batch:
    def __init__(
        self,
        n: int,
        rules: dict,
        seed: int,
        offset: int,
        visible: bool,
        reward: int,
        illegal: int,
        autoreset: int,
        max_steps: int,
        penalty: float,
        scoring: tuple[float, float, float, float],
        decks: numpy.ndarray | None,
        keys: numpy.ndarray | None,
        numbered: numpy.ndarray | None,
    ) -> None: ...
    @property
    def n(self) -> int: ...
    def set_info(
        self, moves: numpy.ndarray, keys: numpy.ndarray, numbered: numpy.ndarray
    ) -> None: ...
    def reset(
        self, lo: int, hi: int, which: numpy.ndarray | None, obs: numpy.ndarray, mask: numpy.ndarray
    ) -> None: ...
    def reset_decks(
        self,
        games: numpy.ndarray,
        decks: numpy.ndarray,
        keys: numpy.ndarray,
        numbered: numpy.ndarray,
        obs: numpy.ndarray,
        mask: numpy.ndarray,
    ) -> None: ...
    def first_illegal(self, actions: numpy.ndarray, lo: int, hi: int) -> int: ...
    def set_outputs(
        self,
        obs: numpy.ndarray,
        mask: numpy.ndarray,
        reward: numpy.ndarray,
        terminated: numpy.ndarray,
        truncated: numpy.ndarray,
        illegal: numpy.ndarray,
        reset: numpy.ndarray,
        final_obs: numpy.ndarray,
        final_mask: numpy.ndarray,
    ) -> None: ...
    def step(self, actions: numpy.ndarray, lo: int, hi: int, random: bool = False) -> None: ...
    def rollout(
        self,
        steps: int,
        lo: int,
        hi: int,
        out: numpy.ndarray,
        cancel: numpy.ndarray,
        obs: numpy.ndarray,
        mask: numpy.ndarray,
        write: bool,
    ) -> None: ...
    def observe(
        self, lo: int, hi: int, obs: numpy.ndarray, mask: numpy.ndarray, visible: bool
    ) -> None: ...
    def state(self, out: numpy.ndarray) -> None: ...
    def won(self, out: numpy.ndarray) -> None: ...
    def deck(self, i: int) -> bytes: ...
    def labels(
        self,
        games: numpy.ndarray,
        lo: int,
        hi: int,
        shortest: bool,
        max_removed: bool,
        max_nodes: int,
        max_seconds: float,
        max_memory: int,
        winnable: numpy.ndarray,
        n_moves: numpy.ndarray,
        action: numpy.ndarray,
        removable: numpy.ndarray,
        stop: numpy.ndarray,
        cancel: numpy.ndarray,
    ) -> None: ...

def action_cards_of(a: int) -> tuple[int, ...]: ...
def action_of_cards(c: int, d: int = -1) -> int: ...
