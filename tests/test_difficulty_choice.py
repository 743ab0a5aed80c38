"""Choosing how hard (issue 45): new random deals by difficulty, easy (level 1), medium
(level 2) or hard (levels 3 to 5, proved winnable), deterministic for a seed, offered per game
type; the session's and the protocol's ways to ask for one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_protocol import ask

from pyramid_solitaire import Deal
from pyramid_solitaire.model.profiles import Profile
from pyramid_solitaire.session import Session
from pyramid_solitaire.session import difficulty as difficulty_module
from pyramid_solitaire.session.difficulty import (
    CHOICES,
    OFFERED,
    chosen,
    offered,
    random_deal_of,
    rate,
)
from pyramid_solitaire.session.protocol import Server


@pytest.mark.parametrize("profile", Profile.names())
def test_each_offered_choice_gives_its_levels(profile):
    for difficulty in offered(profile):
        deal = random_deal_of(profile, difficulty, 0)
        d = rate(deal)
        assert d.level in CHOICES[difficulty], (profile, difficulty)
        assert d.winnable is not False
        assert deal.code is not None and deal.rules == Profile.preset(profile).rules
        assert random_deal_of(profile, difficulty, 0) == deal  # a seed gives its deal


def test_hard_takes_only_level_5_deals_proved_winnable():
    assert chosen(Deal.from_number(6, rules="msc"), "hard")  # level 5, winnable
    assert not chosen(Deal.from_number(0, rules="msc"), "hard")  # cannot be won (level 6)
    assert rate(0, "msc").level == 6 and rate(6, "msc").level == 5
    easy = Deal.from_code("PY1-T-AAAAAAS")  # level 1 under three-pass
    assert chosen(easy, "easy") and not chosen(easy, "medium") and not chosen(easy, "hard")


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**40), st.sampled_from(["easy", "medium", "hard"]))
def test_deterministic_for_a_seed(seed, difficulty):
    a = Session.new_random("msc", rng=seed, difficulty=difficulty, clock=lambda: 0.0)
    b = Session.new_random("msc", rng=seed, difficulty=difficulty, clock=lambda: 0.0)
    assert a.game.code == b.game.code and rate(a.game.deal).level in CHOICES[difficulty]


def test_the_choices_offered_and_bad_ones():
    assert offered("classic") == ("hard",) and offered("classic-draw3") == ("medium", "hard")
    assert set(OFFERED) == set(Profile.names())
    custom = Profile.preset("classic").replace(rules=Profile.preset("msc").rules)
    assert offered(custom) == ("easy", "medium", "hard")  # rules of its own: every choice
    with pytest.raises(ValueError, match="difficulty must be one of easy, medium, hard"):
        Session.new_random("msc", difficulty="expert")
    with pytest.raises(ValueError, match="not offered under classic"):
        Session.new_random("classic", difficulty="easy")
    with pytest.raises(ValueError, match="difficulty"):
        random_deal_of("msc", None)


def test_a_bounded_number_of_tries(monkeypatch):
    monkeypatch.setattr(difficulty_module, "TRIES", 3)
    monkeypatch.setattr(difficulty_module, "chosen", lambda deal, difficulty: False)
    with pytest.raises(ValueError, match="no hard deal found in 3 tries under the msc rules"):
        random_deal_of("msc", "hard", 1)


def test_new_deal_with_a_difficulty():
    s = Session("PY1-M-AAAAAAS", "msc", clock=lambda: 0.0)
    s.new_deal(difficulty="medium", rng=5)
    assert s.game.code == Session.new_random("msc", rng=5, difficulty="medium").game.code
    assert rate(s.game.deal).level == 2
    with pytest.raises(ValueError, match="not two"):
        s.new_deal("PY1-M-AAAAAAS", difficulty="easy")
    with pytest.raises(ValueError, match="not two"):
        s.new_deal(daily=True, difficulty="easy")


def test_the_protocol():
    server = Server(clock=lambda: 0.0)
    r = ask(server, {"op": "new", "random": {"difficulty": "hard", "seed": 3}, "profile": "msc"})
    assert r["ok"]
    code = r["state"]["code"]
    assert 3 <= rate(code).level <= 5 and rate(code).winnable is not False
    again = ask(
        server, {"op": "new", "random": {"difficulty": "hard", "seed": 3}, "profile": "msc"}
    )
    assert again["state"]["code"] == code
    r = ask(server, {"op": "new", "random": {"difficulty": "easy", "seed": 3}})
    assert r["state"]["profile"] == "pyramide" and rate(r["state"]["code"]).level == 1
    for bad, words in [
        ({"difficulty": "impossible"}, "random.difficulty must be one of easy, medium, hard"),
        ({"difficulty": 2}, "random.difficulty"),
    ]:
        r = ask(server, {"op": "new", "random": bad})
        assert r["error"]["code"] == "bad_request" and words in r["error"]["message"]
    r = ask(server, {"op": "new", "random": {"difficulty": "medium"}, "profile": "classic"})
    assert (
        r["error"]["code"] == "bad_request" and "not offered under classic" in r["error"]["message"]
    )
    hello = ask(server, {"op": "hello"})
    assert hello["difficulties"]["classic"] == ["hard"] and "difficulty" in hello["capabilities"]
    assert hello["difficulties"]["msc"] == ["easy", "medium", "hard"]
