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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..model.profiles import Profile

    profile = None if args.profile is None else Profile.preset(args.profile).name
    with StatsStore(args.db, read_only=True) as store:  # reading never writes
        data = store.summary(profile, args.deal)
        data["high_scores"] = store.high_scores(profile, 10, deal=args.deal)
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
    for i, row in enumerate(data["high_scores"], 1):
        print(
            f"{i:>3}. {row['score']:>5}  {row['moves']:>4} moves  {row['seconds']:>7.1f} s  "
            f"{row['code'] or 'card list'} ({row['profile']})"
            + ("  assisted" if row["assisted"] else "")
        )
    return 0
