"""The ``pyramid-solitaire`` command line.

Every subcommand shares the rule flags: ``--rules PRESET`` picks a preset (default: the deal
code's own, else ``pyramide``) and the option flags change single options on top of it.
Bad input prints one line, ``pyramid-solitaire: error: ...``, and exits with status 2.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn, Sequence

from . import __version__
from .deal import Deal
from .game import resolve_rules
from .rules import Rules

PROG = "pyramid-solitaire"
# Subcommands, one module each in pyramid_solitaire/commands/ with register(subparsers, rules).
COMMANDS = ["deal", "solve", "simulate"]


class UsageError(ValueError):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line like every other error (exit status 2)."""

    def error(self, message: str) -> "NoReturn":  # type: ignore[override]
        self.exit(2, f"{PROG}: error: {message} (see '{self.prog} --help')\n")


def rule_flags() -> argparse.ArgumentParser:
    """The rule flags every subcommand shares."""
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("rules")
    g.add_argument("--rules", metavar="PRESET",
                   help="preset: " + ", ".join(Rules.preset_names()) + " (or its letter)")
    g.add_argument("--redeals", metavar="N|unlimited", help="how many times the waste may be recycled")
    g.add_argument("--waste-at-deal", metavar="0|1", help="cards turned onto the waste at the deal")
    g.add_argument("--draw", metavar="1|3", help="draw one card, or three onto three waste piles")
    g.add_argument("--win", metavar="pyramid|all", help="clear the pyramid, or remove all 52 cards")
    for flag, text in (("stock-top-playable", "the stock's top card is available"),
                       ("pair-waste-top-two", "the top two waste cards may pair"),
                       ("pair-with-covering", "a card may pair with the only card covering it")):
        g.add_argument(f"--{flag}", action=argparse.BooleanOptionalAction, default=None, help=text)
    return p


def rules_from_args(args: argparse.Namespace, deal: Deal | None = None) -> Rules:
    """The preset (``--rules``, else the deal's, else pyramide) with the option flags applied."""
    if args.rules is not None:
        base = Rules.preset(args.rules)
    elif deal is not None and (deal.rules is not None or deal.number is None):
        base = resolve_rules(deal, None)
    else:
        base = Rules()
    changes: dict[str, object] = {}
    for name in ("redeals", "waste_at_deal", "draw", "win"):
        value = getattr(args, name)
        if value is not None:
            changes[name] = int(value) if name in ("waste_at_deal", "draw") and value.isdigit() else value
    for name in ("stock_top_playable", "pair_waste_top_two", "pair_with_covering"):
        if getattr(args, name) is not None:
            changes[name] = getattr(args, name)
    if (deal is not None and deal.number is not None and deal.rules is None
            and args.rules is None and not changes):
        raise UsageError(f"deal {deal.code} uses custom rules (letter X): give --rules and option flags")
    return base.replace(**changes) if changes else base


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Pyramid Solitaire engine: deals, rules, solver, simulator.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                parser_class=_Parser)
    rules = rule_flags()
    for name in COMMANDS:
        module = importlib.import_module(f".commands.{name}", __package__)
        module.register(sub, rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, IndexError) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
