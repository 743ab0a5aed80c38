"""What the subcommands read: deals from an argument, a file or standard input, and the
numeric flags (checked by pyramid_solitaire._args under the flag's own name).

A deal is a deal code, 52 card tokens or a deal number. A deals file holds one a line; ``#`` starts a comment
and blank lines are skipped. It is read as UTF-8 (a byte-order mark is dropped; a UTF-16 file
with its byte-order mark is read too); Windows line ends are fine. Errors name the file and
the line; with ``--skip-bad`` a bad line is reported and skipped instead.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any

from .. import _args
from ..cli import UsageError, rules_from_args
from ..deal import Deal
from pyramid_core.shuffle import MAX_DEAL_NUMBER

_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
MAX_BAD_SHOWN = 10


@dataclass
class Line:
    """One deal of the input: where it came from, its text, the deal and its rules."""

    where: str          # "deals.txt, line 3", or "the argument"
    text: str
    deal: Deal          # named under the rules it is played under


def parse_deal(text: str, args: argparse.Namespace, where: str) -> Line:
    """A deal code or a card list, with the rules flags applied (errors name ``where``)."""
    try:
        if len(text) > 10_000:
            raise ValueError(f"a deal is a code or 52 card tokens, got {len(text):,} characters")
        if text.strip().isascii() and text.strip().isdigit():    # a deal number
            number = _args.whole("a deal number", text, 0, MAX_DEAL_NUMBER)
            return Line(where, text, Deal.from_number(number, rules=rules_from_args(args)))
        deal = Deal.parse(text)
        return Line(where, text, deal.with_rules(rules_from_args(args, deal)))
    except ValueError as e:
        raise UsageError(f"{where}: {e}" if where != "the argument" else str(e)) from None


def read_text(path: str) -> tuple[str, str]:
    """The text of ``path`` ('-' for standard input) and the name to quote in errors."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            if sys.stdin is None or sys.stdin.closed:
                raise UsageError("standard input is closed: give the deals another way")
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else \
                sys.stdin.read().encode("utf-8")
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise UsageError(f"cannot read {name}: {e.strerror or e}") from None
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            data = data[len(bom):]
            if encoding != "utf-8":
                try:
                    return data.decode(encoding), name
                except UnicodeDecodeError:
                    raise UsageError(f"{name} is not valid {encoding.upper()} text") from None
            break
    if b"\x00" in data:
        line = data[:data.index(b"\x00")].count(b"\n") + 1
        raise UsageError(f"{name}, line {line}: a NUL byte: this is not a text file of deals")
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise UsageError(f"{name}, line {line}: byte 0x{data[e.start]:02x} is not UTF-8 text; "
                         "save the file as UTF-8") from None


def read_deal_file(path: str, args: argparse.Namespace, skip_bad: bool = False
                   ) -> tuple[list[Line], list[str]]:
    """The deals of a file, and (with ``skip_bad``) the errors of the lines skipped."""
    text, name = read_text(path)
    lines, bad = [], []
    for no, raw in enumerate(text.splitlines(), 1):
        content = raw.split("#", 1)[0].strip()
        if not content:
            continue
        try:
            lines.append(parse_deal(content, args, f"{name}, line {no}"))
        except UsageError as e:
            if not skip_bad:
                raise
            bad.append(str(e))
    if not lines:
        raise UsageError(f"{name} holds no deals" + (f" ({len(bad)} bad lines skipped)"
                                                     if bad else ""))
    return lines, bad


def report_bad(bad: list[str]) -> None:
    """Tell on stderr which lines --skip-bad skipped."""
    if not bad:
        return
    print(f"skipped {len(bad):,} bad line{'s' if len(bad) != 1 else ''}:", file=sys.stderr)
    for msg in bad[:MAX_BAD_SHOWN]:
        print(f"  {msg}", file=sys.stderr)
    if len(bad) > MAX_BAD_SHOWN:
        print(f"  ... and {len(bad) - MAX_BAD_SHOWN:,} more", file=sys.stderr)


def add_budget_flags(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--max-seconds", metavar="S", help=f"time budget per {what}")
    p.add_argument("--max-nodes", metavar="N", help=f"positions budget per {what}")
    p.add_argument("--max-memory", metavar="BYTES",
                   help=f"memory budget per {what}, e.g. 512MB (default 1GiB)")


def budgets(args: argparse.Namespace, default_seconds: float | None = None) -> dict[str, Any]:
    """The budget flags, checked under their flags' names."""
    seconds = None if args.max_seconds is None else _args.real("--max-seconds", args.max_seconds,
                                                               allow_inf=True)
    return dict(
        max_seconds=default_seconds if seconds is None else seconds,
        max_nodes=None if args.max_nodes is None else _args.whole(
            "--max-nodes", args.max_nodes, 1, _args.INT64_MAX, clamp=True),
        max_memory=None if args.max_memory is None else _args.memory("--max-memory",
                                                                     args.max_memory))


def threads(args: argparse.Namespace) -> int | None:
    if args.threads is None:
        return None
    try:
        return _args.threads(args.threads)
    except ValueError as e:
        raise UsageError(str(e).replace("threads", "--threads", 1)) from None
