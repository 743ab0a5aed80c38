"""The JSON-lines protocol: one request object per line in, one response object per line out,
so that a frontend in any language can drive a session (``pyramid-solitaire serve --stdio``).
docs/protocol.md documents it; ``protocol.schema.json`` beside this file is its JSON Schema.

>>> server = Server(clock=lambda: 0.0)
>>> import json
>>> json.loads(server.handle('{"id": 1, "op": "new", "code": "PY1-N-AAAAAAS"}'))["state"]["code"]
'PY1-N-AAAAAAS'
>>> json.loads(server.handle('{"id": 2, "op": "tap", "target": 22}'))["state"]["score"]
10
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import IO, Any

from .. import __version__
from ..inputs.jsonout import SAFE_INTEGER as SAFE_INTEGER
from ..inputs.jsonout import dumps
from ..model.profiles import Profile, check_code_profile, profile_of_code
from ..model.reasons import InputError
from ..runtime.args import excerpt
from .difficulty import CHOICES, offered
from .messages import LANGUAGES, check_lang
from .server2 import Server2, games_catalogue, hello_answer
from .session import Session
from .stats import stats_object
from .wire import MAX_ID as MAX_ID
from .wire import MAX_LINE as MAX_LINE
from .wire import ProtocolError as ProtocolError
from .wire import parse_request as parse_request
from .wire import read_lines as read_lines
from .wire import read_op
from .wire import too_long as too_long
from .wire import unknown_op as unknown_op

PROTOCOL_VERSION = 1
#: The ops that call the session's method of their name, with no fields.
SESSION_OPS = ("undo", "redo", "hint", "chance", "pause", "resume", "restart", "finish")
#: The ops whose messages a frontend shows until the next such op (``lang`` says them again).
SHOWN_OPS = SESSION_OPS + ("new", "tap", "drag", "play", "fair_hints", "load")
OPS = (
    "hello",
    "new",
    "tap",
    "drag",
    "play",
    "undo",
    "redo",
    "hint",
    "chance",
    "finish",
    "fair_hints",
    "state",
    "pause",
    "resume",
    "restart",
    "save",
    "load",
    "stats",
    "stats_reset",
    "lang",
    "howto",
    "quit",
)


#: The browser game's first request (pyramid_solitaire.web), which its games list among theirs.
ATTACH = "attach"


class Server:
    """The protocol's state: one session at a time (``new`` or ``load`` starts one).

    ``stats_path``: the statistics file the ``stats`` op reads. For servers whose clients
    must not name files (the browser game, :mod:`pyramid_solitaire.web`): ``files=False``
    refuses ``save`` and ``load`` (error ``not_allowed``); ``session_stats``: given to each
    session started by ``new`` (the session's ``stats=``: its games are recorded), and a
    session with moves that ``new`` replaces is recorded as abandoned. ``serve --stdio``
    uses neither.
    """

    def __init__(
        self,
        clock: Callable[[], float] | None = None,
        stats_path: str | None = None,
        *,
        files: bool = True,
        session_stats: Any = None,
        attached: bool = False,
    ) -> None:
        self.clock = clock
        self.stats_path = stats_path
        self.files = files
        self.session_stats = session_stats
        self.session: Session | None = None
        #: The messages of the last action on the game (what a frontend shows): ``lang``
        #: answers with them in the new language.
        self.shown: list[Any] = []
        self._said: list[Any] = []
        self.done = False
        #: The ops answered: OPS, and ``attach`` on the browser game's connections (where a
        #: second one is refused).
        self.ops: tuple[str, ...] = OPS + ((ATTACH,) if attached else ())
        #: Why the game cannot be saved now (the browser game's autosave failed), or None:
        #: every state carries it as ``not_saved`` (a message, or null).
        self.save_error: str | None = None
        #: A hello asked for protocol 2: ``serve`` goes on with :meth:`upgraded`.
        self.upgrade = False

    def handle(self, line: str | bytes) -> str:
        """One request line in, one response line out (never raises for bad input)."""
        try:
            return self._handle(line)
        except Exception as e:  # a defect: say so, and go on serving
            print(
                f"pyramid-solitaire serve: internal error: {type(e).__name__}: "
                f"{excerpt(str(e), 200)}",
                file=sys.stderr,
            )
            return dumps(
                {
                    "id": None,
                    "ok": False,
                    "messages": [],
                    "error": {
                        "code": "internal_error",
                        "message": f"the server could not answer this request "
                        f"({type(e).__name__}); the session goes on",
                    },
                }
            )

    def _handle(self, line: str | bytes) -> str:
        rid, request = None, None
        try:
            request, rid = parse_request(line)
            op = read_op(request, self.ops)
            if op == ATTACH:
                raise ProtocolError(
                    "already_attached",
                    "this connection is attached to its "
                    "game already: open another connection "
                    "for another game",
                )
            self._said = []
            if op in SESSION_OPS:  # the session's own method, with no fields
                extra = self._reply(getattr(self._need(), op)())
            else:
                extra = getattr(self, f"_op_{op}")(request)
            if op in SHOWN_OPS and "messages" in extra:
                self.shown = self._said
            response: dict[str, Any] = {"id": rid, "ok": True, "op": op}
            response.update(extra)
        except ProtocolError as e:
            response = {"id": rid, "ok": False, "error": {"code": e.code, "message": str(e)}}
        except ValueError as e:  # bad arguments: the library's own messages
            error = {"code": "bad_request", "message": " ".join(str(e).split())}
            if isinstance(e, InputError):  # a player's input: its reason in their language
                error.update(reason=e.reason, text=e.text(self._lang(request)))
            response = {"id": rid, "ok": False, "error": error}
        except OSError as e:  # an autosave that cannot be written (disk full, ...)
            response = {
                "id": rid,
                "ok": False,
                "error": {
                    "code": "io_error",
                    "message": f"cannot save the game: {e.strerror or e}",
                },
            }
        return self._finish(response)

    def _lang(self, request: Any) -> str:
        """The language to tell this request's player in: the session's, else the
        request's ``lang`` (a ``new``), else English."""
        if self.session is not None:
            return self.session.lang
        lang = request.get("lang") if isinstance(request, dict) else None
        return lang if lang in LANGUAGES else "en"

    def refuse(self, error: ProtocolError, rid: Any = None) -> str:
        """The response to a request refused before it could be read (a line too long to
        hold: :func:`read_lines` gives its length)."""
        return self._finish(
            {"id": rid, "ok": False, "error": {"code": error.code, "message": str(error)}}
        )

    def _finish(self, response: dict[str, Any]) -> str:
        if self.session is not None and "state" not in response:
            response["state"] = self.state()
        response.setdefault("messages", [])
        return dumps(response)

    def state(self) -> dict[str, Any]:
        """The session's state, with ``not_saved``: the ``not_saved`` message while the game
        cannot be saved, else null."""
        session = self._need()
        state = session.state()
        state["not_saved"] = (
            None
            if self.save_error is None
            else session._msg("not_saved", why=self.save_error).to_dict()
        )
        return state

    # ---- the ops -----------------------------------------------------------------------------
    def _need(self) -> Session:
        if self.session is None:
            raise ProtocolError("no_session", "no game yet: send new or load first")
        return self.session

    @staticmethod
    def _field(request: dict[str, Any], name: str) -> Any:
        if name not in request:
            raise ProtocolError("missing_field", f"{request.get('op')} needs {name!r}")
        return request[name]

    def _reply(self, messages: list[Any]) -> dict[str, Any]:
        self._said = list(messages)
        return {"messages": [m.to_dict() for m in messages]}

    def upgraded(self, write: Callable[[str], None]) -> Server2:
        """The protocol 2 server that goes on from this one (``hello`` with protocol 2)."""
        return Server2(self.clock, self.stats_path, files=self.files, write=write)

    def _op_hello(self, request: dict[str, Any]) -> dict[str, Any]:
        version = request.get("protocol", PROTOCOL_VERSION)
        if version not in (1, 2) or isinstance(version, bool):
            raise ProtocolError(
                "bad_request", f"protocol must be one of 1, 2, got {excerpt(version)}"
            )
        if version == 2:
            if self.session_stats is not None or self.ops != OPS:
                raise ProtocolError(
                    "bad_request", "this server speaks protocol 1 only (the browser game's)"
                )
            self.upgrade = True
            return hello_answer(self.files)
        capabilities = [
            "tap",
            "drag",
            "undo",
            "redo",
            "hint",
            "fair_hints",
            "chance",
            "save",
            "stats",
            "stats_reset",
            "history",
            "daily",
            "difficulty",
            "finish",
            "winnable_only",
        ]
        if not self.files:
            capabilities.remove("save")
        return {
            "protocol": PROTOCOL_VERSION,
            "protocols": [1, 2],
            "version": __version__,
            "ops": list(self.ops),
            **games_catalogue(),
            "capabilities": capabilities,
        }

    def _op_new(self, request: dict[str, Any]) -> dict[str, Any]:
        profile = request.get("profile")
        lang = check_lang(request.get("lang", "en"))
        given = [k for k in ("code", "cards", "random", "daily") if k in request]
        if len(given) > 1:
            raise ProtocolError("bad_request", "new takes one of code, cards, random or daily")
        check = request.get("check", False)
        if not isinstance(check, bool):
            raise ProtocolError("bad_request", f"check is true or false, got {excerpt(check)}")
        if check and given not in (["code"], ["cards"]):
            raise ProtocolError("bad_request", "check goes with code or cards: the deal to read")
        if given == ["daily"]:
            daily = request["daily"]
            if daily is not True and not isinstance(daily, str):
                raise ProtocolError(
                    "bad_request",
                    f"daily is true (today's daily deal, by the server's clock) or a date "
                    f"YYYY-MM-DD, got {excerpt(daily)}",
                )
            from .daily import parse_date, today

            day = today() if daily is True else parse_date(daily, "daily")
            session = Session.new_daily(profile or "pyramide", day, clock=self.clock, lang=lang)
        elif not given or "random" in given:
            random = request.get("random", {})
            if random is True or random is None:
                random = {}
            if not isinstance(random, dict):
                raise ProtocolError(
                    "bad_request",
                    'random is true or an object such as {"winnable_only": true, "seed": 3} '
                    'or {"difficulty": "hard", "seed": 3}',
                )
            seed, only = random.get("seed"), random.get("winnable_only", False)
            difficulty = random.get("difficulty")
            if difficulty is not None and difficulty not in CHOICES:
                raise ProtocolError(
                    "bad_request",
                    f"random.difficulty must be one of {', '.join(CHOICES)}, "
                    f"got {excerpt(difficulty)}",
                )
            if seed is not None and (
                isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 53
            ):
                raise ProtocolError(
                    "bad_request",
                    f"random.seed is a whole number 0 .. 2^53 - 1, got {excerpt(seed)}",
                )
            if not isinstance(only, bool):
                raise ProtocolError(
                    "bad_request", f"random.winnable_only is true or false, got {excerpt(only)}"
                )
            if difficulty is not None:
                chosen = Profile.preset(profile or "pyramide")
                if difficulty not in offered(chosen):
                    raise ProtocolError(
                        "bad_request",
                        f"random.difficulty {difficulty!r} is not offered under {chosen.name}: "
                        f"one of {', '.join(offered(chosen))} (hello's difficulties)",
                    )
            session = Session.new_random(
                profile or "pyramide",
                rng=seed,
                winnable_only=only,
                difficulty=difficulty,
                clock=self.clock,
                lang=lang,
            )
        else:
            deal = request[given[0]]
            if not isinstance(deal, str):
                raise ProtocolError("bad_request", f"{given[0]} is a string")
            if profile is None:  # a code is played under its letter's game
                profile = profile_of_code(deal, Profile.preset("pyramide"), unnamed="profile")
            else:
                check_code_profile(deal, Profile.preset(profile), "profile")
            session = Session(deal, profile, clock=self.clock, lang=lang)
            if check:  # read only: the game goes on
                return {"checked": {"code": session.game.code, "profile": session.profile.name}}
        old, self.session = self.session, session
        if old is not None:
            session.fair_hints = old.fair_hints  # a player's choice, kept for the next deals
            old.abandon()  # recorded only when it has statistics
        session.stats = self.session_stats
        return self._reply(session.greeting())

    def _target(self, request: dict[str, Any], name: str) -> Any:
        """A target field; a whole float such as 3.0 (an integer to JSON Schema) is 3."""
        target = self._field(request, name)
        if isinstance(target, float) and target.is_integer():
            return int(target)
        return target

    def _op_tap(self, request: dict[str, Any]) -> dict[str, Any]:
        return self._reply(self._need().tap(self._target(request, "target")))

    def _op_drag(self, request: dict[str, Any]) -> dict[str, Any]:
        session = self._need()
        return self._reply(session.drag(self._target(request, "from"), self._target(request, "to")))

    def _op_play(self, request: dict[str, Any]) -> dict[str, Any]:
        move = self._field(request, "move")
        if not isinstance(move, str):  # a wrong type is a bad request, as for every field
            raise ProtocolError(
                "bad_request",
                f"move is a string such as 'Kd', 'Tc+3s', 'draw' or 'recycle', got {excerpt(move)}",
            )
        return self._reply(self._need().play(move))

    def _op_state(self, request: dict[str, Any]) -> dict[str, Any]:
        self._need()
        return {}

    def _path(self, request: dict[str, Any]) -> str:
        if not self.files:
            raise ProtocolError(
                "not_allowed",
                f"{request['op']} is not allowed here: this server keeps the games itself",
            )
        path = self._field(request, "path")
        if not isinstance(path, str) or not path.strip() or "\x00" in path:
            raise ProtocolError(
                "bad_request",
                f"path is a file name (a non-empty string "
                f"without NUL characters), got {excerpt(path)}",
            )
        return path

    def _op_save(self, request: dict[str, Any]) -> dict[str, Any]:
        path = self._path(request)
        try:
            return self._reply(self._need().save(path))
        except OSError as e:
            raise ProtocolError("io_error", f"cannot write {path}: {e.strerror or e}") from None

    def _op_load(self, request: dict[str, Any]) -> dict[str, Any]:
        from .saves import CannotRead

        path = self._path(request)
        try:
            self.session = Session.load(path, clock=self.clock)
        except CannotRead as e:
            raise ProtocolError("io_error", str(e)) from None
        return self._reply([self.session._msg("loaded")])

    @staticmethod
    def _profile_field(request: dict[str, Any]) -> str | None:
        """The request's ``profile``: a known profile's name, or None when absent."""
        profile = request.get("profile")
        if profile is None:
            return None
        try:
            return Profile.preset(profile).name
        except ValueError:
            raise ProtocolError(
                "bad_request",
                f"profile must be one of {', '.join(Profile.names())}, got {excerpt(profile)}",
            ) from None

    def _op_stats(self, request: dict[str, Any]) -> dict[str, Any]:
        from .stats import StatsStore

        profile = self._profile_field(request)
        limit = request.get("limit", 20)
        if isinstance(limit, float) and limit.is_integer():
            limit = int(limit)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
            raise ProtocolError(
                "bad_request",
                f"limit is a whole number 1 .. 1000 (games of the history), got {excerpt(limit)}",
            )
        lang = check_lang(request.get("lang", self._lang(request)))
        with StatsStore(self.stats_path, read_only=True) as store:
            return {"stats": stats_object(store, profile, lang, limit)}

    def _op_stats_reset(self, request: dict[str, Any]) -> dict[str, Any]:
        """Delete the games recorded, of one profile (``profile``) or all (``"all": true``):
        the frontend asks the player first. ``deleted``: how many; ``stats``: as now."""
        from .stats import StatsStore

        every = request.get("all", False)
        if not isinstance(every, bool):
            raise ProtocolError("bad_request", f"all is true or false, got {excerpt(every)}")
        profile = self._profile_field(request)
        if (profile is None) == (not every):
            raise ProtocolError(
                "missing_field" if profile is None else "bad_request",
                "stats_reset needs 'profile' (one game type's games) or \"all\": true "
                "(every game), not both",
            )
        with StatsStore(self.stats_path, read_only=True) as probe:
            exists = probe.exists
        deleted = 0
        if exists:  # nothing recorded yet: nothing to delete, no file created
            try:
                store = StatsStore(self.stats_path)
            except ValueError as e:
                raise ProtocolError("io_error", f"cannot reset the statistics: {e}") from None
            with store:
                deleted = store.reset(profile)
        lang = check_lang(request.get("lang", self._lang(request)))
        with StatsStore(self.stats_path, read_only=True) as store:
            return {"deleted": deleted, "stats": stats_object(store, profile, lang)}

    def _op_howto(self, request: dict[str, Any]) -> dict[str, Any]:
        """The rules page of a game type (default: the session's, else pyramide) in a
        language (default: the session's, else English)."""
        from .howto import how_to_play

        session = self.session
        profile = request.get("profile", session.profile if session else "pyramide")
        lang = request.get("lang", session.lang if session else "en")
        return {"howto": how_to_play(profile, lang)}

    def _op_lang(self, request: dict[str, Any]) -> dict[str, Any]:
        """The language from now on; the answer's messages are those of the last action,
        said again in it (a hint shown stays shown, translated)."""
        from .translate import in_lang

        said = self._need().set_lang(self._field(request, "lang"))
        lang = self._need().lang
        return self._reply(said + [in_lang(m, lang) for m in self.shown])

    def _op_fair_hints(self, request: dict[str, Any]) -> dict[str, Any]:
        on = self._field(request, "on")
        if not isinstance(on, bool):
            raise ProtocolError("bad_request", f"on is true or false, got {excerpt(on)}")
        return self._reply(self._need().set_fair_hints(on))

    def _op_quit(self, request: dict[str, Any]) -> dict[str, Any]:
        self.done = True
        return {}


def serve(
    stdin: IO[Any] | None = None,
    stdout: IO[Any] | None = None,
    *,
    protocol: int = 1,
    **kwargs: Any,
) -> int:
    """Answer request lines from ``stdin`` on ``stdout`` until ``quit`` or the end of input
    (a closed standard input ends it at once). Nothing but protocol lines goes to
    ``stdout``, in UTF-8 whatever the locale. Lines are read as bytes, each at most
    :data:`MAX_LINE` bytes held (:func:`read_lines`): a longer one is answered ``too_long``
    and the next one is served.

    Version 1 is spoken until a ``hello`` asks for 2 (or from the start with
    ``protocol=2``); version 2 answers each request when it is ready, requests of
    different games and analyses at the same time (:mod:`.server2`)."""
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    if stdin is None or stdin.closed:
        return 0
    source: IO[Any] = getattr(stdin, "buffer", None) or stdin
    if isinstance(source.read(0), str):  # a text stream without bytes (tests)
        import io

        source = io.BytesIO(stdin.read().encode("utf-8", "surrogatepass"))
    out: IO[bytes] | None = getattr(stdout, "buffer", None)

    def write(response: str) -> None:
        if out is not None:
            stdout.flush()
            out.write(response.encode("utf-8") + b"\n")
            out.flush()
        else:
            stdout.write(response + "\n")
            stdout.flush()

    server = Server(**kwargs)
    v2: Server2 | None = None
    if protocol == 2:
        v2 = server.upgraded(write)
    try:
        for line in read_lines(source):
            if isinstance(line, int):
                refused = too_long(line)
                if v2 is not None:
                    write(v2.refuse(refused))
                else:
                    write(server.refuse(refused))
                continue
            if not line.strip():
                continue
            if v2 is not None:
                v2.submit(line)
                if v2.done:
                    break
                continue
            write(server.handle(line))
            if server.upgrade:
                v2 = server.upgraded(write)
            if server.done:
                break
    finally:
        if v2 is not None:
            v2.drain()
            v2.close()
    return 0
