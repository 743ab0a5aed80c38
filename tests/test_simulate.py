"""The Monte Carlo simulator (docs/simulation.md): policies, determinism, replays, API and CLI."""

from __future__ import annotations

import doctest
import importlib
import json
import os
import re

import numpy as np
import pytest

from pyramid_core import simulate as core
from pyramid_core.position import Table
from pyramid_core.shuffle import MAX_DEAL_NUMBER, deal_cards
from pyramid_solitaire import Deal, Game, Move, Rules, SimulationResult, Status, replay, simulate
from pyramid_solitaire.cli import main

from conftest import SIM_PATHS, repo_file, require_path, run_main, run_on, sim_paths
from core_hooks import _simulate_tests as hooks
from reference import above as ref_above
from reference import covers as ref_covers

sim_module = importlib.import_module("pyramid_solitaire.simulate")

PRESETS = Rules.preset_names()
# Every rule option, alone and mixed, on top of the presets.
OPTION_SETS = {
    **{name: Rules.preset(name) for name in PRESETS},
    "pair-with-covering": Rules(pair_with_covering=True),
    "pair-waste-top-two": Rules(pair_waste_top_two=True),
    "win-all": Rules(win="all"),
    "unlimited-covering": Rules.preset("unlimited").replace(pair_with_covering=True),
    "unlimited-stock-top": Rules(waste_at_deal=0, stock_top_playable=True),
    "msc-win-all": Rules.preset("msc").replace(win="all"),
    "two-redeals-everything": Rules(
        waste_at_deal=0,
        redeals=1,
        stock_top_playable=True,
        pair_waste_top_two=True,
        pair_with_covering=True,
    ),
    "draw3-waste-covering-all": Rules(draw=3, redeals=0, pair_with_covering=True, win="all"),
    "classic-win-all": Rules.preset("classic").replace(win="all", pair_waste_top_two=True),
}
ERROR_LINE = re.compile(r"^pyramid-solitaire: error: \S.*$")


def arrays(result):
    return result.deal, result.won, result.removed, result.moves, result.score


# ---- the core agrees with the engine --------------------------------------------------------


@pytest.fixture(params=list(SIM_PATHS))
def path(request):
    """Every path: AVX-512, one lane and plain C (a path the CPU lacks is a skip that says so)."""
    return require_path(request.param)


def test_fast_shuffle_is_the_v1_shuffle(path):
    for number in list(range(300)) + [MAX_DEAL_NUMBER, 2**31, 123456789]:
        assert hooks.shuffle_ranks(number, path) == [c % 13 + 1 for c in deal_cards(number)]


@pytest.mark.parametrize("name", ["pyramide", "classic-draw3", "msc"])
def test_batch_deal_setup(name, path):
    """The batch loop shuffles ranks and builds the rank masks during the shuffle (one deal,
    and eight at a time): the same as from deal_shuffle's cards."""
    options = Rules.preset(name).core_options()
    assert hooks.check_deal_setup(0, 20000, options, path) == []
    assert hooks.check_deal_setup(MAX_DEAL_NUMBER - 999, 1000, options, path) == []
    assert hooks.check_deal_setup(987654321987, 5, options, path) == []  # a short last block


@pytest.mark.parametrize("name", ["pyramide", "classic-draw3", "msc"])
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_batch_setup_ways_agree(policy, name):
    """The batch loop names each next block so that, with AVX-512, its shuffle partners are
    worked out during the current block: the games are the same as with the plain C set-up
    and as one game at a time (sim_play on sim_deal_from_number), for any slice of a batch
    (blocks that start anywhere, short last blocks, given deals out of order)."""
    options = Rules.preset(name).core_options()
    deals = np.array(
        [5, 5, MAX_DEAL_NUMBER, 17, 2**40, 3, 99, 1, 0, 12345678901, 8, 7, 6], dtype=np.uint64
    )

    def batch(path, n, lo, deals=None):
        out = run_on(path, policy, options, 3, 1000, n, deals, lo)
        return np.stack([a.astype(np.int64) for a in out])[:, lo:]

    runs = [
        [
            batch(path, 37, 0),
            batch(path, 37, 5),
            batch(path, len(deals), 0, deals),
            batch(path, len(deals), 11, deals),
        ]
        for path in sim_paths()
    ]
    for other in runs[1:]:
        for a, b in zip(runs[0], other):
            assert np.array_equal(a, b)
    one = np.array(
        [core.play(core.POLICIES[policy], options, 3, 1000 + i)[:4] for i in range(37)]
    ).T
    assert np.array_equal(runs[0][0], one)
    assert np.array_equal(runs[0][1], one[:, 5:])
    given = np.array([core.play(core.POLICIES[policy], options, 3, int(n))[:4] for n in deals]).T
    assert np.array_equal(runs[0][2], given)
    assert np.array_equal(runs[0][3], given[:, 11:])


# Rule sets the lockstep playouts take: every combination of what they read.
LOCKSTEP_RULES = [
    Rules(waste_at_deal=w, redeals=r, stock_top_playable=stp, win=win)
    for w in (0, 1)
    for r in (0, 1, 2, "unlimited")
    for stp in (False, True)
    for win in ("pyramid", "all")
]
LOCKSTEP_RULES_DRAW3 = [
    Rules(draw=3, redeals=0, waste_at_deal=w, win=win) for w in (0, 1) for win in ("pyramid", "all")
]


@pytest.mark.parametrize("path", ["avx512", "one-lane"])
@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("rules", LOCKSTEP_RULES + LOCKSTEP_RULES_DRAW3, ids=str)
def test_lockstep_playouts_are_the_scalar_ones(rules, policy, path):
    """With AVX-512 the batch plays games sixteen at a time in vector lanes
    (pyr_sim_lockstep.h), and the same text compiled for one lane of plain C plays them one at
    a time on any CPU; the rows are those of the scalar playouts, game for game."""
    options = rules.core_options()
    n = 3001  # a short last group of lanes
    vector = run_on(path, policy, options, 11, 777, n)
    scalar = run_on("scalar", policy, options, 11, 777, n)
    for a, b in zip(vector, scalar):
        assert np.array_equal(a, b)
    assert len(np.unique(vector[1])) > 10  # real games: many different outcomes


def test_paths():
    """The paths this CPU runs (AVX-512 only where the core sees it), the one resolved at
    import among them, and the path a batch of given rules and policy takes."""
    cpu = core.cpu_features()
    assert (
        hooks.paths() == ["scalar", "avx512", "one-lane"]
        if cpu["avx512"]
        else [
            "scalar",
            "one-lane",
        ]
    )
    assert core.simd_path() == hooks.path_in_use() in hooks.paths()
    assert hooks.path_in_use() != "one-lane"  # the tests' path only
    for bad in ("avx2", "bogus"):
        with pytest.raises(ValueError, match="unknown path"):
            hooks.shuffle_ranks(0, bad)
    assert (
        core.simd_path(core.POLICIES["greedy"], Rules(pair_with_covering=True).core_options())
        == "scalar"
    )
    assert core.simd_path(core.POLICIES["greedy"], Rules().core_options()) == core.simd_path()


def _takes_engine_playout(rules):
    """Rules the specialised playouts do not serve (simulate.pyx's _playout_kind): they are
    played by the engine playout itself."""
    return rules.pair_with_covering or (rules.draw == 1 and rules.pair_waste_top_two)


SPECIALISED_SETS = sorted(n for n, r in OPTION_SETS.items() if not _takes_engine_playout(r))
ENGINE_SETS = sorted(n for n, r in OPTION_SETS.items() if _takes_engine_playout(r))


@pytest.mark.parametrize("name", SPECIALISED_SETS)
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_fast_playouts_agree_with_engine_playouts(name, policy):
    """The specialised playouts make the same moves as the same policy driven by gen_moves and
    pos_apply (sim_play_engine, the policies' definition). The rarer options (ENGINE_SETS)
    are played by sim_play_engine itself: test_policy_follows_its_definition checks them."""
    options = OPTION_SETS[name].core_options()
    code = core.POLICIES[policy]
    for number in range(0, 30000, 10):
        assert core.play(code, options, 99, number) == hooks.reference(code, options, 99, number)


SUPPORT = [len(ref_above(i)) for i in range(28)]  # the cards each position covers


def _free(pyr):
    return {i for i in range(28) if pyr >> i & 1 and not any(pyr >> c & 1 for c in ref_covers(i))}


def greedy_by_definition(options, number):
    """The greedy policy of docs/simulation.md written out in Python on the engine's Table:
    a King at once (the first listed); else each pair scored, -1 when vetoed (the veto is
    the core's, checked against its own definition in test_greedy_veto.py), else 100 per
    pyramid card removed, 30 per pyramid card freed, 1 per card the removed ones cover; the
    first best pair is played unless it scores below 0 and drawing or recycling is possible
    (at the end of a pass that removed nothing under unlimited redeals, the pair anyway);
    the game ends with no legal move, or at a recycle after a pass that removed nothing
    under unlimited redeals. Returns the moves played."""
    table = Table(deal_cards(number), **options)
    pos, played, removed = table.start(), [], 0
    unlimited = options["redeals"] == 255
    while moves := table.moves(pos):
        pyr, talon = pos & 0xFFFFFFF, (pos >> 28) & 0xFFFFFF
        kings = [m for m in moves if m & 63 != 63 and m >> 6 == 63]
        fallback = next((m for m in moves if m & 63 == 63), None)
        stuck = unlimited and removed == 0
        best = best_score = None
        for m in (m for m in moves if m & 63 != 63 and m >> 6 != 63):
            a, b = m & 63, m >> 6
            if hooks.veto(options, number, pyr, talon, a, b)[0]:
                score = -1
            else:
                gone = [x for x in (a, b) if x < 28]
                after = pyr & ~sum(1 << x for x in gone)
                score = (
                    100 * len(gone)
                    + 30 * len(_free(after) - _free(pyr))
                    + sum(SUPPORT[x] for x in gone)
                )
            if best is None or score > best_score:
                best, best_score = m, score
        if kings:
            m = kings[0]
        elif best is not None and (
            best_score >= 0 or fallback is None or (fallback == 127 and stuck)
        ):
            m = best
        else:
            m = fallback
        if m == 127 and stuck:
            break
        played.append(m)
        pos = table.apply(pos, m)
        removed = 0 if m == 127 else removed + (m & 63 != 63)
    return played


M64 = (1 << 64) - 1


def _splitmix64(state):
    """SplitMix64's step: (the new state, the value drawn)."""
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


def _rand_below(state, n):
    """Lemire's uniform draw below n on the value's high 32 bits, with rejection."""
    state, v = _splitmix64(state)
    m = (v >> 32) * n
    if m & 0xFFFFFFFF < n:
        t = ((1 << 32) - n) % n
        while m & 0xFFFFFFFF < t:
            state, v = _splitmix64(state)
            m = (v >> 32) * n
    return state, m >> 32


def random_by_definition(options, seed, number):
    """The random policy of docs/simulation.md written out in Python on the engine's Table:
    game `number`'s generator seeded from (seed, number); a uniform legal move, no number
    drawn when only one move is legal; under unlimited redeals the game ends at a recycle
    when no removal was legal since the last one, or once the move cap is reached. Returns
    the moves played."""
    table = Table(deal_cards(number), **options)
    _, v = _splitmix64(seed ^ 0x6A09E667F3BCC909)
    _, state = _splitmix64(v ^ number)
    pos, played, seen = table.start(), [], False
    unlimited, cap = options["redeals"] == 255, core.MOVE_CAP
    while moves := table.moves(pos):
        seen = seen or any(m & 63 != 63 for m in moves)
        if len(moves) == 1:
            m = moves[0]
        else:
            state, k = _rand_below(state, len(moves))
            m = moves[k]
        if m == 127 and unlimited and (not seen or len(played) >= cap):
            break
        played.append(m)
        pos = table.apply(pos, m)
        seen = seen and m != 127
    return played


@pytest.mark.parametrize("name", ENGINE_SETS + ["msc", "classic-draw3", "unlimited"])
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_policy_follows_its_definition(name, policy):
    """Games on the engine playout (the rarer options) and on the specialised playouts,
    move for move as the policy's definition written out in Python (above), 40 deals each."""
    options = OPTION_SETS[name].core_options()
    for number in range(7, 7 + 40 * 97, 97):
        won, removed, n_moves, score, played = core.play(core.POLICIES[policy], options, 99, number)
        expected = (
            greedy_by_definition(options, number)
            if policy == "greedy"
            else random_by_definition(options, 99, number)
        )
        assert played == expected, (name, number)
        assert n_moves == len(played)


# ---- determinism ----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["pyramide", "msc", "classic-draw3"])
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_same_arrays_whatever_the_threads_and_chunks(policy, rules):
    runs = [
        simulate(6000, start=1000, rules=rules, policy=policy, seed=7, threads=t, chunk_size=c)
        for t, c in [(1, None), (2, 1000), (3, 777), (2, 6000), (1, 1)]
    ]
    first = arrays(runs[0])
    for other in runs[1:]:
        for a, b in zip(first, arrays(other)):
            assert np.array_equal(a, b)


def test_deal_list_gives_the_same_games_in_any_order():
    by_range = simulate(2000, start=500, policy="random", seed=3, threads=1)
    order = np.random.default_rng(0).permutation(2000)
    by_list = simulate(deals=by_range.deal[order], policy="random", seed=3, threads=2)
    for a, b in zip(arrays(by_range), arrays(by_list)):
        assert np.array_equal(a[order], b)


def test_random_policy_seed():
    a = simulate(3000, policy="random", seed=1, threads=1)
    b = simulate(3000, policy="random", seed=1, threads=2)
    c = simulate(3000, policy="random", seed=2, threads=1)
    assert np.array_equal(a.moves, b.moves) and not np.array_equal(a.moves, c.moves)
    fresh = simulate(10, policy="random")
    assert 0 <= fresh.seed < 2**64
    again = simulate(deals=fresh.deal, policy="random", seed=fresh.seed)
    assert np.array_equal(fresh.moves, again.moves)


def test_greedy_ignores_the_seed():
    assert np.array_equal(simulate(2000, seed=1).moves, simulate(2000, seed=2).moves)


# ---- replays ------------------------------------------------------------------------------------


def _removal_legal(game):
    return any(m.kind in ("king", "pair") for m in game.legal_moves)


def _replay_on_game(number, rules, policy, seed, won, removed, moves):
    """Play the recorded moves on pyramid_solitaire.Game (every move must be legal) and check
    the final state against the batch row and the end-of-game rule."""
    played = replay(number, rules=rules, policy=policy, seed=seed)
    assert len(played) == moves
    game = Game(Deal.from_number(number, rules=rules), rules)
    seen = False  # a removal was legal at some position since the last recycle
    for m in played:
        seen = seen or (policy == "random" and _removal_legal(game))
        game.play(m)
        if m.kind == "recycle":
            seen = False
    assert game.is_won == won
    assert game.pyramid_removed == removed
    if not won:
        if game.status is not Status.NO_MOVES:
            # Only under unlimited redeals, at a recycle: greedy's pass removed nothing, and
            # for the random policy no removal was legal anywhere in the pass (not a pass
            # where it chose to draw: the game can only repeat). The safety bound never ends
            # these games.
            assert rules.redeals == "unlimited"
            assert game.stock == [] and Move.RECYCLE in game.legal_moves
            last = max((i for i, m in enumerate(played) if m.kind == "recycle"), default=-1)
            assert all(m.kind == "draw" for m in played[last + 1 :])
            if policy == "random":
                assert not seen and not _removal_legal(game) and moves < core.MOVE_CAP


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_replays_are_legal_and_match_the_batch_rows(name, policy):
    rules = OPTION_SETS[name]
    result = simulate(300, start=4000, rules=rules, policy=policy, seed=5, threads=1)
    for i in range(result.games):
        _replay_on_game(
            int(result.deal[i]),
            rules,
            policy,
            result.seed,
            bool(result.won[i]),
            int(result.removed[i]),
            int(result.moves[i]),
        )


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_recorded_games_match_the_batch_rows(name, policy):
    """The move-recording playout gives every batch row (many deals, checked in the core)."""
    rules = Rules.preset(name)
    result = simulate(3000, start=10**6, rules=rules, policy=policy, seed=8, threads=2)
    code, options = core.POLICIES[policy], rules.core_options()
    for i in range(0, result.games, 3):
        won, removed, moves, score, codes = core.play(code, options, 8, int(result.deal[i]))
        assert (won, removed, moves, score) == (
            result.won[i],
            result.removed[i],
            result.moves[i],
            result.score[i],
        )
        assert len(codes) == moves


def test_result_replay_and_codes():
    result = simulate(5, start=18, rules="msc", policy="random", seed=4)
    assert result.code(0) == "PY1-M-AAAAAAS"
    assert result.replay(0) == replay("PY1-M-AAAAAAS", policy="random", seed=4)
    assert replay(18, rules="msc", policy="random", seed=4) == result.replay(0)


def test_winning_replay_clears_the_pyramid():
    result = simulate(200, policy="greedy", threads=1)
    i = int(np.flatnonzero(result.won)[0])
    game = Game(result.code(i))
    game.play_all(result.replay(i))
    assert game.status is Status.WON and game.pyramid_removed == 28


# ---- every preset and option runs; results make sense ------------------------------------------


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_every_rule_set_runs(name, policy):
    rules = OPTION_SETS[name]
    r = simulate(3000, rules=rules, policy=policy, seed=1, threads=2)
    assert r.games == 3000 and r.rules == rules and r.policy == policy
    assert np.array_equal(r.score, r.removed.astype(np.uint16) * 10)
    assert np.all(r.removed <= 28) and np.all(r.moves >= r.removed // 2)
    if rules.win == "pyramid":
        assert np.array_equal(r.won, r.removed == 28)
    else:
        assert np.all(r.removed[r.won] == 28)
    assert r.histogram().sum() == 3000 and len(r.histogram()) == 29


def test_greedy_beats_random():
    for name in ("pyramide", "msc"):
        assert (
            simulate(4000, rules=name).win_rate
            > simulate(4000, rules=name, policy="random", seed=1).win_rate + 0.2
        )


def test_no_move_limit_is_hit():
    """Many redeals: the longest games still fit the move record (and uint16)."""
    r = simulate(3000, rules=Rules(waste_at_deal=0, redeals=63), policy="random", seed=2)
    assert int(r.moves.max()) < core.MAX_RECORD
    # the random policy's safety bound under unlimited redeals never triggers in practice
    # (docs/simulation.md): its longest games are far shorter
    assert core.MOVE_CAP + 52 < core.MAX_RECORD
    for rules in ("unlimited", "pyramide"):
        r = simulate(100_000, rules=rules, policy="random", seed=2, threads=2)
        assert int(r.moves.max()) < core.MOVE_CAP // 2


@pytest.mark.parametrize("cap", [40, 150])
def test_random_move_cap_ends_the_same_games_everywhere(cap):
    """Under unlimited redeals a random game also ends at a recycle once it has played
    MOVE_CAP moves. Lowered here (the hooks take the cap of a batch or a game) so that it
    triggers often: the lockstep, scalar and engine-based reference playouts end the same
    games at the same move."""
    hit = 0  # games that reached the bound
    for rules in [r for r in LOCKSTEP_RULES if r.redeals == "unlimited"]:
        options, n = rules.core_options(), 1001
        rows = [run_on(path, "random", options, 5, 300, n, move_cap=cap) for path in sim_paths()]
        for other in rows[1:]:
            for a, b in zip(rows[0], other):
                assert np.array_equal(a, b)
        hit += int(np.sum(rows[0][2] >= cap))
        assert int(rows[0][2].max()) <= cap + 52
    assert hit > 100
    for rules in OPTION_SETS.values():
        if rules.redeals != "unlimited":
            continue
        options = rules.core_options()
        for number in range(0, 3000, 15):
            got = hooks.play(core.POLICIES["random"], options, 99, number, cap)
            assert got == hooks.reference(core.POLICIES["random"], options, 99, number, cap)[:4]
    with pytest.raises(ValueError, match="move cap"):
        hooks.play(0, Rules().core_options(), 1, 1, core.MOVE_CAP + 1)
    # nothing process-wide changed: a game under the default cap is as before
    assert (
        hooks.play(1, Rules().core_options(), 1, 5)
        == core.play(1, Rules().core_options(), 1, 5)[:4]
    )


# ---- statistics ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "wins, games, low, high",
    [
        (50, 100, 0.40383, 0.59617),
        (0, 10, 0.0, 0.27753),
        (10, 10, 0.72247, 1.0),
        (1, 1, 0.20654, 1.0),
        (6687, 10000, 0.65941, 0.67786),
    ],
)
def test_wilson_interval(wins, games, low, high):
    lo, hi = sim_module.wilson_interval(wins, games)
    assert lo == pytest.approx(low, abs=2e-5) and hi == pytest.approx(high, abs=2e-5)


def test_summary_and_exports():
    r = simulate(2000, start=0, rules="three-pass", threads=1)
    low, high = r.ci95
    assert low < r.win_rate < high and r.wins == int(r.won.sum())
    assert r.games_per_second > 0 and len(r) == 2000
    text = r.summary()
    assert "three-pass" in text and f"{r.win_rate * 100:.2f}%" in text
    assert re.search(r"^\s+28\s+[\d,]+\s+[\d.]+%", text, re.M)  # the histogram's 28 row
    data = json.loads(json.dumps(r.to_dict()))
    assert data["games"] == 2000 and data["ci95"] == [low, high]
    assert sum(data["removed_histogram"].values()) == 2000
    full = r.to_dict(arrays=True)
    assert full["won"] == r.won.tolist() and len(full["deal"]) == 2000
    assert "2,000 games" in repr(r) and isinstance(r, SimulationResult)


def test_to_pandas():
    r = simulate(100, threads=1)
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="needs pandas"):
            r.to_pandas()
        return
    df = r.to_pandas()
    assert list(df.columns) == [
        *("deal", "code", "rules", "policy", "won", "moves", "removed", "nodes", "seconds"),
        "score",
    ]
    assert len(df) == 100
    assert df.attrs["games"] == 100


def test_plot():
    r = simulate(500, threads=1)
    try:
        import matplotlib

        matplotlib.use("Agg")
    except ImportError:
        with pytest.raises(ImportError, match=r"pyramid-solitaire\[plot\]"):
            r.plot()
        return
    fig = r.plot()
    assert len(fig.axes) == 2


def test_progress_bar_and_callback(capsys):
    from pyramid_solitaire._parallel import Progress

    bar = Progress(100, "games", True)  # a tqdm bar on stderr
    bar.update(40)
    bar.update(60)
    bar.close()
    assert "/100" in capsys.readouterr().err
    seen = []
    bar = Progress(100, "games", lambda done, total: seen.append((done, total)))
    bar.update(40)
    bar.update(60)
    assert seen == [(40, 100), (100, 100)]
    silent = Progress(100, "games", False)
    silent.update(100)
    assert capsys.readouterr().err == ""


def test_doctests():
    result = doctest.testmod(sim_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


# ---- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({}, "exactly one of games"),
        ({"games": 5, "deals": [1]}, "exactly one of games"),
        ({"games": 0}, "games must be 1.."),
        ({"games": -3}, "games must be"),
        ({"games": 2.5}, "games must be a whole number"),
        ({"games": True}, "games must be a whole number"),
        ({"games": "ten"}, "games must be a whole number"),
        ({"games": 10, "start": -1}, "start must be 0.."),
        ({"games": 10, "start": MAX_DEAL_NUMBER}, "runs past the last deal number"),
        ({"deals": []}, "deals is empty"),
        ({"deals": [[1, 2]]}, "deal 1: expected 52 cards"),
        ({"deals": np.zeros((2, 3, 4), np.int64)}, "1-D (deal numbers) or 2-D"),
        ({"deals": [1, -2]}, "deal 2: a deal number is a whole number 0.."),
        ({"deals": np.array([1, -2])}, "deal numbers must be 0.."),
        ({"deals": [MAX_DEAL_NUMBER + 1]}, "deal 1: a deal number"),
        ({"deals": [2**70]}, "deal"),
        ({"deals": [1.5]}, "deal 1: a deal is"),
        ({"deals": np.array([1.5])}, "integer deal numbers"),
        ({"deals": 7}, "deals is a sequence"),
        ({"deals": "123"}, "deals is a sequence"),
        ({"deals": [1], "start": 3}, "start goes with games"),
        ({"games": 5, "policy": "best"}, "unknown policy 'best'"),
        ({"games": 5, "policy": "greedy", "max_seconds": 1}, "budgets of the solver"),
        ({"games": 5, "policy": 1}, "policy must be a name"),
        ({"games": 5, "rules": "nope"}, "unknown rules preset"),
        ({"games": 5, "rules": 3}, "rules must be"),
        ({"games": 5, "seed": -1}, "seed must be 0.."),
        ({"games": 5, "seed": 2**64}, "seed must be 0.."),
        ({"games": 5, "seed": 1.5}, "seed must be a whole number"),
        ({"games": 5, "threads": 0}, "threads must be >= 1"),
        ({"games": 5, "threads": -1000}, "leaves no thread"),
        ({"games": 5, "threads": 1.5}, "threads must be a whole number"),
        ({"games": 5, "chunk_size": 0}, "chunk_size must be"),
    ],
)
def test_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        simulate(**kwargs)


def test_threads_forms():
    from pyramid_solitaire._parallel import resolve_threads

    cpus = os.cpu_count() or 1
    assert resolve_threads(None) == cpus and resolve_threads(-1) == cpus
    assert resolve_threads(3) == 3
    if cpus >= 2:
        assert resolve_threads(-2) == cpus - 1
    assert simulate(10, threads=1).threads == 1


def test_replay_bad_input():
    with pytest.raises(ValueError, match="needs its simulation's seed"):
        replay(3, policy="random")
    with pytest.raises(ValueError, match="custom rules"):
        replay("PY1-X-AAAAAAS")
    with pytest.raises(ValueError, match="a deal number is a whole number 0.."):
        replay(-1)
    with pytest.raises(ValueError, match="unknown policy"):
        replay(1, policy="nope")
    assert replay("PY1-X-AAAAAAS", rules=Rules(redeals=3)) == replay(18, rules=Rules(redeals=3))


@pytest.mark.parametrize("name", ["pair-with-covering", "pyramide"])
def test_core_rejects_an_unknown_policy_code(name):
    """The core's entry points answer an unknown policy code with a clear error, on the engine
    playout (pair_with_covering) as on the specialised playouts."""
    options = OPTION_SETS[name].core_options()
    for play in (core.play, hooks.reference):
        with pytest.raises(ValueError, match="unknown policy code"):
            play(len(core.POLICIES), options, 0, 5)


# ---- the command line ---------------------------------------------------------------------------


def run_cli(capsys, *argv):
    return run_main(capsys, *argv)


def test_cli_text(capsys):
    status, out, err = run_cli(capsys, "simulate", "--games", "3000", "--threads", "2")
    assert status == 0 and err == ""
    expected = simulate(3000)
    assert f"won {expected.wins:,}: {expected.win_rate * 100:.2f}%" in out
    assert "95% interval" in out and "games/s" in out
    assert re.search(r"removed\s+games\s+share", out)


def test_cli_json(capsys):
    status, out, err = run_cli(
        capsys,
        "simulate",
        "--games",
        "2000",
        "--start",
        "PY1-M-AAAAABA",
        "--policy",
        "random",
        "--seed",
        "9",
        "--json",
    )
    assert status == 0 and err == ""
    data = json.loads(out)
    expected = simulate(2000, start=26, rules="msc", policy="random", seed=9)
    assert data["games"] == 2000 and data["wins"] == expected.wins
    assert data["win_rate"] == expected.win_rate and data["ci95"] == list(expected.ci95)
    assert data["policy"] == "random" and data["rules"]["name"] == "msc"
    assert data["games_per_second"] > 0 and data["seed"] == 9


def test_cli_rule_flags(capsys):
    status, out, err = run_cli(
        capsys,
        "simulate",
        "--games",
        "500",
        "--rules",
        "unlimited",
        "--pair-with-covering",
        "--json",
    )
    data = json.loads(out)
    assert status == 0 and data["rules"]["pair_with_covering"] is True
    assert (
        data["wins"]
        == simulate(500, rules=Rules.preset("unlimited").replace(pair_with_covering=True)).wins
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--games", "0"], "--games must be 1.."),
        (["--games", "ten"], "--games must be a whole number"),
        (["--games", "10", "--start", "x"], "--start must be a whole number"),
        (["--games", "10", "--start", "PY1-Q-AAAAAAA"], "'Q'"),
        (["--games", "10", "--policy", "foo"], "--policy must be one of"),
        (["--games", "10", "--threads", "0"], "threads must be >= 1"),
        (["--games", "10", "--seed", "-4"], "seed must be 0.."),
        (["--games", "10", "--draw", "3"], "--draw 3 needs --redeals 0"),
        (["--games", "10", "--rules", "nope"], "unknown rules preset"),
    ],
)
def test_cli_bad_input(capsys, argv, message):
    status, out, err = run_cli(capsys, "simulate", *argv)
    assert status == 2 and out == ""
    assert ERROR_LINE.match(err.strip()) and len(err.strip().splitlines()) == 1, err
    assert message in err


# ---- the solver policy ------------------------------------------------------------------------


def test_solver_policy_is_perfect_play():
    from pyramid_solitaire import Game, solve_many

    result = simulate(300, rules="three-pass", policy="solver", threads=2)
    ref = solve_many(np.arange(300), "three-pass", max_removed=True, threads=1)
    assert (result.won == (ref.winnable == 1)).all() and result.decided.all()
    assert (result.removed == ref.max_removed).all()
    assert (result.score == 10 * result.removed.astype(np.uint16)).all()
    assert (result.moves == ref.n_moves).all()
    for i in (0, 1, 2, 3, 7):
        moves = result.replay(i)
        assert len(moves) == result.moves[i]
        game = Game(Deal.from_number(int(result.deal[i])), "three-pass")
        game.play_all(moves)
        assert game.is_won == bool(result.won[i]) and game.pyramid_removed == result.removed[i]


def test_solver_policy_is_deterministic_and_beats_greedy():
    a = simulate(2000, rules="pyramide", policy="solver", threads=1)
    b = simulate(2000, rules="pyramide", policy="solver", threads=2, chunk_size=7)
    for name in ("won", "removed", "moves", "score"):
        assert (getattr(a, name) == getattr(b, name)).all(), name
    greedy = simulate(2000, rules="pyramide", policy="greedy", threads=1)
    assert a.wins >= greedy.wins and (a.removed >= greedy.removed).all()


def test_solver_policy_budget_leaves_games_undecided():
    r = simulate(40, rules="msc", policy="solver", max_nodes=50, threads=1)
    assert r.undecided > 0 and not r.decided.all()
    assert r.win_rate == r.wins / (r.games - r.undecided)
    assert r.to_dict()["undecided"] == r.undecided and "undecided" in r.summary()
    assert r.histogram().sum() == r.removed_known.sum()


def test_cli_solver_policy(capsys):
    assert (
        main(["simulate", "--games", "200", "--policy", "solver", "--json", "--threads", "1"]) == 0
    )
    d = json.loads(capsys.readouterr().out)
    assert d["policy"] == "solver" and d["games"] == 200 and d["undecided"] == 0
    assert main(["simulate", "--games", "5", "--max-seconds", "1"]) == 2
    assert "go with --policy solver" in capsys.readouterr().err


def test_simd_path_says_what_ran():
    """SimulationResult.simd names the path a run took: the lockstep's where AVX-512 is in use
    and the rules and policy are the lockstep's, else the scalar playouts; none for the
    solver policy. The path is resolved at import, so the scalar one is checked in a process
    started with PYRAMID_SIMD=off."""
    import subprocess
    import sys

    from pyramid_solitaire import simd_path

    layout = repo_file("data", "msc-1500-deals.txt").read_text().splitlines()[0]
    code = (
        "import json, sys\n"
        "from pyramid_solitaire import simulate, simd_path\n"
        "r = simulate(300, rules='msc', threads=1)\n"
        "print(json.dumps([simd_path(), r.simd, r.to_dict()['simd'],\n"
        "    simulate(300, rules='classic-draw3', policy='random', seed=1).simd,\n"
        "    simulate(50, rules={'preset': 'unlimited', 'pair_with_covering': True}).simd,\n"
        "    simulate(deals=[sys.argv[1]], rules='msc').simd, 'AVX-512 path' in r.summary()]))\n"
    )
    vector = "avx512" if core.cpu_features()["avx512"] else "scalar"
    for value, path in (("auto", vector), ("off", "scalar")):
        env = dict(os.environ, PYRAMID_SIMD=value)
        out = subprocess.run(
            [sys.executable, "-c", code, layout],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        # a card list and the engine playout's rules take the scalar playouts on every path
        assert json.loads(out) == [path, path, path, path, "scalar", "scalar", path == "avx512"]
    assert simd_path() == core.simd_path() == vector
    assert simulate(3, rules="pyramide", policy="solver").simd is None


@pytest.mark.parametrize(
    "value, path",
    [("off", "scalar"), ("", None), ("auto", None), ("AVX512", None), ("bogus", None)],
)
def test_pyramid_simd_environment(value, path):
    """PYRAMID_SIMD chooses the path at import: off is the scalar one; auto (or unset, or an
    unknown value, which warns) the best the CPU has; avx512 warns where there is none."""
    import subprocess
    import sys

    code = (
        "import warnings; warnings.simplefilter('always')\n"
        "from pyramid_core import simulate as s\n"
        "print(s.simd_path(), s.cpu_features()['avx512'])"
    )
    env = dict(os.environ, PYRAMID_SIMD=value)
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    got, has = run.stdout.split()
    expect = path or ("avx512" if has == "True" else "scalar")
    assert got == expect
    warned = "RuntimeWarning" in run.stderr
    assert warned == (value == "bogus" or (value.lower() == "avx512" and has != "True"))


@pytest.mark.parametrize("hide", ["avx512", "AVX512, sse9", " sse9 ,"])
def test_disable_cpu_features_environment(hide):
    """PYRAMID_DISABLE_CPU_FEATURES (as numpy's NPY_DISABLE_CPU_FEATURES) makes the core see a
    CPU without the named instruction sets: cpu_features says so, auto and PYRAMID_SIMD cannot
    choose them (asking warns), and the games stay the same."""
    import subprocess
    import sys

    code = (
        "import warnings; warnings.simplefilter('always')\n"
        "from pyramid_core import simulate as s\n"
        "from pyramid_solitaire import simulate\n"
        "f = s.cpu_features()\n"
        "print(int(f['avx512']), s.simd_path(),"
        " int(simulate(2000, rules='msc', threads=1).wins))"
    )
    names = {n.strip().lower() for n in hide.split(",") if n.strip()}

    def run(**env):
        env = {k: v for k, v in dict(os.environ, PYRAMID_SIMD="avx512", **env).items() if v}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out

    real = run(PYRAMID_DISABLE_CPU_FEATURES="").stdout.split()  # the CPU as it is
    got = run(PYRAMID_DISABLE_CPU_FEATURES=hide)
    avx512, path, wins = got.stdout.split()
    assert avx512 == str(int(real[0] == "1" and "avx512" not in names))
    assert path == ("avx512" if avx512 == "1" else "scalar")
    assert ("RuntimeWarning" in got.stderr) == (avx512 == "0")
    assert int(wins) == int(real[2]) == simulate(2000, rules="msc", threads=1).wins


def test_the_solver_policy_plays_shortest_lines_when_asked():
    """simulate(policy="solver", shortest=True): the won games' moves are solve_many's
    shortest lines (min_moves); the same wins; replay gives such a line; only for the
    solver policy."""
    from pyramid_solitaire import solve_many

    any_line = simulate(deals=range(150), rules="msc", policy="solver")
    short = simulate(deals=range(150), rules="msc", policy="solver", shortest=True)
    best = solve_many(range(150), "msc", objective="min_moves")
    won = best.winnable == 1
    assert short.wins == any_line.wins == int(won.sum())
    assert np.array_equal(short.moves[won], best.n_moves[won])
    assert np.all(short.moves[won] <= any_line.moves[won]) and np.any(short.moves < any_line.moves)
    i = int(np.flatnonzero(won)[0])
    assert len(short.replay(i)) == best.n_moves[i] and short.to_dict()["shortest"] is True
    assert "shortest" not in any_line.to_dict()
    with pytest.raises(ValueError, match="shortest goes with policy 'solver'"):
        simulate(10, policy="greedy", shortest=True)
