"""Late positions of random games (few pyramid cards left), each mirrored on the pure-Python
reference model (tests/reference.py), and the exact answers of plain exhaustive search over the
reference's states: what the solver's tests (test_solver_bruteforce.py, test_shortcuts.py and
the dummy option's check) hold the solver to. It imports no test hook of the core."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator

from pyramid_solitaire import Game, Rules
from pyramid_solitaire.solver import solve

import reference as ref

RULE_SETS = {
    **{name: Rules.preset(name) for name in Rules.preset_names()},
    "win-all": Rules(waste_at_deal=0, redeals=1, win="all", stock_top_playable=True),
    "win-all-unlimited": Rules(waste_at_deal=0, win="all"),
    "pair-waste-top-two": Rules(waste_at_deal=0, redeals=1, pair_waste_top_two=True),
    "pair-with-covering": Rules(pair_with_covering=True),
    "covering-finite": Rules(waste_at_deal=0, redeals=1, pair_with_covering=True),
    "stock-top-unlimited": Rules(waste_at_deal=0, stock_top_playable=True),
    "draw3-waste": Rules(waste_at_deal=1, draw=3, redeals=0),
    # one pass: the waste comes back from the top only, each card with a partner of its own
    # (reachable_talon's count), with and without the stock top in play
    "one-pass": Rules(waste_at_deal=0, redeals=0),
    "one-pass-stock-top": Rules(redeals=0, stock_top_playable=True),
    "two-passes-stock-top": Rules(redeals=1, stock_top_playable=True),
}
CAP = 30_000  # reference states; positions with more are skipped


def ref_rules(rules: Rules) -> ref.Rules:
    o = rules.core_options()
    return ref.Rules(**{k: (bool(v) if isinstance(v, bool) else v) for k, v in o.items()})


def late_position(rules: Rules, rng: random.Random):
    """Play until at most 8 pyramid cards are left: half the time along a winning line the
    solver found (so that winnable positions come up too), else at random with removals
    preferred."""
    game = Game([int(c) for c in rng.sample(range(52), 52)], rules)
    state = ref.deal([int(c) for c in game.deal.cards], ref_rules(rules))
    line = (solve(game, max_nodes=200_000).moves or []) if rng.random() < 0.5 else []
    for step in range(400):
        if game.is_over or game.pyramid_left <= 8:
            break
        moves = game.legal_moves
        removals = [m for m in moves if m.kind in ("king", "pair")]
        if step < len(line):
            m = line[step]
        else:
            m = rng.choice(removals if removals and rng.random() < 0.85 else moves)
        game.play(m)
        state = ref.apply(state, ref.from_move(m))
    return game, state


def exhaustive(state):
    """(winnable, fewest moves to a win or None, most pyramid cards removed) or None if the
    position has more than CAP states."""
    start_left = len(state.pyramid)
    seen = {state.key(): 0}
    queue = deque([state])
    best_removed, win_depth = 28 - start_left, None
    while queue:
        s = queue.popleft()
        d = seen[s.key()]
        best_removed = max(best_removed, 28 - len(s.pyramid))
        if ref.won(s):
            win_depth = d if win_depth is None else min(win_depth, d)
            continue
        for m in ref.legal_moves(s):
            t = ref.apply(s, m)
            k = t.key()
            if k not in seen:
                seen[k] = d + 1
                if len(seen) > CAP:
                    return None
                queue.append(t)
    return win_depth is not None, win_depth, best_removed


def late_cases(
    rules: Rules, seed: str, tries: int
) -> Iterator[tuple[Game, tuple[bool, int | None, int]]]:
    """Up to ``tries`` late positions under ``rules`` (random, from ``seed``), each game
    still under way and small enough to search to the end, with the exhaustive answers
    (winnable, fewest moves to a win or None, most pyramid cards removed)."""
    rng = random.Random(seed)
    for _ in range(tries):
        game, state = late_position(rules, rng)
        if game.is_over:
            continue
        truth = exhaustive(state)
        if truth is not None:
            yield game, truth
