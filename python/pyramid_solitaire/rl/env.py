"""Gymnasium environments on the native batch (the ``rl`` extra: ``gymnasium``); docs/env.md.

Importing this module registers ``pyramid_solitaire/Pyramid-v0``:

>>> import gymnasium
>>> import pyramid_solitaire.env
>>> env = gymnasium.make("pyramid_solitaire/Pyramid-v0", rules="msc")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape, sorted(info)
((109,), (102,), ['action_mask', 'illegal', 'moves'])
>>> env.unwrapped.deal_code        # for replays and logs: reading it looks at the stock
'PY1-M-EMKYFWV'
>>> envs = gymnasium.make_vec("pyramid_solitaire/Pyramid-v0", num_envs=64, rules="msc")
>>> type(envs).__name__, envs.num_envs
('PyramidVectorEnv', 64)

``PyramidEnv`` is one game; ``PyramidVectorEnv`` steps ``num_envs`` games at once in the
core (a :class:`~pyramid_solitaire.batch.GameBatch`), not a loop over single environments.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

try:
    import gymnasium as gym
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError:  # pragma: no cover - the message names the extra
    raise ImportError(
        "pyramid_solitaire.env needs gymnasium (the rl extra): "
        "python -m pip install 'pyramid-solitaire[rl]'",
        name="gymnasium",
    ) from None

from ..analysis.batch import (
    DEFAULT_MAX_STEPS,
    N_ACTIONS,
    OBS_LAYOUT,
    OBS_SIZE,
    UNKNOWN_CARD,
    GameBatch,
)
from ..model.game import Game
from ..model.rules import Rules
from ..runtime import args as _args

__all__ = ["ENV_ID", "PyramidEnv", "PyramidVectorEnv", "observation_space"]

from .registration import ENV_ID, register

_HIGH = {
    "pyramid_cards": 52,
    "talon_cards": UNKNOWN_CARD,
    "pyramid_state": 2,
    "talon_state": 4,
    "stock_count": 24,
    "waste_count": 24,
    "recycles_used": 63,
    "recycles_left": 63,
    "pass_removed": 1,
}


def observation_space(dict_observation: bool = False) -> spaces.Space[Any]:
    """One game's observation space: a Box of OBS_SIZE int8 (docs/env.md's layout), or with
    ``dict_observation`` a Dict of it and the action mask (MultiBinary)."""
    low = np.zeros(OBS_SIZE, np.int8)
    high = np.zeros(OBS_SIZE, np.int8)
    for name, (a, b) in OBS_LAYOUT.items():
        high[a:b] = _HIGH[name]
    low[OBS_LAYOUT["recycles_left"][0]] = -1
    low[OBS_LAYOUT["pyramid_cards"][0] : OBS_LAYOUT["talon_cards"][1]] = 1  # cards: 1..52 (53)
    box = spaces.Box(low, high, (OBS_SIZE,), np.int8)
    if dict_observation:
        return spaces.Dict({"observation": box, "action_mask": spaces.MultiBinary(N_ACTIONS)})
    return box


def _batch_args(
    rules: Any,
    observation: str,
    reward: Any,
    illegal: str,
    penalty: float,
    max_episode_steps: int | None,
    deals: Any,
) -> dict[str, Any]:
    return dict(
        rules=rules,
        observation=observation,
        reward=reward,
        illegal=illegal,
        penalty=penalty,
        max_steps=max_episode_steps,
        deals=deals,
    )


class PyramidEnv(gym.Env):
    """One game of Pyramid Solitaire (``gymnasium.make(ENV_ID, rules=...)``).

    Arguments as :class:`~pyramid_solitaire.batch.GameBatch`'s: ``rules``,
    ``observation`` (``"visible"`` or ``"full"``), ``reward``, ``illegal`` (``"ignore"``,
    the default here, since Gymnasium lets an agent send any action of the action space;
    ``"raise"`` or ``"penalty"``), ``penalty``, ``max_episode_steps`` (default 2,000),
    ``deals`` (play these instead of the seeded stream); ``dict_observation`` gives
    ``{"observation", "action_mask"}``. ``reset(options={"deal": ...})`` plays one deal
    (a number, code or card list). The info holds ``action_mask``, ``moves`` and
    ``illegal``, and under ``observation="full"`` also the deal's ``code`` (None for a card
    list) and ``deal`` (its number): under ``"visible"`` nothing handed to the agent names
    the deal (a code gives the whole stock away); the deal is the env's ``deal_code`` and
    ``deal_number``, for replays and logs. ``action_masks()`` is the mask (sb3-contrib's
    MaskablePPO)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        rules: Rules | str | dict[str, Any] | None = None,
        *,
        observation: str = "visible",
        reward: Any = "removed",
        illegal: str = "ignore",
        penalty: float = 1.0,
        max_episode_steps: int | None = None,
        dict_observation: bool = False,
        deals: Any = None,
        render_mode: str | None = None,
    ) -> None:
        self._args = _batch_args(
            rules, observation, reward, illegal, penalty, max_episode_steps, deals
        )
        self._batch = GameBatch(1, seed=0, **self._args)  # checks every argument
        self.rules = self._batch.rules
        self.dict_observation = _args.flag("dict_observation", dict_observation)
        self.observation_space = observation_space(self.dict_observation)
        self.action_space = spaces.Discrete(N_ACTIONS)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None or 'ansi', got {_args.excerpt(render_mode)}"
            )
        self.render_mode = render_mode
        self._seeded = False

    def _obs(self) -> Any:
        obs = self._batch.obs[0].copy()
        if self.dict_observation:
            return {"observation": obs, "action_mask": self._batch.mask[0].astype(np.int8)}
        return obs

    def _info(self) -> dict[str, Any]:
        b = self._batch
        info: dict[str, Any] = {
            "action_mask": b.mask[0].copy(),
            "moves": int(b.moves[0]),
            "illegal": bool(b.illegal[0]),
        }
        if b.observation == "full":  # the agent sees the stock anyway
            info.update(code=self._code, deal=self._deal)
        return info

    @property
    def deal_code(self) -> str | None:
        """The episode's deal code (None for a card list): for replays and logs, never for
        the agent under ``observation="visible"`` (it names every face-down card)."""
        return self._code

    @property
    def deal_number(self) -> int:
        """The episode's deal number (for a card list, its row in ``deals``); see
        :attr:`deal_code`."""
        return self._deal

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        options = _options(options, ("deal",))
        if seed is not None:  # a ValueError like every other bad number (not gymnasium's Error)
            seed = _args.whole("seed", seed, 0, (1 << 64) - 1)
        super().reset(seed=seed)
        if seed is not None or not self._seeded:
            stream = seed if seed is not None else int(self.np_random.integers(0, 2**63))
            self._batch.close()
            self._batch = GameBatch(
                1, seed=_args.whole("seed", stream, 0, (1 << 64) - 1), **self._args
            )
            self._seeded = True
        deal = options.get("deal")
        if deal is not None:
            self._batch.reset(deals=[deal])
        else:
            self._batch.reset()
        self._code, self._deal = self._batch.code(0), int(self._batch.deal_numbers[0])
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        a = np.asarray(action)
        if a.shape not in ((), (1,)):
            raise ValueError(f"an action is one integer 0..{N_ACTIONS - 1}, got shape {a.shape}")
        _, _, reward, term, trunc = self._batch.step(a.reshape(1))
        return self._obs(), float(reward[0]), bool(term[0]), bool(trunc[0]), self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions (bool, 102): for sb3-contrib's MaskablePPO."""
        self._batch._check_started("action_masks()")
        return cast(np.ndarray, self._batch.mask[0].copy())

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``); under ``observation="visible"`` only
        what a player sees: no deal code, no stock card not yet seen."""
        if self.render_mode == "ansi":
            from ..model.render import table_text

            self._batch._check_started("render()")
            return table_text(self._batch.game(0), self._batch.observation == "visible")
        return None

    @property
    def game(self) -> Game:
        """The current game as a :class:`~pyramid_solitaire.Game` (no undo history; it knows
        the whole deal: for analysis, not for the agent)."""
        return self._batch.game(0)

    def close(self) -> None:
        self._batch.close()


class PyramidVectorEnv(VectorEnv):
    """``num_envs`` games stepped at once in the core (``gymnasium.make_vec(ENV_ID,
    num_envs=..., ...)``).

    Arguments as :class:`PyramidEnv`'s, and ``autoreset_mode`` (an ``AutoresetMode`` or its
    value: ``"NextStep"``, the default, ``"SameStep"`` or ``"Disabled"``), ``threads`` and
    ``copy`` (True, the default, as Gymnasium's vector envs: fresh arrays from every call;
    False: the batch's buffers, overwritten by the next call, for speed). The info holds
    ``action_mask`` (num_envs, 102), ``moves`` and ``illegal``, and under
    ``observation="full"`` also ``deal`` (the deal numbers) and ``code`` (the deal codes, ""
    for a card list), each with its ``_key`` mask (under ``"visible"``, the deals are the
    env's ``deal_numbers`` and ``deal_codes``, for replays and logs); under
    ``SameStep``, ``final_obs`` (an object array: the last observation of each game that
    ended, None for the others) and ``final_info`` (their last ``action_mask``), with
    ``_final_obs`` and ``_final_info``. ``reset(seed=s)`` starts the stream of seed s (game i
    plays the deals of (s, i, k)); ``reset(options={"reset_mask": m})`` deals anew the games
    where m is True (the way to go on under ``Disabled``)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        rules: Rules | str | dict[str, Any] | None = None,
        *,
        observation: str = "visible",
        reward: Any = "removed",
        illegal: str = "ignore",
        penalty: float = 1.0,
        max_episode_steps: int | None = None,
        dict_observation: bool = False,
        deals: Any = None,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
        threads: int | None = None,
        copy: bool = True,
        render_mode: str | None = None,
    ) -> None:
        self.num_envs = _args.whole("num_envs", num_envs, 1, 1 << 28)
        if render_mode is not None:
            raise ValueError("PyramidVectorEnv does not render; use .game(i)")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ValueError(
                "autoreset_mode must be an AutoresetMode or one of 'NextStep', "
                "'SameStep', 'Disabled'; got "
                f"{_args.excerpt(autoreset_mode)}"
            ) from None
        self.autoreset_mode = mode
        self.metadata = dict(self.metadata, autoreset_mode=mode)
        self._mode = {
            AutoresetMode.NEXT_STEP: "next_step",
            AutoresetMode.SAME_STEP: "same_step",
            AutoresetMode.DISABLED: None,
        }[mode]
        self.copy = _args.flag("copy", copy)
        self._args = dict(
            _batch_args(rules, observation, reward, illegal, penalty, max_episode_steps, deals),
            threads=threads,
            copy=self.copy,
            autoreset=self._mode,
        )
        self._batch = GameBatch(self.num_envs, seed=0, **self._args)
        self.rules = self._batch.rules
        self.dict_observation = _args.flag("dict_observation", dict_observation)
        self.single_observation_space = observation_space(self.dict_observation)
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None
        self._all = np.ones(self.num_envs, np.bool_)
        self._seeded = False

    @property
    def batch(self) -> GameBatch:
        """The native batch (its deals, games, solver labels)."""
        return self._batch

    @property
    def deal_codes(self) -> np.ndarray:
        """Each game's deal code ("" for a card list): for replays and logs, never for the
        agent under ``observation="visible"`` (a code names every face-down card)."""
        return cast(np.ndarray, self._batch.deal_codes.copy())

    @property
    def deal_numbers(self) -> np.ndarray:
        """Each game's deal number (for a card list, its row in ``deals``); see
        :attr:`deal_codes`."""
        return cast(np.ndarray, self._batch.deal_numbers.copy())

    def _obs(self, obs: np.ndarray, mask: np.ndarray) -> Any:
        if self.dict_observation:
            return {"observation": obs, "action_mask": mask.view(np.int8)}
        return obs

    def _info(self, mask: np.ndarray, rows: np.ndarray | None = None) -> dict[str, Any]:
        """The info of the last reset or step; ``rows``: the games it filled (a reset of
        some games, ``reset_mask``: only theirs are marked filled), None for all."""
        b = self._batch
        filled = self._all if rows is None else rows.copy()

        def keep(a: np.ndarray) -> np.ndarray:
            return a.copy() if self.copy else a

        info: dict[str, Any] = {
            "action_mask": mask,
            "_action_mask": filled,
            "moves": keep(b.moves),
            "_moves": filled,
            "illegal": keep(b.illegal),
            "_illegal": filled,
        }
        if self._mode != "same_step":  # the games whose mask is empty: they ended
            info.update(waiting=b.waiting, _waiting=filled)
        if b.observation == "full":  # the agent sees the stock anyway
            info.update(
                deal=keep(b.deal_numbers),
                _deal=filled,
                code=keep(b.deal_codes),
                _code=filled,
            )
        if self._mode == "same_step" and b.reset_games.any():
            # As Gymnasium's vector envs give them: an object array of the last observations
            # (None for the games that did not end) and the last infos (the action mask).
            ended = b.reset_games.copy()
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                obs = b.final_obs[i].copy()
                final[i] = (
                    {"observation": obs, "action_mask": b.final_mask[i].astype(np.int8)}
                    if self.dict_observation
                    else obs
                )
            # the ended episodes' own facts, as they were when they ended (the current
            # moves, deal and code are the new games')
            last: dict[str, Any] = {
                "action_mask": b.final_mask.copy(),
                "_action_mask": ended,
                "moves": np.where(ended, b.final_moves, 0),
                "_moves": ended,
                "illegal": b.illegal & ended,
                "_illegal": ended,
            }
            if b.observation == "full":
                last.update(
                    deal=np.where(ended, b.final_deal_numbers, 0),
                    _deal=ended,
                    code=b.final_codes(),
                    _code=ended,
                )
            info.update(final_obs=final, _final_obs=ended, final_info=last, _final_info=ended)
        return info

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        options = _options(options, ("reset_mask",))
        seeds: Any = seed
        if isinstance(seed, (list, tuple, np.ndarray)):  # one per game, as Gymnasium's
            fresh = np.random.SeedSequence().generate_state(len(seed), np.uint64)
            seeds = [int(f) if s is None else s for s, f in zip(seed, fresh)]
            if len(seeds) != self.num_envs:
                raise ValueError(
                    f"seed as a list holds one seed per game: {self.num_envs}, got {len(seeds)}"
                )
        elif seed is not None:
            seeds = _args.whole("seed", seed, 0, (1 << 64) - 1)
        if seeds is not None or not self._seeded:
            if seeds is None:
                seeds = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
            self._batch.close()
            self._batch = GameBatch(self.num_envs, seed=seeds, **self._args)
            self._seeded = True
        games = None
        if "reset_mask" in options:
            rm = np.asarray(options["reset_mask"])
            if rm.dtype != np.bool_ or rm.shape != (self.num_envs,):
                raise ValueError(
                    f"options['reset_mask'] must be a bool array of shape ({self.num_envs},)"
                )
            games = rm
        obs, mask = self._batch.reset(games)
        return self._obs(obs, mask), self._info(mask, games)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, mask, reward, term, trunc = self._batch.step(actions)
        # float64 rewards, as Gymnasium's own vector envs give them (the batch's are float32)
        return self._obs(obs, mask), reward.astype(np.float64), term, trunc, self._info(mask)

    def action_masks(self) -> np.ndarray:
        """The legal actions (num_envs, 102)."""
        self._batch._check_started("action_masks()")
        return cast(np.ndarray, self._batch.mask.copy())

    def game(self, i: int) -> Game:
        """Game i as a :class:`~pyramid_solitaire.Game` (no undo history)."""
        return self._batch.game(i)

    def close_extras(self, **kwargs: Any) -> None:
        self._batch.close()


def _options(options: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
    """reset()'s options: None or a dict of the keys ``allowed`` (ValueError otherwise)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(
            f"options must be a dict (keys: {', '.join(allowed)}) or None, got "
            f"{_args.excerpt(options)}"
        )
    unknown = [k for k in options if k not in allowed]
    if unknown:
        raise ValueError(
            f"unknown reset option(s) {', '.join(map(repr, unknown))}: expected "
            f"{', '.join(allowed)}"
        )
    return options


register(gym)
DEFAULT_MAX_EPISODE_STEPS = DEFAULT_MAX_STEPS
