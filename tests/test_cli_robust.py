"""The command line under stress: closed pipes, Ctrl-C, odd numbers, odd files, strict JSON."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from pyramid_solitaire import Deal

from conftest import repo_file, run_main

CLI = [sys.executable, "-m", "pyramid_solitaire"]


def _run(
    *argv: str, input: bytes | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    return subprocess.run(CLI + list(argv), input=input, capture_output=True, timeout=timeout)


def strict_json(text: str):
    return json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))


# ---- pipes and interrupts ------------------------------------------------------------------


def head(read: str) -> list[str]:
    """A reader that takes a little of its input and closes the pipe (POSIX ``head``, in
    Python so that it runs on Windows too): ``read`` is what it keeps."""
    return [sys.executable, "-c", f"import sys; sys.stdout.buffer.write({read})"]


@pytest.mark.parametrize(
    "argv, reader",
    [
        (["deal", "PY1-N-AAAAAAS"], head("sys.stdin.buffer.readline()")),
        (["simulate", "--games", "300000", "--json"], head("sys.stdin.buffer.read(10)")),
        (
            ["solve", "--file", "-", "--rules", "msc"],
            head("sys.stdin.buffer.readline() + sys.stdin.buffer.readline()"),
        ),
    ],
)
def test_output_into_a_closed_pipe_ends_quietly(argv, reader):
    deals = "\n".join(Deal.from_number(n, rules="msc").code for n in range(300)).encode()
    writer = subprocess.Popen(
        CLI + argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    head = subprocess.Popen(reader, stdin=writer.stdout, stdout=subprocess.PIPE)
    writer.stdout.close()
    writer.stdin.write(deals)
    writer.stdin.close()
    head.communicate(timeout=120)
    err = writer.stderr.read().decode()
    writer.wait(timeout=120)
    assert "Traceback" not in err and "Exception" not in err, err
    assert writer.returncode in (0, 141)


@pytest.mark.parametrize(
    "argv",
    [
        # about 10 s of search here: a proof of loss over 63 redeals, then the most removable
        [
            "solve",
            "PY1-X-AAAAAAS",
            "--waste-at-deal",
            "0",
            "--redeals",
            "63",
            "--win",
            "all",
            "--max-removed",
            "--max-seconds",
            "600",
            "--no-progress",
        ],
        ["simulate", "--games", "200000", "--rules", "msc", "--policy", "solver", "--threads", "2"],
        ["simulate", "--games", "3000000000", "--threads", "1"],
    ],
)
@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no SIGINT for one process")
def test_ctrl_c_stops_with_one_line_and_130(argv):
    proc = subprocess.Popen(CLI + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(2.0)  # let the work start (not a speed check)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.decode().strip().splitlines()[-1] == "pyramid-solitaire: interrupted"
    assert b"Traceback" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is not a signal there")
def test_sigterm_stops_a_pool_run_with_its_workers_and_143(tmp_path):
    """kill (SIGTERM) on an atlas run with a process pool: the workers go too (none is left
    computing its block for a parent that is gone), one line, status 143, no block file."""
    argv = ["atlas", "run", "classic-draw3", "--count", "200000", "--block", "100000"]
    argv += ["--workers", "2", "--out", str(tmp_path), "--no-progress"]
    proc = subprocess.Popen(
        CLI + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    time.sleep(4.0)  # let the pool's workers start their blocks (not a speed check)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err.decode().strip().splitlines()[-1] == "pyramid-solitaire: terminated"
    assert b"Traceback" not in err
    for _ in range(50):  # the workers, in the run's process group, are gone
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("worker processes outlived the terminated run")
    assert not list(tmp_path.rglob("*.json"))


# ---- numbers in flags -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, flag",
    [
        (["solve", "PY1-M-AAAAAAS", "--max-nodes", "99999999999999999999999x"], "--max-nodes"),
        (["solve", "PY1-M-AAAAAAS", "--max-memory", "99999999999 GB"], "--max-memory"),
        (["solve", "PY1-M-AAAAAAS", "--max-seconds", "nan"], "--max-seconds"),
        (["simulate", "--games", "\u00b2"], "--games"),
        (["simulate", "--games", "0"], "--games"),
        (["simulate", "--games", "10", "--threads", "100000"], "--threads"),
        (["simulate", "--games", "10", "--seed", "-1"], "--seed"),
        (["simulate", "--games", "10", "--seed", "18446744073709551616"], "--seed"),
        (["simulate", "--games", "10", "--start", "PY1-Q-AAAAAAA"], "'Q'"),
        (["simulate", "--games", "10", "--draw", "\u0663"], "draw"),
    ],
)
def test_bad_numbers_exit_2_naming_the_flag(capsys, argv, flag):
    status, out, err = run_main(capsys, *argv)
    assert status == 2 and flag in err and len(err.strip().splitlines()) == 1, err


def test_huge_but_sensible_numbers_are_accepted(capsys):
    status, out, err = run_main(
        capsys, "solve", "PY1-M-AAAAAAS", "--max-nodes", "99999999999999999999999", "--json"
    )
    assert status == 0 and strict_json(out)["winnable"] is True


def test_simulate_streams_in_constant_memory(capsys):
    """The CLI keeps totals only: its JSON equals the API's with arrays."""
    from pyramid_solitaire import simulate

    status, out, err = run_main(
        capsys, "simulate", "--games", "20000", "--rules", "msc", "--json", "--threads", "1"
    )
    data = strict_json(out)
    api = simulate(20000, rules="msc", threads=1).to_dict()
    for key in ("wins", "games", "removed_histogram", "rules", "deals", "mean_moves"):
        assert data[key] == api[key]


def test_start_code_names_the_rules(capsys):
    status, out, err = run_main(
        capsys, "simulate", "--games", "100", "--start", "PY1-C-AAAAABA", "--json"
    )
    data = strict_json(out)
    assert data["rules"]["name"] == "classic" and data["deals"]["first"] == 26
    status, out, err = run_main(
        capsys, "simulate", "--games", "100", "--start", "PY1-C-AAAAABA", "--rules", "msc"
    )
    assert status == 2 and "names the classic rules" in err


# ---- files ----------------------------------------------------------------------------------


def _codes(n: int, letter: str = "M") -> list[str]:
    return [Deal.from_number(i, rules={"M": "msc", "C": "classic"}[letter]).code for i in range(n)]


@pytest.mark.parametrize(
    "encode",
    [
        lambda t: t.encode("utf-8"),
        lambda t: b"\xef\xbb\xbf" + t.encode("utf-8"),
        lambda t: t.replace("\n", "\r\n").encode("utf-8"),
        lambda t: t.encode("utf-16"),
    ],
)
def test_deal_files_in_common_encodings(tmp_path, capsys, encode):
    text = "# three deals\n" + "\n".join(_codes(2)) + "\n" + Deal.from_number(2).to_cards() + "\n"
    path = tmp_path / "deals.txt"
    path.write_bytes(encode(text))
    status, out, err = run_main(capsys, "solve", "--file", str(path), "--json", "--rules", "msc")
    assert status == 0, err
    assert [strict_json(line)["deal"] for line in out.splitlines()][:2] == _codes(2)
    assert "3 deals" in err


@pytest.mark.parametrize(
    "content, where",
    [
        (b"PY1-M-AAAAAAA\n\xff\xfeoops\n", "line 2"),
        (b"PY1-M-AAAAAAA\n\x00\x01\x02", "line 2"),
        (b"PY1-M-AAAAAAA\nPY1-M-AAAAAAB\nnot a deal\n", "line 3"),
        (b"PY1-X-AAAAAAA\n", "line 1"),
        (b"# nothing\n\n", "holds no deals"),
    ],
)
def test_bad_deal_files_name_the_file_and_line(tmp_path, capsys, content, where):
    path = tmp_path / "deals.txt"
    path.write_bytes(content)
    for cmd in (["solve", "--file", str(path)], ["simulate", "--file", str(path)]):
        status, out, err = run_main(capsys, *cmd)
        assert status == 2 and str(path) in err and where in err, err


def test_skip_bad_lines_and_report_them(tmp_path, capsys):
    path = tmp_path / "deals.txt"
    path.write_text("PY1-M-AAAAAAA\nnot a deal\nPY1-M-AAAAAAS\nKc Kc\n")
    status, out, err = run_main(capsys, "solve", "--file", str(path), "--skip-bad", "--json")
    assert status == 0 and len(out.splitlines()) == 2
    assert "skipped 2 bad lines" in err and "line 2" in err and "line 4" in err


def test_missing_file(capsys):
    status, out, err = run_main(capsys, "solve", "--file", "/nonexistent/deals.txt")
    assert status == 2 and "cannot read /nonexistent/deals.txt" in err


def test_solve_file_on_threads_with_a_summary(tmp_path, capsys):
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(_codes(60)))
    outs = []
    for t in ("1", "2"):
        status, out, err = run_main(capsys, "solve", "--file", str(path), "--threads", t)
        assert status == 0
        outs.append([line for line in out.splitlines() if "positions" not in line])
        assert "60 deals:" in out.splitlines()[-1] and "winnable" in out.splitlines()[-1]
    assert outs[0][:-1] == outs[1][:-1]


def test_simulate_file_of_the_public_msc_deals(capsys):
    data = repo_file("data", "msc-1500-deals.txt")
    status, out, err = run_main(capsys, "simulate", "--file", str(data), "--rules", "msc", "--json")
    result = strict_json(out)
    assert status == 0 and result["games"] == 1500 and result["rules"]["name"] == "msc"
    assert result["deals"]["count"] == 1500 and len(result["deals"]["deals"]) == 20


def test_stdin_for_deal_and_solve():
    code = "PY1-M-AAAAAAS"
    cards = Deal.from_code(code).to_cards()
    r = _run("deal", "-", "--format", "cards", input=cards.encode())
    assert r.returncode == 0 and r.stdout.decode().strip() == cards
    r = _run("solve", "-", "--json", input=(code + "\nPY1-M-AAAAAAA\n").encode())
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 2


# ---- solve from a position, most removable ----------------------------------------------------


def test_solve_from_moves(capsys):
    status, out, err = run_main(capsys, "solve", "PY1-N-AAAAAAS", "--moves", "Kc 3d+Tc", "--json")
    data = strict_json(out)
    assert status == 0 and data["from_moves"] == ["Kc", "3d+Tc"] and data["winnable"] is True
    assert "Kc" not in data["moves"]
    status, out, err = run_main(capsys, "solve", "PY1-N-AAAAAAS", "--moves", "Kc Qc+As")
    assert status == 2 and "--moves: move 2" in err and "blocked" in err


def test_solve_max_removed(capsys):
    status, out, err = run_main(capsys, "solve", "PY1-C-AAAAAAA", "--max-removed", "--json")
    data = strict_json(out)
    assert status == 0 and data["winnable"] is False and data["max_removed"] == 18
    assert len(data["max_removed_moves"]) > 0
    status, out, err = run_main(capsys, "solve", "PY1-C-AAAAAAA", "--max-removed")
    assert "most pyramid cards removable: 18" in out


def test_every_json_output_is_strict(capsys, tmp_path):
    for argv in (
        ["deal", "PY1-M-AAAAAAS", "--format", "json"],
        ["solve", "PY1-M-AAAAAAS", "--json", "--min-moves", "--max-nodes", "50"],
        [
            "simulate",
            "--games",
            "5",
            "--rules",
            "msc",
            "--policy",
            "solver",
            "--max-nodes",
            "1",
            "--json",
        ],
        ["simulate", "--games", "50", "--policy", "random", "--seed", str(2**64 - 1), "--json"],
    ):
        status, out, err = run_main(capsys, *argv)
        assert status in (0, 1), err  # 1: a budget ran out (still strict JSON)
        for line in out.splitlines():
            strict_json(line)
