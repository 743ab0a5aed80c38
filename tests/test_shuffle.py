"""The version-1 deal shuffle (docs/deal-codes.md) against its published test vectors and against a
pure-Python transcription of the spec's pseudo-code."""

from __future__ import annotations

import random

import pytest

from pyramid_core.shuffle import deal_cards, splitmix64

MASK64 = (1 << 64) - 1
RANKS = "A23456789TJQK"
SUITS = "cdhs"


def token(card: int) -> str:
    """ASCII token of card index c (docs/rules.md): rank c % 13 + 1, suit c // 13."""
    return RANKS[card % 13] + SUITS[card // 13]


def parse(tokens: str) -> list:
    return [RANKS.index(t[0]) + 13 * SUITS.index(t[1]) for t in tokens.split()]


def deal_number(code: str) -> int:
    """The deal number of a code like PY1-N-AAAAAAS: base 26, A = 0, most significant first."""
    prefix, _preset, letters = code.split("-")
    assert prefix == "PY1" and len(letters) == 7
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("A"))
    return n


def spec_next(state: int) -> tuple:
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def spec_deal(n: int) -> list:
    state = n & MASK64
    deck = list(range(52))
    for i in range(51, 0, -1):
        state, x = spec_next(state)
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


VECTORS = {
    "PY1-N-AAAAAAA": "8s Jh 9c 2s 2d Qd 6s Tc 3d Ac Jc 7c 9h 8c Qs Kh 5h 2c 3h 5c Ah 6c 4s Td 5d "
    "8h 8d Ad Qh Ts Qc Jd 3s 4d 2h 9d 3c Kd As 7s 9s 7d Js 6h Ks 4c 7h 5s 6d 4h "
    "Kc Th",
    "PY1-N-AAAAAAS": "Ad 3c 7d 6c 5c 8d 2h 4c 8c 2d Kd Qd 6s 8h 8s 9h 3h 4d Ts Qc Kh 5d Kc 2s Jh "
    "3d Th As Tc 3s 4s 9d Qh 9c 7s Td 9s 2c 6h 5h Ah 5s Jd Ac 7h Js 4h Ks 6d Jc "
    "7c Qs",
}


def test_deal_numbers_of_the_vectors():
    assert deal_number("PY1-N-AAAAAAA") == 0
    assert deal_number("PY1-N-AAAAAAS") == 18
    assert deal_number("PY1-N-ZZZZZZZ") == 26**7 - 1 == 8_031_810_175


@pytest.mark.parametrize("code", list(VECTORS))
def test_spec_vectors(code):
    expected = parse(VECTORS[code])
    assert sorted(expected) == list(range(52))
    n = deal_number(code)
    got = deal_cards(n)
    assert [token(c) for c in got] == VECTORS[code].split()
    assert got == expected
    # the transcription below is right too, or the comparison with it would mean nothing
    assert spec_deal(n) == expected


def _numbers() -> list:
    rng = random.Random(20240601)
    nums = [
        0,
        1,
        2,
        18,
        25,
        26,
        26**7 - 2,
        26**7 - 1,
        26**7,
        2**32 - 1,
        2**32,
        2**63 - 1,
        2**63,
        2**63 + 1,
        MASK64 - 1,
        MASK64,
    ]
    nums += [MASK64 - k for k in range(2, 40)]
    # state + the golden-ratio increment wraps around 2**64 on the first draws
    nums += [(2**64 - 0x9E3779B97F4A7C15 + d) & MASK64 for d in range(-3, 4)]
    nums += [rng.randrange(26**7) for _ in range(200)]
    nums += [rng.randrange(2**64) for _ in range(100)]
    return nums


NUMBERS = _numbers()


def test_core_matches_spec_shuffle():
    assert len(NUMBERS) >= 300
    for n in NUMBERS:
        got = deal_cards(n)
        assert sorted(got) == list(range(52)), n
        assert got == spec_deal(n), n


@pytest.mark.parametrize("seed", [0, 18, 26**7 - 1, MASK64, MASK64 - 0x9E3779B97F4A7C15 + 1])
def test_splitmix64_stream(seed):
    state, expected = seed, []
    for _ in range(60):
        state, x = spec_next(state)
        expected.append(x)
    assert splitmix64(seed, 60) == expected


def test_deals_differ():
    deals = {tuple(deal_cards(n)) for n in range(200)}
    assert len(deals) == 200


@pytest.mark.parametrize("bad", [-1, 2**64])
def test_out_of_range_numbers_are_refused(bad):
    with pytest.raises((OverflowError, ValueError)):
        deal_cards(bad)
