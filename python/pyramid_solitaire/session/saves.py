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

import os
import stat
from typing import TYPE_CHECKING, Any

from ..inputs.jsonin import BadJSON, loads
from ..inputs.jsonout import dumps
from ..model.deal import Deal
from ..model.profiles import Profile, Scoring
from ..model.rules import Rules
from ..runtime import args as _args
from ..runtime.atomic import write_atomic

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
        "no_chance_told": session._no_chance_told,
        "recorded": session._recorded,
        "difficulty": session.difficulty.to_dict(),
    }


def _action(a: Any) -> dict[str, Any]:
    return {"move": str(a.move), "points": a.points, "bonus": a.bonus}


def profile_from_dict(d: dict[str, Any]) -> Profile:
    scoring = d.get("scoring", {})
    if not isinstance(scoring, dict):
        raise ValueError("profile.scoring must be an object")
    settings = {k: v for k, v in d.items() if k not in ("rules", "scoring", "name")}
    return Profile(d["name"], Rules.coerce(d["rules"]), Scoring(**scoring), **settings)


def from_document(doc: Any, clock: Any = None) -> Session:
    """A session from a save document; ValueError saying what is wrong."""
    from ..model.move import Move
    from .session import Session, _Action

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
    try:
        d = doc["deal"]
        deal = Deal.from_cards(d["cards"])
        if d.get("number") is not None:
            number = _args.whole("deal.number", d["number"], 0)
            if Deal.from_number(number).cards != deal.cards:
                raise ValueError("deal.number does not match deal.cards")
            deal = Deal.from_number(number, rules=None)
        profile = profile_from_dict(doc["profile"])
        rules = Rules.coerce(doc["rules"])
        if rules != profile.rules:
            profile = profile.replace(rules=rules)
        s = Session(
            deal.with_rules(rules),
            profile,
            clock=clock,
            lang=doc["lang"],
            explain_errors=doc["explain_errors"],
            fair_hints=doc.get("fair_hints", False),  # (saves before it had none)
        )
        s.game.play_all(doc["history"])
        undo = [
            _Action(
                Move.parse(a["move"]),
                _count("points", a["points"], signed=True),
                _count("bonus", a["bonus"], signed=True),
            )
            for a in doc["undo"]
        ]
        redo = [
            _Action(
                Move.parse(a["move"]),
                _count("points", a["points"], signed=True),
                _count("bonus", a["bonus"], signed=True),
            )
            for a in doc["redo"]
        ]
        if [a.move for a in undo] != s.game.moves[len(s.game.moves) - len(undo) :]:
            raise ValueError("the undo stack does not end the moves played")
        s._undo.extend(undo)
        s._redo.extend(redo)
        s.score = _count("score", doc["score"])
        s.moves = _count("moves", doc["moves"])
        seconds = _args.real("seconds", doc["seconds"], positive=False)
        if not 0 <= seconds <= MAX_SECONDS:
            raise ValueError(f"seconds is 0 .. {MAX_SECONDS:,}, got {seconds!r}")
        now = s._clock()
        s._t0 = now - seconds
        if _args.flag("ended", doc["ended"]):
            s._ended_at = now
        elif _args.flag("paused", doc["paused"]):
            s._paused_at = now
        s.assisted = _args.flag("assisted", doc["assisted"])
        s._no_chance_told = _args.flag("no_chance_told", doc["no_chance_told"])
        s._recorded = _args.flag("recorded", doc.get("recorded", False))
        if doc.get("difficulty") is not None:  # else computed again when asked
            from .difficulty import Difficulty

            s._difficulty = Difficulty.from_dict(doc["difficulty"])
        selection = doc["selection"]
        if selection is not None:
            s._card_at(selection)  # a target that exists
        s.selection = selection
    except KeyError as e:
        raise ValueError(f"the save has no {_args.excerpt(e.args[0])}") from None
    except (TypeError, AttributeError, IndexError, OverflowError, RecursionError) as e:
        # a document no check foresaw is still only a bad save
        raise ValueError(
            f"the save is malformed ({type(e).__name__}: {_args.excerpt(str(e), 80)})"
        ) from None
    return s


def save(session: Session, path: str | os.PathLike) -> None:
    write_atomic(path, dumps(to_document(session), indent=1) + "\n")


class CannotRead(ValueError):
    """The save file could not be read at all (missing, a folder, no permission)."""


def load(path: str | os.PathLike, clock: Any = None) -> Session:
    """The session saved in ``path``; ValueError naming the file and the problem (the file
    is left as it is)."""
    name = os.fspath(path)
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
        doc = loads(data, bom=True)
    except BadJSON as e:
        raise ValueError(
            f"{name} is not a pyramid-solitaire save: not JSON text "
            f"({_args.excerpt(str(e), 80)}); it may be truncated"
        ) from None
    try:
        return from_document(doc, clock)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None
