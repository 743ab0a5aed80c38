"""The session layer for frontends: profiles (what each app's game is, as data), the message
catalogue (English and Vietnamese), and :class:`Session` (the tap model, score, moves counter,
undo and redo, clock, hints and notices), each deal's :class:`Difficulty`, saves, the
statistics store (:class:`StatsStore`) and the JSON-lines protocol. See docs/session.md.

>>> s = Session("PY1-N-AAAAAAS", "pyramide", clock=lambda: 0.0)
>>> s.tap(22) == [] and s.score == 10
True
"""

from ..model.profiles import PROFILES, Profile, Scoring
from .difficulty import Difficulty
from .messages import CATALOGUE, LANGUAGES, Message, message
from .session import Session
from .stats import StatsStore

__all__ = [
    "CATALOGUE",
    "Difficulty",
    "LANGUAGES",
    "Message",
    "PROFILES",
    "Profile",
    "Scoring",
    "Session",
    "StatsStore",
    "message",
]
