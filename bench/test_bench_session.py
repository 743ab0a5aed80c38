"""Session and protocol speed: a tap through Session, a request through the protocol (line in,
full-state line out), an autosave, a statistics query.

    python -m pytest bench/test_bench_session.py --benchmark-enable
"""
from __future__ import annotations

import json

import pytest

from pyramid_solitaire.session import Session
from pyramid_solitaire.session.protocol import Server


def test_tap_select_and_deselect(benchmark):
    s = Session("PY1-N-AAAAAAS", clock=lambda: 0.0)

    def taps():
        s.tap(21)       # 5d selected
        s.tap(21)       # and deselected: no move, the same position every time

    benchmark(taps)
    assert s.moves == 0


def test_tap_with_a_move_and_undo(benchmark):
    s = Session("PY1-T-AAAAAAS", "three-pass", clock=lambda: 0.0)

    def tap_undo():
        s.tap(22)       # Kc removed
        s.undo()

    benchmark(tap_undo)


def test_protocol_request(benchmark):
    server = Server(clock=lambda: 0.0)
    server.handle(json.dumps({"op": "new", "code": "PY1-N-AAAAAAS"}))
    line = json.dumps({"id": 1, "op": "tap", "target": 21})
    out = benchmark(server.handle, line)
    assert json.loads(out)["ok"]


def test_autosave(benchmark, tmp_path):
    s = Session("PY1-N-AAAAAAS", clock=lambda: 0.0)
    for _ in range(30):
        s.tap("stock")
    benchmark(s.save, tmp_path / "game.json")


@pytest.fixture(scope="module")
def big_store(tmp_path_factory):
    from pyramid_solitaire.session.stats import StatsStore
    store = StatsStore(tmp_path_factory.mktemp("stats") / "stats.sqlite3")
    s = Session("PY1-N-AAAAAAS", clock=lambda: 0.0)
    store._db.execute("PRAGMA synchronous = OFF")    # filling only: no fsync per record
    for _ in range(100_000):
        store.record(s)
    store._db.execute("PRAGMA synchronous = FULL")
    return store


def test_stats_query_over_100000_games(benchmark, big_store):
    result = benchmark(big_store.summary, "pyramide")
    assert result["games"] == 100_000
