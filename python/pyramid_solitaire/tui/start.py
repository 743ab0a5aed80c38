"""How the terminal game starts: which session, which autosave file, what it says first.

- ``CODE`` given: that deal, under the profile asked for.
- Else the autosave file, when it loads: the game goes on (the ``loaded`` message).
- Else a new random deal that the solver proves winnable.

A save that does not load (truncated, another program's file, a newer version) is never
written over: its error is shown, and the game autosaves to the first file beside it that
is free or holds a good save (``terminal-game.json``, then ``terminal-game-1.json``,
``terminal-game-2.json``, ...), which is also where the next start resumes from.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..session import Session
from ..session.messages import Message, check_lang, message
from .words import GameName, Said

SAVE_NAME = "terminal-game.json"
MAX_SLOTS = 100


def default_save_path() -> Path:
    """``terminal-game.json`` in the user's data directory (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("pyramid-solitaire", appauthor=False)) / SAVE_NAME


def slots(base: Path) -> Any:
    """The autosave files tried in turn: ``base``, then ``base-1``, ``base-2``, ..."""
    yield base
    for n in range(1, MAX_SLOTS):
        yield base.with_name(f"{base.stem}-{n}{base.suffix}")


@dataclass
class Start:
    session: Session
    save_path: Path | None  # where the game autosaves (None: nowhere)
    notes: list[Message | Said | Exception] = field(default_factory=list)  # what to show first
    resumed: bool = False
    pending: str | None = None  # a code to play once the player agrees to leave


def new_random(
    profile: str, *, winnable_only: bool = True, difficulty: str | None = None, **kwargs: Any
) -> Session:
    """A new random numbered deal under ``profile``: of ``difficulty`` when one is chosen
    (``easy``, ``medium``, ``hard``: the session's choice, winnable by its nature), else
    winnable by the solver's proof when ``winnable_only``."""
    return Session.new_random(profile, winnable_only=winnable_only, difficulty=difficulty, **kwargs)


def start(
    code: str | None,
    profile: str,
    lang: str,
    save_path: str | os.PathLike[str] | None,
    stats: Any,
    clock: Callable[[], float] | None,
    winnable_only: bool = True,
    difficulty: str | None = None,
) -> Start:
    """The session the game starts with (see the module's text); a new random deal is of
    ``difficulty`` when one is chosen. A bad ``code`` raises ValueError (the command line
    reports it)."""
    lang = check_lang(lang)
    base = Path(save_path) if save_path is not None else default_save_path()
    notes: list[Message | Said | Exception] = []
    slot: Path | None = None
    loaded: Session | None = None
    for candidate in slots(base):
        if not candidate.exists():
            slot = candidate
            break
        try:
            loaded = Session.load(candidate, clock=clock, autosave=True, stats=stats, lang=lang)
        except ValueError as e:
            notes.append(e)
            continue
        slot = candidate
        break
    if notes:
        notes.append(Said.of("save_left", path=slot) if slot is not None else Said("no_free_slot"))
    if slot is not None:
        slot.parent.mkdir(parents=True, exist_ok=True)
    kwargs = dict(clock=clock, lang=lang, autosave=slot, stats=stats)
    if code is not None:
        if loaded is not None and loaded.under_way:  # asked first (the app asks)
            Session(code, profile)  # a bad code: the command line says so now
            return Start(
                loaded, slot, notes + [message("loaded", lang)], resumed=True, pending=code
            )
        if loaded is not None:
            greeting = loaded.new_deal(code, profile)  # the game left: recorded, abandoned
            session = loaded
        else:
            session = Session(code, profile, **kwargs)
            greeting = session.greeting()
        _save(session, notes)
        return Start(session, slot, notes + greeting)
    if loaded is not None:
        notes.append(message("loaded", lang))
        if loaded.profile.name != profile:
            notes.append(
                Said.of(
                    "saved_other_game",
                    saved=GameName(loaded.profile.name),
                    asked=GameName(profile),
                )
            )
        return Start(loaded, slot, notes, resumed=True)
    session = new_random(profile, winnable_only=winnable_only, difficulty=difficulty, **kwargs)
    _save(session, notes)
    return Start(session, slot, [*notes, *session.greeting()])


def _save(session: Session, notes: list[Any]) -> None:
    """Save a new game at once, so that the next start resumes the same deal."""
    if session.autosave is None:
        return
    try:
        session.save(session.autosave)
    except OSError as e:
        notes.append(Said.of("cannot_save_to", path=session.autosave, why=e.strerror or e))


SETTINGS_NAME = "terminal-settings.json"


#: The choices of how hard new deals are: any deal, or one of the session's difficulties
#: (:data:`pyramid_solitaire.session.difficulty.CHOICES`; a game type offers some of them).
DIFFICULTIES = ("any", "easy", "medium", "hard")


def settings_path(save_path: Path | None) -> Path | None:
    """Where the theme, the language, fair hints and how hard new deals are, are
    remembered: beside the autosave."""
    return None if save_path is None else Path(save_path).with_name(SETTINGS_NAME)


def read_settings(path: Path | None) -> dict[str, str]:
    """The remembered ``theme``, ``lang``, ``fair_hints`` and ``difficulty`` (what is not
    there, or not valid, is left out: a damaged file costs nothing)."""
    if path is None:
        return {}
    from ..inputs.jsonin import loads
    from ..session.messages import LANGUAGES

    try:
        if not path.is_file():
            return {}
        data = loads(path.read_bytes()[:4096], bom=True)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    out = {}
    if data.get("theme") in ("textual-dark", "textual-light"):
        out["theme"] = data["theme"]
    if data.get("lang") in LANGUAGES:
        out["lang"] = data["lang"]
    if data.get("fair_hints") in ("on", "off"):
        out["fair_hints"] = data["fair_hints"]
    if data.get("difficulty") in DIFFICULTIES:
        out["difficulty"] = data["difficulty"]
    return out


def write_settings(path: Path | None, **changes: str) -> None:
    """Remember ``changes`` (atomically; OSError when the file cannot be written)."""
    if path is None:
        return
    from ..inputs.jsonout import dumps
    from ..runtime.atomic import write_atomic

    data = {**read_settings(path), **changes}
    write_atomic(path, dumps(data, indent=1) + "\n")
