"""Sweeps (pyramid_solitaire.analysis.sweep, ``pyramid-solitaire sweep``): a grid of rule
sets and policies in one call, invalid combinations reported, a tidy table with intervals
equal to direct runs, the per-deal rows in the shared layout, and a cache that computes only
what is missing (a larger range: only the new deals) with the numbers of a fresh run."""

from __future__ import annotations

import json

import pytest

from pyramid_solitaire import Rules, simulate, solve_many, wilson_interval

from conftest import run_main

pytest.importorskip("pyarrow", reason="the survey extra (pyarrow)")
pd = pytest.importorskip("pandas", reason="pandas (with the survey extra)")

from pyramid_solitaire.analysis.sweep import expand, sweep  # noqa: E402

GRID = {"redeals": [0, 2], "draw": [1, 3]}


def test_a_grid_expands_to_the_rule_sets_the_rules_allow():
    valid, invalid = expand(GRID, base="msc")
    assert [(r.redeals, r.draw) for r in valid] == [(0, 1), (2, 1)]
    assert [(i["redeals"], i["draw"]) for i in invalid] == [(0, 3), (2, 3)]
    assert all("draw=3" in i["reason"] for i in invalid)
    with pytest.raises(ValueError, match="unknown rule option 'redeal'"):
        expand({"redeal": [1]})


def test_a_sweep_is_its_direct_runs_and_its_cache_computes_only_the_new_deals(tmp_path):
    first = sweep(GRID, ["greedy", "solver"], count=600, base="msc", cache=tmp_path, shard_size=250)
    assert (first.computed, first.reused) == (4 * 600, 0) and len(first.invalid) == 2
    table = first.table()
    assert list(table["policy"]) == ["greedy", "solver", "greedy", "solver"]
    for _, row in table.iterrows():
        rules = Rules.preset("msc").replace(redeals=int(row["redeals"]))
        if row["policy"] == "greedy":
            wins = simulate(600, rules=rules).wins
        else:
            wins = solve_many(range(600), rules).wins
        assert row["wins"] == wins and row["deals"] == 600
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(wilson_interval(wins, 600))
    grown = sweep(
        GRID, ["greedy", "solver"], count=1500, base="msc", cache=tmp_path, shard_size=250
    )
    # the old last shard (deals 500..599) is done again whole: 900 + 100 deals a run
    assert (grown.computed, grown.reused) == (4 * 1000, 4 * 500)
    fresh = sweep(
        GRID, ["greedy", "solver"], count=1500, base="msc", cache=tmp_path / "f", shard_size=250
    )
    assert grown.table().equals(fresh.table())
    again = sweep(
        GRID, ["greedy", "solver"], count=1500, base="msc", cache=tmp_path, shard_size=250
    )
    assert (again.computed, again.reused) == (0, 4 * 1500)
    rows = grown.rows()
    assert len(rows) == 4 * 1500 and set(rows["policy"]) == {"greedy", "solver"}
    assert list(rows.columns[:4]) == ["deal", "code", "rules", "policy"]


def test_one_progress_bar_spans_the_sweep(tmp_path):
    seen: list[tuple[int, int]] = []
    sweep(["msc", "pyramide"], "greedy", count=900, cache=tmp_path, shard_size=300,
          progress=lambda done, total: seen.append((done, total)))  # fmt: skip
    assert seen[-1] == (1800, 1800) and {t for _, t in seen} == {1800}
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_the_command_line_sweep(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the plot extra (matplotlib)")
    argv = ["sweep", "--base", "msc", "--option", "redeals=0,2", "--option", "draw=1,3"]
    argv += ["--policy", "greedy", "--count", "600", "--cache", str(tmp_path / "c")]
    status, out, err = run_main(capsys, *argv, "--plot", str(tmp_path / "p.png"), "--no-progress")
    assert status == 0, err
    assert "redeals" in out and "greedy" in out and "%" in out
    assert (
        "left out: redeals=2, draw=3: draw=3 needs" in out
        and (tmp_path / "p.png").stat().st_size > 1000
    )
    status, out, err = run_main(capsys, *argv, "--json", "--no-progress")
    data = json.loads(out)
    assert status == 0 and data["computed"] == 0 and data["reused"] == 1200
    assert len(data["table"]) == 2 and len(data["invalid"]) == 2
    status, out, err = run_main(capsys, "sweep", "--option", "redeals", "--count", "5")
    assert status == 2 and "--option is NAME=V1,V2" in err
