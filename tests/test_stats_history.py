"""Statistics, schema 2 (issue 45): the hints a game took, the daily deal's date, the history,
the figures by difficulty and of the daily deals, the best of a game type, resetting; the
migration of a version-1 file; the protocol's stats and stats_reset; the CLI."""

from __future__ import annotations

import datetime
import json
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_protocol import ask

from pyramid_solitaire.session import Session
from pyramid_solitaire.session.protocol import Server
from pyramid_solitaire.session.stats import (
    _MIGRATIONS,
    APPLICATION_ID,
    StatsStore,
    best_of_text,
    clock_text,
)

from conftest import EASY_CLEAR, easy_deal, run_main, seed000_deal

DAY = datetime.date(2026, 3, 10)


def won_game(profile: str = "pyramide", hints: int = 0) -> Session:
    s = Session(easy_deal(), profile, clock=lambda: 0.0)
    for _ in range(hints):
        s.hint()
    for move in EASY_CLEAR:
        s.play(move)
    assert s.status.value == "won"
    return s


def lost_game(profile: str = "pyramide") -> Session:
    s = Session(seed000_deal(), profile, clock=lambda: 0.0)
    s.play("Kd")
    return s


def version_1_file(path) -> None:
    """A statistics file as version 1 wrote it, with one won game."""
    db = sqlite3.connect(path)
    db.executescript(_MIGRATIONS[0])
    db.execute(
        "INSERT INTO games (code, cards, profile, result, score, moves, seconds, "
        "pyramid_removed, difficulty, assisted, finished_at, streak) "
        "VALUES ('PY1-N-AAAAAAS', ?, 'pyramide', 'won', 280, 30, 61.5, 28, 1, 1, "
        "'2025-01-02T03:04:05+00:00', 1)",
        (easy_deal().to_cards(),),
    )
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()


# ---- the session counts its hints --------------------------------------------------------------


def test_hints_are_counted_saved_and_recorded(tmp_path):
    s = Session(easy_deal(), "pyramide", clock=lambda: 0.0)
    assert s.state()["hints"] == 0
    assert [m.code for m in s.hint() + s.hint()] == ["hint", "hint"]
    assert s.hints == 2 and s.state()["hints"] == 2 and s.assisted
    back = Session.from_json(s.to_json())
    assert back.hints == 2
    old = json.loads(s.to_json())
    del old["hints"]  # a save from before hints were counted
    assert Session.from_json(json.dumps(old)).hints == 0
    s.set_fair_hints(True)
    s.hint()
    assert s.hints == 3  # a fair hint is a hint too
    s.restart()
    assert s.hints == 0  # a new game counts its own
    store = StatsStore(tmp_path / "stats.sqlite3")
    store.record(won_game(hints=2))
    assert store.history()[0]["hints"] == 2
    assert store.high_scores("pyramide")[0]["hints"] == 2


# ---- the migration from version 1 ---------------------------------------------------------------


def test_a_version_1_file_is_read_as_it_is_then_migrated(tmp_path):
    path = tmp_path / "stats.sqlite3"
    version_1_file(path)
    before = path.read_bytes()
    with StatsStore(path, read_only=True) as store:  # read, never migrated
        (row,) = store.history()
        assert (row["hints"], row["daily"], row["difficulty"], row["level"]) == (0, None, "easy", 1)
        assert store.high_scores()[0]["hints"] == 0
        summary = store.summary("pyramide")
        assert summary["games"] == 1 and summary["by_difficulty"]["easy"]["wins"] == 1
        assert summary["daily"]["played"] == 0
    assert path.read_bytes() == before
    store = StatsStore(path)  # writing: migrated to version 2, the old game kept
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == 2
    assert {"hints", "daily"} <= {r[1] for r in store._db.execute("PRAGMA table_info(games)")}
    store.record(won_game(hints=1))
    assert [(r["hints"], r["code"]) for r in store.history()] == [(1, None), (0, "PY1-N-AAAAAAS")]
    assert store.summary("pyramide")["current_streak"] == 2  # the streak goes on over it
    store.close()
    assert StatsStore(path).summary()["games"] == 2


# ---- history, by difficulty, reset --------------------------------------------------------------


def test_history_is_newest_first_and_filtered(tmp_path):
    store = StatsStore(tmp_path / "stats.sqlite3")
    store.record(won_game("pyramide"))
    store.record(lost_game("msc"))
    store.record(won_game("three-pass", hints=1))
    rows = store.history()
    assert [(r["profile"], r["result"]) for r in rows] == [
        ("three-pass", "won"),
        ("msc", "abandoned"),
        ("pyramide", "won"),
    ]
    assert set(rows[0]) == {
        "finished_at",
        "profile",
        "result",
        "score",
        "moves",
        "seconds",
        "difficulty",
        "level",
        "hints",
        "assisted",
        "code",
        "daily",
    }
    assert rows[0]["hints"] == 1 and rows[0]["assisted"] == 1 and rows[2]["assisted"] == 0
    assert rows[0]["moves"] == len(EASY_CLEAR) and rows[0]["difficulty"] == "easy"
    assert [r["profile"] for r in store.history(limit=2)] == ["three-pass", "msc"]
    assert [r["profile"] for r in store.history("msc")] == ["msc"]
    with pytest.raises(ValueError, match="limit"):
        store.history(limit=0)


def test_summary_by_difficulty(tmp_path):
    store = StatsStore(tmp_path / "stats.sqlite3")
    won, lost = won_game(), lost_game()
    store.record(won, difficulty=1)
    store.record(won, difficulty=1)
    store.record(lost, difficulty=1)
    store.record(won, difficulty=4)
    store.record(lost, difficulty=6)
    by = store.summary("pyramide")["by_difficulty"]
    assert list(by) == ["easy", "medium", "hard", "very_hard", "expert", "unwinnable"]
    assert by["easy"] == {"games": 3, "wins": 2, "win_rate": 2 / 3}
    assert by["very_hard"] == {"games": 1, "wins": 1, "win_rate": 1.0}
    assert by["unwinnable"] == {"games": 1, "wins": 0, "win_rate": 0.0}
    assert by["medium"] == {"games": 0, "wins": 0, "win_rate": None}
    assert store.summary("msc")["by_difficulty"]["easy"]["games"] == 0


def test_reset_one_profile_or_all(tmp_path):
    path = tmp_path / "stats.sqlite3"
    store = StatsStore(path)
    for profile in ("pyramide", "pyramide", "msc"):
        store.record(won_game(profile))
    assert store.reset("pyramide") == 2
    assert store.summary()["games"] == 1 and store.summary("msc")["current_streak"] == 1
    assert store.reset("pyramide") == 0
    store.record(won_game("classic"))
    assert store.reset() == 2 and store.summary()["games"] == 0
    with pytest.raises(ValueError, match="profile"):
        store.reset(3)
    store.record(won_game())
    with StatsStore(path, read_only=True) as reader, pytest.raises(ValueError, match="read-only"):
        reader.reset()
    assert store.summary()["games"] == 1


# ---- the daily deals' figures ----------------------------------------------------------------


def record_daily(store: StatsStore, session: Session, day: datetime.date, profile="pyramide"):
    session.daily = day
    store.record(session)


def test_daily_figures_and_streaks(tmp_path):
    store = StatsStore(tmp_path / "stats.sqlite3")
    won, lost = won_game(), lost_game()
    for offset in (0, 1, 2):  # 10, 11, 12 March won
        record_daily(store, won, DAY + datetime.timedelta(days=offset))
    record_daily(store, lost, DAY + datetime.timedelta(days=3))  # 13th played, lost
    record_daily(store, lost, DAY + datetime.timedelta(days=4))  # 14th lost, then won
    record_daily(store, won, DAY + datetime.timedelta(days=4))
    won.daily = None
    store.record(won)  # not a daily deal: no day
    d = store.daily("pyramide", today=DAY + datetime.timedelta(days=4))
    assert d == {
        "played": 5,
        "won": 4,
        "current_streak": 1,
        "best_streak": 3,
        "won_today": True,
        "today": "2026-03-14",
    }
    tomorrow = store.daily("pyramide", today=DAY + datetime.timedelta(days=5))
    assert tomorrow["current_streak"] == 1 and not tomorrow["won_today"]  # not broken yet
    assert store.daily("pyramide", today=DAY + datetime.timedelta(days=6))["current_streak"] == 0
    assert store.daily("pyramide", today=DAY + datetime.timedelta(days=2))["current_streak"] == 3
    assert store.daily("msc", today=DAY)["played"] == 0  # per profile
    summary = store.summary("pyramide", today=DAY + datetime.timedelta(days=4))
    assert summary["daily"] == d
    assert store.history()[1]["daily"] == "2026-03-14"
    with pytest.raises(ValueError, match="today"):
        store.daily(today="2026-03-14")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.booleans()), max_size=12), st.integers(0, 22))
def test_daily_streaks_are_runs_of_won_days(tmp_path_factory, days, today):
    store = StatsStore(tmp_path_factory.mktemp("daily") / "stats.sqlite3")
    won, lost = won_game(), lost_game()
    for offset, win in days:
        record_daily(store, won if win else lost, DAY + datetime.timedelta(days=offset))
    won_days = {offset for offset, win in days if win}
    best = max(
        (n for start in won_days for n in range(1, 30) if set(range(start, start + n)) <= won_days),
        default=0,
    )
    end = today if today in won_days else today - 1
    current = next(n for n in range(30) if end - n not in won_days)
    d = store.daily(today=DAY + datetime.timedelta(days=today))
    assert (d["played"], d["won"]) == (len({o for o, _ in days}), len(won_days))
    assert (d["best_streak"], d["current_streak"]) == (best, current)
    store.close()


# ---- the best of a game type ------------------------------------------------------------------


def test_best_of_is_what_the_end_dialog_shows(tmp_path):
    store = StatsStore(tmp_path / "stats.sqlite3")
    store.record(lost_game("pyramide"))  # a loss only: its score, no win figures
    best = store.best_of("pyramide")
    assert best["games"] == 1 and best["wins"] == 0 and best["best_score"] == 10
    assert best["shown"] == ["games", "wins", "best_score"]
    store.record(won_game("pyramide"))
    best = store.best_of("pyramide")
    assert best["shown"] == ["games", "wins", "best_score", "fewest_moves", "fastest_win"]
    assert (best["best_score"], best["fewest_moves"]) == (280, len(EASY_CLEAR))
    store.record(won_game("unlimited"))  # a game type without points: no best score shown
    best = store.best_of("unlimited")
    assert best["best_score"] is None and "best_score" not in best["shown"]
    assert best["games"] == 1 and best["fewest_moves"] == len(EASY_CLEAR)
    with pytest.raises(ValueError, match="profile"):
        store.best_of(None)


def test_best_of_text_in_both_languages(tmp_path):
    store = StatsStore(tmp_path / "stats.sqlite3")
    store.record(lost_game("pyramide"))
    assert store.best_of("pyramide", "en")["text"] == (
        "Best of this game type: Games 1 · Wins 0 · Best score 10"
    )
    s = won_game("pyramide")
    s._t0 -= 65  # a win in 1:05
    store.record(s)
    assert best_of_text(store.best_of("pyramide"), "vi") == (
        "Thành tích tốt nhất của kiểu chơi: Số ván 2 · Thắng 1 · Điểm cao nhất 280 · "
        f"Ít nước đi nhất {len(EASY_CLEAR)} · Thắng nhanh nhất 1:05"
    )
    assert "text" not in store.best_of("pyramide")
    assert clock_text(3725.9) == "1:02:05" and clock_text(0) == "0:00"
    with pytest.raises(ValueError, match="lang"):
        store.best_of("pyramide", "fr")


# ---- the protocol -------------------------------------------------------------------------------


def test_the_stats_op_has_the_new_fields_and_resets(tmp_path):
    path = tmp_path / "stats.sqlite3"
    store = StatsStore(path)
    store.record(won_game("msc", hints=1))
    store.record(won_game("pyramide"))
    store.close()
    server = Server(clock=lambda: 0.0, stats_path=str(path))
    stats = ask(server, {"op": "stats", "profile": "msc"})["stats"]
    assert stats["history"][0]["hints"] == 1 and stats["high_scores"][0]["hints"] == 1
    assert stats["best_of"]["shown"][:2] == ["games", "wins"] and stats["best_of"]["wins"] == 1
    assert stats["best_of"]["text"].startswith("Best of this game type: Games 1 · Wins 1")
    vi = ask(server, {"op": "stats", "profile": "msc", "lang": "vi"})["stats"]["best_of"]
    assert vi["text"].startswith("Thành tích tốt nhất của kiểu chơi: Số ván 1")
    assert ask(server, {"op": "stats", "lang": "fr"})["error"]["code"] == "bad_request"
    assert stats["by_difficulty"]["easy"]["games"] == 1 and "daily" in stats
    everything = ask(server, {"op": "stats", "limit": 1})["stats"]
    assert len(everything["history"]) == 1 and everything["best_of"] is None
    for bad, code, field in [
        ({"profile": "vegas"}, "bad_request", "profile"),
        ({}, "missing_field", "profile"),
        ({"profile": "msc", "all": True}, "bad_request", "not both"),
        ({"all": "yes"}, "bad_request", "all"),
    ]:
        r = ask(server, {"op": "stats_reset", **bad})
        assert r["error"]["code"] == code and field in r["error"]["message"], bad
    assert ask(server, {"op": "stats", "limit": 0})["error"]["code"] == "bad_request"
    r = ask(server, {"op": "stats_reset", "profile": "msc"})
    assert r["deleted"] == 1 and r["stats"]["games"] == 0
    r = ask(server, {"op": "stats_reset", "all": True})
    assert r["deleted"] == 1 and r["stats"]["games"] == 0 and r["stats"]["profile"] is None
    hello = ask(server, {"op": "hello"})
    assert {"stats_reset", "history"} <= set(hello["capabilities"])
    assert "stats_reset" in hello["ops"]


def test_stats_reset_creates_no_file(tmp_path):
    path = tmp_path / "none.sqlite3"
    r = ask(Server(stats_path=str(path)), {"op": "stats_reset", "all": True})
    assert r["ok"] and r["deleted"] == 0 and not path.exists()


# ---- the command line ---------------------------------------------------------------------------


def test_stats_cli_history_and_reset(tmp_path, capsys):
    path = tmp_path / "stats.sqlite3"
    store = StatsStore(path)
    store.record(won_game("msc", hints=2))
    store.record(won_game("pyramide"))
    store.close()
    status, out, err = run_main(capsys, "stats", "--db", str(path))
    assert status == 0 and "last games:" in out and "2 hints" in out and "easy" in out
    status, out, err = run_main(capsys, "stats", "--db", str(path), "--json")
    assert len(json.loads(out)["history"]) == 2
    status, out, err = run_main(capsys, "stats", "--db", str(path), "--reset")  # no terminal
    assert status == 2 and len(err.strip().splitlines()) == 1 and "--yes" in err
    status, out, err = run_main(capsys, "stats", "--db", str(path), "--yes")
    assert status == 2 and "--reset" in err
    status, out, err = run_main(capsys, "stats", "--db", str(path), "--history", "-1")
    assert status == 2 and "--history" in err
    args = ("stats", "--db", str(path), "--reset", "--yes", "--profile", "msc")
    status, out, err = run_main(capsys, *args)
    assert status == 0 and "deleted 1 game" in out
    assert StatsStore(path).summary()["games"] == 1
    status, out, err = run_main(capsys, "stats", "--db", str(path), "--reset", "--yes")
    assert status == 0 and StatsStore(path).summary()["games"] == 0


@pytest.mark.parametrize(
    "sql, query",
    [
        ("UPDATE games SET hints = 'many'", "history"),
        ("UPDATE games SET hints = 'many'", "high_scores"),
        ("UPDATE games SET daily = 'someday'", "summary"),
        ("UPDATE games SET daily = 20261207", "daily"),
        ("UPDATE games SET daily = x'ff'", "history"),
    ],
)
def test_damaged_new_columns_are_said_so(tmp_path, sql, query):
    path = tmp_path / "stats.sqlite3"
    store = StatsStore(path)
    store.record(won_game())
    store.close()
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()
    with StatsStore(path, read_only=True) as store, pytest.raises(ValueError, match="damaged"):
        getattr(store, query)()
