"""The solver: agreement with the public msc data, every rule set, budgets, hints, batches."""

import json

import numpy as np
import pytest

from pyramid_core.solver import STOPS as CORE_STOPS
from pyramid_solitaire import Deal, Game, Rules
from pyramid_solitaire.cli import main
from pyramid_solitaire.solver import (
    SearchBudgetExceeded,
    can_still_win,
    hint,
    max_removable,
    solve,
    solve_many,
)

from conftest import repo_file

DATA = repo_file("data")
MSC_DEALS = (DATA / "msc-1500-deals.txt").read_text().splitlines()
MSC_OPTIMAL = [int(x) for x in (DATA / "msc-1500-optimal-lengths.txt").read_text().split()]
MSC = Rules.preset("msc")


def test_data_files_line_up():
    assert len(MSC_DEALS) == len(MSC_OPTIMAL) == 1500
    assert sum(1 for x in MSC_OPTIMAL if x) == 998


@pytest.mark.parametrize("i", range(0, 1500, 10))
def test_msc_sample_agrees_with_the_public_data(i):
    s = solve(MSC_DEALS[i], MSC)
    assert s.winnable is bool(MSC_OPTIMAL[i])
    if s.winnable:
        assert s.replay().is_won


@pytest.mark.parametrize("i", [i for i in range(0, 1500, 97) if MSC_OPTIMAL[i]][:10])
def test_msc_sample_shortest_lines(i):
    s = solve(MSC_DEALS[i], MSC, objective="min_moves")
    assert s.n_moves == MSC_OPTIMAL[i]
    assert s.replay().is_won


def test_msc_all_1500_decided_and_shortest():
    """All 1,500 public msc deals: decided, and every winnable one's shortest line as long as
    the published optimum (about 15 s since the free-talon relaxation, so no longer marked
    slow: CI runs it)."""
    result = solve_many([Deal.from_cards(d) for d in MSC_DEALS], MSC, objective="min_moves")
    assert (result.winnable == np.array([1 if x else 0 for x in MSC_OPTIMAL])).all()
    assert (result.n_moves[result.winnable == 1] == np.array([x for x in MSC_OPTIMAL if x])).all()


RULE_SETS = [Rules.preset(n) for n in Rules.preset_names()] + [
    Rules(win="all"),
    Rules(waste_at_deal=0, redeals=1, win="all", stock_top_playable=True),
    Rules(pair_with_covering=True),
    Rules(waste_at_deal=0, redeals=0, pair_with_covering=True),
    Rules(waste_at_deal=0, redeals=1, pair_waste_top_two=True),
    Rules(waste_at_deal=0, stock_top_playable=True),
    Rules(draw=3, redeals=0, waste_at_deal=1),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=repr)
def test_every_rule_set_lines_replay_to_a_win(rules):
    answers = []
    for n in range(12):
        s = solve(Deal.from_number(n), rules, max_seconds=20)
        assert s.winnable is not None
        answers.append(s.winnable)
        if s.winnable:
            game = s.replay()
            assert game.is_won and game.rules == rules
    if rules.name in ("pyramide", "unlimited", "msc", "three-pass"):
        assert any(answers)


def test_free_talon_search_agrees_with_the_general_search():
    # With 28+ recycles every removal can wait for its talon card, so unlimited redeals and
    # 63 redeals win the same deals; the first uses the free-talon search, the second not.
    for n in range(40):
        a = solve(Deal.from_number(n), Rules(waste_at_deal=0)).winnable
        b = solve(Deal.from_number(n), Rules(waste_at_deal=0, redeals=63)).winnable
        assert a is b, n


def test_shortest_line_is_no_longer_than_any_line():
    for n in range(6):
        any_line = solve(Deal.from_number(n), "msc")
        if any_line.winnable:
            assert (
                solve(Deal.from_number(n), "msc", objective="min_moves").n_moves <= any_line.n_moves
            )


# ---- budgets ---------------------------------------------------------------------------------


def test_node_budget_gives_unknown():
    s = solve(MSC_DEALS[0], MSC, max_nodes=5)
    assert s.winnable is None and s.stopped_by == "nodes" and s.moves is None
    with pytest.raises(ValueError, match="budget ran out"):
        s.replay()


# A lost msc deal whose proof takes about 330,000 positions: the budgets below run out before
# it is decided (on a won deal, min_moves would keep the line found: see the tests after).
HARD_LOST = 1103


@pytest.mark.parametrize("objective", ["any", "min_moves"])
def test_memory_budget_gives_unknown(objective):
    assert not MSC_OPTIMAL[HARD_LOST]
    s = solve(MSC_DEALS[HARD_LOST], MSC, objective=objective, max_memory="64KiB")
    assert s.winnable is None and s.stopped_by == "memory" and not s.optimal


@pytest.mark.parametrize("objective", ["any", "min_moves"])
def test_time_budget_gives_unknown(objective):
    s = solve(MSC_DEALS[HARD_LOST], MSC, objective=objective, max_seconds=1e-4)
    assert s.winnable is None and s.stopped_by == "time"


# ---- min_moves under a budget keeps the line found -------------------------------------------

# msc deals whose win search takes a few hundred positions and whose A* some 10,000 to 50,000.
QUICK_WON = [16, 22, 27, 28]


@pytest.mark.parametrize("i", QUICK_WON)
def test_min_moves_budget_keeps_the_winning_line(i):
    assert MSC_OPTIMAL[i]
    any_line = solve(MSC_DEALS[i], MSC)
    # Room for the win search, not for A*: the win search's line comes back, not optimal.
    s = solve(MSC_DEALS[i], MSC, objective="min_moves", max_nodes=any_line.nodes + 1)
    assert s.winnable is True and s.optimal is False and s.stopped_by == "nodes"
    assert s.moves == any_line.moves and s.n_moves >= MSC_OPTIMAL[i]
    assert s.replay().is_won
    assert s.to_dict()["optimal"] is False and s.to_dict()["winnable"] is True
    full = solve(MSC_DEALS[i], MSC, objective="min_moves")
    assert full.optimal is True and full.stopped_by is None and full.n_moves == MSC_OPTIMAL[i]
    assert full.replay().is_won and full.to_dict()["optimal"] is True
    assert any_line.optimal is False  # objective "any": never claimed shortest


def test_min_moves_time_and_memory_budgets_keep_the_winning_line():
    i = QUICK_WON[0]
    for kw, stop in [(dict(max_memory="64KiB"), "memory"), (dict(max_seconds=1e-9), "time")]:
        s = solve(MSC_DEALS[i], MSC, objective="min_moves", **kw)
        if s.winnable is None:  # the budget ran out in the win search already
            assert s.stopped_by == stop
            continue
        assert s.winnable and not s.optimal and s.stopped_by == stop and s.replay().is_won


FREE_TALON_MIN = [
    Rules.preset("pyramide"),
    Rules.preset("unlimited"),
    Rules(win="all"),
    Rules.preset("unlimited").replace(win="all"),
]


@pytest.mark.parametrize("rules", FREE_TALON_MIN, ids=repr)
def test_min_moves_budget_under_free_talon_rules_replays(rules):
    """Under the free-talon rules the win search's line is abstract (a pyramid card with a
    talon rank): what comes back must be real moves, draws and recycles included."""
    deal = Deal.from_number(2)
    any_line = solve(deal, rules)
    assert any_line.winnable
    s = solve(deal, rules, objective="min_moves", max_nodes=any_line.nodes + 1)
    assert s.winnable is True and s.optimal is False and s.stopped_by == "nodes"
    assert s.moves == any_line.moves and s.replay().is_won
    assert any(m.kind in ("draw", "recycle") for m in s.moves)


@pytest.mark.parametrize(
    "kw",
    [
        dict(max_nodes=0),
        dict(max_nodes=1.5),
        dict(max_seconds=-1),
        dict(max_seconds=float("nan")),
        dict(max_memory=10),
        dict(max_memory="lots"),
        dict(objective="fastest"),
    ],
)
def test_bad_budgets_and_objectives(kw):
    with pytest.raises(ValueError):
        solve("PY1-N-AAAAAAA", **kw)


# ---- positions in a game ----------------------------------------------------------------------


def test_hints_follow_a_winning_line():
    game = Game(MSC_DEALS[0], MSC)
    assert MSC_OPTIMAL[0] and can_still_win(game) is True
    while not game.is_over:
        game.play(hint(game))
    assert game.is_won and hint(game) is None


def test_hints_on_a_lost_game_reach_the_most_cards():
    lost = next(i for i in range(1500) if not MSC_OPTIMAL[i])
    game = Game(MSC_DEALS[lost], MSC)
    best = max_removable(game)
    assert best < 28 and can_still_win(game) is False
    for _ in range(300):
        h = hint(game)
        if h is None:
            break
        game.play(h)
    assert game.pyramid_removed == best


def test_can_still_win_notices_a_losing_move():
    found = False
    for i in range(0, 60):
        if not MSC_OPTIMAL[i]:
            continue
        game = Game(MSC_DEALS[i], MSC)
        for m in game.legal_moves:
            g = game.copy()
            g.play(m)
            if can_still_win(g) is False:
                assert solve(g).winnable is False and max_removable(g) < 28
                found = True
                break
        if found:
            break
    assert found


def test_solve_a_game_in_progress():
    game = Game("PY1-N-AAAAAAS")
    game.play("Kc")
    s = solve(game)
    assert s.winnable and s.replay().is_won and s.replay().moves[0] == game.moves[0]
    with pytest.raises(ValueError, match="own rules"):
        solve(game, "msc")


def test_max_removable_budget():
    lost = next(i for i in range(1500) if not MSC_OPTIMAL[i])
    with pytest.raises(SearchBudgetExceeded, match="nodes budget"):
        max_removable(MSC_DEALS[lost], MSC, max_nodes=3)


# ---- many deals ----------------------------------------------------------------------------


def test_solve_many_matches_solve_and_thread_counts():
    numbers = np.arange(40)
    one = solve_many(numbers, "three-pass", threads=1, chunk=7, max_removed=True)
    two = solve_many(numbers, "three-pass", threads=2, chunk=5, max_removed=True)
    for name in ("winnable", "n_moves", "max_removed", "nodes"):
        assert (getattr(one, name) == getattr(two, name)).all(), name
    from pyramid_solitaire.solver import _budgets, _max_line

    for n in range(0, 40, 5):
        s = solve(Deal.from_number(n), "three-pass")
        assert one.winnable[n] == s.winnable
        best, line = _max_line(Game(Deal.from_number(n), "three-pass"), _budgets(None, None, None))
        assert one.max_removed[n] == best == max_removable(Deal.from_number(n), "three-pass")
        # n_moves: the winning line, or for a lost deal the line removing the most cards
        assert one.n_moves[n] == (s.n_moves if s.winnable else len(line))
    assert 0 < one.win_rate < 1 and one.to_dict()["deals"] == {"count": 40, "first": 0, "last": 39}


def test_solve_many_optimal_flags():
    rows = QUICK_WON + [HARD_LOST]
    deals = [MSC_DEALS[i] for i in rows]
    full = solve_many(deals, MSC, objective="min_moves", threads=1)
    assert list(full.winnable) == [1] * len(QUICK_WON) + [0]
    assert list(full.optimal) == [1] * len(QUICK_WON) + [0]
    assert list(full.n_moves[:-1]) == [MSC_OPTIMAL[i] for i in QUICK_WON]
    budget = max(solve(MSC_DEALS[i], MSC).nodes for i in QUICK_WON) + 1
    cut = solve_many(deals, MSC, objective="min_moves", max_nodes=budget, threads=2, chunk=1)
    for k, i in enumerate(rows):
        s = solve(MSC_DEALS[i], MSC, objective="min_moves", max_nodes=budget)
        assert cut.winnable[k] == (-1 if s.winnable is None else s.winnable), i
        assert cut.n_moves[k] == (-1 if s.moves is None else s.n_moves), i
        assert bool(cut.optimal[k]) is s.optimal, i
        assert CORE_STOPS[int(cut.stopped_by[k])] == s.stopped_by, i
    assert (cut.winnable[:-1] == 1).all() and not cut.optimal.any()
    assert (cut.stopped_by[:-1] == 1).all()  # nodes
    anyobj = solve_many(deals, MSC, max_removed=True)
    assert not anyobj.optimal.any()


def test_solve_many_inputs():
    codes = ["PY1-M-AAAAAAA", Deal.from_number(1), 2, MSC_DEALS[0]]
    r = solve_many(codes, "msc")
    assert len(r) == 4 and r.winnable[3] == 1
    with pytest.raises(ValueError, match="deal 1: deal code 'PY1-N-AAAAAAA' names the pyramide"):
        solve_many(["PY1-N-AAAAAAA"], "msc")
    with pytest.raises(ValueError, match="deal 2"):
        solve_many(["PY1-M-AAAAAAA", "PY9-M-AAAAAAA"], "msc")
    with pytest.raises(ValueError):
        solve_many(np.array([-1, 3]), "msc")


# ---- command line ----------------------------------------------------------------------------


def test_cli_solve_json(capsys):
    assert main(["solve", "PY1-M-AAAAAAS", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert {"deal", "rules", "winnable", "n_moves", "moves", "seconds"} <= set(d)
    game = Game("PY1-M-AAAAAAS")
    game.play_all(d["moves"])
    assert game.is_won and d["n_moves"] == len(d["moves"]) and d["rules"]["name"] == "msc"


def test_cli_solve_text_and_cards(capsys):
    assert main(["solve", "--cards", MSC_DEALS[0], "--rules", "msc", "--min-moves"]) == 0
    out = capsys.readouterr().out
    assert f"shortest winning line of {MSC_OPTIMAL[0]} moves" in out


def test_cli_solve_file(tmp_path, capsys):
    f = tmp_path / "deals.txt"
    f.write_text("# three deals\nPY1-M-AAAAAAA\n\n" + MSC_DEALS[0] + "\nPY1-M-AAAAAAB\n")
    assert main(["solve", "--file", str(f), "--json", "--rules", "msc"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3 and all(x["rules"]["name"] == "msc" for x in lines)
    f.write_text("PY1-M-AAAAAAA\nnot a deal\n")
    assert main(["solve", "--file", str(f)]) == 2
    assert "line 2" in capsys.readouterr().err


def test_cli_solve_budget_unknown(capsys):
    assert main(["solve", "--cards", MSC_DEALS[0], "--rules", "msc", "--max-nodes", "3"]) == 1
    out, err = capsys.readouterr()
    assert "unknown: the nodes budget ran out" in out
    assert err == "pyramid-solitaire: a budget ran out before the answer asked for (nodes)\n"


def test_cli_min_moves_budget_says_not_shortest(capsys):
    i = QUICK_WON[0]
    budget = solve(MSC_DEALS[i], MSC).nodes + 1
    assert (
        main(
            [
                "solve",
                "--cards",
                MSC_DEALS[i],
                "--rules",
                "msc",
                "--min-moves",
                "--max-nodes",
                str(budget),
            ]
        )
        == 1
    )  # not the answer asked for
    assert "winning line (not proved shortest: the nodes budget ran out)" in capsys.readouterr().out
    assert (
        main(
            [
                "solve",
                "--cards",
                MSC_DEALS[i],
                "--rules",
                "msc",
                "--min-moves",
                "--max-nodes",
                str(budget),
                "--json",
            ]
        )
        == 1
    )
    d = json.loads(capsys.readouterr().out)
    assert d["winnable"] is True and d["optimal"] is False and d["stopped_by"] == "nodes"
    assert (
        main(["solve", "--cards", MSC_DEALS[i], "--rules", "msc", "--max-nodes", str(budget)]) == 0
    )  # winnable is the answer


# ---- pruning is sound ------------------------------------------------------------------------

PRUNED_RULES = [
    Rules.preset(n) for n in ("classic", "classic-draw3", "three-pass", "msc", "pyramide")
] + [
    Rules(waste_at_deal=1, draw=3, redeals=0),
    Rules(waste_at_deal=0, redeals=0, win="all", stock_top_playable=True),
    Rules(waste_at_deal=0, redeals=1, pair_waste_top_two=True),
    Rules(waste_at_deal=0, redeals=0, pair_with_covering=True),
    Rules(waste_at_deal=0, stock_top_playable=True),
]


@pytest.mark.parametrize("rules", PRUNED_RULES, ids=repr)
def test_pruning_never_changes_the_answer(rules):
    """The same positions decided with and without the pruning (rank classes, buried waste
    cards): starts of deals and positions part-way through random games."""
    import random

    from pyramid_core.solver import solve_table

    rng = random.Random(repr(rules))
    decided = 0
    for n in range(40):
        game = Game(Deal.from_number(n), rules)
        for _ in range(rng.randrange(0, 40)):
            moves = game.legal_moves
            if not moves:
                break
            removals = [m for m in moves if m.kind in ("king", "pair")]
            game.play(rng.choice(removals if removals and rng.random() < 0.7 else moves))
        fast = solve_table(game._table, game.position, 0)
        slow = solve_table(game._table, game.position, 0, max_nodes=300_000, no_prune=True)
        if slow["winnable"] >= 0:
            assert fast["winnable"] == slow["winnable"], (n, [str(m) for m in game.moves])
            decided += 1
    assert decided >= 20


def test_stopped_max_removed_search_that_reached_its_bound_is_decided():
    """A budget stops the exhaustive search after its best line reached the bound on the cards
    removable: that bound is below 28, so the deal is lost too, and nothing is unknown."""
    from pyramid_core.solver import OBJECTIVES, solve_table

    game = Game(Deal.from_number(0), Rules(waste_at_deal=0, stock_top_playable=True))
    full = solve_table(game._table, game.position, OBJECTIVES["max_removed"], no_prune=True)
    cut = solve_table(
        game._table,
        game.position,
        OBJECTIVES["max_removed"],
        no_prune=True,
        max_nodes=full["nodes"] // 10,
    )
    assert full["winnable"] == 0 and full["max_removed"] < 28
    assert (cut["winnable"], cut["stop"], cut["max_removed"]) == (0, None, full["max_removed"])


FREE_TALON_RULES = [
    Rules.preset("unlimited"),
    Rules.preset("unlimited").replace(pair_with_covering=True),
]


@pytest.mark.parametrize("rules", FREE_TALON_RULES, ids=repr)
def test_free_talon_pruning_never_changes_the_answer(rules):
    """Draw 1 with unlimited redeals (the free-talon search and its dominance table: a pyramid
    already searched with at least the same talon cards is skipped): the same win/loss and
    the same most removable cards with and without the pruning."""
    import random

    from pyramid_core.solver import OBJECTIVES, solve_table

    rng = random.Random(repr(rules))
    lost = 0
    for n in range(60):
        game = Game(Deal.from_number(n), rules)
        for _ in range(rng.randrange(0, 12)):
            moves = [m for m in game.legal_moves if m.kind in ("king", "pair")] or game.legal_moves
            if not moves:
                break
            game.play(rng.choice(moves))
        for objective in (OBJECTIVES["any"], OBJECTIVES["max_removed"]):
            fast = solve_table(game._table, game.position, objective)
            slow = solve_table(game._table, game.position, objective, no_prune=True)
            assert (fast["winnable"], fast["max_removed"]) == (
                slow["winnable"],
                slow["max_removed"],
            ), n
        lost += fast["winnable"] == 0
    assert lost >= 10


def test_solve_many_reports_as_simulate_does(tmp_path):
    """SolveManyResult has SimulationResult's wins, interval, summary, plot and to_dict."""
    pytest.importorskip("matplotlib", reason="the plot extra (matplotlib)")
    from pyramid_solitaire import simulate, wilson_interval

    r = solve_many(range(300), "msc", max_nodes=2_000)
    s = simulate(deals=range(300), rules="msc", policy="solver", max_nodes=2_000)
    assert r.wins == s.wins and r.decided == s.totals.decided and r.undecided == s.undecided
    assert r.undecided > 0  # (the budget leaves some: they are left out, said so)
    assert r.ci95 == s.ci95 == wilson_interval(r.wins, r.decided)
    assert r.win_rate == s.win_rate
    d = r.to_dict()
    assert d["wins"] == r.wins and d["ci95"] == list(r.ci95)
    text = r.summary()
    assert f"winnable {r.wins:,}" in text and f"{r.undecided:,} undecided" in text
    assert "lines found (moves):" in text
    assert "winnable" in repr(r) and "undecided" in repr(r)
    fig = r.plot()
    fig.savefig(tmp_path / "r.png")
    assert (tmp_path / "r.png").stat().st_size > 1000
    assert int(r.lengths().sum()) == r.wins
