"""The rules page of each game type: written from the profile (every option it has shows,
none it lacks), in both languages with the same structure, and served by the protocol."""

from __future__ import annotations

import pytest
from test_protocol import ask

from pyramid_solitaire.session.howto import TEXTS, how_to_play
from pyramid_solitaire.session.profiles import Profile
from pyramid_solitaire.session.protocol import Server


def text(page) -> str:
    return " ".join(p for s in page["sections"] for p in s["paragraphs"])


@pytest.mark.parametrize("name", Profile.names())
def test_both_languages_have_the_same_page(name):
    en, vi = how_to_play(name, "en"), how_to_play(name, "vi")
    assert [len(s["paragraphs"]) for s in en["sections"]] == [
        len(s["paragraphs"]) for s in vi["sections"]
    ]
    from pyramid_solitaire.session.messages import game_name

    assert en["title"] == f"How to play: {game_name(name)}"
    assert vi["title"] == f"Cách chơi: {game_name(name, 'vi')}"
    assert "A + Q, 2 + J, 3 + 10, 4 + 9, 5 + 8, 6 + 7" in text(en)
    assert "{" not in text(en) + text(vi)  # every placeholder filled


def test_every_text_is_in_both_languages():
    for key, texts in TEXTS.items():
        assert set(texts) == {"en", "vi"}, key


def test_the_page_follows_the_rules_and_the_scoring():
    page = {n: text(how_to_play(n)) for n in Profile.names()}
    assert "as often as you like" in page["pyramide"]  # unlimited redeals
    assert "2 times" in page["three-pass"] and "2 times" in page["msc"]
    assert "never turned over" in page["classic"]  # one pass
    assert "three waste piles" in page["classic-draw3"]
    assert "stock's top card is free" in page["msc"]
    assert "stock's top card" not in page["pyramide"]
    assert "bonus of 600 points" in page["three-pass"]  # seed 002's bonus
    assert "no points" in page["unlimited"] and "points for each" not in page["unlimited"]
    assert "no longer be won" in page["unlimited"]  # seed 003's notice
    assert "last 100 actions" in page["pyramide"]
    custom = Profile.preset("msc").replace(
        rules=Profile.preset("msc").rules.replace(
            win="all", pair_with_covering=True, pair_waste_top_two=True, redeals=1
        )
    )
    t = text(how_to_play(custom))
    assert "all 52 cards" in t and "1 time in this game" in t
    assert "covering it" in t and "top two cards of the waste" in t


def test_the_protocol_serves_it():
    server = Server()
    r = ask(server, {"id": 1, "op": "howto"})
    assert r["howto"]["profile"] == "pyramide" and r["howto"]["lang"] == "en"
    ask(server, {"op": "new", "code": "PY1-M-AAAAAAS", "lang": "vi"})
    r = ask(server, {"id": 2, "op": "howto"})
    assert r["howto"]["profile"] == "msc" and r["howto"]["lang"] == "vi"
    r = ask(server, {"id": 3, "op": "howto", "profile": "nope"})
    assert r["error"]["code"] == "bad_request"


@pytest.mark.parametrize("name", Profile.names())
def test_the_vietnamese_page_names_the_stock_as_the_table_does(name):
    """One word for the stock in Vietnamese: the table's label ("Nọc"), never another."""
    from pyramid_solitaire.session.labels import label

    vi = how_to_play(name, "vi")
    words = text(vi) + " " + " ".join(s["title"] for s in vi["sections"])
    assert "chồng bài rút" not in words.lower()
    assert label("stock", "vi").lower() in words.lower()
