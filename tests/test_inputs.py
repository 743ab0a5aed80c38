"""Every entry point reads deals, rules and numbers through one validation path: the same
bad input gives the same ValueError everywhere, and nothing reaches the core that the core
cannot handle."""

from __future__ import annotations

import json
import math
import threading

import numpy as np
import pytest

from pyramid_solitaire import (
    Cancelled,
    Deal,
    Game,
    Rules,
    memory_needed,
    replay,
    simulate,
    solve,
    solve_many,
)
from pyramid_solitaire.jsonout import dumps
from pyramid_solitaire.simulate import _BLOCK

GOOD_DECK = Deal.from_number(7).cards

# Bad decks as 2-D arrays: the native code must never see them.
BAD_DECK_ARRAYS = {
    "out of range": np.full((2, 52), 300, dtype=np.int64),
    "negative": np.full((1, 52), -1, dtype=np.int32),
    "one card 52 times": np.full((3, 52), 5, dtype=np.uint8),
    "a duplicate": np.array([list(range(51)) + [0]]),
    "51 columns": np.zeros((2, 51), dtype=np.uint8),
    "floats": np.zeros((2, 52), dtype=np.float64),
    "bools": np.zeros((2, 52), dtype=np.bool_),
    "3-D": np.zeros((2, 52, 1), dtype=np.uint8),
    "empty": np.zeros((0, 52), dtype=np.uint8),
}


def _entry_points():
    """Each batch entry point as a function of its deals."""
    return {
        "solve_many": lambda deals: solve_many(deals, threads=1),
        "simulate greedy": lambda deals: simulate(deals=deals, threads=1),
        "simulate random": lambda deals: simulate(deals=deals, policy="random", seed=1, threads=1),
        "simulate solver": lambda deals: simulate(deals=deals, policy="solver", threads=1),
    }


@pytest.mark.parametrize("entry", list(_entry_points()))
@pytest.mark.parametrize("case", list(BAD_DECK_ARRAYS))
def test_bad_deck_arrays_raise_everywhere(entry, case):
    with pytest.raises(ValueError) as info:
        _entry_points()[entry](BAD_DECK_ARRAYS[case])
    assert "deal" in str(info.value) or "deck" in str(info.value)


@pytest.mark.parametrize("entry", list(_entry_points()))
def test_good_decks_and_numbers_agree_everywhere(entry):
    """The same deals as numbers, codes, Deals and a deck array give the same results."""
    numbers = np.arange(40, 60)
    decks = np.array([Deal.from_number(int(n)).cards for n in numbers], dtype=np.int16)
    fn = _entry_points()[entry]
    a, b, c = fn(numbers), fn([Deal.from_number(int(n)).code for n in numbers]), fn(decks)
    for name in ("winnable", "won"):
        if hasattr(a, name):
            assert np.array_equal(getattr(a, name), getattr(b, name))
            if entry != "simulate random":  # a card list seeds by its row, not its number
                assert np.array_equal(getattr(a, name), getattr(c, name))


def test_single_deal_entry_points_share_the_checks():
    bad = [int(c) for c in GOOD_DECK]
    bad[3] = bad[4]
    for fn in (Game, solve, lambda d: replay(Deal.from_cards(d))):
        with pytest.raises(ValueError, match="appears twice"):
            fn(bad)
    for fn in (Game, solve, replay):
        with pytest.raises(ValueError, match="deal number"):
            fn(26**7)
    assert Game(np.array(GOOD_DECK)).deal.cards == GOOD_DECK
    assert Game(7).deal == Deal.from_number(7)


def test_code_rules_are_honoured_in_batches():
    """200 classic codes solved together say what they say one by one (the rules letter)."""
    codes = [Deal.from_number(n, rules="classic").code for n in range(200)]
    together = solve_many(codes, threads=2)
    assert together.rules == Rules.preset("classic")
    alone = [solve(c).winnable for c in codes]
    assert list(together.winnable == 1) == alone
    assert sum(alone) < 30  # classic is rarely winnable (pyramide would say ~137)


@pytest.mark.parametrize(
    "call",
    [
        lambda: solve_many(["PY1-C-AAAAAAA"], rules="msc"),
        lambda: solve("PY1-C-AAAAAAA", rules="msc"),
        lambda: Game("PY1-C-AAAAAAA", rules="msc"),
        lambda: simulate(10, start="PY1-C-AAAAAAA", rules="msc"),
        lambda: simulate(deals=["PY1-C-AAAAAAA"], rules="msc"),
        lambda: replay("PY1-C-AAAAAAA", rules="msc"),
    ],
)
def test_a_code_conflicting_with_rules_raises(call):
    with pytest.raises(ValueError, match="names the classic rules"):
        call()


def test_mixed_rules_in_one_batch_raise():
    with pytest.raises(ValueError, match="one rule set"):
        solve_many(["PY1-C-AAAAAAA", "PY1-M-AAAAAAA"])


def test_start_code_gives_number_and_rules():
    r = simulate(50, start="PY1-M-AAAAABA", threads=1)
    assert r.rules == Rules.preset("msc") and r.deals["first"] == 26


@pytest.mark.parametrize(
    "rules, expected",
    [
        ({"name": "msc"}, Rules.preset("msc")),
        ({"preset": "msc", "redeals": 1}, Rules.preset("msc").replace(redeals=1)),
        ({"letter": "C"}, Rules.preset("classic")),
        (Rules.preset("msc").describe_dict(), Rules.preset("msc")),
        (Rules(redeals=5).describe_dict(), Rules(redeals=5)),
    ],
)
def test_rules_dicts(rules, expected):
    assert Rules.coerce(rules) == expected
    assert simulate(20, rules=rules, threads=1).rules == expected


@pytest.mark.parametrize(
    "rules",
    [
        {"nme": "msc"},
        {"name": "msc", "letter": "C"},
        {"name": "nope"},
        {"redeals": "lots"},
        5,
        ["msc"],
    ],
)
def test_bad_rules_raise_everywhere(rules):
    for call in (
        lambda: Rules.coerce(rules),
        lambda: simulate(5, rules=rules),
        lambda: solve_many([1], rules=rules),
        lambda: Game(1, rules=rules),
        lambda: solve(1, rules=rules),
    ):
        with pytest.raises(ValueError):
            call()


@pytest.mark.parametrize(
    "name, value",
    [
        ("max_nodes", 2**70),
        ("max_nodes", np.int64(10**6)),
        ("max_nodes", "100000"),
        ("max_nodes", 1e6),
        ("max_seconds", np.float32(5)),
        ("max_seconds", "2.5"),
        ("max_seconds", float("inf")),
        ("max_memory", "100MB"),
        ("max_memory", np.int64(1 << 26)),
    ],
)
def test_numbers_accepted_where_they_make_sense(name, value):
    s = solve("PY1-M-AAAAAAS", **{name: value})
    assert s.winnable is True


@pytest.mark.parametrize(
    "name, value",
    [
        ("max_nodes", 0),
        ("max_nodes", True),
        ("max_nodes", 1.5),
        ("max_nodes", "\u00b2"),
        ("max_nodes", "\u0663"),
        ("max_nodes", float("nan")),
        ("max_nodes", "9" * 200),
        ("max_seconds", float("nan")),
        ("max_seconds", -1),
        ("max_seconds", "soon"),
        ("max_memory", "99999999999 GB"),
        ("max_memory", 10),
        ("max_memory", "5 parsecs"),
        ("max_memory", 2**80),
    ],
)
def test_numbers_refused_with_their_name(name, value):
    with pytest.raises(ValueError, match=name):
        solve("PY1-M-AAAAAAS", **{name: value})


@pytest.mark.parametrize("value", [10**6, 0, True, "many", 2.5])
def test_thread_counts_checked_and_capped(value):
    with pytest.raises(ValueError, match="threads"):
        simulate(10, threads=value)


def test_long_input_is_quoted_short():
    with pytest.raises(ValueError) as info:
        Game("PY1-" + "Z" * 100_000)
    assert len(str(info.value)) < 300


def test_memory_is_checked_before_allocating():
    assert memory_needed(2_000_000_000) == 28_000_000_000
    with pytest.raises(ValueError, match="arrays=False"):
        simulate(8_000_000_000)
    assert memory_needed(2_000_000_000, arrays=False) < 100 * 2**20


def test_totals_only_equal_the_arrays(monkeypatch):
    import importlib

    sim = importlib.import_module("pyramid_solitaire.simulate")
    monkeypatch.setattr(sim, "_BLOCK", 1000)
    full = simulate(4500, start=3, rules="msc", policy="random", seed=11, threads=2)
    totals = simulate(4500, start=3, rules="msc", policy="random", seed=11, threads=2, arrays=False)
    assert totals.won is None and full.won is not None
    a, b = full.to_dict(), totals.to_dict()
    for d in (a, b):
        d.pop("seconds"), d.pop("games_per_second")
    assert a == b
    with pytest.raises(ValueError, match="arrays=False"):
        totals.replay(0)
    assert _BLOCK > 1000


def test_json_is_strict_and_describes_the_run():
    r = simulate(200, start=10, rules="three-pass", policy="random", seed=2**64 - 1, threads=1)
    text = dumps(r.to_dict())
    data = json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert data["seed"] == str(2**64 - 1)
    assert data["rules"]["redeals"] == 2 and data["rules"]["name"] == "three-pass"
    assert data["deals"] == {"count": 200, "first": 10, "last": 209}
    greedy = [simulate(100, threads=t).to_dict() for t in (1, 2)]
    for d in greedy:
        for k in ("seconds", "games_per_second", "threads"):
            d.pop(k)
    assert greedy[0] == greedy[1] and greedy[0]["seed"] is None
    # (msc deals 0-3 need more than one position to decide; deal 4 is proved lost in one)
    undecided = simulate(4, rules="msc", policy="solver", max_nodes=1, threads=1).to_dict()
    assert undecided["undecided"] == 4 and math.isnan(undecided["win_rate"])
    assert json.loads(dumps(undecided))["win_rate"] is None  # NaN written as null


LAYOUT = ["deal", "code", "rules", "policy", "won", "moves", "removed", "nodes", "seconds"]


def test_solve_many_to_pandas():
    pd = pytest.importorskip("pandas")
    r = solve_many(["PY1-M-AAAAAAS", "PY1-M-AAAAAAA"], max_nodes=10**6)
    df = r.to_pandas()
    assert list(df.columns) == [*LAYOUT, "optimal", "stopped_by"]
    assert df["deal"].tolist() == [18, 0] and df.attrs["rules"]["name"] == "msc"
    assert df["code"].tolist() == ["PY1-M-AAAAAAS", "PY1-M-AAAAAAA"]
    assert isinstance(df, pd.DataFrame)


def test_progress_callback_and_cancel_event():
    seen = []
    simulate(50_000, threads=2, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (50_000, 50_000) and len(seen) > 1
    stop = threading.Event()

    def stop_soon(done, total):
        if done >= 4096:
            stop.set()

    with pytest.raises(Cancelled):
        simulate(2_000_000, threads=1, chunk_size=4096, progress=stop_soon, cancel=stop)
    stop.set()
    with pytest.raises(Cancelled):
        solve_many(np.arange(5000), rules="msc", cancel=stop)
    with pytest.raises(ValueError, match="cancel"):
        solve_many([1], cancel="yes")


LONG_SEARCH = dict(deal="PY1-X-AAAAAAS", rules=Rules(waste_at_deal=0, redeals=16, win="all"))


@pytest.fixture(scope="module")
def long_search_seconds() -> float:
    import time

    t0 = time.perf_counter()
    full = solve(LONG_SEARCH["deal"], LONG_SEARCH["rules"])
    assert full.winnable is False and full.nodes > 10**7
    return time.perf_counter() - t0


@pytest.mark.alone  # (speeds compared: conftest.py)
@pytest.mark.parametrize(
    "call",
    [
        lambda: solve(LONG_SEARCH["deal"], LONG_SEARCH["rules"]),
        lambda: solve_many([LONG_SEARCH["deal"]] * 4, LONG_SEARCH["rules"], threads=2),
    ],
)
def test_ctrl_c_stops_a_long_native_search(call, long_search_seconds):
    """Ctrl-C in the middle of a search several seconds long (interrupt_main raises it in
    the main thread, as the signal would) comes back long before the search would end: the
    ratio to the full search, measured in the same run, not a time limit."""
    import _thread
    import time

    full_seconds = long_search_seconds
    timer = threading.Timer(0.2, _thread.interrupt_main)
    t0 = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        call()
    stopped = time.perf_counter() - t0
    timer.join()
    assert stopped < full_seconds / 3
    assert [t.name for t in threading.enumerate() if t.name.startswith("pyramid")] == []
