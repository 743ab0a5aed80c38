"""The browser game's server (``play --web``) at the protocol level: the WebSocket speaks the
protocol of ``serve --stdio`` (the same answers as ``Server.handle``, every one checked
against the JSON Schema), games are the browser's own (unguessable ids, files refused,
autosaved and resumed), and the bounds hold (oversized and malformed messages, the rate
limit, the connection limit, a client vanishing) while the others go on being served."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys

import pytest

aiohttp = pytest.importorskip("aiohttp")

from test_protocol import VALIDATOR  # noqa: E402

from pyramid_solitaire.session.messages import message  # noqa: E402
from pyramid_solitaire.session.protocol import MAX_LINE, Server  # noqa: E402
from pyramid_solitaire.web.server import GAMES, Limits, ServerThread, make_app  # noqa: E402

from conftest import seed000_deal  # noqa: E402

CARDS = seed000_deal().to_cards()


@contextlib.contextmanager
def serving(tmp_path, **kwargs):
    app = make_app(data_dir=tmp_path / "data", stats_path=str(tmp_path / "stats.sqlite3"), **kwargs)
    with ServerThread(app) as server:
        server.app = app
        yield server


async def ask(ws, request) -> dict:
    await ws.send_str(request if isinstance(request, str) else json.dumps(request))
    msg = await ws.receive(timeout=10)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    response = json.loads(msg.data)
    VALIDATOR.validate(response)
    return response


async def attached(session, server, game=None):
    """A WebSocket attached to ``game`` (None: a new one) and the attach response."""
    ws = await session.ws_connect(server.ws_url)
    r = await ask(ws, {"id": "a", "op": "attach", "game": game})
    assert r["ok"], r
    return ws, r


def play(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def index_of(state: dict, token: str) -> int:
    return next(p["index"] for p in state["pyramid"] if p["card"] == token)


# ---- the protocol ---------------------------------------------------------------------------
def test_the_websocket_answers_as_server_handle(tmp_path):
    requests = [
        {"id": 1, "op": "hello"},
        {"id": 2, "op": "stats"},
        {"id": 3, "op": "tap", "target": 3},  # no session yet
        {"id": 4, "op": "new", "cards": CARDS, "lang": "en"},
        {"id": 5, "op": "tap", "target": 15},  # Qc: blocked
        {"id": 6, "op": "tap", "target": 26},  # Kd
        {"id": 7, "op": "drag", "from": 22, "to": 25},  # Tc + 3s
        {"id": "x", "op": "tap", "target": 21},
        {"id": 9, "op": "tap", "target": 27},  # 7c, 7s: sum_not_13
        {"id": 10, "op": "play", "move": "draw"},
        {"id": 11, "op": "undo"},
        {"id": 12, "op": "redo"},
        {"id": 13, "op": "hint"},
        {"id": 14, "op": "pause"},
        {"id": 15, "op": "resume"},
        {"id": 16, "op": "state"},
        {"id": 17, "op": "tap", "target": 99},
        {"id": 18, "op": "tap"},
        {"id": 19, "op": "fly"},
        "not json",
        "[1]",
        {"id": 20, "op": "new", "code": "PY1-N-AAAAAAS", "profile": "three-pass", "lang": "vi"},
        {"id": 21, "op": "tap", "target": 0},
        {"id": 22, "op": "restart"},
        {"id": 23, "op": "new", "code": "PY1-Q-AAAAAAA"},
    ]
    # the same answers as a server of attached connections (its ops list attach)
    reference = Server(clock=lambda: 0.0, stats_path=str(tmp_path / "other.sqlite3"), attached=True)

    async def main():
        with serving(tmp_path, clock=lambda: 0.0) as server:
            async with aiohttp.ClientSession() as session:
                ws, r = await attached(session, server)
                assert r["op"] == "attach" and not r["resumed"] and "state" not in r
                for request in requests:
                    line = request if isinstance(request, str) else json.dumps(request)
                    got = await ask(ws, line)
                    want = json.loads(reference.handle(line))
                    if request == requests[0]:  # the web refuses files: no "save"
                        assert set(want.pop("capabilities")) - set(got.pop("capabilities")) == {
                            "save"
                        }
                    assert got == want, request
                await ws.close()

    play(main())


def test_save_and_load_with_paths_are_refused(tmp_path):
    target = tmp_path / "elsewhere.json"

    async def main():
        with serving(tmp_path) as server:
            async with aiohttp.ClientSession() as session:
                ws, _ = await attached(session, server)
                await ask(ws, {"op": "new", "code": "PY1-N-AAAAAAS"})
                for op in ("save", "load"):
                    r = await ask(ws, {"id": op, "op": op, "path": str(target)})
                    assert not r["ok"] and r["error"]["code"] == "not_allowed"
                    assert r["state"]["code"] == "PY1-N-AAAAAAS"  # the game goes on
                hello = await ask(ws, {"op": "hello"})
                assert "save" not in hello["capabilities"]

    play(main())
    assert not target.exists()


def test_bad_game_ids_are_refused(tmp_path):
    async def main():
        with serving(tmp_path) as server:
            async with aiohttp.ClientSession() as session:
                ws = await session.ws_connect(server.ws_url)
                r = await ask(ws, {"id": 1, "op": "new", "code": "PY1-N-AAAAAAS"})
                assert r["error"]["code"] == "no_session"  # attach first
                assert (await ask(ws, {"op": "hello"}))["ok"]  # hello is answered
                for bad in [
                    "../../etc/passwd",
                    "a" * 21,
                    "a" * 129,
                    "x" * 30 + "/..",
                    "é" * 30,
                    12345,
                    ["x"],
                    "A" * 40,
                ]:  # the last: well formed, unknown
                    r = await ask(ws, {"id": 2, "op": "attach", "game": bad})
                    assert not r["ok"] and r["error"]["code"] == "bad_game", bad
                r = await ask(ws, {"id": 3, "op": "attach"})  # the connection goes on
                assert r["ok"] and len(r["game"]) >= 22
                assert r["defaults"] == {"profile": "pyramide", "lang": "en"}

    play(main())
    assert os.listdir(tmp_path / "data" / "games") == []


def test_oversized_and_malformed_messages_do_not_stop_the_server(tmp_path):
    async def main():
        with serving(tmp_path) as server:
            async with aiohttp.ClientSession() as session:
                other, _ = await attached(session, server)
                await ask(other, {"op": "new", "code": "PY1-N-AAAAAAS"})
                ws, _ = await attached(session, server)
                await ask(ws, {"op": "new", "code": "PY1-N-AAAAAAS"})
                r = await ask(ws, "x" * (MAX_LINE + 1))
                assert r["error"]["code"] == "too_long"
                r = await ask(ws, '{"op": "tap", "target": ')
                assert r["error"]["code"] == "bad_json" and r["state"]["code"] == "PY1-N-AAAAAAS"
                await ws.send_bytes(b"\xff\xfe not utf-8")
                assert json.loads((await ws.receive()).data)["error"]["code"] == "bad_json"
                assert (await ask(ws, {"op": "tap", "target": 22}))["state"]["score"] == 10
                # far over the limit: the connection is closed (1009), the server goes on
                await ws.send_str("y" * (4 * MAX_LINE + 10))
                msg = await ws.receive(timeout=10)
                assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
                assert ws.close_code == 1009
                r = await ask(other, {"op": "tap", "target": 22})
                assert r["state"]["score"] == 10
                fresh, _ = await attached(session, server)
                assert (await ask(fresh, {"op": "hello"}))["ok"]

    play(main())


def test_the_rate_limit_answers_rate_limited(tmp_path):
    async def main():
        with serving(tmp_path, limits=Limits(rate=20, burst=10)) as server:
            async with aiohttp.ClientSession() as session:
                ws, _ = await attached(session, server)  # one token spent
                for i in range(30):  # all at once
                    await ws.send_str(json.dumps({"id": i, "op": "hello"}))
                answers = [json.loads((await ws.receive(timeout=10)).data) for _ in range(30)]
                for a in answers:
                    VALIDATOR.validate(a)
                assert [a["id"] for a in answers] == list(range(30))
                limited = [a for a in answers if not a["ok"]]
                assert limited and {a["error"]["code"] for a in limited} == {"rate_limited"}
                assert all(a["ok"] for a in answers[:9])
                await asyncio.sleep(0.3)  # the bucket fills again
                assert (await ask(ws, {"op": "hello"}))["ok"]

    play(main())


def test_the_connection_limit(tmp_path):
    async def main():
        with serving(tmp_path, limits=Limits(connections=2)) as server:
            async with aiohttp.ClientSession() as session:
                a, _ = await attached(session, server)
                b, _ = await attached(session, server)
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(server.ws_url)
                assert refused.value.status == 503
                await a.close()
                for _ in range(100):  # the server sees the close
                    if len(server.app[GAMES].sockets) < 2:
                        break
                    await asyncio.sleep(0.01)
                c, _ = await attached(session, server)
                assert (await ask(b, {"op": "hello"}))["ok"] and (await ask(c, {"op": "hello"}))[
                    "ok"
                ]

    play(main())


# ---- games: each browser's own -------------------------------------------------------------
def test_another_clients_game_cannot_be_reached(tmp_path):
    async def main():
        with serving(tmp_path) as server:
            async with aiohttp.ClientSession() as session:
                a, ra = await attached(session, server)
                await ask(a, {"op": "new", "cards": CARDS})
                before = (await ask(a, {"op": "tap", "target": 26}))["state"]
                b, rb = await attached(session, server)
                assert rb["game"] != ra["game"] and not rb["resumed"]
                r = await ask(b, {"op": "state"})  # nothing of a's game
                assert r["error"]["code"] == "no_session" and "state" not in r
                await ask(b, {"op": "new", "cards": CARDS})
                await ask(b, {"op": "drag", "from": 22, "to": 25})
                await ask(b, {"op": "play", "move": "draw"})
                after = (await ask(a, {"op": "state"}))["state"]
                assert {**after, "seconds": 0} == {**before, "seconds": 0}
                r = await ask(b, {"op": "attach", "game": ra["game"]})  # once per connection
                assert r["error"]["code"] == "already_attached"
                hello = await ask(b, {"op": "hello"})
                assert not {"list", "games"} & set(hello["ops"])

    play(main())


def test_games_autosave_and_resume_after_a_server_restart(tmp_path):
    async def first():
        with serving(tmp_path) as server:
            async with aiohttp.ClientSession() as session:
                ws, r = await attached(session, server)
                await ask(ws, {"op": "new", "cards": CARDS, "lang": "vi"})
                await ask(ws, {"op": "tap", "target": 26})
                state = (await ask(ws, {"op": "tap", "target": 22}))["state"]
                path = tmp_path / "data" / "games" / f"{r['game']}.json"
                for _ in range(300):  # saved within save_delay of the action
                    if path.is_file() and json.loads(path.read_text())["moves"] == 1:
                        break
                    await asyncio.sleep(0.01)
                assert json.loads(path.read_text())["moves"] == 1
                # a second connection (another tab) shares the game
                tab, r2 = await attached(session, server, r["game"])
                assert r2["resumed"] and r2["state"]["selection"]["card"] == "Tc"
                await tab.close()
                await ws.close()
                for _ in range(200):  # both gone: out of memory
                    if r["game"] not in server.app[GAMES].games:
                        break
                    await asyncio.sleep(0.01)
                assert r["game"] not in server.app[GAMES].games
                return r["game"], state

    async def second(game, state):
        with serving(tmp_path) as server:
            async with aiohttp.ClientSession() as session:
                ws, r = await attached(session, server, game)
                assert r["resumed"] and r["game"] == game
                for key in ("pyramid", "score", "moves", "selection", "waste", "stock", "code"):
                    assert r["state"][key] == state[key], key
                r = await ask(ws, {"op": "tap", "target": 0})
                assert r["messages"][0]["text"] == message("blocked", "vi").text
                r = await ask(ws, {"op": "tap", "target": 25})
                assert r["state"]["score"] == 30

    game, state = play(first())
    play(second(game, state))


def test_statistics_go_through_the_session(tmp_path):
    async def main():
        with serving(tmp_path) as server:
            async with aiohttp.ClientSession() as session:
                ws, _ = await attached(session, server)
                await ask(ws, {"op": "new", "cards": CARDS})
                await ask(ws, {"op": "tap", "target": 26})
                await ask(ws, {"op": "new", "code": "PY1-N-AAAAAAS"})  # abandons it
                await ask(ws, {"op": "tap", "target": 22})
                await ask(ws, {"op": "restart"})  # and this one
                r = await ask(ws, {"op": "stats", "profile": "pyramide"})
                assert r["stats"]["games"] == 2 and r["stats"]["wins"] == 0

    play(main())


def test_a_vanished_client_leaves_the_others_served(tmp_path):
    async def main():
        with serving(tmp_path) as server:
            async with aiohttp.ClientSession() as session:
                other, _ = await attached(session, server)
                await ask(other, {"op": "new", "code": "PY1-N-AAAAAAS"})
                loop = asyncio.get_running_loop()
                game = await loop.run_in_executor(None, vanish, server.port)
                for _ in range(300):
                    if game not in server.app[GAMES].games:
                        break
                    await asyncio.sleep(0.01)
                assert game not in server.app[GAMES].games  # dropped from memory
                assert (tmp_path / "data" / "games" / f"{game}.json").is_file()  # kept
                r = await ask(other, {"op": "tap", "target": 22})
                assert r["state"]["score"] == 10

    play(main())


def vanish(port: int) -> str:
    """A raw WebSocket client that attaches, starts a game, sends a request and drops the
    TCP connection (a reset, no closing handshake) before reading the answer."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    buf = b""
    while b"\r\n\r\n" not in buf:
        buf += sock.recv(4096)
    head, buf = buf.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 101"), head

    def send(request: dict) -> None:
        data, mask = json.dumps(request).encode(), os.urandom(4)
        assert len(data) < 126
        sock.sendall(
            bytes([0x81, 0x80 | len(data)])
            + mask
            + bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        )

    def receive() -> dict:  # one unmasked text frame from the server
        nonlocal buf
        while True:
            if len(buf) >= 2:
                n, at = buf[1] & 0x7F, 2
                if n == 126:
                    n, at = int.from_bytes(buf[2:4], "big"), 4
                elif n == 127:
                    n, at = int.from_bytes(buf[2:10], "big"), 10
                if len(buf) >= at + n:
                    data, buf = buf[at : at + n], buf[at + n :]
                    return json.loads(data)
            buf += sock.recv(65536)

    send({"op": "attach"})
    game = receive()["game"]
    send({"op": "new", "code": "PY1-N-AAAAAAS"})
    assert receive()["ok"]
    send({"op": "hint"})
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()  # RST, mid-request
    return game


def test_quit_ends_the_connection_not_the_game(tmp_path):
    async def main():
        with serving(tmp_path) as server:
            async with aiohttp.ClientSession() as session:
                ws, r = await attached(session, server)
                await ask(ws, {"op": "new", "code": "PY1-N-AAAAAAS"})
                assert (await ask(ws, {"id": 9, "op": "quit"}))["id"] == 9
                assert (await ws.receive(timeout=10)).type in (
                    aiohttp.WSMsgType.CLOSE,
                    aiohttp.WSMsgType.CLOSED,
                )
                again, r2 = await attached(session, server, r["game"])
                assert r2["resumed"] and (await ask(again, {"op": "tap", "target": 22}))["ok"]
                assert (await ask(again, {"op": "state"}))["state"]["score"] == 10

    play(main())


# ---- HTTP: the page, its headers, the origin ------------------------------------------------
def test_the_page_and_what_is_refused(tmp_path):
    async def main():
        with serving(tmp_path) as server:
            async with aiohttp.ClientSession() as session:
                async with session.get(server.url) as r:
                    assert r.status == 200 and "app.js" in await r.text()
                    assert "default-src 'self'" in r.headers["Content-Security-Policy"]
                for name in ("app.js", "style.css"):
                    async with session.get(server.url + "static/" + name) as r:
                        assert r.status == 200
                for path in ("static/", "static/../server.py", "static/%2e%2e/server.py", "games"):
                    async with session.get(server.url + path) as r:
                        assert r.status in (403, 404), path
                async with session.get(server.ws_url.replace("ws://", "http://")) as r:
                    assert r.status == 400  # not a WebSocket request
                assert not server.app[GAMES].sockets
                async with session.get(server.url, headers={"Host": "evil.example"}) as r:
                    assert r.status == 421  # DNS rebinding
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(
                        server.ws_url, headers={"Origin": "http://evil.example"}
                    )
                assert refused.value.status == 403
                ws = await session.ws_connect(server.ws_url, headers={"Origin": server.url[:-1]})
                assert (await ask(ws, {"op": "hello"}))["ok"]

    play(main())


@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no SIGINT for one process")
def test_play_web_prints_the_address_and_stops_on_ctrl_c(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pyramid_solitaire",
            "play",
            "--web",
            "--no-browser",
            "--save",
            str(tmp_path / "web"),
            "--db",
            str(tmp_path / "stats.sqlite3"),
            "--lang",
            "vi",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")

        async def main():
            async with aiohttp.ClientSession() as session:
                async with session.get(url) as r:
                    assert r.status == 200
                ws = await session.ws_connect(url.replace("http", "ws") + "ws")
                r = await ask(ws, {"op": "attach"})
                assert r["defaults"]["lang"] == "vi"
                await ask(ws, {"op": "new", "code": "PY1-N-AAAAAAS"})
                await ws.close()
                return r["game"]

        game = play(main())
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert (tmp_path / "web" / "games" / f"{game}.json").is_file()
