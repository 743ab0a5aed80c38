#!/usr/bin/env python3
"""Write the atlas's perfect-play table into README.md and docs/atlas.md (between their
``<!-- atlas report: begin -->`` and ``<!-- atlas report: end -->`` lines) and its plot to
docs/images/atlas.png, from the block files in data/atlas: run it after committing blocks.
tests/test_atlas_data.py checks that both tables are what the files say.

    PYTHONPATH=python:src python tools/atlas_table.py            # rewrite table and plot
    PYTHONPATH=python:src python tools/atlas_table.py --check    # exit 1 when out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

from pyramid_solitaire import atlas as A

ROOT = Path(__file__).resolve().parent.parent
#: The rows of the table: the reading rows have a table of their own (atlas readings).
GROUPS = ["published", "preset", "extra"]
DOCS = [ROOT / "README.md", ROOT / "docs" / "atlas.md"]
BEGIN, END = "<!-- atlas report: begin -->", "<!-- atlas report: end -->"


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


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print(__doc__, file=sys.stderr)
        return 2
    report = A.report(ROOT / "data" / "atlas", GROUPS)
    stale = write_tables(DOCS, table(report), check)
    if check:
        for path in stale:
            print(f"{path}: the atlas table is out of date: run tools/atlas_table.py")
        return 1 if stale else 0
    A.plot(report, ROOT / "docs" / "images" / "atlas.png")
    print(f"table of {len(report['rows'])} rows written to " + ", ".join(map(str, DOCS)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
