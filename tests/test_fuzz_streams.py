"""Fuzzing (hypothesis) the streamed readers of ``--file`` and standard input, and the
environments' ``reset`` / ``step`` arguments (issue 44).

- Readers: any text in UTF-8 (with or without its byte-order mark) or UTF-16 with one,
  lines ending in any of ``\\n``, ``\\r\\n``, ``\\r``, read a chunk at a time for chunk sizes
  down to one byte, with a NUL byte or bytes that are not UTF-8 put anywhere: the lines
  given are the whole text's (their numbers an editor's), those before a bad byte are
  given before the error, and the error is a UsageError naming the line of the bad byte.
- ``solve --file`` on such files: the same answers as the deals one by one, whatever the
  chunk size and the block size.
- The environments: ``reset(seed=..., options=...)`` and ``step(actions)`` with anything
  return or raise ValueError with a short message (never TypeError, IndexError, a NaN
  reward, a crash), and a refused call changes nothing.

PYRAMID_FUZZ_EXAMPLES sets the examples per test (200 by default); tools/fuzz_atheris_files.py
has coverage-guided targets for the same readers and arguments.
"""

from __future__ import annotations

import io
import os
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pyramid_solitaire.analysis.batch import GameBatch
from pyramid_solitaire.commands import _input
from pyramid_solitaire.commands.cli import UsageError

FUZZ = settings(
    max_examples=int(os.environ.get("PYRAMID_FUZZ_EXAMPLES", 200)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MAX_MESSAGE = 400

PIECES = ["5", "PY1-N-AAAAAAS", " ", "\t", "\n", "\r", "\r\n", "#", "é", "♣", "\u2028", "x"]
ENCODINGS = [("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b"\xff\xfe")]
ENCODINGS += [("utf-16-be", b"\xfe\xff")]


def _lines_of(text: str) -> list[tuple[int, str]]:
    return [(no, raw) for no, raw in enumerate(re.split(r"\r\n|\r|\n", text), 1) if raw.strip()]


def _read(data: bytes, chunk: int) -> tuple[list[tuple[int, str]], str | None]:
    old = _input.CHUNK
    _input.CHUNK = chunk
    got: list[tuple[int, str]] = []
    try:
        for no, line in _input.iter_lines(io.BytesIO(data), "f.txt"):
            got.append((no, line))
    except UsageError as e:
        return got, str(e)
    finally:
        _input.CHUNK = old
    return got, None


@FUZZ
@given(
    st.lists(st.sampled_from(PIECES), max_size=50),
    st.sampled_from(ENCODINGS),
    st.sampled_from([1, 2, 3, 4, 7, 16, 1 << 20]),
)
def test_a_text_reads_as_its_lines_in_any_encoding_and_chunk(parts, encoding, chunk):
    text = "".join(parts)
    codec, bom = encoding
    got, error = _read(bom + text.encode(codec), chunk)
    assert error is None
    assert got == _lines_of(text)


@FUZZ
@given(
    st.lists(st.sampled_from(PIECES), max_size=40),
    st.data(),
    st.sampled_from([b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80"]),
    st.sampled_from([1, 2, 5, 16, 1 << 20]),
)
@example(["5", "\r", "5"], None, b"\x00", 1)
def test_a_bad_byte_stops_the_reading_after_the_lines_before_it(parts, data, bad, chunk):
    """A NUL or a byte that is not UTF-8, anywhere (UTF-8 text): the lines before its line
    come first, then one error naming that line."""
    text = "".join(parts)
    raw = text.encode()
    cuts = [i for i in range(len(raw) + 1) if i == len(raw) or (raw[i] & 0xC0) != 0x80]
    at = data.draw(st.sampled_from(cuts)) if data is not None else len(raw)
    got, error = _read(raw[:at] + bad + raw[at:], chunk)
    assert error is not None and len(error) <= MAX_MESSAGE
    line = len(re.split(r"\r\n|\r|\n", raw[:at].decode()))  # (a \r just before it ends a line)
    assert f"f.txt, line {line}:" in error, (error, line)
    if bad != b"\x00":
        assert f"byte 0x{bad[0]:02x} is not UTF-8" in error, error
    want = [(no, s) for no, s in _lines_of(raw[:at].decode()) if no < line]
    assert got == want


@FUZZ
@given(
    st.lists(
        st.one_of(
            st.integers(0, 2000).map(str),
            st.sampled_from(["PY1-N-AAAAAAS", "PY1-N-AAAAABC", "# c", "", "  "]),
        ),
        min_size=1,
        max_size=30,
    ),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.sampled_from([1, 3, 64, 1 << 20]),
    st.sampled_from([1, 2, 8]),
)
def test_solve_file_answers_as_the_deals_one_by_one(lines, end, chunk, block):
    """Whatever the chunk and block sizes, solve --file --json gives each deal's answer."""
    import contextlib
    import json

    from pyramid_solitaire import solve
    from pyramid_solitaire.commands import _solve_file
    from pyramid_solitaire.commands.cli import main

    deals = [s for s in lines if s.strip() and not s.startswith("#")]
    data = end.join(lines).encode()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "d.txt")
        with open(path, "wb") as f:
            f.write(data)
        old = _input.CHUNK, _solve_file.BLOCK, _solve_file.FIRST_BLOCK
        _input.CHUNK, _solve_file.BLOCK, _solve_file.FIRST_BLOCK = chunk, block, 1
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                status = main(["solve", "--file", path, "--json"])
        except SystemExit as e:
            status = e.code
        finally:
            _input.CHUNK, _solve_file.BLOCK, _solve_file.FIRST_BLOCK = old
    if not deals:
        assert status == 2
        return
    assert status == 0
    rows = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(rows) == len(deals)
    for row, deal in zip(rows, deals):
        want = solve(int(deal) if deal.isdigit() else deal)
        assert (row["winnable"], row["moves"]) == (
            want.winnable,
            [str(m) for m in want.moves or []] or None,
        )


# ---- the environments' arguments ------------------------------------------------------------

ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.binary(max_size=4),
    st.lists(st.integers(-5, 2**64), max_size=5),
    st.dictionaries(st.text(max_size=6), st.integers(-2, 3), max_size=3),
    st.just(np.array([1.5, np.nan])),
    st.just(object()),
)
N = 4


def _actions():
    return st.one_of(
        ANY,
        st.lists(st.integers(-3, 104), min_size=N, max_size=N),
        st.lists(st.floats(allow_nan=True), min_size=N, max_size=N),
        st.lists(st.one_of(st.integers(0, 101), st.text(max_size=2)), min_size=N, max_size=N),
        st.integers(0, 101).map(lambda a: np.full(N, a, np.int64)),
        st.sampled_from([np.int8, np.uint64, np.float32, np.bool_]).map(lambda t: np.zeros(N, t)),
    )


def _short_value_error(call):
    """call() returns, or raises ValueError with a short message."""
    try:
        return call(), None
    except ValueError as e:
        assert len(str(e)) <= MAX_MESSAGE, str(e)[:200]
        return None, e


@FUZZ
@given(ANY, _actions(), st.sampled_from(["raise", "ignore", "penalty"]))
def test_batch_reset_and_step_take_anything(games, actions, illegal):
    batch = GameBatch(N, "msc", seed=1, illegal=illegal, autoreset="next_step")
    batch.reset()
    before = batch.get_state()
    _, error = _short_value_error(lambda: batch.reset(games))
    if error is not None:
        after = batch.get_state()
        for k in before:
            np.testing.assert_array_equal(after[k], before[k])
    before = batch.get_state()
    result, error = _short_value_error(lambda: batch.step(actions))
    if error is not None:  # a refused step moves no game
        after = batch.get_state()
        for k in ("cards", "words", "obs", "mask"):
            np.testing.assert_array_equal(after[k], before[k])
    else:
        assert np.isfinite(result.reward).all()


@FUZZ
@given(ANY, ANY, _actions())
def test_vector_env_reset_and_step_take_anything(seed, options, actions):
    pytest.importorskip("gymnasium", reason="the rl extra (gymnasium)")
    from pyramid_solitaire.rl.env import PyramidVectorEnv

    vec = PyramidVectorEnv(N, "msc")
    vec.reset(seed=0)
    _short_value_error(lambda: vec.reset(seed=seed, options=options))
    _short_value_error(lambda: vec.reset(seed=seed))
    out, _ = _short_value_error(lambda: vec.step(actions))
    if out is not None:
        assert np.isfinite(out[1]).all()


@FUZZ
@given(ANY, ANY, ANY)
def test_single_env_reset_and_step_take_anything(seed, options, action):
    pytest.importorskip("gymnasium", reason="the rl extra (gymnasium)")
    from pyramid_solitaire.rl.env import PyramidEnv

    env = PyramidEnv("msc")
    env.reset(seed=0)
    _short_value_error(lambda: env.reset(seed=seed, options=options))
    _short_value_error(lambda: env.reset(seed=seed))
    out, _ = _short_value_error(lambda: env.step(action))
    if out is not None:
        assert np.isfinite(out[1])
