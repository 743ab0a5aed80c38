"""The browser game's server under failure: an autosave that cannot be written is told to
every tab at once and tried again; a game file that does not load, for any reason, is put
aside and the player gets a new deal with a message (never a dead id); a malformed Host
header is a 400; the reader is the protocol's (nesting, bad UTF-8, ids)."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest

aiohttp = pytest.importorskip("aiohttp")

from test_web import ask, attached, play, serving  # noqa: E402

from pyramid_solitaire.session.session import Session  # noqa: E402
from pyramid_solitaire.web.server import GAMES, Limits, host_name  # noqa: E402

FAST = Limits(save_delay=0.05, save_retry=0.1)


async def pushed(ws, timeout=10) -> dict:
    """The next message the server sends unasked."""
    msg = await ws.receive(timeout=timeout)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    r = json.loads(msg.data)
    assert r["pushed"] and r["id"] is None, r
    return r


def test_a_failing_autosave_is_told_at_once_and_retried(tmp_path):
    async def main():
        with serving(tmp_path, limits=FAST) as server:
            async with aiohttp.ClientSession() as http:
                ws, r = await attached(http, server)
                other, _ = await attached(http, server, r["game"])  # a second tab
                path = tmp_path / "data" / "games" / f"{r['game']}.json"
                path.mkdir()  # the save's place is taken: saves fail
                r = await ask(ws, {"id": 1, "op": "new", "code": "PY1-N-AAAAAAS"})
                assert r["state"]["not_saved"] is None
                await pushed(other)  # the new deal, pushed to the other tab
                for tab in (ws, other):  # then the failure, to both, at once
                    p = await pushed(tab)
                    assert p["state"]["not_saved"]["code"] == "not_saved"
                    assert "cannot be saved" in p["state"]["not_saved"]["text"]
                r = await ask(ws, {"id": 2, "op": "state"})
                assert r["state"]["not_saved"] is not None  # it stays in every state
                assert (await pushed(other))["state"]["not_saved"] is not None
                path.rmdir()  # the disk has room again: the retry saves
                for tab in (ws, other):
                    p = await pushed(tab)
                    assert p["state"]["not_saved"] is None
                    assert [m["code"] for m in p["messages"]] == ["saved"]
                assert Session.load(path).game.code == "PY1-N-AAAAAAS"
                await ws.close()
                await other.close()

    play(main())


def test_the_page_shows_the_notice():
    from pyramid_solitaire.web.server import STATIC

    page = (STATIC / "index.html").read_text(encoding="utf-8")
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    assert 'id="not-saved"' in page and 'role="alert"' in page
    assert "s.not_saved" in script


def _valid_save(tmp_path) -> bytes:
    s = Session("PY1-N-AAAAAAS")
    s.tap(22)  # a King: 10 points
    s.save(tmp_path / "good.json")
    return (tmp_path / "good.json").read_bytes()


BAD_FILES = {
    "nested": b"[" * 200_000,
    "nested_objects": b'{"format": ' + b'{"a": ' * 100_000,
    "infinity": b'{"format": "pyramid-solitaire-session", "version": 1, "score": Infinity}',
    "huge_number": b'{"format": "pyramid-solitaire-session", "version": 1e999}',
    "huge_int": b'{"format": "pyramid-solitaire-session", "version": ' + b"9" * 100_000 + b"}",
    "bom_garbage": b"\xef\xbb\xbf\x00\x01",
    "not_utf8": b'{"format": "\xff"}',
    "empty": b"",
    "wrong_types": b'{"format": "pyramid-solitaire-session", "version": 1, "deal": 5}',
    "list_of_moves": None,  # filled in below: a save whose history is not a list
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_a_game_file_that_fails_to_load_is_put_aside_with_a_new_deal(tmp_path, kind):
    data = BAD_FILES[kind]
    if data is None:
        doc = json.loads(_valid_save(tmp_path))
        doc["history"] = {"not": "a list"}
        data = json.dumps(doc).encode()
    gid = "g" * 32

    async def main():
        with serving(tmp_path) as server:
            games = tmp_path / "data" / "games"
            (games / f"{gid}.json").write_bytes(data)
            async with aiohttp.ClientSession() as http:
                ws, r = await attached(http, server, gid)
                assert r["game"] == gid and not r["resumed"]
                assert [m["code"] for m in r["messages"]] == ["save_unreadable"]
                assert f"{gid}.json.bad" in r["messages"][0]["text"]
                assert r["state"]["status"] == "playing"  # a fresh game, playable
                r = await ask(ws, {"id": 1, "op": "tap", "target": "stock"})
                assert r["ok"]
                await ws.close()
            assert (games / f"{gid}.json.bad").read_bytes() == data  # kept, byte for byte
            async with aiohttp.ClientSession() as http:  # the id is not dead
                ws, r = await attached(http, server, gid)
                assert r["resumed"] and r["messages"] == [] and r["state"]["moves"] == 1
                await ws.close()

    play(main())


def test_a_save_with_a_byte_order_mark_is_resumed(tmp_path):
    gid = "h" * 32
    data = b"\xef\xbb\xbf" + _valid_save(tmp_path)  # an editor added a BOM

    async def main():
        with serving(tmp_path) as server:
            (tmp_path / "data" / "games" / f"{gid}.json").write_bytes(data)
            async with aiohttp.ClientSession() as http:
                ws, r = await attached(http, server, gid)
                assert r["resumed"] and r["state"]["score"] == 10
                await ws.close()

    play(main())


def test_before_attach_the_reader_is_the_protocols(tmp_path):
    async def main():
        with serving(tmp_path) as server:
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(server.ws_url)
                for line, code in (
                    ("[" * 30_000, "bad_json"),
                    (b"\xff", "bad_json"),
                    ('{"op": "attach", "id": 9007199254740992}', "bad_request"),
                    ('{"op": "fly", "id": 4}', "unknown_op"),
                ):
                    if isinstance(line, bytes):
                        await ws.send_bytes(line)
                        msg = await ws.receive(timeout=10)
                        r = json.loads(msg.data)
                    else:
                        r = await ask(ws, line)
                    assert r["error"]["code"] == code, line
                assert "attach" in r["error"]["message"] and r["id"] == 4
                r = await ask(ws, {"id": 5, "op": "attach"})
                assert r["ok"]
                r = await ask(ws, {"id": 6, "op": "attach"})
                assert r["error"]["code"] == "already_attached"
                await ws.close()

    play(main())


# ---- the Host header ------------------------------------------------------------------------
def _get(port: int, host: bytes) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


@pytest.mark.parametrize(
    "host",
    [
        b"localhost:99999",
        b"localhost:0",
        b"localhost:-1",
        b"localhost:abc",
        "l\u00f3calhost".encode(),
        b"\xff\xfe",
        b"[::1",
        b"[zz]:80",
        b"a b",
        b"",
        b"localhost:1:2",
    ],
)
def test_a_malformed_host_header_is_400(tmp_path, host):
    with serving(tmp_path) as server:
        status, body = _get(server.port, host)
        assert status == 400 and b"Traceback" not in body and b"Host" in body
        assert _get(server.port, b"127.0.0.1:%d" % server.port)[0] == 200  # still serving


def test_host_names():
    assert host_name("LocalHost:8080") == "localhost"
    assert host_name("[::1]:80") == "::1"
    assert host_name("127.0.0.1") == "127.0.0.1"
    assert host_name("example.com:65536") is None


def test_a_game_that_cannot_be_saved_stays_until_it_is(tmp_path):
    """Its last tab closes while saves fail: the game stays in memory, still tried, and a
    reload finds it; once saved, it leaves memory."""

    async def main():
        with serving(tmp_path, limits=FAST) as server:
            games = server.app[GAMES].games
            async with aiohttp.ClientSession() as http:
                ws, r = await attached(http, server)
                gid = r["game"]
                path = tmp_path / "data" / "games" / f"{gid}.json"
                path.mkdir()
                await ask(ws, {"op": "new", "code": "PY1-N-AAAAAAS"})
                await ask(ws, {"op": "tap", "target": 22})
                await ws.close()
                await asyncio.sleep(0.3)
                assert gid in games  # not saved: kept
                ws, r = await attached(http, server, gid)  # a reload finds it
                assert r["resumed"] and r["state"]["score"] == 10
                await ws.close()
                path.rmdir()
                for _ in range(100):
                    if gid not in games:
                        break
                    await asyncio.sleep(0.05)
                assert gid not in games and Session.load(path).score == 10

    play(main())


def test_nothing_put_aside_is_replaced(tmp_path):
    gid = "k" * 32

    async def main():
        with serving(tmp_path) as server:
            games = tmp_path / "data" / "games"
            for junk in (b"first", b"second", b"third"):
                (games / f"{gid}.json").write_bytes(junk)
                async with aiohttp.ClientSession() as http:
                    ws, r = await attached(http, server, gid)
                    assert r["messages"][0]["code"] == "save_unreadable"
                    await ws.close()
                for _ in range(100):  # its new deal saved, it leaves memory
                    if gid not in server.app[GAMES].games:
                        break
                    await asyncio.sleep(0.05)
            assert (games / f"{gid}.json.bad").read_bytes() == b"first"
            assert (games / f"{gid}.json.bad.2").read_bytes() == b"second"
            assert (games / f"{gid}.json.bad.3").read_bytes() == b"third"

    play(main())


def test_the_loopback_address_given_is_answered(tmp_path):
    from pyramid_solitaire.web.server import ServerThread, make_app

    app = make_app(data_dir=tmp_path / "d", stats_path=str(tmp_path / "s.db"), host="127.0.0.2")
    with ServerThread(app, host="127.0.0.2") as server:
        with socket.create_connection(("127.0.0.2", server.port), timeout=10) as s:
            s.sendall(
                b"GET / HTTP/1.1\r\nHost: 127.0.0.2:%d\r\nConnection: close\r\n\r\n" % server.port
            )
            assert s.recv(100).startswith(b"HTTP/1.1 200")
        with socket.create_connection(("127.0.0.2", server.port), timeout=10) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n")
            assert s.recv(100).startswith(b"HTTP/1.1 421")
