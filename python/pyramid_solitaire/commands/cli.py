"""The ``pyramid-solitaire`` command line.

Every subcommand shares the rule flags: ``--rules PRESET`` picks a preset (default: the deal
code's own, else ``pyramide``) and the option flags change single options on top of it.
Every failure prints one line on standard error (when it is open) and has its own exit
status (README, "Exit status"):

- 0: done.
- 1 (:data:`EXIT_BUDGET`): a budget (``--max-nodes``, ``--max-seconds``, ...) ran out before
  an answer that needs one.
- 2 (:data:`EXIT_USAGE`): bad input: ``pyramid-solitaire: error: ...`` names the part and
  what was expected (reading deals from a closed standard input is bad input too).
- 74 (:data:`EXIT_IO`): something could not be written: standard output is closed
  (``>&-``), the disk is full (``> /dev/full``), a file cannot be written.
- 130 (:data:`EXIT_INTERRUPTED`): Ctrl-C, with ``pyramid-solitaire: interrupted``.
- 143 (:data:`EXIT_TERMINATED`): SIGTERM (``kill``), with ``pyramid-solitaire: terminated``:
  stopped as Ctrl-C stops it (worker processes stopped too, finished files kept).
- 141 (:data:`EXIT_PIPE`): the reader of standard output went away (``... | head -1``):
  quietly, as a shell reports a writer whose reader left.

A closed standard error (``2>&-``) changes nothing but that the lines are not shown: the
exit status still tells what happened.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn, cast

from .. import __version__
from ..model.deal import Deal, code_rules
from ..model.options import OPTIONS
from ..model.rules import Rules

PROG = "pyramid-solitaire"
# Subcommands, one module each in pyramid_solitaire/commands/ with register(subparsers, rules).
COMMANDS = ["deal", "solve", "simulate", "survey", "sweep", "atlas", "stats", "serve", "play"]
EXIT_BUDGET = 1  # a budget ran out before an answer that needs one
EXIT_USAGE = 2
EXIT_IO = 74  # sysexits' EX_IOERR: output that cannot be written
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # 128 + SIGTERM
EXIT_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a writer whose reader left


class UsageError(ValueError):
    pass


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C's KeyboardInterrupt would be, so that it stops what runs
    the same way (pools' worker processes stopped, files written whole or not at all)."""


def _raise_terminated(signum: int, frame: object) -> None:
    # `timeout` and service managers send SIGCONT right after SIGTERM (to wake a stopped
    # process): once ending, resuming means nothing, and a terminal UI's own SIGCONT handler
    # (Textual's restores the screen on its event loop) must not run while it shuts down.
    # A Python no-op, not SIG_DFL: a SIGCONT already pending would find no Python handler
    # and CPython 3.10 prints "Signal 18 ignored due to race condition" as a traceback.
    if hasattr(signal, "SIGCONT"):
        signal.signal(signal.SIGCONT, _ignore_signal)
    raise Terminated()


def _ignore_signal(signum: int, frame: object) -> None:
    """A handler that does nothing (see _raise_terminated)."""


@contextlib.contextmanager
def whole_output() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait while what is inside writes (an answer is printed whole, and
    what was done is counted right); a second one does not wait (a reader that stopped
    reading must not keep the command from ending). Main thread only; elsewhere a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[tuple[int, Any]] = []
    before: dict[int, Any] = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

    def later(signum: int, frame: Any) -> None:
        if caught:  # the second: at once
            _call_handler(before[signum], signum, frame)
        caught.append((signum, frame))

    for sig in before:
        signal.signal(sig, later)
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
    if caught:
        _call_handler(before[caught[0][0]], *caught[0])


def write_whole(text: str) -> None:
    """``text`` and a new line on standard output, all of it even when a signal comes while
    it is written (a buffered write to a pipe that fills, interrupted, can drop the rest:
    the bytes go out with os.write, which is told how much went)."""
    out = sys.stdout
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's StringIO)
        out.write(text + "\n")
        out.flush()
        return
    out.flush()
    view = memoryview((text + "\n").encode(out.encoding or "utf-8", out.errors or "strict"))
    while view:
        view = view[os.write(fd, view) :]


def _call_handler(handler: Any, signum: int, frame: Any) -> None:
    if callable(handler):
        handler(signum, frame)
    elif handler == signal.SIG_DFL and signum == signal.SIGTERM:
        raise Terminated()
    elif handler != signal.SIG_IGN:
        raise KeyboardInterrupt


def _catch_sigterm() -> object:
    """Turn SIGTERM into Terminated while main() runs (main thread only: elsewhere signals
    cannot be caught); the handler it replaces, for main() to put back."""
    if threading.current_thread() is not threading.main_thread():
        return None
    before = signal.signal(signal.SIGTERM, _raise_terminated)
    return signal.SIG_DFL if before is None else before  # (None: not set from Python)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line like every other error (exit status 2),
    pointing at the help of the command it is about."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_defaults(_prog=self.prog)  # the deepest subcommand's wins

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        ns, extras = self.parse_known_args(args, namespace)
        if extras:  # said by the subcommand that was given them, not the top level
            self._fail(f"unrecognized arguments: {' '.join(extras)}", getattr(ns, "_prog", None))
        return ns

    def _print_message(self, message: str, file: Any = None) -> None:
        """As argparse's, but a write that fails (``--help > /dev/full``) is not hidden."""
        if message:
            (file or sys.stderr).write(message)

    def error(self, message: str) -> NoReturn:
        self._fail(message, None)

    def _fail(self, message: str, prog: str | None) -> NoReturn:
        prog = prog or self.prog
        self.exit(EXIT_USAGE, f"{PROG}: error: {_one_line(message)} (see '{prog} --help')\n")


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def path_arg(value: str) -> str:
    """A file or folder name given on the command line (the ``type=`` of every path flag):
    an empty one is refused, never read as standard input or the current folder."""
    if not value.strip():
        raise argparse.ArgumentTypeError(
            "an empty name is no file or folder: give a path" + (" (blank)" if value else "")
        )
    return value


def rule_flags() -> argparse.ArgumentParser:
    """The rule flags every subcommand shares."""
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("rules")
    g.add_argument(
        "--rules",
        metavar="PRESET",
        help="preset: " + ", ".join(Rules.preset_names()) + " (or its letter)",
    )
    for option in OPTIONS:  # each option's flag, as its table declares it
        if option.metavar is None:
            g.add_argument(
                option.flag,
                dest=option.name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=option.help,
            )
        else:
            g.add_argument(option.flag, dest=option.name, metavar=option.metavar, help=option.help)
    return p


def rule_changes(args: argparse.Namespace) -> dict[str, object]:
    """The option flags given, by option name."""
    given = {o.name: getattr(args, o.name) for o in OPTIONS}
    return {name: value for name, value in given.items() if value is not None}


def _with_flags(base: Rules, changes: dict[str, object]) -> Rules:
    """``base`` with the option flags applied; errors name the flags, not the options."""
    if not changes:
        return base
    try:
        return base.replace(**changes)
    except ValueError as e:
        text = str(e)
        for option in OPTIONS:

            def flag(m: re.Match[str], f: str = option.flag) -> str:
                return f + (" " if m.group(1) else "")

            text = re.sub(rf"\b{option.name}\b(=?)", flag, text)
        raise UsageError(text) from None


def explicit_rules(args: argparse.Namespace) -> Rules | None:
    """The rules the flags name on their own (None when no rule flag was given): ``--rules``
    (default pyramide) with the option flags on top."""
    changes = rule_changes(args)
    if args.rules is None and not changes:
        return None
    return _with_flags(Rules.preset(args.rules) if args.rules is not None else Rules(), changes)


def rules_from_args(args: argparse.Namespace, deal: Deal | None = None) -> Rules:
    """The rules to play ``deal`` under: ``--rules`` (which must agree with a code's letter),
    else the deal's own, else pyramide; the option flags change options on top of it."""
    changes = rule_changes(args)
    given = Rules.preset(args.rules) if args.rules is not None else None
    if deal is not None and deal.number is not None and deal.code is not None:
        # a code: its letter's preset, or --rules (the flags alone for an X code)
        base = code_rules(
            deal.code,
            deal.rules,
            given if given is not None or not changes or deal.rules is not None else Rules(),
            cli=True,
        )
    else:
        base = (
            given
            if given is not None
            else (deal.rules if deal is not None and deal.rules is not None else Rules())
        )
    return _with_flags(base, changes)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG, description="Pyramid Solitaire engine: deals, rules, solver, simulator."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=_Parser
    )
    rules = rule_flags()
    for name in COMMANDS:
        module = importlib.import_module(f".{name}", __package__)
        module.register(sub, rules)
    return parser


def _silence_stdout() -> None:
    """After the reader of stdout went away: send what is still buffered nowhere, so that
    the interpreter's last flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real stdout
        pass


def _say(text: str) -> None:
    """One line on standard error, when it can be written (``2>&-`` closes it)."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        print(text, file=stream, flush=True)
    except (OSError, ValueError):
        pass


def _cannot_write(e: OSError) -> str:
    what = e.filename if getattr(e, "filename", None) else "the output"
    return f"{PROG}: error: cannot write {what}: {e.strerror or e}"


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stderr is None:  # 2>&-: notes and progress go nowhere, statuses still tell
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    if sys.stdout is None:  # >&-: print() would drop everything without a word
        _say(f"{PROG}: error: standard output is closed: nothing can be written")
        return EXIT_IO
    before = _catch_sigterm()
    try:
        return _main(argv)
    except Terminated:  # (a SIGTERM just as _main returned)
        _say(f"{PROG}: terminated")
        return EXIT_TERMINATED
    finally:
        if before is not None:
            signal.signal(signal.SIGTERM, before)  # type: ignore[arg-type]


#: The extra that brings each optional module (pyproject.toml's optional-dependencies).
_EXTRA_OF = {
    "pyarrow": "survey",
    "matplotlib": "plot",
    "textual": "tui",
    "rich": "tui",
    "aiohttp": "web",
    "distributed": "distributed",
    "dask": "distributed",
    "gymnasium": "rl",
}


def _main(argv: Sequence[str] | None) -> int:
    from ..analysis.solver import SearchBudgetExceeded

    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as e:  # --help, --version (0) and usage errors (2): printed
            sys.stdout.flush()  # --help > /dev/full is a failure too
            return e.code if isinstance(e.code, int) else EXIT_USAGE
        status = args.func(args)
        sys.stdout.flush()  # a full disk shows here, not at the interpreter's exit
        return cast(int, status)
    except ValueError as e:
        _say(f"{PROG}: error: {_one_line(e)}")
        return EXIT_USAGE
    except ImportError as e:  # an optional part whose extra is not installed: one line
        extra = _EXTRA_OF.get((e.name or "").split(".")[0])
        if extra is None:
            raise
        said = _one_line(e)
        if "pip install" not in said:
            said = f'{said}: this needs the {extra} extra: pip install "pyramid-solitaire[{extra}]"'
        _say(f"{PROG}: error: {said}")
        return EXIT_USAGE
    except SearchBudgetExceeded as e:
        _say(f"{PROG}: {_one_line(e)}")
        return EXIT_BUDGET
    except Terminated:
        _say(f"{PROG}: terminated")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        _say(f"{PROG}: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE
    except OSError as e:  # a full disk, a closed descriptor, a file not writable
        _silence_stdout()
        _say(_cannot_write(e))
        return EXIT_IO


def run() -> None:
    """The console script's entry point."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
