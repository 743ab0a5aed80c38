"""One scenario for every rule option and preset (docs/rules.md)."""

import pytest

from pyramid_solitaire import Game, IllegalMoveError, Move, Rules, Status

from conftest import EASY_CLEAR, EASY_TALON, complete, easy_deal, seed000_deal


def tokens(cards):
    return [str(c) for c in cards]


def draw_all(game):
    while Move.DRAW in game.legal_moves:
        game.play("draw")


# ---- presets ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, letter, waste, passes",
    [
        ("pyramide", "N", 1, None),
        ("three-pass", "T", 0, 3),
        ("unlimited", "U", 0, None),
        ("classic", "C", 0, 1),
        ("classic-draw3", "D", 0, 1),
        ("msc", "M", 0, 3),
    ],
)
def test_presets(name, letter, waste, passes):
    rules = Rules.preset(name)
    assert (rules.name, rules.letter, rules.waste_at_deal, rules.passes) == (
        name,
        letter,
        waste,
        passes,
    )
    game = Game(easy_deal(), rules)
    assert len(game.waste) == waste and len(game.stock) == 24 - waste


def test_waste_at_deal():
    game = Game(seed000_deal(), "pyramide")
    assert tokens(game.waste) == ["7d"] and len(game.stock) == 23
    game = Game(seed000_deal(), Rules(waste_at_deal=0))
    assert game.waste == [] and len(game.stock) == 24 and tokens(game.stock[:1]) == ["7d"]


def test_won_as_soon_as_the_pyramid_is_clear():
    game = Game(easy_deal(), "pyramide")
    game.play_all(EASY_CLEAR)
    assert game.status is Status.WON and len(game.stock) == 23
    assert game.legal_moves == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play("draw")


# ---- win = all ------------------------------------------------------------------------------


def test_strict_win_needs_the_talon_too():
    game = Game(easy_deal(), Rules(waste_at_deal=0, redeals=0, win="all"))
    game.play_all(EASY_CLEAR)
    assert game.pyramid_left == 0 and game.status is Status.PLAYING
    draw_all(game)  # talon cards only pair with each other: nothing to remove
    assert game.status is Status.NO_MOVES


def test_strict_win_with_the_talon_cleared():
    game = Game(easy_deal(), Rules(waste_at_deal=0, redeals=0, win="all", stock_top_playable=True))
    game.play_all(EASY_CLEAR)
    for a, b in zip(EASY_TALON[::2], EASY_TALON[1::2]):
        assert game.status is Status.PLAYING
        game.play("draw")  # a on the waste, b on top of the stock
        game.play(f"{a}+{b}")
    assert game.status is Status.WON and game.stock == [] and game.waste == []


# ---- draw three -----------------------------------------------------------------------------


def test_draw_three_spreads_over_three_piles():
    game = Game(easy_deal(), "classic-draw3")
    game.play("draw")
    assert [tokens(p) for p in game.waste_piles] == [["Ah"], ["Qh"], ["As"]]
    assert tokens(game.available) == ["Ah", "Qh", "As"]
    assert Move.parse("Ah+Qh") in game.legal_moves  # two pile tops pair
    assert Move.parse("Qd+As") in game.legal_moves  # a pile top with a free pyramid card
    game.play("draw")
    assert [tokens(p) for p in game.waste_piles] == [["Ah", "Qs"], ["Qh", "2h"], ["As", "Jh"]]
    with pytest.raises(IllegalMoveError, match="only the top card"):
        game.play("Ah+Qd")
    game.play("2h+Jh")
    assert [tokens(p) for p in game.waste_piles] == [["Ah", "Qs"], ["Qh"], ["As"]]
    draw_all(game)
    assert len(game.legal_moves) and Move.RECYCLE not in game.legal_moves
    assert game.waste_piles[0][-1] == game.deal.talon[21]


def test_draw_three_with_a_card_on_the_waste_at_the_deal():
    rules = Rules(waste_at_deal=1, draw=3, redeals=0)
    game = Game(easy_deal(), rules)
    assert [tokens(p) for p in game.waste_piles] == [["Ah"], [], []]
    game.play("draw")
    assert [tokens(p) for p in game.waste_piles] == [["Ah", "Qh"], ["As"], ["Qs"]]
    draw_all(game)  # 1 + 7 draws of three + a last draw of two
    piles = game.waste_piles
    assert [len(p) for p in piles] == [9, 8, 7]
    assert tokens(p[-1] for p in piles) == ["6s", "7s", "7h"]


# ---- recycling ------------------------------------------------------------------------------


def test_recycle_keeps_the_order_and_skips_removed_cards():
    game = Game(easy_deal(), "unlimited")
    game.play("draw")
    game.play("Qd+Ah")
    seen = []
    while Move.DRAW in game.legal_moves:
        game.play("draw")
        seen.append(str(game.waste[-1]))
    assert seen == EASY_TALON[1:]
    assert game.legal_moves[-1] == Move.RECYCLE
    game.play("recycle")
    assert tokens(game.stock) == EASY_TALON[1:] and game.waste == []
    assert game.recycles_used == 1 and game.recycles_left is None


@pytest.mark.parametrize("preset, recycles", [("classic", 0), ("three-pass", 2), ("msc", 2)])
def test_redeal_limits(preset, recycles):
    game = Game(easy_deal(), preset)
    for used in range(recycles):
        draw_all(game)
        assert game.recycles_left == recycles - used
        game.play("recycle")
    draw_all(game)
    assert game.recycles_left == 0 and Move.RECYCLE not in game.legal_moves
    with pytest.raises(IllegalMoveError, match="no recycles are left"):
        game.play("recycle")
    assert game.status is Status.PLAYING  # the pyramid still has moves (Ks)


def test_redeals_custom_count():
    game = Game(easy_deal(), Rules(waste_at_deal=0, redeals=5))
    for _ in range(5):
        draw_all(game)
        game.play("recycle")
    draw_all(game)
    assert Move.RECYCLE not in game.legal_moves and game.recycles_used == 5


# ---- pairing options ------------------------------------------------------------------------


def test_stock_top_playable():
    msc = Game(easy_deal(), "msc")
    assert tokens(msc.available) == ["Ah"]  # the stock's top, face up
    assert Move.parse("Qd+Ah") in msc.legal_moves
    msc.play("Qd+Ah")
    assert tokens(msc.stock[:1]) == ["Qh"] and msc.waste == []
    msc.play("draw")  # Qh to the waste, As now on top of the stock
    assert Move.parse("Qh+As") in msc.legal_moves
    classic = Game(easy_deal(), "classic")
    with pytest.raises(IllegalMoveError, match="in the stock"):
        classic.play("Qd+Ah")


def test_pair_waste_top_two():
    game = Game(easy_deal(), Rules(waste_at_deal=0, redeals=0, pair_waste_top_two=True))
    game.play("draw")
    game.play("draw")
    assert Move.parse("Ah+Qh") in game.legal_moves
    game.play("Ah+Qh")
    assert game.waste == []
    plain = Game(easy_deal(), "classic")
    plain.play("draw")
    plain.play("draw")
    with pytest.raises(IllegalMoveError, match="needs pair_waste_top_two"):
        plain.play("Ah+Qh")


def covering_deal():
    # 9h at (5, 0) is covered by Ks (6, 0) and 4h (6, 1).
    from pyramid_solitaire import Deal

    return Deal.from_cards(" ".join(complete({15: "9h", 21: "Ks", 22: "4h"})))


def test_pair_with_covering():
    game = Game(covering_deal(), Rules(pair_with_covering=True))
    assert Move.parse("9h+4h") not in game.legal_moves  # Ks covers 9h too
    game.play("Ks")
    assert Move.parse("9h+4h") in game.legal_moves
    game.play("9h+4h")
    assert game.pyramid[15] is None and game.pyramid[22] is None
    plain = Game(covering_deal(), "pyramide")
    plain.play("Ks")
    with pytest.raises(IllegalMoveError, match="needs pair_with_covering"):
        plain.play("9h+4h")


# ---- end of game ----------------------------------------------------------------------------


def test_no_moves_only_when_stock_and_waste_are_empty_under_unlimited_redeals():
    # The talon is 12 adjacent pairs (removable with the stock top playable); the pyramid's
    # Kings are buried and its bottom row holds no pair.
    bottom = "Ac 2c 3c 4c 5c 6c Ad".split()
    talon = EASY_TALON
    game = Game(
        complete(
            {21 + i: t for i, t in enumerate(bottom)} | {0: "Kc", 1: "Kd", 2: "Kh", 3: "Ks"}, talon
        ),
        Rules(waste_at_deal=0, stock_top_playable=True),
    )
    pyramid_moves = [
        m
        for m in game.legal_moves
        if m.kind in ("king", "pair") and all(c in game.free_cards for c in m.cards)
    ]
    assert pyramid_moves == []
    for a, b in zip(talon[::2], talon[1::2]):
        draw_all(game)  # nothing else removed: a full pass...
        game.play("recycle")  # ...and the game goes on
        assert game.status is Status.PLAYING
        game.play("draw")
        game.play(f"{a}+{b}")
    assert game.stock == [] and game.waste == []
    assert game.status is Status.NO_MOVES and game.legal_moves == []
