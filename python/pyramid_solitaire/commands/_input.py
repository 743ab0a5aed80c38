"""What the subcommands read: deals from an argument, a file or standard input, and the
numeric flags (checked by pyramid_solitaire._args under the flag's own name).

A deal is a deal code, 52 card tokens or a deal number. A deals file holds one a line; ``#``
starts a comment and blank lines are skipped. It is read as UTF-8 (a byte-order mark is
dropped; a UTF-16 file with its byte-order mark is read too). Lines end at ``\n``, ``\r\n``
or ``\r`` and nothing else (a form feed or U+2028 is whitespace inside a line, not a line
break: :func:`iter_lines`), so line numbers are what an editor shows. Errors name the file
and the line; with ``--skip-bad`` a bad line is skipped instead and reported on stderr.

Files and standard input are read a megabyte at a time (:func:`iter_lines`): whatever their
size, the memory they take is a chunk and one line's limit (MAX_LINE_CHARS), so a file of
blank lines or of one endless line costs nothing but the time to read it.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import io
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..inputs.deals import deal_number_of
from ..model.cards import _TOKEN, _tokens
from ..model.deal import Deal, looks_like_code
from ..model.rules import Rules
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


def _rules_for(args: argparse.Namespace, deal: Deal | None) -> Rules:
    """rules_from_args(args, deal), worked out once per kind of deal a file holds (a deal
    number, a code of each letter, a card list): the same flags give the same rules."""
    cache: dict[Any, Rules] = args.__dict__.setdefault("_rules_of", {})
    key = None if deal is None else (deal.number is not None, deal.rules)  # (rules: the letter)
    if key not in cache:
        cache[key] = rules_from_args(args) if deal is None else rules_from_args(args, deal)
    return cache[key]


def parse_deal(text: str, args: argparse.Namespace, where: str, *, rules: bool = True) -> Line:
    """A deal code or a card list, with the rules flags applied (errors name ``where``).
    ``rules=False``: the rules are not needed (only the cards are shown), so a code of
    custom rules (an X code) given without rule flags is read as it is."""
    try:
        if len(text) > 10_000:
            raise ValueError(f"a deal is a code or 52 card tokens, got {len(text):,} characters")
        number = deal_number_of(text)
        if number is not None:  # a deal number
            return Line(where, text, Deal.from_number(number, rules=_rules_for(args, None)))
        try:
            deal = Deal.parse(text)
        except ValueError:
            # what was seen says it better than the card list's first complaint (worked
            # out only for a line that is no deal: a good line is read once)
            problem = None if looks_like_code(text) else _what_is_seen(text, where)
            if problem is not None:
                raise ValueError(problem) from None
            raise
        if (
            not rules
            and deal.number is not None
            and deal.rules is None
            and explicit_rules(args) is None
        ):
            return Line(where, text, deal)  # an X code, its cards only
        return Line(where, text, deal.with_rules(_rules_for(args, deal)))
    except ValueError as e:
        raise UsageError(f"{where}: {e}" if where != "the argument" else str(e)) from None


CHUNK = 1 << 20

#: The longest line kept whole: a deal is at most about 200 characters (52 tokens such as
#: "10♦"); a longer line that is not blank or a comment is refused, read a chunk at a time.
MAX_LINE_CHARS = 10_000

#: A line over MAX_LINE_CHARS that holds more than blanks and a comment (what iter_lines
#: yields in its place: the consumer says the line is too long).
TOO_LONG = "\x00too long\x00"

#: What iter_lines and deal_lines give, with ``chunk_ends``, once the lines read so far have
#: all been given (a reader that batches lines hands its batch on: from a pipe, the lines
#: typed so far are answered before more is read).
CHUNK_END = "\x00chunk end\x00"


def _decoder_of(first: bytes) -> tuple[Any, int, bool]:
    """The incremental decoder for a text starting with ``first``, how many bytes of BOM
    to skip, and whether it is UTF-16 (whose NUL bytes are text)."""
    for bom, encoding in _BOMS:
        if first.startswith(bom):
            return codecs.getincrementaldecoder(encoding)("strict"), len(bom), encoding != "utf-8"
    return codecs.getincrementaldecoder("utf-8")("strict"), 0, False


def _breaks(text: str) -> int:
    """How many line breaks ``text`` holds (``\\r\\n`` is one), counted at C speed."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


#: Something other than whitespace (where iter_lines finds the lines it gives).
_NON_BLANK = re.compile(r"\S")


def _content_or_too_long(line: str) -> str:
    """``line``, or TOO_LONG when it is over MAX_LINE_CHARS before its comment."""
    if len(line) <= MAX_LINE_CHARS:
        return line
    content = line.split("#", 1)[0]
    if len(content.strip()) == 0:
        return ""
    return TOO_LONG if len(content) > MAX_LINE_CHARS else content


def iter_lines(f: Any, name: str, chunk_ends: bool = False) -> Iterator[tuple[int, str]]:
    """The lines of the binary file ``f`` that hold something other than whitespace, as
    (line number, text), read a megabyte at a time: memory stays within a chunk and one
    line's limit whatever the file's size, and blank lines cost only the time to read them.
    Lines end at ``\\n``, ``\\r\\n`` or ``\\r`` only (str.splitlines also breaks at form feeds,
    U+2028 and others, which would shift the line numbers). A line longer than
    MAX_LINE_CHARS is given as TOO_LONG unless it is blanks and a comment (then as ""); a
    NUL byte (not text) or bytes that are not UTF-8 raise a UsageError naming the line.
    A pipe or terminal is read as its data comes (what has come so far, up to a megabyte);
    ``chunk_ends``: (line number, CHUNK_END) follows the lines of each read."""
    read = getattr(f, "read1", f.read)
    decoder = None
    utf16 = False
    pending = ""  # the line read so far (no line break in it)
    overlong = False  # the current line went over the limit with content before a comment
    no = 1  # the number of the line ``pending`` is on
    while True:
        chunk = read(CHUNK)
        eof = not chunk
        if decoder is None:
            # a byte-order mark cut short (a pipe can give a byte at a time): read on until
            # it is told, but never wait for more than the start of one
            while chunk and any(len(chunk) < len(b) and b.startswith(chunk) for b, _ in _BOMS):
                more = read(CHUNK)
                if not more:
                    break
                chunk += more
            decoder, skip, utf16 = _decoder_of(chunk)
            chunk = chunk[skip:]
        error = None  # what is wrong at the end of this chunk's good lines
        if not utf16 and b"\x00" in chunk:
            at = chunk.index(b"\x00")
            at_line = _line_of(no, pending, chunk, at)
            error = UsageError(
                f"{name}, line {at_line}: a NUL byte: this is not a text file of deals"
            )
            chunk = chunk[: _line_start(chunk, at)]  # the lines before it are read
        state = decoder.getstate()
        try:
            text = decoder.decode(chunk, final=eof and error is None)
        except UnicodeDecodeError as e:
            if utf16:
                raise UsageError(f"{name} is not valid UTF-16 text") from None
            whole = state[0] + chunk  # (what the decoder read: bytes kept from before too)
            bad = whole[e.start] if 0 <= e.start < len(whole) else 0
            at = max(e.start - len(state[0]), 0)
            at_line = _line_of(no, pending, chunk, at)
            error = UsageError(
                f"{name}, line {at_line}: byte 0x{bad:02x} is not UTF-8 text; "
                "save the file as UTF-8"
            )
            chunk = chunk[: _line_start(chunk, at)]
            try:  # the lines before it, as they would have been read
                text = (state[0] + chunk).decode("utf-8")
            except UnicodeDecodeError:
                text = ""
        text, pending = pending + text, ""
        held = ""
        if not eof and error is None and text.endswith("\r"):  # a \r\n cut between chunks
            text, held = text[:-1], "\r"
        end = max(text.rfind("\n"), text.rfind("\r")) + 1  # after the last complete line
        if end:
            body = text[:end]
            first = 0
            if overlong:  # the line begun in earlier chunks, too long: said, its rest skipped
                yield no, TOO_LONG
                first = 1
            if _NON_BLANK.search(body, _first_break(body) if overlong else 0) is None:
                no += _breaks(body)  # nothing but blank lines: nothing to split
            else:
                lines = _LINE_BREAK.split(body)  # the complete lines, then ""
                for k in range(first, len(lines) - 1):
                    line = lines[k]
                    if line and not line.isspace():
                        line = _content_or_too_long(line)
                        if line is TOO_LONG or line.strip():
                            yield no + k, line
                no += len(lines) - 1
            pending, overlong = text[end:], False
        else:
            pending = text
        if len(pending) > MAX_LINE_CHARS:  # keep what can still matter, drop the rest
            content = pending.split("#", 1)[0]
            if "#" in pending:
                overlong = overlong or (len(content) > MAX_LINE_CHARS and bool(content.strip()))
                pending = content[: MAX_LINE_CHARS + 1] + "#"
            elif not content.strip():
                pending = ""  # blanks so far: nothing kept
            else:
                overlong, pending = True, ""
        pending += held
        if chunk_ends and (not eof or error is not None):
            yield no, CHUNK_END
        if error is not None:
            raise error
        if eof:
            if overlong:
                yield no, TOO_LONG
            elif pending.strip():
                yield no, _content_or_too_long(pending)
            return


def _line_of(no: int, pending: str, data: bytes, at: int) -> int:
    """The line of byte ``at`` of the chunk ``data``, read after ``pending`` (the text of
    line ``no`` so far, which may end with a \r held back in case a \n follows)."""
    head = data[:at]
    held = pending.endswith("\r") and not head.startswith(b"\n")
    return no + held + len(_LINE_BREAK_BYTES.findall(head))


def _line_start(data: bytes, at: int) -> int:
    """Where the line holding byte ``at`` of ``data`` starts."""
    return max(data.rfind(b"\n", 0, at), data.rfind(b"\r", 0, at)) + 1


def _first_break(text: str, start: int = 0) -> int:
    """Where the first line break of ``text`` from ``start`` is (len(text) when none)."""
    m = _LINE_BREAK.search(text, start)
    return len(text) if m is None else m.start()


@contextlib.contextmanager
def open_input(path: str) -> Iterator[tuple[Any, str]]:
    """``path`` ('-' for standard input) open for binary reading, and the name to quote in
    errors; a UsageError when it cannot be read."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            if sys.stdin is None or sys.stdin.closed:
                raise UsageError("standard input is closed: give the deals another way")
            if hasattr(sys.stdin, "buffer"):
                yield sys.stdin.buffer, name
            else:  # a text stream with no bytes under it (a test's StringIO)
                yield io.BytesIO(sys.stdin.read().encode("utf-8")), name
            return
        with open(path, "rb") as f:
            yield f, name
    except OSError as e:
        raise UsageError(f"cannot read {name}: {e.strerror or e}") from None


def deal_lines(path: str, chunk_ends: bool = False) -> Iterator[tuple[str, str]]:
    """The deals of a file, streamed: (where, text) for each line that is not blank or a
    comment (``#`` starts one); a line too long to be a deal comes as (where, TOO_LONG);
    ``chunk_ends``: ("", CHUNK_END) after each read's lines (see iter_lines)."""
    with open_input(path) as (f, name):
        for no, raw in iter_lines(f, name, chunk_ends):
            if raw is CHUNK_END:
                yield "", CHUNK_END
                continue
            where = f"{name}, line {no}"
            if raw is TOO_LONG:
                yield where, TOO_LONG
                continue
            content = raw.split("#", 1)[0].strip()
            if content:
                yield where, content


def read_deal_file(
    path: str, args: argparse.Namespace, skip_bad: bool = False
) -> tuple[list[Line], list[str]]:
    """The deals of a file, and (with ``skip_bad``) the errors of the lines skipped, each
    naming its line and why. The file is read a chunk at a time: blank lines and comments
    cost nothing, whatever their number."""
    lines, bad = [], []
    for where, content in deal_lines(path):
        try:
            refuse_too_long(where, content)
            lines.append(parse_deal(content, args, where))
        except UsageError as e:
            if not skip_bad:
                raise
            bad.append(str(e))
    if not lines:
        raise no_deals(path, bad)
    return lines, bad


def refuse_too_long(where: str, content: str) -> None:
    """A UsageError for a line deal_lines gave as TOO_LONG."""
    if content is TOO_LONG:
        raise UsageError(
            f"{where}: a deal is a code, a deal number or 52 card tokens, got a line "
            f"of over {MAX_LINE_CHARS:,} characters"
        )


def no_deals(path: str, bad: list[str]) -> UsageError:
    """The error of a file without one deal (``bad``: the lines --skip-bad skipped)."""
    name = "standard input" if path == "-" else path
    if bad:
        return UsageError(
            f"{name} holds no deals ({len(bad):,} bad line"
            f"{'s' if len(bad) != 1 else ''} skipped; the first: {bad[0]})"
        )
    return UsageError(f"{name} holds no deals")


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
