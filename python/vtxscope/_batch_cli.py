# SPDX-License-Identifier: MIT
"""vtxscope-batch: vtxscope.batch on the command line.

    vtxscope-batch diverge --baseline gold.vtx runs/*.vtx --epsilon 1e-4 [--scheduler tcp://host:8786] [--junit report.xml]
    vtxscope-batch table runs/*.vtx --type Player [--properties Health,Position] [--where EXPR] --out DIR [--format csv|parquet]
    vtxscope-batch info FILE...      vtxscope-batch validate FILE...      vtxscope-batch query FILE... --expr EXPR

Exit status: 0 when every run agrees (diverge) or every replay was read; 1 when a run diverges
or a replay fails validation; 2 on usage errors or replays that could not be read (with diverge
--skip-unreadable: also when any frame pair was left out as unreadable).
"""

from __future__ import annotations

import argparse
import os
import sys
import xml.etree.ElementTree as ET
from typing import List, Optional

import pandas as pd


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="vtxscope-batch", description="VTX replays in batches on Dask")
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp):
        sp.add_argument("files", nargs="+", help="replays")
        g = sp.add_mutually_exclusive_group()
        g.add_argument("--scheduler", help="a Dask scheduler address (tcp://host:8786); default: the local scheduler")
        sp.add_argument("--no-progress", action="store_true", help="no progress bar")

    d = sub.add_parser("diverge", help="compare every run with a baseline")
    common(d)
    d.add_argument("--baseline", required=True)
    d.add_argument("--epsilon", type=float, default=0.0)
    d.add_argument("--relative", type=float, default=0.0)
    d.add_argument("--align", choices=["frame", "time"], default="frame")
    d.add_argument("--ignore", action="append", default=[])
    d.add_argument("--skip-unreadable", action="store_true",
                   help="leave out frame pairs that cannot be read and compare the rest (exit 2 when any was left out)")
    d.add_argument("--junit", help="write a JUnit XML report (a test case per run)")
    d.add_argument("--csv", help="write the rows as CSV")

    t = sub.add_parser("table", help="Replay.table over every replay, written to --out")
    common(t)
    t.add_argument("--type", required=True)
    t.add_argument("--properties", help="comma-separated property paths (default: every scalar property)")
    t.add_argument("--where")
    t.add_argument("--step", type=int, default=1)
    t.add_argument("--dtype", action="append", default=[], metavar="COLUMN=DTYPE",
                   help="a column's dtype instead of the first replay's schema's (e.g. Speed=float64); repeatable")
    t.add_argument("--out", required=True, help="output directory (a file per partition)")
    t.add_argument("--format", choices=["csv", "parquet"], default="csv")

    for name in ("info", "validate"):
        s = sub.add_parser(name, help=f"{name} of every replay, one row each (CSV on stdout)")
        common(s)
    q = sub.add_parser("query", help="frames and entities matching an expression (CSV on stdout)")
    common(q)
    q.add_argument("--expr", required=True)
    return p


def _compute(coll, args):
    from . import batch

    return batch.compute(coll, scheduler=args.scheduler, progress=not args.no_progress)


def _unreadable_pairs(r) -> int:
    n = r.get("pairs_unreadable")
    return 0 if n is None or pd.isna(n) else int(n)


def _unreadable_summary(r) -> str:
    return f"{_unreadable_pairs(r)} frame pair(s) not compared, unreadable: {r['unreadable']}"


def junit_xml(rows: pd.DataFrame, epsilon: float) -> ET.ElementTree:
    """A JUnit report of :func:`vtxscope.batch.diverge`'s rows: a test case per run; a diverging
    run is a failure naming the first divergent frame, entity, property, both values and the
    deviation; a run that could not be read, or (``skip_unreadable``) that agrees only on the
    pairs that could be read, is an error."""
    diverged = rows["diverged"] == True  # noqa: E712 - nullable boolean
    failures = int(diverged.sum())
    errors = int((rows["error"].notna() | (~diverged.fillna(False) & (rows["pairs_unreadable"].fillna(0) > 0))).sum())
    suite = ET.Element("testsuite", name="vtxscope-diverge", tests=str(len(rows)), failures=str(failures),
                       errors=str(errors), skipped="0")
    for _, r in rows.iterrows():
        case = ET.SubElement(suite, "testcase", classname="vtxscope.diverge", name=os.path.basename(str(r["file"])))
        case.set("file", str(r["file"]))
        if isinstance(r["error"], str):
            ET.SubElement(case, "error", message=r["error"], type="error").text = r["error"]
        elif r["diverged"] is True or (not pd.isna(r["diverged"]) and bool(r["diverged"])):
            dev = r["deviation"]
            msg = (f"diverges from {os.path.basename(str(r['baseline']))} at frame {r['first_frame']} "
                   f"(baseline frame {r['first_frame_baseline']}): {r['type']} {r['entity']} {r['property']}: "
                   f"{r['baseline_value']} → {r['value']}" + ("" if pd.isna(dev) else f" (deviation {dev:g})")
                   + f"; epsilon {epsilon:g}")
            detail = msg
            if not pd.isna(r["max_deviation"]):
                detail += f"\nlargest deviation {r['max_deviation']:g} ({r['max_deviation_property']})"
            detail += f"\n{r['divergent_pairs']} of {r['pairs_compared']} frame pairs differ"
            if _unreadable_pairs(r):
                detail += f"\n{_unreadable_summary(r)}"
            ET.SubElement(case, "failure", message=msg, type="divergence").text = detail
        elif _unreadable_pairs(r):
            msg = _unreadable_summary(r)
            ET.SubElement(case, "error", message=msg, type="unreadable").text = (
                msg + f"\nno divergence in the {r['pairs_compared']} pair(s) compared")
    return ET.ElementTree(suite)


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    from . import batch

    try:
        if args.command == "diverge":
            rows = _compute(batch.diverge(args.baseline, args.files, epsilon=args.epsilon, relative=args.relative,
                                          align=args.align, ignore=args.ignore, skip_unreadable=args.skip_unreadable),
                            args).reset_index(drop=True)
            if args.junit:
                junit_xml(rows, args.epsilon).write(args.junit, encoding="utf-8", xml_declaration=True)
            if args.csv:
                rows.to_csv(args.csv, index=False)
            for _, r in rows.iterrows():
                state = ("error: " + r["error"]) if isinstance(r["error"], str) else (
                    f"diverges at frame {r['first_frame']}: {r['type']} {r['entity']} {r['property']} "
                    f"{r['baseline_value']} → {r['value']}" if bool(r["diverged"]) else "agrees")
                if not isinstance(r["error"], str) and _unreadable_pairs(r):
                    state += f" ({_unreadable_summary(r)})"
                print(f"{r['file']}: {state}")
            if rows["error"].notna().any() or (rows["pairs_unreadable"].fillna(0) > 0).any():
                return 2
            return 1 if bool((rows["diverged"] == True).any()) else 0  # noqa: E712
        if args.command == "table":
            props = args.properties.split(",") if args.properties else None
            dtypes = {}
            for item in args.dtype:
                column, sep, dtype = item.partition("=")
                if not sep or not column or not dtype:
                    print(f"vtxscope-batch: --dtype {item!r}: expected COLUMN=DTYPE, e.g. Speed=float64", file=sys.stderr)
                    return 2
                dtypes[column] = dtype
            df = batch.tables(args.files, args.type, props, where=args.where, step=args.step, dtypes=dtypes or None)
            os.makedirs(args.out, exist_ok=True)
            if args.format == "parquet":
                try:
                    import pyarrow  # noqa: F401
                except ImportError:
                    try:
                        import fastparquet  # noqa: F401
                    except ImportError:
                        print("vtxscope-batch: --format parquet needs a Parquet engine (pyarrow or fastparquet) in this "
                              "Python; Debian 12 packages neither: use --format csv", file=sys.stderr)
                        return 2
                write = df.to_parquet(args.out, compute=False)
            else:
                write = df.to_csv(os.path.join(args.out, "part-*.csv"), index=False, compute=False)
            written = _compute(write if not isinstance(write, list) else __import__("dask").delayed(list)(write), args)
            print(args.out)
            # The replays that could not be read, from the error column of what was written: a
            # count in the same compute read every replay twice (Dask renames to_csv's keys).
            if args.format == "parquet":
                failed = int(pd.read_parquet(args.out, columns=["error"])["error"].notna().sum())
            else:
                failed = sum(int(pd.read_csv(p, usecols=["error"])["error"].notna().sum()) for p in written)  # this run's files
            if int(failed) > 0:
                print(f"vtxscope-batch: {int(failed)} of {len(args.files)} replay(s) could not be read: their rows in {args.out} "
                      "say why (column error)", file=sys.stderr)
                return 2
            return 0
        if args.command == "info":
            rows = _compute(batch.info(args.files), args).drop(columns=["info"])
        elif args.command == "validate":
            rows = _compute(batch.validate(args.files), args)
        else:
            rows = _compute(batch.query(args.files, args.expr), args)
        rows.to_csv(sys.stdout, index=False)
        if rows["error"].notna().any():
            return 2
        if args.command == "validate" and not bool(rows["ok"].all()):
            return 1
        return 0
    except Exception as e:  # noqa: BLE001
        print(f"vtxscope-batch: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
