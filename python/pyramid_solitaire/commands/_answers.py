"""How ``solve`` writes its answers, for one deal or a file's blocks of deals: a text for
people (a head line, then the winning line six moves a row) or a JSON object a line, in
:func:`pyramid_solitaire.analysis.solver.solution_dict`'s layout.

A block's answers are written together, its lines of moves as the moves' card codes read
with :func:`pyramid_solitaire.model.game.keyed_moves` (each move's text made once, not once
a move), so that writing keeps up with the solver on files of many deals.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..analysis.solver import SECONDS_PLACES, STOP_NAMES, Solution, solution_dict
from ..inputs.jsonout import SAFE_INTEGER, dumps
from ..model.game import card_code, keyed_moves
from ..model.move import Move
from ..model.rules import Rules

_quoted = json.encoder.encode_basestring_ascii


@dataclass
class Answers:
    """What the solver found for some deals (row i: deal i): its arrays (``winnable``
    1/0/-1, ``optimal``, ``nodes``, ``seconds``, ``stop`` as a STOP_NAMES index), each
    deal's name and rules, its winning line as the moves' card codes (None: none), and with
    --max-removed, for each lost deal, the most pyramid cards removable and such a line
    (None: a budget ran out)."""

    names: list[str]
    rules: list[Rules]
    rows: dict[str, np.ndarray]
    lines: list[Any]
    best: dict[int, tuple[int, Any] | None]

    def __len__(self) -> int:
        return len(self.names)

    @classmethod
    def of_solution(
        cls, name: str, rules: Rules, s: Solution, best: tuple[int, list[Move]] | None
    ) -> Answers:
        """One deal's answer, from :func:`solve_flagged`'s."""
        rows: dict[str, np.ndarray] = {
            "winnable": np.array([-1 if s.winnable is None else int(s.winnable)], np.int8),
            "optimal": np.array([s.optimal], np.int8),
            "nodes": np.array([s.nodes], np.int64),
            "seconds": np.array([s.seconds], np.float64),
            "stop": np.array([STOP_NAMES.index(s.stopped_by or "none")], np.int8),
        }
        line = None if s.moves is None else card_codes_of(s.moves)
        return cls(
            [name],
            [rules],
            rows,
            [line],
            {} if best is None else {0: (best[0], card_codes_of(best[1]))},
        )

    def short(self, args: argparse.Namespace) -> int:
        """How many deals a budget stopped before the answer asked for: whether the deal
        can be won, and with --min-moves a line proved shortest, with --max-removed the
        most removable."""
        won, optimal = self.rows["winnable"], self.rows["optimal"].astype(bool)
        short = won < 0
        if args.min_moves:
            short |= (won == 1) & ~optimal
        if args.max_removed:
            no_best = np.array([self.best.get(i) is None for i in range(len(self))])
            short |= (won == 0) & no_best
        return int(short.sum())


def card_codes_of(moves: list[Move]) -> np.ndarray:
    """The moves' card codes (model.game.card_code), as a block's lines hold them."""
    return np.array([card_code(m) for m in moves], np.int64)


def render(args: argparse.Namespace, answers: Answers) -> str:
    """The answers as solve writes them (--json: one object a line), one deal after another."""
    return "\n".join(_json(args, answers) if args.json else _text(args, answers))


# ---- for people -----------------------------------------------------------------------------


def _text(args: argparse.Namespace, a: Answers) -> list[str]:
    won = a.rows["winnable"].tolist()
    optimal = a.rows["optimal"].tolist()
    nodes = a.rows["nodes"].tolist()
    seconds = a.rows["seconds"].tolist()
    stops = [STOP_NAMES[k] for k in a.rows["stop"].tolist()]
    lines = lines_text(a.lines)
    best = a.best if args.max_removed else {}
    best_lines = lines_text([None if b is None else b[1] for b in best.values()])
    best_text = dict(zip(best, best_lines))
    rule_names = {id(r): r for r in a.rules}  # (one Rules object per rule set, most often)
    names = {k: r.name for k, r in rule_names.items()}
    out = []
    for i in range(len(a)):
        head = f"{a.names[i]} ({names[id(a.rules[i])]}): "
        if won[i] < 0:
            text = (
                head + f"unknown: the {stops[i]} budget ran out "
                f"({nodes[i]:,} positions, {seconds[i]:.2f} s)"
            )
        elif not won[i]:
            text = head + f"cannot be won (proved: {nodes[i]:,} positions, {seconds[i]:.3f} s)"
            if args.max_removed:
                b = best.get(i)
                if b is None:
                    text += "\n  most pyramid cards removable: unknown (a budget ran out)"
                else:
                    text += (
                        f"\n  most pyramid cards removable: {b[0]}, by this line of "
                        f"{len(b[1])} moves:"
                    )
                    if best_text[i]:
                        text += "\n" + best_text[i]
        else:
            kind = "shortest winning line" if optimal[i] else "winning line"
            if args.min_moves and not optimal[i]:
                kind += (
                    f" (not proved shortest: the {stops[i]} budget ran out)"
                    if stops[i] != "none"
                    else " (not proved shortest)"
                )
            text = (
                head + f"{kind} of {len(a.lines[i])} moves "
                f"({nodes[i]:,} positions, {seconds[i]:.3f} s)"
            )
            if lines[i]:
                text += "\n" + lines[i]
        out.append(text)
    return out


#: A line's moves are written six a row, each cell numbered and padded to CELL characters.
PER_ROW, CELL = 6, 14
_LONG = 999  # the longest line whose numbers fit the cells' 3 digits


def lines_text(lines: list[Any]) -> list[str]:
    """Each line of moves (card codes; None or empty: "") as rows of six numbered cells
    (``  1. K♦        2. 10♣ + 3♠ ...``), for many lines at once."""
    out = [""] * len(lines)
    keep = [i for i, k in enumerate(lines) if k is not None and 0 < len(k) <= _LONG]
    for i, k in enumerate(lines):
        if k is not None and len(k) > _LONG:
            out[i] = "\n".join(_rows_of(keyed_moves("symbols")[k].tolist()))
    if not keep:
        return out
    lens = np.array([len(lines[i]) for i in keep])
    keys = np.concatenate([lines[i] for i in keep]).astype(np.int64)
    pos = np.arange(len(keys)) - np.repeat(np.cumsum(lens) - lens, lens)
    last = pos == np.repeat(lens - 1, lens)
    row_end = (pos % PER_ROW == PER_ROW - 1) & ~last
    cells = _cells()  # each move as the line's last cell, ending a row, or padded
    kind = np.where(last, 0, np.where(row_end, 1, 2))
    pieces = np.empty(2 * len(keys), dtype=object)  # number, symbols, number, symbols...
    pieces[0::2] = _numbers()[pos]
    pieces[1::2] = cells[keys + kind * (len(cells) // 3)]
    text = pieces.tolist()
    start = 0
    for i, end in zip(keep, (2 * np.cumsum(lens)).tolist()):
        out[i] = "".join(text[start:end])
        start = end
    return out


def _rows_of(symbols: list[str]) -> list[str]:
    """The rows of a line of any length (numbers of four digits and more widen their cell)."""
    cells = [f"{f'{i:>3}. {m}':<{CELL}}" for i, m in enumerate(symbols, 1)]
    return [
        "  " + "  ".join(cells[k : k + PER_ROW]).rstrip() for k in range(0, len(cells), PER_ROW)
    ]


_MADE: dict[str, Any] = {}


def _numbers() -> Any:
    """Each cell's number by its place in the line (a row's first cell starts the row)."""
    if "numbers" not in _MADE:
        _MADE["numbers"] = np.array(
            [("  " if p % PER_ROW == 0 else "") + f"{p + 1:>3}. " for p in range(_LONG)],
            dtype=object,
        )
    return _MADE["numbers"]


def _cells() -> Any:
    """Each move's symbols by key, three times over: as the line's last cell, ending its
    row, and padded with the gap to the next cell."""
    if "cells" not in _MADE:
        plain = keyed_moves("symbols").tolist()
        width = CELL - len(_numbers()[1])
        ended = [f"{m}\n" for m in plain]
        padded = [f"{m:<{width}}  " for m in plain]
        _MADE["cells"] = np.array(plain + ended + padded, dtype=object)
    return _MADE["cells"]


# ---- JSON -----------------------------------------------------------------------------------

_SLOTS = (  # the values of an answer's JSON object that vary: solution_dict's, then ours
    "deal",
    "rules",
    "winnable",
    "n_moves",
    "optimal",
    "moves",
    "nodes",
    "seconds",
    "stopped_by",
    "max_removed",
    "max_removed_moves",
)


def _template(args: argparse.Namespace) -> str:
    """The text of an answer's JSON object with a %s for each value that varies (made from
    solution_dict, so that the layout is written once)."""
    key = f"json {args.min_moves} {args.max_removed} {args.moves}"
    if key not in _MADE:
        marks = {k: f"\x00{k}" for k in _SLOTS}
        d = solution_dict(
            objective="min_moves" if args.min_moves else "any",
            **{k: marks[k] for k in _SLOTS[:9]},
        )
        if args.moves is not None:
            d["from_moves"] = args.moves.replace(",", " ").split()
        if args.max_removed:
            d["max_removed"] = marks["max_removed"]
            d["max_removed_moves"] = marks["max_removed_moves"]
        text = dumps(d).replace("%", "%%")
        for k in _SLOTS:
            text = text.replace(json.dumps(marks[k]), "%s")
        _MADE[key] = text
    return str(_MADE[key])


def _int(n: int) -> str:
    return str(n) if -SAFE_INTEGER <= n <= SAFE_INTEGER else f'"{n}"'


def _moves_json(keys: Any) -> str:
    if keys is None:
        return "null"
    if not len(keys):
        return "[]"
    return '["' + '", "'.join(keyed_moves("text")[keys].tolist()) + '"]'


def _json(args: argparse.Namespace, a: Answers) -> list[str]:
    template = _template(args)
    rules_json: dict[int, str] = {}
    won = a.rows["winnable"].tolist()
    optimal = a.rows["optimal"].tolist()
    nodes = a.rows["nodes"].tolist()
    seconds = np.round(a.rows["seconds"], SECONDS_PLACES).tolist()
    stops = [None if k == 0 else _quoted(STOP_NAMES[k]) for k in a.rows["stop"].tolist()]
    out = []
    for i in range(len(a)):
        rules = a.rules[i]
        if id(rules) not in rules_json:
            rules_json[id(rules)] = dumps(rules.describe_dict())
        line = a.lines[i]
        values = [
            _quoted(a.names[i]),
            rules_json[id(rules)],
            "null" if won[i] < 0 else "true" if won[i] else "false",
            "null" if line is None else str(len(line)),
            "true" if optimal[i] else "false",
            _moves_json(line),
            _int(nodes[i]),
            repr(seconds[i]),
            stops[i] or "null",
        ]
        if args.max_removed:
            b = a.best.get(i)
            values.append("28" if won[i] == 1 else "null" if b is None or won[i] < 0 else str(b[0]))
            values.append("null" if won[i] != 0 or b is None else _moves_json(b[1]))
        out.append(template % tuple(values))
    return out
