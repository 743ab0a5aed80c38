"""The exact solver: is a deal winnable, a winning line, the shortest one, the most pyramid
cards any line removes, hints, and many deals at once over all cores (SPEC section 8).

>>> s = solve("PY1-M-AAAAAAS")
>>> s.winnable, s.n_moves == len(s.moves), s.replay().status
(True, True, <Status.WON: 'won'>)

Answers are exact: ``winnable`` is None (never a guess) when a budget ran out, and
``stopped_by`` says which one. Under ``objective="min_moves"`` a deal already proved winnable
keeps the winning line found (``winnable`` True, ``optimal`` False, ``stopped_by`` set) when
the budget runs out during the search for the shortest one.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

from pyramid_core import solver as _core
from pyramid_core.shuffle import decks as _decks

from ._parallel import Progress, run_chunks
from .deal import Deal
from .game import Game, Status
from .move import Move
from .rules import Rules

OBJECTIVES = ("any", "min_moves")
DEFAULT_MAX_MEMORY = 1 << 30
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20,
          "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30}


class SearchBudgetExceeded(RuntimeError):
    """A budget (nodes, time or memory) ran out before the answer was known."""

    def __init__(self, budget: str, best: int | None = None) -> None:
        self.budget, self.best = budget, best
        extra = f"; the best line found removes {best} pyramid cards" if best is not None else ""
        super().__init__(f"the {budget} budget ran out before the search finished{extra}")


@dataclass(frozen=True)
class Solution:
    """What the solver found for one deal or position."""

    winnable: bool | None          # None: a budget ran out (see stopped_by)
    moves: list[Move] | None       # a winning line (the shortest when optimal), else None
    nodes: int                     # positions searched
    seconds: float
    objective: str = "any"
    stopped_by: str | None = None  # "nodes", "time", "memory" or "cancelled" when the search
                                   # stopped early
    optimal: bool = False          # True only when moves is known to be a shortest winning
                                   # line (min_moves, search finished); False with "any"
    deal: Deal | None = field(default=None, repr=False)
    rules: Rules | None = field(default=None, repr=False)
    start: Game | None = field(default=None, repr=False, compare=False)

    @property
    def n_moves(self) -> int | None:
        """Moves in the winning line: every draw, recycle, King and pair counts one."""
        return None if self.moves is None else len(self.moves)

    def replay(self) -> Game:
        """The game after playing the winning line (ValueError when there is none)."""
        if self.moves is None:
            raise ValueError("no winning line to replay"
                             + (f" (the {self.stopped_by} budget ran out)" if self.stopped_by else ""))
        game = self.start.copy() if self.start is not None else Game(self.deal, self.rules)
        game.play_all(self.moves)
        return game

    def __repr__(self) -> str:
        stop = f", stopped_by={self.stopped_by!r}" if self.stopped_by else ""
        return (f"Solution(winnable={self.winnable}, n_moves={self.n_moves}, nodes={self.nodes}, "
                f"seconds={self.seconds:.6f}, objective={self.objective!r}{stop})")

    def to_dict(self) -> dict[str, Any]:
        return {"deal": None if self.deal is None else (self.deal.code or self.deal.to_cards()),
                "rules": None if self.rules is None else self.rules.name,
                "objective": self.objective, "winnable": self.winnable,
                "n_moves": self.n_moves,
                "moves": None if self.moves is None else [str(m) for m in self.moves],
                "optimal": self.optimal, "nodes": self.nodes,
                "seconds": round(self.seconds, 6), "stopped_by": self.stopped_by}


# ---- argument checking ---------------------------------------------------------------------

def parse_memory(value: int | str | None) -> int | None:
    """Bytes from an int or a text such as ``"512MB"`` or ``"1 GiB"``."""
    if value is None:
        return None
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", value)
        if not m or m.group(2).lower() not in _UNITS:
            raise ValueError(f"max_memory {value!r}: expected bytes such as 1000000, '512MB' or '1GiB'")
        value = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 << 16:
        raise ValueError(f"max_memory must be at least 65536 bytes, got {value!r}")
    return value


def _budgets(max_nodes: Any, max_seconds: Any, max_memory: Any) -> dict[str, Any]:
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes < 1):
        raise ValueError(f"max_nodes must be a positive whole number or None, got {max_nodes!r}")
    if max_seconds is not None:
        if isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float)) \
                or not max_seconds > 0 or math.isnan(max_seconds):
            raise ValueError(f"max_seconds must be a positive number or None, got {max_seconds!r}")
        if math.isinf(max_seconds):
            max_seconds = None
    memory = parse_memory(max_memory)
    return dict(max_nodes=max_nodes, max_seconds=max_seconds,
                max_memory=DEFAULT_MAX_MEMORY if memory is None else memory)


def _objective(objective: str) -> int:
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(map(repr, OBJECTIVES))}, "
                         f"got {objective!r}")
    return _core.OBJECTIVES[objective]


def _game_of(deal: Deal | Game | str | Sequence, rules: Rules | str | None) -> Game:
    if isinstance(deal, Game):
        if rules is not None and Rules.preset(rules) != deal.rules:
            raise ValueError("a Game carries its own rules; do not pass other rules with it")
        return deal
    return Game(deal, rules)


def _run(game: Game, objective: int, budgets: dict[str, Any]) -> dict[str, Any]:
    return _core.solve_table(game._table, game.position, objective, **budgets)


# ---- one deal or position ------------------------------------------------------------------

def solve(deal: Deal | Game | str | Sequence, rules: Rules | str | None = None, *,
          objective: str = "any", max_nodes: int | None = None,
          max_seconds: float | None = None, max_memory: int | str | None = None) -> Solution:
    """Decide a deal (a Deal, code or card list) or a Game's current position exactly.

    ``objective="min_moves"`` returns a shortest winning line (``optimal`` True). Budgets:
    positions searched, wall-clock seconds, and bytes for the search's tables (default 1 GiB);
    when one runs out, ``winnable`` is None and ``stopped_by`` names it. Under min_moves, a
    deal proved winnable before the budget ran out keeps the winning line found:
    ``winnable`` True, ``optimal`` False, ``stopped_by`` set.
    """
    obj = _objective(objective)
    budgets = _budgets(max_nodes, max_seconds, max_memory)
    game = _game_of(deal, rules)
    r = _run(game, obj, budgets)
    winnable = None if r["winnable"] < 0 else bool(r["winnable"])
    moves = [game._to_move(c) for c in r["line"]] if winnable else None
    return Solution(winnable=winnable, moves=moves, nodes=r["nodes"], seconds=r["seconds"],
                    objective=objective, stopped_by=r["stop"], optimal=r["optimal"],
                    deal=game.deal, rules=game.rules,
                    start=game if isinstance(deal, Game) else None)


def _max_line(game: Game, budgets: dict[str, Any]) -> tuple[int, list[Move]]:
    r = _run(game, _core.OBJECTIVES["max_removed"], budgets)
    if r["stop"] is not None and r["max_removed"] < 28:
        raise SearchBudgetExceeded(r["stop"], r["max_removed"])
    return r["max_removed"], [game._to_move(c) for c in r["line"]]


def max_removable(deal: Deal | Game | str | Sequence, rules: Rules | str | None = None, *,
                  max_nodes: int | None = None, max_seconds: float | None = None,
                  max_memory: int | str | None = None) -> int:
    """The most pyramid cards any line of play removes (28 when the deal can be won), counting
    the cards already removed in a Game. SearchBudgetExceeded if a budget runs out."""
    game = _game_of(deal, rules)
    return _max_line(game, _budgets(max_nodes, max_seconds, max_memory))[0]


def hint(game: Game, *, max_nodes: int | None = None, max_seconds: float | None = None,
         max_memory: int | str | None = None) -> Move | None:
    """A move on a winning line; when the game cannot be won any more, the first move of a
    line removing the most pyramid cards. None when the game is over or no line removes
    anything more."""
    if not isinstance(game, Game):
        raise ValueError(f"hint takes a Game, got {type(game).__name__}")
    if game.status is not Status.PLAYING:
        return None
    budgets = _budgets(max_nodes, max_seconds, max_memory)
    r = _run(game, _core.OBJECTIVES["max_removed"], budgets)   # a win first, else the most cards
    if r["winnable"] == 1:
        return game._to_move(r["line"][0])
    if r["winnable"] < 0 or r["stop"] is not None:
        raise SearchBudgetExceeded(r["stop"] or "unknown", r["max_removed"])
    line = r["line"]
    return game._to_move(line[0]) if line and r["max_removed"] > game.pyramid_removed else None


def can_still_win(game: Game, *, max_nodes: int | None = None, max_seconds: float | None = None,
                  max_memory: int | str | None = None) -> bool | None:
    """Whether the current position can still be won (seed 003's "no chance to win" notice
    is ``can_still_win(game) is False``); None when a budget ran out."""
    if not isinstance(game, Game):
        raise ValueError(f"can_still_win takes a Game, got {type(game).__name__}")
    return solve(game, max_nodes=max_nodes, max_seconds=max_seconds,
                 max_memory=max_memory).winnable


# ---- many deals ----------------------------------------------------------------------------

@dataclass
class SolveManyResult:
    """Per-deal results as numpy arrays (row i is deal i of the input)."""

    winnable: np.ndarray      # int8: 1 winnable, 0 not, -1 unknown (a budget ran out)
    n_moves: np.ndarray       # int32: length of the line found (-1: none)
    max_removed: np.ndarray   # int32: most pyramid cards removable (-1 unless asked for)
    nodes: np.ndarray         # int64
    seconds: np.ndarray       # float64
    stopped_by: np.ndarray    # int8: 0 none, 1 nodes, 2 time, 3 memory, 4 cancelled
    optimal: np.ndarray       # int8: 1 when the line is known to be a shortest (min_moves)
    rules: Rules
    objective: str

    def __len__(self) -> int:
        return len(self.winnable)

    @property
    def win_rate(self) -> float:
        decided = self.winnable >= 0
        return float(np.mean(self.winnable[decided] == 1)) if decided.any() else float("nan")

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.name, "objective": self.objective, "deals": len(self),
                "winnable": int(np.sum(self.winnable == 1)), "unwinnable": int(np.sum(self.winnable == 0)),
                "unknown": int(np.sum(self.winnable < 0)), "seconds": float(self.seconds.sum())}


def _decks_of(deals: Any) -> np.ndarray:
    if isinstance(deals, np.ndarray) and deals.dtype.kind in "iu":
        if deals.ndim == 2:
            if deals.shape[1] != 52:
                raise ValueError(f"a deck array has 52 columns, got shape {deals.shape}")
            return np.ascontiguousarray(deals, dtype=np.uint8)
        numbers = np.ascontiguousarray(deals, dtype=np.int64)
        if numbers.ndim != 1 or (numbers < 0).any() or (numbers > 26 ** 7 - 1).any():
            raise ValueError("deal numbers must be a 1-D array of whole numbers 0..26**7-1")
        out = np.empty((len(numbers), 52), dtype=np.uint8)
        _decks(numbers.astype(np.uint64), out)
        return out
    rows = []
    for i, d in enumerate(deals):
        try:
            if isinstance(d, (int, np.integer)) and not isinstance(d, bool):
                d = Deal.from_number(int(d))
            elif isinstance(d, str):
                d = Deal.parse(d)
            elif isinstance(d, Game):
                d = d.deal
            elif not isinstance(d, Deal):
                d = Deal.from_cards(d)
        except ValueError as e:
            raise ValueError(f"deal {i + 1}: {e}") from None
        rows.append([int(c) for c in d.cards])
    return np.array(rows, dtype=np.uint8).reshape(-1, 52)


def solve_many(deals: Iterable | np.ndarray, rules: Rules | str = "pyramide", *,
               objective: str = "any", max_removed: bool = False, threads: int | None = None,
               max_nodes: int | None = None, max_seconds: float | None = None,
               max_memory: int | str | None = None, progress: bool | Progress = False,
               chunk: int = 64) -> SolveManyResult:
    """Solve many deals (Deals, codes, card lists, deal numbers, or an array of deal numbers)
    from their start, without the GIL, over ``threads`` threads (None: all cores; -1: all
    cores too; -2: all but one). Budgets apply to each deal. ``max_removed=True`` also
    computes the most pyramid cards removable for the deals that cannot be won (and then
    ``n_moves`` of such a deal is the length of a line removing that many). ``progress``: a
    text progress bar on stderr when it is a terminal."""
    rules = Rules.preset(rules)
    obj = _objective(objective)
    budgets = _budgets(max_nodes, max_seconds, max_memory)
    decks = _decks_of(deals)
    n = len(decks)
    out = dict(winnable=np.zeros(n, np.int8), n_moves=np.zeros(n, np.int32),
               max_removed=np.full(n, -1, np.int32), nodes=np.zeros(n, np.int64),
               seconds=np.zeros(n, np.float64), stop=np.zeros(n, np.int8),
               optimal=np.zeros(n, np.int8))
    core_rules = {k: int(v) for k, v in rules.core_options().items()}

    def work(lo: int, hi: int, objective: int = obj, target: dict = out) -> None:
        _core.solve_decks(decks, core_rules, objective, budgets["max_nodes"],
                          budgets["max_seconds"], budgets["max_memory"], lo, hi,
                          target["winnable"], target["n_moves"], target["max_removed"],
                          target["nodes"], target["seconds"], target["stop"],
                          target["optimal"])

    bar = progress if isinstance(progress, Progress) else Progress(n, "deals", progress)
    # With objective "any", one search per deal answers both (the core's max_removed search
    # looks for a win first).
    single = max_removed and objective == "any"
    if single:
        run_chunks(lambda lo, hi: work(lo, hi, _core.OBJECTIVES["max_removed"]), n, threads,
                   chunk, bar)
        lost_unknown = (out["winnable"] == 0) & (out["stop"] != 0)
        out["max_removed"][lost_unknown] = -1
        out["n_moves"][lost_unknown] = -1
    else:
        run_chunks(work, n, threads, chunk, bar)
    if max_removed and not single:
        lost = np.flatnonzero(out["winnable"] == 0)
        out["max_removed"][out["winnable"] == 1] = 28
        if len(lost):
            sub = {k: np.zeros(len(lost), v.dtype) for k, v in out.items()}
            sub_decks = np.ascontiguousarray(decks[lost])

            def work_lost(lo: int, hi: int) -> None:
                _core.solve_decks(sub_decks, core_rules, _core.OBJECTIVES["max_removed"],
                                  budgets["max_nodes"], budgets["max_seconds"],
                                  budgets["max_memory"], lo, hi, sub["winnable"], sub["n_moves"],
                                  sub["max_removed"], sub["nodes"], sub["seconds"], sub["stop"],
                                  sub["optimal"])

            run_chunks(work_lost, len(lost), threads, chunk,
                       None if isinstance(progress, Progress) else
                       Progress(len(lost), "lost deals (most cards removable)", progress))
            exact = sub["stop"] == 0
            out["max_removed"][lost] = np.where(exact, sub["max_removed"], -1)
            out["n_moves"][lost] = np.where(exact, sub["n_moves"], -1)
            out["nodes"][lost] += sub["nodes"]
            out["seconds"][lost] += sub["seconds"]
    elif not max_removed:
        out["max_removed"][:] = np.where(out["winnable"] == 1, 28, -1)
    return SolveManyResult(winnable=out["winnable"], n_moves=out["n_moves"],
                           max_removed=out["max_removed"], nodes=out["nodes"],
                           seconds=out["seconds"], stopped_by=out["stop"],
                           optimal=out["optimal"], rules=rules, objective=objective)
