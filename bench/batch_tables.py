#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""`batch.tables` over 40 replays on a distributed.LocalCluster: 2 worker processes against 1,
measured in one run, and the per-file overhead against the same tables read in a plain loop.

    PYTHONPATH=build/<dir>/python bench/batch_tables.py [--cli PATH] [--files 40] [--frames 10000]
        [--repeat 3] [--threads 1] [--dir DIR]

Replays: CS2-like (`vtxscope-cli generate cs2`, the bench fixtures' generator), `--frames` frames
each, both backends and two seeds (four generated files; the rest are byte copies of them: only the
bytes matter to a table). Workers are processes on 127.0.0.1, one thread each (Dask's usual
worker), started once per mode and warmed up (vtxscope imported) before timing.

Each repetition times, back to back (the order of the modes alternating): the serial loop in this
process (open, table(threads=--threads), to_pandas(), a file column, one pd.concat at the end:
the same frame without Dask), then
compute(batch.tables(...)) on 1 worker and on 2. Reported: wall medians, the speed-up of 2 workers
over 1, CPU seconds (user + system) of this process and of the workers (getrusage in each worker
process, before and after; the rest is this process: client and scheduler), and the per-file
overhead (1 worker's wall and CPU against the serial loop's). The results of both modes are
checked equal (rows and a checksum). Print the host and the load: on a loaded machine say so.
"""

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_host import cpu_model

PROPS = ["Health", "Armor", "Position", "Team", "IsAlive", "Money"]


def own_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def workers_cpu(client) -> float:
    return sum(client.run(own_cpu).values())


def checksum(df) -> tuple:
    return len(df), float(df["Health"].sum()), float(df["Position.x"].sum()), int(df["frame"].sum())


def make_replays(cli: str, work: str, files: int, frames: int) -> list:
    sources = []
    for backend in ("fbs", "proto"):
        for seed in (1, 2):
            out = os.path.join(work, f"src_{backend}_{seed}.vtx")
            subprocess.run([cli, "generate", "cs2", out, "--frames", str(frames), "--backend", backend, "--seed", str(seed)],
                           check=True, capture_output=True)
            sources.append(out)
    paths = []
    for i in range(files):
        p = os.path.join(work, f"replay_{i:02d}.vtx")
        shutil.copyfile(sources[i % len(sources)], p)
        paths.append(p)
    return paths


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.environ.get("VTXSCOPE_CLI") or shutil.which("vtxscope-cli"))
    ap.add_argument("--files", type=int, default=40)
    ap.add_argument("--frames", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1, help="decode threads per table (batch.tables' threads)")
    ap.add_argument("--dir", help="where to write the replays (default: a temporary folder, removed)")
    args = ap.parse_args()
    if not args.cli or not os.path.exists(args.cli):
        print("no vtxscope-cli: pass --cli or set VTXSCOPE_CLI", file=sys.stderr)
        return 2

    import dask
    import pandas as pd
    from distributed import Client, LocalCluster

    import vtxscope
    from vtxscope import batch

    work = args.dir or tempfile.mkdtemp(prefix="vtx-batch-bench-")
    os.makedirs(work, exist_ok=True)
    started = time.perf_counter()
    clusters = {}
    try:
        paths = make_replays(args.cli, work, args.files, args.frames)
        total_mb = sum(os.path.getsize(p) for p in paths) / 1e6

        def serial():
            # What a user writes without Dask for the same frame: a table per replay with its
            # path, joined.
            out = []
            for p in paths:
                with vtxscope.open(p, budget_mb=256) as r:
                    df = r.table("Player", PROPS, threads=args.threads).to_pandas()
                df.insert(0, "file", p)
                out.append(df)
            return len(pd.concat(out, ignore_index=True))

        for n in (1, 2):
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                                   dashboard_address=":0")
            client = Client(cluster)
            client.run(lambda: __import__("vtxscope") and None)  # warm-up: the module loaded in each worker
            clusters[n] = (cluster, client)

        wall = {"serial": [], 1: [], 2: []}
        cpu = {"serial": [], 1: [], 2: []}
        worker_cpu = {1: [], 2: []}  # the workers' share of cpu[n]; the rest is this process (client, scheduler)
        results = {}
        load_before = os.getloadavg()
        for rep in range(args.repeat):
            c0, w0 = own_cpu(), time.perf_counter()
            rows = serial()
            wall["serial"].append(time.perf_counter() - w0)
            cpu["serial"].append(own_cpu() - c0)
            for n in ((1, 2) if rep % 2 == 0 else (2, 1)):
                client = clusters[n][1]
                wc0, c0 = workers_cpu(client), own_cpu()
                w0 = time.perf_counter()
                df = batch.compute(batch.tables(paths, "Player", PROPS, threads=args.threads), client=client, progress=False)
                wall[n].append(time.perf_counter() - w0)
                in_workers = workers_cpu(client) - wc0
                cpu[n].append(in_workers + own_cpu() - c0)
                worker_cpu[n].append(in_workers)
                if df["error"].notna().any():
                    print(f"error rows: {df[df['error'].notna()]['error'].tolist()[:3]}", file=sys.stderr)
                    return 2
                results.setdefault(n, checksum(df))
                if results[n][0] != rows:
                    print(f"{n} worker(s): {results[n][0]} rows, the serial loop {rows}", file=sys.stderr)
                    return 2
        load_after = os.getloadavg()
        if results[1] != results[2]:
            print(f"1 and 2 workers gave different tables: {results[1]} vs {results[2]}", file=sys.stderr)
            return 2

        med = {k: statistics.median(v) for k, v in wall.items()}
        mcpu = {k: statistics.median(v) for k, v in cpu.items()}
        print(f"host: {cpu_model()}, {os.cpu_count()} cores ({platform.machine()}, Linux {platform.release()}), "
              f"python {platform.python_version()}, dask {dask.__version__}, nice {os.nice(0)}")
        print(f"load average (1 min) before / after: {load_before[0]:.2f} / {load_after[0]:.2f}"
              + ("  -- loaded: other processes share the cores" if load_before[0] > 0.5 else ""))
        print(f"replays: {len(paths)} x {total_mb / len(paths):.1f} MB ({args.frames} frames, CS2-like, fbs and proto), "
              f"{total_mb:.0f} MB; table('Player', {PROPS}) threads={args.threads}: {results[1][0]} rows in all")
        for k, label in (("serial", "serial loop (1 process)"), (1, "LocalCluster, 1 worker"), (2, "LocalCluster, 2 workers")):
            each = ", ".join(f"{t:.2f}" for t in wall[k])
            split = "" if k == "serial" else f", of it in the workers {statistics.median(worker_cpu[k]):.2f} s"
            print(f"{label:26s} median {med[k]:7.2f} s (each: {each}); CPU {mcpu[k]:6.2f} s "
                  f"(= {mcpu[k] / med[k]:.2f} cores busy{split}); {total_mb / med[k]:.0f} MB/s")
        print(f"speed-up 2 workers vs 1: {med[1] / med[2]:.2f}x wall (target >= 1.7x); "
              f"CPU 2 workers / 1 worker: {mcpu[2] / mcpu[1]:.2f}")
        print(f"per-file overhead, 1 worker vs the serial loop: {(med[1] / med['serial'] - 1) * 100:+.1f} % wall, "
              f"{(mcpu[1] / mcpu['serial'] - 1) * 100:+.1f} % CPU (target <= 5 %)")
        print(f"whole bench {time.perf_counter() - started:.0f} s")
        return 0
    finally:
        for cluster, client in clusters.values():
            client.close()
            cluster.close()
        if not args.dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
