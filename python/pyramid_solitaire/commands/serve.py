"""``pyramid-solitaire serve --stdio``: the JSON-lines protocol on standard input and output."""

from __future__ import annotations

import argparse

from .cli import UsageError, path_arg


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], rules: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "serve",
        help="drive game sessions over JSON lines (for frontends)",
        description="Answer one JSON request per line with one JSON response "
        "per line (docs/protocol.md). Nothing but protocol lines "
        "goes to standard output.",
    )
    p.add_argument("--stdio", action="store_true", help="speak on standard input and output")
    p.add_argument(
        "--db", type=path_arg, metavar="PATH", help="the statistics file for the stats request"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not args.stdio:
        raise UsageError("serve needs --stdio (the only transport so far)")
    from ..session.protocol import serve

    return serve(stats_path=args.db)
