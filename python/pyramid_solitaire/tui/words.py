"""What the message lines say, in the language of the moment. The session's messages
(:class:`~pyramid_solitaire.session.messages.Message`: a code and its arguments) and the
terminal game's own notes (:class:`Said`: a label of labels.py and its arguments) are kept as
they were given and written out in the game's language each time the table is drawn, so that
switching language (``L``) translates every line shown, not only the next ones.

>>> from ..session.messages import message
>>> in_lang(message("sum_not_13", "en"), "vi")
'Tổng phải bằng 13'
>>> in_lang(Said("removed"), "vi")
'Đã loại'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model.reasons import error_text
from ..session.labels import label
from ..session.messages import Message, game_name
from ..session.translate import in_lang as in_lang_message


@dataclass(frozen=True)
class Said:
    """A label of labels.py to show, in any language: ``key`` and its ``args`` (each of
    which may itself be a note, a :class:`GameName` or an error: written in the same
    language). ``text`` is its English, as ``str()`` is."""

    key: str
    args: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, key: str, **args: Any) -> Said:
        return cls(key, args)

    @property
    def text(self) -> str:
        return in_lang(self, "en")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class GameName:
    """A game type's name (``three-pass``: "Three passes", "Ba lượt")."""

    profile: str

    def __str__(self) -> str:
        return game_name(self.profile)


#: A message line: the session's, the game's own, an error (its reason, when it has one, in
#: the language of the moment) or a text.
Note = Message | Said | GameName | Exception | str


def in_lang(note: Any, lang: str) -> str:
    """``note`` (a message, a :class:`Said`, a :class:`GameName`, an error or a text) in
    ``lang``. A message whose words cannot be found again keeps its own text."""
    if isinstance(note, Said):
        return label(note.key, lang, **{k: in_lang(v, lang) for k, v in note.args.items()})
    if isinstance(note, GameName):
        return game_name(note.profile, lang)
    if isinstance(note, Message):
        return _message_in(note, lang)
    if isinstance(note, BaseException):
        return error_text(note, lang)
    return str(note)


def _message_in(m: Message, lang: str) -> str:
    return in_lang_message(m, lang).text
