#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""table() throughput against a C++ full read of the same file, measured in one run.

    PYTHONPATH=build/<dir>/python bench/python_table.py [REPLAY] [--type Player] [--props a,b,...] [--runs 5]

Without REPLAY a CS2-like replay (~92 MB) is generated with vtxscope-cli (VTXSCOPE_CLI or PATH) into
a temporary folder. Baseline: `_vtxscope._full_read` (every chunk decoded, every named property of
every entity read: bench/PropertyWalk, what vtxscope-bench calls a full read, through the scan
engine with its default threads). Each run times the baseline, table() with the default threads,
table(threads=1), and to_pandas() of the table just built (so its cost is its own, not the
difference of two table() runs: on a loaded host that difference is noise, ±10 % and more).
Wall and CPU (user + system of every thread of this process) are both reported, medians of the
runs, with the ratios, MB of replay per CPU-second (per core: demoparser2's figure is ~63), and the
host. pandas is imported before the first timing.
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

from bench_host import cpu_model

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
        import pandas  # noqa: F401 - imported here, not inside the first to_pandas() timing

        timings = {k: [] for k in ("base", "table", "table1", "pandas")}

        def timed(key, fn):
            w, c = time.perf_counter(), time.process_time()
            out = fn()
            timings[key].append((time.perf_counter() - w, time.process_time() - c))
            return out

        rows = 0
        threads = 0
        for _ in range(args.runs):
            timed("base", lambda: _vtxscope._full_read(r._r))
            t = timed("table", lambda: r.table(args.type, props))
            timed("pandas", t.to_pandas)
            timed("table1", lambda: r.table(args.type, props, threads=1))
            rows, threads = len(t), t.decode_threads
        frames = len(r)

    def med(key, i):
        return statistics.median(x[i] for x in timings[key])

    print(f"host: {cpu_model()}, {os.cpu_count()} cores ({platform.machine()}), load {os.getloadavg()[0]:.1f}, "
          f"python {platform.python_version()}, nice {os.nice(0)}")
    print(f"replay: {os.path.basename(path)} {size_mb:.1f} MB, {frames} frames; table({args.type!r}, {props}): {rows} rows; "
          f"medians of {args.runs} runs, wall and CPU (user + sys, all threads)")
    b_w, b_c = med("base", 0), med("base", 1)
    for key, label in (("base", "full read (C++)"), ("table", f"table(), {threads} threads"), ("table1", "table(threads=1)")):
        w, c = med(key, 0), med(key, 1)
        ratio = "" if key == "base" else f" = {w / b_w:.2f}x / {c / b_c:.2f}x full read (wall / CPU)"
        print(f"{label:24s} wall {w * 1e3:8.1f} ms  CPU {c * 1e3:8.1f} ms{ratio}, {size_mb / c:.0f} MB per CPU-second")
    tw, tc = med("table", 0), med("table", 1)
    pw, pc = med("pandas", 0), med("pandas", 1)
    print(f"to_pandas() of it        wall {pw * 1e3:8.1f} ms  CPU {pc * 1e3:8.1f} ms = +{pw / tw * 100:.1f} % wall, "
          f"+{pc / tc * 100:.1f} % CPU over table() (target <= 10 %); demoparser2: ~63 MB/s per core")
    if tmp:
        shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
