"""The protocol's wire, shared by its versions (:mod:`.protocol`, :mod:`.server2`) and the
browser game's WebSocket: a request line read into an object and its id, the lines of a
stream read within a bound, and the error a request gets when it cannot be carried out.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import IO, Any

from ..inputs.jsonin import BadJSON, loads
from ..inputs.jsonout import SAFE_INTEGER
from ..runtime.args import excerpt

MAX_LINE = 1 << 16  # bytes; a request is far smaller
MAX_ID = SAFE_INTEGER  # 2^53 - 1: integer ids beyond this are not exact in JavaScript


class ProtocolError(ValueError):
    """A request the server cannot carry out; ``code`` says which kind."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


def too_long(size: int) -> ProtocolError:
    """The ``too_long`` error of a request of ``size`` bytes."""
    return ProtocolError("too_long", f"a request is at most {MAX_LINE:,} bytes, got {size:,}")


def parse_request(line: str | bytes) -> tuple[dict[str, Any], Any]:
    """A request line (bytes or text) as a JSON object, and its id: the one reader of
    ``serve --stdio`` and the browser game's WebSocket. :class:`ProtocolError`
    ``too_long``, ``bad_json`` (not UTF-8, not JSON, nested too deep) or ``bad_request``
    (not an object; an id that is not a string or an integer within +-(2^53 - 1));
    the id is returned even with a bad op, so that every error can echo it."""
    size = (
        len(line)
        if isinstance(line, bytes) or len(line) * 4 <= MAX_LINE
        else len(line.encode("utf-8", "surrogatepass"))
    )
    if size > MAX_LINE:
        raise too_long(size)
    try:
        request = loads(line)
    except BadJSON as e:
        raise ProtocolError("bad_json", f"not JSON: {excerpt(str(e), 80)}") from None
    if not isinstance(request, dict):
        raise ProtocolError("bad_request", "a request is a JSON object")
    rid = request.get("id")
    if (
        isinstance(rid, bool)
        or ("id" in request and not isinstance(rid, (str, int)))  # null too: no id, say none
        or (isinstance(rid, int) and abs(rid) > MAX_ID)
        or (isinstance(rid, str) and len(rid) > 256)
    ):
        raise ProtocolError(
            "bad_request",
            f"id (when given) is a string of at most 256 characters or an "
            f"integer of at most {MAX_ID:,} (2^53 - 1, exact in "
            f"every JSON reader) either way from 0",
        )
    return request, rid


def read_lines(stream: IO[bytes], limit: int = MAX_LINE) -> Iterator[bytes | int]:
    """The lines of a binary stream, each without its line break; a line longer than
    ``limit`` bytes is read past, never held (memory stays within ``limit``), and given as
    its length (an int) instead. Lines may end in ``\n`` or ``\r\n``; the last one needs
    no line break."""
    while True:
        line = stream.readline(limit + 2)  # room for "\r\n"
        if not line:
            return
        if line.endswith(b"\n") or len(line) <= limit:
            line = line.rstrip(b"\r\n") if line.endswith(b"\n") else line
            if len(line) > limit:
                yield len(line)
            else:
                yield line
            continue
        size = len(line)  # too long: skip to the end of the line
        while not line.endswith(b"\n"):
            line = stream.readline(1 << 16)
            if not line:
                break
            size += len(line)
        yield size - (1 if line.endswith(b"\n") else 0)


def unknown_op(op: Any, ops: Sequence[str]) -> str:
    """The ``unknown_op`` error's text: every op there is, and what was sent."""
    return f"op must be one of {', '.join(ops)}, got {excerpt(op)}"


def read_op(request: dict[str, Any], ops: Sequence[str]) -> str:
    """The request's op, one of ``ops``: ``missing_field`` without one, ``unknown_op`` for
    another (both versions read it so)."""
    if "op" not in request:
        raise ProtocolError("missing_field", "a request needs op: one of " + ", ".join(ops))
    op = request["op"]
    if not isinstance(op, str) or op not in ops:
        raise ProtocolError("unknown_op", unknown_op(op, ops))
    return op
