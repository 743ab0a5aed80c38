"""``pyramid-solitaire stats``: the statistics of the games played through sessions."""

from __future__ import annotations

import argparse
import sys

from ..inputs.jsonout import dumps
from ..runtime import args as _args
from ..session.stats import StatsStore
from .cli import path_arg


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], rules: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "stats",
        help="statistics of the games played",
        description="Games, wins, win rate, best score, fewest moves, fastest "
        "win, streaks and high scores of the games recorded.",
    )
    p.add_argument("--profile", metavar="P", help="one profile only (default: all)")
    p.add_argument(
        "--deal",
        metavar="DEAL",
        help="one deal only: a code (its letter names "
        "the game played), 52 card tokens or a deal "
        "number",
    )
    p.add_argument(
        "--db",
        type=path_arg,
        metavar="PATH",
        help="the statistics file (default: in the user's data directory)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument(
        "--history",
        type=int,
        default=10,
        metavar="N",
        help="the last N games played (default 10; 0: none)",
    )
    p.add_argument(
        "--reset",
        action="store_true",
        help="delete the games recorded (of --profile only, when given), after asking",
    )
    p.add_argument("--yes", action="store_true", help="with --reset: do not ask")
    p.set_defaults(func=run)


def reset(args: argparse.Namespace, profile: str | None) -> int:
    """``stats --reset``: deletes the games recorded (of ``profile``), after a yes on the
    terminal unless ``--yes``."""
    if args.deal is not None:
        raise ValueError("--reset deletes a profile's games or all of them: not with --deal")
    with StatsStore(args.db, read_only=True) as probe:
        games = probe.summary(profile)["games"]
        path = probe.path
    whose = "every game" if profile is None else f"every {profile} game"
    if not games:
        print(f"no games recorded in {path}: nothing to delete")
        return 0
    if not args.yes:
        if not sys.stdin or not sys.stdin.isatty():
            raise ValueError("--reset asks before deleting: answer on a terminal, or add --yes")
        counted = _args.count_of(games, "game")
        try:
            answer = input(f"Delete {whose} recorded ({counted}) in {path}? [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("nothing deleted")
            return 1
    with StatsStore(path) as store:
        deleted = store.reset(profile)
    print(f"deleted {_args.count_of(deleted, 'game')} from {path}")
    return 0


def run(args: argparse.Namespace) -> int:
    from ..model.profiles import Profile

    profile = None if args.profile is None else Profile.preset(args.profile).name
    if not 0 <= args.history <= 10_000:
        raise ValueError(f"--history is 0 .. 10,000 games, got {args.history}")
    if args.yes and not args.reset:
        raise ValueError("--yes answers --reset's question: give --reset too")
    if args.reset:
        return reset(args, profile)
    with StatsStore(args.db, read_only=True) as store:  # reading never writes
        data = store.summary(profile, args.deal)
        data["high_scores"] = store.high_scores(profile, 10, deal=args.deal)
        data["history"] = store.history(profile, args.history) if args.history else []
        data["file"] = str(store.path)
        data["read_only"] = store.exists and not store.writable
    if data["read_only"]:
        print(
            f"pyramid-solitaire: note: {data['file']} is read-only: read as it is (games "
            f"played cannot be recorded in it)",
            file=sys.stderr,
        )
    if args.json:
        print(dumps(data))
        return 0
    rate = "-" if data["win_rate"] is None else f"{data['win_rate'] * 100:.1f}%"
    print(
        f"{_args.count_of(data['games'], 'game')}, {data['wins']:,} won ({rate}); best score "
        f"{data['best_score'] if data['best_score'] is not None else '-'}, fewest moves "
        f"{data['fewest_moves'] if data['fewest_moves'] is not None else '-'}, fastest win "
        + (f"{data['fastest_win']:.1f} s" if data["fastest_win"] is not None else "-")
        + f"; streak {data['current_streak']} (best {data['best_streak']})"
    )
    daily = data["daily"]
    if daily["played"]:
        print(
            f"daily deals: {_args.count_of(daily['played'], 'day')} played, {daily['won']:,} "
            f"won; daily streak {daily['current_streak']} (best {daily['best_streak']})"
        )
    levels = [(k, v) for k, v in data["by_difficulty"].items() if v["games"]]
    if levels:
        print(
            "by difficulty: "
            + ", ".join(
                f"{k.replace('_', ' ')} {v['wins']:,}/{v['games']:,} ({v['win_rate'] * 100:.0f}%)"
                for k, v in levels
            )
        )
    if data["high_scores"]:
        print("high scores:")
    for i, row in enumerate(data["high_scores"], 1):
        print(
            f"{i:>3}. {row['score']:>5}  {row['moves']:>4} moves  {row['seconds']:>7.1f} s  "
            f"{row['code'] or 'card list'} ({row['profile']})"
            + (f"  {_args.count_of(row['hints'], 'hint')}" if row["hints"] else "")
            + ("  assisted" if row["assisted"] and not row["hints"] else "")
            + (f"  daily {row['daily']}" if row["daily"] else "")
        )
    if data["history"]:
        print("last games:")
    for row in data["history"]:
        print(
            f"  {row['finished_at'][:16].replace('T', ' ')}  {row['profile']:<13} "
            f"{row['result']:<9} {row['score']:>5}  {row['moves']:>4} moves  "
            f"{row['seconds']:>7.1f} s  {(row['difficulty'] or '-').replace('_', ' '):<10} "
            f"{row['code'] or 'card list'}"
            + (f"  {_args.count_of(row['hints'], 'hint')}" if row["hints"] else "")
            + (f"  daily {row['daily']}" if row["daily"] else "")
        )
    return 0
