"""The examples in the README and in the docstrings run as written."""
import doctest
import importlib

import pytest

from conftest import repo_file

MODULES = ["cards", "rules", "deal", "move", "game", "jsonout", "session", "session.session",
           "session.messages", "session.profiles", "session.stats", "session.protocol"]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(f"pyramid_solitaire.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("path", ["README.md", "docs/session.md"])
def test_markdown_examples(path):
    result = doctest.testfile(str(repo_file(*path.split("/"))), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
