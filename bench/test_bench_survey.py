"""Benchmarks of surveys (pyramid_solitaire.survey): deals per second of a whole survey run
(shards sent out, solved, sent back and written as Parquet), on the local process pool and on
a Dask LocalCluster of one worker process, the same deals, rounds interleaved by
pytest-benchmark's order (local, then Dask, per preset).

Run with ``python -m pytest bench/test_bench_survey.py --benchmark-enable`` (the distributed
extra). The target: a distributed run of one worker within 10% of a local run of the
same deals. There are no assertions on speed.
"""

import shutil

import pytest

distributed = pytest.importorskip("distributed")

from pyramid_solitaire import survey as S  # noqa: E402

DEALS = 200_000
ROUNDS = 3
ARGS = dict(rules="pyramide", policy="solver", count=DEALS, shard_size=20_000)


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as c:
        with distributed.Client(c) as cl:
            yield cl


@pytest.mark.parametrize("where", ["local", "dask-1-worker"])
def test_survey(benchmark, record_rate, tmp_path, client, where):
    benchmark.group = "survey: pyramide, solver with most removable"
    folder = tmp_path / "s"
    kw = dict(scheduler=client) if where != "local" else {}

    def run():
        shutil.rmtree(folder, ignore_errors=True)
        return S.survey(folder, **ARGS, **kw)

    done = benchmark.pedantic(run, rounds=ROUNDS, warmup_rounds=0, iterations=1)
    assert done["done_now"] == DEALS // ARGS["shard_size"]
    rate = record_rate(DEALS, "deals", where=where)
    if rate is not None:
        print(f"\nsurvey[{where}]: {rate:,.0f} deals/s")
