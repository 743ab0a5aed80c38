"""Files a user keeps (saves, statistics) and every exit path of the command line: the one
writer follows links and refuses devices; the one opener of statistics looks before it
writes, and reads what it cannot write; each failure of the CLI is one line and a status of
its own."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import subprocess
import sys

import pytest
from test_protocol import ask

from pyramid_solitaire._atomic import write_atomic
from pyramid_solitaire.cli import EXIT_BUDGET, EXIT_IO, EXIT_USAGE, main
from pyramid_solitaire.session.protocol import Server
from pyramid_solitaire.session.session import Session
from pyramid_solitaire.session.stats import StatsStore

CLI = [sys.executable, "-m", "pyramid_solitaire"]
#: What only Linux has: /dev/full, /dev/zero and /dev/urandom, FIFOs, a POSIX shell's
#: redirections (>&-), root's euid (CONTRIBUTING lists these tests).
LINUX_ONLY = pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="Linux only: /dev/full, /dev/zero, FIFOs, a POSIX shell's redirections, euid",
)


def sh(command: str, **kwargs) -> subprocess.CompletedProcess:
    """``pyramid-solitaire`` + ``command`` through a shell (for its redirections)."""
    line = " ".join(f"'{part}'" for part in CLI) + " " + command
    return subprocess.run(line, shell=True, capture_output=True, timeout=120, **kwargs)


def digest(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


# ---- the one writer -------------------------------------------------------------------------
def test_a_save_through_a_symlink_replaces_the_target_and_keeps_the_link(tmp_path):
    real = tmp_path / "real" / "game.json"
    real.parent.mkdir()
    real.write_text("old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    session = Session("PY1-N-AAAAAAS")
    session.save(link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert Session.load(link).game.code == "PY1-N-AAAAAAS"
    assert Session.load(real).game.code == "PY1-N-AAAAAAS"  # the real file, not stale
    assert stat.S_IMODE(real.stat().st_mode) == 0o640  # its permissions kept
    assert sorted(p.name for p in real.parent.iterdir()) == ["game.json"]  # no temp left
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "new.json")
    session.save(dangling)
    assert dangling.is_symlink() and (tmp_path / "new.json").is_file()


@LINUX_ONLY
@pytest.mark.parametrize("where", ["/dev/full", "/dev/null", "folder", "fifo"])
def test_a_save_refuses_what_is_not_a_regular_file(tmp_path, where):
    if where == "folder":
        path = tmp_path / "folder"
        path.mkdir()
    elif where == "fifo":
        path = tmp_path / "fifo"
        os.mkfifo(path)
    else:
        path = where
    before = os.stat(path)
    with pytest.raises(OSError, match="not a file: it is left as it is"):
        write_atomic(path, "x")
    after = os.stat(path)
    assert (after.st_mode, after.st_ino, after.st_rdev) == (
        before.st_mode,
        before.st_ino,
        before.st_rdev,
    )  # the device is still one
    link = tmp_path / "to-it"
    link.symlink_to(path)
    with pytest.raises(OSError):
        write_atomic(link, "x")  # through a link too
    server = Server()
    ask(server, {"op": "new", "code": "PY1-N-AAAAAAS"})
    r = ask(server, {"id": 1, "op": "save", "path": str(path)})
    assert r["error"]["code"] == "io_error" and "left as it is" in r["error"]["message"]


@LINUX_ONLY
def test_save_files_that_fail_in_any_way_are_value_errors(tmp_path):
    good = tmp_path / "good.json"
    Session("PY1-N-AAAAAAS").save(good)
    doc = json.loads(good.read_text())
    cases = {
        "nested": b"[" * 200_000,
        "infinity": good.read_bytes().replace(b'"score": 0', b'"score": Infinity'),
        "huge": good.read_bytes().replace(b'"score": 0', b'"score": 1e400'),
        "digits": good.read_bytes().replace(b'"score": 0', b'"score": ' + b"7" * 5000),
        "history": json.dumps({**doc, "history": 5}).encode(),
        "undo": json.dumps({**doc, "undo": [[]]}).encode(),
        "profile": json.dumps({**doc, "profile": []}).encode(),
        "cards": json.dumps({**doc, "deal": {"cards": None}}).encode(),
        "bom_only": b"\xef\xbb\xbf",
    }
    for name, data in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(data)
        with pytest.raises(ValueError) as e:
            Session.load(path)
        assert str(path) in str(e.value) and len(str(e.value)) < 400, name
        assert path.read_bytes() == data  # never changed
        with pytest.raises(ValueError):
            Session.from_json(data.decode("utf-8", "replace"))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # would block forever if opened
    for path in (fifo, "/dev/zero", tmp_path):
        with pytest.raises(ValueError, match="not a regular file|cannot read"):
            Session.load(path)
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + good.read_bytes())
    assert Session.load(tmp_path / "bom.json").game.code == "PY1-N-AAAAAAS"


# ---- the one opener of statistics ------------------------------------------------------------
def _foreign(path, version: int, table: str = "things") -> None:
    db = sqlite3.connect(path)
    db.execute(f"CREATE TABLE {table} (id INTEGER, x TEXT)")
    db.execute(f"INSERT INTO {table} VALUES (1, 'precious')")
    db.execute(f"PRAGMA user_version = {version}")
    db.commit()
    db.close()


@pytest.mark.parametrize("version", [0, 1, 2, 99, -5])
@pytest.mark.parametrize("read_only", [False, True])
def test_a_foreign_sqlite_file_is_refused_before_anything_writes(tmp_path, version, read_only):
    path = tmp_path / "theirs.db"
    _foreign(path, version, "games" if version == 1 else "things")  # even a "games" table
    before = digest(path)
    with pytest.raises(ValueError, match="another program's SQLite file|newer"):
        StatsStore(path, read_only=read_only)
    assert digest(path) == before  # bytes unchanged
    assert sorted(os.listdir(tmp_path)) == ["theirs.db"]  # no -wal, no -shm
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # not switched to WAL
    db.close()


def test_not_sqlite_at_all_is_refused_and_kept(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"my notes\n" * 1000)
    for read_only in (False, True):
        with pytest.raises(ValueError, match="not a pyramid-solitaire statistics file"):
            StatsStore(path, read_only=read_only)
    assert path.read_bytes() == b"my notes\n" * 1000


def test_paths_that_cannot_hold_statistics_are_one_line_errors(tmp_path, capsys):
    (tmp_path / "afile").write_text("x")
    for db in (tmp_path / "afile" / "stats.db", tmp_path / "afile" / "deeper" / "stats.db"):
        assert main(["stats", "--db", str(db)]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is a file, not a folder" in err
    missing = tmp_path / "missing" / "deeper" / "stats.db"
    assert main(["stats", "--db", str(missing), "--json"]) == 0  # reading: no games...
    assert json.loads(capsys.readouterr().out)["games"] == 0
    assert not (tmp_path / "missing").exists()  # ...and nothing created
    with pytest.raises(ValueError, match="does not exist"):
        StatsStore(missing)  # writing there: refused
    assert main(["stats", "--db", str(tmp_path)]) == EXIT_USAGE
    assert "is a folder" in capsys.readouterr().err


def _recorded(path, code="PY1-N-AAAAAAS", profile="pyramide", won=False) -> None:
    with StatsStore(path) as store:
        store.record(Session(code, profile), "won" if won else "lost")


def test_reading_commands_open_read_only_and_write_nothing(tmp_path, capsys):
    path = tmp_path / "stats.db"
    _recorded(path)
    with StatsStore(path):  # settle the WAL into the file
        pass
    before = {p: digest(tmp_path / p) for p in os.listdir(tmp_path)}
    assert main(["stats", "--db", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1
    assert {p: digest(tmp_path / p) for p in os.listdir(tmp_path) if p in before} == before
    with StatsStore(path, read_only=True) as store:
        with pytest.raises(ValueError, match="read-only"):
            store.record(Session("PY1-N-AAAAAAS"), "lost")


@LINUX_ONLY
def test_a_read_only_statistics_file_is_read_and_says_so(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "stats.db"
    _recorded(path, won=True)
    with StatsStore(path):
        pass
    os.chmod(path, 0o444)
    os.chmod(folder, 0o555)
    if os.geteuid() == 0:  # root writes anyway: let the check see what a user would
        real = os.access

        def access(p, mode, *args, **kwargs):
            if mode & os.W_OK and os.path.abspath(p) in (str(path), str(folder)):
                return False
            return real(p, mode, *args, **kwargs)

        monkeypatch.setattr(os, "access", access)
    before = sorted(os.listdir(folder)), digest(path)
    try:
        assert main(["stats", "--db", str(path), "--json"]) == 0
        out, err = capsys.readouterr()
        data = json.loads(out)
        assert data["games"] == 1 and data["wins"] == 1 and data["read_only"] is True
        assert err.count("\n") == 1 and "is read-only: read as it is" in err
        assert main(["stats", "--db", str(path)]) == 0
        assert "1 game, 1 won" in capsys.readouterr().out
        assert main(["play", "--db", str(path), "PY1-N-AAAAAAS"]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is read-only: games cannot be recorded" in err
        with pytest.raises(ValueError, match="read-only"):
            StatsStore(path)
        assert (sorted(os.listdir(folder)), digest(path)) == before  # nothing written
    finally:
        os.chmod(folder, 0o755)


def test_stats_deal_honours_the_codes_letter_and_takes_numbers(tmp_path, capsys):
    path = tmp_path / "stats.db"
    _recorded(path, "PY1-N-AAAAAAS", "pyramide", won=True)
    _recorded(path, "PY1-M-AAAAAAS", "msc")  # the same cards under msc
    _recorded(path, "PY1-M-AAAAAAS", "msc")

    def games(*args) -> int:
        assert main(["stats", "--db", str(path), "--json", *args]) == 0
        return json.loads(capsys.readouterr().out)["games"]

    assert games("--deal", "PY1-N-AAAAAAS") == 1
    assert games("--deal", "PY1-M-AAAAAAS") == 2
    assert games("--deal", "18") == 3  # a deal number: every game
    assert games("--deal", "PY1-X-AAAAAAS") == 3  # custom rules: any game
    assert games("--deal", "PY1-M-AAAAAAS", "--profile", "msc") == 2
    assert (
        main(["stats", "--db", str(path), "--deal", "PY1-M-AAAAAAS", "--profile", "pyramide"])
        == EXIT_USAGE
    )
    assert "names the msc rules" in capsys.readouterr().err
    assert main(["stats", "--db", str(path), "--deal", "99999999999999"]) == EXIT_USAGE
    assert "deal number" in capsys.readouterr().err


@LINUX_ONLY
# ---- every exit path of the CLI -------------------------------------------------------------
def test_a_full_disk_is_one_line_and_its_own_status():
    for command in (
        "deal 5",
        "simulate --games 2000 --json",
        "solve 5 --json",
        "deal 5 --format cards",
    ):
        proc = sh(command + " > /dev/full")
        assert proc.returncode == EXIT_IO, command
        lines = proc.stderr.decode().splitlines()
        assert lines == [
            "pyramid-solitaire: error: cannot write the output: No space left on device"
        ], command


@LINUX_ONLY
def test_a_closed_standard_output_is_one_line_and_its_own_status():
    proc = sh("deal 5 >&-")
    assert proc.returncode == EXIT_IO
    assert proc.stderr.decode() == (
        "pyramid-solitaire: error: standard output is closed: nothing can be written\n"
    )


@LINUX_ONLY
def test_a_closed_standard_error_changes_only_what_is_shown():
    proc = sh("deal nonsense 2>&-")
    assert (proc.returncode, proc.stdout) == (EXIT_USAGE, b"")  # nothing on stdout
    proc = sh("deal 5 2>&-")
    assert proc.returncode == 0 and b"PY1-N-" in proc.stdout
    proc = sh("simulate --games 20000 --progress 2>&-")
    assert proc.returncode == 0 and b"won" in proc.stdout
    proc = sh("solve 5 --max-nodes 1 2>&-")
    assert proc.returncode == EXIT_BUDGET and b"unknown" in proc.stdout  # its own status


@LINUX_ONLY
def test_a_closed_standard_input_is_one_line():
    proc = sh("solve --file - <&-")
    assert proc.returncode == EXIT_USAGE
    assert (
        proc.stderr.decode().count("\n") == 1 and "standard input is closed" in proc.stderr.decode()
    )


def test_the_statuses_are_documented():
    from conftest import repo_file

    readme = repo_file("README.md").read_text(encoding="utf-8")
    for status in ("0", "1", "2", "74", "130", "141"):
        assert f"`{status}`" in readme.split("Exit status")[1][:1500], status


# ---- members of the classes found by a review ------------------------------------------------
def _typed_damage(path, sql: str) -> None:
    _recorded(path, won=True)
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE games SET score = x'00ff'",
        "UPDATE games SET seconds = 'slow'",
        "UPDATE games SET streak = 'many'",
        "UPDATE games SET cards = x'ff'",
    ],
)
def test_values_of_the_wrong_kind_are_a_damaged_file(tmp_path, capsys, sql):
    path = tmp_path / "stats.db"
    _typed_damage(path, sql)
    status = main(["stats", "--db", str(path), "--json", "--profile", "pyramide"])
    err = capsys.readouterr().err
    assert "damaged" in err and err.count("\n") == 1 and "Traceback" not in err
    assert status == EXIT_USAGE
    server = Server(stats_path=str(path))
    r = ask(server, {"id": 1, "op": "stats", "profile": "pyramide"})
    assert r["error"]["code"] == "bad_request" and "damaged" in r["error"]["message"]
    assert ask(server, {"id": 2, "op": "hello"})["ok"]  # and it goes on


def test_a_win_recorded_in_a_damaged_file_costs_nothing(tmp_path):
    from pyramid_solitaire import solve

    path = tmp_path / "stats.db"
    _typed_damage(path, "UPDATE games SET streak = 'many'")
    session = Session("PY1-N-AAAAAAS", stats=StatsStore(path))
    out = []
    for move in solve("PY1-N-AAAAAAS").moves:
        out += session.play(move)
    assert str(session.status) == "won"
    assert "stats_failed" in [m.code for m in out]


def test_the_server_answers_even_its_own_defects(monkeypatch):
    server = Server()
    ask(server, {"op": "new", "code": "PY1-N-AAAAAAS"})
    monkeypatch.setattr(Session, "state", lambda self: 1 / 0)
    r = json.loads(server.handle('{"id": 1, "op": "state"}'))
    assert r["error"]["code"] == "internal_error" and "ZeroDivisionError" in r["error"]["message"]


def test_empty_and_view_only_files(tmp_path, capsys):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert main(["stats", "--db", str(empty), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 0  # no games, not damaged
    assert empty.read_bytes() == b""
    view = tmp_path / "view.db"
    db = sqlite3.connect(view)
    db.execute("CREATE VIEW v AS SELECT 1")
    db.commit()
    db.close()
    before = digest(view)
    with pytest.raises(ValueError, match="another program's"):
        StatsStore(view)  # not taken over
    assert digest(view) == before


def test_a_log_without_its_index_is_read_without_creating_one(tmp_path):
    path = tmp_path / "stats.db"
    _recorded(path)
    with StatsStore(path):
        pass
    (tmp_path / "stats.db-wal").write_bytes(b"")  # a log left alone (a crash)
    with StatsStore(path, read_only=True) as store:
        assert store.summary()["games"] == 1
    assert sorted(os.listdir(tmp_path)) == ["stats.db", "stats.db-wal"]


def test_save_counters_are_what_json_keeps(tmp_path):
    good = json.loads(Session("PY1-N-AAAAAAS").to_json())
    for field, value in (("score", 1e308), ("moves", 2**60), ("seconds", 1e300)):
        with pytest.raises(ValueError, match=field):
            Session.from_json(json.dumps({**good, field: value}))
    doc = dict(good, difficulty={**good["difficulty"], "random_win_rate": "nan"})
    with pytest.raises(ValueError, match="random_win_rate"):
        Session.from_json(json.dumps(doc))


@LINUX_ONLY
def test_help_and_version_into_a_full_disk():
    for command in ("--version", "solve --help", "--help"):
        proc = sh(command + " > /dev/full")
        assert proc.returncode == EXIT_IO, command
        assert proc.stderr.decode().count("\n") == 1


@LINUX_ONLY
def test_deal_files_that_never_end_are_refused_at_once():
    for command in ("solve --file /dev/zero", "simulate --file /dev/urandom", "deal - < /dev/zero"):
        proc = sh(command)
        assert proc.returncode == EXIT_USAGE, command
        # the first thing wrong is named: a NUL byte, or (random bytes) bytes not UTF-8
        said = [b"NUL byte"] + ([] if "zero" in command else [b"is not UTF-8 text"])
        assert any(s in proc.stderr for s in said) and proc.stderr.count(b"\n") == 1


def test_a_code_and_another_profile_is_a_clear_error():
    r = ask(Server(), {"id": 1, "op": "new", "code": "PY1-M-AAAAAAS", "profile": "pyramide"})
    assert r["error"]["code"] == "bad_request"
    assert "profile pyramide plays the pyramide rules" in r["error"]["message"]
    r = ask(Server(), {"id": 2, "op": "save", "path": "a\u0000b"})
    assert r["error"]["code"] == "bad_request" and "NUL" in r["error"]["message"]
