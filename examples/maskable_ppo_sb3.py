"""MaskablePPO (sb3-contrib, PyTorch) on the Gymnasium environment, msc rules.

Not run in CI (it needs PyTorch); the tests only compile it. Install and run:

    python -m pip install "pyramid-solitaire[rl]" sb3-contrib   # gymnasium, torch, SB3
    python examples/maskable_ppo_sb3.py --timesteps 2000000 --eval-games 10000

``gymnasium.make("pyramid_solitaire/Pyramid-v0", rules="msc")`` (registered by importing
``pyramid_solitaire.env``) is one game with 102 discrete actions; most are illegal at any
moment. MaskablePPO asks the environment for the legal ones through an ``action_masks()``
method, which ``PyramidEnv`` has. ``gymnasium.make`` wraps the env (order enforcing, the
checker), so the mask is read from ``env.unwrapped`` through sb3-contrib's ``ActionMasker``
(the same method, reachable whatever the wrappers). The trained policy is then played
greedily on held-out deals through ``simulate``, next to the built-in greedy policy, so the
win rates come with 95% intervals. For a numpy-only agent see ``reinforce_msc.py``.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.env_util import make_vec_env

import pyramid_solitaire.env  # noqa: F401  (registers pyramid_solitaire/Pyramid-v0)
from pyramid_solitaire import simulate

TEST_START = 10_000_000  # held-out deal numbers, as in reinforce_msc.py


def make_env() -> gymnasium.Env:
    """One msc game; reward: pyramid cards removed by each move. Illegal actions cannot happen
    under the mask, so ``illegal="raise"`` turns a masking bug into an error."""
    env = gymnasium.make(
        "pyramid_solitaire/Pyramid-v0", rules="msc", reward="removed", illegal="raise"
    )
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--timesteps", type=int, default=1_000_000)
    ap.add_argument("--n-envs", type=int, default=8)
    ap.add_argument("--eval-games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    vec_env = make_vec_env(make_env, n_envs=args.n_envs, seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        vec_env,
        n_steps=256,
        batch_size=512,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        learning_rate=3e-4,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=1,
    )
    model.learn(total_timesteps=args.timesteps)

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The trained policy's argmax over the legal actions, for a batch of games."""
        actions, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return np.asarray(actions)

    learned = simulate(
        args.eval_games,
        rules="msc",
        policy=policy,
        start=TEST_START,
        observation="visible",
        deterministic=True,
    )
    greedy = simulate(args.eval_games, rules="msc", policy="greedy", start=TEST_START)
    for name, r in [("MaskablePPO", learned), ("greedy", greedy)]:
        low, high = r.ci95
        print(f"{name:<12} {r.win_rate:.2%}  (95% interval {low:.2%}-{high:.2%})")
    print("perfect play 66.53% (66.44-66.62%), quoted from the README")


if __name__ == "__main__":
    main()
