"""The browser game's server (``pyramid-solitaire play --web``): aiohttp serves one static
page (``static/``), its words in every language (``/labels.js``, from the session layer's
labels) and a WebSocket at ``/ws`` that speaks the JSON protocol of
``serve --stdio`` (docs/protocol.md), one :class:`~pyramid_solitaire.session.protocol.Server`
per game. The server holds no game rule: it forwards each request line to the game's
``Server.handle`` and sends back the response line.

A connection's first request is ``{"op": "attach", "game": ID}`` (no ``game``: a new game;
its id comes back): the game is the browser's, named by an unguessable id that the page keeps
in its ``localStorage``. Each game autosaves to ``<data_dir>/games/<id>.json`` (atomically)
within a second of each request, once for all the requests of that second (many
clients playing fast do not cost a disk write each), when its last connection closes and
when the server stops; it is resumed from there after a page reload or a server restart. A
save that fails is told to the game's tabs (``not_saved`` in the state) and tried again; a
file that does not load is put aside (``.bad``) and the game goes on with a new deal.
Bounds: a request over 64 KiB gets ``too_long`` (a message over 256 KiB closes its
connection), a token bucket per connection (30 requests a second, bursts of 60: over it,
``rate_limited``), at most 1,000 connections, games dropped from memory when their last
connection closes and their last save succeeded (the file stays).

A connection whose first request is ``{"op": "hello", "protocol": 2}`` speaks protocol 2
from then on (docs/protocol.md, "Version 2"), as ``serve --stdio`` does after the same
hello: a :class:`~pyramid_solitaire.session.server2.Server2` of its own, its games, events
and analyses, answers sent as each is ready. Its games are the client's: they live as long
as the connection (``export`` keeps one, ``import`` brings it back), the server keeps no
file for it (``save`` and ``load`` are ``not_allowed``; ``record`` writes the server's
statistics file), and closing the connection cancels its running analyses. The bounds are
the same (the rate limit answers ``rate_limited``).

>>> app = make_app(data_dir=__import__("tempfile").mkdtemp())
>>> sorted(r.resource.canonical for r in app.router.routes() if r.method == "GET")
['/', '/labels.js', '/static', '/ws']
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import re
import secrets
import socket
import sys
import threading
import time
import traceback
import webbrowser
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError

from ..inputs.jsonout import dumps
from ..model.profiles import Profile
from ..session.labels import labels
from ..session.messages import LANGUAGES, check_lang
from ..session.protocol import (
    ATTACH,
    MAX_LINE,
    OPS,
    ProtocolError,
    Server,
    parse_request,
    unknown_op,
)
from ..session.saves import CannotRead
from ..session.server2 import Server2
from ..session.session import Session
from ..session.stats import StatsStore, default_path

STATIC = Path(__file__).resolve().parent / "static"
#: A game id: what ``secrets.token_urlsafe`` gives (the server makes them, 32 characters);
#: it becomes part of a file name, so nothing else is accepted.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{22,128}")
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}
BACKLOG = 1024  # connections waiting to be accepted (a page load opens a few)

#: Every response of the page: nothing loaded from elsewhere, no framing, no referrer.
#: /labels.js: ``const LABELS = {lang: {key: text}}``, what the page's words are read from
LABELS_JS = "const LABELS = " + dumps({lang: labels(lang) for lang in LANGUAGES}) + ";\n"

HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}


@dataclass(frozen=True)
class Limits:
    """The server's bounds (tests make them smaller)."""

    message_bytes: int = MAX_LINE  # a longer request is answered too_long
    frame_bytes: int = 4 * MAX_LINE  # a longer WebSocket message closes its connection
    rate: float = 30.0  # requests a second per connection (token bucket)
    burst: int = 60  # the bucket's size
    connections: int = 1000  # WebSockets open at once
    workers: int = 4  # threads running the sessions' work
    heartbeat: float | None = 30.0  # ping period; a peer that stops answering is dropped
    save_delay: float = 1.0  # seconds from a request to its game's autosave
    save_retry: float = 5.0  # seconds between attempts while saving fails


def default_data_dir() -> Path:
    """``web`` in the user's data directory (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("pyramid-solitaire", appauthor=False)) / "web"


class _Recorder(StatsStore):
    """The ``stats=`` of every session: it opens the statistics file for each record, since
    sessions run in worker threads and an SQLite connection belongs to the thread that
    opened it."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:  # no connection kept
        self.path = Path(default_path() if path is None else path)

    def record(
        self, session: Any, result: str | None = None, difficulty: float | None = None
    ) -> int:
        with StatsStore(self.path) as store:
            return cast(int, store.record(session, result, difficulty))

    def close(self) -> None:
        pass


class _Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.last = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class _Game:
    """A game in memory: its protocol server (one session at a time), its file, its lock
    (one request at a time) and how many connections are attached to it."""

    def __init__(self, gid: str, path: Path, server: Server) -> None:
        self.id, self.path, self.server = gid, path, server
        self.lock = asyncio.Lock()
        self.connections = 0
        self.sockets: set[Any] = set()  # its connections (each gets the others' changes)
        self.loaded = False
        self.flush: asyncio.TimerHandle | None = None  # the autosave to come


def _error(rid: Any, code: str, message: str) -> str:
    return dumps(
        {"id": rid, "ok": False, "error": {"code": code, "message": message}, "messages": []}
    )


def _request_id(line: str | bytes) -> Any:
    """The id of a request line, when it has a valid one (for error responses)."""
    try:
        return parse_request(line)[1]
    except ProtocolError:
        return None


def _asks_protocol2(line: str | bytes) -> bool:
    """Whether a connection's first request is hello with protocol 2."""
    try:
        request = parse_request(line)[0]
    except ProtocolError:
        return False
    return (
        request.get("op") == "hello"
        and type(request.get("protocol")) is int
        and (request["protocol"] == 2)
    )


_HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}))(?::([0-9]{1,5}))?")


def host_name(header: str) -> str | None:
    """The name or address of a Host header (an IPv6 address without its brackets), None
    when the header is not one (not ASCII, a port outside 1..65535, stray characters):
    checked here before anything parses it."""
    m = _HOST.fullmatch(header)
    if m is None or (m.group(2) is not None and not 0 < int(m.group(2)) <= 65535):
        return None
    name = m.group(1)
    if name.startswith("["):
        try:
            ipaddress.IPv6Address(name[1:-1])
        except ValueError:
            return None
        return name[1:-1]
    return name.lower()


def _aside(path: Path) -> Path:
    """Move ``path`` to ``<name>.bad`` (``.bad.2``, ``.bad.3``, ... when that is taken:
    nothing put aside is ever replaced); the new path."""
    for n in range(1, 10_000):
        kept = path.with_name(path.name + (".bad" if n == 1 else f".bad.{n}"))
        try:
            os.link(path, kept)  # fails when kept exists: never over another
        except FileExistsError:
            continue
        except OSError:  # no hard links here: rename when free
            if kept.exists():
                continue
            os.replace(path, kept)
            return kept
        os.unlink(path)
        return kept
    raise OSError(f"too many files put aside beside {path}")


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class WebGames:
    """The application's state: the games in memory, the open WebSockets, the workers."""

    def __init__(
        self,
        data_dir: str | os.PathLike[str] | None,
        stats_path: str | None,
        profile: str,
        lang: str,
        host: str,
        limits: Limits,
        clock: Callable[[], float] | None,
    ) -> None:
        self.games_dir = Path(data_dir if data_dir is not None else default_data_dir()) / "games"
        self.games_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.stats_path = stats_path
        self.recorder = _Recorder(stats_path)
        self.defaults = {"profile": Profile.preset(profile).name, "lang": check_lang(lang)}
        self.loopback = _is_loopback(host)
        self.limits = limits
        self.clock = clock
        self.games: dict[str, _Game] = {}
        self.sockets: set[web.WebSocketResponse] = set()
        self.protocol2: set[Server2] = set()  # the servers of the protocol 2 connections
        self.executor: ThreadPoolExecutor | None = None
        self.saver: ThreadPoolExecutor | None = None
        self.saving: set[asyncio.Task[Any]] = set()
        self.stopping = False

    # ---- the application's life ---------------------------------------------------------------
    async def startup(self, app: web.Application) -> None:
        self.executor = ThreadPoolExecutor(self.limits.workers, thread_name_prefix="pyramid-web")
        # Saves wait on the disk (fsync): threads of their own, so requests never queue
        # behind them.
        self.saver = ThreadPoolExecutor(2, thread_name_prefix="pyramid-web-save")

    async def shutdown(self, app: web.Application) -> None:
        self.stopping = True
        for ws in list(self.sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")

    async def cleanup(self, app: web.Application) -> None:
        for pool in (self.executor, self.saver):
            if pool is not None:
                pool.shutdown(wait=True)

    async def _work(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    # ---- HTTP ----------------------------------------------------------------------------------
    @web.middleware
    async def check_host(
        self, request: web.Request, handler: Callable[..., Any]
    ) -> web.StreamResponse:
        """Bound to this machine, only this machine's names are served (a page of another
        site reaching 127.0.0.1 through DNS rebinding is refused)."""
        host = host_name(request.headers.get("Host", ""))
        if host is None:
            return web.Response(
                status=400,
                text="a malformed Host header: a name or an address, and a port 1..65535",
            )
        if self.loopback and not _is_loopback(host):  # a loopback name or address
            return web.Response(status=421, text="this server answers only to localhost")
        return cast(web.StreamResponse, await handler(request))

    @staticmethod
    async def add_headers(request: web.Request, response: web.StreamResponse) -> None:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def labels(self, request: web.Request) -> web.StreamResponse:
        """The page's words in every language, from the session layer's one list."""
        return web.Response(text=LABELS_JS, content_type="application/javascript", charset="utf-8")

    # ---- the WebSocket -------------------------------------------------------------------------
    async def websocket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and origin not in (
            f"http://{request.host}",
            f"https://{request.host}",
        ):
            return web.Response(status=403, text="a WebSocket from another site is refused")
        if len(self.sockets) >= self.limits.connections:
            return web.Response(
                status=503, text="too many connections", headers={"Retry-After": "5"}
            )
        ws = web.WebSocketResponse(
            max_msg_size=self.limits.frame_bytes, compress=False, heartbeat=self.limits.heartbeat
        )
        self.sockets.add(ws)  # counted before the handshake's await
        try:
            await ws.prepare(request)
        except BaseException:  # not a WebSocket request (400)
            self.sockets.discard(ws)
            raise
        bucket = _Bucket(self.limits.rate, self.limits.burst)
        game: _Game | None = None
        try:
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break  # an error (too big, bad frame)
                line = msg.data
                if not bucket.take():
                    rid = _request_id(line) if len(line) <= self.limits.message_bytes else None
                    out = _error(rid, "rate_limited", str(self._rate_limited()))
                elif game is None and _asks_protocol2(line):
                    await self._serve2(ws, line, bucket)
                    break
                elif game is None:
                    game, out = await self._attach(line)
                    if game is not None:
                        game.sockets.add(ws)
                else:
                    out = await self._handle(game, line)
                    if len(game.sockets) > 1:
                        await self._push(game, ws, out)
                await ws.send_str(out)
                if game is not None and game.server.done:  # quit: this connection ends
                    game.server.done = False
                    break
        except ConnectionError:
            pass  # the client went away
        except Exception:  # a bug: this connection only
            traceback.print_exc(file=sys.stderr)
            await ws.close(code=WSCloseCode.INTERNAL_ERROR)
        finally:
            self.sockets.discard(ws)
            if game is not None:
                game.sockets.discard(ws)
                await self._leave(game)
        if not ws.closed:
            await ws.close()
        return ws

    async def _serve2(self, ws: web.WebSocketResponse, hello: str | bytes, bucket: _Bucket) -> None:
        """The rest of a connection that said hello with protocol 2: a server of its own,
        each request started in turn (a game's requests keep their order) and each line
        sent when it is ready, progress lines too. Its games and analyses end with it."""
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[str | None] = asyncio.Queue()

        def write(line: str) -> None:  # (on the server's threads)
            loop.call_soon_threadsafe(lines.put_nowait, line)

        async def send() -> None:
            while (line := await lines.get()) is not None:
                if not ws.closed:
                    await ws.send_str(line)

        server = Server2(self.clock, self.stats_path, files=False, write=write, threads=2)
        sender = asyncio.create_task(send())
        self.protocol2.add(server)
        try:
            await self._work(server.submit, hello)
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break  # an error (too big, bad frame)
                if not bucket.take():
                    lines.put_nowait(server.refuse(self._rate_limited(), _request_id(msg.data)))
                    continue
                await self._work(server.submit, msg.data)
                if server.done:  # quit: answered, and this connection ends
                    break
        finally:
            await self._work(server.close)  # its analyses cancelled, its threads ended
            self.protocol2.discard(server)
            lines.put_nowait(None)  # (after every line its threads wrote)
            with contextlib.suppress(ConnectionError):
                await sender

    def _rate_limited(self) -> ProtocolError:
        return ProtocolError(
            "rate_limited",
            f"at most {self.limits.rate:g} requests a second (bursts of {self.limits.burst})",
        )

    async def _handle(self, game: _Game, line: str | bytes) -> str:
        async with game.lock:
            out = await self._work(game.server.handle, line)
        if game.flush is None and game.server.session is not None:
            loop = asyncio.get_running_loop()
            game.flush = loop.call_later(self.limits.save_delay, self._start_autosave, game)
        return cast(str, out)

    @classmethod
    async def _push(cls, game: _Game, origin: Any, out: str) -> None:
        """The game's other connections (tabs) get its new state, so that none of them acts
        on a table that has changed."""
        response = json.loads(out)
        if "state" in response:
            await cls._send_state(game, origin, response["state"], [])

    async def _push_state(self, game: _Game, messages: list[dict[str, Any]] | None = None) -> None:
        """All of the game's connections get its state (and the server's own news)."""
        await self._send_state(game, None, game.server.state(), messages or [])

    @staticmethod
    async def _send_state(
        game: _Game, origin: Any, state: dict[str, Any], messages: list[dict[str, Any]]
    ) -> None:
        push = dumps(
            {
                "id": None,
                "ok": True,
                "op": "state",
                "pushed": True,
                "messages": messages,
                "state": state,
            }
        )
        for other in list(game.sockets):
            if other is not origin and not other.closed:
                try:
                    await other.send_str(push)
                except (ConnectionError, RuntimeError):
                    pass  # that one is going: its own loop ends it

    def _start_autosave(self, game: _Game) -> None:
        task = asyncio.get_running_loop().create_task(self._autosave(game))
        self.saving.add(task)  # kept until done (the loop's refs are weak)
        task.add_done_callback(self.saving.discard)

    async def _autosave(self, game: _Game) -> None:
        """Save the game (after the requests of the last save_delay seconds); a game whose
        tabs have all closed leaves memory once it is saved."""
        game.flush = None
        async with game.lock:
            await self._save(game)
            self._drop_if_done(game)

    def _drop_if_done(self, game: _Game) -> None:
        """Forget a game with no connection whose last save succeeded (a game that cannot
        be saved stays in memory, still tried, so that a reload finds it)."""
        if (
            game.connections == 0
            and game.server.save_error is None
            and game.flush is None
            and self.games.get(game.id) is game
        ):
            del self.games[game.id]

    async def _save(self, game: _Game) -> None:
        """Save the game. When it fails (a full disk, a folder gone read-only), every tab
        of the game is told at once (``not_saved`` in the state) and the save is tried
        again every ``save_retry`` seconds (with or without tabs: a game that cannot be
        saved stays in memory); when one then succeeds, the tabs are told that too."""
        session = game.server.session
        if session is None:
            return
        try:
            await asyncio.get_running_loop().run_in_executor(self.saver, session.save, game.path)
        except (OSError, RuntimeError) as e:  # disk full; workers already stopped
            why = getattr(e, "strerror", None) or str(e) or type(e).__name__
            print(
                f"pyramid-solitaire web: cannot save game {game.id[:6]}...: {why}", file=sys.stderr
            )
            told = game.server.save_error == why
            game.server.save_error = why
            if not told:
                await self._push_state(game)
            if game.flush is None and not self.stopping:  # with or without tabs
                game.flush = asyncio.get_running_loop().call_later(
                    self.limits.save_retry, self._start_autosave, game
                )
            return
        if game.server.save_error is not None:
            game.server.save_error = None
            await self._push_state(game, [session._msg("saved").to_dict()])

    async def _attach(self, line: str | bytes) -> tuple[_Game | None, str]:
        """The first request of a connection: ``attach`` (``hello`` is answered too)."""
        if len(line) > self.limits.message_bytes:
            return None, _error(
                None, "too_long", f"a request is at most {self.limits.message_bytes:,} bytes"
            )
        try:
            request, rid = parse_request(line)
        except ProtocolError as e:
            return None, _error(None, e.code, str(e))
        op = request.get("op")
        if op == "hello":
            return None, Server(files=False, attached=True).handle(line)
        if op != ATTACH:
            if op in OPS:
                return None, _error(
                    rid,
                    "no_session",
                    'send {"op": "attach"} first (with "game": the id of your game, if any)',
                )
            return None, _error(rid, "unknown_op", unknown_op(op, (ATTACH,) + OPS))
        gid = request.get("game")
        if gid is None:
            gid = secrets.token_urlsafe(24)
        elif not isinstance(gid, str) or not GAME_ID.fullmatch(gid):
            return None, _error(
                rid,
                "bad_game",
                "a game id is 22 to 128 letters, digits, - or _, as the server gave it",
            )
        elif gid not in self.games and not self._path(gid).is_file():
            return None, _error(
                rid, "bad_game", "no such game: attach without a game id to start one"
            )
        game = self.games.get(gid)
        if game is None:
            game = self.games[gid] = _Game(
                gid,
                self._path(gid),
                Server(
                    self.clock,
                    self.stats_path,
                    files=False,
                    session_stats=self.recorder,
                    attached=True,
                ),
            )
        game.connections += 1
        messages: list[dict[str, Any]] = []
        try:
            async with game.lock:
                if not game.loaded:
                    messages = await self._work(self._resume, game)
                session = game.server.session
                state = None if session is None else await self._work(game.server.state)
        except CannotRead as e:  # the file stays; the page may try again
            await self._leave(game)
            return None, _error(rid, "io_error", f"your game cannot be read now ({e}); try again")
        except BaseException:
            await self._leave(game)
            raise
        response: dict[str, Any] = {
            "id": rid,
            "ok": True,
            "op": "attach",
            "game": gid,
            "resumed": session is not None and not messages,
            "defaults": self.defaults,
            "messages": messages,
        }
        if state is not None:
            response["state"] = state
        return game, dumps(response)

    def _path(self, gid: str) -> Path:
        return self.games_dir / f"{gid}.json"

    def _resume(self, game: _Game) -> list[dict[str, Any]]:
        """Load the game's file (in a worker thread). A file that does not load, for any
        reason, is put aside as ``<id>.json.bad`` (never deleted) and the game goes on with
        a new deal, whose messages say so."""
        game.loaded = True
        if not game.path.is_file():
            return []
        try:
            session = Session.load(game.path, clock=self.clock, stats=self.recorder)
        except CannotRead:  # not readable now (no permission, too many files):
            game.loaded = False  # the file stays where it is; the attach fails
            raise
        except Exception as e:  # ValueError for a bad save; anything else too
            why = " ".join(str(e).split()) or type(e).__name__
            kept = _aside(game.path)
            print(f"pyramid-solitaire web: {why}; kept as {kept.name}", file=sys.stderr)
            session = Session.new_random(
                self.defaults["profile"], clock=self.clock, lang=self.defaults["lang"]
            )
            session.stats = self.recorder
            game.server.session = session
            reason = why.split(": ", 1)[-1] if why.startswith(str(game.path)) else why
            reason = reason if len(reason) <= 120 else reason[:110] + "..."
            return [session._msg("save_unreadable", why=reason, kept=kept.name).to_dict()]
        game.server.session = session
        return []

    async def _leave(self, game: _Game) -> None:
        """A connection of ``game`` closed: with none left, save it (its clock) and drop it."""
        game.connections -= 1
        if game.connections:
            return
        async with game.lock:
            if game.connections == 0:
                if game.flush is not None:
                    game.flush.cancel()
                    game.flush = None
                await self._save(game)
            self._drop_if_done(game)


#: The application's :class:`WebGames` (``app[GAMES]``).
GAMES = web.AppKey("games", WebGames)


class _BadRequestsInOneLine(logging.Filter):
    """aiohttp logs a request it cannot parse (a URL or a header over its 8,190-byte limit, a
    byte that is no text in the path) with its whole traceback, though it answers 400 and
    nothing is wrong with the server: such a record becomes one line naming the client and
    the problem."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError) and str(record.msg).startswith(
            "Error handling request"
        ):
            remote = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            problem = " ".join(str(getattr(exc, "message", "") or exc).split())[:200]
            record.msg, record.args = "bad request from %s: %s", (remote, problem)
            record.exc_info = record.exc_text = None
        return True


_ONE_LINE = _BadRequestsInOneLine()


def _quiet_bad_requests() -> None:
    logger = logging.getLogger("aiohttp.server")
    if _ONE_LINE not in logger.filters:
        logger.addFilter(_ONE_LINE)


def make_app(
    data_dir: str | os.PathLike[str] | None = None,
    stats_path: str | None = None,
    profile: str = "pyramide",
    lang: str = "en",
    *,
    host: str = "127.0.0.1",
    limits: Limits = Limits(),
    clock: Callable[[], float] | None = None,
) -> web.Application:
    """The aiohttp application: the page at ``/``, its files under ``/static/``, the
    WebSocket at ``/ws``. ``data_dir``: where the games are kept (default
    :func:`default_data_dir`); ``stats_path``: the statistics file (default: the user's);
    ``profile``, ``lang``: the page's defaults; ``host``: the address it will listen on (on
    a loopback address only local host names are answered); ``clock``: the sessions' clock
    (tests pass a fake one)."""
    games = WebGames(data_dir, stats_path, profile, lang, host, limits, clock)
    _quiet_bad_requests()
    app = web.Application(middlewares=[games.check_host], client_max_size=MAX_LINE)
    app[GAMES] = games
    app.router.add_get("/", games.index)
    app.router.add_get("/ws", games.websocket)
    app.router.add_get("/labels.js", games.labels)
    app.router.add_static("/static", STATIC, show_index=False, follow_symlinks=False)
    app.on_startup.append(games.startup)
    app.on_shutdown.append(games.shutdown)
    app.on_cleanup.append(games.cleanup)
    app.on_response_prepare.append(games.add_headers)
    return app


def bind(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: a free port)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        if os.name == "posix":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except BaseException:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def url_of(sock: socket.socket) -> str:
    """The page's address for a socket from :func:`bind`."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


class ServerThread:
    """An application served in a thread with its own asyncio loop, on a free port unless
    told otherwise (for tests and benchmarks)::

        with ServerThread(make_app(data_dir=tmp)) as server:
            server.url       # http://127.0.0.1:PORT/
    """

    def __init__(self, app: web.Application, host: str = "127.0.0.1", port: int = 0) -> None:
        self.app = app
        self.sock = bind(host, port)
        self.url = url_of(self.sock)
        self.port = self.sock.getsockname()[1]
        self.ws_url = self.url.replace("http://", "ws://") + "ws"
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, name="pyramid-web-server", daemon=True)

    def start(self) -> ServerThread:
        self._thread.start()
        self._ready.wait()
        if self._failed is not None:
            raise self._failed
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join()

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as e:  # reported by start()
            self._failed = e
            self._ready.set()

    async def _serve(self) -> None:
        runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=2.0)
        await runner.setup()
        try:
            await web.SockSite(runner, self.sock, backlog=BACKLOG).start()
            self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
            self._ready.set()
            await self._stop.wait()
        finally:
            await runner.cleanup()


def run(
    host: str = "127.0.0.1",
    port: int = 0,
    profile: str = "pyramide",
    lang: str = "en",
    data_dir: str | os.PathLike[str] | None = None,
    stats_path: str | None = None,
    open_browser: bool = True,
    code: str | None = None,
) -> int:
    """Serve the browser game until Ctrl-C: the page's address goes to standard output, and
    to the user's browser unless ``open_browser`` is false. ``code``: a deal the page opens
    (its address ends in ``#deal=CODE``; a game under way is left only if the player says
    so)."""
    app = make_app(data_dir, stats_path, profile, lang, host=host)
    sock = bind(host, port)
    url = url_of(sock) + (f"#deal={quote(code.strip(), safe='-')}" if code else "")
    print(url, flush=True)
    print(
        "pyramid-solitaire: the browser game is served there; Ctrl-C stops it",
        file=sys.stderr,
        flush=True,
    )
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    web.run_app(app, sock=sock, print=None, access_log=None, shutdown_timeout=5.0, backlog=BACKLOG)
    return 0
