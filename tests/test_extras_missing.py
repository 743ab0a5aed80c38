"""The suite on an install with only the ``test`` extra (``pip install
"pyramid-solitaire[test]"``): tools/without_extras.py makes the optional extras' modules
unimportable, and the tests of optional parts must then skip, naming their extra, while
everything else passes. Here: every test file is collected, and the doctests of every module
(the terminal game's and the browser game's included) run."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import repo_file


def run_without_extras(*args: str) -> subprocess.CompletedProcess:
    tool = repo_file("tools", "without_extras.py")
    tests = os.path.dirname(os.path.abspath(__file__))
    path = os.pathsep.join(
        os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p
    )
    return subprocess.run(
        [sys.executable, str(tool), *args, "-p", "no:cacheprovider", "-q", "-rs"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tests,
        env={**os.environ, "PYTHONPATH": path},
    )


def test_every_test_file_is_collected_without_the_extras():
    proc = run_without_extras("--collect-only", ".")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "error" not in proc.stdout.lower().split("collected")[-1], proc.stdout[-2000:]


def test_the_doctests_skip_only_the_modules_of_missing_extras():
    proc = run_without_extras("test_docs.py")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    out = proc.stdout
    for extra, module in (("tui", "textual"), ("web", "aiohttp"), ("rl", "gymnasium")):
        assert f"the {extra} extra ({module}) is not installed" in out, out[-2000:]
    assert " passed" in out and " failed" not in out


def test_a_survey_without_pyarrow_says_which_extra_brings_it(tmp_path):
    """pyarrow is the survey extra's, not the base install's: the API and the command line
    say so before any work, and nothing else needs it (the simulator and the solver run)."""
    tool = repo_file("tools")
    script = f"""
import sys; sys.path.insert(0, {str(tool)!r})
import without_extras; without_extras.block()
from pyramid_solitaire import cli, simulate, solve, survey
assert solve("PY1-N-AAAAAAS").winnable and simulate(100, rules="msc").games == 100
try:
    survey.survey({str(tmp_path / "s")!r}, count=10)
except ImportError as e:
    print("API:", e)
sys.exit(cli.main(["survey", "--count", "10", "--out", {str(tmp_path / "c")!r}]))
"""
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    wanted = 'python -m pip install "pyramid-solitaire[survey]"'
    assert f"API: surveys write and read Parquet files with pyarrow: {wanted}" in proc.stdout
    assert proc.stderr.count("\n") == 1 and wanted in proc.stderr, proc.stderr
    assert not (tmp_path / "s").exists() and not (tmp_path / "c").exists()  # nothing done
