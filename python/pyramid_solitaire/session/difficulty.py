"""How hard a deal is under a rule set: a level from 1 (easy) to 5 (expert), or 6 when the
solver proves the deal cannot be won.

The rating is a function of the deal and the rules only (the playouts use a fixed seed), so
the same deal always gets the same level, in every session and on every machine:

1. **Playouts.** The deal is played :data:`PLAYOUTS` times by the ``random`` policy (each
   game its own stream of a fixed seed) and once by ``greedy``. ``p`` is the share of the
   random games won: how often a player who sees nothing ahead still wins.
2. **Level from p** (:data:`THRESHOLDS`): p >= 0.5 easy (1), >= 0.15 medium (2), >= 0.03 hard
   (3), > 0 very hard (4), 0 expert (5). A greedy win (a simple plan works) makes the deal
   one level easier, not below 1.
3. **Solver.** A won playout proves the deal winnable. When none is won, the solver decides
   the deal within :data:`SOLVER_SECONDS`: proved lost gives level 6 (``unwinnable``);
   winnable, or undecided in the budget, stays at 5 (``winnable`` True or None).

>>> d = rate("PY1-N-AAAAAAS")
>>> d.level, d.label, d.winnable
(1, 'easy', True)
>>> rate("PY1-N-AAAAAAS").random_win_rate == d.random_win_rate     # always the same
True
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..runtime import args as _args

#: Random playouts per deal.
PLAYOUTS = 200
#: The random policy's seed: fixed, so a deal's rating never changes.
SEED = 0x5EED_D1FF
#: The solver's budget (seconds) for a deal no playout won.
SOLVER_SECONDS = 0.25
#: Lowest share of random wins for levels 1, 2, 3 (any win: 4; none: 5).
THRESHOLDS = (0.5, 0.15, 0.03)
#: The levels' names (message codes ``difficulty_<label>`` translate them).
LABELS = {1: "easy", 2: "medium", 3: "hard", 4: "very_hard", 5: "expert", 6: "unwinnable"}


@dataclass(frozen=True)
class Difficulty:
    """A deal's rating (see the module's text for how it is computed)."""

    level: int  # 1 easy .. 5 expert, 6 proved unwinnable
    winnable: bool | None  # None: no playout won and the solver ran out of budget
    random_win_rate: float  # share of the PLAYOUTS random games won
    greedy_won: bool
    solver_nodes: int  # positions the solver searched (0 when it was not needed)

    @property
    def label(self) -> str:
        return LABELS[self.level]

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "label": self.label}

    @classmethod
    def from_dict(cls, data: Any) -> Difficulty:
        """The rating of :meth:`to_dict` (as saved); ValueError when it is not one."""
        try:
            d = cls(
                _args.whole("difficulty.level", data["level"], 1, 6),
                data["winnable"],
                _args.real("difficulty.random_win_rate", data["random_win_rate"], positive=False),
                _args.flag("difficulty.greedy_won", data["greedy_won"]),
                _args.whole("difficulty.solver_nodes", data["solver_nodes"], 0, _args.INT64_MAX),
            )
        except (KeyError, TypeError):
            raise ValueError(
                "difficulty: expected level, winnable, random_win_rate, greedy_won and solver_nodes"
            ) from None
        if not 0 <= d.random_win_rate <= 1:
            raise ValueError(f"difficulty.random_win_rate is 0..1, got {d.random_win_rate!r}")
        if d.level not in LABELS or d.winnable not in (True, False, None):
            raise ValueError(
                f"difficulty: level 1..6 and winnable true/false/null, got "
                f"{d.level}, {d.winnable!r}"
            )
        return d


def level_of(random_win_rate: float, greedy_won: bool) -> int:
    """Levels 1..5 from the playouts (step 2 of the module's text)."""
    level = 1 + sum(random_win_rate < t for t in THRESHOLDS)
    if level == 4 and random_win_rate == 0:
        level = 5
    return max(1, level - 1) if greedy_won else level


def rate(deal: Any, rules: Any = None) -> Difficulty:
    """The difficulty of ``deal`` (a code, card list, :class:`Deal` or number) under ``rules``
    (default: the code's rules, else ``pyramide``). The last ratings are remembered (a
    restarted deal, a shared code, another tab on the same game cost nothing)."""
    from ..inputs.deals import read_deal

    deal = read_deal(deal, rules)
    return _rate(tuple(int(c) for c in deal.cards), deal.rules)


@functools.lru_cache(maxsize=4096)
def _rate(cards: tuple[int, ...], rules: Any) -> Difficulty:
    from ..analysis.simulate import simulate
    from ..analysis.solver import solve
    from ..model.deal import Deal

    deal = Deal.from_cards(list(cards), rules=rules)
    deck = np.asarray(cards, dtype=np.uint8)
    games = np.tile(deck, (PLAYOUTS, 1))
    random = simulate(deals=games, rules=rules, policy="random", seed=SEED, threads=1)
    greedy = simulate(deals=games[:1], rules=rules, policy="greedy", threads=1)
    p = random.wins / PLAYOUTS
    greedy_won = bool(greedy.wins)
    winnable: bool | None
    level, winnable, nodes = level_of(p, greedy_won), p > 0 or greedy_won, 0
    if not winnable:
        solution = solve(deal, rules, max_seconds=SOLVER_SECONDS)
        winnable, nodes = solution.winnable, solution.nodes
        if winnable is False:
            level = 6
    return Difficulty(level, winnable, p, greedy_won, nodes)
