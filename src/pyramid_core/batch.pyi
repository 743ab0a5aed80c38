"""Type stubs for the compiled pyramid_core.batch module (N games stepped at once)."""

import numpy as np
import numpy.typing as npt

N_ACTIONS_: int
OBS_SIZE_: int
UNKNOWN_: int
BYTES_PER_GAME: int
STATE_WORDS: int
REWARDS: dict[str, int]
ILLEGAL: dict[str, int]
AUTORESET: dict[str | None, int]

class Batch:
    def __init__(
        self,
        n: int,
        rules: dict[str, int],
        seed: int,
        offset: int,
        visible: bool,
        reward: int,
        illegal: int,
        autoreset: int,
        max_steps: int,
        penalty: float,
        scoring: tuple[float, float, float, float],
        decks: npt.NDArray[np.uint8] | None,
        keys: npt.NDArray[np.uint64] | None,
        numbered: npt.NDArray[np.uint8] | None,
        seeds: npt.NDArray[np.uint64] | None = None,
    ) -> None: ...
    @property
    def n(self) -> int: ...
    def get_games(self, cards: npt.NDArray[np.uint8], words: npt.NDArray[np.uint64]) -> None: ...
    def set_games(self, cards: npt.NDArray[np.uint8], words: npt.NDArray[np.uint64]) -> None: ...
    def set_info(
        self,
        moves: npt.NDArray[np.uint16],
        keys: npt.NDArray[np.uint64],
        numbered: npt.NDArray[np.uint8],
    ) -> None: ...
    def set_final_info(
        self,
        moves: npt.NDArray[np.uint16],
        keys: npt.NDArray[np.uint64],
        numbered: npt.NDArray[np.uint8],
    ) -> None: ...
    def reset(
        self,
        lo: int,
        hi: int,
        which: npt.NDArray[np.uint8] | None,
        obs: npt.NDArray[np.int8],
        mask: npt.NDArray[np.uint8],
    ) -> None: ...
    def reset_decks(
        self,
        games: npt.NDArray[np.int64],
        decks: npt.NDArray[np.uint8],
        keys: npt.NDArray[np.uint64],
        numbered: npt.NDArray[np.uint8],
        obs: npt.NDArray[np.int8],
        mask: npt.NDArray[np.uint8],
    ) -> None: ...
    def first_illegal(self, actions: npt.NDArray[np.int64], lo: int, hi: int) -> int: ...
    def set_outputs(
        self,
        obs: npt.NDArray[np.int8],
        mask: npt.NDArray[np.uint8],
        reward: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.uint8],
        truncated: npt.NDArray[np.uint8],
        illegal: npt.NDArray[np.uint8],
        reset: npt.NDArray[np.uint8],
        final_obs: npt.NDArray[np.int8],
        final_mask: npt.NDArray[np.uint8],
    ) -> None: ...
    def step(
        self, actions: npt.NDArray[np.int64], lo: int, hi: int, random: bool = False
    ) -> None: ...
    def rollout(
        self,
        steps: int,
        lo: int,
        hi: int,
        out: npt.NDArray[np.int64],
        cancel: npt.NDArray[np.uint8],
        obs: npt.NDArray[np.int8],
        mask: npt.NDArray[np.uint8],
        write: bool,
    ) -> None: ...
    def observe(
        self,
        lo: int,
        hi: int,
        obs: npt.NDArray[np.int8],
        mask: npt.NDArray[np.uint8],
        visible: bool,
    ) -> None: ...
    def state(self, out: npt.NDArray[np.int64]) -> None: ...
    def won(self, out: npt.NDArray[np.uint8]) -> None: ...
    def deck(self, i: int) -> bytes: ...
    def labels(
        self,
        games: npt.NDArray[np.int64],
        lo: int,
        hi: int,
        shortest: bool,
        max_removed: bool,
        max_nodes: int,
        max_seconds: float,
        max_memory: int,
        winnable: npt.NDArray[np.int8],
        n_moves: npt.NDArray[np.int16],
        action: npt.NDArray[np.int16],
        removable: npt.NDArray[np.int8],
        stop: npt.NDArray[np.int8],
        cancel: npt.NDArray[np.uint8],
    ) -> None: ...
    def optimal_masks(
        self,
        games: npt.NDArray[np.int64],
        lo: int,
        hi: int,
        shortest: bool,
        max_removed: bool,
        max_nodes: int,
        max_seconds: float,
        max_memory: int,
        winnable: npt.NDArray[np.int8],
        n_moves: npt.NDArray[np.int16],
        removable: npt.NDArray[np.int8],
        mask: npt.NDArray[np.uint8],
        stop: npt.NDArray[np.int8],
        cancel: npt.NDArray[np.uint8],
    ) -> None: ...
    def fair_actions(
        self,
        games: npt.NDArray[np.int64],
        lo: int,
        hi: int,
        params: dict[str, int],
        action: npt.NDArray[np.int16],
        cancel: npt.NDArray[np.uint8],
        wins: npt.NDArray[np.int16] | None = None,
        used: npt.NDArray[np.int16] | None = None,
    ) -> None: ...

def greedy_actions(
    rules: dict[str, int], obs: npt.NDArray[np.int8], out: npt.NDArray[np.int16]
) -> None: ...
def relaxed_actions(
    rules: dict[str, int], obs: npt.NDArray[np.int8], out: npt.NDArray[np.uint8]
) -> None: ...
def action_cards_of(a: int) -> tuple[int] | tuple[int, int]: ...
def action_of_cards(c: int, d: int = -1) -> int: ...
