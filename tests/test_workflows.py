"""The GitHub workflows (.github/workflows/) and the Read the Docs config: valid by actionlint
and by their JSON schemas (check-jsonschema's copies, vendored in the package: no network),
every action pinned by its full commit with its release in a comment, every job with a time
limit, and the release workflow's publish path (trusted publishing on a v* tag, a dry run to
TestPyPI by hand). actionlint and check-jsonschema come with the lint extra; their tests skip,
naming it, where it is not installed (.ci/run installs it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, repo_file

if not (REPO / ".github").exists() and (REPO / "PKG-INFO").exists():
    pytest.skip("the CI's files (.github/) are not in the sdist", allow_module_level=True)

WORKFLOWS = sorted(repo_file(".github", "workflows").glob("*.yml"))
#: ``uses: owner/repo@<40 hex> # vX.Y.Z`` (or a local reusable workflow, ./...)
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*$")


def tool(name: str) -> str:
    """The lint extra's command ``name``: beside this Python first (its venv), else on PATH."""
    here = Path(sys.executable).parent / (name + (".exe" if os.name == "nt" else ""))
    found = str(here) if here.exists() else shutil.which(name)
    if found is None:
        pytest.skip(f"the lint extra ({name}) is not installed")
    return found


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=repo_file(".github").parent, capture_output=True, text=True, timeout=120
    )


def jobs(path: Path) -> dict[str, str]:
    """Each job of the workflow at ``path``: its name and its block of text."""
    text = path.read_text(encoding="utf-8")
    body = text.split("\njobs:\n", 1)[1]
    parts = re.split(r"^  ([\w-]+):\n", body, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_there_are_the_workflows():
    assert [p.name for p in WORKFLOWS] == ["ci.yml", "release.yml", "wheels.yml"]


def test_actionlint_finds_nothing():
    proc = run(tool("actionlint"), "-no-color", *map(str, WORKFLOWS))
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr


def test_workflows_match_the_github_schema():
    proc = run(tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows",
               *map(str, WORKFLOWS))  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_read_the_docs_config_matches_its_schema():  # (no sdist has .github/ to get here)
    proc = run(tool("check-jsonschema"), "--builtin-schema", "vendor.readthedocs",
               str(repo_file(".readthedocs.yaml")))  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_is_pinned_by_commit(path):
    uses = re.findall(r"^\s*(?:- )?uses: (.+)$", path.read_text(encoding="utf-8"), re.M)
    assert uses
    loose = [u for u in uses if not (u.startswith("./") or PINNED.match(u))]
    assert not loose, loose


def test_one_action_one_commit():
    """The same action at the same release everywhere (one commit per action)."""
    seen: dict[str, set[str]] = {}
    for path in WORKFLOWS:
        for action, pin in re.findall(r"uses: ([\w.-]+/[\w./-]+)@(\S+ # \S+)", path.read_text()):
            seen.setdefault(action, set()).add(pin)
    assert {a: p for a, p in seen.items() if len(p) > 1} == {}


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_job_has_a_time_limit(path):
    found = jobs(path)
    assert found
    for name, block in found.items():
        if re.search(r"^    uses: ", block, re.M):
            continue  # a call of a reusable workflow: its own jobs have their limits
        assert re.search(r"^    timeout-minutes: \d+$", block, re.M), name


def test_the_release_publishes_a_tag_by_trusted_publishing():
    release = repo_file(".github", "workflows", "release.yml")
    text = release.read_text(encoding="utf-8")
    assert re.search(r'^  push:\n    tags: \["v\*"\]$', text, re.M)
    assert "\n  workflow_dispatch:\n" in text
    found = jobs(release)
    # the tag is checked, then the wheels workflow's own jobs build and test every file
    assert 'python tools/check_tag.py "$GITHUB_REF_NAME"' in found["check_tag"]
    assert "uses: ./.github/workflows/wheels.yml" in found["build"]
    assert "needs: check_tag" in found["build"]
    assert "workflow_call:" in repo_file(".github", "workflows", "wheels.yml").read_text()
    # nothing but the upload jobs may have an OIDC token; no password or token anywhere
    assert text.count("id-token: write") == 2
    assert not re.search(r"^\s*(password|user):", text, re.M) and "secrets." not in text
    for name, index, dispatch in (("publish", "pypi", False), ("publish_test", "testpypi", True)):
        block = found[name]
        assert "needs: build" in block and "id-token: write" in block
        assert f"      name: {index}\n" in block  # the environment
        assert "pypa/gh-action-pypi-publish@" in block
        # the sdist is uploaded with the wheels
        assert "pattern: wheels-*" in block and "name: sdist" in block
        if dispatch:
            assert "if: github.event_name == 'workflow_dispatch'" in block
            assert "repository-url: https://test.pypi.org/legacy/" in block
        else:
            assert "if: github.event_name == 'push' && github.ref_type == 'tag'" in block
            assert "repository-url" not in block


def test_the_readme_names_the_images_the_wheels_are_built_on():
    """The README's platform table and [tool.cibuildwheel] agree on manylinux and musllinux."""
    pyproject = repo_file("pyproject.toml").read_text(encoding="utf-8")
    readme = repo_file("README.md").read_text(encoding="utf-8")
    images = dict(re.findall(r'^(m\w+linux)-(?:x86_64|aarch64)-image = "(\w+)"$', pyproject, re.M))
    assert images == {"manylinux": "manylinux_2_28", "musllinux": "musllinux_1_2"}, images
    for image in images.values():
        assert f"({image})" in readme, image
    assert "manylinux_2_17" not in readme and "manylinux2014" not in readme
