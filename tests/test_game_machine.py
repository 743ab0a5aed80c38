"""Stateful tests of Game: random play, undo, copy and pickle under several rule sets.

After every step the machine checks what docs/rules.md says, computed here from the public
views (not from the engine's masks): every card is in exactly one place, the free cards are the
pyramid cards whose covers are gone, the legal moves are exactly the Kings, pairs, draw and
recycle the rules allow, and the status is WON / NO_MOVES exactly when it should be.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from pyramid_solitaire import CARDS, Card, Deal, Game, IllegalMoveError, Move, Rules, Status

from conftest import clearable_deck

# ---- deals ------------------------------------------------------------------------------------


def easy_deck(seed: int) -> list[int]:
    """A deal that can be cleared completely, even under win='all' (conftest.clearable_deck)."""
    return clearable_deck(random.Random(seed))


deals = st.one_of(
    st.integers(0, 26**7 - 1).map(Deal.from_number),
    st.permutations(range(52)).map(Deal.from_cards),
    st.integers(0, 10**6).map(lambda s: Deal.from_cards(easy_deck(s))),
)

# ---- the model --------------------------------------------------------------------------------


def covers(i: int) -> tuple[int, ...]:
    r = 0
    while (r + 1) * (r + 2) // 2 <= i:
        r += 1
    k = i - r * (r + 1) // 2
    if r == 6:
        return ()
    return ((r + 1) * (r + 2) // 2 + k, (r + 1) * (r + 2) // 2 + k + 1)


COVERS = [covers(i) for i in range(28)]
assert COVERS[0] == (1, 2) and COVERS[9] == (13, 14) and COVERS[20] == (26, 27)
assert COVERS[21] == ()


def free_positions(pyr: list) -> list[int]:
    return [
        i for i, c in enumerate(pyr) if c is not None and all(pyr[j] is None for j in COVERS[i])
    ]


def expected_available(g: Game) -> list[Card]:
    rules = g.rules
    if rules.draw == 3:
        return [p[-1] for p in g.waste_piles if p]
    out = [g.waste[-1]] if g.waste else []
    if rules.stock_top_playable and g.stock:
        out.append(g.stock[0])
    return out


def expected_won(g: Game) -> bool:
    pyramid_clear = all(c is None for c in g.pyramid)
    if g.rules.win == "all":
        return pyramid_clear and not g.stock and not g.waste
    return pyramid_clear


def expected_moves(g: Game) -> set[Move]:
    if expected_won(g):
        return set()
    rules, pyr = g.rules, g.pyramid
    free = [pyr[i] for i in free_positions(pyr)]
    playable = free + expected_available(g)
    moves = {Move.king(c) for c in playable if c.rank == 13}
    moves |= {Move.pair(a, b) for a, b in combinations(playable, 2) if a.rank + b.rank == 13}
    if rules.pair_waste_top_two and rules.draw == 1 and len(g.waste) >= 2:
        a, b = g.waste[-2:]
        if a.rank + b.rank == 13:
            moves.add(Move.pair(a, b))
    if rules.pair_with_covering:
        fpos = set(free_positions(pyr))
        for i, c in enumerate(pyr):
            if c is None or not COVERS[i]:
                continue
            present = [j for j in COVERS[i] if pyr[j] is not None]
            if len(present) == 1 and present[0] in fpos and c.rank + pyr[present[0]].rank == 13:
                moves.add(Move.pair(c, pyr[present[0]]))
    if g.stock:
        moves.add(Move.DRAW)
    elif g.waste:
        used = sum(1 for m in g.moves if m.kind == "recycle")
        if rules.redeals == "unlimited" or used < rules.redeals:
            moves.add(Move.RECYCLE)
    return moves


ALL_REMOVALS = [Move.king(c) for c in CARDS if c.rank == 13] + [
    Move.pair(a, b) for a, b in combinations(CARDS, 2) if a.rank + b.rank == 13
]
ALL_MOVES = ALL_REMOVALS + [Move.DRAW, Move.RECYCLE]


def snapshot(g: Game) -> tuple:
    return (g.position, g.legal_moves, g.moves, g.status, g.stock, g.waste_piles, g.pyramid)


# ---- the checks made after every step ---------------------------------------------------


def cards_accounted_for(g: Game) -> None:
    deal = g.deal
    pyr = g.pyramid
    assert len(pyr) == 28
    for i, c in enumerate(pyr):
        assert c is None or c == deal.pyramid[i]
    on_pyramid = [c for c in pyr if c is not None]
    waste = g.waste
    everything = on_pyramid + g.stock + waste + g.removed
    counts = Counter(int(c) for c in everything)
    assert sorted(counts) == list(range(52)) and set(counts.values()) == {1}
    # the talon keeps its order: waste then stock is the remaining talon in draw order
    removed = set(g.removed)
    assert waste + g.stock == [c for c in deal.talon if c not in removed]
    assert sorted(c for p in g.waste_piles for c in p) == sorted(waste)
    assert g.pyramid_left == len(on_pyramid) and g.pyramid_removed == 28 - len(on_pyramid)
    assert len(g.removed) == sum(len(m.cards) for m in g.moves)
    for c in on_pyramid[:1] + g.stock[:1] + waste[-1:] + g.removed[:1]:
        assert g.where(c) == (
            "pyramid"
            if c in on_pyramid
            else "stock"
            if c in g.stock
            else "waste"
            if c in waste
            else "removed"
        )


def waste_piles_shape(g: Game) -> None:
    piles = g.waste_piles
    if g.rules.draw == 1:
        assert piles == [g.waste]
        return
    # draw three: dealt waste cards on pile 1, then each draw spreads over piles 1, 2, 3
    assert len(piles) == 3
    w = g.rules.waste_at_deal
    idx = {c: t for t, c in enumerate(g.deal.talon)}
    for k, pile in enumerate(piles):
        assert [idx[c] for c in pile] == sorted(idx[c] for c in pile)
        for c in pile:
            t = idx[c]
            assert (0 if t < w else (t - w) % 3) == k


def free_cards_are_uncovered(g: Game) -> None:
    pyr = g.pyramid
    expect = [pyr[i] for i in free_positions(pyr)]
    assert g.free_cards == expect
    assert g.free_mask == sum(1 << i for i in free_positions(pyr))
    assert sorted(g.available) == sorted(expected_available(g))
    assert g.playable_cards == g.free_cards + g.available


def legal_moves_follow_the_rules(g: Game) -> None:
    legal = g.legal_moves
    assert len(set(legal)) == len(legal), "a move listed twice"
    assert set(legal) == expected_moves(g)
    assert (Move.DRAW in legal) == (bool(g.stock) and not expected_won(g))


def status_is_right(g: Game) -> None:
    won = expected_won(g)
    assert (g.status is Status.WON) == won
    assert (g.status is Status.NO_MOVES) == (not won and not g.legal_moves)
    assert g.is_won == won and g.is_over == (g.status is not Status.PLAYING)
    if g.status is Status.NO_MOVES:
        assert not g.stock  # docs/rules.md: the game goes on while a card can be drawn
        if g.rules.redeals == "unlimited":
            assert not g.waste
    left = g.recycles_left
    if g.rules.redeals == "unlimited":
        assert left is None
    else:
        used = sum(1 for m in g.moves if m.kind == "recycle")
        assert g.recycles_used == used and left == g.rules.redeals - used


CHECKS = [
    cards_accounted_for,
    waste_piles_shape,
    free_cards_are_uncovered,
    legal_moves_follow_the_rules,
    status_is_right,
]


def check_all(g: Game) -> None:
    for check in CHECKS:
        check(g)


# ---- the machine ------------------------------------------------------------------------------


class GameMachine(RuleBasedStateMachine):
    RULES: Rules = Rules()

    def __init__(self):
        super().__init__()
        self.game: Game | None = None
        self.history: list[tuple] = []  # snapshot before each move still in game.moves

    @initialize(deal=deals)
    def start(self, deal):
        self.game = Game(deal, rules=self.RULES)
        assert self.game.rules == self.RULES
        assert self.game.moves == [] and self.game.removed == []
        assert self.game.status is not Status.WON
        self.history = []

    # -- rules --
    def _play(self, move: Move):
        g = self.game
        before = snapshot(g)
        g.play(move)
        assert g.moves == before[2] + [move]
        assert g.position != before[0]
        self.history.append((before, move))

    @precondition(lambda self: self.game is not None and self.game.legal_moves)
    @rule(data=st.data())
    def play_any(self, data):
        self._play(data.draw(st.sampled_from(self.game.legal_moves), label="move"))

    @precondition(
        lambda self: self.game is not None and any(m.cards for m in self.game.legal_moves)
    )
    @rule(data=st.data())
    def play_removal(self, data):
        removals = [m for m in self.game.legal_moves if m.cards]
        self._play(data.draw(st.sampled_from(removals), label="removal"))

    @precondition(lambda self: self.game is not None and self.game.legal_moves)
    @rule(data=st.data(), n=st.integers(1, 60))
    def autoplay(self, data, n):
        """Up to n moves in one step, removals first (so that games get won or stuck), with
        every check made after each move."""
        for _ in range(n):
            legal = self.game.legal_moves
            if not legal:
                break
            removals = [m for m in legal if m.cards]
            self._play(data.draw(st.sampled_from(removals or legal), label="auto move"))
            check_all(self.game)

    @precondition(lambda self: self.game is not None)
    @rule(move=st.sampled_from(ALL_MOVES))
    def try_any_move(self, move):
        g = self.game
        legal = move in g.legal_moves
        assert g.is_legal(move) == legal
        assert g.is_legal(str(move)) == legal
        if legal:
            self._play(move)
        else:
            before = snapshot(g)
            with pytest.raises(IllegalMoveError) as info:
                g.play(move)
            assert (
                str(info.value).startswith(f"{move}: ")
                and len(str(info.value)) > len(str(move)) + 4
            )
            if g.status is not Status.PLAYING:
                assert "game is over" in str(info.value)
            assert snapshot(g) == before

    @precondition(lambda self: self.game is not None and self.game.moves)
    @rule()
    def undo(self):
        before, move = self.history.pop()
        assert self.game.undo() == move
        assert snapshot(self.game) == before

    @precondition(lambda self: self.game is not None)
    @rule(data=st.data(), how=st.sampled_from(["copy", "copy.copy", "deepcopy"]))
    def copy_and_continue(self, data, how):
        g = self.game
        c = {
            "copy": g.copy,
            "copy.copy": lambda: copy.copy(g),
            "deepcopy": lambda: copy.deepcopy(g),
        }[how]()
        assert c is not g and c == g and snapshot(c) == snapshot(g)
        frozen = snapshot(g)
        # play on the copy: the original does not move
        if c.legal_moves:
            m = data.draw(st.sampled_from(c.legal_moves), label="move on copy")
            c.play(m)
            assert snapshot(g) == frozen
            c.undo()
        # undo on the copy: the original does not move either
        if c.moves:
            c.undo()
            assert snapshot(g) == frozen
            c.play(g.moves[-1])
        assert snapshot(c) == frozen
        # and the original's moves do not leak into the copy
        if g.legal_moves:
            g.play(g.legal_moves[0])
            assert snapshot(c) == frozen
            g.undo()
        self.game = c

    @precondition(lambda self: self.game is not None)
    @rule()
    def pickle_round_trip(self):
        g = self.game
        h = pickle.loads(pickle.dumps(g))
        assert h == g and snapshot(h) == snapshot(g)
        assert h.deal == g.deal and h.rules == g.rules and h.code == g.code
        assert h.removed == g.removed and h.free_cards == g.free_cards
        self.game = h

    @invariant()
    def everything_holds(self):
        if self.game is not None:
            check_all(self.game)


MACHINE_SETTINGS = settings(
    max_examples=40, stateful_step_count=50, deadline=None, suppress_health_check=list(HealthCheck)
)

RULE_SETS = {
    "pyramide": Rules.preset("pyramide"),
    "three_pass": Rules.preset("three-pass"),
    "unlimited": Rules.preset("unlimited"),
    "classic": Rules.preset("classic"),
    "classic_draw3": Rules.preset("classic-draw3"),
    "msc": Rules.preset("msc"),
    "win_all_pair_waste_top_two": Rules(win="all", pair_waste_top_two=True, redeals=1),
    "pair_with_covering": Rules(pair_with_covering=True, waste_at_deal=0),
    "draw3_waste1_win_all": Rules(
        draw=3, redeals=0, waste_at_deal=1, win="all", pair_with_covering=True
    ),
}

for _name, _rules in RULE_SETS.items():
    _machine = type(f"Machine_{_name}", (GameMachine,), {"RULES": _rules})
    _case = _machine.TestCase
    _case.settings = MACHINE_SETTINGS
    globals()[f"TestGame_{_name}"] = _case
del _name, _rules, _machine, _case


def test_easy_deck_clears_under_every_rule_set():
    """The machine's easy deals really clear the pyramid (so WON states get visited)."""
    for rules in RULE_SETS.values():
        for seed in range(3):
            g = Game(Deal.from_cards(easy_deck(seed)), rules=rules)
            for _ in range(200):
                if g.status is not Status.PLAYING:
                    break
                removals = [m for m in g.legal_moves if m.cards]
                g.play(removals[0] if removals else g.legal_moves[-1])
            assert g.pyramid_left == 0, (rules, seed)
            if rules.win == "pyramid":
                assert g.status is Status.WON
