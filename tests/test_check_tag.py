"""tools/check_tag.py, the release workflow's first step: a tag is released only when it is
``v`` + ``__version__`` and the changelog has that version's section."""

from __future__ import annotations

import os
import subprocess
import sys

import pyramid_solitaire

from conftest import repo_file


def check_tag(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(repo_file("tools", "check_tag.py")), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def test_the_tag_of_this_version_passes():
    tag = f"v{pyramid_solitaire.__version__}"
    proc = check_tag(tag)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == (
        f"check_tag: the tag {tag} is the package's version {pyramid_solitaire.__version__}"
    )


def test_a_tag_of_another_version_fails_and_says_why():
    version = pyramid_solitaire.__version__
    major, minor, _ = map(int, version.split("."))
    for tag in (f"v{major}.{minor + 1}.0", f"v{major + 1}.0.0", version, f"v{version}.1",
                f"v{version}rc1", f"V{version}"):  # fmt: skip
        proc = check_tag(tag)
        assert proc.returncode == 1, tag
        assert f"the tag {tag!r} does not name the package's version" in proc.stderr, tag
        assert f"__version__ is {pyramid_solitaire.__version__!r}" in proc.stderr
        assert proc.stdout == ""


def test_the_tag_comes_from_github_ref_name():
    env = {**os.environ, "GITHUB_REF_NAME": "v0.0.0-not-this"}
    assert check_tag(env=env).returncode == 1
    env["GITHUB_REF_NAME"] = f"v{pyramid_solitaire.__version__}"
    assert check_tag(env=env).returncode == 0
    del env["GITHUB_REF_NAME"]
    proc = check_tag(env=env)
    assert proc.returncode == 2 and "no tag given" in proc.stderr


def test_the_version_is_read_without_importing_and_the_changelog_is_checked(tmp_path):
    sys.path.insert(0, str(repo_file("tools")))
    try:
        import check_tag as tool
    finally:
        sys.path.pop(0)
    assert tool.read_version() == pyramid_solitaire.__version__
    init = tmp_path / "__init__.py"
    init.write_text('"""Doc."""\nimport os\n__version__ = "1.2.3"  # the one place\n')
    assert tool.read_version(init) == "1.2.3"
    init.write_text("__version__ = VERSION\n")
    try:
        tool.read_version(init)
    except ValueError as e:
        assert "no __version__" in str(e)
    else:
        raise AssertionError("a __version__ that is not a string was read")
    changelog = "# Changelog\n\n## [Unreleased]\n\n## [1.2.3] - 2027-01-31\n\n- Fixed.\n"
    assert tool.problems("v1.2.3", "1.2.3", changelog) == []
    assert tool.problems("v1.2.3", "1.2.3", changelog.replace("1.2.3", "1.2.2")) == [
        "CHANGELOG.md has no section '## [1.2.3] - YYYY-MM-DD'"
    ]
    assert len(tool.problems("v1.2.4", "1.2.3", changelog)) == 1
