"""Load on the browser game's server: 200 WebSocket clients at once on 127.0.0.1, each
attaching, starting a game and making 50 requests (taps, drags, draws, undo, redo, state)
one after the other, from one asyncio loop; the server is ``pyramid-solitaire play --web``
in a subprocess (its own interpreter, so the clients do not share its GIL).

Mixed in: clients sending oversized messages (answered ``too_long``, or closed when far over
the limit), clients sending malformed JSON (``bad_json``), and clients that vanish mid-game
(the TCP connection reset with a request in flight). The 200 are all served: every response
has the id of its request, no error, and the state the same requests give on a local
``Server`` (each client replays its requests there: nothing lost, nothing mixed up between
games).

Reported in ``benchmark.extra_info`` and printed: the p50, p99 and max latency of a request
(sent to answered, seen by the client), the requests per second of the whole run, then the
median latency of one client alone (a request's cost without the queue of 200 clients that
never pause). Not a timed test (one round); without ``--benchmark-enable`` it is a smoke
test of 20 clients making 20 requests each::

    PYTHONPATH=python:src python -m pytest bench/test_bench_web.py --benchmark-enable -s
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time

import pytest

aiohttp = pytest.importorskip("aiohttp")

from pyramid_solitaire.session.protocol import MAX_LINE, Server  # noqa: E402

CLIENTS = 200
REQUESTS = 50
OVERSIZED, MALFORMED, VANISHING = 5, 5, 10
CODES = ["PY1-N-AAAAAAS", "PY1-N-AAAAAAT", "PY1-N-AAAAAAU", "PY1-N-AAAAAAV"]
#: what is compared with the local replay (seconds is the clock; the difficulty's solver
#: part has a time budget, so it may differ under load)
COMPARED = (
    "pyramid",
    "stock",
    "stock_top",
    "waste",
    "redeals_left",
    "targets",
    "selection",
    "score",
    "moves",
    "status",
    "can_undo",
    "can_redo",
    "code",
)


def next_request(rng: random.Random, state: dict) -> dict:
    """A request a player could make now, chosen from what the state shows."""
    targets = state["targets"]
    roll = rng.random()
    if roll < 0.55 and targets:
        return {"op": "tap", "target": rng.choice(targets)}
    if roll < 0.65:
        return {"op": "tap", "target": rng.randrange(28)}  # maybe blocked or empty
    if roll < 0.75 and len(targets) > 1:
        a, b = rng.sample(targets, 2)
        return {"op": "drag", "from": a, "to": b}
    if roll < 0.85:
        return {"op": "undo"}
    if roll < 0.92:
        return {"op": "redo"}
    return {"op": "state"}


def compared(response: dict) -> tuple:
    return (
        response["ok"],
        response.get("op"),
        [m["code"] for m in response["messages"]],
        {k: response["state"][k] for k in COMPARED} if "state" in response else None,
    )


async def good_client(
    session,
    url: str,
    n: int,
    latencies: list,
    problems: list,
    requests: int = REQUESTS,
    pause: tuple[float, float] | None = None,
    log: list | None = None,
    ops: list | None = None,
) -> int:
    """One player: attach, a new game, then requests chosen from what each state shows,
    each after a pause drawn from ``pause`` (seconds; None: at once). The (request,
    response) lines go to ``log`` and are checked after the run (check_log), so that the
    clients' own work does not share the machine with the server while it is timed."""
    rng = random.Random(n)
    ops = [] if ops is None else ops
    if pause is not None:
        await asyncio.sleep(rng.uniform(0, ARRIVAL))  # players do not all come at once
    ws = await session.ws_connect(url, max_msg_size=1 << 22)
    await ws.send_str(json.dumps({"id": f"{n}-a", "op": "attach"}))
    r = json.loads(await ws.receive_str())
    if not r["ok"] or r["id"] != f"{n}-a":
        problems.append((n, "attach", r))
    request = {"op": "new", "code": CODES[n % len(CODES)]}
    served = 0
    lines = []
    for k in range(requests):
        if pause is not None:
            await asyncio.sleep(rng.uniform(*pause))
        request["id"] = f"{n}-{k}"
        line = json.dumps(request)
        t0 = time.perf_counter()
        await ws.send_str(line)
        answer = await ws.receive_str()
        latencies.append(time.perf_counter() - t0)
        ops.append(request["op"])
        response = json.loads(answer)
        lines.append((line, response))
        served += 1
        if "state" not in response:
            problems.append((n, request, response.get("error")))
            break
        request = next_request(rng, response["state"])
    await ws.close()
    if log is not None:
        log.append((n, lines))
    return served


def check_log(log: list, problems: list) -> None:
    """Each client's requests replayed on a local Server: every response has its request's
    id, no error, and the state the same requests give locally (nothing lost or mixed up
    between games)."""
    for n, lines in log:
        reference = Server(clock=lambda: 0.0)
        for line, response in lines:
            want = json.loads(reference.handle(line))
            if (
                response["id"] != json.loads(line)["id"]
                or not response["ok"]
                or compared(response) != compared(want)
            ):
                problems.append((n, line, response.get("error") or response.get("messages")))


async def oversized_client(session, url: str, n: int, problems: list) -> None:
    ws = await session.ws_connect(url, max_msg_size=1 << 22)
    await ws.send_str(json.dumps({"op": "attach"}))
    await ws.receive_str()
    await ws.send_str(json.dumps({"op": "new", "code": CODES[0]}))
    await ws.receive_str()
    await ws.send_str("x" * (MAX_LINE + 100))
    if json.loads(await ws.receive_str())["error"]["code"] != "too_long":
        problems.append((f"oversized {n}", "not too_long"))
    await ws.send_str(json.dumps({"op": "tap", "target": 22, "pad": "y" * (5 * MAX_LINE)}))
    msg = await ws.receive()
    if msg.type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
        problems.append((f"oversized {n}", "not closed", msg.type))
    await ws.close()


async def malformed_client(session, url: str, n: int, problems: list) -> None:
    ws = await session.ws_connect(url)
    await ws.send_str(json.dumps({"op": "attach"}))
    await ws.receive_str()
    for k in range(20):
        await ws.send_str('{"op": "tap", "target": 2' if k % 2 else "[[[[")
        r = json.loads(await ws.receive_str())
        if r["ok"] or r["error"]["code"] not in ("bad_json", "bad_request"):
            problems.append((f"malformed {n}", r))
    await ws.close()


async def vanishing_client(port: int, n: int) -> None:
    """Attach, start a game, a few taps, then a request sent and the connection reset."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    await reader.readuntil(b"\r\n\r\n")

    def frame(request: dict) -> bytes:
        data, mask = json.dumps(request).encode(), os.urandom(4)
        return (
            bytes([0x81, 0x80 | len(data)])
            + mask
            + bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        )

    async def receive() -> None:
        head = await reader.readexactly(2)
        size = head[1] & 0x7F
        if size == 126:
            size = int.from_bytes(await reader.readexactly(2), "big")
        elif size == 127:
            size = int.from_bytes(await reader.readexactly(8), "big")
        await reader.readexactly(size)

    for request in (
        {"op": "attach"},
        {"op": "new", "code": CODES[1]},
        *({"op": "tap", "target": t} for t in range(21, 21 + n % 5)),
    ):
        writer.write(frame(request))
        await receive()
    writer.write(frame({"op": "tap", "target": "stock"}))
    await asyncio.sleep(0.001 * n)
    writer.transport.abort()  # gone, the answer unread


async def load(
    url: str, port: int, clients: int, requests: int, pause: tuple[float, float] | None
) -> dict:
    latencies: list[float] = []
    ops: list[str] = []
    problems: list = []
    log: list = []
    ws_url = url.replace("http://", "ws://") + "ws"
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        t0 = time.perf_counter()
        served = await asyncio.gather(
            *(
                good_client(session, ws_url, n, latencies, problems, requests, pause, log, ops)
                for n in range(clients)
            ),
            *(oversized_client(session, ws_url, n, problems) for n in range(OVERSIZED)),
            *(malformed_client(session, ws_url, n, problems) for n in range(MALFORMED)),
            *(vanishing_client(port, n) for n in range(VANISHING)),
        )
        wall = time.perf_counter() - t0
        check_log(log, problems)
        # then one client alone: a request's cost without the queue of the 200
        alone: list[float] = []
        await good_client(session, ws_url, clients, alone, problems, requests, None, log)
        # and the server goes on
        ws = await session.ws_connect(ws_url)
        await ws.send_str(json.dumps({"id": "after", "op": "hello"}))
        after = json.loads(await ws.receive_str())
        await ws.close()
    return {
        "served": sum(served[:clients]),
        "latencies": latencies,
        "ops": ops,
        "problems": problems,
        "wall": wall,
        "after": after,
        "alone": alone,
    }


#: The two loads: players (arriving over the first second, then each request after a pause
#: of 0.1 to 0.4 s, a fast player's pace: about 4 requests a second each, 800 in all) and a
#: flood (every client sends its next request as soon as the answer comes: the server's
#: throughput, and the latency of a queue of 200).
PACES = {"players": (0.1, 0.4), "flood": None}
ARRIVAL = 1.0  # players: each arrives at a random time of the first second


@pytest.mark.parametrize("pace", list(PACES))
def test_bench_web_load(benchmark, tmp_path, pace):
    # without --benchmark-enable: a smoke test of 20 clients making 20 requests each
    clients, requests = (20, 20) if benchmark.disabled else (CLIENTS, REQUESTS)
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
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        url = proc.stdout.readline().strip()
        port = int(url.rsplit(":", 1)[1].strip("/"))
        result = benchmark.pedantic(
            lambda: asyncio.run(load(url, port, clients, requests, PACES[pace])),
            rounds=1,
            iterations=1,
        )
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stderr = proc.stderr.read()
    assert result["problems"] == []
    assert result["served"] == clients * requests
    assert result["after"]["ok"] and result["after"]["id"] == "after"
    assert "Traceback" not in stderr, stderr
    lat = sorted(result["latencies"])
    figures = {
        "load": pace,
        "clients": clients,
        "requests": len(lat),
        "p50_ms": round(statistics.median(lat) * 1000, 2),
        "p99_ms": round(lat[int(0.99 * (len(lat) - 1))] * 1000, 2),
        "max_ms": round(lat[-1] * 1000, 2),
        "requests_per_s": round(len(lat) / result["wall"], 1),
        "wall_s": round(result["wall"], 2),
        "alone_p50_ms": round(statistics.median(result["alone"]) * 1000, 2),
    }
    for op in sorted(set(result["ops"])):  # the tail, request by request kind
        mine = sorted(t for o, t in zip(result["ops"], result["latencies"]) if o == op)
        figures[f"p99_ms_{op}"] = round(mine[int(0.99 * (len(mine) - 1))] * 1000, 2)
    benchmark.extra_info.update(figures)
    print("\nweb load:", ", ".join(f"{k} {v}" for k, v in figures.items()))
    games = os.listdir(tmp_path / "web" / "games")
    assert len([g for g in games if g.endswith(".json")]) >= clients  # each one saved
