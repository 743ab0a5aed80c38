"""What the subcommands read: deals from an argument, a file or standard input, and the
numeric flags (checked by pyramid_solitaire._args under the flag's own name).

A deal is a deal code, 52 card tokens or a deal number. A deals file holds one a line; ``#``
starts a comment and blank lines are skipped. It is read as UTF-8 (a byte-order mark is
dropped; a UTF-16 file with its byte-order mark is read too). Lines end at ``\n``, ``\r\n``
or ``\r`` and nothing else (a form feed or U+2028 is whitespace inside a line, not a line
break: :func:`split_lines`), so line numbers are what an editor shows. Errors name the file
and the line; with ``--skip-bad`` a bad line is skipped instead and reported on stderr.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from typing import Any

from ..inputs.deals import deal_number_of
from ..model.cards import _TOKEN, _tokens
from ..model.deal import Deal, looks_like_code
from ..runtime import args as _args
from ..runtime.args import excerpt
from .cli import UsageError, explicit_rules, rules_from_args

_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
MAX_BAD_SHOWN = 10
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")
_COUNTS = {2: "two", 3: "three", 4: "four", 5: "five"}


@dataclass
class Line:
    """One deal of the input: where it came from, its text, the deal and its rules."""

    where: str  # "deals.txt, line 3", or "the argument"
    text: str
    deal: Deal  # named under the rules it is played under


def split_lines(text: str) -> list[str]:
    """The lines of a text: broken at ``\n``, ``\r\n`` and ``\r`` only (str.splitlines
    also breaks at form feeds, U+2028 and others, which would shift the line numbers)."""
    return _LINE_BREAK.split(text)


def _line_of(data: bytes, at: int) -> int:
    """The line (from 1) of byte ``at`` of ``data``, counted as split_lines counts them."""
    return len(_LINE_BREAK_BYTES.findall(data, 0, at)) + 1


def _what_is_seen(text: str, where: str) -> str | None:
    """What is wrong with a line that is not one deal, said as what was seen: one card (a
    file of one card a line), two deals on one line, a code and more...; None when the card
    list's own check says it better (a few cards missing, a card twice, a token that is no
    card)."""
    words = text.split()
    if len(words) > 1 and looks_like_code(words[0]):
        return (
            f"a deal code and {len(words) - 1:,} more word{'s' if len(words) > 2 else ''} "
            f"({excerpt(words[0], 20)} ...): one deal a line (a comment starts with #)"
        )
    tokens = _tokens(text)
    n = len(tokens)
    if n == 52 or not tokens or not all(_TOKEN.fullmatch(t) for _, t, _ in tokens):
        return None
    if n % 52 == 0:
        return (
            f"{n} card tokens: {_COUNTS.get(n // 52, f'{n // 52:,}')} deals on one line? "
            "(one deal a line)"
        )
    if n < 44 or n > 52:
        line = " on one line" if where != "the argument" else ""
        return (
            f"got {n} card token{'s' if n != 1 else ''} (a deal is a code, a deal number "
            f"or 52 card tokens{line})"
        )
    return None


def parse_deal(text: str, args: argparse.Namespace, where: str, *, rules: bool = True) -> Line:
    """A deal code or a card list, with the rules flags applied (errors name ``where``).
    ``rules=False``: the rules are not needed (only the cards are shown), so a code of
    custom rules (an X code) given without rule flags is read as it is."""
    try:
        if len(text) > 10_000:
            raise ValueError(f"a deal is a code or 52 card tokens, got {len(text):,} characters")
        number = deal_number_of(text)
        if number is not None:  # a deal number
            return Line(where, text, Deal.from_number(number, rules=rules_from_args(args)))
        if not looks_like_code(text):
            problem = _what_is_seen(text, where)
            if problem is not None:
                raise ValueError(problem)
        deal = Deal.parse(text)
        if (
            not rules
            and deal.number is not None
            and deal.rules is None
            and explicit_rules(args) is None
        ):
            return Line(where, text, deal)  # an X code, its cards only
        return Line(where, text, deal.with_rules(rules_from_args(args, deal)))
    except ValueError as e:
        raise UsageError(f"{where}: {e}" if where != "the argument" else str(e)) from None


CHUNK = 1 << 20


def max_input_bytes() -> int:
    """The largest deals file read: a quarter of the memory available (at least 256 MB),
    1 GB when the machine does not say."""
    available = _args.available_memory()
    return 1 << 30 if available is None else max(256 << 20, available // 4)


def _read_bounded(f: Any, name: str) -> bytes:
    """The bytes of ``f``, read a megabyte at a time: a NUL byte (not text: /dev/zero, a
    binary file) or more than :func:`max_input_bytes` stops it at once, with a UsageError,
    before memory fills (UTF-16 text, whose byte-order mark comes first, has NULs)."""
    limit = max_input_bytes()
    parts: list[bytes] = []
    size = 0
    utf16 = False
    while True:
        chunk = f.read(CHUNK)
        if not chunk:
            return b"".join(parts)
        if not parts:
            utf16 = chunk.startswith((b"\xff\xfe", b"\xfe\xff"))
        if not utf16 and b"\x00" in chunk:
            data = b"".join(parts) + chunk
            line = _line_of(data, data.index(b"\x00"))
            raise UsageError(f"{name}, line {line}: a NUL byte: this is not a text file of deals")
        size += len(chunk)
        if size > limit:
            raise UsageError(
                f"{name} is over {_args.format_bytes(limit)} (a quarter of the "
                f"memory available): split it, or free memory"
            )
        parts.append(chunk)


def read_text(path: str) -> tuple[str, str]:
    """The text of ``path`` ('-' for standard input) and the name to quote in errors."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            if sys.stdin is None or sys.stdin.closed:
                raise UsageError("standard input is closed: give the deals another way")
            if hasattr(sys.stdin, "buffer"):
                data = _read_bounded(sys.stdin.buffer, name)
            else:
                data = sys.stdin.read().encode("utf-8")
        else:
            with open(path, "rb") as f:
                data = _read_bounded(f, name)
    except OSError as e:
        raise UsageError(f"cannot read {name}: {e.strerror or e}") from None
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            data = data[len(bom) :]
            if encoding != "utf-8":
                try:
                    return data.decode(encoding), name
                except UnicodeDecodeError:
                    raise UsageError(f"{name} is not valid {encoding.upper()} text") from None
            break
    if b"\x00" in data:
        line = _line_of(data, data.index(b"\x00"))
        raise UsageError(f"{name}, line {line}: a NUL byte: this is not a text file of deals")
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as e:
        line = _line_of(data, e.start)
        raise UsageError(
            f"{name}, line {line}: byte 0x{data[e.start]:02x} is not UTF-8 text; "
            "save the file as UTF-8"
        ) from None


def read_deal_file(
    path: str, args: argparse.Namespace, skip_bad: bool = False
) -> tuple[list[Line], list[str]]:
    """The deals of a file, and (with ``skip_bad``) the errors of the lines skipped, each
    naming its line and why."""
    text, name = read_text(path)
    lines, bad = [], []
    for no, raw in enumerate(split_lines(text), 1):
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
        if bad:
            raise UsageError(
                f"{name} holds no deals ({len(bad):,} bad line"
                f"{'s' if len(bad) != 1 else ''} skipped; the first: {bad[0]})"
            )
        raise UsageError(f"{name} holds no deals")
    return lines, bad


def report_bad(bad: list[str]) -> None:
    """Tell on stderr which lines --skip-bad skipped and why: the first MAX_BAD_SHOWN, then
    how many more."""
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
    p.add_argument(
        "--max-memory", metavar="BYTES", help=f"memory budget per {what}, e.g. 512MB (default 1GiB)"
    )


def add_progress_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )


def add_pool_flags(p: argparse.ArgumentParser, tasks: str) -> None:
    """--scheduler or --workers: where a sharded run's ``tasks`` (shards, blocks) run (the
    two together are refused: the cluster's workers are its own)."""
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help=f"a Dask scheduler (tcp://host:port) to run the {tasks} on its workers "
        "(default: a local process pool)",
    )
    where.add_argument(
        "--workers",
        metavar="W",
        default="1",
        help="local pool: processes, each using its share of the cores (default 1)",
    )


def budgets(args: argparse.Namespace, default_seconds: float | None = None) -> dict[str, Any]:
    """The budget flags, checked under their flags' names."""
    seconds = (
        None
        if args.max_seconds is None
        else _args.real("--max-seconds", args.max_seconds, allow_inf=True)
    )
    return dict(
        max_seconds=default_seconds if seconds is None else seconds,
        max_nodes=None
        if args.max_nodes is None
        else _args.whole("--max-nodes", args.max_nodes, 1, _args.INT64_MAX, clamp=True),
        max_memory=None
        if args.max_memory is None
        else _args.memory("--max-memory", args.max_memory),
    )


def threads(args: argparse.Namespace) -> int | None:
    if args.threads is None:
        return None
    try:
        return _args.threads(args.threads)
    except ValueError as e:
        raise UsageError(str(e).replace("threads", "--threads", 1)) from None
