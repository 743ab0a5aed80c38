"""Session and protocol speed: a tap through Session, a request through the protocol (line in,
full-state line out), an autosave, a statistics query; and the solver's share, as
distributions over msc deals: the "no chance to win" check after an action, a hint, a deal's
difficulty rating.

    python -m pytest bench/test_bench_session.py --benchmark-enable
"""

from __future__ import annotations

import json
import pathlib
import random
import time

import numpy as np
import pytest

from pyramid_solitaire import Status, can_still_win
from pyramid_solitaire.session import Profile, Session
from pyramid_solitaire.session.protocol import Server


def test_tap_select_and_deselect(benchmark):
    s = Session("PY1-N-AAAAAAS", clock=lambda: 0.0)

    def taps():
        s.tap(21)  # 5d selected
        s.tap(21)  # and deselected: no move, the same position every time

    benchmark(taps)
    assert s.moves == 0


def test_tap_with_a_move_and_undo(benchmark):
    s = Session("PY1-T-AAAAAAS", "three-pass", clock=lambda: 0.0)

    def tap_undo():
        s.tap(22)  # Kc removed
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
    store._db.execute("PRAGMA synchronous = OFF")  # filling only: no fsync per record
    for _ in range(100_000):
        store.record(s)
    store._db.execute("PRAGMA synchronous = FULL")
    return store


def test_stats_query_over_100000_games(benchmark, big_store):
    result = benchmark(big_store.summary, "pyramide")
    assert result["games"] == 100_000


# ---- the solver's share: notices, hints, difficulty -----------------------------------------

DATA = pathlib.Path(__file__).resolve().parent.parent / "data"
MSC = (DATA / "msc-1500-deals.txt").read_text().splitlines()
SAMPLE = 300  # msc deals (the first of the file)


def _spread(times: list[float]) -> dict[str, float]:
    """Milliseconds: median, 90th and 99th percentiles, the worst."""
    ms = np.array(times) * 1000
    return {
        "n": len(ms),
        "median_ms": float(np.median(ms)),
        "p90_ms": float(np.percentile(ms, 90)),
        "p99_ms": float(np.percentile(ms, 99)),
        "max_ms": float(ms.max()),
    }


def _report(benchmark, what: str, spread: dict[str, float], **extra: float) -> None:
    benchmark.extra_info.update(spread, **extra)
    more = "".join(f", {k} {v}" for k, v in extra.items())
    print(
        f"\n{what}: {spread['n']} calls, median {spread['median_ms']:.2f} ms, p90 "
        f"{spread['p90_ms']:.2f}, p99 {spread['p99_ms']:.2f}, max {spread['max_ms']:.2f}{more}"
    )


def test_no_chance_check_after_each_action(benchmark):
    """The notice's cost after each action of random games of msc deals (the check's
    budget is the profile's 50 ms): the distribution, and how often it said nothing because
    the budget ran out."""
    profile = Profile.preset("msc").replace(no_chance_notice=True)
    rng = random.Random(7)

    def sweep():
        times, undecided, told = [], 0, 0
        for cards in MSC[: SAMPLE // 3]:
            s = Session(cards, profile, clock=lambda: 0.0)
            for _ in range(30):
                legal = s.game.legal_moves
                if not legal or s.status is not Status.PLAYING:
                    break
                s.game.play(rng.choice(legal))
                t = time.perf_counter()
                verdict = can_still_win(s.game, max_seconds=profile.notice_seconds)
                times.append(time.perf_counter() - t)
                undecided += verdict is None
                told += verdict is False
        return times, undecided, told

    times, undecided, told = benchmark.pedantic(sweep, rounds=1, iterations=1)
    _report(
        benchmark, "no-chance check per action", _spread(times), undecided=undecided, no_chance=told
    )


def test_hint_on_msc_deals(benchmark):
    """A hint at the start of each sampled msc deal and after a few random moves."""
    profile = Profile.preset("msc")
    rng = random.Random(11)

    def sweep():
        times = []
        for cards in MSC[:SAMPLE]:
            s = Session(cards, profile, clock=lambda: 0.0)
            for _ in range(rng.randrange(0, 6)):
                legal = s.game.legal_moves
                if legal and s.status is Status.PLAYING:
                    s.game.play(rng.choice(legal))
            if s.status is not Status.PLAYING:
                continue
            t = time.perf_counter()
            s.hint()
            times.append(time.perf_counter() - t)
        return times

    _report(benchmark, "hint", _spread(benchmark.pedantic(sweep, rounds=1, iterations=1)))


def test_difficulty_rating(benchmark):
    """Rating a deal (200 random playouts, one greedy, the solver when no playout won)."""
    from pyramid_solitaire.session.difficulty import rate

    def sweep():
        times = []
        for cards in MSC[:SAMPLE]:
            t = time.perf_counter()
            rate(cards, "msc")
            times.append(time.perf_counter() - t)
        return times

    _report(benchmark, "difficulty", _spread(benchmark.pedantic(sweep, rounds=1, iterations=1)))
