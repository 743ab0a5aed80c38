"""``pyramid-solitaire solve``: decide deals exactly and print a winning line."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..analysis.solver import _budgets, solve_flagged
from ..inputs.jsonout import dumps
from ..model.game import Game, IllegalMoveError
from ..model.move import Move
from ..runtime import args as _args
from ..runtime import parallel as _parallel
from ..runtime.args import excerpt
from ._input import Line, add_budget_flags, budgets, parse_deal, read_deal_file, report_bad, threads
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
        return _run_file(args, args.file or "-", objective, budget, show)
    if args.threads is not None or args.skip_bad:
        raise UsageError("--threads and --skip-bad go with --file")
    line = parse_deal(args.cards if args.cards is not None else args.deal, args, "the argument")
    game = _start_game(line, args.moves)
    bar = _parallel.Progress(0, "s", show, desc="solving", delay=1.0)
    s, best = _parallel.run_call(
        lambda flag: solve_flagged(game, objective, budget, flag, args.max_removed), progress=bar
    )
    print(_render(args, line, s, best), flush=True)
    if _short(args, s, best):  # "unknown" is not an answer: say so, status 1
        print(
            f"pyramid-solitaire: a budget ran out before the answer asked for "
            f"({s.stopped_by or 'memory'})",
            file=sys.stderr,
        )
        return EXIT_BUDGET
    return 0


def _short(args: argparse.Namespace, s: Any, best: Any) -> bool:
    """Whether a budget ran out before the answer asked for: whether the deal can be won,
    and with --min-moves a line proved shortest, with --max-removed the most removable."""
    return (
        s.winnable is None
        or (args.min_moves and bool(s.winnable) and not s.optimal)
        or (args.max_removed and s.winnable is False and best is None)
    )


def _run_file(
    args: argparse.Namespace, path: str, objective: str, budget: dict[str, Any], show: bool
) -> int:
    lines, bad = read_deal_file(path, args, args.skip_bad)
    t0 = time.perf_counter()
    counts = {"winnable": 0, "cannot be won": 0, "unknown": 0}
    short = 0
    bar = _parallel.Progress(len(lines), "deals", show)

    def some(chunk: list[Line], flag: Any) -> list[tuple[Any, ...]]:
        return [
            solve_flagged(Game(line.deal), objective, budget, flag, args.max_removed)
            for line in chunk
        ]

    # Deals go to the threads in chunks (a thread's hand-over costs more than an easy solve),
    # short enough that every thread has work and the first answers come soon.
    n_threads = _parallel.resolve_threads(threads(args))
    size = max(1, min(256, len(lines) // (8 * n_threads)))
    chunks = [lines[i : i + size] for i in range(0, len(lines), size)]
    try:
        done = _parallel.map_ordered(some, chunks, n_threads, what="solve --file")
        results = (answer for chunk in done for answer in chunk)
        for line, (s, best) in zip(lines, results):
            text = _render(args, line, s, best)
            bar.write(text)
            bar.update(1)
            counts[
                "unknown" if s.winnable is None else "winnable" if s.winnable else "cannot be won"
            ] += 1
            short += _short(args, s, best)
    finally:
        bar.close()
    seconds = time.perf_counter() - t0
    summary = (
        f"{_args.count_of(len(lines), 'deal')}: {counts['winnable']:,} winnable, "
        f"{counts['cannot be won']:,} cannot be won, {counts['unknown']:,} unknown "
        f"(a budget ran out); {seconds:.2f} s"
    )
    print(summary, file=sys.stderr if args.json else sys.stdout)
    report_bad(bad)
    if short:
        print(
            f"pyramid-solitaire: a budget ran out before the answer asked for, for "
            f"{short:,} of the {_args.count_of(len(lines), 'deal')}",
            file=sys.stderr,
        )
        return EXIT_BUDGET
    return 0


def _render(args: argparse.Namespace, line: Line, s: Any, best: Any) -> str:
    name = line.deal.code or line.text
    if args.json:
        d = s.to_dict()
        d["deal"] = name
        if args.moves is not None:
            d["from_moves"] = args.moves.replace(",", " ").split()
        if args.max_removed:
            d["max_removed"] = 28 if s.winnable else (None if best is None else best[0])
            d["max_removed_moves"] = (
                None if s.winnable or best is None else [str(m) for m in best[1]]
            )
        return dumps(d)
    assert line.deal.rules is not None  # (a line's deal is named under its rules)
    head = f"{name} ({line.deal.rules.name}): "
    if s.winnable is None:
        out = [
            head + f"unknown: the {s.stopped_by} budget ran out "
            f"({s.nodes:,} positions, {s.seconds:.2f} s)"
        ]
    elif not s.winnable:
        out = [head + f"cannot be won (proved: {s.nodes:,} positions, {s.seconds:.3f} s)"]
        if args.max_removed:
            out.append(
                "  most pyramid cards removable: unknown (a budget ran out)"
                if best is None
                else f"  most pyramid cards removable: {best[0]}, by this line of "
                f"{len(best[1])} moves:"
            )
            if best is not None:
                out += _line_rows(best[1])
    else:
        kind = "shortest winning line" if s.optimal else "winning line"
        if s.objective == "min_moves" and not s.optimal:
            kind += (
                f" (not proved shortest: the {s.stopped_by} budget ran out)"
                if s.stopped_by
                else " (not proved shortest)"
            )
        out = [head + f"{kind} of {s.n_moves} moves ({s.nodes:,} positions, {s.seconds:.3f} s)"]
        out += _line_rows(s.moves)
    return "\n".join(out)


def _line_rows(moves: list[Move]) -> list[str]:
    cells = [f"{i + 1:>3}. {m.symbols()}" for i, m in enumerate(moves)]
    return [
        "  " + "  ".join(f"{x:<14}" for x in cells[k : k + 6]).rstrip()
        for k in range(0, len(cells), 6)
    ]
