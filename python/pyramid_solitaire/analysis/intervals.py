"""Confidence intervals of win rates, for every result that reports one (simulations, the
fair policies' chance to win, the tables)."""

from __future__ import annotations

from ..runtime import args as _args

__all__ = ["wilson_interval"]

_Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution


def wilson_interval(wins: int, games: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for the default z)."""
    games = _args.whole("games", games, 1, 1 << 62)
    wins = _args.whole("wins", wins, 0, games)
    z = _args.real("z", z)
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    center = (p + z2 / (2 * games)) / denom
    half = z * (p * (1 - p) / games + z2 / (4 * games * games)) ** 0.5 / denom
    return max(0.0, center - half), min(1.0, center + half)
