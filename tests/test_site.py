"""The documentation site (mkdocs.yml; https://pyramid-solitaire.readthedocs.io/): built from
the checkout as Read the Docs builds it, with warnings as errors, every link and anchor of the
built pages checked (tools/check_site.py), and the API reference complete. Needs the docs
extra (MkDocs, mkdocstrings); a few seconds, nothing compiled or imported.

The pages' examples run in tests/test_docs.py."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import pyramid_solitaire

from conftest import REPO, repo_file

sys.path.insert(0, str(REPO / "tools"))


def site_config_or_skip() -> None:
    """The site's own files are in a checkout, not in the sdist (MANIFEST.in): skip there."""
    for name in ("mkdocs.yml", ".readthedocs.yaml"):
        if not (REPO / name).exists() and (REPO / "PKG-INFO").exists():
            pytest.skip(f"{name} is not in the sdist: the site is built from a checkout")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built once for this module's tests: (its folder, the build's output)."""
    pytest.importorskip("mkdocs", reason="the docs extra (mkdocs) is not installed")
    pytest.importorskip("mkdocstrings", reason="the docs extra (mkdocstrings) is not installed")
    site_config_or_skip()
    out = tmp_path_factory.mktemp("site")
    env = {k: v for k, v in os.environ.items() if not k.startswith("READTHEDOCS")}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=repo_file("mkdocs.yml").parent,
        capture_output=True,
        text=True,
        timeout=300,
        env={**env, "NO_MKDOCS_2_WARNING": "1"},  # Material's notice on MkDocs 2 (stderr)
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    return out, proc.stdout + proc.stderr


def test_the_site_builds_without_a_warning(site):
    _, log = site
    noisy = [line for line in log.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert not noisy, "\n".join(noisy)
    assert "Documentation built" in log, log[-2000:]


def test_every_link_and_anchor_of_the_built_site_resolves(site):
    import check_site

    folder, _ = site
    problems, external = check_site.check(folder, *check_site.urls_of(REPO / "mkdocs.yml"))
    assert not problems, "\n".join(problems)
    assert "https://solitairewinrates.com/Pyramid.html" in external  # seen, not fetched


def test_every_page_of_docs_and_the_readme_are_on_the_site(site):
    folder, _ = site
    pages = sorted(p.relative_to(REPO / "docs") for p in (REPO / "docs").rglob("*.md"))
    assert len(pages) > 20
    for page in pages:
        built = page.parent if page.stem == "index" else page.with_suffix("")
        assert (folder / built / "index.html").is_file(), page
    home = (folder / "index.html").read_text(encoding="utf-8")
    assert "A fast, exact Pyramid Solitaire engine" in home
    # the README's links to docs/ lead to the site's pages, not to missing files
    assert 'href="solver/"' in home and 'href="docs/solver.md"' not in home


def test_the_api_reference_has_every_public_name(site):
    """Each name of ``pyramid_solitaire.__all__`` (but ``__version__``, a plain string) has
    its entry, and the core's stubs give pages of signatures."""
    folder, _ = site
    top = (folder / "api" / "pyramid_solitaire" / "index.html").read_text(encoding="utf-8")
    missing = [
        name
        for name in pyramid_solitaire.__all__
        if name != "__version__" and f'id="pyramid_solitaire.{name}"' not in top
    ]
    assert not missing, missing
    session = (folder / "api" / "session" / "index.html").read_text(encoding="utf-8")
    assert 'id="pyramid_solitaire.session.Session.tap"' in session
    core = (folder / "api" / "core" / "index.html").read_text(encoding="utf-8")
    for name in ("pyramid_core.simulate.run_decks", "pyramid_core.solver.solve_decks"):
        assert f'id="{name}"' in core, name
    # docstrings' doctest blocks are code, not quotes (tools/docs_griffe.py)
    assert "<blockquote>\n<blockquote>" not in top
    assert '<span class="gp">&gt;&gt;&gt; </span>' in top  # (pycon: the prompt highlighted)


def test_the_readme_links_to_the_site():
    readme = repo_file("README.md").read_text(encoding="utf-8")
    assert "https://pyramid-solitaire.readthedocs.io/" in readme


def test_read_the_docs_builds_the_site_as_the_tests_do():
    site_config_or_skip()
    rtd = repo_file(".readthedocs.yaml").read_text(encoding="utf-8")
    assert "configuration: mkdocs.yml" in rtd and "fail_on_warning: true" in rtd


def test_links_are_rewritten_as_the_site_needs_them():
    """tools/docs_hooks.py: a link written for the repository's web view, on the site."""
    import docs_hooks

    repo = "https://example.org/r"
    cases = [
        ("index.md", "docs/solver.md#budgets", "solver.md#budgets"),
        ("index.md", "docs/images/atlas.png", "images/atlas.png"),
        ("index.md", "examples/README.md", "examples.md"),
        ("internals/perf-log.md", "../../README.md#speed", "../index.md#speed"),
        ("internals/layers.md", "../../CONTRIBUTING.md", "../contributing.md"),
        ("internals/simulator.md", "../simulation.md#speed", "../simulation.md#speed"),
        ("env.md", "../examples/reinforce_msc.py", f"{repo}/blob/main/examples/reinforce_msc.py"),
        ("examples.md", "weights/", f"{repo}/tree/main/examples/weights"),
        ("examples.md", "../docs/images/imitate-curve.png", "images/imitate-curve.png"),
        ("rules.md", "https://example.com/x", "https://example.com/x"),
        ("rules.md", "#moves", "#moves"),
        ("rules.md", "nowhere.md", "nowhere.md"),  # left for MkDocs to report
    ]
    for page, target, expected in cases:
        assert docs_hooks.rewrite_target(target, page, repo) == expected, (page, target)
    text = "See [a](docs/rules.md) and\n```\n[b](docs/rules.md)\n```\n[c](\ndocs/env.md)"
    assert docs_hooks.rewrite_links(text, "index.md", repo) == (
        "See [a](rules.md) and\n```\n[b](docs/rules.md)\n```\n[c](\nenv.md)"
    )


def test_docstrings_become_markdown():
    """tools/docs_griffe.py: doctest blocks fenced, Sphinx roles as code, ``::`` as ``:``."""
    pytest.importorskip("griffe", reason="the docs extra (griffe) is not installed")
    import docs_griffe

    text = "A :class:`Session` or :func:`~pyramid_solitaire.solve`::\n\n>>> 1 + 1\n2\n\nEnd."
    assert docs_griffe.to_markdown(text) == (
        "A `Session` or `solve`:\n\n```pycon\n>>> 1 + 1\n2\n```\n\nEnd."
    )
    # a block right after text, and one that ends the docstring
    assert (
        docs_griffe.to_markdown("Text:\n  >>> x\n  1") == "Text:\n\n  ```pycon\n  >>> x\n  1\n  ```"
    )
    assert docs_griffe.to_markdown("```\n>>> kept\n```") == "```\n>>> kept\n```"


def test_the_link_checker_finds_broken_links(tmp_path):
    import check_site

    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text(
        '<h1 id="top">x</h1><a href="a/">ok</a><a href="a/#there">ok</a><a href="#top">ok</a>'
        '<a href="a/#nowhere">bad anchor</a><a href="b/">bad page</a>'
        '<a href="https://example.org/r/blob/main/README.md">ok</a>'
        '<a href="https://example.org/r/blob/main/NOPE.md">bad file</a>'
        '<a href="/a/">ok</a><a href="https://site.example/a/#there">ok</a>'
        '<a href="https://elsewhere.example/">external</a>'
    )
    (tmp_path / "a" / "index.html").write_text('<p id="there">y</p>')
    problems, external = check_site.check(
        tmp_path, "https://site.example/", "https://example.org/r", REPO
    )
    assert [p.split(": ")[1] for p in problems] == [
        "a/#nowhere",
        "b/",
        "https://example.org/r/blob/main/NOPE.md",
    ], problems
    assert external == {"https://elsewhere.example/"}
