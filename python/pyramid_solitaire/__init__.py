"""pyramid-solitaire: a fast, exact Pyramid Solitaire engine.

>>> from pyramid_solitaire import Game, Deal, Rules, Move
>>> game = Game(Deal.from_code("PY1-N-AAAAAAS"))
>>> game.play(game.legal_moves[0])
"""

from ._parallel import Cancelled
from .batch import GameBatch
from .cards import CARDS, Card, format_cards, parse_card, parse_cards
from .deal import Deal
from .fair import Hindsight, WinChance, win_chance
from .game import Game, IllegalMoveError, Status
from .move import Move
from .rules import UNLIMITED, Rules
from .simulate import SimulationResult, memory_needed, replay, simd_path, simulate
from .solver import (
    SearchBudgetExceeded,
    Solution,
    SolveManyResult,
    can_still_win,
    hint,
    max_removable,
    max_removed_line,
    solve,
    solve_many,
)

__version__ = "0.1.0"  # the one place it is written (pyproject.toml reads it); see CHANGELOG.md

__all__ = [
    "CARDS",
    "Card",
    "Deal",
    "Game",
    "IllegalMoveError",
    "Move",
    "Rules",
    "Status",
    "UNLIMITED",
    "format_cards",
    "parse_card",
    "parse_cards",
    "__version__",
    "SearchBudgetExceeded",
    "Solution",
    "SolveManyResult",
    "can_still_win",
    "hint",
    "max_removable",
    "solve",
    "solve_many",
    "SimulationResult",
    "replay",
    "simulate",
    "simd_path",
    "memory_needed",
    "max_removed_line",
    "GameBatch",
    "Cancelled",
    "Hindsight",
    "WinChance",
    "win_chance",
]
