"""The core's type stubs (pyramid_core/*.pyi) name exactly what its compiled modules export.

For every compiled module of pyramid_core: the names its stub defines at the top level are
the names the module has (less the dunder and ``__pyx_*`` names Cython adds; C-level
``cdef`` functions, structs and enums, which only ``cimport`` reaches, are not Python names at
all), and each class of the stub has the public members of the class at run time. A stub may
add private, type-only helpers (a ``_Name`` TypedDict or Protocol, or a TypeAlias) that the
module has not. A module without a stub must export nothing. So a name added to (or removed
from) a ``.pyx`` fails here until its stub says so.
"""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import pathlib

import pytest

import pyramid_core

CORE = pathlib.Path(pyramid_core.__file__).parent
TYPE_ONLY_BASES = {"TypedDict", "Protocol"}


def compiled_modules() -> list[str]:
    """The names of the compiled modules beside pyramid_core/__init__.py."""
    suffixes = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)
    names = set()
    for path in CORE.iterdir():
        suffix = next((s for s in suffixes if path.name.endswith(s)), None)
        if suffix is not None:  # (the longest: .cpython-311-x86_64-linux-gnu.so, not .so)
            names.add(path.name[: -len(suffix)])
    return sorted(names)


MODULES = compiled_modules()


def _base_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def _type_only(node: ast.stmt) -> bool:
    """A stub-only helper for the type checker: a TypedDict or Protocol class, a TypeAlias."""
    if isinstance(node, ast.ClassDef):
        return any(_base_name(b) in TYPE_ONLY_BASES for b in node.bases)
    return isinstance(node, ast.AnnAssign) and _base_name(node.annotation) == "TypeAlias"


def _names(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    """The names a stub's statements define (imports left out), with their statement."""
    out: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node
    return out


def _dunder(name: str) -> bool:
    return name.startswith("__")  # (__pyx_capi__, __pyx_unpickle_Enum, __test__, ...)


def _stub(name: str) -> ast.Module | None:
    path = CORE / f"{name}.pyi"
    return ast.parse(path.read_text(encoding="utf-8")) if path.exists() else None


def test_every_compiled_module_is_checked():
    assert {"batch", "cards", "position", "simulate", "solver"} <= set(MODULES), MODULES
    stubs = {p.stem for p in CORE.glob("*.pyi")}
    assert stubs <= set(MODULES), f"stubs of no compiled module: {sorted(stubs - set(MODULES))}"


@pytest.mark.parametrize("name", MODULES)
def test_stub_names_what_the_module_exports(name):
    module = importlib.import_module(f"pyramid_core.{name}")
    exported = {n for n in dir(module) if not _dunder(n)}
    tree = _stub(name)
    if tree is None:
        assert not exported, f"pyramid_core.{name} has no .pyi but exports {sorted(exported)}"
        return
    defined = _names(tree.body)
    stub_only = {n for n, node in defined.items() if n.startswith("_") and _type_only(node)}
    stubbed = set(defined) - stub_only
    assert not (exported - stubbed), f"{name}.pyi lacks {sorted(exported - stubbed)}"
    assert not (stubbed - exported), f"{name}.pyi names what the module has not: " + str(
        sorted(stubbed - exported)
    )
    assert not (stub_only & exported), "a type-only helper shadows a name of the module"


@pytest.mark.parametrize("name", MODULES)
def test_stub_classes_name_their_members(name):
    module = importlib.import_module(f"pyramid_core.{name}")
    tree = _stub(name)
    if tree is None:
        return
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or _type_only(node):
            continue
        cls = getattr(module, node.name)
        public = {n for n in vars(cls) if not n.startswith("_")}
        stubbed = {n for n in _names(node.body) if not n.startswith("_")}
        assert public == stubbed, (
            f"{name}.pyi class {node.name}: lacks {sorted(public - stubbed)}, "
            f"has extra {sorted(stubbed - public)}"
        )
