"""Questions about one position, answered within a budget: what protocol 2's ``analyze``
asks (as a KataGo-style analysis engine answers a GUI), and what any program may ask.

- ``winnable``: can the position still be won (true, false, or null when a budget ran out);
- ``shortest``: a shortest win from here (``moves``, ``line``), or null;
- ``winning_moves``: every legal move after which the game can still be won;
- ``max_removed``: the most pyramid cards any line removes (``cards``, ``line``);
- ``fair_move``: the move of a player who never looks at the face-down stock (the hindsight
  policy, docs/fair.md);
- ``chance``: the chance to win from what the player has seen (``percent``, ``low``,
  ``high``, ``samples``, ``exact``).

Every search gets the budget (``max_nodes`` positions, ``max_seconds``) and stops within
milliseconds when ``cancel`` is set (:class:`~pyramid_solitaire.runtime.parallel.Cancelled`).
An answer a budget stopped is None, and ``stopped_by`` names the budget.

>>> from pyramid_solitaire import Game
>>> r = analyze(Game("PY1-N-AAAAAAS"), ["winnable", "shortest"])
>>> r["winnable"], r["shortest"]["moves"] > 0
(True, True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ..model.game import Game, Status
from ..runtime.parallel import CancelEvent, Cancelled
from .solver import SearchBudgetExceeded, max_removed_line, solve

QUERIES = ("winnable", "shortest", "winning_moves", "max_removed", "fair_move", "chance")


def analyze(
    game: Game,
    queries: Sequence[str] = ("winnable",),
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    samples: int = 64,
    cancel: CancelEvent | None = None,
) -> dict[str, Any]:
    """The answers to ``queries`` (see the module) about ``game``'s position, with
    ``positions`` (searched in all), ``seconds`` and ``stopped_by`` (None, or the first
    budget that ran out: ``"nodes"``, ``"time"``, ``"memory"``)."""
    unknown = [q for q in queries if q not in QUERIES]
    if unknown:
        raise ValueError(f"unknown query {unknown[0]!r}: expected one of {', '.join(QUERIES)}")
    t0 = time.perf_counter()
    out: dict[str, Any] = {}
    searched = [0]
    stops: list[str] = []

    def search(g: Game, objective: str = "any") -> Any:
        s = solve(
            g, objective=objective, max_nodes=max_nodes, max_seconds=max_seconds, cancel=cancel
        )
        searched[0] += s.nodes
        if s.stopped_by is not None:
            stops.append(s.stopped_by)
        return s

    first = None
    if "winnable" in queries or "winning_moves" in queries:
        first = search(game)
        out["winnable"] = first.winnable
    if "shortest" in queries:
        best = search(game, "min_moves")
        out["shortest"] = (
            {"moves": best.n_moves, "line": [str(m) for m in best.moves]}
            if best.winnable and best.optimal
            else None
        )
        if "winnable" in out and out["winnable"] is None and best.winnable is not None:
            out["winnable"] = best.winnable
    if "winning_moves" in queries:
        out["winning_moves"] = _winning_moves(game, first, search)
    if "max_removed" in queries:
        try:
            cards, line = max_removed_line(
                game, max_nodes=max_nodes, max_seconds=max_seconds, cancel=cancel
            )
            out["max_removed"] = {"cards": cards, "line": [str(m) for m in line]}
        except SearchBudgetExceeded as e:
            out["max_removed"] = None
            stops.append(e.budget)
    if "fair_move" in queries or "chance" in queries:
        from .fair import Hindsight, win_chance

        # a deadline as a cancel event: the sampled answers stop at it as at cancel
        clock = _Deadline(cancel, max_seconds)
        stop = clock if cancel is not None or max_seconds is not None else None
        fair_nodes = 20_000 if max_nodes is None else max_nodes  # (a solve's, each sample)
        try:
            if "fair_move" in queries:
                policy = Hindsight(samples=samples, max_nodes=fair_nodes)
                move = policy.move(game, 0, cancel=stop) if game.status is Status.PLAYING else None
                out["fair_move"] = None if move is None else str(move)
            if "chance" in queries:
                c = win_chance(game, samples=samples, max_nodes=fair_nodes, cancel=stop)
                out["chance"] = None if c.estimate is None else _chance(c)
        except Cancelled:
            if not clock.expired:
                raise  # the caller's cancel
            stops.append("time")
    return {
        **{q: out.get(q) for q in queries},
        "positions": searched[0],
        "seconds": round(time.perf_counter() - t0, 6),
        "stopped_by": stops[0] if stops else None,
    }


def _chance(c: Any) -> dict[str, Any]:
    low, high = c.ci95
    return {
        "percent": round(100 * c.estimate, 1),
        "low": round(100 * low, 1),
        "high": round(100 * high, 1),
        "samples": c.decided,
        "exact": c.exact,
    }


class _Deadline:
    """A cancel event that is also set once ``seconds`` have passed (``expired`` says it)."""

    def __init__(self, cancel: CancelEvent | None, seconds: float | None) -> None:
        self._cancel = cancel
        self._end = None if seconds is None else time.monotonic() + seconds
        self.expired = False

    def is_set(self) -> bool:
        if self._cancel is not None and self._cancel.is_set():
            return True
        if self._end is not None and time.monotonic() >= self._end:
            self.expired = True
        return self.expired


def _winning_moves(game: Game, first: Any, search: Any) -> list[str] | None:
    """The legal moves after which the game can still be won, in the engine's order; None
    when a budget stopped one of the searches (a partial list would mislead)."""
    if first is None or first.winnable is None:
        return None
    if not first.winnable or game.status is not Status.PLAYING:
        return []
    out: list[str] = []
    for move in game.legal_moves:
        child = game.copy()
        child.play(move)
        if child.status is Status.WON:
            out.append(str(move))
            continue
        s = search(child)
        if s.winnable is None:
            return None
        if s.winnable:
            out.append(str(move))
    return out
