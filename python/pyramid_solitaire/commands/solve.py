"""``pyramid-solitaire solve``: decide deals exactly and print a winning line."""
from __future__ import annotations

import argparse
import json
import sys

from .._parallel import Progress
from ..cli import UsageError, rules_from_args
from ..deal import Deal
from ..solver import parse_memory, solve


def register(sub: argparse._SubParsersAction, rules: argparse.ArgumentParser) -> None:
    p = sub.add_parser("solve", parents=[rules], help="decide deals exactly, with a winning line",
                       description="Decide whether deals can be won, exactly, and print a "
                                   "winning line (the shortest with --min-moves).")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("deal", metavar="CODE", nargs="?", help="a deal code such as PY1-M-AAAAAAS")
    src.add_argument("--cards", metavar="TOKENS", help="a deal as 52 card tokens (quoted)")
    src.add_argument("--file", metavar="FILE",
                     help="one deal per line (a code or 52 card tokens); '-' reads standard input")
    p.add_argument("--min-moves", action="store_true", help="find a shortest winning line")
    p.add_argument("--json", action="store_true", help="one JSON object per deal, one per line")
    p.add_argument("--max-seconds", type=float, metavar="S", help="time budget per deal")
    p.add_argument("--max-nodes", type=int, metavar="N", help="positions budget per deal")
    p.add_argument("--max-memory", metavar="BYTES", help="memory budget per deal, e.g. 512MB (default 1GiB)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar for --file (default: when stderr is a terminal)")
    p.set_defaults(func=run)


def _read_deals(args: argparse.Namespace) -> list[tuple[str, Deal]]:
    if args.deal is not None:
        return [(args.deal, Deal.parse(args.deal))]
    if args.cards is not None:
        return [(args.cards, Deal.from_cards(args.cards))]
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as e:
        raise UsageError(f"cannot read {args.file}: {e.strerror}") from None
    deals = []
    for no, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            try:
                deals.append((line, Deal.parse(line)))
            except ValueError as e:
                raise UsageError(f"{args.file}, line {no}: {e}") from None
    if not deals:
        raise UsageError(f"{args.file} holds no deals")
    return deals


def run(args: argparse.Namespace) -> int:
    deals = _read_deals(args)
    budgets = dict(max_seconds=args.max_seconds, max_nodes=args.max_nodes,
                   max_memory=parse_memory(args.max_memory))
    jobs = [(text, deal, rules_from_args(args, deal)) for text, deal in deals]
    bar = Progress(len(jobs), "deals", args.progress if args.file else False)
    objective = "min_moves" if args.min_moves else "any"
    try:
        for text, deal, rules in jobs:
            s = solve(deal, rules, objective=objective, **budgets)
            bar.clear_line()
            name = deal.with_rules(rules).code or text
            if args.json:
                d = s.to_dict()
                d["deal"] = name
                print(json.dumps(d), flush=True)
            else:
                _print_text(name, rules, s)
            bar.update(1)
    finally:
        bar.close()
    return 0


def _print_text(name: str, rules, s) -> None:
    head = f"{name} ({rules.name}): "
    if s.winnable is None:
        print(head + f"unknown: the {s.stopped_by} budget ran out "
              f"({s.nodes:,} positions, {s.seconds:.2f} s)")
    elif not s.winnable:
        print(head + f"cannot be won (proved: {s.nodes:,} positions, {s.seconds:.3f} s)")
    else:
        kind = "shortest winning line" if s.optimal else "winning line"
        if s.objective == "min_moves" and not s.optimal:
            kind += (f" (not proved shortest: the {s.stopped_by} budget ran out)"
                     if s.stopped_by else " (not proved shortest)")
        print(head + f"{kind} of {s.n_moves} moves ({s.nodes:,} positions, {s.seconds:.3f} s)")
        line = [f"{i + 1:>3}. {m.symbols()}" for i, m in enumerate(s.moves)]
        for k in range(0, len(line), 6):
            print("  " + "  ".join(f"{x:<14}" for x in line[k:k + 6]).rstrip())
