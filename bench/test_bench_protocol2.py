"""Protocol 2's round trips, as a client sees them: a request line written to a real
``python -m pyramid_solitaire serve --stdio --protocol 2`` subprocess (started once for the
module, PYTHONPATH inherited, stopped with ``quit`` at the end), timed until the answer with
the request's id has been read and parsed.

- a tap: ``tap stock`` and ``undo`` in turn on an ``msc`` game (the game never runs out of
  stock), each call one round trip, so the median is of both;
- a ``state`` (the whole table in the answer);
- an ``analyze`` of the game's position with ``"queries": ["winnable"]``;
- the same tap round trip while another request analyses 1,000 ``classic-draw3`` deals
  (shortest wins: tens of seconds of work, on the server's analysis threads): its
  ``"partial": true`` lines arrive meanwhile and are read past, inside the timing. It shows
  that a tap is not delayed by an analysis; the analysis is cancelled at the end.

No wall-clock threshold: the figures are for reading. Run with::

    PYTHONPATH=python:src python -m pytest bench/test_bench_protocol2.py --benchmark-enable \\
        --benchmark-columns=median,min,max,rounds

Without ``--benchmark-enable`` each case runs once, untimed, as a smoke test.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest

from pyramid_solitaire import Deal

CODE = "PY1-M-AAAAABS"  # an msc deal (stock of 24, two redeals)
ROUNDS = 2000  # even: tap and undo in turn leave the game where it began (about 1 s a case)
LONG_DEALS = 1000


class Client:
    """A protocol-2 client on the server's pipes. ``answer(rid)`` reads until the final
    answer with that id; the lines of other requests read on the way are counted
    (``skipped``: partial and progress lines) or kept for later (``kept``: final answers)."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self._ids = itertools.count(1)
        self.kept: dict[object, dict] = {}
        self.skipped = 0

    def next_id(self) -> int:
        return next(self._ids)

    def send(self, request: dict) -> None:
        self.proc.stdin.write(json.dumps(request).encode() + b"\n")
        self.proc.stdin.flush()

    def answer(self, rid: object, partial: bool = False) -> dict:
        """The final answer to ``rid`` (with ``partial``: its next line, partial or not)."""
        if rid in self.kept:
            return self.kept.pop(rid)
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError(f"the server closed its output before answering {rid!r}")
            answer = json.loads(line)
            last = not answer.get("partial") and "progress" not in answer
            if answer["id"] == rid and (last or partial):
                return answer
            if last:
                self.kept[answer["id"]] = answer
            else:
                self.skipped += 1

    def ask(self, request: dict) -> dict:
        rid = self.next_id()
        self.send({"id": rid, **request})
        return self.answer(rid)

    def new_game(self) -> str:
        answer = self.ask({"op": "new", "code": CODE})
        assert answer["ok"], answer
        return answer["game"]


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen(
        [sys.executable, "-m", "pyramid_solitaire", "serve", "--stdio", "--protocol", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )  # (the environment, PYTHONPATH included, and the working directory inherited)
    client = Client(proc)
    try:
        yield client
    finally:
        try:
            client.send({"id": "quit", "op": "quit"})
            assert client.answer("quit")["ok"]
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdin.close()
            proc.stdout.close()


def _tap_or_undo(client: Client, gid: str, answers: list):
    """One round trip a call: ``tap stock``, then ``undo``, then ``tap stock``..."""
    ops = itertools.cycle(
        [{"op": "tap", "game": gid, "target": "stock"}, {"op": "undo", "game": gid}]
    )

    def round_trip():
        answers.append(client.ask(next(ops)))

    return round_trip


def _check_taps(answers: list) -> None:
    assert answers and all(a["ok"] for a in answers), next(a for a in answers if not a["ok"])
    assert [e["type"] for e in answers[0]["events"]][0] == "draw"
    assert all(a["op"] == ("tap" if i % 2 == 0 else "undo") for i, a in enumerate(answers))


def test_tap_round_trip(benchmark, server):
    benchmark.group = "protocol 2 round trip"
    answers: list = []
    fn = _tap_or_undo(server, server.new_game(), answers)
    benchmark.pedantic(fn, rounds=ROUNDS, warmup_rounds=2, iterations=1)
    _check_taps(answers)


def test_state_round_trip(benchmark, server):
    benchmark.group = "protocol 2 round trip"
    request = {"op": "state", "game": server.new_game()}
    answer = benchmark.pedantic(
        server.ask, args=(request,), rounds=ROUNDS // 2, warmup_rounds=2, iterations=1
    )
    assert answer["ok"] and answer["state"]["code"] == CODE


def test_analyze_winnable_round_trip(benchmark, server):
    benchmark.group = "protocol 2 round trip"
    request = {"op": "analyze", "game": server.new_game(), "queries": ["winnable"]}
    answer = benchmark.pedantic(
        server.ask, args=(request,), rounds=ROUNDS // 4, warmup_rounds=2, iterations=1
    )
    assert answer["ok"] and answer["result"]["winnable"] is True


def test_tap_round_trip_during_a_long_analysis(benchmark, server):
    benchmark.group = "protocol 2 round trip"
    gid = server.new_game()
    codes = [Deal.from_number(n, rules="classic-draw3").code for n in range(LONG_DEALS)]
    server.send(
        {
            "id": "long",
            "op": "analyze",
            "positions": [{"code": c} for c in codes],
            "queries": ["shortest"],
            "budget": {"seconds": 120},
        }
    )
    first = server.answer("long", partial=True)  # its first deal answered: under way
    assert first.get("partial") is True, first
    answers: list = []
    skipped = server.skipped
    benchmark.pedantic(
        _tap_or_undo(server, gid, answers), rounds=ROUNDS, warmup_rounds=2, iterations=1
    )
    read_past = server.skipped - skipped
    benchmark.extra_info["analysis_lines_read_past"] = read_past
    _check_taps(answers)
    assert "long" not in server.kept, "the analysis ended before the taps: make it longer"
    cancel = server.ask({"op": "cancel", "request": "long"})
    assert cancel["ok"] and cancel["cancelled"] is True
    assert server.answer("long")["error"]["code"] == "cancelled"
