"""The greedy policy's veto against its definition, worked out by brute force here.

The veto is written once, in the lockstep's text (pyr_sim_lockstep_body.h, LS(veto_n)), and
every path runs it: the vector lanes, and one lane of it for the scalar and engine playouts
(pyr_sim_veto). The golden file pins the games it makes; this checks the rule itself: a pair
of ranks r and 13 - r is vetoed when it leaves its rank pair unclearable while it was
clearable, "clearable" meaning that the largest set of disjoint pyramid pairs of the two
ranks that can ever meet (a matching; a card never meets one it covers or is covered by,
directly or not, unless pair_with_covering lets it meet the ones directly touching it) leaves
no more pyramid cards of either rank than the talon holds partners for (docs/simulation.md,
"The greedy policy").
"""

from __future__ import annotations

import itertools
import random

import pytest

from pyramid_core.shuffle import deal_cards
from pyramid_solitaire import Rules

from core_hooks import _simulate_tests as hooks

ROWS = [(r, k) for r in range(7) for k in range(r + 1)]  # position -> (row, index)


def covers(y: int, x: int) -> bool:
    """Does the card at y cover the one at x, directly or not (y lies lower, in x's cone)?"""
    (rx, kx), (ry, ky) = ROWS[x], ROWS[y]
    return ry > rx and kx <= ky <= kx + (ry - rx)


def can_meet(x: int, y: int, pwc: bool) -> bool:
    related = covers(x, y) or covers(y, x)
    direct = related and abs(ROWS[x][0] - ROWS[y][0]) == 1
    return not related or (pwc and direct)


def matching(xs: list[int], ys: list[int], pwc: bool) -> int:
    """The largest number of disjoint pairs (x, y) that can meet, by trying them all."""
    best = 0
    for n in range(min(len(xs), len(ys)), 0, -1):
        for sx in itertools.combinations(xs, n):
            for sy in itertools.permutations(ys, n):
                if all(can_meet(x, y, pwc) for x, y in zip(sx, sy)):
                    return n
    return best


def clearable(pyr: set[int], talon: set[int], rank: list[int], r: int, pwc: bool) -> bool:
    q = 13 - r
    pr = [p for p in pyr if rank[p] == r]
    pq = [p for p in pyr if rank[p] == q]
    tr = sum(1 for t in talon if rank[28 + t] == r)
    tq = sum(1 for t in talon if rank[28 + t] == q)
    need = max(len(pr) - tq, len(pq) - tr)
    return need <= 0 or matching(pr, pq, pwc) >= need


def expected_veto(pyr, talon, rank, a, b, pwc, win_all) -> bool:
    if win_all:
        return False
    r = rank[a]
    after_pyr = pyr - {a, b}
    after_talon = talon - {a - 28, b - 28}
    return clearable(pyr, talon, rank, r, pwc) and not clearable(
        after_pyr, after_talon, rank, r, pwc
    )


def free(pyr: set[int]) -> list[int]:
    return [x for x in pyr if not any(covers(y, x) for y in pyr if y != x)]


def positions(rng: random.Random, number: int, rank: list[int]):
    """Positions as play reaches them (cards leave the pyramid only when free), and every
    pair a < b of ranks summing to 13 among the free pyramid cards and some talon cards."""
    pyr = set(range(28))
    for _ in range(rng.randrange(0, 24)):
        pyr.discard(rng.choice(free(pyr)))
    keep = rng.choice((0.0, 0.3, 0.7, 1.0))  # no talon card left, or some, or all
    talon = {t for t in range(24) if rng.random() < keep}
    cards = free(pyr) + [28 + t for t in rng.sample(sorted(talon), min(len(talon), 6))]
    pairs = [
        (min(x, y), max(x, y))
        for x, y in itertools.combinations(cards, 2)
        if rank[x] + rank[y] == 13
    ]
    return pyr, talon, pairs


def mask(cards) -> int:
    return sum(1 << c for c in cards)


@pytest.mark.parametrize(
    "rules",
    [
        Rules.preset("msc"),
        Rules.preset("classic-draw3"),
        Rules.preset("unlimited").replace(pair_with_covering=True),
        Rules.preset("pyramide").replace(win="all"),
    ],
    ids=["msc", "classic-draw3", "pair-with-covering", "win-all"],
)
def test_veto_is_its_definition(rules):
    options = rules.core_options()
    pwc, win_all = bool(options["pair_with_covering"]), rules.win == "all"
    rng = random.Random(17)
    checked = vetoed = two_pyramid = 0
    for number in range(400):
        rank = hooks.veto(options, number, 0, 0, 0, 28)[1]
        for _ in range(4):
            pyr, talon, pairs = positions(rng, number, rank)
            for a, b in pairs:
                got, _ = hooks.veto(options, number, mask(pyr), mask(talon), a, b)
                assert got == expected_veto(pyr, talon, rank, a, b, pwc, win_all), (
                    number,
                    sorted(pyr),
                    sorted(talon),
                    a,
                    b,
                )
                checked += 1
                vetoed += got
                two_pyramid += got and b < 28
    assert checked > 2000
    # (it really fires, also for two pyramid cards: rarer, a tight rank pair with no talon help)
    assert (vetoed == 0) if win_all else (vetoed > 50 and two_pyramid >= 5)


def test_ranks_by_location_are_the_deals():
    for number in (0, 1, 12345):
        rank = hooks.veto(Rules.preset("msc").core_options(), number, 0, 0, 0, 28)[1]
        assert rank == [c % 13 + 1 for c in deal_cards(number)]
