#!/usr/bin/env python3
"""Coverage-guided fuzzing (atheris) of the readers of bytes that anyone may have written:
protocol lines, save files and statistics files. tools/fuzz_atheris.py fuzzes the native
entry points; tests/test_fuzz_files.py has the same properties under hypothesis.

An input's first byte picks the target, the rest is the bytes it reads:

- ``0``: protocol lines, one request a line, to ``Server.handle`` and, as one stream, to
  ``serve``: each response is strict JSON, valid against the protocol's schema, ``ok`` or
  an error with a known code; the stream gets a response for each line it holds, up to the
  end;
- ``1``: a save file, to ``Session.load``: a session, or a ValueError naming the file; the
  file is never changed;
- ``2``: a statistics file, to ``StatsStore`` (read-only or not) and its queries: results,
  or a ValueError naming the file; a file refused is left as it was, nothing beside it;
- ``3``: a deals file (``--file``, standard input), read a chunk at a time (the next byte
  picks the chunk size, 1 to 64 bytes or a megabyte): the lines given are those of the whole
  text (when it decodes), or they come before one UsageError naming a line;
- ``4``: the environments' arguments: the bytes made into a seed, reset options and
  actions for ``GameBatch``, ``PyramidVectorEnv`` and ``PyramidEnv``: each call returns or
  raises ValueError with a short message, rewards are finite, a refused step moves nothing.

Anything else (another exception, a crash, a hang past ``-timeout``) stops libFuzzer with
the input in ``crash-<sha1>``; rerun it with ``python tools/fuzz_atheris_files.py
crash-<sha1>``. Without a corpus directory, a temporary one is seeded with real requests,
saves and a statistics file (so that mutations start from the formats, not from noise).

    PYTHONPATH=python:src python tools/fuzz_atheris_files.py -runs=20000 -print_final_stats=1
    PYTHONPATH=python:src python tools/fuzz_atheris_files.py -max_total_time=600 corpus/
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from importlib import resources

import atheris

with atheris.instrument_imports(include=["pyramid_solitaire"]):
    from pyramid_solitaire.analysis.batch import GameBatch
    from pyramid_solitaire.commands import _input
    from pyramid_solitaire.commands.cli import UsageError
    from pyramid_solitaire.session.protocol import Server, serve
    from pyramid_solitaire.session.session import Session
    from pyramid_solitaire.session.stats import StatsStore

    try:
        from pyramid_solitaire.rl.env import PyramidEnv, PyramidVectorEnv
    except ImportError:  # (the rl extra: the env's targets then use the batch alone)
        PyramidEnv = PyramidVectorEnv = None

import io  # noqa: E402
import re  # noqa: E402

import jsonschema  # noqa: E402
import numpy as np  # noqa: E402

SCHEMA = json.loads(
    resources.files("pyramid_solitaire.session")
    .joinpath("protocol.schema.json")
    .read_text(encoding="utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
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
REFUSED = ("another program's", "not a pyramid-solitaire statistics file", "is newer")
WORK = tempfile.mkdtemp(prefix="pyramid-fuzz-")
RUNS = {"protocol": 0, "save": 0, "stats": 0, "deals file": 0, "env arguments": 0}


def check_response(text: str) -> None:
    response = json.loads(text)
    VALIDATOR.validate(response)
    if not response["ok"]:
        assert response["error"]["code"] in CODES, response
        assert len(response["error"]["message"]) < 400


def target_protocol(data: bytes) -> None:
    RUNS["protocol"] += 1
    server = Server(clock=lambda: 0.0, stats_path=os.path.join(WORK, "stats.db"))
    server.handle(b'{"op": "new", "code": "PY1-N-AAAAAAS"}')
    lines = data.split(b"\n")
    for line in lines[:20]:
        check_response(server.handle(line))
    out = io.StringIO()
    assert serve(io.BytesIO(data), out, stats_path=os.path.join(WORK, "stats.db")) == 0
    answers = out.getvalue().splitlines()
    for text in answers:
        check_response(text)
    held = [x for x in data.split(b"\n") if x.strip()]
    quit_seen = any(json.loads(a).get("op") == "quit" for a in answers)
    assert len(answers) == len(held) or quit_seen, (len(answers), len(held))


def target_save(data: bytes) -> None:
    RUNS["save"] += 1
    path = os.path.join(WORK, "game.json")
    with open(path, "wb") as f:
        f.write(data)
    try:
        session = Session.load(path)
    except ValueError as e:
        assert path in str(e) and len(str(e)) < len(path) + 400
    else:
        session.state()
    with open(path, "rb") as f:
        assert f.read() == data


def target_stats(data: bytes) -> None:
    RUNS["stats"] += 1
    read_only = bool(data[:1]) and data[0] & 1 == 1
    data = data[1:]
    folder = os.path.join(WORK, "stats")
    shutil.rmtree(folder, ignore_errors=True)
    os.mkdir(folder)
    path = os.path.join(folder, "stats.db")
    with open(path, "wb") as f:
        f.write(data)
    try:
        with StatsStore(path, read_only=read_only) as store:
            store.summary()
            store.high_scores()
    except ValueError as e:
        assert path in str(e) and len(str(e)) < len(path) + 400
        if read_only or any(text in str(e) for text in REFUSED):
            with open(path, "rb") as f:
                assert f.read() == data
            assert os.listdir(folder) == ["stats.db"], os.listdir(folder)


def target_deals_file(data: bytes) -> None:
    RUNS["deals file"] += 1
    if not data:
        return
    chunk = 1 + data[0] % 64 if data[0] < 250 else 1 << 20
    raw = data[1:]
    old = _input.CHUNK
    _input.CHUNK = chunk
    got = []
    error = None
    try:
        for no, line in _input.iter_lines(io.BytesIO(raw), "f.txt"):
            got.append((no, line))
    except UsageError as e:
        error = str(e)
    finally:
        _input.CHUNK = old
    if error is not None:
        assert error.startswith("f.txt") and len(error) < 400, error
        return
    for bom, codec in (
        (b"\xef\xbb\xbf", "utf-8"),
        (b"\xff\xfe", "utf-16-le"),
        (b"\xfe\xff", "utf-16-be"),
    ):
        if raw.startswith(bom):
            text = raw[len(bom) :].decode(codec)
            break
    else:
        text = raw.decode("utf-8")
    want = []
    for no, line in enumerate(re.split(r"\r\n|\r|\n", text), 1):
        if line.strip():
            want.append((no, line))
    limit = _input.MAX_LINE_CHARS
    if all(len(line) <= limit for _, line in want):
        assert got == want, (got[:3], want[:3])


ANY_VALUES = [None, True, -1, 0, 1, 2**64, 1.5, float("nan"), "x", b"", [1, 2], {}, {"x": 1}]


def _value(data: bytes, k: int) -> object:
    """A value of the k-th byte: one of ANY_VALUES, a whole number, or a list of actions."""
    b = data[k] if k < len(data) else 0
    if b < 128:
        return ANY_VALUES[b % len(ANY_VALUES)]
    if b < 192:
        return int.from_bytes(data[k : k + 8], "little") - (1 << 63)
    return [int(x) - 3 for x in data[k + 1 : k + 5]]


def _refused_or_returns(call) -> object:
    try:
        return call()
    except ValueError as e:
        assert len(str(e)) < 400, str(e)[:200]
        return None


def target_env_arguments(data: bytes) -> None:
    RUNS["env arguments"] += 1
    batch = GameBatch(4, "msc", seed=1, illegal="ignore", autoreset="next_step")
    batch.reset()
    before = batch.get_state()
    if _refused_or_returns(lambda: batch.reset(_value(data, 0))) is None:
        after = batch.get_state()
        assert all(np.array_equal(after[k], before[k]) for k in ("cards", "words"))
    result = _refused_or_returns(lambda: batch.step(_value(data, 1)))
    if result is not None:
        assert np.isfinite(result.reward).all()
    if PyramidVectorEnv is not None:
        vec = PyramidVectorEnv(4, "msc")
        vec.reset(seed=0)
        _refused_or_returns(lambda: vec.reset(seed=_value(data, 2), options=_value(data, 3)))
        out = _refused_or_returns(lambda: vec.step(_value(data, 4)))
        if out is not None:
            assert np.isfinite(out[1]).all()
        env = PyramidEnv("msc")
        env.reset(seed=0)
        _refused_or_returns(lambda: env.reset(seed=_value(data, 5), options=_value(data, 6)))
        _refused_or_returns(lambda: env.step(_value(data, 7)))


TARGETS = [target_protocol, target_save, target_stats, target_deals_file, target_env_arguments]


def test_one_input(data: bytes) -> None:
    if not data:
        return
    TARGETS[data[0] % len(TARGETS)](data[1:])
    total = sum(RUNS.values())
    if total & (total - 1) == 0 and total >= 1024:  # now and then: how many of each
        print(f"inputs run per target: {RUNS}", file=sys.stderr)


def seed(folder: str) -> None:
    """Real requests, saves and a statistics file, each behind its target's byte."""
    requests = [
        {"id": 1, "op": "hello"},
        {"op": "new", "code": "PY1-M-AAAAAAS"},
        {"op": "tap", "target": 22},
        {"op": "drag", "from": 21, "to": 25},
        {"op": "play", "move": "draw"},
        {"op": "undo"},
        {"op": "hint"},
        {"op": "new", "random": {"seed": 5}},
        {"op": "lang", "lang": "vi"},
    ]
    seeds = [
        b"\x00" + b"\n".join(json.dumps(r).encode() for r in requests[i : i + 3])
        for i in range(0, len(requests), 3)
    ]
    for code, profile in (("PY1-N-AAAAAAS", "pyramide"), ("PY1-M-AAAAAAB", "msc")):
        s = Session(code, profile)
        s.tap("stock")
        seeds.append(b"\x01" + s.to_json().encode())
    path = os.path.join(WORK, "seed.db")
    with StatsStore(path) as store:
        store.record(Session("PY1-N-AAAAAAS"), "won")
    with open(path, "rb") as f:
        raw = f.read()
    seeds += [b"\x02\x00" + raw, b"\x02\x01" + raw]
    seeds += [b"\x03\x05" + b"PY1-N-AAAAAAS\r\n5\n# c\r7 8\n", b"\x03\x01\xef\xbb\xbf5\n\x00"]
    seeds += [b"\x04" + bytes(range(0, 256, 17))]
    for i, data in enumerate(seeds):
        with open(os.path.join(folder, f"seed-{i}"), "wb") as f:
            f.write(data)


def main() -> None:
    argv = list(sys.argv)
    if not any(os.path.isdir(a) for a in argv[1:]) and not any(os.path.isfile(a) for a in argv[1:]):
        corpus = tempfile.mkdtemp(prefix="pyramid-corpus-")
        seed(corpus)
        argv.append(corpus)
    if not any(a.startswith("-max_len=") for a in argv):
        argv.append("-max_len=65536")  # a statistics file is about 20 KB
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()  # libFuzzer ends the process itself (WORK is in /tmp)


if __name__ == "__main__":
    main()
