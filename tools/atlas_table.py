#!/usr/bin/env python3
"""Write the atlas's perfect-play table into README.md and docs/atlas.md (between their
``<!-- atlas report: begin -->`` and ``<!-- atlas report: end -->`` lines) and its plot to
docs/images/atlas.png, from the block files in data/atlas: run it after committing blocks.
tests/test_atlas_data.py checks that both tables are what the files say.

It also writes the perfect-play column (the last) of docs/simulation.md's table of the
built-in policies (between ``<!-- perfect play from the atlas: begin -->`` and its ``end``
line): each row's rules (its first cell: a preset, then options set to true, as
"`unlimited` + `pair_with_covering`") name an atlas row, whose blocks of deals 0..999,999
(the deals the other columns play) give the win rate and its 95% interval.
tests/test_docs_numbers.py checks that column.

    PYTHONPATH=python:src python tools/atlas_table.py            # rewrite table and plot
    PYTHONPATH=python:src python tools/atlas_table.py --check    # exit 1 when out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

from pyramid_solitaire import Rules
from pyramid_solitaire import atlas as A

ROOT = Path(__file__).resolve().parent.parent
#: The rows of the table: the reading rows have a table of their own (atlas readings).
GROUPS = ["published", "preset", "extra"]
DOCS = [ROOT / "README.md", ROOT / "docs" / "atlas.md"]
BEGIN, END = "<!-- atlas report: begin -->", "<!-- atlas report: end -->"
#: docs/simulation.md's table of the built-in policies, whose last column this writes.
SIMULATION = ROOT / "docs" / "simulation.md"
SIM_BEGIN = "<!-- perfect play from the atlas: begin -->"
SIM_END = "<!-- perfect play from the atlas: end -->"
#: The deals of that table: 0 .. SIM_DEALS - 1 (fewer where the atlas row has fewer).
SIM_DEALS = 1_000_000


def table(report: dict) -> str:
    """The table's lines (the report's text up to its notes)."""
    lines = A.report_text(report).splitlines()
    return "\n".join(line for line in lines if line.startswith("|"))


def with_table(text: str, new: str, name: str, begin: str = BEGIN, end: str = END) -> str:
    """``text`` with the lines between its markers (the atlas table's, unless given)
    replaced by ``new``."""
    if text.count(begin) != 1 or text.count(end) != 1:
        raise SystemExit(f"{name}: needs one {begin} line and one {end} line")
    head, rest = text.split(begin + "\n", 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{new}\n{end}{tail}"


def write_tables(
    docs: list[Path], new: str, check: bool, begin: str = BEGIN, end: str = END
) -> list[Path]:
    """Put ``new`` between the markers of each file of ``docs`` (with ``check``, only say
    which differ); returns the files that were out of date, relative to the checkout."""
    stale = []
    for path in docs:
        text = path.read_text(encoding="utf-8")
        updated = with_table(text, new, path.name, begin, end)
        if updated != text:
            stale.append(path.relative_to(ROOT))
            if not check:
                path.write_text(updated, encoding="utf-8")
    return stale


def rules_of(cell: str) -> Rules:
    """The rules a table row names in its first cell: "`msc`" or "`unlimited` +
    `pair_with_covering`" (a preset, then options set to true)."""
    names = [part.strip().strip("`") for part in cell.split("+")]
    return Rules.preset(names[0]).replace(**{name: True for name in names[1:]})


def atlas_row_of(rules: Rules) -> A.Row:
    """The atlas row of these rules (a published, preset or extra row)."""
    for r in A.rows(GROUPS):
        if r.rules == rules:
            return r
    raise SystemExit(f"no atlas row has the rules {rules.describe()}")


def perfect_play(rules: Rules, folder: Path = ROOT / "data" / "atlas") -> tuple[str, A.RowSummary]:
    """The perfect-play cell of a row of docs/simulation.md's table, and the atlas summary
    it comes from: the atlas row's blocks of deals 0 .. SIM_DEALS - 1 (every block wholly
    inside; they must start at deal 0, without gaps)."""
    r = atlas_row_of(rules)
    blocks = [b for b in A._row_blocks(folder / r.name, r) if b.last < SIM_DEALS]
    e = A.row_summary(r, blocks)
    if not blocks or e["ranges"][0][0] != 0 or e["gaps"] or e["undecided"] or e["ci95"] is None:
        raise SystemExit(
            f"atlas row {r.name}: no gapless, decided blocks from deal 0 below {SIM_DEALS:,}"
        )
    low, high = e["ci95"]
    cell = f"{e['win_rate'] * 100:.2f}% [{low * 100:.2f}, {high * 100:.2f}]"
    if e["deals"] != SIM_DEALS:
        cell += f" ({e['deals']:,} deals: 0..{e['deals'] - 1:,})"
    return cell, e


def with_perfect_play(text: str, folder: Path = ROOT / "data" / "atlas") -> str:
    """docs/simulation.md's ``text`` with the last cell of each row of its marked table
    written from the atlas (the header and the other columns as they are)."""
    if text.count(SIM_BEGIN) != 1 or text.count(SIM_END) != 1:
        raise SystemExit(f"{SIMULATION.name}: needs one {SIM_BEGIN} line and one {SIM_END} line")
    head, rest = text.split(SIM_BEGIN + "\n", 1)
    body, tail = rest.split(SIM_END, 1)
    lines = body.splitlines()
    if len(lines) < 3 or not all(line.startswith("|") for line in lines):
        raise SystemExit(f"{SIMULATION.name}: the marked table has no rows")
    out = lines[:2]  # the header and the alignment line
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        cells[-1] = perfect_play(rules_of(cells[0]), folder)[0]
        out.append("| " + " | ".join(cells) + " |")
    return f"{head}{SIM_BEGIN}\n" + "\n".join(out) + f"\n{SIM_END}{tail}"


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print(__doc__, file=sys.stderr)
        return 2
    report = A.report(ROOT / "data" / "atlas", GROUPS)
    stale = write_tables(DOCS, table(report), check)
    text = SIMULATION.read_text(encoding="utf-8")
    updated = with_perfect_play(text)
    if updated != text:
        stale.append(SIMULATION.relative_to(ROOT))
        if not check:
            SIMULATION.write_text(updated, encoding="utf-8")
    if check:
        for path in stale:
            print(f"{path}: the atlas table is out of date: run tools/atlas_table.py")
        return 1 if stale else 0
    A.plot(report, ROOT / "docs" / "images" / "atlas.png")
    print(
        f"table of {len(report['rows'])} rows written to "
        + ", ".join(map(str, DOCS))
        + f"; the perfect-play column of {SIMULATION.relative_to(ROOT)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
