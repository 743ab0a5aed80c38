"""Auto-finish: once the rest of a game needs no choice, the session offers to play it out
(docs/session.md, "Auto-finish").

A position **can finish** when the game is being played and every sequence of *finishing
moves* from it, played until none is left, wins. A finishing move is a legal move other than
a draw or a recycle whose cards the player has all seen: pyramid cards, waste cards, and the
stock's top where the rules make it playable (a card that such a move turns up, such as the
next stock card under msc, is not one until it has been seen). So the cards now in sight
clear the goal whatever order the player chose, and no draw is needed: nothing is left to
decide. The presets' goal is the pyramid; under ``win="all"`` every card must go, so a game
with cards still in the stock cannot finish (they need draws).

The check is an exhaustive search over the finishing moves, positions remembered, stopped
after :data:`NODES` positions (then the answer is no: never a false offer). It stops at the
first sequence that loses, so a position far from the end costs a few positions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramid_core.position import NONE, TALON, Table

if TYPE_CHECKING:  # pragma: no cover
    from ..model.game import Game
    from ..model.move import Move

#: The search's budget: positions looked at (a position's answer is remembered).
NODES = 400

__all__ = ["NODES", "can_finish", "finish_line"]


class _OutOfBudget(Exception):
    pass


def _search(game: Game, max_nodes: int) -> tuple[dict[int, bool], int] | None:
    """The answer of every position searched (``True``: every finishing sequence from it
    wins), and the start's position word; None when the game is over or the budget ran
    out."""
    from ..model.game import Status

    if game.status is not Status.PLAYING:
        return None
    table, start = game._table, game.position
    hidden = Table.talon_mask(start) & ~game.seen_mask  # talon cards never seen

    def finishing(code: int) -> bool:
        a, b = code & 63, code >> 6
        if a == NONE:  # a draw or a recycle
            return False
        return not any(
            loc != NONE and loc >= TALON and (hidden >> (loc - TALON)) & 1 for loc in (a, b)
        )

    memo: dict[int, bool] = {}

    def wins(pos: int) -> bool:
        if table.status(pos) == 1:
            return True
        known = memo.get(pos)
        if known is not None:
            return known
        if len(memo) >= max_nodes:
            raise _OutOfBudget
        memo[pos] = False  # (a position never comes back: every move removes cards)
        codes = [c for c in table.moves(pos) if finishing(c)]
        memo[pos] = bool(codes) and all(wins(table.apply(pos, c)) for c in codes)
        return memo[pos]

    try:
        wins(start)
    except _OutOfBudget:
        return None
    return memo, start


def can_finish(game: Game, max_nodes: int = NODES) -> bool:
    """Whether ``game`` can finish by itself (the module's text): every sequence of finishing
    moves from here wins. False when the game is over, or when :data:`NODES` positions did
    not settle it."""
    searched = _search(game, max_nodes)
    return searched is not None and searched[0].get(searched[1], False)


def finish_line(game: Game, max_nodes: int = NODES) -> list[Move] | None:
    """The moves that finish ``game`` (each the finishing move that removes the most pyramid
    cards, the engine's first of those), or None when it cannot finish by itself. Any other
    order of finishing moves would win as well."""
    if not can_finish(game, max_nodes):
        return None
    unseen = set(game.unseen)  # as the search had it: cards turned up later stay out
    probe = game.copy()
    line: list[Move] = []
    while not probe.is_over:
        moves = [
            m
            for m in probe.legal_moves
            if m.kind in ("king", "pair") and not any(c in unseen for c in m.cards)
        ]
        move = max(moves, key=lambda m: sum(probe.where(c) == "pyramid" for c in m.cards))
        probe.play(move)
        line.append(move)
    return line
