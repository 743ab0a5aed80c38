"""The session layer for frontends: profiles (what each app's game is, as data), the message
catalogue (English and Vietnamese), and :class:`Session` (the tap model, score, moves counter,
undo and redo, clock, hints and notices). See docs/session.md.

>>> s = Session("PY1-N-AAAAAAS", "pyramide", clock=lambda: 0.0)
>>> s.tap(22) == [] and s.score == 10
True
"""
from .messages import CATALOGUE, LANGUAGES, Message, message
from .profiles import PROFILES, Profile, Scoring
from .session import Session

__all__ = ["CATALOGUE", "LANGUAGES", "Message", "PROFILES", "Profile", "Scoring", "Session",
           "message"]
