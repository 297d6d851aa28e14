# SPDX-License-Identifier: MIT
"""Many replays at once, on Dask.

This module only builds Dask collections; Dask runs them (its local scheduler by default, with
no set-up, or a cluster). A replay that cannot be opened or read becomes a row with its error in
the ``error`` column, and the batch goes on.

    from vtxscope import batch
    df = batch.tables(paths, "Player", ["Health", "Position"])   # a dask.dataframe, lazy
    pdf = batch.compute(df)                                      # local scheduler, progress bar
    pdf = batch.compute(df, scheduler="tcp://host:8786")         # on a cluster

Each partition is one replay. Columns: ``file`` (the path), ``error`` (missing, or the error's
text for a replay that could not be read: one row with the other columns missing), then what
:meth:`vtxscope.Replay.table` returns, with dtypes fixed from the schema of the first replay
that opens (only its header is read): int → ``Int64``, bool → ``boolean`` (pandas' nullable
types, so a missing value does not change a column's dtype between replays), float →
``float32``, double → ``float64`` (``tables(dtypes=)`` overrides them; a later replay whose
values a column cannot hold, a double beyond float32's range, is an error row of code
``schema_mismatch``, not a changed value). Strings — ``file``, ``error``, ``id``, ``display_name`` and
string properties — are ``category`` (as ``Table.to_pandas()`` gives them; each partition has its
own categories, so the collection's are unknown until computed, and the computed frame's are the
union over the partitions with rows, as in Dask's own join): a path or an entity id repeated on
every row costs a small code, not an object each.
"""

from __future__ import annotations

import contextlib
import functools
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence

import numpy as np
import pandas as pd

import vtxscope

from ._table import _categories_index

__all__ = ["tables", "info", "validate", "query", "diverge", "compute", "table_meta", "table_spec"]

_BASE = [("file", "category"), ("error", "category"), ("frame", "Int64"), ("game_time", "float64"),
         ("id", "category"), ("display_name", "category")]
_SCALAR = {"Bool": "boolean", "Int8": "Int64", "Int32": "Int64", "Int64": "Int64", "Float": "float32",
           "Double": "float64", "String": "category"}
_COMPONENTS = {
    "Vector": [("x", "float64"), ("y", "float64"), ("z", "float64")],
    "Quat": [("x", "float32"), ("y", "float32"), ("z", "float32"), ("w", "float32")],
    "Transform": [("translation.x", "float64"), ("translation.y", "float64"), ("translation.z", "float64"),
                  ("rotation.x", "float32"), ("rotation.y", "float32"), ("rotation.z", "float32"),
                  ("rotation.w", "float32"), ("scale.x", "float64"), ("scale.y", "float64"), ("scale.z", "float64")],
}


def _paths(paths: Iterable[Any]) -> List[str]:
    out = [os.fspath(p) for p in paths]
    if not out:
        raise vtxscope.ArgumentError("no replays given")
    return out


def _property_columns(schema: dict, type_name: str, path: str) -> List[tuple]:
    """(column, dtype) for one property path, from the schema alone (float64 when the path's
    kind cannot be told without reading values)."""
    from ._frame import parse_path

    types = schema["types"]
    steps = parse_path(path)
    t = types.get(type_name)
    field = None
    i = 0
    while i < len(steps) and t is not None:
        kind, key = steps[i]
        field = t["fields"].get(key) if kind == "name" else None
        if field is None:
            return [(path, "float64")]
        i += 1
        if field["container"] in ("array", "map"):
            if i < len(steps) and steps[i][0] == "key":
                i += 1  # an element
            else:
                return [(path, "Int64")] if i == len(steps) else [(path, "float64")]
        if field["type"] == "Struct":
            t = types.get(field["struct_type"])
            continue
        break
    if field is None:
        return [(path, "float64")]
    rest = steps[i:]
    ft = field["type"]
    if not rest:
        if ft in _SCALAR:
            return [(path, _SCALAR[ft])]
        if ft in _COMPONENTS:
            return [(f"{path}.{c}", d) for c, d in _COMPONENTS[ft]]
        return [(path, "float64")]
    # A component of a math type: Position.x, Pose.rotation.w
    sub = ".".join(k for _, k in rest)
    for c, d in _COMPONENTS.get(ft, []):
        if c == sub:
            return [(path, d)]
    return [(path, "float64")]


def table_meta(schema: dict, type_name: str, properties: Optional[Sequence[str]]) -> pd.DataFrame:
    """The empty frame every partition of :func:`tables` conforms to (categories unknown)."""
    return _meta_frame_of(table_spec(schema, type_name, properties))


def table_spec(schema: dict, type_name: str, properties: Optional[Sequence[str]]) -> tuple:
    """``(column, dtype name)`` pairs of :func:`table_meta`: what each partition's task carries
    instead of an empty DataFrame (a few strings to send and hash, not a frame to pickle per task)."""
    t = schema["types"].get(type_name)
    if t is None:
        raise vtxscope.UnknownNameError(f"no entity type {type_name!r} in the schema")
    if properties is None:
        properties = [n for n, f in t["fields"].items() if f["container"] == "scalar" and f["type"] not in ("Struct", "None")]
    cols = list(_BASE)
    for p in properties:
        cols += _property_columns(schema, type_name, p)
    return tuple((c, str(d) if d is not object else "object") for c, d in cols)


@functools.lru_cache(maxsize=64)
def _meta_frame_of(spec: tuple) -> pd.DataFrame:
    import dask.dataframe as dd

    empty = pd.DataFrame({c: pd.Series(dtype=d) for c, d in spec})
    # Each partition brings its own categories: Dask's mark for "not known before computing".
    return dd.utils.clear_known_categories(empty)


def _conform(df: pd.DataFrame, meta: pd.DataFrame) -> pd.DataFrame:
    out = {}
    n = len(df)
    for c in meta.columns:
        dtype = meta[c].dtype
        if c in df.columns:
            col = df[c]
            if isinstance(dtype, pd.CategoricalDtype):
                # Through object: a table with no rows has float64 string columns, whose categories
                # (float64, empty) made every join with other partitions fail.
                out[c] = col if isinstance(col.dtype, pd.CategoricalDtype) else col.astype(object).astype("category")
                continue
            if isinstance(col.dtype, pd.CategoricalDtype):
                col = col.astype(object).where(col.notna(), None)
            if getattr(dtype, "kind", "") == "f" and col.dtype.kind == "f":
                out[c] = pd.Series(_as_float(col.to_numpy(), dtype, c), index=col.index)
            else:
                out[c] = col.astype(dtype) if col.dtype != dtype else col
        elif isinstance(dtype, pd.CategoricalDtype):
            out[c] = pd.Categorical.from_codes(np.full(n, -1, dtype=np.int8), categories=pd.Index([], dtype=object))
        else:
            fill = None if dtype == object else (np.nan if getattr(dtype, "kind", "") == "f" else pd.NA)
            out[c] = pd.Series([fill] * n, dtype=dtype)
    return pd.DataFrame(out, index=pd.RangeIndex(n))


def _error_row(meta: pd.DataFrame, path: str, error: BaseException) -> pd.DataFrame:
    return _conform(pd.DataFrame({"file": pd.Categorical([path]), "error": pd.Categorical([_error_text(error)])}), meta)


def _error_text(e: BaseException) -> str:
    if isinstance(e, vtxscope.Error):
        return f"{e.code}: {e.message}"
    return f"{type(e).__name__}: {e}"


def _partition_column(t, name: str, dtype, n: int):
    """One column of a partition in ``dtype``, built from the table's stored arrays: nullable
    ints and bools wrap the values and a mask without a copy, strings keep their codes. It equals
    ``_conform`` of ``Table.to_pandas()`` (python/tests/test_batch.py). ``None`` for any other
    case (a replay whose kinds differ from the first replay's schema): the caller takes that path."""
    col = t._col(name)
    values: np.ndarray = col["values"]
    valid = col["valid"]
    if "categories" in col:
        if isinstance(dtype, pd.CategoricalDtype):
            return pd.Categorical.from_codes(values, categories=_categories_index(col["categories"]))
    elif dtype == "Int64" and values.dtype.kind in "iu":
        mask = ~valid if valid is not None else np.zeros(n, dtype=bool)
        return pd.arrays.IntegerArray(values.astype(np.int64, copy=False), mask)
    elif dtype == "boolean" and values.dtype.kind == "b":
        mask = ~valid if valid is not None else np.zeros(n, dtype=bool)
        return pd.arrays.BooleanArray(values, mask)
    elif getattr(dtype, "kind", "") == "f" and values.dtype.kind == "f":
        return _as_float(values, dtype, name)  # missing values are NaN already
    return None


def _as_float(values: np.ndarray, dtype, column: str) -> np.ndarray:
    """``values`` as the float ``dtype`` of their column. A double rounds to a float32 column
    (the column type the first replay's schema gave); one beyond float32's range would become inf,
    a value the replay does not hold, so it is this replay's error instead."""
    with np.errstate(over="ignore"):  # an overflow is reported below, with its column
        out = values.astype(dtype, copy=False)
    if out.dtype.itemsize < values.dtype.itemsize:
        lost = np.isinf(out) & np.isfinite(values)
        if lost.any():
            raise vtxscope.SchemaMismatchError(
                f"column {column!r} holds {float(values[int(np.argmax(lost))])!r} in this replay, beyond the range of "
                f"its {out.dtype} type (from the first replay's schema): read it as float64 (batch.tables(dtypes="
                f"{{{column!r}: 'float64'}}), vtxscope-batch table --dtype {column}=float64)", column=column)
    return out


def _partition_frame(t, path: str, meta: pd.DataFrame) -> pd.DataFrame:
    n = len(t)
    cols = {}
    slow = None
    for c in meta.columns:
        dtype = meta[c].dtype
        if c == "file":
            cols[c] = pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=[path])
        elif c == "error":
            cols[c] = pd.Categorical.from_codes(np.full(n, -1, dtype=np.int8), categories=pd.Index([], dtype=object))
        else:
            col = _partition_column(t, c, dtype, n) if c in t else None
            if col is None:
                if slow is None:
                    slow = _conform(t.to_pandas(), meta)
                col = slow[c].array
            cols[c] = col
    return pd.DataFrame(cols, index=pd.RangeIndex(n), copy=False)


def _table_partition(path: str, type_name: str, properties, where, frames, step, columns, budget_mb,
                     threads: int = 1):
    """One replay's partition of :func:`tables`; ``columns``: a :func:`table_spec` (what the
    tasks carry) or the meta frame itself."""
    meta = _meta_frame_of(columns) if isinstance(columns, tuple) else columns
    try:
        with vtxscope.open(path, budget_mb=budget_mb) as r:
            t = r.table(type_name, properties, frames=frames, where=where, step=step, threads=threads)
        return _partition_frame(t, path, meta)
    except Exception as e:  # noqa: BLE001 - any failure of one replay is that replay's row
        return _error_row(meta, path, e)


def _table_partition_slow(path: str, type_name: str, properties, meta: pd.DataFrame, budget_mb=256) -> pd.DataFrame:
    """The reference for :func:`_partition_frame` (tests): ``to_pandas()`` conformed column by column."""
    with vtxscope.open(path, budget_mb=budget_mb) as r:
        t = r.table(type_name, properties)
    df = t.to_pandas()
    df.insert(0, "error", None)
    df.insert(0, "file", pd.Categorical([path] * len(df), categories=[path]))  # the path, even with no rows
    return _conform(df, meta)


def _first_schema(paths: List[str]) -> dict:
    for p in paths:
        try:
            with vtxscope.open(p, budget_mb=64) as r:
                if r.schema["types"]:
                    return r.schema
        except vtxscope.Error:
            continue
    raise vtxscope.ReadError("none of the replays could be opened: no schema to build the table's columns from",
                             path=paths[0])


def tables(paths: Iterable[Any], type: str, properties: Optional[Sequence[str]] = None, where: Optional[str] = None,
           frames: Any = None, step: int = 1, budget_mb: Optional[float] = 256, threads: int = 1,
           dtypes: Optional[Dict[str, str]] = None):
    """A ``dask.dataframe`` of ``Replay.table(type, properties, frames, where, step)`` over every
    replay, a partition per replay, with ``file`` and ``error`` columns (see the module's text).
    The column types come from the schema of the first replay that opens; nothing else is read
    until the frame is computed.

    ``threads``: the scan engine's decode threads per replay (``Replay.table``'s ``threads``).
    Default 1: Dask already runs a partition per worker thread at once, so each partition decoding
    on its own thread keeps one core busy per worker thread; more would put two or three threads
    per core (bench/batch_tables.py). Raise it when workers have cores to spare.

    ``dtypes``: column → dtype name, replacing what the first replay's schema gives (a season
    whose later replays store a float property as double: ``{"Speed": "float64"}``). A replay
    whose values its column cannot hold is an error row (``schema_mismatch``), never a changed value."""
    paths = _paths(paths)
    if isinstance(properties, str):
        properties = [properties]
    spec = _with_dtypes(table_spec(_first_schema(paths), type, properties), dtypes)
    meta = _meta_frame_of(spec)
    return _per_replay(_table_partition, paths, (type, properties, where, frames, step, spec, budget_mb, int(threads)), meta,
                       "table_partition")


def _with_dtypes(spec: tuple, dtypes: Optional[Dict[str, str]]) -> tuple:
    if not dtypes:
        return spec
    names = [c for c, _ in spec]
    for c, d in dtypes.items():
        if c not in names or c in ("file", "error"):
            raise vtxscope.ArgumentError(f"dtypes: no property column {c!r} (the columns: {', '.join(names[2:])})")
        try:
            pd.Series(dtype=d)
        except TypeError as e:
            raise vtxscope.ArgumentError(f"dtypes: {c!r}: {e}") from None
    return tuple((c, str(dtypes.get(c, d))) for c, d in spec)


# -- one row per replay -----------------------------------------------------------------------

def _info_row(path: str) -> Dict[str, Any]:
    try:
        with vtxscope.open(path, budget_mb=64) as r:
            i = r.info
            return {"file": path, "error": None, "backend": r.backend, "frames": len(r), "chunks": len(r.chunks),
                    "file_size": i.get("file_size"), "recovered": r.is_recovered,
                    "duration_s": float(r.times.game_time[-1] - r.times.game_time[0]) if len(r.times.game_time) else np.nan,
                    "types": ",".join(r.schema["types"]), "problems": len(r.problems), "info": i}
    except Exception as e:  # noqa: BLE001
        return {"file": path, "error": _error_text(e), "backend": None, "frames": pd.NA, "chunks": pd.NA,
                "file_size": pd.NA, "recovered": None, "duration_s": np.nan, "types": None, "problems": pd.NA,
                "info": None}


_INFO_META = {"file": object, "error": object, "backend": object, "frames": "Int64", "chunks": "Int64",
              "file_size": "Int64", "recovered": object, "duration_s": "float64", "types": object,
              "problems": "Int64", "info": object}


def _rows_frame(rows: List[Dict[str, Any]], meta: Dict[str, Any]) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=list(meta))
    return df.astype(meta)


def _meta_frame(meta: Dict[str, Any]) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=d) for c, d in meta.items()})


def _per_replay(fn, paths: List[str], args: tuple, meta: pd.DataFrame, label: str):
    """A ``dask.dataframe`` with one partition per replay, ``fn(path, *args)``, each one task.
    (``dd.from_delayed`` added an identity task per partition: on a cluster a worker then ran out
    of queued tasks every two replays and waited ~25 ms for the scheduler to send more.)"""
    import dask.dataframe as dd

    return dd.from_map(fn, paths, args=list(args), meta=meta, label=label, enforce_metadata=False)


def _one_row(path: str, fn, meta: Dict[str, Any], *args) -> pd.DataFrame:
    return _rows_frame([fn(path, *args)], meta)


def _per_file(fn, paths: List[str], meta: Dict[str, Any], *args):
    return _per_replay(_one_row, paths, (fn, meta) + args, _meta_frame(meta), fn.__name__.strip("_"))


def info(paths: Iterable[Any]):
    """A ``dask.dataframe``, one row per replay: backend, frames, chunks, size, recovered,
    duration, entity types, problems, the whole ``info`` object, or the error."""
    return _per_file(_info_row, _paths(paths), _INFO_META)


_VALIDATE_META = {"file": object, "error": object, "ok": "boolean", "chunks_checked": "Int64", "chunks_failed": "Int64",
                  "frames_checked": "Int64", "problems": "Int64", "first_problem": object}


def _validate_row(path: str, threads: int = 1) -> Dict[str, Any]:
    try:
        with vtxscope.open(path, budget_mb=64) as r:
            v = r.validate(threads=threads)
        probs = v.get("problems", [])
        first = probs[0] if probs else None
        if isinstance(first, dict):
            first = first.get("message", str(first))
        return {"file": path, "error": None, "ok": not probs, "chunks_checked": v.get("chunks_checked"),
                "chunks_failed": v.get("chunks_failed"), "frames_checked": v.get("frames_checked"),
                "problems": len(probs), "first_problem": first}
    except Exception as e:  # noqa: BLE001
        return {"file": path, "error": _error_text(e), "ok": False, "chunks_checked": pd.NA, "chunks_failed": pd.NA,
                "frames_checked": pd.NA, "problems": pd.NA, "first_problem": None}


def validate(paths: Iterable[Any], threads: int = 1):
    """A ``dask.dataframe``, one row per replay: the strict check's verdict (``vtxscope-cli validate``).
    ``threads``: decode threads per replay, default 1 as for :func:`tables`."""
    return _per_file(_validate_row, _paths(paths), _VALIDATE_META, vtxscope._threads(threads, "validate"))


_QUERY_META = {"file": object, "error": object, "frame": "Int64", "bucket": object, "id": object, "type": object}


def _query_rows(path: str, expression: str, threads: int = 1) -> pd.DataFrame:
    try:
        with vtxscope.open(path, budget_mb=64) as r:
            q = r.query(expression, threads=threads)
        rows = []
        for f in q["frames"]:
            ents = f.get("entities")
            if ents is None:
                rows.append({"file": path, "error": None, "frame": f["frame"], "bucket": None, "id": None, "type": None})
            for e in ents or []:
                rows.append({"file": path, "error": None, "frame": f["frame"], "bucket": e["bucket"], "id": e["id"],
                             "type": e["type"]})
        return _rows_frame(rows, _QUERY_META)
    except Exception as e:  # noqa: BLE001
        return _rows_frame([{"file": path, "error": _error_text(e)}], _QUERY_META)


def query(paths: Iterable[Any], expression: str, threads: int = 1):
    """A ``dask.dataframe`` of the frames (and, per frame, entities) where ``expression`` holds,
    one row per match, or one error row per replay that could not be read. ``threads``: decode
    threads per replay, default 1 as for :func:`tables`."""
    threads = vtxscope._threads(threads, "query")
    return _per_replay(_query_rows, _paths(paths), (expression, threads), _meta_frame(_QUERY_META), "query_rows")


_DIVERGE_META = {"file": object, "baseline": object, "error": object, "diverged": "boolean",
                 "first_frame": "Int64", "first_frame_baseline": "Int64", "entity": object, "type": object,
                 "property": object, "baseline_value": object, "value": object, "deviation": "float64",
                 "max_deviation": "float64", "max_deviation_property": object, "pairs_compared": "Int64",
                 "divergent_pairs": "Int64", "schema_differences": "Int64", "pairs_unreadable": "Int64",
                 "unreadable": object}


def _count(v):
    return len(v) if isinstance(v, list) else v


def unreadable_text(runs: List[dict]) -> Optional[str]:
    """The first run of unreadable pairs of a ``diverge`` report (run frames and baseline frames,
    and the reason), and how many runs follow; None when every pair was read."""
    if not runs:
        return None
    u = runs[0]
    first, last = u["first"], u["last"]
    text = (f"frames {first['frame_b']}–{last['frame_b']} (baseline {first['frame_a']}–{last['frame_a']}), "
            f"{u['pairs']} pair(s): {u['reason']}")
    if len(runs) > 1:
        text += f"; {len(runs) - 1} more run(s) of unreadable pairs"
    return text


def divergence_row(report: dict, baseline: str, path: str) -> Dict[str, Any]:
    """One row of :func:`diverge` from ``vtxscope.diverge(baseline, path)``'s report."""
    row: Dict[str, Any] = {k: None for k in _DIVERGE_META}
    row.update(file=path, baseline=baseline, diverged=bool(report.get("diverged")),
               pairs_compared=report.get("pairs_compared"), divergent_pairs=_count(report.get("divergent_frames")),
               schema_differences=len(report.get("schema_differences", []) or []),
               pairs_unreadable=report.get("pairs_unreadable", 0), unreadable=unreadable_text(report.get("unreadable")))
    first = report.get("first_divergence")
    if first:
        row["first_frame_baseline"] = first.get("frame_a")
        row["first_frame"] = first.get("frame_b")
        ents = first.get("entities") or []
        if ents:
            e = ents[0]
            row["entity"] = e.get("unique_id")
            row["type"] = e.get("type")
            props = e.get("properties") or []
            if props:
                p = props[0]
                row["property"] = p.get("path")
                row["baseline_value"] = p.get("a")
                row["value"] = p.get("b")
                row["deviation"] = p.get("deviation")
    best = None
    for p in report.get("properties", []) or []:
        d = p.get("max_deviation")
        if isinstance(d, (int, float)) and (best is None or d > best[0]):
            best = (float(d), f"{p.get('type')}.{p.get('path')}")
    if best:
        row["max_deviation"], row["max_deviation_property"] = best
    for k in ("deviation", "max_deviation"):
        if row[k] is None:
            row[k] = np.nan
    return row


def _diverge_row(path: str, baseline: str, epsilon: float, relative: float, align: str, ignore: List[str],
                 threads: int = 1, skip_unreadable: bool = False) -> Dict[str, Any]:
    try:
        report = vtxscope.diverge(baseline, path, align=align, epsilon=epsilon, relative=relative, ignore=ignore,
                                  threads=threads, skip_unreadable=skip_unreadable)
        return divergence_row(report, baseline, path)
    except Exception as e:  # noqa: BLE001
        row = {k: None for k in _DIVERGE_META}
        row.update(file=path, baseline=baseline, error=_error_text(e), deviation=np.nan, max_deviation=np.nan)
        return row


def diverge(baseline: Any, runs: Iterable[Any], epsilon: float = 0.0, relative: float = 0.0, align: str = "frame",
            ignore: Iterable[str] = (), threads: int = 1, skip_unreadable: bool = False):
    """A ``dask.dataframe``, one row per run compared with ``baseline`` (``vtxscope.diverge``):
    whether it diverged, the first divergent frame (the run's and the baseline's), entity, type,
    property, both values and the deviation there, the largest deviation over the run and of
    which property, pair counts, or the error. ``threads``: decode threads per comparison,
    default 1 (both files decoded on the task's thread, as the C++ gate's workers do).

    A frame that cannot be read makes its run an error row; with ``skip_unreadable`` its pairs are
    left out and the rest compared: ``pairs_unreadable`` counts them and ``unreadable`` gives the
    first run of them with its reason (0 and None when every pair was read). Such a run's
    ``diverged`` speaks only of the pairs compared."""
    if align not in ("frame", "time"):
        raise vtxscope.ArgumentError("align must be 'frame' or 'time'")
    return _per_file(_diverge_row, _paths(runs), _DIVERGE_META, os.fspath(baseline), float(epsilon), float(relative),
                     align, list(ignore), vtxscope._threads(threads, "diverge"), bool(skip_unreadable))


def _partition_priority(key) -> int:
    """Dask priority of a task of a partitioned collection: partition 0 first, as Dask's default
    priority (0), each later one a step lower (a batch yields to other work on a shared cluster
    rather than jumping ahead of it)."""
    return -key[1] if isinstance(key, tuple) and len(key) == 2 and isinstance(key[1], int) else 0


def _gather_frame(client, frame, progress: bool) -> pd.DataFrame:
    """``frame.compute()`` on a cluster, with the partitions fetched as they finish and appended,
    in order, to the joined frame (:class:`_FrameJoin`) while the next ones are computed. Dask's
    own finalize joins them on a worker after the last one and then sends the whole frame, all of
    it after the work; here only the last partition's copy is left at the end."""
    import threading

    import dask
    from distributed import as_completed

    # A priority per partition, in order: the scheduler breaks ties between tasks of equal
    # priority by their keys as text, so "(name, 10)" ran before "(name, 2)", and the join held
    # every later part back until the one before it came. Over 40 replays, 30 partitions were
    # left to append after the last task (0.6 s of a 16 s batch, nothing else running). A
    # priority the user set with dask.annotate stays theirs.
    ordered = "priority" not in dask.config.get("annotations", {})
    with dask.annotate(priority=_partition_priority) if ordered else contextlib.nullcontext():
        futures = client.compute(frame.to_delayed())
    order = {f.key: i for i, f in enumerate(futures)}
    join = _FrameJoin(len(futures))
    failed: List[BaseException] = []

    def fetch() -> None:
        try:
            # This client's event loop: by default Dask takes the newest client's, and its waits
            # were then woken from another loop's thread (a bench with four clusters hung).
            for future, part in as_completed(futures, loop=client.loop, with_results=True):
                join.add(order[future.key], part)
        except BaseException as e:  # noqa: BLE001 - raised again on the caller's thread
            failed.append(e)

    fetcher = threading.Thread(target=fetch, name="vtxscope-batch-fetch")
    fetcher.start()
    if progress:
        from distributed import progress as dprogress

        with client.as_current():  # the bar watches the default client's scheduler: this one
            dprogress(futures)  # Dask's bar, while the parts are fetched beside it
    fetcher.join()
    if failed:
        raise failed[0]
    return join.frame()


class _GrowingArray:
    """A numpy array appended to in place: capacity grows by half again (``ndarray.resize``, a
    ``realloc`` that moves no pages for big blocks), and pages past the end are never touched, so
    over-allocating costs address space, not memory."""

    def __init__(self, dtype, capacity: int):
        self.data = np.empty(max(capacity, 16), dtype=dtype)
        self.size = 0

    def append(self, values: np.ndarray) -> None:
        end = self.size + len(values)
        if end > len(self.data):
            self.data.resize(max(end, len(self.data) * 3 // 2), refcheck=False)
        self.data[self.size:end] = values
        self.size = end

    def view(self) -> np.ndarray:
        return self.data[:self.size]


class _CategoricalColumn:
    """Codes into one category list that grows in order of appearance, partition by partition,
    each partition's categories in their own order: ``union_categoricals``' order."""

    def __init__(self, capacity: int):
        self.codes = _GrowingArray(np.int32, capacity)
        self.code_of: Dict[Any, int] = {}

    def append(self, values: pd.Categorical) -> None:
        remap = np.empty(len(values.categories) + 1, dtype=np.int32)
        for i, c in enumerate(values.categories):
            remap[i] = self.code_of.setdefault(c, len(self.code_of))
        remap[-1] = -1  # a missing value's code, -1, indexes the last entry
        self.codes.append(remap[values.codes])

    def array(self) -> pd.Categorical:
        categories = pd.Index(list(self.code_of), dtype=object)
        return pd.Categorical.from_codes(self.codes.view(), categories=categories)


class _MaskedColumn:
    """A pandas masked array (``Int64``, ``boolean``): values and mask appended side by side."""

    def __init__(self, like, capacity: int):
        self.kind = type(like)
        self.values = _GrowingArray(like._data.dtype, capacity)
        self.mask = _GrowingArray(np.bool_, capacity)

    def append(self, values) -> None:
        self.values.append(values._data)
        self.mask.append(values._mask)

    def array(self):
        return self.kind(self.values.view(), self.mask.view())


class _NumpyColumn:
    def __init__(self, dtype, capacity: int):
        self.values = _GrowingArray(dtype, capacity)

    def append(self, values) -> None:
        self.values.append(values)

    def array(self) -> np.ndarray:
        return self.values.view()


class _ConcatColumn:
    """Any other column (object strings, a dtype a season's first replay did not have): the
    parts' arrays kept and joined by Dask's own join at the end."""

    def __init__(self):
        self.parts: List[pd.Series] = []

    def append(self, values) -> None:
        self.parts.append(pd.Series(values, copy=False))

    def array(self):
        from dask.dataframe import methods

        return methods.concat(self.parts, ignore_index=True).array


def _array_of(series: pd.Series):
    return series.to_numpy() if isinstance(series.dtype, np.dtype) and series.dtype.kind in "biuf" else series.array


def _column_kind(values) -> tuple:
    """Which growing column takes a partition's array, and what a later partition's array must
    match to go there too (the class, and the dtypes that class copies)."""
    if isinstance(values, pd.Categorical) and values.categories.dtype == object and not values.ordered:
        return (_CategoricalColumn,)
    if isinstance(values, (pd.arrays.IntegerArray, pd.arrays.BooleanArray)) and hasattr(values, "_mask"):
        return (_MaskedColumn, type(values), values._data.dtype)
    if isinstance(values, np.ndarray):
        return (_NumpyColumn, values.dtype)
    return (_ConcatColumn,)


def _column_for(values, capacity: int):
    """The growing column for a partition's array: its codes, values and mask copied as they come."""
    kind = _column_kind(values)
    if kind[0] is _CategoricalColumn:
        return _CategoricalColumn(capacity)
    if kind[0] is _MaskedColumn:
        return _MaskedColumn(values, capacity)
    if kind[0] is _NumpyColumn:
        return _NumpyColumn(values.dtype, capacity)
    return _ConcatColumn()


class _FrameJoin:
    """The partitions of a frame joined into one as Dask's finalize joins them (same rows, index,
    dtypes; string categories in ``union_categoricals``' order; empty partitions left out, and the
    first partition as it is when every one is empty), appended in partition order as
    they arrive (an early one waits for those before it), column by column into growing arrays:
    the copies happen while the next partitions are computed, not after the last one (Dask's own
    join reindexes the whole frame then: 0.9 s for 40 replays of 100k rows). Every partition of
    :func:`tables` has the meta's columns and dtypes; one that does not fit (other columns or
    dtypes) sends the rest to Dask's join. python/tests/test_batch.py checks the frames equal."""

    def __init__(self, parts: int):
        self.expected = parts
        self.waiting: Dict[int, pd.DataFrame] = {}
        self.next = 0
        self.first: Optional[pd.DataFrame] = None
        self.columns: Optional[Dict[str, Any]] = None
        self.kinds: Dict[str, tuple] = {}  # each column's _column_kind: what a later part must match
        self.range_values: Optional[_GrowingArray] = None  # the index while every part's is a RangeIndex
        self.indexes: List[pd.Index] = []
        self.rest: Optional[List[pd.DataFrame]] = None  # parts for Dask's join, after one did not fit
        self.first_empty: Optional[pd.DataFrame] = None  # partition 0 when it has no rows

    def add(self, i: int, part: pd.DataFrame) -> None:
        """Partition ``i`` (0-based), in any order."""
        self.waiting[i] = part
        while self.next in self.waiting:
            self._append(self.waiting.pop(self.next))
            self.next += 1

    def _append(self, part: pd.DataFrame) -> None:
        if not len(part):
            # Dask's finalize drops empty partitions before it joins (their dtypes may differ,
            # and their categories are not in its result): a replay without a row of the type
            # adds no file name to the categories.
            if self.next == 0:
                self.first_empty = part
            return
        if self.first is None:
            self.first = part
            capacity = len(part) * self.expected + len(part) // 8
            self.columns = {c: _column_for(_array_of(part[c]), capacity) for c in part.columns}
            self.kinds = {c: _column_kind(_array_of(part[c])) for c in part.columns}
            self.range_values = _GrowingArray(np.int64, capacity)
        elif self.rest is not None:
            self.rest.append(part)
            return
        arrays = {c: _array_of(part[c]) for c in part.columns}
        if list(arrays) != list(self.columns) or any(_column_kind(a) != self.kinds[c] for c, a in arrays.items()):
            self.rest = [self._joined(), part]
            return
        for c, a in arrays.items():
            self.columns[c].append(a)
        self.indexes.append(part.index)
        if self.range_values is not None and isinstance(part.index, pd.RangeIndex):
            ix = part.index
            self.range_values.append(np.arange(ix.start, ix.stop, ix.step, dtype=np.int64))
        else:
            self.range_values = None

    def _joined(self) -> pd.DataFrame:
        if len(self.indexes) == 1:
            return self.first
        if self.range_values is not None and sum(1 for ix in self.indexes if len(ix)) > 1:
            index = pd.Index(self.range_values.view())
        else:  # at most one part with rows (its RangeIndex stays one), or other kinds of index
            index = self.indexes[0].append(self.indexes[1:])
        return pd.DataFrame({c: col.array() for c, col in self.columns.items()}, index=index, copy=False)

    def frame(self) -> pd.DataFrame:
        """The joined frame, once every partition was added."""
        if self.next != self.expected or (self.first is None and self.first_empty is None):
            raise RuntimeError(f"{self.next} of {self.expected} partitions joined")
        if self.first is None:
            return self.first_empty  # every partition empty: Dask's join returns the first
        if self.rest is not None:
            from dask.dataframe import methods

            return methods.concat(self.rest, uniform=True)  # as Dask's finalize calls it
        return self._joined()


def _join(parts: List[pd.DataFrame]) -> pd.DataFrame:
    """The partitions as one frame (:class:`_FrameJoin`), for a list computed at once."""
    join = _FrameJoin(len(parts))
    for i, p in enumerate(parts):
        join.add(i, p)
    return join.frame()


def _default_client():
    """The ``distributed.Client`` Dask's own ``compute()`` would use here: the default client
    (the newest one made with ``set_as_default``, which sets Dask's ``scheduler`` option to
    ``"dask.distributed"``), unless the user chose another scheduler since
    (``dask.config.set(scheduler="threads")``). None when there is none."""
    import dask

    if dask.config.get("scheduler", None) not in ("dask.distributed", "distributed"):
        return None
    try:
        from distributed import default_client
    except ImportError:
        return None
    try:
        return default_client()
    except ValueError:  # "No clients found"
        return None


def compute(collection, client=None, scheduler: Optional[str] = None, progress: bool = True):
    """Computes a collection of this module: on ``client`` (a ``distributed.Client``), on the
    scheduler at ``scheduler`` (``"tcp://host:8786"``; a client is made and closed), else on the
    default client when this process has one open (the newest ``distributed.Client``, the one
    Dask's own ``compute()`` would use), else on Dask's local scheduler. ``progress``: Dask's own
    progress bar locally, ``distributed.progress`` on a cluster (the dashboard shows it too)."""
    if client is None and scheduler:
        from distributed import Client

        with Client(scheduler) as c:
            return compute(collection, client=c, progress=progress)
    if client is None:
        # Dask sends a local compute() to the default client when there is one, where the local
        # progress bar sees none of it: name that client, so the work and the bar agree.
        client = _default_client()
    import dask.dataframe as dd

    # A frame of several partitions is joined by _join, on either scheduler.
    joined = isinstance(collection, dd.DataFrame) and collection.npartitions > 1
    if client is not None:
        if joined:
            return _gather_frame(client, collection, progress)
        future = client.compute(collection)
        if progress:
            from distributed import progress as dprogress

            with client.as_current():  # the bar watches the default client's scheduler
                dprogress(future)
        return future.result()
    if joined:
        import dask

        def run():
            return _join(list(dask.compute(*collection.to_delayed())))
    else:
        run = collection.compute
    if progress:
        from dask.diagnostics import ProgressBar

        with ProgressBar():
            return run()
    return run()
