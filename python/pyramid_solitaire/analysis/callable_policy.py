"""Your own policy in a simulation: ``simulate(..., policy=callable)`` (docs/env.md).

The games run through a :class:`~pyramid_solitaire.batch.GameBatch` of ``batch_size`` games:
the callable receives the observations and masks of the whole batch, ``policy(obs, mask)``,
and returns one action per game (an integer array); a game that has ended is dealt the next
deal still to play. A callable that accepts a keyword ``rng`` also receives a
``numpy.random.Generator`` seeded from ``seed``, so a stochastic policy is reproducible too.

>>> import numpy as np
>>> from pyramid_solitaire import simulate
>>> lowest = lambda obs, mask: mask.argmax(axis=1)   # the lowest legal action id
>>> r = simulate(200, rules="msc", policy=lowest, deterministic=True)
>>> r.games, r.policy, 0 <= r.win_rate <= 1
(200, '<lambda>', True)
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from typing import Any, Protocol, Union

import numpy as np
import numpy.typing as npt

from ..inputs.deals import DealBatch
from ..model.rules import Rules
from ..runtime import args as _args
from ..runtime.parallel import CancelEvent, Cancelled, ProgressArg, make_progress
from .batch import MIN_GAMES_PER_THREAD, N_ACTIONS, GameBatch

#: Games stepped together by default.
DEFAULT_BATCH_SIZE = 1024


class PolicyFunction(Protocol):
    """Your own policy as ``simulate(policy=...)`` calls it: the batch's observations and
    legal-action masks in (one row a game), one action id a game out (integers)."""

    def __call__(self, obs: np.ndarray, mask: np.ndarray, /) -> npt.ArrayLike: ...


class RandomPolicyFunction(Protocol):
    """A policy of your own that draws at random: it is also given ``rng``, a numpy
    Generator seeded from simulate's ``seed``, so that its games are reproducible."""

    def __call__(
        self, obs: np.ndarray, mask: np.ndarray, /, *, rng: np.random.Generator
    ) -> npt.ArrayLike: ...


#: What ``simulate(policy=...)`` takes as your own policy.
OwnPolicy = Union[PolicyFunction, RandomPolicyFunction]  # noqa: UP007  (a runtime alias on 3.10)


def _wants_rng(fn: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return "rng" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def check_options(
    observation: Any, batch_size: Any, deterministic: Any, max_steps: Any
) -> dict[str, Any]:
    """simulate's options of a callable policy, checked."""
    return dict(
        observation=_args.choice("observation", observation, ("visible", "full")),
        batch_size=_args.whole("batch_size", batch_size, 1, 1 << 24),
        deterministic=_args.flag("deterministic", deterministic),
        max_steps=None if max_steps is None else _args.whole("max_steps", max_steps, 1, 65535),
    )


def stepping_threads(threads: Any, size: int) -> int:
    """The threads that step a callable policy's batch of ``size`` games: those asked for,
    but one per MIN_GAMES_PER_THREAD games at most. The policy runs in the calling thread
    between two steps, so only the stepping can be shared, and a step of fewer games than
    that costs less than handing it to another thread (docs/env.md: where the time goes)."""
    return max(1, min(_args.threads(threads), size // MIN_GAMES_PER_THREAD))


def play(
    fn: Callable[..., Any],
    n: int,
    first: int,
    deals: DealBatch | None,
    rules: Rules,
    *,
    seed: int | None,
    observation: str,
    batch_size: int,
    deterministic: bool,
    max_steps: int | None,
    threads: Any,
    progress: ProgressArg,
    cancel: CancelEvent | None,
) -> dict[str, np.ndarray]:
    """Play rows 0..n-1 (deal numbers first.. or the rows of `deals`) with `fn`; the
    per-game arrays of a SimulationResult."""
    if not callable(fn):
        raise ValueError(
            f"policy must be a name or a callable policy(obs, mask), got {_args.excerpt(fn)}"
        )
    size = min(batch_size, n)
    gb = GameBatch(
        size,
        rules,
        seed=0,
        observation=observation,
        autoreset=None,
        illegal="raise",
        max_steps=max_steps,
        threads=stepping_threads(threads, size),
    )
    rng = np.random.default_rng(seed) if _wants_rng(fn) else None
    unlimited = rules.redeals == "unlimited"
    won = np.zeros(n, np.bool_)
    removed = np.zeros(n, np.uint8)
    moves = np.zeros(n, np.uint16)
    row = np.full(size, -1, np.int64)  # the row each game plays (-1: none left)
    pass_removed = np.zeros(size, np.bool_)
    acts = np.zeros(size, np.int64)
    nxt = 0
    bar = make_progress(progress, n, "games")

    def deal(games: np.ndarray) -> None:
        nonlocal nxt
        take = min(games.size, n - nxt)
        if take:
            rows = np.arange(nxt, nxt + take)
            if deals is None:
                gb.reset(games[:take], deals=(first + rows).astype(np.uint64))
            elif deals.numbers is not None:
                gb.reset(games[:take], deals=deals.numbers[rows])
            else:
                gb.reset(games[:take], deals=deals.decks_of(nxt, nxt + take))
            row[games[:take]] = rows
            pass_removed[games[:take]] = False
            nxt += take
        row[games[take:]] = -1

    def finish(games: np.ndarray) -> None:
        if not games.size:
            return
        r = row[games]
        won[r] = gb.won[games]
        removed[r] = 28 - np.count_nonzero(gb.obs[games, 52:80], axis=1)
        moves[r] = gb.moves[games]
        bar.update(int(games.size))
        deal(games)

    try:
        deal(np.arange(size))
        while (row >= 0).any():
            if cancel is not None and cancel.is_set():
                raise Cancelled("simulate")
            out = fn(gb.obs, gb.mask, rng=rng) if rng is not None else fn(gb.obs, gb.mask)
            active = row >= 0
            acts[:] = _actions(out, size, gb.mask, active)
            stop = np.zeros(size, np.bool_)
            if deterministic and unlimited:
                # A policy whose choice depends only on the position (the caller's promise:
                # not on which talon cards have been seen, nor on the pass) recycling after a
                # pass that removed nothing would repeat that pass for ever: the game ends
                # here (the recycle is not played).
                stop = active & (acts == N_ACTIONS - 1) & ~pass_removed
            acts[~active | stop] = -1  # (these games make no move)
            gb._step(acts, False)
            pass_removed[(acts >= 0) & (acts < N_ACTIONS - 2)] = True
            pass_removed[acts == N_ACTIONS - 1] = False
            ended = active & (gb.terminated | gb.truncated | stop)
            finish(np.flatnonzero(ended))
    finally:
        bar.close()
        gb.close()
    return {"won": won, "removed": removed, "moves": moves, "score": 10 * removed.astype(np.uint16)}


def _actions(out: Any, size: int, mask: np.ndarray, active: np.ndarray) -> np.ndarray:
    """The policy's answer, checked: one legal action per game still playing."""
    arr = np.asarray(out)
    if arr.shape != (size,):
        raise ValueError(
            f"the policy must return one action per game, shape ({size},); got shape {arr.shape}"
        )
    if arr.dtype.kind not in "iu" and not (
        arr.dtype.kind == "f" and np.isfinite(arr).all() and (arr == np.round(arr)).all()
    ):
        raise ValueError(
            f"the policy must return integer actions 0..{N_ACTIONS - 1}, got "
            f"dtype {arr.dtype}" + (" with NaN or fractions" if arr.dtype.kind == "f" else "")
        )
    a = arr.astype(np.int64)
    bad = active & ((a < 0) | (a >= N_ACTIONS))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"the policy returned action {a[i]} for game {i}: actions are 0..{N_ACTIONS - 1}"
        )
    legal = mask[np.arange(size), np.clip(a, 0, N_ACTIONS - 1)]
    bad = active & ~legal
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        from .batch import ACTIONS

        raise ValueError(
            f"the policy returned action {a[i]} ({ACTIONS[a[i]]}) for game {i}, "
            "which is not legal there: choose among mask[i] (the legal actions)"
        )
    return a


def replay(
    fn: Callable[..., Any],
    deal: Any,
    rules: Rules,
    *,
    seed: int | None,
    observation: str,
    deterministic: bool,
    max_steps: int | None,
) -> list[Any]:
    """The moves `fn` plays on one deal (alone in a batch of one game)."""
    from .batch import ACTIONS

    gb = GameBatch(
        1,
        rules,
        seed=0,
        observation=observation,
        autoreset=None,
        illegal="raise",
        max_steps=max_steps,
    )
    gb.reset(deals=[deal])
    rng = np.random.default_rng(seed) if _wants_rng(fn) else None
    played, pass_removed = [], False
    unlimited = rules.redeals == "unlimited"
    while not (gb.terminated[0] or gb.truncated[0]):
        out = fn(gb.obs, gb.mask, rng=rng) if rng is not None else fn(gb.obs, gb.mask)
        a = int(_actions(out, 1, gb.mask, np.ones(1, np.bool_))[0])
        if deterministic and unlimited and a == N_ACTIONS - 1 and not pass_removed:
            break
        gb.step(np.array([a]))
        played.append(ACTIONS[a])
        pass_removed = a < N_ACTIONS - 2 or (pass_removed and a != N_ACTIONS - 1)
    gb.close()
    return played


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    return fn(), time.perf_counter() - t0
