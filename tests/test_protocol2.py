"""Protocol 2 (issue 47): every answer validates against the version-2 schema and every
request the tests send against its ``$defs/request``; the events of each answer take the
table before it to the table after it; games with ids run at the same time, analyses do
not delay taps and ``cancel`` stops them; games go both ways as save documents; custom
rules, settings and moves with a deal; the statistics over the protocol."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from importlib import resources

import jsonschema
import pytest

from pyramid_solitaire import Deal
from pyramid_solitaire.model.profiles import Profile
from pyramid_solitaire.session import events as E
from pyramid_solitaire.session import ops
from pyramid_solitaire.session.server2 import Server2

from conftest import repo_file, seed000_deal

SCHEMA = ops.schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
REQUEST = jsonschema.Draft202012Validator({**SCHEMA, "$ref": "#/$defs/request"})


def ask(server: Server2, request: dict | str, *, lines: bool = False):
    """The answers to a request, each validated; the last one (or all with ``lines``)."""
    if isinstance(request, dict):
        REQUEST.validate(request)
    out = server.handle(request if isinstance(request, str) else json.dumps(request))
    answers = [json.loads(line) for line in out]
    for a in answers:
        VALIDATOR.validate(a)
    return answers if lines else answers[-1]


def test_the_shipped_schema_is_the_one_the_ops_declare():
    shipped = json.loads(
        resources.files("pyramid_solitaire.session")
        .joinpath("protocol2.schema.json")
        .read_text(encoding="utf-8")
    )
    assert shipped == json.loads(ops.schema_text()), "run: python tools/protocol_schema.py"
    jsonschema.Draft202012Validator.check_schema(shipped)
    check = subprocess.run(
        [sys.executable, str(repo_file("tools/protocol_schema.py")), "--check"],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout  # docs/protocol.md's tables too


@pytest.mark.parametrize(
    "request_",
    [
        {"op": "tap"},
        {"id": 1, "op": "tap", "game": "g1"},
        {"id": 1, "op": "tap", "target": 3},
        {"id": 1, "op": "new", "random": True, "rules": {"redeals": 1}, "x": 1},
        {"id": 1, "op": "new", "code": "PY1-N-AAAAAAS", "cards": "Ac"},
        {"id": 1, "op": "new", "random": {"seed": 2**53}},
        {"id": 1, "op": "play", "game": "g1", "move": 5},
        {"id": None, "op": "games"},
        {"id": 1, "op": "analyze", "game": "g1", "position": {"code": "PY1-N-AAAAAAS"}},
    ],
)
def test_what_the_schema_refuses_the_server_refuses(request_):
    with pytest.raises(jsonschema.ValidationError):
        REQUEST.validate(request_)
    server = Server2(clock=lambda: 0.0)
    ask(server, {"id": 0, "op": "new", "code": "PY1-N-AAAAAAS"})
    answer = json.loads(server.handle(json.dumps(request_))[-1])
    VALIDATOR.validate(answer)
    assert answer["ok"] is False
    assert answer["error"]["code"] in ("bad_request", "missing_field", "unknown_game")


def test_an_unknown_field_is_named_and_a_missing_one_too():
    server = Server2(clock=lambda: 0.0)
    r = json.loads(
        server.handle('{"id": 1, "op": "new", "random": true, "rules": {"redeals": 1}, "x": 1}')[0]
    )
    assert r["error"] == {
        "code": "bad_request",
        "message": "unknown field 'x': the fields here are game, code, cards, random, daily, "
        "profile, rules, settings, moves, lang, check, record, state",
        "field": "x",
    }
    r = json.loads(server.handle('{"id": 2, "op": "play", "game": "g1"}')[0])
    assert r["error"]["code"] == "missing_field" and r["error"]["field"] == "move"
    r = json.loads(server.handle('{"id": 3}')[0])
    assert r["error"]["code"] == "missing_field" and "needs op" in r["error"]["message"]
    r = json.loads(server.handle('{"op": "games"}')[0])
    assert r["error"]["code"] == "missing_field" and "has an id" in r["error"]["message"]
    r = json.loads(server.handle('{"id": 4, "op": "new", "random": {"seed": 9007199254740992}}')[0])
    assert r["error"]["field"] == "random.seed"


def _random_requests(rng: random.Random, state: dict, gid: str) -> dict:
    targets = state["targets"]
    roll = rng.random()
    if roll < 0.1:
        return {"op": "undo", "game": gid}
    if roll < 0.14:
        return {"op": "redo", "game": gid}
    if roll < 0.16:
        return {"op": "pause", "game": gid}
    if roll < 0.2:
        return {"op": "resume", "game": gid}
    if roll < 0.25 and state["legal_moves"]:
        return {"op": "play", "game": gid, "move": rng.choice(state["legal_moves"])}
    if roll < 0.28:
        return {"op": "finish", "game": gid}
    if not targets:
        return {"op": "undo", "game": gid}
    return {"op": "tap", "game": gid, "target": rng.choice(targets)}


@pytest.mark.parametrize("lang", ["en", "vi"])
@pytest.mark.parametrize("profile", Profile.names())
def test_every_answer_validates_and_its_events_give_the_next_table(profile, lang):
    """A random game per profile and language: each answer validates against the schema,
    and ``apply_events(table before, events) == table after`` (the table of the state the
    answer carries when asked)."""
    server = Server2(clock=lambda: 0.0)
    rng = random.Random(f"{profile}{lang}")
    r = ask(server, {"id": 0, "op": "new", "profile": profile, "lang": lang, "random": {"seed": 7}})
    gid, state = r["game"], r["state"]
    applied = 0
    for i in range(1, 150):
        request = {"id": i, **_random_requests(rng, state, gid), "state": True}
        r = ask(server, request)
        assert r["ok"], r
        after = E.project(r["state"])
        assert E.apply_events(E.project(state), r["events"]) == after, (request, r["events"])
        applied += len(r["events"])
        state = r["state"]
    assert applied > 40  # (a game may end early; most answers carry events)
    for extra in (
        {"op": "hint", "game": gid},
        {"op": "chance", "game": gid},
        {"op": "lang", "game": gid, "lang": "en" if lang == "vi" else "vi"},
        {"op": "fair_hints", "game": gid, "on": True},
        {"op": "state", "game": gid},
        {"op": "export", "game": gid},
        {"op": "games"},
        {"op": "howto", "profile": profile, "lang": lang},
        {"op": "hello", "protocol": 2},
        {"op": "restart", "game": gid},
        {"op": "close", "game": gid},
    ):
        assert ask(server, {"id": "x", **extra})["ok"]


def test_events_of_a_pair_a_king_a_draw_and_their_undo():
    server = Server2(clock=lambda: 0.0)
    r = ask(server, {"id": 1, "op": "new", "code": "PY1-M-AAAAABS", "state": True})
    start = r["state"]
    r = ask(server, {"id": 2, "op": "play", "game": "g1", "move": "Kd"})
    assert r["events"] == [
        {"type": "king", "card": "Kd", "moves": 1},
        {"type": "move", "card": "Kd", "from": 25, "to": "foundation"},
        {"type": "foundation", "top": "Kd"},
        {"type": "score", "points": 10, "score": 10},  # (msc: 10 points a pyramid card)
    ]
    r = ask(server, {"id": 3, "op": "tap", "game": "g1", "target": "stock"})
    assert [e["type"] for e in r["events"]] == ["draw", "move", "turn"]
    r = ask(server, {"id": 4, "op": "undo", "game": "g1"})
    assert [e["type"] for e in r["events"]] == ["undo", "hide", "move", "turn"]
    r = ask(server, {"id": 5, "op": "undo", "game": "g1", "state": True})
    assert r["events"] == [
        {"type": "undo", "move": "Kd", "moves": 4},
        {"type": "move", "card": "Kd", "from": "foundation", "to": 25},
        {"type": "free", "targets": [25]},
        {"type": "foundation", "top": None},
        {"type": "score", "points": -10, "score": 0},
    ]
    assert E.project(r["state"]) == {**E.project(start), "moves": 4}  # (msc: undo counts)


def test_a_selection_and_the_clock_are_events():
    server = Server2(clock=lambda: 0.0)
    ask(server, {"id": 1, "op": "new", "code": "PY1-N-AAAAAAS"})
    state = ask(server, {"id": 2, "op": "state", "game": "g1"})["state"]
    free = [p["index"] for p in state["pyramid"] if p["free"] and p["card"][0] != "K"]
    r = ask(server, {"id": 3, "op": "tap", "game": "g1", "target": free[0]})
    assert r["events"] == [
        {"type": "select", "target": free[0], "card": state["pyramid"][free[0]]["card"]}
    ]
    assert ask(server, {"id": 4, "op": "pause", "game": "g1"})["events"] == [{"type": "pause"}]
    again = ask(server, {"id": 5, "op": "pause", "game": "g1"})
    assert again["events"] == [] and again["messages"] == []  # paused already: nothing said
    assert ask(server, {"id": 6, "op": "resume", "game": "g1"})["events"] == [{"type": "resume"}]


def test_games_the_client_owns_go_both_ways():
    server = Server2(clock=lambda: 0.0)
    ask(
        server,
        {"id": 1, "op": "new", "code": "PY1-N-AAAAAAS", "game": "mine", "moves": ["draw", "draw"]},
    )
    r = ask(server, {"id": 2, "op": "export", "game": "mine"})
    save, share = r["save"], r["share"]
    assert share == {"code": "PY1-N-AAAAAAS"}
    r = ask(server, {"id": 3, "op": "import", "save": save, "state": True})
    assert r["game"] == "g1" and r["state"]["moves"] == 2 and r["state"]["code"] == "PY1-N-AAAAAAS"
    damaged = {**save, "score": -5}
    r = ask(server, {"id": 4, "op": "import", "save": damaged})
    assert r["error"]["code"] == "bad_save" and "score" in r["error"]["message"]
    r = ask(server, {"id": 5, "op": "new", "game": "mine", "random": True})
    assert r["error"]["code"] == "game_exists"
    bad = ask(server, {"id": 6, "op": "new", "code": "PY1-N-AAAAAAS", "moves": ["draw", "Kh"]})
    assert bad["error"]["field"] == "moves[1]"
    assert [g["game"] for g in ask(server, {"id": 7, "op": "games"})["games"]] == ["mine", "g1"]


def test_custom_rules_and_settings_play_and_share():
    server = Server2(clock=lambda: 0.0)
    cards = seed000_deal().to_cards()
    r = ask(
        server,
        {
            "id": 1,
            "op": "new",
            "cards": cards,
            "rules": {"preset": "msc", "redeals": 0},
            "settings": {"undo_limit": 1, "explain_errors": False},
        },
    )
    assert r["state"]["rules"]["redeals"] == 0 and r["state"]["rules"]["name"] == "custom"
    share = ask(server, {"id": 2, "op": "export", "game": "g1"})["share"]
    assert share["cards"] == cards and share["rules"]["redeals"] == 0
    ask(server, {"id": 3, "op": "play", "game": "g1", "move": "draw"})
    ask(server, {"id": 4, "op": "play", "game": "g1", "move": "draw"})
    ask(server, {"id": 5, "op": "undo", "game": "g1"})
    r = ask(server, {"id": 6, "op": "undo", "game": "g1"})
    assert r["messages"][0]["code"] == "undo_limit"
    # an X code needs its rules; with them it plays
    x = ask(server, {"id": 7, "op": "new", "code": "PY1-X-AAAAAAS"})
    assert x["ok"] is False and x["error"]["code"] == "bad_request"
    r = ask(
        server,
        {"id": 8, "op": "new", "code": "PY1-N-AAAAAAS", "rules": {"preset": "pyramide", "draw": 3}},
    )
    assert r["ok"] is False  # a code of one game played under other rules is refused


def test_analysis_queries_batches_and_budgets():
    server = Server2(clock=lambda: 0.0)
    ask(server, {"id": 1, "op": "new", "code": "PY1-M-AAAAABS"})
    r = ask(
        server,
        {
            "id": 2,
            "op": "analyze",
            "game": "g1",
            "queries": ["winnable", "winning_moves", "shortest", "max_removed"],
        },
    )
    result = r["result"]
    assert result["winnable"] is True and set(result["winning_moves"]) == {"Kd", "Ks", "draw"}
    assert result["shortest"]["moves"] == len(result["shortest"]["line"])
    assert result["max_removed"]["cards"] == 28
    codes = [f"PY1-N-AAAAA{c}S" for c in "ABCDE"]
    answers = ask(
        server,
        {
            "id": 3,
            "op": "analyze",
            "positions": [{"code": c} for c in codes],
            "queries": ["winnable"],
        },
        lines=True,
    )
    assert [a.get("index") for a in answers[:-1]] == [0, 1, 2, 3, 4]
    assert answers[-1] == {"id": 3, "ok": True, "op": "analyze", "messages": [], "done": 5}
    r = ask(
        server,
        {
            "id": 4,
            "op": "analyze",
            "position": {"code": "PY1-C-AAAAABS", "moves": ["draw"]},
            "queries": ["winnable", "winning_moves"],
            "budget": {"positions": 50},
        },
    )
    assert r["result"]["winnable"] is None and r["result"]["stopped_by"] == "nodes"
    r = ask(
        server, {"id": 5, "op": "analyze", "position": {"code": "PY1-N-AAAAAAS", "moves": ["Kh"]}}
    )
    assert r["error"]["field"] == "position.moves[0]"


def _long_analysis() -> dict:
    """Shortest wins of 1,000 classic-draw3 deals: seconds of work, whatever the machine."""
    codes = [Deal.from_number(n, rules="classic-draw3").code for n in range(1000)]
    return {
        "op": "analyze",
        "positions": [{"code": c} for c in codes],
        "queries": ["shortest"],
        "budget": {"seconds": 60},
        "progress": 0.05,
    }


def test_a_long_analysis_delays_no_tap_and_cancel_stops_it():
    lines: list[dict] = []
    arrived: set[object] = set()  # the ids whose last line came
    got = threading.Condition()

    def write(line: str) -> None:
        answer = json.loads(line)
        VALIDATOR.validate(answer)
        with got:
            lines.append(answer)
            if "progress" not in answer and "partial" not in answer:  # (its last line)
                arrived.add(answer["id"])
            got.notify_all()

    def wait(rid: object, timeout: float = 30.0) -> None:
        with got:
            assert got.wait_for(lambda: rid in arrived, timeout), f"no answer to {rid}"

    server = Server2(clock=lambda: 0.0, write=write)
    server.submit(json.dumps({"id": "a", "op": "new", "code": "PY1-M-AAAAABS"}))
    wait("a")
    server.submit(json.dumps({"id": "long", **_long_analysis()}))
    server.submit(
        json.dumps(
            {
                "id": "long-game",
                "op": "analyze",
                "game": "g1",
                "queries": ["winnable"],
            }
        )
    )
    time.sleep(0.3)  # the long search under way
    for i in range(10):  # each answered while the analysis runs (round trips: bench/)
        server.submit(json.dumps({"id": f"t{i}", "op": "state", "game": "g1"}))
        wait(f"t{i}")
    assert "long" not in arrived, "the analysis ended before the taps: choose a longer one"
    assert any("progress" in a and a["id"] == "long" for a in lines)
    server.submit(json.dumps({"id": "stop", "op": "cancel", "request": "long"}))
    wait("long")
    answer = (
        lines[-1]
        if lines[-1]["id"] == "long"
        else next(a for a in lines if a["id"] == "long" and "error" in a)
    )
    assert answer["error"]["code"] == "cancelled"
    done = [a for a in lines if a["id"] == "long" and a.get("partial")]
    assert len(done) < 1000  # stopped, not finished (its time: bench/, the Node client)
    assert next(a for a in lines if a["id"] == "stop")["cancelled"] is True
    server.drain()
    server.close()


def test_requests_of_one_game_keep_their_order_and_ids_are_unique_while_running():
    lines: list[dict] = []
    server = Server2(clock=lambda: 0.0, write=lambda line: lines.append(json.loads(line)))
    server.submit(json.dumps({"id": 1, "op": "new", "code": "PY1-N-AAAAAAS"}))
    for i in range(2, 30):
        server.submit(json.dumps({"id": i, "op": "play", "game": "g1", "move": "draw"}))
    server.submit(json.dumps({"id": 99, "op": "state", "game": "g1"}))
    server.drain()
    mine = [a for a in lines if isinstance(a["id"], int)]
    assert [a["id"] for a in mine] == [1, *range(2, 30), 99]
    assert mine[-1]["state"]["moves"] == 23  # 23 draws then no draw left (pyramide: one pass)
    server.submit(json.dumps({"id": "same", **_long_analysis(), "budget": {"seconds": 5}}))
    server.submit(json.dumps({"id": "same", "op": "games"}))
    server.submit(json.dumps({"id": "c", "op": "cancel", "request": "same"}))
    server.drain()
    same = [a for a in lines if a["id"] == "same" and not a["ok"]]
    assert {a["error"]["code"] for a in same} == {"duplicate_id", "cancelled"}
    server.close()


def test_statistics_recorded_when_asked_and_filtered_by_deal(tmp_path):
    db = str(tmp_path / "stats.sqlite")
    server = Server2(clock=lambda: 0.0, stats_path=db)
    line = ask(
        server,
        {"id": 0, "op": "analyze", "position": {"code": "PY1-N-AAAAAAS"}, "queries": ["shortest"]},
    )
    moves = line["result"]["shortest"]["line"]
    ask(server, {"id": 1, "op": "new", "code": "PY1-N-AAAAAAS", "record": True, "moves": moves})
    ask(server, {"id": 2, "op": "new", "code": "PY1-N-AAAAABS", "moves": ["Kd"]})  # not recorded
    ask(server, {"id": 3, "op": "new", "code": "PY1-N-AAAAACS", "record": True, "moves": ["draw"]})
    ask(server, {"id": 4, "op": "close", "game": "g3"})  # abandoned: recorded
    r = ask(server, {"id": 5, "op": "stats"})
    assert r["stats"]["games"] == 2 and r["stats"]["wins"] == 1
    r = ask(server, {"id": 6, "op": "stats", "deal": "PY1-N-AAAAAAS"})
    assert r["stats"]["games"] == 1 and r["stats"]["wins"] == 1
    r = ask(server, {"id": 7, "op": "daily", "profile": "msc", "date": "2026-12-07"})
    assert r["daily"]["code"].startswith("PY1-M-") and r["daily"]["date"] == "2026-12-07"


def test_serve_stdio_speaks_2_after_hello_and_prints_its_schema():
    requests = [
        {"op": "hello", "protocol": 2},
        {"id": 1, "op": "new", "code": "PY1-N-AAAAAAS"},
        {"id": 2, "op": "play", "game": "g1", "move": "draw"},
        {"id": 3, "op": "quit"},
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire", "serve", "--stdio"],
        input="\n".join(map(json.dumps, requests)) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=repo_file("."),
    )
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    for a in answers:
        VALIDATOR.validate(a)
    assert answers[0]["protocol"] == 2 and [a["id"] for a in answers[1:]] == [1, 2, 3]
    assert answers[2]["events"][0] == {"type": "draw", "moves": 1}
    proc = subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire", "serve", "--schema"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert json.loads(proc.stdout) == SCHEMA
    proc = subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire", "serve", "--schema", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert json.loads(proc.stdout)["$id"] == "pyramid-solitaire/protocol/1"


def test_sampled_answers_keep_their_budget_and_stop_at_cancel():
    """fair_move and chance (completions decided by the solver) stop at budget.seconds
    (stopped_by "time") and at cancel, as the searches do."""
    server = Server2(clock=lambda: 0.0)
    slow = {"code": "PY1-N-COTJWDZ"}  # (4,096 completions: about a second here)
    r = ask(
        server,
        {
            "id": 1,
            "op": "analyze",
            "position": slow,
            "queries": ["fair_move", "chance"],
            "samples": 4096,
            "budget": {"seconds": 0.05},
        },
    )
    assert r["result"]["stopped_by"] == "time" and r["result"]["fair_move"] is None
    lines: list[dict] = []
    done = threading.Event()

    def write(line: str) -> None:
        lines.append(json.loads(line))
        if lines[-1]["id"] == "g":
            done.set()

    server = Server2(clock=lambda: 0.0, write=write)
    server.submit(
        json.dumps(
            {"id": "g", "op": "analyze", "position": slow, "queries": ["chance"], "samples": 4096}
        )
    )
    time.sleep(0.1)
    server.submit(json.dumps({"id": "c", "op": "cancel", "request": "g"}))
    assert done.wait(60)  # (a guard against a hang; a finished one would answer ok)
    assert next(a for a in lines if a["id"] == "g")["error"]["code"] == "cancelled"
    server.close()


def test_the_examples_of_version_2_in_the_docs_validate_and_are_what_the_server_answers():
    text = repo_file("docs", "protocol.md").read_text(encoding="utf-8").split("\n## Version 2\n")[1]
    lines = [json.loads(x) for x in text.splitlines() if x.startswith("{")]
    server = Server2(clock=lambda: 0.0)
    ask(server, {"id": 1, "op": "new", "code": "PY1-M-AAAAABS"})  # (the example's game)
    checked = 0
    for line in lines:
        if "ok" not in line:
            REQUEST.validate(line)
            answer = ask(server, line)
            continue
        VALIDATOR.validate(line)
        assert answer == line
        checked += 1
    assert checked == 2


def test_what_a_newcomer_met(tmp_path, monkeypatch):
    """A deal that cannot be read names its field, in a batch too; a custom game's share
    goes back to new as it is; record without --db writes the user's statistics file (the
    one stats reads); a save whose undo points outweigh its score is bad_save."""
    server = Server2(clock=lambda: 0.0)
    batch = {"op": "analyze", "positions": [{"code": "PY1-N-AAAAAAS"}, {"code": "PY1-Q-AAAAAAS"}]}
    r = ask(server, {"id": 1, **batch})
    assert r["error"]["field"] == "positions[1].code"
    r = ask(server, {"id": 2, "op": "new", "code": "PY1-N-AAAAAA"})
    assert r["error"]["field"] == "code" and r["error"]["reason"] == "code_digits_length"
    cards = seed000_deal().to_cards()
    gid = ask(
        server, {"id": 3, "op": "new", "cards": cards, "rules": {"preset": "msc", "redeals": 0}}
    )["game"]
    share = ask(server, {"id": 4, "op": "export", "game": gid})["share"]
    again = ask(server, {"id": 5, "op": "new", **share, "state": True})
    assert (
        again["ok"] and again["state"]["rules"]["redeals"] == 0 and again["state"]["cards"] == cards
    )
    msc = ask(server, {"id": 7, "op": "new", "code": "PY1-M-AAAAABS", "moves": ["Kd"]})["game"]
    save = ask(server, {"id": 8, "op": "export", "game": msc})["save"]
    save["undo"][0]["points"] = 50
    r = ask(server, {"id": 9, "op": "import", "save": save})
    assert r["error"]["code"] == "bad_save" and "more than the score" in r["error"]["message"]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    line = ask(
        server,
        {"id": 10, "op": "analyze", "position": {"code": "PY1-N-AAAAAAS"}, "queries": ["shortest"]},
    )
    moves = line["result"]["shortest"]["line"]
    ask(server, {"id": 11, "op": "new", "code": "PY1-N-AAAAAAS", "record": True, "moves": moves})
    assert ask(server, {"id": 12, "op": "stats"})["stats"]["wins"] == 1
    assert (tmp_path / "data" / "pyramid-solitaire" / "stats.sqlite3").exists()
