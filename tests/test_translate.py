"""A message already shown, said again in another language (session/translate.py): the
protocol's ``lang`` answers with the last action's messages translated (a hint stays shown),
and ``new`` with ``check`` reads a deal without leaving the game (a frontend asks "leave this
game?" only for a deal that can be played)."""

from __future__ import annotations

import json
from importlib import resources

import jsonschema
import pytest

from pyramid_solitaire.session.messages import LANGUAGES, message
from pyramid_solitaire.session.protocol import Server
from pyramid_solitaire.session.session import Session
from pyramid_solitaire.session.translate import in_lang

SCHEMA = json.loads(
    resources.files("pyramid_solitaire.session")
    .joinpath("protocol.schema.json")
    .read_text(encoding="utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def ask(server: Server, request: dict) -> dict:
    response = json.loads(server.handle(json.dumps(request)))
    VALIDATOR.validate(response)
    return response


def test_every_kind_of_message_is_said_again_in_each_language():
    """Each message a game gives (a hint of each kind, the difficulty, a refusal with its
    reason, the daily deal, a plain notice) comes out in the other language exactly as the
    session says it there, and back again."""
    said: dict[str, list] = {}
    for lang in LANGUAGES:
        s = Session("PY1-N-AAAAAAS", "pyramide", lang=lang, clock=lambda: 0.0)
        msgs = list(s.greeting()) + s.hint() + s.tap(0)  # difficulty, a hint, blocked
        msgs += s.tap(25) + s.tap(21)  # 3♦ then 5♦: not 13
        msgs += s.play("Ad")  # not legal: why, in words
        said[lang] = msgs
    en, vi = said["en"], said["vi"]
    assert [m.code for m in en] == [m.code for m in vi]
    assert {"difficulty", "hint", "blocked", "sum_not_13"} <= {m.code for m in en}
    assert any("why" in m.args for m in en), en
    for a, b in zip(en, vi):
        assert in_lang(a, "vi").text == b.text, (a, b)
        assert in_lang(b, "en").text == a.text, (a, b)
        assert in_lang(a, "vi").code == a.code
    day = Session.new_daily("msc", "2026-12-07", lang="en").greeting()[0]
    shown = message("daily", "vi", **{**day.args, "shown": "07/12/2026"}).text
    assert in_lang(day, "vi").text == shown


def test_a_message_of_no_known_words_keeps_its_text():
    from pyramid_solitaire.session.messages import Message

    odd = Message("no_such_code", "something", {})
    assert in_lang(odd, "vi") is odd
    with pytest.raises(ValueError, match="lang"):
        in_lang(odd, "fr")


def test_lang_says_the_shown_messages_again_translated():
    server = Server(clock=lambda: 0.0)
    ask(server, {"op": "new", "code": "PY1-N-AAAAAAS"})
    hint = ask(server, {"op": "hint"})["messages"]
    assert hint and hint[0]["code"] == "hint"
    r = ask(server, {"op": "lang", "lang": "vi"})
    assert [m["code"] for m in r["messages"]] == ["hint"]  # still shown, in Vietnamese
    assert r["messages"][0]["text"] != hint[0]["text"]
    assert r["messages"][0]["args"]["move"] == hint[0]["args"]["move"]
    refused = ask(server, {"op": "tap", "target": 0})["messages"]
    r = ask(server, {"op": "lang", "lang": "en"})
    assert r["messages"][0]["text"] == "This card is blocked by another card"
    assert refused[0]["text"] == "Lá bài này bị một lá khác chặn"
    ask(server, {"op": "state"})  # asking for the state changes nothing shown
    assert ask(server, {"op": "lang", "lang": "vi"})["messages"][0]["text"] == refused[0]["text"]


def test_new_with_check_reads_a_deal_and_the_game_goes_on():
    server = Server(clock=lambda: 0.0)
    ask(server, {"op": "new", "code": "PY1-N-AAAAAAS"})
    ask(server, {"op": "tap", "target": "stock"})
    r = ask(server, {"op": "new", "code": "PY1-M-AAAAAAB", "check": True})
    assert r["ok"] and r["checked"] == {"code": "PY1-M-AAAAAAB", "profile": "msc"}
    assert "state" not in r or r["state"]["code"] == "PY1-N-AAAAAAS"
    assert ask(server, {"op": "state"})["state"]["moves"] == 1  # the game goes on
    bad = ask(server, {"op": "new", "code": "PY1-N-AAAAAA", "check": True, "lang": "vi"})
    assert bad["error"]["code"] == "bad_request" and "AAAAAA" in bad["error"]["text"]
    assert ask(server, {"op": "state"})["state"]["code"] == "PY1-N-AAAAAAS"
    cards = " ".join(Session("PY1-N-AAAAAAS").game.deal.to_cards().split())
    r = ask(server, {"op": "new", "cards": cards, "profile": "msc", "check": True})
    assert r["checked"] == {"code": None, "profile": "msc"}
    for wrong in ({"check": 1, "code": "PY1-N-AAAAAAS"}, {"check": True, "random": True}):
        assert ask(server, {"op": "new", **wrong})["error"]["code"] == "bad_request"
