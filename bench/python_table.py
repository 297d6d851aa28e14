#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""table() throughput against a C++ full read of the same file, measured in one run.

    PYTHONPATH=build/<dir>/python bench/python_table.py [REPLAY] [--type Player] [--props a,b,...] [--runs 5]

Without REPLAY a CS2-like replay (~92 MB) is generated with vtxscope-cli (VTXSCOPE_CLI or PATH) into
a temporary folder. Baseline: `_vtxscope._full_read` (every chunk decoded, every named property of
every entity read: bench/PropertyWalk, what vtxscope-bench calls a full read). Runs alternate
baseline / table / table + to_pandas; medians are reported with the ratios, MB of replay per second
per core (the table is built on one core, with at most one chunk decoded ahead), and the host.
"""

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import vtxscope
from vtxscope import _vtxscope

DEFAULT_PROPS = ["Health", "Armor", "Position", "Team", "IsAlive", "Money"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("replay", nargs="?")
    ap.add_argument("--type", default="Player")
    ap.add_argument("--props")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    tmp = None
    path = args.replay
    if not path:
        cli = os.environ.get("VTXSCOPE_CLI") or shutil.which("vtxscope-cli")
        if not cli:
            print("no REPLAY and no vtxscope-cli to generate one", file=sys.stderr)
            return 2
        tmp = tempfile.mkdtemp()
        path = os.path.join(tmp, "cs2.vtx")
        subprocess.run([cli, "generate", "cs2", path], check=True, capture_output=True)
    size_mb = os.path.getsize(path) / 1e6
    with vtxscope.open(path) as r:
        fields = r.schema["types"][args.type]["fields"]
        props = args.props.split(",") if args.props else [p for p in DEFAULT_PROPS if p in fields]
        if len(props) < 6:
            props += [n for n, f in fields.items() if f["container"] == "scalar" and f["type"] != "Struct" and n not in props][: 6 - len(props)]
        base, table, pandas_t = [], [], []
        rows = 0
        for _ in range(args.runs):
            t0 = time.perf_counter()
            _vtxscope._full_read(r._r)
            base.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            t = r.table(args.type, props)
            table.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            t = r.table(args.type, props)
            t.to_pandas()
            pandas_t.append(time.perf_counter() - t0)
            rows = len(t)
        frames = len(r)
    b, tb, tp = (statistics.median(x) for x in (base, table, pandas_t))
    print(f"host: {platform.node()} {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
          f"python {platform.python_version()}")
    print(f"replay: {os.path.basename(path)} {size_mb:.1f} MB, {frames} frames; table({args.type!r}, {props}): {rows} rows")
    print(f"full read (C++)         {b * 1e3:8.1f} ms  (median of {args.runs})")
    print(f"table()                 {tb * 1e3:8.1f} ms  = {tb / b:.2f}x full read, {size_mb / tb:.0f} MB/s/core (demoparser2: ~63)")
    print(f"table().to_pandas()     {tp * 1e3:8.1f} ms  = +{(tp / tb - 1) * 100:.1f} % over table()")
    if tmp:
        shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
