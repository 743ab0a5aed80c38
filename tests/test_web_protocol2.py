"""Protocol 2 over the browser game's WebSocket: a connection whose first request is hello
with protocol 2 speaks version 2 (every answer checked against its schema), its games are
the client's (export on one connection, import on another), its analyses send progress and
end with the connection, and the server's bounds hold (the rate limit, quit)."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest

aiohttp = pytest.importorskip("aiohttp")

from test_protocol2 import REQUEST, VALIDATOR, _long_analysis  # noqa: E402
from test_web import serving  # noqa: E402

from pyramid_solitaire.web.server import GAMES, Limits  # noqa: E402


async def send(ws, request: dict) -> None:
    REQUEST.validate(request)
    await ws.send_str(json.dumps(request))


async def answer(ws, rid) -> tuple[dict, list[dict]]:
    """The last line of request ``rid`` (its answer) and every line read before it."""
    seen = []
    while True:
        msg = await ws.receive(timeout=30)
        assert msg.type == aiohttp.WSMsgType.TEXT, msg
        line = json.loads(msg.data)
        VALIDATOR.validate(line)
        seen.append(line)
        if line["id"] == rid and "progress" not in line and "partial" not in line:
            return line, seen


async def ask(ws, request: dict) -> dict:
    await send(ws, request)
    return (await answer(ws, request["id"]))[0]


def play(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


async def version2(session, server):
    ws = await session.ws_connect(server.ws_url)
    hello = await ask(ws, {"id": 0, "op": "hello", "protocol": 2})
    assert hello["ok"] and hello["protocol"] == 2, hello
    return ws, hello


def test_hello_2_turns_the_websocket_to_protocol_2_and_games_go_between_connections(tmp_path):
    with serving(tmp_path) as server:

        async def main():
            async with aiohttp.ClientSession() as session:
                ws, hello = await version2(session, server)
                assert "files" not in hello["capabilities"]  # the server keeps no file of yours
                new = await ask(ws, {"id": 1, "op": "new", "code": "PY1-M-AAAAABS"})
                assert new["ok"] and new["game"] == "g1", new
                tap = await ask(ws, {"id": 2, "op": "play", "game": "g1", "move": "draw"})
                assert tap["ok"] and tap["events"], tap  # what the move did
                saved = await ask(ws, {"id": 3, "op": "save", "game": "g1", "path": "x.json"})
                assert saved["error"]["code"] == "not_allowed", saved
                won = await ask(
                    ws, {"id": 4, "op": "analyze", "game": "g1", "queries": ["winnable"]}
                )
                assert won["ok"] and won["result"]["winnable"] is True, won
                doc = (await ask(ws, {"id": 5, "op": "export", "game": "g1"}))["save"]
                await ws.close()

                other, _ = await version2(session, server)  # a new connection: its own games
                gone = await ask(other, {"id": 6, "op": "state", "game": "g1"})
                assert gone["error"]["code"] == "unknown_game", gone
                back = await ask(other, {"id": 7, "op": "import", "save": doc})
                assert back["ok"], back
                assert back["state"]["history"] == ["draw"]  # the game as it was left
                bye = await ask(other, {"id": 8, "op": "quit"})
                assert bye["ok"]
                closed = await other.receive(timeout=10)
                assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)

        play(main())


def test_a_protocol_1_connection_stays_version_1(tmp_path):
    """hello with protocol 2 after attach is refused: a connection speaks one version."""
    with serving(tmp_path) as server:

        async def main():
            async with aiohttp.ClientSession() as session:
                ws = await session.ws_connect(server.ws_url)
                await ws.send_str(json.dumps({"id": "a", "op": "attach"}))
                assert json.loads((await ws.receive(timeout=10)).data)["ok"]
                await ws.send_str(json.dumps({"id": "h", "op": "hello", "protocol": 2}))
                refused = json.loads((await ws.receive(timeout=10)).data)
                assert refused["ok"] is False and refused["error"]["code"] == "bad_request"

        play(main())


def _analysis_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("pyramid-analysis")]


def test_an_analysis_sends_progress_and_ends_with_its_connection(tmp_path):
    before = set(_analysis_threads())
    with serving(tmp_path) as server:

        async def main():
            async with aiohttp.ClientSession() as session:
                ws, _ = await version2(session, server)
                await send(ws, {"id": "long", **_long_analysis()})
                while True:  # its first progress line: the search is under way
                    line = json.loads((await ws.receive(timeout=30)).data)
                    VALIDATOR.validate(line)
                    if "progress" in line:
                        break
                assert set(_analysis_threads()) - before  # its threads, running
                await ws.close()  # the client goes away mid-search

        play(main())
        deadline = time.monotonic() + 30  # (a wait for the server to see it, not a speed)
        while server.app[GAMES].protocol2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not server.app[GAMES].protocol2, "the connection's server is still open"
        # ended with it: stopped, not left to finish (it has seconds of work left)
        assert not set(_analysis_threads()) - before, "an analysis outlived its connection"


def test_the_rate_limit_answers_rate_limited_in_version_2(tmp_path):
    with serving(tmp_path, limits=Limits(rate=0.001, burst=3)) as server:

        async def main():
            async with aiohttp.ClientSession() as session:
                ws, _ = await version2(session, server)  # (the first of the burst)
                for i in (1, 2):
                    assert (await ask(ws, {"id": i, "op": "games"}))["ok"]
                over = await ask(ws, {"id": 3, "op": "games"})
                assert over["ok"] is False and over["error"]["code"] == "rate_limited", over
                assert "at most" in over["error"]["message"]

        play(main())
