"""The core's one table set for the pyramid (pyr_geometry.h) and its rank-class matching
(pyr_match.h), which the solver and the simulator share, against the reference model's
geometry (tests/reference.py) and a brute-force matching."""

from __future__ import annotations

import itertools
import random

import pytest

from pyramid_core import geometry

from reference import ROW_COL, above, covers


def mask(xs) -> int:
    return sum(1 << x for x in xs)


def test_rows_and_covers_follow_the_pyramid():
    """geometry.row and geometry.covers (the core's PYR_ROW table, which the engine's
    pair_with_covering move listing reads) against the reference model, and a clear error for
    a place that is not a pyramid position."""
    for i in range(28):
        assert geometry.row(i) == ROW_COL[i][0]
        assert list(geometry.covers(i)) == covers(i)
    for bad in (-1, 28, 52):
        with pytest.raises(ValueError, match="pyramid position 0..27"):
            geometry.row(bad)
        with pytest.raises(ValueError, match="pyramid position 0..27"):
            geometry.covers(bad)


def test_tables_follow_the_pyramid():
    t = geometry.tables()
    for i in range(28):
        up = above(i)
        rel = up | {j for j in range(28) if i in above(j)}
        direct = {j for j in range(28) if j in covers(i) or i in covers(j)}
        assert t["covering"][i] == mask(covers(i))
        assert t["covered"][i] == mask(j for j in range(28) if i in covers(j))
        assert t["above"][i] == mask(up) and t["support"][i] == len(up)
        assert t["rel"][i] == t["bad"][i] == mask(rel)
        assert t["direct"][i] == mask(direct)
        assert t["bad_pwc"][i] == mask(rel - direct)
    assert t["covering"][28] == 0 and t["bad"][28] == t["bad_pwc"][28] == 0xFFFFFFFF
    for i in range(28):
        ups = sorted(j for j in range(28) if i in covers(j))
        # the card i covers to its upper left is the one whose right cover is i
        assert t["covered_l"][i] == next((j for j in ups if covers(j)[1] == i), 28)
        assert t["covered_r"][i] == next((j for j in ups if covers(j)[0] == i), 28)
        assert ((t["has_left"] >> i) & 1) == (t["covered_l"][i] != 28)
        assert ((t["has_right"] >> i) & 1) == (t["covered_r"][i] != 28)


def brute_matching(rs: list[int], ss: list[int], bad: list[int]) -> int:
    best = 0
    for k in range(1, min(len(rs), len(ss)) + 1):
        for a in itertools.combinations(rs, k):
            for b in itertools.permutations(ss, k):
                if all(not (bad[x] >> y) & 1 for x, y in zip(a, b)):
                    best = k
                    break
            if best == k:
                break
    return best


def test_matching_is_the_largest():
    t = geometry.tables()
    rng = random.Random(7)
    for _ in range(3000):
        cards = rng.sample(range(28), rng.randrange(0, 9))
        rs, ss = cards[: len(cards) // 2][:4], cards[len(cards) // 2 :][:4]
        for pwc in (False, True):
            expect = brute_matching(rs, ss, t["bad_pwc"] if pwc else t["bad"])
            assert geometry.match(mask(rs), mask(ss), pwc) == expect, (rs, ss, pwc)
