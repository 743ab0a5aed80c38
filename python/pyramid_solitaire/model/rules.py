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

import math
from typing import Any, Final, Literal, Union

from pyramid_core.rules import MAX_REDEALS
from pyramid_core.rules import UNLIMITED as _CORE_UNLIMITED

from ..runtime.args import choice, excerpt, flag, whole
from .reasons import InputError

UNLIMITED: Final = "unlimited"
Redeals = Union[int, Literal["unlimited"]]  # noqa: UP007  (a runtime alias on 3.10)

_FIELDS = (
    "waste_at_deal",
    "draw",
    "redeals",
    "win",
    "stock_top_playable",
    "pair_waste_top_two",
    "pair_with_covering",
)
_DEFAULTS: dict[str, Any] = dict(
    waste_at_deal=1,
    draw=1,
    redeals=UNLIMITED,
    win="pyramid",
    stock_top_playable=False,
    pair_waste_top_two=False,
    pair_with_covering=False,
)

# name -> (letter, options differing from the defaults, source)
_PRESETS: dict[str, tuple[str, dict[str, Any], str]] = {
    "pyramide": ("N", {}, "seed 000 (the default)"),
    "three-pass": ("T", dict(waste_at_deal=0, redeals=2), "seed 002"),
    "unlimited": ("U", dict(waste_at_deal=0), "seed 003"),
    "classic": ("C", dict(waste_at_deal=0, redeals=0), "seed 004"),
    "classic-draw3": ("D", dict(waste_at_deal=0, draw=3, redeals=0), "seed 004, draw three"),
    "msc": (
        "M",
        dict(waste_at_deal=0, redeals=2, stock_top_playable=True),
        "Microsoft Solitaire Collection",
    ),
}
CUSTOM_LETTER = "X"
# Keys of a rules dict that name its base preset.
_BASE_KEYS = ("preset", "name", "letter")


class Rules:
    """An immutable, validated rule set. Keyword arguments override the ``pyramide`` defaults.

    - ``waste_at_deal``: 0 or 1 talon cards turned onto the waste at the deal
    - ``draw``: 1, or 3 (three waste piles; only with ``redeals=0``)
    - ``redeals``: 0..63 recycles of the waste, or ``"unlimited"``
    - ``win``: ``"pyramid"`` (clear the 28 pyramid cards) or ``"all"`` (all 52 cards)
    - ``stock_top_playable``: the stock's top card is available (Microsoft rules)
    - ``pair_waste_top_two``: the top two waste cards may pair with each other
    - ``pair_with_covering``: a card may pair with the only card still covering it
    """

    __slots__ = _FIELDS
    waste_at_deal: int
    draw: int
    redeals: Redeals
    win: str
    stock_top_playable: bool
    pair_waste_top_two: bool
    pair_with_covering: bool

    def __init__(
        self,
        *,
        waste_at_deal: int = 1,
        draw: int = 1,
        redeals: Redeals | None = UNLIMITED,
        win: str = "pyramid",
        stock_top_playable: bool = False,
        pair_waste_top_two: bool = False,
        pair_with_covering: bool = False,
    ) -> None:
        values = dict(
            waste_at_deal=_choice("waste_at_deal", waste_at_deal, (0, 1)),
            draw=_choice("draw", draw, (1, 3)),
            redeals=_redeals(redeals),
            win=_choice("win", win, ("pyramid", "all")),
            stock_top_playable=flag("stock_top_playable", stock_top_playable),
            pair_waste_top_two=flag("pair_waste_top_two", pair_waste_top_two),
            pair_with_covering=flag("pair_with_covering", pair_with_covering),
        )
        if values["draw"] == 3:
            if values["redeals"] != 0:
                raise ValueError(
                    "draw=3 needs redeals=0 (three waste piles cannot be recycled), "
                    f"got redeals={values['redeals']!r}"
                )
            for opt in ("stock_top_playable", "pair_waste_top_two"):
                if values[opt]:
                    raise ValueError(
                        f"draw=3 does not go with {opt} (only the top card of "
                        "each of the three waste piles is available)"
                    )
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
        for preset, (letter, opts, _src) in _PRESETS.items():
            if key == preset or name.strip().upper() == letter:
                return cls(**opts)
        raise ValueError(
            f"unknown rules preset {excerpt(name)}: expected one of "
            + ", ".join(f"{n} ({v[0]})" for n, v in _PRESETS.items())
        )

    @classmethod
    def from_letter(cls, letter: str) -> Rules | None:
        """The preset of a deal code's letter; None for ``X`` (custom rules)."""
        if not isinstance(letter, str):
            raise ValueError(f"a rules letter is a string, got {excerpt(letter)}")
        if letter.upper() == CUSTOM_LETTER:
            return None
        if letter.upper() not in {v[0] for v in _PRESETS.values()}:
            raise InputError(
                "rules_letter",
                letter=excerpt(letter),
                letters=" ".join(v[0] for v in _PRESETS.values()),
            )
        return cls.preset(letter.upper())

    @staticmethod
    def preset_names() -> list[str]:
        return list(_PRESETS)

    @property
    def name(self) -> str:
        """The preset's name, or ``"custom"``."""
        mine = self._options()
        for name, (_letter, opts, _src) in _PRESETS.items():
            if opts == mine:
                return name
        return "custom"

    @property
    def letter(self) -> str:
        """The one-letter code used in deal codes (``X`` for custom rules)."""
        name = self.name
        return _PRESETS[name][0] if name in _PRESETS else CUSTOM_LETTER

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
        return {"name": self.name, "letter": self.letter, **self.to_dict()}

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
        """Keyword arguments for ``pyramid_core.position.Table``."""
        return dict(
            waste_at_deal=self.waste_at_deal,
            draw=self.draw,
            redeals=_CORE_UNLIMITED if self.redeals == UNLIMITED else self.redeals,
            win_all=self.win == "all",
            stock_top_playable=self.stock_top_playable,
            pair_waste_top_two=self.pair_waste_top_two,
            pair_with_covering=self.pair_with_covering,
        )

    def describe(self) -> str:
        """One line for people: ``msc (M): draw 1, 3 passes, stock top playable, win pyramid``."""
        parts = [
            f"draw {self.draw}",
            "unlimited passes"
            if self.passes is None
            else f"{self.passes} pass{'es' if self.passes > 1 else ''}",
            f"{self.waste_at_deal} card on the waste at the deal" if self.waste_at_deal else None,
            "stock top playable" if self.stock_top_playable else None,
            "pair the top two waste cards" if self.pair_waste_top_two else None,
            "pair with the covering card" if self.pair_with_covering else None,
            f"win: {'clear the pyramid' if self.win == 'pyramid' else 'remove all 52 cards'}",
        ]
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


def _rules_from_options(d: dict[str, Any]) -> Rules:
    return Rules(**d)


def _choice(name: str, value: Any, allowed: tuple[Any, ...]) -> Any:
    if isinstance(allowed[0], int):
        if isinstance(value, str) and not value.strip().lstrip("+-").isascii():
            raise ValueError(
                f"{name} must be one of {', '.join(map(repr, allowed))}, got {excerpt(value)}"
            )
        try:
            # waste_at_deal reads as a yes/no too: True is one card on the waste
            number = (
                int(value)
                if isinstance(value, bool) and name == "waste_at_deal"
                else whole(name, value)
            )
        except ValueError:
            number = None
        if number not in allowed:
            raise ValueError(
                f"{name} must be one of {', '.join(map(repr, allowed))}, got {excerpt(value)}"
            )
        return number
    return choice(name, value, allowed)


def _redeals(value: Any) -> Redeals:
    if value is None or (isinstance(value, float) and math.isinf(value) and value > 0):
        return UNLIMITED
    if isinstance(value, str) and value.strip().lower() in ("unlimited", "inf", "infinite", "none"):
        return UNLIMITED
    try:
        return whole("redeals", value, 0, MAX_REDEALS)
    except ValueError:
        raise ValueError(
            f"redeals must be a whole number 0..{MAX_REDEALS} or 'unlimited', got {excerpt(value)}"
        ) from None
