"""The keyboard cursor: it moves over the targets the session says a tap can act on now
(``state["targets"]``), by where they are drawn. Left and right go to the next target of the
same row (the pyramid's rows, then the talon's row), stopping at its ends; up and down go to
the nearest row above or below that has a target, to the target closest to the cursor's
column (the left one on a tie).

>>> places = {21: (6, 0), 22: (6, 2), "stock": (7, 0), "waste": (7, 6)}
>>> move(places, 21, "right"), move(places, 22, "right"), move(places, 22, "down")
(22, 22, 'stock')
>>> move(places, "waste", "up")
22
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: A target's place on the screen: (row, column of its centre).
Place = tuple[float, float]


def move(places: Mapping[Any, Place], current: Any, direction: str) -> Any:
    """The target the cursor goes to from ``current`` in ``direction`` (``left``, ``right``,
    ``up``, ``down``); ``current`` when there is none that way; the first target when
    ``current`` is not one."""
    if not places:
        return None
    if current not in places:
        return next(iter(places))
    row, col = places[current]
    if direction in ("left", "right"):
        same = sorted((c, i) for i, (t, (r, c)) in enumerate(places.items()) if r == row)
        order = [list(places)[i] for _, i in same]
        k = order.index(current) + (1 if direction == "right" else -1)
        return order[k] if 0 <= k < len(order) else current
    if direction not in ("up", "down"):
        raise ValueError(f"a direction is left, right, up or down, got {direction!r}")
    rows = sorted({r for r, _ in places.values()})
    ahead = [r for r in rows if (r < row if direction == "up" else r > row)]
    if not ahead:
        return current
    target_row = max(ahead) if direction == "up" else min(ahead)
    return min(
        (t for t, (r, _) in places.items() if r == target_row),
        key=lambda t: (abs(places[t][1] - col), places[t][1]),
    )


def nearest(places: Mapping[Any, Place], where: Place | None) -> Any:
    """The target nearest to a place (rows count first): where the cursor goes when the
    target under it is gone; the first target when there is no place."""
    if not places:
        return None
    if where is None:
        return next(iter(places))
    row, col = where
    return min(
        places, key=lambda t: (abs(places[t][0] - row), abs(places[t][1] - col), places[t][1])
    )
