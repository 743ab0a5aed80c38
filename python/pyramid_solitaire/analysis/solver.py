"""The exact solver: is a deal winnable, a winning line, the shortest one, the most pyramid
cards any line removes, hints, and many deals at once over all cores (docs/solver.md).

>>> s = solve("PY1-M-AAAAAAS")
>>> s.winnable, s.n_moves == len(s.moves), s.replay().status
(True, True, <Status.WON: 'won'>)

Answers are exact: ``winnable`` is None (never a guess) when a budget ran out, and
``stopped_by`` says which one. Under ``objective="min_moves"`` a deal already proved winnable
keeps the winning line found (``winnable`` True, ``optimal`` False, ``stopped_by`` set) when
the budget runs out during the search for the shortest one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from pyramid_core import solver as _core

from ..inputs.deals import DealBatch, read_deal, read_deals
from ..model.deal import Deal
from ..model.game import Game, Status
from ..model.move import Move
from ..model.rules import Rules
from ..runtime import args as _args
from ..runtime.parallel import (
    CancelEvent,
    Cancelled,
    Progress,
    ProgressArg,
    make_progress,
    run_call,
    run_chunks,
)
from .intervals import wilson_interval
from .report import histogram_table, pyplot_for, rate_panel

if TYPE_CHECKING:
    from pyramid_core.solver import _Solved

OBJECTIVES = ("any", "min_moves")
DEFAULT_MAX_MEMORY = 1 << 30
#: A search first runs in the calling thread for this many positions (most end within it:
#: starting a thread would cost more than they do), then, when it needs more, in a worker
#: thread that Ctrl-C and ``cancel`` can stop.
PROBE_NODES = 20_000
#: Bytes a deal costs solve_many: its number or deck (a copy of the input) and its rows of
#: the result arrays.
BYTES_PER_DEAL = 52 + 1 + 4 + 4 + 8 + 8 + 1 + 1


class SearchBudgetExceeded(RuntimeError):
    """A budget (nodes, time or memory) ran out before the answer was known."""

    def __init__(self, budget: str, best: int | None = None) -> None:
        self.budget, self.best = budget, best
        extra = f"; the best line found removes {best} pyramid cards" if best is not None else ""
        super().__init__(f"the {budget} budget ran out before the search finished{extra}")


@dataclass(frozen=True)
class Solution:
    """What the solver found for one deal or position."""

    winnable: bool | None  # None: a budget ran out (see stopped_by)
    moves: list[Move] | None  # a winning line (the shortest when optimal), else None
    nodes: int  # positions searched (frames worked out, docs/solver.md)
    seconds: float
    objective: str = "any"
    stopped_by: str | None = None  # "nodes", "time", "memory" or "cancelled" when the search
    # stopped early
    optimal: bool = False  # True only when moves is known to be a shortest winning
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
            raise ValueError(
                "no winning line to replay"
                + (f" (the {self.stopped_by} budget ran out)" if self.stopped_by else "")
            )
        game = self.start.copy() if self.start is not None else Game(self.deal, self.rules)
        game.play_all(self.moves)
        return game

    def __repr__(self) -> str:
        stop = f", stopped_by={self.stopped_by!r}" if self.stopped_by else ""
        opt = ", optimal=True" if self.optimal else ""
        return (
            f"Solution(winnable={self.winnable}, n_moves={self.n_moves}, nodes={self.nodes}, "
            f"seconds={self.seconds:.6f}, objective={self.objective!r}{opt}{stop})"
        )

    def to_dict(self) -> dict[str, Any]:
        return solution_dict(
            deal=None if self.deal is None else (self.deal.code or self.deal.to_cards()),
            rules=None if self.rules is None else self.rules.describe_dict(),
            objective=self.objective,
            winnable=self.winnable,
            n_moves=self.n_moves,
            optimal=self.optimal,
            moves=None if self.moves is None else [str(m) for m in self.moves],
            nodes=self.nodes,
            seconds=round(self.seconds, SECONDS_PLACES),
            stopped_by=self.stopped_by,
        )


#: The decimal places of a solution's ``seconds`` in JSON.
SECONDS_PLACES = 6


def solution_dict(**fields: Any) -> dict[str, Any]:
    """A solution's JSON-ready data, its fields in their order (:meth:`Solution.to_dict`;
    solve --file --json writes its rows in this layout): ``moves`` the winning line's texts,
    None when there is none; ``seconds`` rounded to SECONDS_PLACES."""
    return {k: fields[k] for k in SOLUTION_FIELDS}


SOLUTION_FIELDS = (
    "deal",
    "rules",
    "objective",
    "winnable",
    "n_moves",
    "optimal",
    "moves",
    "nodes",
    "seconds",
    "stopped_by",
)


# ---- argument checking ---------------------------------------------------------------------


def parse_memory(value: int | str | None, name: str = "max_memory") -> int | None:
    """Bytes from an int or a text such as ``"512MB"`` or ``"1 GiB"`` (None stays None)."""
    return None if value is None else _args.memory(name, value)


def _budgets(max_nodes: Any, max_seconds: Any, max_memory: Any) -> dict[str, Any]:
    """The budgets of one search, checked (see :mod:`pyramid_solitaire._args`): a node
    budget beyond what the core counts is no budget; an infinite time budget is none."""
    nodes = (
        None
        if max_nodes is None
        else _args.whole("max_nodes", max_nodes, 1, _args.INT64_MAX, clamp=True)
    )
    seconds = None
    if max_seconds is not None:
        seconds = _args.real("max_seconds", max_seconds, allow_inf=True)
        if seconds == float("inf") or seconds > 1e9:
            seconds = None
    memory = parse_memory(max_memory)
    return dict(
        max_nodes=nodes,
        max_seconds=seconds,
        max_memory=DEFAULT_MAX_MEMORY if memory is None else memory,
    )


def _objective(objective: str) -> int:
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise ValueError(
            f"objective must be one of {', '.join(map(repr, OBJECTIVES))}, "
            f"got {_args.excerpt(objective)}"
        )
    return _core.OBJECTIVES[objective]


def _game_of(deal: Deal | Game | str | Sequence[Any], rules: Rules | str | None) -> Game:
    """The Game to search: a Game as it stands, else a deal read like everywhere (None is
    refused, not dealt at random as ``Game()`` would)."""
    if isinstance(deal, Game):
        if rules is not None and Rules.coerce(rules) != deal.rules:
            raise ValueError("a Game carries its own rules; do not pass other rules with it")
        return deal
    return Game(read_deal(deal, rules))


def _run(
    game: Game,
    objective: int,
    budgets: dict[str, Any],
    cancel: CancelEvent | None = None,
    progress: ProgressArg = False,
    flag: np.ndarray | None = None,
) -> _Solved:
    """One search, stoppable by Ctrl-C and ``cancel`` (see PROBE_NODES); with ``flag`` (a
    worker thread's, see _parallel), in this thread reading that flag."""

    def search(flag: Any, budgets: dict[str, Any] = budgets) -> _Solved:
        return _core.solve_table(
            game._table,
            game.position,
            objective,
            cancel=flag,
            workspace=_workspace(),
            **budgets,
        )

    if flag is not None:
        return search(flag)
    if cancel is None and not progress:
        user_nodes = budgets["max_nodes"]
        probe = search(None, dict(budgets, max_nodes=min(user_nodes or PROBE_NODES, PROBE_NODES)))
        if probe["stop"] != "nodes" or (user_nodes is not None and user_nodes <= PROBE_NODES):
            return probe
    bar = Progress(0, "s", progress, desc="solving", delay=1.0) if progress else None
    r = run_call(search, cancel, bar)
    if r["stop"] == "cancelled":  # pragma: no cover - run_call raises first
        raise Cancelled("the search")
    return cast("_Solved", r)


_THREAD = threading.local()


def _workspace() -> _core.Workspace:
    """This thread's search workspace (kept between solves: allocating one costs more than
    an easy deal's search)."""
    ws = getattr(_THREAD, "workspace", None)
    if ws is None:
        ws = _THREAD.workspace = _core.Workspace()
    return ws


# ---- one deal or position ------------------------------------------------------------------


def solve(
    deal: Deal | Game | str | Sequence[Any],
    rules: Rules | str | None = None,
    *,
    objective: str = "any",
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | str | None = None,
    cancel: CancelEvent | None = None,
    progress: ProgressArg = False,
) -> Solution:
    """Decide a deal (a Deal, code, card list or deal number) or a Game's current position
    exactly.

    ``objective="min_moves"`` returns a shortest winning line (``optimal`` True). Budgets:
    positions searched (or frames, docs/solver.md), wall-clock seconds, and bytes for the
    search's tables (default 1 GiB); when one runs out, ``winnable`` is None and
    ``stopped_by`` names it. Under min_moves, a deal proved winnable before the budget ran
    out keeps the winning line found:
    ``winnable`` True, ``optimal`` False, ``stopped_by`` set. Ctrl-C raises
    ``KeyboardInterrupt`` and a set ``cancel`` event :class:`Cancelled` within milliseconds;
    ``progress=True`` shows the time spent after a second.
    """
    obj = _objective(objective)
    budgets = _budgets(max_nodes, max_seconds, max_memory)
    progress = _args.flag("progress", progress)
    game = _game_of(deal, rules)
    return _solution(
        game, objective, _run(game, obj, budgets, cancel, progress), isinstance(deal, Game)
    )


def _solution(game: Game, objective: str, r: _Solved, from_position: bool) -> Solution:
    winnable = None if r["winnable"] < 0 else bool(r["winnable"])
    moves = [game._to_move(c) for c in r["line"]] if winnable else None
    return Solution(
        winnable=winnable,
        moves=moves,
        nodes=r["nodes"],
        seconds=r["seconds"],
        objective=objective,
        stopped_by=r["stop"],
        deal=game.deal,
        rules=game.rules,
        start=game if from_position else None,
        optimal=bool(r["optimal"]),
    )


def solve_flagged(
    game: Game, objective: str, budgets: dict[str, Any], flag: np.ndarray, max_removed: bool = False
) -> tuple[Solution, tuple[int, list[Move]] | None]:
    """For batch callers already on a worker thread (see ``_parallel.map_ordered``): the
    solution of ``game``'s position, and with ``max_removed``, for a lost one, the most
    pyramid cards removable and such a line (None when a budget ran out). ``budgets`` as
    ``_budgets`` returns them."""
    r = _run(game, _objective(objective), budgets, flag=flag)
    if r["stop"] == "cancelled":
        raise KeyboardInterrupt
    sol = _solution(game, objective, r, game.moves != [])
    best = None
    if max_removed and sol.winnable is False:
        m = _run(game, _core.OBJECTIVES["max_removed"], budgets, flag=flag)
        if m["stop"] == "cancelled":
            raise KeyboardInterrupt
        if m["stop"] is None or m["max_removed"] == 28:
            best = (m["max_removed"], [game._to_move(c) for c in m["line"]])
    return sol, best


#: The moves of a line :func:`solve_lines` keeps per deal (a longer line, rare, is cut: its
#: deal is solved again alone, see ``n_moves``).
LINE_WIDTH = 1024


def solve_lines(
    decks: np.ndarray,
    rules: Rules,
    objective: str,
    budgets: dict[str, Any],
    flag: np.ndarray,
    width: int = LINE_WIDTH,
) -> dict[str, np.ndarray]:
    """For batch callers already on a worker thread (see ``_parallel.map_ordered``): the
    deals ``decks`` (an (n, 52) uint8 array) solved from their start one after another in
    this thread, without the GIL, under ``rules``; ``objective`` is "any", "min_moves" or
    "max_removed". The per-deal arrays of :func:`solve_many` (``winnable``, ``n_moves``,
    ``nodes``, ``seconds``, ``stop``, ``optimal``, ``max_removed``) and ``lines``: row i's
    line as move codes by cards in its first ``n_moves[i]`` entries (cut at ``width``: a
    longer line is the caller's to find again; ``model.game.keyed_moves`` reads them).
    ``budgets`` as ``_budgets`` returns them; a raised ``flag`` raises KeyboardInterrupt,
    as :func:`solve_flagged` does."""
    out = _rows(len(decks))
    out["lines"] = np.zeros((len(decks), width), np.uint16)
    core_rules = {k: int(v) for k, v in rules.core_options().items()}
    _solve_into(decks, core_rules, _core.OBJECTIVES[objective], budgets, out, flag, out["lines"])
    if flag[0]:
        raise KeyboardInterrupt
    return out


def _solve_into(
    decks: np.ndarray,
    core_rules: dict[str, int],
    objective: int,
    budgets: dict[str, Any],
    rows: dict[str, np.ndarray],
    flag: np.ndarray | None,
    lines: np.ndarray | None = None,
) -> None:
    """The core's solve_decks over every deck of ``decks`` into ``rows`` (as _rows makes
    them), in this thread without the GIL; ``lines``: each deal's line too, as card codes."""
    _core.solve_decks(
        np.ascontiguousarray(decks, dtype=np.uint8),
        core_rules,
        objective,
        budgets["max_nodes"],
        budgets["max_seconds"],
        budgets["max_memory"],
        0,
        len(decks),
        rows["winnable"],
        rows["n_moves"],
        rows["max_removed"],
        rows["nodes"],
        rows["seconds"],
        rows["stop"],
        rows["optimal"],
        cancel=flag,
        lines=lines,
        by_cards=lines is not None,
    )


def _max_line(
    game: Game, budgets: dict[str, Any], cancel: CancelEvent | None = None
) -> tuple[int, list[Move]]:
    r = _run(game, _core.OBJECTIVES["max_removed"], budgets, cancel)
    if r["stop"] is not None and r["max_removed"] < 28:
        raise SearchBudgetExceeded(r["stop"], r["max_removed"])
    return r["max_removed"], [game._to_move(c) for c in r["line"]]


def max_removable(
    deal: Deal | Game | str | Sequence[Any],
    rules: Rules | str | None = None,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | str | None = None,
    cancel: CancelEvent | None = None,
) -> int:
    """The most pyramid cards any line of play removes (28 when the deal can be won), counting
    the cards already removed in a Game. SearchBudgetExceeded if a budget runs out."""
    game = _game_of(deal, rules)
    return _max_line(game, _budgets(max_nodes, max_seconds, max_memory), cancel)[0]


def max_removed_line(
    deal: Deal | Game | str | Sequence[Any],
    rules: Rules | str | None = None,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | str | None = None,
    cancel: CancelEvent | None = None,
) -> tuple[int, list[Move]]:
    """The most pyramid cards any line removes, and such a line (a winning one when 28)."""
    game = _game_of(deal, rules)
    return _max_line(game, _budgets(max_nodes, max_seconds, max_memory), cancel)


def _game_arg(fn: str, game: Any) -> Game:
    if not isinstance(game, Game):
        raise ValueError(f"{fn} takes a Game, got {_args.excerpt(game)}")
    return game


def hint(
    game: Game,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | str | None = None,
    cancel: CancelEvent | None = None,
    fair: bool = False,
    seed: int = 0,
) -> Move | None:
    """A move on a winning line; when the game cannot be won any more, the first move of a
    line removing the most pyramid cards. None when the game is over or no line removes
    anything more. This hint knows the order of the face-down stock.

    ``fair=True``: the move of a player who cannot see the stock instead (the hindsight
    policy, :func:`pyramid_solitaire.fair.fair_hint`; ``max_nodes`` is then its budget per
    solve, ``seed`` keys its samples), deterministic for a given ``seed``."""
    game = _game_arg("hint", game)
    if _args.flag("fair", fair):
        from .fair import Hindsight

        if (max_seconds, max_memory, cancel) != (None, None, None):
            raise ValueError("hint(fair=True) takes max_nodes (a budget per solve) and seed")
        policy = Hindsight() if max_nodes is None else Hindsight(max_nodes=max_nodes)
        return policy.move(game, seed)
    if game.status is not Status.PLAYING:
        return None
    budgets = _budgets(max_nodes, max_seconds, max_memory)
    r = _run(game, _core.OBJECTIVES["max_removed"], budgets, cancel)  # a win, else the most cards
    if r["winnable"] == 1:
        return game._to_move(r["line"][0])
    if r["winnable"] < 0 or r["stop"] is not None:
        raise SearchBudgetExceeded(r["stop"] or "unknown", r["max_removed"])
    line = r["line"]
    return game._to_move(line[0]) if line and r["max_removed"] > game.pyramid_removed else None


def can_still_win(
    game: Game,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | str | None = None,
    cancel: CancelEvent | None = None,
) -> bool | None:
    """Whether the current position can still be won (seed 003's "no chance to win" notice
    is ``can_still_win(game) is False``); None when a budget ran out."""
    game = _game_arg("can_still_win", game)
    return solve(
        game, max_nodes=max_nodes, max_seconds=max_seconds, max_memory=max_memory, cancel=cancel
    ).winnable


# ---- many deals ----------------------------------------------------------------------------

STOP_NAMES = ("none", "nodes", "time", "memory", "cancelled")


def _or_none(values: np.ndarray, missing: np.ndarray) -> np.ndarray:
    """``values`` as an object array with None where ``missing`` (a nullable pandas column)."""
    out = values.astype(object)
    out[missing] = None
    return out


@dataclass
class SolveManyResult:
    """Per-deal results as numpy arrays (row i is deal i of the input)."""

    winnable: np.ndarray  # int8: 1 winnable, 0 not, -1 unknown (a budget ran out)
    n_moves: np.ndarray  # int32: length of the line found (-1: none)
    max_removed: np.ndarray  # int32: most pyramid cards removable (-1 unless asked for)
    nodes: np.ndarray  # int64
    seconds: np.ndarray  # float64
    stopped_by: np.ndarray  # int8: 0 none, 1 nodes, 2 time, 3 memory, 4 cancelled (STOP_NAMES)
    rules: Rules
    objective: str
    optimal: np.ndarray | None = None  # bool: the line is a shortest one (min_moves)
    deals: DealBatch | None = field(default=None, repr=False)
    budgets: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.winnable)

    @property
    def wins(self) -> int:
        """Deals proved winnable (the name :class:`SimulationResult` gives its wins)."""
        return int(np.count_nonzero(self.winnable == 1))

    @property
    def decided(self) -> int:
        """Deals decided (winnable or not) within the budgets."""
        return int(np.count_nonzero(self.winnable >= 0))

    @property
    def undecided(self) -> int:
        """Deals a budget stopped before they were decided (left out of the win rate)."""
        return len(self) - self.decided

    @property
    def win_rate(self) -> float:
        """Winnable deals among the decided ones (NaN when none was decided)."""
        decided = self.decided
        return self.wins / decided if decided else float("nan")

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate (NaNs when none was decided)."""
        decided = self.decided
        return wilson_interval(self.wins, decided) if decided else (float("nan"), float("nan"))

    def lengths(self) -> np.ndarray:
        """How many winnable deals have a line of 0, 1, 2, ... moves (the shortest lines
        under ``objective="min_moves"``, else the lines found)."""
        found = self.n_moves[(self.winnable == 1) & (self.n_moves >= 0)]
        return np.bincount(found.astype(np.int64)) if found.size else np.zeros(0, np.int64)

    def summary(self) -> str:
        """A few lines for people: the deals, the win rate with its interval, what the
        budgets left undecided, the time, and a table of the winning lines' lengths."""
        low, high = self.ci95
        deals = self.deals.describe() if self.deals is not None else {"count": len(self)}
        first = deals.get("first")
        lines = [
            f"solver ({self.objective}), rules {self.rules.describe()}",
            f"deals {len(self):,}"
            + (f" ({first:,}..{deals['last']:,})" if first is not None and "last" in deals else ""),
            (
                f"winnable {self.wins:,}: {self.win_rate * 100:.2f}% "
                f"(95% interval {low * 100:.2f}% .. {high * 100:.2f}%)"
                if self.decided
                else "no deal decided within the budgets: no win rate"
            )
            + (f"; {self.undecided:,} undecided (left out)" if self.undecided else ""),
            f"{float(self.seconds.sum()):,.2f} s of solving, "
            f"{int(self.nodes.sum()):,} positions searched",
        ]
        hist = self.lengths()
        if hist.size:
            kind = "shortest winning lines" if self.objective == "min_moves" else "lines found"
            lines += ["", f"{kind} (moves):", histogram_table(hist, label="moves", unit="deals")]
        return "\n".join(lines)

    def plot(self, fig: Any = None) -> Any:
        """A matplotlib figure: the winning lines' lengths, and the win rate with its 95%
        interval (as :meth:`SimulationResult.plot`). Needs the ``plot`` extra."""
        plt = pyplot_for(fig, "SolveManyResult.plot()")
        if fig is None:
            fig = plt.figure(figsize=(9, 4))
        ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [4, 1]})
        hist = self.lengths()
        if hist.size:
            ax1.bar(np.arange(hist.size), hist / max(1, self.wins) * 100, color="#4878a8")
        ax1.set_xlabel(
            "moves of the winning line" + (" (shortest)" if self.objective == "min_moves" else "")
        )
        ax1.set_ylabel("winnable deals (%)")
        ax1.set_title(f"solver, {self.rules.name} rules: {_args.count_of(len(self), 'deal')}")
        rate_panel(ax2, self.wins, self.decided, "winnable")
        fig.tight_layout()
        return fig

    def __repr__(self) -> str:
        low, high = self.ci95
        return (
            f"<SolveManyResult {self.rules.name}: {_args.count_of(len(self), 'deal')}, "
            f"{self.win_rate * 100:.2f}% winnable [{low * 100:.2f}%, {high * 100:.2f}%]"
            + (f", {self.undecided:,} undecided" if self.undecided else "")
            + ">"
        )

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data (see :func:`pyramid_solitaire.jsonout.dumps`)."""
        decided = self.decided
        rate = self.win_rate
        return {
            "rules": self.rules.describe_dict(),
            "objective": self.objective,
            "deals": self.deals.describe() if self.deals is not None else len(self),
            "budgets": {k: v for k, v in self.budgets.items()},
            "count": len(self),
            "winnable": int(np.sum(self.winnable == 1)),
            "unwinnable": int(np.sum(self.winnable == 0)),
            "unknown": len(self) - decided,
            "win_rate": None if decided == 0 else rate,
            "wins": self.wins,
            "ci95": None if decided == 0 else list(self.ci95),
            "seconds": float(self.seconds.sum()),
        }

    def to_pandas(self) -> Any:
        """A pandas DataFrame with one row per deal in the layout every per-deal result
        shares (:mod:`.layout`: deal, code, rules, policy ``solver``, won (winnable; <NA>
        undecided), moves (the line's length), removed (the most removable: 28 for a
        winnable deal), nodes, seconds), then ``optimal`` and ``stopped_by`` (None or the
        budget's name); the summary is in ``.attrs``. Needs pandas."""
        from .layout import frame

        n = len(self)
        if self.deals is not None:
            numbered, deal = self.deals.numbered, self.deals.keys
        else:
            numbered, deal = np.zeros(n, np.bool_), np.zeros(n, np.uint64)
        winnable = self.winnable == 1
        stops = np.array([None, *STOP_NAMES[1:]], dtype=object)
        df = frame(
            "SolveManyResult.to_pandas()",
            rules=self.rules,
            policy="solver",
            deal=deal,
            numbered=numbered,
            won=winnable,
            decided=self.winnable >= 0,
            moves=np.maximum(self.n_moves, 0),
            moves_known=self.n_moves >= 0,
            removed=np.where(winnable, 28, np.maximum(self.max_removed, 0)),
            removed_known=winnable | (self.max_removed >= 0),
            nodes=self.nodes,
            seconds=self.seconds,
            extra={
                "optimal": (self.optimal if self.optimal is not None else np.zeros(n, np.bool_)),
                "stopped_by": stops[self.stopped_by.astype(np.int64)],
            },
        )
        df.attrs.update(self.to_dict())
        return df


def _check_fits(what: str, n: int, per_item: int) -> None:
    """Refuse, before allocating, a request whose arrays cannot fit in memory."""
    need = n * per_item
    free = _args.available_memory()
    if free is not None and need > free:
        raise ValueError(
            f"{what} of {n:,} needs about {_args.format_bytes(need)} for its "
            f"arrays, more than the {_args.format_bytes(free)} of memory available: "
            "ask for fewer at a time"
        )


def solve_many(
    deals: Iterable[Any] | np.ndarray,
    rules: Rules | str | None = None,
    *,
    objective: str = "any",
    max_removed: bool = False,
    threads: int | None = None,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | str | None = None,
    progress: ProgressArg = False,
    cancel: CancelEvent | None = None,
    chunk: int = 64,
    scheduler: Any = None,
    shard_size: int = 20_000,
) -> SolveManyResult:
    """Solve many deals from their start, without the GIL, over ``threads`` threads (None:
    all cores; -1: all cores too; -2: all but one).

    ``deals``: codes, card lists, Deals, deal numbers (a list, a range or a 1-D integer
    array) or decks (a 2-D integer array, 52 columns), all checked (see
    :mod:`pyramid_solitaire.inputs.deals`); ``rules``: default the codes' own (they must
    agree), else ``pyramide``. Budgets apply to each deal. ``max_removed=True`` also
    computes the most pyramid cards removable for the deals that cannot be won (and then
    ``n_moves`` of such a deal is the length of a line removing that many). ``progress``:
    True for a bar, or a callable ``progress(done, total)``; ``cancel``: an event that stops
    the batch (raising :class:`Cancelled`), like Ctrl-C (``KeyboardInterrupt``).

    ``scheduler``: a Dask scheduler's address (``tcp://host:port``) or a
    ``distributed.Client`` (the ``distributed`` extra) to solve the deals on a cluster:
    shards of ``shard_size`` deals, each sent as its layouts (52 bytes a deal) and solved on
    a worker's cores, the rows combined as they come back. The rows are the same as a local
    run's (apart from ``seconds``)."""
    obj = _objective(objective)
    max_removed = _args.flag("max_removed", max_removed)
    budgets = _budgets(max_nodes, max_seconds, max_memory)
    chunk = _args.whole("chunk", chunk, 1, 1 << 20)
    shard_size = _args.whole("shard_size", shard_size, 1, 1 << 30)
    _args.threads(threads)
    if isinstance(deals, np.ndarray) and deals.dtype.kind in "iu" and deals.ndim:
        _check_fits("solve_many", len(deals), BYTES_PER_DEAL)
    batch = read_deals(deals, rules)
    _check_fits("solve_many", len(batch), BYTES_PER_DEAL - 52)
    if scheduler is not None:
        out = _solve_on_cluster(
            scheduler,
            shard_size,
            batch,
            objective,
            max_removed,
            dict(max_nodes=max_nodes, max_seconds=max_seconds, max_memory=max_memory),
            progress,
        )
    else:
        out = _solve_rows(
            batch.decks_of,
            len(batch),
            batch.rules,
            obj,
            max_removed,
            budgets,
            threads,
            chunk,
            progress,
            cancel,
        )
    return SolveManyResult(
        winnable=out["winnable"],
        n_moves=out["n_moves"],
        max_removed=out["max_removed"],
        nodes=out["nodes"],
        seconds=out["seconds"],
        stopped_by=out["stop"],
        rules=batch.rules,
        objective=objective,
        optimal=out["optimal"].astype(np.bool_),
        deals=batch,
        budgets=budgets,
    )


def _solve_rows(
    decks_of: Callable[[int, int], np.ndarray],
    n: int,
    rules: Rules,
    obj: int,
    max_removed: bool,
    budgets: dict[str, Any],
    threads: Any,
    chunk: int,
    progress: ProgressArg,
    cancel: CancelEvent | None,
    what: str = "solve_many",
) -> dict[str, np.ndarray]:
    """The per-deal arrays of n deals, deals lo..hi-1 given by ``decks_of(lo, hi)`` (so that a
    caller can shuffle them chunk by chunk)."""
    out = _rows(n)
    core_rules = {k: int(v) for k, v in rules.core_options().items()}

    def work(
        lo: int,
        hi: int,
        flag: np.ndarray,
        objective: int = obj,
        target: dict[str, Any] = out,
        source: Callable[..., Any] = decks_of,
    ) -> None:
        sub = _rows(hi - lo)
        _solve_into(source(lo, hi), core_rules, objective, budgets, sub, flag)
        for k, v in sub.items():
            target[k][lo:hi] = v

    bar = make_progress(progress, n, "deals")
    try:
        _fill_rows(
            work, decks_of, out, n, max_removed, obj, threads, chunk, bar, progress, cancel, what
        )
    finally:
        if not isinstance(progress, Progress):  # a caller's bar is the caller's to close
            bar.close()
    return out


def _fill_rows(
    work: Callable[..., Any],
    decks_of: Callable[..., Any],
    out: dict[str, np.ndarray],
    n: int,
    max_removed: bool,
    obj: int,
    threads: Any,
    chunk: int,
    bar: Progress,
    progress: ProgressArg,
    cancel: CancelEvent | None,
    what: str,
) -> None:
    # With objective "any", one search per deal answers both (the core's max_removed search
    # looks for a win first).
    single = max_removed and obj == _core.OBJECTIVES["any"]
    if single:
        run_chunks(
            lambda lo, hi, flag: work(lo, hi, flag, _core.OBJECTIVES["max_removed"]),
            n,
            threads,
            chunk,
            bar,
            cancel,
            what,
        )
        lost_unknown = (out["winnable"] == 0) & (out["stop"] != 0)
        out["max_removed"][lost_unknown] = -1
        out["n_moves"][lost_unknown] = -1
    else:
        run_chunks(work, n, threads, chunk, bar, cancel, what)
        if not isinstance(progress, Progress):
            bar.close()  # a second bar follows for the lost deals
    if max_removed and not single:
        lost = np.flatnonzero(out["winnable"] == 0)
        out["max_removed"][out["winnable"] == 1] = 28
        if len(lost):
            sub = _rows(len(lost))

            def lost_decks(lo: int, hi: int) -> np.ndarray:
                return np.concatenate([decks_of(int(i), int(i) + 1) for i in lost[lo:hi]])

            lost_bar = (
                None
                if isinstance(progress, Progress)
                else make_progress(progress, len(lost), "lost deals")
            )
            try:
                run_chunks(
                    lambda lo, hi, flag: work(
                        lo, hi, flag, _core.OBJECTIVES["max_removed"], sub, lost_decks
                    ),
                    len(lost),
                    threads,
                    chunk,
                    lost_bar,
                    cancel,
                    what,
                )
            finally:
                if lost_bar is not None:
                    lost_bar.close()
            exact = sub["stop"] == 0
            out["max_removed"][lost] = np.where(exact, sub["max_removed"], -1)
            out["n_moves"][lost] = np.where(exact, sub["n_moves"], -1)
            out["nodes"][lost] += sub["nodes"]
            out["seconds"][lost] += sub["seconds"]
    elif not max_removed:
        out["max_removed"][:] = np.where(out["winnable"] == 1, 28, -1)


def _solve_shard(decks: np.ndarray, rules: Rules, kwargs: dict[str, Any]) -> dict[str, Any]:
    """One shard of solve_many on a cluster: its layouts, on the worker's cores."""
    r = solve_many(decks, rules, **kwargs)
    return dict(
        winnable=r.winnable,
        n_moves=r.n_moves,
        max_removed=r.max_removed,
        nodes=r.nodes,
        seconds=r.seconds,
        stop=r.stopped_by,
        optimal=r.optimal,
    )


def _solve_on_cluster(
    scheduler: Any,
    shard_size: Any,
    batch: DealBatch,
    objective: str,
    max_removed: bool,
    budgets: dict[str, Any],
    progress: ProgressArg,
) -> dict[str, np.ndarray]:
    from ..runtime.cluster import LazyTasks, place, shard_results, shards

    n = len(batch)
    parts = shards(n, shard_size)
    kwargs = dict(objective=objective, max_removed=max_removed, **budgets)
    out = _rows(n)
    bar = make_progress(progress, n, "deals")
    with shard_results(
        _solve_shard,
        LazyTasks(
            len(parts),
            lambda i: (np.ascontiguousarray(batch.decks_of(*parts[i])), batch.rules, kwargs),
        ),
        parts,
        bar,
        scheduler,
    ) as results:
        for _, lo, hi, got in results:
            place(out, lo, hi, got)
    return out


def _rows(n: int) -> dict[str, np.ndarray]:
    return dict(
        winnable=np.zeros(n, np.int8),
        n_moves=np.zeros(n, np.int32),
        max_removed=np.full(n, -1, np.int32),
        nodes=np.zeros(n, np.int64),
        seconds=np.zeros(n, np.float64),
        stop=np.zeros(n, np.int8),
        optimal=np.zeros(n, np.int8),
    )
