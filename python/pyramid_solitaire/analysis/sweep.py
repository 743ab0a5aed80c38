"""Sweeps: many rule sets and policies over one deal range in one call, with one progress bar,
answered as a tidy table (win rates and 95% intervals) and the per-deal rows, cached on disk
by their exact parameters so that a rerun, or a larger range, computes only what is missing.

>>> from pyramid_solitaire.analysis.sweep import expand
>>> valid, invalid = expand({"draw": [1, 3], "redeals": [0, 2]}, base="pyramide")
>>> [r.describe_dict()["redeals"] for r in valid], invalid[0]["reason"][:15]
([0, 2, 0], 'draw=3 needs re')

Each (rule set, policy) is a survey (:mod:`.survey`) in the cache folder, named by the
digest of its parameters (all but the count, so the same survey grows): a sweep over deals
0..99,999 after one over 0..9,999 does only deals 10,000..99,999. The cache is the user's
cache directory (``platformdirs``), or ``cache=``. Needs the ``survey`` extra (pyarrow) and,
for the table, pandas.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model import options as _options
from ..model.rules import Rules
from ..runtime import args as _args
from ..runtime.parallel import Progress, ProgressArg
from . import survey as _survey
from .layout import rules_label
from .report import pyplot_for

#: Deals per cached part: a sweep grows a part at a time.
DEFAULT_SHARD_SIZE = 10_000


def default_cache() -> Path:
    """The user's cache directory for sweeps (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("pyramid-solitaire", appauthor=False)) / "sweeps"


def expand(
    grid: Mapping[str, Iterable[Any]], base: Any = "pyramide"
) -> tuple[list[Rules], list[dict[str, Any]]]:
    """The rule sets of a grid of options over ``base`` (a preset, Rules or dict): every
    combination of the values given, in order; those the rules do not allow are returned
    apart, each with its options and the reason (the rules' own words)."""
    base_rules = Rules.coerce(base, "base")
    names = list(grid)
    unknown = [n for n in names if n not in _options.names()]
    if unknown:
        raise ValueError(
            f"unknown rule option {unknown[0]!r}: expected one of {', '.join(_options.names())}"
        )
    values = []
    for name in names:
        v = grid[name]
        if isinstance(v, (str, bytes)) or not isinstance(v, Iterable):
            raise ValueError(f"grid[{name!r}] is a list of values, got {_args.excerpt(v)}")
        values.append(list(v))
    valid, invalid, seen = [], [], set()
    for combo in itertools.product(*values):
        changes = dict(zip(names, combo))
        try:
            rules = base_rules.replace(**changes)
        except ValueError as e:
            invalid.append({**changes, "reason": " ".join(str(e).split())})
            continue
        if rules not in seen:
            seen.add(rules)
            valid.append(rules)
    return valid, invalid


class _Spanning(Progress):
    """One bar over the whole sweep: each survey's end does not close it."""

    def close(self) -> None:
        pass

    def finish(self) -> None:
        super().close()


@dataclass
class SweepResult:
    """A sweep's answers: ``table()`` (one row per rule set and policy), ``rows()`` (every
    deal's row, the layout of :mod:`.layout`), ``invalid`` (the combinations the rules do
    not allow, with why), ``computed`` and ``reused`` (deals computed now, and read from
    the cache), ``folders`` (each combination's survey folder)."""

    start: int
    count: int
    runs: list[dict[str, Any]]
    invalid: list[dict[str, Any]] = field(default_factory=list)
    computed: int = 0
    reused: int = 0
    grid: list[str] = field(default_factory=list)

    @property
    def folders(self) -> list[str]:
        return [r["folder"] for r in self.runs]

    def table(self) -> Any:
        """A pandas DataFrame, one row per (rule set, policy): ``rules`` (its label), each
        option of the grid, ``policy``, ``deals``, ``decided``, ``wins``, ``win_rate``,
        ``ci_low``, ``ci_high`` (95% Wilson), ``mean_moves``, ``mean_removed``."""
        from .layout import _pandas

        pd = _pandas("SweepResult.table()")
        out = []
        for r in self.runs:
            rep = _survey.report(r["folder"])
            rules = r["rules"]
            low, high = rep["ci95"] or (float("nan"), float("nan"))
            out.append(
                {
                    "rules": rules_label(rules),
                    **{k: rules.to_dict()[k] for k in self.grid},
                    "policy": r["policy"],
                    "deals": rep["deals"],
                    "decided": rep["decided"],
                    "wins": rep["wins"],
                    "win_rate": rep["win_rate"] if rep["win_rate"] is not None else float("nan"),
                    "ci_low": low,
                    "ci_high": high,
                    "mean_moves": rep["mean_length"],
                    "mean_removed": rep["mean_removed"],
                }
            )
        return pd.DataFrame(out)

    def rows(self) -> Any:
        """Every deal's row of every (rule set, policy), in the shared layout: one
        DataFrame (its ``rules`` and ``policy`` columns say which)."""
        from .layout import _pandas

        pd = _pandas("SweepResult.rows()")
        frames = [_survey.to_pandas(r["folder"]) for r in self.runs]
        for df in frames:
            df.attrs = {}
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    def plot(self, fig: Any = None) -> Any:
        """A matplotlib figure: each rule set's win rate with its 95% interval, a marker per
        policy. Needs the ``plot`` extra."""
        plt = pyplot_for(fig, "SweepResult.plot()")
        table = self.table()
        if fig is None:
            fig = plt.figure(figsize=(max(6.0, 0.6 * table["rules"].nunique() + 3), 4.5))
        ax = fig.subplots()
        labels = list(dict.fromkeys(table["rules"]))
        for k, (policy, part) in enumerate(table.groupby("policy", sort=False)):
            x = [labels.index(r) + 0.12 * (k - 0.5) for r in part["rules"]]
            y = part["win_rate"] * 100
            err = [y - part["ci_low"] * 100, part["ci_high"] * 100 - y]
            ax.errorbar(x, y, yerr=err, fmt="o", capsize=4, label=str(policy))
        ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("win rate (%)")
        ax.set_title(f"deals {self.start:,}..{self.start + self.count - 1:,}")
        ax.legend()
        fig.tight_layout()
        return fig


def _folder(cache: Path, plan: _survey.Plan) -> Path:
    """A combination's survey folder: the digest of every parameter but the count."""
    described = {k: v for k, v in plan.manifest().items() if k != "count"}
    digest = hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()[:20]
    return cache / f"{plan.rules.letter}-{plan.policy}-{digest}"


def sweep(
    rules: Mapping[str, Iterable[Any]] | Iterable[Any],
    policies: Iterable[str] | str = ("greedy",),
    *,
    count: Any,
    start: Any = 0,
    base: Any = "pyramide",
    seed: Any = 0,
    max_seconds: Any = None,
    max_removed: Any = False,
    cache: str | os.PathLike[str] | None = None,
    shard_size: Any = DEFAULT_SHARD_SIZE,
    workers: Any = 1,
    progress: ProgressArg = False,
) -> SweepResult:
    """Play or solve deals ``start .. start + count - 1`` under every rule set of ``rules``
    (a grid, ``{"redeals": [0, 2, "unlimited"], "stock_top_playable": [False, True]}``
    over ``base``, or a list of rule sets: presets, dicts, Rules) with every policy of
    ``policies`` (``solver``, ``greedy``, ``random``: ``seed`` is its seed); one progress
    bar spans it all. Combinations the rules do not allow are left out and listed in
    ``invalid``. Results are cached in ``cache`` (default: :func:`default_cache`) by their
    exact parameters: what is there is read, not computed again. ``max_seconds`` and
    ``max_removed`` are the solver's, as in a survey."""
    start = _args.whole("start", start, 0)
    count = _args.whole("count", count, 1)
    if isinstance(policies, str):
        policies = [policies]
    policies = [_args.choice("policy", p, _survey.POLICIES) for p in policies]
    if not policies:
        raise ValueError("policies names at least one policy")
    if isinstance(rules, Mapping):
        rule_sets, invalid = expand(rules, base)
        grid = list(rules)
    else:
        rule_sets, invalid, grid = [Rules.coerce(r, "rules[i]") for r in rules], [], []
    if not rule_sets:
        raise ValueError("no rule set to sweep" + (f": {invalid[0]['reason']}" if invalid else ""))
    folder = Path(cache) if cache is not None else default_cache()
    plans = []
    for r in rule_sets:
        for policy in policies:
            solver = policy == "solver"
            plans.append(
                _survey.Plan.make(
                    rules=r,
                    policy=policy,
                    start=start,
                    count=count,
                    shard_size=shard_size,
                    seed=seed if policy == "random" else None,
                    max_seconds=max_seconds if solver else None,
                    max_removed=max_removed if solver else None,
                )
            )
    bar = _Spanning(len(plans) * count, "deals", progress, desc="sweep")
    result = SweepResult(start, count, [], invalid, grid=grid)
    try:
        for plan in plans:
            where = _folder(folder, plan)
            ran = _survey.survey(
                where,
                rules=plan.rules,
                policy=plan.policy,
                start=start,
                count=count,
                shard_size=plan.shard_size,
                seed=plan.seed,
                max_seconds=plan.max_seconds,
                max_removed=plan.max_removed if plan.policy == "solver" else None,
                workers=workers,
                progress=bar,
            )
            result.computed += ran["deals_now"]
            result.reused += count - ran["deals_now"]
            result.runs.append({"folder": str(where), "rules": plan.rules, "policy": plan.policy})
    finally:
        bar.finish()
    return result
