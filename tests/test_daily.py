"""The daily deal (issue 45): the same winnable deal for every player on a date and game type,
derived from the date by the documented algorithm; its sessions, saves, statistics and
protocol."""

from __future__ import annotations

import datetime
import hashlib
import json

import pytest
from test_protocol import ask

from pyramid_solitaire import Deal, solve
from pyramid_solitaire.session import Session, StatsStore
from pyramid_solitaire.session import daily as daily_module
from pyramid_solitaire.session.daily import NODES, candidate, daily_deal, parse_date
from pyramid_solitaire.session.protocol import Server

from conftest import EASY_CLEAR

DAY = datetime.date(2026, 12, 7)
#: 2026-12-07's daily deals, as docs/session.md lists them (classic's is candidate 20).
VECTORS = {
    "pyramide": "PY1-N-KXYAGRG",
    "three-pass": "PY1-T-LHHARIX",
    "unlimited": "PY1-U-ADEXQMG",
    "classic": "PY1-C-KZUOBZH",
    "classic-draw3": "PY1-D-YIABOYJ",
    "msc": "PY1-M-OTFDSQP",
}


def reimplemented(day: datetime.date, profile: str, rules: str) -> str:
    """The algorithm as docs/session.md states it, written again from the text."""
    for k in range(1000):
        text = f"pyramid-solitaire daily {day:%Y-%m-%d} {profile} {k}".encode("ascii")
        number = int.from_bytes(hashlib.sha256(text).digest()[:8], "big") % 26**7
        if solve(Deal.from_number(number, rules=rules), max_nodes=1_000_000).winnable:
            return Deal.from_number(number, rules=rules).code
    raise AssertionError("no daily deal")


@pytest.mark.parametrize("profile", ["classic", "msc"])
def test_the_algorithm_as_documented(profile):
    assert NODES == 1_000_000
    assert reimplemented(DAY, profile, profile) == daily_deal(profile, DAY).code == VECTORS[profile]


def test_the_daily_deals_of_a_date():
    assert {p: daily_deal(p, DAY).code for p in VECTORS} == VECTORS
    assert candidate(DAY, "msc", 0) == 4552917215
    assert daily_deal("classic", DAY).number == candidate(DAY, "classic", 20)  # 0..19 lost
    assert daily_deal("msc", "2026-12-07") == daily_deal("msc", DAY)
    days = [DAY + datetime.timedelta(days=i) for i in range(1, 8)]
    codes = {daily_deal("msc", d).code for d in days}
    assert len(codes) == 7  # a new deal each day
    for d in days[:3]:
        assert solve(daily_deal("three-pass", d)).winnable


@pytest.mark.parametrize(
    "bad",
    ["2026-2-07", "2026-02-30", "20261207", " 2026-12-07", "2026-12-07T00:00", "today", 2026, None],
)
def test_dates_are_read_strictly(bad):
    with pytest.raises(ValueError, match="daily"):
        parse_date(bad)


def test_a_daily_session(tmp_path, monkeypatch):
    s = Session.new_daily("msc", DAY, clock=lambda: 0.0)
    assert s.game.code == VECTORS["msc"] and s.daily == DAY
    assert s.state()["daily"] == "2026-12-07"
    said = s.greeting()
    assert [m.code for m in said] == ["daily", "difficulty"]
    assert said[0].text == "Daily deal of 2026-12-07" and said[0].args["date"] == "2026-12-07"
    s.set_lang("vi")
    assert s.greeting()[0].text == "Ván bài hằng ngày, ngày 07/12/2026"
    s.tap("stock")
    back = Session.from_json(s.to_json())
    assert back.daily == DAY and back.state() == s.state()
    old = json.loads(s.to_json())
    del old["daily"]  # a save from before daily deals
    assert Session.from_json(json.dumps(old)).daily is None
    old["daily"] = "2026-12-32"
    with pytest.raises(ValueError, match="daily"):
        Session.from_json(json.dumps(old))
    s.restart()
    assert s.daily == DAY  # the same deal again: still the daily deal
    s.new_deal(rng=1)
    assert s.daily is None and s.state()["daily"] is None
    monkeypatch.setattr(daily_module, "today", lambda: DAY)
    assert [m.code for m in s.new_deal(daily=True)][0] == "daily"
    assert s.game.code == VECTORS["msc"] and s.daily == DAY
    assert Session.new_daily("classic").game.code == VECTORS["classic"]  # today's by default
    s.new_deal(daily="2026-12-08", profile="pyramide")
    assert s.daily == DAY + datetime.timedelta(days=1) and s.profile.name == "pyramide"
    assert s.game.deal == daily_deal("pyramide", "2026-12-08")
    with pytest.raises(ValueError, match="daily"):
        s.new_deal("PY1-N-AAAAAAS", daily=True)
    with pytest.raises(ValueError, match="daily"):
        s.new_deal(daily="7/12/2026")
    assert s.daily == DAY + datetime.timedelta(days=1)  # a refusal changes nothing


def test_the_statistics_record_the_date(tmp_path):
    path = tmp_path / "stats.sqlite3"
    s = Session.new_daily("pyramide", DAY, clock=lambda: 0.0, stats=path)
    s.play(s.game.legal_moves[0])
    s.new_deal(rng=2)  # the daily deal left: abandoned, with its date
    s.play(s.game.legal_moves[0])
    s.abandon()
    store = StatsStore(path)
    assert [r["daily"] for r in store.history()] == [None, "2026-12-07"]
    d = store.daily("pyramide", today=DAY)
    assert (d["played"], d["won"], d["current_streak"]) == (1, 0, 0)


def test_a_won_daily_deal_makes_a_daily_streak(tmp_path):
    from conftest import easy_deal

    store = StatsStore(tmp_path / "stats.sqlite3")
    for offset in (0, 1):  # an easy deal standing in for two days' daily deals
        s = Session(easy_deal(), "msc", clock=lambda: 0.0)
        s.daily = DAY + datetime.timedelta(days=offset)
        for move in EASY_CLEAR:
            s.play(move)
        store.record(s)
    d = store.summary("msc", today=DAY + datetime.timedelta(days=1))["daily"]
    assert (d["played"], d["won"], d["current_streak"], d["best_streak"]) == (2, 2, 2, 2)
    assert d["won_today"]


def test_the_protocol(monkeypatch):
    server = Server(clock=lambda: 0.0)
    r = ask(server, {"id": 1, "op": "new", "daily": "2026-12-07", "profile": "msc"})
    assert r["ok"] and r["state"]["code"] == VECTORS["msc"] and r["state"]["daily"] == "2026-12-07"
    assert [m["code"] for m in r["messages"]] == ["daily", "difficulty"]
    monkeypatch.setattr(daily_module, "today", lambda: DAY)
    r = ask(server, {"op": "new", "daily": True, "profile": "classic", "lang": "vi"})
    assert r["state"]["code"] == VECTORS["classic"] and r["state"]["daily"] == "2026-12-07"
    assert r["messages"][0]["text"] == "Ván bài hằng ngày, ngày 07/12/2026"
    r = ask(server, {"op": "new", "code": "PY1-N-AAAAAAS"})
    assert r["state"]["daily"] is None
    for bad in (False, 20261207, "2026-13-01", "2026-12-7", "tomorrow", None):
        r = ask(server, {"op": "new", "daily": bad})
        assert r["error"]["code"] == "bad_request" and "daily" in r["error"]["message"], bad
        assert r["state"]["code"] == "PY1-N-AAAAAAS"  # nothing changed
    r = ask(server, {"op": "new", "daily": True, "code": "PY1-N-AAAAAAS"})
    assert r["error"]["code"] == "bad_request" and "daily" in r["error"]["message"]
    r = ask(server, {"op": "new", "daily": True, "profile": "vegas"})
    assert r["error"]["code"] == "bad_request" and "profile" in r["error"]["message"]
    assert "daily" in ask(server, {"op": "hello"})["capabilities"]
