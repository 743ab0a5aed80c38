"""``pyramid-solitaire solve``: decide deals exactly and print a winning line."""

from __future__ import annotations

import argparse
import sys

from ..analysis.solver import _budgets, solve_flagged
from ..model.game import Game, IllegalMoveError
from ..model.move import Move
from ..runtime import parallel as _parallel
from ..runtime.args import excerpt
from ._answers import Answers, render
from ._input import Line, add_budget_flags, budgets, parse_deal
from ._solve_file import run_file
from .cli import EXIT_BUDGET, UsageError, path_arg


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], rules: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "solve",
        parents=[rules],
        help="decide deals exactly, with a winning line",
        description="Decide whether deals can be won, exactly, and print a "
        "winning line (the shortest with --min-moves). Exit "
        "status 1 when a budget ran out before the answer asked "
        "for (whether a deal can be won; a line proved shortest; "
        "the most cards removable).",
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "deal",
        metavar="CODE",
        nargs="?",
        help="a deal code such as PY1-M-AAAAAAS or 52 card tokens (quoted); "
        "- reads deals from standard input like --file -",
    )
    src.add_argument("--cards", metavar="TOKENS", help="a deal as 52 card tokens (quoted)")
    src.add_argument(
        "--file",
        type=path_arg,
        metavar="FILE",
        help="one deal per line (a code or 52 card tokens); '-' reads standard input",
    )
    p.add_argument(
        "--moves",
        metavar="MOVES",
        help='solve from the position after these moves, e.g. "Kc 3d+Tc draw"',
    )
    p.add_argument("--min-moves", action="store_true", help="find a shortest winning line")
    p.add_argument(
        "--max-removed",
        action="store_true",
        help="for a deal that cannot be won: the most pyramid cards any line removes, "
        "and such a line",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per deal, one per line")
    add_budget_flags(p, "deal")
    p.add_argument(
        "--threads",
        metavar="T",
        help="--file: deals solved at once (default: all cores; -1 all, -2 all but one)",
    )
    p.add_argument(
        "--skip-bad",
        action="store_true",
        help="--file: skip lines that are not deals (reported on stderr)",
    )
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress on stderr (default: when stderr is a terminal)",
    )
    p.set_defaults(func=run)


def _start_game(line: Line, moves: str | None) -> Game:
    game = Game(line.deal)
    if moves is None:
        return game
    tokens = moves.replace(",", " ").split()
    for i, token in enumerate(tokens, 1):
        try:
            game.play(Move.parse(token))
        except (IllegalMoveError, ValueError) as e:
            raise UsageError(f"--moves: move {i} {excerpt(token, 30)}: {e}") from None
    return game


def run(args: argparse.Namespace) -> int:
    objective = "min_moves" if args.min_moves else "any"
    budget = _budgets(**budgets(args))
    show = sys.stderr.isatty() if args.progress is None else args.progress
    if args.file is not None or args.deal == "-":
        if args.moves is not None:
            raise UsageError("--moves goes with one deal, not with --file")
        return run_file(args, args.file or "-", objective, budget, show)
    if args.threads is not None or args.skip_bad:
        raise UsageError("--threads and --skip-bad go with --file")
    line = parse_deal(args.cards if args.cards is not None else args.deal, args, "the argument")
    game = _start_game(line, args.moves)
    bar = _parallel.Progress(0, "s", show, desc="solving", delay=1.0)
    s, best = _parallel.run_call(
        lambda flag: solve_flagged(game, objective, budget, flag, args.max_removed), progress=bar
    )
    assert line.deal.rules is not None  # (a line's deal is named under its rules)
    answers = Answers.of_solution(line.deal.code or line.text, line.deal.rules, s, best)
    print(render(args, answers), flush=True)
    if answers.short(args):  # "unknown" is not an answer: say so, status 1
        print(
            f"pyramid-solitaire: a budget ran out before the answer asked for "
            f"({s.stopped_by or 'memory'})",
            file=sys.stderr,
        )
        return EXIT_BUDGET
    return 0
