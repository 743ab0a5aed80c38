"""The Gymnasium environments (pyramid_solitaire.env, the rl extra)."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from pyramid_solitaire import Rules  # noqa: E402
from pyramid_solitaire.batch import OBS_SIZE, action_id  # noqa: E402
from pyramid_solitaire.env import ENV_ID, PyramidEnv, PyramidVectorEnv  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(rules="msc"),
        dict(rules="classic-draw3", observation="full"),
        dict(rules="pyramide", dict_observation=True),
        dict(rules="msc", illegal="penalty"),
        dict(rules="three-pass", reward="three-pass"),
    ],
)
def test_check_env(kwargs):
    env = PyramidEnv(**kwargs)
    check_env(env, skip_render_check=True)
    env.close()


def test_make_and_make_vec_through_the_registry():
    env = gym.make(ENV_ID, rules="msc")
    obs, info = env.reset(seed=3)
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.int8
    assert env.unwrapped.deal_code.startswith("PY1-M-") and info["action_mask"].dtype == np.bool_
    envs = gym.make_vec(ENV_ID, num_envs=16, rules="msc")
    assert isinstance(envs.unwrapped, PyramidVectorEnv) and envs.num_envs == 16
    obs, info = envs.reset(seed=3)
    assert obs.shape == (16, OBS_SIZE) and info["action_mask"].shape == (16, 102)
    envs.close()
    env.close()


def test_vector_game_i_is_the_single_env_of_the_same_seed_for_game_0():
    single = PyramidEnv("msc", observation="full")
    vec = PyramidVectorEnv(4, "msc", observation="full")
    o1, i1 = single.reset(seed=42)
    o4, i4 = vec.reset(seed=42)
    np.testing.assert_array_equal(o1, o4[0])
    for _ in range(30):
        a = int(np.flatnonzero(i1["action_mask"])[0])
        acts = i4["action_mask"].argmax(axis=1)
        acts[0] = a
        o1, r1, t1, u1, i1 = single.step(a)
        o4, r4, t4, u4, i4 = vec.step(acts)
        np.testing.assert_array_equal(o1, o4[0])
        assert (r1, t1, u1) == (r4[0], t4[0], u4[0])
        if t1 or u1:
            break


def test_seeding_is_deterministic():
    env = PyramidEnv("msc")

    def episode(seed):
        obs, info = env.reset(seed=seed)
        trace = [obs.copy()]
        rng = np.random.default_rng(0)
        for _ in range(40):
            a = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, r, term, trunc, info = env.step(a)
            trace.append(obs.copy())
            if term or trunc:
                break
        return np.array(trace)

    np.testing.assert_array_equal(episode(5), episode(5))
    assert not np.array_equal(episode(5)[0], episode(6)[0])


def test_mask_three_ways():
    env = PyramidEnv("msc", dict_observation=True)
    obs, info = env.reset(seed=1)
    assert set(obs) == {"observation", "action_mask"}
    np.testing.assert_array_equal(obs["action_mask"].astype(bool), info["action_mask"])
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"])
    legal = {action_id(m) for m in env.game.legal_moves}
    assert set(np.flatnonzero(env.action_masks())) == legal
    vec = PyramidVectorEnv(8, "msc", dict_observation=True)
    obs, info = vec.reset(seed=1)
    np.testing.assert_array_equal(obs["action_mask"].astype(bool), vec.action_masks())
    assert vec.observation_space.contains(obs)


def _play_until_an_end(vec, info):
    for _ in range(3000):
        acts = info["action_mask"].argmax(axis=1)
        obs, rew, term, trunc, info = vec.step(acts)
        if (term | trunc).any():
            return obs, rew, term, trunc, info
    raise AssertionError("no game ended")


def test_autoreset_next_step():
    vec = PyramidVectorEnv(8, "classic")
    assert vec.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, info = vec.reset(seed=2)
    obs, rew, term, trunc, info = _play_until_an_end(vec, info)
    i = int(np.flatnonzero(term | trunc)[0])
    deal = vec.deal_numbers[i]
    obs, rew, term, trunc, info = vec.step(info["action_mask"].argmax(axis=1))
    assert rew[i] == 0 and not term[i] and not trunc[i] and vec.deal_numbers[i] != deal
    assert info["moves"][i] == 0


def test_autoreset_same_step():
    vec = PyramidVectorEnv(8, "classic", autoreset_mode="SameStep")
    assert vec.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = vec.reset(seed=2)
    obs, rew, term, trunc, info = _play_until_an_end(vec, info)
    ended = term | trunc
    np.testing.assert_array_equal(info["_final_obs"], ended)
    i = int(np.flatnonzero(ended)[0])
    assert info["moves"][i] == 0  # already dealt anew
    final = info["final_obs"][i]
    assert (final[52:80] > 0).sum() < 28 or not (obs[i] == final).all()
    assert vec.single_observation_space.contains(final)
    assert info["final_obs"].dtype == object
    assert all(info["final_obs"][j] is None for j in np.flatnonzero(~ended))
    np.testing.assert_array_equal(info["_final_info"], ended)
    assert info["final_info"]["action_mask"].shape == (8, 102)
    obs, info = vec.reset()
    assert "final_obs" not in info  # nothing ended in a reset


def test_autoreset_disabled_with_reset_mask():
    vec = PyramidVectorEnv(8, "classic", autoreset_mode=AutoresetMode.DISABLED)
    obs, info = vec.reset(seed=2)
    obs, rew, term, trunc, info = _play_until_an_end(vec, info)
    ended = term | trunc
    moves = info["moves"].copy()
    obs, rew, term, trunc, info = vec.step(info["action_mask"].argmax(axis=1))
    assert (term | trunc)[ended].all() and (rew[ended] == 0).all()
    assert (info["moves"][ended] == moves[ended]).all()
    obs, info = vec.reset(options={"reset_mask": ended})
    assert (info["moves"][ended] == 0).all() and (info["moves"][~ended] > 0).all()
    with pytest.raises(ValueError, match="reset_mask"):
        vec.reset(options={"reset_mask": np.ones(3, np.bool_)})


def test_illegal_modes_and_truncation():
    env = PyramidEnv("msc")  # gymnasium's default here: ignore
    obs, info = env.reset(seed=4)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    obs2, r, term, trunc, info = env.step(bad)
    assert info["illegal"] and r == 0 and not term and np.array_equal(obs, obs2)
    raising = PyramidEnv("msc", illegal="raise")
    raising.reset(seed=4)
    with pytest.raises(ValueError, match="not legal"):
        raising.step(bad)
    short = PyramidEnv("unlimited", max_episode_steps=5)
    obs, info = short.reset(seed=1)
    for _ in range(5):
        obs, r, term, trunc, info = short.step(int(np.flatnonzero(info["action_mask"])[-1]))
    assert trunc or term


def test_vector_bad_input():
    vec = PyramidVectorEnv(4, "msc")
    vec.reset(seed=1)
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        vec.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="whole numbers"):
        vec.step(np.array([0.0, np.nan, 0.0, 0.0]))
    with pytest.raises(ValueError, match="one seed per game"):
        vec.reset(seed=[1, 2, 3])  # (four seeds, one per game, are taken)
    with pytest.raises(ValueError, match="autoreset_mode"):
        PyramidVectorEnv(2, autoreset_mode="sometimes")


def test_reset_with_a_given_deal_and_render():
    env = PyramidEnv("msc", render_mode="ansi", observation="full")
    obs, info = env.reset(seed=0, options={"deal": "PY1-M-AAAAAAS"})
    assert info["code"] == "PY1-M-AAAAAAS" and info["deal"] == 18
    assert "PY1-M-AAAAAAS" in env.render() and "(next: Tc)" in env.render()
    assert env.rules == Rules.preset("msc")


def test_the_visible_mode_names_no_deal_and_renders_no_unseen_card():
    """Nothing handed to the agent gives the stock away: no code or number in the info, a
    picture without the code or a card not yet seen; the env keeps the deal for replays."""
    env = PyramidEnv("msc", render_mode="ansi")
    obs, info = env.reset(seed=0, options={"deal": "PY1-M-AAAAAAS"})
    assert set(info) == {"action_mask", "moves", "illegal"}
    assert env.deal_code == "PY1-M-AAAAAAS" and env.deal_number == 18
    text = env.render()
    assert "PY1-M" not in text and "Stock top (playable): Tc" in text  # msc: face up
    unseen = set(env.game.unseen)
    assert unseen and not any(str(c) in text.split("Stock:")[1] for c in unseen)
    env.step(int(np.flatnonzero(info["action_mask"])[-1]))  # draw: Tc to the waste
    assert env.game.seen_mask == 0b11  # the batch's own record of what was seen
    vec = PyramidVectorEnv(4, "msc")
    _, info = vec.reset(seed=5)
    assert "code" not in info and "deal" not in info
    assert list(vec.deal_codes) == [vec.batch.deal(i).code for i in range(4)]


def test_vector_info_has_the_deal_codes_when_the_agent_sees_all():
    vec = PyramidVectorEnv(8, "msc", autoreset_mode="SameStep", observation="full")
    _, info = vec.reset(seed=5)
    assert list(info["code"]) == [vec.batch.deal(i).code for i in range(8)]
    _, _, _, _, info = _play_until_an_end(vec, info)
    assert list(info["code"]) == [vec.batch.deal(i).code for i in range(8)]


def test_a_seeded_partial_reset_deals_every_game_and_copies_by_default():
    vec = PyramidVectorEnv(3, "msc")
    obs, info = vec.reset(seed=5, options={"reset_mask": np.array([True, False, False])})
    assert info["action_mask"].any(axis=1).all() and all(vec.deal_codes)
    obs2, *_ = vec.step(info["action_mask"].argmax(axis=1))
    assert not np.shares_memory(obs, obs2)
    fast = PyramidVectorEnv(3, "msc", copy=False)
    o1, info = fast.reset(seed=5)
    o2, *_ = fast.step(info["action_mask"].argmax(axis=1))
    assert o1 is o2


def test_rules_default_to_the_deals():
    env = PyramidEnv(deals=["PY1-M-AAAAAAS"])
    assert env.rules == Rules.preset("msc")
    assert PyramidEnv().rules == Rules.preset("pyramide")
