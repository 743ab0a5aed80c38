"""The last pass decided by frame summaries (lastpass.pyx: every one-pass rule set under draw
one but pair_waste_top_two) against the plain depth-first search (``no_prune=True`` turns the
frames off, and every pruning with them): the same answer at positions some moves into
numbered deals, with waste piles of many cards, with and without the stock's top card in
play, with and without overlap discards, a card on the waste at the deal and every card to
clear; each winning line replays to a win; a budget that runs out gives "unknown", never a
wrong answer."""

from __future__ import annotations

import random

import pytest

from pyramid_core.solver import OBJECTIVES, solve_table
from pyramid_solitaire import Game, Rules, Status, max_removable, solve, solve_many
from pyramid_solitaire.solver import STOP_NAMES

FRAME_RULES = {
    "stock-top": Rules(waste_at_deal=0, redeals=0, stock_top_playable=True),
    "stock-top-waste-at-deal": Rules(redeals=0, stock_top_playable=True),
    "stock-top-all": Rules(waste_at_deal=0, redeals=0, stock_top_playable=True, win="all"),
    "stock-top-overlap": Rules(
        waste_at_deal=0, redeals=0, stock_top_playable=True, pair_with_covering=True
    ),
    "stock-top-overlap-all": Rules(
        waste_at_deal=0, redeals=0, stock_top_playable=True, pair_with_covering=True, win="all"
    ),
    "one-pass": Rules(redeals=0),
    "classic": Rules.preset("classic"),
    "one-pass-all": Rules(redeals=0, win="all"),
    "one-pass-overlap": Rules(waste_at_deal=0, redeals=0, pair_with_covering=True),
}


def _random_position(rules: Rules, number: int, rng: random.Random) -> Game:
    """Numbered deal ``number`` some moves in: half the time along a winning line (when the
    deal has one) then up to two random moves; else up to 50 random moves, draws taken two
    times in three (so that the waste piles up), stopping early with probability 1/8 a move."""
    game = Game(number, rules)
    if rng.random() < 0.5:
        line = solve(game).moves
        if line:
            for move in line[: rng.randrange(len(line))]:
                game.play(move)
            for _ in range(rng.randrange(3)):
                if game.status is Status.PLAYING:
                    game.play(rng.choice(game.legal_moves))
            return game
    for _ in range(50):
        legal = game.legal_moves
        if not legal or game.status is not Status.PLAYING or rng.random() < 1 / 8:
            break
        talon = [m for m in legal if m.kind in ("draw", "recycle")]
        game.play(rng.choice(talon if talon and rng.random() < 2 / 3 else legal))
    return game


@pytest.mark.parametrize("name", sorted(FRAME_RULES))
def test_frames_agree_with_the_plain_search(name):
    rules = FRAME_RULES[name]
    rng = random.Random(f"frames-{name}")
    answers = {0: 0, 1: 0}
    deep_waste = 0
    for number in range(240):
        game = _random_position(rules, number, rng)
        if game.status is not Status.PLAYING:
            continue
        pos = game.position
        framed = solve_table(game._table, pos, OBJECTIVES["any"])
        plain = solve_table(game._table, pos, OBJECTIVES["any"], max_nodes=400_000, no_prune=True)
        assert framed["winnable"] in (0, 1), (number, game.moves)
        if plain["winnable"] >= 0:
            assert framed["winnable"] == plain["winnable"], (number, game.moves)
        answers[framed["winnable"]] += 1
        deep_waste += len(game.waste) >= 3
        if framed["winnable"] == 1:
            for code in framed["line"]:
                game.play(game._to_move(code))
            assert game.status is Status.WON, (number, game.moves)
    # (One pass without the stock's top card in play clears all 52 cards about once in
    # 2,000 deals: the won side of that rule set is checked below.)
    assert answers[0] >= 10 and answers[1] >= (0 if name == "one-pass-all" else 5), answers
    assert deep_waste >= 10


# Deals that Rules(redeals=0, win="all") wins, found by the plain search (no_prune) among deal
# numbers 0..5,999: one pass clears all 52 cards about once in 2,000 deals.
ALL_CARDS_ONE_PASS_WINS = [1391, 2129, 2766, 5044, 5864]


def _plain_line(game: Game) -> list[int] | None:
    """The plain search's winning line from the game's position (no frames, no pruning), or
    None when it finds none within its budget."""
    plain = solve_table(game._table, game.position, OBJECTIVES["any"], max_nodes=600_000,
                        no_prune=True)  # fmt: skip
    return list(plain["line"]) if plain["winnable"] == 1 else None


@pytest.mark.parametrize("name", sorted(FRAME_RULES))
def test_every_position_along_a_winning_line_is_won(name):
    """A wrongly dropped frame can only turn a win into a loss: along each winning line of
    the plain search, every position on the way is won for the frames too: under win="all"
    also the late ones, with the stock spent and the waste still to clear."""
    rules = FRAME_RULES[name]
    numbers = ALL_CARDS_ONE_PASS_WINS if name == "one-pass-all" else range(400)
    lines = checked = stock_spent = 0
    for number in numbers:
        game = Game(number, rules)
        if name != "one-pass-all" and not solve_many([number], rules).winnable[0]:
            continue  # (a quick look first: the plain search of a lost deal is long)
        line = _plain_line(game)
        assert line is not None or name != "one-pass-all", number
        if line is None:
            continue
        lines += 1
        for code in line:
            framed = solve_table(game._table, game.position, OBJECTIVES["any"])
            assert framed["winnable"] == 1, (number, game.moves)
            checked += 1
            stock_spent += not game.stock and bool(game.waste)
            game.play(game._to_move(code))
        assert game.status is Status.WON
        if lines == 8:
            break
    assert lines >= 5 and checked >= 200, (lines, checked)
    if rules.win == "all":  # (those lines always end with the stock spent)
        assert stock_spent >= 3, stock_spent


@pytest.mark.parametrize("name", sorted(n for n, r in FRAME_RULES.items() if r.win != "all"))
def test_frames_agree_with_the_most_removable_cards(name):
    """The most removable cards are searched over positions, never over frames: 28 exactly
    for the deals the frames call won (100 deals a rule set)."""
    rules = FRAME_RULES[name]
    framed = solve_many(range(100), rules)
    for number in range(100):
        game = Game(number, rules)
        most = solve_table(game._table, game.position, OBJECTIVES["max_removed"])
        assert (most["max_removed"] == 28) == bool(framed.winnable[number] == 1), number
    assert (framed.winnable == 1).sum() >= 3


def test_frames_find_the_rare_wins_of_all_cards_in_one_pass():
    """Rules(redeals=0, win="all"): the deals the frames call won replay to a win, and a
    position along each winning line, some moves in, is won for the plain search too."""
    rules = FRAME_RULES["one-pass-all"]
    result = solve_many(range(6000), rules)
    won = [int(n) for n in (result.winnable == 1).nonzero()[0]]
    assert len(won) >= 2
    for number in won:
        line = solve(Game(number, rules)).moves
        game = Game(number, rules)
        for move in line[: len(line) // 2]:
            game.play(move)
        plain = solve_table(game._table, game.position, OBJECTIVES["any"], no_prune=True)
        assert plain["winnable"] == 1, number
        for move in line[len(line) // 2 :]:
            game.play(move)
        assert game.status is Status.WON, number


@pytest.mark.parametrize("name", ["stock-top", "stock-top-waste-at-deal"])
def test_a_spent_budget_is_unknown_never_wrong(name):
    rules = FRAME_RULES[name]
    stopped = 0
    for number in range(40):
        game = Game(number, rules)
        full = solve_table(game._table, game.position, OBJECTIVES["any"])
        for nodes in (1, 10, 100, 1000):
            r = solve_table(game._table, game.position, OBJECTIVES["any"], max_nodes=nodes)
            assert r["winnable"] in (-1, full["winnable"])
            if r["winnable"] == -1:
                assert r["stop"] == "nodes"
                stopped += 1
    assert stopped >= 20


def test_shortest_lines_and_most_removed_unchanged_by_the_frames():
    """min_moves decides with the frames, then runs A* with all the memory; max_removed does
    not use them: both give what they gave without frames on a few one-pass deals."""
    rules = FRAME_RULES["stock-top"]
    for number in range(6):
        best = solve(Game(number, rules), objective="min_moves")
        if best.winnable:
            assert best.optimal and best.replay().is_won
        assert (max_removable(Game(number, rules)) == 28) is bool(best.winnable)


def test_memory_and_time_budgets_hold_in_frames():
    """A memory budget too small for a deal's frames stops the solve with "memory" (in a
    batch too, where the frames' table is kept large between deals); a time budget with
    "time"; neither ever gives a wrong answer."""
    rules = FRAME_RULES["stock-top"]
    numbers = list(range(20))
    full = solve_many(numbers, rules)
    small = solve_many(numbers, rules, max_memory=64 * 1024)
    assert set(small.winnable[small.winnable >= 0]) <= {0, 1}
    decided = small.winnable >= 0
    assert (small.winnable[decided] == full.winnable[decided]).all()
    assert (~decided).sum() >= 5
    assert set(small.stopped_by[~decided].tolist()) == {STOP_NAMES.index("memory")}
    game = Game(3, rules)
    r = solve_table(game._table, game.position, OBJECTIVES["any"], max_seconds=1e-9)
    assert r["winnable"] in (-1, full.winnable[3])
    if r["winnable"] == -1:
        assert r["stop"] == "time"
