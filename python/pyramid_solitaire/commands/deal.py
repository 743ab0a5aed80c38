"""``pyramid-solitaire deal CODE``: show a deal's layout."""

from __future__ import annotations

import argparse

from ..inputs.jsonout import dumps
from ..model.game import Game
from ._input import MAX_LINE_CHARS, TOO_LONG, deal_lines, parse_deal
from .cli import UsageError


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], rules: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "deal",
        parents=[rules],
        help="show a deal's layout",
        description="Show the layout of a deal code (PY1-N-AAAAAAS) or a card list.",
    )
    p.add_argument(
        "deal",
        metavar="CODE",
        help="a deal code, a quoted list of 52 card tokens, or - to read one from standard input",
    )
    p.add_argument(
        "--format",
        choices=("text", "cards", "json"),
        default="text",
        help="text: draw the table; cards: the 52 ASCII tokens; json: the layout",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # the cards of a deal do not depend on the rules: --format cards needs none for an X code
    need_rules = args.format != "cards"
    if args.deal == "-":
        name = "standard input"
        rows: list[str] = []
        for where, content in deal_lines("-"):  # streamed: blank lines cost nothing
            if content is TOO_LONG or sum(map(len, rows)) + len(content) > MAX_LINE_CHARS:
                raise UsageError(
                    f"{where}: a deal is a code, a deal number or 52 card tokens, got "
                    f"over {MAX_LINE_CHARS:,} characters (deal shows one; solve - reads many)"
                )
            rows.append(content)
        if not rows:
            raise UsageError(f"{name} holds no deal")
        if len(rows) > 1 and all(len(r.split()) == 1 for r in rows):
            raise UsageError(f"{name} holds {len(rows)} deals; deal shows one (solve - reads many)")
        line = parse_deal(" ".join(" ".join(rows).split()), args, name, rules=need_rules)
    else:
        line = parse_deal(args.deal, args, "the argument", rules=need_rules)
    if args.format == "cards":
        print(line.deal.to_cards())
        return 0
    game = Game(line.deal)
    if args.format == "json":
        data = line.deal.to_dict()
        data["rules"] = game.rules.describe_dict()
        print(dumps(data))
    else:
        print(game)
    return 0
