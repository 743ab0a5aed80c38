"""Bad input: every mistake raises ValueError (or a subclass) whose message names what is wrong."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pyramid_solitaire import Card, Deal, Game, IllegalMoveError, Move, Rules, Status, parse_cards

ALL_TOKENS = [r + s for s in "cdhs" for r in "A23456789TJQK"]


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
    return pyr + [t for t in ALL_TOKENS if t not in pyr]


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


def raises(fn, *args, match: str):
    """fn(*args) raises ValueError with every piece of ``match`` (a list or a str) in its text."""
    with pytest.raises(ValueError) as info:
        fn(*args)
    msg = str(info.value)
    for part in [match] if isinstance(match, str) else match:
        assert part in msg, f"{part!r} not in {msg!r}"
    return msg


# ---- deal codes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, parts",
    [
        ("PY2-N-AAAAAAS", ["PY2", "version"]),
        ("PX1-N-AAAAAAS", ["PX1", "version"]),
        ("PY0-N-AAAAAAS", ["PY0", "version"]),
        ("PY1-Q-AAAAAAS", ["'Q'", "N T U C D M"]),
        ("PY1-1-AAAAAAS", ["'1'"]),
        ("PY1-NN-AAAAAAS", ["'NN'", "one letter"]),
        ("PY1--AAAAAAS", ["''", "one letter"]),
        ("PY1-N-AAAAAA", ["'AAAAAA'", "7 letters", "got 6"]),
        ("PY1-N-AAAAAAAA", ["'AAAAAAAA'", "7 letters", "got 8"]),
        ("PY1-N-", ["7 letters", "got 0"]),
        ("PY1-N-AAAA1AA", ["'1'", "character 5"]),
        ("PY1-N-AAAAAA?", ["'?'", "character 7"]),
        ("PY1-N-AAA AAA", ["' '", "character 4"]),
        ("PY1-N-ÀAAAAAA", ["'À'", "ASCII"]),
        ("", ["malformed", "PY1-"]),
        ("   ", ["malformed"]),
        ("PY1NAAAAAAS", ["'PY1NAAAAAAS'", "malformed"]),
        ("PY1-N-AAAAAAS-1", ["malformed"]),
        ("PY1_N_AAAAAAS", ["malformed"]),
        ("hello", ["'hello'", "malformed"]),
    ],
)
def test_malformed_codes(code, parts):
    raises(Deal.from_code, code, match=parts)
    if code.startswith("PY") and " " not in code:  # Game() takes such text as a code too
        raises(Game, code, match=parts)


@pytest.mark.parametrize("code", [None, 18, 18.0, b"PY1-N-AAAAAAS", ["PY1-N-AAAAAAS"]])
def test_code_not_a_string(code):
    raises(Deal.from_code, code, match=["string", repr(code)])


@pytest.mark.parametrize(
    "code, bad",
    [("PY1-N-AAAAAß", "ß"), ("PY1-N-AAAAAAı", "ı"), ("PY1-N-AAAAAﬅ", "ﬅ"), ("PY1-ı-AAAAAAA", "ı")],
)
def test_non_ascii_code_letters_are_rejected(code, bad):
    """Letters whose upper case is ASCII ('ß' -> 'SS', 'ı' -> 'I') do not sneak in as others."""
    raises(Deal.from_code, code, match=repr(bad))


# ---- deal numbers -----------------------------------------------------------------------------


@pytest.mark.parametrize("number", [-1, 26**7, 2**64, -(2**70), 18.0, "18", None, True, 1.5])
def test_numbers_out_of_range(number):
    msg = raises(Deal.from_number, number, match=["deal number", "8,031,810,175"])
    shown = msg.rsplit("got ", 1)[1]
    assert shown in (repr(number), f"{number:,}" if type(number) is int else repr(number))


def test_number_limits_accepted():
    assert Deal.from_number(0).code == "PY1-N-AAAAAAA"
    assert Deal.from_number(26**7 - 1).code == "PY1-N-ZZZZZZZ"


def test_bad_rng():
    raises(Deal.random, "seed", match=["rng", "str"])
    raises(Deal.random, 2.5, match=["rng", "float"])


# ---- card lists -------------------------------------------------------------------------------


def test_51_cards():
    for missing in (0, 27, 51):
        toks = ALL_TOKENS[:missing] + ALL_TOKENS[missing + 1 :]
        raises(
            Deal.from_cards,
            " ".join(toks),
            match=["expected 52 cards, got 51", f"missing: {ALL_TOKENS[missing]}"],
        )


def test_53_cards():
    # 53 tokens hold a duplicate, which is named with both positions
    for dup in (0, 30, 51):
        toks = ALL_TOKENS + [ALL_TOKENS[dup]]
        raises(
            Deal.from_cards,
            " ".join(toks),
            match=[f"card {ALL_TOKENS[dup]} appears twice", f"tokens {dup + 1} and 53"],
        )


@pytest.mark.parametrize("n", [0, 1, 28, 50])
def test_too_few_cards(n):
    raises(Deal.from_cards, " ".join(ALL_TOKENS[:n]), match=f"expected 52 cards, got {n}")


@pytest.mark.parametrize(
    "bad, pos",
    [("1d", 1), ("Xx", 10), ("11h", 28), ("Kz", 52), ("K", 33), ("one", 2), ("10", 7), ("♦", 40)],
)
def test_unknown_token(bad, pos):
    toks = list(ALL_TOKENS)
    toks[pos - 1] = bad
    raises(Deal.from_cards, " ".join(toks), match=[f"token {pos}", repr(bad)])
    raises(parse_cards, " ".join(toks), match=[f"token {pos}", repr(bad)])


def test_glued_tokens_positions():
    # without separators, positions still count cards
    text = "".join(ALL_TOKENS[:5]) + "Zq " + " ".join(ALL_TOKENS[5:])
    raises(Deal.from_cards, text, match=["token 6", "'Zq'"])


@pytest.mark.parametrize("dup_of, at", [(1, 1), (13, 28), (50, 52), (20, 30)])
def test_duplicate_card(dup_of, at):
    toks = list(ALL_TOKENS)
    toks[at - 1] = ALL_TOKENS[dup_of]  # now at position dup_of + 1 and at position at
    first, second = sorted((dup_of + 1, at))
    raises(
        Deal.from_cards,
        " ".join(toks),
        match=[f"card {ALL_TOKENS[dup_of]} appears twice", f"tokens {first} and {second}"],
    )


def test_duplicate_in_other_forms():
    toks = list(ALL_TOKENS)
    toks[5] = "10c"  # = Tc, token 10
    raises(Deal.from_cards, " ".join(toks), match=["card Tc appears twice", "tokens 6 and 10"])
    ints = list(range(52))
    ints[3] = 7
    raises(Deal.from_cards, ints, match=["card 8c appears twice"])


@pytest.mark.parametrize("value", [52, -1, 3.0, True])
def test_bad_int_cards(value):
    ints = list(range(51)) + [value]
    raises(Deal.from_cards, ints, match=repr(value))


@pytest.mark.parametrize("value", [None, 5])
def test_from_cards_non_iterable(value):
    raises(Deal.from_cards, value, match=repr(value))


@pytest.mark.parametrize(
    "token, part",
    [
        ("", "''"),
        ("1d", "'1d'"),
        ("Kx", "'Kx'"),
        ("AcAd", "'AcAd'"),
        ("11c", "'11c'"),
        ("K", "'K'"),
    ],
)
def test_card_parse(token, part):
    raises(Card.parse, token, match=part)


@pytest.mark.parametrize("value", [None, 52, -1, 1.5, True])
def test_card_constructor(value):
    with pytest.raises(ValueError):
        Card(value)


# ---- rules ------------------------------------------------------------------------------------


def test_bad_rule_names():
    raises(Rules.preset, "vegas", match=["'vegas'", "pyramide", "msc"])
    raises(Rules.preset, "", match=["''"])
    raises(Rules.preset, "X", match=["'X'"])
    raises(Rules.preset, 3, match=["3"])
    raises(Game, "PY1-X-AAAAAAS", match=["PY1-X-AAAAAAS", "custom"])


@pytest.mark.parametrize("value", [None, 5])
def test_rules_from_dict_not_a_dict(value):
    with pytest.raises(ValueError):
        Rules.from_dict(value)


@pytest.mark.parametrize("value", [None, 5])
def test_deal_parse_not_a_string(value):
    with pytest.raises(ValueError):
        Deal.parse(value)


# ---- illegal moves ----------------------------------------------------------------------------
# PY1-N-AAAAAAA: pyramid 8s / Jh 9c / 2s 2d Qd / 6s Tc 3d Ac / Jc 7c 9h 8c Qs /
# Kh 5h 2c 3h 5c Ah / 6c 4s Td 5d 8h 8d Ad; waste Qh, stock Ts Qc Jd 3s ...


def game_a() -> Game:
    return Game("PY1-N-AAAAAAA")


@pytest.mark.parametrize(
    "move, parts",
    [
        ("Kh", ["Kh is blocked by 6c and 4s"]),
        ("Jh+2s", ["Jh is blocked by 2s and 2d"]),
        ("Qs+Ad", ["Qs is blocked by 5c and Ah"]),
        ("8s+5d", ["8s is blocked by Jh and 9c"]),
    ],
)
def test_blocked_card_names_its_covers(move, parts):
    g = game_a()
    pos = g.position
    with pytest.raises(IllegalMoveError) as info:
        g.play(move)
    for p in parts:
        assert p in str(info.value)
    assert str(info.value).startswith(str(Move.parse(move)))
    assert g.position == pos and g.moves == []


def test_blocked_after_one_cover_gone():
    g = game_a()
    g.play("5d+8h")
    # 5c (row 5) lost its left cover 8h, 8d still covers it
    with pytest.raises(IllegalMoveError, match=r"5c is covered by 8d .*pair_with_covering"):
        g.play("5c+8d")
    with pytest.raises(IllegalMoveError, match=r"5c is blocked by 8d"):
        g.play("5c+8s")


def test_card_in_stock():
    g = game_a()
    with pytest.raises(
        IllegalMoveError, match=r"Qc is in the stock \(the next card to draw is Ts\)"
    ):
        g.play("Ad+Qc")
    with pytest.raises(IllegalMoveError, match=r"Kd is in the stock"):
        g.play("Kd")
    g.play("draw")  # waste Qh Ts, stock Qc Jd ...
    with pytest.raises(
        IllegalMoveError,
        match=r"Qc is in the stock \(the next card to draw is Qc\); "
        r"the stock's top card is not playable under these rules",
    ):
        g.play("Ad+Qc")
    m = Game("PY1-M-AAAAAAA")  # msc: the stock top (Qh) is playable, the card under it is not
    m.play("Ad+Qh")
    with pytest.raises(
        IllegalMoveError, match=r"Qc is in the stock \(the next card to draw is Ts\)$"
    ):
        m.play("Qc+Ah")


def test_card_in_waste_under_top():
    g = game_a()
    g.play("draw")  # waste Qh Ts
    with pytest.raises(IllegalMoveError, match=r"Qh is in the waste under Ts"):
        g.play("Ad+Qh")
    g.play("draw")  # waste Qh Ts Qc
    with pytest.raises(IllegalMoveError, match=r"Qh is in the waste under Qc"):
        g.play("Ad+Qh")


@pytest.mark.parametrize(
    "move, why",
    [
        ("5d+9h", "sum to 14, not 13"),
        ("Ad+Ah", "sum to 2"),
        ("8h+8d", "sum to 16"),
        ("Kh+Ad", "King is removed alone"),
        ("Qs", "only when it is a King"),
    ],
)
def test_sum_not_13(move, why):
    g = game_a()
    with pytest.raises(ValueError, match=why):
        g.play(move)
    assert g.moves == []


def test_already_removed():
    g = game_a()
    g.play("5d+8h")
    with pytest.raises(IllegalMoveError, match="5d was already removed"):
        g.play("5d+8d")
    with pytest.raises(IllegalMoveError, match="8h was already removed"):
        g.play("8h+5c")
    with pytest.raises(IllegalMoveError, match="5d was already removed"):
        g.play("5d+8h")


def test_draw_and_recycle_when_not_allowed():
    g = Game("PY1-C-AAAAAAA")
    with pytest.raises(IllegalMoveError, match="stock is not empty"):
        g.play("recycle")
    for _ in range(24):
        g.play("draw")
    assert g.status is Status.PLAYING  # 5d+8h is still possible
    with pytest.raises(IllegalMoveError, match="stock is empty and no recycles are left"):
        g.play("draw")
    with pytest.raises(IllegalMoveError, match=r"no recycles are left \(redeals=0\)"):
        g.play("recycle")
    u = Game("PY1-U-AAAAAAA")
    for _ in range(24):
        u.play("draw")
    with pytest.raises(IllegalMoveError, match="stock is empty: recycle"):
        u.play("draw")


def won_game() -> Game:
    g = Game(" ".join(easy_cards()))
    g.play_all(EASY_SOLUTION)
    assert g.status is Status.WON
    return g


@pytest.mark.parametrize("move", ["draw", "recycle", "Kc", "As+Qh", "Ah+Qs", "Th+3s", "2h+Jh"])
def test_moves_on_a_won_game(move):
    g = won_game()
    pos = g.position
    with pytest.raises(IllegalMoveError, match=r"the game is over \(won\)"):
        g.play(move)
    assert g.position == pos and g.status is Status.WON


def test_moves_on_a_game_with_no_moves():
    bottom = "8c 8d 8h 8s 9c 9d 9h".split()
    top = ("9s " + " ".join(r + s for r in "45JQK" for s in "cdhs")).split()
    talon = [r + s for r in "A2367T" for s in "cdhs"]
    g = Game(" ".join(top + bottom + talon), rules="classic")
    for _ in range(24):
        g.play("draw")
    assert g.status is Status.NO_MOVES
    for move in ("draw", "recycle", "8c+5c", "Kc"):
        with pytest.raises(IllegalMoveError, match=r"the game is over \(no moves\)"):
            g.play(move)


def test_play_bad_text():
    g = game_a()
    for text, part in [
        ("", "not a move"),
        ("jump", "'jump'"),
        ("Kd+", "not a move"),
        ("Tc+3x", "'3x'"),
        (None, "None"),
        (3, "3"),
    ]:
        raises(g.play, text, match=part)
    assert g.moves == []


# ---- arbitrary text ---------------------------------------------------------------------------
# 'ſ' (U+017F, long s) and 'K' (U+212A, Kelvin sign) case-fold to 's' and 'k': under a Unicode
# re.IGNORECASE they once matched the card pattern and then crashed the lookup (KeyError).
CASEFOLDERS = ["\u017f", "\u212a", "ß", "ı", "ﬅ", "İ"]
text_st = st.text(max_size=40)
cardish = st.lists(
    st.sampled_from(
        ALL_TOKENS
        + CASEFOLDERS
        + ["10", "+", " ", "-", "♦", "♠", "PY1", "N", "d", "draw", "r", "\ufe0f", "Ä", "", ",", "K"]
    ),
    max_size=60,
).map("".join)
any_text = st.one_of(text_st, cardish)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def only_value_error(fn, text):
    try:
        fn(text)
    except ValueError as e:
        assert str(e)  # a message, not an empty error
    # anything else propagates and fails the test


@FUZZ
@given(any_text)
@example("PY1-N-AAAAAAS")
@example("PY1-N-AAAAAß")
@example("PY1-N-AAAAAA\u017f")
def test_fuzz_from_code(text):
    only_value_error(Deal.from_code, text)


@FUZZ
@given(any_text)
@example(" ".join(ALL_TOKENS))
@example("K\u017f \u212ad")
def test_fuzz_from_cards(text):
    only_value_error(Deal.from_cards, text)


@FUZZ
@given(any_text)
@example("10♦+3♠")
@example("K\u017f")
@example("Q\u017f+A\u017f")
def test_fuzz_move_parse(text):
    only_value_error(Move.parse, text)


@FUZZ
@given(any_text)
@example("Td")
@example("Q\u017f")
@example("\u212ad")
def test_fuzz_card_parse(text):
    only_value_error(Card.parse, text)


GAME = Game("PY1-N-AAAAAAA")


@FUZZ
@given(any_text)
@example("5d+8h")
@example("5d+8\u017f")
def test_fuzz_game_play(text):
    g = GAME.copy()
    pos = g.position
    try:
        g.play(text)
    except ValueError as e:
        assert str(e)
        assert g.position == pos  # a rejected move changes nothing
    else:
        assert g.position != pos


@pytest.mark.parametrize(
    "fn",
    [Card.parse, Move.parse, Deal.from_cards, GAME.copy().play],
    ids=["Card.parse", "Move.parse", "Deal.from_cards", "Game.play"],
)
def test_long_s_suit_raises_value_error(fn):
    raises(fn, "Q\u017f", match="'Q\u017f'")


def test_kelvin_sign_rank_message_names_token():
    raises(Card.parse, "\u212ad", match="'\u212ad' is not a card")
    toks = list(ALL_TOKENS)
    toks[12] = "\u212ac"  # Kc written with the Kelvin sign
    raises(Deal.from_cards, " ".join(toks), match=["token 13", "'\u212ac'"])
