"""The reasons a player's input is refused (pyramid_solitaire.reasons) and the words the
frontends draw (session.labels): each in both languages, each used, none missing."""

from __future__ import annotations

import json
import pickle
import re
import string

import pytest

from pyramid_solitaire import Deal, Game, Move
from pyramid_solitaire.reasons import REASONS, InputError, error_text, reason_text
from pyramid_solitaire.session import Session
from pyramid_solitaire.session.labels import LABELS, label, labels
from pyramid_solitaire.session.messages import LANGUAGES
from pyramid_solitaire.session.protocol import Server

from conftest import repo_file


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("table", [REASONS, LABELS], ids=["reasons", "labels"])
def test_every_text_is_in_every_language_with_no_argument_of_its_own(table):
    for key, texts in table.items():
        assert set(texts) == set(LANGUAGES), key
        assert all(texts[lang].strip() for lang in LANGUAGES), key
        # a translation may leave an argument out, never ask for one English does not have
        assert _fields(texts["vi"]) <= _fields(texts["en"]), key


def _source(*parts: str) -> str:
    return repo_file(*parts).read_text(encoding="utf-8")


def test_every_reason_raised_or_returned_is_in_the_table_and_every_one_is_used():
    python = "\n".join(
        p.read_text(encoding="utf-8")
        for p in repo_file("python", "pyramid_solitaire").rglob("*.py")
    )
    used = set(re.findall(r'InputError\(\s*"([a-z_]+)"', python))
    from pyramid_core.position import WHY  # the engine's reasons a move is refused

    used |= set(WHY) - {"legal"}
    used.add("move_game_over")
    assert used <= set(REASONS), used - set(REASONS)
    assert set(REASONS) <= used, set(REASONS) - used


BAD = {
    "PY1-N-AAAAAA": "code_digits_length",
    "PY1-Q-AAAAAAA": "rules_letter",
    "PY1-N-AAAA1AA": "code_digit",
    "PY2-N-AAAAAAA": "code_version",
    "PY1-NN-AAAAAAA": "code_letter_length",
    "PY1-N-ÀAAAAAA": "code_not_ascii",
    "PY1-N": "code_malformed",
    "Ah 2h": "card_count",
    "Ah Ah": "card_twice",
    "Ah 2h 3x": "list_token",
    "Ah 2h3x": "list_token_in",
    "x" * 6000: "list_too_long",
}


@pytest.mark.parametrize("text", BAD, ids=list(BAD.values()))
def test_a_bad_code_or_card_list_says_why_in_both_languages(text):
    with pytest.raises(InputError) as caught:
        Deal.parse(text)
    e = caught.value
    assert e.reason == BAD[text] and isinstance(e, ValueError)
    assert str(e) == e.text("en") == reason_text(e.reason, "en", **e.params)
    assert e.text("vi") != e.text("en") and error_text(e, "vi") == e.text("vi")
    again = pickle.loads(pickle.dumps(e))  # a worker's error keeps its reason
    assert (again.reason, again.params, str(again)) == (e.reason, e.params, str(e))


def test_fifty_one_cards_name_the_missing_one():
    cards = " ".join(c.token for c in Deal.from_number(5).cards[:51])
    with pytest.raises(InputError) as caught:
        Deal.parse(cards)
    assert caught.value.reason == "card_count_missing"
    assert Deal.from_number(5).cards[51].token in caught.value.text("vi")


def test_a_profiles_other_code_and_a_deal_number_are_reasons_too():
    from pyramid_solitaire.session.profiles import Profile
    from pyramid_solitaire.session.session import check_code_profile

    with pytest.raises(InputError) as caught:
        check_code_profile("PY1-M-AAAAAAS", Profile.preset("pyramide"), "--profile")
    assert caught.value.reason == "code_other_rules" and "--profile" in caught.value.text("vi")
    with pytest.raises(InputError, match="0..8,031,810,175"):
        Deal.from_number(-1)


def test_why_a_move_is_refused_is_said_in_the_sessions_language():
    game = Game("PY1-N-AAAAAAS")
    for move in ("recycle", "Ks", "Ah+Qc"):
        reason, args = game._why_illegal_reason(Move.parse(move))
        assert reason in REASONS
        assert game._why_illegal(Move.parse(move), "vi") == reason_text(reason, "vi", **args)
    session = Session("PY1-N-AAAAAAS", lang="vi")
    out = session.play("recycle")
    assert out[0].code == "illegal_move"
    assert reason_text("recycle_stock_left", "vi") in out[0].text


def test_a_blocked_pair_is_refused_in_vietnamese():
    from pyramid_core import geometry

    for n in range(500):  # a deal whose bottom row covers a partner
        deal = Deal.from_number(n)
        pairs = [
            (i, j)
            for j in range(15, 21)
            for i in geometry.covers(j)
            if deal.cards[i].rank + deal.cards[j].rank == 13
        ]
        if pairs:
            break
    i, j = pairs[0]
    move = Move.pair(deal.cards[i], deal.cards[j])
    reason, args = Game(deal)._why_illegal_reason(move)
    assert reason == "card_blocked" and deal.cards[i] in args["covers"]
    out = Session(deal, lang="vi").play(move)
    assert [m.code for m in out] == ["illegal_move"]
    assert " và ".join(map(str, args["covers"])) in out[0].text  # joined in Vietnamese


def test_the_protocol_gives_the_reason_and_its_text_in_the_players_language():
    server = Server()
    answer = json.loads(server.handle('{"id": 1, "op": "new", "cards": "Ah Ah", "lang": "vi"}'))
    assert answer["error"]["reason"] == "card_twice"
    assert answer["error"]["text"] == reason_text("card_twice", "vi", card="Ah", first=1, second=2)
    assert answer["error"]["message"] == reason_text(
        "card_twice", "en", card="Ah", first=1, second=2
    )
    other = json.loads(server.handle('{"id": 2, "op": "new", "profile": "nope"}'))
    assert "reason" not in other["error"] and "text" not in other["error"]  # not a player's


def test_hello_and_the_page_get_every_label():
    hello = json.loads(Server().handle('{"op": "hello"}'))
    assert hello["labels"] == {lang: labels(lang) for lang in LANGUAGES}
    assert label("end_won", "vi") == "Bạn đã thắng!"  # the session's own words


def test_every_label_the_frontends_use_is_there():
    app = _source("python", "pyramid_solitaire", "web", "static", "app.js")
    page = _source("python", "pyramid_solitaire", "web", "static", "index.html")
    used = set(re.findall(r"\bl(?:abel)?\(?\)?\.([a-z_]+)", app))
    used |= set(re.findall(r"L\(\)\.([a-z_]+)", app)) | set(re.findall(r"\bl\.([a-z_]+)", app))
    used |= set(re.findall(r'data-label(?:-[a-z]+)?="([a-z_ ]+)"', page))
    used |= {f"suit_{s}" for s in "shdc"} | {"playing", "won", "no moves"}
    used |= {f"end_{s}" for s in ("won", "no_moves", "no_chance")}
    tui = "\n".join(
        p.read_text(encoding="utf-8")
        for p in repo_file("python", "pyramid_solitaire", "tui").glob("*.py")
    )
    used |= set(re.findall(r"""label\(\s*["']([a-z_]+)["']""", tui))
    used |= set(re.findall(r'"(leave_for_[a-z]+|replace_game)"', tui))
    assert "LABELS = {" not in app  # no second list in the page
    assert used <= set(LABELS), used - set(LABELS)
