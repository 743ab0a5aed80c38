"""The native batch (pyramid_solitaire.batch) against Game and the pure-Python reference.

Random trajectories under every preset and every rule option: at each position the batch's
mask must be exactly the legal moves of `Game` and of tests/reference.py (as action ids), its
observation what `Game` shows (written here from Game's public views), its reward, terminated
and truncated what the rules say. Then determinism (seeds, threads, splits), the autoreset
modes, illegal actions, bad input, deals and codes, and the solver labels against `solve`.
"""

from __future__ import annotations

import os
import random
import sys

import numpy as np
import pytest

from pyramid_solitaire import Deal, Game, Move, Rules, Status, max_removable, solve
from pyramid_solitaire.batch import (
    ACTIONS,
    BYTES_PER_GAME,
    N_ACTIONS,
    OBS_LAYOUT,
    OBS_SIZE,
    UNKNOWN_CARD,
    GameBatch,
    IllegalActionError,
    action_id,
    action_move,
)
from pyramid_solitaire.session.profiles import Profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # tests/reference.py
import reference as ref  # noqa: E402
from conftest import clearable_deck  # noqa: E402

RULE_SETS = {name: Rules.preset(name) for name in Rules.preset_names()}
RULE_SETS.update(
    {
        "win_all": Rules.preset("pyramide").replace(win="all"),
        "pair_with_covering": Rules.preset("unlimited").replace(pair_with_covering=True),
        "pair_waste_top_two": Rules.preset("msc").replace(pair_waste_top_two=True),
        "stock_top_unlimited": Rules.preset("unlimited").replace(stock_top_playable=True),
        "draw3_waste1": Rules.preset("classic-draw3").replace(waste_at_deal=1),
        "redeals1_win_all": Rules.preset("three-pass").replace(redeals=1, win="all"),
    }
)


# ---- the action table -----------------------------------------------------------------------


def test_action_table():
    assert N_ACTIONS == 102 == len(ACTIONS) == len(set(ACTIONS))
    kings = [m for m in ACTIONS[:4]]
    assert [str(m) for m in kings] == ["Kc", "Kd", "Kh", "Ks"]
    assert ACTIONS[100] == Move.DRAW and ACTIONS[101] == Move.RECYCLE
    for a in range(4, 100):
        m = ACTIONS[a]
        assert m.kind == "pair" and sum(c.rank for c in m.cards) == 13
        low, high = sorted(m.cards, key=lambda c: c.rank)
        # the documented formula: 4 + 16 (r - 1) + 4 s + u
        assert a == 4 + 16 * (low.rank - 1) + 4 * low.suit + high.suit
    for a in range(N_ACTIONS):
        assert action_id(action_move(a)) == a
        assert action_id(str(action_move(a))) == a
    assert action_id("Qh+Ac") == action_id("Ac+Qh") == 6
    with pytest.raises(ValueError):
        action_move(102)
    with pytest.raises(ValueError):
        action_id("Kc+Ad")


def test_memory_per_game():
    assert BYTES_PER_GAME <= 256
    b = GameBatch(1000, seed=1)
    buffers = b.memory() - BYTES_PER_GAME * 1000
    # the buffers: obs, mask, reward, flags, actions, moves, deals, codes; and the final rows
    # (one of each without autoreset="same_step": obs, mask, moves, deal number, numbered)
    final = OBS_SIZE + N_ACTIONS + 2 + 8 + 1
    assert buffers <= 1000 * (OBS_SIZE + N_ACTIONS + 4 + 4 + 8 + 11 + 53) + final


# ---- what Game shows, written from its public views -----------------------------------------


def reference_obs(game: Game, seen: set, visible: bool) -> np.ndarray:
    o = np.zeros(OBS_SIZE, np.int64)
    free = set(game.free_cards)
    avail = set(game.available)
    waste = set(game.waste)
    stock = set(game.stock)
    for i, c in enumerate(game.pyramid):
        o[i] = int(game.deal.pyramid[i]) + 1  # the deal's card, removed or not
        if c is not None:
            o[52 + i] = 2 if c in free else 1
    for t, c in enumerate(game.deal.talon):
        o[28 + t] = UNKNOWN_CARD if visible and c not in seen else int(c) + 1
        if c in waste or c in stock:
            o[80 + t] = (3 if c in waste else 1) + (1 if c in avail else 0)
    o[104] = len(game.stock)
    o[105] = len(game.waste)
    unlimited = game.rules.redeals == "unlimited"
    o[106] = 0 if unlimited else game.recycles_used
    o[107] = -1 if game.recycles_left is None else game.recycles_left
    since = game.moves[::-1]
    cut = next((k for k, m in enumerate(since) if m == Move.RECYCLE), len(since))
    o[108] = any(m.kind in ("king", "pair") for m in since[:cut])
    return o


def ref_actions(state) -> set:
    out = set()
    for m in ref.legal_moves(state):
        if m[0] == "draw":
            out.add(100)
        elif m[0] == "recycle":
            out.add(101)
        elif m[0] == "king":
            out.add(action_id(Move.king(m[1])))
        else:
            out.add(action_id(Move.pair(*sorted(m[1]))))
    return out


def ref_rules(rules: Rules):
    o = rules.core_options()
    return ref.Rules(**o)


def _visible_now(game: Game) -> set:
    return set(game.waste) | set(game.available)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@pytest.mark.parametrize("visible", [True, False])
def test_trajectories_match_game_and_reference(name, visible):
    rules = RULE_SETS[name]
    rng = random.Random(hash((name, visible)) & 0xFFFF)
    decks = [clearable_deck(rng) for _ in range(3)] + [rng.sample(range(52), 52) for _ in range(5)]
    n = len(decks)
    b = GameBatch(
        n,
        rules,
        deals=np.array(decks, np.uint8),
        observation="visible" if visible else "full",
        max_steps=300,
    )
    obs, mask = b.reset()
    games = [Game(Deal.from_cards(d, rules=rules)) for d in decks]
    states = [ref.deal(d, ref_rules(rules)) for d in decks]
    seen = [_visible_now(g) for g in games]
    saw_removal = [False] * n
    done = [False] * n
    wins = 0
    for step in range(300):
        actions = np.zeros(n, np.int64)
        before = []
        for i, g in enumerate(games):
            if done[i]:
                continue
            legal = {action_id(m) for m in g.legal_moves}
            assert set(np.flatnonzero(mask[i])) == legal == ref_actions(states[i])
            saw_removal[i] |= bool(legal - {100, 101})
            np.testing.assert_array_equal(obs[i], reference_obs(g, seen[i], visible))
            # prefer removals so that games get somewhere, but draw and recycle too
            choice = sorted(legal)
            actions[i] = rng.choice(
                choice[:-1] if len(choice) > 1 and rng.random() < 0.7 else choice
            )
            before.append((i, g.pyramid_left))
        obs, mask, reward, term, trunc = b.step(actions)
        for i, left in before:
            g = games[i]
            move = action_move(int(actions[i]))
            g.play(move)
            states[i] = ref.apply(states[i], ref.from_move(move))
            seen[i] |= _visible_now(g)
            if move == Move.RECYCLE:
                saw_removal[i] = False
            legal = {action_id(m) for m in g.legal_moves}
            saw_removal[i] |= bool(legal - {100, 101})
            assert reward[i] == left - g.pyramid_left
            assert term[i] == (g.status is not Status.PLAYING)
            repeat = rules.redeals == "unlimited" and legal == {101} and not saw_removal[i]
            expect_trunc = not term[i] and (repeat or g.moves.__len__() >= 300)
            assert trunc[i] == expect_trunc, (i, step, g.moves)
            if term[i] or trunc[i]:
                done[i] = True
                wins += g.status is Status.WON
        if all(done):
            break
    # the ended games keep reporting how they ended, and ignore their actions
    before_obs = obs.copy()
    obs, mask, reward, term, trunc = b.step(np.full(n, 100))
    assert (reward == 0).all() and np.array_equal(obs, before_obs)
    assert list(term | trunc) == done


def test_visible_hides_exactly_the_unseen_stock():
    b = GameBatch(1, "classic", seed=3, observation="visible")
    obs, _ = b.reset()
    talon = obs[0, 28:52]
    assert (talon == UNKNOWN_CARD).all()  # classic: nothing on the waste at the deal
    full, _ = b.observe("full")
    assert (full[0, 28:52] != UNKNOWN_CARD).all() and (full[0, :28] == obs[0, :28]).all()
    obs, *_ = b.step([100])
    assert obs[0, 28] == full[0, 28] and (obs[0, 29:52] == UNKNOWN_CARD).all()


# ---- rewards, the episode bound -------------------------------------------------------------


@pytest.mark.parametrize("profile", ["three-pass", "pyramide"])
def test_score_reward_is_the_profiles_points(profile):
    prof = Profile.preset(profile)
    scoring = prof.scoring
    decks = [clearable_deck(random.Random(k)) for k in range(4)]
    b = GameBatch(4, prof.rules, deals=np.array(decks, np.uint8), reward=profile)
    b.reset()
    games = [Game(Deal.from_cards(d, rules=prof.rules)) for d in decks]
    totals = np.zeros(4)
    expect = np.zeros(4)
    for _ in range(400):
        acts = np.zeros(4, np.int64)
        for i, g in enumerate(games):
            if not g.is_over:
                moves = g.legal_moves
                acts[i] = action_id(moves[0])  # Kings and pairs first: often a win
        for i, g in enumerate(games):
            if g.is_over:
                continue
            m = action_move(int(acts[i]))
            where = [g.where(c) for c in m.cards]
            g.play(m)
            expect[i] += scoring.removal(
                where.count("pyramid"), len(where) - where.count("pyramid")
            )
            if g.status is Status.WON:
                expect[i] += scoring.bonus(len(g.moves), 0)
        _, _, rew, term, trunc = b.step(acts)
        totals += rew
        if all(g.is_over for g in games):
            break
    assert any(g.is_won for g in games)
    np.testing.assert_array_equal(totals, expect)


def test_win_reward():
    deck = clearable_deck(random.Random(5))
    b = GameBatch(1, "pyramide", deals=np.array([deck], np.uint8), reward="win")
    b.reset()
    g = Game(Deal.from_cards(deck, rules="pyramide"))
    total = 0.0
    from pyramid_solitaire import hint

    while not g.is_over:
        m = hint(g)
        g.play(m)
        _, _, rew, term, _ = b.step([action_id(m)])
        total += float(rew[0])
        assert term[0] == g.is_over
    assert g.is_won and total == 1.0


@pytest.mark.parametrize("name", ["three-pass", "classic", "classic-draw3", "msc"])
def test_limited_redeals_end_within_the_bound(name):
    rules = Rules.preset(name)
    bound = 28 + 24 * (int(rules.redeals) + 1) + int(rules.redeals)
    b = GameBatch(256, rules, seed=9, autoreset=None, max_steps=65535)
    b.reset()
    for _ in range(bound):
        b.step_random()
    assert (b.terminated | b.truncated).all() and not b.truncated.any()
    assert b.moves.max() <= bound


def test_unlimited_ends_by_repeat_or_the_step_limit():
    b = GameBatch(256, "unlimited", seed=2, autoreset=None, max_steps=500)
    b.reset()
    for _ in range(500):
        b.step_random()
    assert (b.terminated | b.truncated).all()
    assert not (b.terminated & b.truncated).any()
    assert b.moves.max() <= 500


# ---- determinism ----------------------------------------------------------------------------


def _run(batch: GameBatch, steps: int) -> tuple:
    batch.reset()
    rew = 0.0
    for _ in range(steps):
        _, _, r, _, _ = batch.step_random()
        rew += r.astype(np.float64)
    return batch.obs.copy(), batch.mask.copy(), rew, batch.deal_numbers, batch.episodes


def test_same_seed_same_games_any_threads_and_split():
    a = _run(GameBatch(64, "msc", seed=11, autoreset="next_step", threads=1), 400)
    b = _run(GameBatch(64, "msc", seed=11, autoreset="next_step", threads=3), 400)
    lo = _run(GameBatch(32, "msc", seed=11, autoreset="next_step", threads=2), 400)
    hi = _run(GameBatch(32, "msc", seed=11, offset=32, autoreset="next_step"), 400)
    for x, y, u, v in zip(a, b, lo, hi):
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(x, np.concatenate([u, v]))
    assert a[4].min() > 1  # games went through several episodes
    c = _run(GameBatch(64, "msc", seed=12, autoreset="next_step"), 400)
    assert not np.array_equal(a[3], c[3])


def test_stream_deals_are_keyed_by_seed_game_and_episode():
    b = GameBatch(8, "msc", seed=5, autoreset="same_step")
    b.reset()
    first = b.deal_numbers.copy()
    again = GameBatch(8, "msc", seed=5)
    again.reset()
    np.testing.assert_array_equal(first, again.deal_numbers)
    again.reset()  # the second episode: other deals
    assert not np.array_equal(first, again.deal_numbers)
    assert len(set(first.tolist())) == 8


# ---- autoreset modes ------------------------------------------------------------------------


def _until_an_end(b: GameBatch) -> int:
    for _ in range(2000):
        _, _, _, term, trunc = b.step_random()
        ended = np.flatnonzero(term | trunc)
        if ended.size:
            return int(ended[0])
    raise AssertionError("no game ended")


def test_autoreset_next_step():
    b = GameBatch(16, "classic", seed=1, autoreset="next_step")
    b.reset()
    i = _until_an_end(b)
    deal = b.deal_numbers[i]
    ep = b.episodes[i]
    _, mask, rew, term, trunc = b.step_random()
    assert b.reset_games[i] and rew[i] == 0 and not term[i] and not trunc[i]
    assert b.episodes[i] == ep + 1 and b.deal_numbers[i] != deal and b.moves[i] == 0
    assert mask[i].any()


def test_autoreset_same_step():
    b = GameBatch(16, "classic", seed=1, autoreset="same_step")
    b.reset()
    i = _until_an_end(b)
    assert b.reset_games[i] and b.moves[i] == 0
    final = b.final_obs[i]
    # the final observation is of the ended game; the current one a fresh deal
    assert (b.obs[i, 52:80] > 0).sum() == 28 and (final[52:80] > 0).sum() <= 28
    g = b.game(i)
    assert g.status is Status.PLAYING and len(g.pyramid) == 28


def test_autoreset_disabled_waits_for_reset():
    b = GameBatch(16, "classic", seed=1, autoreset=None)
    b.reset()
    i = _until_an_end(b)
    ep = b.episodes[i]
    for _ in range(3):
        _, _, rew, term, trunc = b.step_random()
        assert rew[i] == 0 and (term[i] or trunc[i]) and b.episodes[i] == ep
    mask = np.zeros(16, np.bool_)
    mask[i] = True
    b.reset(mask)
    assert b.episodes[i] == ep + 1 and not b.terminated[i] and not b.truncated[i]


# ---- illegal actions and bad input -----------------------------------------------------------


def _illegal_action(mask_row: np.ndarray) -> int:
    return int(np.flatnonzero(~mask_row)[0])


def test_illegal_raise_changes_nothing():
    b = GameBatch(4, "msc", seed=3)
    obs, mask = b.reset()
    before = obs.copy()
    acts = mask.argmax(axis=1)
    acts[2] = _illegal_action(mask[2])
    with pytest.raises(IllegalActionError, match=r"game 2: action \d+ .* is not legal"):
        b.step(acts)
    assert np.array_equal(b.obs, before) and (b.moves == 0).all()


def test_illegal_ignore_and_penalty():
    b = GameBatch(2, "msc", seed=3, illegal="ignore")
    obs, mask = b.reset()
    before = obs.copy()
    acts = np.array([_illegal_action(mask[0]), mask[1].argmax()])
    _, _, rew, term, _ = b.step(acts)
    assert b.illegal.tolist() == [True, False] and rew[0] == 0 and not term[0]
    assert np.array_equal(b.obs[0], before[0]) and not np.array_equal(b.obs[1], before[1])
    p = GameBatch(2, "msc", seed=3, illegal="penalty", penalty=2.5)
    obs, mask = p.reset()
    _, _, rew, term, trunc = p.step(np.array([_illegal_action(mask[0]), mask[1].argmax()]))
    assert rew[0] == -2.5 and term[0] and not trunc[0] and p.illegal[0]
    assert not term[1]


@pytest.mark.parametrize(
    "actions, match",
    [
        (np.zeros(3, np.int64), r"shape \(4,\)"),
        (np.zeros((4, 1), np.int64), r"shape \(4,\)"),
        (np.array([0, 1, 2, 102]), r"game 3 got 102"),
        (np.array([0, -1, 2, 3]), r"game 1 got -1"),
        (np.array([0.0, np.nan, 1.0, 2.0]), r"whole numbers"),
        (np.array([0.5, 1.0, 1.0, 2.0]), r"whole numbers"),
        (np.array([True, False, True, True]), r"dtype bool"),
        (np.array(["a", "b", "c", "d"]), r"dtype <U1"),
        ([None, None, None, None], r"dtype object"),
    ],
)
def test_bad_actions(actions, match):
    b = GameBatch(4, "msc", seed=3, illegal="ignore")
    obs, _ = b.reset()
    before = obs.copy()
    with pytest.raises(ValueError, match=match):
        b.step(actions)
    assert np.array_equal(b.obs, before)


def test_whole_float_actions_are_accepted():
    b = GameBatch(2, "msc", seed=3)
    _, mask = b.reset()
    b.step(mask.argmax(axis=1).astype(np.float32))
    assert (b.moves == 1).all()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(n=0), "n must be"),
        (dict(observation="partial"), "observation must be"),
        (dict(reward="points"), "reward must be"),
        (dict(reward="unlimited"), "scores no points"),
        (dict(illegal="skip"), "illegal must be"),
        (dict(autoreset="always"), "autoreset must be"),
        (dict(max_steps=0), "max_steps"),
        (dict(seed=-1), "seed"),
        (dict(threads=0), "threads"),
        (dict(penalty=-1), "penalty"),
        (dict(penalty=float("nan")), "penalty"),
        (dict(rules="nope"), "unknown"),
        (dict(deals=["PY1-Q-AAAAAAA"]), "rules letter"),
    ],
)
def test_bad_arguments(kwargs, match):
    args = dict(n=2, seed=1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        GameBatch(**args)


def test_step_before_reset_and_bad_resets():
    b = GameBatch(3, seed=1)
    with pytest.raises(ValueError, match="reset"):
        b.step([100, 100, 100])
    with pytest.raises(ValueError, match="out of range"):
        b.reset([5])
    with pytest.raises(ValueError, match="twice"):
        b.reset([1, 1])
    with pytest.raises(ValueError, match="one deal per game"):
        b.reset([0, 1], deals=[5])
    with pytest.raises(ValueError, match="names the msc rules"):
        b.reset([0], deals=["PY1-M-AAAAAAB"])


# ---- deals and codes --------------------------------------------------------------------------


def test_given_deals_cycle_and_replay_with_game():
    deals = ["PY1-M-AAAAAAS", 12345, "PY1-M-AAAAABB"]
    b = GameBatch(2, deals=deals, autoreset="next_step", seed=4)
    assert b.rules == Rules.preset("msc")
    b.reset()
    assert b.codes() == ["PY1-M-AAAAAAS", Deal.from_number(12345, rules="msc").code]
    played: list[list[int]] = [[], []]
    for _ in range(3000):
        _, _, _, term, trunc = b.step_random()
        acts = b.last_actions
        for i in range(2):
            if not b.reset_games[i]:
                played[i].append(int(acts[i]))
        if term[0] or trunc[0]:
            break
    # replay game 0's episode with Game: the same end
    g = Game("PY1-M-AAAAAAS")
    for a in played[0]:
        g.play(action_move(a))
    assert g.position == int(b.positions[0]) and g.is_over == bool(term[0])
    b.step_random()  # game 0 is dealt its next deal: row (0 + 2) % 3
    assert b.code(0) == "PY1-M-AAAAABB"


def test_reset_with_given_deals_and_card_lists():
    b = GameBatch(2, "msc", seed=1)
    deck = Deal.from_number(77).cards
    b.reset([1], deals=[[int(c) for c in deck]])
    assert b.code(1) is None and not b.numbered[1]
    assert b.deal(1).cards == Deal.from_number(77, rules="msc").cards
    b.reset(deals=["PY1-M-AAAAAAC", 3])
    assert b.codes() == ["PY1-M-AAAAAAC", "PY1-M-AAAAAAD"]


# ---- solver labels -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["msc", "pyramide", "classic"])
def test_labels_agree_with_the_solver(name):
    b = GameBatch(12, name, seed=8, autoreset=None)
    b.reset()
    for _ in range(6):
        b.step_random()
    lab = b.labels(max_seconds=10)
    assert (lab["stop"] == 0).all()
    for i in range(12):
        g = b.game(i)
        s = solve(g, objective="min_moves", max_seconds=10)
        assert lab["winnable"][i] == int(s.winnable)
        if s.winnable:
            assert lab["n_moves"][i] == s.n_moves
            assert lab["removable"][i] == g.pyramid_left
            if s.n_moves:
                # the action starts a shortest win: after it, one move fewer is needed
                h = g.copy()
                h.play(action_move(int(lab["action"][i])))
                assert solve(h, objective="min_moves").n_moves == s.n_moves - 1
        else:
            assert lab["n_moves"][i] == -1
            assert lab["removable"][i] == max_removable(g) - g.pyramid_removed
    quick = b.labels(shortest=False, max_removed=False, threads=2)
    np.testing.assert_array_equal(quick["winnable"], lab["winnable"])
    assert (quick["n_moves"] == -1).all()


def test_labels_of_some_games_and_budgets():
    b = GameBatch(6, "msc", seed=8)
    b.reset()
    lab = b.labels([4, 1], max_nodes=1)
    assert lab["winnable"].shape == (2,)
    assert set(lab["stop"].tolist()) <= {0, 1}
    with pytest.raises(ValueError, match="max_seconds"):
        b.labels(max_seconds=-1)


def test_layout_covers_the_row():
    spans = sorted(OBS_LAYOUT.values())
    assert spans[0][0] == 0 and spans[-1][1] == OBS_SIZE
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))


def test_rollout_counts_and_cancel():
    import threading

    b = GameBatch(64, "msc", seed=1, autoreset="next_step")
    b.reset()
    r = b.rollout(50)
    assert r["moves"] == 50 * 64 and r["episodes"] >= r["wins"] >= 0
    ev = threading.Event()
    ev.set()
    from pyramid_solitaire import Cancelled

    with pytest.raises(Cancelled):
        b.rollout(10, cancel=ev)


def test_copy_returns_fresh_arrays():
    b = GameBatch(2, "msc", seed=1, copy=True)
    obs, mask = b.reset()
    obs2, *_ = b.step_random()
    assert obs is not b.obs and obs2 is not b.obs and not np.shares_memory(obs, obs2)
    c = GameBatch(2, "msc", seed=1)
    obs, _ = c.reset()
    assert obs is c.obs


def test_game_view_matches_positions():
    b = GameBatch(3, "msc", seed=2)
    b.reset()
    for _ in range(5):
        b.step_random()
    for i in range(3):
        g = b.game(i)
        assert g.position == int(b.positions[i])
        assert {action_id(m) for m in g.legal_moves} == set(np.flatnonzero(b.mask[i]))


def test_a_finished_games_mask_and_reward():
    """Documented: an episode that ends by a win or with no moves has an empty mask; a
    truncated one keeps its position's moves, ignored from then on (reward 0)."""
    b = GameBatch(64, "classic", seed=6, autoreset=None)
    b.reset()
    for _ in range(80):
        b.step_random()
    assert b.terminated.all()
    assert not b.mask.any()
    u = GameBatch(64, "unlimited", seed=6, autoreset=None, max_steps=10)
    u.reset()
    for _ in range(10):
        u.step_random()
    cut = u.truncated & ~u.terminated
    assert cut.any() and u.mask[cut].any(axis=1).all()
    before = u.obs.copy()
    _, _, rew, term, trunc = u.step_random()
    assert (rew[cut] == 0).all() and trunc[cut].all()
    np.testing.assert_array_equal(u.obs[cut], before[cut])


def test_a_batch_too_big_for_the_memory_is_refused():
    with pytest.raises(ValueError, match="memory available"):
        GameBatch(1 << 28, seed=1)


@pytest.mark.parametrize("rules", ["msc", Rules.preset("msc").replace(redeals=1)])
def test_deal_codes_follow_every_deal(rules):
    b = GameBatch(32, rules, seed=13, autoreset="same_step")
    b.reset()
    for _ in range(120):
        b.step_random()
        if b.reset_games.any():
            break
    assert b.reset_games.any()
    expect = [Deal.from_number(int(x), rules=b.rules).code for x in b.deal_numbers]
    assert b.deal_codes.tolist() == expect == b.codes()
    b.reset([3], deals=[[int(c) for c in Deal.from_number(5).cards]])
    assert b.deal_codes[3] == "" and b.code(3) is None


def test_score_fields_are_checked():
    from pyramid_solitaire.session.profiles import Scoring

    with pytest.raises(ValueError, match="win_bonus"):
        GameBatch(2, seed=1, reward=Scoring(pyramid=10, win_bonus=10**40))


def test_rollout_counts_only_its_own_episodes_and_keeps_codes():
    b = GameBatch(64, "msc", seed=3, autoreset=None)
    b.reset()
    for _ in range(200):
        b.step_random()
    assert (b.terminated | b.truncated).all()
    r = b.rollout(1)
    assert r["moves"] == 64 and r["wins"] <= r["episodes"] <= 64
    assert r["episodes"] < 64 or r["wins"] < 20  # not the 64 ended games counted again
    assert b.deal_codes.tolist() == [b.deal(i).code for i in range(64)]


def test_the_first_reset_deals_every_game():
    b = GameBatch(3, "msc", seed=1)
    obs, mask = b.reset([0])
    assert mask.any(axis=1).all() and (obs[:, :28] > 0).all()
    assert all(b.code(i) for i in range(3))
    c = GameBatch(3, "msc", seed=1)
    c.reset()
    np.testing.assert_array_equal(b.obs, c.obs)


def test_step_random_marks_games_that_made_no_move():
    b = GameBatch(8, "classic", seed=2, autoreset=None)
    b.reset()
    for _ in range(60):
        b.step_random()
    assert b.terminated.all() and (b.last_actions == -1).all()
