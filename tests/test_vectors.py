"""The readable conformance vectors (tests/data/vectors/, written by
tools/conformance_vectors.py): per preset and option set, a few deals with their legal-move
counts to a depth (perft) and the greedy policy's whole line and outcome. One suite checks
them over every implementation of the rules and of greedy: the engine (position.pxd), the
pure-Python reference model (tests/reference.py), the built-in greedy on every simulator
path this CPU has, the engine playout (replay) and the batch (greedy_actions on its
observations)."""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pytest

from pyramid_core.position import Table
from pyramid_solitaire import UNLIMITED, Deal, GameBatch, Rules, replay
from pyramid_solitaire.batch import action_id, greedy_actions

import reference as ref
from conftest import repo_file, run_on, sim_paths

FOLDER = repo_file("tests", "data", "vectors")
REFERENCE_DEPTH = 6  # the reference model is pure Python: the first depths


@dataclass
class Vector:
    name: str
    rules: Rules
    number: int
    code: str
    perft: dict[int, int]
    won: bool
    removed: int
    moves: int
    line: list[str]


def _read() -> list[Vector]:
    out = []
    for path in sorted(FOLDER.glob("*.txt")):
        rules = None
        blocks: list[list[str]] = []
        for raw in path.read_text(encoding="utf-8").splitlines():
            if raw.startswith("#") or not raw.strip():
                continue
            word, _, rest = raw.partition(" ")
            if word == "rules":
                rules = Rules.coerce(json.loads(rest))
            elif word == "deal":
                blocks.append([raw])
            else:
                blocks[-1].append(raw)
        assert rules is not None, path
        for block in blocks:
            _, number, code = block[0].split()
            fields = {
                line.split(" ", 1)[0]: line.split(" ", 1)[1]
                for line in block[1:]
                if not line.startswith("perft")
            }
            perft = {
                int(line.split()[1]): int(line.split()[2])
                for line in block
                if line.startswith("perft")
            }
            g = fields["greedy"].split()
            out.append(
                Vector(
                    path.stem,
                    rules,
                    int(number),
                    code,
                    perft,
                    g[0] == "won",
                    int(g[2]),
                    int(g[4]),
                    fields.get("line", "").split(),
                )  # fmt: skip
            )
    return out


VECTORS = _read()
IDS = [f"{v.name}-{v.number}" for v in VECTORS]


def test_the_files_are_there_and_cover_every_preset():
    names = {v.name for v in VECTORS}
    assert set(Rules.preset_names()) <= names and len(names) >= 10
    assert all(len(v.perft) >= 8 and v.moves == len(v.line) for v in VECTORS)


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_the_deal_code(v):
    assert Deal.from_number(v.number, rules=v.rules).code == v.code


def _engine_perft(table: Table, pos: int, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(_engine_perft(table, table.apply(pos, m), depth - 1) for m in table.moves(pos))


def _reference_perft(state: ref.State, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(_reference_perft(ref.apply(state, m), depth - 1) for m in ref.legal_moves(state))


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_perft_on_the_engine(v):
    deal = Deal.from_number(v.number, rules=v.rules)
    table = Table([int(c) for c in deal.cards], **v.rules.core_options())
    assert {d: _engine_perft(table, table.start(), d) for d in v.perft} == v.perft


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_perft_on_the_reference_model(v):
    deal = Deal.from_number(v.number, rules=v.rules)
    state = ref.deal([int(c) for c in deal.cards], ref.Rules(**v.rules.core_options()))
    want = {d: n for d, n in v.perft.items() if d <= REFERENCE_DEPTH}
    assert {d: _reference_perft(state, d) for d in want} == want


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_the_greedy_line_on_the_engine_playout(v):
    assert [str(m) for m in replay(v.number, rules=v.rules)] == v.line


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_the_greedy_outcome_on_every_simulator_path(v):
    for path in sim_paths():
        won, removed, moves, _score = run_on(path, "greedy", v.rules.core_options(), 0, v.number, 1)
        assert (bool(won[0]), int(removed[0]), int(moves[0])) == (v.won, v.removed, v.moves), path


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_the_greedy_line_through_the_batch(v):
    """The batch played by greedy_actions makes the line's moves and then stops: the game
    is over, or (unlimited redeals) greedy's next move is the recycle the simulator does not
    play after a pass that removed nothing."""
    batch = GameBatch(1, rules=v.rules, deals=[v.number], observation="visible", autoreset=None)
    obs, mask = batch.reset()
    line = []  # action ids (a pair's two cards in any order name one action)
    over = False
    while len(line) < len(v.line):
        a = int(greedy_actions(obs, v.rules)[0])
        if a < 0:
            break
        line.append(a)
        obs, mask, _, term, trunc = batch.step(np.array([a]))
        if term[0] or trunc[0]:
            over = True
            break
    assert line == [action_id(m) for m in v.line]
    assert bool(batch.won[0]) == v.won
    if not over:
        nxt = int(greedy_actions(obs, v.rules)[0])
        assert nxt == -1 or (v.rules.redeals == UNLIMITED and nxt == action_id("recycle")), nxt
