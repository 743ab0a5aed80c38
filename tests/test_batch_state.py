"""A batch's state (issue 44): get_state/set_state for search, copies and pickles of batches
and environments, and one seed per game as Gymnasium's vector envs take them."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from pyramid_solitaire.analysis.batch import GameBatch


def _trajectory(batch, steps=40, seed=0):
    """What the batch gives over some steps of random legal actions chosen here."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        acts = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in batch.mask], np.int64
        )
        obs, mask, reward, term, trunc = batch.step(acts)
        out.append((obs.copy(), mask.copy(), reward.copy(), term.copy(), trunc.copy()))
    return out


def _same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)


@pytest.mark.parametrize("autoreset", [None, "next_step", "same_step"])
@pytest.mark.parametrize("rules", ["msc", "classic-draw3", "unlimited"])
def test_set_state_comes_back(rules, autoreset):
    """After set_state(get_state()) the batch steps exactly as it did from that point, in
    this batch and in another made with the same arguments."""
    kw = dict(rules=rules, seed=11, autoreset=autoreset, illegal="ignore")
    batch = GameBatch(8, **kw)
    batch.reset()
    _trajectory(batch, 15, seed=1)
    state = batch.get_state()
    want = _trajectory(batch, 60, seed=2)
    batch.set_state(state)
    _same(_trajectory(batch, 60, seed=2), want)
    other = GameBatch(8, **kw)
    other.reset()
    _trajectory(other, 3, seed=9)
    other.set_state(state)
    _same(_trajectory(other, 60, seed=2), want)
    assert other.deal_codes.tolist() == batch.deal_codes.tolist()


def test_step_random_comes_back_too():
    batch = GameBatch(16, "pyramide", seed=4, autoreset="same_step")
    batch.reset()
    state = batch.get_state()
    want = [batch.step_random().reward.copy() for _ in range(200)]
    batch.set_state(state)
    got = [batch.step_random().reward.copy() for _ in range(200)]
    np.testing.assert_array_equal(np.array(got), np.array(want))


def test_a_state_that_does_not_fit_is_refused_and_nothing_changes():
    batch = GameBatch(4, "msc", seed=1)
    batch.reset()
    state = batch.get_state()
    before = batch.get_state()
    bad = [
        ("a list", [1, 2]),
        ("another size", GameBatch(5, "msc", seed=1)),
        ("other rules", GameBatch(4, "pyramide", seed=1)),
    ]
    for _what, source in bad:
        if isinstance(source, GameBatch):
            source.reset()
            source = source.get_state()
        with pytest.raises(ValueError):
            batch.set_state(source)
    for key, value in [
        ("version", 99),
        ("cards", state["cards"][:, :51].copy()),
        ("words", state["words"].astype(np.int64)),
        ("obs", state["obs"][:2].copy()),
    ]:
        with pytest.raises(ValueError):
            batch.set_state({**state, key: value})
    twice = state["cards"].copy()
    twice[0, 1] = twice[0, 0]
    with pytest.raises(ValueError, match="appears 2 times"):
        batch.set_state({**state, "cards": twice})
    for word in (1 << 63, 25 << 52, 9 << 57):  # no position: bit 63, cursor 25, 9 recycles
        words = state["words"].copy()
        words[2, 0] = word
        with pytest.raises(ValueError, match="game 2: its position word"):
            batch.set_state({**state, "words": words})
    after = batch.get_state()
    for key in before:
        np.testing.assert_array_equal(after[key], before[key])


def test_a_batch_never_reset_has_no_state_to_give():
    with pytest.raises(ValueError, match="reset"):
        GameBatch(2).get_state()


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_batches_copy_and_pickle_with_their_state(how):
    deals = [5, "PY1-N-AAAAAAS", 77]
    batch = GameBatch(3, deals=deals, seed=2, reward="win", autoreset="next_step")
    fresh = copy.deepcopy(batch) if how == "deepcopy" else pickle.loads(pickle.dumps(batch))
    assert not fresh._started  # a batch never reset copies as new
    batch.reset()
    _trajectory(batch, 10)
    twin = copy.deepcopy(batch) if how == "deepcopy" else pickle.loads(pickle.dumps(batch))
    np.testing.assert_array_equal(twin.obs, batch.obs)
    _same(_trajectory(twin, 80, seed=5), _trajectory(batch, 80, seed=5))
    assert twin.deal_codes.tolist() == batch.deal_codes.tolist()


def test_one_seed_per_game_plays_as_batches_of_one():
    seeds = [5, 2**64 - 1, 0]
    batch = GameBatch(3, "msc", seed=seeds, autoreset="same_step")
    ones = [GameBatch(1, "msc", seed=s, autoreset="same_step") for s in seeds]
    batch.reset()
    for one in ones:
        one.reset()
    np.testing.assert_array_equal(batch.seeds, np.array(seeds, np.uint64))
    for _ in range(300):  # several episodes each: random actions and new deals agree
        r = batch.step_random().reward.copy()
        for i, one in enumerate(ones):
            assert one.step_random().reward[0] == r[i]
            assert one.deal_numbers[0] == batch.deal_numbers[i]
    with pytest.raises(ValueError, match="one seed per game"):
        GameBatch(3, seed=[1, 2])
    with pytest.raises(ValueError, match=r"seed\[1\]"):
        GameBatch(2, seed=[1, -1])


def test_envs_copy_pickle_and_take_a_seed_per_game():
    gym = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium)")
    from pyramid_solitaire.rl.env import PyramidEnv, PyramidVectorEnv

    env = PyramidEnv("msc")
    env.reset(seed=3)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert twin.deal_code == env.deal_code
        a = int(np.flatnonzero(env.action_masks())[-1])
        assert twin.step(a)[1:4] == copy.deepcopy(env).step(a)[1:4]

    seeds = [7, 8, 9, 10]
    vec = PyramidVectorEnv(4, "msc")
    sync = gym.vector.SyncVectorEnv([lambda: PyramidEnv("msc") for _ in seeds])
    obs_v, _ = vec.reset(seed=seeds)
    obs_s, _ = sync.reset(seed=seeds)
    np.testing.assert_array_equal(obs_v, obs_s)
    for _ in range(30):
        mask = vec.action_masks()
        acts = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in mask])
        out_v, out_s = vec.step(acts), sync.step(acts)
        for k in range(4):
            np.testing.assert_array_equal(out_v[k], out_s[k])
    twin = copy.deepcopy(vec)
    np.testing.assert_array_equal(twin.batch.obs, vec.batch.obs)
    with pytest.raises(ValueError, match="one seed per game"):
        vec.reset(seed=[1, 2])
    vec.reset(seed=[1, None, 3, None])  # None: a fresh seed for that game
