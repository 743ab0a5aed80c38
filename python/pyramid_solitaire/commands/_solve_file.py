"""``solve --file``: the deals of a file or standard input, streamed.

The file is read in blocks that grow from a few deals (the first answers come at once) to
BLOCK deals. Each block is solved on a worker thread by the core's batch entry point (no
Python between two deals), while the calling thread reads the next blocks and writes the
answers of the ones before, in the file's order (:func:`runtime.parallel.map_ordered`).
Memory stays within a few blocks whatever the file's size.

A line that is not a deal stops the run there, after the answers of the lines before it
(exit status 2), unless --skip-bad skips it; Ctrl-C (or SIGTERM) stops it too, and either
way the summary of what was done is printed first.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pyramid_core.shuffle import decks as shuffle_decks

from ..analysis.solver import LINE_WIDTH, _rows, solve_flagged, solve_lines
from ..inputs.deals import deal_number_of
from ..model.deal import Deal, codes_of
from ..model.game import Game
from ..model.rules import Rules
from ..runtime import args as _args
from ..runtime import parallel as _parallel
from ._answers import Answers, card_codes_of, render
from ._input import (
    CHUNK_END,
    _rules_for,
    deal_lines,
    no_deals,
    parse_deal,
    refuse_too_long,
    report_bad,
    threads,
)
from .cli import EXIT_BUDGET, UsageError, whole_output, write_whole

#: The most deals a block holds (the first blocks hold FIRST_BLOCK, doubling).
BLOCK = 512
FIRST_BLOCK = 8


@dataclass
class _Block:
    """Deals of the file solved together on one thread, in the file's order. ``error``:
    the bad line that ends the stream (without --skip-bad), said when its turn comes."""

    texts: list[str] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)  # the deal number; -1: a card list
    rules: list[Rules] = field(default_factory=list)
    layouts: dict[int, Deal] = field(default_factory=dict)  # row -> its deal (a card list)
    error: UsageError | None = None

    def __len__(self) -> int:
        return len(self.texts)

    def add(self, text: str, number: int, rules: Rules, layout: Deal | None = None) -> None:
        if layout is not None:
            self.layouts[len(self.texts)] = layout
        self.texts.append(text)
        self.numbers.append(number)
        self.rules.append(rules)

    def deal(self, i: int) -> Deal:
        if self.numbers[i] < 0:
            return self.layouts[i]
        return Deal._of_shuffle(self.numbers[i], self.rules[i])


def _blocks(path: str, args: argparse.Namespace, bad: list[str]) -> Iterator[_Block]:
    """The deals of ``path`` in blocks: a deal number read as a number (its cards are
    shuffled with its block's, on the worker), anything else as parse_deal reads it."""
    size = FIRST_BLOCK
    block = _Block()
    for where, content in deal_lines(path, chunk_ends=True):
        if content is CHUNK_END:  # all that was read is in: answer it before reading on
            if len(block):
                yield block
                block, size = _Block(), min(2 * size, BLOCK)
            continue
        try:
            refuse_too_long(where, content)
            number = _plain_number(content)
            if number is not None:  # (its cards are shuffled with its block's)
                block.add(content, number, _rules_for(args, None))
            else:
                deal = parse_deal(content, args, where).deal
                assert deal.rules is not None  # (a line's deal is named under its rules)
                if deal.number is None:
                    block.add(content, -1, deal.rules, deal)
                else:
                    block.add(content, deal.number, deal.rules)
        except UsageError as e:
            if not args.skip_bad:
                block.error = e
                yield block
                return
            bad.append(str(e))
            continue
        if len(block) >= size:
            yield block
            block, size = _Block(), min(2 * size, BLOCK)
    if len(block):
        yield block


def _plain_number(content: str) -> int | None:
    """The deal number a line is, when it is one; None for anything else, a number out of
    range or written wrongly included (parse_deal then says what is wrong, naming the line)."""
    if len(content) > 40:
        return None
    try:
        return deal_number_of(content)
    except ValueError:
        return None


def _solve_block(
    block: _Block, args: argparse.Namespace, objective: str, budget: dict[str, Any], flag: Any
) -> tuple[_Block, Answers | None]:
    """A worker thread's share: one block, solved in this thread, each rule set of the block
    in one call of the core."""
    n = len(block)
    if not n:
        return block, None
    numbers = np.array(block.numbers, dtype=np.int64)
    numbered = numbers >= 0
    decks = np.empty((n, 52), np.uint8)
    if numbered.any():
        sub = np.empty((int(numbered.sum()), 52), np.uint8)
        shuffle_decks(numbers[numbered].astype(np.uint64), sub)
        decks[numbered] = sub
    for row, layout in block.layouts.items():
        decks[row] = layout.cards
    names = list(block.texts)
    rows = _rows(n)
    lines: list[Any] = [None] * n
    best: dict[int, tuple[int, Any] | None] = {}
    groups: dict[int, list[int]] = {}  # the rows of each rule set (one Rules object each)
    for i, rules in enumerate(block.rules):
        groups.setdefault(id(rules), []).append(i)
    for members in groups.values():
        at = np.array(members, np.int64)
        rules = block.rules[members[0]]
        coded = at[numbered[at]]
        for i, code in zip(coded.tolist(), codes_of(numbers[coded], rules).tolist()):
            names[i] = code
        got = solve_lines(decks[at], rules, objective, budget, flag, LINE_WIDTH)
        for k in rows:
            rows[k][at] = got[k]
        for i, line in zip(members, _kept_lines(got, got["winnable"] == 1)):
            lines[i] = line
        if args.max_removed:
            best.update(_most_removed(block, decks, at[got["winnable"] == 0], budget, flag))
    for i in np.flatnonzero(rows["winnable"] == 1).tolist():
        if rows["n_moves"][i] > LINE_WIDTH:  # a line too long to keep: found again alone
            s, _ = solve_flagged(Game(block.deal(i)), objective, budget, flag)
            lines[i] = card_codes_of(s.moves or [])
    return block, Answers(names, block.rules, rows, lines, best)


def _kept_lines(got: dict[str, np.ndarray], keep: np.ndarray) -> list[Any]:
    """Each row's line (its moves' card codes) where ``keep``, else None."""
    counts = np.where(keep, np.minimum(got["n_moves"], LINE_WIDTH), 0)
    width = max(1, int(counts.max()))
    flat = got["lines"][:, :width][np.arange(width) < counts[:, None]]
    ends = np.cumsum(counts).tolist()
    starts = [0, *ends[:-1]]
    return [flat[s:e] if ok else None for s, e, ok in zip(starts, ends, keep.tolist())]


def _most_removed(
    block: _Block, decks: np.ndarray, lost: np.ndarray, budget: dict[str, Any], flag: Any
) -> dict[int, tuple[int, Any] | None]:
    """--max-removed for the lost deals of rows ``lost``: the most pyramid cards removable
    and such a line, None when a budget ran out (as solve_flagged says it)."""
    if not len(lost):
        return {}
    rules = block.rules[int(lost[0])]
    m = solve_lines(decks[lost], rules, "max_removed", budget, flag, LINE_WIDTH)
    found = (m["stop"] == 0) | (m["max_removed"] == 28)
    kept = _kept_lines(m, found)
    out: dict[int, tuple[int, Any] | None] = {}
    for j, i in enumerate(lost.tolist()):
        if not found[j]:
            out[i] = None
        elif m["n_moves"][j] > LINE_WIDTH:  # too long to keep: found again alone
            _, again = solve_flagged(Game(block.deal(i)), "any", budget, flag, True)
            out[i] = None if again is None else (again[0], card_codes_of(again[1]))
        else:
            out[i] = (int(m["max_removed"][j]), kept[j])
    return out


class _Tally:
    """What the answers written so far came to."""

    def __init__(self) -> None:
        self.deals = self.winnable = self.lost = self.unknown = self.short = 0

    def add(self, args: argparse.Namespace, answers: Answers) -> None:
        won = answers.rows["winnable"]
        self.deals += len(won)
        self.winnable += int(np.sum(won == 1))
        self.lost += int(np.sum(won == 0))
        self.unknown += int(np.sum(won < 0))
        self.short += answers.short(args)

    def summary(self, args: argparse.Namespace, seconds: float, when: str = "") -> None:
        print(
            f"{_args.count_of(self.deals, 'deal')}{when}: {self.winnable:,} winnable, "
            f"{self.lost:,} cannot be won, {self.unknown:,} unknown "
            f"(a budget ran out); {seconds:.2f} s",
            file=sys.stderr if args.json else sys.stdout,
            flush=True,
        )


def run_file(
    args: argparse.Namespace, path: str, objective: str, budget: dict[str, Any], show: bool
) -> int:
    t0 = time.perf_counter()
    tally = _Tally()
    bad: list[str] = []
    bar = _parallel.Progress(0, "deals", show)
    done = _parallel.map_ordered(
        lambda block, flag: _solve_block(block, args, objective, budget, flag),
        _blocks(path, args, bad),
        threads(args),
        what="solve --file",
    )
    try:
        for block, answers in done:
            if answers is not None:
                text = render(args, answers)
                with whole_output():  # counted as written, and written whole
                    bar.write(text, write_whole)
                    bar.update(len(block))
                    tally.add(args, answers)
            if block.error is not None:
                raise block.error
    except (KeyboardInterrupt, UsageError) as e:
        bar.close()
        # What was done, before the interruption's or the error's one line (an error's
        # summary goes with the answers, on standard output: not with --json, whose summary
        # is on standard error, where an error is one line).
        interrupted = isinstance(e, KeyboardInterrupt)
        if tally.deals and (interrupted or not args.json):
            stop = "the interruption" if interrupted else "the bad line"
            tally.summary(args, time.perf_counter() - t0, f" before {stop}")
        raise
    finally:
        done.close()  # its worker threads end now, not when the generator is collected
        bar.close()
    if not tally.deals:
        raise no_deals(path, bad)
    tally.summary(args, time.perf_counter() - t0)
    report_bad(bad)
    if tally.short:
        print(
            f"pyramid-solitaire: a budget ran out before the answer asked for, for "
            f"{tally.short:,} of the {_args.count_of(tally.deals, 'deal')}",
            file=sys.stderr,
        )
        return EXIT_BUDGET
    return 0
