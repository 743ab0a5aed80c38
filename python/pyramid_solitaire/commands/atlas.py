"""``pyramid-solitaire atlas``: the win-rate atlas's rows, runs, checks and report (see
pyramid_solitaire.atlas and docs/atlas.md)."""

from __future__ import annotations

import argparse
import fnmatch
import sys
from typing import Any

from ..analysis import atlas as _atlas
from ..inputs.jsonout import dumps
from ..runtime import args as _args
from ._input import add_pool_flags, add_progress_flag
from .cli import EXIT_BUDGET, UsageError, path_arg

#: A check that disagrees with its file, or a run that left deals undecided: status 1.
EXIT_DISAGREES = EXIT_BUDGET


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], rules: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "atlas",
        help="perfect-play win rates of many rule sets, kept as block files",
        description="The win-rate atlas: the exact solver decides every deal of a row (a "
        "named rule set) in blocks of deal numbers, each written as a small JSON file "
        "OUT/<row>/<first>-<last>.json (default OUT: data/atlas). 'atlas rows' lists "
        "the rows, 'atlas run' fills a deal range (resumable, on a local process pool "
        "or a Dask cluster), 'atlas check' recomputes a block, 'atlas report' builds "
        "the table, 'atlas readings' compares the readings of the published one-pass "
        "rows. See docs/atlas.md.",
    )
    actions = p.add_subparsers(dest="atlas_action", metavar="ACTION", required=True)

    r = actions.add_parser(
        "rows",
        help="the registered rows",
        description="The registered rows: name, rules, published value.",
    )
    r.add_argument(
        "--group",
        metavar="NAME",
        action="append",
        help="only this group (repeat it for several): " + ", ".join(_atlas.GROUPS),
    )
    r.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    r.set_defaults(func=run_rows)

    r = actions.add_parser(
        "run",
        help="decide a deal range of rows, block by block",
        description="Decide the deals START..START+COUNT-1 of each ROW (a name, or a "
        "pattern such as 'reading-once-overlap-*'), one task per block, writing each "
        "finished block as a file. Blocks already on disk are kept: run it again to "
        "finish an interrupted run or to extend a row. Exit status 1 when deals were "
        "left undecided (only with --max-seconds, or the solver's memory budget).",
    )
    r.add_argument("row", metavar="ROW", nargs="+", help="row names or patterns")
    r.add_argument("--start", metavar="N", default="0", help="first deal number (default 0)")
    r.add_argument("--count", metavar="N", required=True, help="how many deals")
    r.add_argument(
        "--block",
        metavar="N",
        default=str(_atlas.DEFAULT_BLOCK),
        help=f"deals per block, a task and a file (default {_atlas.DEFAULT_BLOCK:,}); blocks "
        "are cut at its multiples",
    )
    _out(r)
    add_pool_flags(r, "blocks")
    r.add_argument(
        "--max-seconds",
        metavar="S",
        default=None,
        help="a time budget per deal (default none: every deal is decided)",
    )
    add_progress_flag(r)
    r.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    r.set_defaults(func=run_run)

    r = actions.add_parser(
        "check",
        help="recompute a block and compare it with its file",
        description="Decide the deals of ROW's block starting at FIRST again here and "
        "compare the wins, the undecided deals and the results' digest with the file "
        "(exit status 1 when they differ). --sample N decides N of its deals drawn at "
        "random instead: the file's rate must lie in the sample's 99.9% interval.",
    )
    r.add_argument("row", metavar="ROW")
    r.add_argument("first", metavar="FIRST", help="the block's first deal number")
    r.add_argument("--sample", metavar="N", default=None, help="decide N random deals of it")
    r.add_argument("--seed", metavar="S", default=None, help="the sample's seed")
    _out(r)
    add_progress_flag(r)
    r.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    r.set_defaults(func=run_check)

    for name, text in (
        ("report", "the table of every row with blocks, as Markdown"),
        ("readings", "the readings of the published one-pass rows against their values"),
    ):
        r = actions.add_parser(
            name,
            help=text,
            description=(
                "Per row with blocks in OUT: deals, wins, win rate, 95% (Wilson) interval, "
                "deals not decided, solving time, blocks, and the published value with "
                "whether it lies inside the interval; a Markdown table (ready for the "
                "README). Every block file is checked as it is read."
                if name == "report"
                else "Each reading of the published one-pass rows with blocks in OUT: its "
                "win rate and 95% interval beside the published value, and which "
                "readings hold the published value inside their interval."
            ),
        )
        _out(r)
        if name == "report":
            r.add_argument(
                "--group",
                metavar="NAME",
                action="append",
                help="only this group (repeat it for several): " + ", ".join(_atlas.GROUPS),
            )
        r.add_argument("--json", action="store_true", help="print one JSON object instead")
        r.add_argument(
            "--plot",
            type=path_arg,
            metavar="FILE",
            default=None,
            help="also save the rates and intervals as a figure (needs the plot extra)",
        )
        r.set_defaults(func=run_report if name == "report" else run_readings)


def _out(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--out",
        type=path_arg,
        metavar="DIR",
        default=_atlas.DEFAULT_OUT,
        help=f"the atlas folder (default {_atlas.DEFAULT_OUT})",
    )


_FLAGS = {
    "start": "--start",
    "count": "--count",
    "block": "--block",
    "workers": "--workers",
    "max_seconds": "--max-seconds",
    "sample": "--sample",
    "seed": "--seed",
    "first": "FIRST",
    "group": "--group",
    "out": "--out",
    "plot": "--plot",
}


def _flag_names(message: str) -> str:
    """An atlas error as the command line says it: its parameters as the flags."""
    for name, flag in _FLAGS.items():
        if message.startswith(name + " "):
            return flag + message[len(name) :]
    return message


def _rows_of(patterns: list[str]) -> list[str]:
    names: list[str] = []
    for pattern in patterns:
        if any(ch in pattern for ch in "*?["):
            found = fnmatch.filter(_atlas.ROWS, pattern.strip().lower())
            if not found:
                raise UsageError(f"no atlas row matches {pattern!r} (see 'atlas rows')")
        else:
            found = [_atlas.row(pattern).name]
        names += [n for n in found if n not in names]
    return names


def run_rows(args: argparse.Namespace) -> int:
    try:
        chosen = _atlas.rows(args.group)
    except ValueError as e:
        raise UsageError(_flag_names(str(e))) from None
    if args.json:
        print(dumps({"rows": [r.to_dict() for r in chosen]}))
        return 0
    width = max(len(r.name) for r in chosen)
    group = None
    for r in chosen:
        if r.group != group:
            group = r.group
            print(f"{'' if r is chosen[0] else chr(10)}{group}:")
        pub = r.published
        value = (
            f"  [published {pub.percent:.2f}% of {pub.deals:,}]"
            if pub is not None and r.group != "reading"
            else ""
        )
        print(f"  {r.name:<{width}}  {r.description}{value}")
    return 0


def _show(progress: bool | None, json: bool) -> bool:
    return (sys.stderr.isatty() if progress is None else progress) and not json


def run_run(args: argparse.Namespace) -> int:
    try:
        done = _atlas.run(
            _rows_of(args.row),
            args.start,
            args.count,
            block=args.block,
            out=args.out,
            scheduler=args.scheduler,
            workers=args.workers,
            max_seconds=args.max_seconds,
            progress=_show(args.progress, args.json),
        )
    except ImportError as e:
        raise UsageError(str(e)) from None
    except ValueError as e:
        raise UsageError(_flag_names(str(e))) from None
    except RuntimeError as e:  # local worker processes kept dying (blocks kept)
        raise UsageError(f"atlas run: {e}; run it again to go on") from None
    print(dumps(done) if args.json else _atlas.run_text(done))
    undecided = done["undecided"] + done["undecided_before"]
    if undecided:
        files = done["undecided_files"] + done["undecided_before_files"]
        shown = ", ".join(files[:5]) + (f" and {len(files) - 5:,} more" if len(files) > 5 else "")
        print(
            f"pyramid-solitaire: WARNING: {_args.count_of(undecided, 'deal')} of this range "
            f"{'is' if undecided == 1 else 'are'} NOT DECIDED "
            f"(a budget ran out) in {shown}: their rows' rates are over the decided deals "
            "only; delete these blocks and run again without --max-seconds to decide every "
            "deal",
            file=sys.stderr,
        )
        return EXIT_DISAGREES
    return 0


def run_check(args: argparse.Namespace) -> int:
    try:
        c = _atlas.check(
            args.row,
            args.first,
            out=args.out,
            sample=args.sample,
            seed=args.seed,
            progress=_show(args.progress, args.json),
        )
    except ValueError as e:
        raise UsageError(_flag_names(str(e))) from None
    print(dumps(c) if args.json else _atlas.check_text(c))
    return 0 if c["agree"] else EXIT_DISAGREES


def _report(args: argparse.Namespace, make: Any, text: Any) -> int:
    try:
        rep = make()
    except ValueError as e:
        raise UsageError(_flag_names(str(e))) from None
    except OSError as e:  # reading the folder: bad input (2)
        raise UsageError(f"atlas: {e.strerror or e}: {e.filename or args.out}") from None
    if args.plot is not None:  # writing the figure: a failure is exit status 74
        try:
            _atlas.plot(rep, args.plot)
        except (ImportError, ValueError) as e:
            raise UsageError(_flag_names(str(e))) from None
    print(dumps(rep) if args.json else text(rep))
    return 0


def run_report(args: argparse.Namespace) -> int:
    return _report(args, lambda: _atlas.report(args.out, args.group), _atlas.report_text)


def run_readings(args: argparse.Namespace) -> int:
    return _report(args, lambda: _atlas.readings(args.out), _atlas.readings_text)
