"""The version means something (CONTRIBUTING.md, "The changelog and the version"): it is
written once, it is a semantic version, and the changelog has its section."""

from __future__ import annotations

import importlib.metadata
import re

import pyramid_solitaire

from conftest import repo_file

SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")


def test_version_is_semantic():
    assert SEMVER.match(pyramid_solitaire.__version__)


def test_version_written_once():
    # (pyproject.toml read as text: tomllib is not in Python 3.10)
    text = repo_file("pyproject.toml").read_text()
    project = text.split("\n[project]\n", 1)[1].split("\n[", 1)[0]
    assert not re.search(r"^version\s*=", project, re.M)
    # (the readme is dynamic too: setup.py makes its links absolute for the package index)
    assert re.search(r'^dynamic = \["version"(?:, "\w+")*\]', text, re.M)
    assert re.search(
        r'^\[tool\.setuptools\.dynamic\]\nversion = \{ attr = "pyramid_solitaire\.__version__" \}',
        text,
        re.M,
    )
    try:
        installed = importlib.metadata.version("pyramid-solitaire")
    except importlib.metadata.PackageNotFoundError:  # the checkout, run in place
        installed = pyramid_solitaire.__version__
    assert installed == pyramid_solitaire.__version__


def test_changelog_has_the_version():
    """The changelog (Keep a Changelog): "Unreleased" first, then the released versions, the
    newest first, each with its date; the newest is the package's version."""
    text = repo_file("CHANGELOG.md").read_text()
    heads = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.M)
    assert heads[0] == ("Unreleased", "")
    released = heads[1:]
    assert released and all(SEMVER.match(v) and day for v, day in released)
    assert released[0][0] == pyramid_solitaire.__version__
    versions = [tuple(map(int, v.split("."))) for v, _ in released]
    assert versions == sorted(versions, reverse=True)
