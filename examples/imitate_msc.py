"""A learned agent that plays msc Pyramid from what a player sees, above the greedy policy:
imitation of the hindsight policy (docs/fair.md), in numpy.

The network scores each legal move from its own features (a small MLP shared by all moves,
a masked softmax over the legal ones), so what it learns about one pair carries over to
every pair. It reads the ``visible`` observation only: cards never turned face up are
unknown to it. Two of its features are the core's opinions of that observation, which never
peek either: the built-in greedy policy's move (``batch.greedy_actions``) and which moves
the free-talon relaxation does not prove lost (``batch.viable_actions``). The teacher is the
hindsight policy (``GameBatch.fair_counts``); training is DAgger: first games where the
teacher or greedy moves, then rounds in which the student plays and the teacher labels the
positions the student reaches.

    OPENBLAS_NUM_THREADS=1 python examples/imitate_msc.py --out runs/imitate     # ~25 min
    python examples/imitate_msc.py --quick --out /tmp/quick                      # ~15 s
    python examples/imitate_msc.py --play examples/weights/imitate_msc.npz --out runs/play

It writes ``results.json`` (win rates with 95% intervals of the learned policy, greedy,
greedy with the viability check, random and perfect play on the same held-out deals),
``learning_curve.png`` and the weights ``weights.npz``; ``--play FILE`` evaluates a weights
file without training. examples/README.md has what it reaches. Deals: training from
100,000,000, validation from 20,000,000, test from 10,000,000 (the fair table's held-out
deals).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
from typing import Any

import numpy as np

from pyramid_solitaire import GameBatch, Hindsight, simulate
from pyramid_solitaire.batch import greedy_actions, viable_actions

RULES = "msc"
TRAIN_FIRST, VALID_FIRST, TEST_FIRST = 100_000_000, 20_000_000, 10_000_000

# ---- the action table and the pyramid's geometry --------------------------------------------

N_ACTIONS = 102
DRAW, RECYCLE = 100, 101


def _action_cards() -> np.ndarray:
    """(102, 2) card indices of each action (the King twice; -1 for draw and recycle): as
    pyramid_solitaire.batch numbers them (0..3 Kings, then the pairs low card first)."""
    from pyramid_solitaire.batch import action_move

    out = np.full((N_ACTIONS, 2), -1, np.int64)
    for a in range(100):
        cards = [int(c) for c in action_move(a).cards]
        out[a] = cards * 2 if len(cards) == 1 else cards
    return out


ACTION_CARDS = _action_cards()
ROW = np.array([r for r in range(7) for _ in range(r + 1)])
COL = np.array([c for r in range(7) for c in range(r + 1)])
# the two cards covering place p (row r + 1), -1 on the bottom row; the cards p covers
COVERERS = np.array([[p + r + 1, p + r + 2] if r < 6 else [-1, -1] for p, r in enumerate(ROW)])
PARENTS = np.array(
    [
        [p - r - 1 if c >= 1 else -1, p - r if c <= r - 1 else -1]
        for p, (r, c) in enumerate(zip(ROW, COL))
    ]
)
# BLOCKS[p, q]: q lies above p and p covers it, directly or not
BLOCKS = np.array(
    [
        [ROW[q] < ROW[p] and COL[q] <= COL[p] <= COL[q] + ROW[p] - ROW[q] for q in range(28)]
        for p in range(28)
    ],
    np.float32,
)

N_FEATURES = 132
VIABLE = 116  # the feature: the move is viable (batch.viable_actions)


def move_features(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, ...]:
    """The legal moves of (m, 109) ``visible`` observations as rows: (game index, action,
    features (rows, N_FEATURES)), rows grouped by game in action order."""
    m = obs.shape[0]
    g, a = np.nonzero(mask)
    greedy = greedy_actions(obs, RULES)  # the built-in greedy's move: a feature of its own
    pyr_card = obs[:, 0:28].astype(np.int64) - 1
    pyr_state = obs[:, 52:80].astype(np.int64)  # 0 removed, 1 covered, 2 free
    tal_card = obs[:, 28:52].astype(np.int64) - 1  # 52: unseen
    tal_state = obs[:, 80:104].astype(np.int64)  # 0 removed, 1 stock, 2 stock top, 3/4 waste
    present = pyr_state > 0
    # each card's place: 0..27 the pyramid, 28 + t the talon, -1 unseen or removed
    loc = np.full((m, 53), -1, np.int64)
    rows = np.arange(m)[:, None]
    loc[rows, np.where(present, pyr_card, 52)] = np.where(present, np.arange(28), -1)
    live = (tal_state > 0) & (tal_card < 52)
    loc[rows, np.where(live, tal_card, 52)] = np.where(live, 28 + np.arange(24), -1)
    loc[:, 52] = -1
    # rank counts (0..12): the pyramid's cards in place; the talon's cards still in play
    # (4 of a rank, less the pyramid's and those removed: a removed card was always seen)
    ranks = np.arange(52) % 13
    pyr_rank = np.zeros((m, 13), np.float32)
    r, j = np.nonzero(present)
    np.add.at(pyr_rank, (r, ranks[pyr_card[r, j]]), 1)
    gone_rank = np.zeros((m, 13), np.float32)
    r, j = np.nonzero(~present)
    np.add.at(gone_rank, (r, ranks[pyr_card[r, j]]), 1)
    r, j = np.nonzero((tal_state == 0) & (tal_card < 52))
    np.add.at(gone_rank, (r, ranks[tal_card[r, j]]), 1)
    tal_rank = 4 - pyr_rank - gone_rank
    # where each rank's cards are: pyramid free, waste, stock (seen), the rest unseen
    free_rank = np.zeros((m, 13), np.float32)
    r, j = np.nonzero(pyr_state == 2)
    np.add.at(free_rank, (r, ranks[pyr_card[r, j]]), 1)
    waste_rank = np.zeros((m, 13), np.float32)
    r, j = np.nonzero((tal_state >= 3) & (tal_card < 52))
    np.add.at(waste_rank, (r, ranks[tal_card[r, j]]), 1)
    stock_rank = np.zeros((m, 13), np.float32)
    r, j = np.nonzero((tal_state > 0) & (tal_state < 3) & (tal_card < 52))
    np.add.at(stock_rank, (r, ranks[tal_card[r, j]]), 1)
    unseen_n = ((tal_state > 0) & (tal_card >= 52)).sum(axis=1)

    c, d = ACTION_CARDS[a, 0], ACTION_CARDS[a, 1]
    card_ok = c >= 0
    lc = np.where(card_ok, loc[g, np.maximum(c, 0)], -1)
    ld = np.where(card_ok, loc[g, np.maximum(d, 0)], -1)
    king = (a < 4).astype(np.float32)
    pair = ((a >= 4) & (a < 100)).astype(np.float32)

    def slot(lx: np.ndarray) -> list[np.ndarray]:
        in_pyr = (lx >= 0) & (lx < 28)
        p = np.where(in_pyr, lx, 0)
        t = np.where(lx >= 28, lx - 28, 0)
        ts = np.where(lx >= 28, tal_state[g, t], 0)
        blocked = (BLOCKS[p] * present[g]).sum(axis=1) * in_pyr
        return [
            in_pyr,
            ROW[p] * in_pyr / 6,
            blocked / 21,
            (ts == 2),
            (ts >= 3),
        ]

    sc, sd = slot(lc), slot(np.where(a < 4, -1, ld))
    # places freed: a place the removed cards cover directly, present, whose two coverers
    # are gone after the move
    out_pyr = [np.where((lx >= 0) & (lx < 28), lx, -1) for lx in (lc, np.where(a < 4, -1, ld))]
    freed = np.zeros(g.size, np.float32)
    cand = np.stack(
        [np.where(x >= 0, PARENTS[np.maximum(x, 0), k], -1) for x in out_pyr for k in (0, 1)], 1
    )
    for k in range(4):
        q = cand[:, k]
        dup = np.zeros(g.size, bool)
        for j in range(k):
            dup |= cand[:, j] == q
        ok = (q >= 0) & ~dup
        qq = np.maximum(q, 0)
        still = present[g, qq] & (pyr_state[g, qq] == 1)
        both = np.ones(g.size, bool)
        for e in (0, 1):
            cov = COVERERS[qq, e]
            both &= (~present[g, cov]) | (cov == out_pyr[0]) | (cov == out_pyr[1])
        freed += ok & still & both
    r_low = np.where(card_ok, c % 13, 0)
    r_high = np.where(card_ok, d % 13, 0)
    took = [(lx >= 0) & (lx < 28) for lx in out_pyr]
    took_t = [lx >= 28 for lx in out_pyr]
    pr_low = pyr_rank[g, r_low] - took[0]
    pr_high = pyr_rank[g, r_high] - np.where(a < 4, 0, took[1])
    tr_low = tal_rank[g, r_low] - took_t[0]
    tr_high = tal_rank[g, r_high] - np.where(a < 4, 0, took_t[1])
    partners_low = pr_high + tr_high  # partners left for the low rank's cards, after
    scarce = (pr_low > partners_low) | (np.where(a < 4, 0, pr_high) > pr_low + tr_low)
    # the whole table by rank: covered, free, waste, stock seen, unseen (13 x 5)
    unseen_rank = tal_rank - waste_rank - stock_rank
    context = (
        np.stack([pyr_rank - free_rank, free_rank, waste_rank, stock_rank, unseen_rank], -1)
        .reshape(m, 65)
        .astype(np.float32)
        / 4
    )
    pyr_left = present.sum(axis=1)
    glob = np.stack(
        [
            pyr_left / 28,
            obs[:, 104] / 24,
            obs[:, 105] / 24,
            obs[:, 107] == 0,
            obs[:, 107] == 1,
            obs[:, 107] == 2,
            unseen_n / 24,
            obs[:, 108],
            mask.sum(axis=1) / 10,
        ],
        axis=1,
    ).astype(np.float32)
    f = np.concatenate(
        [
            np.stack(
                [
                    king,
                    pair,
                    a == DRAW,
                    a == RECYCLE,
                    (took[0].astype(int) + took[1]) / 2,
                    freed / 3,
                    pr_low / 4,
                    pr_high / 4,
                    tr_low / 4,
                    tr_high / 4,
                    scarce,
                    (pr_low + pr_high == 0) & card_ok,
                    a == greedy[g],
                    free_rank[g, r_low] / 4,
                    free_rank[g, r_high] / 4,
                    waste_rank[g, r_low] / 4,
                    waste_rank[g, r_high] / 4,
                    stock_rank[g, r_low] / 4,
                    stock_rank[g, r_high] / 4,
                ]
                + sc
                + sd,
                axis=1,
            ).astype(np.float32),
            np.eye(13, dtype=np.float32)[r_low] * card_ok[:, None],
            glob[g],
            context[g],
        ],
        axis=1,
    )
    viable = viable_actions(obs, RULES)
    n_viable = viable.sum(axis=1)
    greedy_viable = viable[np.arange(m), np.clip(greedy, 0, N_ACTIONS - 1)] & (greedy >= 0)
    proofs = np.stack(
        [viable[g, a], n_viable[g] / 5, greedy_viable[g], n_viable[g] == 0], axis=1
    ).astype(np.float32)
    return g, a, np.concatenate([f, proofs, _talon_tops(obs, free_rank, pyr_rank, tal_rank)[g]], 1)


def _talon_tops(
    obs: np.ndarray, free_rank: np.ndarray, pyr_rank: np.ndarray, tal_rank: np.ndarray
) -> np.ndarray:
    """(m, 12): for the waste top, then the stock top: there is one; its partners among
    the free and the covered pyramid cards, and in the talon; the pyramid's cards of its
    rank, and the free ones."""
    m = obs.shape[0]
    rows = np.arange(m)
    tal_card = obs[:, 28:52].astype(np.int64) - 1
    tal_state = obs[:, 80:104].astype(np.int64)
    out = []
    for state in (4, 2):  # the waste top, the stock top (the observation's talon states)
        has = (tal_state == state) & (tal_card < 52)
        there = has.any(axis=1)
        rank = np.where(there, tal_card[rows, np.argmax(has, axis=1)] % 13, 0)
        partner = np.clip(11 - rank, 0, 12)  # ranks 0..12: a pair's ranks sum to 11
        pairs = there & (rank < 12)  # (a King has no partner)
        out += [
            there,
            pairs * free_rank[rows, partner] / 4,
            pairs * (pyr_rank[rows, partner] - free_rank[rows, partner]) / 4,
            pairs * tal_rank[rows, partner] / 4,
            there * pyr_rank[rows, rank] / 4,
            there * free_rank[rows, rank] / 4,
        ]
    return np.stack(out, axis=1).astype(np.float32)


def greedy_viable(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A hand-written baseline for the learned policy: greedy's move, unless the free-talon
    relaxation proves it lost and another move is not (then the first viable King or pair,
    else the draw or the recycle)."""
    m = obs.shape[0]
    viable = viable_actions(obs, RULES)
    greedy = greedy_actions(obs, RULES).astype(np.int64)
    ok = (greedy >= 0) & viable[np.arange(m), np.clip(greedy, 0, N_ACTIONS - 1)]
    other = np.where(viable[:, DRAW], DRAW, np.where(viable[:, RECYCLE], RECYCLE, 0))
    other = np.where(viable[:, :DRAW].any(axis=1), np.argmax(viable[:, :DRAW], axis=1), other)
    out = np.where(~ok & viable.any(axis=1), other, greedy)
    return np.where(out < 0, DRAW, out)


# ---- the network: a move's score from its features -------------------------------------------


class Net:
    """features -> hidden (ReLU) -> hidden (ReLU) -> a score; softmax over a game's moves."""

    def __init__(self, hidden: int = 64, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.p = {
            "w1": rng.normal(0, (2 / N_FEATURES) ** 0.5, (N_FEATURES, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": rng.normal(0, (2 / hidden) ** 0.5, (hidden, hidden)).astype(np.float32),
            "b2": np.zeros(hidden, np.float32),
            "w3": rng.normal(0, (1 / hidden) ** 0.5, (hidden, 1)).astype(np.float32),
            "b3": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, tuple]:
        p = self.p
        z1 = x @ p["w1"] + p["b1"]
        h1 = np.maximum(z1, 0)
        z2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(z2, 0)
        return (h2 @ p["w3"] + p["b3"])[:, 0], (x, z1, h1, z2, h2)

    def step(self, x: np.ndarray, starts: np.ndarray, target: np.ndarray, lr: float) -> float:
        """One Adam step on the cross-entropy to the target probabilities (target: each
        row's; starts: the first row of each game's group of rows)."""
        s, (x, z1, h1, z2, h2) = self.forward(x)
        seg = np.repeat(np.arange(starts.size), np.diff(np.append(starts, s.size)))
        smax = np.maximum.reduceat(s, starts)
        e = np.exp(s - smax[seg])
        prob = e / np.add.reduceat(e, starts)[seg]
        loss = float(-(target * np.log(prob + 1e-12)).sum() / starts.size)
        ds = (prob - target) / starts.size
        p = self.p
        grads = {"w3": h2.T @ ds[:, None], "b3": np.array([ds.sum()], np.float32)}
        dz2 = (ds[:, None] @ p["w3"].T) * (z2 > 0)
        grads.update(w2=h1.T @ dz2, b2=dz2.sum(axis=0))
        dz1 = (dz2 @ p["w2"].T) * (z1 > 0)
        grads.update(w1=x.T @ dz1, b1=dz1.sum(axis=0))
        self.t += 1
        for k, gr in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * gr
            self.v[k] = 0.999 * self.v[k] + 0.001 * gr * gr
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        return float(loss)

    def save(self, path: pathlib.Path) -> None:
        np.savez_compressed(path, **self.p)

    @classmethod
    def load(cls, path: pathlib.Path) -> Net:
        with np.load(path) as data:
            net = cls(hidden=data["b1"].size)
            net.p = {k: data[k].astype(np.float32) for k in net.p}
        return net

    def policy(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The argmax move of each game (for ``simulate(policy=...)``)."""
        g, a, f = move_features(obs, mask)
        s, _ = self.forward(f)
        order = np.lexsort((-s, g))  # by game, best first
        first = np.ones(order.size, bool)
        first[1:] = g[order][1:] != g[order][:-1]
        out = np.full(obs.shape[0], DRAW, np.int64)
        out[g[order][first]] = a[order][first]
        return out


# ---- data: the teacher's labels where the student (or the teacher) goes ----------------------


def collect(
    net: Net | None,
    games: int,
    first: int,
    teacher: Hindsight,
    threads: int | None,
    rng: Any,
) -> tuple[np.ndarray, ...]:
    """Play deals first .. first + games - 1 to the end and return (obs, mask, the teacher's
    action, greedy's action, the completions the teacher used: 0 where nothing is hidden) at
    every position with a choice. The moves played: the student's argmax, or, when net is
    None, at each move the teacher's or greedy's with even odds (the teacher's own games
    and the states greedy leads to)."""
    batch = GameBatch(games, rules=RULES, deals=np.arange(first, first + games), threads=threads)
    obs, mask = batch.reset()
    kept: list[tuple[np.ndarray, ...]] = []
    done = np.zeros(games, bool)
    while not done.all():
        told = batch.fair_counts(teacher, threads=threads)
        label = told["action"].astype(np.int64)
        greedy = greedy_actions(obs, RULES).astype(np.int64)
        choice = ~done & (mask.sum(axis=1) > 1) & (label >= 0)
        kept.append(tuple(x[choice].copy() for x in (obs, mask, label, greedy, told["used"])))
        if net is None:
            act = np.where(rng.random(games) < 0.5, label, greedy)
        else:
            act = net.policy(obs, mask)
        act = np.where(mask[np.arange(games), np.clip(act, 0, N_ACTIONS - 1)], act, DRAW)
        act[done] = DRAW
        obs, mask, _, term, trunc = batch.step(np.clip(act, 0, N_ACTIONS - 1))
        done |= term | trunc
    batch.close()
    return tuple(np.concatenate(x) for x in zip(*kept))


def as_rows(
    obs: np.ndarray,
    mask: np.ndarray,
    label: np.ndarray,
    greedy: np.ndarray,
    used: np.ndarray,
    share: float,
) -> tuple[np.ndarray, ...]:
    """Training rows: features, groups, and each row's target probability: 1 for the
    teacher's move; except where nothing is hidden (the teacher plays the solver's move, one
    of the winning moves chosen by no rule a player could learn) and greedy's move is viable
    but not the teacher's: there greedy's move gets ``share`` and the teacher's 1 - share."""
    g, a, f = move_features(obs, mask)
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    target = (a == label[g]).astype(np.float32)
    viable_greedy = np.zeros(obs.shape[0], bool)
    viable_greedy[g[(a == greedy[g]) & (f[:, VIABLE] > 0)]] = True
    split = (used == 0) & (greedy != label) & viable_greedy
    target = np.where(
        split[g], np.where(a == label[g], 1 - share, np.where(a == greedy[g], share, 0)), target
    )
    return f, starts, target.astype(np.float32)


def train(
    net: Net,
    data: list,
    epochs: int,
    batch: int,
    lr: float,
    share: float,
    rng: Any,
    after_epoch: Any = None,
) -> float:
    """Minibatch Adam on the cross-entropy, the learning rate from lr down to lr / 10;
    ``after_epoch(epoch, loss)`` after each epoch."""
    obs, mask, label, greedy, used = (np.concatenate([d[k] for d in data]) for k in range(5))
    loss = 0.0
    for epoch in range(epochs):
        rate = lr * (1 - 0.9 * epoch / max(epochs - 1, 1))
        order = rng.permutation(obs.shape[0])
        for lo in range(0, order.size, batch):
            idx = np.sort(order[lo : lo + batch])
            f, starts, target = as_rows(
                obs[idx], mask[idx], label[idx], greedy[idx], used[idx], share
            )
            loss = net.step(f, starts, target, rate)
        if after_epoch is not None:
            after_epoch(epoch, loss)
    return loss


def evaluate(fn: Any, games: int, first: int) -> dict[str, Any]:
    r = simulate(games, start=first, rules=RULES, policy=fn, observation="visible", seed=0)
    return {"win_rate": r.win_rate, "ci95": list(r.ci95), "games": games}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run (~15 s)")
    ap.add_argument("--out", type=pathlib.Path, default=pathlib.Path("runs/imitate"))
    ap.add_argument("--play", type=pathlib.Path, help="evaluate these weights, no training")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=32_000, help="teacher-or-greedy games first")
    ap.add_argument("--rounds", type=int, default=1, help="DAgger rounds")
    ap.add_argument("--round-games", type=int, default=16_000)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--minibatch", type=int, default=512)
    ap.add_argument(
        "--share", type=float, default=0.7, help="greedy's share of the target (as_rows)"
    )
    ap.add_argument("--samples", type=int, default=32, help="the teacher's completions")
    ap.add_argument("--eval-games", type=int, default=20_000)
    ap.add_argument("--valid-games", type=int, default=2_000)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args(argv)
    if a.quick:
        a.games, a.rounds, a.round_games, a.epochs = 120, 1, 80, 1
        a.eval_games, a.valid_games, a.samples = 200, 100, 4
    a.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(a.seed)
    teacher = Hindsight(samples=a.samples)
    curve: dict[str, list[float]] = {
        "round": [],
        "epoch": [],
        "positions": [],
        "valid": [],
        "seconds": [],
    }
    t0 = time.perf_counter()
    if a.play is None:
        net = Net(a.hidden, a.seed)
        data = [collect(None, a.games, TRAIN_FIRST, teacher, a.threads, rng)]
        next_deal = TRAIN_FIRST + a.games
        for k in range(a.rounds + 1):
            n = sum(d[0].shape[0] for d in data)

            def point(epoch: int, loss: float, k: int = k, n: int = n) -> None:
                valid = evaluate(net.policy, a.valid_games, VALID_FIRST)["win_rate"]
                now = time.perf_counter() - t0
                for key, value in zip(curve, (k, epoch + 1, n, valid, now)):
                    curve[key].append(value)
                print(
                    f"round {k} epoch {epoch + 1}: {n:,} positions, loss {loss:.3f}, "
                    f"validation win rate {valid:.2%} ({now:.0f} s)",
                    flush=True,
                )

            train(net, data, a.epochs, a.minibatch, a.lr, a.share, rng, point)
            if k < a.rounds:  # the student plays, the teacher labels where it went
                data.append(collect(net, a.round_games, next_deal, teacher, a.threads, rng))
                next_deal += a.round_games
        net.save(a.out / "weights.npz")
    else:
        net = Net.load(a.play)
    train_seconds = time.perf_counter() - t0
    results: dict[str, Any] = {
        "learned": evaluate(net.policy, a.eval_games, TEST_FIRST),
        "greedy": evaluate("greedy", a.eval_games, TEST_FIRST),
        "greedy_viable": evaluate(greedy_viable, a.eval_games, TEST_FIRST),
        "random": evaluate("random", a.eval_games, TEST_FIRST),
        "train_seconds": train_seconds,
        "valid_baselines": {
            name: evaluate(fn, a.valid_games, VALID_FIRST)["win_rate"]
            for name, fn in (("greedy", "greedy"), ("greedy_viable", greedy_viable))
        },
        "curve": curve,
        "args": {k: str(v) for k, v in vars(a).items()},
    }
    s = simulate(a.eval_games, start=TEST_FIRST, rules=RULES, policy="solver")
    results["perfect"] = {"win_rate": s.win_rate, "ci95": list(s.ci95), "games": s.games}
    (a.out / "results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    for name in ("learned", "greedy_viable", "greedy", "random", "perfect"):
        r = results[name]
        lo, hi = r["ci95"]
        print(f"{name:13s} {r['win_rate']:7.2%}  ({lo:.2%} .. {hi:.2%}) of {r['games']:,} deals")
    if curve["round"]:
        plot(curve, results, a.out / "learning_curve.png")


def plot(curve: dict[str, list[float]], results: dict[str, Any], path: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    steps = np.arange(1, len(curve["valid"]) + 1)
    ax.plot(steps, [100 * v for v in curve["valid"]], "o-", label="learned")
    for name, style in (("greedy_viable", "-."), ("greedy", "--")):
        ax.axhline(100 * results["valid_baselines"][name], ls=style, color="grey", label=name)
    ax.set_xlabel("epoch (DAgger rounds one after the other)")
    ax.set_ylabel("validation win rate, %")
    ax.set_title("msc: imitation of the hindsight policy (DAgger)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    main(sys.argv[1:])
