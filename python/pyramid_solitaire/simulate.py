"""Monte Carlo simulation: play many deals with a built-in policy (SPEC section 9).

>>> result = simulate(2000, rules="pyramide", policy="greedy", threads=1)
>>> result.games, result.wins > 1000
(2000, True)
>>> low, high = result.ci95
>>> low < result.win_rate < high
True
>>> replay(int(result.deal[0]), rules="pyramide", policy="greedy")[:2]
[Move('5d+8h'), Move('3h+Td')]

The games are played by the compiled core (``pyramid_core.simulate``) without the GIL, in
chunks shared over a thread pool. Every game depends only on its deal number, the rules, the
policy and (for ``random``) the seed, so the arrays are identical whatever the number of
threads or the chunk size, and any game can be replayed move by move with :func:`replay`.
"""
from __future__ import annotations

import math
import os
import secrets
import sys
import time
from typing import Any, Iterable, Sequence

import numpy as np

from pyramid_core import simulate as _core
from pyramid_core.position import DRAW, NONE, RECYCLE
from pyramid_core.shuffle import MAX_DEAL_NUMBER, decks as _decks

from ._parallel import Progress, resolve_threads, run_chunks
from .deal import Deal
from .move import Move
from .rules import Rules

__all__ = ["POLICIES", "SimulationResult", "replay", "simulate", "wilson_interval"]

#: The built-in policies, by name: the core's playouts, and perfect play by the solver.
POLICIES: tuple[str, ...] = tuple(sorted(_core.POLICIES)) + ("solver",)
#: The solver policy's default budget per game (seconds); a game it cannot decide within its
#: budget is reported as undecided, never guessed.
SOLVER_MAX_SECONDS = 10.0

_Z95 = 1.959963984540054          # the 97.5% quantile of the standard normal distribution
_MIN_CHUNK = 4096
_MAX_CHUNK = 1 << 18
_SEED_LIMIT = 1 << 64


# ---- validation -------------------------------------------------------------------------------

def _whole(name: str, value: Any, low: int, high: int | None = None) -> int:
    """An int (or numpy integer) in low..high, else ValueError naming it."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        bound = f"{low:,}..{high:,}" if high is not None else f">= {low:,}"
        raise ValueError(f"{name} must be {bound}, got {value:,}")
    return value


def _policy(policy: Any) -> str:
    if not isinstance(policy, str):
        raise ValueError(f"policy must be a name ({', '.join(POLICIES)}), got {policy!r}")
    name = policy.strip().lower()
    if name not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}: expected one of {', '.join(POLICIES)}")
    return name


def _rules(rules: Any) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, dict):
        return Rules.from_dict(rules)
    if isinstance(rules, str):
        return Rules.preset(rules)
    raise ValueError(f"rules must be a Rules, a preset name or a dict of options, got {rules!r}")


def _seed(seed: Any) -> int:
    if seed is None:
        return secrets.randbits(64)
    return _whole("seed", seed, 0, _SEED_LIMIT - 1)


def _deals(deals: Any) -> np.ndarray:
    """A 1-D uint64 array of deal numbers (each 0 .. 26**7 - 1)."""
    if isinstance(deals, (str, bytes, dict)) or isinstance(deals, (int, np.integer)):
        raise ValueError(f"deals must be a sequence or array of deal numbers, got {deals!r}")
    try:
        arr = np.asarray(deals if not isinstance(deals, range) else np.arange(
            deals.start, deals.stop, deals.step, dtype=np.int64))
    except (TypeError, ValueError, OverflowError) as e:
        raise ValueError(f"deals must be a sequence or array of deal numbers: {e}") from None
    if arr.ndim != 1:
        raise ValueError(f"deals must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError("deals is empty: give at least one deal number")
    if arr.dtype == object:
        try:
            arr = np.array([_whole("a deal number", v, 0, MAX_DEAL_NUMBER) for v in arr],
                           dtype=np.uint64)
        except OverflowError as e:  # pragma: no cover - caught by _whole's bounds
            raise ValueError(str(e)) from None
    elif arr.dtype.kind == "b" or arr.dtype.kind not in "iu":
        raise ValueError(f"deal numbers must be whole numbers, got an array of {arr.dtype}")
    lo, hi = arr.min(), arr.max()
    if (arr.dtype.kind == "i" and lo < 0) or int(hi) > MAX_DEAL_NUMBER:
        bad = int(lo) if arr.dtype.kind == "i" and lo < 0 else int(hi)
        raise ValueError(f"deal numbers must be 0..{MAX_DEAL_NUMBER:,}, got {bad:,}")
    return np.ascontiguousarray(arr, dtype=np.uint64)


# ---- statistics -------------------------------------------------------------------------------

def wilson_interval(wins: int, games: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for the default z)."""
    wins = _whole("wins", wins, 0)
    games = _whole("games", games, 1)
    if wins > games:
        raise ValueError(f"wins ({wins:,}) cannot exceed games ({games:,})")
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    center = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denom
    return max(0.0, center - half), min(1.0, center + half)


class SimulationResult:
    """Per-game arrays and a summary of a simulation.

    Arrays (one entry per game, in the order the deals were given): ``deal`` (uint64 deal
    numbers), ``won`` (bool), ``removed`` (uint8 pyramid cards removed, 0..28), ``moves``
    (uint16: each draw, recycle, King and pair counts one) and ``score`` (uint16, seed 000's
    scheme: 10 per pyramid card removed). With the solver policy, ``decided`` (bool) is False
    for games whose win or loss was not settled within the budget (left out of the win rate),
    and ``removed_known`` is False where the most removable cards were not settled (left out
    of the histogram and the means); their other entries are 0.
    """

    def __init__(self, *, deal: np.ndarray, won: np.ndarray, removed: np.ndarray,
                 moves: np.ndarray, score: np.ndarray, policy: str, rules: Rules, seed: int,
                 threads: int, seconds: float, decided: np.ndarray | None = None,
                 removed_known: np.ndarray | None = None) -> None:
        self.decided = np.ones(won.size, dtype=np.bool_) if decided is None else decided
        self.removed_known = self.decided if removed_known is None else removed_known
        self.deal = deal
        self.won = won
        self.removed = removed
        self.moves = moves
        self.score = score
        self.policy = policy
        self.rules = rules
        self.seed = seed
        self.threads = threads
        self.seconds = seconds

    # ---- summary ----------------------------------------------------------------------------
    @property
    def games(self) -> int:
        return int(self.won.size)

    @property
    def wins(self) -> int:
        return int(np.count_nonzero(self.won))

    @property
    def undecided(self) -> int:
        """Games the solver policy could not decide within its budget."""
        return int(self.won.size - np.count_nonzero(self.decided))

    @property
    def win_rate(self) -> float:
        """Wins among the decided games."""
        decided = self.games - self.undecided
        return self.wins / decided if decided else float("nan")

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        decided = self.games - self.undecided
        return wilson_interval(self.wins, decided) if decided else (float("nan"), float("nan"))

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def histogram(self) -> np.ndarray:
        """How many games removed 0, 1, ..., 28 pyramid cards (29 counts)."""
        return np.bincount(self.removed[self.removed_known], minlength=29)[:29]

    def code(self, i: int) -> str:
        """The deal code of game i (under this simulation's rules)."""
        return Deal.from_number(int(self.deal[i]), rules=self.rules).code

    def replay(self, i: int) -> list[Move]:
        """The moves game i played."""
        return replay(int(self.deal[i]), rules=self.rules, policy=self.policy, seed=self.seed)

    def to_dict(self, arrays: bool = False) -> dict[str, Any]:
        """The summary as JSON-ready data; ``arrays=True`` adds the per-game arrays as lists."""
        low, high = self.ci95
        hist = self.histogram()
        data: dict[str, Any] = {
            "games": self.games, "wins": self.wins, "undecided": self.undecided,
            "win_rate": self.win_rate,
            "ci95": [low, high], "games_per_second": self.games_per_second,
            "seconds": self.seconds, "policy": self.policy,
            "rules": {"name": self.rules.name, "letter": self.rules.letter,
                      **self.rules.to_dict()},
            "seed": self.seed, "threads": self.threads,
            "removed_unknown": int(self.removed_known.size - np.count_nonzero(self.removed_known)),
            "mean_removed": _mean(self.removed, self.removed_known),
            "mean_moves": _mean(self.moves, self.removed_known),
            "mean_score": _mean(self.score, self.removed_known),
            "removed_histogram": {str(k): int(v) for k, v in enumerate(hist) if v},
        }
        if arrays:
            data.update(deal=self.deal.tolist(), won=self.won.tolist(),
                        removed=self.removed.tolist(), moves=self.moves.tolist(),
                        score=self.score.tolist())
        return data

    def to_pandas(self):
        """A pandas DataFrame with one row per game (columns deal, won, removed, moves,
        score); the summary is in ``.attrs``. Needs pandas."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("SimulationResult.to_pandas() needs pandas: "
                              "python -m pip install pandas") from None
        df = pd.DataFrame({"deal": self.deal, "won": self.won, "removed": self.removed,
                           "moves": self.moves, "score": self.score, "decided": self.decided})
        df.attrs.update(self.to_dict())
        return df

    def plot(self, fig=None):
        """A matplotlib figure: the distribution of pyramid cards removed, and the win rate
        with its 95% interval. Needs the ``plot`` extra (matplotlib)."""
        try:
            import matplotlib
            if fig is None and not _has_display():
                matplotlib.use("Agg", force=False)
            import matplotlib.pyplot as plt
        except ImportError:
            raise ImportError("SimulationResult.plot() needs matplotlib: "
                              "python -m pip install 'pyramid-solitaire[plot]'") from None
        if fig is None:
            fig = plt.figure(figsize=(9, 4))
        ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [4, 1]})
        hist = self.histogram()
        ax1.bar(np.arange(29), hist / self.games * 100, color="#4878a8")
        ax1.set_xlabel("pyramid cards removed")
        ax1.set_ylabel("games (%)")
        ax1.set_xlim(-0.7, 28.7)
        ax1.set_title(f"{self.policy} policy, {self.rules.name} rules: {self.games:,} games")
        low, high = self.ci95
        rate = self.win_rate * 100
        ax2.bar([0], [rate], color="#58a868", width=0.6)
        ax2.errorbar([0], [rate], yerr=[[rate - low * 100], [high * 100 - rate]], color="black",
                     capsize=8)
        ax2.set_xticks([0], ["won"])
        ax2.set_ylabel("win rate (%)")
        ax2.set_ylim(0, max(5.0, min(100.0, high * 100 * 1.25)))
        ax2.set_title(f"{rate:.2f}%\n[{low * 100:.2f}, {high * 100:.2f}]", fontsize=10)
        fig.tight_layout()
        return fig

    def summary(self) -> str:
        """A few lines for people, with a histogram table of pyramid cards removed."""
        low, high = self.ci95
        lines = [
            f"policy {self.policy}, rules {self.rules.describe()}",
            f"games {self.games:,} (deals {_deal_span(self.deal)})"
            + (f", seed {self.seed}" if self.policy == "random" else ""),
            f"won {self.wins:,}: {self.win_rate * 100:.2f}% "
            f"(95% interval {low * 100:.2f}% .. {high * 100:.2f}%)"
            + (f"; {self.undecided:,} undecided within the budget (left out)"
               if self.undecided else "")
            + (f"; most removable cards unknown for {self.games - int(self.removed_known.sum()):,}"
               f" (left out of the table)" if not self.removed_known.all() else ""),
            f"{self.games_per_second:,.0f} games/s on {self.threads} thread"
            f"{'s' if self.threads != 1 else ''} ({self.seconds:.2f} s)",
            f"mean pyramid cards removed {_mean(self.removed, self.removed_known) or 0:.2f}, "
            f"mean moves {_mean(self.moves, self.removed_known) or 0:.1f}",
            "",
            histogram_table(self.histogram()),
        ]
        return "\n".join(lines)

    def __len__(self) -> int:
        return self.games

    def __repr__(self) -> str:
        low, high = self.ci95
        return (f"<SimulationResult {self.policy} {self.rules.name}: {self.games:,} "
                f"game{'s' if self.games != 1 else ''}, "
                f"{self.win_rate * 100:.2f}% won [{low * 100:.2f}%, {high * 100:.2f}%], "
                f"{self.games_per_second:,.0f} games/s>")


def _mean(values: np.ndarray, mask: np.ndarray) -> float | None:
    return float(values[mask].mean()) if mask.any() else None


def histogram_table(hist: Sequence[int], width: int = 40) -> str:
    """A text table of pyramid cards removed: count, share, share at least this many, bar."""
    hist = [int(h) for h in hist]
    total = sum(hist)
    used = [k for k, v in enumerate(hist) if v]
    if not used:
        return "(no games)"
    top = max(hist)
    rows = [f"{'removed':>7}  {'games':>12}  {'share':>7}  {'>= this':>7}"]
    at_least = total
    for k in range(min(used), max(used) + 1):
        n = hist[k]
        bar = "#" * round(n / top * width) if n else ""
        if n and not bar:
            bar = "."
        rows.append(f"{k:>7}  {n:>12,}  {n / total * 100:>6.2f}%  {at_least / total * 100:>6.2f}%  "
                    f"{bar}")
        at_least -= n
    return "\n".join(rows)


def _deal_span(deal: np.ndarray) -> str:
    if deal.size and int(deal[-1]) - int(deal[0]) == deal.size - 1 and (
            deal.size < 3 or bool(np.all(np.diff(deal.astype(np.int64)) == 1))):
        return f"{int(deal[0]):,}..{int(deal[-1]):,}"
    return f"{deal.size:,} given"


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                or sys.platform in ("win32", "darwin"))


# ---- the API ------------------------------------------------------------------------------------

def simulate(games: int | None = None, *, deals: Iterable[int] | np.ndarray | None = None,
             start: int = 0, rules: Rules | str = "pyramide", policy: str = "greedy",
             seed: int | None = None, threads: int | None = None, progress: bool = False,
             chunk_size: int | None = None, max_nodes: int | None = None,
             max_seconds: float | None = None,
             max_memory: int | str | None = None) -> SimulationResult:
    """Play ``games`` deals numbered ``start``, ``start + 1``, ... (or the given ``deals``)
    with ``policy`` under ``rules`` and return a :class:`SimulationResult`.

    - ``policy``: ``"greedy"`` (deterministic heuristic), ``"random"`` (uniform over the
      legal moves; ``seed`` makes it reproducible) or ``"solver"`` (perfect play: a game is
      won when the deal can be won, else it removes the most pyramid cards any line removes;
      ``moves`` is the length of the line the solver found, not the fewest).
    - ``max_nodes``, ``max_seconds`` (default 10), ``max_memory``: the solver policy's budget
      per game. A game it cannot decide within it is *undecided* (``result.decided`` is
      False): counted and reported, left out of the win rate, never guessed.
    - ``seed``: 0 .. 2**64 - 1, or None for a fresh one (kept in the result for replays).
    - ``threads``: None for all cores, n >= 1, or a negative n for cpu_count + 1 + n.
    - ``progress``: a text progress bar on stderr (only when stderr is a terminal).
    - ``chunk_size``: games per task handed to a thread (tuning only; results do not
      depend on it).

    Results are identical whatever ``threads`` and ``chunk_size``.
    """
    if (games is None) == (deals is None):
        raise ValueError("give exactly one of games (a count, played from deal number start) "
                         "or deals (the deal numbers to play)")
    rules = _rules(rules)
    policy = _policy(policy)
    seed = _seed(seed)
    n_threads = resolve_threads(threads)
    if games is not None:
        n = _whole("games", games, 1)
        start = _whole("start", start, 0, MAX_DEAL_NUMBER)
        if start + n - 1 > MAX_DEAL_NUMBER:
            raise ValueError(f"games={n:,} from start={start:,} runs past the last deal number "
                             f"{MAX_DEAL_NUMBER:,}")
        deal_arr = np.arange(start, start + n, dtype=np.uint64)
        core_deals = None
    else:
        if start != 0:
            raise ValueError("start goes with games, not with deals")
        deal_arr = _deals(deals)
        n = int(deal_arr.size)
        core_deals = deal_arr
    if chunk_size is None:
        chunk = min(_MAX_CHUNK, max(_MIN_CHUNK, n // (n_threads * 16) or 1))
        if policy == "solver":
            chunk = max(1, min(256, n // (n_threads * 8) or 1))
    else:
        chunk = _whole("chunk_size", chunk_size, 1)
    if policy != "solver" and (max_nodes, max_seconds, max_memory) != (None, None, None):
        raise ValueError("max_nodes, max_seconds and max_memory are budgets of the solver "
                         "policy; the greedy and random policies take none")
    won = np.zeros(n, dtype=np.bool_)
    removed = np.zeros(n, dtype=np.uint8)
    moves = np.zeros(n, dtype=np.uint16)
    score = np.zeros(n, dtype=np.uint16)
    decided = removed_known = None
    bar = Progress(n, "games", progress)
    t0 = time.perf_counter()
    if policy == "solver":
        decided, removed_known, used = _solver_games(deal_arr, rules, n_threads, chunk, bar, won,
                                                     removed, moves,
                                      max_nodes=max_nodes, max_memory=max_memory,
                                      max_seconds=SOLVER_MAX_SECONDS if max_seconds is None
                                      else max_seconds)
        score[:] = 10 * removed.astype(np.uint16)
    else:
        won_u8 = won.view(np.uint8)
        options = rules.core_options()
        code = _core.POLICIES[policy]

        def work(lo: int, hi: int) -> None:
            _core.run(code, options, seed, start, core_deals, lo, hi, won_u8, removed, moves,
                      score)

        used = run_chunks(work, n, n_threads, chunk, bar)
    seconds = time.perf_counter() - t0
    return SimulationResult(deal=deal_arr, won=won, removed=removed, moves=moves, score=score,
                            policy=policy, rules=rules, seed=seed, threads=used,
                            seconds=seconds, decided=decided, removed_known=removed_known)


def _solver_games(deal_arr: np.ndarray, rules: Rules, threads: int, chunk: int, bar: Progress,
                  won: np.ndarray, removed: np.ndarray, moves: np.ndarray,
                  **budgets: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """Perfect play: each deal decided by the solver; a lost one removes the most pyramid
    cards any line removes. Fills the arrays; returns the masks of games decided and of
    games whose removed count is exact, and the threads used."""
    from .solver import solve_many
    decks = np.empty((deal_arr.size, 52), dtype=np.uint8)
    _decks(deal_arr, decks)
    r = solve_many(decks, rules, max_removed=True, threads=threads, chunk=chunk,
                   progress=bar, **budgets)
    decided = r.winnable >= 0
    known = decided & (r.max_removed >= 0)
    won[:] = r.winnable == 1
    removed[:] = np.where(known, r.max_removed, 0)
    moves[:] = np.where(known, np.maximum(r.n_moves, 0), 0)
    return decided, known, min(resolve_threads(threads), max(1, -(-deal_arr.size // chunk)))


def replay(deal: int | str | Deal, rules: Rules | str | None = None, policy: str = "greedy",
           seed: int | None = None) -> list[Move]:
    """The moves ``policy`` plays on ``deal`` (a deal number, a deal code or a numbered
    :class:`Deal`), exactly as in :func:`simulate` with the same rules and seed. ``rules``
    defaults to the code's rules, else ``pyramide``; the ``random`` policy needs the seed of
    the simulation (``result.seed``)."""
    number, rules = _deal_and_rules(deal, rules)
    policy = _policy(policy)
    if policy == "solver":
        from .solver import _max_line, _budgets, solve
        game_deal = Deal.from_number(number, rules=rules)
        s = solve(game_deal, rules, max_seconds=SOLVER_MAX_SECONDS)
        if s.winnable is None:
            raise ValueError(f"the solver could not decide deal {game_deal.code} within "
                             f"{SOLVER_MAX_SECONDS} s")
        if s.winnable:
            return s.moves
        from .game import Game
        return _max_line(Game(game_deal, rules), _budgets(None, SOLVER_MAX_SECONDS, None))[1]
    if seed is None:
        if policy == "random":
            raise ValueError("replaying a random-policy game needs its simulation's seed "
                             "(SimulationResult.seed)")
        seed = 0
    seed = _seed(seed)
    won, removed, n_moves, score, codes = _core.play(_core.POLICIES[policy], rules.core_options(),
                                                     seed, number)
    cards = Deal.from_number(number, rules=rules).cards
    return [_move(cards, c) for c in codes]


def _deal_and_rules(deal: Any, rules: Any) -> tuple[int, Rules]:
    if isinstance(deal, str):
        deal = Deal.from_code(deal)
    if isinstance(deal, Deal):
        if deal.number is None:
            raise ValueError("replay needs a numbered deal (a deal code); card lists are not "
                             "simulated")
        if rules is None:
            if deal.rules is None:
                raise ValueError(f"deal {deal.code} uses custom rules (letter X): pass rules=")
            rules = deal.rules
        return deal.number, _rules(rules)
    number = _whole("deal", deal, 0, MAX_DEAL_NUMBER)
    return number, _rules("pyramide" if rules is None else rules)


def _move(cards: Sequence, code: int) -> Move:
    a, b = code & 63, code >> 6
    if a == NONE:
        return Move.DRAW if code == DRAW else Move.RECYCLE
    return Move.king(cards[a]) if b == NONE else Move.pair(cards[a], cards[b])
