"""A message already given, said again in another language: what a frontend shows when the
player switches language (the terminal game's message lines, the protocol's ``lang``), so
that a hint or a refusal on screen is translated rather than cleared.

A :class:`~.messages.Message` keeps its code and arguments; most are written again from
them. Four carry words of their own language in an argument, written again here: a hint
(said as ``hint_<kind>``, the kind read from its move), the difficulty (its ``words``, from
its fixed ``label``), the daily deal (its date as the language writes it) and a refusal's
reason (``why``: the reason's words matched against each language's template).

>>> from .messages import message
>>> in_lang(message("sum_not_13", "en"), "vi").text
'Tổng phải bằng 13'
"""

from __future__ import annotations

import datetime as _dt
import re

from ..model.move import Move
from ..model.reasons import REASONS, reason_text
from .messages import CATALOGUE, LANGUAGES, Message, check_lang, message


def in_lang(m: Message, lang: str) -> Message:
    """``m`` in ``lang`` (the same code and arguments; the arguments that are words written
    in ``lang`` too). A message whose words cannot be found again keeps its own text."""
    lang = check_lang(lang)
    args = dict(m.args)
    code = m.code
    try:
        if code == "hint":  # said as hint_<kind> (its args hold the move)
            code = "hint_" + Move.parse(args["move"]).kind
        elif code == "difficulty":  # (the label is a fixed word; its words are the language's)
            args["words"] = message(f"difficulty_{args['label']}", lang).text
        elif code == "daily":  # the date as the language writes it (the session's way)
            day = _dt.date.fromisoformat(args["date"])
            args["shown"] = (
                f"{day.day:02}/{day.month:02}/{day.year:04}" if lang == "vi" else day.isoformat()
            )
        elif code in ("not_allowed", "illegal_move"):
            args["why"] = _reason_in(str(args["why"]), lang)
        if code not in CATALOGUE:
            return m
        text = message(code, lang, **args).text
    except (KeyError, IndexError, ValueError):  # not a message of the catalogue's words
        return m
    return Message(m.code, text, args)


_FIELD = re.compile(r"\{(\w+)(?:![rsa])?(?::[^}]*)?\}")


def _pattern(template: str) -> re.Pattern[str]:
    parts, end = [], 0
    for m in _FIELD.finditer(template):
        parts.append(re.escape(template[end : m.start()]))
        name = m.group(1)
        parts.append(f"(?P={name})" if f"(?P<{name}>" in "".join(parts) else f"(?P<{name}>.+?)")
        end = m.end()
    parts.append(re.escape(template[end:]))
    return re.compile("".join(parts) + r"\Z")


def _reason_in(why: str, lang: str) -> str:
    """Why a move is not legal, said in another language: the reason's words found again
    (``"K♦ is blocked by 5♠ and 9♦"``: ``card_blocked``) and written in ``lang``; a move
    before it (``"Tc+3s: ..."``) is kept. A text of no reason comes back as it is."""
    head, sep, tail = why.partition(": ")
    found = []
    for prefix, text in [("", why)] + ([(head + sep, tail)] if sep else []):
        for reason, texts in REASONS.items():
            for given in LANGUAGES:
                m = _pattern(texts[given]).match(text)
                if m is not None:
                    found.append((len(_FIELD.sub("", texts[given])), prefix, reason, given, m))
    if not found:
        return why
    # the reason whose own words are the most of the text (a move before it on a tie)
    _, prefix, reason, given, m = max(found, key=lambda f: (f[0], f[1] != ""))
    values = {k: v.replace(_joiner(given), _joiner(lang)) for k, v in m.groupdict().items()}
    target = REASONS[reason][lang]
    if not {f.group(1) for f in _FIELD.finditer(target)} <= set(values):
        return why  # words the text has lost (said in a language that leaves them out)
    return prefix + _fill(target, values)


def _fill(template: str, values: dict[str, str]) -> str:
    """``template`` with its fields replaced by the texts in ``values`` (as found)."""
    return _FIELD.sub(lambda f: values.get(f.group(1), f.group(0)), template)


def _joiner(lang: str) -> str:
    """The words joining a list of cards in ``lang`` (" and ", " và ")."""
    text = reason_text("card_blocked", lang, card="\x01", covers=("\x02", "\x03"))
    return text[text.index("\x02") + 1 : text.index("\x03")]
