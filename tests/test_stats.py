"""Statistics in SQLite: records, queries, streaks, concurrent writers, bad files."""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest

from pyramid_solitaire.session import Session
from pyramid_solitaire.session.stats import SCHEMA_VERSION, StatsStore

from conftest import EASY_CLEAR, easy_deal, run_main, seed000_deal


def won_game(profile="pyramide", extra_moves=0) -> Session:
    s = Session(easy_deal(), profile, clock=lambda: 0.0)
    for _ in range(extra_moves):
        s.tap("stock")
    for move in EASY_CLEAR:
        s.play(move)
    return s


def test_record_and_summary(tmp_path):
    store = StatsStore(tmp_path / "stats.sqlite3")
    store.record(won_game())  # won
    lost = Session(seed000_deal(), clock=lambda: 0.0)
    lost.play("Kd")
    store.record(lost)  # abandoned (still playing)
    store.record(won_game(extra_moves=3))
    store.record(won_game(extra_moves=1))
    s = store.summary("pyramide")
    assert (s["games"], s["wins"], s["win_rate"]) == (4, 3, 0.75)
    assert s["best_score"] == 280 and s["fewest_moves"] == len(EASY_CLEAR)
    assert (s["current_streak"], s["best_streak"]) == (2, 2)
    assert store.summary(deal=seed000_deal().to_cards())["games"] == 1
    assert store.summary("msc")["games"] == 0 and store.summary("msc")["win_rate"] is None
    top = store.high_scores("pyramide")
    assert [r["moves"] for r in top] == [len(EASY_CLEAR), len(EASY_CLEAR) + 1, len(EASY_CLEAR) + 3]
    with pytest.raises(ValueError, match="result"):
        store.record(lost, result="draw")


def _writer(path: str, n: int) -> None:
    store = StatsStore(path)
    game = won_game()
    for _ in range(n):
        store.record(game)
    store.close()


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "stats.sqlite3")
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, 150)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    assert StatsStore(path).summary()["games"] == 300


def test_foreign_and_newer_files_are_refused_and_left_alone(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_bytes(b"hello, not a database" * 100)
    with pytest.raises(ValueError, match="not a pyramid-solitaire statistics file"):
        StatsStore(text)
    assert text.read_bytes() == b"hello, not a database" * 100
    other = tmp_path / "other.sqlite3"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    before = other.read_bytes()
    with pytest.raises(ValueError, match="another program"):
        StatsStore(other)
    assert other.read_bytes() == before
    newer = tmp_path / "newer.sqlite3"
    StatsStore(newer).close()
    db = sqlite3.connect(newer)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(ValueError, match="newer"):
        StatsStore(newer)


def test_stats_cli(tmp_path, capsys):
    path = tmp_path / "stats.sqlite3"
    store = StatsStore(path)
    store.record(won_game("three-pass"))
    store.close()
    status, out, err = run_main(capsys, "stats", "--db", str(path), "--json")
    import json

    data = json.loads(out)
    assert status == 0 and data["games"] == 1 and data["high_scores"][0]["profile"] == "three-pass"
    status, out, err = run_main(capsys, "stats", "--db", str(path), "--profile", "three-pass")
    assert status == 0 and "1 game, 1 won (100.0%)" in out
    bad = tmp_path / "bad.sqlite3"
    bad.write_text("nope" * 100)
    status, out, err = run_main(capsys, "stats", "--db", str(bad))
    assert status == 2 and "not a pyramid-solitaire statistics file" in err


def test_sessions_record_their_games(tmp_path):
    path = tmp_path / "stats.sqlite3"
    s = Session(easy_deal(), "pyramide", clock=lambda: 0.0, stats=path)
    for move in EASY_CLEAR:
        s.play(move)
    s.new_deal(seed000_deal())  # the won game was recorded when it ended, not again
    s.play("Kd")
    s.restart()  # a game with moves, left: abandoned
    s.restart()  # no moves: nothing recorded
    summary = StatsStore(path).summary("pyramide")
    assert (summary["games"], summary["wins"]) == (2, 1)


def test_a_game_is_recorded_once(tmp_path):
    path = tmp_path / "stats.sqlite3"
    s = Session(easy_deal(), "three-pass", clock=lambda: 0.0, stats=path)
    for move in EASY_CLEAR:
        s.play(move)
    s.undo()
    s.redo()  # won again: the same game
    s.restart()
    assert StatsStore(path).summary("three-pass")["games"] == 1
