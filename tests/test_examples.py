"""The examples/ scripts: the numpy REINFORCE agent runs end to end in its --quick mode, and the
sb3-contrib example (PyTorch, not run here) is valid Python."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import repo_file

pytest.importorskip("numpy")  # both are dependencies: these never skip in practice
pytest.importorskip("matplotlib")


def _quick(name: str, tmp_path) -> subprocess.CompletedProcess:
    """An example's --quick run, its outputs in tmp_path; it must succeed."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MPLBACKEND="Agg")
    run = subprocess.run(
        [sys.executable, str(repo_file("examples", name)), "--quick", "--out", str(tmp_path)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run


def test_reinforce_msc_quick(tmp_path):
    run = _quick("reinforce_msc.py", tmp_path)
    results = json.loads((tmp_path / "results.json").read_text())
    for name in ("learned", "random", "greedy"):
        rate = results[name]["win_rate"]
        low, high = results[name]["ci95"]
        assert 0.0 <= low <= rate <= high <= 1.0, (name, results[name])
    assert results["iterations"] > 0 and results["train_seconds"] > 0
    png = tmp_path / "learning_curve.png"
    assert png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "learned" in run.stdout and "greedy" in run.stdout and "perfect" in run.stdout


def test_imitate_msc_quick(tmp_path):
    """The imitation example runs end to end: the teacher labels, DAgger, the evaluation."""
    _quick("imitate_msc.py", tmp_path)
    results = json.loads((tmp_path / "results.json").read_text())
    for name in ("learned", "random", "greedy", "perfect"):
        low, high = results[name]["ci95"]
        assert 0.0 <= low <= results[name]["win_rate"] <= high <= 1.0, (name, results[name])
    assert results["curve"]["positions"][-1] > results["curve"]["positions"][0] > 0
    assert (tmp_path / "weights.npz").exists() and (tmp_path / "learning_curve.png").exists()


def test_maskable_ppo_example_compiles():
    path = repo_file("examples", "maskable_ppo_sb3.py")
    compile(path.read_text(encoding="utf-8"), str(path), "exec")
