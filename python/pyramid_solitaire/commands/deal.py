"""``pyramid-solitaire deal CODE``: show a deal's layout."""
from __future__ import annotations

import argparse
import json

from ..cli import rules_from_args
from ..deal import Deal
from ..game import Game


def register(sub: argparse._SubParsersAction, rules: argparse.ArgumentParser) -> None:
    p = sub.add_parser("deal", parents=[rules], help="show a deal's layout",
                       description="Show the layout of a deal code (PY1-N-AAAAAAS) or a card list.")
    p.add_argument("deal", metavar="CODE", help="a deal code, or a quoted list of 52 card tokens")
    p.add_argument("--format", choices=("text", "cards", "json"), default="text",
                   help="text: draw the table; cards: the 52 ASCII tokens; json: the layout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    deal = Deal.parse(args.deal)
    rules = rules_from_args(args, deal)
    game = Game(deal, rules)
    if args.format == "cards":
        print(deal.to_cards())
    elif args.format == "json":
        data = game.deal.to_dict()
        data["rules"] = {"name": rules.name, "letter": rules.letter, **rules.to_dict()}
        print(json.dumps(data))
    else:
        print(game)
    return 0


