"""The job runner (runtime/jobs.py) that surveys and the atlas share: tasks run on the local pool,
each result handed to the store as it finishes, the progress counted from the work already
done, an interruption keeping what was written, one run at a time per folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pyramid_solitaire.runtime.jobs import FolderLock, Task, clear_stale, run_job


def square_range(lo: int, hi: int, threads: int = 1) -> list[int]:
    """A task's work (top level: the pool's processes import it; the local pool passes its
    share of the cores last)."""
    assert threads >= 1
    return [i * i for i in range(lo, hi)]


class JsonFiles:
    """A store writing each task's result as <tag>.json."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def write(self, task: Task[str], result: Any) -> Path:
        path = self.folder / f"{task.tag}.json"
        path.write_text(json.dumps(result))
        return path


def tasks_of(parts: list[tuple[int, int]]) -> list[Task[str]]:
    return [Task((lo, hi), lo, hi, key=f"sq-{lo}-{hi}", tag=f"{lo:03d}") for lo, hi in parts]


def test_every_task_is_stored_and_counted(tmp_path):
    seen: list[tuple[int, int]] = []
    progress: list[tuple[int, int]] = []
    tasks = tasks_of([(0, 10), (10, 25), (40, 50)])  # 25..40 done before: the bar starts there
    ran = run_job(
        square_range,
        tasks,
        JsonFiles(tmp_path),
        total=50,
        desc="squares",
        progress=lambda done, total: progress.append((done, total)),
        workers=2,
        on_written=[lambda task, path, got: seen.append((task.lo, len(got)))],
    )
    assert sorted(seen) == [(0, 10), (10, 15), (40, 10)]
    assert ran.deals == 35 and ran.seconds > 0 and ran.deals_per_second
    for task in tasks:
        got = json.loads((tmp_path / f"{task.tag}.json").read_text())
        assert got == square_range(task.lo, task.hi)
    assert progress[-1] == (50, 50) and progress[0][0] >= 15


def test_an_interruption_keeps_what_was_written(tmp_path):
    written: list[str] = []

    def stop(task: Task[str], path: Path, got: Any) -> None:
        written.append(task.tag)
        if len(written) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_job(
            square_range,
            tasks_of([(i, i + 5) for i in range(0, 40, 5)]),
            JsonFiles(tmp_path),
            total=40,
            desc="squares",
            on_written=[stop],
        )
    assert sorted(p.stem for p in tmp_path.glob("*.json")) == sorted(written)


def test_one_run_at_a_time_and_stale_files(tmp_path):
    with FolderLock(tmp_path / ".lock", "busy: another run"):
        with pytest.raises(ValueError, match="busy: another run"):
            FolderLock(tmp_path / ".lock", "busy: another run")
    FolderLock(tmp_path / ".lock", "busy").close()  # released
    (tmp_path / ".x.tmp").write_text("half")
    (tmp_path / "kept.json").write_text("{}")
    clear_stale(tmp_path, ".*.tmp")
    assert [p.name for p in tmp_path.iterdir() if p.name != ".lock"] == ["kept.json"]
    clear_stale(tmp_path / "none", ".*.tmp")  # no folder: nothing to do
