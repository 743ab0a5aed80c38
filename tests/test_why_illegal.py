"""Why a move is refused comes from the engine (position.pxd's pos_why_illegal, beside the
move generator): the same reasons, with the same arguments, as the Python explanation it
replaced (pinned below as the oracle), for every illegal King, pair, draw and recycle at many
positions under every preset and the options that change what is legal."""

from __future__ import annotations

import random

import pytest

from pyramid_core import geometry
from pyramid_core.position import RECYCLE
from pyramid_solitaire import Deal, Game, Move, Rules
from pyramid_solitaire.model.game import Status

RULES = [
    Rules.preset(name)
    for name in ("pyramide", "three-pass", "unlimited", "classic", "classic-draw3", "msc")
] + [
    Rules(pair_waste_top_two=True),
    Rules(pair_with_covering=True),
    Rules(stock_top_playable=True, redeals=0),
    Rules(win="all"),
]


def _oracle(self, move):
    """The explanation as game.py wrote it before the engine gave it (pinned here)."""
    status = self.status
    if status is not Status.PLAYING:
        return "move_game_over", {"status": status}
    if move.kind == "draw":
        if self._legal_codes()[-1] == RECYCLE:
            return "draw_recycle_first", {}
        return ("draw_all_empty" if not self.waste else "draw_no_recycles"), {}
    if move.kind == "recycle":
        if self.stock:
            return "recycle_stock_left", {}
        if not self.waste:
            return "recycle_waste_empty", {}
        return "recycle_none_left", {"redeals": self._rules.redeals}
    for card in move.cards:
        where = self.where(card)
        if where == "removed":
            return "card_removed", {"card": card}
        if where == "pyramid":
            if card not in self.free_cards:
                loc = self._loc[card]
                covers = [
                    self._deal.cards[i] for i in geometry.covers(loc) if (self._pyr_mask() >> i) & 1
                ]
                other = [c for c in move.cards if c != card]
                if covers == other and not self._rules.pair_with_covering:
                    return "card_covered_by", {"card": card, "other": other[0]}
                return "card_blocked", {"card": card, "covers": covers}
        elif card not in self.available:
            if where == "stock":
                nxt = self.stock[0]
                hidden = not self._rules.stock_top_playable and card == nxt
                return ("stock_top_not_playable" if hidden else "card_in_stock"), {
                    "card": card,
                    "next": nxt,
                }
            piles = [p for p in self.waste_piles if card in p]
            top = piles[0][-1] if piles else None
            if (
                self._rules.draw == 1
                and len(move.cards) == 2
                and set(move.cards) <= set(self.waste[-2:])
            ):
                return "waste_top_two", {"card": card, "top": top}
            return "waste_under", {"card": card, "top": top}
    return "not_legal", {}


def _candidates() -> list[Move]:
    kings = [Move("king", (c,)) for c in range(52) if c % 13 == 12]
    pairs = [
        Move("pair", (a, b))
        for a in range(52)
        for b in range(52)
        if a != b and (a % 13 + 1) + (b % 13 + 1) == 13
    ]
    return kings + pairs + [Move("draw"), Move("recycle")]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.describe())
def test_the_engine_explains_as_the_python_did(rules):
    rng = random.Random(repr(rules))
    moves = _candidates()
    checked = 0
    for i in range(16):
        game = Game(Deal.from_number(rng.randrange(10**6), rules=rules))
        # half the games mostly turn the talon (to its end, through the recycles), half
        # mostly remove cards: every reason is met
        turn = 0.9 if i % 2 else 0.2
        for _ in range(rng.randrange(0, 120)):
            legal = game.legal_moves
            if not legal:
                break
            talon = [m for m in legal if m.kind in ("draw", "recycle")]
            game.play(talon[0] if talon and rng.random() < turn else rng.choice(legal))
        for move in moves:
            if game.is_legal(move):
                continue
            assert game._why_illegal_reason(move) == _oracle(game, move), (rules, game, move)
            checked += 1
    assert checked > 1000


def test_the_rare_reasons_once_the_talon_is_gone():
    """A deal whose talon is twelve pairs, played off two by two under pair_waste_top_two:
    then drawing and recycling are refused for an empty talon, as the oracle says."""
    talon = []
    for suit in (0, 1):
        for rank in range(1, 7):  # A+Q, 2+J, ..., 6+7 of one suit
            talon += [suit * 13 + rank - 1, suit * 13 + (13 - rank) - 1]
    pyramid = [c for c in range(52) if c not in talon]
    rules = Rules(pair_waste_top_two=True)
    game = Game(Deal.from_cards(pyramid + talon, rules=rules), rules)
    while game.stock or game.waste:
        pairs = [
            m for m in game.legal_moves if m.kind == "pair" and game.where(m.cards[0]) != "pyramid"
        ]
        game.play(pairs[0] if pairs else Move("draw"))
    reasons = {}
    for move in (Move("draw"), Move("recycle")):
        assert not game.is_legal(move)
        reasons[move.kind] = game._why_illegal_reason(move)
        assert reasons[move.kind] == _oracle(game, move)
    assert reasons == {"draw": ("draw_all_empty", {}), "recycle": ("recycle_waste_empty", {})}
