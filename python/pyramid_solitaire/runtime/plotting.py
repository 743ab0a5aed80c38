"""matplotlib for the figures written to files (survey and atlas plots): the one place that
imports it headless and says which extra to install when it is missing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .atomic import write_atomic_with


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


def figure_path(path: Any) -> Path:
    """A figure's file name, checked (ValueError when it is not a name)."""
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path).strip():
        raise ValueError(f"plot must name a file, got {path!r}")
    return Path(path)


def save_figure(fig: Any, path: str | os.PathLike[str]) -> None:
    """Save ``fig`` to ``path`` atomically (readable by all, as the other files we write
    for sharing), its format by the suffix (PNG without one), and close it."""
    plt = pyplot()
    try:
        kind = figure_path(path).suffix.lstrip(".").lower() or "png"
        write_atomic_with(path, lambda f: fig.savefig(f, format=kind), mode=0o644)
    finally:
        plt.close(fig)
