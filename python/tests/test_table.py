# SPDX-License-Identifier: MIT
"""Replay.table (the C++ fast path) against frame-by-frame reads (the slow path), where= against
query, to_pandas, and the GIL released while a table is built."""

import sys
import threading

import numpy as np
import pytest

import vtxscope
from conftest import sample

_COMPONENTS = {
    vtxscope.Vec3: ["x", "y", "z"],
    vtxscope.Quat: ["x", "y", "z", "w"],
    vtxscope.Range: ["min", "max", "value_normalized"],
}


def slow_columns(value, path):
    """{column: value} for one property value, as table() splits it."""
    if isinstance(value, vtxscope.Transform):
        out = {}
        for part in ("translation", "rotation", "scale"):
            v = getattr(value, part)
            for c in _COMPONENTS[type(v)]:
                out[f"{path}.{part}.{c}"] = getattr(v, c)
        return out
    if type(value) in _COMPONENTS:
        return {f"{path}.{c}": getattr(value, c) for c in _COMPONENTS[type(value)]}
    if isinstance(value, (list, dict, bytes)):
        return {path: len(value)}
    return {path: value}


def slow_table(r, type_name, properties, frames):
    rows = []
    for n in frames:
        f = r.frame(int(n))
        for e in f:
            if e.type_name != type_name:
                continue
            row = {"frame": n, "game_time": f.game_time, "id": e.unique_id, "display_name": e.display_name}
            for p in properties:
                row.update(slow_columns(e.get(p), p))
            rows.append(row)
    return rows


def assert_table_equals_slow(t, rows):
    assert len(t) == len(rows)
    for name in t.names:
        col = t[name]
        for i, row in enumerate(rows):
            want = row.get(name)
            got = col[i]
            where = f"{t.type} row {i} ({row['frame']}, {row['id']}) column {name}"
            if want is None:
                assert got is None or (isinstance(got, (float, np.floating)) and np.isnan(got)), where
            elif isinstance(want, str):
                assert got == want, where
            elif isinstance(want, float) and np.isnan(want):
                assert np.isnan(got), where
            elif col.dtype == np.float32:
                assert np.float32(want) == got, where
            else:
                assert got == want, f"{where}: {got!r} vs {want!r}"


def all_paths(r, type_name):
    """Every property of a type as a path table() can read (nested structs: their first property)."""
    types = r.schema["types"]
    out = []
    for name, f in types[type_name]["fields"].items():
        if f["type"] == "None":
            continue
        if f["container"] == "scalar" and f["type"] == "Struct":
            sub = types.get(f["struct_type"])
            if sub:
                inner = [n for n, g in sub["fields"].items() if g["container"] == "scalar" and g["type"] != "Struct"]
                if inner:
                    out.append(f"{name}.{inner[0]}")
            continue
        out.append(name)
    return out


CASES = [("arena_from_fbs_ds.vtx", "Player"), ("arena_from_proto_ds.vtx", "Player"),
         ("sdk_cs_fbs.vtx", "Player"), ("sdk_cs_proto.vtx", "Weapon"),
         ("sdk_rl_fbs.vtx", "Car"), ("sdk_rl_proto.vtx", "Ball"),
         ("allkinds_fbs.vtx", None), ("allkinds_proto.vtx", None)]


@pytest.mark.parametrize("name,type_name", CASES)
def test_table_equals_frame_reads(name, type_name):
    with vtxscope.open(sample(name)) as r:
        types = [type_name] if type_name else list(r.schema["types"])
        sel = set(range(0, len(r), max(1, len(r) // 40)))
        for first, last in r.chunks:
            sel |= {first, last}
        sel = sorted(sel)
        checked = 0
        for t_name in types:
            props = all_paths(r, t_name)
            t = r.table(t_name, props, frames=sel)
            rows = slow_table(r, t_name, props, sel)
            assert_table_equals_slow(t, rows)
            checked += len(rows)
            # The whole replay in one call equals the selection's rows where they overlap.
            full = r.table(t_name, props)
            mask = np.isin(full["frame"], sel)
            assert mask.sum() == len(t)
            for n in t.names:
                a, b = full[n][mask], t[n]
                if a.dtype.kind == "f":
                    assert np.array_equal(a, b, equal_nan=True), n
                else:
                    assert list(a) == list(b), n
        assert checked > 0


def test_every_kind_is_covered():
    with vtxscope.open(sample("allkinds_fbs.vtx")) as r:
        kinds = set()
        for t in r.schema["types"].values():
            for f in t["fields"].values():
                kinds.add((f["type"], f["container"]))
    for k in [("Bool", "scalar"), ("Int32", "scalar"), ("Int64", "scalar"), ("Float", "scalar"), ("Double", "scalar"),
              ("String", "scalar"), ("Vector", "scalar"), ("Quat", "scalar"), ("Transform", "scalar"),
              ("Struct", "scalar"), ("Struct", "array"), ("Struct", "map")]:
        assert k in kinds, k


def test_step_frames_and_dtypes():
    with vtxscope.open(sample("arena_from_fbs_ds.vtx")) as r:
        t = r.table("Player", frames=(100, 200), step=10)
        assert sorted(set(t["frame"])) == list(range(100, 200, 10))
        t2 = r.table("Player", frames=range(100, 200, 10))
        assert np.array_equal(t["frame"], t2["frame"])
        t3 = r.table("Player", frames=slice(100, 200, 10))
        assert np.array_equal(t["frame"], t3["frame"])
        assert t["frame"].dtype == np.int64 and t["game_time"].dtype == np.float64
        assert t.is_category("id") and t["id"].dtype == object


def test_where_equals_query():
    with vtxscope.open(sample("arena_from_fbs_ds.vtx")) as r:
        for expr in ["Health < 50", "Health < 50 && changed(Health)", "any(Health < 20)"]:
            t = r.table("Player", ["Health"], where=expr)
            q = r.query(expr)
            if q["per_entity"]:
                want = [(f["frame"], e["id"]) for f in q["frames"] for e in f["entities"] if e["type"] == "Player"]
                got = list(zip(t["frame"].tolist(), t["id"].tolist()))
                assert got == want, expr
            else:
                frames = [f["frame"] for f in q["frames"]]
                assert sorted(set(t["frame"].tolist())) == frames, expr
            assert len(t) > 0, expr
        # changed() at a sparse selection sees frame f-1, which the selection skipped
        t = r.table("Player", ["Health"], frames=range(0, len(r), 7), where="changed(Health)")
        q = r.query("changed(Health)")
        want = [(f["frame"], e["id"]) for f in q["frames"] if f["frame"] % 7 == 0 for e in f["entities"] if e["type"] == "Player"]
        assert list(zip(t["frame"].tolist(), t["id"].tolist())) == want


def test_missing_values_and_pandas():
    pd = pytest.importorskip("pandas")
    with vtxscope.open(sample("arena_from_fbs_ds.vtx")) as r:
        t = r.table("Player", ["Health", "NoSuch" if False else "Health"])
        df = t.to_pandas()
        assert list(df.columns) == t.names and len(df) == len(t)
        assert isinstance(df["id"].dtype, pd.CategoricalDtype)
        assert list(df["id"].astype(str)) == list(t["id"])
    with vtxscope.open(sample("allkinds_fbs.vtx")) as r:
        # entities spawn and despawn; a map key present in some frames only gives missing rows
        for tn, td in r.schema["types"].items():
            for fn, f in td["fields"].items():
                if f["container"] == "map":
                    t = r.table(tn, [f"{fn}[no_such_key]"])
                    assert len(t) > 0 and not t.valid(f"{fn}[no_such_key]").any()
                    return
    pytest.fail("allkinds has no map property")


def test_gil_released_during_table():
    """Another Python thread runs while table() builds. With the GIL held throughout (as a
    C++ call that does not release it), the counter below could not move: the main thread
    keeps the GIL between reading `before` and entering table() (switch interval 100 s) and
    the counting thread gives it up on every iteration (time.sleep(0))."""
    import time

    with vtxscope.open(sample("allkinds_fbs.vtx")) as r:
        counter = [0]
        stop = threading.Event()
        started = threading.Event()

        def count():
            started.set()
            while not stop.is_set():
                counter[0] += 1
                time.sleep(0)

        th = threading.Thread(target=count)
        old = sys.getswitchinterval()
        th.start()
        started.wait()
        sys.setswitchinterval(100.0)
        try:
            advanced = False
            for _ in range(20):
                before = counter[0]
                r.table("Player" if "Player" in r.schema["types"] else next(iter(r.schema["types"])))
                if counter[0] != before:
                    advanced = True
                    break
        finally:
            sys.setswitchinterval(old)
            stop.set()
            th.join()
        assert advanced


def test_signals_are_checked_only_on_the_main_thread():
    """Between chunks table() takes the GIL to look for Ctrl+C, which only Python's main thread
    handles. On any other thread (a Dask worker's task thread) it must not: each take waits on
    whatever holds the GIL there (the worker's event loop), for a check that can find nothing."""
    from vtxscope import _vtxscope

    with vtxscope.open(sample("arena_from_proto_ds.vtx")) as r:
        assert len(r.chunks) >= 2
        before = _vtxscope._signal_checks()
        r.table("Player", ["Health"], threads=1)
        on_main = _vtxscope._signal_checks() - before
        assert on_main >= len(r.chunks)  # Ctrl+C still interrupts a table on the main thread

        done = []
        before = _vtxscope._signal_checks()
        th = threading.Thread(target=lambda: done.append(len(r.table("Player", ["Health"], threads=1))))
        th.start()
        th.join()
        assert done and done[0] > 0
        assert _vtxscope._signal_checks() == before


def test_memory_is_bounded_by_chunks():
    """Chunks decoded once each, in order (the whole replay's table decodes every chunk once)."""
    with vtxscope.open(sample("arena_from_proto_ds.vtx"), budget_mb=32) as r:
        t = r.table("Player", ["Health"])
        assert t.chunks_decoded == len(r.chunks)
        t = r.table("Player", ["Health"], frames=[5])
        assert t.chunks_decoded == 1


THREAD_CASES = [("sdk_cs_fbs.vtx", "Player"), ("sdk_cs_proto.vtx", "Weapon"), ("sdk_rl_fbs.vtx", "Car"),
                ("arena_from_proto_ds.vtx", "Player"), ("allkinds_fbs.vtx", None)]


def assert_same_table(a, b, what):
    assert a.names == b.names, what
    assert len(a) == len(b) and a.problems == b.problems and a.chunks_decoded == b.chunks_decoded, what
    for n in a.names:
        if a.is_category(n):
            assert a.categories(n) == b.categories(n), f"{what}: {n}"
            assert np.array_equal(a.codes(n), b.codes(n)), f"{what}: {n}"
        else:
            assert a.raw(n).dtype == b.raw(n).dtype, f"{what}: {n}"
            assert np.array_equal(a.raw(n), b.raw(n), equal_nan=a.raw(n).dtype.kind == "f"), f"{what}: {n}"
        assert np.array_equal(a.valid(n), b.valid(n)), f"{what}: {n}"


@pytest.mark.parametrize("name,type_name", THREAD_CASES)
def test_threads_give_identical_columns(name, type_name):
    """The scan engine's decode threads change who decodes, not what the table holds: threads=1
    (every chunk decoded on the calling thread) and threads=2 give the same columns, codes,
    categories and validity, for the whole replay, a sparse selection and a where= with changed()."""
    with vtxscope.open(sample(name)) as r:
        types = [type_name] if type_name else list(r.schema["types"])[:3]
        for t_name in types:
            props = all_paths(r, t_name)
            one = r.table(t_name, props, threads=1)
            two = r.table(t_name, props, threads=2)
            assert one.decode_threads == 1
            assert two.decode_threads == 2  # the default budget (a quarter of memory) holds many chunks
            assert_same_table(one, two, f"{name} {t_name}")
            sel = range(0, len(r), 3)
            assert_same_table(r.table(t_name, props, frames=sel, threads=1), r.table(t_name, props, frames=sel, threads=2),
                              f"{name} {t_name} every third frame")
        fields = r.schema["types"][types[0]]["fields"]
        numeric = [n for n, f in fields.items() if f["container"] == "scalar" and f["type"] in ("Int32", "Int64", "Float", "Double")]
        if numeric:
            expr = f"changed({numeric[0]})"
            assert_same_table(r.table(types[0], numeric[:1], where=expr, threads=1),
                              r.table(types[0], numeric[:1], where=expr, threads=2), f"{name} where {expr}")


def test_threads_within_budget():
    """A budget that holds fewer chunks than the engine would keep alive lowers the threads (the
    table stays the same); a bad thread count is an ArgumentError."""
    path = sample("arena_from_proto_ds.vtx")
    with vtxscope.open(path) as r:
        full = r.table("Player", ["Health"])
        assert full.decode_threads == vtxscope.SCAN_THREADS
        with pytest.raises(vtxscope.ArgumentError):
            r.table("Player", ["Health"], threads=0)
    with vtxscope.open(path, budget_mb=1e-3) as r:  # less than one chunk
        t = r.table("Player", ["Health"])
        assert t.decode_threads == 1
        assert_same_table(full, t, "tiny budget")


def test_to_pandas_shares_numeric_columns():
    """to_pandas() wraps the table's numeric arrays without copying them (the DataFrame's columns
    are views of the table's memory); only columns with missing ints / bools are converted."""
    pd = pytest.importorskip("pandas")
    with vtxscope.open(sample("sdk_cs_fbs.vtx")) as r:
        t = r.table("Player", all_paths(r, "Player"))
        df = t.to_pandas()
        shared = 0
        for n in t.names:
            if t.is_category(n):
                assert list(df[n].cat.categories) == t.categories(n), n
                continue
            converted = t.raw(n).dtype.kind in "bi" and not t.valid(n).all()
            if not converted:
                assert np.shares_memory(df[n].to_numpy(copy=False), t.raw(n)), n
                shared += 1
        assert shared >= 3
