#!/usr/bin/env python3
"""Readable conformance vectors, as numpy's generators are checked against vector files:
one file per preset and option set under tests/data/vectors/, each holding a few deals with
their legal-move counts to a depth (perft: the move sequences of exactly that length) and
the greedy policy's whole line with its outcome. tests/test_vectors.py drives one suite over
them: the engine, the pure-Python reference model, the built-in greedy on every simulator
path, the engine playout (replay) and the batch.

    PYTHONPATH=python:src python tools/conformance_vectors.py          # write the files
    PYTHONPATH=python:src python tools/conformance_vectors.py --check  # exit 1 when they differ

Written once from the engine; a deliberate change of the rules or of greedy rewrites them
(and the diff shows what changed, deal by deal).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pyramid_core.position import Table
from pyramid_solitaire import Deal, Rules, replay, simulate

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "data" / "vectors"
DEPTH = 8
DEALS = (0, 1, 18, 2_024, 10_000_022)
#: every preset, and option sets that change what is legal
SETS: dict[str, dict[str, Any]] = {
    **{name: {"preset": name} for name in Rules.preset_names()},
    "unlimited+pair_with_covering": {"preset": "unlimited", "pair_with_covering": True},
    "classic+pair_waste_top_two": {"preset": "classic", "pair_waste_top_two": True},
    "pyramide+win_all": {"preset": "pyramide", "win": "all"},
    "three-pass+stock_top_playable": {"preset": "three-pass", "stock_top_playable": True},
}


def perft(table: Table, pos: int, depth: int) -> int:
    """The number of legal move sequences of exactly ``depth`` moves from ``pos``."""
    if depth == 0:
        return 1
    return sum(perft(table, table.apply(pos, m), depth - 1) for m in table.moves(pos))


def vector(rules: Rules, number: int) -> list[str]:
    deal = Deal.from_number(number, rules=rules)
    table = Table([int(c) for c in deal.cards], **rules.core_options())
    lines = [f"deal {number} {deal.code}"]
    lines += [f"perft {d} {perft(table, table.start(), d)}" for d in range(1, DEPTH + 1)]
    r = simulate(deals=[number], rules=rules, policy="greedy")
    outcome = "won" if r.won[0] else "lost"
    lines.append(f"greedy {outcome} removed {int(r.removed[0])} moves {int(r.moves[0])}")
    lines.append("line " + " ".join(str(m) for m in replay(number, rules=rules)))
    return lines


def text(name: str) -> str:
    rules = Rules.coerce(SETS[name])
    head = [
        f"# {name}: conformance vectors (tools/conformance_vectors.py writes them)",
        "rules " + json.dumps(rules.describe_dict(), sort_keys=True),
    ]
    body: list[str] = []
    for number in DEALS:
        body += [""] + vector(rules, number)
    return "\n".join(head + body) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in SETS:
        path = FOLDER / f"{name}.txt"
        want = text(name)
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != want:
                stale.append(path)
        else:
            path.write_text(want, encoding="utf-8")
    for path in stale:
        print(f"{path.relative_to(ROOT)} differs from what the engine gives")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
