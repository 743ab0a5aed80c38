"""``pyramid-solitaire simulate --games N``: play many deals with a policy, report the win rate."""
from __future__ import annotations

import argparse
import json

from ..cli import rules_from_args
from ..simulate import POLICIES, simulate


def register(sub: argparse._SubParsersAction, rules: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "simulate", parents=[rules], help="play many deals with a policy (Monte Carlo)",
        description="Play deal numbers START .. START+N-1 with a built-in policy and report the "
                    "win rate with its 95% (Wilson) interval, the speed, and how many pyramid "
                    "cards the games removed.")
    p.add_argument("--games", metavar="N", required=True, help="how many deals to play")
    p.add_argument("--start", metavar="DEALNO", default="0",
                   help="first deal number (default 0; a deal code's number works too)")
    p.add_argument("--policy", metavar="NAME", default="greedy",
                   help="policy: " + ", ".join(POLICIES) + " (default greedy)")
    p.add_argument("--seed", metavar="S", default=None,
                   help="seed of the random policy (default: a fresh one, printed)")
    p.add_argument("--threads", metavar="T", default=None,
                   help="threads: all cores by default; negative counts back (-1 = all)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--max-seconds", type=float, metavar="S",
                   help="solver policy: time budget per game (default 10); games it cannot "
                        "decide are reported as undecided")
    p.add_argument("--max-nodes", type=int, metavar="N", help="solver policy: positions budget per game")
    p.add_argument("--max-memory", metavar="BYTES", help="solver policy: memory budget per game")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True,
                   help="progress bar on stderr when it is a terminal (default on)")
    p.set_defaults(func=run)


def _int(flag: str, text: str | None) -> int | None:
    if text is None:
        return None
    t = text.strip().replace("_", "").replace(",", "")
    if t.startswith("-") and t[1:].isdigit() or t.isdigit():
        return int(t)
    raise ValueError(f"{flag} must be a whole number, got {text!r}")


def _start(text: str) -> int:
    t = text.strip()
    if t.upper().startswith("PY"):
        from ..deal import Deal
        return Deal.from_code(t).number
    return _int("--start", t)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    games = _int("--games", args.games)
    if games is not None and games < 1:
        raise ValueError(f"--games must be at least 1, got {games:,}")
    result = simulate(games, start=_start(args.start), rules=rules, policy=args.policy,
                      seed=_int("--seed", args.seed), threads=_int("--threads", args.threads),
                      progress=args.progress and not args.json, max_seconds=args.max_seconds,
                      max_nodes=args.max_nodes, max_memory=args.max_memory)
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(result.summary())
    return 0
