"""The package as the package index shows it: the built metadata (the project's addresses,
authors, classifiers) and the long description, README.md with its relative links made
absolute by setup.py (the index resolves none: a relative link or image there is broken),
while the repository's README keeps its relative ones."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import pathlib
import re
from types import ModuleType

import pytest

import pyramid_solitaire

from conftest import repo_file, repo_module

REPOSITORY = "https://github.com/pyramid-solitaire/pyramid-solitaire"
BLOB = f"{REPOSITORY}/blob/main/"
RAW = "https://raw.githubusercontent.com/pyramid-solitaire/pyramid-solitaire/main/"

# Found here independently of setup.py's own expression: code (fenced blocks, inline spans)
# is taken out, then every link target is picked up, inline or image, reference definition,
# or HTML attribute.
CODE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[ \t]*$|`[^`\n]+`", re.S | re.M)
LINK = re.compile(
    r"\]\(\s*<?([^)\s>]+)|^ {0,3}\[[^\]\n]+\]:[ \t]*<?([^\s>]+)|\b(?:src|href)=[\"']([^\"']+)",
    re.M,
)
ABSOLUTE = re.compile(r"^(?:https?|mailto):")


def links(markdown: str) -> list[str]:
    """The link and image targets of ``markdown``, outside code."""
    text = CODE.sub("", markdown)
    return [next(g for g in m.groups() if g) for m in LINK.finditer(text)]


def relative(markdown: str) -> list[str]:
    return [t for t in links(markdown) if not ABSOLUTE.match(t)]


def setup_py() -> ModuleType:
    """setup.py as a module (its build runs only as __main__, so nothing is built here)."""
    return repo_module("pyramid_setup", "setup.py")


def test_setup_makes_every_link_of_the_readme_absolute() -> None:
    readme = repo_file("README.md").read_text(encoding="utf-8")
    out = setup_py().absolute_links(readme)
    # the repository's README keeps relative links (GitHub and the docs site resolve them)
    assert len(relative(readme)) >= 10, links(readme)
    assert relative(out) == []
    before, after = links(readme), links(out)
    assert len(after) == len(before)
    for old, new in zip(before, after):
        if ABSOLUTE.match(old):
            assert new == old
        elif old.endswith((".png", ".svg", ".jpg", ".gif")):
            assert new == RAW + old, (old, new)
        else:
            assert new == BLOB + old, (old, new)
    assert CODE.findall(out) == CODE.findall(readme)  # code is left as it is
    assert setup_py().absolute_links(out) == out  # and so is an absolute link


@pytest.mark.parametrize(
    "text, made",
    [
        ("[the rules](docs/rules.md)", f"[the rules]({BLOB}docs/rules.md)"),
        ("see [a `b` [c]](./docs/x.md#part).", f"see [a `b` [c]]({BLOB}docs/x.md#part)."),
        ("[two\nlines](docs/env.md)", f"[two\nlines]({BLOB}docs/env.md)"),
        ("![A plot](docs/images/atlas.png)", f"![A plot]({RAW}docs/images/atlas.png)"),
        ('![p](docs/a.png "title")', f'![p]({RAW}docs/a.png "title")'),
        ("[up](#install)", f"[up]({BLOB}README.md#install)"),
        ("[ref]: docs/solver.md", f"[ref]: {BLOB}docs/solver.md"),
        (
            '<img src="docs/images/tui.svg" alt="x">',
            f'<img src="{RAW}docs/images/tui.svg" alt="x">',
        ),
        ('<a href="CHANGELOG.md">log</a>', f'<a href="{BLOB}CHANGELOG.md">log</a>'),
        ("[site](https://pyramid-solitaire.readthedocs.io/)", None),
        ("[mail](mailto:x@example.org)", None),
        ("```python\n>>> table[0](1)\n```\n", None),
        ("`deals[0](x)` and ``", None),
    ],
)
def test_absolute_links(text: str, made: str | None) -> None:
    assert setup_py().absolute_links(text) == (text if made is None else made)


def installed_metadata() -> importlib.metadata.PackageMetadata:
    """The metadata of the distribution pyramid_solitaire is imported from: a skip where it
    is imported from the source tree (PYTHONPATH=python:src, an editable install), which has
    no built metadata of its own."""
    location = pathlib.Path(pyramid_solitaire.__file__).resolve().parent.parent
    for dist in importlib.metadata.distributions(path=[str(location)]):
        if dist.metadata["Name"] == "pyramid-solitaire":
            return dist.metadata
    pytest.skip(
        f"pyramid_solitaire is imported from {location}, a source tree, not an installed "
        "distribution: the built metadata is checked where the package is installed (.ci/run, "
        "tools/check_wheel.sh)"
    )


def test_the_built_long_description_has_no_relative_link() -> None:
    meta = installed_metadata()
    description = meta.get_payload() or meta["Description"]  # type: ignore[attr-defined]
    assert meta["Description-Content-Type"] == "text/markdown"
    assert description.startswith("# pyramid-solitaire")
    assert len(links(description)) >= 10
    assert relative(description) == []


def test_the_built_metadata_names_the_project() -> None:
    meta = installed_metadata()
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert urls == {
        "Source": REPOSITORY,
        "Documentation": "https://pyramid-solitaire.readthedocs.io/",
        "Changelog": f"{BLOB}CHANGELOG.md",
        "Issues": f"{REPOSITORY}/issues",
    }
    assert meta["Author"] == meta["Maintainer"] == "pyramid-solitaire maintainers"
    assert meta["License-Expression"] == "MIT"
    classifiers = meta.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers
    # every version requires-python allows up to the newest wheel built
    assert {c.rsplit(" :: ", 1)[1] for c in classifiers if re.search(r":: 3\.\d+$", c)} == {
        "3.10",
        "3.11",
        "3.12",
        "3.13",
        "3.14",
    }
    assert not [c for c in classifiers if c.startswith("License ::")]  # (the expression says it)
