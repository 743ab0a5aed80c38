"""The public Python API: Rules, Deal, Card tokens, Move and Game (docs/rules.md and
docs/deal-codes.md)."""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from pyramid_solitaire import (
    CARDS,
    UNLIMITED,
    Card,
    Deal,
    Game,
    IllegalMoveError,
    Move,
    Rules,
    Status,
)

# ---- helpers ----------------------------------------------------------------------------------

PRESETS = {  # name -> (letter, the options docs/rules.md gives it)
    "pyramide": (
        "N",
        dict(
            waste_at_deal=1,
            draw=1,
            redeals=UNLIMITED,
            win="pyramid",
            stock_top_playable=False,
            pair_waste_top_two=False,
            pair_with_covering=False,
        ),
    ),
    "three-pass": (
        "T",
        dict(
            waste_at_deal=0,
            draw=1,
            redeals=2,
            win="pyramid",
            stock_top_playable=False,
            pair_waste_top_two=False,
            pair_with_covering=False,
        ),
    ),
    "unlimited": (
        "U",
        dict(
            waste_at_deal=0,
            draw=1,
            redeals=UNLIMITED,
            win="pyramid",
            stock_top_playable=False,
            pair_waste_top_two=False,
            pair_with_covering=False,
        ),
    ),
    "classic": (
        "C",
        dict(
            waste_at_deal=0,
            draw=1,
            redeals=0,
            win="pyramid",
            stock_top_playable=False,
            pair_waste_top_two=False,
            pair_with_covering=False,
        ),
    ),
    "classic-draw3": (
        "D",
        dict(
            waste_at_deal=0,
            draw=3,
            redeals=0,
            win="pyramid",
            stock_top_playable=False,
            pair_waste_top_two=False,
            pair_with_covering=False,
        ),
    ),
    "msc": (
        "M",
        dict(
            waste_at_deal=0,
            draw=1,
            redeals=2,
            win="pyramid",
            stock_top_playable=True,
            pair_waste_top_two=False,
            pair_with_covering=False,
        ),
    ),
}

VECTOR_A = (
    "8s Jh 9c 2s 2d Qd 6s Tc 3d Ac Jc 7c 9h 8c Qs Kh 5h 2c 3h 5c Ah 6c 4s Td 5d 8h 8d Ad "
    "Qh Ts Qc Jd 3s 4d 2h 9d 3c Kd As 7s 9s 7d Js 6h Ks 4c 7h 5s 6d 4h Kc Th"
)
VECTOR_S = (
    "Ad 3c 7d 6c 5c 8d 2h 4c 8c 2d Kd Qd 6s 8h 8s 9h 3h 4d Ts Qc Kh 5d Kc 2s Jh 3d Th As "
    "Tc 3s 4s 9d Qh 9c 7s Td 9s 2c 6h 5h Ah 5s Jd Ac 7h Js 4h Ks 6d Jc 7c Qs"
)

SEED000_PYRAMID = (
    "Jd 6c 7h As 4d Qs 5h 3d 6h 8s Kh Kc Ad Ks 9c Qc 2c 8d Td Ts Js 7c Tc 3h 4h 3s Kd 7s"
).split()


def card(token: str) -> int:
    """Card index of an ASCII token, computed from docs/rules.md (not through the API)."""
    return "cdhs".index(token[1]) * 13 + "A23456789TJQK".index(token[0])


def tokens(cards) -> list[str]:
    return [str(c) for c in cards]


def seed000_cards() -> list[str]:
    used = set(SEED000_PYRAMID) | {"7d"}
    rest = [t for t in (r + s for s in "cdhs" for r in "A23456789TJQK") if t not in used]
    assert len(rest) == 23
    return SEED000_PYRAMID + ["7d"] + rest


def easy_cards() -> list[str]:
    """A deal whose pyramid clears by Kings and pairs within each row, bottom row first."""
    rows = [
        "Ks",
        "6d 7d",
        "Kh 5d 8d",
        "3d Td 4d 9d",
        "Kd Ad Qd 2d Jd",
        "4c 9c 5c 8c 6c 7c",
        "Kc Ac Qc 2c Jc 3c Tc",
    ]
    pyr = " ".join(rows).split()
    rest = [t for t in (r + s for s in "hs" for r in "A23456789TJQK") if t not in pyr]
    return pyr + rest


EASY_SOLUTION = [
    "Kc",
    "Ac+Qc",
    "2c+Jc",
    "3c+Tc",
    "4c+9c",
    "5c+8c",
    "6c+7c",
    "Kd",
    "Ad+Qd",
    "2d+Jd",
    "3d+Td",
    "4d+9d",
    "Kh",
    "5d+8d",
    "6d+7d",
    "Ks",
]


def covers(i: int) -> tuple[int, ...]:
    r = next(r for r in range(7) if r * (r + 1) // 2 <= i < (r + 1) * (r + 2) // 2)
    return () if r == 6 else (i + r + 1, i + r + 2)


def my_free(game: Game) -> list[Card]:
    pyr = game.pyramid
    return [
        c for i, c in enumerate(pyr) if c is not None and all(pyr[j] is None for j in covers(i))
    ]


# ---- Rules ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_by_name_and_letter(name):
    letter, opts = PRESETS[name]
    by_name, by_letter = Rules.preset(name), Rules.preset(letter)
    assert by_name == by_letter
    assert Rules.preset(letter.lower()) == by_name
    assert Rules.preset(name.upper()) == by_name
    assert by_name.to_dict() == opts
    assert by_name.name == name and by_name.letter == letter
    assert Rules(**opts).name == name  # the same options built by hand are the preset
    assert repr(by_name) == f"Rules.preset({name!r})"
    assert eval(repr(by_name)) == by_name


def test_preset_names_and_default():
    assert Rules.preset_names() == list(PRESETS)
    assert Rules() == Rules.preset("pyramide")
    assert Rules().name == "pyramide" and Rules().letter == "N"
    assert Rules.preset("classic_draw3") == Rules.preset("classic-draw3")
    assert len({Rules.preset(n) for n in PRESETS}) == 6


def test_custom_rules_name_letter_repr():
    r = Rules(waste_at_deal=0, redeals=1)
    assert r.name == "custom" and r.letter == "X"
    assert repr(r) == "Rules(waste_at_deal=0, redeals=1)"
    assert eval(repr(r)) == r
    for r in (
        Rules(win="all"),
        Rules(pair_with_covering=True),
        Rules(redeals=0, draw=3),
        Rules.preset("msc").replace(pair_waste_top_two=True),
    ):
        assert r.letter == "X" and r.name == "custom"
        assert eval(repr(r)) == r
        assert "preset" not in repr(r)


def test_rules_equality_and_hash():
    a = Rules(waste_at_deal=0, redeals=2, stock_top_playable=True)
    b = Rules.preset("msc")
    assert a == b and hash(a) == hash(b)
    assert Rules(redeals="unlimited") == Rules(redeals=None) == Rules(redeals=float("inf"))
    assert Rules(redeals="3") == Rules(redeals=3)
    assert Rules(win="ALL") == Rules(win="all")
    assert Rules() != Rules(win="all")
    assert Rules() != "pyramide" and Rules() != None  # noqa: E711
    assert len({Rules(), Rules.preset("N"), Rules(win="all"), Rules(win="all")}) == 2
    assert {Rules.preset("msc"): 1}[a] == 1


def test_rules_immutable():
    r = Rules()
    with pytest.raises(AttributeError):
        r.draw = 3
    with pytest.raises(AttributeError):
        r.brand_new = 1
    with pytest.raises(AttributeError):
        del r.win
    assert r == Rules.preset("pyramide")


def test_rules_replace():
    base = Rules.preset("classic")
    r = base.replace(draw=3)
    assert r == Rules.preset("classic-draw3") and r.letter == "D"
    assert base == Rules.preset("classic") and base.draw == 1  # unchanged
    assert Rules().replace(waste_at_deal=0, redeals=2, stock_top_playable=True).name == "msc"
    assert Rules().replace() == Rules()
    with pytest.raises(ValueError, match="draw=3"):
        Rules().replace(draw=3)
    with pytest.raises(ValueError, match="colour"):
        Rules().replace(colour="red")


@pytest.mark.parametrize(
    "rules",
    [Rules.preset(n) for n in PRESETS]
    + [
        Rules(win="all"),
        Rules(redeals=5, pair_with_covering=True),
        Rules(pair_waste_top_two=True, waste_at_deal=0),
        Rules(draw=3, redeals=0, waste_at_deal=1),
    ],
)
def test_rules_dict_round_trip(rules):
    d = rules.to_dict()
    assert set(d) == {
        "waste_at_deal",
        "draw",
        "redeals",
        "win",
        "stock_top_playable",
        "pair_waste_top_two",
        "pair_with_covering",
    }
    assert Rules.from_dict(d) == rules
    assert Rules.from_dict(json.loads(json.dumps(d))) == rules
    # the CLI's form, with name and letter alongside the options
    assert Rules.from_dict({"name": rules.name, "letter": rules.letter, **d}) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert copy.deepcopy(rules) == rules


def test_rules_from_dict_preset_and_unknown():
    assert Rules.from_dict({"preset": "msc"}) == Rules.preset("msc")
    assert Rules.from_dict({"draw": 1}) == Rules()
    with pytest.raises(ValueError, match="colour"):
        Rules.from_dict({"colour": "red"})


def test_passes():
    assert Rules().passes is None
    assert Rules.preset("three-pass").passes == 3
    assert Rules.preset("classic").passes == 1


@pytest.mark.parametrize(
    "kwargs, reason",
    [
        (dict(draw=3), r"draw=3 needs redeals=0"),
        (dict(draw=3, redeals=1), r"draw=3 needs redeals=0"),
        (dict(draw=3, redeals=2, waste_at_deal=0), r"draw=3 needs redeals=0"),
        (
            dict(draw=3, redeals=0, stock_top_playable=True),
            r"draw=3 does not go with stock_top_playable",
        ),
        (
            dict(draw=3, redeals=0, pair_waste_top_two=True),
            r"draw=3 does not go with pair_waste_top_two",
        ),
    ],
)
def test_nonsense_combinations(kwargs, reason):
    with pytest.raises(ValueError, match=reason):
        Rules(**kwargs)


def test_draw3_combinations_that_make_sense():
    assert Rules(draw=3, redeals=0).draw == 3
    assert Rules(draw=3, redeals=0, pair_with_covering=True, win="all").pair_with_covering


BAD_VALUES = {
    "waste_at_deal": [2, -1, "2", None, 0.5, "one", "\u00b9"],
    "draw": [0, 2, 4, "2", True, None, 1.5, "\u0663"],
    "redeals": [-1, 64, 1.5, "many", True, "-1", [], float("nan")],
    "win": ["none", "", 1, None, True, "pyramids"],
    "stock_top_playable": ["yes", 2, None, -1, "True"],
    "pair_waste_top_two": ["no", 3, None],
    "pair_with_covering": ["on", 7, None],
}


def test_option_values_as_text_and_numpy():
    """Digit strings and numpy numbers read like ints (the command line passes text)."""
    assert Rules(waste_at_deal="0", draw="3", redeals="0") == Rules.preset("classic-draw3")
    assert Rules(
        waste_at_deal=np.int64(0), redeals=np.uint8(2), stock_top_playable=np.bool_(True)
    ) == Rules.preset("msc")
    assert Rules(redeals=2.0).redeals == 2


@pytest.mark.parametrize("option, value", [(o, v) for o, vs in BAD_VALUES.items() for v in vs])
def test_bad_option_values(option, value):
    with pytest.raises(ValueError, match=option):
        Rules(**{option: value})
    with pytest.raises(ValueError, match=option):
        Rules().replace(**{option: value})


def test_redeals_bounds():
    assert Rules(redeals=0).redeals == 0
    assert Rules(redeals=63).redeals == 63


# ---- Deal -------------------------------------------------------------------------------------


@pytest.mark.parametrize("code, vector", [("PY1-N-AAAAAAA", VECTOR_A), ("PY1-N-AAAAAAS", VECTOR_S)])
def test_spec_vectors(code, vector):
    d = Deal.from_code(code)
    assert d.to_cards() == vector
    assert [int(c) for c in d.cards] == [card(t) for t in vector.split()]
    assert tokens(d.pyramid) == vector.split()[:28]
    assert tokens(d.talon) == vector.split()[28:]
    assert [len(r) for r in d.rows] == [1, 2, 3, 4, 5, 6, 7]
    assert [c for row in d.rows for c in row] == list(d.pyramid)


@pytest.mark.parametrize(
    "number, letters",
    [(0, "AAAAAAA"), (18, "AAAAAAS"), (25, "AAAAAAZ"), (26, "AAAAABA"), (26**7 - 1, "ZZZZZZZ")],
)
def test_code_number_round_trip(number, letters):
    d = Deal.from_number(number)
    assert d.code == f"PY1-N-{letters}"
    assert d.number == number
    back = Deal.from_code(d.code)
    assert back.number == number and back == d and back.cards == d.cards
    assert Deal.from_code(d.code.lower()).number == number


def test_code_letter_follows_rules():
    for name, (letter, _opts) in PRESETS.items():
        d = Deal.from_number(18, rules=name)
        assert d.code == f"PY1-{letter}-AAAAAAS"
        assert Deal.from_code(d.code).rules == Rules.preset(name)
        # the layout does not depend on the rules letter
        assert d.to_cards() == VECTOR_S
    custom = Deal.from_number(18, rules=Rules(win="all"))
    assert custom.code == "PY1-X-AAAAAAS"
    x = Deal.from_code("PY1-X-AAAAAAS")
    assert x.rules is None and x.number == 18 and x.code == "PY1-X-AAAAAAS"


def test_from_cards_round_trip():
    for n in (0, 18, 12345678):
        d = Deal.from_number(n)
        e = Deal.from_cards(d.to_cards())
        assert e.cards == d.cards and e.number is None and e.code is None and e.rules is None
        assert Deal.from_cards(d.to_cards(symbols=True)).cards == d.cards
        assert Deal.from_cards([int(c) for c in d.cards]).cards == d.cards
        assert Deal.from_cards(d.cards).cards == d.cards
        assert Deal.from_cards(",".join(tokens(d.cards))).cards == d.cards
        assert Deal.from_cards("".join(tokens(d.cards))).cards == d.cards  # no separators
        assert Deal.from_cards("\n".join(tokens(d.cards))).cards == d.cards
        assert eval(repr(e)) == e


def test_seed000_card_list():
    cards = seed000_cards()
    d = Deal.from_cards(" ".join(cards))
    assert tokens(d.pyramid) == SEED000_PYRAMID
    assert str(d.talon[0]) == "7d"
    g = Game(d)  # no rules: pyramide, one card on the waste at the deal
    assert g.rules == Rules.preset("pyramide")
    assert tokens(g.waste) == ["7d"] and len(g.stock) == 23
    assert tokens(g.free_cards) == "7c Tc 3h 4h 3s Kd 7s".split()
    assert set(g.legal_moves) == {
        Move.parse("Kd"),
        Move.parse("Tc+3h"),
        Move.parse("Tc+3s"),
        Move.DRAW,
    }


def test_token_forms():
    base = Deal.from_number(3)
    ascii_ = tokens(base.cards)
    variants = {
        "10": [t.replace("T", "10") for t in ascii_],
        "upper": [t.upper() for t in ascii_],
        "lower": [t.lower() for t in ascii_],
        "symbols": [c.symbol for c in base.cards],
        "10 upper": [t.replace("T", "10").upper() for t in ascii_],
    }
    for name, toks in variants.items():
        assert Deal.from_cards(" ".join(toks)).cards == base.cards, name
    assert (
        Card.parse("10d")
        == Card.parse("TD")
        == Card.parse("10♦")
        == Card.parse("T♦")
        == Card.parse("td")
        == Card.parse("10♦\ufe0f")
        == card("Td")
    )
    for sym, suit in zip("♣♦♥♠", "cdhs"):
        assert Card.parse("Q" + sym) == card("Q" + suit)
        assert Card.parse("10" + sym) == card("T" + suit)
    assert Card.parse("Td").symbol == "10♦" and str(Card.parse("10♦")) == "Td"
    assert repr(Card.parse("kh")) == "Card('Kh')"
    for c in CARDS:
        assert Card.parse(c.token) == c == Card.parse(c.symbol) == Card(int(c))
        assert c.rank == int(c) % 13 + 1 and c.suit == int(c) // 13


def test_deal_random():
    import numpy as np

    a, b = Deal.random(7), Deal.random(7)
    assert a == b and a.number is not None and a.code.startswith("PY1-N-")
    assert Deal.random(random.Random(7)) == a
    rng = random.Random(11)
    first, second = Deal.random(rng), Deal.random(rng)
    assert first != second  # the generator advances
    assert Deal.random(random.Random(11)) == first
    g1, g2 = Deal.random(np.random.default_rng(5)), Deal.random(np.random.default_rng(5))
    assert g1 == g2 and 0 <= g1.number <= 26**7 - 1
    assert Deal.random(np.random.default_rng(5), rules="msc").code == g1.code.replace("-N-", "-M-")
    assert len({Deal.random(s).number for s in range(20)}) >= 19
    assert 0 <= Deal.random().number <= 26**7 - 1
    for d in (a, first, g1):
        assert Deal.from_code(d.code) == d


def test_deal_value_semantics():
    d = Deal.from_code("PY1-M-AAAAAAS")
    assert pickle.loads(pickle.dumps(d)) == d
    assert hash(Deal.from_code("PY1-M-AAAAAAS")) == hash(d)
    assert d != Deal.from_code("PY1-N-AAAAAAS")  # same layout, other rules
    assert d.with_rules("pyramide") == Deal.from_code("PY1-N-AAAAAAS")
    assert repr(d) == "Deal.from_code('PY1-M-AAAAAAS')" and eval(repr(d)) == d
    assert str(d) == "PY1-M-AAAAAAS"
    data = d.to_dict()
    assert data["code"] == "PY1-M-AAAAAAS" and data["number"] == 18
    assert data["pyramid"] == [tokens(r) for r in d.rows]
    assert data["talon"] == VECTOR_S.split()[28:] and data["cards"] == VECTOR_S
    json.dumps(data)


def test_from_number_accepts_numpy_integers():
    """Deal numbers read back from a simulation's numpy arrays name deals too."""
    import numpy as np

    for n in (np.int64(5), np.uint64(5), np.int32(5), np.array([7, 5])[1]):
        d = Deal.from_number(n)
        assert d == Deal.from_number(5) and type(d.number) is int and d.code == "PY1-N-AAAAAAF"
    assert Deal.from_number(np.uint64(26**7 - 1)).code == "PY1-N-ZZZZZZZ"
    with pytest.raises(ValueError, match="deal number"):
        Deal.from_number(np.int64(26**7))
    with pytest.raises(ValueError, match="deal number"):
        Deal.from_number(np.float64(5))


# ---- Move -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, kind, canonical",
    [
        ("Kd", "king", "Kd"),
        ("kd", "king", "Kd"),
        ("K♦", "king", "Kd"),
        ("Tc+3s", "pair", "Tc+3s"),
        ("10♣ + 3♠", "pair", "Tc+3s"),
        ("tc + 3S", "pair", "Tc+3s"),
        ("Ah+Qs", "pair", "Ah+Qs"),
        ("2c+Jd", "pair", "2c+Jd"),
        ("6h+7h", "pair", "6h+7h"),
        ("draw", "draw", "draw"),
        ("d", "draw", "draw"),
        ("DRAW", "draw", "draw"),
        ("recycle", "recycle", "recycle"),
        ("r", "recycle", "recycle"),
        ("redeal", "recycle", "recycle"),
    ],
)
def test_move_parse_and_str(text, kind, canonical):
    m = Move.parse(text)
    assert m.kind == kind and str(m) == canonical
    assert Move.parse(str(m)) == m and Move.parse(m.symbols()) == m
    assert repr(m) == f"Move({canonical!r})"
    assert pickle.loads(pickle.dumps(m)) == m
    assert Move.parse(m) is m


@pytest.mark.parametrize("text", ["Kd", "Tc+3s", "10♣ + 3♠", "draw", "recycle"])
def test_move_repr_evaluates_back(text):
    m = Move.parse(text)
    assert eval(repr(m)) == m and Move(str(m)) == m


def test_every_move_round_trips():
    kings = [Move.king(c) for c in CARDS if c.rank == 13]
    pairs = [Move.pair(a, b) for a in CARDS for b in CARDS if a < b and a.rank + b.rank == 13]
    assert len(kings) == 4 and len(pairs) == 6 * 16
    for m in kings + pairs + [Move.DRAW, Move.RECYCLE]:
        assert Move.parse(str(m)) == m and Move.parse(m.symbols()) == m
        assert hash(Move.parse(str(m))) == hash(m)


def test_move_hash_and_pair_order():
    a, b = Move.parse("Tc+3s"), Move.parse("3s+Tc")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert Move.pair("Tc", "3s") == Move("pair", (card("3s"), card("Tc"))) == a
    assert Move.DRAW == Move("draw") and Move.RECYCLE == Move.parse("r")
    assert Move.DRAW != Move.RECYCLE and Move.parse("Kd") != Move.parse("Ks")
    assert Move.parse("Tc+3s") != Move.parse("Tc+3h")
    assert len({Move.parse(t) for t in ["Kd", "Tc+3s", "3s+Tc", "d", "draw", "r"]}) == 4
    with pytest.raises(AttributeError):
        a.kind = "king"


@pytest.mark.parametrize(
    "text, reason",
    [
        ("Qs", r"only when it is a King"),
        ("Ac", r"only when it is a King"),
        ("Tc+4s", r"sum to 14, not 13"),
        ("Ac+Ad", r"sum to 2, not 13"),
        ("Ac+Ac", r"cannot pair with itself"),
        ("Tc+10♣", r"cannot pair with itself"),
        ("Kd+Ac", r"King is removed alone"),
        ("Kd+Ks", r"King is removed alone"),
        ("Tc+3s+2d", r"not a move"),
        ("", r"not a move"),
        ("+", r"not a move"),
        ("Tc+", r"not a move"),
        ("Xz", r"'Xz'"),
        ("Tc+3x", r"'3x'"),
    ],
)
def test_invalid_moves(text, reason):
    with pytest.raises(ValueError, match=reason):
        Move.parse(text)


def test_invalid_move_constructors():
    with pytest.raises(ValueError, match="King"):
        Move.king("Qd")
    with pytest.raises(ValueError, match="13"):
        Move.pair("2c", "3c")
    with pytest.raises(ValueError, match="itself"):
        Move.pair("6c", 5)
    with pytest.raises(ValueError, match="kind"):
        Move("swap", ())
    with pytest.raises(ValueError, match="no cards"):
        Move("draw", (1,))


# ---- Game -------------------------------------------------------------------------------------


def test_game_construction():
    assert Game("PY1-M-AAAAAAS").rules == Rules.preset("msc")
    with pytest.raises(ValueError, match="names the msc rules"):  # a code's letter binds
        Game("PY1-M-AAAAAAS", rules="classic")
    assert Game(Deal.from_code("PY1-M-AAAAAAS"), rules="classic").code == "PY1-C-AAAAAAS"
    assert Game(Deal.from_number(18)).code == "PY1-N-AAAAAAS"
    assert Game(VECTOR_S).code is None and Game(VECTOR_S).rules == Rules()
    assert Game(VECTOR_S, rules=Rules(win="all")).rules.win == "all"
    g = Game()
    assert g.code.startswith("PY1-N-") and len(g.deal.cards) == 52
    assert Game(rules="msc").code.startswith("PY1-M-")


def test_game_start_position():
    g = Game("PY1-N-AAAAAAA")
    assert g.status is Status.PLAYING and not g.is_over and not g.is_won
    assert tokens(g.free_cards) == VECTOR_A.split()[21:28] == tokens(my_free(g))
    assert tokens(g.waste) == ["Qh"] and tokens(g.stock) == VECTOR_A.split()[29:]
    assert g.pyramid == list(Deal.from_code("PY1-N-AAAAAAA").pyramid)
    assert set(g.legal_moves) == {Move.parse(m) for m in ("5d+8h", "5d+8d", "Ad+Qh", "draw")}
    h = Game("PY1-U-AAAAAAA")  # no card on the waste at the deal
    assert h.waste == [] and len(h.stock) == 24
    assert set(h.legal_moves) == {Move.parse(m) for m in ("5d+8h", "5d+8d", "draw")}
    m = Game("PY1-M-AAAAAAA")  # the stock's top card is playable
    assert tokens(m.available) == ["Qh"] and Move.parse("Ad+Qh") in m.legal_moves


def test_play_and_undo():
    g = Game("PY1-N-AAAAAAA")
    start, start_moves = g.position, g.legal_moves
    assert g.is_legal("5d+8h") and g.is_legal(Move.parse("8h+5d")) and not g.is_legal("Kh")
    assert not g.is_legal("nonsense")
    g.play("5d+8h")
    assert g.moves == [Move.parse("5d+8h")]
    assert tokens(g.removed) == ["5d", "8h"] and g.pyramid_removed == 2 and g.pyramid_left == 26
    assert g.where("5d") == "removed" and g.where("Qh") == "waste" and g.where("Ts") == "stock"
    assert g.where("8s") == "pyramid"
    assert g.pyramid[24] is None and g.pyramid[25] is None
    assert Card.parse("3h") in g.free_cards  # (5, 3) lost both covers 5d and 8h
    assert Card.parse("5c") not in g.free_cards  # (5, 4) is still covered by 8d
    assert tokens(g.free_cards) == tokens(my_free(g))
    g.play(Move.DRAW)
    assert tokens(g.waste) == ["Qh", "Ts"] and g.stock[0] == card("Qc")
    assert g.undo() == Move.DRAW
    assert g.undo() == Move.parse("8h+5d")
    assert g.position == start and g.legal_moves == start_moves and g.moves == []
    with pytest.raises(IndexError):
        g.undo()
    g.play_all(["5d+8h", "draw", "d"])
    assert len(g.moves) == 3
    with pytest.raises(IllegalMoveError, match="move 2"):
        g.play_all(["draw", "Kh"])
    assert len(g.moves) == 4  # the legal move before the illegal one was played


def test_draw_three_piles():
    g = Game("PY1-D-AAAAAAA")
    talon = VECTOR_A.split()[28:]
    g.play("draw")
    assert [tokens(p) for p in g.waste_piles] == [[talon[0]], [talon[1]], [talon[2]]]
    g.play("draw")
    assert [tokens(p) for p in g.waste_piles] == [talon[0:6:3], talon[1:6:3], talon[2:6:3]]
    assert set(tokens(g.available)) == set(talon[3:6])


def test_recycle_keeps_order():
    g = Game("PY1-T-AAAAAAA")
    talon = [Card(card(t)) for t in VECTOR_A.split()[28:]]
    for _ in range(24):
        g.play("draw")
    assert g.waste == talon and g.stock == [] and Move.RECYCLE in g.legal_moves
    assert Move.DRAW not in g.legal_moves
    g.play("recycle")
    assert g.stock == talon and g.waste == [] and g.recycles_used == 1 and g.recycles_left == 1


def easy_won_game(rules=None) -> Game:
    g = Game(" ".join(easy_cards()), rules=rules)
    g.play_all(EASY_SOLUTION)
    return g


def test_status_values():
    assert [s.value for s in Status] == ["playing", "won", "no moves"]
    assert str(Status.NO_MOVES) == "no moves" and Status("won") is Status.WON
    g = easy_won_game()
    assert g.status is Status.WON and g.is_won and g.is_over
    assert len(g.stock) == 23  # won with cards left in the stock (docs/rules.md)
    assert g.legal_moves == []
    strict = easy_won_game(Rules(win="all"))
    assert strict.status is Status.PLAYING and all(p is None for p in strict.pyramid)
    assert strict.legal_moves == [Move.DRAW]


def no_removal_cards() -> str:
    """A deal where nothing can ever be removed without a recycle of luck: the talon holds only
    A 2 3 6 7 T, the free bottom row 8 8 8 8 9 9 9 (partners 5 and 4 are all in the pyramid)."""
    bottom = "8c 8d 8h 8s 9c 9d 9h".split()
    top = ("9s " + " ".join(r + s for r in "45JQK" for s in "cdhs")).split()
    talon = [r + s for r in "A2367T" for s in "cdhs"]
    return " ".join(top + bottom + talon)


def test_no_moves():
    g = Game(no_removal_cards(), rules="classic")
    for _ in range(23):
        g.play("draw")
        assert g.status is Status.PLAYING
    g.play("draw")
    assert g.status is Status.NO_MOVES and g.is_over and not g.is_won and g.legal_moves == []
    # under unlimited redeals the game goes on while the waste can be recycled (docs/rules.md)
    u = Game(no_removal_cards(), rules="unlimited")
    for _ in range(24 * 3):
        assert u.status is Status.PLAYING
        u.play(u.legal_moves[-1])
    t = Game(no_removal_cards(), rules="three-pass")
    for expected in ["draw"] * 24 + ["recycle"] + ["draw"] * 24 + ["recycle"] + ["draw"] * 24:
        assert t.legal_moves == [Move.parse(expected)]
        t.play(expected)
    assert t.status is Status.NO_MOVES and t.recycles_left == 0


def test_copy_independence():
    g = Game("PY1-N-AAAAAAA")
    g.play("5d+8h")
    for c in (g.copy(), copy.copy(g), copy.deepcopy(g)):
        assert c == g and c.position == g.position and c.moves == g.moves
        c.play("draw")
        c.play("draw")
        assert g.moves == [Move.parse("5d+8h")] and len(c.moves) == 3
        assert tokens(g.waste) == ["Qh"]
        g.play("Ad+Qh")
        assert Move.parse("Ad+Qh") not in c.moves and c.where("Ad") == "pyramid"
        g.undo()
        c.undo()
        c.undo()
        c.undo()
        assert c.moves == [] and len(g.moves) == 1


@pytest.mark.parametrize("code", ["PY1-N-AAAAAAA", "PY1-D-AAAAAAS", "PY1-M-ABCDEFG"])
def test_pickle_round_trip(code):
    g = Game(code)
    rng = random.Random(code)
    for _ in range(30):
        if g.legal_moves:
            g.play(rng.choice(g.legal_moves))
    h = pickle.loads(pickle.dumps(g))
    assert h == g
    assert h.position == g.position and h.moves == g.moves and h.legal_moves == g.legal_moves
    assert h.status == g.status and h.rules == g.rules and h.deal == g.deal
    assert h.waste_piles == g.waste_piles and h.stock == g.stock
    if h.moves:
        h.undo()
        g.undo()
        assert h.position == g.position
    w = pickle.loads(pickle.dumps(easy_won_game()))
    assert w.status is Status.WON


def test_card_list_game_pickles():
    g = Game(" ".join(seed000_cards()), rules="msc")
    g.play("Kd")
    h = pickle.loads(pickle.dumps(g))
    assert h == g and h.code is None and h.rules == Rules.preset("msc")


def test_repr():
    g = Game("PY1-N-AAAAAAA")
    r = repr(g)
    assert "PY1-N-AAAAAAA" in r and "pyramide" in r and "playing" in r and "0 moves" in r
    assert "28 pyramid cards left" in r
    g.play("5d+8h")
    assert "1 moves" in repr(g) and "26 pyramid cards left" in repr(g)
    assert "won" in repr(easy_won_game())


TOKEN_IN_BRACKETS = re.compile(r"\[([A2-9TJQK][cdhs])\]")
TOKEN = re.compile(r"(?<![\w\[])([A2-9TJQK][cdhs])(?![\w\]])")


def check_text(g: Game):
    text = str(g)
    lines = text.splitlines()
    pyramid_lines = lines[1:8]
    bracketed = [t for line in pyramid_lines for t in TOKEN_IN_BRACKETS.findall(line)]
    assert bracketed == tokens(my_free(g))
    plain = [t for line in pyramid_lines for t in TOKEN.findall(line)]
    assert sorted(plain + bracketed) == sorted(tokens(c for c in g.pyramid if c is not None))
    # nothing outside the pyramid drawing is bracketed
    assert not any(TOKEN_IN_BRACKETS.search(line) for line in lines[:1] + lines[8:])


def test_str_brackets_free_cards():
    g = Game("PY1-N-AAAAAAA")
    check_text(g)
    assert TOKEN_IN_BRACKETS.findall(str(g)) == VECTOR_A.split()[21:28]
    e = Game(" ".join(easy_cards()))
    for m in EASY_SOLUTION[:-1]:
        e.play(m)
        check_text(e)
    assert TOKEN_IN_BRACKETS.findall(str(e)) == ["Ks"]


SVG = "{http://www.w3.org/2000/svg}"


def _is_green(color: str) -> bool:
    m = re.fullmatch(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})", color or "")
    if not m:
        return color in ("green", "lime")
    r, g, b = (int(x, 16) for x in m.groups())
    return g > r + 40 and g > b + 40


def svg_cards(g: Game) -> tuple[list[str], list[str]]:
    """(tokens of all drawn face-up cards, tokens of the green-bordered ones)."""
    root = ET.fromstring(g._repr_svg_())
    assert root.tag == SVG + "svg"
    drawn, green = [], []
    for grp in root.iter(SVG + "g"):
        title = grp.find(SVG + "title")
        rect = grp.find(SVG + "rect")
        if title is None or rect is None:
            continue
        drawn.append(title.text)
        if _is_green(rect.get("stroke")):
            green.append(title.text)
    return drawn, green


def check_svg(g: Game):
    drawn, green = svg_cards(g)
    pyramid = {str(c) for c in g.deal.pyramid}
    assert len(green) == len(set(green))
    assert sorted(t for t in green if t in pyramid) == sorted(tokens(my_free(g)))
    # the available talon cards are highlighted the same way (waste tops, playable stock top)
    assert sorted(t for t in green if t not in pyramid) == sorted(tokens(g.available))
    assert sorted(t for t in drawn if t in pyramid) == sorted(
        tokens(c for c in g.pyramid if c is not None)
    )


@pytest.mark.parametrize(
    "code", ["PY1-N-AAAAAAA", "PY1-M-AAAAAAS", "PY1-D-AAAAAAA", "PY1-C-QWERTYU"]
)
def test_svg(code):
    g = Game(code)
    rng = random.Random(code)
    check_svg(g)
    for _ in range(25):
        if not g.legal_moves:
            break
        removals = [m for m in g.legal_moves if m.cards]
        g.play(rng.choice(removals or g.legal_moves))
        check_svg(g)


def test_svg_free_cards_after_clearing_rows():
    e = Game(" ".join(easy_cards()))
    for m in EASY_SOLUTION:
        e.play(m)
        check_svg(e)
    drawn, green = svg_cards(e)
    assert [t for t in drawn if t in {str(c) for c in e.deal.pyramid}] == []
    assert "&" not in e._repr_svg_().replace("&amp;", "").replace("&lt;", "").replace("&gt;", "")
