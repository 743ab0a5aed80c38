"""A hypothesis state machine: a GameBatch driven by legal and illegal actions and partial
resets must stay, game by game, what a `Game` given the same moves is (its mask, its full
observation, its position), and an ended game must keep its end."""

from __future__ import annotations

import os
import sys

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from pyramid_solitaire import Game, Rules
from pyramid_solitaire.batch import GameBatch, action_id, action_move

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_batch import reference_obs  # noqa: E402

N = 3
RULES = [Rules.preset(n) for n in ("msc", "pyramide", "classic-draw3", "three-pass")] + [
    Rules.preset("unlimited").replace(pair_with_covering=True),
    Rules.preset("msc").replace(pair_waste_top_two=True, win="all"),
]


class BatchMachine(RuleBasedStateMachine):
    @initialize(rules=st.sampled_from(RULES), seed=st.integers(0, 2**40))
    def start(self, rules, seed):
        self.b = GameBatch(N, rules, seed=seed, illegal="ignore", observation="full", max_steps=400)
        self.b.reset()
        self.games = [self.b.deal(i) for i in range(N)]
        self.games = [Game(d) for d in self.games]
        self.ended = [False] * N

    def _legal(self, i):
        return sorted(action_id(m) for m in self.games[i].legal_moves)

    @rule(data=st.data())
    def step_legal(self, data):
        acts = np.full(N, 100, np.int64)
        for i in range(N):
            legal = self._legal(i)
            if legal and not self.ended[i]:
                acts[i] = data.draw(st.sampled_from(legal))
        before = self.b.obs.copy()
        _, _, reward, term, trunc = self.b.step(acts)
        for i in range(N):
            if self.ended[i]:
                assert reward[i] == 0 and (term[i] or trunc[i])
                np.testing.assert_array_equal(self.b.obs[i], before[i])
                continue
            left = self.games[i].pyramid_left
            self.games[i].play(action_move(int(acts[i])))
            assert reward[i] == left - self.games[i].pyramid_left
            assert term[i] == self.games[i].is_over
            self.ended[i] = bool(term[i] or trunc[i])

    @rule(i=st.integers(0, N - 1), data=st.data())
    def step_illegal(self, i, data):
        if self.ended[i]:
            return
        illegal = sorted(set(range(102)) - set(self._legal(i)))
        acts = np.full(N, 100, np.int64)
        for j in range(N):
            legal = self._legal(j)
            if j != i and legal and not self.ended[j]:
                acts[j] = legal[0]
        acts[i] = data.draw(st.sampled_from(illegal))
        before = self.b.obs[i].copy()
        self.b.step(acts)
        assert self.b.illegal[i] and self.b.reward[i] == 0
        np.testing.assert_array_equal(self.b.obs[i], before)
        for j in range(N):
            if j != i and not self.ended[j]:
                self.games[j].play(action_move(int(acts[j])))
                self.ended[j] = bool(self.b.terminated[j] or self.b.truncated[j])
        self.ended[i] = bool(self.b.truncated[i])  # (the step limit may end it)

    @rule(which=st.lists(st.booleans(), min_size=N, max_size=N))
    def reset_some(self, which):
        if not any(which):
            return
        self.b.reset(np.array(which))
        for i in range(N):
            if which[i]:
                self.games[i] = Game(self.b.deal(i))
                self.ended[i] = False

    @invariant()
    def agrees_with_game(self):
        if not hasattr(self, "b"):
            return
        for i in range(N):
            g = self.games[i]
            assert g.position == int(self.b.positions[i])
            if self.ended[i]:
                continue
            assert set(np.flatnonzero(self.b.mask[i])) == set(self._legal(i))
            np.testing.assert_array_equal(self.b.obs[i, :108], reference_obs(g, set(), False)[:108])


TestBatchMachine = BatchMachine.TestCase
TestBatchMachine.settings = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
