"""Where the modules of the flat layout (0.1) live now that the package is grouped by layer
(docs/internals/layers.md): ``import pyramid_solitaire.solver`` and ``from
pyramid_solitaire.batch import greedy_actions`` keep working, and give the very module of
the new place (the same object: its names, its state, what a test patches), with no warning.
The package installs the finder below when it is imported."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

#: old module (under pyramid_solitaire) -> its place now
MOVED = {
    "_args": "runtime.args",
    "_atomic": "runtime.atomic",
    "_parallel": "runtime.parallel",
    "_cluster": "runtime.cluster",
    "_plotting": "runtime.plotting",
    "cards": "model.cards",
    "rules": "model.rules",
    "reasons": "model.reasons",
    "deal": "model.deal",
    "move": "model.move",
    "game": "model.game",
    "render": "model.render",
    "session.profiles": "model.profiles",
    "deals_input": "inputs.deals",
    "jsonin": "inputs.jsonin",
    "jsonout": "inputs.jsonout",
    "solver": "analysis.solver",
    "fair": "analysis.fair",
    "batch": "analysis.batch",
    "callable_policy": "analysis.callable_policy",
    "simulate": "analysis.simulate",
    "survey": "analysis.survey",
    "atlas": "analysis.atlas",
    "env": "rl.env",
    "cli": "commands.cli",
}
_PACKAGE = __name__.rpartition(".")[0]


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old name and loads it as the module of its new place."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        prefix = _PACKAGE + "."
        if fullname.startswith(prefix) and fullname[len(prefix) :] in MOVED:
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def __init__(self) -> None:
        # old name -> the spec of the module of its new place, from create_module to
        # exec_module (an old name's import is one at a time: the import system's lock)
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(f"{_PACKAGE}.{MOVED[spec.name[len(_PACKAGE) + 1 :]]}")
        self._specs[spec.name] = module.__spec__  # (the import system sets the old one next)
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module of the new place ran when it was imported. Its own
        spec is given back: the import system set the old name's, whose parent is not its
        package (its relative imports would warn, and from Python 3.15 fail)."""
        old = module.__spec__.name if module.__spec__ is not None else None
        if old in self._specs:
            module.__spec__ = self._specs.pop(old)


def install() -> None:
    """The finder, and at once the old names of the modules already imported (the package
    imports most of them): registered directly, they never rebind a name of the package
    (``pyramid_solitaire.simulate`` stays the function), and they are attributes of their
    package as they were (``pyramid_solitaire.solver``)."""
    for old, new in MOVED.items():
        module = sys.modules.get(f"{_PACKAGE}.{new}")
        if module is None:
            continue
        sys.modules.setdefault(f"{_PACKAGE}.{old}", module)
        parent, _, leaf = f"{_PACKAGE}.{old}".rpartition(".")
        if parent in sys.modules and not hasattr(sys.modules[parent], leaf):
            setattr(sys.modules[parent], leaf, module)
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
