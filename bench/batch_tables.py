#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""`batch.tables` over 40 replays on a distributed.LocalCluster: 2 worker processes against 1,
measured in one run, and the per-file overhead against the same tables read in a plain loop.

    PYTHONPATH=build/<dir>/python bench/batch_tables.py [--cli PATH] [--files 40] [--frames 10000]
        [--repeat 3] [--threads 1] [--dir DIR]

Replays: CS2-like (`vtxscope-cli generate cs2`, the bench fixtures' generator), `--frames` frames
each, both backends and two seeds (four generated files; the rest are byte copies of them: only the
bytes matter to a table). Workers are processes on 127.0.0.1, one thread each (Dask's usual
worker); a cluster is started for each timed run, warmed up (vtxscope imported, one small batch
run) and closed after it, so no idle cluster shares the cores with the measured one.

Each repetition times the serial loop in this process (open, table(threads=--threads),
to_pandas(), a file column, one pd.concat at the end: the same frame without Dask);
compute(batch.tables(...)) on Dask's local threaded scheduler with one thread (no transfer: the
partitions stay in this process); and on LocalClusters of 1 and 2 workers, each twice: with Dask's
worker defaults and with "lean" workers (transfer compression off -- Dask's "auto" is lz4 or snappy
when the Python has them, none otherwise; later Dask turns it off on fast networks,
dask/distributed#7655 -- and the worker's sampling profiler off), and once more with Dask's defaults
with the tables "kept" on the workers (client.persist, as an analysis on a cluster keeps them for its
next steps) instead of gathered into this process: the tables' own scaling, without 4 million rows
sent to a client that shares the two cores. The order of the modes alternates between repetitions.

The per-file overhead of each one-thread mode is measured **paired**: each such run is timed right
beside a serial loop of its own (serial first in even repetitions, second in odd ones), and the
overhead is the median over the repetitions of (mode / its serial - 1). On a VM whose speed drifts
by 10 % between minutes, the pair shares the drift a median of separate runs does not.

Reported: wall medians, the speed-up of 2 workers over 1 (from the medians, and the median of
the ratios within a repetition, where the two runs are timed one after the other), CPU seconds
(user + system) of this process and of the workers (getrusage in each worker process, before and
after; the rest is this process: client and scheduler), the workers' CPU by thread (the task
threads, which do what the loop does, and the rest: the event loop serialising and sending the
partitions, the profiler, monitors), and the paired overheads in wall and CPU. The results of
every mode are checked equal (rows and a checksum). Print the host and the load: on a loaded
machine say so.
"""

import argparse
import faulthandler
import os
import platform
import resource
import shutil
import signal
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


def threads_cpu() -> dict:
    """CPU seconds of each thread of this process by name (from /proc): in a worker, its task
    threads ("Dask-...-Threads-...") and the rest (the event loop, the profiler, monitors)."""
    import threading

    names = {t.native_id: t.name for t in threading.enumerate()}
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        name = names.get(int(tid), "other")
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


def workers_cpu(client) -> tuple:
    """(every worker process's CPU, of it the task threads') in seconds, summed over workers."""
    total = tasks = 0.0
    for per in client.run(threads_cpu).values():
        total += sum(per.values())
        tasks += sum(v for k, v in per.items() if "-Threads-" in k)
    return total, tasks


def checksum(df) -> tuple:
    return len(df), float(df["Health"].sum()), float(df["Position.x"].sum()), int(df["frame"].sum())


class _Summary:
    """What :func:`checksum` and the error check read, from a frame kept on the workers."""

    def __init__(self, rows, health, x, frame, errors):
        self.rows, self.sums, self.errors = rows, {"Health": health, "Position.x": x, "frame": frame}, errors

    def __len__(self):
        return self.rows

    def __getitem__(self, column):
        import pandas as pd

        if not isinstance(column, str):  # df[df["error"].notna()]: the error rows, all of them here
            return self
        if column == "error":
            return pd.Series(self.errors, dtype=object)
        return pd.Series([self.sums[column]])


def kept_summary(kept, client) -> _Summary:
    import dask

    rows, health, x, frame, errors = dask.compute(kept.shape[0], kept["Health"].sum(), kept["Position.x"].sum(),
                                                  kept["frame"].sum(), kept["error"].dropna(), scheduler=client)
    return _Summary(int(rows), health, x, frame, list(errors))


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
    faulthandler.register(signal.SIGUSR1)  # kill -USR1 <pid>: every thread's Python stack on stderr
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

        # Worker settings: Dask's defaults, and "lean": transfer compression and the worker's sampling
        # profiler (a callback on the event loop taking the task threads' Python stacks every 10 ms) off.
        # "kept": default settings, and the tables are kept on the workers (``client.persist``, as a
        # cluster analysis keeps them for its next steps) rather than gathered into this process:
        # the tables' own scaling, without 4 million rows sent to a client on the same two cores.
        settings = {"default": {},
                    "lean": {"distributed.comm.compression": None, "distributed.worker.profile.enabled": False},
                    "kept": {}}
        # 1 and 2 workers of a kind side by side, so their ratio is also taken within a repetition.
        cluster_modes = [(n, kind) for kind in settings for n in (1, 2)]

        def keep_on_workers(frame, client):
            """The tables computed and kept on the workers; the checksum's sums come back after the
            clock stops (a few numbers per partition)."""
            from distributed import wait

            with dask.annotate(priority=batch._partition_priority):  # in order, as batch.compute runs them
                kept = client.persist(frame)
            wait(kept)
            return kept

        def start_cluster(mode):
            """A cluster for one timed run, closed after it: idle clusters' workers and schedulers
            keep a few per cent of a core each busy (heartbeats, monitors), which on two cores
            slowed the measured one (2 workers 1.59x instead of 1.75x with six workers idle)."""
            n, kind = mode
            with dask.config.set(settings[kind]):  # the workers take it at start
                cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=":0")
                client = Client(cluster)
            clusters[mode] = (cluster, client)
            # Warm-up, as a cluster in use is: the module loaded in each worker, one small batch run.
            client.run(lambda: __import__("vtxscope") and None)
            batch.compute(batch.tables(paths[:n], "Player", PROPS, frames=range(0, 100)), client=client, progress=False)
            return client

        def close_cluster(mode):
            cluster, client = clusters.pop(mode)
            client.close()
            cluster.close()

        modes = ["serial", "local"] + cluster_modes
        one_thread = ["local", (1, "default"), (1, "lean")]
        wall = {m: [] for m in modes}
        cpu = {m: [] for m in modes}
        worker_cpu = {m: [] for m in cluster_modes}  # the workers' share of cpu[m]; the rest is this process
        task_cpu = {m: [] for m in cluster_modes}  # of it, the workers' task threads
        paired = {m: [] for m in one_thread}  # (mode / the serial loop timed beside it) - 1: (wall, CPU)
        results = {}
        rows = None

        def run_serial():
            nonlocal rows
            c0, w0 = own_cpu(), time.perf_counter()
            rows = serial()
            wall["serial"].append(time.perf_counter() - w0)
            cpu["serial"].append(own_cpu() - c0)
            return wall["serial"][-1], cpu["serial"][-1]

        load_before = os.getloadavg()
        for rep in range(args.repeat):
            others = modes[1:] if rep % 2 == 0 else modes[:0:-1]
            for m in others:
                # The serial loop beside each one-thread mode, before it in even repetitions and after
                # it in odd ones, with no cluster up (its heartbeats would slow the loop).
                if m in paired and rep % 2 == 0:
                    beside = run_serial()
                frame = batch.tables(paths, "Player", PROPS, threads=args.threads)
                if m == "local":
                    c0, w0 = own_cpu(), time.perf_counter()
                    with dask.config.set(scheduler="threads", num_workers=1):
                        df = batch.compute(frame, progress=False)
                    wall[m].append(time.perf_counter() - w0)
                    cpu[m].append(own_cpu() - c0)
                else:
                    client = start_cluster(m)
                    (wc0, tc0), c0 = workers_cpu(client), own_cpu()
                    w0 = time.perf_counter()
                    if m[1] == "kept":
                        kept = keep_on_workers(frame, client)
                    else:
                        df = batch.compute(frame, client=client, progress=False)
                    wall[m].append(time.perf_counter() - w0)
                    wc1, tc1 = workers_cpu(client)
                    if m[1] == "kept":
                        df = kept_summary(kept, client)
                        del kept
                    cpu[m].append(wc1 - wc0 + own_cpu() - c0)
                    worker_cpu[m].append(wc1 - wc0)
                    task_cpu[m].append(tc1 - tc0)
                    close_cluster(m)
                if m in paired and rep % 2 == 1:
                    beside = run_serial()
                if m in paired:
                    paired[m].append((wall[m][-1] / beside[0] - 1, cpu[m][-1] / beside[1] - 1))
                if df["error"].notna().any():
                    print(f"error rows: {df[df['error'].notna()]['error'].tolist()[:3]}", file=sys.stderr)
                    return 2
                results.setdefault(m, checksum(df))
                del df
                if results[m][0] != rows:
                    print(f"{m}: {results[m][0]} rows, the serial loop {rows}", file=sys.stderr)
                    return 2
        load_after = os.getloadavg()
        def same(a, b):  # sums of floats added in another order (per partition, then the parts)
            import math

            return a[0] == b[0] and a[3] == b[3] and all(math.isclose(x, y, rel_tol=1e-5) for x, y in zip(a[1:3], b[1:3]))

        if rows is None or not all(same(r, next(iter(results.values()))) for r in results.values()):
            print(f"the modes gave different tables: {results}", file=sys.stderr)
            return 2

        med = {k: statistics.median(v) for k, v in wall.items()}
        mcpu = {k: statistics.median(v) for k, v in cpu.items()}
        first = next(iter(results.values()))
        print(f"host: {cpu_model()}, {os.cpu_count()} cores ({platform.machine()}, Linux {platform.release()}), "
              f"python {platform.python_version()}, dask {dask.__version__}, nice {os.nice(0)}")
        print(f"load average (1 min) before / after: {load_before[0]:.2f} / {load_after[0]:.2f}"
              + ("  -- loaded: other processes share the cores" if load_before[0] > 0.5 else ""))
        print(f"replays: {len(paths)} x {total_mb / len(paths):.1f} MB ({args.frames} frames, CS2-like, fbs and proto), "
              f"{total_mb:.0f} MB; table('Player', {PROPS}) threads={args.threads}: {first[0]} rows in all")
        labels = {"serial": "serial loop (1 process)", "local": "local scheduler, 1 thread"}
        for m in modes:
            label = labels.get(m) or f"LocalCluster, {m[0]} worker{'s' if m[0] > 1 else ''}, {m[1]}"
            each = ", ".join(f"{t:.2f}" for t in wall[m])
            split = "" if m not in worker_cpu else (
                f", of it in the workers {statistics.median(worker_cpu[m]):.2f} s: task threads "
                f"{statistics.median(task_cpu[m]):.2f} s, the rest "
                f"{statistics.median([w - t for w, t in zip(worker_cpu[m], task_cpu[m])]):.2f} s")
            print(f"{label:34s} median {med[m]:7.2f} s (each: {each}); CPU {mcpu[m]:6.2f} s "
                  f"(= {mcpu[m] / med[m]:.2f} cores busy{split}); {total_mb / med[m]:.0f} MB/s")
        from distributed.protocol.compression import get_default_compression
        print(f"worker settings: default = Dask's configuration (transfer compression "
              f"{dask.config.get('distributed.comm.compression')}, here {get_default_compression()}; "
              f"profiler on); lean = {settings['lean']}")
        for kind in settings:
            pairs = sorted(a / b for a, b in zip(wall[(1, kind)], wall[(2, kind)]))
            print(f"speed-up 2 workers vs 1, {kind} workers: {med[(1, kind)] / med[(2, kind)]:.2f}x wall "
                  f"(target >= 1.7x), paired within a repetition: median {statistics.median(pairs):.2f}x "
                  f"(each: {', '.join(f'{x:.2f}' for x in pairs)}); CPU 2 workers / 1 worker: "
                  f"{mcpu[(2, kind)] / mcpu[(1, kind)]:.2f}")
        for m in one_thread:
            label = labels.get(m) or f"1 worker, {m[1]}"
            pw = sorted(w * 100 for w, _ in paired[m])
            pc = statistics.median(c for _, c in paired[m]) * 100
            print(f"per-file overhead, {label} vs the serial loop beside it: median {statistics.median(pw):+.1f} % wall "
                  f"(each: {', '.join(f'{w:+.1f}' for w in pw)}), {pc:+.1f} % CPU (target <= 5 %); "
                  f"medians of separate runs {(med[m] / med['serial'] - 1) * 100:+.1f} % wall")
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
