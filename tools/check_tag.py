#!/usr/bin/env python3
"""Check that a release tag names the package's version, before anything is built or uploaded
(.github/workflows/release.yml runs it on every ``v*`` tag).

    python tools/check_tag.py v0.2.0            # the tag; default: $GITHUB_REF_NAME

The tag must be ``v`` followed by ``__version__`` exactly (python/pyramid_solitaire/
__init__.py, read as text: nothing is built or imported), and CHANGELOG.md must have that
version's section (``## [X.Y.Z] - YYYY-MM-DD``). Exit status 0 and one line saying so, else 1
and what differs: a tag ``v0.2.0`` on a commit whose ``__version__`` is still ``0.1.0`` is
refused, so a release can never upload files under another version than its tag's.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INIT = ROOT / "python" / "pyramid_solitaire" / "__init__.py"
CHANGELOG = ROOT / "CHANGELOG.md"


def read_version(init: Path = INIT) -> str:
    """The string assigned to ``__version__`` in ``init`` (the one place it is written)."""
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "__version__" for t in targets):
            value = node.value  # type: ignore[union-attr]
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
    raise ValueError(f"no __version__ = '...' in {init}")


def problems(tag: str, version: str, changelog: str | None = None) -> list[str]:
    """What is wrong with releasing ``version`` under ``tag`` (empty: nothing)."""
    found = []
    if tag != f"v{version}":
        found.append(
            f"the tag {tag!r} does not name the package's version: __version__ is "
            f"{version!r}, so the tag must be 'v{version}' (or set __version__ to the tag's "
            "version, in its own commit with the changelog, and tag that commit)"
        )
    heading = re.compile(rf"^## \[{re.escape(version)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", re.M)
    if changelog is not None and not heading.search(changelog):
        found.append(f"CHANGELOG.md has no section '## [{version}] - YYYY-MM-DD'")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tag", nargs="?", default=os.environ.get("GITHUB_REF_NAME"))
    args = parser.parse_args(argv)
    if not args.tag:
        parser.error("no tag given (and GITHUB_REF_NAME is not set)")
    version = read_version()
    found = problems(args.tag, version, CHANGELOG.read_text(encoding="utf-8"))
    for line in found:
        print(f"check_tag: {line}", file=sys.stderr)
    if not found:
        print(f"check_tag: the tag {args.tag} is the package's version {version}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
