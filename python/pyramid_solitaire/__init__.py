"""pyramid-solitaire: a fast, exact Pyramid Solitaire engine.

>>> from pyramid_solitaire import Game, Deal, Rules, Move
>>> game = Game(Deal.from_code("PY1-N-AAAAAAS"))
>>> game.play(game.legal_moves[0])

The package is grouped by layer, each importing only those below it (docs/internals/
layers.md): ``runtime`` (argument checks, atomic files, threads, clusters, plots),
``model`` (cards, rules, deals, moves, the game), ``inputs`` (many deals, JSON),
``analysis`` (solver, fair policies, the batch, simulator, surveys, atlas), ``rl`` (the
Gymnasium environments), ``session`` (a game as a player lives it), the frontends ``tui``
and ``web``, and ``commands`` (the command line). The modules' old flat names
(``pyramid_solitaire.solver``, ``.batch``, ...) still import (``_moved``).
"""

from . import _moved
from .analysis.batch import GameBatch
from .analysis.fair import Hindsight, WinChance, win_chance
from .analysis.intervals import wilson_interval
from .analysis.simulate import SimulationResult, memory_needed, replay, simd_path, simulate
from .analysis.solver import (
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
from .model.cards import CARDS, Card, format_cards, parse_card, parse_cards
from .model.deal import Deal
from .model.game import Game, IllegalMoveError, Status
from .model.move import Move
from .model.rules import UNLIMITED, Rules
from .rl.registration import register_when_available
from .runtime.parallel import Cancelled

__version__ = "0.2.0"  # the one place it is written (pyproject.toml reads it); see CHANGELOG.md

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
    "wilson_interval",
]

_moved.install()  # the modules' old names (pyramid_solitaire.solver, ...) still import
register_when_available()  # gymnasium.make("pyramid_solitaire/Pyramid-v0"), rl extra installed
