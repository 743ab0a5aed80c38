"""The Cython core (pyramid_core.position.Table) against the pure-Python reference model.

Random playouts (seeded, deterministic) from many random deals, for every preset and for each
rule option switched on alone. At every position visited the two must agree on the legal moves
(translated to cards), the status, the free cards, the available talon cards, the stock and the
waste, the recycles used, and every card must be accounted for exactly once; then the same random
move is applied to both. The position word must also be a faithful key: two positions reached in
one game are the same int exactly when the reference states are equal.
"""

from __future__ import annotations

import dataclasses
import os
import random
import sys
import zlib
from collections import Counter

import pytest

from pyramid_core.position import Table

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # tests/reference.py
import reference as ref  # noqa: E402
from conftest import clearable_deck  # noqa: E402
from reference import PRESETS, UNLIMITED, Rules  # noqa: E402

DRAW_CODE = 63
RECYCLE_CODE = 127
NONE_LOC = 63
TALON_LOC = 28

CONFIGS = dict(PRESETS)
_BASE = PRESETS["pyramide"]
CONFIGS.update(
    {
        "opt-win_all": dataclasses.replace(_BASE, win_all=True),
        "opt-pair_waste_top_two": dataclasses.replace(_BASE, pair_waste_top_two=True),
        "opt-pair_with_covering": dataclasses.replace(_BASE, pair_with_covering=True),
        "opt-draw3_waste1": Rules(waste_at_deal=1, draw=3, redeals=0),
        "opt-redeals1": dataclasses.replace(_BASE, redeals=1),
    }
)

N_RANDOM_DEALS = 36  # random deals per rule set
N_EASY_DEALS = 10  # constructed deals that can be cleared completely
PLAYOUTS_PER_DEAL = 2
MAX_STEPS = 140  # unlimited redeals could go on forever


# ---- deals ----------------------------------------------------------------------------------


def random_deck(rng: random.Random) -> list:
    deck = list(range(52))
    rng.shuffle(deck)
    return deck


def easy_deck(rng: random.Random) -> list:
    """A deal that can be cleared completely, even under win_all (conftest.clearable_deck)."""
    return clearable_deck(rng)


# ---- translation core <-> reference ---------------------------------------------------------


def core_move(t: Table, code: int):
    """A core move code in the reference's card terms (checking the code's shape)."""
    if code == DRAW_CODE:
        return ref.DRAW
    if code == RECYCLE_CODE:
        return ref.RECYCLE
    a, b = code & 63, code >> 6
    assert code < 1 << 12, code
    if b == NONE_LOC:
        assert a < 52
        assert ref.rank(t.card(a)) == ref.KING, f"lone non-King in code {code}"
        return ("king", t.card(a))
    assert a < b < 52, f"pair code {code} not a < b < 52"
    return ("pair", frozenset((t.card(a), t.card(b))))


def talon_cards(t: Table, idx) -> list:
    return [t.card(TALON_LOC + i) for i in idx]


def check_position(t: Table, pos: int, s: ref.State, stats: Counter) -> dict:
    """Compare everything observable; return {reference move: core code}."""
    rules = s.rules
    assert 0 <= pos < 1 << 63, "bit 63 must stay clear"

    # pyramid contents
    pmask = Table.pyramid_mask(pos)
    core_pyr = {i: t.card(i) for i in range(28) if (pmask >> i) & 1}
    assert core_pyr == s.pyramid

    # free cards
    fmask = t.free(pos)
    assert fmask & ~pmask == 0, "a free position that is not present"
    assert {t.card(i) for i in range(28) if (fmask >> i) & 1} == ref.free_cards(s)

    # stock (in draw order) and waste (bottom to top, per pile)
    assert talon_cards(t, t.stock(pos)) == s.stock
    core_waste = [talon_cards(t, pile) for pile in t.waste_piles(pos)]
    assert core_waste == s.waste

    # available talon cards
    av = t.available(pos)
    assert av == sorted(av)
    assert set(talon_cards(t, av)) == ref.talon_available(s)
    assert len(av) == len(ref.talon_available(s))

    # recycles used (the word keeps 0 under unlimited redeals)
    expected_rec = 0 if rules.redeals == UNLIMITED else s.recycles
    assert Table.recycles(pos) == expected_rec

    # every card exactly once: on the table (core view) or removed (reference view)
    on_table = (
        list(core_pyr.values())
        + talon_cards(t, t.stock(pos))
        + [c for pile in core_waste for c in pile]
    )
    assert sorted(on_table + sorted(s.removed)) == list(range(52))
    tmask = Table.talon_mask(pos)
    assert bin(tmask).count("1") == len(t.stock(pos)) + sum(map(len, core_waste))
    assert bin(pmask).count("1") + bin(tmask).count("1") + len(s.removed) == 52

    # legal moves and status
    codes = t.moves(pos)
    assert len(codes) == len(set(codes)), f"duplicate move codes {codes}"
    core_moves = {core_move(t, c): c for c in codes}
    assert len(core_moves) == len(codes), "two codes for the same move"
    ref_moves = ref.legal_moves(s)
    assert set(core_moves) == ref_moves, (
        f"only core: {set(core_moves) - ref_moves}, only reference: {ref_moves - set(core_moves)}"
    )
    st = ref.status(s)
    assert t.status(pos) == st
    stats[("status", st)] += 1
    _count_kinds(s, ref_moves, stats)
    return core_moves


def _count_kinds(s: ref.State, moves, stats: Counter) -> None:
    """Coverage: which kinds of moves the playouts met (asserted at the end)."""
    free = ref.free_cards(s)
    tops = set(ref.waste_tops(s))
    stock_top = s.stock[0] if s.stock else None
    for m in moves:
        if m[0] in ("draw", "recycle"):
            stats[m[0]] += 1
        elif m[0] == "king":
            stats["king-pyramid" if m[1] in free else "king-talon"] += 1
            if m[1] == stock_top:
                stats["stock-top"] += 1
        else:
            a, b = m[1]
            if a in free and b in free:
                stats["pair-pyramid"] += 1
            elif (a in s.pyramid.values()) and (b in s.pyramid.values()):
                stats["pair-covering"] += 1
            elif a in free or b in free:
                stats["pair-pyramid-talon"] += 1
            elif a in tops and b in tops:
                stats["pair-pile-tops"] += 1
            else:
                stats["pair-waste-two" if stock_top not in (a, b) else "pair-talon-stock"] += 1
            if stock_top in (a, b):
                stats["stock-top"] += 1


def check_illegal(t: Table, pos: int, codes, rng: random.Random) -> None:
    """A few codes that are not legal here must be refused."""
    legal = set(codes)
    candidates = [DRAW_CODE, RECYCLE_CODE]
    for _ in range(4):
        a, b = sorted(rng.sample(range(52), 2))
        candidates.append(a | b << 6)
        candidates.append(rng.randrange(52) | NONE_LOC << 6)
    for code in candidates:
        if code not in legal:
            with pytest.raises(ValueError):
                t.apply(pos, code)


class KeyMap:
    """Position word <-> reference state, one game: both directions must be functions."""

    def __init__(self):
        self.by_key = {}
        self.by_pos = {}
        self.hits = 0

    def see(self, s: ref.State, pos: int) -> None:
        k = s.key()
        if k in self.by_key:
            self.hits += 1
            assert self.by_key[k] == pos, "equal reference states, different position words"
        if pos in self.by_pos:
            assert self.by_pos[pos] == k, "one position word for different reference states"
        self.by_key[k] = pos
        self.by_pos[pos] = k


def pick_move(moves: list, rng: random.Random, p_remove: float):
    removals = [m for m in moves if m[0] in ("king", "pair")]
    if removals and rng.random() < p_remove:
        return rng.choice(removals)
    return rng.choice(moves)


def _sorted_moves(moves) -> list:
    return sorted(moves, key=lambda m: (m[0], sorted(m[1]) if m[0] == "pair" else m[1:]))


def play(
    rules: Rules, deck: list, rng: random.Random, stats: Counter, keymap: KeyMap, p_remove: float
) -> None:
    t = Table(deck, **rules.kwargs())
    s = ref.deal(deck, rules)
    pos = t.start()
    for _ in range(MAX_STEPS):
        keymap.see(s, pos)
        core_moves = check_position(t, pos, s, stats)
        stats["positions"] += 1
        if rng.random() < 0.2:
            check_illegal(t, pos, core_moves.values(), rng)
        moves = _sorted_moves(core_moves)
        if not moves:
            return
        if len(moves) >= 2 and rng.random() < 0.3:
            _transpose(t, pos, s, moves, rng, stats, keymap)
        m = pick_move(moves, rng, p_remove)
        pos = t.apply(pos, core_moves[m])
        s = ref.apply(s, m)
    keymap.see(s, pos)
    check_position(t, pos, s, stats)


def _transpose(t, pos, s, moves, rng, stats, keymap) -> None:
    """Two moves in both orders: the words must be equal exactly when the states are."""
    m1, m2 = rng.sample(moves, 2)
    ends = []
    for first, second in ((m1, m2), (m2, m1)):
        s1 = ref.apply(s, first)
        p1 = t.apply(pos, core_move_code(t, pos, first))
        if second not in ref.legal_moves(s1):
            return
        s2 = ref.apply(s1, second)
        p2 = t.apply(p1, core_move_code(t, p1, second))
        check_position(t, p2, s2, Counter())
        keymap.see(s2, p2)
        ends.append((s2.key(), p2))
    (k12, p12), (k21, p21) = ends
    assert (k12 == k21) == (p12 == p21)
    stats["transpositions"] += 1


def core_move_code(t: Table, pos: int, move) -> int:
    for c in t.moves(pos):
        if core_move(t, c) == move:
            return c
    raise AssertionError(f"core lacks the move {move!r}")


# What every rule set's playouts must have met, so that the comparison means something.
def expected_coverage(rules: Rules) -> list:
    need = [
        "draw",
        "king-pyramid",
        "king-talon",
        "pair-pyramid",
        "pair-pyramid-talon",
        ("status", ref.PLAYING),
        ("status", ref.WON),
    ]
    if rules.redeals != 0:
        need.append("recycle")
    if rules.redeals != UNLIMITED:
        need.append(("status", ref.NO_MOVES))
    if rules.draw == 3:
        need.append("pair-pile-tops")
    if rules.stock_top_playable:
        need += ["stock-top", "pair-talon-stock"]
    if rules.pair_waste_top_two:
        need.append("pair-waste-two")
    if rules.pair_with_covering:
        need.append("pair-covering")
    return need


@pytest.mark.parametrize("name", list(CONFIGS))
def test_core_matches_reference(name):
    rules = CONFIGS[name]
    rng = random.Random(zlib.crc32(name.encode()))
    stats = Counter()
    deals = [("random", random_deck(rng)) for _ in range(N_RANDOM_DEALS)]
    deals += [("easy", easy_deck(rng)) for _ in range(N_EASY_DEALS)]
    transpositions_seen = 0
    for kind, deck in deals:
        keymap = KeyMap()  # one deal under one rule set: one game's positions
        for _ in range(PLAYOUTS_PER_DEAL):
            play(rules, deck, rng, stats, keymap, 0.97 if kind == "easy" else 0.75)
        transpositions_seen += keymap.hits
    assert stats["positions"] >= 2000
    missing = [k for k in expected_coverage(rules) if stats[k] == 0]
    assert not missing, f"playouts never met {missing}: {dict(stats)}"
    assert stats["transpositions"] > 100
    assert transpositions_seen > 100


@pytest.mark.parametrize("name", [n for n, r in CONFIGS.items() if r.draw == 1 and r.redeals])
def test_full_pass_and_recycle(name):
    """Draw the whole stock, recycle, redraw the dealt waste card: back at the deal's state
    (same word) under unlimited redeals; a different state (one recycle used) otherwise."""
    rules = CONFIGS[name]
    deck = random_deck(random.Random(7))
    t = Table(deck, **rules.kwargs())
    s = ref.deal(deck, rules)
    pos = start = t.start()
    while s.stock:
        pos, s = t.apply(pos, DRAW_CODE), ref.apply(s, ref.DRAW)
    assert ref.DRAW not in ref.legal_moves(s) and DRAW_CODE not in t.moves(pos)
    pos, s = t.apply(pos, RECYCLE_CODE), ref.apply(s, ref.RECYCLE)
    for _ in range(rules.waste_at_deal):
        pos, s = t.apply(pos, DRAW_CODE), ref.apply(s, ref.DRAW)
    check_position(t, pos, s, Counter())
    same = s.key() == ref.deal(deck, rules).key()
    assert same == (rules.redeals == UNLIMITED)
    assert (pos == start) == same


@pytest.mark.parametrize("name", [n for n, r in CONFIGS.items() if r.redeals != UNLIMITED])
def test_recycles_run_out(name):
    """With finite redeals, only drawing: exactly `redeals` recycles, then no moves at all
    (unless a removal happens to be available, which the status must then reflect)."""
    rules = CONFIGS[name]
    deck = random_deck(random.Random(11))
    t = Table(deck, **rules.kwargs())
    s = ref.deal(deck, rules)
    pos = t.start()
    recycles = 0
    while True:
        codes = t.moves(pos)
        if DRAW_CODE in codes:
            pos, s = t.apply(pos, DRAW_CODE), ref.apply(s, ref.DRAW)
        elif RECYCLE_CODE in codes:
            pos, s = t.apply(pos, RECYCLE_CODE), ref.apply(s, ref.RECYCLE)
            recycles += 1
        else:
            break
        check_position(t, pos, s, Counter())
    assert recycles == rules.redeals
    assert Table.recycles(pos) == rules.redeals
    with pytest.raises(ValueError):
        t.apply(pos, RECYCLE_CODE)
