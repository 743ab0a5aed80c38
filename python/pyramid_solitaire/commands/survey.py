"""``pyramid-solitaire survey``: solve or play a whole deal-number range into a folder of
Parquet shards, resumably, locally or on a Dask cluster; ``survey report DIR`` sums it up.
See pyramid_solitaire.survey."""

from __future__ import annotations

import argparse
import sys

from ..analysis import survey as _survey
from ..inputs.jsonout import dumps
from ..runtime import args as _args
from ._input import add_pool_flags, add_progress_flag
from .cli import EXIT_BUDGET, UsageError, explicit_rules, path_arg


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], rules: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "survey",
        parents=[rules],
        help="solve or play a deal range into Parquet shards (resumable)",
        description="Solve (--policy solver: perfect play) or play (greedy, random) the deal "
        "numbers START .. START+COUNT-1 under one rule set, shard by shard, on a "
        "local process pool or a Dask cluster (--scheduler), writing each shard's "
        "per-deal rows as a Parquet file in DIR beside a manifest of the "
        "parameters. Run it again with the same arguments to finish an interrupted "
        "survey: only the missing shards are done. 'survey report DIR' prints the "
        "results.",
    )
    p.add_argument("--start", metavar="N", default="0", help="first deal number (default 0)")
    p.add_argument("--count", metavar="M", help="how many deals")
    p.add_argument("--out", type=path_arg, metavar="DIR", help="the survey's folder")
    p.add_argument(
        "--policy", metavar="NAME", default="solver", help="solver (default), greedy or random"
    )
    p.add_argument(
        "--seed",
        metavar="S",
        default=None,
        help="the random policy's seed (default: a fresh one, kept in the manifest)",
    )
    p.add_argument(
        "--objective",
        metavar="any|min_moves",
        default="any",
        help="solver: any winning line (default) or a shortest one",
    )
    p.add_argument(
        "--max-removed",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="solver: also the most pyramid cards removable of lost deals "
        "(default on; off saves most of the time on them)",
    )
    p.add_argument(
        "--max-seconds",
        metavar="S",
        default=None,
        help="solver: time budget per deal (default none); a deal it cannot "
        "decide is recorded as undecided",
    )
    p.add_argument(
        "--shard-size",
        metavar="K",
        default=str(_survey.DEFAULT_SHARD_SIZE),
        help=f"deals per shard (default {_survey.DEFAULT_SHARD_SIZE:,})",
    )
    add_pool_flags(p, "shards")
    add_progress_flag(p)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(func=run)
    reports = p.add_subparsers(dest="survey_action", metavar="report")
    r = reports.add_parser(
        "report",
        help="the results of a survey folder",
        description="The win rate with its 95% (Wilson) interval, the "
        "distributions of winning line lengths and of pyramid "
        "cards removed, of a survey folder (finished or not).",
    )
    r.add_argument("folder", type=path_arg, metavar="DIR")
    r.add_argument(
        "--json",
        action="store_true",
        dest="report_json",
        help="print one JSON object instead of text",
    )
    r.add_argument(
        "--plot",
        type=path_arg,
        metavar="FILE",
        default=None,
        help="also save the two distributions as a figure (needs the plot extra)",
    )
    r.set_defaults(func=run_report)


def run(args: argparse.Namespace) -> int:
    if args.count is None or args.out is None:
        raise UsageError("survey needs --count and --out (or: survey report DIR)")
    show = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        done = _survey.survey(
            args.out,
            rules=explicit_rules(args) or "pyramide",
            policy=args.policy,
            start=args.start,
            count=args.count,
            shard_size=args.shard_size,
            seed=args.seed,
            objective=args.objective,
            max_removed=args.max_removed,
            max_seconds=args.max_seconds,
            scheduler=args.scheduler,
            workers=args.workers,
            progress=show and not args.json,
        )
    except ImportError as e:
        raise UsageError(str(e)) from None
    except ValueError as e:
        raise UsageError(_flag_names(str(e))) from None
    except OSError as e:  # the disk: full, no permission... (shards kept): 74
        raise OSError(
            e.errno,
            f"{e.strerror or e} (the shards written are kept: run it again to go on)",
            e.filename or args.out,
        ) from None
    except RuntimeError as e:  # local worker processes kept dying (shards kept)
        raise UsageError(f"survey {args.out}: {e}; run it again to go on") from None
    undecided = done["undecided"]
    if args.json:
        print(dumps(done))
    else:
        rate = done["deals_per_second"]
        print(
            f"survey {done['folder']}: {_args.count_of(done['done_now'], 'shard')} done now, "
            f"{done['done_before']:,} before, of {done['shards']:,}"
            + (f"; {rate:,.0f} deals/s" if rate else "")
            + (
                f"; {_args.count_of(undecided, 'deal')} undecided (a budget ran out)"
                if undecided
                else ""
            )
        )
    if undecided:  # not an answer for those deals: the budget status, as solve says it
        print(
            f"pyramid-solitaire: a budget ran out before {_args.count_of(undecided, 'deal')} "
            "of this run could be decided (their rows say won -1; run again with a larger "
            "--max-seconds in another folder to decide them)",
            file=sys.stderr,
        )
        return EXIT_BUDGET
    return 0


_FLAGS = {
    "start": "--start",
    "count": "--count",
    "shard_size": "--shard-size",
    "seed": "--seed",
    "policy": "--policy",
    "objective": "--objective",
    "max_seconds": "--max-seconds",
    "max_removed": "--max-removed",
    "workers": "--workers",
    "scheduler": "--scheduler",
}


def _flag_names(message: str) -> str:
    """A survey() error as the command line says it: its parameters as the flags."""
    message = (
        message.replace(
            "objective, max_seconds and max_removed", "--objective, --max-seconds and --max-removed"
        )
        .replace("with policy 'solver' only", "with --policy solver")
        .replace("with policy 'random' only", "with --policy random")
    )
    for name, flag in _FLAGS.items():
        if message.startswith(name + " "):
            return flag + message[len(name) :]
    return message


def run_report(args: argparse.Namespace) -> int:
    try:
        rep = _survey.report(args.folder)
    except OSError as e:  # reading the folder: bad input (2)
        raise UsageError(f"survey report: {e.strerror or e}: {e.filename or args.folder}") from None
    if args.plot is not None:  # writing the figure: a failure is exit status 74
        try:
            _survey.plot(rep, args.plot)
        except ImportError as e:
            raise UsageError(str(e)) from None
        except ValueError as e:  # the file's name
            raise UsageError("--" + str(e)) from None
    print(dumps(rep) if args.report_json else _survey.report_text(rep))
    return 0
