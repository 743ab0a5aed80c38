"""The fair win-rate table's committed data (data/fair/): every block reads back and checks
out, every row has every policy at the same deals, some deals of every block give the same
result when played again, hindsight reaches perfect play where one pass shows everything and
never wins a lost deal, and the table in README.md and docs/fair.md is the one these files
make (tools/fair_table.py writes it)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from pyramid_solitaire import Hindsight, Rules, simulate, solve_many

from conftest import repo_module

T = repo_module("fair_table", "tools", "fair_table.py")
ROWS = [r.name for r in T.table_rows()]


def test_the_docs_table_is_the_files_table():
    want = T.table()
    assert want.count("\n") >= len(ROWS) + 1
    for path in T.DOCS:
        text = path.read_text(encoding="utf-8")
        assert T.with_table(text, want, path.name) == text, (
            f"{path}: the fair table is out of date: run tools/fair_table.py table"
        )


@pytest.mark.parametrize("row", ROWS)
def test_every_block_checks_out(row):
    rules = T.A.row(row).rules
    counts = {}
    for policy in T.POLICIES:
        blocks = T.read_blocks(row, policy)
        assert blocks or policy not in T.EVERY_ROW, f"{row}: no {policy} block"
        for b in blocks:
            assert Rules.coerce(b["rules"]) == rules
            won = T.won_of(b)
            assert won.size == b["count"] and int(won.sum()) == b["wins"]
        if blocks:
            counts[policy] = sum(b["count"] for b in blocks)
    every = {counts[p] for p in T.EVERY_ROW}
    assert min(every) >= 10_000 and len(every) == 1  # the extra columns: fewer at times
    assert all(1_000 <= n <= max(every) for n in counts.values())


@pytest.mark.parametrize("row", ROWS)
def test_some_deals_of_every_block_play_the_same_again(row):
    rules = T.A.row(row).rules
    rng = random.Random(row)
    for policy in T.POLICIES:
        for b in T.read_blocks(row, policy):
            won = T.won_of(b)
            picks = rng.sample(range(b["count"]), 3 if policy in T.FAIR else 20)
            # a won deal among them when there is one: both answers get checked
            wins = np.flatnonzero(won)
            if wins.size:
                picks[0] = int(wins[rng.randrange(wins.size)])
            deals = [b["first"] + i for i in picks]
            if policy == "solver":
                got = solve_many(np.array(deals), rules).winnable == 1
            elif policy == "learned":
                fn = T.learned_policy(b["params"])
                got = simulate(deals=deals, rules=rules, policy=fn, observation="visible").won
            elif policy in T.FAIR:
                fair = Hindsight(**{k: v for k, v in b["params"].items() if k != "name"})
                got = simulate(deals=deals, rules=rules, policy=fair).won
            else:
                got = simulate(deals=deals, rules=rules, policy=policy, seed=0).won
            assert list(got) == [bool(won[i]) for i in picks], (row, policy, deals)


@pytest.mark.parametrize("row", ROWS)
def test_hindsight_is_sound_on_the_table(row):
    """Never a lost deal won; exactly perfect play where a first pass shows every card and
    costs nothing (unlimited redeals, draw 1)."""
    solver = np.concatenate([T.won_of(b) for b in T.read_blocks(row, "solver")])
    for policy in T.FAIR:
        blocks = T.read_blocks(row, policy)
        if not blocks:
            continue
        fair = np.concatenate([T.won_of(b) for b in blocks])
        same = solver[: fair.size]  # (an extra column may cover fewer deals)
        assert not np.any(fair & ~same)
        rules = T.A.row(row).rules
        if rules.redeals == "unlimited" and rules.draw == 1:
            assert np.array_equal(fair, same)


def test_check_finds_a_block_that_no_longer_agrees(tmp_path, monkeypatch, capsys):
    """tools/fair_table.py check plays a sample of a block again: it passes on the files
    and names a deal whose recorded result is changed."""
    assert T.check("msc", "greedy", deals=10) == 0
    block = T.read_blocks("msc", "greedy")[0]
    won = ~T.won_of(block)  # every deal's result turned over
    bad = dict(block, won=np.packbits(won, bitorder="little").tobytes().hex())
    folder = tmp_path / "msc"
    folder.mkdir()
    path = T.block_path("msc", "greedy", block["first"], block["count"])
    (folder / path.name).write_text(json.dumps(bad), encoding="utf-8")
    monkeypatch.setattr(T, "FOLDER", tmp_path)
    assert T.check("msc", "greedy", deals=5) == 5
    assert "differs from its block" in capsys.readouterr().out
