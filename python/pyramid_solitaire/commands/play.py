"""``pyramid-solitaire play``: a game to play, in the terminal (Textual, the ``tui`` extra) or
in the browser (``--web``: a local server, the ``web`` extra). Both are frontends of the
session layer: every rule, message and score comes from :mod:`pyramid_solitaire.session`."""

from __future__ import annotations

import argparse
import os

from ..model.profiles import Profile
from ..runtime import args as _args
from ..runtime.atomic import folder_problem
from ..session.messages import LANGUAGES
from .cli import Terminated, UsageError, path_arg

EXTRA_HINT = {
    "tui": ("the terminal game needs Textual", "tui"),
    "web": ("the browser game needs aiohttp", "web"),
}


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], rules: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "play",
        help="play a game in the terminal, or in the browser with --web",
        description="Play Pyramid: in the terminal (pip install "
        '"pyramid-solitaire[tui]"), or with --web in the browser '
        "through a local server (pip install "
        '"pyramid-solitaire[web]"). docs/frontends.md has the keys.',
    )
    p.add_argument(
        "code",
        nargs="?",
        metavar="CODE",
        help="a deal code or a card list to play (default: resume the saved game, "
        "else a new random deal)",
    )
    p.add_argument(
        "--profile",
        default=None,
        help="the game: " + ", ".join(Profile.names()) + " (default: the one a "
        "CODE's letter names, else pyramide)",
    )
    p.add_argument(
        "--lang",
        default=None,
        choices=LANGUAGES,
        help="language of the messages (default: the terminal game's last one, else en)",
    )
    p.add_argument(
        "--save",
        type=path_arg,
        metavar="PATH",
        help="where games are saved: the terminal game's file, or with --web the "
        "folder of the browser games (default: in the user's data directory)",
    )
    p.add_argument(
        "--db",
        type=path_arg,
        metavar="PATH",
        help="the statistics file (default: in the user's data directory)",
    )
    p.add_argument("--web", action="store_true", help="serve the browser game instead")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="with --web: the address to listen on (default 127.0.0.1, this machine)",
    )
    p.add_argument(
        "--port",
        metavar="PORT",
        default=None,
        help="with --web: the port (default: a free one, printed at start)",
    )
    p.add_argument(
        "--no-browser", action="store_true", help="with --web: do not open a browser window"
    )
    p.set_defaults(func=run)


def _check_stats(path: str) -> None:
    """The statistics file is checked before the game starts (a game must not find out at
    its end that its record cannot be kept)."""
    from ..session.stats import StatsStore

    try:
        StatsStore(path).close()
    except ValueError as e:
        raise UsageError(f"--db: {e}") from None


def _need(extra: str) -> None:
    module = {"tui": "textual", "web": "aiohttp"}[extra]
    try:
        __import__(module)
    except ImportError:
        what, name = EXTRA_HINT[extra]
        raise UsageError(f'{what}: pip install "pyramid-solitaire[{name}]"') from None


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except OSError as e:  # a port in use, a host that is not one, a bad folder
        name = getattr(e, "filename", None)
        problem = folder_problem(os.path.join(name, "x")) if name else None  # a file in the way
        where = f" ({name})" if name else ""
        raise UsageError(
            f"cannot start the game: {problem}"
            if problem
            else f"cannot start the game: {e.strerror or e}{where}"
        ) from None


def _run(args: argparse.Namespace) -> int:
    from ..model.profiles import check_code_profile, profile_of_code

    if args.profile is not None:
        profile = Profile.preset(args.profile)  # a bad name: one line, exit 2
        check_code_profile(args.code, profile, "--profile")  # a code of other rules
    else:  # a code is played as its letter's game
        profile = profile_of_code(args.code, Profile.preset("pyramide"), unnamed="--profile")
    if args.db is not None:
        _check_stats(args.db)
    if args.save is not None:
        problem = folder_problem(args.save)  # (its folders; --save itself is looked at below)
        if problem is not None:
            raise UsageError(f"--save {args.save}: {problem}")
    if args.web:
        if args.code is not None:  # checked here: one line, exit 2
            from ..model.deal import Deal

            args.code = Deal.parse(args.code).code
            if not args.code:
                raise UsageError(
                    "with --web, give a deal code (a card list: paste it into the page)"
                )
        port = 0 if args.port is None else _args.whole("--port", args.port, 0, 65535)
        _need("web")
        if args.save is not None and os.path.exists(args.save) and not os.path.isdir(args.save):
            raise UsageError(
                f"--save {args.save}: with --web, --save names a folder (the "
                "browser games are kept in it), and this is a file"
            )
        from ..web import run_web

        return run_web(
            host=args.host,
            port=port,
            profile=profile.name,
            lang=args.lang or "en",
            data_dir=args.save,
            stats_path=args.db,
            open_browser=not args.no_browser,
            code=args.code,
        )
    for flag in ("host", "port", "no_browser"):
        default = {"host": "127.0.0.1", "port": None, "no_browser": False}[flag]
        if getattr(args, flag) != default:
            raise UsageError(f"--{flag.replace('_', '-')} goes with --web")
    _need("tui")
    from ..tui import TERMINATED, run_tui

    status = run_tui(
        code=args.code,
        profile=profile.name,
        lang=args.lang,
        save_path=args.save,
        stats_path=args.db,
    )
    if status == TERMINATED:  # the game saved and ended on SIGTERM: said as everywhere
        raise Terminated()
    return status
