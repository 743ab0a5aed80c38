"""The kinds of value a protocol request's fields take, each written once: :meth:`Field.read`
checks a value (a :class:`FieldError` naming the field and what it should be) and
:meth:`Field.schema` gives its JSON Schema, so that the server's checks and the published
schema (:mod:`.ops`) cannot disagree.

>>> Int(0, 10).read(3, "limit")
3
>>> Int(0, 10).read(11, "limit")
Traceback (most recent call last):
...
pyramid_solitaire.session.fields.FieldError: limit is a whole number 0 .. 10, got 11
>>> Int(0, 10).schema()
{'type': 'integer', 'minimum': 0, 'maximum': 10}
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..runtime.args import excerpt


class FieldError(ValueError):
    """A field of a request that is not what it should be; ``code`` is the protocol's
    error code (``bad_request``, ``missing_field``) and ``field`` the field's path."""

    def __init__(self, text: str, name: str, code: str = "bad_request") -> None:
        super().__init__(text)
        self.field = name
        self.code = code


class Field:
    """A kind of value: ``read`` checks one and returns it as the server uses it."""

    description: str = ""

    def read(self, value: Any, name: str) -> Any:
        raise NotImplementedError

    def schema(self) -> dict[str, Any]:
        raise NotImplementedError

    def what(self) -> str:
        """What a good value is, in words (for the refusals)."""
        raise NotImplementedError

    def refuse(self, value: Any, name: str) -> FieldError:
        return FieldError(f"{name} is {self.what()}, got {excerpt(value)}", name)

    def with_doc(self, schema: dict[str, Any]) -> dict[str, Any]:
        return {"description": self.description, **schema} if self.description else schema


@dataclass
class Bool(Field):
    description: str = ""

    def read(self, value: Any, name: str) -> bool:
        if not isinstance(value, bool):
            raise self.refuse(value, name)
        return value

    def schema(self) -> dict[str, Any]:
        return self.with_doc({"type": "boolean"})

    def what(self) -> str:
        return "true or false"


@dataclass
class Int(Field):
    lo: int
    hi: int
    description: str = ""
    words: str = ""  # the range in words, when digits would not say it (2^53 - 1)

    def read(self, value: Any, name: str) -> int:
        if isinstance(value, float) and value.is_integer():  # 3.0 is an integer to JSON
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not self.lo <= value <= self.hi:
            raise self.refuse(value, name)
        return value

    def schema(self) -> dict[str, Any]:
        return self.with_doc({"type": "integer", "minimum": self.lo, "maximum": self.hi})

    def what(self) -> str:
        return f"a whole number {self.words or f'{self.lo} .. {self.hi}'}"


@dataclass
class Num(Field):
    lo: float
    hi: float
    description: str = ""

    def read(self, value: Any, name: str) -> float:
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not self.lo <= value <= self.hi
        ):
            raise self.refuse(value, name)
        return float(value)

    def schema(self) -> dict[str, Any]:
        return self.with_doc({"type": "number", "minimum": self.lo, "maximum": self.hi})

    def what(self) -> str:
        return f"a number {self.lo:g} .. {self.hi:g}"


@dataclass
class Str(Field):
    max_length: int = 256
    pattern: str | None = None
    words: str = ""  # what a good string is, when a pattern says it
    description: str = ""

    def read(self, value: Any, name: str) -> str:
        if (
            not isinstance(value, str)
            or not 0 < len(value) <= self.max_length
            or (self.pattern is not None and re.fullmatch(self.pattern, value) is None)
        ):
            raise self.refuse(value, name)
        return value

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": self.max_length}
        if self.pattern is not None:
            out["pattern"] = f"^(?:{self.pattern})$"
        return self.with_doc(out)

    def what(self) -> str:
        return self.words or f"a string of 1 to {self.max_length} characters"


@dataclass
class Enum(Field):
    values: Sequence[Any]
    description: str = ""

    def read(self, value: Any, name: str) -> Any:
        if isinstance(value, bool) or value not in self.values:
            raise self.refuse(value, name)
        return value

    def schema(self) -> dict[str, Any]:
        return self.with_doc({"enum": list(self.values)})

    def what(self) -> str:
        return "one of " + ", ".join(map(str, self.values))

    def refuse(self, value: Any, name: str) -> FieldError:
        return FieldError(f"{name} must be {self.what()}, got {excerpt(value)}", name)


@dataclass
class Const(Field):
    value: Any
    description: str = ""

    def read(self, value: Any, name: str) -> Any:
        if value is not self.value and (isinstance(value, bool) or value != self.value):
            raise self.refuse(value, name)
        return value

    def schema(self) -> dict[str, Any]:
        return self.with_doc({"const": self.value})

    def what(self) -> str:
        return repr(self.value).lower() if isinstance(self.value, bool) else repr(self.value)


@dataclass
class Any_(Field):
    """Anything JSON (checked further where it is used: a save document)."""

    kind: str = "object"
    description: str = ""

    def read(self, value: Any, name: str) -> Any:
        if self.kind == "object" and not isinstance(value, dict):
            raise self.refuse(value, name)
        return value

    def schema(self) -> dict[str, Any]:
        return self.with_doc({"type": self.kind})

    def what(self) -> str:
        return f"a JSON {self.kind}"


@dataclass
class Ref(Field):
    """A value whose schema is a ``$defs`` entry and whose check is a function."""

    name: str
    check: Any = None  # (value, field name) -> value; FieldError (or ValueError) if bad
    words: str = ""
    description: str = ""

    def read(self, value: Any, name: str) -> Any:
        if self.check is None:
            return value
        try:
            return self.check(value, name)
        except FieldError:
            raise
        except ValueError:
            raise self.refuse(value, name) from None

    def schema(self) -> dict[str, Any]:
        return self.with_doc({"$ref": f"#/$defs/{self.name}"})

    def what(self) -> str:
        return self.words


@dataclass
class List(Field):
    item: Field
    max_items: int
    min_items: int = 0
    description: str = ""

    def read(self, value: Any, name: str) -> list[Any]:
        if not isinstance(value, list) or not self.min_items <= len(value) <= self.max_items:
            raise self.refuse(value, name)
        return [self.item.read(v, f"{name}[{i}]") for i, v in enumerate(value)]

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": self.item.schema()}
        out["maxItems"] = self.max_items
        if self.min_items:
            out["minItems"] = self.min_items
        return self.with_doc(out)

    def what(self) -> str:
        low = f"{self.min_items} to " if self.min_items else "at most "
        return f"a list of {low}{self.max_items} items, each {self.item.what()}"


@dataclass
class Obj(Field):
    """An object of known fields (``required`` among them); any other key is refused."""

    fields: Mapping[str, Field]
    required: Sequence[str] = ()
    description: str = ""
    one_of: Sequence[Sequence[str]] = ()  # groups of which at most one may be given

    def read(self, value: Any, name: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise FieldError(
                f"{name} is an object with {self.keys_text()}, got {excerpt(value)}", name
            )
        return read_fields(value, self.fields, self.required, self.one_of, f"{name}.")

    def keys_text(self) -> str:
        return "the fields " + ", ".join(self.fields) if self.fields else "no fields"

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "object",
            "properties": {k: f.schema() for k, f in self.fields.items()},
            "additionalProperties": False,
        }
        if self.required:
            out["required"] = list(self.required)
        for group in self.one_of:
            out.setdefault("allOf", []).append(
                {"not": {"anyOf": [{"required": [a, b]} for a in group for b in group if a < b]}}
            )
        return self.with_doc(out)

    def what(self) -> str:
        return f"an object with {self.keys_text()}"


@dataclass
class OneOf(Field):
    choices: Sequence[Field]
    words: str = ""
    description: str = ""

    def read(self, value: Any, name: str) -> Any:
        for choice in self.choices:
            try:
                return choice.read(value, name)
            except FieldError as e:
                if isinstance(choice, Obj) and isinstance(value, dict):
                    raise e  # the object's own error names the key
        raise self.refuse(value, name)

    def schema(self) -> dict[str, Any]:
        return self.with_doc({"oneOf": [c.schema() for c in self.choices]})

    def what(self) -> str:
        return self.words or " or ".join(c.what() for c in self.choices)


def read_fields(
    request: Mapping[str, Any],
    fields: Mapping[str, Field],
    required: Sequence[str] = (),
    one_of: Sequence[Sequence[str]] = (),
    prefix: str = "",
    ignore: Sequence[str] = (),
) -> dict[str, Any]:
    """The known fields of ``request``, each read; a key that is not one of ``fields`` (nor
    in ``ignore``) is refused by name, as is a missing required one."""
    unknown = [k for k in request if k not in fields and k not in ignore]
    if unknown:
        known = ", ".join(fields) or "none"
        raise FieldError(
            f"unknown field {prefix}{excerpt(unknown[0], 40)}: the fields here are {known}",
            f"{prefix}{unknown[0]}",
        )
    for group in one_of:
        given = [k for k in group if k in request]
        if len(given) > 1:
            raise FieldError(
                f"{prefix}{given[0]} and {prefix}{given[1]} go apart: give one of "
                + ", ".join(prefix + g for g in group),
                f"{prefix}{given[1]}",
            )
    for k in required:
        if k not in request:
            raise FieldError(
                f"{prefix.rstrip('.') or 'the request'} needs {k!r}", prefix + k, "missing_field"
            )
    return {k: fields[k].read(v, prefix + k) for k, v in request.items() if k in fields}


@dataclass
class Op:
    """One op of the protocol: its fields, which are required, the groups of fields that go
    apart, what it does (for docs/protocol.md and the schema) and its answer's fields."""

    name: str
    doc: str
    fields: dict[str, Field] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    one_of: tuple[tuple[str, ...], ...] = ()
    answer: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: how the server runs it: "server" (at once, as it is read), "store" (the statistics
    #: file, on a worker thread), "creates" (opens a game: its id given as it is read),
    #: "game" (in its game's turn), "analysis" (a game's position taken in its turn, or
    #: positions, searched on a worker thread)
    scope: str = "server"

    def read(self, request: Mapping[str, Any]) -> dict[str, Any]:
        return read_fields(request, self.fields, self.required, self.one_of, ignore=("op", "id"))

    def request_schema(self, id_ref: dict[str, Any]) -> dict[str, Any]:
        body = Obj(self.fields, self.required, one_of=self.one_of).schema()
        body["properties"] = {"id": id_ref, "op": {"const": self.name}, **body["properties"]}
        body["required"] = ["id", "op", *self.required]
        body["description"] = self.doc
        return body
