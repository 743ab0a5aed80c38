#!/usr/bin/env python3
"""The fair win-rate table (docs/fair.md): what each policy wins on the same held-out deals
(10,000,000 onwards), from perfect play (which sees the stock) down to random, for every
preset and the published rows' rules (the atlas's rows, pyramid_solitaire.atlas).

Each (row, policy) is one or more block files, data/fair/<row>/<policy>-<first>-<last>.json:
the rules, the policy and its parameters, the deals, the wins, and which deals were won (one
bit a deal, hex), with the time it took and the machine. A block is extended by running the
next deals; the table sums a row's blocks. tests/test_fair_data.py checks that the table in
README.md and docs/fair.md is what the files say, and replays some deals of every block.

    PYTHONPATH=python:src python tools/fair_table.py run [ROW ...] [--games N] [--policy P]
        [--scheduler tcp://host:8786]            # the missing deals, here or on a cluster
    PYTHONPATH=python:src python tools/fair_table.py check ROW POLICY [--deals 20]
    PYTHONPATH=python:src python tools/fair_table.py table            # rewrite the tables
    PYTHONPATH=python:src python tools/fair_table.py table --check    # exit 1 when stale
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_solitaire import Hindsight, Rules, simulate, solve_many
from pyramid_solitaire import atlas as A
from pyramid_solitaire.simulate import wilson_interval

sys.path.insert(0, str(Path(__file__).resolve().parent))
import atlas_table as _markers  # noqa: E402  (its writer of a table between two markers)

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "data" / "fair"
FIRST = 10_000_000  # held out: no test, example or training run plays these deals
FORMAT = "pyramid-solitaire fair block 1"
DOCS = [ROOT / "README.md", ROOT / "docs" / "fair.md"]
BEGIN, END = "<!-- fair table: begin -->", "<!-- fair table: end -->"
#: The policies, best first as the table shows them; every row has EVERY_ROW's, and
#: "hindsight64" and "hindsight128" (the hindsight policy with 64 and 128 samples) are run
#: where they are worth their time.
POLICIES = ("solver", "hindsight128", "hindsight64", "hindsight", "learned", "greedy", "random")
EVERY_ROW = ("solver", "hindsight", "greedy", "random")
HEADERS = {
    "solver": "perfect play (sees the stock)",
    "hindsight128": "hindsight (K=128)",
    "hindsight64": "hindsight (K=64)",
    "hindsight": "hindsight (K=16)",
    "learned": "learned (network)",
    "greedy": "greedy",
    "random": "random",
}
#: The hindsight policies' parameters by column.
FAIR = {
    "hindsight": Hindsight(),
    "hindsight64": Hindsight(samples=64),
    "hindsight128": Hindsight(samples=128),
}


#: The learned policy (examples/imitate_msc.py, which plays msc only) and its weights.
LEARNED = ROOT / "examples" / "imitate_msc.py"
WEIGHTS = ROOT / "examples" / "weights" / "imitate_msc.npz"


def learned_params() -> dict[str, Any]:
    """The learned column's block parameters: its weights' file and their digest."""
    import hashlib

    path = WEIGHTS.relative_to(ROOT).as_posix()
    return {"weights": path, "sha256": hashlib.sha256(WEIGHTS.read_bytes()).hexdigest()}


def learned_policy(params: dict[str, Any] | None = None) -> Any:
    """The example's network as a ``simulate`` policy, from the weights in the repository;
    with a block's ``params``, checked to be the weights that block was played with."""
    import importlib.util

    if params is not None and params.get("sha256") != learned_params()["sha256"]:
        raise SystemExit(f"{WEIGHTS.name} is not the weights this block was played with")
    spec = importlib.util.spec_from_file_location("imitate_msc", LEARNED)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example.Net.load(WEIGHTS).policy


def table_rows() -> list[A.Row]:
    """The published rows and the presets (the atlas's groups "published" and "preset")."""
    return A.rows(["published", "preset"])


def play(
    rules: Rules,
    policy: str,
    first: int,
    count: int,
    params: dict[str, Any] | None = None,
    scheduler: str | None = None,
    progress: bool = False,
) -> tuple[np.ndarray, dict[str, Any]]:
    """The won array of deals first .. first + count - 1 under a policy (with a block's
    ``params``, else the table's), and its parameters; on a Dask cluster with
    ``scheduler`` (an address)."""
    cluster = {} if scheduler is None else {"scheduler": scheduler}
    if policy == "solver":
        numbers = np.arange(first, first + count, dtype=np.uint64)
        s = solve_many(numbers, rules, progress=progress, **cluster)
        if np.any(s.winnable < 0):
            raise SystemExit(f"{rules.name}: {int(np.sum(s.winnable < 0))} deals undecided")
        return s.winnable == 1, {}
    if policy == "learned":
        if rules != Rules.preset("msc") or scheduler is not None:
            raise SystemExit("the learned policy plays msc only, on this machine")
        fn = learned_policy(params or None)
        r = simulate(count, start=first, rules=rules, policy=fn, observation="visible")
        return r.won, learned_params()
    if policy in FAIR:
        kept = {k: v for k, v in (params or {}).items() if k != "name"}
        fair = Hindsight(**kept) if kept else FAIR[policy]
        r = simulate(count, start=first, rules=rules, policy=fair, progress=progress, **cluster)
        return r.won, fair.to_dict()
    seed = 0 if policy == "random" else None
    r = simulate(count, start=first, rules=rules, policy=policy, seed=seed, **cluster)
    return r.won, ({"seed": 0} if policy == "random" else {})


def block_path(row: str, policy: str, first: int, count: int) -> Path:
    return FOLDER / row / f"{policy}-{first:010d}-{first + count - 1:010d}.json"


def read_blocks(row: str, policy: str) -> list[dict[str, Any]]:
    """A (row, policy)'s blocks in deal order, checked to follow one another from FIRST."""
    paths = (FOLDER / row).glob(f"{policy}-*.json")
    blocks = sorted(
        (json.loads(p.read_text(encoding="utf-8")) for p in paths), key=lambda b: b["first"]
    )
    at = FIRST
    for b in blocks:
        if b["format"] != FORMAT or b["first"] != at or b["policy"] != policy:
            raise SystemExit(f"data/fair/{row}: a {policy} block is missing or out of place")
        at += b["count"]
    return blocks


def won_of(block: dict[str, Any]) -> np.ndarray:
    """A block's won array (from its hex bits)."""
    bits = np.frombuffer(bytes.fromhex(block["won"]), np.uint8)
    return np.unpackbits(bits, bitorder="little")[: block["count"]].astype(bool)


def check(row: str, policy: str, deals: int, seed: int = 0) -> int:
    """Play ``deals`` deals of each of a (row, policy)'s blocks again (a random sample,
    ``seed``) and compare them with the files; returns how many differ (and says which)."""
    rules, rng, bad = A.row(row).rules, np.random.default_rng(seed), 0
    for b in read_blocks(row, policy):
        won = won_of(b)
        picks = np.sort(rng.choice(b["count"], size=min(deals, b["count"]), replace=False))
        for i in picks:
            got, _ = play(rules, policy, b["first"] + int(i), 1, b["params"])
            if bool(got[0]) != bool(won[i]):
                print(f"{row} {policy}: deal {b['first'] + int(i)} differs from its block")
                bad += 1
    print(f"{row} {policy}: {bad} of the deals played again differ")
    return bad


def run(rows: list[str], policies: list[str], games: int, scheduler: str | None = None) -> None:
    for name in rows:
        row = A.row(name)
        for policy in policies:
            done = sum(b["count"] for b in read_blocks(row.name, policy))
            if done >= games:
                continue
            first, count = FIRST + done, games - done
            t0 = time.perf_counter()
            won, params = play(row.rules, policy, first, count, scheduler=scheduler, progress=True)
            seconds = time.perf_counter() - t0
            block = {
                "format": FORMAT,
                "row": row.name,
                "rules": row.rules.describe_dict(),
                "policy": policy,
                "params": params,
                "first": first,
                "count": count,
                "wins": int(won.sum()),
                "won": np.packbits(won, bitorder="little").tobytes().hex(),
                "seconds": round(seconds, 2),
                "machine": A.machine(2),
            }
            path = block_path(row.name, policy, first, count)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(block, indent=1) + "\n", encoding="utf-8")
            print(f"{row.name} {policy}: {block['wins']}/{count} in {seconds:.0f} s", flush=True)


def cell(wins: int, games: int) -> str:
    low, high = wilson_interval(wins, games)
    return f"{100 * wins / games:.2f}% ({100 * low:.1f}-{100 * high:.1f})"


def table() -> str:
    """The table's markdown: a row per rule set with every policy it has blocks of."""
    head = "| rules | deals | " + " | ".join(HEADERS[p] for p in POLICIES) + " |"
    lines = [head, "|" + "---|" * (2 + len(POLICIES))]
    for row in table_rows():
        cells, counts = [], set()
        for policy in POLICIES:
            blocks = read_blocks(row.name, policy)
            n = sum(b["count"] for b in blocks)
            cells.append(cell(sum(b["wins"] for b in blocks), n) if n else "-")
            if n:
                counts.add(n)
        if not counts:
            continue
        deals = f"{min(counts):,}" if len(counts) == 1 else f"{min(counts):,}-{max(counts):,}"
        lines.append(f"| `{row.name}` | {deals} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def with_table(text: str, new: str, name: str) -> str:
    """``text`` with the lines between the fair table's markers replaced by ``new``."""
    return _markers.with_table(text, new, name, BEGIN, END)


def write_tables(check: bool) -> int:
    stale = _markers.write_tables(DOCS, table(), check, BEGIN, END)
    if check:
        for path in stale:
            print(f"{path}: the fair table is out of date: run tools/fair_table.py table")
        return 1 if stale else 0
    print("the fair table written to " + ", ".join(str(p.relative_to(ROOT)) for p in DOCS))
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play the missing deals of rows (default: every row)")
    r.add_argument("rows", nargs="*", default=[row.name for row in table_rows()])
    r.add_argument("--games", type=int, default=10_000)
    r.add_argument(
        "--policy", action="append", choices=POLICIES, help="default: " + ", ".join(EVERY_ROW)
    )
    r.add_argument("--scheduler", help="a Dask scheduler's address: run the rows there")
    c = sub.add_parser("check", help="play a sample of a row's blocks again")
    c.add_argument("row")
    c.add_argument("policy", choices=POLICIES)
    c.add_argument("--deals", type=int, default=20, help="deals a block (default 20)")
    c.add_argument("--seed", type=int, default=0)
    t = sub.add_parser("table", help="write the table into README.md and docs/fair.md")
    t.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "run":
        run(args.rows, args.policy or list(EVERY_ROW), args.games, args.scheduler)
        return 0
    if args.command == "check":
        return 1 if check(args.row, args.policy, args.deals, args.seed) else 0
    return write_tables(args.check)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
