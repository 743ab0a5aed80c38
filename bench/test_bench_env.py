"""The batched environment's speed (docs/env.md, "Speed"): steps and games per second at
N = 1, 64, 1,024, 4,096 and 65,536 games, on one and two threads, for

- (a) random legal actions chosen in the core: ``GameBatch.step_random()`` once per step
  (observations and masks written at every step), and ``GameBatch.rollout()`` (the whole
  run in one call);
- (b) a numpy policy in Python: the masked argmax of a linear score of the observation,
  ``GameBatch.step(actions)`` per step;
- (c) the baseline, Gymnasium's ``SyncVectorEnv`` over the single ``PyramidEnv``, against
  ``PyramidVectorEnv`` (``copy=False``) with the same policy (the mask's lowest legal
  action).

    python -m pytest bench/test_bench_env.py --benchmark-enable

No assertion is on speed; the rates land in the summary and in ``extra_info``.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from pyramid_solitaire.batch import N_ACTIONS, OBS_SIZE, GameBatch

SIZES = [1, 64, 1024, 4096, 65536]
STEPS_PER_ROUND = 1_000_000  # moves timed per round (at least 3 steps of the batch)


def _steps(n: int, total: int = STEPS_PER_ROUND) -> int:
    return max(3, total // n)


def _episodes(b: GameBatch) -> int:
    return int(b.episodes.sum())


def _record(
    benchmark,
    record_rate,
    b: GameBatch,
    n: int,
    steps: int,
    rounds: int,
    episodes0: int,
    seconds: float,
    **info,
) -> None:
    games = (_episodes(b) - episodes0) / seconds if seconds else 0.0
    benchmark.extra_info["games_per_s"] = games
    record_rate(n * steps, "steps", games_per_s=games, n=n, **info)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n", SIZES)
def test_random_in_core_step(benchmark, record_rate, n, threads):
    b = GameBatch(n, "msc", seed=1, autoreset="next_step", threads=threads)
    b.reset()
    steps = _steps(n)

    def run():
        for _ in range(steps):
            b.step_random()

    e0, t0 = _episodes(b), time.perf_counter()
    benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)
    _record(
        benchmark,
        record_rate,
        b,
        n,
        steps,
        3,
        e0,
        time.perf_counter() - t0,
        threads=threads,
        mode="a: step_random",
    )


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n", SIZES[1:])
def test_random_in_core_rollout(benchmark, record_rate, n, threads):
    b = GameBatch(n, "msc", seed=1, autoreset="next_step", threads=threads)
    b.reset()
    steps = _steps(n, 2 * STEPS_PER_ROUND)
    e0, t0 = _episodes(b), time.perf_counter()
    benchmark.pedantic(b.rollout, args=(steps,), rounds=3, iterations=1, warmup_rounds=1)
    _record(
        benchmark,
        record_rate,
        b,
        n,
        steps,
        3,
        e0,
        time.perf_counter() - t0,
        threads=threads,
        mode="a: rollout",
    )


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n", SIZES)
def test_numpy_policy(benchmark, record_rate, n, threads):
    """A linear score of the observation, masked, argmax: the policy runs in numpy."""
    rng = np.random.default_rng(0)
    w = rng.standard_normal((OBS_SIZE, N_ACTIONS)).astype(np.float32)
    b = GameBatch(n, "msc", seed=1, autoreset="next_step", threads=threads)
    obs, mask = b.reset()
    feats = np.empty((n, OBS_SIZE), np.float32)
    score = np.empty((n, N_ACTIONS), np.float32)
    steps = _steps(n, STEPS_PER_ROUND // 4)

    def run():
        o, m = b.obs, b.mask
        for _ in range(steps):
            np.copyto(feats, o)
            np.matmul(feats, w, out=score)
            score[~m] = -np.inf
            o, m, *_ = b.step(score.argmax(axis=1))

    e0, t0 = _episodes(b), time.perf_counter()
    benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)
    _record(
        benchmark,
        record_rate,
        b,
        n,
        steps,
        3,
        e0,
        time.perf_counter() - t0,
        threads=threads,
        mode="b: numpy policy",
    )


def _time_lowest_action(benchmark, envs, steps: int) -> None:
    """Time `steps` steps of a vector env, each game playing its lowest legal action."""
    _, info = envs.reset(seed=1)
    state = {"info": info}

    def run():
        info = state["info"]
        for _ in range(steps):
            _, _, _, _, info = envs.step(info["action_mask"].argmax(axis=1))
        state["info"] = info

    benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)


@pytest.mark.parametrize("n", SIZES[:4])
def test_baseline_sync_vector_env(benchmark, record_rate, n):
    gym = pytest.importorskip("gymnasium")
    from pyramid_solitaire.env import PyramidEnv

    envs = gym.vector.SyncVectorEnv([lambda: PyramidEnv("msc") for _ in range(n)])
    steps = max(3, 20_000 // n)
    _time_lowest_action(benchmark, envs, steps)
    record_rate(n * steps, "steps", n=n, threads=1, mode="c: SyncVectorEnv baseline")
    envs.close()


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n", SIZES)
def test_native_vector_env(benchmark, record_rate, n, threads):
    pytest.importorskip("gymnasium")
    from pyramid_solitaire.env import PyramidVectorEnv

    envs = PyramidVectorEnv(n, "msc", threads=threads, copy=False)
    steps = _steps(n, STEPS_PER_ROUND // 2)
    _time_lowest_action(benchmark, envs, steps)
    record_rate(n * steps, "steps", n=n, threads=threads, mode="c: PyramidVectorEnv")
    envs.close()
