"""The atlas's committed data (data/atlas/): every block file reads back and checks out
(rules, counts, digest format), every row is a registered one, no deal was left undecided,
and every row's blocks start at deal 0 without gaps. And the solver still agrees with them
deal by deal: two blocks of the stock-top one-pass readings, decided before the solver
decided those rules over frames, are decided again here and their results' digests compared
(so a change of the solver's answers on these rules fails here). And the table in the README
and docs/atlas.md is the one these files make (tools/atlas_table.py writes it)."""

from __future__ import annotations

import json

import pytest

from pyramid_solitaire import atlas as A

from conftest import repo_file, repo_module, run_main

DATA = repo_file("data", "atlas")


def test_the_docs_table_is_the_files_table():
    tool = repo_module("atlas_table", "tools", "atlas_table.py")
    want = tool.table(A.report(DATA, tool.GROUPS))
    assert want.count("\n") >= 12
    for path in tool.DOCS:
        text = path.read_text(encoding="utf-8")
        assert tool.with_table(text, want, path.name) == text, (
            f"{path}: the atlas table is out of date: run tools/atlas_table.py"
        )


def test_every_committed_block_checks_out():
    rep = A.report(DATA)
    assert rep["unknown"] == []
    assert len(rep["rows"]) >= 20
    for entry in rep["rows"]:
        assert entry["undecided"] == 0, entry["row"]
        assert entry["gaps"] == [] and entry["ranges"][0][0] == 0, entry["row"]


@pytest.mark.parametrize(
    "name",
    [
        "reading-once-no-overlap-w0-stp-notop2-1pass",  # the published rows' pyramid rules
        "reading-once-all-overlap-w0-stp-notop2-1pass",  # every card, overlap discards
    ],
)
def test_frames_agree_with_blocks_decided_before_them(name):
    c = A.check(name, 0, out=DATA, threads=2)
    assert c["count"] == 10_000 and c["sample"] is None
    assert c["agree"] and c["digest_agrees"], A.check_text(c)


def test_report_takes_several_groups(capsys):
    code, out, _ = run_main(
        capsys, "atlas", "report", "--out", str(DATA), "--group", "published",
        "--group", "extra", "--json",
    )  # fmt: skip
    assert code == 0
    assert {A.row(e["row"]).group for e in json.loads(out)["rows"]} == {"published", "extra"}
