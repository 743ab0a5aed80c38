"""The win-rate atlas (pyramid_solitaire.atlas, ``pyramid-solitaire atlas``): the registry of
rows, runs of blocks written as files (resumable, the counts solve_many's), checks that
catch a tampered file, the report's numbers and Wilson interval, the plot, the command
line and its errors; on a Dask LocalCluster the same files."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import re

import numpy as np
import pytest

from pyramid_solitaire import Rules, solve_many
from pyramid_solitaire import atlas as A

from conftest import run_main

ONCE = "pyramid-once-no-overlap"
UNLIMITED = "pyramid-unlimited-no-overlap"


def files(folder):
    return sorted(p.name for p in folder.glob("*.json"))


def block_json(path):
    return json.loads(path.read_text())


# ---- the registry ----------------------------------------------------------------------------


def test_registry():
    names = [r.name for r in A.rows()]
    assert len(names) == len(set(names)) == len(A.ROWS)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", n) for n in names)
    for r in A.rows():
        assert Rules.from_dict(r.rules.to_dict()) == r.rules  # a complete, valid rule set
        assert r.description and "\n" not in r.description
        assert r.group in A.GROUPS
    main = [r for r in A.rows() if r.group != "reading"]
    assert len({r.rules for r in main}) == len(main)  # no rule set computed twice
    for name in Rules.preset_names():  # every preset is a row
        assert any(r.rules == Rules.preset(name) for r in main), name
    published = {r.name: r for r in A.rows("published")}
    assert {n: (p.published.percent, p.published.wins) for n, p in published.items()} == {
        "pyramid-once-overlap": (22.77, 22_773_249),
        "pyramid-once-no-overlap": (9.02, 9_019_243),
        "all-once-overlap": (15.92, 15_916_049),
        "all-once-no-overlap": (6.80, 6_795_618),
        "pyramid-unlimited-overlap": (83.15, 83_151_588),
        "pyramid-unlimited-no-overlap": (66.87, 66_865_010),
    }
    for r in published.values():
        pub = r.published
        assert pub.deals == 100_000_000 and round(pub.rate * 100, 2) == pub.percent
        assert r.rules.pair_with_covering == ("no-overlap" not in r.name)
        assert r.rules.win == ("all" if r.name.startswith("all") else "pyramid")
        assert (r.rules.redeals == 0) == ("-once-" in r.name)
    assert published[UNLIMITED].rules == Rules.preset("unlimited")
    assert A.row("all-unlimited-no-overlap").rules == Rules(waste_at_deal=0, win="all")
    # the readings: 18 per published one-pass row, every combination once
    readings = A.rows("reading")
    assert len(readings) == 4 * 18
    for name in ("pyramid-once-overlap", ONCE, "all-once-overlap", "all-once-no-overlap"):
        mine = [r for r in readings if r.reads == name]
        base = published[name].rules
        assert len(mine) == 18 and len({r.rules for r in mine}) == 18
        for r in mine:
            assert r.published == published[name].published
            assert (r.rules.win, r.rules.pair_with_covering) == (
                base.win,
                base.pair_with_covering,
            )
            assert r.rules.redeals in (0, 1) and r.name.startswith("reading-once-")
        assert any(r.rules == base for r in mine)  # the published row's reading is one
    r = A.row("reading-once-no-overlap-w1-stp-top2-2pass")
    assert r.rules == Rules(redeals=1, stock_top_playable=True, pair_waste_top_two=True)
    assert A.row("reading-once-all-overlap-w0-draw3").rules == Rules(
        waste_at_deal=0, draw=3, redeals=0, win="all", pair_with_covering=True
    )
    with pytest.raises(ValueError, match="unknown atlas row 'nope'.*pyramid-once-overlap"):
        A.row("nope")


# ---- runs ------------------------------------------------------------------------------------


def test_run_writes_blocks_resumes_and_counts_as_solve_many(tmp_path):
    done = A.run([UNLIMITED, ONCE], 0, 900, block=300, out=tmp_path)
    assert done["blocks"] == 6 and done["blocks_before"] == 0 and done["undecided"] == 0
    for name in (UNLIMITED, ONCE):
        folder = tmp_path / name
        assert files(folder) == [
            "0000000000-0000000299.json",
            "0000000300-0000000599.json",
            "0000000600-0000000899.json",
        ]
        direct = solve_many(range(900), A.row(name).rules)
        for lo in (0, 300, 600):
            d = block_json(folder / A.block_name(lo, lo + 299))
            assert list(d) == list(A._FIELDS)
            part = direct.winnable[lo : lo + 300]
            assert d["row"] == name and d["first"] == lo and d["count"] == 300
            assert d["wins"] == int(np.sum(part == 1)) and d["undecided"] == 0
            assert d["results_sha256"] == A.results_digest(part)
            assert d["rules"] == A.row(name).rules.to_dict()
            assert Rules.from_dict(d["rules"]) == A.row(name).rules
            assert d["machine"]["cores_used"] >= 1 and d["machine"]["cpu"]
            assert d["max_seconds"] is None and d["seconds"] >= 0
    before = {p: p.read_bytes() for p in tmp_path.glob("*/*.json")}
    again = A.run([UNLIMITED, ONCE], 0, 900, block=300, out=tmp_path)
    assert again["blocks"] == 0 and again["blocks_before"] == 6
    assert {p: p.read_bytes() for p in tmp_path.glob("*/*.json")} == before  # nothing redone
    # extended past the end with another block size: only the deals not covered are done,
    # cut at the multiples of the block size
    more = A.run(UNLIMITED, 100, 1400, block=500, out=tmp_path)
    assert more["blocks"] == 2 and more["blocks_before"] == 3
    assert files(tmp_path / UNLIMITED)[-2:] == [
        "0000000900-0000000999.json",
        "0000001000-0000001499.json",
    ]
    rep = A.report(tmp_path)
    entry = {e["row"]: e for e in rep["rows"]}[UNLIMITED]
    assert entry["deals"] == 1500 and entry["gaps"] == [] and entry["ranges"] == [[0, 1499]]
    assert entry["wins"] == int(np.sum(solve_many(range(1500), "unlimited").winnable == 1))


def test_an_interrupted_run_keeps_its_blocks(tmp_path):
    def stop(path):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        A.run(UNLIMITED, 0, 1200, block=300, out=tmp_path, on_block=stop)
    assert len(files(tmp_path / UNLIMITED)) == 1
    done = A.run(UNLIMITED, 0, 1200, block=300, out=tmp_path)
    assert done["blocks"] == 3 and done["blocks_before"] == 1
    assert len(files(tmp_path / UNLIMITED)) == 4
    assert not list((tmp_path / UNLIMITED).glob(".*"))  # no temporaries left


def test_undecided_deals_are_counted_and_said(tmp_path, capsys):
    # a budget of a nanosecond leaves the deals that need a real search undecided
    code, out, err = run_main(
        capsys, "atlas", "run", "msc", "--count", "200", "--max-seconds", "1e-9",
        "--out", str(tmp_path),
    )  # fmt: skip
    d = block_json(tmp_path / "msc" / A.block_name(0, 199))
    assert d["undecided"] > 0 and d["max_seconds"] == 1e-9
    assert code == 1 and "NOT DECIDED" in out and "WARNING" in err and "0000000199" in err
    assert "NOT DECIDED" in A.report_text(A.report(tmp_path))
    # run again without the budget: nothing to do, but the range still holds them
    code, out, err = run_main(
        capsys, "atlas", "run", "msc", "--count", "200", "--out", str(tmp_path)
    )
    assert "0 blocks done now, 1 on disk before" in out
    assert code == 1 and f"{d['undecided']:,} deals of this range are NOT DECIDED" in err
    done = A.run("msc", 0, 200, out=tmp_path)
    assert done["undecided"] == 0 and done["undecided_before"] == d["undecided"]


# ---- checks ----------------------------------------------------------------------------------


def test_check_agrees_and_catches_a_tampered_file(tmp_path, capsys):
    A.run(UNLIMITED, 0, 600, block=300, out=tmp_path)
    c = A.check(UNLIMITED, 300, out=tmp_path)
    assert c["agree"] and c["digest_agrees"] and c["deals"] == 300
    code, out, _ = run_main(capsys, "atlas", "check", UNLIMITED, "300", "--out", str(tmp_path))
    assert code == 0 and "agrees" in out
    s = A.check(UNLIMITED, 300, out=tmp_path, sample=120, seed=7)
    assert s["agree"] and s["deals"] == 120 and s["seed"] == 7
    assert A.check(UNLIMITED, 300, out=tmp_path, sample=120, seed=7)["wins"] == s["wins"]

    path = tmp_path / UNLIMITED / A.block_name(300, 599)
    good = block_json(path)
    path.write_text(json.dumps(dict(good, wins=good["wins"] + 1)))  # one win more
    c = A.check(UNLIMITED, 300, out=tmp_path)
    assert not c["agree"] and c["file_wins"] == good["wins"] + 1
    code, out, _ = run_main(capsys, "atlas", "check", UNLIMITED, "300", "--out", str(tmp_path))
    assert code == 1 and "DISAGREES" in out
    path.write_text(json.dumps(dict(good, results_sha256="0" * 64)))  # same counts
    c = A.check(UNLIMITED, 300, out=tmp_path)
    assert not c["agree"] and not c["digest_agrees"]
    assert "digests differ" in A.check_text(c)
    path.write_text(json.dumps(dict(good, wins=10)))  # a rate far off: a sample sees it
    s = A.check(UNLIMITED, 300, out=tmp_path, sample=100, seed=1)
    assert not s["agree"]
    code, out, _ = run_main(
        capsys, "atlas", "check", UNLIMITED, "300", "--sample", "100", "--out", str(tmp_path)
    )
    assert code == 1 and "OUTSIDE" in out


# ---- what is refused -------------------------------------------------------------------------


def test_other_rules_and_damaged_files_are_named(tmp_path, capsys):
    A.run(UNLIMITED, 0, 600, block=300, out=tmp_path)
    folder = tmp_path / UNLIMITED
    path = folder / A.block_name(300, 599)
    good = block_json(path)

    def refused(match):
        for call in (
            lambda: A.run(UNLIMITED, 0, 900, block=300, out=tmp_path),
            lambda: A.report(tmp_path),
        ):
            with pytest.raises(ValueError, match=match):
                call()
        for argv in (
            ["run", UNLIMITED, "--count", "900", "--block", "300"],
            ["report"],
            ["check", UNLIMITED, "0"],
        ):
            code, _, err = run_main(capsys, "atlas", *argv, "--out", str(tmp_path))
            assert code == 2 and len(err.strip().splitlines()) == 1, err
            assert str(path) in err or "overlap" in err, err

    path.write_text(json.dumps(dict(good, rules=dict(good["rules"], redeals=0))))
    refused(r"0000000300-0000000599.json was computed under other rules.*redeals 0 in the file")
    for bad, what in (
        ("{", "not JSON"),
        ("[1]", "not a JSON object"),
        (json.dumps({k: v for k, v in good.items() if k != "wins"}), "has no 'wins'"),
        (json.dumps(dict(good, wins=301)), "'wins' is 301"),
        (json.dumps(dict(good, wins=-1)), "'wins' is -1"),
        (json.dumps(dict(good, first=301)), "which is the file"),
        (json.dumps(dict(good, seconds=-1)), "'seconds' is -1"),
        (json.dumps(dict(good, format="x")), "its format"),
        (json.dumps(dict(good, rules={"draw": 1})), "do not name 'waste_at_deal', 'redeals'"),
        (json.dumps(dict(good, rules=dict(good["rules"], draw="1"))), "rule 'draw' is '1'"),
        (json.dumps(dict(good, rules=dict(good["rules"], waste_at_deal=0.0))), "waste_at_deal"),
        (json.dumps(dict(good, results_sha256="A" * 64)), "not 64 lowercase hex digits"),
        (json.dumps(dict(good, date="yesterday")), "'date' is 'yesterday', not a UTC time"),
        (json.dumps(dict(good, machine={})), "machine's 'cpu' is None, not a text"),
        (json.dumps(dict(good, machine=dict(good["machine"], cores_used="2"))), "'cores_used'"),
        (json.dumps(good)[:-1] + ', "wins": 0}', "the key 'wins' twice"),
        (json.dumps(dict(good, rules=dict(good["rules"], draw=2))), "rules are not valid"),
        (json.dumps(dict(good, row="msc")), "of row 'msc'"),
    ):
        path.write_text(bad)
        refused(re.escape(str(path)) + ".*" + re.escape(what))
    path.write_text(json.dumps(good))
    (folder / "notes.json").write_text("{}")
    refused("notes.json, which is not a block file name")
    (folder / "notes.json").unlink()
    (folder / "old").mkdir()
    refused("holds a folder, old")
    (folder / "old").rmdir()
    other = folder / A.block_name(200, 399)  # overlapping blocks (two machines' cuts)
    other.write_text(json.dumps(dict(good, first=200, count=200, wins=0, results_sha256="0" * 64)))
    refused("overlap")
    other.unlink()
    assert A.check(UNLIMITED, 300, out=tmp_path)["agree"]  # back as it was


def test_command_line_usage_errors(tmp_path, capsys):
    for argv, match in (
        (["run", "nope", "--count", "10"], "unknown atlas row 'nope'"),
        (["run", "reading-nope-*", "--count", "10"], "no atlas row matches"),
        (["run", "msc", "--count", "0"], "--count must be 1.."),
        (["run", "msc", "--count", "ten"], "--count must be"),
        (["run", "msc", "--start", "-1", "--count", "10"], "--start must be 0.."),
        (["run", "msc", "--start", "8031810175", "--count", "2"], "runs past the last deal"),
        (["run", "msc", "--count", "2", "--out", ""], "argument --out: an empty name"),
        (["report", "--out", " "], "argument --out: an empty name"),
        (["check", "msc", "0", "--seed", "5"], "--seed goes with a sample"),
        (
            ["run", "msc", "--count", "2", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2"],
            "--workers: not allowed with argument --scheduler",
        ),
        (["run", "msc", "--count", "10", "--block", "0"], "--block must be 1.."),
        (["run", "msc", "--count", "10", "--workers", "0"], "--workers must be"),
        (["run", "msc", "--count", "10", "--max-seconds", "-1"], "--max-seconds must be"),
        (["run", "msc"], "--count"),
        (["check", "msc", "x"], "FIRST must be"),
        (["check", "msc", "0"], "has no block starting at deal 0"),
        (["check", "msc", "0", "--out", str(tmp_path / "none")], "not an atlas folder"),
        (["report", "--out", str(tmp_path / "none")], "not an atlas folder"),
        (["rows", "--group", "x"], "--group must be one of"),
        (["readings", "--out", str(tmp_path / "none")], "not an atlas folder"),
    ):
        if "--out" not in argv and argv[0] != "rows":
            argv = [*argv, "--out", str(tmp_path)]
        code, out, err = run_main(capsys, "atlas", *argv)
        assert code == 2 and match in err and len(err.strip().splitlines()) == 1, (argv, err)
    code, _, err = run_main(capsys, "atlas", "run", "reading-once-w9", "--count", "1")
    assert code == 2 and "reading-once[-all]-{overlap|no-overlap}" in err


def test_a_row_folder_given_as_the_atlas_folder_is_refused(tmp_path, capsys):
    # the blocks would go one level too deep (out/msc/msc/...), and the report miss them
    fake_block(tmp_path, "msc", 0, 100, 60)
    row_folder = tmp_path / "msc"
    for argv in (
        ["run", "msc", "--count", "100"],
        ["report"],
        ["readings"],
        ["check", "msc", "0"],
    ):
        code, _, err = run_main(capsys, "atlas", *argv, "--out", str(row_folder))
        assert code == 2 and "holds block files itself" in err and str(tmp_path) in err, err
    assert not (row_folder / "msc").exists()
    with pytest.raises(ValueError, match="it is a row's folder"):
        A.report(row_folder)


# ---- the report ------------------------------------------------------------------------------


def fake_block(folder, row, first, count, wins, undecided=0, seconds=1.5, digest=None):
    """A block file as a run writes it (for report tests that need no solving)."""
    digest = digest or hashlib.sha256(f"{row} {first} {wins}".encode()).hexdigest()
    folder = folder / row
    folder.mkdir(parents=True, exist_ok=True)
    d = {
        "format": A.FORMAT,
        "row": row,
        "rules": A.row(row).rules.to_dict(),
        "first": first,
        "count": count,
        "wins": wins,
        "undecided": undecided,
        "results_sha256": digest,
        "seconds": seconds,
        "wall_seconds": seconds / 2,
        "max_seconds": None,
        "version": "0.1.0",
        "machine": {
            "cpu": "test",
            "cores_used": 1,
            "cores": 2,
            "system": "Linux x86_64",
            "python": "3.11.7",
        },
        "date": "2026-12-03T00:00:00Z",
    }
    (folder / A.block_name(first, first + count - 1)).write_text(json.dumps(d))


def wilson_by_hand(k, n, z=1.959963984540054):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_report_numbers_interval_and_gaps(tmp_path):
    fake_block(tmp_path, ONCE, 0, 100_000, 9_000)
    fake_block(tmp_path, ONCE, 200_000, 100_000, 9_100, seconds=2.5)
    fake_block(tmp_path, "msc", 0, 1000, 665)
    (tmp_path / "gone-row").mkdir()
    rep = A.report(tmp_path)
    assert [e["row"] for e in rep["rows"]] == [ONCE, "msc"]  # the registry's order
    once = rep["rows"][0]
    assert (once["deals"], once["wins"], once["blocks"], once["undecided"]) == (
        200_000,
        18_100,
        2,
        0,
    )
    assert once["win_rate"] == 18_100 / 200_000 and once["seconds"] == 4.0
    low, high = wilson_by_hand(18_100, 200_000)
    # by hand: p = 0.0905, z^2/n tiny: 0.0905 -+ 1.96 * sqrt(0.0905 * 0.9095 / 200000)
    assert abs(low - 0.08925) < 2e-5 and abs(high - 0.09176) < 2e-5
    assert once["ci95"] == pytest.approx([low, high], abs=1e-12)
    assert once["ranges"] == [[0, 99_999], [200_000, 299_999]]
    assert once["gaps"] == [[100_000, 199_999]]
    pub = 9_019_243 / 100_000_000
    assert once["inside"] is (low <= pub <= high) is True
    assert once["z"] == pytest.approx(
        (0.0905 - pub) / math.sqrt(0.0905 * 0.9095 / 200_000 + pub * (1 - pub) / 1e8)
    )
    assert rep["rows"][1]["published"] is None and rep["rows"][1]["inside"] is None
    assert rep["unknown"] == ["gone-row"]
    text = A.report_text(rep)
    assert text.splitlines()[0].startswith("| row | rules | deals |")
    assert f"| `{ONCE}` | w0 1 pass stp | 200,000 | 18,100 | 9.05% | 8.93%..9.18% |" in text
    assert "9.02% of 100,000,000 | yes |" in text
    assert "gaps 100,000..199,999" in text and "gone-row" in text
    fake_block(tmp_path, "pyramid-unlimited-overlap", 0, 10_000, 8_000)  # 80%: outside
    assert "83.15% of 100,000,000 | **no** |" in A.report_text(A.report(tmp_path))
    assert [e["row"] for e in A.report(tmp_path, "preset")["rows"]] == ["msc"]


def test_readings(tmp_path, capsys):
    # one reading whose interval holds the published 9.02%, one that does not
    near = "reading-once-no-overlap-w1-stp-notop2-1pass"
    far = "reading-once-no-overlap-w0-nostp-notop2-1pass"
    twin = "reading-once-no-overlap-w1-stp-top2-1pass"  # the same deals won as near
    fake_block(tmp_path, near, 0, 10_000, 905, digest="ab" * 32)
    fake_block(tmp_path, far, 0, 10_000, 400)
    fake_block(tmp_path, twin, 0, 10_000, 905, digest="ab" * 32)
    fake_block(tmp_path, ONCE, 0, 10_000, 400)  # not a reading: not in the readings
    fake_block(tmp_path, "reading-once-overlap-w0-draw3", 0, 10_000, 2000)
    rep = A.readings(tmp_path)
    assert [e["row"] for e in rep["rows"]] == [far, near, twin, "reading-once-overlap-w0-draw3"]
    assert rep["published"] == [
        {
            "row": "pyramid-once-overlap",
            "published": A.row("pyramid-once-overlap").published.to_dict(),
            "match": [],
            "read": 1,
            "identical": [],
        },
        {
            "row": ONCE,
            "published": A.row(ONCE).published.to_dict(),
            "match": [near, twin],
            "read": 3,
            "identical": [[near, twin]],
        },
    ]
    text = A.readings_text(rep)
    assert f"inside the interval (2 of 3): {near}, {twin}" in text
    assert f"the same results deal by deal: {near} = {twin}" in text
    assert "inside the interval (0 of 1): none" in text
    code, out, _ = run_main(capsys, "atlas", "readings", "--out", str(tmp_path))
    assert code == 0 and out.strip() == text
    code, out, _ = run_main(capsys, "atlas", "readings", "--out", str(tmp_path), "--json")
    assert code == 0 and json.loads(out)["published"][1]["match"] == [near, twin]


def test_plot(tmp_path):
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    fake_block(tmp_path, ONCE, 0, 10_000, 905)
    fake_block(tmp_path, "msc", 0, 10_000, 6650)
    A.plot(A.report(tmp_path), tmp_path / "atlas.png")
    assert (tmp_path / "atlas.png").read_bytes()[:4] == b"\x89PNG"
    A.plot(A.report(tmp_path), tmp_path / "atlas.svg")
    assert b"<svg" in (tmp_path / "atlas.svg").read_bytes()[:500]
    assert (tmp_path / "atlas.svg").stat().st_mode & 0o777 == 0o644  # shared, as the blocks
    with pytest.raises(ValueError, match="plot must name a file"):
        A.plot(A.report(tmp_path), "")
    with pytest.raises(ValueError, match="no row has decided deals"):
        A.plot(A.report(tmp_path, "reading"), tmp_path / "none.png")
    assert not (tmp_path / "none.png").exists()


# ---- the command line ------------------------------------------------------------------------


def test_command_line(tmp_path, capsys):
    code, out, _ = run_main(capsys, "atlas", "rows")
    assert code == 0 and "published:" in out and "reading:" in out
    assert re.search(r"pyramid-once-no-overlap +clear the pyramid.*9\.02% of 100,000,000", out)
    code, out, _ = run_main(capsys, "atlas", "rows", "--json", "--group", "published")
    assert code == 0 and len(json.loads(out)["rows"]) == 6
    code, out, _ = run_main(
        capsys, "atlas", "rows", "--json", "--group", "published", "--group", "extra"
    )
    assert code == 0 and {r["group"] for r in json.loads(out)["rows"]} == {"published", "extra"}
    out_dir = str(tmp_path / "a")
    code, out, _ = run_main(
        capsys, "atlas", "run", UNLIMITED, "--count", "600", "--block", "300", "--out", out_dir
    )
    assert code == 0
    assert out.startswith(f"atlas {UNLIMITED}: deals 0..599: 2 blocks done now, 0 on disk")
    code, out, _ = run_main(
        capsys, "atlas", "run", "pyramid-unlimited-*", "--count", "600", "--block", "300",
        "--out", out_dir, "--json",
    )  # fmt: skip
    done = json.loads(out)
    assert code == 0 and [e["row"] for e in done["rows"]] == [
        "pyramid-unlimited-overlap",
        UNLIMITED,
    ]
    assert done["blocks"] == 2 and done["blocks_before"] == 2
    code, out, _ = run_main(capsys, "atlas", "report", "--out", out_dir)
    assert code == 0 and f"| `{UNLIMITED}` | w0 unlimited | 600 |" in out
    code, out, _ = run_main(capsys, "atlas", "report", "--out", out_dir, "--json")
    assert code == 0 and [e["deals"] for e in json.loads(out)["rows"]] == [600, 600]
    if importlib.util.find_spec("matplotlib") is not None:  # (the plot extra)
        plot = tmp_path / "a.png"
        code, _, _ = run_main(capsys, "atlas", "report", "--out", out_dir, "--plot", str(plot))
        assert code == 0 and plot.read_bytes()[:4] == b"\x89PNG"


# ---- on a Dask cluster -----------------------------------------------------------------------


def test_a_run_on_a_dask_cluster_writes_the_local_files(tmp_path):
    distributed = pytest.importorskip(
        "distributed", reason="the distributed extra is not installed"
    )
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        done = A.run(
            UNLIMITED, 0, 600, block=300, out=tmp_path / "dask", scheduler=cluster.scheduler_address
        )
    assert done["blocks"] == 2
    A.run(UNLIMITED, 0, 600, block=300, out=tmp_path / "local")
    for name in files(tmp_path / "local" / UNLIMITED):
        far, near = (block_json(tmp_path / w / UNLIMITED / name) for w in ("dask", "local"))
        assert {k: far[k] for k in ("rules", "first", "count", "wins", "results_sha256")} == {
            k: near[k] for k in ("rules", "first", "count", "wins", "results_sha256")
        }


def test_a_cluster_without_workers_says_so_and_waits_for_one(tmp_path, capsys):
    distributed = pytest.importorskip(
        "distributed", reason="the distributed extra is not installed"
    )
    import threading

    with distributed.LocalCluster(
        n_workers=0, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        done: dict = {}
        run = threading.Thread(
            target=lambda: done.update(
                A.run(
                    UNLIMITED, 0, 300, block=300, out=tmp_path, scheduler=cluster.scheduler_address
                )
            )
        )
        run.start()
        for _ in range(200):  # the note comes before any task is sent
            if "has no workers yet" in capsys.readouterr().err:
                break
            run.join(0.05)
        else:
            pytest.fail("no note that the cluster has no workers")
        assert run.is_alive() and not done  # waiting, not failing
        cluster.scale(1)
        run.join(120)
        assert not run.is_alive() and done["blocks"] == 1
