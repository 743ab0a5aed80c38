"""Type stubs for the compiled pyramid_core.shuffle module."""

import numpy as np
import numpy.typing as npt

MAX_DEAL_NUMBER: int

def deal_cards(number: int) -> list[int]: ...
def splitmix64(state: int, count: int) -> list[int]: ...
def decks(numbers: npt.NDArray[np.uint64], out: npt.NDArray[np.uint8]) -> None: ...
