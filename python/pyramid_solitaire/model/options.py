"""The rule options and presets, declared once.

Each :class:`Option` says everything about one option: its name, the values it takes and its
default, the field of the core's ``pyr_rules`` struct that carries it (and how a value is
written there), its command-line flag and help, its line in docs/rules.md, its words in
:meth:`Rules.describe` and its sentences on the how-to page in English and Vietnamese. Each
:class:`Needs` is one rule about which values go together, and each :class:`Preset` a named
rule set with the letter deal codes carry.

Everything else is built from these tables: the :class:`~pyramid_solitaire.Rules` class and
its validation, the rule flags of every command, the keyword arguments of the core's
``Table``, ``rules_from_options`` and the ``pyr_rules`` struct with its check
(tools/rule_tables.py writes those into rules.pxd and pyr_rules.h), the protocol schema's
``rules`` object, the how-to pages and the tables of docs/rules.md. docs/internals/layers.md
says how to add an option.

>>> [o.name for o in OPTIONS][:3]
['waste_at_deal', 'draw', 'redeals']
>>> option("win").to_core("all")
1
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

#: ``redeals`` without a limit (the Python value; the core writes 255).
UNLIMITED: Final = "unlimited"
#: The core's value of ``redeals="unlimited"`` and the largest finite count (pyr_rules.h).
CORE_UNLIMITED: Final = 255
MAX_REDEALS: Final = 63

Kind = Literal["choice", "flag", "count"]
Section = Literal["goal", "free", "stock"]


@dataclass(frozen=True)
class Sentence:
    """A sentence of the how-to page, shown when ``when(value)`` holds; ``{n}`` is the value.
    Sentences of a section are shown in the order of ``place``."""

    section: Section
    place: int
    when: Callable[[Any], bool]
    en: str
    vi: str


@dataclass(frozen=True)
class Option:
    """One rule option (see the module's docstring)."""

    name: str
    kind: Kind
    default: Any
    #: the values of a choice; a count's range is 0..MAX_REDEALS or ``"unlimited"``
    choices: tuple[Any, ...]
    #: the pyr_rules field, and what it holds (the C comment)
    core: str
    core_doc: str
    #: the command line: the flag's metavar (None: a --x / --no-x switch) and its help
    metavar: str | None
    help: str
    #: docs/rules.md's options table
    values_doc: str
    meaning: str
    #: Rules.describe()'s words for a value (None: nothing), in the order of ``phrase_place``
    phrase: Callable[[Any], str | None]
    phrase_place: int
    sentences: tuple[Sentence, ...] = ()
    #: a choice of numbers that also reads True / False as 1 / 0
    bool_as_int: bool = False
    #: the core's value of each Python value that is not the number itself
    core_values: dict[Any, int | bool] = field(default_factory=dict)

    @property
    def flag(self) -> str:
        """The command-line flag: ``--waste-at-deal``."""
        return "--" + self.name.replace("_", "-")

    def to_core(self, value: Any) -> int | bool:
        """The value as ``Rules.core_options()`` gives it to the core (the ``pyr_rules``
        field's number; a yes/no as a bool)."""
        if isinstance(value, str):
            return self.core_values[value]
        return bool(value) if self.kind == "flag" else int(value)


def _passes(redeals: Any) -> str:
    if redeals == UNLIMITED:
        return "unlimited passes"
    n = int(redeals) + 1
    return f"{n} pass{'es' if n > 1 else ''}"


OPTIONS: Final[tuple[Option, ...]] = (
    Option(
        name="waste_at_deal",
        kind="choice",
        default=1,
        choices=(0, 1),
        core="waste_at_deal",
        core_doc="0 or 1 talon cards turned onto the waste at the deal",
        metavar="0|1",
        help="cards turned onto the waste at the deal",
        values_doc="0 or 1",
        meaning="cards turned onto the waste at the deal (seed 000: 1, so the stock holds 23)",
        phrase=lambda v: "1 card on the waste at the deal" if v else None,
        phrase_place=3,
        sentences=(
            Sentence(
                "stock",
                2,
                lambda v: bool(v),
                "At the deal, one card is already turned onto the waste.",
                "Lúc chia bài, một lá đã được lật sẵn lên chồng bài bỏ.",
            ),
        ),
        bool_as_int=True,
    ),
    Option(
        name="draw",
        kind="choice",
        default=1,
        choices=(1, 3),
        core="draw",
        core_doc="1, or 3 (three waste piles; needs redeals 0)",
        metavar="1|3",
        help="draw one card, or three onto three waste piles",
        values_doc="1 or 3",
        meaning="draw one card, or three cards spread over three waste piles (seed 004's option)",
        phrase=lambda v: f"draw {v}",
        phrase_place=1,
        sentences=(
            Sentence(
                "free",
                2,
                lambda v: v == 3,
                "The top card of each of the three waste piles is free.",
                "Lá trên cùng của mỗi chồng trong ba chồng bài bỏ đều tự do.",
            ),
            Sentence(
                "stock",
                1,
                lambda v: v == 1,
                "Tap the stock to turn its top card onto the waste.",
                "Chạm nọc để lật lá trên cùng sang chồng bài bỏ.",
            ),
            Sentence(
                "stock",
                1,
                lambda v: v == 3,
                "Tap the stock to turn three cards onto the three waste piles, one on each.",
                "Chạm nọc để lật ba lá sang ba chồng bài bỏ, mỗi chồng một lá.",
            ),
        ),
    ),
    Option(
        name="redeals",
        kind="count",
        default=UNLIMITED,
        choices=(),
        core="redeals",
        core_doc="0..PYR_REDEALS_MAX, or PYR_REDEALS_UNLIMITED",
        metavar="N|unlimited",
        help="how many times the waste may be recycled",
        values_doc="0..63 or `unlimited`",
        meaning="how many times the waste may be recycled (passes = redeals + 1)",
        phrase=_passes,
        phrase_place=2,
        sentences=(
            Sentence(
                "stock",
                3,
                lambda v: v == UNLIMITED,
                "When the stock is empty, tapping it turns the waste over to "
                "go through it again, as often as you like.",
                "Khi nọc hết, chạm vào nó để lật lại chồng bài bỏ "
                "và rút tiếp, bao nhiêu lần cũng được.",
            ),
            Sentence(
                "stock",
                3,
                lambda v: v == 0,
                "The stock is gone through once: the waste is never turned over.",
                "Nọc chỉ được rút một lượt: không lật lại chồng bài bỏ.",
            ),
            Sentence(
                "stock",
                3,
                lambda v: v == 1,
                "When the stock is empty, tapping it turns the waste over to go "
                "through it again: {n} time in this game (shown under the stock).",
                "Khi nọc hết, chạm vào nó để lật lại chồng bài bỏ và rút "
                "tiếp: {n} lần trong kiểu chơi này (số lần còn lại hiện dưới chồng bài).",
            ),
            Sentence(
                "stock",
                3,
                lambda v: v != UNLIMITED and v > 1,
                "When the stock is empty, tapping it turns the waste over to go "
                "through it again: {n} times in this game (shown under the stock).",
                "Khi nọc hết, chạm vào nó để lật lại chồng bài bỏ và rút "
                "tiếp: {n} lần trong kiểu chơi này (số lần còn lại hiện dưới chồng bài).",
            ),
        ),
        core_values={UNLIMITED: CORE_UNLIMITED},
    ),
    Option(
        name="win",
        kind="choice",
        default="pyramid",
        choices=("pyramid", "all"),
        core="win_all",
        core_doc="0: clear the pyramid; 1: remove all 52 cards",
        metavar="pyramid|all",
        help="clear the pyramid, or remove all 52 cards",
        values_doc="`pyramid` or `all`",
        meaning="clear the 28 pyramid cards, or all 52 cards",
        phrase=lambda v: f"win: {'clear the pyramid' if v == 'pyramid' else 'remove all 52 cards'}",
        phrase_place=7,
        sentences=(
            Sentence(
                "goal",
                1,
                lambda v: v == "pyramid",
                "Remove the 28 cards of the pyramid. The cards left in the stock and "
                "the waste do not matter.",
                "Loại bỏ hết 28 lá của kim tự tháp. Các lá còn lại trong nọc "
                "và chồng bài bỏ không tính.",
            ),
            Sentence(
                "goal",
                1,
                lambda v: v == "all",
                "Remove all 52 cards: the pyramid, the stock and the waste.",
                "Loại bỏ cả 52 lá: kim tự tháp, nọc và chồng bài bỏ.",
            ),
        ),
        core_values={"pyramid": False, "all": True},
    ),
    Option(
        name="stock_top_playable",
        kind="flag",
        default=False,
        choices=(False, True),
        core="stock_top_playable",
        core_doc="the stock's top card is available (Microsoft rules)",
        metavar=None,
        help="the stock's top card is available",
        values_doc="bool",
        meaning="the stock's top card is face up and available (Microsoft's rules)",
        phrase=lambda v: "stock top playable" if v else None,
        phrase_place=4,
        sentences=(
            Sentence(
                "free",
                3,
                bool,
                "In this game the stock's top card is free as well, before it is drawn.",
                "Trong kiểu chơi này, lá trên cùng của nọc cũng tự do, trước khi được rút.",
            ),
        ),
    ),
    Option(
        name="pair_waste_top_two",
        kind="flag",
        default=False,
        choices=(False, True),
        core="pair_waste_top_two",
        core_doc="the top two waste cards may pair with each other",
        metavar=None,
        help="the top two waste cards may pair",
        values_doc="bool",
        meaning="the card just drawn may pair with the waste card it covers (seed 000's variant)",
        phrase=lambda v: "pair the top two waste cards" if v else None,
        phrase_place=5,
        sentences=(
            Sentence(
                "free",
                4,
                bool,
                "The top two cards of the waste may pair with each other.",
                "Hai lá trên cùng của chồng bài bỏ có thể ghép với nhau.",
            ),
        ),
    ),
    Option(
        name="pair_with_covering",
        kind="flag",
        default=False,
        choices=(False, True),
        core="pair_with_covering",
        core_doc="a card may pair with the only card still covering it",
        metavar=None,
        help="a card may pair with the only card covering it",
        values_doc="bool",
        meaning="a card may pair with the only card still covering it "
        '(seed 000\'s variant, "overlap")',
        phrase=lambda v: "pair with the covering card" if v else None,
        phrase_place=6,
        sentences=(
            Sentence(
                "free",
                5,
                bool,
                "A card may pair with the one card still covering it.",
                "Một lá có thể ghép với lá duy nhất còn đè lên nó.",
            ),
        ),
    ),
)


@dataclass(frozen=True)
class Needs:
    """``when=value`` needs ``other`` to be one of ``allowed`` (``reason`` says why). The
    Python model raises for it and the core's check (pyr_rules.h) refuses it."""

    when: str
    value: Any
    other: str
    allowed: tuple[Any, ...]
    reason: str


NEEDS: Final[tuple[Needs, ...]] = (
    Needs("draw", 3, "redeals", (0,), "three waste piles cannot be recycled"),
    Needs(
        "draw",
        3,
        "stock_top_playable",
        (False,),
        "only the top card of each of the three waste piles is available",
    ),
    Needs(
        "draw",
        3,
        "pair_waste_top_two",
        (False,),
        "only the top card of each of the three waste piles is available",
    ),
)


@dataclass(frozen=True)
class Preset:
    """A named rule set: the options that differ from the defaults, and the letter of its
    deal codes."""

    name: str
    letter: str
    changes: dict[str, Any]
    source: str


PRESETS: Final[tuple[Preset, ...]] = (
    Preset("pyramide", "N", {}, "seed 000 (the default)"),
    Preset("three-pass", "T", dict(waste_at_deal=0, redeals=2), "seed 002"),
    Preset("unlimited", "U", dict(waste_at_deal=0), "seed 003"),
    Preset("classic", "C", dict(waste_at_deal=0, redeals=0), "seed 004"),
    Preset("classic-draw3", "D", dict(waste_at_deal=0, draw=3, redeals=0), "seed 004 (draw three)"),
    Preset(
        "msc",
        "M",
        dict(waste_at_deal=0, redeals=2, stock_top_playable=True),
        "Microsoft Solitaire Collection, as the public solvers play it",
    ),
)
#: The letter of a rule set that is no preset.
CUSTOM_LETTER: Final = "X"

_BY_NAME = {o.name: o for o in OPTIONS}


def value_schema(opt: Option) -> dict[str, Any]:
    """The JSON Schema of an option's values (the protocol's rules, both ways)."""
    if opt.kind == "flag":
        return {"type": "boolean"}
    if opt.kind == "count":
        return {
            "oneOf": [
                {"type": "integer", "minimum": 0, "maximum": MAX_REDEALS},
                {"const": UNLIMITED},
            ]
        }
    return {"enum": list(opt.choices)}


def option(name: str) -> Option:
    """The option called ``name``."""
    return _BY_NAME[name]


def names() -> tuple[str, ...]:
    """Every option's name, in the table's order (the order of ``Rules.to_dict()``)."""
    return tuple(_BY_NAME)


def defaults() -> dict[str, Any]:
    """Every option's default (together: the ``pyramide`` preset)."""
    return {o.name: o.default for o in OPTIONS}


def problem(values: dict[str, Any]) -> str | None:
    """What is wrong with a whole set of valid option values (one :data:`NEEDS` broken), or
    None."""
    for n in NEEDS:
        if values[n.when] == n.value and values[n.other] not in n.allowed:
            if option(n.other).kind == "flag":
                return f"{n.when}={n.value!r} does not go with {n.other} ({n.reason})"
            want = " or ".join(f"{n.other}={a!r}" for a in n.allowed)
            return (
                f"{n.when}={n.value!r} needs {want} ({n.reason}), got {n.other}={values[n.other]!r}"
            )
    return None
