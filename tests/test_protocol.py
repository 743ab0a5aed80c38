"""The JSON-lines protocol: seed 000's walkthrough, errors, save/load, a real subprocess; every
response checked against the JSON Schema shipped in the package."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

import jsonschema
import pytest

from pyramid_solitaire.session.protocol import MAX_LINE, Server

from conftest import repo_file, seed000_deal

SCHEMA = json.loads(
    resources.files("pyramid_solitaire.session")
    .joinpath("protocol.schema.json")
    .read_text(encoding="utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def ask(server: Server, request) -> dict:
    line = request if isinstance(request, str) else json.dumps(request)
    response = json.loads(server.handle(line))
    VALIDATOR.validate(response)
    return response


def index_of(response: dict, token: str) -> int:
    return next(p["index"] for p in response["state"]["pyramid"] if p["card"] == token)


def test_seed000_walkthrough_through_the_protocol():
    server = Server(clock=lambda: 0.0)
    r = ask(server, {"id": "a", "op": "new", "cards": seed000_deal().to_cards()})
    assert r["ok"] and r["id"] == "a" and r["state"]["score"] == 0
    r = ask(server, {"id": 1, "op": "tap", "target": index_of(r, "Qc")})
    assert [m["code"] for m in r["messages"]] == ["blocked"]
    r = ask(server, {"id": 2, "op": "tap", "target": index_of(r, "Kd")})
    assert r["state"]["score"] == 10 and r["messages"] == []
    r = ask(server, {"id": 3, "op": "drag", "from": index_of(r, "Tc"), "to": index_of(r, "3s")})
    assert r["state"]["score"] == 30
    ask(server, {"op": "tap", "target": index_of(r, "7c")})
    r = ask(server, {"op": "tap", "target": index_of(r, "7s")})
    assert r["messages"][0]["text"] == "Sum must be 13"
    assert r["state"]["selection"]["card"] == "7s" and r["state"]["score"] == 30
    r = ask(server, {"op": "undo"})
    assert r["state"]["score"] == 10 and r["state"]["moves"] == 2 and r["state"]["can_redo"]


@pytest.mark.parametrize(
    "line, code",
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_request"),
        ('{"op": "fly"}', "unknown_op"),
        ('{"op": "tap"}', "no_session"),
        ('{"id": true, "op": "hello"}', "bad_request"),
        ("x" * (MAX_LINE + 1), "too_long"),
    ],
)
def test_bad_requests_get_errors_and_the_session_goes_on(line, code):
    server = Server()
    r = ask(server, line)
    assert not r["ok"] and r["error"]["code"] == code
    assert ask(server, {"op": "hello"})["ok"]


def test_errors_with_a_session():
    server = Server()
    ask(server, {"op": "new", "code": "PY1-N-AAAAAAS"})
    for request, code in [
        ({"op": "tap"}, "missing_field"),
        ({"op": "tap", "target": 99}, "bad_request"),
        ({"op": "new", "code": "PY1-Q-AAAAAAA"}, "bad_request"),
        ({"op": "new", "code": "x", "cards": "y"}, "bad_request"),
        ({"op": "new", "profile": "vegas"}, "bad_request"),
    ]:
        r = ask(server, request)
        assert not r["ok"] and r["error"]["code"] == code and r["state"]["code"] == "PY1-N-AAAAAAS"


def test_hello_save_load_and_winnable_only(tmp_path):
    server = Server(clock=lambda: 0.0)
    hello = ask(server, {"op": "hello"})
    assert hello["protocol"] == 1 and "pyramide" in hello["profiles"] and "vi" in hello["languages"]
    r = ask(
        server,
        {"op": "new", "random": {"winnable_only": True, "seed": 3}, "profile": "msc", "lang": "vi"},
    )
    from pyramid_solitaire import solve

    assert solve(r["state"]["code"]).winnable
    ask(server, {"op": "tap", "target": "stock"})
    path = str(tmp_path / "game.json")
    assert ask(server, {"op": "save", "path": path})["messages"][0]["code"] == "saved"
    other = Server(clock=lambda: 0.0)
    loaded = ask(other, {"op": "load", "path": path})
    assert loaded["state"] == ask(server, {"op": "state"})["state"]
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    r = ask(other, {"op": "load", "path": str(bad)})
    assert not r["ok"] and str(bad) in r["error"]["message"]


def test_serve_stdio_in_a_subprocess():
    requests = [
        {"id": 1, "op": "hello"},
        {"id": 2, "op": "new", "code": "PY1-N-AAAAAAS"},
        {"id": 3, "op": "tap", "target": 22},
        {"id": 4, "op": "quit"},
        {"id": 5, "op": "hello"},
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire", "serve", "--stdio"],
        input="\n".join(map(json.dumps, requests)) + "\n",
        text=True,
        capture_output=True,
        timeout=60,
    )
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0 and [r["id"] for r in lines] == [1, 2, 3, 4]  # quit ends it
    for r in lines:
        VALIDATOR.validate(r)
    assert lines[2]["state"]["score"] == 10


def test_the_worked_example_of_protocol_md_is_what_the_server_answers():
    text = repo_file("docs", "protocol.md").read_text(encoding="utf-8")
    text = text.split("\n## Version 2\n")[0]  # (version 2's examples: test_protocol2.py)
    lines = [json.loads(x) for x in text.splitlines() if x.startswith("{")]
    server = Server(clock=lambda: 0.0)
    checked = 0
    for line in lines:
        if "op" in line and "ok" not in line:
            answer = json.loads(server.handle(json.dumps(line)))
            continue
        shown = line  # a response: only part of its state shown
        assert answer["messages"] == shown["messages"] and answer["id"] == shown["id"]
        if "error" in shown:  # a refusal: its reason, in both words
            assert answer["error"] == shown["error"]
        else:
            assert {k: answer["state"][k] for k in shown["state"]} == shown["state"]
        checked += 1
    assert checked == 8


def test_the_language_changes_mid_game():
    server = Server(clock=lambda: 0.0)
    ask(server, {"op": "new", "code": "PY1-N-AAAAAAS"})
    assert ask(server, {"op": "tap", "target": 22})["state"]["lang"] == "en"
    r = ask(server, {"op": "lang", "lang": "vi"})
    assert r["ok"] and r["state"]["lang"] == "vi" and r["state"]["score"] == 10
    assert (
        ask(server, {"op": "tap", "target": 0})["messages"][0]["text"]
        == "Lá bài này bị một lá khác chặn"
    )
    assert ask(server, {"op": "lang", "lang": "fr"})["error"]["code"] == "bad_request"
    assert ask(server, {"op": "lang"})["error"]["code"] == "missing_field"


def test_fields_are_read_as_the_schema_says(tmp_path):
    server = Server(clock=lambda: 0.0)
    assert ask(server, {"op": "new", "code": "PY1-M-AAAAAAS"})["state"]["profile"] == "msc"
    assert ask(server, {"op": "tap", "target": 22.0})["ok"]  # an integer to JSON
    for bad in (
        {"random": False},
        {"random": {"winnable_only": 1}},
        {"random": {"seed": "x"}},
        {"random": {"seed": -1}},
    ):
        r = ask(server, {"op": "new", **bad})
        assert r["error"]["code"] == "bad_request" and "random" in r["error"]["message"], bad
    assert ask(server, {"op": "stats", "profile": "vegas"})["error"]["code"] == "bad_request"
    r = ask(server, {"id": 2**60, "op": "hello"})
    assert r["error"]["code"] == "bad_request" and r["id"] is None
    assert ask(server, "[" + '"é",' * (MAX_LINE // 4) + "1]")["error"]["code"] == "too_long"
    assert (
        ask(server, {"op": "load", "path": str(tmp_path / "none.json")})["error"]["code"]
        == "io_error"
    )
    assert ask(server, {"op": "load", "path": str(tmp_path)})["error"]["code"] == "io_error"
    assert ask(server, {"op": "save", "path": ""})["error"]["code"] == "bad_request"
