"""How hard a deal is under a rule set: a level from 1 (easy) to 5 (expert), or 6 when the
solver proves the deal cannot be won.

The rating is a function of the deal and the rules only (the playouts use a fixed seed), so
the same deal always gets the same level, in every session and on every machine:

1. **Playouts.** The deal is played :data:`PLAYOUTS` times by the ``random`` policy (each
   game its own stream of a fixed seed) and once by ``greedy``. ``p`` is the share of the
   random games won: how often a player who sees nothing ahead still wins.
2. **Level from p** (:data:`THRESHOLDS`): p >= 0.5 easy (1), >= 0.15 medium (2), >= 0.03 hard
   (3), > 0 very hard (4), 0 expert (5). A greedy win (a simple plan works) makes the deal
   one level easier, not below 1.
3. **Solver.** A won playout proves the deal winnable. When none is won, the solver decides
   the deal within :data:`SOLVER_SECONDS`: proved lost gives level 6 (``unwinnable``);
   winnable, or undecided in the budget, stays at 5 (``winnable`` True or None).

>>> d = rate("PY1-N-AAAAAAS")
>>> d.level, d.label, d.winnable
(1, 'easy', True)
>>> rate("PY1-N-AAAAAAS").random_win_rate == d.random_win_rate     # always the same
True
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..runtime import args as _args

#: Random playouts per deal.
PLAYOUTS = 200
#: The random policy's seed: fixed, so a deal's rating never changes.
SEED = 0x5EED_D1FF
#: The solver's budget (seconds) for a deal no playout won.
SOLVER_SECONDS = 0.25
#: Lowest share of random wins for levels 1, 2, 3 (any win: 4; none: 5).
THRESHOLDS = (0.5, 0.15, 0.03)
#: The levels' names (message codes ``difficulty_<label>`` translate them).
LABELS = {1: "easy", 2: "medium", 3: "hard", 4: "very_hard", 5: "expert", 6: "unwinnable"}


@dataclass(frozen=True)
class Difficulty:
    """A deal's rating (see the module's text for how it is computed)."""

    level: int  # 1 easy .. 5 expert, 6 proved unwinnable
    winnable: bool | None  # None: no playout won and the solver ran out of budget
    random_win_rate: float  # share of the PLAYOUTS random games won
    greedy_won: bool
    solver_nodes: int  # positions the solver searched (0 when it was not needed)

    @property
    def label(self) -> str:
        return LABELS[self.level]

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "label": self.label}

    @classmethod
    def from_dict(cls, data: Any) -> Difficulty:
        """The rating of :meth:`to_dict` (as saved); ValueError when it is not one."""
        try:
            d = cls(
                _args.whole("difficulty.level", data["level"], 1, 6),
                data["winnable"],
                _args.real("difficulty.random_win_rate", data["random_win_rate"], positive=False),
                _args.flag("difficulty.greedy_won", data["greedy_won"]),
                _args.whole("difficulty.solver_nodes", data["solver_nodes"], 0, _args.INT64_MAX),
            )
        except (KeyError, TypeError):
            raise ValueError(
                "difficulty: expected level, winnable, random_win_rate, greedy_won and solver_nodes"
            ) from None
        if not 0 <= d.random_win_rate <= 1:
            raise ValueError(f"difficulty.random_win_rate is 0..1, got {d.random_win_rate!r}")
        if d.level not in LABELS or d.winnable not in (True, False, None):
            raise ValueError(
                f"difficulty: level 1..6 and winnable true/false/null, got "
                f"{d.level}, {d.winnable!r}"
            )
        return d


def level_of(random_win_rate: float, greedy_won: bool) -> int:
    """Levels 1..5 from the playouts (step 2 of the module's text)."""
    level = 1 + sum(random_win_rate < t for t in THRESHOLDS)
    if level == 4 and random_win_rate == 0:
        level = 5
    return max(1, level - 1) if greedy_won else level


def rate(deal: Any, rules: Any = None) -> Difficulty:
    """The difficulty of ``deal`` (a code, card list, :class:`Deal` or number) under ``rules``
    (default: the code's rules, else ``pyramide``). The last ratings are remembered (a
    restarted deal, a shared code, another tab on the same game cost nothing)."""
    from ..inputs.deals import read_deal

    deal = read_deal(deal, rules)
    return _rate(tuple(int(c) for c in deal.cards), deal.rules)


@functools.lru_cache(maxsize=4096)
def _playouts(cards: tuple[int, ...], rules: Any) -> tuple[float, bool]:
    """Step 1: the share of random playouts won, and whether greedy won."""
    from ..analysis.simulate import simulate

    deck = np.asarray(cards, dtype=np.uint8)
    games = np.tile(deck, (PLAYOUTS, 1))
    random = simulate(deals=games, rules=rules, policy="random", seed=SEED, threads=1)
    greedy = simulate(deals=games[:1], rules=rules, policy="greedy", threads=1)
    return random.wins / PLAYOUTS, bool(greedy.wins)


@functools.lru_cache(maxsize=4096)
def _rate(cards: tuple[int, ...], rules: Any) -> Difficulty:
    from ..analysis.solver import solve
    from ..model.deal import Deal

    deal = Deal.from_cards(list(cards), rules=rules)
    p, greedy_won = _playouts(cards, rules)
    winnable: bool | None
    level, winnable, nodes = level_of(p, greedy_won), p > 0 or greedy_won, 0
    if not winnable:
        solution = solve(deal, rules, max_seconds=SOLVER_SECONDS)
        winnable, nodes = solution.winnable, solution.nodes
        if winnable is False:
            level = 6
    return Difficulty(level, winnable, p, greedy_won, nodes)


# ---- new deals of a chosen difficulty ------------------------------------------------------

#: The difficulties a player chooses among, and the levels each one takes.
CHOICES: dict[str, tuple[int, ...]] = {"easy": (1,), "medium": (2,), "hard": (3, 4, 5)}
#: Candidates drawn before giving up.
TRIES = 2000
#: The solver's budget (positions, not seconds: the same choice on every machine) to prove
#: winnable a "hard" candidate that no playout won (level 5).
HARD_NODES = 200_000
#: The choices each preset offers: those that at least 1 random deal in 200 has (measured on
#: 2,000 random deals per preset: three-pass's easy deals are 0.75 %, classic-draw3's medium
#: ones 1.2 %). Under one-pass classic random play almost never wins, so no deal is easy or
#: medium (none in 2,000); under classic-draw3 none is easy.
OFFERED: dict[str, tuple[str, ...]] = {
    "pyramide": ("easy", "medium", "hard"),
    "three-pass": ("easy", "medium", "hard"),
    "unlimited": ("easy", "medium", "hard"),
    "classic": ("hard",),
    "classic-draw3": ("medium", "hard"),
    "msc": ("easy", "medium", "hard"),
}


def offered(profile: Any) -> tuple[str, ...]:
    """The difficulties a player may choose under ``profile`` (a name or a Profile): a
    preset's :data:`OFFERED`, every choice for a profile of the player's own."""
    from ..model.profiles import Profile

    profile = Profile.preset(profile)
    if profile.name in OFFERED and profile.rules == Profile.preset(profile.name).rules:
        return OFFERED[profile.name]
    return tuple(CHOICES)


def check_choice(difficulty: Any, profile: Any = None) -> str:
    """``difficulty`` when it is one of :data:`CHOICES` (and, with ``profile``, one it
    offers); else ValueError naming the field and the choices."""
    if not isinstance(difficulty, str) or difficulty not in CHOICES:
        raise ValueError(
            f"difficulty must be one of {', '.join(CHOICES)}, got {_args.excerpt(difficulty)}"
        )
    if profile is not None:
        choices = offered(profile)
        if difficulty not in choices:
            from ..model.profiles import Profile

            raise ValueError(
                f"difficulty {difficulty!r} is not offered under {Profile.preset(profile).name} "
                f"(hardly any deal is {difficulty} there): choose {' or '.join(choices)}"
            )
    return difficulty


def chosen(deal: Any, difficulty: str) -> bool:
    """Whether ``deal`` (a :class:`Deal` with its rules) is a deal of ``difficulty``: its
    playouts' level is one of the choice's (:data:`CHOICES`), and a "hard" deal is proved
    winnable: by a won playout (levels 3 and 4), or by the solver within
    :data:`HARD_NODES` positions (level 5). Every step is deterministic."""
    cards = tuple(int(c) for c in deal.cards)
    p, greedy_won = _playouts(cards, deal.rules)
    level = level_of(p, greedy_won)
    if level not in CHOICES[difficulty]:
        return False
    if level < 5:
        return True  # a won playout proves it winnable
    from ..analysis.solver import solve

    return solve(deal, max_nodes=HARD_NODES).winnable is True


def random_deal_of(profile: Any, difficulty: str, rng: Any = None) -> Any:
    """A random numbered deal of ``difficulty`` (``easy``, ``medium`` or ``hard``) under
    ``profile``: candidates drawn as :meth:`Deal.random` draws them from ``rng`` (a seed:
    always the same deal), the first that :func:`chosen` takes. ValueError for a choice the
    profile does not offer, or when none of :data:`TRIES` candidates is one."""
    import random as _random

    from ..model.deal import Deal
    from ..model.profiles import Profile

    profile = Profile.preset(profile)
    difficulty = check_choice(difficulty, profile)
    draw = _random.Random(rng if rng is None else _args.whole("rng", rng))
    for _ in range(TRIES):
        deal = Deal.random(draw, rules=profile.rules)
        if chosen(deal, difficulty):
            return deal
    raise ValueError(
        f"no {difficulty} deal found in {TRIES:,} tries under the {profile.name} rules"
    )
