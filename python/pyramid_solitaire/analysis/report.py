"""What both kinds of per-deal results (:class:`~.simulate.SimulationResult`,
:class:`~.solver.SolveManyResult`) show people, written once: a text histogram, the win
rate's panel of a figure, and matplotlib on screen or headless."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from .intervals import wilson_interval


def histogram_table(
    hist: Sequence[int] | np.ndarray, width: int = 40, label: str = "removed", unit: str = "games"
) -> str:
    """A text table of a histogram (index: pyramid cards removed, or a line's moves): count,
    share, share at least this many, bar."""
    hist = [int(h) for h in hist]
    total = sum(hist)
    used = [k for k, v in enumerate(hist) if v]
    if not used:
        return "(no games)"
    top = max(hist)
    rows = [f"{label:>7}  {unit:>12}  {'share':>7}  {'>= this':>7}"]
    at_least = total
    for k in range(min(used), max(used) + 1):
        n = hist[k]
        bar = "#" * round(n / top * width) if n else ""
        if n and not bar:
            bar = "."
        rows.append(
            f"{k:>7}  {n:>12,}  {n / total * 100:>6.2f}%  {at_least / total * 100:>6.2f}%  {bar}"
        )
        at_least -= n
    return "\n".join(rows)


def has_display() -> bool:
    return bool(
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or sys.platform in ("win32", "darwin")
    )


def pyplot_for(fig: Any, what: str) -> Any:
    """``matplotlib.pyplot`` for a figure shown or saved by the caller (headless when there
    is no display and no figure of the caller's); ImportError naming the ``plot`` extra."""
    try:
        import matplotlib

        if fig is None and not has_display():
            matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(
            f"{what} needs matplotlib: python -m pip install 'pyramid-solitaire[plot]'",
            name="matplotlib",
        ) from None
    return plt


def rate_panel(ax: Any, wins: int, decided: int, label: str = "won") -> None:
    """The win rate as a bar with its 95% Wilson interval, named in its title."""
    if not decided:
        ax.set_title("no game decided", fontsize=10)
        return
    low, high = wilson_interval(wins, decided)
    rate = wins / decided * 100
    ax.bar([0], [rate], color="#58a868", width=0.6)
    ax.errorbar(
        [0], [rate], yerr=[[rate - low * 100], [high * 100 - rate]], color="black", capsize=8
    )
    ax.set_xticks([0], [label])
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, max(5.0, min(100.0, high * 100 * 1.25)))
    ax.set_title(f"{rate:.2f}%\n[{low * 100:.2f}, {high * 100:.2f}]", fontsize=10)
