"""A game session for frontends: the tap model, messages, score, moves counter, undo and redo,
the clock, hints and the "no chance to win" notice, over the engine (:class:`Game`) and the
solver. A frontend only draws :meth:`Session.state` and forwards input.

>>> from pyramid_solitaire.session import Session
>>> s = Session("PY1-N-AAAAAAS", clock=lambda: 0.0)
>>> [m.code for m in s.tap(22)]          # Kc, a free King: one tap removes it
[]
>>> s.score, s.moves
(10, 1)
>>> s.tap(0)[0].text                       # the top card is blocked
'This card is blocked by another card'
"""

from __future__ import annotations

import datetime
import functools
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from ..model.deal import Deal
from ..model.game import Game, Status
from ..model.move import Move
from ..model.profiles import Profile, check_code_profile, profile_of_code
from ..model.reasons import InputError
from ..runtime import args as _args
from . import events as _events
from . import saves as _saves
from .difficulty import Difficulty
from .messages import Message, check_lang, message
from .saves import Saved

#: A tap's target: a pyramid index 0..27, "stock" (draw or recycle), "stock:top" (the stock's
#: top card, where it is playable), "waste" (the waste's top card) or "waste:0".."waste:2"
#: (the top of each pile under draw three).
Target = Any

# (check_code_profile and profile_of_code live in model/profiles.py; named here too)
__all__ = [
    "Session",
    "check_code_profile",
    "from_document",
    "load",
    "profile_of_code",
    "random_deal",
]


def random_deal(
    profile: Profile, rng: Any = None, winnable_only: bool = False, difficulty: str | None = None
) -> Deal:
    """A random numbered deal for ``profile``; ``winnable_only``: one the solver proves
    winnable under its rules (each candidate searched for at most 0.2 s); ``difficulty``
    (``easy``, ``medium`` or ``hard``): one of that difficulty, always winnable
    (:func:`.difficulty.random_deal_of`)."""
    import random as _random

    winnable_only = _args.flag("winnable_only", winnable_only)
    if difficulty is not None:
        from .difficulty import random_deal_of

        return cast(Deal, random_deal_of(profile, difficulty, rng))
    if not winnable_only:
        return Deal.random(rng, rules=profile.rules)
    from ..analysis.solver import solve

    draw = _random.Random(rng if rng is None else _args.whole("rng", rng))
    for _ in range(10_000):
        deal = Deal.random(draw, rules=profile.rules)
        if solve(deal, max_seconds=0.2).winnable:
            return deal
    raise ValueError(f"no winnable deal found under the {profile.rules.name} rules")


def _autosaved(method: Callable[..., Any]) -> Callable[..., Any]:
    """After the action, the session is saved to its autosave file (if it has one)."""

    @functools.wraps(method)
    def wrapper(self: Session, *args: Any, **kwargs: Any) -> list[Message]:
        out: list[Message] = method(self, *args, **kwargs)
        if self.autosave is not None:
            self.save(self.autosave)
        return out

    return wrapper


def _playing(method: Callable[..., Any]) -> Callable[..., Any]:
    """An action on the table: refused (the ``game_paused`` message, nothing changes) while
    the game is paused; then autosaved like every action."""

    @functools.wraps(method)
    def wrapper(self: Session, *args: Any, **kwargs: Any) -> list[Message]:
        if self.paused:
            return [self._msg("game_paused")]
        out: list[Message] = method(self, *args, **kwargs)
        if self.autosave is not None:
            self.save(self.autosave)
        return out

    return wrapper


@dataclass
class _Action:
    move: Move
    points: int  # score gained by the move, bonus included
    bonus: int = 0


class Session:
    """One game as a player plays it.

    ``deal``: a code, a card list, a :class:`Deal`, a deal number or None (random);
    ``profile``: a :class:`Profile` or a profile's name; ``clock``: a function returning
    seconds (default ``time.monotonic``; tests pass a fake one); ``lang``: ``"en"`` or
    ``"vi"``; ``explain_errors``: overrides the profile's; ``fair_hints``: hints that never
    look at the face-down stock (docs/fair.md), and the "no chance to win" notice only once
    every card has been seen; ``autosave``: a file the session
    is saved to (atomically) after every action; ``stats``: a :class:`StatsStore` (or its
    path) that records each game when it ends, and as abandoned when a game with moves is
    left for another (``restart``, ``new_deal``).
    """

    autosave: str | os.PathLike[str] | None = None
    stats: Any = None
    #: The date of the daily deal this game is (:mod:`.daily`), or None for another deal.
    daily: datetime.date | None = None
    #: None, or a list each change to the table is appended to as events (:mod:`.events`:
    #: what protocol 2 answers with); whoever set it empties it.
    events: list[dict[str, Any]] | None = None

    def __init__(
        self,
        deal: Any = None,
        profile: Profile | str = "pyramide",
        *,
        clock: Callable[[], float] | None = None,
        lang: str = "en",
        explain_errors: bool | None = None,
        autosave: str | os.PathLike[str] | None = None,
        stats: Any = None,
        fair_hints: bool = False,
    ) -> None:
        self.autosave = autosave
        self.stats = stats
        self.profile = Profile.preset(profile)
        self.lang = check_lang(lang)
        self.explain_errors = (
            self.profile.explain_errors
            if explain_errors is None
            else _args.flag("explain_errors", explain_errors)
        )
        self.fair_hints = _args.flag("fair_hints", fair_hints)
        if clock is not None and not callable(clock):
            raise ValueError(
                f"clock must be a function returning seconds, got {_args.excerpt(clock)}"
            )
        self._clock = clock or time.monotonic
        self._start(
            Game(deal, self.profile.rules)
            if deal is not None
            else Game(Deal.random(rules=self.profile.rules))
        )

    @classmethod
    def new_random(
        cls,
        profile: Profile | str = "pyramide",
        rng: Any = None,
        winnable_only: bool = False,
        difficulty: str | None = None,
        **kwargs: Any,
    ) -> Session:
        """A session on a random numbered deal (its code can be shared). ``winnable_only``:
        only a deal the solver proves winnable under the profile's rules (drawn again until
        one is, each deal searched for at most 0.2 s). ``difficulty``: ``"easy"`` (level 1),
        ``"medium"`` (level 2) or ``"hard"`` (levels 3 to 5, proved winnable): a deal of
        that difficulty, the same for the same ``rng`` seed (docs/session.md, "Choosing how
        hard"); ValueError for another value, or one the profile does not offer."""
        profile = Profile.preset(profile)
        return cls(random_deal(profile, rng, winnable_only, difficulty), profile, **kwargs)

    @classmethod
    def new_daily(
        cls,
        profile: Profile | str = "pyramide",
        date: datetime.date | str | None = None,
        **kwargs: Any,
    ) -> Session:
        """A session on the daily deal of ``date`` (a :class:`datetime.date`, or
        ``YYYY-MM-DD``; default the local date today) for ``profile``: the same winnable
        deal for every player on that date (:mod:`.daily`). ``session.daily`` is the date;
        the statistics record it."""
        from .daily import daily_deal, parse_date, today

        profile = Profile.preset(profile)
        day = today() if date is None else parse_date(date, "date")
        session = cls(daily_deal(profile, day), profile, **kwargs)
        session.daily = day
        return session

    def _start(self, game: Game) -> None:
        if getattr(self, "game", None) is not None:
            self.abandon()
        self.game = game
        self._recorded = False
        self.score = 0
        self.moves = 0
        self.selection: Target | None = None
        self.assisted = False
        self.hints = 0  # hints given in this game (the statistics record them)
        self._undo: deque[_Action] = deque(maxlen=self.profile.undo_limit)
        self._redo: list[_Action] = []
        self._t0 = self._clock()
        self._paused_at: float | None = None
        self._paused = 0.0
        self._ended_at: float | None = None
        self._no_chance_told = False
        self._finish_told = False  # the finish_offer notice, given once a game
        self._finish_seen: tuple[int, int, bool] | None = None  # (position, seen, answer)
        self._difficulty: Difficulty | None = None
        self._verdict_shown = False  # the game ended, or the player asked the chance to win

    @_autosaved
    def restart(self) -> list[Message]:
        """The same deal from the start (score, moves and clock reset)."""
        self._start(Game(self.game.deal, self.game.rules))
        return self.greeting()

    @_autosaved
    def new_deal(
        self,
        deal: Any = None,
        profile: Profile | str | None = None,
        *,
        winnable_only: bool = False,
        rng: Any = None,
        daily: datetime.date | str | bool | None = None,
        difficulty: str | None = None,
    ) -> list[Message]:
        """A new game of ``deal`` (for example a pasted code; None: a random numbered deal,
        ``winnable_only`` as in :meth:`new_random`), under ``profile`` (default: this
        session's). ``daily``: the daily deal of that date (a :class:`datetime.date` or
        ``YYYY-MM-DD``; True: today's) instead, as :meth:`new_daily`; ``difficulty``: a
        random deal of that difficulty, as :meth:`new_random`. A game with moves that is
        left is recorded as abandoned."""
        new_profile = self.profile if profile is None else Profile.preset(profile)
        if profile is None:
            new_profile = profile_of_code(deal, new_profile)
        day: datetime.date | None = None
        if daily is not None and daily is not False:
            from .daily import daily_deal, parse_date, today

            if deal is not None or difficulty is not None:
                raise ValueError("new_deal takes a deal, daily or difficulty, not two of them")
            day = today() if daily is True else parse_date(daily, "daily")
            deal = daily_deal(new_profile, day)
        elif deal is None:
            deal = random_deal(new_profile, rng, winnable_only, difficulty)
        elif difficulty is not None:
            raise ValueError("new_deal takes a deal, daily or difficulty, not two of them")
        game = Game(deal, new_profile.rules)  # a bad deal raises: nothing changed
        if new_profile is not self.profile:
            self.abandon()  # under the profile it was played in
            self.profile = new_profile
            self._recorded = True  # (the new game is _start's)
        self._start(game)
        self.daily = day
        return self.greeting()

    def abandon(self) -> None:
        """Record the game as abandoned in the statistics (once; a game with no moves is not
        recorded): for a frontend that drops a session, or replaces it by another."""
        if self.moves:
            self._record("abandoned")

    def set_lang(self, lang: str) -> list[Message]:
        """The language of the messages from now on (``"en"`` or ``"vi"``)."""
        self.lang = check_lang(lang)
        return []

    def set_fair_hints(self, on: bool) -> list[Message]:
        """Hints that never look at the face-down stock (``on``), or the solver's, which do;
        says which."""
        self.fair_hints = _args.flag("on", on)
        return [self._msg("fair_hints_on" if self.fair_hints else "fair_hints_off")]

    def chance(self, samples: int = 64) -> list[Message]:
        """The chance to win from what the player has seen (:func:`~pyramid_solitaire.fair.
        win_chance`): message ``chance`` (args ``percent``, ``low``, ``high``, ``samples``),
        or, once nothing is hidden, ``chance_exact_won`` / ``chance_exact_lost``. It looks at
        nothing the player has not seen, so the game is not marked as assisted; from then on
        the difficulty shown is the whole rating (:attr:`shown_difficulty`)."""
        from ..analysis.fair import win_chance

        self._verdict_shown = True  # from now on the difficulty shown is the whole rating
        c = win_chance(self.game, samples=samples)
        if c.estimate is None:
            return [self._msg("chance_unknown")]
        if c.exact:
            return [self._msg("chance_exact_won" if c.won else "chance_exact_lost")]
        low, high = c.ci95
        return [
            self._msg(
                "chance",
                percent=round(100 * c.estimate),
                low=round(100 * low),
                high=round(100 * high),
                samples=c.decided,
            )
        ]

    def greeting(self) -> list[Message]:
        """What a game says when it starts: that it is the daily deal of its date (message
        ``daily``, args ``date``: YYYY-MM-DD), then its difficulty."""
        said = [] if self.daily is None else [self._daily_message()]
        shown = self.shown_difficulty
        return said + [
            self._msg(
                "difficulty",
                level=shown.level,
                label=shown.label,
                words=self._msg(f"difficulty_{shown.label}").text,
            )
        ]

    def _daily_message(self) -> Message:
        day = self.daily
        assert day is not None
        shown = f"{day.day:02}/{day.month:02}/{day.year:04}" if self.lang == "vi" else None
        return self._msg("daily", date=day.isoformat(), shown=shown or day.isoformat())

    @property
    def difficulty(self) -> Difficulty:
        """The deal's difficulty under the profile's rules (see :mod:`.difficulty`),
        computed once per deal, in a few milliseconds."""
        if self._difficulty is None:
            from .difficulty import rate

            self._difficulty = rate(self.game.deal, self.game.rules)
        return self._difficulty

    @property
    def verdict_withheld(self) -> bool:
        """Whether the solver's verdict on the deal is kept from the player (no spoiler):
        while the game is being played and the player has not asked the chance to win, for
        a deal no playout won (level 5 or 6: only the solver tells them apart). Once the
        game has ended (even if the end is undone) or the chance was asked, it is shown."""
        return (
            self.difficulty.level >= 5 and self.status is Status.PLAYING and not self._verdict_shown
        )

    @property
    def shown_difficulty(self) -> Difficulty:
        """The difficulty the player is shown (docs/session.md, "No spoiler"): the rating,
        except while :attr:`verdict_withheld`, when it is the playouts' level alone (5,
        expert) and ``winnable`` None, for a deal proved lost and a deal proved winnable
        alike. :attr:`difficulty` is the whole rating (the statistics record it)."""
        d = self.difficulty
        if not self.verdict_withheld:
            return d
        return Difficulty(5, None, d.random_win_rate, d.greedy_won, 0)

    # ---- the clock --------------------------------------------------------------------------
    @property
    def seconds(self) -> float:
        """Time played: paused time and time after the end do not count."""
        now = (
            self._ended_at
            if self._ended_at is not None
            else (self._paused_at if self._paused_at is not None else self._clock())
        )
        return max(0.0, now - self._t0 - self._paused)

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    @_autosaved
    def pause(self) -> list[Message]:
        """Stop the clock; the table refuses actions (``game_paused``) until :meth:`resume`.
        A finished game, or one paused already, has nothing to pause (no message)."""
        if self._ended_at is not None or self._paused_at is not None:
            return []  # (paused already: nothing changes, nothing said, as for resume)
        self._paused_at = self._clock()
        return [self._msg("paused")]

    @_autosaved
    def resume(self) -> list[Message]:
        if self._paused_at is None:
            return []
        self._paused += self._clock() - self._paused_at
        self._paused_at = None
        return [self._msg("resumed")]

    # ---- views ------------------------------------------------------------------------------
    @property
    def status(self) -> Status:
        return self.game.status

    def _msg(self, code: str, **args: Any) -> Message:
        return message(code, self.lang, **args)

    def _card_at(self, target: Target) -> Any:
        """The card a tap on ``target`` reaches, or None (an empty place)."""
        game = self.game
        if isinstance(target, bool) or not isinstance(target, (int, str)):
            raise ValueError(
                f"a tap target is a pyramid index 0..27, 'stock', 'stock:top', "
                f"'waste' or 'waste:0'..'waste:2', got {_args.excerpt(target)}"
            )
        if isinstance(target, int):
            if not 0 <= target < 28:
                raise ValueError(f"a pyramid index is 0..27, got {_args.excerpt(target)}")
            return game.pyramid[target]
        if target == "waste":
            return game.waste[-1] if game.waste else None
        if target.startswith("waste:") and target[6:] in ("0", "1", "2"):
            if game.rules.draw != 3:
                raise ValueError(
                    "waste piles 'waste:0'..'waste:2' are there under draw three; tap 'waste'"
                )
            pile = game.waste_piles[int(target[6:])]
            return pile[-1] if pile else None
        if target == "stock:top":
            if not game.rules.stock_top_playable:
                raise ValueError(
                    "'stock:top' is a target where the stock's top card is "
                    "playable (msc); tap 'stock' to draw"
                )
            return game.stock[0] if game.stock else None
        raise ValueError(
            f"a tap target is a pyramid index 0..27, 'stock', 'stock:top', "
            f"'waste' or 'waste:0'..'waste:2', got {_args.excerpt(target)}"
        )

    def _check_target(self, target: Target) -> None:
        """ValueError unless ``target`` is a place a tap can reach under these rules."""
        if target != "stock":
            self._card_at(target)

    # ---- input ------------------------------------------------------------------------------
    @_playing
    def tap(self, target: Target) -> list[Message]:
        """A tap (or click) on ``target`` (see :data:`Target`); returns the messages."""
        return self._tap(target)

    def _tap(self, target: Target) -> list[Message]:
        if target == "stock":
            self.selection = None
            return self._stock()
        card = self._card_at(target)
        if self.status is not Status.PLAYING:
            return [self._msg("game_over")]
        if card is None:
            return []
        if card not in self.game.playable_cards:
            return [self._msg("blocked")] if self.explain_errors else []
        if card.rank == 13:
            self.selection = None
            return self._act(Move.king(card))
        if self.selection is None:
            self.selection = target
            return []
        first = self._card_at(self.selection)
        if first == card or first is None or first not in self.game.playable_cards:
            self.selection = None if first == card else target
            return []
        if first.rank + card.rank != 13:
            self.selection = target
            return [self._msg("sum_not_13")]
        move = Move.pair(first, card)
        if not self.game.is_legal(move):
            self.selection = target
            why = self.game._why_illegal(move, self.lang)
            reason = self.game._why_illegal_reason(move)[0]  # (its code, for programs)
            return [self._msg("not_allowed", why=why, reason=reason)] if self.explain_errors else []
        self.selection = None
        return self._act(move)

    @_playing
    def drag(self, source: Target, target: Target) -> list[Message]:
        """Drag-and-drop: the same as tapping ``source``, then ``target``. Both ends are
        checked before anything changes (a bad one: ValueError, as for a tap)."""
        for end in (source, target):
            self._check_target(end)
        self.selection = None
        out = self._tap(source)
        return out + self._tap(target) if self.selection is not None else out

    def _stock(self) -> list[Message]:
        if self.status is not Status.PLAYING:
            return [self._msg("game_over")]
        legal = self.game.legal_moves
        for move in (Move.DRAW, Move.RECYCLE):
            if move in legal:
                return self._act(move)
        if self.game.stock or self.game.waste:
            return [self._msg("no_redeals_left")]
        return [self._msg("stock_empty")]

    @_playing
    def play(self, move: Move | str) -> list[Message]:
        """Play a move directly (for frontends that do their own input); an illegal one
        gives the ``illegal_move`` message and changes nothing."""
        try:
            move = Move.parse(move)
        except InputError as e:  # its reason in the player's language
            return [self._msg("illegal_move", why=e.text(self.lang), reason=e.reason)]
        except ValueError as e:
            return [self._msg("illegal_move", why=str(e))]
        if not self.game.is_legal(move):
            return [
                self._msg(
                    "illegal_move",
                    why=f"{move}: {self.game._why_illegal(move, self.lang)}",
                    reason=self.game._why_illegal_reason(move)[0],
                )
            ]
        self.selection = None
        return self._act(move)

    def _act(self, move: Move) -> list[Message]:
        """Play a legal move as a new action: points, moves counter, undo and redo, notices."""
        self._redo.clear()
        return self._apply(move)

    def _apply(self, move: Move, kind: str = "play") -> list[Message]:
        before = None if self.events is None else _events.table(self)
        where = [self.game.where(c) for c in move.cards]
        self.game.play(move)
        points = self.profile.scoring.removal(
            where.count("pyramid"), len(where) - where.count("pyramid")
        )
        self.moves += 1
        action = _Action(move, points)
        out: list[Message] = []
        status = self.status
        if status is Status.WON:
            self._ended_at = self._clock()
            action.bonus = self.profile.scoring.bonus(self.moves, self.seconds)
            action.points += action.bonus
            out.append(self._msg("won"))
        elif status is Status.NO_MOVES:
            self._ended_at = self._clock()
            out.append(self._msg("no_moves"))
        self.score += action.points
        self._undo.append(action)
        if status is not Status.PLAYING:
            self._verdict_shown = True  # the rating is no spoiler any more, even after undo
            out += self._record(None)
        if status is Status.PLAYING:
            out += self._notices()
        if before is not None and self.events is not None:
            self.events.append(_events.action_event(kind, move, self.moves))
            self.events += _events.table_events(before, _events.table(self))
        return out

    def _record(self, result: str | None) -> list[Message]:
        """Record the game in the statistics once (its first end, or its abandonment). A
        store that cannot be written costs the record, never the game: the notice
        ``stats_failed`` says so (and the store is not tried again)."""
        if self.stats is None or self._recorded:
            return []
        self._recorded = True
        import sqlite3

        from .stats import StatsStore

        try:
            if not isinstance(self.stats, StatsStore):
                self.stats = StatsStore(self.stats)
            self.stats.record(self, result)
        except (ValueError, OSError, sqlite3.Error) as e:
            import sys

            print(f"pyramid-solitaire: statistics: {_args.excerpt(str(e), 200)}", file=sys.stderr)
            self.stats = None
            return [self._msg("stats_failed")]
        return []

    def _notices(self) -> list[Message]:
        out = self._no_chance()
        if not self._finish_told and self.can_finish:
            self._finish_told = True
            out.append(self._msg("finish_offer"))
        return out

    def _no_chance(self) -> list[Message]:
        if not self.profile.no_chance_notice or self._no_chance_told:
            return []
        if self.fair_hints and self.game.unseen:  # it would look at the face-down stock
            return []
        from ..analysis.solver import can_still_win

        if can_still_win(self.game, max_seconds=self.profile.notice_seconds) is False:
            self._no_chance_told = True
            return [self._msg("no_chance")]
        return []  # winnable, or not decided within the budget: nothing false said

    # ---- auto-finish --------------------------------------------------------------------------
    @property
    def can_finish(self) -> bool:
        """Whether the rest of the game needs no choice: every sequence of removals of cards
        the player has seen, played until none is left, wins (no draw needed); see
        :mod:`.finish`. Worked out once per position (a few microseconds; at most
        :data:`.finish.NODES` positions searched)."""
        from .finish import can_finish

        game = self.game
        key = (game.position, game.seen_mask)
        if self._finish_seen is None or self._finish_seen[:2] != key:
            self._finish_seen = (*key, can_finish(game))
        return self._finish_seen[2]

    @_playing
    def finish(self) -> list[Message]:
        """Play the rest of the game when it needs no choice (:attr:`can_finish`): its moves
        one by one as the player's own (points, moves counter, undo, statistics as usual),
        each the removal that takes the most pyramid cards; returns their messages (``won``
        at the end). ``cannot_finish`` when the rest still needs a choice."""
        from .finish import finish_line

        if self.status is not Status.PLAYING:
            return [self._msg("game_over")]
        line = finish_line(self.game)
        if line is None:
            return [self._msg("cannot_finish")]
        self._finish_told = True  # (no offer while it plays)
        self.selection = None
        out: list[Message] = []
        for move in line:
            out += self._act(move)
        return out

    # ---- undo, redo, hints ------------------------------------------------------------------
    @_playing
    def undo(self) -> list[Message]:
        """Take back the last action (within the profile's undo limit)."""
        if not self._undo:
            if self.game.moves and self.profile.undo_limit is not None:
                return [self._msg("undo_limit", limit=self.profile.undo_limit)]
            return [self._msg("nothing_to_undo")]
        before = None if self.events is None else _events.table(self)
        action = self._undo.pop()
        self.game.undo()
        self.score -= action.points
        if self.profile.undo_counts_move:
            self.moves += 1
        if self._ended_at is not None:  # the time since the end never counts
            self._paused += self._clock() - self._ended_at
            self._ended_at = None
        self._no_chance_told = False
        self.selection = None
        self._redo.append(action)
        if before is not None and self.events is not None:
            self.events.append(_events.action_event("undo", action.move, self.moves))
            self.events += _events.table_events(before, _events.table(self))
        return []

    @_playing
    def redo(self) -> list[Message]:
        """Play again the last action undone (until a new action is played)."""
        if not self._redo:
            return [self._msg("nothing_to_redo")]
        action = self._redo.pop()
        self.selection = None
        return self._apply(action.move, "redo")

    @_playing
    def hint(self) -> list[Message]:
        """The first move of a shortest win when the solver finds one within half the
        profile's notice budget (at least 0.5 s in all), else a move on a winning line, else
        one removing the most cards. The message (code ``hint``) says it in the player's
        words ("Pair 10♠ with 3♥", "Draw a card", "Turn the waste over", "Remove K♦");
        its args have ``move`` (the move's text, for frontends that ring its cards) and, for
        a shortest win, ``win_in`` (its moves). The game is marked as assisted."""
        import time

        from ..analysis.solver import SearchBudgetExceeded, hint, solve

        if self.status is not Status.PLAYING:
            return [self._msg("game_over")]
        self.assisted = True
        if self.fair_hints:  # the hindsight policy's move: nothing unseen is looked at
            fair = hint(self.game, fair=True)
            if fair is None:
                return [self._msg("no_hint")]
            self.hints += 1
            return [self._hint_message(fair, fair=True)]
        budget = max(self.profile.notice_seconds, 0.5)
        t0 = time.monotonic()
        best = solve(self.game, objective="min_moves", max_seconds=budget / 2)
        extra: dict[str, Any] = {}
        move: Move | None
        if best.winnable and best.optimal and best.moves:
            move = best.moves[0]
            extra["win_in"] = best.n_moves
        else:
            try:
                move = hint(self.game, max_seconds=max(budget - (time.monotonic() - t0), 0.1))
            except SearchBudgetExceeded:
                return [self._msg("hint_unknown")]
            if move is None:
                return [self._msg("no_hint")]
        self.hints += 1
        return [self._hint_message(move, **extra)]

    def _hint_message(self, move: Move, **extra: Any) -> Message:
        """A hint in words: the text of ``hint_<kind>``, under the code ``hint``."""
        words: dict[str, Any] = {}
        if move.kind == "king":
            words["card"] = move.cards[0].symbol
        elif move.kind == "pair":
            words["a"], words["b"] = (c.symbol for c in move.cards)
        said = self._msg(f"hint_{move.kind}", move=str(move), **words, **extra)
        return Message("hint", said.text, said.args)

    # ---- state ------------------------------------------------------------------------------
    @property
    def under_way(self) -> bool:
        """Moves played and the game not over: a frontend asks before leaving it (it would
        be recorded as abandoned)."""
        return self.status is Status.PLAYING and self.moves > 0

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def targets(self) -> list[Target]:
        """The targets a tap can act on now, in drawing order: the available pyramid cards
        by index, the playable stock top, ``"stock"`` when a draw or recycle is legal, then
        the waste's top card (each pile's under draw three). Keyboard cursors move over
        these."""
        game = self.game
        if game.status is not Status.PLAYING:
            return []
        playable = set(game.playable_cards)
        out: list[Target] = [i for i, c in enumerate(game.pyramid) if c in playable]
        if game.rules.stock_top_playable and game.stock and game.stock[0] in playable:
            out.append("stock:top")
        if Move.DRAW in game.legal_moves or Move.RECYCLE in game.legal_moves:
            out.append("stock")
        piles = ["waste"] if game.rules.draw != 3 else ["waste:0", "waste:1", "waste:2"]
        out += [t for t in piles if self._card_at(t) in playable]
        return out

    def state(self) -> dict[str, Any]:
        """Everything a frontend draws, as JSON-ready data."""
        game = self.game
        free = set(game.free_cards)
        removed = game.removed
        sel = self._card_at(self.selection) if self.selection is not None else None
        shown = self.shown_difficulty
        return {
            "code": game.code,
            "cards": game.deal.to_cards(),  # the deal as dealt: a card list's name
            "profile": self.profile.name,
            "lang": self.lang,
            "rules": game.rules.describe_dict(),
            "pyramid": [
                {
                    "index": i,
                    "card": None if c is None else c.token,
                    "free": c is not None and c in free,
                }
                for i, c in enumerate(game.pyramid)
            ],
            "stock": len(game.stock),
            "stock_top": (
                game.stock[0].token if game.stock and game.rules.stock_top_playable else None
            ),
            "waste": [[c.token for c in pile] for pile in game.waste_piles],
            "waste_tops": [pile[-1].token if pile else None for pile in game.waste_piles],
            "redeals_left": game.recycles_left,
            "legal_moves": [str(m) for m in game.legal_moves],
            "targets": self.targets(),
            "selection": None if sel is None else {"target": self.selection, "card": sel.token},
            "score": self.score,
            "points": self.profile.scoring.gives_points,
            "moves": self.moves,
            # the moves on the table now, in order (undone ones are gone): with cards or the
            # code, the game itself, to keep or to continue elsewhere
            "history": [str(m) for m in game.moves],
            "seconds": round(self.seconds, 3),
            "paused": self.paused,
            "status": str(self.status),
            "assisted": self.assisted,
            "hints": self.hints,
            "fair_hints": self.fair_hints,
            "can_undo": self.can_undo,
            "can_redo": self.can_redo,
            "pyramid_removed": game.pyramid_removed,
            # toward the goal: the pyramid's cards, or every card when all 52 must go
            "removed": len(removed) if game.rules.win == "all" else game.pyramid_removed,
            "to_remove": 52 if game.rules.win == "all" else 28,
            "foundation": removed[-1].token if removed else None,
            "show_redeals": self.profile.show_redeals,
            "under_way": self.under_way,
            "can_finish": self.can_finish,
            "daily": None if self.daily is None else self.daily.isoformat(),
            "difficulty": {
                "level": shown.level,
                "label": shown.label,
                "text": self._msg(f"difficulty_{shown.label}").text,
                "winnable": shown.winnable,
                "withheld": self.verdict_withheld,
            },
        }

    # ---- saving ------------------------------------------------------------------------------
    def to_json(self) -> str:
        """The whole session as a versioned JSON document (see :mod:`.saves`)."""
        from ..inputs.jsonout import dumps

        return dumps(_saves.to_document(self))

    @classmethod
    def from_json(cls, text: str, clock: Callable[[], float] | None = None) -> Session:
        """The session of a :meth:`to_json` document; ValueError when it is not one."""
        from ..inputs.jsonin import loads

        try:
            doc = loads(text)
        except ValueError as e:
            raise ValueError(f"not a pyramid-solitaire save: {_args.excerpt(str(e), 80)}") from None
        return from_document(doc, clock)

    @classmethod
    def _restore(cls, saved: Saved, clock: Callable[[], float] | None = None) -> Session:
        """The session a checked save document holds (saves.py's Saved): its game replayed
        on the engine (moves that are not legal are refused), its undo and redo stacks, its
        score, counters and clock."""
        s = cls(
            saved.deal.with_rules(saved.rules),
            saved.profile,
            clock=clock,
            lang=saved.lang,
            explain_errors=saved.explain_errors,
            fair_hints=saved.fair_hints,
        )
        s.game.play_all(saved.history)
        undo = [_Action(move, points, bonus) for move, points, bonus in saved.undo]
        if [a.move for a in undo] != s.game.moves[len(s.game.moves) - len(undo) :]:
            raise ValueError("the undo stack does not end the moves played")
        s._undo.extend(undo)
        s._redo.extend(_Action(move, points, bonus) for move, points, bonus in saved.redo)
        s.score = saved.score
        s.moves = saved.moves
        now = s._clock()
        s._t0 = now - saved.seconds
        if saved.ended:
            s._ended_at = now
        elif saved.paused:
            s._paused_at = now
        s.assisted = saved.assisted
        s.daily = saved.daily
        s.hints = saved.hints
        s._no_chance_told = saved.no_chance_told
        s._finish_told = saved.finish_offered
        s._verdict_shown = saved.verdict_shown
        s._recorded = saved.recorded
        if saved.difficulty is not None:  # else computed again when asked
            s._difficulty = Difficulty.from_dict(saved.difficulty)
        if saved.selection is not None:
            s._card_at(saved.selection)  # a target that exists
        s.selection = saved.selection
        return s

    def save(self, path: str | os.PathLike[str]) -> list[Message]:
        """Save to ``path`` atomically (temporary file, fsync, rename)."""
        _saves.save(self, path)
        return [self._msg("saved")]

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        clock: Callable[[], float] | None = None,
        autosave: bool = False,
        stats: Any = None,
        lang: str | None = None,
    ) -> Session:
        """The session saved in ``path`` (``autosave=True``: go on saving there; ``stats``: a
        statistics store or path to record its games in; ``lang``: the messages' language,
        default the saved one)."""
        session = load(path, clock)
        if lang is not None:
            session.lang = check_lang(lang)
        session.stats = stats
        if autosave:
            session.autosave = path
        return session

    def __repr__(self) -> str:
        return (
            f"<Session {self.game.code or 'card list'} {self.profile.name}: {self.status}, "
            f"score {self.score}, {self.moves} moves>"
        )


def from_document(doc: Any, clock: Callable[[], float] | None = None) -> Session:
    """A session from a save document (saves.py); ValueError saying what is wrong."""
    try:
        return Session._restore(_saves.read_document(doc), clock)
    except KeyError as e:
        raise ValueError(f"the save has no {_args.excerpt(e.args[0])}") from None
    except (TypeError, AttributeError, IndexError, OverflowError, RecursionError) as e:
        # a document no check foresaw is still only a bad save
        raise ValueError(
            f"the save is malformed ({type(e).__name__}: {_args.excerpt(str(e), 80)})"
        ) from None


def load(path: str | os.PathLike[str], clock: Callable[[], float] | None = None) -> Session:
    """The session saved in ``path``; ValueError naming the file and the problem (the file
    is left as it is)."""
    doc = _saves.read_file(path)
    try:
        return from_document(doc, clock)
    except ValueError as e:
        raise ValueError(f"{os.fspath(path)}: {e}") from None
