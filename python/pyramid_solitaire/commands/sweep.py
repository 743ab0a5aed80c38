"""``pyramid-solitaire sweep``: many rule sets and policies over one deal range, cached; a
table of win rates with 95% intervals. See pyramid_solitaire.analysis.sweep."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..inputs.jsonout import dumps
from ..model import options as _options
from ..runtime import args as _args
from ._input import add_progress_flag
from .cli import UsageError, path_arg


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], rules: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "sweep",
        help="many rule sets and policies over one deal range: a table of win rates",
        description="Play or solve deals START .. START+COUNT-1 under every rule set of a "
        "grid (--option NAME=V1,V2 over --base, each option's values crossed with the "
        "others'; combinations the rules do not allow are left out and listed) with "
        "every --policy, and print each one's win rate with its 95%% interval. Results "
        "are cached by their parameters (--cache, default the user's cache directory): "
        "a rerun, or a larger --count, computes only what is missing.",
    )
    p.add_argument(
        "--base", metavar="PRESET", default="pyramide", help="the rules the grid changes"
    )
    p.add_argument(
        "--option",
        metavar="NAME=V1,V2",
        action="append",
        default=[],
        help="an option and its values (repeat for more: " + ", ".join(_options.names()) + ")",
    )
    p.add_argument(
        "--policy",
        metavar="NAMES",
        default="greedy",
        help="policies, comma-separated: greedy (default), random, solver",
    )
    p.add_argument("--start", metavar="N", default="0", help="first deal number (default 0)")
    p.add_argument("--count", metavar="M", required=True, help="how many deals")
    p.add_argument("--seed", metavar="S", default="0", help="the random policy's seed (default 0)")
    p.add_argument("--cache", type=path_arg, metavar="DIR", help="the cache folder")
    p.add_argument("--plot", type=path_arg, metavar="FILE", help="also draw the table (PNG, SVG)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    add_progress_flag(p)
    p.set_defaults(func=run)


def _value(text: str) -> Any:
    """An option's value as written on the command line."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low.isdigit():
        return int(low)
    return low


def _grid(specs: list[str]) -> dict[str, list[Any]]:
    grid: dict[str, list[Any]] = {}
    for spec in specs:
        name, eq, values = spec.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or not name or not values.strip():
            raise UsageError(f"--option is NAME=V1,V2 (such as redeals=0,2), got {spec!r}")
        grid[name] = [_value(v) for v in values.split(",") if v.strip()]
    return grid


def run(args: argparse.Namespace) -> int:
    from ..analysis.sweep import sweep

    policies = [p.strip() for p in args.policy.split(",") if p.strip()]
    grid = _grid(args.option)
    show = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        result = sweep(
            grid if grid else [args.base],
            policies,
            count=_args.whole("--count", args.count, 1),
            start=_args.whole("--start", args.start, 0),
            base=args.base,
            seed=_args.whole("--seed", args.seed, 0, (1 << 53) - 1),
            cache=args.cache,
            progress=show and not args.json,
        )
        table = result.table()
        if args.plot is not None:
            from ..runtime.plotting import save_figure

            save_figure(result.plot(), args.plot)
    except ImportError as e:
        raise UsageError(str(e)) from None
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print(
            dumps(
                {
                    "start": result.start,
                    "count": result.count,
                    "computed": result.computed,
                    "reused": result.reused,
                    "table": table.to_dict(orient="records"),
                    "invalid": result.invalid,
                }
            )
        )
        return 0
    shown = table.assign(
        win_rate=(table["win_rate"] * 100).map("{:.2f}%".format),
        ci95=[
            f"{lo * 100:.2f}..{hi * 100:.2f}%" for lo, hi in zip(table["ci_low"], table["ci_high"])
        ],
    ).drop(columns=["ci_low", "ci_high", "mean_moves", "mean_removed"])
    print(shown.to_string(index=False))
    print(
        f"deals {result.start:,}..{result.start + result.count - 1:,}: "
        f"{result.computed:,} computed now, {result.reused:,} read from the cache"
    )
    for bad in result.invalid:
        options = ", ".join(f"{k}={v}" for k, v in bad.items() if k != "reason")
        print(f"left out: {options}: {bad['reason']}")
    return 0
