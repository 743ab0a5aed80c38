"""Fuzzing what arrives as bytes with hypothesis: protocol lines (to ``serve`` and to
``Server.handle``), save files (``Session.load``) and statistics files (``StatsStore``).

The properties:

- protocol: every line gets exactly one response line, which is strict JSON valid against
  the schema, ``ok`` or an error with a known code, echoing the id only when it is valid;
  the lines after it are still served; nothing raises;
- save files: ``Session.load`` returns a session or raises ``ValueError`` naming the file,
  in a message of at most a few hundred characters; the file is never changed;
- statistics files: ``StatsStore`` opens the file or raises ``ValueError``; a file it
  refuses is left byte for byte as it was, with nothing created beside it.

Inputs: real requests and saves mutated (bytes flipped, cut, nested, encodings, numbers JSON
does not have), and random bytes. PYRAMID_FUZZ_EXAMPLES sets the number of examples (200 by
default; tools/fuzz_atheris.py has coverage-guided targets for the same readers).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import sqlite3
import tempfile

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_protocol import VALIDATOR

from pyramid_solitaire.session.protocol import MAX_ID, Server, serve
from pyramid_solitaire.session.session import Session
from pyramid_solitaire.session.stats import StatsStore

FUZZ = settings(
    max_examples=int(os.environ.get("PYRAMID_FUZZ_EXAMPLES", 200)),
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
CODES = {
    "bad_json",
    "bad_request",
    "unknown_op",
    "missing_field",
    "no_session",
    "too_long",
    "io_error",
    "not_allowed",
    "already_attached",
}
REQUESTS = [
    {"id": 1, "op": "hello"},
    {"id": "x", "op": "new", "code": "PY1-N-AAAAAAS"},
    {"op": "new", "random": {"seed": 3, "winnable_only": False}, "profile": "msc"},
    {"op": "tap", "target": 22},
    {"op": "tap", "target": "stock"},
    {"op": "drag", "from": 22, "to": 25},
    {"op": "play", "move": "draw"},
    {"op": "undo"},
    {"op": "redo"},
    {"op": "hint"},
    {"op": "state"},
    {"op": "pause"},
    {"op": "resume"},
    {"op": "restart"},
    {"op": "lang", "lang": "vi"},
    {"op": "stats"},
]
JUNK = st.sampled_from(
    [
        b"[" * 5000,
        b'{"a":' * 3000,
        b"NaN",
        b"Infinity",
        b"-Infinity",
        b"1e999",
        b"9" * 400,
        b"\xff",
        b"\xef\xbb\xbf",
        b"\xc3",
        b"\x00",
        b"\xed\xa0\x80",
        b'"\\ud800"',
        b"\\",
        b'"',
        b"}",
        b"]",
        b"\r",
        b"\x0b",
        b"\xe2\x80\xa8",
        b"null",
        b"true",
        b"[]",
    ]
)


@st.composite
def mutated(draw, seeds: list[bytes]) -> bytes:
    """A seed mutated a few times (bytes flipped, inserted, cut, junk spliced in), or
    random bytes."""
    if draw(st.integers(0, 6)) == 0:
        return draw(st.binary(max_size=400))
    data = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(data)))
        what = draw(st.sampled_from(["flip", "insert", "cut", "junk", "truncate", "number"]))
        if what == "flip" and data:
            j = min(i, len(data) - 1)
            data = data[:j] + bytes([data[j] ^ draw(st.integers(1, 255))]) + data[j + 1 :]
        elif what == "insert":
            data = data[:i] + draw(st.binary(min_size=1, max_size=8)) + data[i:]
        elif what == "cut":
            data = data[:i] + data[i + draw(st.integers(1, 20)) :]
        elif what == "junk":
            data = data[:i] + draw(JUNK) + data[i:]
        elif what == "truncate":
            data = data[:i]
        else:  # a number where one is: huge, negative, fractional
            data = data.replace(
                b"22",
                draw(
                    st.sampled_from(
                        [b"2e308", b"-1", b"22.5", b"1" * 30, str(MAX_ID + 1).encode(), b"-0"]
                    )
                ),
                1,
            )
    return data


def _one_line(line: bytes) -> bytes:
    return line.replace(b"\n", b" ").replace(b"\r", b" ")


# ---- protocol lines -------------------------------------------------------------------------
LINES = [json.dumps(r).encode() for r in REQUESTS]


@FUZZ
@given(st.lists(mutated(LINES), min_size=1, max_size=6))
@example([b"[" * 30_000, b'{"id": 1, "op": "hello"}'])
@example([b'{"id": 9007199254740992, "op": "hello"}'])
@example([b'{"op": "drag", "from": 22, "to": 99}'])
def test_protocol_lines(tmp_path, lines):
    server = Server(clock=lambda: 0.0, stats_path=str(tmp_path / "stats.db"))
    server.handle(LINES[1])  # a session, so the ops reach it
    for line in lines:
        response = json.loads(server.handle(line))
        VALIDATOR.validate(response)
        if not response["ok"]:
            assert response["error"]["code"] in CODES
            assert len(response["error"]["message"]) < 400
        rid = response["id"]
        assert rid is None or isinstance(rid, str) or abs(rid) <= MAX_ID
    # the same lines as one stream: one response a non-blank line, and the last one served
    stream = b"\n".join(_one_line(x) for x in lines) + b"\n" + LINES[0] + b"\n"
    out = io.StringIO()
    assert serve(io.BytesIO(stream), out) == 0
    responses = [json.loads(x) for x in out.getvalue().splitlines()]
    expected = sum(1 for x in stream.split(b"\n") if x.strip())
    assert len(responses) <= expected
    assert responses[-1]["op"] == "hello" or any(r.get("op") == "quit" for r in responses)


# ---- save files ------------------------------------------------------------------------------
def _saves() -> list[bytes]:
    out = []
    for code, profile, taps in (
        ("PY1-N-AAAAAAS", "pyramide", [22, "stock"]),
        ("PY1-M-AAAAAAS", "msc", ["stock"]),
        ("PY1-D-AAAAAAS", "classic-draw3", []),
    ):
        s = Session(code, profile)
        for t in taps:
            s.tap(t)
        out.append(s.to_json().encode())
    return out


SAVES = _saves()


@FUZZ
@given(mutated(SAVES))
@example(b"[" * 200_000)
@example(SAVES[0].replace(b'"score": 10', b'"score": Infinity'))
@example(SAVES[0].replace(b'"history": [', b'"history": [[[[[[[[[[' * 20))
@example(b"\xef\xbb\xbf" + SAVES[0])
def test_save_files(tmp_path, data):
    path = tmp_path / "game.json"
    path.write_bytes(data)
    try:
        session = Session.load(path)
    except ValueError as e:
        assert str(path) in str(e) and len(str(e)) < len(str(path)) + 400
    else:
        assert session.state()["status"] in ("playing", "won", "no moves")
    assert path.read_bytes() == data


# ---- statistics files -----------------------------------------------------------------------
def _stats_seeds() -> list[bytes]:
    """A statistics file with a game, and two foreign SQLite files (user_version 0 and 1)."""
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "stats.db")
    with StatsStore(path) as store:
        store.record(Session("PY1-N-AAAAAAS"), "lost")
    seeds = [open(path, "rb").read()]
    for version in (0, 1):
        other = os.path.join(folder, f"other{version}.db")
        db = sqlite3.connect(other)
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        db.execute(f"PRAGMA user_version = {version}")
        db.commit()
        db.close()
        seeds.append(open(other, "rb").read())
    shutil.rmtree(folder)
    return seeds


STATS = _stats_seeds()


class Blob(bytes):
    """Bytes shown by their size and digest (a failing statistics file is 50 KB)."""

    def __repr__(self) -> str:
        return f"<{len(self):,} bytes, sha256 {hashlib.sha256(self).hexdigest()[:16]}>"


REFUSED = ("another program's", "not a pyramid-solitaire statistics file", "is newer")


@FUZZ
@given(mutated(STATS).map(Blob), st.booleans())
def test_statistics_files(tmp_path_factory, raw, read_only):
    folder = tmp_path_factory.mktemp("stats")
    path = folder / "stats.db"
    path.write_bytes(raw)
    try:
        with StatsStore(path, read_only=read_only) as store:
            store.summary()
            store.high_scores()
            if not read_only:
                store.record(Session("PY1-N-AAAAAAS"), "won")
    except ValueError as e:  # refused, or damaged past its schema: one clear error
        assert str(path) in str(e) and len(str(e)) < len(str(path)) + 400
        if any(text in str(e) for text in REFUSED) or read_only:  # refused: untouched
            assert path.read_bytes() == raw
            assert sorted(os.listdir(folder)) == ["stats.db"]
