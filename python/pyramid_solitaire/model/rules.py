"""Rule sets: the options and the named presets of docs/rules.md.

>>> Rules.preset("msc")
Rules.preset('msc')
>>> Rules.preset("msc").letter, Rules().name
('M', 'pyramide')
>>> Rules(waste_at_deal=0, redeals=1)
Rules(waste_at_deal=0, redeals=1)
>>> Rules(draw=3)
Traceback (most recent call last):
...
ValueError: draw=3 needs redeals=0 (three waste piles cannot be recycled), got redeals='unlimited'
"""

from __future__ import annotations

import functools
import inspect
import math
from typing import TYPE_CHECKING, Any, Final, Literal, Union

from ..runtime.args import choice, excerpt, flag, whole
from . import options as _table
from .options import CUSTOM_LETTER, MAX_REDEALS, OPTIONS, PRESETS, UNLIMITED, Option
from .reasons import InputError

__all__ = ["CUSTOM_LETTER", "UNLIMITED", "Redeals", "Rules"]

Redeals = Union[int, Literal["unlimited"]]  # noqa: UP007  (a runtime alias on 3.10)

_FIELDS: Final = _table.names()
_DEFAULTS: Final = _table.defaults()
_PRESETS: Final = {p.name: p for p in PRESETS}
_BUILT: dict[str, Rules] = {}  # each preset made once (see Rules.preset)
# Keys of a rules dict that name its base preset.
_BASE_KEYS = ("preset", "name", "letter")


class Rules:
    """An immutable, validated rule set. Keyword arguments override the ``pyramide`` defaults.

    The options (model/options.py declares them; docs/rules.md lists them) follow.
    """

    __slots__ = _FIELDS

    if TYPE_CHECKING:  # each option is an attribute, named by the table

        def __getattr__(self, name: str) -> Any: ...

    def __init__(self, **options: Any) -> None:
        unknown = [k for k in options if k not in _DEFAULTS]
        if unknown:
            raise TypeError(
                f"Rules() got unknown rule option(s) {', '.join(map(repr, unknown))}: "
                f"expected {', '.join(_FIELDS)}"
            )
        values = {o.name: _parse(o, options.get(o.name, o.default)) for o in OPTIONS}
        problem = _table.problem(values)
        if problem is not None:
            raise ValueError(problem)
        for k, v in values.items():
            object.__setattr__(self, k, v)

    # ---- presets ----------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> Rules:
        """A preset by name (``pyramide``, ``three-pass``, ``unlimited``, ``classic``,
        ``classic-draw3``, ``msc``) or by its one-letter code (``N``, ``T``, ...)."""
        if isinstance(name, Rules):
            return name
        if not isinstance(name, str):
            raise ValueError(f"a preset name is a string, got {excerpt(name)}")
        key = name.strip().lower().replace("_", "-")
        for preset in PRESETS:
            if key == preset.name or name.strip().upper() == preset.letter:
                if cls is not Rules:
                    return cls(**preset.changes)
                if preset.name not in _BUILT:  # (a Rules cannot change: one of each is enough)
                    _BUILT[preset.name] = cls(**preset.changes)
                return _BUILT[preset.name]
        raise ValueError(
            f"unknown rules preset {excerpt(name)}: expected one of "
            + ", ".join(f"{p.name} ({p.letter})" for p in PRESETS)
        )

    @classmethod
    def from_letter(cls, letter: str) -> Rules | None:
        """The preset of a deal code's letter; None for ``X`` (custom rules)."""
        if not isinstance(letter, str):
            raise ValueError(f"a rules letter is a string, got {excerpt(letter)}")
        if letter.upper() == CUSTOM_LETTER:
            return None
        if letter.upper() not in {p.letter for p in PRESETS}:
            raise InputError(
                "rules_letter",
                letter=excerpt(letter),
                letters=" ".join(p.letter for p in PRESETS),
            )
        return cls.preset(letter.upper())

    @staticmethod
    def preset_names() -> list[str]:
        return list(_PRESETS)

    @property
    def name(self) -> str:
        """The preset's name, or ``"custom"``."""
        mine = self._options()
        for preset in PRESETS:
            if preset.changes == mine:
                return preset.name
        return "custom"

    @property
    def letter(self) -> str:
        """The one-letter code used in deal codes (``X`` for custom rules)."""
        name = self.name
        return _PRESETS[name].letter if name in _PRESETS else CUSTOM_LETTER

    @property
    def passes(self) -> int | None:
        """How many times the talon can be gone through (None: unlimited)."""
        return None if self.redeals == UNLIMITED else int(self.redeals) + 1

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed."""
        unknown = set(changes) - set(_FIELDS)
        if unknown:
            raise ValueError(f"unknown rule option(s) {sorted(unknown)}: expected {list(_FIELDS)}")
        return Rules(**{**self.to_dict(), **changes})

    def to_dict(self) -> dict[str, Any]:
        """Every option by name (what :meth:`from_dict` reads back)."""
        return {k: getattr(self, k) for k in _FIELDS}

    def describe_dict(self) -> dict[str, Any]:
        """The name, the letter and every option: how JSON outputs describe rules."""
        return dict(_described(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Rules:
        """Rules from a dict: a base preset (``"preset"`` or ``"name"``: a preset's name, or
        ``"letter"``: its letter; default ``pyramide``) plus options changed on top of it,
        ``{"preset": "msc", "redeals": 1}``. It reads what :meth:`to_dict` and the JSON
        outputs write. Unknown keys raise."""
        if not isinstance(d, dict):
            raise ValueError(f"rules as a dict of options (see Rules.to_dict), got {excerpt(d)}")
        unknown = [k for k in d if k not in _FIELDS and k not in _BASE_KEYS]
        if unknown:
            raise ValueError(
                f"unknown rule option(s) {excerpt(sorted(map(str, unknown)))}: "
                f"expected {', '.join(_FIELDS)}, or a base preset as "
                f"{' / '.join(_BASE_KEYS)}"
            )
        bases = {}
        for key in _BASE_KEYS:
            value = d.get(key)
            if value is None or (
                isinstance(value, str)
                and value.strip().lower() in ("custom", CUSTOM_LETTER.lower())
            ):
                continue  # "custom" / "X": the options alone say what the rules are
            bases[key] = cls.preset(value)
        if len(set(bases.values())) > 1:
            raise ValueError(
                "rules dict names two different presets: "
                + ", ".join(f"{k}={d[k]!r}" for k in bases)
            )
        base = next(iter(bases.values())) if bases else cls()
        changes = {k: v for k, v in d.items() if k in _FIELDS}
        return base.replace(**changes) if changes else base

    @classmethod
    def coerce(cls, value: Any, name: str = "rules") -> Rules:
        """The one way every entry point reads a rule set: a :class:`Rules`, a preset's name
        or letter, a dict (see :meth:`from_dict`), or None for the default ``pyramide``."""
        if value is None:
            return cls()
        if isinstance(value, Rules):
            return value
        if isinstance(value, str):
            return cls.preset(value)
        if isinstance(value, dict):
            return cls.from_dict(value)
        raise ValueError(
            f"{name} must be a Rules, a preset name or a dict of options, got {excerpt(value)}"
        )

    def core_options(self) -> dict[str, Any]:
        """Keyword arguments for ``pyramid_core.position.Table`` (and every core entry point
        that takes rules): each option under its core name, as the core holds it."""
        return {o.core: o.to_core(getattr(self, o.name)) for o in OPTIONS}

    def describe(self) -> str:
        """One line for people: ``msc (M): draw 1, 3 passes, stock top playable, win pyramid``."""
        ordered = sorted(OPTIONS, key=lambda o: o.phrase_place)
        parts = [o.phrase(getattr(self, o.name)) for o in ordered]
        return f"{self.name} ({self.letter}): " + ", ".join(p for p in parts if p)

    # ---- value semantics --------------------------------------------------------------------
    def _options(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in _FIELDS if getattr(self, k) != _DEFAULTS[k]}

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Rules are immutable; use rules.replace(...)")

    def __delattr__(self, key: str) -> None:
        raise AttributeError("Rules are immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(tuple(self.to_dict().values()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rules_from_options, (self.to_dict(),))

    def __repr__(self) -> str:
        name = self.name
        if name != "custom":
            return f"Rules.preset({name!r})"
        return "Rules(" + ", ".join(f"{k}={v!r}" for k, v in self._options().items()) + ")"


@functools.lru_cache(maxsize=256)
def _described(rules: Rules) -> tuple[tuple[str, Any], ...]:
    """describe_dict's items, worked out once per rule set (an output of many deals under
    one rule set describes it with each)."""
    return (("name", rules.name), ("letter", rules.letter), *rules.to_dict().items())


def _rules_from_options(d: dict[str, Any]) -> Rules:
    return Rules(**d)


def _parse(option: Option, value: Any) -> Any:
    """``value`` read as ``option`` takes it (the one reader of every option's values)."""
    if option.kind == "flag":
        return flag(option.name, value)
    if option.kind == "count":
        return _count(option.name, value)
    allowed = option.choices
    if not isinstance(allowed[0], int):
        return choice(option.name, value, allowed)
    expected = f"{option.name} must be one of {', '.join(map(repr, allowed))}, got {excerpt(value)}"
    if isinstance(value, str) and not value.strip().lstrip("+-").isascii():
        raise ValueError(expected)
    try:
        # a yes/no reads as a number too where the table says so: True is 1
        number = (
            int(value)
            if isinstance(value, bool) and option.bool_as_int
            else whole(option.name, value)
        )
    except ValueError:
        number = None
    if number not in allowed:
        raise ValueError(expected)
    return number


def _count(name: str, value: Any) -> Redeals:
    """A count of 0..MAX_REDEALS, or ``"unlimited"`` (also None, infinity and their words)."""
    if value is None or (isinstance(value, float) and math.isinf(value) and value > 0):
        return UNLIMITED
    if isinstance(value, str) and value.strip().lower() in ("unlimited", "inf", "infinite", "none"):
        return UNLIMITED
    try:
        return whole(name, value, 0, MAX_REDEALS)
    except ValueError:
        raise ValueError(
            f"{name} must be a whole number 0..{MAX_REDEALS} or 'unlimited', got {excerpt(value)}"
        ) from None


def _signature() -> inspect.Signature:
    """Rules(*, waste_at_deal=1, draw=1, ...): what help() and editors show."""
    self = inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)
    return inspect.Signature(
        [self]
        + [
            inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, default=o.default)
            for o in OPTIONS
        ]
    )


Rules.__init__.__signature__ = _signature()  # type: ignore[attr-defined]
Rules.__doc__ = (Rules.__doc__ or "") + "".join(
    f"\n    - ``{o.name}``: {o.values_doc}; {o.meaning}" for o in OPTIONS
)
