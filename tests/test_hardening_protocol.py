"""The protocol as an attacker would use it: lines too long to hold, deep nesting, bytes that
are not UTF-8, a closed standard input, a drag with one bad end, ids at the edge of what
JavaScript keeps exactly, ops listed in every error. ``serve --stdio`` and the browser
game's WebSocket share one reader (``parse_request``), so each case is checked on both where
it applies."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from test_protocol import VALIDATOR, ask

from pyramid_solitaire.jsonin import BadJSON, loads
from pyramid_solitaire.session.protocol import (
    MAX_ID,
    MAX_LINE,
    OPS,
    Server,
    parse_request,
    read_lines,
    serve,
)

SERVE = [sys.executable, "-m", "pyramid_solitaire", "serve", "--stdio"]
NEW = {"id": 1, "op": "new", "code": "PY1-N-AAAAAAS"}


def answers(data: bytes, **kwargs) -> list[dict]:
    """``serve`` over ``data`` (bytes in, the response lines out, each schema-checked)."""
    out = io.StringIO()
    assert serve(io.BytesIO(data), out, clock=lambda: 0.0, **kwargs) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    for line in lines:
        VALIDATOR.validate(line)
    return lines


def request(obj) -> bytes:
    return json.dumps(obj).encode() + b"\n"


# ---- lines too long: limited while they are read --------------------------------------------
class Endless(io.RawIOBase):
    """``size`` bytes of ``fill`` (made as they are read, never held), then ``tail``."""

    def __init__(self, size: int, fill: bytes = b"x", tail: bytes = b"") -> None:
        self.left, self.fill, self.tail = size, fill, tail
        self.most = 0  # the largest read asked for

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        self.most = max(self.most, len(buffer))
        if self.left > 0:
            n = min(len(buffer), self.left)
            buffer[:n] = self.fill * n
            self.left -= n
            return n
        n = min(len(buffer), len(self.tail))
        buffer[:n], self.tail = self.tail[:n], self.tail[n:]
        return n


def test_a_300_mb_line_is_answered_too_long_without_being_held():
    raw = Endless(300 << 20, tail=b"\n" + request({"id": 2, "op": "hello"}))
    seen = [
        line if isinstance(line, int) else line[:20] for line in read_lines(io.BufferedReader(raw))
    ]
    assert seen[0] == 300 << 20 and seen[1].startswith(b'{"id": 2')
    assert raw.most <= 1 << 17  # never more than a buffer's worth at once
    raw = Endless(300 << 20, tail=b"\n" + request({"id": 2, "op": "hello"}))
    out = io.StringIO()
    serve(io.BufferedReader(raw), out)
    first, second = map(json.loads, out.getvalue().splitlines())
    assert first["error"]["code"] == "too_long" and "314,572,800" in first["error"]["message"]
    assert second["id"] == 2 and second["ok"]  # and the next line is served


def test_a_stream_without_a_newline_is_answered_once_and_ends():
    lines = answers(b"x" * (5 * MAX_LINE))
    assert [r["error"]["code"] for r in lines] == ["too_long"]
    lines = answers(request(NEW) + b"y" * (MAX_LINE + 1) + b"\r\n" + request({"op": "state"}))
    assert [r["ok"] for r in lines] == [True, False, True]
    assert "state" in lines[1]  # a session's state comes with the error


def test_lines_at_the_limit_and_windows_line_ends():
    pad = b" " * (MAX_LINE - len(json.dumps({"op": "hello"})))
    exact = json.dumps({"op": "hello"}).encode() + pad
    assert len(exact) == MAX_LINE
    lines = answers(exact + b"\r\n" + exact + b" \n" + exact)
    assert [r.get("op") or r["error"]["code"] for r in lines] == ["hello", "too_long", "hello"]


def test_memory_of_serve_stays_bounded_on_a_huge_line_in_a_real_process():
    """A child fed 300 MB without a newline grows by at most a few MB (its peak RSS against
    a child fed one request)."""

    def peak(feed) -> int:
        proc = subprocess.Popen(
            SERVE + ["--db", os.devnull],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        feed(proc.stdin)
        proc.stdin.close()
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak (KiB)
        proc.returncode = os.waitstatus_to_exitcode(status)
        assert proc.returncode == 0
        return out, usage.ru_maxrss

    def small(f):
        f.write(request({"id": 1, "op": "hello"}))

    def huge(f):
        block = b"[" * (1 << 20)
        for _ in range(300):
            f.write(block)
        f.write(b"\n" + request({"id": 2, "op": "hello"}))

    out, base = peak(small)
    assert json.loads(out)["ok"]
    out, top = peak(huge)
    first, second = map(json.loads, out.splitlines())
    assert first["error"]["code"] == "too_long" and second["id"] == 2
    assert top - base < 30 * 1024, (base, top)  # KiB: far less than the 300 MB sent


# ---- malformed JSON ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    [
        "[" * 30_000,
        '{"a":' * 12_000,
        "[" * 30_000 + "]" * 30_000,
        '{"op": "new", "random": ' + "[" * 20_000 + "]" * 20_000 + "}",
    ],
)
def test_deep_nesting_is_bad_json(line):
    line = line[:MAX_LINE]  # under the size limit: nesting decides
    lines = answers(line.encode() + b"\n" + request({"id": 9, "op": "hello"}))
    assert lines[0]["error"]["code"] == "bad_json" and "nested" in lines[0]["error"]["message"]
    assert lines[1]["id"] == 9 and lines[1]["ok"]
    assert ask(Server(), line)["error"]["code"] == "bad_json"


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xfe{}",
        b'{"op": "hello", "id": "\xe9"}',
        b"\xc3",
        b'{"op": "\xed\xa0\x80"}',
        b"\x00\x00\x00{",
    ],
)
def test_bytes_that_are_not_utf8_are_bad_json_and_the_next_line_is_served(data):
    lines = answers(data + b"\n" + request({"id": 3, "op": "hello"}))
    assert lines[0]["error"]["code"] == "bad_json" and lines[1]["id"] == 3


@pytest.mark.parametrize(
    "env",
    [
        {"LC_ALL": "C"},
        {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
        {"PYTHONIOENCODING": "latin-1"},
        {"LANG": "en_US.ISO-8859-1"},
    ],
)
def test_not_utf8_under_every_locale_in_a_real_process(env):
    data = (
        b'{"id": 1, "op": "hello", "x": "\xe9"}\n'
        + b"\xff\n"
        + request({"id": 2, "op": "new", "code": "PY1-N-AAAAAAS", "lang": "vi"})
        + request({"id": 3, "op": "tap", "target": 99})
    )
    proc = subprocess.run(
        SERVE, input=data, capture_output=True, timeout=60, env={**os.environ, **env}
    )
    assert proc.returncode == 0 and proc.stderr == b""
    lines = [json.loads(x) for x in proc.stdout.decode("ascii").splitlines()]
    assert [r.get("error", {}).get("code") for r in lines] == [
        "bad_json",
        "bad_json",
        None,
        "bad_request",
    ]
    assert lines[2]["messages"][0]["text"].startswith("Độ khó")  # UTF-8 text, escaped


def test_numbers_json_does_not_have():
    for text in (
        '{"op": "hello", "id": NaN}',
        '{"op": "tap", "target": Infinity}',
        '{"op": "tap", "target": 1e999}',
        '{"op": "tap", "target": ' + "9" * 5000 + "}",
    ):
        r = ask(Server(), text)
        assert r["error"]["code"] == "bad_json", text


def test_the_reader_refuses_what_is_not_strict_json():
    for data in (b"\xef\xbb\xbf{}", "[" * 65, '{"a": -Infinity}', b"\x80", 3):
        with pytest.raises(BadJSON):
            loads(data)
    assert loads("[" * 64 + "]" * 64) and loads(b"\xef\xbb\xbf{}", bom=True) == {}
    assert loads('"[[[[[[" ') == "[[[[[["  # brackets in strings do not count


# ---- standard input closed -----------------------------------------------------------------
def test_a_closed_standard_input_ends_serve_quietly():
    proc = subprocess.run(" ".join(SERVE) + " <&-", shell=True, capture_output=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


def test_serve_with_a_closed_stdin_object():
    stdin = io.BytesIO(b"")
    stdin.close()
    assert serve(stdin, io.StringIO()) == 0


# ---- drag, ids, ops ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "ends",
    [
        (22, 99),
        (99, 22),
        (22, "nowhere"),
        (22, "waste:1"),
        (22, None),
        (22, [1]),
        ("stock:top", 22),
    ],
)
def test_drag_checks_both_ends_before_anything_changes(ends):
    server = Server(clock=lambda: 0.0)
    ask(server, NEW)
    before = ask(server, {"op": "tap", "target": 21})["state"]  # a selection to keep
    r = ask(server, {"id": 5, "op": "drag", "from": ends[0], "to": ends[1]})
    assert not r["ok"] and r["error"]["code"] == "bad_request" and r["id"] == 5
    assert r["state"] == before  # nothing changed: no King gone, same selection


def test_ids_accepted_are_echoed_as_they_came():
    server = Server()
    for rid in (MAX_ID, -MAX_ID, 0, "x" * 256, 2**53 - 1):
        r = ask(server, {"id": rid, "op": "hello"})
        assert r["ok"] and r["id"] == rid and type(r["id"]) is type(rid)
    for rid in (2**53, -(2**53), 10**30, "x" * 257, 1.5, True, [1], {"a": 1}):
        r = ask(server, {"id": rid, "op": "hello"})
        assert r["error"]["code"] == "bad_request" and r["id"] is None, rid
    assert MAX_ID == 2**53 - 1


def test_parse_request_is_the_one_reader():
    assert parse_request(b'{"op": "x", "id": 7}') == ({"op": "x", "id": 7}, 7)
    with pytest.raises(ValueError, match="too_long|at most"):
        parse_request(b"x" * (MAX_LINE + 1))


def test_unknown_ops_list_every_op():
    r = ask(Server(), {"id": 1, "op": "fly"})
    assert r["error"]["code"] == "unknown_op"
    assert all(op in r["error"]["message"] for op in OPS) and "attach" not in r["error"]["message"]
    r = ask(Server(attached=True), {"id": 1, "op": "fly"})
    assert all(op in r["error"]["message"] for op in OPS + ("attach",))
    r = ask(Server(attached=True), {"id": 1, "op": "attach"})
    assert r["error"]["code"] == "already_attached"
    assert "attach" in ask(Server(attached=True), {"op": "hello"})["ops"]
