"""The reference client of protocol 2 in Node.js (examples/node/pyramid_client.mjs): its demo
plays a game of msc by winning moves with its table built from the answers' events only (and
checked against the server's state), undoes and redoes, runs a batch of analyses, and cancels a
long analysis while another game still answers. Skips only where Node.js is not installed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, repo_file

NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node (Node.js) is not installed: apt-get install nodejs")
def test_node_reference_client_demo():
    script = repo_file("examples", "node", "pyramid_client.mjs")
    serve = [sys.executable, "-m", "pyramid_solitaire", "serve", "--stdio"]
    env = dict(os.environ, PYRAMID_SERVE=json.dumps(serve))  # (PYTHONPATH inherited)
    run = subprocess.run(
        [NODE, str(script.relative_to(REPO))],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    lines = run.stdout.splitlines()
    assert lines[-1] == "OK", out
    # one line per event: the cards' moves, the pairs, the undo and redo, the win
    events = [line.split(None, 1)[1] for line in lines if re.match(r"  g\d+ ", line)]
    assert any(re.fullmatch(r"move \w\w \d+ -> foundation", e) for e in events), out
    assert any(e.startswith("pair ") for e in events), out
    assert any(e.startswith("undo ") for e in events), out
    assert any(e.startswith("redo ") for e in events), out
    assert "status won" in events, out
    assert len([line for line in lines if line.startswith("batch ")]) == 5, out
    summary = re.search(r"^summary: moves (\d+), cancel (\d+) ms, tap (\d+) ms", run.stdout, re.M)
    assert summary is not None, out
    moves = int(summary.group(1))  # (the milliseconds are for people: bench/ times them)
    assert moves > 0, out
