"""``solve --file``, streamed (issue 44): blocks of deals solved by the core's batch entry
point while the file is read and the answers written.

- The answers are the per-deal answers: the same text and JSON as ``solve`` of each deal
  alone and as the API's Solution, for numbers, codes, card lists and two rule sets in one
  file, with --min-moves and --max-removed; a line too long to keep is found again alone.
- A bad line stops the run after the answers before it; Ctrl-C and SIGTERM print what was
  done, its count agreeing with the answers written.
- Answers stream: from a pipe, a deal is answered before the next line is written.
- Speed: the file path within a few times solve_many plus writing, measured back to back
  (bench/test_bench_solve_file.py gives the figure).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid_solitaire import Deal, solve
from pyramid_solitaire.commands import _solve_file
from pyramid_solitaire.model import cards as _cards
from pyramid_solitaire.model.game import DRAW, RECYCLE, Game, card_code, keyed_moves
from pyramid_solitaire.runtime.parallel import map_ordered

from conftest import run_main


def _seconds_out(text: str) -> str:
    """The output with its timings (which vary) written as S."""
    text = re.sub(r'"seconds": [0-9.e-]+', '"seconds": S', text)
    text = re.sub(r"[0-9.]+ s\)", "S s)", text)
    return re.sub(r"; [0-9.]+ s$", "; S s", text, flags=re.M)


def _mixed_file(tmp_path):
    """Numbers, codes of two letters, a card list, comments and blank lines."""
    cards = Deal.from_number(77).to_cards()
    lines = ["# deals", "5", "", "PY1-N-AAAAAAS", "   12  ", cards, "PY1-N-AAAAABC # a code"]
    lines += [str(n) for n in range(100, 140)]
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]


@pytest.mark.parametrize(
    "flags",
    [
        [],
        ["--json"],
        ["--min-moves"],
        ["--max-removed"],
        ["--json", "--max-removed", "--rules", "msc"],
    ],
)
def test_file_answers_are_each_deals_own(capsys, tmp_path, flags):
    """Each answer of the file is the answer `solve` gives that deal alone (one path for
    the single deal, Moves from the game; the file's, card codes from the core)."""
    path, deals = _mixed_file(tmp_path)
    if "msc" in flags:  # an msc run: codes of other letters are refused, so numbers only
        deals = [d for d in deals if d.isdigit()]
        path.write_text("\n".join(deals) + "\n")
    status, out, _ = run_main(capsys, "solve", "--file", str(path), *flags)
    assert status == 0
    alone = []
    for deal in deals:
        s, one, _ = run_main(capsys, "solve", deal, *flags)
        assert s == 0
        alone.append(one.rstrip("\n"))
    got = out.rstrip("\n")
    if "--json" not in flags:
        got = got.rsplit("\n", 1)[0]  # (the summary line)
    assert _seconds_out(got) == _seconds_out("\n".join(alone))


def test_file_json_is_the_solutions_dict(capsys, tmp_path):
    """--json's rows are Solution.to_dict() of each deal, named as the line names it."""
    path, deals = _mixed_file(tmp_path)
    status, out, _ = run_main(capsys, "solve", "--file", str(path), "--json", "--min-moves")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == len(deals)
    for row, deal in zip(rows, deals):
        want = solve(Deal.parse(deal) if not deal.isdigit() else int(deal), objective="min_moves")
        d = want.to_dict()
        assert row["deal"] == (d["deal"] if d["deal"] and d["deal"].startswith("PY1") else deal)
        for key in ("rules", "objective", "winnable", "n_moves", "optimal", "moves", "nodes"):
            assert row[key] == d[key], (deal, key)


def test_a_line_too_long_to_keep_is_found_again_alone(capsys, tmp_path, monkeypatch):
    """A line longer than what a block keeps a deal (LINE_WIDTH moves) is solved again
    alone: the same answers as with room for every line."""
    path, _ = _mixed_file(tmp_path)
    args = ("solve", "--file", str(path), "--json", "--max-removed")
    _, want, _ = run_main(capsys, *args)
    monkeypatch.setattr(_solve_file, "LINE_WIDTH", 3)
    _, got, _ = run_main(capsys, *args)
    assert _seconds_out(got) == _seconds_out(want)


def test_card_codes_read_back_as_the_moves():
    """keyed_moves and card_code agree with the Move of every legal move of some games (the
    table the file path writes with is the Move's own text)."""
    text, symbols = keyed_moves("text"), keyed_moves("symbols")
    for number in range(5):
        game = Game(number)
        for _ in range(40):
            moves = game.legal_moves
            if not moves:
                break
            for m in moves:
                assert text[card_code(m)] == str(m)
                assert symbols[card_code(m)] == m.symbols()
            game.play(moves[-1])
    assert text[DRAW] == "draw" and text[RECYCLE] == "recycle"


def test_a_bad_line_stops_the_run_after_the_answers_before_it(capsys, tmp_path):
    path = tmp_path / "d.txt"
    path.write_text("".join(f"{i}\n" for i in range(300)) + "bogus\n" + "5\n")
    status, out, err = run_main(capsys, "solve", "--file", str(path))
    assert status == 2
    assert out.count("PY1-") == 300
    assert "300 deals before the bad line: " in out
    assert err.strip().splitlines()[-1].startswith("pyramid-solitaire: error: ")
    assert "line 301" in err
    status, out, err = run_main(capsys, "solve", "--file", str(path), "--skip-bad")
    assert status == 0 and out.count("PY1-") == 301 and "line 301" in err


def test_a_nul_byte_stops_the_run_after_the_answers_before_it(capsys, tmp_path):
    """An error of the reader itself (not of a line's deal) comes after the answers of
    the lines read before it."""
    path = tmp_path / "d.txt"
    path.write_bytes(b"".join(b"%d\n" % i for i in range(20)) + b"\x00\n")
    status, out, err = run_main(capsys, "solve", "--file", str(path))
    assert status == 2
    assert out.count("PY1-") == 20
    assert "line 21: a NUL byte" in err


def _cli(*argv, **kw):
    return subprocess.Popen(
        [sys.executable, "-m", "pyramid_solitaire", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kw,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals (send_signal SIGINT)")
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_an_interruption_prints_what_was_done(sig):
    """Ctrl-C or SIGTERM while deals are being solved and written (the reader slow, so
    that writes block): the summary counts exactly the answers written, every answer is
    whole, and the status is 130 or 143."""
    proc = _cli("solve", "--file", "-", "--rules", "classic-draw3")
    proc.stdin.write("".join(f"{i}\n" for i in range(3000)).encode())
    proc.stdin.flush()
    time.sleep(2.0)  # some blocks answered, the pipe to the reader full
    proc.send_signal(getattr(signal, sig))
    out, err = proc.communicate(timeout=60)
    text = out.decode()
    assert proc.returncode == (130 if sig == "SIGINT" else 143), err
    heads = [line for line in text.splitlines() if line.startswith("PY1-")]
    m = re.search(r"^([\d,]+) deals before the interruption: ", text, re.M)
    assert m is not None, text[-500:]
    assert int(m.group(1).replace(",", "")) == len(heads) > 0
    assert text.endswith("s\n")  # the summary is the last line: no answer cut short
    assert err.decode().strip().endswith("interrupted" if sig == "SIGINT" else "terminated")


def test_answers_stream_from_a_pipe():
    """A deal written to standard input is answered before the next one is written."""
    proc = _cli("solve", "-")
    try:
        for number in (5, 6, 7):
            proc.stdin.write(b"%d\n" % number)
            proc.stdin.flush()
            line = proc.stdout.readline().decode()
            assert line.startswith(Deal.from_number(number).code), line
            moves = re.search(r"winning line of (\d+) moves", line)
            for _ in range(0 if moves is None else -(-int(moves.group(1)) // 6)):
                proc.stdout.readline()  # the rest of the answer: its rows of moves
    finally:
        out, _ = proc.communicate(timeout=30)  # (closes standard input: the end)
    assert proc.returncode == 0
    assert "3 deals: " in out.decode()


@pytest.mark.alone  # (speeds compared: conftest.py)
def test_the_file_path_keeps_up_with_solve_many(tmp_path):
    """The file path (reading, solving, writing) within three times solve_many plus writing
    the same answers, measured back to back in this process (the bench says 1.3-1.8)."""
    from pyramid_solitaire import solve_many
    from pyramid_solitaire.commands._answers import render
    from pyramid_solitaire.commands.cli import build_parser, main, write_whole

    n = 20_000
    path = tmp_path / "d.txt"
    path.write_text("".join(f"{i}\n" for i in range(n)))
    args = build_parser().parse_args(["solve", "--file", str(path), "--json"])
    blocks = list(_solve_file._blocks(str(path), args, []))
    budget = {"max_nodes": None, "max_seconds": None, "max_memory": 1 << 30}
    flag = np.zeros(1, np.uint8)
    answers = [_solve_file._solve_block(b, args, "any", budget, flag)[1] for b in blocks]
    with open(os.devnull, "w") as sink:
        saved = sys.stdout
        sys.stdout = sink
        try:
            ratios = []
            for _ in range(3):  # the best of three: a noisy host's spells are not the code
                t0 = time.perf_counter()
                solve_many(range(n))
                for a in answers:
                    write_whole(render(args, a))
                t2 = time.perf_counter()
                assert main(["solve", "--file", str(path), "--json"]) == 0
                t3 = time.perf_counter()
                ratios.append((t3 - t2) / (t2 - t0))
        finally:
            sys.stdout = saved
    assert min(ratios) < 3.0, ratios


def test_map_ordered_streams_and_raises_in_turn():
    """A stream's items are mapped in order; its error comes after the results before it."""

    def items():
        yield from range(10)
        raise ValueError("the stream broke")

    got = []
    with pytest.raises(ValueError, match="the stream broke"):
        for x in map_ordered(lambda i, flag: i * i, items(), 2):
            got.append(x)
    assert got == [i * i for i in range(10)]
    assert list(map_ordered(lambda i, flag: -i, iter(range(50)), 3)) == [-i for i in range(50)]


_SPELLINGS = sorted(_cards._SPELLED)


@settings(max_examples=300, deadline=None)
@given(
    st.permutations(range(52)),
    st.lists(st.sampled_from(_SPELLINGS), min_size=52, max_size=52),
    st.sampled_from([" ", "  ", "\t", ", ", " | "]),
    st.booleans(),
)
def test_a_plain_card_list_reads_as_the_tokenizer_reads_it(order, spellings, sep, twice):
    """The looked-up read of a plain card list gives what the tokenizer gives, cards or
    error (a card twice, a comma between tokens: the tokenizer's path)."""
    by_card = {}
    for s in spellings:
        by_card.setdefault(_cards._SPELLED[s], s)
    tokens = [by_card.get(_cards.CARDS[c], _cards.TOKENS[c]) for c in order]
    if twice:
        tokens[5] = tokens[6]
    text = sep.join(tokens)
    try:
        want = [_cards._card_of(_cards._TOKEN.fullmatch(t)) for _, t, _ in _cards._tokens(text)]
        if len(set(want)) != 52 or len(want) != 52:
            want = None
    except (AttributeError, TypeError):
        want = None
    if want is None:
        with pytest.raises(ValueError):
            _cards.parse_cards(text)
    else:
        assert _cards.parse_cards(text) == want


@pytest.mark.parametrize("line", ["-1", "99999999999", "18.0"])
def test_a_number_that_is_no_deal_number_is_a_bad_line(capsys, tmp_path, line):
    """Named with its line, after the answers before it, and skipped by --skip-bad."""
    path = tmp_path / "d.txt"
    path.write_text(f"5\n{line}\n6\n")
    status, out, err = run_main(capsys, "solve", "--file", str(path))
    assert status == 2 and out.count("PY1-") == 1
    assert "d.txt, line 2: a deal number" in err
    status, out, err = run_main(capsys, "solve", "--file", str(path), "--skip-bad")
    assert status == 0 and out.count("PY1-") == 2 and "line 2" in err
