"""Saving and resuming sessions: a versioned JSON document, written atomically.

The document holds the whole session: the deal (its cards, and its number when it has one),
the rules, the profile, every move played, the undo and redo stacks with their points, the
score, the moves counter, the seconds played, the selection, the assisted flag and the
language. ``Session.to_json()`` / ``Session.from_json()`` round-trip exactly; resuming
replays the moves on the engine, so a document whose moves are not legal is refused.

Files are written to a temporary file in the same folder, flushed to disk (fsync), then
renamed over the old one, so a crash leaves either the old save or the new one. A file that
is not a save (corrupt, truncated, another program's, a newer version) gives a ValueError
naming the file and the problem, and is never changed or deleted.
"""

from __future__ import annotations

import datetime
import os
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..inputs.jsonin import BadJSON, loads
from ..inputs.jsonout import dumps
from ..model.deal import Deal
from ..model.move import Move
from ..model.profiles import Profile, Scoring
from ..model.rules import Rules
from ..runtime import args as _args
from ..runtime.atomic import write_atomic
from .daily import parse_date

if TYPE_CHECKING:  # pragma: no cover
    from .session import Session

FORMAT = "pyramid-solitaire-session"
VERSION = 1
MAX_BYTES = 1 << 20  # a save is a few KB; anything larger is not one


#: What a save's counters may hold: what every JSON reader keeps exactly (a save read back is
#: written again as it was), and a clock of at most about 30 years.
MAX_COUNT = (1 << 53) - 1
MAX_SECONDS = 1e9


def _count(name: str, value: Any, signed: bool = False) -> int:
    return _args.whole(name, value, -MAX_COUNT if signed else 0, MAX_COUNT)


def to_document(session: Session) -> dict[str, Any]:
    game = session.game
    deal = game.deal
    return {
        "format": FORMAT,
        "version": VERSION,
        "deal": {"cards": deal.to_cards(), "number": deal.number, "code": deal.code},
        "rules": game.rules.describe_dict(),
        "profile": session.profile.to_dict(),
        "lang": session.lang,
        "explain_errors": session.explain_errors,
        "fair_hints": session.fair_hints,
        "history": [str(m) for m in game.moves],
        "undo": [_action(a) for a in session._undo],
        "redo": [_action(a) for a in session._redo],
        "score": session.score,
        "moves": session.moves,
        "seconds": session.seconds,
        "paused": session.paused,
        "ended": session._ended_at is not None,
        "selection": session.selection,
        "assisted": session.assisted,
        "hints": session.hints,
        "daily": None if session.daily is None else session.daily.isoformat(),
        "no_chance_told": session._no_chance_told,
        "finish_offered": session._finish_told,
        "verdict_shown": session._verdict_shown,
        "recorded": session._recorded,
        "difficulty": session.difficulty.to_dict(),
    }


def _action(a: Any) -> dict[str, Any]:
    return {"move": str(a.move), "points": a.points, "bonus": a.bonus}


def _object(value: Any, where: str) -> dict[str, Any]:
    """``value`` when it is a JSON object, else ValueError naming the field."""
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be an object, got {_args.excerpt(value)}")
    return value


def _key(d: dict[str, Any], key: str, where: str) -> Any:
    """``d[key]``, or ValueError naming the field that is missing."""
    if key not in d:
        raise ValueError(f"{where} has no {key!r}")
    return d[key]


def profile_from_dict(d: Any) -> Profile:
    d = _object(d, "profile")
    scoring = d.get("scoring", {})
    if not isinstance(scoring, dict):
        raise ValueError("profile.scoring must be an object")
    settings = {k: v for k, v in d.items() if k not in ("rules", "scoring", "name")}
    return Profile(
        _key(d, "name", "profile"),
        Rules.coerce(_key(d, "rules", "profile")),
        Scoring(**scoring),
        **settings,
    )


@dataclass
class Saved:
    """A save document read and checked, as plain values: what a Session is restored from
    (``Session`` does that itself, in session.py; the moves are checked there, by
    replaying them)."""

    deal: Deal
    profile: Profile
    rules: Rules
    lang: Any
    explain_errors: Any
    fair_hints: Any
    history: Any
    undo: list[tuple[Move, int, int]]  # (move, points, bonus), oldest first
    redo: list[tuple[Move, int, int]]
    score: int
    moves: int
    seconds: float
    ended: bool
    paused: bool
    assisted: bool
    hints: int
    daily: datetime.date | None  # the daily deal's date, or None
    no_chance_told: bool
    finish_offered: bool
    verdict_shown: bool  # the game ended or the chance was asked: the whole rating shown
    recorded: bool
    difficulty: Any  # its dict, or None (computed again when asked)
    selection: Any


def _actions(items: Any, name: str) -> list[tuple[Move, int, int]]:
    """The undo or redo list: each action an object with its move, points and bonus."""
    if not isinstance(items, list):
        raise ValueError(f"{name} must be a list of actions, got {_args.excerpt(items)}")
    out = []
    for i, a in enumerate(items):
        where = f"{name}[{i}]"
        a = _object(a, where)
        try:
            move = Move.parse(_key(a, "move", where))
        except ValueError as e:
            raise ValueError(f"{where}.move: {e}") from None
        out.append(
            (
                move,
                _count(f"{where}.points", _key(a, "points", where), signed=True),
                _count(f"{where}.bonus", _key(a, "bonus", where), signed=True),
            )
        )
    return out


def read_document(doc: Any) -> Saved:
    """A save document's values, checked (format, version, types and ranges); ValueError
    saying what is wrong. KeyError, TypeError and the like escape from here: the caller
    words them (``malformed``)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f'not a pyramid-solitaire save (no "format": "{FORMAT}")')
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError(f"a save's version is a whole number, got {_args.excerpt(version)}")
    if version > VERSION:
        raise ValueError(
            f"save version {version} is newer than this program reads ({VERSION}): "
            "update pyramid-solitaire"
        )
    d = _object(_key(doc, "deal", "the save"), "deal")
    deal = Deal.from_cards(_key(d, "cards", "deal"))
    if d.get("number") is not None:
        number = _args.whole("deal.number", d["number"], 0)
        if Deal.from_number(number).cards != deal.cards:
            raise ValueError("deal.number does not match deal.cards")
        deal = Deal.from_number(number, rules=None)
    profile = profile_from_dict(_key(doc, "profile", "the save"))
    rules = Rules.coerce(_key(doc, "rules", "the save"))
    if rules != profile.rules:
        profile = profile.replace(rules=rules)
    lang, explain_errors = _key(doc, "lang", "the save"), _key(doc, "explain_errors", "the save")
    fair_hints = doc.get("fair_hints", False)  # (saves before it had none)
    history = _key(doc, "history", "the save")
    undo = _actions(_key(doc, "undo", "the save"), "undo")
    redo = _actions(_key(doc, "redo", "the save"), "redo")
    score = _count("score", _key(doc, "score", "the save"))
    taken_back = sum(points for _, points, _ in undo)
    if taken_back > score:  # undoing them all would give a score below 0
        raise ValueError(
            f"undo[].points add up to {taken_back:,}, more than the score {score:,}: "
            "undoing would score below 0"
        )
    moves = _count("moves", _key(doc, "moves", "the save"))
    seconds = _args.real("seconds", _key(doc, "seconds", "the save"), positive=False)
    if not 0 <= seconds <= MAX_SECONDS:
        raise ValueError(f"seconds is 0 .. {MAX_SECONDS:,}, got {seconds!r}")
    return Saved(
        deal=deal,
        profile=profile,
        rules=rules,
        lang=lang,
        explain_errors=explain_errors,
        fair_hints=fair_hints,
        history=history,
        undo=undo,
        redo=redo,
        score=score,
        moves=moves,
        seconds=seconds,
        ended=_args.flag("ended", _key(doc, "ended", "the save")),
        paused=_args.flag("paused", _key(doc, "paused", "the save")),
        assisted=_args.flag("assisted", _key(doc, "assisted", "the save")),
        hints=_count("hints", doc.get("hints", 0)),  # (saves before it had none)
        daily=None if doc.get("daily") is None else parse_date(doc["daily"], "daily"),
        no_chance_told=_args.flag("no_chance_told", _key(doc, "no_chance_told", "the save")),
        finish_offered=_args.flag("finish_offered", doc.get("finish_offered", False)),
        verdict_shown=_args.flag("verdict_shown", doc.get("verdict_shown", False)),
        recorded=_args.flag("recorded", doc.get("recorded", False)),
        difficulty=doc.get("difficulty"),
        selection=_key(doc, "selection", "the save"),
    )


def save(session: Session, path: str | os.PathLike[str]) -> None:
    path = _args.path_name("the save file", path)
    write_atomic(path, dumps(to_document(session), indent=1) + "\n")


class CannotRead(ValueError):
    """The save file could not be read at all (missing, a folder, no permission)."""


def read_file(path: str | os.PathLike[str]) -> Any:
    """The JSON document of the save file ``path``; ValueError (CannotRead when it cannot be
    read at all) naming the file and the problem (the file is left as it is)."""
    name = os.fspath(_args.path_name("the save file", path))
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block, a device...
            raise CannotRead(f"cannot read {name}: not a regular file")
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise CannotRead(f"cannot read {name}: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise ValueError(f"{name} is not a pyramid-solitaire save (over {MAX_BYTES:,} bytes)")
    try:
        return loads(data, bom=True)
    except BadJSON as e:
        raise ValueError(
            f"{name} is not a pyramid-solitaire save: not JSON text "
            f"({_args.excerpt(str(e), 80)}); it may be truncated"
        ) from None


def __getattr__(name: str) -> Any:
    """``from_document`` and ``load``, which give a Session, live in session.py (a Session
    restores itself from a :class:`Saved`); named here too, where they were."""
    if name in ("from_document", "load"):
        from . import session

        return getattr(session, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
