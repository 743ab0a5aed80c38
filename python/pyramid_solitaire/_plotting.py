"""matplotlib for the figures written to files (survey and atlas plots): the one place that
imports it headless and says which extra to install when it is missing."""

from __future__ import annotations

from typing import Any


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend (figures saved to files, no display needed);
    ``ImportError`` naming the ``plot`` extra when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(
            'a plot needs matplotlib: python -m pip install "pyramid-solitaire[plot]"',
            name="matplotlib",
        ) from None
    return plt
