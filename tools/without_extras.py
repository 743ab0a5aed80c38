#!/usr/bin/env python3
"""Run pytest as on an install with only the ``test`` extra (``pip install
"pyramid-solitaire[test]"``): the modules the other extras bring (textual, aiohttp,
gymnasium, dask.distributed, matplotlib, pyarrow, playwright) cannot be imported, as if they
were not installed. Every test of an optional part must then skip, saying which extra it
needs, and every other test must pass.

    PYTHONPATH=python:src python tools/without_extras.py tests -q       # any pytest arguments
"""

from __future__ import annotations

import importlib.abc
import sys

#: The top-level modules of the optional extras (tests/conftest.py's EXTRAS).
BLOCKED = (
    "textual",
    "aiohttp",
    "gymnasium",
    "distributed",
    "dask",
    "matplotlib",
    "pyarrow",
    "playwright",
)


class _Missing(importlib.abc.MetaPathFinder):
    """Finds the blocked modules first, and says they are not there."""

    def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(
                f"No module named {name!r} (blocked by tools/without_extras.py)", name=name
            )
        return None


def block() -> None:
    for name in list(sys.modules):
        if name.split(".")[0] in BLOCKED:
            del sys.modules[name]
    sys.meta_path.insert(0, _Missing())


if __name__ == "__main__":
    block()
    import pytest

    sys.exit(pytest.main(sys.argv[1:]))
