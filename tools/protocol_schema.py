#!/usr/bin/env python3
"""Write protocol 2's JSON Schema, built from the ops' declarations (session/ops.py), to
``python/pyramid_solitaire/session/protocol2.schema.json``; ``--check`` only says whether the
file is out of date (exit 1), as tests/test_protocol2.py does.

    PYTHONPATH=python:src python tools/protocol_schema.py [--check]
"""

from __future__ import annotations

import sys
from pathlib import Path

from pyramid_solitaire.session.ops import schema_text

TARGET = (
    Path(__file__).resolve().parents[1] / "python/pyramid_solitaire/session/protocol2.schema.json"
)


def main(argv: list[str]) -> int:
    text = schema_text(2) + "\n"
    if "--check" in argv:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.name} is out of date: run python tools/protocol_schema.py")
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
