"""Profiles: what a game of one of the apps is, as data. A profile is a rule set plus a
scoring scheme, an undo policy, a moves-counter policy and the notices it gives.

>>> Profile.preset("three-pass").scoring
Scoring(pyramid=10, talon=2, win_bonus=600, bonus_per_move=2, bonus_per_second=0.5)
>>> Profile.preset("pyramide").replace(undo_limit=None).undo_limit is None
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..runtime import args as _args
from .deal import parse_code
from .reasons import InputError
from .rules import Rules


@dataclass(frozen=True)
class Scoring:
    """Points per pyramid card and per talon card removed, and the bonus on a win:
    ``win_bonus - bonus_per_move x moves - bonus_per_second x seconds``, never below 0."""

    pyramid: int = 0
    talon: int = 0
    win_bonus: int = 0
    bonus_per_move: float = 0
    bonus_per_second: float = 0

    @property
    def gives_points(self) -> bool:
        """Whether the game has points at all (seed 003's has none: frontends then show no
        score)."""
        return bool(self.pyramid or self.talon or self.win_bonus)

    def removal(self, pyramid_cards: int, talon_cards: int) -> int:
        return self.pyramid * pyramid_cards + self.talon * talon_cards

    def bonus(self, moves: int, seconds: float) -> int:
        if not self.win_bonus:
            return 0
        return max(
            0, int(self.win_bonus - self.bonus_per_move * moves - self.bonus_per_second * seconds)
        )


NO_POINTS = Scoring()
SEED000 = Scoring(pyramid=10)
SEED002 = Scoring(pyramid=10, talon=2, win_bonus=600, bonus_per_move=2, bonus_per_second=0.5)


@dataclass(frozen=True)
class Profile:
    """A game as one of the apps plays it.

    - ``rules``: the rule set; ``scoring``: a :class:`Scoring`.
    - ``undo_limit``: how many of the last actions can be undone (None: all of them).
    - ``undo_counts_move``: an undo adds one to the moves counter (seeds 002 and 003); else
      the counter never goes down (seed 000).
    - ``explain_errors``: a tap on a blocked card says why (seed 000's option).
    - ``no_chance_notice``: after each action, the solver checks whether the game can still
      be won (seed 003), within ``notice_seconds``.
    - ``show_redeals``: frontends show the redeals left (seed 002).
    - ``ranking``: how statistics rank games (``score``, ``moves``, ``seconds``).
    """

    name: str
    rules: Rules
    scoring: Scoring = NO_POINTS
    undo_limit: int | None = None
    undo_counts_move: bool = True
    explain_errors: bool = True
    no_chance_notice: bool = False
    notice_seconds: float = 0.05
    show_redeals: bool = False
    ranking: tuple[str, ...] = ("score", "seconds", "moves")
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a profile's name is a text, got {_args.excerpt(self.name)}")
        set_(self, "rules", Rules.coerce(self.rules))
        if not isinstance(self.scoring, Scoring):
            raise ValueError(f"scoring must be a Scoring, got {_args.excerpt(self.scoring)}")
        if self.undo_limit is not None:
            set_(self, "undo_limit", _args.whole("undo_limit", self.undo_limit, 0, 1 << 20))
        for name in ("undo_counts_move", "explain_errors", "no_chance_notice", "show_redeals"):
            set_(self, name, _args.flag(name, getattr(self, name)))
        set_(self, "notice_seconds", _args.real("notice_seconds", self.notice_seconds))
        ranking = tuple(self.ranking)
        bad = [r for r in ranking if r not in ("score", "moves", "seconds")]
        if bad or not ranking:
            raise ValueError(
                f"ranking is a sequence of score, moves, seconds; got {_args.excerpt(self.ranking)}"
            )
        set_(self, "ranking", ranking)

    @classmethod
    def preset(cls, name: str | Profile) -> Profile:
        """A built-in profile by name: ``pyramide``, ``three-pass``, ``unlimited``,
        ``classic``, ``classic-draw3``, ``msc``."""
        if isinstance(name, Profile):
            return name
        if not isinstance(name, str) or name.strip().lower() not in PROFILES:
            raise ValueError(
                f"unknown profile {_args.excerpt(name)}: expected one of " + ", ".join(PROFILES)
            )
        return PROFILES[name.strip().lower()]

    @staticmethod
    def names() -> list[str]:
        return list(PROFILES)

    def replace(self, **changes: Any) -> Profile:
        """A copy with some settings changed, checked like a new profile."""
        fields = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - fields)
        if unknown:
            raise ValueError(f"unknown profile setting(s) {unknown}: expected {sorted(fields)}")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rules": self.rules.describe_dict(),
            "scoring": dataclasses.asdict(self.scoring),
            "undo_limit": self.undo_limit,
            "undo_counts_move": self.undo_counts_move,
            "explain_errors": self.explain_errors,
            "no_chance_notice": self.no_chance_notice,
            "notice_seconds": self.notice_seconds,
            "show_redeals": self.show_redeals,
            "ranking": list(self.ranking),
        }


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile(
            "pyramide",
            Rules.preset("pyramide"),
            SEED000,
            undo_limit=100,
            undo_counts_move=False,
            ranking=("seconds", "moves"),
            source="seed 000",
        ),
        Profile(
            "three-pass",
            Rules.preset("three-pass"),
            SEED002,
            show_redeals=True,
            ranking=("score", "seconds", "moves"),
            source="seed 002",
        ),
        Profile(
            "unlimited",
            Rules.preset("unlimited"),
            NO_POINTS,
            no_chance_notice=True,
            ranking=("moves", "seconds"),
            source="seed 003",
        ),
        Profile("classic", Rules.preset("classic"), SEED000, source="seed 004"),
        Profile("classic-draw3", Rules.preset("classic-draw3"), SEED000, source="seed 004"),
        Profile(
            "msc",
            Rules.preset("msc"),
            SEED000,
            show_redeals=True,
            source="Microsoft Solitaire Collection",
        ),
    )
}


# ---- a deal code against a profile (a code's letter names its rules) ----------------------


def _code_letter(deal: Any) -> str | None:
    """The rules letter of a deal code; None for anything else (a card list, a number, or
    a bad code: Game says why)."""
    if not isinstance(deal, str):
        return None
    try:
        return parse_code(deal)[1]
    except ValueError:
        return None


def profile_of_code(deal: Any, profile: Profile, *, unnamed: str | None = None) -> Profile:
    """The profile to play ``deal`` under: ``profile``, unless ``deal`` is a code whose
    letter names other rules and a built-in profile plays them (a pasted PY1-M-... code is
    played as the msc game). ``unnamed``: when ``profile`` is only the default (the user
    named none), how the user would name one (``"profile"``, ``"--profile"``): an X code
    (custom rules) is then refused, as everywhere a code's rules must be named; a game
    the player chose plays it."""
    letter = _code_letter(deal)
    if letter == "X" and unnamed is not None:
        raise InputError("code_custom_rules", code=_args.excerpt(deal.strip()), flag=unnamed)
    if letter is None or letter == profile.rules.letter or letter == "X":
        return profile
    named = Rules.preset(letter)
    for candidate in Profile.names():
        if Profile.preset(candidate).rules == named:
            return Profile.preset(candidate)
    return profile


def check_code_profile(deal: Any, profile: Profile, flag: str) -> None:
    """ValueError when ``deal`` is a code whose letter names other rules than
    ``profile``'s (``flag``: how the caller names the profile, ``profile`` or
    ``--profile``)."""
    from ..model.deal import code_rules

    letter = _code_letter(deal)
    if letter is None:
        return
    named = None if letter == "X" else Rules.preset(letter)
    try:
        code_rules(deal, named, profile.rules)  # the one check of a code's letter
    except ValueError:  # worded for a profile, not rules=
        raise InputError(
            "code_other_rules",
            code=_args.excerpt(deal.strip()),
            named=named.name if named else "custom",
            letter=letter,
            flag=flag,
            profile=profile.name,
            rules=profile.rules.name,
        ) from None
