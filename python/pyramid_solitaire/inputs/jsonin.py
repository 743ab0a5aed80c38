"""Strict JSON input: the one reader for JSON that anyone may have written (protocol
requests from stdio and WebSocket, save files, the browser game's files).

:func:`loads` refuses, with a ``ValueError`` (:class:`BadJSON`) that says what is wrong:

- bytes that are not UTF-8 (a leading UTF-8 byte-order mark is allowed where ``bom=True``);
- nesting deeper than ``max_depth`` arrays and objects (checked before parsing, so that
  ``[`` x 200,000 never reaches the parser's recursion);
- ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON), numbers too large for a double
  (``1e999``), and integers of more than :data:`MAX_DIGITS` digits;
- an object that names a key twice (which of the two values was meant?);
- anything ``json`` itself refuses.

>>> loads(b'{"op": "new", "id": 3}')
{'op': 'new', 'id': 3}
>>> loads("[" * 1000)
Traceback (most recent call last):
...
pyramid_solitaire.inputs.jsonin.BadJSON: nested more than 64 deep
>>> loads('{"x": NaN}')
Traceback (most recent call last):
...
pyramid_solitaire.inputs.jsonin.BadJSON: NaN is not JSON
>>> loads('{"wins": 1, "wins": 2}')
Traceback (most recent call last):
...
pyramid_solitaire.inputs.jsonin.BadJSON: the key 'wins' twice in one object
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

#: Arrays and objects nested deeper than this are refused (a request or a save is a few deep).
MAX_DEPTH = 64
#: Integers with more digits than this are refused (no value we read needs more than 20).
MAX_DIGITS = 40

# A JSON string (from its opening quote to its closing one), or a bracket outside strings.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_BOM = "\ufeff"


class BadJSON(ValueError):
    """Input that is not strict JSON, or is nested too deep."""


def _constant(name: str) -> Any:
    raise BadJSON(f"{name} is not JSON")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON(f"the number {text[:20]}{'...' if len(text) > 20 else ''} is too large")
    return value


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise BadJSON(f"an integer of {digits:,} digits (at most {MAX_DIGITS})")
    return int(text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            shown = key if len(key) <= 40 else key[:40] + "..."
            raise BadJSON(f"the key {shown!r} twice in one object")
        out[key] = value
    return out


def depth(text: str) -> int:
    """How deep the arrays and objects of ``text`` nest (brackets inside strings do not
    count). Exact for valid JSON; for invalid JSON the parser fails before it matters."""
    level = deepest = 0
    for m in _TOKENS.finditer(text):
        c = m.group()
        if c == "[" or c == "{":
            level += 1
            if level > deepest:
                deepest = level
        elif c == "]" or c == "}":
            level -= 1
    return deepest


def loads(data: bytes | bytearray | str, *, max_depth: int = MAX_DEPTH, bom: bool = False) -> Any:
    """The value of the JSON text ``data`` (bytes must be UTF-8); :class:`BadJSON` saying
    what is wrong otherwise. ``bom``: a leading UTF-8 byte-order mark is skipped (files
    saved by some editors have one); else it is refused."""
    if isinstance(data, (bytes, bytearray)):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadJSON(f"byte {e.start:,} (0x{data[e.start]:02x}) is not UTF-8") from None
    elif isinstance(data, str):
        text = data
    else:
        raise BadJSON(f"JSON text is str or bytes, got {type(data).__name__}")
    if text.startswith(_BOM):
        if not bom:
            raise BadJSON("a byte-order mark before the JSON text")
        text = text[1:]
    if depth(text) > max_depth:
        raise BadJSON(f"nested more than {max_depth} deep")
    try:
        return json.loads(
            text,
            parse_constant=_constant,
            parse_float=_float,
            parse_int=_int,
            object_pairs_hook=_object,
        )
    except BadJSON:
        raise
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise BadJSON(f"nested more than {max_depth} deep") from None
    except ValueError as e:  # JSONDecodeError, and int() of too many digits
        raise BadJSON(" ".join(str(e).split())) from None
