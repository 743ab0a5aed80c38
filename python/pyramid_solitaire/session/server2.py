"""Protocol 2 (docs/protocol.md): many games at once, each with an id; answers that carry the
events of each change; games the client owns (their save documents both ways, custom rules
and settings, moves given with a deal); analysis queries with budgets, progress and batches;
``cancel``.

Requests of one game are carried out in the order they came, one at a time; requests of
different games, and analyses, run at the same time on worker threads (the engine releases
the GIL), so a long analysis never delays a tap. Every answer carries the request's ``id``
(required in version 2), and arrives when it is ready.

>>> import json
>>> server = Server2(clock=lambda: 0.0)
>>> [line] = server.handle('{"id": 1, "op": "new", "code": "PY1-N-AAAAAAS"}')
>>> json.loads(line)["game"]
'g1'
>>> [line] = server.handle('{"id": 2, "op": "play", "game": "g1", "move": "draw"}')
>>> [e["type"] for e in json.loads(line)["events"]]
['draw', 'move']
"""

from __future__ import annotations

import itertools
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .. import __version__
from ..inputs.jsonout import dumps
from ..model.game import Game
from ..model.profiles import Profile, check_code_profile, profile_of_code
from ..model.reasons import InputError
from ..runtime.args import excerpt
from ..runtime.parallel import Cancelled
from . import events as _events
from . import ops as _ops
from .difficulty import offered
from .fields import FieldError
from .labels import labels
from .messages import LANGUAGES, Message, game_name
from .session import Session
from .stats import stats_object
from .wire import ProtocolError, parse_request, read_op


def _session_op(name: str) -> Callable[[Server2, _Request, Any], dict[str, Any]]:
    """The op that calls the session's method ``name`` (no fields but the game)."""

    def op(self: Server2, request: _Request, emit: Any) -> dict[str, Any]:
        return self._change(request, lambda s: list(getattr(s, name)()))

    op.__name__ = f"_op_{name}"
    return op


T = TypeVar("T")


@dataclass
class _Open:
    """An open game: its session, whether its games are recorded, its queue of requests."""

    session: Session
    shown: list[Message] = field(default_factory=list)


@dataclass
class _Request:
    rid: Any
    op: str
    fields: dict[str, Any]
    cancel: threading.Event = field(default_factory=threading.Event)
    #: an analysis of a game: the game's position, taken in the game's turn
    games: list[Game] | None = None


class Server2:
    """Protocol 2's server. ``handle(line)`` answers one request in the calling thread and
    returns its lines (progress lines, then the answer); ``submit(line)`` starts it on the
    server's threads and writes each line with ``write`` when it is ready (``serve
    --stdio``). ``stats_path``: the statistics file; ``files``: whether ``save`` and
    ``load`` may name files of the server's."""

    def __init__(
        self,
        clock: Callable[[], float] | None = None,
        stats_path: str | None = None,
        *,
        files: bool = True,
        write: Callable[[str], None] | None = None,
        threads: int = 4,
    ) -> None:
        self.clock = clock
        self.stats_path = stats_path
        self.files = files
        self.games: dict[str, _Open] = {}
        self.done = False
        self._write = write
        self._lock = threading.Lock()
        self._out_lock = threading.Lock()
        self._queues: dict[str, deque[Callable[[], None]]] = {}
        self._running: dict[Any, _Request] = {}
        self._ids = itertools.count(1)
        self._game_pool: ThreadPoolExecutor | None = None
        self._analysis_pool: ThreadPoolExecutor | None = None
        self._threads = threads
        self._idle = threading.Condition(self._lock)

    # ---- running requests -----------------------------------------------------------------
    def handle(self, line: str | bytes) -> list[str]:
        """One request in, its lines out (progress lines first), in this thread."""
        out: list[str] = []
        request = self._read(line, out.append)
        if request is not None and self._register(request, out.append):
            self._queue_key(request)  # (gives a new game its id)
            self._run(request, out.append)
        return out

    def submit(self, line: str | bytes) -> None:
        """Start one request; its lines go to ``write`` as they are ready. A game's requests
        run in order; others at once, on the server's threads."""
        emit = self._emit
        request = self._read(line, emit)
        if request is None:
            return
        scope = _ops.OPS[request.op].scope
        if scope == "server" and request.op != "quit":
            if self._register(request, emit):
                self._run(request, emit)  # quick: answered before the next line is read
            return
        if request.op == "quit":
            self.done = True
            with self._lock:  # analyses are stopped (answered cancelled); the rest ends
                for r in self._running.values():
                    if r.op == "analyze":
                        r.cancel.set()
            self.drain()
            if self._register(request, emit):
                self._run(request, emit)
            return
        if not self._register(request, emit):
            return
        key = self._queue_key(request)
        if key is None:  # the statistics, analyses of positions: on their own
            self._pool("analysis").submit(self._run, request, emit)
            return
        job = (
            (lambda: self._snapshot(request, emit))
            if request.op == "analyze"
            else (lambda: self._run(request, emit))
        )
        with self._lock:
            queue = self._queues.setdefault(key, deque())
            queue.append(job)
            start = len(queue) == 1
        if start:
            self._pool("game").submit(self._drain_queue, key)

    def _snapshot(self, request: _Request, emit: Callable[[str], None]) -> None:
        """An analysis of a game, in the game's turn: its position is taken now, and the
        search runs on the analysis threads, so the game's next requests need not wait."""
        try:
            request.games = [self._game(request).session.game.copy()]
        except ProtocolError:
            self._run(request, emit)  # (answers unknown_game)
            return
        self._pool("analysis").submit(self._run, request, emit)

    def drain(self) -> None:
        """Wait until every request started has been answered."""
        with self._idle:
            self._idle.wait_for(lambda: not self._running and not self._queues)

    def close(self) -> None:
        """Stop the running requests (answered ``cancelled``) and the server's threads."""
        with self._lock:
            for r in self._running.values():
                r.cancel.set()
        for pool in (self._game_pool, self._analysis_pool):
            if pool is not None:
                pool.shutdown(wait=True)

    def _pool(self, kind: str) -> ThreadPoolExecutor:
        with self._lock:
            if kind == "game":
                if self._game_pool is None:
                    self._game_pool = ThreadPoolExecutor(self._threads, "pyramid-game")
                return self._game_pool
            if self._analysis_pool is None:
                self._analysis_pool = ThreadPoolExecutor(self._threads, "pyramid-analysis")
            return self._analysis_pool

    def _drain_queue(self, key: str) -> None:
        while True:
            with self._lock:
                job = self._queues[key][0]
            job()
            with self._lock:
                queue = self._queues[key]
                queue.popleft()
                if not queue:
                    del self._queues[key]
                    self._idle.notify_all()
                    return

    def _emit(self, line: str) -> None:
        with self._out_lock:
            if self._write is not None:
                self._write(line)

    def _queue_key(self, request: _Request) -> str | None:
        """The game whose queue the request waits in (None: it waits in none). A new game's
        id is given here, as the request is read, so that the requests after it find it."""
        f = request.fields
        if _ops.OPS[request.op].scope == "creates":
            if "game" not in f and not f.get("check"):
                f["game"] = self._next_id()
        return str(f["game"]) if "game" in f else None  # (the server's ops: no game)

    def _next_id(self) -> str:
        with self._lock:
            while True:
                gid = f"g{next(self._ids)}"
                if gid not in self.games and gid not in self._queues:
                    return gid

    def _read(self, line: str | bytes, emit: Callable[[str], None]) -> _Request | None:
        rid = None
        try:
            request, rid = parse_request(line)
            op = read_op(request, tuple(_ops.OPS))
            if "id" not in request or rid is None:
                raise ProtocolError(
                    "missing_field" if "id" not in request else "bad_request",
                    "every request of protocol 2 has an id (a string or an integer): its "
                    "answers carry it",
                )
            fields = _ops.OPS[op].read(request)
        except ProtocolError as e:
            emit(self._error(rid, None, e.code, str(e)))
            return None
        except FieldError as e:
            emit(self._error(rid, request.get("op"), e.code, str(e), field=e.field))
            return None
        return _Request(rid, op, fields)

    def _register(self, request: _Request, emit: Callable[[str], None]) -> bool:
        key = _id_key(request.rid)
        with self._lock:
            if key in self._running:
                clash = True
            else:
                clash = False
                self._running[key] = request
        if clash:
            emit(
                self._error(
                    request.rid,
                    request.op,
                    "duplicate_id",
                    f"a request with id {excerpt(request.rid)} is still running: "
                    "give each request its own id",
                )
            )
            return False
        return True

    def _run(self, request: _Request, emit: Callable[[str], None]) -> None:
        try:
            if request.cancel.is_set():
                raise Cancelled(f"request {excerpt(request.rid)}")
            answer = getattr(self, "_op_" + request.op)(request, emit)
            emit(dumps({"id": request.rid, "ok": True, "op": request.op, "messages": [], **answer}))
        except Cancelled:
            emit(
                self._error(
                    request.rid,
                    request.op,
                    "cancelled",
                    f"request {excerpt(request.rid)} was cancelled",
                )
            )
        except ProtocolError as e:
            emit(self._error(request.rid, request.op, e.code, str(e)))
        except FieldError as e:
            emit(self._error(request.rid, request.op, e.code, str(e), field=e.field))
        except InputError as e:
            lang = self._lang_of(request)
            where = getattr(e, "field", None)
            emit(
                self._error(
                    request.rid, request.op, "bad_request", " ".join(str(e).split()),
                    **({"field": where} if where else {}), reason=e.reason, text=e.text(lang),
                )
            )  # fmt: skip
        except ValueError as e:
            emit(self._error(request.rid, request.op, "bad_request", " ".join(str(e).split())))
        except OSError as e:
            emit(self._error(request.rid, request.op, "io_error", f"{e.strerror or e}"))
        except Exception as e:  # a defect: say so, and go on serving
            print(
                f"pyramid-solitaire serve: internal error: {type(e).__name__}: "
                f"{excerpt(str(e), 200)}",
                file=sys.stderr,
            )
            emit(
                self._error(
                    request.rid, request.op, "internal_error",
                    f"the server could not answer this request ({type(e).__name__}); it goes on",
                )
            )  # fmt: skip
        finally:
            with self._lock:
                self._running.pop(_id_key(request.rid), None)
                self._idle.notify_all()

    @staticmethod
    def _error(rid: Any, op: str | None, code: str, said: str, **more: Any) -> str:
        response: dict[str, Any] = {"id": rid, "ok": False}
        if op in _ops.OPS:
            response["op"] = op
        response["messages"] = []
        response["error"] = {"code": code, "message": said, **more}
        return dumps(response)

    def _lang_of(self, request: _Request) -> str:
        f = request.fields
        if "game" in f and f["game"] in self.games:
            return self.games[f["game"]].session.lang
        return str(f.get("lang", "en"))

    # ---- the ops: the server's ------------------------------------------------------------
    def _op_hello(self, request: _Request, emit: Any) -> dict[str, Any]:
        if request.fields.get("protocol", _ops.VERSION) != _ops.VERSION:
            raise ProtocolError(
                "bad_request",
                "this connection speaks protocol 2 already: hello cannot go back to 1",
            )
        return hello_answer(self.files)

    def refuse(self, error: ProtocolError, rid: Any = None) -> str:
        """The answer to a line refused before it could be read (too long to hold; over a
        WebSocket's rate limit)."""
        return self._error(rid, None, error.code, str(error))

    def _op_games(self, request: _Request, emit: Any) -> dict[str, Any]:
        with self._lock:
            games = list(self.games.items())
        return {
            "games": [
                {
                    "game": gid,
                    "code": g.session.game.code,
                    "profile": g.session.profile.name,
                    "status": str(g.session.status),
                    "moves": g.session.moves,
                }
                for gid, g in games
            ]
        }

    def _op_cancel(self, request: _Request, emit: Any) -> dict[str, Any]:
        with self._lock:
            target = self._running.get(_id_key(request.fields["request"]))
        if target is not None and target is not request:
            target.cancel.set()
            return {"cancelled": True}
        return {"cancelled": False}

    def _op_quit(self, request: _Request, emit: Any) -> dict[str, Any]:
        self.done = True
        return {}

    def _op_howto(self, request: _Request, emit: Any) -> dict[str, Any]:
        from .howto import how_to_play

        f = request.fields
        return {"howto": how_to_play(f.get("profile", "pyramide"), f.get("lang", "en"))}

    def _op_daily(self, request: _Request, emit: Any) -> dict[str, Any]:
        from .daily import daily_deal, parse_date, today

        f = request.fields
        profile = Profile.preset(f.get("profile", "pyramide"))
        day = today() if "date" not in f else parse_date(f["date"], "date")
        deal = daily_deal(profile, day)
        return {"daily": {"date": day.isoformat(), "profile": profile.name, "code": deal.code}}

    # ---- games ------------------------------------------------------------------------------
    def _game(self, request: _Request) -> _Open:
        gid = request.fields["game"]
        with self._lock:
            g = self.games.get(gid)
        if g is None:
            raise ProtocolError(
                "unknown_game", f"no open game has the id {excerpt(gid)}: open one with new"
            )
        return g

    def _open(self, request: _Request, session: Session, messages: list[Message]) -> dict[str, Any]:
        gid = request.fields["game"]
        with self._lock:
            if gid in self.games:
                raise ProtocolError(
                    "game_exists",
                    f"a game with the id {excerpt(gid)} is open: close it first, or choose "
                    "another id",
                )
            if len(self.games) >= _ops.MAX_GAMES:
                raise ProtocolError(
                    "too_many_games", f"{_ops.MAX_GAMES} games are open: close one first"
                )
            self.games[gid] = _Open(session, list(messages))
        if request.fields.get("record"):
            session.stats = self._stats_file()
        return {
            "game": gid,
            "messages": [m.to_dict() for m in messages],
            "events": [{"type": "deal"}],
            "state": _state(session),
        }

    def _stats_file(self) -> str:
        """Where ``record`` writes: the server's statistics file (``serve --db``), else the
        user's own, the one ``stats`` reads then too."""
        from .stats import default_path

        if self.stats_path is not None:
            return str(self.stats_path)
        path = default_path()
        path.parent.mkdir(parents=True, exist_ok=True)  # (as StatsStore() makes it)
        return str(path)

    def _profile(self, f: dict[str, Any], code: str | None) -> Profile:
        name = f.get("profile")
        if name is None and code is not None and "rules" not in f:
            profile = profile_of_code(code, Profile.preset("pyramide"), unnamed="profile")
        else:
            profile = Profile.preset(name or "pyramide")
        if "rules" in f:
            profile = profile.replace(rules=f["rules"])
        if "settings" in f:
            profile = profile.replace(**f["settings"])
        if code is not None:
            check_code_profile(code, profile, "profile" if "rules" not in f else "rules")
        return profile

    def _op_new(self, request: _Request, emit: Any) -> dict[str, Any]:
        f = request.fields
        lang = f.get("lang", "en")
        deal = f.get("code", f.get("cards"))
        profile = _named(
            "code" if "code" in f else "profile", lambda: self._profile(f, f.get("code"))
        )
        if f.get("check"):
            if deal is None:
                raise FieldError("check goes with code or cards: the deal to read", "check")
            session = Session(deal, profile, clock=self.clock, lang=lang)
            return {"checked": {"code": session.game.code, "profile": session.profile.name}}
        if "daily" in f:
            if "rules" in f or "settings" in f:
                raise FieldError("a daily deal is played under its profile's own rules", "daily")
            from .daily import parse_date, today

            day = today() if f["daily"] is True else parse_date(f["daily"], "daily")
            session = Session.new_daily(profile, day, clock=self.clock, lang=lang)
        elif deal is None:
            random = f.get("random", True)
            random = {} if random is True else random
            difficulty = random.get("difficulty")
            if difficulty is not None and difficulty not in offered(profile):
                raise FieldError(
                    f"random.difficulty {difficulty!r} is not offered under {profile.name}: one of "
                    f"{', '.join(offered(profile))} (hello's difficulties)",
                    "random.difficulty",
                )
            session = Session.new_random(
                profile,
                rng=random.get("seed"),
                winnable_only=random.get("winnable_only", False),
                difficulty=difficulty,
                clock=self.clock,
                lang=lang,
            )
        else:
            session = _named(
                "code" if "code" in f else "cards",
                lambda: Session(deal, profile, clock=self.clock, lang=lang),
            )
        if f.get("record"):  # (before the moves given: a game they end is recorded too)
            session.stats = self._stats_file()
        messages = session.greeting()
        for i, move in enumerate(f.get("moves", [])):
            said = session.play(move)
            if said and said[0].code == "illegal_move":
                raise FieldError(f"moves[{i}]: {said[0].args.get('why', move)}", f"moves[{i}]")
            messages = said
        return self._open(request, session, messages)

    def _op_import(self, request: _Request, emit: Any) -> dict[str, Any]:
        from .session import from_document

        try:
            session = from_document(request.fields["save"], clock=self.clock)
        except ValueError as e:
            raise ProtocolError("bad_save", f"save: {' '.join(str(e).split())}") from None
        return self._open(request, session, [session._msg("loaded")])

    def _op_load(self, request: _Request, emit: Any) -> dict[str, Any]:
        from .saves import CannotRead

        path = self._path(request)
        try:
            session = Session.load(path, clock=self.clock)
        except CannotRead as e:
            raise ProtocolError("io_error", str(e)) from None
        return self._open(request, session, [session._msg("loaded")])

    def _path(self, request: _Request) -> str:
        if not self.files:
            raise ProtocolError(
                "not_allowed",
                f"{request.op} is not allowed here: this server keeps no files for its clients",
            )
        path = str(request.fields["path"])
        if not path.strip() or "\x00" in path:
            raise FieldError("path is a file name (not blank, no NUL character)", "path")
        return path

    def _op_save(self, request: _Request, emit: Any) -> dict[str, Any]:
        session = self._game(request).session
        path = self._path(request)
        try:
            said = session.save(path)
        except OSError as e:
            raise ProtocolError("io_error", f"cannot write {path}: {e.strerror or e}") from None
        return {"game": request.fields["game"], "messages": [m.to_dict() for m in said]}

    def _op_export(self, request: _Request, emit: Any) -> dict[str, Any]:
        from .saves import to_document

        session = self._game(request).session
        game = session.game
        # what new takes back as it is: the code, or the cards and the rules
        share: dict[str, Any] = {"code": game.code}
        if game.code is None or game.rules.letter == "X":
            share = {"cards": game.deal.to_cards(), "rules": game.rules.to_dict()}
        return {"game": request.fields["game"], "save": to_document(session), "share": share}

    def _op_close(self, request: _Request, emit: Any) -> dict[str, Any]:
        g = self._game(request)
        g.session.abandon()
        with self._lock:
            self.games.pop(request.fields["game"], None)
        return {"game": request.fields["game"]}

    def _op_state(self, request: _Request, emit: Any) -> dict[str, Any]:
        return {"game": request.fields["game"], "state": _state(self._game(request).session)}

    def _change(self, request: _Request, act: Callable[[Session], list[Message]]) -> dict[str, Any]:
        """Carry out a change to a game: its messages, its events and (when asked) its state."""
        g = self._game(request)
        session = g.session
        before = _events.table(session)
        session.events = []
        try:
            messages = act(session)
            played = session.events
        finally:
            session.events = None
        events = _events.request_events(before, _events.table(session), played, session)
        if request.op not in ("state",):
            g.shown = list(messages)
        answer: dict[str, Any] = {
            "game": request.fields["game"],
            "events": events,
            "messages": [m.to_dict() for m in messages],
        }
        if request.fields.get("state"):
            answer["state"] = _state(session)
        return answer

    def _op_tap(self, request: _Request, emit: Any) -> dict[str, Any]:
        return self._change(request, lambda s: s.tap(request.fields["target"]))

    def _op_drag(self, request: _Request, emit: Any) -> dict[str, Any]:
        f = request.fields
        return self._change(request, lambda s: s.drag(f["from"], f["to"]))

    def _op_play(self, request: _Request, emit: Any) -> dict[str, Any]:
        return self._change(request, lambda s: s.play(request.fields["move"]))

    def _op_fair_hints(self, request: _Request, emit: Any) -> dict[str, Any]:
        return self._change(request, lambda s: s.set_fair_hints(request.fields["on"]))

    def _op_lang(self, request: _Request, emit: Any) -> dict[str, Any]:
        from .translate import in_lang

        g = self._game(request)
        shown = g.shown

        def act(s: Session) -> list[Message]:
            said = s.set_lang(request.fields["lang"])
            return said + [in_lang(m, s.lang) for m in shown]

        return self._change(request, act)

    def _op_restart(self, request: _Request, emit: Any) -> dict[str, Any]:
        g = self._game(request)
        messages = g.session.restart()
        return {
            "game": request.fields["game"],
            "messages": [m.to_dict() for m in messages],
            "events": [{"type": "deal"}],
            "state": _state(g.session),
        }

    _op_undo = _session_op("undo")
    _op_redo = _session_op("redo")
    _op_hint = _session_op("hint")
    _op_chance = _session_op("chance")
    _op_pause = _session_op("pause")
    _op_resume = _session_op("resume")
    _op_finish = _session_op("finish")

    # ---- analysis --------------------------------------------------------------------------
    def _op_analyze(self, request: _Request, emit: Callable[[str], None]) -> dict[str, Any]:
        from ..analysis.queries import analyze

        f = request.fields
        if request.games is not None:
            games = request.games
        elif "game" in f:
            games = [self._game(request).session.game.copy()]
        else:
            specs = [f["position"]] if "position" in f else f["positions"]
            games = [
                self._position(spec, f"positions[{i}]" if "positions" in f else "position")
                for i, spec in enumerate(specs)
            ]
        queries = f.get("queries", ["winnable"])
        budget = f.get("budget", {})
        samples = f.get("samples", 64)
        run = {
            "max_nodes": budget.get("positions"),
            "max_seconds": budget.get("seconds"),
            "samples": samples,
            "cancel": request.cancel,
        }
        t0 = time.monotonic()
        state = {"done": 0}
        ticker = None
        if "progress" in f:
            ticker = _Ticker(
                f["progress"],
                lambda: emit(
                    dumps(
                        {
                            "id": request.rid,
                            "ok": True,
                            "op": "analyze",
                            "messages": [],
                            "progress": {
                                "done": state["done"],
                                "total": len(games),
                                "seconds": round(time.monotonic() - t0, 3),
                            },
                        }
                    )
                ),
            )
        try:
            if "positions" not in f:
                return {"result": analyze(games[0], queries, **run)}
            for i, game in enumerate(games):
                result = analyze(game, queries, **run)
                state["done"] = i + 1
                emit(
                    dumps(
                        {
                            "id": request.rid,
                            "ok": True,
                            "op": "analyze",
                            "messages": [],
                            "index": i,
                            "partial": True,
                            "result": result,
                        }
                    )
                )
            return {"done": len(games)}
        finally:
            if ticker is not None:
                ticker.stop()

    def _position(self, spec: dict[str, Any], name: str) -> Game:
        deal = spec.get("code", spec.get("cards"))
        if deal is None:
            raise FieldError(f"{name} needs code or cards", f"{name}.code", "missing_field")
        part = f"{name}.{'code' if 'code' in spec else 'cards'}"
        profile = _named(part, lambda: self._profile(spec, spec.get("code")))
        game = _named(part, lambda: Game(deal, profile.rules))
        for i, move in enumerate(spec.get("moves", [])):
            try:
                game.play(move)
            except ValueError as e:
                raise FieldError(
                    f"{name}.moves[{i}]: {' '.join(str(e).split())}", f"{name}.moves[{i}]"
                ) from None
        return game

    # ---- statistics ------------------------------------------------------------------------
    def _op_stats(self, request: _Request, emit: Any) -> dict[str, Any]:
        from .stats import StatsStore

        f = request.fields
        profile, lang = f.get("profile"), f.get("lang", "en")
        with StatsStore(self.stats_path, read_only=True) as store:
            return {"stats": stats_object(store, profile, lang, f.get("limit", 20), f.get("deal"))}

    def _op_stats_reset(self, request: _Request, emit: Any) -> dict[str, Any]:
        from .stats import StatsStore

        profile = request.fields.get("profile")
        if profile is None and not request.fields.get("all"):
            raise FieldError(
                'stats_reset needs profile (one game type\'s games) or "all": true',
                "profile",
                "missing_field",
            )
        deleted = 0
        with StatsStore(self.stats_path, read_only=True) as probe:
            exists = probe.exists
        if exists:  # nothing recorded yet: nothing to delete, no file created
            with StatsStore(self.stats_path) as store:
                deleted = store.reset(profile)
        with StatsStore(self.stats_path, read_only=True) as store:
            return {"deleted": deleted, "stats": stats_object(store, profile, "en")}


def _named(part: str, make: Callable[[], T]) -> T:
    """``make()``, its ValueError named by the request's ``part`` that held the deal (the
    error's ``field``); a player's reason (InputError) keeps its words and reason."""
    try:
        return make()
    except InputError as e:
        e.field = part  # type: ignore[attr-defined]
        raise
    except ValueError as e:
        raise FieldError(f"{part}: {' '.join(str(e).split())}", part) from None


def _state(session: Session) -> dict[str, Any]:
    """A game's state as both versions give it (``not_saved``: null, as no file is kept)."""
    return {**session.state(), "not_saved": None}


def games_catalogue() -> dict[str, Any]:
    """What ``hello`` says of the games in both versions: the profiles, the languages, each
    profile's name for players, the words a frontend draws itself, the difficulties each
    profile offers."""
    return {
        "profiles": Profile.names(),
        "languages": list(LANGUAGES),
        "game_names": {
            lang: {p: game_name(p, lang) for p in Profile.names()} for lang in LANGUAGES
        },
        "labels": {lang: labels(lang) for lang in LANGUAGES},
        "difficulties": {p: list(offered(p)) for p in Profile.names()},
    }


def hello_answer(files: bool = True) -> dict[str, Any]:
    """``hello``'s answer in protocol 2 (capabilities: :data:`.ops.CAPABILITIES`)."""
    capabilities = [c for c in _ops.CAPABILITIES if files or c != "files"]
    return {
        "protocol": _ops.VERSION,
        "protocols": list(_ops.VERSIONS),
        "version": __version__,
        "ops": list(_ops.OPS),
        **games_catalogue(),
        "capabilities": capabilities,
        "limits": {
            "games": _ops.MAX_GAMES,
            "batch": _ops.MAX_BATCH,
            "moves": _ops.MAX_MOVES,
            "line_bytes": 65536,
        },
    }


def _id_key(rid: Any) -> Any:
    """A request id as a key: 1 and "1" are different ids."""
    return (type(rid).__name__, rid)


class _Ticker:
    """Calls ``tick`` every ``every`` seconds on a thread of its own until stopped."""

    def __init__(self, every: float, tick: Callable[[], None]) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, args=(every, tick), daemon=True)
        self._thread.start()

    def _loop(self, every: float, tick: Callable[[], None]) -> None:
        while not self._stop.wait(every):
            tick()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
