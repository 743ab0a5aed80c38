"""The daily deal: on a given calendar date, the same winnable deal for every player of a
game type, on every machine, derived from the date alone (docs/session.md, "Daily deal").

The candidates of a date and profile are deal numbers: candidate ``k`` (k = 0, 1, 2, ...)
is the first 8 bytes of the SHA-256 of the ASCII text
``"pyramid-solitaire daily <YYYY-MM-DD> <profile> <k>"``, read as a big-endian unsigned
integer, modulo 26**7 (the deal numbers, :meth:`Deal.from_number`). The daily deal is the
first candidate that the solver proves winnable under the profile's rules within
:data:`NODES` positions: a node budget, never a time budget, so every machine finds the
same deal. At most :data:`CANDIDATES` candidates are tried.

>>> import datetime
>>> candidate(datetime.date(2026, 12, 7), "msc", 0)
4552917215
>>> deal = daily_deal("msc", datetime.date(2026, 12, 7))
>>> deal.number, deal.code
(4552917215, 'PY1-M-OTFDSQP')
>>> daily_deal("msc", "2026-12-07") == deal      # worked out once, then remembered
True
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import re
from typing import Any

from pyramid_core.shuffle import MAX_DEAL_NUMBER

from ..model.deal import Deal
from ..model.profiles import Profile
from ..model.rules import Rules
from ..runtime import args as _args

#: The solver's budget for a candidate: positions searched (deterministic), not seconds.
NODES = 1_000_000
#: Candidates tried before giving up (never reached under the presets: the rarest winnable
#: deals, one-pass classic's, are 1 in 25).
CANDIDATES = 1000
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

__all__ = ["CANDIDATES", "NODES", "candidate", "daily_deal", "parse_date", "today"]


def today() -> datetime.date:
    """The local date (the player's, or the server's for a protocol client)."""
    return datetime.date.today()


def parse_date(text: Any, name: str = "daily") -> datetime.date:
    """A date written ``YYYY-MM-DD`` (exactly that: 10 characters), or ValueError naming
    ``name``; a :class:`datetime.date` is taken as it is."""
    if isinstance(text, datetime.datetime):
        return text.date()
    if isinstance(text, datetime.date):
        return text
    if not isinstance(text, str) or not _DATE.fullmatch(text):
        raise ValueError(f"{name} is a date written YYYY-MM-DD, got {_args.excerpt(text)}")
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{name}: {text} is not a date of the calendar") from None


def candidate(day: datetime.date, profile: str, k: int) -> int:
    """Candidate ``k`` of the date's daily deal for ``profile`` (a profile's name): a deal
    number, as the module's text says."""
    text = f"pyramid-solitaire daily {day.isoformat()} {profile} {k}"
    digest = hashlib.sha256(text.encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") % (MAX_DEAL_NUMBER + 1)


def daily_deal(profile: Profile | str = "pyramide", day: Any = None) -> Deal:
    """The daily deal of ``day`` (a :class:`datetime.date` or ``YYYY-MM-DD``; default the
    local date) for ``profile``: the first candidate proved winnable under its rules
    (remembered: a date's deal is worked out once per process). ValueError when none of
    :data:`CANDIDATES` is proved winnable (a custom rule set that is hardly ever won)."""
    profile = Profile.preset(profile)
    day = today() if day is None else parse_date(day, "date")
    number = _daily_number(day.isoformat(), profile.name, profile.rules)
    return Deal.from_number(number, rules=profile.rules)


@functools.lru_cache(maxsize=256)
def _daily_number(day: str, name: str, rules: Rules) -> int:
    from ..analysis.solver import solve

    date = datetime.date.fromisoformat(day)
    for k in range(CANDIDATES):
        number = candidate(date, name, k)
        if solve(Deal.from_number(number, rules=rules), max_nodes=NODES).winnable:
            return number
    raise ValueError(
        f"no daily deal for {day} under {name}: none of {CANDIDATES:,} candidates was "
        f"proved winnable within {NODES:,} positions"
    )
