"""The win rates docs/simulation.md quotes are what their sources say: the perfect-play
column of its table of the built-in policies is the atlas's block files for the same deals
(tools/atlas_table.py writes it), its command-line example prints what `simulate` prints
for that call, and its Python example's figures are that call's. (The README's simulate
example runs as a doctest: tests/test_docs.py.) The greedy and random columns, 14 runs of a
million games, are checked with ``-m slow``."""

from __future__ import annotations

import re

import pytest

from pyramid_solitaire import Rules, simulate

from conftest import repo_file, repo_module

SIMULATION = repo_file("docs", "simulation.md")


def _tool():
    return repo_module("atlas_table", "tools", "atlas_table.py")


def _table_rows(text: str) -> list[list[str]]:
    """The cells of the rows of docs/simulation.md's marked table (header excluded)."""
    tool = _tool()
    body = text.split(tool.SIM_BEGIN + "\n", 1)[1].split(tool.SIM_END, 1)[0]
    lines = body.splitlines()[2:]
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]


def _block_after(text: str, first_line: str) -> list[str]:
    """The lines of the fenced block whose first line is ``first_line`` (that line excluded)."""
    at = text.index(first_line + "\n")
    return text[at:].split("```", 1)[0].splitlines()[1:]


def test_the_perfect_play_column_is_the_atlas():
    tool = _tool()
    text = SIMULATION.read_text(encoding="utf-8")
    assert tool.with_perfect_play(text, repo_file("data", "atlas")) == text, (
        "docs/simulation.md: the perfect-play column is out of date: run tools/atlas_table.py"
    )


def test_the_table_names_the_atlas_rows_it_says():
    tool = _tool()
    rows = _table_rows(SIMULATION.read_text(encoding="utf-8"))
    names = {r[0]: tool.atlas_row_of(tool.rules_of(r[0])).name for r in rows}
    assert names == {
        "`pyramide`": "pyramide",
        "`three-pass`": "three-pass",
        "`unlimited`": "pyramid-unlimited-no-overlap",
        "`classic`": "classic",
        "`classic-draw3`": "classic-draw3",
        "`msc`": "msc",
        "`unlimited` + `pair_with_covering`": "pyramid-unlimited-overlap",
    }
    # every row but one covers the million deals the other columns play
    partial = [r[0] for r in rows if "deals:" in r[-1]]
    assert partial == ["`classic-draw3`"]


def test_the_veto_paragraph_quotes_the_table():
    text = SIMULATION.read_text(encoding="utf-8")
    rows = {r[0]: r for r in _table_rows(text)}
    greedy = rows["`pyramide`"][1].split()[0]
    perfect = rows["`pyramide`"][3].split()[0]
    assert f"with it {greedy}, against {perfect} for perfect play" in text


def test_the_command_line_example_is_what_simulate_prints():
    text = SIMULATION.read_text(encoding="utf-8")
    shown = _block_after(text, "$ pyramid-solitaire simulate --games 100000 --rules msc")
    got = simulate(100_000, rules="msc", policy="greedy", threads=2).summary().splitlines()
    # the speed line is the machine's; "..." stands for histogram rows left out
    want = [line for line in shown if "games/s" not in line and line.strip() != "..."]
    at = 0
    for line in want:
        assert line in got[at:], f"docs/simulation.md shows {line!r}; simulate prints {got}"
        at = got.index(line, at) + 1
    speed = next(line for line in shown if "games/s" in line)
    assert re.fullmatch(r"[\d,]+ games/s on \d threads? \([\d.]+ s, [\w-]+ path\)", speed)


def test_the_python_example_is_what_simulate_gives():
    text = SIMULATION.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("r.win_rate, r.ci95"))
    shown = [float(x) for x in re.findall(r"0\.\d+", line.split("#", 1)[1])]
    r = simulate(1_000_000, rules="pyramide", policy="greedy", threads=2)
    assert shown == [round(r.win_rate, 4), round(r.ci95[0], 4), round(r.ci95[1], 4)]


@pytest.mark.slow
def test_the_greedy_and_random_columns_are_what_simulate_gives():
    rows = _table_rows(SIMULATION.read_text(encoding="utf-8"))
    tool = _tool()
    for cells in rows:
        rules: Rules = tool.rules_of(cells[0])
        g = simulate(1_000_000, rules=rules, policy="greedy")
        low, high = g.ci95
        assert cells[1] == f"{g.win_rate:.2%} [{low * 100:.2f}, {high * 100:.2f}]", cells[0]
        r = simulate(1_000_000, rules=rules, policy="random", seed=1)
        assert cells[2] == f"{r.win_rate:.2%}", cells[0]
