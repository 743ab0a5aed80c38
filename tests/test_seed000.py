"""Seed 000's walkthrough of its example deal, on its card list (docs/deal-codes.md)."""

import pytest

from pyramid_solitaire import Game, IllegalMoveError, Move, Status

from conftest import seed000_deal


@pytest.fixture
def game():
    return Game(seed000_deal(), "pyramide")


def test_layout_and_talon(game):
    assert [str(c) for c in game.deal.rows[0]] == ["Jd"]
    assert [str(c) for c in game.deal.rows[6]] == "7c Tc 3h 4h 3s Kd 7s".split()
    assert [str(c) for c in game.waste] == ["7d"]  # one card on the waste at the deal
    assert len(game.stock) == 23


def test_seven_free_cards_at_the_start(game):
    assert [str(c) for c in game.free_cards] == "7c Tc 3h 4h 3s Kd 7s".split()


def test_queen_of_clubs_in_row_six_is_blocked(game):
    assert game.where("Qc") == "pyramid"
    assert "Qc" not in [str(c) for c in game.free_cards]
    with pytest.raises(IllegalMoveError, match="Qc is blocked by 7c and Tc"):
        game.play("Qc+As")


def test_seven_plus_seven_is_not_a_move(game):
    with pytest.raises(ValueError, match="sum to 14, not 13"):
        game.play("7c+7s")
    assert all(set(map(str, m.cards)) != {"7c", "7s"} for m in game.legal_moves)


def test_first_two_moves_free_the_ten_of_spades(game):
    assert Move.parse("Kd") in game.legal_moves
    assert Move.parse("Tc+3s") in game.legal_moves
    game.play("Kd")
    assert "Ts" not in map(str, game.free_cards)  # still covered by 3s
    game.play("Tc+3s")
    assert [str(c) for c in game.free_cards] == "Ts 7c 3h 4h 7s".split()
    assert game.pyramid_removed == 3
    assert game.status is Status.PLAYING
    assert game.undo() == Move.parse("Tc+3s")
    assert "Ts" not in map(str, game.free_cards)
