"""A Griffe extension for the documentation site (mkdocs.yml loads it): the package's
docstrings are written for ``help()`` and doctest, in plain text with a few reST habits, and
this turns them into the Markdown that mkdocstrings renders, without changing what the tests
run.

- A doctest block (``>>>`` lines and their output, up to a blank line) becomes a fenced
  ``pycon`` block: left as it is, Markdown would read each ``>>>`` as a nested quote.
- A Sphinx role (``:class:`Session```, ``:func:`solve```) becomes inline code, its role
  dropped; ``~`` before a dotted name keeps its last part, as Sphinx shows it.
- A reST literal block's ``::`` becomes ``:`` (the indented block that follows is already
  code in Markdown).
- An attribute without a docstring takes the ``#:`` comment lines just above it (the
  package documents its constants that way, as Sphinx reads them).

Nothing else is touched, so a docstring reads the same in ``help()`` as before.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|mod|data|exc|obj|const):`~?([^`]+)`")


def _role(match: re.Match[str]) -> str:
    target = match.group(1)
    if match.group(0).split("`", 1)[1].startswith("~"):
        target = target.rsplit(".", 1)[-1]
    return f"`{target}`"


def to_markdown(text: str) -> str:
    """The docstring ``text`` as Markdown (see the module's docstring)."""
    out: list[str] = []
    indent = ""
    in_doctest = False
    in_fence = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            in_fence = not in_fence
        if in_fence or stripped.startswith("```"):
            out.append(line)
            continue
        if not in_doctest and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            if out and out[-1].strip():
                out.append("")  # a fence needs a blank line before it
            out.append(f"{indent}```pycon")
            in_doctest = True
        elif in_doctest and not stripped:
            out.append(f"{indent}```")
            in_doctest = False
        if in_doctest:
            out.append(line)
            continue
        line = _ROLE.sub(_role, line)
        if line.endswith("::") and not line.endswith(":::"):
            line = line[:-1]
        out.append(line)
    if in_doctest:
        out.append(f"{indent}```")
    return "\n".join(out)


def comment_docstring(obj: griffe.Object) -> str | None:
    """The ``#:`` comment lines just above the attribute ``obj``, joined, or None."""
    if not obj.is_attribute or obj.lineno is None or obj.filepath is None:
        return None
    try:
        lines = obj.lines_collection[obj.filepath]  # type: ignore[index]
    except (KeyError, TypeError):
        return None
    found: list[str] = []
    i = obj.lineno - 2  # the line above, 0-based
    while i >= 0 and lines[i].lstrip().startswith("#:"):
        found.append(lines[i].lstrip()[2:].strip())
        i -= 1
    return "\n".join(reversed(found)) or None


class MarkdownDocstrings(griffe.Extension):
    """Rewrites every loaded object's docstring with :func:`to_markdown`."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is None:
            text = comment_docstring(obj)
            if text is not None:
                obj.docstring = griffe.Docstring(text, lineno=obj.lineno, parent=obj)
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self.on_object(obj=pkg)  # a top-level package is not an on_object event
