#!/usr/bin/env python3
"""Write what protocol 2's declarations (session/ops.py, session/events.py, the messages and
reasons) make: its JSON Schema, ``python/pyramid_solitaire/session/protocol2.schema.json``,
and the tables of docs/protocol.md's version 2 (between its ``BEGIN generated`` and ``END
generated`` lines). ``--check`` only says whether either is out of date (exit 1), as
tests/test_protocol2.py does.

    PYTHONPATH=python:src python tools/protocol_schema.py [--check]
"""

from __future__ import annotations

import sys
from pathlib import Path

from pyramid_solitaire.model.reasons import REASONS
from pyramid_solitaire.session import ops
from pyramid_solitaire.session.events import EVENTS
from pyramid_solitaire.session.messages import CATALOGUE

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "python/pyramid_solitaire/session/protocol2.schema.json"
DOCS = ROOT / "docs/protocol.md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def tables() -> dict[str, str]:
    """Each generated table of docs/protocol.md, by its marker's name."""
    rows = ["| op | fields (**required**) | does |", "|---|---|---|"]
    for op in ops.OPS.values():
        fields = [
            (f"**`{k}`**" if k in op.required else f"`{k}`") + f": {_cell(f.what())}"
            for k, f in op.fields.items()
        ]
        groups = "; ".join("one of " + ", ".join(f"`{k}`" for k in g) for g in op.one_of)
        cell = "<br>".join(fields) + (f"<br>({groups})" if groups else "")
        rows.append(f"| `{op.name}` | {cell or '(none)'} | {_cell(op.doc)} |")
    out = {"ops": "\n".join(rows)}
    rows = ["| type | fields | means |", "|---|---|---|"]
    for kind, (fields, doc) in EVENTS.items():
        rows.append(
            f"| `{kind}` | {', '.join(f'`{f}`' for f in fields) or '(none)'} | {_cell(doc)} |"
        )
    out["events"] = "\n".join(rows)
    rows = ["| code | args | English text |", "|---|---|---|"]
    for code, args in ops.message_args().items():
        text = CATALOGUE[code]["en"]
        rows.append(
            f"| `{code}` | {', '.join(f'`{a}`' for a in args) or '(none)'} | {_cell(text)} |"
        )
    out["messages"] = "\n".join(rows)
    rows = ["| reason | English text |", "|---|---|"]
    rows += [f"| `{code}` | {_cell(texts['en'])} |" for code, texts in REASONS.items()]
    out["reasons"] = "\n".join(rows)
    rows = ["| code | when |", "|---|---|"]
    rows += [f"| `{code}` | {_cell(doc)} |" for code, doc in ops.ERRORS.items()]
    out["errors"] = "\n".join(rows)
    rows = ["| capability | means |", "|---|---|"]
    rows += [f"| `{c}` | {_cell(doc)} |" for c, doc in ops.CAPABILITIES.items()]
    out["capabilities"] = "\n".join(rows)
    return out


def docs(text: str) -> str:
    """docs/protocol.md with its generated tables written anew."""
    for name, body in tables().items():
        begin, end = f"<!-- BEGIN generated {name} -->", f"<!-- END generated {name} -->"
        try:
            i = text.index(begin) + len(begin)
            j = text.index(end, i)
        except ValueError:
            sys.exit(f"protocol_schema: docs/protocol.md has no {begin} ... {end} markers")
        text = text[:i] + "\n" + body + "\n" + text[j:]
    return text


def main(argv: list[str]) -> int:
    wanted = {SCHEMA: ops.schema_text(2) + "\n", DOCS: docs(DOCS.read_text(encoding="utf-8"))}
    stale = [p for p, t in wanted.items() if not p.exists() or p.read_text(encoding="utf-8") != t]
    if "--check" in argv:
        for p in stale:
            print(f"{p.relative_to(ROOT)} is out of date: run python tools/protocol_schema.py")
        return 1 if stale else 0
    for p in stale:
        p.write_text(wanted[p], encoding="utf-8")
        print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
