"""The third hardening pass (issue 44): each case it names, pinned, and the class around it.

- One rule for every number a user writes: digits, underscores only between digits (as
  Python writes them), no commas; the refusal says which rule was broken.
- A deal number is said to be one: "-1", "18.0" or "1,000" given as a deal is refused as a
  deal number, never read as a card list.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramid_solitaire import Game
from pyramid_solitaire.runtime.args import memory, real, whole

from conftest import repo_file, run_main

# ---- numbers -------------------------------------------------------------------------------


@given(st.text(alphabet="0123456789_,", min_size=1, max_size=12))
def test_whole_numbers_follow_pythons_rule_for_underscores(text):
    """whole() reads a text of digits, underscores and commas exactly as Python's int()
    does: the same value, or a refusal (commas are never separators)."""
    try:
        want = int(text)
    except ValueError:
        with pytest.raises(ValueError):
            whole("n", text)
    else:
        assert whole("n", text) == want


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("1,5", "no commas"),
        ("1,,0", "no commas"),
        ("5_", "between two digits"),
        ("_5", "between two digits"),
        ("1__0", "between two digits"),
    ],
)
def test_a_separator_out_of_place_is_named(text, said):
    for read in (lambda t: whole("--games", t), lambda t: real("--max-seconds", t)):
        with pytest.raises(ValueError, match=said):
            read(text)
    with pytest.raises(ValueError, match=said):
        memory("--max-memory", text + "MB")


def test_underscores_between_digits_read_everywhere():
    assert whole("n", "1_000") == 1000
    assert real("s", "1_5.2_5") == 15.25
    assert memory("m", "1_024MB") == 1024 << 20


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "1,5"],
        ["simulate", "--games", "1,,0"],
        ["simulate", "--games", "5_"],
        ["simulate", "--games", "10", "--max-seconds", "1,5", "--policy", "solver"],
        ["solve", "7", "--max-nodes", "1,000"],
    ],
)
def test_the_command_line_refuses_separators_out_of_place(capsys, argv):
    code, out, err = run_main(capsys, *argv)
    assert code == 2 and not out, (out, err)
    assert len(err.strip().splitlines()) == 1
    assert "no commas" in err or "between two digits" in err


# ---- deal numbers --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["-1", "18.0", "1e3", "1,000", "+5", "2_"])
def test_a_deal_number_out_of_its_form_is_said_to_be_one(capsys, tmp_path, text):
    with pytest.raises(ValueError, match="a deal number is a whole number 0..") as e:
        Game(text)
    assert "card" not in str(e.value)
    for argv in (["deal", text], ["stats", "--db", str(tmp_path / "s.db"), "--deal", text]):
        code, out, err = run_main(capsys, *argv)
        assert code == 2 and "a deal number is a whole number" in err, (argv, err)
        assert "not a card" not in err


def test_underscores_in_a_deal_number():
    assert Game("1_000").deal.number == 1000


# ---- a deal that names no rules ------------------------------------------------------------


def test_a_deal_with_a_number_but_no_rules_plays_as_its_cards_do():
    from pyramid_solitaire import Deal, simulate, solve, solve_many

    numbered = Deal(Deal.from_number(18).cards, number=18)
    bare = Deal(numbered.cards)
    assert numbered.rules is None and numbered.code is not None
    assert Game(numbered).rules == Game(bare).rules == Game(18).rules
    assert solve(Game(numbered)).winnable == solve(Game(bare)).winnable
    assert list(solve_many([numbered]).winnable) == list(solve_many([bare]).winnable)
    assert simulate(deals=[numbered]).wins == simulate(deals=[bare]).wins
    assert Game(Deal.from_code("PY1-X-AAAAAAS")).rules.name == "pyramide"  # a Deal object
    with pytest.raises(ValueError, match="custom rules"):
        Game("PY1-X-AAAAAAS")  # a code names its rules: X names none


# ---- the protocol --------------------------------------------------------------------------


def test_the_protocol_answers_as_the_command_line_does():
    import json

    from pyramid_solitaire.session.protocol import Server

    server = Server(clock=lambda: 0.0)

    def ask(request):
        return json.loads(server.handle(json.dumps(request)))

    r = ask({"op": "new", "code": "PY1-X-AAAAAAS"})
    assert not r["ok"] and r["error"]["code"] == "bad_request"
    assert "custom rules" in r["error"]["message"] and "profile" in r["error"]["message"]
    r = ask({"op": "new", "code": "PY1-X-AAAAAAS", "profile": "classic"})
    assert r["ok"] and r["state"]["rules"]["name"] == "classic"
    for move in (123, None, 1.5, ["Kd"], {"m": 1}, True):
        r = ask({"op": "play", "move": move})
        assert not r["ok"] and r["error"]["code"] == "bad_request", move
    r = ask({"op": "play", "move": "nonsense"})
    assert r["ok"] and r["messages"][0]["code"] == "illegal_move"


def test_play_refuses_an_x_code_without_a_game(capsys):
    code, out, err = run_main(capsys, "play", "PY1-X-AAAAAAS")
    assert code == 2 and "custom rules" in err and "--profile" in err


# ---- empty names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--file", ""],
        ["simulate", "--file", ""],
        ["solve", "--file", "  "],
        ["stats", "--db", ""],
        ["survey", "--out", "", "--count", "5"],
        ["survey", "report", ""],
        ["play", "--save", "", "3"],
        ["atlas", "report", "--out", ""],
    ],
)
def test_an_empty_name_is_an_error_on_the_command_line(capsys, argv):
    code, out, err = run_main(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "empty name" in err


def test_an_empty_name_is_an_error_in_the_library(tmp_path):
    from pyramid_solitaire.analysis import survey
    from pyramid_solitaire.session import Session, StatsStore

    for make in (
        lambda: StatsStore(""),
        lambda: survey.survey("", rules="msc", policy="greedy", count=5),
        lambda: survey.report(""),
        lambda: Session(7).save(""),
        lambda: Session.load(" "),
    ):
        with pytest.raises(ValueError, match="file or folder name"):
            make()


# ---- a batch before its first reset --------------------------------------------------------


def test_a_batch_refuses_everything_until_it_is_dealt():
    from pyramid_solitaire.batch import GameBatch

    b = GameBatch(3, rules="msc")
    reads = {
        "step": lambda: b.step([0, 0, 0]),
        "step_random": b.step_random,
        "observe": b.observe,
        "rollout": lambda: b.rollout(1),
        "won": lambda: b.won,
        "moves": lambda: b.moves,
        "episodes": lambda: b.episodes,
        "positions": lambda: b.positions,
        "deal_numbers": lambda: b.deal_numbers,
        "numbered": lambda: b.numbered,
        "deal_codes": lambda: b.deal_codes,
        "deal": lambda: b.deal(0),
        "code": lambda: b.code(0),
        "codes": b.codes,
        "game": lambda: b.game(0),
        "labels": b.labels,
        "fair_actions": b.fair_actions,
        "fair_counts": b.fair_counts,
    }
    for _name, read in reads.items():
        with pytest.raises(ValueError, match=r"call reset\(\) before .*not dealt yet"):
            read()
    b.reset()
    assert not b.won.any() and b.game(0).deal.number is not None
    assert b.labels() is not None


def test_an_env_renders_only_once_reset():
    pytest.importorskip("gymnasium", reason="the rl extra (gymnasium)")
    from pyramid_solitaire.env import PyramidEnv

    env = PyramidEnv(rules="msc", render_mode="ansi")
    for call in (env.render, env.action_masks):
        with pytest.raises(ValueError, match=r"call reset\(\) before"):
            call()
    env.reset(seed=3)
    assert "Stock" in env.render()


# ---- the web server's log ------------------------------------------------------------------


def _raw_request(port: int, data: bytes) -> bytes:
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        got = b""
        while b"\r\n\r\n" not in got:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
        return got


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",  # a long URL
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"b" * 9000 + b"\r\n\r\n",
        b"GET /\xff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",  # a byte that is no text
    ],
)
def test_a_request_the_server_cannot_parse_is_logged_in_one_line(tmp_path, caplog, request_bytes):
    pytest.importorskip("aiohttp", reason="the web extra (aiohttp)")
    import logging
    import time

    from test_web import serving

    with caplog.at_level(logging.DEBUG, logger="aiohttp.server"):
        with serving(tmp_path) as server:
            answer = _raw_request(server.port, request_bytes)
            time.sleep(0.2)  # the log record is written once the answer is sent
    assert answer.split(b" ")[1] == b"400", answer[:80]
    records = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert records, "nothing was logged"
    for r in records:
        text = r.getMessage()
        assert r.exc_info is None and "\n" not in text and text.startswith("bad request from")


# ---- words ---------------------------------------------------------------------------------


def test_one_deal_is_one_deal(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"PY1-N-AAAAAAS\n")))
    code, out, err = run_main(capsys, "solve", "-")
    assert code == 0 and "\n1 deal: 1 winnable" in "\n" + out


def test_play_names_its_own_flag_when_a_code_disagrees(capsys):
    code, out, err = run_main(capsys, "play", "PY1-M-AAAAAAS", "--profile", "pyramide")
    assert code == 2 and "--profile pyramide plays the pyramide rules" in err
    assert "rules=" not in err


@pytest.mark.parametrize("module", ["pyarrow", "pyarrow.parquet"])
def test_a_missing_extra_is_one_line_everywhere(capsys, monkeypatch, tmp_path, module):
    import sys

    monkeypatch.setitem(sys.modules, module, None)  # as if the survey extra were missing
    for argv in (
        ["survey", "report", str(tmp_path)],
        ["survey", "--out", str(tmp_path / "s"), "--count", "5"],
    ):
        code, out, err = run_main(capsys, *argv)
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert "pyramid-solitaire[survey]" in err and "Traceback" not in err


# ---- the terminal game and `timeout` -------------------------------------------------------


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGCONT"), reason="POSIX signals only")
def test_the_terminal_game_ends_on_sigterm_then_sigcont_as_on_sigterm(tmp_path):
    """`timeout` sends SIGTERM then SIGCONT: the game ends as on SIGTERM alone (its save
    kept, one line, status 143), never with Textual's "no running event loop"."""
    pytest.importorskip("textual", reason="the tui extra (textual)")
    import os
    import signal
    import subprocess
    import sys
    import time

    save = tmp_path / "game.json"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pyramid_solitaire", "play", "3", "--save", str(save)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    for _ in range(100):  # the game started: its save is written at the start
        if save.exists() or proc.poll() is not None:
            break
        time.sleep(0.1)
    time.sleep(0.5)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGTERM)
    proc.send_signal(signal.SIGCONT)
    _, err = proc.communicate(timeout=30)
    text = err.decode(errors="replace")
    assert proc.returncode == 143, text[-500:]
    assert "RuntimeError" not in text and "Traceback" not in text
    assert text.rstrip().endswith("pyramid-solitaire: terminated")
    assert save.exists()


# ---- a file where a folder must be ---------------------------------------------------------


def test_a_file_in_the_path_is_named_once(capsys, tmp_path, monkeypatch):
    (tmp_path / "file.txt").write_text("x")
    part = str(tmp_path / "file.txt")
    for argv in (
        ["play", "--save", f"{part}/x.json", "3"],
        ["stats", "--db", f"{part}/x.db"],
    ):
        code, out, err = run_main(capsys, *argv)
        assert code == 2 and f"{part} is a file, not a folder" in err, err
        assert len(err.strip().splitlines()) == 1
    monkeypatch.setenv("XDG_DATA_HOME", part)
    code, out, err = run_main(capsys, "stats")
    assert code == 2 and f"{part} is a file, not a folder" in err, err


def test_a_save_into_a_file_path_names_the_file(tmp_path):
    from pyramid_solitaire.session import Session

    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(OSError, match="is a file, not a folder"):
        Session(7).save(tmp_path / "file.txt" / "x.json")


# ---- saves: which field is wrong ----------------------------------------------------------


def test_a_bad_save_names_its_field_in_words(tmp_path):
    import json

    from pyramid_solitaire.session import Session

    s = Session(7, clock=lambda: 0.0)
    s.tap(22)
    s.save(tmp_path / "good.json")
    doc = json.loads((tmp_path / "good.json").read_text())
    junk = ("junk", [1, {"a": None}], {"x": 1}, 3.5, None, True)
    for key in doc:
        for value in junk:
            bad = {**doc, key: value}
            (tmp_path / "bad.json").write_text(json.dumps(bad))
            try:
                Session.load(tmp_path / "bad.json")
            except ValueError as e:
                text = str(e)
                for python_words in ("Error:", "malformed", "object has no attribute"):
                    assert python_words not in text, (key, value, text)
        bad = {k: v for k, v in doc.items() if k != key}
        (tmp_path / "bad.json").write_text(json.dumps(bad))
        try:
            Session.load(tmp_path / "bad.json")
        except ValueError as e:
            assert "Error:" not in str(e) and "malformed" not in str(e), (key, str(e))
    for key in ("undo", "redo"):
        (tmp_path / "bad.json").write_text(json.dumps({**doc, key: [{"move": "draw"}]}))
        with pytest.raises(ValueError, match=rf"{key}\[0\] has no 'points'"):
            Session.load(tmp_path / "bad.json")


# ---- surveys: undecided deals, and a run that never started -------------------------------


def test_a_survey_with_undecided_deals_says_so_and_exits_with_the_budget_status(capsys, tmp_path):
    pytest.importorskip("pyarrow", reason="the survey extra (pyarrow)")
    argv = ["survey", "--out", str(tmp_path / "s"), "--rules", "classic-draw3"]
    code, out, err = run_main(capsys, *argv, "--count", "100", "--max-seconds", "0.000001")
    assert code == 1, (out, err)  # EXIT_BUDGET, as solve's
    assert "undecided (a budget ran out)" in out and "a budget ran out before" in err
    from pyramid_solitaire.analysis import survey

    rep = survey.report(tmp_path / "s")
    assert rep["deals"] - rep["decided"] == int(out.split("; ")[-1].split()[0])


def test_a_survey_that_never_started_leaves_nothing(capsys, tmp_path):
    pytest.importorskip("pyarrow", reason="the survey extra (pyarrow)")
    pytest.importorskip("distributed", reason="the distributed extra (dask.distributed)")
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out_dir = tmp_path / "never"
    code, out, err = run_main(
        capsys,
        "survey",
        "--out",
        str(out_dir),
        "--rules",
        "msc",
        "--policy",
        "greedy",
        "--count",
        "10",
        "--scheduler",
        f"tcp://127.0.0.1:{port}",
    )
    assert code == 2 and "cannot reach the Dask scheduler" in err
    assert not out_dir.exists()


def test_simulate_advises_what_works_for_a_file_of_two_rule_sets(capsys, tmp_path):
    both = tmp_path / "two.txt"
    both.write_text("PY1-M-AAAAAAS\nPY1-N-AAAAAAT\n")
    code, out, err = run_main(capsys, "simulate", "--file", str(both))
    assert code == 2 and "deal numbers or card lists" in err and "or give --rules" not in err
    numbers = tmp_path / "numbers.txt"  # what it advises: the deals as numbers, --rules
    numbers.write_text("18\n19\n")
    code, out, err = run_main(capsys, "simulate", "--file", str(numbers), "--rules", "msc")
    assert code == 0, err


# ---- the environment's contract ------------------------------------------------------------


@pytest.mark.parametrize("first", ["pyramid_solitaire", "gymnasium"])
def test_the_env_id_is_known_whichever_is_imported_first(first):
    pytest.importorskip("gymnasium", reason="the rl extra (gymnasium)")
    import subprocess
    import sys

    second = "gymnasium" if first == "pyramid_solitaire" else "pyramid_solitaire"
    code = (
        f"import sys, {first}, {second}\n"
        "env = gymnasium.make('pyramid_solitaire/Pyramid-v0', rules='msc')\n"
        "vec = gymnasium.make_vec('pyramid_solitaire/Pyramid-v0', num_envs=2, rules='msc')\n"
        "print(type(env.unwrapped).__name__, type(vec).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["PyramidEnv", "PyramidVectorEnv"]
    alone = subprocess.run(
        [sys.executable, "-c", "import sys, pyramid_solitaire; print('gymnasium' in sys.modules)"],
        capture_output=True,
        text=True,
    )
    assert alone.stdout.strip() == "False"  # the package alone imports nothing of it


def test_same_step_final_info_keeps_the_ended_episodes_facts():
    gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium)")
    import numpy as np

    from pyramid_solitaire.env import PyramidEnv, PyramidVectorEnv

    same = gymnasium.vector.AutoresetMode.SAME_STEP
    vec = PyramidVectorEnv(3, rules="msc", observation="full", autoreset_mode=same)
    sync = gymnasium.vector.SyncVectorEnv(
        [lambda: PyramidEnv(rules="msc", observation="full") for _ in range(3)],
        autoreset_mode=same,
    )
    _, info = vec.reset(seed=5)
    sync.reset(seed=5)
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(400):
        acts = np.array([rng.choice(np.flatnonzero(r)) for r in info["action_mask"]])
        _, reward, term, trunc, info = vec.step(acts)
        assert reward.dtype == np.float64
        if "final_info" in info:
            final = info["final_info"]
            ended = info["_final_info"]
            for key in ("action_mask", "moves", "illegal", "deal", "code"):
                assert key in final and list(final["_" + key]) == list(ended), key
            for i in np.flatnonzero(ended):
                assert final["moves"][i] > 0 and final["code"][i].startswith("PY1-M-")
                assert final["code"][i] != info["code"][i] or final["deal"][i] != info["deal"][i]
            seen += 1
    assert seen
    # the keys Gymnasium's own vector env gives an ended episode's info are all here too
    _, _, _, _, sync_info = sync.step(np.zeros(3, np.int64))
    for _ in range(400):
        if "final_info" in sync_info:
            break
        acts = np.array([rng.choice(np.flatnonzero(r)) for r in sync_info["action_mask"]])
        _, r, _, _, sync_info = sync.step(acts)
        assert r.dtype == np.float64
    keys = {k for k in sync_info["final_info"] if not k.startswith("_")}
    assert keys <= set(final), keys - set(final)


def test_reset_refuses_options_and_seeds_it_does_not_take():
    pytest.importorskip("gymnasium", reason="the rl extra (gymnasium)")
    import numpy as np

    from pyramid_solitaire.env import PyramidEnv, PyramidVectorEnv

    env, vec = PyramidEnv(rules="msc"), PyramidVectorEnv(4, rules="msc")
    for bad in (5, "deal", [1]):
        with pytest.raises(ValueError, match="options must be a dict"):
            env.reset(options=bad)
        with pytest.raises(ValueError, match="options must be a dict"):
            vec.reset(options=bad)
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"dael": 18})
    with pytest.raises(ValueError, match="unknown reset option"):
        vec.reset(options={"reset_mask": np.ones(4, bool), "x": 1})
    with pytest.raises(ValueError, match="seed must be"):
        env.reset(seed=-1)
    vec.reset(seed=3)
    mask = np.array([True, False, True, False])
    _, info = vec.reset(options={"reset_mask": mask})
    assert list(info["_moves"]) == list(mask) and list(info["_action_mask"]) == list(mask)


# ---- the suite on every install ------------------------------------------------------------


def test_the_suite_runs_without_pytest_benchmark():
    """pyproject's addopts name no option of pytest-benchmark's: a user without it can run
    the tests (here: a small module, with the plugin turned off)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:benchmark", "tests/test_version.py"],
        capture_output=True,
        text=True,
        cwd=repo_file(),
    )
    assert done.returncode == 0, done.stdout[-800:] + done.stderr[-800:]


# ---- reading files: streamed ---------------------------------------------------------------


def _reference_lines(text: str) -> list[tuple[int, str]]:
    import re

    return [(no, raw) for no, raw in enumerate(re.split(r"\r\n|\r|\n", text), 1) if raw.strip()]


@given(
    st.lists(
        st.sampled_from(["a", " ", "\n", "\r", "\r\n", "#", "é", "\u2028", "Kd 7", "\t", "\x0c"]),
        max_size=60,
    ),
    st.sampled_from([1, 2, 3, 5, 8, 64, 1 << 20]),
)
def test_lines_read_a_chunk_at_a_time_are_the_whole_files_lines(parts, chunk):
    """Whatever the chunk size (a \\r\\n cut between two chunks, a character cut in its
    UTF-8 bytes), the lines with something in them and their numbers are the whole text's."""
    import io

    from pyramid_solitaire.commands import _input

    text = "".join(parts)
    old = _input.CHUNK
    _input.CHUNK = chunk
    try:
        got = list(_input.iter_lines(io.BytesIO(text.encode()), "x"))
    finally:
        _input.CHUNK = old
    assert got == _reference_lines(text)


def test_a_line_too_long_is_refused_but_blanks_and_comments_of_any_length_are_not():
    import io

    from pyramid_solitaire.commands import _input

    n = _input.MAX_LINE_CHARS + 10
    text = " " * n + "\n" + "7 #" + "c" * n + "\n" + "x" * n + "\n8"
    got = list(_input.iter_lines(io.BytesIO(text.encode()), "x"))
    assert got == [(2, "7 "), (3, _input.TOO_LONG), (4, "8")]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KB: Linux")
def test_reading_a_huge_file_of_blanks_takes_no_memory(tmp_path):
    """A file of 60 MB of blank lines, or one line of 60 MB of spaces, then a deal: read in
    bounded memory (within 40 MB of solving one deal alone) and quickly."""
    import subprocess

    (tmp_path / "blank.txt").write_bytes(b"\n" * 60_000_000 + b"7\n")
    (tmp_path / "spaces.txt").write_bytes(b" " * 60_000_000 + b"\n7\n")
    probe = (
        "import resource, sys\n"
        "from pyramid_solitaire.commands.cli import main\n"
        "status = main(sys.argv[1:])\n"
        "print(status, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )

    def peak(*argv):
        done = subprocess.run(
            [sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=120
        )
        status, kb = done.stdout.split()[-2:]
        assert status == "0", done.stderr
        return int(kb)

    alone = peak("solve", "7")
    for name in ("blank.txt", "spaces.txt"):
        assert peak("solve", "--file", str(tmp_path / name)) < alone + 40_000, name


@pytest.mark.parametrize("autoreset", [None, "next_step", "same_step"])
def test_waiting_flags_exactly_the_rows_whose_mask_is_empty(autoreset):
    """An all-False mask reaches a policy only for a game that ended and waits (its action
    ignored); `waiting` says which, in every mode, and the vector env's info carries it."""
    import numpy as np

    from pyramid_solitaire.analysis.batch import GameBatch

    batch = GameBatch(256, "msc", seed=3, autoreset=autoreset, illegal="ignore")
    batch.reset()
    seen = 0
    for _ in range(250):
        batch.step_random()
        empty = ~batch.mask.any(axis=1)
        np.testing.assert_array_equal(batch.waiting, empty)
        seen += int(empty.sum())
    assert (seen > 0) == (autoreset != "same_step")
    with pytest.raises(ValueError, match="reset"):
        _ = GameBatch(2).waiting


def test_the_vector_env_says_which_rows_wait():
    pytest.importorskip("gymnasium", reason="the rl extra (gymnasium)")
    import numpy as np

    from pyramid_solitaire.rl.env import PyramidVectorEnv

    vec = PyramidVectorEnv(64, "msc")
    _, info = vec.reset(seed=1)
    assert not info["waiting"].any()
    rng = np.random.default_rng(0)
    waited = 0
    for _ in range(200):
        mask = info["action_mask"]
        logits = rng.normal(size=mask.shape)
        z = np.where(mask, logits, -1e9)  # the docs' masked softmax: finite on every row
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        assert np.isfinite(p).all()
        acts = np.array([rng.choice(102, p=row) for row in p])
        _, _, term, trunc, info = vec.step(acts)
        np.testing.assert_array_equal(info["waiting"], ~info["action_mask"].any(axis=1))
        np.testing.assert_array_equal(info["waiting"], term | trunc)
        waited += int(info["waiting"].sum())
    assert waited > 0
