"""The environments' Gymnasium ids, registered when the package is imported and Gymnasium is
installed (the ``rl`` extra), without importing the environments themselves: so that
``import pyramid_solitaire`` then ``gymnasium.make("pyramid_solitaire/Pyramid-v0")`` works,
whichever of the two is imported first, and the package imports nothing of Gymnasium's
unless Gymnasium is used.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

#: The single-game environment's id (PyramidEnv; its vector form is PyramidVectorEnv).
ENV_ID = "pyramid_solitaire/Pyramid-v0"


def register(gym: ModuleType) -> None:
    """Register the ids with ``gym`` (Gymnasium), once."""
    if ENV_ID not in gym.registry:
        gym.register(
            id=ENV_ID,
            entry_point="pyramid_solitaire.env:PyramidEnv",
            vector_entry_point="pyramid_solitaire.env:PyramidVectorEnv",
            disable_env_checker=False,
        )


class _WhenImported(importlib.abc.MetaPathFinder):
    """Registers the ids as soon as Gymnasium has been imported (a post-import hook): it
    finds Gymnasium's module spec the usual way and wraps its loader."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        sys.meta_path[:] = [f for f in sys.meta_path if f is not self]  # once
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            original(module)
            register(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def register_when_available() -> None:
    """Register now if Gymnasium is imported, else as soon as it is (nothing when it is not
    installed)."""
    gym: Any = sys.modules.get("gymnasium")
    if gym is not None:
        register(gym)
        return
    if any(isinstance(f, _WhenImported) for f in sys.meta_path):
        return
    try:
        installed = importlib.util.find_spec("gymnasium") is not None
    except (ImportError, ValueError):
        installed = False
    if installed:
        sys.meta_path.insert(0, _WhenImported())
