"""The win-rate atlas: perfect-play win rates of many rule sets, kept as small block files.

A *row* is a rule set with a stable name (``pyramid-once-no-overlap``), a one-line
description and, where one was published, the value it is compared with. :func:`run`
decides (the exact solver, no budget) the deals of a row's deal-number range in *blocks*
(default 1,000,000 deals, one task each on a local process pool or a Dask cluster) and
writes each finished block as one small JSON file ``OUT/<row>/<first>-<last>.json``
(``data/atlas`` by default, committed to the repository): the row, its rules (every
option), the first deal, the count, the wins, the deals not decided, the solving time, the
package version, the machine and the date. So a row can be extended on any machine,
a block re-checked by anyone (:func:`check`) and the table rebuilt from the files
(:func:`report`, :func:`report_text`, :func:`plot`). docs/atlas.md has the format and the
commands.

>>> row("pyramid-once-no-overlap").published.wins
9019243
>>> block_name(0, 999_999)
'0000000000-0000999999.json'

The rows:

- ``published``: the six rows of solitairewinrates.com's Pyramid table (100 million deals
  each): pyramid or all cards, one pass or unlimited passes, with or without "overlap
  discards" (``pair_with_covering``). Its one-pass rows do not say which talon cards are in
  play nor whether a card is turned onto the waste at the deal: their rules here are the
  closest reading (``ONCE_READING``: the stock's top card playable), which still wins 3-5%
  more deals than published (docs/atlas.md, "The readings"), and the ``reading`` rows are
  every reading;
- ``preset``: each preset of the package not already a published row;
- ``extra``: all cards with unlimited passes;
- ``reading``: every reading of the four one-pass published rows (the waste at the deal,
  the stock's top card playable or not, the waste's top card pairing with the card under
  it or not, one pass or two, and draw three), each compared with the published value it
  reads; :func:`readings` says which ones the published value lies within.
"""

from __future__ import annotations

import datetime
import difflib
import hashlib
import json
import math
import os
import platform
import re
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

import numpy as np

from pyramid_core.shuffle import MAX_DEAL_NUMBER

from ..inputs.jsonin import loads
from ..model.rules import UNLIMITED, Rules
from ..runtime import args as _args
from ..runtime.atomic import write_atomic
from ..runtime.jobs import FolderLock, Task, clear_stale, run_job
from ..runtime.parallel import ProgressArg
from ..runtime.plotting import figure_path, pyplot, save_figure

FORMAT = "pyramid-solitaire atlas block 1"
DEFAULT_OUT = os.path.join("data", "atlas")
DEFAULT_BLOCK = 1_000_000
MAX_BLOCK = 10_000_000
#: A block file is a few hundred bytes; anything much larger is not one.
MAX_BLOCK_FILE = 1 << 16
#: The two-sided normal quantile of the interval a sample check uses (99.9%): a sample of a
#: block agrees with the file unless the file's rate lies outside it.
SAMPLE_Z = 3.2905267314918945
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_BLOCK_FILE = re.compile(r"([0-9]{10})-([0-9]{10})\.json")
_FIELDS = (
    "format",
    "row",
    "rules",
    "first",
    "count",
    "wins",
    "undecided",
    "results_sha256",
    "seconds",
    "wall_seconds",
    "max_seconds",
    "version",
    "machine",
    "date",
)


# ---- the registry ------------------------------------------------------------------------


@dataclass(frozen=True)
class Published:
    """A published win rate a row is compared with."""

    percent: float  # as published (rounded)
    deals: int
    source: str
    url: str | None = None
    wins: int | None = None  # when the source gives the count

    @property
    def rate(self) -> float:
        """The rate as a fraction: the exact count's when known."""
        return self.wins / self.deals if self.wins is not None else self.percent / 100

    def to_dict(self) -> dict[str, Any]:
        return {
            "percent": self.percent,
            "rate": self.rate,
            "wins": self.wins,
            "deals": self.deals,
            "source": self.source,
            "url": self.url,
        }


@dataclass(frozen=True)
class Row:
    """A row of the atlas: a named rule set, what it is, and its published value if any."""

    name: str
    description: str
    rules: Rules
    group: str  # "published", "preset", "extra" or "reading"
    published: Published | None = None
    reads: str | None = None  # a reading: the published row it is a reading of

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "group": self.group,
            "rules": self.rules.describe_dict(),
            "published": None if self.published is None else self.published.to_dict(),
            "reads": self.reads,
        }


GROUPS = ("published", "preset", "extra", "reading")
SITE = "solitairewinrates.com, Pyramid (the same 100 million deals for each row)"
SITE_URL = "https://solitairewinrates.com/Pyramid.html"
SITE_DEALS = 100_000_000
# (goal, passes, overlap discards) -> (percent as published, wins of the 100 million)
_SITE_ROWS: dict[tuple[str, str, bool], tuple[float, int]] = {
    ("pyramid", "once", True): (22.77, 22_773_249),
    ("pyramid", "once", False): (9.02, 9_019_243),
    ("all", "once", True): (15.92, 15_916_049),
    ("all", "once", False): (6.80, 6_795_618),
    ("pyramid", "unlimited", True): (83.15, 83_151_588),
    ("pyramid", "unlimited", False): (66.87, 66_865_010),
}
#: The options the published one-pass rows are given here. The source states neither the
#: talon cards in play nor the waste at the deal; the ``reading`` rows try every reading
#: (docs/atlas.md, "The readings"): only those in which two talon cards can pair (the
#: stock's top with the waste's, or the waste's top two: the same deals won), with one pass,
#: come near the published values, and on a million deals even they win 3-5% more than
#: published; the waste at the deal changes nothing.
ONCE_READING: dict[str, Any] = dict(waste_at_deal=0, redeals=0, stock_top_playable=True)
#: The published unlimited rows: the ``unlimited`` preset (its rate matches; with
#: unlimited passes neither the waste at the deal nor the talon pairs change which deals
#: are won, deals 0..19,999).
UNLIMITED_READING: dict[str, Any] = dict(waste_at_deal=0, redeals=UNLIMITED)


def _published_name(goal: str, passes: str, overlap: bool) -> str:
    return f"{goal}-{passes}-{'overlap' if overlap else 'no-overlap'}"


def _reading_name(goal: str, overlap: bool, opts: dict[str, Any]) -> str:
    """``reading-once[-all]-{overlap|no-overlap}-w{0|1}-...``: the reading's options."""
    parts = ["reading-once"] + (["all"] if goal == "all" else [])
    parts += ["overlap" if overlap else "no-overlap", f"w{opts['waste_at_deal']}"]
    if opts.get("draw") == 3:
        parts.append("draw3")
    else:
        parts += [
            "stp" if opts["stock_top_playable"] else "nostp",
            "top2" if opts["pair_waste_top_two"] else "notop2",
            f"{opts['redeals'] + 1}pass",
        ]
    return "-".join(parts)


def _reading_text(rules: Rules) -> str:
    """What a reading of "one pass" assumes, in words."""
    w = "1 card" if rules.waste_at_deal else "no card"
    if rules.draw == 3:
        return f"{w} on the waste at the deal, draw three onto three waste piles, one pass"
    return ", ".join(
        [
            f"{w} on the waste at the deal",
            "stock top playable" if rules.stock_top_playable else "stock top not playable",
            "waste top pairs with the card under it"
            if rules.pair_waste_top_two
            else "only the waste top in play",
            "one pass" if rules.redeals == 0 else f"{rules.passes} passes",
        ]
    )


def _build() -> dict[str, Row]:
    rows: list[Row] = []
    for (goal, passes, overlap), (percent, wins) in _SITE_ROWS.items():
        base = ONCE_READING if passes == "once" else UNLIMITED_READING
        rules = Rules(**base, win=goal, pair_with_covering=overlap)
        what = "clear the pyramid" if goal == "pyramid" else "remove all 52 cards"
        how = "one pass through the talon" if passes == "once" else "unlimited passes"
        ov = (
            "a card may pair with the one covering it (overlap discards)"
            if overlap
            else "no overlap discards"
        )
        preset = f" (the {rules.name} preset)" if rules.name != "custom" else ""
        note = (
            " (the stock's top card playable: the closest reading, which still wins more"
            " than published, see docs/atlas.md)"
            if passes == "once"
            else ""
        )
        rows.append(
            Row(
                _published_name(goal, passes, overlap),
                f"{what}, {how}, {ov}{preset}{note}",
                rules,
                "published",
                Published(percent, SITE_DEALS, SITE, SITE_URL, wins),
            )
        )
    taken = {r.rules for r in rows}
    for name in Rules.preset_names():
        rules = Rules.preset(name)
        if rules not in taken:
            rows.append(Row(name, f"the {rules.describe()}", rules, "preset"))
            taken.add(rules)
    for overlap in (False, True):
        rules = Rules(waste_at_deal=0, win="all", pair_with_covering=overlap)
        rows.append(
            Row(
                _published_name("all", "unlimited", overlap),
                "remove all 52 cards, unlimited passes, "
                + ("overlap discards" if overlap else "no overlap discards")
                + " (not published)",
                rules,
                "extra",
            )
        )
    for goal, overlap in (("pyramid", False), ("pyramid", True), ("all", False), ("all", True)):
        reads = _published_name(goal, "once", overlap)
        published = next(r.published for r in rows if r.name == reads)
        variants: list[dict[str, Any]] = [
            dict(
                waste_at_deal=w,
                stock_top_playable=stp,
                pair_waste_top_two=top2,
                redeals=passes - 1,
            )
            for w in (0, 1)
            for stp in (False, True)
            for top2 in (False, True)
            for passes in (1, 2)
        ]
        variants += [dict(waste_at_deal=w, draw=3, redeals=0) for w in (0, 1)]
        for opts in variants:
            rules = Rules(**opts, win=goal, pair_with_covering=overlap)
            rows.append(
                Row(
                    _reading_name(goal, overlap, opts),
                    f"a reading of {reads}: {_reading_text(rules)}",
                    rules,
                    "reading",
                    published,
                    reads,
                )
            )
    return {r.name: r for r in rows}


#: Every row by name, in the order of the table.
ROWS: dict[str, Row] = _build()


def _groups(group: str | Sequence[str] | None) -> set[str] | None:
    """The groups asked for (one name or several), checked; None for all."""
    if group is None:
        return None
    names = [group] if isinstance(group, str) else list(group)
    return {_args.choice("group", g, GROUPS) for g in names}


def rows(group: str | Sequence[str] | None = None) -> list[Row]:
    """The registered rows (of one group or several: ``published``, ``preset``, ``extra``,
    ``reading``), in the table's order."""
    groups = _groups(group)
    return [r for r in ROWS.values() if groups is None or r.group in groups]


def row(name: str | Row) -> Row:
    """A row by name (ValueError naming the known ones when there is none)."""
    if isinstance(name, Row):
        return name
    if isinstance(name, str) and name.strip().lower() in ROWS:
        return ROWS[name.strip().lower()]
    text = name.strip().lower() if isinstance(name, str) else ""
    close = difflib.get_close_matches(text, list(ROWS), n=3, cutoff=0.75)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    if text.startswith("reading-"):
        known = (
            f"the {len(rows('reading'))} readings are named reading-once[-all]-"
            "{overlap|no-overlap}-w{0|1}-{stp|nostp}-{top2|notop2}-{1pass|2pass} and "
            "reading-once[-all]-{overlap|no-overlap}-w{0|1}-draw3 ('atlas rows --group "
            "reading' lists them)"
        )
    else:
        known = (
            "the rows: "
            + ", ".join(r.name for r in ROWS.values() if r.group != "reading")
            + f", and {len(rows('reading'))} readings reading-once-... ('atlas rows' "
            "lists them)"
        )
    raise ValueError(f"unknown atlas row {_args.excerpt(name)}{hint}; {known}")


def _rows_arg(which: str | Row | Iterable[str | Row]) -> list[Row]:
    """One row or several (names, Rows), each once, in the order given."""
    items = [which] if isinstance(which, (str, Row)) else list(which)
    if not items:
        raise ValueError("no atlas row given")
    out: list[Row] = []
    for item in items:
        r = row(item)
        if r not in out:
            out.append(r)
    return out


# ---- block files -------------------------------------------------------------------------


#: A block's machine: each field and its type (cores: None where the system does not say).
_MACHINE: dict[str, Any] = {
    "cpu": str,
    "cores_used": int,
    "cores": (int, type(None)),
    "system": str,
    "python": str,
}
_KIND = {str: "a text", int: "a whole number", (int, type(None)): "a whole number or null"}
_DATE = re.compile(r"\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-6]\dZ")


def block_name(first: int, last: int) -> str:
    """A block's file name: its first and last deal numbers, ten digits each (every deal
    number has at most ten), so that the names sort as the blocks do."""
    return f"{first:010d}-{last:010d}.json"


@dataclass(frozen=True)
class Block:
    """A block file's contents, checked."""

    path: Path
    row: str
    rules: dict[str, Any]
    first: int
    count: int
    wins: int
    undecided: int
    results_sha256: str
    seconds: float
    wall_seconds: float
    max_seconds: float | None
    version: str
    machine: dict[str, Any]
    date: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def last(self) -> int:
        return self.first + self.count - 1

    @property
    def decided(self) -> int:
        return self.count - self.undecided


def atlas_folder(out: str | os.PathLike[str], *, must_exist: bool = True) -> Path:
    """The atlas folder ``out``, checked: a name (not empty), a folder (when it exists; with
    ``must_exist`` it must), and not a row's own folder (one holding block files itself:
    the blocks would go one level too deep)."""
    if not isinstance(out, (str, os.PathLike)) or not os.fspath(out).strip():
        raise ValueError(f"out must name the atlas folder, got {_args.excerpt(out)}")
    base = Path(out)
    if not base.exists():
        if must_exist:
            raise ValueError(f"{base} is not an atlas folder (no such folder)")
        return base
    if not base.is_dir():
        raise ValueError(f"{base} is not an atlas folder (not a folder)")
    inside = next((p.name for p in base.glob("*.json") if _BLOCK_FILE.fullmatch(p.name)), None)
    if inside is not None:
        raise ValueError(
            f"{base} holds block files itself ({inside}): it is a row's folder; give the "
            f"atlas folder that holds the rows' folders ({base.parent})"
        )
    return base


def _damaged(path: Path, what: str) -> ValueError:
    return ValueError(
        f"atlas block {path} is damaged: {what}; restore it (git checkout) or delete it "
        "and run the row again to redo it"
    )


def _read_json(path: Path) -> Any:
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise _damaged(path, "it is not a regular file")
        with open(path, "rb") as f:
            data = f.read(MAX_BLOCK_FILE + 1)
    except OSError as e:
        raise _damaged(path, f"it cannot be read ({e.strerror or e})") from None
    if len(data) > MAX_BLOCK_FILE:
        raise _damaged(path, f"it is over {MAX_BLOCK_FILE:,} bytes")
    try:
        return loads(data, bom=True)
    except ValueError as e:
        raise _damaged(path, f"not JSON ({e})") from None


def read_block(path: str | os.PathLike[str]) -> Block:
    """A block file, checked: its fields, their types and ranges, and that its name says its
    deals (ValueError naming the file and what is wrong)."""
    path = Path(path)
    d = _read_json(path)
    if not isinstance(d, dict):
        raise _damaged(path, "not a JSON object")
    if d.get("format") != FORMAT:
        raise _damaged(
            path, f"its format is {_args.excerpt(d.get('format'))}, not {FORMAT!r} (its version)"
        )
    missing = [k for k in _FIELDS if k not in d]
    if missing:
        raise _damaged(path, f"it has no {', '.join(map(repr, missing))}")

    def whole(key: str, low: int, high: int) -> int:
        value = d[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise _damaged(
                path, f"{key!r} is {_args.excerpt(value)}, not a whole number {low:,}..{high:,}"
            )
        return value

    def seconds(key: str, none: bool = False) -> float | None:
        value = d[key]
        if none and value is None:
            return None
        if (
            not isinstance(value, (int, float))
            or isinstance(value, bool)
            or not math.isfinite(value)
            or value < 0
        ):
            raise _damaged(path, f"{key!r} is {_args.excerpt(value)}, not a time of 0 or more")
        return float(value)

    def text(key: str) -> str:
        if not isinstance(d[key], str):
            raise _damaged(path, f"{key!r} is {_args.excerpt(d[key])}, not a text")
        return str(d[key])

    first = whole("first", 0, MAX_DEAL_NUMBER)
    count = whole("count", 1, MAX_DEAL_NUMBER + 1 - first)
    undecided = whole("undecided", 0, count)
    wins = whole("wins", 0, count - undecided)
    digest = text("results_sha256")
    if not re.fullmatch(r"[0-9a-f]{64}", digest):
        raise _damaged(
            path, f"'results_sha256' is {_args.excerpt(digest)}, not 64 lowercase hex digits"
        )
    if path.name != block_name(first, first + count - 1):
        raise _damaged(
            path,
            f"it holds deals {first:,}..{first + count - 1:,}, which is the file "
            f"{block_name(first, first + count - 1)}, not {path.name}",
        )
    if not isinstance(d["rules"], dict):
        raise _damaged(path, "'rules' is not an object of options")
    options = Rules().to_dict()
    missing = [k for k in options if k not in d["rules"]]
    if missing:
        raise _damaged(path, f"its rules do not name {', '.join(map(repr, missing))}")
    try:
        rules = Rules.from_dict(d["rules"]).to_dict()
    except ValueError as e:
        raise _damaged(path, f"its rules are not valid ({e})") from None
    for k, v in rules.items():  # as to_dict writes them: no "1" for 1, no 1 for true
        if type(d["rules"][k]) is not type(v) or d["rules"][k] != v:
            raise _damaged(path, f"its rule {k!r} is {_args.excerpt(d['rules'][k])}, written {v!r}")
    if not isinstance(d["machine"], dict):
        raise _damaged(path, "'machine' is not an object")
    for key, kind in _MACHINE.items():
        value = d["machine"].get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise _damaged(
                path, f"its machine's {key!r} is {_args.excerpt(value)}, not {_KIND[kind]}"
            )
    if not _DATE.fullmatch(text("date")):
        raise _damaged(
            path, f"'date' is {_args.excerpt(d['date'])}, not a UTC time YYYY-MM-DDTHH:MM:SSZ"
        )
    return Block(
        path=path,
        row=text("row"),
        rules=d["rules"],
        first=first,
        count=count,
        wins=wins,
        undecided=undecided,
        results_sha256=digest,
        seconds=seconds("seconds") or 0.0,
        wall_seconds=seconds("wall_seconds") or 0.0,
        max_seconds=seconds("max_seconds", none=True),
        version=text("version"),
        machine=d["machine"],
        date=text("date"),
        extra={k: v for k, v in d.items() if k not in _FIELDS},
    )


def _row_blocks(folder: Path, r: Row) -> list[Block]:
    """The blocks of row ``r`` in its folder, in deal order, each checked (its fields, its
    row and its rules those of ``r``) and none overlapping another."""
    if not folder.exists():
        return []
    if not folder.is_dir():
        raise ValueError(f"atlas row folder {folder} is not a folder")
    blocks = []
    want = r.rules.to_dict()
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue  # (the writer's temporaries)
        if path.is_dir():
            raise ValueError(
                f"atlas row folder {folder} holds a folder, {path.name}: a row's folder holds "
                "only block files; move it away"
            )
        if path.suffix != ".json":
            continue  # (notes)
        if not _BLOCK_FILE.fullmatch(path.name):
            raise ValueError(
                f"atlas row folder {folder} holds {path.name}, which is not a block file "
                "name (FIRST-LAST.json, ten digits each): move it away"
            )
        b = read_block(path)
        if b.row != r.name:
            raise ValueError(
                f"atlas block {path} is of row {b.row!r}, not of {r.name!r} (its folder)"
            )
        if b.rules != want:
            diff = ", ".join(
                f"{k} {b.rules.get(k)!r} in the file, {want[k]!r} in the row"
                for k in want
                if b.rules.get(k) != want[k]
            )
            raise ValueError(
                f"atlas block {path} was computed under other rules than row {r.name!r} has "
                f"now ({diff}): a row's rules never change; give new rules a new row"
            )
        blocks.append(b)
    blocks.sort(key=lambda b: b.first)
    for a, b in zip(blocks, blocks[1:]):
        if b.first <= a.last:
            raise ValueError(
                f"atlas blocks {a.path} and {b.path} overlap (deals {b.first:,}.."
                f"{min(a.last, b.last):,}): delete one of them"
            )
    return blocks


def _gaps(lo: int, hi: int, blocks: Sequence[Block]) -> list[tuple[int, int]]:
    """The deal ranges [a, b) of lo..hi-1 that no block covers."""
    out, at = [], lo
    for b in blocks:
        if b.last < at or b.first >= hi:
            continue
        if b.first > at:
            out.append((at, b.first))
        at = max(at, b.last + 1)
    if at < hi:
        out.append((at, hi))
    return out


def _cut(lo: int, hi: int, size: int) -> list[tuple[int, int]]:
    """[lo, hi) cut at the multiples of ``size``: blocks of ``size`` deals where the range
    allows, so that runs of different extents make the same blocks."""
    out = []
    while lo < hi:
        end = min(hi, (lo // size + 1) * size)
        out.append((lo, end))
        lo = end
    return out


# ---- one block: runs where the task runs (a pool process or a Dask worker) ---------------


def cpu_model() -> str:
    """The CPU's model name as the system gives it (``platform.processor()`` or the
    machine type where it does not)."""
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
                for line in f:
                    key, _, value = line.partition(":")
                    if key.strip() in ("model name", "Hardware", "Processor", "cpu model"):
                        if value.strip():
                            return " ".join(value.split())
        except OSError:
            pass
    elif sys.platform == "darwin":  # pragma: no cover - macOS
        import subprocess

        try:
            out = subprocess.run(
                ["sysctl", "-n", "machdep.cpu.brand_string"],
                capture_output=True,
                text=True,
                timeout=5,
            ).stdout.strip()
            if out:
                return out
        except (OSError, subprocess.SubprocessError):
            pass
    return platform.processor() or platform.machine() or "unknown"


def machine(threads: int) -> dict[str, Any]:
    """A short description of the machine a block ran on."""
    return {
        "cpu": cpu_model(),
        "cores_used": threads,
        "cores": os.cpu_count(),
        "system": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
    }


def results_digest(winnable: np.ndarray) -> str:
    """The sha256 of a block's results in deal order, one byte a deal: 1 winnable, 0 not,
    255 (-1 as int8) not decided."""
    return hashlib.sha256(np.ascontiguousarray(winnable, dtype=np.int8).tobytes()).hexdigest()


def solve_block(
    rules: dict[str, Any],
    first: int,
    count: int,
    max_seconds: float | None = None,
    threads: int | None = None,
) -> dict[str, Any]:
    """Decide deals ``first .. first + count - 1`` under ``rules`` (a dict of options, so
    that it travels to any process) on ``threads`` threads (None: all cores): the counts a
    block file records, and the machine's description."""
    from .. import __version__
    from .solver import solve_many

    used = _args.threads(threads)
    t0 = time.perf_counter()
    r = solve_many(
        np.arange(first, first + count, dtype=np.uint64),
        Rules.from_dict(rules),
        threads=used,
        max_seconds=max_seconds,
    )
    wall = time.perf_counter() - t0
    return {
        "wins": int(np.sum(r.winnable == 1)),
        "undecided": int(np.sum(r.winnable < 0)),
        "results_sha256": results_digest(r.winnable),
        "seconds": float(r.seconds.sum()),
        "wall_seconds": wall,
        "version": __version__,
        "machine": machine(used),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _block_dict(
    r: Row, first: int, count: int, max_seconds: float | None, got: dict[str, Any]
) -> dict[str, Any]:
    d = {
        "format": FORMAT,
        "row": r.name,
        "rules": r.rules.to_dict(),
        "first": first,
        "count": count,
        "wins": got["wins"],
        "undecided": got["undecided"],
        "results_sha256": got["results_sha256"],
        "seconds": round(got["seconds"], 3),
        "wall_seconds": round(got["wall_seconds"], 3),
        "max_seconds": max_seconds,
        "version": got["version"],
        "machine": got["machine"],
        "date": got["date"],
    }
    assert tuple(d) == _FIELDS
    return d


class JsonBlocks:
    """The atlas's store (runtime.jobs): each finished block as one JSON file of its row's
    folder (``out/<row>/<first>-<last>.json``), written atomically."""

    def __init__(self, base: Path, max_seconds: float | None) -> None:
        self.base, self.max_seconds = base, max_seconds

    def write(self, task: Task[Row], result: Any) -> Path:
        folder = self.base / task.tag.name
        folder.mkdir(parents=True, exist_ok=True)
        d = _block_dict(task.tag, task.lo, task.deals, self.max_seconds, result)
        path = folder / block_name(d["first"], d["first"] + d["count"] - 1)
        write_atomic(path, json.dumps(d, indent=1) + "\n", mode=0o644)
        return path


# ---- running -----------------------------------------------------------------------------


class AtlasRowRun(TypedDict):
    """One row's part of :class:`AtlasRun`."""

    row: str
    blocks: int
    blocks_before: int
    deals: int
    wins: int
    undecided: int
    written: list[str]


class AtlasRun(TypedDict):
    """What :func:`run` returns: the blocks written now and before, the deals, wins and
    undecided deals of this run (with the files holding undecided deals), per row too."""

    out: str
    start: int
    count: int
    rows: list[AtlasRowRun]
    blocks: int
    blocks_before: int
    deals: int
    wins: int
    undecided: int
    undecided_files: list[str]
    undecided_before: int
    undecided_before_files: list[str]
    seconds: float
    deals_per_second: float | None


def _lock(folder: Path) -> FolderLock:
    """One run at a time per row folder on this machine: an exclusive lock on a file of the
    temporary folder named after the row folder (never a file in the folder, which is
    committed)."""
    key = hashlib.sha256(os.path.realpath(folder).encode()).hexdigest()[:20]
    return FolderLock(
        Path(tempfile.gettempdir()) / f"pyramid-atlas-{key}.lock",
        f"another atlas run is filling {folder}: wait for it to end (or stop it)",
    )


def _check_range(start: Any, count: Any, block: Any) -> tuple[int, int, int]:
    start = _args.whole("start", start, 0, MAX_DEAL_NUMBER)
    count = _args.whole("count", count, 1, MAX_DEAL_NUMBER + 1)
    if start + count - 1 > MAX_DEAL_NUMBER:
        raise ValueError(
            f"count {count:,} from deal {start:,} runs past the last deal number, "
            f"{MAX_DEAL_NUMBER:,} (at most {_n(MAX_DEAL_NUMBER + 1 - start, 'deal')} from there)"
        )
    block = _args.whole("block", block, 1, MAX_BLOCK)
    return start, count, block


def run(
    row: str | Row | Iterable[str | Row],
    start: Any,
    count: Any,
    *,
    block: Any = DEFAULT_BLOCK,
    out: str | os.PathLike[str] = DEFAULT_OUT,
    scheduler: Any = None,
    workers: Any = 1,
    progress: ProgressArg = False,
    max_seconds: Any = None,
    on_block: Callable[[Path], None] | None = None,
) -> AtlasRun:
    """Decide the deals ``start .. start + count - 1`` of one row or several (names or
    :class:`Row`), block by block, writing each finished block as
    ``out/<row>/<first>-<last>.json``; returns a summary (the blocks done now and before,
    the wins and undecided deals of this run, each row's files written).

    The deals no block of the row covers yet are cut into blocks at the multiples of
    ``block`` (default 1,000,000 deals: one task each), so a run resumes where any earlier
    run stopped and runs of other extents make the same files. A block already on disk of
    other rules, or damaged, is an error naming its file. ``scheduler``: None for the local
    process pool of ``workers`` processes (each with its share of the cores), else a Dask
    scheduler's address or a ``distributed.Client``. ``max_seconds``: a time budget per
    deal (default none: every deal is decided); deals it leaves undecided are counted in
    the block, reported in the summary (``undecided``) and by the command line loudly.
    ``progress``: True for a bar (deals, rate, time left) or a callable ``progress(done,
    total)``; ``on_block(path)`` after each block is written (tests stop a run there)."""
    chosen = _rows_arg(row)
    start, count, size = _check_range(start, count, block)
    if max_seconds is not None:
        max_seconds = _args.real("max_seconds", max_seconds)
    workers = _args.workers(workers)
    base = atlas_folder(out, must_exist=False)
    locks: list[FolderLock] = []
    try:
        tasks: list[Task[Row]] = []
        before: dict[str, int] = {}
        undecided_before: list[Block] = []
        for r in chosen:
            folder = base / r.name
            locks.append(_lock(folder))
            existing = _row_blocks(folder, r)
            clear_stale(folder, ".*.tmp")  # a killed run's half-written blocks
            inside = [b for b in existing if b.last >= start and b.first < start + count]
            before[r.name] = len(inside)
            undecided_before += [b for b in inside if b.undecided]
            for a, b in _gaps(start, start + count, existing):
                for lo, hi in _cut(a, b, size):
                    args = (r.rules.to_dict(), lo, hi - lo, max_seconds)
                    digest = hashlib.sha256(json.dumps(args, sort_keys=True).encode())
                    key = f"pyramid-atlas-{r.name}-{lo}-{hi - lo}-{digest.hexdigest()[:12]}"
                    tasks.append(Task(args, lo, hi, key=key, tag=r))
        total = sum(task.deals for task in tasks)
        desc = f"atlas {chosen[0].name}" + (f" +{len(chosen) - 1}" if len(chosen) > 1 else "")
        ran = run_job(
            solve_block,
            tasks,
            JsonBlocks(base, max_seconds),
            total=total,
            desc=desc,
            progress=progress,
            scheduler=scheduler,
            workers=workers,
            on_written=[] if on_block is None else [lambda _task, path, _got: on_block(path)],
        )  # an interruption: the blocks in flight are cancelled, none written is lost
    finally:
        for lock in locks:
            lock.close()
    per: dict[str, AtlasRowRun] = {
        r.name: AtlasRowRun(
            row=r.name,
            blocks=0,
            blocks_before=before[r.name],
            deals=0,
            wins=0,
            undecided=0,
            written=[],
        )
        for r in chosen
    }
    undecided_files: list[str] = []
    for task, path, got in ran.written:
        mine = per[task.tag.name]
        mine["blocks"] += 1
        mine["deals"] += task.deals
        mine["wins"] += got["wins"]
        mine["undecided"] += got["undecided"]
        mine["written"].append(str(path))
        if got["undecided"]:
            undecided_files.append(str(path))
    return AtlasRun(
        out=str(base),
        start=start,
        count=count,
        rows=list(per.values()),
        blocks=sum(e["blocks"] for e in per.values()),
        blocks_before=sum(before.values()),
        deals=total,
        wins=sum(e["wins"] for e in per.values()),
        undecided=sum(e["undecided"] for e in per.values()),
        undecided_files=undecided_files,
        undecided_before=sum(b.undecided for b in undecided_before),
        undecided_before_files=[str(b.path) for b in undecided_before],
        seconds=ran.seconds,
        deals_per_second=total / ran.seconds if total and ran.seconds > 0 else None,
    )


def run_text(done: AtlasRun) -> str:
    """A run's summary, a line per row (what ``atlas run`` prints)."""
    lo, hi = done["start"], done["start"] + done["count"] - 1
    lines = []
    for e in done["rows"]:
        line = (
            f"atlas {e['row']}: deals {lo:,}..{hi:,}: {_n(e['blocks'], 'block')} done now, "
            f"{e['blocks_before']:,} on disk before"
        )
        if e["deals"]:
            line += f"; {_n(e['wins'], 'win')} of the {e['deals']:,} deals done now"
        if e["undecided"]:
            line += f", {e['undecided']:,} NOT DECIDED"
        lines.append(line)
    rate = done["deals_per_second"]
    if rate:
        lines.append(
            f"{_n(done['deals'], 'deal')} in {_hours(done['seconds'])}: {rate:,.0f} deals/s"
        )
    return "\n".join(lines)


# ---- re-checking a block -----------------------------------------------------------------


def find_block(r: str | Row, first: Any, out: str | os.PathLike[str] = DEFAULT_OUT) -> Block:
    """Row ``r``'s block that starts at deal ``first`` (ValueError when there is none,
    naming the blocks there are)."""
    r = row(r)
    first = _args.whole("first", first, 0, MAX_DEAL_NUMBER)
    folder = atlas_folder(out) / r.name
    blocks = _row_blocks(folder, r)
    for b in blocks:
        if b.first == first:
            return b
    have = ", ".join(f"{b.first:,}" for b in blocks[:8]) + (", ..." if len(blocks) > 8 else "")
    raise ValueError(
        f"row {r.name!r} has no block starting at deal {first:,} in {folder}"
        + (f" (its blocks start at {have})" if blocks else " (it has no blocks there)")
    )


class _CheckBase(TypedDict):
    file: str
    row: str
    first: int
    count: int
    sample: int | None
    seed: int | None
    deals: int
    file_wins: int
    file_undecided: int
    wins: int
    undecided: int
    seconds: float
    wall_seconds: float


class BlockCheck(_CheckBase, total=False):
    """What :func:`check` returns: the block's file and counts, this machine's, and
    ``agree``; with the whole block ``digest_agrees``, with a sample ``interval999`` (the
    sample's 99.9% interval) and ``file_rate``."""

    agree: bool
    digest_agrees: bool
    interval999: list[float]
    file_rate: float | None


def check(
    r: str | Row,
    first: Any,
    *,
    out: str | os.PathLike[str] = DEFAULT_OUT,
    sample: Any = None,
    seed: Any = None,
    threads: Any = None,
    progress: ProgressArg = False,
) -> BlockCheck:
    """Decide a block's deals again here and compare with its file: ``agree`` is True when
    the wins, the undecided count and the results' digest are the file's.

    With ``sample`` (a number of deals), only that many of its deals, drawn at random
    (``seed``; a fresh one when None, returned), are decided: the file's rate must lie in
    the sample's 99.9% interval. That catches a wrong rate, not one changed count: only the
    whole block's check is exact."""
    from .intervals import wilson_interval
    from .solver import solve_many

    r = row(r)
    if seed is not None and sample is None:
        raise ValueError("seed goes with a sample (without one the whole block is decided)")
    b = find_block(r, first, out)
    if sample is not None:
        sample = _args.whole("sample", sample, 1, b.count)
    deals = np.arange(b.first, b.first + b.count, dtype=np.uint64)
    if sample is not None and sample < b.count:
        if seed is None:
            seed = int.from_bytes(os.urandom(6), "big")  # a fresh one, returned
        seed = _args.whole("seed", seed, 0, (1 << 64) - 1)
        rng = np.random.default_rng(seed)
        deals = np.sort(rng.choice(deals, size=sample, replace=False))
    else:
        sample = None
    t0 = time.perf_counter()
    solved = solve_many(
        deals, r.rules, threads=threads, max_seconds=b.max_seconds, progress=progress
    )
    wins = int(np.sum(solved.winnable == 1))
    undecided = int(np.sum(solved.winnable < 0))
    result: BlockCheck = {
        "file": str(b.path),
        "row": r.name,
        "first": b.first,
        "count": b.count,
        "sample": sample,
        "seed": seed if sample is not None else None,
        "deals": len(deals),
        "file_wins": b.wins,
        "file_undecided": b.undecided,
        "wins": wins,
        "undecided": undecided,
        "seconds": float(solved.seconds.sum()),
        "wall_seconds": time.perf_counter() - t0,
    }
    if sample is None:
        digest = results_digest(solved.winnable)
        result["digest_agrees"] = digest == b.results_sha256
        result["agree"] = wins == b.wins and undecided == b.undecided and digest == b.results_sha256
    else:
        decided = len(deals) - undecided
        file_rate = b.wins / b.decided if b.decided else None
        low, high = wilson_interval(wins, decided, SAMPLE_Z) if decided else (0.0, 1.0)
        result["interval999"] = [low, high]
        result["file_rate"] = file_rate
        result["agree"] = file_rate is not None and low <= file_rate <= high
    return result


def check_text(c: BlockCheck) -> str:
    """A check's result in one or two lines (what ``atlas check`` prints)."""
    head = f"atlas block {c['file']} ({_n(c['count'], 'deal')})"
    if c["sample"] is None:
        said = f"file: {c['file_wins']:,} wins, {c['file_undecided']:,} undecided"
        got = f"here: {c['wins']:,} wins, {c['undecided']:,} undecided"
        if c["agree"]:
            return (
                f"{head} agrees: {c['wins']:,} wins, {c['undecided']:,} undecided, the same "
                "results deal by deal (digest)"
            )
        why = (
            ""
            if c["digest_agrees"] or c["wins"] != c["file_wins"]
            else " (the same counts, other deals: the digests differ)"
        )
        return f"{head} DISAGREES{why}: {said}; {got}"
    low, high = c["interval999"]
    file_rate = c["file_rate"]
    line = (
        f"{head}, a sample of {c['deals']:,} (seed {c['seed']}): {c['wins']:,} wins "
        f"(99.9% interval {low * 100:.2f}%..{high * 100:.2f}%); the file's rate "
        + ("n/a" if file_rate is None else f"{file_rate * 100:.3f}%")
    )
    return line + (" lies inside: consistent" if c["agree"] else " lies OUTSIDE: DISAGREES")


# ---- the report --------------------------------------------------------------------------


def _z(wins: int, decided: int, pub: Published) -> float | None:
    """(our rate - the published one) in standard errors of the difference."""
    p, q = wins / decided, pub.rate
    var = p * (1 - p) / decided + q * (1 - q) / pub.deals
    if var <= 0:
        return None
    return (p - q) / math.sqrt(var)


class RowSummary(TypedDict):
    """One row of :func:`report`: its deals, wins and win rate with the 95% (Wilson)
    interval over the decided deals, the blocks and the deal ranges they cover (and the gaps
    between them), and the published value with ``inside`` and ``z`` (see :func:`report`)."""

    row: str
    group: str
    reads: str | None
    description: str
    rules: dict[str, Any]
    blocks: int
    deals: int
    decided: int
    undecided: int
    wins: int
    win_rate: float | None
    ci95: list[float] | None
    ranges: list[list[int]]
    gaps: list[list[int]]
    seconds: float
    versions: list[str]
    published: dict[str, Any] | None
    inside: bool | None
    z: float | None


class _ReportBase(TypedDict):
    out: str
    rows: list[RowSummary]
    unknown: list[str]


class AtlasReport(_ReportBase, total=False):
    """What :func:`report` returns (the folder, the rows, the folders of no registered row)
    and :func:`readings` (the same, with ``published``: each published row's readings)."""

    published: list[dict[str, Any]]


def row_summary(r: Row, blocks: Sequence[Block]) -> RowSummary:
    """One row of the report from its blocks."""
    from .intervals import wilson_interval

    deals = sum(b.count for b in blocks)
    undecided = sum(b.undecided for b in blocks)
    wins = sum(b.wins for b in blocks)
    decided = deals - undecided
    ranges: list[list[int]] = []
    for b in blocks:  # (in deal order, none overlapping)
        if ranges and ranges[-1][1] + 1 == b.first:
            ranges[-1][1] = b.last
        else:
            ranges.append([b.first, b.last])
    gaps = [[a[1] + 1, b[0] - 1] for a, b in zip(ranges, ranges[1:])]
    low, high = wilson_interval(wins, decided) if decided else (None, None)
    pub = r.published
    inside = z = None
    if pub is not None and low is not None and high is not None:
        inside = low <= pub.rate <= high
        z = _z(wins, decided, pub)
    return RowSummary(
        {
            "row": r.name,
            "group": r.group,
            "reads": r.reads,
            "description": r.description,
            "rules": r.rules.describe_dict(),
            "blocks": len(blocks),
            "deals": deals,
            "decided": decided,
            "undecided": undecided,
            "wins": wins,
            "win_rate": wins / decided if decided else None,
            "ci95": None if low is None or high is None else [low, high],
            "ranges": ranges,
            "gaps": gaps,
            "seconds": sum(b.seconds for b in blocks),
            "versions": sorted({b.version for b in blocks}),
            "published": None if pub is None else pub.to_dict(),
            "inside": inside,
            "z": z,
        }
    )


def report(
    out: str | os.PathLike[str] = DEFAULT_OUT, group: str | Sequence[str] | None = None
) -> AtlasReport:
    """The atlas in folder ``out`` as JSON-ready data: one entry per registered row that has
    blocks there (of the ``group`` or groups asked for: default all), in the registry's
    order, with its deals, wins, win rate and 95% (Wilson) interval over the decided deals,
    the undecided deals, the solving time, the blocks, the deal ranges and the gaps between
    them, and the published value with whether it lies inside the interval (``inside``) and
    how many standard errors of the difference away it is (``z``). Every block is checked as
    it is read; folders of no registered row are listed in ``unknown``."""
    base = atlas_folder(out)
    groups = _groups(group)
    entries = []
    for r in ROWS.values():
        if groups is not None and r.group not in groups:
            continue
        blocks = _row_blocks(base / r.name, r)
        if blocks:
            entries.append(row_summary(r, blocks))
    unknown = sorted(
        p.name
        for p in base.iterdir()
        if p.is_dir() and not p.name.startswith(".") and p.name not in ROWS
    )
    return AtlasReport(out=str(base), rows=entries, unknown=unknown)


_n = _args.count_of


def _pct(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x * 100:.{digits}f}%"


def _hours(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:,.1f} h"


def _range_text(e: RowSummary) -> str:
    text = " and ".join(f"{a:,}..{b:,}" for a, b in e["ranges"])
    return text


def report_text(rep: AtlasReport, digits: int = 2) -> str:
    """The report as a Markdown table (ready for the README), with a line under it for each
    row whose deal ranges have gaps, holds undecided deals, or a folder of no row."""
    lines = [
        "| row | rules | deals | wins | win rate | 95% interval | not decided | solving time "
        "| blocks | published | inside |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|---|---|",
    ]
    notes = []
    for e in rep["rows"]:
        pub = e["published"]
        published = "-" if pub is None else f"{pub['percent']:.2f}% of {pub['deals']:,}"
        inside = "-" if e["inside"] is None else ("yes" if e["inside"] else "**no**")
        ci = (
            "-"
            if e["ci95"] is None
            else f"{_pct(e['ci95'][0], digits)}..{_pct(e['ci95'][1], digits)}"
        )
        lines.append(
            f"| `{e['row']}` | {_rules_short(e['rules'])} | {e['deals']:,} | {e['wins']:,} | "
            f"{_pct(e['win_rate'], digits)} | {ci} | {e['undecided']:,} | "
            f"{_hours(e['seconds'])} | {e['blocks']:,} | {published} | {inside} |"
        )
        if e["gaps"]:
            notes.append(
                f"- `{e['row']}`: deals {_range_text(e)}: gaps "
                + ", ".join(f"{a:,}..{b:,}" for a, b in e["gaps"])
            )
        if e["undecided"]:
            notes.append(
                f"- `{e['row']}`: {_n(e['undecided'], 'deal')} NOT DECIDED (a budget ran out): "
                "its rate is over the decided deals only"
            )
    if rep["unknown"]:
        notes.append(
            "- folders of no registered row (not in the table): " + ", ".join(rep["unknown"])
        )
    if not rep["rows"]:
        lines.append("| (no blocks yet) | | | | | | | | | | |")
    return "\n".join(lines + ([""] + notes if notes else []))


def _rules_short(rules: dict[str, Any]) -> str:
    """The options of a rule set in a few words: ``w0 1 pass stp top2 overlap all``."""
    parts = [f"w{rules['waste_at_deal']}"]
    if rules["draw"] == 3:
        parts.append("draw 3")
    redeals = rules["redeals"]
    parts.append(
        "unlimited" if redeals == UNLIMITED else f"{redeals + 1} pass" + ("es" if redeals else "")
    )
    for key, word in (
        ("stock_top_playable", "stp"),
        ("pair_waste_top_two", "top2"),
        ("pair_with_covering", "overlap"),
    ):
        if rules[key]:
            parts.append(word)
    if rules["win"] == "all":
        parts.append("all cards")
    return " ".join(parts)


def readings(out: str | os.PathLike[str] = DEFAULT_OUT) -> AtlasReport:
    """The readings of the published one-pass rows that have blocks in ``out``: the report of
    the ``reading`` rows, and for each published row read, the readings whose 95% interval
    holds the published value (``match``), best first (smallest |z|), and the groups of
    readings whose results are the same deal by deal (``identical``: the same blocks with
    the same results digests), which are one reading as far as the deals tell."""
    rep = report(out, "reading")
    by: dict[str, dict[str, Any]] = {}
    same: dict[tuple[str, tuple[Any, ...]], list[str]] = {}
    for e in rep["rows"]:
        reads = e["reads"]
        if reads is None:  # (every reading row reads a published one)
            continue
        entry = by.setdefault(
            reads, {"row": reads, "published": e["published"], "match": [], "read": 0}
        )
        entry["read"] += 1
        if e["inside"]:
            entry["match"].append(e["row"])
        blocks = _row_blocks(Path(out) / e["row"], row(e["row"]))
        key = tuple((b.first, b.count, b.results_sha256) for b in blocks)
        same.setdefault((reads, key), []).append(e["row"])
    for entry in by.values():
        entry["identical"] = [
            names for (reads, _), names in same.items() if reads == entry["row"] and len(names) > 1
        ]
    z = {e["row"]: abs(e["z"]) if e["z"] is not None else math.inf for e in rep["rows"]}
    for entry in by.values():
        entry["match"].sort(key=lambda name: z[name])
    order = [r.name for r in rows("published")]
    rep["published"] = sorted(by.values(), key=lambda e: order.index(e["row"]))
    return rep


def readings_text(rep: AtlasReport) -> str:
    """The readings as a Markdown table per published row, then which ones match."""
    if not rep["rows"]:
        return "no reading has blocks yet: atlas run 'reading-*' --count 10000"
    out = []
    for entry in rep["published"]:
        pub = entry["published"]
        out += [
            f"{entry['row']}: published {pub['percent']:.2f}% of {pub['deals']:,} deals",
            "",
            "| reading | rules | deals | win rate | 95% interval | z | inside |",
            "|---|---|---:|---:|---|---:|---|",
        ]
        for e in rep["rows"]:
            if e["reads"] != entry["row"]:
                continue
            ci = "-" if e["ci95"] is None else f"{_pct(e['ci95'][0])}..{_pct(e['ci95'][1])}"
            z = "-" if e["z"] is None else f"{e['z']:+.1f}"
            inside = "-" if e["inside"] is None else ("yes" if e["inside"] else "no")
            out.append(
                f"| `{e['row']}` | {_rules_short(e['rules'])} | {e['deals']:,} | "
                f"{_pct(e['win_rate'])} | {ci} | {z} | {inside} |"
            )
        match = entry["match"]
        out += [
            "",
            f"inside the interval ({len(match)} of {entry['read']}): "
            + (", ".join(match) if match else "none"),
        ]
        out += [
            "the same results deal by deal: " + " = ".join(names) for names in entry["identical"]
        ]
        out += [
            "",
        ]
    return "\n".join(out).rstrip()


def plot(rep: AtlasReport, path: str | os.PathLike[str]) -> None:
    """Each row's win rate with its 95% interval, the published values marked, as a figure
    saved to ``path`` (its format by the suffix, PNG without one; needs matplotlib: the plot
    extra). ValueError when ``path`` is empty or no row has a rate to plot."""
    figure_path(path)
    entries = [e for e in rep["rows"] if e["win_rate"] is not None]
    if not entries:
        raise ValueError(f"plot: no row has decided deals in {rep['out']}: no figure written")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.32 * len(entries)))
    ys = np.arange(len(entries))[::-1]
    for y, e in zip(ys, entries):
        win_rate, ci95 = e["win_rate"], e["ci95"]
        assert win_rate is not None and ci95 is not None  # (entries: rows with decided deals)
        rate = win_rate * 100
        low, high = (v * 100 for v in ci95)
        ax.errorbar(
            rate,
            y,
            xerr=[[rate - low], [high - rate]],
            fmt="o",
            color="#3a6ea5",
            ms=4,
            capsize=3,
        )
        if e["published"] is not None:
            ax.plot(e["published"]["rate"] * 100, y, "x", color="#c0392b", ms=8, mew=2)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{e['row']} ({e['deals']:,})" for e in entries], fontsize=8)
    ax.set_xlabel("win rate under perfect play, % (95% interval)")
    ax.grid(axis="x", alpha=0.3)
    if any(e["published"] is not None for e in entries):
        from matplotlib.lines import Line2D

        ax.legend(
            handles=[
                Line2D([], [], marker="o", color="#3a6ea5", ls="", label="the atlas"),
                Line2D([], [], marker="x", color="#c0392b", ls="", mew=2, label="published"),
            ],
            loc="best",
            fontsize=8,
        )
    ax.set_title("Pyramid Solitaire: perfect-play win rates")
    fig.tight_layout()
    save_figure(fig, path)
