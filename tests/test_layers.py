"""The package grouped by layer (docs/internals/layers.md): each module imports only modules
of its own layer or of the layers below, no modules import each other in a circle, and every
public name of the flat layout (tests/data/public_api.json, taken before the move) still
imports from its old place."""

from __future__ import annotations

import ast
import importlib
import json

import pytest

from conftest import EXTRAS, import_or_skip_extra, repo_file

PACKAGE = "pyramid_solitaire"
ROOT = repo_file("python", PACKAGE)
#: bottom first; a module may import its own layer's modules and those of the layers before
LAYERS = ["runtime", "model", "inputs", "analysis", "rl", "session", "frontends", "commands"]
#: the frontends' packages share one layer (neither imports the other)
FRONTENDS = {"tui", "web"}


def _name(path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> int | None:
    """The layer of a module of the package (None: the package's own __init__ and
    __main__, which may import anything)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[1] == "__main__":
        return None
    if parts[1] == "_moved":
        return 0  # (it imports nothing of the package)
    top = "frontends" if parts[1] in FRONTENDS else parts[1]
    assert top in LAYERS, f"{module}: in no layer (a module belongs in one of {LAYERS})"
    return LAYERS.index(top)


def _type_only(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _imports(path) -> set[str]:
    """The package's modules this file imports when it runs (at the top or inside a
    function; not under ``if TYPE_CHECKING:``, nor in a module's ``__getattr__``, which
    serves a name that moved only when someone asks it by its old place), as absolute
    names."""
    module = _name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_only(child):
                continue
            if isinstance(node, ast.Module) and getattr(child, "name", None) == "__getattr__":
                continue
            if isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if target == PACKAGE or target.startswith(PACKAGE + "."):
                    for alias in child.names:
                        sub = f"{target}.{alias.name}"
                        found.add(sub if _is_module(sub) else target)
            elif isinstance(child, ast.Import):
                found.update(a.name for a in child.names if a.name.startswith(PACKAGE + "."))
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found.discard(module)
    return {m for m in found if m != PACKAGE}


def _is_module(name: str) -> bool:
    rel = ROOT.parent.joinpath(*name.split("."))
    return rel.with_suffix(".py").exists() or (rel / "__init__.py").exists()


def _graph() -> dict[str, set[str]]:
    return {_name(p): _imports(p) for p in sorted(ROOT.rglob("*.py"))}


def test_every_module_is_in_a_layer_and_imports_only_downwards():
    wrong = []
    for module, targets in _graph().items():
        here = _layer(module)
        if here is None:
            continue
        for target in targets:
            there = _layer(target)
            if there is not None and there > here:
                wrong.append(f"{module} ({LAYERS[here]}) imports {target} ({LAYERS[there]})")
    assert not wrong, "a lower layer imports a higher one:\n" + "\n".join(sorted(wrong))


def test_no_modules_import_each_other_in_a_circle():
    graph = _graph()
    # Tarjan's strongly connected components
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for v in graph:
        if v not in index:
            strong(v)
    assert not circles, "modules that import each other in a circle: " + "; ".join(
        ", ".join(c) for c in circles
    )


PUBLIC = json.loads(repo_file("tests", "data", "public_api.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_every_public_name_still_imports_from_its_old_place(module):
    got = import_or_skip_extra(module)  # the tui, web and rl modules need their extras
    missing = [n for n in PUBLIC[module] if not hasattr(got, n)]
    assert not missing, f"{module} lost {missing}"


def test_an_old_name_is_the_new_module_itself():
    from pyramid_solitaire import _moved

    checked = 0
    for old, new in _moved.MOVED.items():
        try:
            moved = importlib.import_module(f"{PACKAGE}.{new}")
        except ImportError as e:  # a module of an extra not installed: its old name too
            assert (e.name or "").split(".")[0] in EXTRAS, e
            with pytest.raises(ImportError):
                importlib.import_module(f"{PACKAGE}.{old}")
            continue
        assert importlib.import_module(f"{PACKAGE}.{old}") is moved, old
        checked += 1
    assert checked


def test_a_module_first_imported_by_its_old_name_keeps_its_own_spec():
    """Imported first by an old name (a fresh interpreter), a module is still the module of
    its new place: its spec, whose parent is its package, so that its relative imports
    resolve where it lives (Python 3.12 warns when they disagree; 3.15 uses the spec's)."""
    import subprocess
    import sys

    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "import pyramid_solitaire.survey as old\n"
        "import pyramid_solitaire.analysis.survey as new\n"
        "assert old is new\n"
        "assert new.__spec__.name == 'pyramid_solitaire.analysis.survey', new.__spec__\n"
        "assert new.__package__ == new.__spec__.parent == 'pyramid_solitaire.analysis'\n"
        "import importlib.util\n"
        "assert importlib.util.find_spec('pyramid_solitaire.survey') is not None\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-1500:]
