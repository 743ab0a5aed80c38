"""Surveys (pyramid_solitaire.survey, ``pyramid-solitaire survey``): shards written as
Parquet, identical to a direct run whatever the sharding, resumable, refusing other
parameters; on a real Dask cluster (a LocalCluster of two worker processes) the same rows,
also when a worker dies mid-run."""

from __future__ import annotations

import json
import os
import signal
import sys

import numpy as np
import pytest

from pyramid_solitaire import Hindsight, simulate, solve_many
from pyramid_solitaire import survey as S

from conftest import run_main, seed000_deal


def seed000_cards() -> str:
    return seed000_deal().to_cards()


pytest.importorskip("pyarrow", reason="the survey extra (pyarrow) is not installed")

SAME = [k for k in S.COLUMNS if k != "seconds"]  # a run's timings differ, nothing else
KILL = getattr(signal, "SIGKILL", signal.SIGTERM)  # (Windows: TerminateProcess)


def rows_of(folder):
    plan, rows, missing = S.load(folder)
    assert missing == 0
    return rows


def same_rows(a, b):
    return all(np.array_equal(a[k], b[k]) for k in SAME)


@pytest.mark.parametrize(
    "policy, rules", [("greedy", "msc"), ("random", "pyramide"), ("solver", "pyramide")]
)
def test_survey_rows_are_the_direct_run(tmp_path, policy, rules):
    """The shards' rows are what simulate / solve_many give for the same deals, whatever the
    shard size and the number of local workers."""
    seed = 77 if policy == "random" else None
    start, count = 1000, 2500
    a = S.survey(
        tmp_path / "a",
        rules=rules,
        policy=policy,
        start=start,
        count=count,
        shard_size=700,
        seed=seed,
    )
    assert (a["shards"], a["done_now"], a["done_before"]) == (4, 4, 0)
    b = S.survey(  # the same deals in other shards, on two workers
        tmp_path / "b",
        rules=rules,
        policy=policy,
        start=start,
        count=count,
        shard_size=1300,
        seed=seed,
        workers=2,
    )
    assert b["done_now"] == b["shards"] and b["done_before"] == 0
    ra, rb = rows_of(tmp_path / "a"), rows_of(tmp_path / "b")
    assert same_rows(ra, rb)
    assert np.array_equal(ra["deal"], np.arange(start, start + count, dtype=np.uint64))
    if policy == "solver":
        r = solve_many(range(start, start + count), rules, max_removed=True)
        assert np.array_equal(ra["won"], r.winnable)
        assert np.array_equal(ra["length"], np.where(r.winnable == 1, r.n_moves, -1))
        assert np.array_equal(ra["removed"], np.where(r.winnable == 1, 28, r.max_removed))
        assert np.array_equal(ra["nodes"], r.nodes)
    else:
        r = simulate(count, start=start, rules=rules, policy=policy, seed=seed)
        assert np.array_equal(ra["won"], r.won) and np.array_equal(ra["length"], r.moves)
        assert np.array_equal(ra["removed"], r.removed)
    rep = S.report(tmp_path / "a")
    assert rep["deals"] == count and rep["missing_shards"] == 0
    assert rep["wins"] == int(np.sum(ra["won"] == 1))
    low, high = rep["ci95"]
    assert low < rep["win_rate"] < high
    assert sum(rep["removed_histogram"].values()) == count


def test_interrupted_survey_resumes_to_the_same_rows(tmp_path):
    """Stopped after two shards (as Ctrl-C does), the survey keeps them; run again with the same
    arguments it does only the others, and the folder equals one uninterrupted run."""
    args = dict(rules="msc", policy="random", seed=3, start=0, count=6000, shard_size=1000)
    seen = []

    def stop(i):
        seen.append(i)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        S.survey(tmp_path / "r", on_shard=stop, **args)
    assert len(list((tmp_path / "r").glob("shard-*.parquet"))) == 2
    assert S.load(tmp_path / "r")[2] == 4
    assert "4 of 6 shards missing" in S.report_text(S.report(tmp_path / "r"))
    again = S.survey(tmp_path / "r", **args)
    assert (again["done_now"], again["done_before"]) == (4, 2)
    S.survey(tmp_path / "whole", **args)
    assert same_rows(rows_of(tmp_path / "r"), rows_of(tmp_path / "whole"))
    assert S.survey(tmp_path / "r", **args)["done_now"] == 0  # finished: nothing to do


def test_torn_shard_is_redone(tmp_path):
    args = dict(rules="classic", policy="greedy", count=3000, shard_size=1000)
    S.survey(tmp_path / "t", **args)
    whole = rows_of(tmp_path / "t")
    (tmp_path / "t" / S.shard_name(1)).write_bytes(b"PAR1 not really")
    with pytest.raises(
        ValueError,
        match=f"{S.shard_name(1)} is damaged: not a readable Parquet file .*run the survey again",
    ):
        S.load(tmp_path / "t")  # named, never counted as missing without a word
    assert S.survey(tmp_path / "t", **args)["done_now"] == 1
    assert same_rows(rows_of(tmp_path / "t"), whole)


def test_other_parameters_are_refused(tmp_path):
    S.survey(tmp_path / "s", rules="msc", policy="greedy", count=2000, shard_size=1000)
    manifest = (tmp_path / "s" / S.MANIFEST).read_text()
    for other in (
        dict(rules="pyramide"),
        dict(count=3000, start=5),
        dict(shard_size=500),
        dict(policy="random", seed=1),
    ):
        args = dict(rules="msc", policy="greedy", count=2000, shard_size=1000) | other
        with pytest.raises(ValueError, match="other parameters"):
            S.survey(tmp_path / "s", **args)
    assert (tmp_path / "s" / S.MANIFEST).read_text() == manifest  # nothing lost
    S.survey(tmp_path / "rnd", rules="msc", policy="random", seed=9, count=1000)
    with pytest.raises(ValueError, match=r"\(seed differ"):
        S.survey(tmp_path / "rnd", rules="msc", policy="random", seed=10, count=1000)
    # no seed: the folder's (a fresh one was drawn and kept when none was given)
    assert S.survey(tmp_path / "rnd", rules="msc", policy="random", count=1000)["done_now"] == 0
    first = S.survey(tmp_path / "fresh", rules="msc", policy="random", count=1000)
    assert S.read_manifest(tmp_path / "fresh").seed is not None and first["done_now"] == 1
    (tmp_path / "loose").mkdir()
    (tmp_path / "loose" / S.shard_name(0)).write_bytes(b"x")
    with pytest.raises(ValueError, match="no manifest"):
        S.survey(tmp_path / "loose", count=10)


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(policy="perfect"), "policy must be one of"),
        (dict(count=0), "count"),
        (dict(start=-1), "start"),
        (dict(shard_size="lots"), "shard_size"),
        (dict(policy="greedy", seed=4), "seed goes with"),
        (dict(policy="greedy", objective="min_moves"), "go with policy 'solver'"),
        (dict(objective="fastest"), "objective must be"),
        (dict(rules="nope"), "nope"),
        (dict(start=S.MAX_DEAL_NUMBER, count=2), "count"),
    ],
)
def test_bad_parameters(tmp_path, bad, match):
    with pytest.raises(ValueError, match=match):
        S.survey(tmp_path / "x", **(dict(count=10) | bad))
    assert not (tmp_path / "x").exists()


def test_survey_command_line(tmp_path, capsys):
    out = str(tmp_path / "cli")
    code, stdout, _ = run_main(
        capsys,
        "survey",
        "--rules",
        "msc",
        "--policy",
        "greedy",
        "--count",
        "3000",
        "--shard-size",
        "1000",
        "--out",
        out,
        "--json",
    )
    assert code == 0 and json.loads(stdout)["done_now"] == 3
    code, stdout, _ = run_main(capsys, "survey", "report", out, "--json")
    rep = json.loads(stdout)
    assert code == 0 and rep["deals"] == 3000 and rep["policy"] == "greedy"
    assert rep["wins"] == simulate(3000, rules="msc").wins
    code, stdout, _ = run_main(capsys, "survey", "report", out)
    assert code == 0 and "95% interval" in stdout and "pyramid cards removed" in stdout
    for argv, match in (
        (["--count", "10"], "needs --count and --out"),
        (["--count", "ten", "--out", out + "2"], "--count must be"),
        (
            ["--count", "10", "--out", out + "3", "--policy", "greedy", "--seed", "1"],
            "--seed goes with --policy random",
        ),
        (
            [
                "--rules",
                "pyramide",
                "--count",
                "3000",
                "--shard-size",
                "1000",
                "--out",
                out,
                "--policy",
                "greedy",
            ],
            "other parameters",
        ),
        (["report", str(tmp_path / "none")], "not a survey folder"),
    ):
        code, _, stderr = run_main(capsys, "survey", *argv)
        assert code == 2 and match in stderr and len(stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("text", ["[1, 2]", "null", "7", '{"format": 3}', "{"])
def test_a_damaged_manifest_is_an_error_not_a_traceback(tmp_path, capsys, text):
    S.survey(tmp_path / "m", rules="msc", policy="greedy", count=1000)
    (tmp_path / "m" / S.MANIFEST).write_text(text)
    with pytest.raises(ValueError, match="manifest"):
        S.survey(tmp_path / "m", rules="msc", policy="greedy", count=1000)
    with pytest.raises(ValueError, match="manifest"):
        S.survey(tmp_path / "m", rules="msc", policy="random", count=1000)
    for argv in (
        ["report", str(tmp_path / "m")],
        ["--count", "10", "--out", str(tmp_path / "m"), "--policy", "random"],
    ):
        code, _, stderr = run_main(capsys, "survey", *argv)
        assert code == 2 and len(stderr.strip().splitlines()) == 1, stderr


def test_unusable_folders(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    for out in (tmp_path / "file", tmp_path / "file" / "sub"):
        code, _, stderr = run_main(capsys, "survey", "--count", "10", "--out", str(out))
        assert code == 2 and len(stderr.strip().splitlines()) == 1, stderr
    S.survey(tmp_path / "p", rules="msc", policy="greedy", count=1000)
    code, _, stderr = run_main(
        capsys,
        "survey",
        "report",
        str(tmp_path / "p"),
        "--plot",
        str(tmp_path / "no" / "such" / "x.png"),
    )
    assert code == 74 and len(stderr.strip().splitlines()) == 1, stderr  # output: 74
    assert "cannot write" in stderr and "x.png" in stderr and ".tmp" not in stderr


def test_one_run_at_a_time_and_stale_temporaries(tmp_path):
    """A second run into a folder in use is refused (it would mix in or redo shards); a
    killed run's half-written shard files are cleared when the next one starts."""
    args = dict(rules="msc", policy="greedy", count=2000, shard_size=1000)
    S.survey(tmp_path / "c", **args)
    (tmp_path / "c" / ".shard-0000001.parquet.x.tmp").write_bytes(b"half")
    with S._lock(tmp_path / "c"):
        with pytest.raises(ValueError, match="another survey run is using"):
            S.survey(tmp_path / "c", **args)
    assert S.survey(tmp_path / "c", **args)["done_now"] == 0
    assert not list((tmp_path / "c").glob("*.tmp"))


def test_policy_spelling_and_pandas(tmp_path):
    """'Random' resumes a random survey as 'random' does; the folder reads as one dataset."""
    pd = pytest.importorskip("pandas")
    S.survey(tmp_path / "r", rules="msc", policy="random", count=3000, shard_size=1000)
    assert (
        S.survey(tmp_path / "r", rules="msc", policy=" Random ", count=3000, shard_size=1000)[
            "done_now"
        ]
        == 0
    )
    df = pd.read_parquet(tmp_path / "r")
    assert len(df) == 3000 and sorted(df["deal"]) == list(range(3000))


def test_a_dead_local_worker_has_its_shards_redone(tmp_path):
    """The local pool's process is killed while it holds shards: a fresh pool redoes them;
    the rows are an uninterrupted run's."""
    import multiprocessing

    args = dict(rules="msc", policy="solver", max_removed=False, count=1600, shard_size=200)
    killed = []

    def kill(i):
        if not killed:
            for child in multiprocessing.active_children():
                killed.append(child.pid)
                os.kill(child.pid, KILL)

    run = S.survey(tmp_path / "w", on_shard=kill, **args)
    assert killed and run["done_now"] == 8
    S.survey(tmp_path / "w2", **args)
    assert same_rows(rows_of(tmp_path / "w"), rows_of(tmp_path / "w2"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only: /dev/full")
def test_report_plot(tmp_path):
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    S.survey(tmp_path / "p", rules="msc", policy="greedy", count=2000)
    S.plot(S.report(tmp_path / "p"), tmp_path / "p.png")
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    S.plot(S.report(tmp_path / "p"), tmp_path / "p.svg")  # the format of the name
    assert b"<svg" in (tmp_path / "p.svg").read_bytes()[:500]
    (tmp_path / "real.png").write_bytes(b"")
    (tmp_path / "link.png").symlink_to(tmp_path / "real.png")
    S.plot(S.report(tmp_path / "p"), tmp_path / "link.png")  # through the one writer
    assert (tmp_path / "link.png").is_symlink()
    assert (tmp_path / "real.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(OSError, match="not a file"):
        S.plot(S.report(tmp_path / "p"), "/dev/full")
    assert (tmp_path / "p.svg").stat().st_mode & 0o777 == 0o644  # shared, as the shards
    with pytest.raises(ValueError, match="plot must name a file"):
        S.plot(S.report(tmp_path / "p"), "")


# ---- on a Dask cluster ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip(
        "distributed", reason="the distributed extra is not installed"
    )
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as c:
        with distributed.Client(c) as client:
            yield c, client


def test_distributed_survey_equals_the_local_one(tmp_path, cluster):
    c, client = cluster
    args = dict(rules="pyramide", policy="solver", count=9000, shard_size=1000)
    run = S.survey(tmp_path / "dask", scheduler=c.scheduler_address, **args)  # an address
    assert run["done_now"] == 9
    S.survey(
        tmp_path / "dask2",
        scheduler=client,
        shard_size=4000,  # a Client
        **{k: v for k, v in args.items() if k != "shard_size"},
    )
    S.survey(tmp_path / "local", **args)
    local = rows_of(tmp_path / "local")
    assert same_rows(rows_of(tmp_path / "dask"), local)
    assert same_rows(rows_of(tmp_path / "dask2"), local)


def test_worker_killed_mid_run_loses_and_doubles_nothing(tmp_path, cluster):
    """A worker process is killed while it holds shards: they are redone on the other (or on
    its restarted self); every shard is written once, the rows as a local run's."""
    c, client = cluster
    # (about 0.5 s a shard: long enough for the victim to hold some when the first is done)
    args = dict(
        rules="classic-draw3", policy="solver", max_removed=False, count=2400, shard_size=200
    )
    pids = client.run(os.getpid)  # worker address -> its process
    held = []

    def kill_one(i):
        if not held:
            victim = sorted(pids)[0]
            holding = client.processing().get(victim, [])
            if holding:  # (else: at the next shard done)
                held.extend(holding)  # its shards in flight
                os.kill(pids[victim], KILL)  # its nanny starts a new one

    run = S.survey(tmp_path / "k", scheduler=client, on_shard=kill_one, **args)
    assert held and run["done_now"] == 12
    S.survey(tmp_path / "kl", **args)
    got = rows_of(tmp_path / "k")
    assert len(got["deal"]) == 2400 and len(np.unique(got["deal"])) == 2400
    assert same_rows(got, rows_of(tmp_path / "kl"))


def test_simulate_and_solve_many_on_a_cluster(cluster, capsys):
    """simulate(..., scheduler=) and solve_many(..., scheduler=) give the local run's rows,
    whatever the shard size; the CLI's simulate --scheduler the same summary."""
    c, client = cluster
    local = simulate(250_000, start=7, rules="msc", policy="random", seed=5)
    for shard in (60_000, 1_000_000):
        far = simulate(
            250_000,
            start=7,
            rules="msc",
            policy="random",
            seed=5,
            scheduler=client,
            shard_size=shard,
        )
        for k in ("deal", "won", "removed", "moves", "score"):
            assert np.array_equal(getattr(far, k), getattr(local, k)), k
        assert far.workers == 2 and far.to_dict()["workers"] == 2
        assert "2 Dask workers" in far.summary()
    solver = simulate(
        1500, rules="pyramide", policy="solver", scheduler=c.scheduler_address, shard_size=400
    )
    assert solver.wins == simulate(1500, rules="pyramide", policy="solver").wins
    fair = Hindsight(samples=4, max_nodes=3000)
    far = simulate(60, start=11, rules="msc", policy=fair, scheduler=client, shard_size=25)
    near = simulate(60, start=11, rules="msc", policy=fair)
    assert np.array_equal(far.moves, near.moves) and far.fair == fair and far.seed == 0
    deals = list(range(50, 2050)) + [9, 8, 7]
    a = solve_many(deals, "unlimited", max_removed=True, scheduler=client, shard_size=333)
    b = solve_many(deals, "unlimited", max_removed=True)
    for k in ("winnable", "n_moves", "max_removed", "nodes", "stopped_by", "optimal"):
        assert np.array_equal(getattr(a, k), getattr(b, k)), k
    code, stdout, _ = run_main(
        capsys,
        "simulate",
        "--games",
        "100000",
        "--rules",
        "msc",
        "--scheduler",
        c.scheduler_address,
        "--json",
    )
    d = json.loads(stdout)
    assert code == 0 and d["wins"] == simulate(100_000, rules="msc").wins and d["workers"] == 2
    with pytest.raises(ValueError, match="numbered deals"):
        simulate(deals=[1, 2, 3], scheduler=client)
    with pytest.raises(ValueError, match="shard_size goes with scheduler"):
        simulate(10, shard_size=5)
    for bad in (dict(policy="solver"), dict(policy="greedy")):
        with pytest.raises(ValueError, match="shard_size"):
            simulate(10, scheduler=client, shard_size=0, **bad)
    with pytest.raises(ValueError, match="shard_size"):
        solve_many([1, 2], shard_size=0)
    code, _, stderr = run_main(capsys, "simulate", "--file", "x.txt", "--scheduler", "tcp://a:1")
    assert code == 2 and "--scheduler goes with --games" in stderr


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux: /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only: /proc")
def test_the_pool_ends_with_its_client_and_a_rerun_keeps_its_shards(tmp_path):
    """The survey's client killed with SIGKILL mid-run: its pool's workers (and the resource
    tracker) end within seconds, nothing holds its output open (reading it ends), and a
    rerun does only the shards the killed run had not written."""
    import subprocess
    import time

    folder = tmp_path / "s"
    argv = [sys.executable, "-m", "pyramid_solitaire", "survey", "--rules", "msc"]
    argv += ["--count", "12000", "--shard-size", "400", "--no-max-removed", "--workers", "2"]
    argv += ["--out", str(folder), "--no-progress"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list(folder.glob("shard-*.parquet"))) < 2:  # some shards written
        assert time.monotonic() < deadline and proc.poll() is None, "the survey never started"
        time.sleep(0.05)
    workers = _children(proc.pid)
    assert len(workers) >= 2, workers  # (the pool's two workers, and the resource tracker)
    proc.kill()
    t0 = time.monotonic()
    proc.wait(10)
    while any(_alive(w) for w in workers) and time.monotonic() - t0 < 10:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers), "a worker outlived its client"
    proc.stdout.read()  # (returns: no process of the survey holds its output any more)
    proc.stderr.read()
    kept = len(list(folder.glob("shard-*.parquet")))
    assert 2 <= kept < 30
    run = S.survey(folder, rules="msc", count=12000, shard_size=400, max_removed=False)
    assert run["done_now"] == 30 - kept


def test_a_survey_grows_without_doing_again_what_it_did(tmp_path):
    """The same folder with a larger count: only the new deals are done (the old last
    shard, cut at the old count, whole again); the rows are a fresh run's of the larger
    range; a smaller count is refused, saying what the folder holds."""
    args = dict(rules="msc", policy="solver", max_removed=False, shard_size=400)
    first = S.survey(tmp_path / "g", count=1000, **args)  # shards 400, 400, 200
    assert first["done_now"] == 3
    grown = S.survey(tmp_path / "g", count=2000, **args)
    assert (grown["done_before"], grown["done_now"]) == (2, 3)  # the cut shard redone
    assert S.read_manifest(tmp_path / "g").count == 2000
    S.survey(tmp_path / "fresh", count=2000, **args)
    assert same_rows(rows_of(tmp_path / "g"), rows_of(tmp_path / "fresh"))
    with pytest.raises(ValueError, match="holds a survey of 2,000 deals from 0: give a count"):
        S.survey(tmp_path / "g", count=1500, **args)
    with pytest.raises(ValueError, match="another range goes in another folder"):
        S.survey(tmp_path / "g", count=2000, start=10, **args)


def test_each_shard_file_says_what_it_holds(tmp_path):
    """A shard's Parquet metadata names its survey's rules, policy, seed and its deals, so a
    file read alone is understood (and a grown survey's old shards still say true)."""
    pa = pytest.importorskip("pyarrow.parquet", reason="the survey extra (pyarrow)")
    S.survey(tmp_path / "m", rules="msc", policy="random", seed=4, count=700, shard_size=300)
    meta = pa.read_schema(tmp_path / "m" / S.shard_name(1)).metadata
    said = json.loads(meta[S.SHARD_KEY.encode()])
    assert said["rules"]["stock_top_playable"] is True and said["rules_name"] == "msc"
    assert (said["policy"], said["seed"], said["shard"]) == ("random", 4, 1)
    assert (said["first"], said["last"]) == (300, 599) and "count" not in said


def test_three_kinds_of_results_share_one_layout(tmp_path):
    """simulate, solve_many and a survey, given the same deals: the same columns of the same
    types for the same facts, and the same values where the facts are the same; a card
    list's row has no deal number and no code (not a row number posing as one)."""
    pytest.importorskip("pandas", reason="pandas (with the survey extra)")
    from pyramid_solitaire.analysis.layout import COLUMNS

    sim = simulate(deals=range(400), rules="msc", policy="solver").to_pandas()
    many = solve_many(range(400), "msc", max_removed=True).to_pandas()
    S.survey(tmp_path / "s", rules="msc", count=400, shard_size=150)
    surv = S.to_pandas(tmp_path / "s")
    shared = list(COLUMNS)
    for df in (sim, many, surv):
        assert list(df.columns[: len(shared)]) == shared
        assert [str(df[c].dtype) for c in shared] == [str(sim[c].dtype) for c in shared], df.dtypes
    for col in ("deal", "code", "rules", "won", "removed"):
        assert sim[col].equals(many[col]) and many[col].equals(surv[col]), col
    assert set(sim["policy"]) == {"solver"} and sim["code"][0] == "PY1-M-AAAAAAA"
    greedy = simulate(deals=["PY1-M-AAAAAAS", seed000_cards()], rules="msc").to_pandas()
    assert greedy["deal"].tolist()[0] == 18 and greedy["deal"].isna().tolist() == [False, True]
    assert greedy["code"].isna().tolist() == [False, True]
    assert greedy["seconds"].isna().all()  # (playouts are timed as a whole)
