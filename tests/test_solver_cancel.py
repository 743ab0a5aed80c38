"""The native solver's cancel flag: a byte another thread sets to stop a search running without
the GIL. Promptness is checked by node counts against the uncancelled run, never by times."""

import threading
import time

import numpy as np
import pytest

from pyramid_core.solver import OBJECTIVES, STOPS, solve_decks, solve_table
from pyramid_solitaire import Deal, Game, Rules

from conftest import repo_file

DATA = repo_file("data")
MSC_DEALS = (DATA / "msc-1500-deals.txt").read_text().splitlines()
MSC_OPTIMAL = [int(x) for x in (DATA / "msc-1500-optimal-lengths.txt").read_text().split()]
CANCELLED = next(k for k, v in STOPS.items() if v == "cancelled")
# msc deal 170: one of the slowest shortest lines of the 1,500 under msc (A*: about 240,000
# positions).
LONG_MIN_MOVES = 170
# The msc file's deal 492 under pyramide: A* takes about a million positions (the slowest of
# the first 600), several times the 50 ms after which the cancel test below sets its flag.
LONG_ASTAR = (492, "pyramide")


def _flag(value: int = 0) -> np.ndarray:
    return np.full(1, value, np.uint8)


def _set_later(flag, delay: float) -> threading.Thread:
    def run():
        time.sleep(delay)
        flag[0] = 1

    th = threading.Thread(target=run, daemon=True)
    th.start()
    return th


def test_stop_code_is_named():
    assert STOPS[CANCELLED] == "cancelled"


@pytest.mark.parametrize("rules", ["msc", "pyramide", "classic-draw3"])
@pytest.mark.parametrize("objective", list(OBJECTIVES))
def test_preset_flag_stops_at_once(rules, objective):
    game = Game(MSC_DEALS[LONG_MIN_MOVES], rules)
    r = solve_table(game._table, game.position, OBJECTIVES[objective], cancel=_flag(1))
    assert r["stop"] == "cancelled" and r["winnable"] == -1 and r["nodes"] <= 2048
    assert r["line"] == [] and r["optimal"] is False


def test_clear_flag_changes_nothing():
    game = Game(MSC_DEALS[0], "msc")
    for objective in OBJECTIVES.values():
        a = solve_table(game._table, game.position, objective)
        b = solve_table(game._table, game.position, objective, cancel=_flag(0))
        c = solve_table(game._table, game.position, objective, cancel=bytearray(1))
        for key in ("winnable", "stop", "optimal", "line", "max_removed", "nodes"):
            assert a[key] == b[key] == c[key], key


def test_flag_argument_is_checked():
    game = Game(MSC_DEALS[0], "msc")
    with pytest.raises(TypeError, match="writable"):
        solve_table(game._table, game.position, 0, cancel=b"\0")  # read-only
    with pytest.raises(TypeError, match="writable"):
        solve_table(game._table, game.position, 0, cancel=np.zeros((1, 1), np.uint8))
    with pytest.raises(ValueError, match="at least one byte"):
        solve_table(game._table, game.position, 0, cancel=np.zeros(0, np.uint8))


def test_flag_from_another_thread_stops_astar():
    game = Game(MSC_DEALS[LONG_ASTAR[0]], LONG_ASTAR[1])
    full = solve_table(game._table, game.position, OBJECTIVES["min_moves"])
    assert full["stop"] is None and full["optimal"] and full["nodes"] > 500_000
    flag = _flag()
    th = _set_later(flag, 0.05)
    r = solve_table(game._table, game.position, OBJECTIVES["min_moves"], cancel=flag)
    th.join()
    assert r["stop"] == "cancelled"
    assert r["nodes"] < full["nodes"] // 4
    # The win search had finished: the line it found comes back, not known to be shortest.
    assert r["winnable"] == 1 and r["optimal"] is False and r["line"]
    won = game.copy()
    won.play_all([game._to_move(c) for c in r["line"]])
    assert won.is_won


# Lost deals whose searches without the pruning take millions of positions: 63 redeals (the
# general search) and the exhaustive search for the most cards removable under msc.
LONG_DFS = [
    (Deal.from_number(0), Rules(waste_at_deal=0, redeals=63), "any"),
    (Deal.from_cards(MSC_DEALS[160]), Rules.preset("msc"), "max_removed"),
]


@pytest.mark.parametrize(
    "deal, rules, objective", LONG_DFS, ids=["redeals63-any", "msc-max_removed"]
)
def test_flag_from_another_thread_stops_the_depth_first_searches(deal, rules, objective):
    game = Game(deal, rules)
    full = solve_table(game._table, game.position, OBJECTIVES[objective], no_prune=True)
    assert full["stop"] is None and full["winnable"] == 0 and full["nodes"] > 5_000_000
    flag = _flag()
    th = _set_later(flag, 0.01)
    r = solve_table(game._table, game.position, OBJECTIVES[objective], no_prune=True, cancel=flag)
    th.join()
    assert r["stop"] == "cancelled" and r["winnable"] == -1  # never "cannot be won"
    assert r["nodes"] < full["nodes"] // 4


def _batch(decks, objective, cancel, **budgets):
    n = len(decks)
    out = dict(
        winnable=np.zeros(n, np.int8),
        n_moves=np.zeros(n, np.int32),
        max_removed=np.zeros(n, np.int32),
        nodes=np.full(n, -1, np.int64),
        seconds=np.zeros(n, np.float64),
        stop=np.zeros(n, np.int8),
        optimal=np.zeros(n, np.int8),
    )
    return out, lambda: solve_decks(
        decks,
        {k: int(v) for k, v in Rules.preset("msc").core_options().items()},
        objective,
        budgets.get("max_nodes"),
        None,
        None,
        0,
        n,
        out["winnable"],
        out["n_moves"],
        out["max_removed"],
        out["nodes"],
        out["seconds"],
        out["stop"],
        out["optimal"],
        cancel,
    )


def _decks(indices):
    return np.array(
        [[int(c) for c in Deal.from_cards(MSC_DEALS[i]).cards] for i in indices], dtype=np.uint8
    )


def test_solve_decks_preset_flag_leaves_every_row_unknown():
    out, run = _batch(_decks([0, 1, 2]), OBJECTIVES["any"], _flag(1))
    run()
    assert (out["stop"] == CANCELLED).all() and (out["winnable"] == -1).all()
    assert (out["nodes"] == 0).all() and (out["n_moves"] == -1).all() and not out["optimal"].any()


def test_solve_decks_flag_set_mid_batch():
    """Row 0 is solved; once its result is written the flag is set, during row 1's long A*:
    row 1 stops, rows 2 and 3 are never started."""
    quick, slow = 22, LONG_MIN_MOVES
    flag = _flag()
    out, run = _batch(_decks([quick, slow, slow, slow]), OBJECTIVES["min_moves"], flag)
    done = threading.Event()

    def watch():
        while out["nodes"][0] < 0 and not done.is_set():  # row 0 written: set the flag
            time.sleep(0.001)
        flag[0] = 1

    th = threading.Thread(target=watch, daemon=True)
    th.start()
    try:
        run()
    finally:
        done.set()
        th.join()
    game = Game(MSC_DEALS[quick], "msc")
    ref = solve_table(game._table, game.position, OBJECTIVES["min_moves"])
    assert out["winnable"][0] == 1 and out["stop"][0] == 0 and out["optimal"][0] == 1
    assert out["n_moves"][0] == len(ref["line"]) == MSC_OPTIMAL[quick]
    assert out["nodes"][0] == ref["nodes"]
    assert out["stop"][1] == CANCELLED and 0 < out["nodes"][1] and out["optimal"][1] == 0
    assert out["winnable"][1] in (-1, 1)  # 1: the win search's line, not the shortest
    assert (out["stop"][2:] == CANCELLED).all() and (out["winnable"][2:] == -1).all()
    assert (out["nodes"][2:] == 0).all() and (out["n_moves"][2:] == -1).all()
