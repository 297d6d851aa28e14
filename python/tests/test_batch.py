# SPDX-License-Identifier: MIT
"""vtxscope.batch on Dask: a dozen generated replays (both backends, mixed sizes, one truncated,
one of random bytes) on the local scheduler and on a two-process LocalCluster, equal to the serial
tables; vtxscope-batch diverge against a scheduler and two workers started here as processes."""

import os
import random
import shutil
import socket
import subprocess
import sys
import time
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import dask
import numpy as np
import pandas as pd
import pytest
from dask.dataframe import methods
from dask.dataframe.core import finalize as dask_finalize  # what ddf.compute() joins with

import vtxscope
from vtxscope import batch
from conftest import SAMPLE_NAMES, cli_json, generate, sample

HERE = Path(__file__).resolve().parent
PROPS = ["Health", "Position", "Name"]


@pytest.fixture(scope="module")
def replays(tmp_path_factory):
    d = tmp_path_factory.mktemp("replays")
    paths = []
    for i in range(10):
        backend = "fbs" if i % 2 == 0 else "proto"
        paths.append(generate("demo", d / f"run{i:02d}_{backend}.vtx", backend, frames=120 + 90 * i, seed=1 + i % 3))
    full = paths[-1]  # the largest, several chunks: recovery keeps the complete ones
    trunc = d / "truncated.vtx"
    data = full.read_bytes()
    trunc.write_bytes(data[: len(data) * 2 // 3])
    junk = d / "junk.vtx"
    junk.write_bytes(bytes(random.Random(5).randrange(256) for _ in range(20000)))
    return [str(p) for p in paths] + [str(trunc), str(junk)]


def _type_and_props(path):
    with vtxscope.open(path) as r:
        types = r.schema["types"]
        t = "Player" if "Player" in types else next(iter(types))
        props = [p for p in PROPS if p in types[t]["fields"]] or None
    return t, props


def serial(paths, type_name, props):
    meta = batch.table_meta(batch._first_schema(paths), type_name, props)
    parts = [batch._table_partition(p, type_name, props, None, None, 1, meta, 256) for p in paths]
    return dask_finalize(parts).reset_index(drop=True)  # Dask's join: string categories by union


def check(df, paths, type_name, props):
    want = serial(paths, type_name, props)
    df = df.reset_index(drop=True)
    pd.testing.assert_frame_equal(df, want)
    errs = df[df["error"].notna()]
    assert list(errs["file"]) == [paths[-1]], "exactly the random-bytes file is an error row"
    assert errs["error"].iloc[0].startswith("failed: ")
    assert (df["file"] == paths[-2]).sum() > 0, "the truncated file is read in recovery mode"
    assert set(df["file"]) == set(paths)


def test_tables_local_scheduler(replays):
    type_name, props = _type_and_props(replays[0])
    ddf = batch.tables(replays, type_name, props)
    assert ddf.npartitions == len(replays)
    assert list(ddf.columns[:6]) == ["file", "error", "frame", "game_time", "id", "display_name"]
    df = batch.compute(ddf, progress=False)
    # batch.compute joins the partitions column by column: the same frame (index, dtypes,
    # categories and their order included) as Dask's own compute().
    pd.testing.assert_frame_equal(df, ddf.compute())
    check(df, replays, type_name, props)


def test_tables_local_cluster_two_processes(replays):
    distributed = pytest.importorskip("distributed")
    type_name, props = _type_and_props(replays[0])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        ddf = batch.tables(replays, type_name, props)
        df = batch.compute(ddf, client=client, progress=False)
        # batch.compute fetches the partitions as they finish and joins them itself: the same
        # frame (index included) as Dask's own finalize on a worker.
        pd.testing.assert_frame_equal(df, client.compute(ddf).result())
    check(df, replays, type_name, props)


def _parts(replays, with_rows_only=False):
    type_name, props = _type_and_props(replays[0])
    meta = batch.table_meta(batch._first_schema(replays), type_name, props)
    parts = [batch._table_partition(p, type_name, props, None, None, 1, meta, 256) for p in replays]
    return [p for p in parts if len(p)] if with_rows_only else parts


@pytest.mark.parametrize("progress", [False, True])
def test_compute_on_a_client_that_is_not_the_default(replays, progress, capsys):
    """Two clients in one process (a notebook with two clusters): batch.compute on the older one.
    Dask's as_completed and progress bar default to the newest client's event loop and scheduler;
    given that loop, the fetch thread's waits were woken from another thread's loop (a run of
    bench/batch_tables.py with four clusters open hung), and the bar watched the other scheduler."""
    distributed = pytest.importorskip("distributed")
    type_name, props = _type_and_props(replays[0])
    ddf = batch.tables(replays, type_name, props)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as one, \
            distributed.Client(one) as first, \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as two, \
            distributed.Client(two) as newest:
        assert distributed.default_client() is newest
        df = batch.compute(ddf, client=first, progress=progress)
        pd.testing.assert_frame_equal(df, ddf.compute(scheduler="sync"))
        assert not newest.has_what() or not any(newest.has_what().values()), "nothing ran on the other cluster"
        info = batch.compute(batch.info(replays), client=first, progress=progress)  # one partition: no join
        assert len(info) == len(replays)
    if progress:
        assert "100%" in capsys.readouterr().out


def test_compute_without_a_client_uses_the_default_client(replays, capsys):
    """A user with a ``distributed.Client`` open (a notebook) calls batch.compute(coll) without
    naming it: Dask sends the work to that client, so the progress is the cluster's bar, not the
    local scheduler's (which sees no task of a distributed run and printed nothing)."""
    distributed = pytest.importorskip("distributed")
    type_name, props = _type_and_props(replays[0])
    ddf = batch.tables(replays, type_name, props)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert distributed.default_client() is client
        with distributed.get_task_stream(client=client) as stream:
            df = batch.compute(ddf, progress=True)
            info = batch.compute(batch.info(replays), progress=True)  # one partition: no join
        pd.testing.assert_frame_equal(df, ddf.compute(scheduler="sync"))
        assert len(info) == len(replays)
        ran = {t["key"] for t in stream.data}
        assert any("table_partition" in str(k) for k in ran), "the tables ran on the default client"
        assert capsys.readouterr().out.count("100%") >= 2, "a progress bar for each computation"
        # A scheduler the user chose (Dask's own rule): local, even with a default client open.
        with distributed.get_task_stream(client=client) as stream, dask.config.set(scheduler="sync"):
            pd.testing.assert_frame_equal(batch.compute(ddf, progress=True), df)
        assert not any("table_partition" in str(t["key"]) for t in stream.data), "nothing ran on the cluster"
        assert "100%" in capsys.readouterr().out, "the local progress bar"


@pytest.mark.parametrize("case", ["in order", "reversed", "shuffled", "one part", "two parts, one empty",
                                  "empty first", "empties of other replays", "every part empty",
                                  "error rows only", "a part of other dtypes", "other columns",
                                  "an empty part of other dtypes", "other index"])
def test_frame_join_equals_dasks_join(replays, case):
    """batch.compute's join (parts appended in order into growing arrays, as they arrive in any
    order) equals Dask's own join of the same parts (its finalize, what ``ddf.compute()`` returns):
    rows, index, dtypes, categories and their order; empty parts (a replay without a row of the
    type) add nothing, not even their file name to the categories."""
    parts = _parts(replays)  # ten replays, a truncated one (recovered rows), an error row
    empty = parts[0].iloc[:0]
    if case == "one part":
        parts = parts[3:4]
    elif case == "two parts, one empty":
        parts = [parts[2], empty]
    elif case == "empty first":
        parts = [empty] + parts[:4]
    elif case == "empties of other replays":  # each keeps its own file in its categories
        parts = [parts[1].iloc[:0], parts[0], parts[2].iloc[:0], parts[3], parts[4].iloc[:0]]
    elif case == "every part empty":
        parts = [parts[1].iloc[:0], parts[2].iloc[:0], parts[3].iloc[:0]]
    elif case == "error rows only":
        parts = [parts[-1], parts[-1]]
    elif case == "a part of other dtypes":  # a replay whose schema differs: Dask's join from there on
        odd = parts[4].astype({"game_time": "float32", "frame": "float64"})
        parts = parts[:4] + [odd] + parts[5:]
    elif case == "an empty part of other dtypes":  # dropped before it could change the join
        parts = parts[:2] + [parts[2].iloc[:0].astype({"frame": "float64"})] + parts[3:5]
    elif case == "other columns":
        parts = parts[:3] + [parts[3].drop(columns=["display_name"])] + parts[4:6]
    elif case == "other index":
        parts = [p.set_index(p.index + 7) for p in parts[:5]]
    order = list(range(len(parts)))
    if case == "reversed":
        order.reverse()
    elif case == "shuffled":
        random.Random(3).shuffle(order)
    join = batch._FrameJoin(len(parts))
    for i in order:
        join.add(i, parts[i])
    want = dask_finalize(parts)
    got = join.frame()
    pd.testing.assert_frame_equal(got, want, check_index_type=True)
    for c in got.columns:
        if isinstance(got[c].dtype, pd.CategoricalDtype):
            assert list(got[c].cat.categories) == list(want[c].cat.categories), c


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_frame_join_on_sdk_samples(name):
    """The join on what the SDK wrote: every entity type of each sample, cut into four frame
    ranges (partitions with their own categories, some empty), added out of order."""
    path = str(sample(name))
    with vtxscope.open(path) as r:
        schema, frames = r.schema, len(r)
    cuts = [0, frames // 3, frames // 3, 2 * frames // 3, frames]
    for type_name in schema["types"]:
        meta = batch.table_meta(schema, type_name, None)
        parts = [batch._table_partition(path, type_name, None, None, range(a, b), 1, meta, 256)
                 for a, b in zip(cuts, cuts[1:])]
        join = batch._FrameJoin(len(parts))
        for i in (2, 0, 3, 1):
            join.add(i, parts[i])
        pd.testing.assert_frame_equal(join.frame(), dask_finalize(parts), check_index_type=True)


@pytest.mark.parametrize("first,second", [("sdk_rl_proto.vtx", "sdk_cs_proto.vtx"),
                                          ("sdk_rl_proto.vtx", "sdk_rl_fbs.vtx"),
                                          ("sdk_cs_fbs.vtx", "sdk_rl_fbs.vtx")])
def test_compute_equals_dask_compute_on_sdk_pairs(first, second):
    """batch.compute and Dask's own compute() agree on two SDK replays for every type of the
    first one's schema, including the types one or both replays have no row of (the categories
    of the file column name only replays with rows, as Dask's join leaves empty parts out)."""
    paths = [str(sample(first)), str(sample(second))]
    with vtxscope.open(paths[0]) as r:
        types = list(r.schema["types"])
    emptied = 0
    for type_name in types:
        ddf = batch.tables(paths, type_name)
        got = batch.compute(ddf, progress=False)
        pd.testing.assert_frame_equal(got, ddf.compute(scheduler="sync"), check_index_type=True)
        emptied += sum(1 for p in paths if not (got["file"] == p).any())
    assert emptied > 0, "some type has no row in one of the replays"


def test_frame_join_needs_every_part(replays):
    join = batch._FrameJoin(3)
    parts = _parts(replays[:3])
    join.add(0, parts[0])
    join.add(2, parts[2])
    with pytest.raises(RuntimeError, match="1 of 3"):
        join.frame()


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_partition_fast_path_equals_to_pandas_conformed(name):
    """A partition is built from the table's arrays directly (nullable ints and bools over a mask,
    strings by one take); the reference is Table.to_pandas() conformed column by column. Every
    entity type of every SDK sample, every scalar property; then the same with the first replay's
    dtypes all different (a season whose schema changed), which takes the reference path per column."""
    path = str(sample(name))
    with vtxscope.open(path) as r:
        schema = r.schema
    for type_name in schema["types"]:
        meta = batch.table_meta(schema, type_name, None)
        fast = batch._table_partition(path, type_name, None, None, None, 1, meta, 256)
        assert fast["error"].isna().all(), fast["error"].iloc[0]
        pd.testing.assert_frame_equal(fast, batch._table_partition_slow(path, type_name, None, meta))
        if len(meta.columns) <= 6:
            continue
        swap = {"float32": "float64", "float64": "float32", "Int64": "float64", "boolean": "Int64", "category": "object"}
        other = meta.astype({c: swap.get(str(meta[c].dtype), "float64") for c in meta.columns[6:]})
        fast = batch._table_partition(path, type_name, None, None, None, 1, other, 256)
        try:
            slow = batch._table_partition_slow(path, type_name, None, other)
        except vtxscope.SchemaMismatchError as e:
            # A double beyond float32's range (allkinds' Precise) is the replay's error on both paths.
            assert fast["error"].tolist() == [f"schema_mismatch: {e.message}"]
            continue
        pd.testing.assert_frame_equal(fast, slow)


@pytest.mark.parametrize("name", ["allkinds_fbs.vtx", "allkinds_proto.vtx"])
def test_a_double_beyond_a_float32_column_is_an_error_row_not_inf(name):
    """A season whose first replay declared a property float and a later one double: the later
    replay's value beyond float32's range becomes that replay's error row (it was inf, a value the
    replay does not hold); dtypes= widens the column and every value arrives unchanged."""
    path = str(sample(name))
    with vtxscope.open(path) as r:
        schema = r.schema
        own = r.table("Hero", ["Precise"]).to_pandas()
    with np.errstate(over="ignore"):
        assert own["Precise"].dtype == np.float64 and not np.isfinite(own["Precise"].to_numpy().astype(np.float32)).all()
    meta = batch.table_meta(schema, "Hero", ["Precise"]).astype({"Precise": "float32"})
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no "overflow encountered in cast" either
        part = batch._table_partition(path, "Hero", ["Precise"], None, None, 1, meta, 256)
    assert len(part) == 1 and part["error"].iloc[0].startswith("schema_mismatch: column 'Precise' holds ")
    with pytest.raises(vtxscope.SchemaMismatchError) as e:
        batch._table_partition_slow(path, "Hero", ["Precise"], meta)
    assert e.value.column == "Precise"
    wide = batch.compute(batch.tables([path], "Hero", ["Precise"], dtypes={"Precise": "float64"}), progress=False)
    assert wide["error"].isna().all()
    np.testing.assert_array_equal(wide["Precise"].to_numpy(), own["Precise"].to_numpy())
    with pytest.raises(vtxscope.ArgumentError, match="no property column 'Nope'"):
        batch.tables([path], "Hero", ["Precise"], dtypes={"Nope": "float64"})


def test_cli_table_dtype(tmp_path):
    path = str(sample("allkinds_fbs.vtx"))
    with vtxscope.open(path) as r:
        own = r.table("Hero", ["Precise"]).to_pandas()

    def run(*extra):
        return subprocess.run([sys.executable, "-m", "vtxscope._batch_cli", "table", path, "--type", "Hero", "--properties",
                               "Precise", "--out", str(tmp_path / "csv"), "--no-progress", *extra], capture_output=True, text=True)

    out = run("--dtype", "Precise=float64")
    assert out.returncode == 0, out.stderr
    got = pd.read_csv(next((tmp_path / "csv").glob("part-*.csv")), float_precision="round_trip")
    np.testing.assert_array_equal(got["Precise"].to_numpy(), own["Precise"].to_numpy())
    for bad, text in (("Precise", "expected COLUMN=DTYPE"), ("Nope=float64", "no property column 'Nope'"),
                      ("Precise=notatype", "'Precise'")):
        out = run("--dtype", bad)
        assert out.returncode == 2 and text in out.stderr, out.stderr


def test_info_validate_query(replays):
    info = batch.compute(batch.info(replays), progress=False).reset_index(drop=True)
    assert len(info) == len(replays) and info["error"].notna().sum() == 1
    assert info.loc[0, "frames"] == 120
    v = batch.compute(batch.validate(replays[:3]), progress=False)
    assert bool(v["ok"].all())
    type_name, props = _type_and_props(replays[0])
    q = batch.compute(batch.query(replays[:2] + [replays[-1]], "Health < 50"), progress=False).reset_index(drop=True)
    with vtxscope.open(replays[0]) as r:
        n = sum(len(f["entities"]) for f in r.query("Health < 50")["frames"])
    assert (q["file"] == replays[0]).sum() == n
    assert q["error"].notna().sum() == 1


def test_one_task_per_replay(replays):
    """Each replay's partition is one task: with an extra task per partition (from_delayed's
    identity) a one-thread worker ran out of queued tasks every two replays and waited for the
    scheduler. Counted in the graph each collection hands to the scheduler."""
    type_name, props = _type_and_props(replays[0])
    runs = replays[:3]
    for coll in (batch.tables(runs, type_name, props), batch.info(runs), batch.validate(runs),
                 batch.query(runs, "Health < 50"), batch.diverge(runs[0], runs)):
        delayed = coll.to_delayed()
        assert coll.npartitions == len(runs)
        assert len(dict(coll.__dask_graph__())) == len(runs), coll._name
        assert len(delayed) == len(runs)


class _ExecutionOrder:
    """A worker plugin that lists the keys in the order the worker starts executing them: the
    order of its own transitions, not of wall-clock start times (a clock step would reorder those)."""

    name = "vtxscope-test-execution-order"

    def setup(self, worker):
        self.keys = []

    def transition(self, key, start, finish, **kwargs):
        if finish == "executing":
            self.keys.append(key)


def test_partitions_run_in_order_on_a_cluster(replays):
    """A one-thread worker runs the partitions in order, so each fetched part joins at once.
    Without a priority per partition, the scheduler broke ties by the keys as text: partitions
    10 and 11 ran before 2, and the join held back every part after 1 until 2 came (over 40
    replays, 30 partitions were appended after the last task). A user's own priority stays.
    Each run has a cluster of its own and the order is the worker's own: CI once saw 11, 9, 10,
    8, ... when both runs shared one scheduler (the same keys, the first run's futures released
    from the client's loop while the second graph came) and the order was sorted by wall-clock
    start times; neither is left to chance now."""
    distributed = pytest.importorskip("distributed")
    type_name, props = _type_and_props(replays[0])
    assert len(replays) > 10  # partition keys whose text order differs from their order
    ddf = batch.tables(replays, type_name, props)
    expected = ddf.compute(scheduler="sync")

    def ran(**annotations):
        with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster, set_as_default=False) as client:
            client.register_worker_plugin(_ExecutionOrder())
            with dask.annotate(**annotations):
                df = batch.compute(ddf, client=client, progress=False)
            pd.testing.assert_frame_equal(df, expected)
            (keys,) = client.run(lambda dask_worker: dask_worker.plugins[_ExecutionOrder.name].keys).values()
        return [int(str(k).rsplit(",", 1)[1].strip(" )")) for k in keys if "table_partition" in str(k)]

    assert ran() == list(range(len(replays)))
    assert ran(priority=lambda k: k[1] if isinstance(k, tuple) else 0) == list(reversed(range(len(replays))))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _dask_cmd(*args):
    exe = shutil.which("dask")
    if exe:
        return [exe, *args]
    return [sys.executable, "-m", "distributed.cli.dask_" + args[0], *args[1:]]


def test_cli_diverge_on_scheduler_and_two_workers(replays, tmp_path):
    pytest.importorskip("distributed")
    gold = replays[0]
    same = tmp_path / "same.vtx"
    shutil.copy(gold, same)
    runs = [str(same), replays[2], replays[5], replays[-1]]  # agrees, diverges (seed 3), diverges (seed 3, protobuf), unreadable
    port = _free_port()
    env = dict(os.environ)
    procs = []
    try:
        procs.append(subprocess.Popen(_dask_cmd("scheduler", "--host", "127.0.0.1", "--port", str(port),
                                                "--dashboard-address", ":0", "--no-show"),
                                      env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for _ in range(2):
            procs.append(subprocess.Popen(_dask_cmd("worker", f"tcp://127.0.0.1:{port}", "--nworkers", "1",
                                                    "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"),
                                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        from distributed import Client

        with Client(f"tcp://127.0.0.1:{port}", timeout=60) as c:
            c.wait_for_workers(2, timeout=120)
            assert len(c.scheduler_info()["workers"]) == 2
        junit = tmp_path / "report.xml"
        out = subprocess.run([sys.executable, "-m", "vtxscope._batch_cli", "diverge", "--baseline", gold, *runs,
                              "--epsilon", "1e-4", "--scheduler", f"tcp://127.0.0.1:{port}", "--junit", str(junit),
                              "--no-progress"], env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 2, out.stderr  # an unreadable run: 2 (else 1 for the diverging ones)
        check_junit(junit, runs)
        out = subprocess.run([sys.executable, "-m", "vtxscope._batch_cli", "diverge", "--baseline", gold, *runs[:3],
                              "--scheduler", f"tcp://127.0.0.1:{port}", "--no-progress"],
                             env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 1, out.stderr
        assert f"{runs[0]}: agrees" in out.stdout
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


def test_diverge_skip_unreadable(replays, tmp_path):
    """A run with a chunk that cannot be read: an error row by default; with skip_unreadable its
    pairs are counted and named and the rest compared, as vtxscope.diverge says, and
    vtxscope-batch exits 2 with a JUnit error for it (not a failure: the rest agrees)."""
    gold = replays[4]
    chunks = cli_json("info", gold)["chunks"]
    assert len(chunks) >= 2
    chunk = chunks[1]
    src = bytearray(Path(gold).read_bytes())
    for i in range(chunk["file_offset"] + 40, chunk["file_offset"] + chunk["chunk_size_bytes"], 5):
        src[i] ^= 0x5A
    damaged = tmp_path / "damaged.vtx"
    damaged.write_bytes(bytes(src))
    same = tmp_path / "same.vtx"
    shutil.copy(gold, same)
    runs = [str(same), str(damaged)]

    strict = batch.diverge(gold, runs).compute(scheduler="sync").set_index("file")
    assert strict.loc[str(damaged), "error"] and pd.isna(strict.loc[str(damaged), "pairs_unreadable"])
    assert strict.loc[str(same), "pairs_unreadable"] == 0 and strict.loc[str(same), "unreadable"] is None

    rows = batch.diverge(gold, runs, skip_unreadable=True).compute(scheduler="sync").set_index("file")
    row = rows.loc[str(damaged)]
    report = vtxscope.diverge(gold, damaged, skip_unreadable=True)
    assert row["error"] is None and not row["diverged"]
    assert row["pairs_unreadable"] == report["pairs_unreadable"] == chunk["end_frame"] - chunk["start_frame"] + 1
    assert row["pairs_compared"] == report["pairs_compared"]
    assert row["unreadable"] == batch.unreadable_text(report["unreadable"])
    assert row["unreadable"].startswith(f"frames {chunk['start_frame']}–{chunk['end_frame']} ")
    assert str(damaged) in row["unreadable"]
    assert rows.loc[str(same), "pairs_unreadable"] == 0 and not rows.loc[str(same), "diverged"]

    from vtxscope import _batch_cli

    junit = tmp_path / "report.xml"
    assert _batch_cli.main(["diverge", "--baseline", gold, *runs, "--skip-unreadable", "--junit", str(junit),
                            "--no-progress"]) == 2
    suite = ET.parse(junit).getroot()
    assert suite.get("failures") == "0" and suite.get("errors") == "1"
    by_file = {c.get("file"): c for c in suite.findall("testcase")}
    err = by_file[str(damaged)].find("error")
    assert err is not None and err.get("type") == "unreadable"
    assert err.get("message").startswith(f"{row['pairs_unreadable']} frame pair(s) not compared, unreadable: frames ")
    assert by_file[str(same)].find("error") is None and by_file[str(same)].find("failure") is None
    assert _batch_cli.main(["diverge", "--baseline", gold, str(same), "--skip-unreadable", "--no-progress"]) == 0


def check_junit(path, runs):
    tree = ET.parse(path)
    suite = tree.getroot()
    cases = suite.findall("testcase")
    assert suite.tag == "testsuite" and len(cases) == len(runs) and suite.get("tests") == str(len(runs))
    by_file = {c.get("file"): c for c in cases}
    assert by_file[runs[0]].find("failure") is None and by_file[runs[0]].find("error") is None
    for r in runs[1:3]:
        f = by_file[r].find("failure")
        assert f is not None
        msg = f.get("message")
        assert "at frame " in msg and "→" in msg, msg
    assert by_file[runs[3]].find("error") is not None
    assert suite.get("failures") == "2" and suite.get("errors") == "1"
    xmllint = shutil.which("xmllint")
    if xmllint:
        res = subprocess.run([xmllint, "--noout", "--schema", str(HERE / "junit.xsd"), str(path)], capture_output=True, text=True)
        assert res.returncode == 0, res.stderr
    elif os.environ.get("CI") == "true":
        pytest.fail("xmllint missing (libxml2-utils)")


def test_cli_table_csv_and_parquet_error(replays, tmp_path):
    type_name, props = _type_and_props(replays[0])
    out = subprocess.run([sys.executable, "-m", "vtxscope._batch_cli", "table", *replays[:3], "--type", type_name,
                          "--properties", ",".join(props or []), "--out", str(tmp_path / "csv"), "--no-progress"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    parts = sorted((tmp_path / "csv").glob("part-*.csv"))
    assert len(parts) == 3
    # A replay that cannot be read is its error row, and the exit code says so (2).
    out = subprocess.run([sys.executable, "-m", "vtxscope._batch_cli", "table", replays[0], replays[-1], "--type", type_name,
                          "--out", str(tmp_path / "with_error"), "--no-progress"], capture_output=True, text=True)
    assert out.returncode == 2 and "1 of 2 replay(s) could not be read" in out.stderr, out.stderr
    rows = pd.concat([pd.read_csv(p) for p in sorted((tmp_path / "with_error").glob("part-*.csv"))], ignore_index=True)
    assert rows["error"].notna().sum() == 1
    got = pd.concat([pd.read_csv(p) for p in parts], ignore_index=True)
    assert len(got) == len(serial(replays[:3], type_name, props))
    try:
        import pyarrow  # noqa: F401
        has_parquet = True
    except ImportError:
        try:
            import fastparquet  # noqa: F401
            has_parquet = True
        except ImportError:
            has_parquet = False
    if not has_parquet:
        out = subprocess.run([sys.executable, "-m", "vtxscope._batch_cli", "table", replays[0], "--type", type_name,
                              "--out", str(tmp_path / "pq"), "--format", "parquet", "--no-progress"], capture_output=True, text=True)
        assert out.returncode == 2 and "Parquet engine" in out.stderr
