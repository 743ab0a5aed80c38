"""Fair play (pyramid_solitaire.fair, pyramid_core.fair): what is seen, the completions'
sampler, and the hindsight policy: it never peeks, plays perfectly once nothing is hidden,
never wins a lost deal, and gives the same games whatever the threads."""

from __future__ import annotations

import math
import random
import threading

import numpy as np
import pytest

from pyramid_core import fair as core
from pyramid_solitaire import (
    Cancelled,
    Deal,
    Game,
    Hindsight,
    Move,
    Rules,
    hint,
    replay,
    simulate,
    solve,
    solve_many,
    win_chance,
)
from pyramid_solitaire.fair import fair_hint

PRESETS = ("pyramide", "three-pass", "unlimited", "classic", "classic-draw3", "msc")
#: Custom rule sets with the rarer options, so that every option meets the sampler.
CUSTOM = (
    {"preset": "msc", "pair_waste_top_two": True},
    {"preset": "classic", "pair_with_covering": True},
    {"preset": "three-pass", "win": "all"},
)
SMALL = Hindsight(samples=4, max_nodes=3000)


def _opts(rules: Rules) -> dict[str, int]:
    return {k: int(v) for k, v in rules.core_options().items()}


def _random_game(rules: Rules | str, rng: random.Random, deal: int | None = None) -> Game:
    """A game some random moves into a random deal (never over)."""
    game = Game(Deal.from_number(rng.randrange(10**6) if deal is None else deal, rules=rules))
    for _ in range(rng.randrange(0, 40)):
        moves = game.legal_moves
        if not moves:
            break
        before = game.copy()
        game.play(rng.choice(moves))
        if game.is_over:
            return before
    return game


def _permuted(game: Game, rng: random.Random) -> Game:
    """The same game (its moves replayed) on a deal whose unseen cards are shuffled among
    the unseen places: what a player sees is the same."""
    unseen = game.unseen
    if len(unseen) < 2:
        return game.copy()
    cards = list(game.deal.cards)
    places = [i for i, c in enumerate(cards) if c in set(unseen)]
    shuffled = list(unseen)
    while shuffled == [cards[i] for i in places]:
        rng.shuffle(shuffled)
    for i, c in zip(places, shuffled):
        cards[i] = c
    other = Game(Deal.from_cards(cards, rules=game.rules), game.rules)
    other.play_all(game.moves)
    assert other.seen_mask == game.seen_mask and other.position == game.position
    return other


# ---- what is seen -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules, seen",
    [
        ("pyramide", 0b1),  # a card dealt to the waste
        ("unlimited", 0),  # nothing turned yet
        ("msc", 0b1),  # the stock's top is face up and playable
        ("classic-draw3", 0),
    ],
)
def test_seen_at_the_deal(rules, seen):
    game = Game(Deal.from_number(7, rules=rules))
    assert game.seen_mask == seen
    assert len(game.unseen) == 24 - bin(seen).count("1")


def test_draw_three_sees_every_card_turned():
    game = Game(Deal.from_number(7, rules="classic-draw3"))
    game.play("draw")
    assert game.seen_mask == 0b111  # the covered two of the three too
    assert set(game.unseen).isdisjoint(game.waste)


def test_seen_stays_after_a_recycle():
    game = Game(Deal.from_number(3, rules="unlimited"))
    while "draw" in [str(m) for m in game.legal_moves]:
        game.play("draw")
    seen = game.seen_mask
    assert game.unseen == [c for c in game.stock]  # nothing left in the stock
    game.play("recycle")
    assert game.seen_mask == seen == (1 << 24) - 1 and game.unseen == []


@pytest.mark.parametrize("rules", PRESETS)
def test_seen_is_monotone_and_covers_every_card_face_up(rules):
    rng = random.Random(rules)
    for _ in range(20):
        game = _random_game(rules, rng)
        seen = 0
        replayed = Game(game.deal, game.rules)
        for m in game.moves:
            replayed.play(m)
            now = replayed.seen_mask
            assert now & seen == seen
            seen = now
            face_up = set(replayed.waste) | set(replayed.available)
            assert face_up.isdisjoint(replayed.unseen)
            assert set(replayed.unseen) <= set(replayed.stock)


def test_the_batch_observation_hides_the_unseen_cards_only():
    """The env's visible observation hides exactly the cards position.pxd's pos_seen has
    not seen along the game (the one definition, accumulated move by move)."""
    from pyramid_core.position import Table
    from pyramid_solitaire import GameBatch

    for rules in PRESETS:
        batch = GameBatch(6, rules=rules, seed=3, observation="visible")
        batch.reset()
        tables = [
            Table([int(c) for c in batch.deal(i).cards], **batch.rules.core_options())
            for i in range(6)
        ]
        seen = [t.seen(int(p)) for t, p in zip(tables, batch.positions)]
        for _ in range(40):
            obs, _mask = batch.observe()
            for i, pos in enumerate(batch.positions):
                hidden = Table.talon_mask(int(pos)) & ~seen[i]
                shown = obs[i, 28:52] == 53
                assert [bool((hidden >> t) & 1) for t in range(24)] == list(shown)
            result = batch.step_random()
            if result.terminated.any() or result.truncated.any():
                break
            seen = [t.seen(int(p), s) for t, p, s in zip(tables, batch.positions, seen)]


# ---- the sampler --------------------------------------------------------------------------


def test_completions_keep_what_is_seen_and_deal_the_unseen_cards():
    rng = random.Random(5)
    for rules in PRESETS:
        game = _random_game(rules, rng)
        deck = [int(c) for c in game.deal.cards]
        places, cards = core.unseen(_opts(game.rules), deck, game.position, game.seen_mask)
        assert sorted(int(c) for c in game.unseen) == cards
        for k in range(5):
            done = core.completion(_opts(game.rules), deck, game.position, game.seen_mask, 9, k)
            hidden = {28 + t for t in places}
            assert [c for i, c in enumerate(done) if i not in hidden] == [
                c for i, c in enumerate(deck) if i not in hidden
            ]
            assert sorted(done[i] for i in hidden) == cards


def _chi2_critical(df: int, z: float = 3.09) -> float:
    """The chi-square quantile for a one-sided p of about 0.001 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_the_sampler_is_unbiased():
    """Over many completions each unseen card lies in each unseen place equally often
    (a chi-square test per place), and the pairs of the first two places too."""
    game = Game(Deal.from_number(11, rules="msc"))
    for _ in range(6):
        game.play("draw")
    deck = [int(c) for c in game.deal.cards]
    opts = _opts(game.rules)
    places, cards = core.unseen(opts, deck, game.position, game.seen_mask)
    u, n = len(cards), 24_000
    index = {c: j for j, c in enumerate(cards)}
    counts = np.zeros((u, u), np.int64)
    pairs = np.zeros((u, u), np.int64)
    for k in range(n):
        done = core.completion(opts, deck, game.position, game.seen_mask, 1, k)
        row = [index[done[28 + t]] for t in places]
        counts[np.arange(u), row] += 1
        pairs[row[0], row[1]] += 1
    expected = n / u
    for place in range(u):
        chi2 = float(((counts[place] - expected) ** 2 / expected).sum())
        assert chi2 < _chi2_critical(u - 1), (place, chi2)
    off = ~np.eye(u, dtype=bool)
    expected_pair = n / (u * (u - 1))
    chi2 = float(((pairs[off] - expected_pair) ** 2 / expected_pair).sum())
    assert chi2 < _chi2_critical(u * (u - 1) - 1)
    assert np.all(np.diag(pairs) == 0)


def test_completions_depend_on_the_key():
    game = Game(Deal.from_number(2, rules="classic"))
    deck = [int(c) for c in game.deal.cards]
    opts = _opts(game.rules)
    a = core.completion(opts, deck, game.position, game.seen_mask, 0, 0)
    assert a == core.completion(opts, deck, game.position, game.seen_mask, 0, 0)
    assert a != core.completion(opts, deck, game.position, game.seen_mask, 0, 1)
    assert a != core.completion(opts, deck, game.position, game.seen_mask, 1, 0)


# ---- never peeking ------------------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS + CUSTOM)
def test_the_hindsight_move_depends_only_on_what_is_seen(rules):
    """Permuting the unseen cards of a position never changes the policy's move, its
    counts, the completions, or the chance to win."""
    rng = random.Random(str(rules))
    rules = Rules.coerce(rules)
    checked = 0
    for _ in range(12):
        game = _random_game(rules, rng)
        if len(game.unseen) < 2:
            continue
        other = _permuted(game, rng)
        assert other.deal.cards != game.deal.cards
        a, b = SMALL.explain(game, seed=4), SMALL.explain(other, seed=4)
        assert a == b
        opts, pos, seen = _opts(rules), game.position, game.seen_mask
        for k in range(3):
            assert core.completion(
                opts, [int(c) for c in game.deal.cards], pos, seen, 4, k
            ) == core.completion(opts, [int(c) for c in other.deal.cards], pos, seen, 4, k)
        assert win_chance(game, samples=8, max_nodes=3000) == win_chance(
            other, samples=8, max_nodes=3000
        )
        checked += 1
    assert checked >= 6


def test_whole_fair_games_do_not_depend_on_the_stock_order_until_it_is_seen():
    """Two deals that differ only in the order of the stock's last cards: the hindsight
    games agree move for move until one of those cards is seen."""
    rng = random.Random(8)
    for number in range(5):
        deal = Deal.from_number(number, rules="msc")
        cards = list(deal.cards)
        tail = cards[44:]
        rng.shuffle(tail)
        other = Deal.from_cards(cards[:44] + tail, rules="msc")
        a = replay(deal, policy=SMALL)
        b = replay(other, policy=SMALL)
        game = Game(deal)
        for i, m in enumerate(a):
            if any(t >= 16 for t in range(24) if (game.seen_mask >> t) & 1):
                break  # a card of the shuffled tail has been seen
            assert b[i] == m
            game.play(m)


# ---- soundness ----------------------------------------------------------------------------


def test_nothing_hidden_is_perfect_play():
    """With every talon card seen, the policy's move keeps a winnable position winnable."""
    rng = random.Random(2)
    checked = 0
    for number in range(60):
        game = Game(Deal.from_number(number, rules="three-pass"))
        while "draw" in [str(m) for m in game.legal_moves]:
            game.play("draw")
        game.play("recycle")
        for _ in range(rng.randrange(4)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves))
        if game.is_over:
            continue
        assert game.unseen == []
        winnable = solve(game).winnable
        move = SMALL.move(game)
        after = game.copy()
        after.play(move)
        if winnable:
            assert after.is_won or solve(after).winnable
            checked += 1
        assert win_chance(game).exact and win_chance(game).won == int(bool(winnable))
    assert checked >= 10


@pytest.mark.parametrize("rules", ["pyramide", "unlimited"])
def test_a_fair_player_reaches_perfect_play_under_unlimited_redeals(rules):
    """One pass shows every card and costs nothing: hindsight wins exactly the winnable
    deals (the docs' table checks the same at 10,000 deals)."""
    r = simulate(150, start=10_000_000, rules=rules, policy="hindsight", threads=2)
    s = solve_many(np.arange(10_000_000, 10_000_150), rules)
    assert np.array_equal(r.won, s.winnable == 1)


@pytest.mark.parametrize("rules", ["msc", "classic", "classic-draw3", "three-pass"])
def test_a_fair_player_never_wins_a_lost_deal(rules):
    r = simulate(60, start=500, rules=rules, policy=SMALL, threads=2)
    s = solve_many(np.arange(500, 560), rules)
    assert not np.any(r.won & (s.winnable == 0))


def test_hindsight_beats_greedy_under_msc():
    h = simulate(120, start=10_000_000, rules="msc", policy="hindsight", threads=2)
    g = simulate(120, start=10_000_000, rules="msc", policy="greedy", threads=1)
    assert h.wins > g.wins


def test_the_same_games_whatever_the_threads_and_chunks():
    a = simulate(40, start=77, rules="msc", policy=SMALL, threads=1)
    b = simulate(40, start=77, rules="msc", policy=SMALL, threads=2, chunk_size=3)
    for name in ("won", "removed", "moves", "score"):
        assert np.array_equal(getattr(a, name), getattr(b, name))
    assert a.replay(5) == replay(82, rules="msc", policy=SMALL)
    assert len(a.replay(5)) == a.moves[5]


def test_layouts_and_numbers_play_the_same_games():
    numbers = [5, 9, 14]
    a = simulate(deals=numbers, rules="classic", policy=SMALL, threads=1)
    decks = np.array([[int(c) for c in Deal.from_number(n).cards] for n in numbers], np.uint8)
    b = simulate(deals=decks, rules="classic", policy=SMALL, threads=1)
    assert np.array_equal(a.moves, b.moves) and np.array_equal(a.won, b.won)


def test_the_seed_keys_the_completions():
    a = simulate(30, rules="msc", policy=SMALL, seed=1)
    b = simulate(30, rules="msc", policy=SMALL, seed=1)
    assert np.array_equal(a.moves, b.moves) and a.seed == 1
    assert simulate(5, rules="msc", policy="hindsight").seed == 0
    assert a.to_dict()["policy_params"] == {
        "name": "hindsight",
        "samples": 4,
        "max_nodes": 3000,
        "known_nodes": None,
        "prefer_draw": False,
    }


# ---- hints and chances --------------------------------------------------------------------


def test_fair_hints():
    game = Game("PY1-M-AAAAABF")  # a choice that is sampled (no King, cards hidden)
    assert hint(game, fair=True) == fair_hint(game) == Hindsight().move(game)
    assert hint(game, fair=True) in game.legal_moves
    move, counts, used = Hindsight().explain(game)
    assert move == hint(game, fair=True) and used == 16
    assert counts[move] == max(counts.values()) and set(counts) == set(game.legal_moves)
    king = Game("PY1-M-AAAAAAS")  # a King goes at once: nothing sampled
    assert Hindsight().explain(king) == (Move("Kc"), {}, 0)
    over = Game(Deal.from_number(3, rules="classic"))
    over.play_all(replay(over.deal, policy="greedy"))
    assert hint(over, fair=True) is None


def test_win_chance():
    game = Game("PY1-M-AAAAAAS")
    c = win_chance(game, samples=32)
    assert c.samples == 32 and 0 <= c.won <= c.decided <= 32 and not c.exact
    low, high = c.ci95
    assert c.estimate is not None and low <= c.estimate <= high
    assert win_chance(game, samples=32) == c
    assert win_chance(game, samples=32, seed=1) != c or c.won in (0, 32)
    assert "%" in str(c)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: Hindsight(samples=0), "samples must be"),
        (lambda: Hindsight(max_nodes=-1), "max_nodes must be"),
        (lambda: Hindsight(prefer_draw="maybe"), "prefer_draw"),
        (lambda: win_chance("PY1-M-AAAAAAS"), "takes a Game"),
        (lambda: hint(Game("PY1-M-AAAAAAS"), fair=True, max_seconds=1), "hint\\(fair=True\\)"),
        (lambda: simulate(5, policy="hindsight", max_nodes=10), "Hindsight\\(max_nodes"),
        (lambda: simulate(5, policy="hindsight", seed=-1), "seed must be"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_a_bad_layout_is_refused_by_the_core():
    decks = np.zeros((1, 52), np.uint8)
    b, w = np.zeros(1, np.uint8), np.zeros(1, np.uint16)
    with pytest.raises(ValueError, match="not a permutation"):
        core.run({}, {}, 0, None, decks, 0, 1, b, b.copy(), w, w.copy())
    with pytest.raises(ValueError, match="unknown hindsight parameter"):
        core.run({"sample": 3}, {}, 0, None, None, 0, 1, b, b.copy(), w, w.copy())


def test_cancel_stops_a_fair_simulation():
    event = threading.Event()
    event.set()
    with pytest.raises(Cancelled):
        simulate(1000, rules="classic-draw3", policy="hindsight", cancel=event)


# ---- the batch: every optimal action, the fair policy's ------------------------------------


def test_batch_labels_give_every_optimal_action_and_the_fair_one():
    from pyramid_solitaire import GameBatch
    from pyramid_solitaire.batch import action_id

    batch = GameBatch(12, rules="msc", seed=3)
    batch.reset()
    for _ in range(6):
        batch.step_random()
    labels = batch.labels(optimal=True, fair=SMALL)
    obs, masks = batch.observe()
    for i in range(12):
        game = batch.game(i)
        row = labels["optimal"][i]
        assert not np.any(row & ~masks[i])  # only legal actions
        if labels["action"][i] >= 0:
            assert row[labels["action"][i]]
        if labels["winnable"][i] == 1 and labels["n_moves"][i] > 0:
            n = int(labels["n_moves"][i])
            for move in game.legal_moves:
                after = game.copy()
                after.play(move)
                s = solve(after, objective="min_moves") if not after.is_won else None
                length = 0 if after.is_won else (s.n_moves if s.winnable else None)
                assert row[action_id(move)] == (length == n - 1), (i, move)
        if game.is_over:
            assert labels["fair_action"][i] == -1
        else:
            fair = SMALL.move(game, seed=0)
            assert labels["fair_action"][i] == action_id(fair)


@pytest.mark.parametrize("rules", PRESETS)
def test_greedy_from_observations_plays_the_built_in_greedy(rules):
    """batch.greedy_actions rebuilds each position from its (visible) observation: games
    played by it win exactly the deals the built-in greedy wins."""
    from pyramid_solitaire import GameBatch
    from pyramid_solitaire.batch import greedy_actions

    n = 200
    batch = GameBatch(n, rules=rules, deals=np.arange(n), observation="visible")
    obs, mask = batch.reset()
    done = np.zeros(n, bool)
    while not done.all():
        act = greedy_actions(obs, rules).astype(np.int64)
        assert np.all(mask[np.arange(n), np.maximum(act, 0)] | done | (act < 0))
        act[(act < 0) | done] = 100
        obs, mask, _, term, trunc = batch.step(act)
        done |= term | trunc
    assert np.array_equal(batch.won, simulate(deals=np.arange(n), rules=rules).won)


def _observation(game: Game, mode: str) -> np.ndarray:
    """The batch's observation (1 x 109) of a game: its deal in a batch of one, its moves
    replayed."""
    from pyramid_solitaire import GameBatch
    from pyramid_solitaire.batch import action_id

    batch = GameBatch(1, rules=game.rules, deals=[game.deal], observation=mode)
    batch.reset()
    for move in game.moves:
        batch.step([action_id(move)])
    return batch.observe()[0][0]


@pytest.mark.parametrize("rules", PRESETS)
def test_viable_actions_never_call_a_winning_move_lost_and_never_peek(rules):
    """batch.viable_actions: every action the solver wins with (labels' optimal mask, which
    sees the stock) is viable; the answer is the same from the full observation, from the
    visible one, and after the unseen cards are permuted; and it proves something: some
    legal moves are not viable."""
    from pyramid_solitaire import GameBatch
    from pyramid_solitaire.batch import viable_actions

    n = 40
    batch = GameBatch(n, rules=rules, deals=np.arange(500, 500 + n), observation="full", seed=5)
    batch.reset()
    rng = random.Random(7)
    refuted = 0
    for step in range(5):
        for _ in range(rng.randrange(1, 4)):
            batch.step_random()
        obs, mask = batch.observe()
        viable = viable_actions(obs, rules)
        assert viable.shape == mask.shape and viable.dtype == np.bool_
        assert not np.any(viable & ~mask)
        labels = batch.labels(optimal=True, max_seconds=None)
        won = labels["winnable"] == 1  # (in a lost position every move is "optimal")
        assert not np.any(labels["optimal"][won] & ~viable[won]), step
        refuted += int(np.sum(mask & ~viable))
    for _ in range(15):
        game = _random_game(rules, rng)
        twin = _permuted(game, rng)
        full = viable_actions(_observation(game, "full")[None], rules)
        assert np.array_equal(viable_actions(_observation(game, "visible")[None], rules), full)
        assert np.array_equal(viable_actions(_observation(twin, "visible")[None], rules), full)
    if rules in ("msc", "pyramide", "three-pass"):
        assert refuted > 0


def test_viable_actions_refuse_bad_observations():
    from pyramid_solitaire.batch import viable_actions

    with pytest.raises(ValueError, match="109 observations"):
        viable_actions(np.zeros((2, 50), np.int8), "msc")
    with pytest.raises(ValueError, match="preset"):
        viable_actions(np.zeros((2, 109), np.int8), "nope")


def test_the_command_line_plays_hindsight(capsys):
    import json

    from conftest import run_main

    code, out, _ = run_main(
        capsys, "simulate", "--games", "30", "--rules", "msc", "--policy", "hindsight",
        "--samples", "4", "--max-nodes", "3000", "--json",
    )  # fmt: skip
    d = json.loads(out)
    assert code == 0 and d["policy_params"]["samples"] == 4 and d["seed"] == 0
    assert d["wins"] == simulate(30, rules="msc", policy=SMALL).wins
    for bad, says in (
        (["--policy", "hindsight", "--samples", "0"], "--samples must be"),
        (["--policy", "hindsight", "--max-seconds", "2"], "takes --samples and --max-nodes"),
        (["--samples", "4"], "--samples goes with --policy hindsight"),
    ):
        code, out, err = run_main(capsys, "simulate", "--games", "5", *bad)
        assert code == 2 and says in err and err.count("\n") == 1, err
