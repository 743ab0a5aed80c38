"""The simulator's batch entry point for explicit layouts (pyramid_core.simulate.run_decks):
the same rows as the numbered deals' batch, any slice, any threads, and clear errors."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from pyramid_core import simulate as core
from pyramid_core.shuffle import MAX_DEAL_NUMBER
from pyramid_core.shuffle import decks as shuffle_decks
from pyramid_solitaire import Deal, Game, Rules

from conftest import repo_file

DATA = repo_file("data")
RULE_SETS = {
    **{
        name: Rules.preset(name)
        for name in ["pyramide", "three-pass", "unlimited", "classic", "classic-draw3", "msc"]
    },
    "stock-top-win-all": Rules(waste_at_deal=0, redeals=1, stock_top_playable=True, win="all"),
    "unlimited-covering": Rules.preset("unlimited").replace(pair_with_covering=True),
    "pair-waste-top-two": Rules(pair_waste_top_two=True, redeals=2),
    "draw3-covering-all": Rules(draw=3, redeals=0, pair_with_covering=True, win="all"),
}


def _out(n):
    return [
        np.zeros(n, np.uint8),
        np.zeros(n, np.uint8),
        np.zeros(n, np.uint16),
        np.zeros(n, np.uint16),
    ]


def _decks(numbers):
    decks = np.zeros((len(numbers), 52), np.uint8)
    shuffle_decks(np.asarray(numbers, np.uint64), decks)
    return decks


NUMBERS = np.concatenate(
    [
        np.arange(40_000, 42_001, dtype=np.uint64),
        np.array([0, 18, MAX_DEAL_NUMBER, 2**40, 5, 5], np.uint64),
    ]
)


@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_numbered_deals_as_decks_give_the_batch_rows(name, policy):
    """A numbered deal's shuffle with its number as key is that deal: run_decks gives run's
    arrays (the lockstep playouts where the CPU has them), whole and in slices."""
    options, code, n = RULE_SETS[name].core_options(), core.POLICIES[policy], len(NUMBERS)
    decks = _decks(NUMBERS)
    by_number, by_deck = _out(n), _out(n)
    core.run(code, options, 21, 0, NUMBERS, 0, n, *by_number)
    core.run_decks(code, options, 21, decks, NUMBERS, 0, n, *by_deck)
    for a, b in zip(by_number, by_deck):
        assert np.array_equal(a, b)
    sliced = _out(n)
    for lo, hi in [(0, 1), (1, 17), (17, 1000), (1000, n)]:
        core.run_decks(code, options, 21, decks, NUMBERS, lo, hi, *sliced)
    for a, b in zip(by_number, sliced):
        assert np.array_equal(a, b)
    assert len(np.unique(by_deck[2])) > 10  # real games


def test_keys_seed_the_random_policy_only():
    options = Rules.preset("pyramide").core_options()
    decks = _decks(NUMBERS[:500])
    keys = NUMBERS[:500]
    rows = {}
    for policy in ("greedy", "random"):
        for k in ("same", "other"):
            out = _out(500)
            core.run_decks(
                core.POLICIES[policy],
                options,
                3,
                decks,
                keys if k == "same" else keys + np.uint64(1),
                0,
                500,
                *out,
            )
            rows[policy, k] = out
    assert all(
        np.array_equal(a, b) for a, b in zip(rows["greedy", "same"], rows["greedy", "other"])
    )
    assert not np.array_equal(rows["random", "same"][2], rows["random", "other"][2])


def test_card_lists_from_the_msc_data():
    """The 1,500 msc deals are card lists: each row is the game play() records on that layout
    (the same generator key), and the recorded games replay legally on Game."""
    lines = (DATA / "msc-1500-deals.txt").read_text().splitlines()
    decks = np.array([[int(c) for c in Deal(line).cards] for line in lines], np.uint8)
    keys = np.arange(len(lines), dtype=np.uint64)
    rules = Rules.preset("msc")
    options = rules.core_options()
    for policy in ("greedy", "random"):
        out = _out(len(lines))
        core.run_decks(core.POLICIES[policy], options, 8, decks, keys, 0, len(lines), *out)
        for i in range(0, len(lines), 25):
            won, removed, moves, score, codes = core.play(
                core.POLICIES[policy], options, 8, i, deck=list(decks[i])
            )
            assert (won, removed, moves, score) == tuple(int(a[i]) for a in out)
            game = Game(Deal(lines[i]), rules)
            for c in codes:
                game.play(game._to_move(c))
            assert game.is_won == won and game.pyramid_removed == removed
        if policy == "greedy":
            assert 0.4 < out[0].mean() < 0.65


def test_threads_on_disjoint_ranges():
    options = Rules.preset("msc").core_options()
    decks, n = _decks(NUMBERS), len(NUMBERS)
    one = _out(n)
    core.run_decks(core.POLICIES["random"], options, 4, decks, NUMBERS, 0, n, *one)
    shared = _out(n)
    cuts = [0, 300, 301, 1100, n]
    threads = [
        threading.Thread(
            target=core.run_decks,
            args=(core.POLICIES["random"], options, 4, decks, NUMBERS, lo, hi, *shared),
        )
        for lo, hi in zip(cuts, cuts[1:])
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, b in zip(one, shared):
        assert np.array_equal(a, b)


def test_read_only_inputs():
    decks, keys = _decks(NUMBERS[:20]), NUMBERS[:20].copy()
    decks.flags.writeable = keys.flags.writeable = False
    out = _out(20)
    core.run_decks(core.POLICIES["greedy"], Rules().core_options(), 0, decks, keys, 0, 20, *out)
    assert out[1].max() > 0


def test_empty_range():
    out = _out(3)
    core.run_decks(
        core.POLICIES["greedy"],
        Rules().core_options(),
        0,
        np.zeros((0, 52), np.uint8),
        np.zeros(0, np.uint64),
        0,
        0,
        *out,
    )
    assert not any(a.any() for a in out)


def _call(decks=None, keys=None, lo=0, hi=None, out=None, policy=None):
    decks = _decks(NUMBERS[:10]) if decks is None else decks
    keys = NUMBERS[:10] if keys is None else keys
    hi = len(decks) if hi is None else hi
    out = _out(10) if out is None else out
    core.run_decks(
        core.POLICIES["random"] if policy is None else policy,
        Rules().core_options(),
        0,
        decks,
        keys,
        lo,
        hi,
        *out,
    )


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(decks=np.zeros((10, 51), np.uint8)), r"decks must be n x 52 .* 10 x 51"),
        (dict(keys=NUMBERS[:9]), r"one entry per row of decks: 9 keys, 10 rows"),
        (dict(hi=11), r"range 0 \.\. 11 outside the decks array \(10 rows\)"),
        (dict(lo=-1), r"range -1 \.\. 10 outside the decks array"),
        (dict(lo=5, hi=4), r"range 5 \.\. 4 outside the decks array"),
        (
            dict(out=_out(10)[:3] + [np.zeros(9, np.uint16)]),
            r"range 0 \.\. 10 outside the result array score \(9 entries\)",
        ),
        (
            dict(decks=np.zeros((10, 52), np.uint8)),
            r"decks row 0 is not a permutation of the card indices 0\.\.51",
        ),
        (
            dict(
                decks=np.where(_decks(NUMBERS[:10]) == 51, 52, _decks(NUMBERS[:10])).astype(
                    np.uint8
                ),
                lo=3,
            ),
            r"decks row 3 is not a permutation",
        ),
        (dict(decks=np.zeros((10, 52), np.int64)), r"dtype mismatch"),
        (dict(decks=np.zeros((52, 10), np.uint8).T), r"contiguous"),
        (dict(decks=np.zeros(520, np.uint8)), r"dimensions"),
        (dict(policy=7), r"unknown policy"),
    ],
)
def test_bad_arguments_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        _call(**kwargs)
