"""N games stepped at once in the core: the environment for your own strategies (docs/env.md).

>>> import numpy as np
>>> from pyramid_solitaire.batch import GameBatch, action_move, action_id
>>> batch = GameBatch(4, "msc", seed=7)
>>> obs, mask = batch.reset()
>>> obs.shape, mask.shape, obs.dtype, mask.dtype
((4, 109), (4, 102), dtype('int8'), dtype('bool'))
>>> first = mask.argmax(axis=1)                  # each game's lowest legal action
>>> obs, mask, reward, terminated, truncated = batch.step(first)
>>> action_move(100), action_id("Kd"), action_id("Ac+Qh")
(Move('draw'), 1, 6)
>>> batch.game(0).status
<Status.PLAYING: 'playing'>

The games live in the core as plain C structs (240 bytes a game); every call releases the
GIL, and a large batch is spread over threads. Each game's episodes depend only on the seed
(or the given deals), its index and the actions, never on the thread count or the split.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np

from pyramid_core import batch as _core

from ..inputs.deals import check_decks, read_deals
from ..model.deal import Deal, codes_of
from ..model.game import Game
from ..model.move import Move
from ..model.rules import Rules
from ..runtime import args as _args
from ..runtime.parallel import CancelEvent, ProgressArg, make_progress, run_chunks

_Arrays = TypeVar("_Arrays", bound=tuple[np.ndarray, ...])

__all__ = [
    "ACTIONS",
    "N_ACTIONS",
    "OBS_SIZE",
    "OBS_LAYOUT",
    "GameBatch",
    "IllegalActionError",
    "StepResult",
    "action_id",
    "action_move",
    "greedy_actions",
    "viable_actions",
    "UNKNOWN_CARD",
]

#: The number of actions: 4 Kings, 96 pairs, draw, recycle.
N_ACTIONS: int = _core.N_ACTIONS_
#: The size of one observation (int8 values).
OBS_SIZE: int = _core.OBS_SIZE_
#: The value of a talon card not seen yet, in the ``visible`` observation.
UNKNOWN_CARD: int = _core.UNKNOWN_
#: Bytes of native state per game (the observation and mask buffers apart).
BYTES_PER_GAME: int = _core.BYTES_PER_GAME
#: The observation's parts: name -> (start, stop) in one row.
OBS_LAYOUT: dict[str, tuple[int, int]] = {
    "pyramid_cards": (0, 28),
    "talon_cards": (28, 52),
    "pyramid_state": (52, 80),
    "talon_state": (80, 104),
    "stock_count": (104, 105),
    "waste_count": (105, 106),
    "recycles_used": (106, 107),
    "recycles_left": (107, 108),
    "pass_removed": (108, 109),
}
#: Games per thread below which a step stays on the calling thread.
MIN_GAMES_PER_THREAD = 4096
#: The default step limit: above any game under limited redeals (at most
#: 28 + 24 x (redeals + 1) + redeals moves), so it only ends unlimited-redeal episodes.
DEFAULT_MAX_STEPS = 2000
#: Moves (steps x games) per native call of rollout(): about 50 ms, so Ctrl-C, cancel and
#: the progress bar are seen that often.
ROLLOUT_MOVES = 500_000


def _move_of_action(a: int) -> Move:
    if a == 100:
        return Move.DRAW
    if a == 101:
        return Move.RECYCLE
    cards = _core.action_cards_of(a)
    return Move("king", cards) if len(cards) == 1 else Move("pair", cards)


#: Every action's move, by action id (``ACTIONS[a]``).
ACTIONS: tuple[Move, ...] = tuple(_move_of_action(a) for a in range(102))
_IDS: dict[Move, int] = {m: a for a, m in enumerate(ACTIONS)}


def action_move(a: Any) -> Move:
    """The :class:`Move` of action ``a`` (0..101): 0..3 the Kings of clubs, diamonds, hearts
    and spades; 4 + 16 (r - 1) + 4 s + u the pair of the rank-r card (r = 1..6) of suit s
    with the rank 13 - r card of suit u; 100 draw; 101 recycle."""
    return ACTIONS[_args.whole("action", a, 0, N_ACTIONS - 1)]


def action_id(move: Move | str) -> int:
    """The action id of a move (a :class:`Move` or its text, such as ``"Kd"``, ``"As+Qh"``,
    ``"draw"``)."""
    return _IDS[move if isinstance(move, Move) else Move.parse(move)]


def greedy_actions(obs: Any, rules: Rules | str | dict[str, Any]) -> np.ndarray:
    """The built-in greedy policy's action at each observation's position (an (n, 109) int8
    array, ``visible`` or ``full``: greedy reads only what a player sees), -1 where no move
    is legal: for a callable policy that wants greedy's opinion, or falls back on it.

    >>> batch = GameBatch(2, rules="msc", seed=1)
    >>> obs, mask = batch.reset()
    >>> [action_move(a) for a in greedy_actions(obs, "msc")]
    [Move('Kc'), Move('4h+9s')]
    """
    obs = np.ascontiguousarray(obs, dtype=np.int8)
    if obs.ndim != 2 or obs.shape[1] != OBS_SIZE:
        raise ValueError(f"obs must be n x {OBS_SIZE} observations, got shape {obs.shape}")
    out = np.empty(obs.shape[0], np.int16)
    options = {k: int(v) for k, v in Rules.coerce(rules).core_options().items()}
    _core.greedy_actions(options, obs, out)
    return out


def viable_actions(obs: Any, rules: Rules | str | dict[str, Any]) -> np.ndarray:
    """Which legal actions at each observation's position (an (n, 109) int8 array,
    ``visible`` or ``full``) the free-talon relaxation does not prove lost: a bool (n, 102)
    array, True for a legal action after which the pyramid could still be cleared if every
    card left in the talon were at hand at any time. It reads the pyramid and which cards
    the talon holds, never their order, so it never peeks: the same answer from ``visible``
    and ``full`` rows. A False is a proof (that move loses, whatever the stock holds); a True
    is no promise. All False where every move loses, or none is legal. Not worked out (every
    legal action True) in the last pass and under ``win = all``, where the relaxation says
    little.

    >>> batch = GameBatch(1, rules="msc", deals=[10_000_022])
    >>> obs, mask = batch.reset()
    >>> [str(action_move(a)) for a in np.flatnonzero(mask[0])]
    ['2c+Js', '5d+8c', 'draw']
    >>> [str(action_move(a)) for a in np.flatnonzero(mask[0] & ~viable_actions(obs, "msc")[0])]
    ['2c+Js']
    >>> str(action_move(greedy_actions(obs, "msc")[0]))  # greedy's pick loses at once
    '2c+Js'
    """
    obs = np.ascontiguousarray(obs, dtype=np.int8)
    if obs.ndim != 2 or obs.shape[1] != OBS_SIZE:
        raise ValueError(f"obs must be n x {OBS_SIZE} observations, got shape {obs.shape}")
    out = np.zeros((obs.shape[0], N_ACTIONS), np.uint8)
    options = {k: int(v) for k, v in Rules.coerce(rules).core_options().items()}
    _core.relaxed_actions(options, obs, out)
    return out.view(np.bool_)


def _fair_params(fair: Any) -> dict[str, int]:
    """The core's parameters of ``fair``: True (the default :class:`Hindsight`) or one."""
    from .fair import Hindsight, coerce_policy

    policy = Hindsight() if fair is True else coerce_policy(fair)
    if policy is None:
        raise ValueError(f"fair is True or a Hindsight policy, got {_args.excerpt(fair)}")
    return policy.params(0)


class IllegalActionError(ValueError):
    """An action that is not legal in its game (``illegal="raise"``); nothing was played."""


class StepResult(NamedTuple):
    """What :meth:`GameBatch.step` returns (the batch's buffers unless ``copy=True``)."""

    obs: np.ndarray
    mask: np.ndarray
    reward: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray


_REWARDS = ("removed", "win")
_OBS = ("visible", "full")


def _reward(reward: Any) -> tuple[int, tuple[float, float, float, float], str]:
    """``removed``, ``win``, a session profile (name or Profile) or a Scoring."""
    from ..model.profiles import Profile, Scoring

    if isinstance(reward, str) and reward.strip().lower() in _REWARDS:
        name = reward.strip().lower()
        return _core.REWARDS[name], (0.0, 0.0, 0.0, 0.0), name
    scoring: Scoring | None = None
    name = "score"
    if isinstance(reward, Scoring):
        scoring, name = reward, "score"
    elif isinstance(reward, (str, Profile)):
        try:
            profile = Profile.preset(reward)
        except ValueError:
            raise ValueError(
                f"reward must be 'removed', 'win', a session profile's name "
                f"({', '.join(Profile.names())}), a Profile or a Scoring; got "
                f"{_args.excerpt(reward)}"
            ) from None
        scoring, name = profile.scoring, f"score:{profile.name}"
        if scoring == Scoring():
            raise ValueError(
                f"profile {profile.name!r} scores no points; choose another "
                "reward ('removed', 'win' or a profile with points)"
            )
    if scoring is None:
        raise ValueError(
            f"reward must be 'removed', 'win', a session profile's name, a Profile "
            f"or a Scoring; got {_args.excerpt(reward)}"
        )
    # (the batch has no clock: a bonus per second counts no seconds; docs/env.md)
    points = (scoring.pyramid, scoring.talon, scoring.win_bonus, scoring.bonus_per_move)
    for field_name, v in zip(("pyramid", "talon", "win_bonus", "bonus_per_move"), points):
        if not -1e6 <= _args.real(f"the scoring's {field_name}", v, positive=False) <= 1e6:
            raise ValueError(
                f"the scoring's {field_name} must be -1,000,000 .. 1,000,000, got {v!r}"
            )
    pyramid, talon, win_bonus, per_move = (float(v) for v in points)
    return _core.REWARDS["score"], (pyramid, talon, win_bonus, per_move), name


def _autoreset(value: Any) -> str | None:
    if value is None:
        return None
    return _args.choice("autoreset", value, ("next_step", "same_step"))


def _seeds_of(seeds: Any, n: int) -> np.ndarray:
    """One seed per game (0 .. 2**64 - 1 each), as a uint64 array."""
    values = list(seeds)
    if len(values) != n:
        raise ValueError(f"seed as a sequence holds one seed per game: {n}, got {len(values)}")
    return np.array(
        [_args.whole(f"seed[{i}]", v, 0, (1 << 64) - 1) for i, v in enumerate(values)],
        dtype=np.uint64,
    )


#: The arrays of a batch's state (:meth:`GameBatch.get_state`) besides the games' own.
_STATE_ARRAYS = (
    "obs",
    "mask",
    "reward",
    "terminated",
    "truncated",
    "illegal",
    "reset_games",
    "final_obs",
    "final_mask",
    "final_moves",
    "final_deal_numbers",
    "_final_numbered",
)
_STATE_VERSION = 1


class GameBatch:
    """``n`` games of one rule set, stepped together in the core.

    - ``rules``: a :class:`Rules`, preset name or dict (default: the deals' rules, else
      ``pyramide``); every option is supported.
    - ``deals``: None for the seeded stream (game i's k-th episode plays a deal number drawn
      from (seed, offset + i, k)), or the deals to play (numbers, codes, card lists,
      :class:`Deal` objects or an (m, 52) array of decks): game i's k-th episode plays
      ``deals[(i + k * n) % m]``.
    - ``seed``: 0 .. 2**64 - 1 (None: a fresh one, kept in ``.seed``); it keys the deal
      stream and :meth:`step_random`'s actions. ``offset``: game i of this batch is game
      ``offset + i`` of the stream (so a batch can be cut into smaller ones). ``seed`` may
      also be a sequence of ``n`` seeds: game i then plays as a batch of one game seeded
      ``seed[i]`` would (kept in ``.seeds``; ``.seed`` is 0), as Gymnasium's vector envs
      take one seed per env.
    - ``observation``: ``"visible"`` (what a player sees; talon cards never turned face up
      read ``UNKNOWN_CARD``) or ``"full"`` (every card).
    - ``reward``: ``"removed"`` (pyramid cards removed by the step), ``"win"`` (1 on the
      winning step), or a session profile (``"three-pass"``, a Profile) or Scoring: its
      points (the win bonus with the batch's moves and no clock).
    - ``illegal``: ``"raise"`` (:class:`IllegalActionError`, nothing played), ``"ignore"``
      (nothing changes for that game but its moves counter, so that the step limit still
      ends an episode of illegal actions; ``.illegal`` flags it) or ``"penalty"`` (the
      episode ends, terminated, with reward ``-penalty``).
    - ``autoreset``: None (an ended game stays ended: its actions are ignored until
      :meth:`reset`), ``"next_step"`` (it is dealt anew at its next step, whose action is
      ignored) or ``"same_step"`` (dealt anew in the step that ends it; the last
      observation is in ``.final_obs``).
    - ``max_steps``: an episode is truncated after this many moves (default 2,000, above
      any game with limited redeals); one under unlimited redeals is also truncated when
      only recycling is left after a pass in which no removal was ever legal.
    - ``threads``: None (the cores, one per 4,096 games) or a count.
    - ``copy``: True returns copies from :meth:`step` and :meth:`reset`; by default they
      return the batch's own buffers, overwritten by the next call.
    """

    def __init__(
        self,
        n: int,
        rules: Rules | str | dict[str, Any] | None = None,
        *,
        deals: Any = None,
        seed: int | None = None,
        offset: int = 0,
        observation: str = "visible",
        reward: Any = "removed",
        illegal: str = "raise",
        penalty: float = 1.0,
        autoreset: str | None = None,
        max_steps: int | None = None,
        threads: int | None = None,
        copy: bool = False,
    ) -> None:
        self.n = _args.whole("n", n, 1, 1 << 28)
        explicit = None if rules is None else Rules.coerce(rules)
        self._deals = None
        decks = keys = numbered = None
        if deals is not None:
            self._deals = read_deals(deals, explicit)
            self.rules = self._deals.rules
            decks = np.ascontiguousarray(self._deals.decks, dtype=np.uint8)
            keys = np.ascontiguousarray(self._deals.keys, dtype=np.uint64)
            numbered = np.ascontiguousarray(self._deals.numbered, dtype=np.uint8)
        else:
            self.rules = explicit if explicit is not None else Rules()
        self._seeds = None
        if seed is None:
            import secrets

            seed = secrets.randbits(53)
        if isinstance(seed, (list, tuple, np.ndarray)):
            self._seeds = _seeds_of(seed, self.n)
            seed = 0
        self.seed = _args.whole("seed", seed, 0, (1 << 64) - 1)
        self.offset = _args.whole("offset", offset, 0, (1 << 64) - 1 - self.n)
        self.observation = _args.choice("observation", observation, _OBS)
        kind, scoring, self.reward_name = _reward(reward)
        self.illegal_mode = _args.choice("illegal", illegal, tuple(_core.ILLEGAL))
        self.penalty = _args.real("penalty", penalty, positive=False)
        if not 0 <= self.penalty <= 1e6:
            raise ValueError(
                f"penalty must be 0 .. 1,000,000 (it is taken off the reward), got {self.penalty!r}"
            )
        self.autoreset = _autoreset(autoreset)
        self.max_steps = _args.whole(
            "max_steps", DEFAULT_MAX_STEPS if max_steps is None else max_steps, 1, 65535
        )
        self.copy = _args.flag("copy", copy)
        cores = _args.threads(None)
        self.threads = (
            max(1, min(cores, self.n // MIN_GAMES_PER_THREAD))
            if threads is None
            else _args.threads(threads)
        )
        need = self.n * (BYTES_PER_GAME + 2 * (OBS_SIZE + N_ACTIONS) + 80)
        free = _args.available_memory()
        if free is not None and need > free:
            raise ValueError(
                f"a batch of {self.n:,} games needs about "
                f"{_args.format_bytes(need)}, more than the "
                f"{_args.format_bytes(free)} of memory available: ask for fewer "
                "games"
            )
        self._core = _core.Batch(
            self.n,
            self.rules.core_options(),
            self.seed,
            self.offset,
            self.observation == "visible",
            kind,
            _core.ILLEGAL[self.illegal_mode],
            _core.AUTORESET[self.autoreset],
            self.max_steps,
            self.penalty,
            scoring,
            decks,
            keys,
            numbered,
            self._seeds,
        )
        self._params = dict(
            n=self.n,
            rules=self.rules,
            deals=self._deals,
            seed=self.seed if self._seeds is None else self._seeds,
            offset=self.offset,
            observation=self.observation,
            reward=reward,
            illegal=self.illegal_mode,
            penalty=self.penalty,
            autoreset=self.autoreset,
            max_steps=self.max_steps,
            threads=threads,
            copy=self.copy,
        )
        n = self.n
        self.obs = np.zeros((n, OBS_SIZE), np.int8)
        self.mask = np.zeros((n, N_ACTIONS), np.bool_)
        self.reward = np.zeros(n, np.float32)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        #: Games whose last action was illegal (``illegal="ignore"`` or ``"penalty"``).
        self.illegal = np.zeros(n, np.bool_)
        #: Games dealt anew by the last step (autoreset).
        self.reset_games = np.zeros(n, np.bool_)
        #: Under ``autoreset="same_step"``: the last observation and mask of the games that
        #: ended in the last step (rows where ``reset_games``).
        self.final_obs = (
            np.zeros((n, OBS_SIZE), np.int8)
            if self.autoreset == "same_step"
            else np.zeros((1, OBS_SIZE), np.int8)
        )
        self.final_mask = (
            np.zeros((n, N_ACTIONS), np.bool_)
            if self.autoreset == "same_step"
            else np.zeros((1, N_ACTIONS), np.bool_)
        )
        self._actions = np.zeros(n, np.int64)
        self._moves = np.zeros(n, np.uint16)
        self._keys = np.zeros(n, np.uint64)
        self._numbered = np.zeros(n, np.uint8)
        self._core.set_info(self._moves, self._keys, self._numbered)
        #: Under ``autoreset="same_step"``: the moves, deal number and whether it is one of
        #: each game that ended in the last step, as they were when it ended (rows where
        #: ``reset_games``); the current ones are the new game's.
        same = self.autoreset == "same_step"
        self.final_moves = np.zeros(n if same else 1, np.uint16)
        self.final_deal_numbers = np.zeros(n if same else 1, np.uint64)
        self._final_numbered = np.zeros(n if same else 1, np.uint8)
        if same:
            self._core.set_final_info(
                self.final_moves, self.final_deal_numbers, self._final_numbered
            )
        self._codes = np.full(n, "", "<U13")
        self._stale = np.zeros(n, np.bool_)  # games whose code is not worked out yet
        self._core.set_outputs(
            self.obs,
            self.mask.view(np.uint8),
            self.reward,
            self.terminated.view(np.uint8),
            self.truncated.view(np.uint8),
            self.illegal.view(np.uint8),
            self.reset_games.view(np.uint8),
            self.final_obs,
            self.final_mask.view(np.uint8),
        )
        self._span_cache: tuple[int, list[tuple[int, int]]] = (0, [])
        self._pool: ThreadPoolExecutor | None = None
        self._started = False

    # ---- state: copies, pickles, search ----------------------------------------------------
    @property
    def seeds(self) -> np.ndarray | None:
        """The per-game seeds when ``seed`` was a sequence, else None."""
        return None if self._seeds is None else self._seeds.copy()

    def get_state(self) -> dict[str, Any]:
        """The batch's state as plain numpy arrays and numbers (a copy): every game (its
        deck, position, deal, step counter, random-action generator) and the outputs of the
        last reset or step. :meth:`set_state` puts it back, in this batch or in another
        made with the same arguments: for a search that tries actions and comes back."""
        self._check_started("get_state()")
        cards = np.empty((self.n, 52), np.uint8)
        words = np.empty((self.n, _core.STATE_WORDS), np.uint64)
        self._core.get_games(cards, words)
        state: dict[str, Any] = {
            "version": _STATE_VERSION,
            "n": self.n,
            "rules": self.rules.to_dict(),
            "cards": cards,
            "words": words,
        }
        for name in _STATE_ARRAYS:
            state[name] = getattr(self, name).copy()
        return state

    def set_state(self, state: dict[str, Any]) -> None:
        """Put back a state of :meth:`get_state` (of this batch, or of one made with the same
        arguments). Everything is checked before anything changes: a state of another size,
        rule set or version, or arrays of another shape or type, raise ValueError."""
        if not isinstance(state, dict):
            raise ValueError(
                f"a batch's state is the dict get_state() gives, got {_args.excerpt(state)}"
            )
        if state.get("version") != _STATE_VERSION:
            raise ValueError(
                f"a batch state of version {_STATE_VERSION} is needed, got "
                f"{_args.excerpt(state.get('version'))}"
            )
        if state.get("n") != self.n:
            raise ValueError(
                f"the state is of {_args.excerpt(state.get('n'))} games, this batch of {self.n}"
            )
        if state.get("rules") != self.rules.to_dict():
            raise ValueError("the state is of another rule set than this batch's")
        want = {
            "cards": ((self.n, 52), np.uint8),
            "words": ((self.n, _core.STATE_WORDS), np.uint64),
        }
        for name in _STATE_ARRAYS:
            a = getattr(self, name)
            want[name] = (a.shape, a.dtype)
        for name, (shape, dtype) in want.items():
            a = state.get(name)
            if not isinstance(a, np.ndarray) or a.shape != shape or a.dtype != dtype:
                raise ValueError(
                    f"state[{name!r}] must be a {dtype} array of shape {shape}, got "
                    f"{_args.excerpt(a)}"
                )
        check_decks(state["cards"])  # each row the 52 cards once
        self._core.set_games(
            np.ascontiguousarray(state["cards"]), np.ascontiguousarray(state["words"])
        )
        for name in _STATE_ARRAYS:
            getattr(self, name)[...] = state[name]
        self._stale[:] = True
        self._started = True

    def __getstate__(self) -> dict[str, Any]:
        """For pickle and copy.deepcopy: the arguments the batch was made with and its state
        (a batch never reset pickles as new)."""
        return {"params": self._params, "state": self.get_state() if self._started else None}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.__init__(**saved["params"])  # type: ignore[misc]
        if saved["state"] is not None:
            self.set_state(saved["state"])

    # ---- threads ---------------------------------------------------------------------------
    def _spans(self) -> list[tuple[int, int]]:
        """The games cut into one part per thread (kept while .threads stays the same)."""
        if self._span_cache[0] == self.threads:
            return self._span_cache[1]
        t = min(self.threads, self.n)
        cuts = [self.n * k // t for k in range(t + 1)]
        spans = [(cuts[k], cuts[k + 1]) for k in range(t)]
        self._span_cache = (self.threads, spans)
        return spans

    def _run(self, fn: Any) -> None:
        """fn(lo, hi) over the batch: on the calling thread, or spread over the pool."""
        spans = self._spans()
        if len(spans) == 1:
            fn(0, self.n)
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(
                max_workers=len(spans) - 1, thread_name_prefix="pyramid-batch"
            )
        futures = [self._pool.submit(fn, lo, hi) for lo, hi in spans[1:]]
        try:
            fn(*spans[0])
        finally:
            for f in futures:
                f.result()

    def close(self) -> None:
        """Stop the batch's threads (also done when it is garbage collected)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def __del__(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.shutdown(wait=False)

    def __enter__(self) -> GameBatch:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ---- resets and steps ------------------------------------------------------------------
    def _out(self, arrays: _Arrays) -> _Arrays:
        """The arrays, or copies of them (``copy``): a tuple of as many."""
        return cast(_Arrays, tuple(a.copy() for a in arrays)) if self.copy else arrays

    def _games(self, games: Any) -> np.ndarray:
        """Game indices: an int, a sequence of ints, or a boolean mask of length n."""
        arr = np.asarray(games)
        if arr.dtype == np.bool_:
            if arr.shape != (self.n,):
                raise ValueError(f"a boolean mask of games has shape ({self.n},), got {arr.shape}")
            return np.flatnonzero(arr).astype(np.int64)
        if arr.ndim == 0:
            arr = arr.reshape(1)
        if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
            raise ValueError(
                "games must be a game index, a sequence of indices or a boolean "
                f"mask of length {self.n}; got {_args.excerpt(games)}"
            )
        arr = arr.astype(np.int64)
        if arr.size and (arr.min() < 0 or arr.max() >= self.n):
            bad = arr[(arr < 0) | (arr >= self.n)][0]
            raise ValueError(f"game index {bad} is out of range 0..{self.n - 1}")
        if np.unique(arr).size != arr.size:
            raise ValueError("games lists a game twice")
        return arr

    def reset(self, games: Any = None, *, deals: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """Deal the games (all, or the given indices or boolean mask) their next deal, or the
        given ``deals`` (one per game listed, in order); returns ``(obs, mask)`` of the whole
        batch. The first reset of a batch deals every game, whatever ``games`` says (then
        the listed ones get the given ``deals``)."""
        core = self._core
        idx = None if games is None else self._games(games)  # (checked before any deal)
        batch = None
        if deals is not None:
            batch = read_deals(deals, self.rules)
            want = self.n if idx is None else idx.size
            if len(batch) != want:
                raise ValueError(
                    f"reset of {want} game(s) got {len(batch)} deal(s): give one deal per game"
                )
        if not self._started and idx is not None:
            self.reset()  # the first reset deals every game
            if batch is None:
                return self._out((self.obs, self.mask))
        if batch is not None:
            core.reset_decks(
                np.arange(self.n, dtype=np.int64) if idx is None else idx,
                np.ascontiguousarray(batch.decks, np.uint8),
                np.ascontiguousarray(batch.keys, np.uint64),
                np.ascontiguousarray(batch.numbered, np.uint8),
                self.obs,
                self.mask.view(np.uint8),
            )
        else:
            which = None
            if idx is not None:
                which = np.zeros(self.n, np.uint8)
                which[idx] = 1
            self._run(lambda lo, hi: core.reset(lo, hi, which, self.obs, self.mask.view(np.uint8)))
        sel: Any = slice(None) if idx is None else idx
        self._stale[sel] = True
        self.reward[sel] = 0
        self.terminated[sel] = False
        self.truncated[sel] = False
        self.illegal[sel] = False
        self.reset_games[sel] = False
        self._started = True
        return self._out((self.obs, self.mask))

    def _check_started(self, what: str = "the first step") -> None:
        """Every method that reads or plays the games refuses until they are dealt."""
        if not self._started:
            raise ValueError(f"call reset() before {what}: the games are not dealt yet")

    def _read_actions(self, actions: Any) -> np.ndarray:
        """The actions as int64, checked: shape (n,), whole numbers 0..101."""
        arr = np.asarray(actions)
        if arr.shape != (self.n,):
            if self.n == 1 and arr.ndim == 0:
                arr = arr.reshape(1)
            else:
                raise ValueError(
                    f"actions must have shape ({self.n},), one per game; got shape {arr.shape}"
                )
        kind = arr.dtype.kind
        if kind == "b" or kind not in "iuf":
            raise ValueError(f"actions must be integers 0..{N_ACTIONS - 1}, got dtype {arr.dtype}")
        if kind == "f":
            bad = ~np.isfinite(arr) | (arr != np.round(arr))
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise ValueError(
                    f"actions must be whole numbers 0..{N_ACTIONS - 1}; game {i} "
                    f"got {arr[i].item()!r}"
                )
        out = self._actions
        if kind == "u":
            too = arr > N_ACTIONS - 1
        else:
            too = (arr < 0) | (arr > N_ACTIONS - 1)
        if too.any():
            i = int(np.flatnonzero(too)[0])
            raise ValueError(f"actions are 0..{N_ACTIONS - 1}; game {i} got {arr[i].item()!r}")
        np.copyto(out, arr, casting="unsafe")
        return out

    def step(self, actions: Any) -> StepResult:
        """Play one action in every game (an array of n action ids); returns
        ``(obs, mask, reward, terminated, truncated)``. ``.illegal`` and ``.reset_games``
        say which games had an illegal action and which were dealt anew. An ended game
        (``autoreset=None``) ignores its action and keeps reporting how it ended."""
        self._check_started()
        acts = self._read_actions(actions)
        if self.illegal_mode == "raise":
            bad = self._core.first_illegal(acts, 0, self.n)
            if bad >= 0:
                self._raise_illegal(bad, int(acts[bad]))
        self._step(acts, False)
        return StepResult(
            *self._out((self.obs, self.mask, self.reward, self.terminated, self.truncated))
        )

    def step_random(self) -> StepResult:
        """Play a uniform legal action in every game, drawn in the core from (seed, game,
        episode, move); the actions played are in ``.last_actions``."""
        self._check_started()
        self._step(self._actions, True)
        return StepResult(
            *self._out((self.obs, self.mask, self.reward, self.terminated, self.truncated))
        )

    @property
    def last_actions(self) -> np.ndarray:
        """The actions of the last :meth:`step` or :meth:`step_random` (a copy; after
        :meth:`step_random`, -1 for the games that made no move)."""
        return cast(np.ndarray, self._actions.copy())

    def _step(self, acts: np.ndarray, random: bool) -> None:
        step = self._core.step
        if len(self._spans()) == 1:
            step(acts, 0, self.n, random)
        else:
            self._run(lambda lo, hi: step(acts, lo, hi, random))
        if self.autoreset is not None:
            np.logical_or(self._stale, self.reset_games, out=self._stale)

    def _update_codes(self) -> None:
        """Work out the deal codes of the games dealt anew since the last time (only when a
        code is asked for: a step only marks them)."""
        if not self._stale.any():
            return
        which = np.flatnonzero(self._stale)
        codes = codes_of(self._keys[which], self.rules)
        codes[~self._numbered[which].view(np.bool_)] = ""
        self._codes[which] = codes
        self._stale[:] = False

    def _raise_illegal(self, i: int, a: int) -> None:
        game = self.game(i)
        move = ACTIONS[a]
        legal = ", ".join(f"{action_id(m)} ({m})" for m in game.legal_moves)
        why = game._why_illegal(move) if hasattr(game, "_why_illegal") else "not legal"
        raise IllegalActionError(
            f"game {i}: action {a} ({move}) is not legal: {why}; legal actions: {legal}"
        )

    def observe(self, observation: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Fresh arrays ``(obs, mask)`` of every game's position, in the batch's observation
        mode or the one given (``"full"`` from a ``"visible"`` batch, say)."""
        self._check_started("observe()")
        mode = (
            self.observation
            if observation is None
            else _args.choice("observation", observation, _OBS)
        )
        obs = np.empty((self.n, OBS_SIZE), np.int8)
        mask = np.empty((self.n, N_ACTIONS), np.bool_)
        self._run(
            lambda lo, hi: self._core.observe(lo, hi, obs, mask.view(np.uint8), mode == "visible")
        )
        return obs, mask

    def rollout(
        self,
        steps: int,
        *,
        observe: bool = True,
        progress: ProgressArg = False,
        cancel: CancelEvent | None = None,
    ) -> dict[str, Any]:
        """Play ``steps`` uniform random legal moves in every game, each game dealt anew as
        soon as its episode ends, entirely in the core (``observe``: also write the
        observations and masks at every move, as a step does). Returns the moves played, the
        episodes ended, the wins among them and the seconds taken. Ctrl-C and ``cancel``
        stop it within a few milliseconds."""
        steps = _args.whole("steps", steps, 1, 1 << 40)
        observe = _args.flag("observe", observe)
        self._check_started()
        spans = self._spans()
        outs = np.zeros((len(spans), 3), np.int64)
        obs, mask = self.obs, self.mask.view(np.uint8)
        block = max(1, min(steps, ROLLOUT_MOVES // self.n))  # steps per call: ~50 ms
        bar = make_progress(progress, steps * self.n, "moves")
        t0 = time.perf_counter()
        try:
            for s in range(0, steps, block):
                k = min(block, steps - s)

                def work(a: int, b: int, flag: np.ndarray, k: int = k) -> None:
                    lo, hi = spans[a]
                    self._core.rollout(k, lo, hi, outs[a], flag, obs, mask, observe)

                run_chunks(work, len(spans), len(spans), 1, None, cancel, "the rollout")
                bar.update(k * self.n)
        finally:
            bar.close()
            self._stale[:] = True
        seconds = time.perf_counter() - t0
        moves, episodes, wins = (int(x) for x in outs.sum(axis=0))
        return {
            "moves": moves,
            "episodes": episodes,
            "wins": wins,
            "seconds": seconds,
            "moves_per_second": moves / seconds if seconds else None,
        }

    # ---- reading the games -----------------------------------------------------------------
    def _state(self) -> np.ndarray:
        self._check_started("reading the games")
        out = np.empty((self.n, 7), np.int64)
        self._core.state(out)
        return out

    @property
    def waiting(self) -> np.ndarray:
        """True for each game whose episode has ended and whose next action is ignored
        (``autoreset`` None: until it is reset; ``"next_step"``: at the next step, which
        deals it anew). Its mask is all False: no action is legal in an ended game, and a
        masked softmax over its row divides 0 by 0. Never True under ``"same_step"``."""
        self._check_started("waiting")
        if self.autoreset == "same_step":
            return np.zeros(self.n, np.bool_)
        return self.terminated | self.truncated

    @property
    def won(self) -> np.ndarray:
        """True where a game's position is won."""
        self._check_started("reading .won")
        out = np.empty(self.n, np.uint8)
        self._core.won(out)
        return out.astype(np.bool_)

    @property
    def moves(self) -> np.ndarray:
        """Moves played in each game's current episode (uint16; the batch's buffer, kept up
        to date by every reset and step)."""
        self._check_started("reading .moves")
        return self._moves

    @property
    def episodes(self) -> np.ndarray:
        """Deals dealt to each game so far."""
        self._check_started("reading .episodes")
        return cast(np.ndarray, self._state()[:, 4].copy())

    @property
    def positions(self) -> np.ndarray:
        """Each game's engine position word (pyramid_core/position.pxd), as uint64."""
        self._check_started("reading .positions")
        return cast(np.ndarray, self._state()[:, 0].view(np.uint64).copy())

    @property
    def deal_numbers(self) -> np.ndarray:
        """Each game's deal number (uint64); for a deal given as a card list, its row in the
        given deals (see :attr:`numbered`). The batch's buffer, like :attr:`moves`."""
        self._check_started("reading .deal_numbers")
        return self._keys

    @property
    def numbered(self) -> np.ndarray:
        """True where a game's deal has a number (and so a deal code); the batch's buffer."""
        self._check_started("reading .numbered")
        return self._numbered.view(np.bool_)

    def deal(self, i: int) -> Deal:
        """Game i's current deal (with its code when it has a number)."""
        self._check_started("deal()")
        i = _args.whole("game", i, 0, self.n - 1)
        st = self._state()[i]
        if st[2]:
            return Deal.from_number(int(st[1]), rules=self.rules)
        return Deal.from_cards(list(self._core.deck(i)), rules=self.rules)

    def code(self, i: int) -> str | None:
        """Game i's deal code (None for a deal given as a card list)."""
        self._check_started("code()")
        i = _args.whole("game", i, 0, self.n - 1)
        self._update_codes()
        return str(self._codes[i]) or None

    def final_codes(self) -> np.ndarray:
        """Under ``autoreset="same_step"``: the deal codes of the games that ended in the
        last step (``<U13``; "" for the other rows and for a deal given as a card list)."""
        self._check_started("final_codes()")
        out = np.full(self.n, "", "<U13")
        which = self.reset_games & (self.autoreset == "same_step")
        if which.any():
            codes = codes_of(self.final_deal_numbers[which], self.rules)
            codes[~self._final_numbered[which].view(np.bool_)] = ""
            out[which] = codes
        return out

    @property
    def deal_codes(self) -> np.ndarray:
        """Every game's deal code (numpy ``<U13``; "" for a deal given as a card list): the
        batch's buffer, updated for the games dealt anew by each reset and step."""
        self._check_started("reading .deal_codes")
        self._update_codes()
        return self._codes

    def codes(self, games: Any = None) -> list[str | None]:
        """The deal codes of the games (all, or the given ones)."""
        self._check_started("codes()")
        idx = range(self.n) if games is None else self._games(games).tolist()
        return [self.code(int(i)) for i in idx]

    def game(self, i: int) -> Game:
        """Game i as a :class:`Game` at its current position (no undo history)."""
        self._check_started("game()")
        i = _args.whole("game", i, 0, self.n - 1)
        game = Game(self.deal(i))
        state = self._state()[i]
        game._pos = int(state[0])  # (bit 63 of a position is always 0)
        game._seen0 = int(state[6])  # what the batch's game has seen (Game.seen_mask)
        game._codes = None
        return game

    # ---- solver labels ---------------------------------------------------------------------
    def labels(
        self,
        games: Any = None,
        *,
        shortest: bool = True,
        max_removed: bool = True,
        max_nodes: int | None = None,
        max_seconds: float | None = 1.0,
        max_memory: int | str | None = None,
        threads: int | None = None,
        progress: ProgressArg = False,
        cancel: CancelEvent | None = None,
        optimal: bool = False,
        fair: Any = None,
    ) -> dict[str, np.ndarray]:
        """What perfect play says of each game's current position (all games, or the given
        indices or mask), solved in the core over threads:

        - ``winnable`` (int8): 1 can still be won, 0 cannot, -1 unknown (a budget ran out);
        - ``n_moves`` (int16): the moves of a shortest win (``shortest=True``), else or when
          unknown -1;
        - ``action`` (int16): an optimal action: the first move of a shortest win (of a win
          when ``shortest=False`` or A* ran out of budget), or, for a lost position with
          ``max_removed``, of a line removing the most pyramid cards; -1 when there is none
          or it is unknown;
        - ``removable`` (int8): how many more pyramid cards the best line removes (all that
          are left for a winnable position; with ``max_removed``, the exact count for a lost
          one; -1 unknown);
        - ``stop`` (int8): 0, or what ran out (1 nodes, 2 time, 3 memory, 4 cancelled).
        - with ``optimal=True``, ``optimal`` (bool, m x 102): every optimal action, not only
          one: those after which a shortest win is one move shorter (``shortest``; else
          those after which the game can still be won), or, for a lost position with
          ``max_removed``, after which the most pyramid cards can still go; each action's
          position is decided by the solver too (an empty row where a budget ran out);
        - with ``fair=True`` (or a :class:`~pyramid_solitaire.fair.Hindsight`, ``seed`` 0),
          ``fair_action`` (int16): the hindsight policy's action, from what each game has
          seen (it never looks at the stock, unlike the others; -1 for a game over).

        Budgets are per position (``max_seconds`` default 1)."""
        self._check_started("labels()")
        from .solver import _budgets

        idx = np.arange(self.n, dtype=np.int64) if games is None else self._games(games)
        b = _budgets(max_nodes, max_seconds, max_memory)
        m = idx.size
        out: dict[str, np.ndarray] = {
            "winnable": np.full(m, -1, np.int8),
            "n_moves": np.full(m, -1, np.int16),
            "action": np.full(m, -1, np.int16),
            "removable": np.full(m, -1, np.int8),
            "stop": np.zeros(m, np.int8),
        }
        shortest = _args.flag("shortest", shortest)
        max_removed = _args.flag("max_removed", max_removed)
        n_threads = _args.threads(threads)
        budget = (b["max_nodes"] or 0, b["max_seconds"] or 0.0, b["max_memory"] or 0)

        def work(lo: int, hi: int, flag: np.ndarray) -> None:
            self._core.labels(
                idx,
                lo,
                hi,
                shortest,
                max_removed,
                *budget,
                out["winnable"],
                out["n_moves"],
                out["action"],
                out["removable"],
                out["stop"],
                flag,
            )

        optimal = _args.flag("optimal", optimal)
        jobs = [work]
        if optimal:
            out["optimal"] = np.zeros((m, N_ACTIONS), np.bool_)

            def work_optimal(lo: int, hi: int, flag: np.ndarray) -> None:
                work(lo, hi, flag)
                self._core.optimal_masks(
                    idx,
                    lo,
                    hi,
                    shortest,
                    max_removed,
                    *budget,
                    out["winnable"],
                    out["n_moves"],
                    out["removable"],
                    out["optimal"].view(np.uint8),
                    out["stop"],
                    flag,
                )

            jobs = [work_optimal]
        if fair is not None and fair is not False:
            params = _fair_params(fair)
            out["fair_action"] = np.full(m, -1, np.int16)

            def work_fair(lo: int, hi: int, flag: np.ndarray) -> None:
                self._core.fair_actions(idx, lo, hi, params, out["fair_action"], flag)

            jobs.append(work_fair)
        bar = make_progress(progress, m * len(jobs), "positions")
        try:
            if m:
                for job in jobs:
                    run_chunks(
                        job,
                        m,
                        n_threads,
                        max(1, min(64, m // (4 * n_threads) or 1)),
                        bar,
                        cancel,
                        "the labels",
                    )
        finally:
            bar.close()
        return out

    def fair_actions(
        self,
        policy: Any = True,
        games: Any = None,
        *,
        threads: int | None = None,
        progress: ProgressArg = False,
        cancel: CancelEvent | None = None,
    ) -> np.ndarray:
        """The hindsight policy's action in each game (all games, or the given indices or
        mask; int16, -1 for a game over), from what each game has seen: it never looks at
        the stock (docs/fair.md). ``policy``: True (``Hindsight()``) or a
        :class:`~pyramid_solitaire.fair.Hindsight`. Computed in the core over threads; the
        same whatever the threads. ``labels(fair=...)`` gives it beside the solver's."""
        self._check_started("fair_actions()")
        return self.fair_counts(policy, games, threads=threads, progress=progress, cancel=cancel)[
            "action"
        ]

    def fair_counts(
        self,
        policy: Any = True,
        games: Any = None,
        *,
        threads: int | None = None,
        progress: ProgressArg = False,
        cancel: CancelEvent | None = None,
    ) -> dict[str, np.ndarray]:
        """:meth:`fair_actions` with the reasons: ``action`` (int16), ``wins`` (int16, m x
        102: the completions each legal action won) and ``used`` (int16: the completions
        used; 0 where no sampling was needed: one legal move, a King, nothing hidden). A
        move that could no longer reach the best count was not decided again: its count
        stops there."""
        self._check_started("fair_counts()")
        params = _fair_params(policy)
        idx = np.arange(self.n, dtype=np.int64) if games is None else self._games(games)
        out = {
            "action": np.full(idx.size, -1, np.int16),
            "wins": np.zeros((idx.size, N_ACTIONS), np.int16),
            "used": np.zeros(idx.size, np.int16),
        }
        n_threads = _args.threads(threads)
        bar = make_progress(progress, idx.size, "positions")

        def work(lo: int, hi: int, flag: np.ndarray) -> None:
            self._core.fair_actions(
                idx, lo, hi, params, out["action"], flag, out["wins"], out["used"]
            )

        try:
            if idx.size:
                chunk = max(1, min(64, idx.size // (4 * n_threads) or 1))
                run_chunks(work, idx.size, n_threads, chunk, bar, cancel, "the fair actions")
        finally:
            bar.close()
        return out

    def memory(self) -> int:
        """Bytes this batch holds: its games' native state and its buffers."""
        bufs = (
            self.obs,
            self.mask,
            self.reward,
            self.terminated,
            self.truncated,
            self.illegal,
            self.reset_games,
            self.final_obs,
            self.final_mask,
            self.final_moves,
            self.final_deal_numbers,
            self._final_numbered,
            self._actions,
            self._moves,
            self._keys,
            self._numbered,
            self._codes,
            self._stale,
        )
        return BYTES_PER_GAME * self.n + sum(a.nbytes for a in bufs)

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        return (
            f"<GameBatch {_args.count_of(self.n, 'game')}, {self.rules.name} rules, "
            f"{self.observation} "
            f"observation, reward {self.reward_name}, seed {self.seed}>"
        )
