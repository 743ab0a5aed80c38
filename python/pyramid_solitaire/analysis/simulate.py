"""Monte Carlo simulation: play many deals with a built-in policy (docs/simulation.md).

>>> result = simulate(2000, rules="pyramide", policy="greedy", threads=1)
>>> result.games, result.wins > 1000
(2000, True)
>>> low, high = result.ci95
>>> low < result.win_rate < high
True
>>> replay(int(result.deal[0]), rules="pyramide", policy="greedy")[:2]
[Move('5d+8h'), Move('3h+Td')]

The games are played by the compiled core (``pyramid_core.simulate``) without the GIL, in
chunks shared over a thread pool. Every game depends only on its deal, the rules, the policy
and (for ``random``) the seed, so the arrays are identical whatever the number of threads or
the chunk size, and any game can be replayed move by move with :func:`replay`.

Memory: the per-game arrays cost 14 bytes a game (more under the solver policy);
:func:`memory_needed` says how much a request needs, and a request that cannot fit is refused
before anything is allocated. ``arrays=False`` keeps only running totals (constant memory,
any number of games): what the command line does.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np

from pyramid_core import simulate as _core
from pyramid_core.position import DRAW, NONE
from pyramid_core.shuffle import MAX_DEAL_NUMBER
from pyramid_core.shuffle import decks as _decks

from ..inputs.deals import DealBatch, read_deal, read_deals
from ..model.deal import Deal
from ..model.move import Move
from ..model.rules import Rules
from ..runtime import args as _args
from ..runtime.parallel import CancelEvent, ProgressArg, make_progress, run_chunks
from .fair import Hindsight, coerce_policy
from .intervals import wilson_interval
from .report import histogram_table, pyplot_for, rate_panel

if TYPE_CHECKING:
    from .callable_policy import OwnPolicy

__all__ = ["POLICIES", "SimulationResult", "memory_needed", "replay", "simulate", "wilson_interval"]

#: The built-in policies, by name: the core's playouts, perfect play by the solver, and the
#: hindsight policy, which never looks at the stock (:class:`pyramid_solitaire.fair.Hindsight`).
POLICIES: tuple[str, ...] = tuple(sorted(_core.POLICIES)) + ("solver", "hindsight")
#: The solver policy's default budget per game (seconds); a game it cannot decide within its
#: budget is reported as undecided, never guessed.
SOLVER_MAX_SECONDS = 10.0

_MIN_CHUNK = 4096
_MAX_CHUNK = 1 << 17  # about 0.1 s of games: Ctrl-C is seen between chunks
_BLOCK = 1 << 22  # games per block with arrays=False (about 60 MB)
_SEED_LIMIT = 1 << 64
_FRESH_SEED_BITS = 53  # fresh seeds stay exact in JSON readers (JavaScript)
#: Bytes of the per-game arrays: deal 8, won 1, removed 1, moves 2, score 2.
BYTES_PER_GAME = 14
#: ... and under the solver policy: the masks of decided games and the solver's own rows.
BYTES_PER_SOLVER_GAME = BYTES_PER_GAME + 2 + 27 + 52


def memory_needed(games: int, policy: str = "greedy", arrays: bool = True) -> int:
    """Bytes that :func:`simulate` needs for ``games`` games (its per-game arrays, or a block
    of them with ``arrays=False``)."""
    games = _args.whole("games", games, 1)
    per = BYTES_PER_SOLVER_GAME if _policy(policy) == "solver" else BYTES_PER_GAME
    return per * (games if _args.flag("arrays", arrays) else min(games, _BLOCK))


# ---- validation -------------------------------------------------------------------------------


def _policy(policy: Any) -> str:
    if coerce_policy(policy) is not None:
        return Hindsight.name
    if not isinstance(policy, str):
        raise ValueError(
            f"policy must be a name ({', '.join(POLICIES)}), got {_args.excerpt(policy)}"
        )
    name = policy.strip().lower()
    if name not in POLICIES:
        raise ValueError(
            f"unknown policy {_args.excerpt(policy)}: expected one of {', '.join(POLICIES)}"
        )
    return name


def _seed(seed: Any, policy: str) -> int | None:
    """The seed to keep: the given one, a fresh one for ``random``, 0 for ``hindsight`` (its
    completions' key), else None (unused)."""
    if seed is None:
        if policy == Hindsight.name:
            return 0
        return secrets.randbits(_FRESH_SEED_BITS) if policy == "random" else None
    return _args.whole("seed", seed, 0, _SEED_LIMIT - 1)


def _start(start: Any, rules: Rules | None) -> tuple[int, Rules]:
    """``start`` as a deal number, or a deal code whose letter names the rules."""
    if isinstance(start, str) and start.strip().upper().startswith("PY"):
        deal = read_deal(start.strip(), rules)
        assert deal.number is not None and deal.rules is not None  # (a code: a numbered deal)
        return deal.number, deal.rules
    return _args.whole("start", start, 0, MAX_DEAL_NUMBER), rules or Rules()


# ---- statistics -------------------------------------------------------------------------------


@dataclass
class Totals:
    """Running totals of a simulation: what its summary is made of."""

    games: int = 0
    wins: int = 0
    decided: int = 0  # games whose win or loss is settled (all but the solver's undecided)
    known: int = 0  # games whose removed count is settled
    histogram: np.ndarray = field(default_factory=lambda: np.zeros(29, np.int64))
    removed_sum: int = 0  # over the known games
    moves_sum: int = 0
    score_sum: int = 0

    @classmethod
    def of(
        cls,
        won: np.ndarray,
        removed: np.ndarray,
        moves: np.ndarray,
        score: np.ndarray,
        decided: np.ndarray | None = None,
        known: np.ndarray | None = None,
    ) -> Totals:
        decided = np.ones(won.size, np.bool_) if decided is None else decided
        known = decided if known is None else known
        return cls(
            games=int(won.size),
            wins=int(np.count_nonzero(won)),
            decided=int(np.count_nonzero(decided)),
            known=int(np.count_nonzero(known)),
            histogram=np.bincount(removed[known], minlength=29)[:29].astype(np.int64),
            removed_sum=int(removed[known].sum(dtype=np.int64)),
            moves_sum=int(moves[known].sum(dtype=np.int64)),
            score_sum=int(score[known].sum(dtype=np.int64)),
        )

    def add(self, other: Totals) -> None:
        for name in ("games", "wins", "decided", "known", "removed_sum", "moves_sum", "score_sum"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.histogram = self.histogram + other.histogram

    def mean(self, name: str) -> float | None:
        return getattr(self, f"{name}_sum") / self.known if self.known else None


class _Games(NamedTuple):
    """A result's per-game arrays (see :class:`SimulationResult`)."""

    deal: np.ndarray
    won: np.ndarray
    removed: np.ndarray
    moves: np.ndarray
    score: np.ndarray
    decided: np.ndarray
    removed_known: np.ndarray
    numbered: np.ndarray


class SimulationResult:
    """Per-game arrays and a summary of a simulation.

    Arrays (one entry per game, in the order the deals were given; None with
    ``arrays=False``): ``deal`` (uint64 deal numbers; a deal given as a card list has its row
    there and False in ``numbered``), ``won`` (bool), ``removed`` (uint8 pyramid cards removed,
    0..28), ``moves`` (uint16: each draw, recycle, King and pair counts one) and ``score``
    (uint16, seed 000's scheme: 10 per pyramid card removed). With the solver policy,
    ``decided`` (bool) is False for games whose win or loss was not settled within the budget
    (left out of the win rate), and ``removed_known`` is False where the most removable cards
    were not settled (left out of the histogram and the means); their other entries are 0.
    """

    def __init__(
        self,
        *,
        policy: str,
        rules: Rules,
        seed: int | None,
        threads: int,
        seconds: float,
        deal: np.ndarray | None = None,
        won: np.ndarray | None = None,
        removed: np.ndarray | None = None,
        moves: np.ndarray | None = None,
        score: np.ndarray | None = None,
        decided: np.ndarray | None = None,
        removed_known: np.ndarray | None = None,
        numbered: np.ndarray | None = None,
        totals: Totals | None = None,
        deals: dict[str, Any] | None = None,
        decks: np.ndarray | None = None,
        simd: str | None = None,
        workers: int | None = None,
        fair: Hindsight | None = None,
        shortest: bool = False,
    ) -> None:
        self.deal, self.won, self.removed, self.moves, self.score = deal, won, removed, moves, score
        self.decided: np.ndarray | None = None
        self.removed_known: np.ndarray | None = None
        self.numbered: np.ndarray | None = None
        if won is not None:
            self.decided = np.ones(won.size, dtype=np.bool_) if decided is None else decided
            self.removed_known = self.decided if removed_known is None else removed_known
            self.numbered = np.ones(won.size, np.bool_) if numbered is None else numbered
        if totals is None:
            if won is None or removed is None or moves is None or score is None:
                raise ValueError("a simulation result needs its totals or its per-game arrays")
            totals = Totals.of(won, removed, moves, score, self.decided, self.removed_known)
        self.totals = totals
        self.policy = policy
        self.rules = rules
        self.seed = seed
        self.threads = threads
        self.seconds = seconds
        self.deals = deals if deals is not None else _span(deal)
        self._decks = decks
        self._own: tuple[Any, dict[str, Any]] | None = None  # a callable policy, its options
        self.simd = simd  # the vector path the playouts ran on (None: the solver)
        self.workers = workers  # the Dask workers it ran on (None: this process)
        self.fair = fair  # the hindsight policy's parameters (None: another policy)
        self.shortest = shortest  # the solver policy's lines were shortest ones

    # ---- summary ----------------------------------------------------------------------------
    @property
    def has_arrays(self) -> bool:
        return self.won is not None

    @property
    def games(self) -> int:
        return self.totals.games

    @property
    def wins(self) -> int:
        return self.totals.wins

    @property
    def undecided(self) -> int:
        """Games the solver policy could not decide within its budget."""
        return self.totals.games - self.totals.decided

    @property
    def win_rate(self) -> float:
        """Wins among the decided games (NaN when none was decided)."""
        return self.wins / self.totals.decided if self.totals.decided else float("nan")

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        decided = self.totals.decided
        return wilson_interval(self.wins, decided) if decided else (float("nan"), float("nan"))

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def histogram(self) -> np.ndarray:
        """How many games removed 0, 1, ..., 28 pyramid cards (29 counts)."""
        return cast(np.ndarray, self.totals.histogram.copy())

    def _arrays(self, what: str) -> _Games:
        """The per-game arrays, or ValueError (naming ``what``) for a result without them."""
        deal, won, removed, moves, score = self.deal, self.won, self.removed, self.moves, self.score
        decided, known, numbered = self.decided, self.removed_known, self.numbered
        if (
            deal is None
            or won is None
            or removed is None
            or moves is None
            or score is None
            or decided is None
            or known is None
            or numbered is None
        ):
            raise ValueError(
                f"{what} needs the per-game arrays; this result keeps totals only "
                "(simulate(..., arrays=False))"
            )
        return _Games(deal, won, removed, moves, score, decided, known, numbered)

    def _deck(self, i: int) -> list[int]:
        """The card indices of game i, a deal given as a card list."""
        assert self._decks is not None  # (kept whenever some deal is a card list)
        return list(self._decks[i].tolist())

    def code(self, i: int) -> str | None:
        """The deal code of game i (under this simulation's rules); None for a card list."""
        a = self._arrays("code(i)")
        i = _args.whole("i", i, -self.games, self.games - 1)
        if not a.numbered[i]:
            return None
        return Deal.from_number(int(a.deal[i]), rules=self.rules).code

    def replay(self, i: int) -> list[Move]:
        """The moves game i played."""
        a = self._arrays("replay(i)")
        i = _args.whole("i", i, -self.games, self.games - 1)
        if self._own is not None:
            return self._replay_own(i, a, *self._own)
        how = {"policy": self._named(), "seed": self.seed, "shortest": self.shortest}
        if a.numbered[i]:
            return replay(int(a.deal[i]), rules=self.rules, **how)
        deal = Deal.from_cards(self._deck(i), rules=self.rules)
        return replay(deal, rules=self.rules, key=int(a.deal[i]), **how)

    def _named(self) -> Any:
        """The built-in policy, with its parameters (a Hindsight) where it has any."""
        return self.fair if self.fair is not None else self.policy

    def _replay_own(self, i: int, a: _Games, fn: Any, opts: dict[str, Any]) -> list[Move]:
        """A callable policy's game i, played again alone; checked against the recorded one
        (a policy that is not a function of its observation cannot be replayed)."""
        from . import callable_policy

        if callable_policy._wants_rng(fn):
            raise ValueError(
                "a policy that draws random numbers (it takes rng) cannot replay "
                "one game alone: its draws depend on the whole batch"
            )
        deal: Any = int(a.deal[i]) if a.numbered[i] else self._deck(i)
        if a.numbered[i]:
            deal = Deal.from_number(deal, rules=self.rules)
        moves = callable_policy.replay(
            fn,
            deal,
            self.rules,
            seed=self.seed,
            observation=opts["observation"],
            deterministic=opts["deterministic"],
            max_steps=opts["max_steps"],
        )
        from ..model.game import Game

        game = Game(deal, self.rules)
        for m in moves:
            game.play(m)
        if (len(moves), game.is_won, game.pyramid_removed) != (
            int(a.moves[i]),
            bool(a.won[i]),
            int(a.removed[i]),
        ):
            raise ValueError(
                f"game {i} plays differently alone ({len(moves)} moves, "
                f"{game.pyramid_removed} cards removed, not {int(a.moves[i])} "
                f"and {int(a.removed[i])}): the policy's choices depend on more "
                "than each game's own observation, so its games cannot be "
                "replayed"
            )
        return moves

    def to_dict(self, arrays: bool = False) -> dict[str, Any]:
        """The summary as JSON-ready data (write it with :func:`pyramid_solitaire.jsonout.dumps`:
        strict JSON); ``arrays=True`` adds the per-game arrays as lists. It describes the run
        completely: the rules with every option, the deals, the policy and its seed (None for
        the policies that use none), so identical runs give identical data apart from
        ``seconds`` and ``games_per_second`` (and, between machines, ``threads`` and
        ``simd``, the vector path: see :func:`simd_path`)."""
        low, high = self.ci95
        t = self.totals
        data: dict[str, Any] = {
            "games": self.games,
            "wins": self.wins,
            "undecided": self.undecided,
            "win_rate": self.win_rate,
            "ci95": [low, high],
            "policy": self.policy,
            **({"policy_params": self.fair.to_dict()} if self.fair is not None else {}),
            **({"shortest": True} if self.shortest else {}),
            "seed": self.seed,
            "rules": self.rules.describe_dict(),
            "deals": self.deals,
            "threads": self.threads,
            "workers": self.workers,
            "simd": self.simd,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "removed_unknown": t.games - t.known,
            "mean_removed": t.mean("removed"),
            "mean_moves": t.mean("moves"),
            "mean_score": t.mean("score"),
            "removed_histogram": {str(k): int(v) for k, v in enumerate(t.histogram) if v},
        }
        if arrays:
            a = self._arrays("to_dict(arrays=True)")
            data.update(
                deal=a.deal.tolist(),
                won=a.won.tolist(),
                removed=a.removed.tolist(),
                moves=a.moves.tolist(),
                score=a.score.tolist(),
            )
        return data

    def to_pandas(self) -> Any:
        """A pandas DataFrame with one row per game in the layout every per-deal result
        shares (:mod:`.layout`: deal, code, rules, policy, won, moves, removed, nodes,
        seconds), then ``score``; the summary is in ``.attrs``. Needs pandas."""
        from .layout import frame

        a = self._arrays("to_pandas()")
        assert self.decided is not None and self.removed_known is not None  # (arrays kept)
        df = frame(
            "SimulationResult.to_pandas()",
            rules=self.rules,
            policy=self.policy if self.fair is None else "hindsight",
            deal=a.deal,
            numbered=a.numbered,
            won=a.won,
            decided=self.decided,
            moves=a.moves,
            moves_known=self.removed_known,  # (the solver's line is known with its cards)
            removed=a.removed,
            removed_known=self.removed_known,
            extra={"score": a.score},
        )
        df.attrs.update(self.to_dict())
        return df

    def plot(self, fig: Any = None) -> Any:
        """A matplotlib figure: the distribution of pyramid cards removed, and the win rate
        with its 95% interval. Needs the ``plot`` extra (matplotlib)."""
        plt = pyplot_for(fig, "SimulationResult.plot()")
        if fig is None:
            fig = plt.figure(figsize=(9, 4))
        ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [4, 1]})
        hist = self.histogram()
        ax1.bar(np.arange(29), hist / self.games * 100, color="#4878a8")
        ax1.set_xlabel("pyramid cards removed")
        ax1.set_ylabel("games (%)")
        ax1.set_xlim(-0.7, 28.7)
        ax1.set_title(
            f"{self.policy} policy, {self.rules.name} rules: {_args.count_of(self.games, 'game')}"
        )
        rate_panel(ax2, self.wins, self.totals.decided)
        fig.tight_layout()
        return fig

    def summary(self) -> str:
        """A few lines for people, with a histogram table of pyramid cards removed."""
        low, high = self.ci95
        t = self.totals
        lines = [
            f"policy {self.policy}, rules {self.rules.describe()}",
            f"games {self.games:,} (deals {_deals_text(self.deals)})"
            + (f", seed {self.seed}" if self.policy == "random" else "")
            + (
                f", {self.fair.samples} samples of {self.fair.max_nodes:,} positions"
                f", seed {self.seed}"
                if self.fair is not None
                else ""
            ),
            (
                f"won {self.wins:,}: {self.win_rate * 100:.2f}% "
                f"(95% interval {low * 100:.2f}% .. {high * 100:.2f}%)"
                if t.decided
                else "no game decided within the budget: no win rate"
            )
            + (
                f"; {self.undecided:,} undecided within the budget (left out)"
                if self.undecided
                else ""
            )
            + (
                f"; most removable cards unknown for {t.games - t.known:,} (left out of the table)"
                if t.known < t.games
                else ""
            ),
            f"{self.games_per_second:,.0f} games/s on "
            + (
                f"{self.workers} Dask worker{'s' if self.workers != 1 else ''}"
                if self.workers
                else f"{self.threads} thread{'s' if self.threads != 1 else ''}"
            )
            + f" ({self.seconds:.2f} s"
            + (f", {_PATH_NAMES.get(self.simd, self.simd)} path)" if self.simd else ")"),
            (
                f"mean pyramid cards removed {t.mean('removed'):.2f}, "
                f"mean moves {t.mean('moves'):.1f}"
                + (" (the won games' lines the shortest)" if self.shortest else "")
                if t.known
                else "no game's pyramid cards removed known"
            ),
            "",
            histogram_table(self.histogram()),
        ]
        return "\n".join(lines)

    def __len__(self) -> int:
        return self.games

    def __repr__(self) -> str:
        low, high = self.ci95
        return (
            f"<SimulationResult {self.policy} {self.rules.name}: {self.games:,} "
            f"game{'s' if self.games != 1 else ''}, "
            f"{self.win_rate * 100:.2f}% won [{low * 100:.2f}%, {high * 100:.2f}%], "
            f"{self.games_per_second:,.0f} games/s>"
        )


def _span(deal: np.ndarray | None) -> dict[str, Any] | None:
    if deal is None or not deal.size:
        return None
    if deal.size == 1 or bool(np.all(np.diff(deal.astype(np.int64)) == 1)):
        return {"count": int(deal.size), "first": int(deal[0]), "last": int(deal[-1])}
    return {"count": int(deal.size)}


def _deals_text(deals: dict[str, Any] | None) -> str:
    if not deals:
        return "none"
    if "first" in deals:
        return f"{deals['first']:,}..{deals['last']:,}"
    return f"{deals['count']:,} given"


# ---- the API ------------------------------------------------------------------------------------


def simulate(
    games: int | None = None,
    *,
    deals: Iterable[Any] | np.ndarray | None = None,
    start: int | str = 0,
    rules: Rules | str | dict[str, Any] | None = None,
    policy: str | Hindsight | OwnPolicy = "greedy",
    seed: int | None = None,
    threads: int | None = None,
    progress: ProgressArg = False,
    cancel: CancelEvent | None = None,
    chunk_size: int | None = None,
    arrays: bool = True,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | str | None = None,
    scheduler: Any = None,
    shard_size: int | None = None,
    observation: str = "visible",
    batch_size: int | None = None,
    deterministic: bool = False,
    max_steps: int | None = None,
    shortest: bool = False,
) -> SimulationResult:
    """Play ``games`` deals numbered ``start``, ``start + 1``, ... (or the given ``deals``)
    with ``policy`` under ``rules`` and return a :class:`SimulationResult`.

    - ``deals``: deal numbers (a list, range or integer array), codes, card lists, Deals or a
      2-D array of decks, checked like everywhere (:mod:`pyramid_solitaire.inputs.deals`).
    - ``start``: a deal number, or a deal code (its letter names the rules).
    - ``rules``: a Rules, preset name or dict; default the codes' rules, else ``pyramide``.
      A code whose letter names other rules than ``rules`` raises.
    - ``policy``: ``"greedy"`` (deterministic heuristic), ``"random"`` (uniform over the
      legal moves; ``seed`` makes it reproducible) or ``"solver"`` (perfect play: a game is
      won when the deal can be won, else it removes the most pyramid cards any line removes;
      ``moves`` is the length of the line the solver found, not the fewest, unless
      ``shortest=True``: then a shortest winning line (A*, slower), within the budget).
    - ``max_nodes``, ``max_seconds`` (default 10), ``max_memory``: the solver policy's budget
      per game. A game it cannot decide within it is *undecided* (``result.decided`` is
      False): counted and reported, left out of the win rate, never guessed.
    - ``seed``: 0 .. 2**64 - 1; None draws a fresh one for ``random`` (below 2**53, kept in
      the result for replays); the other policies use none.
    - ``threads``: None for all cores, n >= 1, or a negative n for cpu_count + 1 + n.
    - ``progress``: True for a progress bar (tqdm), or a callable ``progress(done, total)``;
      ``cancel``: an event (``threading.Event``) that stops the run (:class:`Cancelled`);
      Ctrl-C stops it too (``KeyboardInterrupt``).
    - ``arrays``: False keeps only running totals (constant memory, any number of games);
      True (the default) keeps the per-game arrays, refusing a request they cannot fit in
      (see :func:`memory_needed`).
    - ``chunk_size``: games per task handed to a thread (tuning only; results do not
      depend on it).

    - ``scheduler``: a Dask scheduler's address (``tcp://host:port``) or a
      ``distributed.Client`` (the ``distributed`` extra) to play numbered deals (``games``
      from ``start``) on a cluster: shards of ``shard_size`` deals (default 1,000,000, the
      solver policy 20,000), one task each on a worker's cores, their rows combined as they
      come back; ``workers`` (and ``threads``) of the result then count the workers.

    - ``policy`` may also be your own: a callable ``policy(obs, mask)`` returning one action
      id per game for a batch of games (:mod:`pyramid_solitaire.callable_policy`,
      docs/env.md). Its options: ``observation`` (``"visible"``, the default, or
      ``"full"``), ``batch_size`` (games stepped together, default 1,024),
      ``deterministic`` (True when its choice depends only on the position, the cards and
      where they lie, not on which talon cards have been seen: under unlimited redeals a
      game then ends at a recycle after a pass that removed nothing, as the built-in
      greedy's does) and ``max_steps`` (an episode's step limit, default
      2,000). A callable taking a keyword ``rng`` gets a numpy Generator seeded from
      ``seed``.

    Results are identical whatever ``threads``, ``chunk_size``, ``arrays``, ``scheduler``
    and ``shard_size`` (for a callable policy, whatever ``threads``; a stochastic one's
    also depend on ``batch_size``).
    """
    _Request.one_of(games, deals)
    mode = _Mode.read(
        policy,
        seed,
        scheduler=scheduler,
        shard_size=shard_size,
        budgets=(max_nodes, max_seconds, max_memory),
        own=(observation, batch_size, deterministic, max_steps),
        shortest=shortest,
    )
    n_threads = _args.threads(threads)
    request = _Request.read(
        games, deals, start, rules, _args.flag("arrays", arrays), progress, cancel, mode
    )
    if mode.kind == "own":
        return _simulate_own(mode, request, threads)
    if mode.kind == "cluster":
        return _simulate_on_cluster(mode, request, scheduler, shard_size)
    return _simulate_here(mode, request, n_threads, chunk_size)


@dataclass(frozen=True)
class _Mode:
    """How simulate() plays, read from its arguments in one place: ``kind`` "own" (a
    callable policy, callable_policy.play), "cluster" (a built-in policy on Dask) or "here"
    (a built-in policy on this machine's threads); the policy (a name, or the callable),
    the hindsight policy's record, the seed, the solver policy's budgets (as given) and a
    callable's options."""

    kind: str
    policy: Any
    fair: Hindsight | None
    seed: int | None
    budgets: tuple[Any, Any, Any]
    own_opts: dict[str, Any]
    shortest: bool = False  # the solver policy's lines: shortest ones

    @property
    def memory_policy(self) -> str:
        """The policy whose arrays memory_needed() counts (a callable's: greedy's)."""
        return "greedy" if self.kind == "own" else str(self.policy)

    @classmethod
    def read(
        cls,
        policy: Any,
        seed: Any,
        *,
        scheduler: Any,
        shard_size: Any,
        budgets: tuple[Any, Any, Any],
        own: tuple[str, int | None, bool, int | None],
        shortest: Any = False,
    ) -> _Mode:
        fair = coerce_policy(policy)
        shortest = _args.flag("shortest", shortest)
        if shortest and (not isinstance(policy, str) or _policy(policy) != "solver"):
            raise ValueError("shortest goes with policy 'solver' (its winning lines)")
        own_opts: dict[str, Any] = {}
        if callable(policy) and not isinstance(policy, str) and fair is None:
            from . import callable_policy

            observation, batch_size, deterministic, max_steps = own
            own_opts = callable_policy.check_options(
                observation,
                callable_policy.DEFAULT_BATCH_SIZE if batch_size is None else batch_size,
                deterministic,
                max_steps,
            )
            seed = None if seed is None else _args.whole("seed", seed, 0, _SEED_LIMIT - 1)
            if scheduler is not None or shard_size is not None:
                raise ValueError(
                    "a callable policy runs in this process: scheduler and "
                    "shard_size are for the built-in policies"
                )
            if budgets != (None, None, None):
                raise ValueError(
                    "max_nodes, max_seconds and max_memory are budgets of the solver policy"
                )
            return cls("own", policy, None, seed, budgets, own_opts)
        if own != ("visible", None, False, None):
            raise ValueError(
                "observation, batch_size, deterministic and max_steps go with a "
                "callable policy (policy=your_function)"
            )
        name = _policy(policy)
        seed = _seed(seed, name)
        if name != "solver" and budgets != (None, None, None):
            raise ValueError(
                "max_nodes, max_seconds and max_memory are budgets of the solver "
                "policy; the greedy and random policies take none, and the hindsight "
                "policy's is its own (policy=Hindsight(max_nodes=...))"
            )
        if scheduler is None and shard_size is not None:
            raise ValueError("shard_size goes with scheduler")
        kind = "cluster" if scheduler is not None else "here"
        return cls(kind, name, fair, seed, budgets, own_opts, shortest)


@dataclass(frozen=True)
class _Request:
    """What every mode plays and reports: ``n`` deals (numbered from ``first``, or the
    ``batch`` read from the deals given) under ``rules``, described for the result, with the
    arrays kept or not, a progress report and a cancel event."""

    n: int
    first: int
    batch: DealBatch | None
    rules: Rules
    described: dict[str, Any]
    arrays: bool
    progress: ProgressArg
    cancel: CancelEvent | None

    @staticmethod
    def one_of(games: Any, deals: Any) -> None:
        """simulate() takes games or deals, never both."""
        if (games is None) == (deals is None):
            raise ValueError(
                "simulate takes exactly one of games (a count of deals, played from "
                "deal number start) or deals (the deals to play); got "
                + ("neither: games and deals are None" if games is None else "both")
            )

    @classmethod
    def read(
        cls,
        games: Any,
        deals: Any,
        start: Any,
        rules: Any,
        arrays: bool,
        progress: ProgressArg,
        cancel: CancelEvent | None,
        mode: _Mode,
    ) -> _Request:
        explicit = None if rules is None else Rules.coerce(rules)
        batch: DealBatch | None = None
        if (
            isinstance(deals, range)
            and deals.step == 1
            and 0 <= deals.start < deals.stop
            and start == 0
        ):  # a range of deal numbers is games from its start: no array
            games, start, deals = len(deals), deals.start, None
        if games is not None:
            n = _args.whole("games", games, 1, MAX_DEAL_NUMBER + 1)
            first, played = _start(start, explicit)
            if first + n - 1 > MAX_DEAL_NUMBER:
                raise ValueError(
                    f"games={n:,} from start={first:,} runs past the last deal number "
                    f"{MAX_DEAL_NUMBER:,}"
                )
            described = {"count": n, "first": first, "last": first + n - 1}
        else:
            if not (isinstance(start, int) and start == 0):
                raise ValueError("start goes with games, not with deals")
            if isinstance(deals, (range, np.ndarray)) and np.ndim(deals) and len(deals):
                # the copy read_deals makes: numbers (8 bytes a deal) or decks (52)
                copy = 52 if isinstance(deals, np.ndarray) and deals.ndim == 2 else 8
                _check_fits(len(deals), mode.memory_policy, arrays, extra=copy)
            batch = read_deals(deals, explicit)
            first, played, n = 0, batch.rules, len(batch)
            described = batch.describe()
        _check_fits(n, mode.memory_policy, arrays)
        if mode.kind == "cluster" and batch is not None:
            raise ValueError("a scheduler plays numbered deals: give games (and start), not deals")
        return cls(n, first, batch, played, described, arrays, progress, cancel)


def _simulate_here(mode: _Mode, req: _Request, n_threads: int, chunk_size: Any) -> SimulationResult:
    """simulate() of a built-in policy on this machine's threads."""
    n, policy, fair = req.n, str(mode.policy), mode.fair
    if chunk_size is None:
        chunk = min(_MAX_CHUNK, max(_MIN_CHUNK, n // (n_threads * 16) or 1))
        if policy == "solver":
            chunk = max(1, min(256, n // (n_threads * 8) or 1))
        elif fair is not None:  # some milliseconds a game: short chunks, a live bar
            chunk = max(1, min(32, n // (n_threads * 8) or 1))
    else:  # the playouts see Ctrl-C between chunks: at most _MAX_CHUNK games each
        chunk = _args.whole("chunk_size", chunk_size, 1, 1 << 24)
        chunk = chunk if policy == "solver" else min(chunk, _MAX_CHUNK)
    budgets = None
    if policy == "solver":
        from .solver import _budgets

        max_nodes, max_seconds, max_memory = mode.budgets
        budgets = _budgets(
            max_nodes, SOLVER_MAX_SECONDS if max_seconds is None else max_seconds, max_memory
        )
    batch = req.batch
    play = _Player(
        policy,
        req.rules,
        mode.seed,
        req.first,
        batch,
        n_threads,
        chunk,
        req.cancel,
        budgets,
        fair,
        mode.shortest,
    )
    bar = make_progress(req.progress, n, "games")
    t0 = time.perf_counter()
    totals = Totals()
    kept: dict[str, Any] | None = None
    try:
        block = n if req.arrays else _BLOCK
        for lo in range(0, n, block):
            rows = play(lo, min(n, lo + block), bar)
            totals.add(
                Totals.of(
                    rows["won"],
                    rows["removed"],
                    rows["moves"],
                    rows["score"],
                    rows.get("decided"),
                    rows.get("removed_known"),
                )
            )
            kept = rows if req.arrays else None
    finally:
        bar.close()
    seconds = time.perf_counter() - t0
    kept = kept or {}
    used = min(n_threads, max(1, -(-n // chunk)))  # whatever the blocks
    return SimulationResult(
        policy=policy,
        rules=req.rules,
        seed=mode.seed,
        threads=used,
        seconds=seconds,
        totals=totals,
        deals=req.described,
        simd=play.path(),
        decks=batch.layouts if batch is not None and req.arrays else None,
        numbered=(batch.numbered if batch is not None and req.arrays else None),
        fair=fair,
        shortest=mode.shortest,
        **kept,
    )


def _simulate_own(mode: _Mode, req: _Request, threads: Any) -> SimulationResult:
    """simulate() of a callable policy (callable_policy.play)."""
    from . import callable_policy

    t0 = time.perf_counter()
    fn, n, first, batch, rules, seed = (
        mode.policy,
        req.n,
        req.first,
        req.batch,
        req.rules,
        mode.seed,
    )
    rows = callable_policy.play(
        fn,
        n,
        first,
        batch,
        rules,
        seed=seed,
        threads=threads,
        progress=req.progress,
        cancel=req.cancel,
        **mode.own_opts,
    )
    seconds = time.perf_counter() - t0
    if batch is None:
        deal = np.arange(first, first + n, dtype=np.uint64)
    else:
        deal = np.ascontiguousarray(
            batch.numbers if batch.numbers is not None else batch.keys, np.uint64
        )
    totals = Totals.of(rows["won"], rows["removed"], rows["moves"], rows["score"])
    name = getattr(fn, "__name__", type(fn).__name__)
    kept: dict[str, Any] = dict(deal=deal, **rows) if req.arrays else {}
    result = SimulationResult(
        policy=name,
        rules=rules,
        seed=seed,
        threads=1,
        seconds=seconds,
        totals=totals,
        deals=req.described,
        decks=batch.layouts if batch is not None and req.arrays else None,
        numbered=(batch.numbered if batch is not None and req.arrays else None),
        **kept,
    )
    result._own = (fn, mode.own_opts)
    return result


def _simulate_shard(kwargs: dict[str, Any], lo: int, hi: int) -> dict[str, Any]:
    """One shard of a simulation on a cluster: deals lo .. hi - 1 on the worker's cores."""
    r = simulate(hi - lo, start=lo, **kwargs)
    return {
        "won": r.won,
        "removed": r.removed,
        "moves": r.moves,
        "score": r.score,
        "decided": r.decided,
        "removed_known": r.removed_known,
        "simd": r.simd,
    }


def _simulate_on_cluster(
    mode: _Mode, req: _Request, scheduler: Any, shard_size: Any
) -> SimulationResult:
    """simulate() of a built-in policy on a Dask cluster: shards of numbered deals."""
    from ..runtime.cluster import place, shard_results, shards

    policy, fair, seed, rules, n, first = (
        str(mode.policy),
        mode.fair,
        mode.seed,
        req.rules,
        req.n,
        req.first,
    )
    budget = {
        k: v
        for k, v in zip(("max_nodes", "max_seconds", "max_memory"), mode.budgets)
        if v is not None
    }
    default = 20_000 if policy == "solver" else 2_000 if fair is not None else 1_000_000
    size = _args.whole("shard_size", default if shard_size is None else shard_size, 1, 1 << 30)
    kwargs = dict(rules=rules, policy=fair or policy, seed=seed, **budget)
    if mode.shortest:
        kwargs["shortest"] = True
    parts = shards(n, size)
    rows: dict[str, np.ndarray] = {}
    if req.arrays:
        rows = {
            "deal": np.arange(first, first + n, dtype=np.uint64),
            "won": np.zeros(n, np.bool_),
            "removed": np.zeros(n, np.uint8),
            "moves": np.zeros(n, np.uint16),
            "score": np.zeros(n, np.uint16),
            "decided": np.zeros(n, np.bool_),
            "removed_known": np.zeros(n, np.bool_),
        }
    totals, simd = Totals(), None
    info: dict[str, Any] = {}
    bar = make_progress(req.progress, n, "games")
    t0 = time.perf_counter()
    with shard_results(
        _simulate_shard,
        [(kwargs, first + lo, first + hi) for lo, hi in parts],
        parts,
        bar,
        scheduler,
        info=info,
    ) as results:
        for _, lo, hi, got in results:
            simd = got.pop("simd")
            totals.add(
                Totals.of(
                    got["won"],
                    got["removed"],
                    got["moves"],
                    got["score"],
                    got["decided"],
                    got["removed_known"],
                )
            )
            if req.arrays:
                place(rows, lo, hi, got)
    return SimulationResult(
        policy=policy,
        rules=rules,
        seed=seed,
        threads=info["workers"],
        seconds=time.perf_counter() - t0,
        totals=totals,
        deals=req.described,
        simd=simd,
        workers=info["workers"],
        fair=fair,
        shortest=mode.shortest,
        **cast("dict[str, Any]", rows),
    )


_PATH_NAMES = {
    "avx512": "AVX-512",
    "scalar": "scalar",
}


def simd_path() -> str:
    """The vector path the greedy and random playouts of numbered deals run on here:
    ``"avx512"`` (sixteen games per vector, where the CPU has AVX-512 F, DQ, BW, VL,
    VPOPCNTDQ and CD) or ``"scalar"``. It is resolved once, when the package is imported,
    from the CPU and the environment variable ``PYRAMID_SIMD`` (``auto``, the default: the
    best the CPU has; ``avx512``; ``off``: the scalar path). The games are the same on every
    path; ``SimulationResult.simd`` says which one a run took (explicit layouts, and the
    rarer options pair_waste_top_two and pair_with_covering, always take the scalar one).

    >>> simd_path() in ("avx512", "scalar")
    True
    """
    return _core.simd_path()


def _check_fits(n: int, policy: str, arrays: bool, extra: int = 0) -> None:
    need = memory_needed(n, policy, arrays) + extra * n
    free = _args.available_memory()
    if free is not None and need > free:
        raise ValueError(
            f"simulate of {n:,} games needs about {_args.format_bytes(need)} for "
            f"its per-game arrays, more than the {_args.format_bytes(free)} of "
            "memory available: pass arrays=False to keep only the totals "
            "(constant memory), or ask for fewer games"
        )


class _Player:
    """Plays rows lo..hi-1 of a simulation into fresh arrays (one block)."""

    def __init__(
        self,
        policy: str,
        rules: Rules,
        seed: int | None,
        first: int,
        batch: DealBatch | None,
        threads: int,
        chunk: int,
        cancel: CancelEvent | None,
        budgets: dict[str, Any] | None,
        fair: Hindsight | None = None,
        shortest: bool = False,
    ) -> None:
        self.policy, self.rules, self.first, self.batch = policy, rules, first, batch
        self.fair, self.shortest = fair, shortest
        self.seed = 0 if seed is None else seed
        self.threads, self.chunk, self.cancel, self.budgets = threads, chunk, cancel, budgets

    def path(self) -> str | None:
        """The vector path the games run on (None for the solver and hindsight policies):
        explicit layouts are played one at a time on the scalar path."""
        if self.policy == "solver" or self.fair is not None:
            return None
        if self.batch is not None and self.batch.numbers is None:
            return "scalar"
        return _core.simd_path(_core.POLICIES[self.policy], self.rules.core_options())

    def numbers(self, lo: int, hi: int) -> np.ndarray | None:
        """The deal numbers of rows lo..hi-1, None when some deal has none."""
        if self.batch is None:
            return np.arange(self.first + lo, self.first + hi, dtype=np.uint64)
        return None if self.batch.numbers is None else self.batch.numbers[lo:hi]

    def __call__(self, lo: int, hi: int, bar: Any) -> dict[str, np.ndarray]:
        m = hi - lo
        if self.batch is None:  # deal numbers written chunk by chunk by the workers
            deal = np.empty(m, np.uint64)
        else:
            deal = np.ascontiguousarray(
                self.batch.numbers[lo:hi]
                if self.batch.numbers is not None
                else self.batch.keys[lo:hi],
                np.uint64,
            )
        rows: dict[str, np.ndarray] = dict(
            deal=deal,
            won=np.zeros(m, np.bool_),
            removed=np.zeros(m, np.uint8),
            moves=np.zeros(m, np.uint16),
            score=np.zeros(m, np.uint16),
        )
        if self.policy == "solver":
            self._solver(lo, hi, rows, bar)
            return rows
        if self.fair is not None:
            self._fair(self.fair, lo, hi, rows, bar)
            return rows
        won_u8 = rows["won"].view(np.uint8)
        options = self.rules.core_options()
        code = _core.POLICIES[self.policy]
        if self.batch is None:
            start = self.first + lo

            def work(a: int, b: int, flag: np.ndarray) -> None:
                deal[a:b] = np.arange(start + a, start + b, dtype=np.uint64)
                _core.run(
                    code,
                    options,
                    self.seed,
                    start,
                    None,
                    a,
                    b,
                    won_u8,
                    rows["removed"],
                    rows["moves"],
                    rows["score"],
                )
        elif self.batch.numbers is not None:

            def work(a: int, b: int, flag: np.ndarray) -> None:
                _core.run(
                    code,
                    options,
                    self.seed,
                    0,
                    deal,
                    a,
                    b,
                    won_u8,
                    rows["removed"],
                    rows["moves"],
                    rows["score"],
                )
        else:
            decks = self.batch.decks_of(lo, hi)  # (its layouts: some deal has no number)

            def work(a: int, b: int, flag: np.ndarray) -> None:
                _core.run_decks(
                    code,
                    options,
                    self.seed,
                    decks,
                    deal,
                    a,
                    b,
                    won_u8,
                    rows["removed"],
                    rows["moves"],
                    rows["score"],
                )

        run_chunks(work, m, self.threads, self.chunk, bar, self.cancel, "simulate")
        return rows

    def _fair(
        self, fair: Hindsight, lo: int, hi: int, rows: dict[str, np.ndarray], bar: Any
    ) -> None:
        """The hindsight policy (pyramid_core.fair): numbered deals are shuffled in the core,
        layouts passed as they are."""
        from pyramid_core import fair as _fair_core

        params = fair.params(self.seed)
        options = self.rules.core_options()
        deal, won_u8 = rows["deal"], rows["won"].view(np.uint8)
        decks = None
        if self.batch is None:
            deal[:] = np.arange(self.first + lo, self.first + hi, dtype=np.uint64)
        elif self.batch.numbers is None:
            decks = np.ascontiguousarray(self.batch.decks_of(lo, hi))

        def work(a: int, b: int, flag: np.ndarray) -> None:
            _fair_core.run(
                params,
                options,
                0,
                None if decks is not None else deal,
                decks,
                a,
                b,
                won_u8,
                rows["removed"],
                rows["moves"],
                rows["score"],
                cancel=flag,
            )

        run_chunks(work, hi - lo, self.threads, self.chunk, bar, self.cancel, "simulate")

    def _solver(self, lo: int, hi: int, rows: dict[str, np.ndarray], bar: Any) -> None:
        """Perfect play: each deal decided by the solver; a lost one removes the most pyramid
        cards any line removes. Decks are shuffled chunk by chunk."""
        from pyramid_core import solver as _solver_core

        from .solver import _solve_rows

        def decks_of(a: int, b: int) -> np.ndarray:
            numbers = self.numbers(lo + a, lo + b)
            if numbers is None:  # (a batch with layouts: some deal has no number)
                assert self.batch is not None
                return self.batch.decks_of(lo + a, lo + b)
            if self.batch is None:
                rows["deal"][a:b] = numbers
            out = np.empty((b - a, 52), dtype=np.uint8)
            _decks(np.ascontiguousarray(numbers), out)
            return out

        b = self.budgets
        assert b is not None  # (the solver policy's budgets)
        out = _solve_rows(
            decks_of,
            hi - lo,
            self.rules,
            _solver_core.OBJECTIVES["min_moves" if self.shortest else "any"],
            True,
            b,
            self.threads,
            self.chunk,
            bar,
            self.cancel,
            "simulate",
        )
        decided = out["winnable"] >= 0
        known = decided & (out["max_removed"] >= 0)
        rows["won"][:] = out["winnable"] == 1
        rows["removed"][:] = np.where(known, out["max_removed"], 0)
        rows["moves"][:] = np.where(known, np.maximum(out["n_moves"], 0), 0)
        rows["score"][:] = 10 * rows["removed"].astype(np.uint16)
        rows["decided"], rows["removed_known"] = decided, known


def replay(
    deal: int | str | Deal,
    rules: Rules | str | None = None,
    policy: str | Hindsight = "greedy",
    seed: int | None = None,
    key: int | None = None,
    shortest: bool = False,
) -> list[Move]:
    """The moves ``policy`` plays on ``deal`` (a deal number, a deal code, a :class:`Deal` or
    a card list), exactly as in :func:`simulate` with the same rules and seed. ``rules``
    defaults to the code's rules, else ``pyramide``; the ``random`` policy needs the seed of
    the simulation (``result.seed``), and for a deal given as a card list its row in the
    simulated batch (``key``; ``result.replay(i)`` knows both). ``shortest``: the solver
    policy's shortest winning line (as ``simulate(..., shortest=True)`` plays)."""
    deal = read_deal(deal, rules)
    shortest = _args.flag("shortest", shortest)
    assert deal.rules is not None  # (read_deal resolves the rules)
    rules = deal.rules
    fair = coerce_policy(policy)
    policy = _policy(policy)
    if shortest and (fair is not None or policy != "solver"):
        raise ValueError("shortest goes with policy 'solver' (its winning lines)")
    if fair is not None:
        from pyramid_core import fair as _fair_core

        seed = 0 if seed is None else _args.whole("seed", seed, 0, _SEED_LIMIT - 1)
        codes = _fair_core.play(
            fair.params(seed), rules.core_options(), [int(c) for c in deal.cards]
        )[4]
        return [_move(deal.cards, c) for c in codes]
    if policy == "solver":
        from ..model.game import Game
        from .solver import _budgets, _max_line, solve

        objective = "min_moves" if shortest else "any"
        s = solve(deal, rules, objective=objective, max_seconds=SOLVER_MAX_SECONDS)
        if s.winnable is None:
            raise ValueError(
                f"the solver could not decide deal {deal} within {SOLVER_MAX_SECONDS} s"
            )
        if s.winnable:
            assert s.moves is not None  # (a winnable deal's winning line)
            return s.moves
        return _max_line(Game(deal, rules), _budgets(None, SOLVER_MAX_SECONDS, None))[1]
    if seed is None:
        if policy == "random":
            raise ValueError(
                "replaying a random-policy game needs its simulation's seed (SimulationResult.seed)"
            )
        seed = 0
    seed = _args.whole("seed", seed, 0, _SEED_LIMIT - 1)
    if deal.number is not None:
        number, deck = deal.number, None
    else:
        if key is None and policy == "random":
            raise ValueError(
                "replaying a random-policy game of a card list needs its row in "
                "the simulated batch (key=; SimulationResult.replay(i) knows it)"
            )
        number = 0 if key is None else _args.whole("key", key, 0, _SEED_LIMIT - 1)
        deck = [int(c) for c in deal.cards]
    won, removed, n_moves, score, codes = _core.play(
        _core.POLICIES[policy], rules.core_options(), seed, number, deck
    )
    cards = deal.cards
    return [_move(cards, c) for c in codes]


def _move(cards: Sequence[Any], code: int) -> Move:
    a, b = code & 63, code >> 6
    if a == NONE:
        return Move.DRAW if code == DRAW else Move.RECYCLE
    return Move.king(cards[a]) if b == NONE else Move.pair(cards[a], cards[b])
