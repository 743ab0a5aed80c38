"""The examples in the README and in the docstrings run as written."""

import doctest
import importlib
import pkgutil
import re

import pytest

import pyramid_solitaire

from conftest import REPO, import_or_skip_extra, repo_file

#: Every module of the package, found by walking it (a new module's examples run too).
MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(pyramid_solitaire.__path__, "pyramid_solitaire.")
    if not m.name.endswith("__main__")
)  # importing it runs the CLI


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = import_or_skip_extra(name)  # the tui, web, rl modules need their extras
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_walk_finds_the_documented_modules():
    with_examples = set()
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:  # a module of an optional extra: the ones below need none
            continue
        if any(t.examples for t in doctest.DocTestFinder().find(module)):
            with_examples.add(name)
    assert {
        "pyramid_solitaire.session.difficulty",
        "pyramid_solitaire.session.session",
        "pyramid_solitaire.analysis.simulate",
        "pyramid_solitaire.model.deal",
    } <= with_examples


#: The pages with examples to run (``>>>``): every page of the documentation site (the README,
#: CONTRIBUTING.md, the changelog, examples/README.md and docs/, tools/docs_hooks.py's PAGES).
DOC_PAGES = sorted(
    str(p.relative_to(REPO)).replace("\\", "/")
    for p in [
        REPO / "README.md",
        REPO / "CONTRIBUTING.md",
        REPO / "CHANGELOG.md",
        REPO / "examples" / "README.md",
        *(REPO / "docs").rglob("*.md"),
    ]
    if p.is_file() and re.search(r"^>>> ", p.read_text(encoding="utf-8"), re.M)
)


def test_the_pages_with_examples_are_found():
    assert {
        "README.md",
        "docs/session.md",
        "docs/env.md",
        "docs/fair.md",
        "docs/solver.md",
    } <= set(DOC_PAGES), DOC_PAGES


@pytest.mark.parametrize("path", DOC_PAGES)
def test_markdown_examples(path):
    result = doctest.testfile(
        str(repo_file(*path.split("/"))),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted > 0 and result.failed == 0


def test_contributing_names_only_files_that_are_there():
    """CONTRIBUTING.md's dev loop points at tests, tools and sources: each one exists (a
    renamed or removed file would leave a newcomer running nothing)."""
    text = repo_file("CONTRIBUTING.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\b((?:tests|tools|src|python|docs|data)/[\w./*-]+\.\w+)", text))
    assert len(named) > 15, named
    root = repo_file("CONTRIBUTING.md").parent
    missing = [n for n in sorted(named) if not list(root.glob(n))]
    assert not missing, missing
