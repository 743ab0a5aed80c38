"""``pyramid-solitaire simulate --games N``: play many deals with a policy, report the win rate.

The per-game arrays are not kept: the games are played in blocks whose totals are summed, so
any number of games runs in constant memory.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pyramid_core.shuffle import MAX_DEAL_NUMBER

from ..analysis.fair import Hindsight
from ..analysis.simulate import POLICIES, SOLVER_MAX_SECONDS, simulate
from ..inputs.jsonout import dumps
from ..model.deal import Deal
from ..model.rules import Rules
from ..runtime import args as _args
from ._input import (
    add_budget_flags,
    add_progress_flag,
    budgets,
    read_deal_file,
    report_bad,
    threads,
)
from .cli import UsageError, explicit_rules, path_arg, rules_from_args


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], rules: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "simulate",
        parents=[rules],
        help="play many deals with a policy (Monte Carlo)",
        description="Play deal numbers START .. START+N-1 (or the deals of a file) with a "
        "built-in policy and report the win rate with its 95% (Wilson) interval, "
        "the speed, and how many pyramid cards the games removed.",
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--games", metavar="N", help="how many deals to play")
    src.add_argument(
        "--file",
        type=path_arg,
        metavar="FILE",
        help="play the deals of a file (one code or 52 card tokens a line; "
        "'-' reads standard input)",
    )
    p.add_argument(
        "--start",
        metavar="DEALNO|CODE",
        default="0",
        help="first deal number (default 0); a deal code gives its number and rules",
    )
    p.add_argument(
        "--policy",
        metavar="NAME",
        default="greedy",
        help="policy: " + ", ".join(POLICIES) + " (default greedy)",
    )
    p.add_argument(
        "--seed",
        metavar="S",
        default=None,
        help="seed of the random policy (default: a fresh one, printed), or of the "
        "hindsight policy's samples (default 0)",
    )
    p.add_argument(
        "--samples",
        metavar="K",
        default=None,
        help="hindsight policy: completions of the unseen cards at each choice (default 16; "
        "--max-nodes is then its budget per solve, default 20,000)",
    )
    p.add_argument(
        "--threads",
        metavar="T",
        default=None,
        help="threads: all cores by default; negative counts back (-1 = all)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="play on a Dask cluster: its scheduler (tcp://host:port; the "
        "distributed extra), shard by shard (with --games)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument(
        "--shortest",
        action="store_true",
        help="solver policy: moves are a shortest winning line's (A*, slower)",
    )
    add_budget_flags(
        p,
        f"game (solver policy; default {SOLVER_MAX_SECONDS:g} s): games it "
        "cannot decide are reported as undecided",
    )
    p.add_argument(
        "--skip-bad",
        action="store_true",
        help="--file: skip lines that are not deals (reported on stderr)",
    )
    add_progress_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    policy = args.policy.strip().lower()
    if policy not in POLICIES:
        raise UsageError(
            f"--policy must be one of {', '.join(POLICIES)}, got {_args.excerpt(args.policy)}"
        )
    budget = {k: v for k, v in budgets(args).items() if v is not None}
    chosen: Any = policy
    if policy == Hindsight.name:  # its parameters: --samples, and --max-nodes a solve
        if set(budget) - {"max_nodes"}:
            raise UsageError("--policy hindsight takes --samples and --max-nodes (a solve's)")
        chosen = Hindsight(
            samples=16 if args.samples is None else _args.whole("--samples", args.samples, 1),
            max_nodes=budget.pop("max_nodes", 20_000),
        )
    elif args.samples is not None:
        raise UsageError("--samples goes with --policy hindsight")
    if budget and policy != "solver":
        raise UsageError("--max-seconds, --max-nodes and --max-memory go with --policy solver")
    if args.shortest and policy != "solver":
        raise UsageError("--shortest goes with --policy solver")
    seed = None if args.seed is None else _args.whole("--seed", args.seed, 0, (1 << 64) - 1)
    show = sys.stderr.isatty() if args.progress is None else args.progress
    common = dict(
        policy=chosen,
        seed=seed,
        threads=threads(args),
        progress=show and not args.json,
        arrays=False,
        **budget,
        **({"shortest": True} if args.shortest else {}),
    )
    if args.file is not None:
        if args.scheduler is not None:
            raise UsageError("--scheduler goes with --games (numbered deals), not with --file")
        if args.start != "0":
            raise UsageError("--start goes with --games, not with --file")
        lines, bad = read_deal_file(args.file, args, args.skip_bad)
        result = simulate(
            deals=[line.deal for line in lines], rules=_file_rules(args, lines), **common
        )
        report_bad(bad)
    else:
        if args.skip_bad:
            raise UsageError("--skip-bad goes with --file")
        games = _args.whole("--games", args.games, 1, MAX_DEAL_NUMBER + 1)
        start = args.start.strip()
        rules: Rules | None
        if start.upper().startswith("PY"):
            deal = Deal.parse(start)
            rules = rules_from_args(args, deal)
            start = deal.number
        else:
            rules = explicit_rules(args)
            start = _args.whole("--start", start, 0, MAX_DEAL_NUMBER)
        if start + games - 1 > MAX_DEAL_NUMBER:
            raise UsageError(
                f"--games {games:,} from --start {start:,} runs past the last deal "
                f"number {MAX_DEAL_NUMBER:,}"
            )
        try:
            result = simulate(games, start=start, rules=rules, scheduler=args.scheduler, **common)
        except ImportError as e:
            raise UsageError(str(e)) from None
    print(dumps(result.to_dict()) if args.json else result.summary())
    return 0


def _file_rules(args: argparse.Namespace, lines: list[Any]) -> Rules:
    """One simulation plays one rule set: the rules every code of the file is played under
    (its letter's preset, or --rules, with the option flags on top), which must agree; card
    lists and deal numbers take them too (else the flags', else pyramide)."""
    coded = [
        line for line in lines if line.deal.number is not None and not line.text.strip().isdigit()
    ]
    for line in coded[1:]:
        if line.deal.rules != coded[0].deal.rules:
            raise UsageError(
                f"{coded[0].where} is played under the {coded[0].deal.rules.name} "
                f"rules and {line.where} under the {line.deal.rules.name} rules: one "
                "simulation plays one rule set: split the file by rule set (a code's letter "
                "names its rules, which --rules cannot change), or give its deals as deal "
                "numbers or card lists, which --rules names the rules of"
            )
    return coded[0].deal.rules if coded else (explicit_rules(args) or Rules())
