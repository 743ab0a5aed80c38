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
        "--protocol",
        type=int,
        choices=(1, 2),
        default=1,
        help="the version spoken from the start (default 1; a hello may ask for 2)",
    )
    p.add_argument(
        "--schema",
        type=int,
        nargs="?",
        const=2,
        choices=(1, 2),
        metavar="VERSION",
        help="print the protocol's JSON Schema (version 2 unless 1 is given) and exit",
    )
    p.add_argument(
        "--db", type=path_arg, metavar="PATH", help="the statistics file for the stats request"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.schema is not None:
        from ..session.ops import schema_text

        print(schema_text(args.schema))
        return 0
    if not args.stdio:
        raise UsageError("serve needs --stdio (the only transport so far)")
    from ..session.protocol import serve

    return serve(stats_path=args.db, protocol=args.protocol)
