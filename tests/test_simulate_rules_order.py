"""Win rates of nested rule sets come in order: a looser rule set never makes a policy look
worse, beyond the noise.

More redeals only add moves: under draw 1, redeals 0 <= 1 <= 2 <= 63 <= unlimited, with and
without stock_top_playable, on the same deals. Game by game this is too strong for greedy (a
looser rule can change its choices) and the random policy's games differ once a recycle that
one rule set allows and the other does not is among its choices, so the rates are compared
with a tolerance of three standard errors of their difference.

Under unlimited redeals the random policy ends a game at a recycle only when no removal was
legal at any position of the pass (the game could only repeat). It used to end after a pass
that removed nothing, even when it had simply chosen to draw instead of removing, and then
`unlimited` won 9% of these deals where `redeals=63` won 33%.
"""

import functools
import math

import pytest

from pyramid_solitaire import Rules, simulate

GAMES = 3000
REDEALS = [0, 1, 2, 63, "unlimited"]


def _tolerance(p, q, n=GAMES, sigmas=3.0):
    """sigmas standard errors of the difference of two win rates over n games each (at least
    one game's worth, so that rates near 0 are not held to zero)."""
    return max(sigmas * math.sqrt((p * (1 - p) + q * (1 - q)) / n), 1.0 / n)


@functools.cache
def _rates(policy, stp):
    return {
        r: simulate(
            GAMES,
            start=20_000,
            rules=Rules(waste_at_deal=0, redeals=r, stock_top_playable=stp),
            policy=policy,
            seed=12,
            threads=2,
        ).win_rate
        for r in REDEALS
    }


@pytest.mark.parametrize("stp", [False, True], ids=["waste-top", "stock-top-playable"])
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_more_redeals_never_win_less(policy, stp):
    rates = _rates(policy, stp)
    for stricter, looser in zip(REDEALS, REDEALS[1:]):
        p, q = rates[stricter], rates[looser]
        assert q >= p - _tolerance(p, q), (
            f"{policy}: redeals={looser!r} wins {q:.2%}, redeals={stricter!r} {p:.2%}"
        )
    # the rates really grow (the test would see a rule set that does nothing)
    assert rates[63] > rates[0] + 0.1


@pytest.mark.parametrize("stp", [False, True], ids=["waste-top", "stock-top-playable"])
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_unlimited_redeals_win_as_often_as_63(policy, stp):
    """63 redeals are more than almost any game uses, so unlimited redeals can add little."""
    rates = _rates(policy, stp)
    p, q = rates[63], rates["unlimited"]
    assert abs(q - p) <= _tolerance(p, q), f"{policy}: unlimited wins {q:.2%}, redeals=63 {p:.2%}"
