"""Fair play: answers that never look at the face-down stock (docs/fair.md).

The solver, :func:`~pyramid_solitaire.hint`, :func:`~pyramid_solitaire.can_still_win` and
the ``solver`` policy know the order of the stock; no player does. What a player has seen is
:attr:`Game.seen_mask <pyramid_solitaire.Game.seen_mask>` (every card turned face up, and the
stock's top where it is playable); the rest of the stock is unseen. The answers here use the
seen cards only:

>>> from pyramid_solitaire import Game
>>> from pyramid_solitaire.fair import Hindsight, fair_hint, win_chance
>>> game = Game("PY1-M-AAAAABF")
>>> len(game.unseen)                     # msc: the stock's top is face up, 23 cards are not
23
>>> fair_hint(game)                      # the move a player who cannot see the stock makes
Move('5c+8d')
>>> move, counts, used = Hindsight().explain(game)
>>> counts[Move("5c+8d")], counts[Move("As+Qs")], used   # completions won, of 16
(15, 0, 16)
>>> chance = win_chance(game, samples=64)
>>> chance.won, chance.decided, chance.undecided, chance.exact
(63, 63, 1, False)

Every answer is a function of what is seen, the parameters and ``seed`` (a fixed 0 unless
given): permuting the unseen cards of a position never changes it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from pyramid_core import fair as _core

from ..model.game import Game, Status
from ..model.move import Move
from ..runtime import args as _args
from ..runtime.parallel import CancelEvent, run_call
from .intervals import wilson_interval

__all__ = ["Hindsight", "WinChance", "fair_hint", "win_chance", "coerce_policy"]

_SEED_LIMIT = 1 << 64
_MAX_SAMPLES = 4096
_NODES_LIMIT = (1 << 62) - 1


@dataclass(frozen=True)
class Hindsight:
    """The hindsight policy: at each decision with a choice, ``samples`` completions of what
    is hidden (the unseen cards dealt at random into the unseen places, the same completions
    for every move); the solver decides each legal move on each, within ``max_nodes``
    positions a solve; the move that wins the most completions is played. Among equals: a
    draw or recycle when ``prefer_draw``, else the greedy policy's pick; when no completion
    can be won, the greedy policy's move. A King goes at once. Once nothing is hidden, it
    plays perfectly: the solver's winning line (``known_nodes``: its budget, None for none),
    else greedy.

    It is a built-in policy: ``simulate(policy=Hindsight(samples=8))``, or
    ``policy="hindsight"`` for these defaults (chosen by measurement: docs/fair.md)."""

    samples: int = 16
    max_nodes: int = 20_000
    known_nodes: int | None = None
    prefer_draw: bool = False

    name = "hindsight"

    def __post_init__(self) -> None:
        object.__setattr__(self, "samples", _args.whole("samples", self.samples, 1, _MAX_SAMPLES))
        object.__setattr__(
            self, "max_nodes", _args.whole("max_nodes", self.max_nodes, 1, _NODES_LIMIT)
        )
        if self.known_nodes is not None:
            object.__setattr__(
                self, "known_nodes", _args.whole("known_nodes", self.known_nodes, 1, _NODES_LIMIT)
            )
        object.__setattr__(self, "prefer_draw", _args.flag("prefer_draw", self.prefer_draw))

    def params(self, seed: int = 0) -> dict[str, int]:
        """The core's parameters, the completions keyed by ``seed``."""
        return {
            "samples": self.samples,
            "max_nodes": self.max_nodes,
            "known_nodes": 0 if self.known_nodes is None else self.known_nodes,
            "seed": _args.whole("seed", seed, 0, _SEED_LIMIT - 1),
            "prefer_draw": int(self.prefer_draw),
        }

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, **asdict(self)}

    def move(self, game: Game, seed: int = 0, *, cancel: CancelEvent | None = None) -> Move | None:
        """The move this policy plays in ``game`` (None once the game is over)."""
        return self.explain(game, seed, cancel=cancel)[0]

    def explain(
        self, game: Game, seed: int = 0, *, cancel: CancelEvent | None = None
    ) -> tuple[Move | None, dict[Move, int], int]:
        """(the move, {legal move: completions it won}, completions used): the counts are
        empty when no sampling was needed (one legal move, a King, nothing hidden). A move
        that could no longer reach the best count was not decided again: its count stops
        there. A set ``cancel`` stops it within milliseconds (:class:`Cancelled`)."""
        game = _game_arg("Hindsight.move", game)
        if game.status is not Status.PLAYING:
            return None, {}, 0
        args = (self.params(seed), *_where(game), _stuck(game))
        if cancel is None:
            code, wins, used = _core.decide(*args)
        else:
            code, wins, used = run_call(
                lambda flag: _core.decide(*args, cancel=flag), cancel, what="the fair move"
            )
        counts = {game._to_move(c): w for c, w in wins.items()} if used else {}
        return game._to_move(code), counts, used


#: The default hindsight policy.
DEFAULT = Hindsight()


def coerce_policy(policy: Any) -> Hindsight | None:
    """``policy`` as a :class:`Hindsight` when it names one (``"hindsight"`` or an instance),
    else None (another policy)."""
    if isinstance(policy, Hindsight):
        return policy
    if isinstance(policy, str) and policy.strip().lower() == Hindsight.name:
        return DEFAULT
    return None


def _game_arg(fn: str, game: Any) -> Game:
    if not isinstance(game, Game):
        raise ValueError(f"{fn} takes a Game, got {_args.excerpt(game)}")
    return game


def _where(game: Game) -> tuple[dict[str, Any], list[int], int, int]:
    """What the core's fair calls take of a game: its rules, deck, position and the talon
    cards seen (the deck is the core's table; the policies read only what is seen)."""
    return (
        game.rules.core_options(),
        [int(c) for c in game.deal.cards],
        game.position,
        game.seen_mask,
    )


def _stuck(game: Game) -> bool:
    """Unlimited redeals and nothing removed since the last recycle (or the deal): the greedy
    fallback then plays a pair rather than a recycle that would repeat the pass."""
    if game.rules.redeals != "unlimited":
        return False
    for m in reversed(game.moves):
        if m.kind == "recycle":
            return True
        if m.kind not in ("draw", "recycle"):
            return False
    return True


def fair_hint(game: Game, seed: int = 0, policy: Hindsight | None = None) -> Move | None:
    """The move a player who cannot see the stock would make: the hindsight policy's
    (``policy``, default :class:`Hindsight`'s defaults), deterministic for a given ``seed``.
    None once the game is over. ``hint(game, fair=True)`` is the same."""
    return (policy or DEFAULT).move(game, seed)


@dataclass(frozen=True)
class WinChance:
    """The estimated chance that a position can still be won, from what is seen: ``won`` of
    ``samples`` completions of the hidden cards could be won (``undecided`` more were not
    decided within the budget: left out). ``exact``: nothing is hidden, so the one answer is
    the solver's on the real position."""

    won: int
    samples: int
    undecided: int
    exact: bool

    @property
    def decided(self) -> int:
        return self.samples - self.undecided

    @property
    def estimate(self) -> float | None:
        """The share of decided completions that can be won (None if none was decided)."""
        return self.won / self.decided if self.decided else None

    @property
    def ci95(self) -> tuple[float, float]:
        """A 95% interval (Wilson's) for the chance; (0, 1) when nothing was decided."""

        if not self.decided:
            return 0.0, 1.0
        if self.exact:
            return float(self.won), float(self.won)
        return wilson_interval(self.won, self.decided)

    def __str__(self) -> str:
        if self.estimate is None:
            return "unknown"
        if self.exact:
            return "can be won" if self.won else "cannot be won"
        low, high = self.ci95
        return f"{self.estimate:.0%} (95%: {low:.0%}..{high:.0%}, {self.decided} samples)"


def win_chance(
    game: Game,
    samples: int = 64,
    seed: int = 0,
    max_nodes: int = 20_000,
    *,
    cancel: CancelEvent | None = None,
) -> WinChance:
    """The chance that ``game`` can still be won, from what is seen: ``samples``
    completions of the unseen cards, each decided by the solver within ``max_nodes``
    positions. Deterministic for a given ``seed``. A game already over is exact (won or
    not); so is one where nothing is hidden (the real position is decided). A set
    ``cancel`` stops it within milliseconds (:class:`Cancelled`)."""
    game = _game_arg("win_chance", game)
    policy = Hindsight(samples=samples, max_nodes=max_nodes)
    if game.status is not Status.PLAYING:
        return WinChance(int(game.status is Status.WON), 1, 0, True)
    args = (policy.params(seed), *_where(game))
    if cancel is None:
        won, undecided, used = _core.chance(*args)
    else:
        won, undecided, used = run_call(
            lambda flag: _core.chance(*args, cancel=flag), cancel, what="the chance to win"
        )
    return WinChance(won, used, undecided, used == 1 and len(game.unseen) <= 1)
