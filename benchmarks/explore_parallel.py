"""Parallel exploration: schedules per second with 2 worker processes against serial.

    python benchmarks/explore_parallel.py            # full figures (several minutes)
    python benchmarks/explore_parallel.py --quick    # fewer runs and repetitions
    taskset -c 0,1 python benchmarks/explore_parallel.py   # pinned to two cores

Every figure is a ratio measured in this run: serial (workers=1) and parallel (workers=2)
explorations of the same runs alternate, several repetitions, and the medians are compared.
The load average at the start and end is printed: the machine may be shared.

1. The lost update (examples/lost_update.py, 2 invocations, every run checked).
2. A scan (examples/prefix_sum.py's scan_blocks, 2 workgroups of 64 invocations: 128).
3. 10,000 schedules of a 64-invocation kernel (benchmarks/explore.py's three_points).
4. The break-even: the smallest exploration of the 64-invocation kernel that is faster on 2
   workers than serially (processes started per exploration included).
"""

import multiprocessing
import os
import resource
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

import lost_update as lu  # noqa: E402
import prefix_sum as ps  # noqa: E402
from explore import setup as three_setup  # noqa: E402
from explore import three_points  # noqa: E402

import asyncshader as ash  # noqa: E402


def scan_setup():
    """Two blocks of 64 values (fixed), for scan_blocks."""
    data = (np.arange(128, dtype=np.float32) % 7)
    return {"inp": data, "out": np.zeros(128, np.float32), "block_sums": np.zeros(2, np.float32),
            "n": 128, "workgroups": 2}


EXPECTED_SCAN = np.concatenate([np.cumsum(np.arange(64) % 7),
                                np.cumsum(np.arange(64, 128) % 7)]).astype(np.float32)


def scan_check(result):
    assert np.array_equal(result["out"], EXPECTED_SCAN)


def cpu_seconds():
    """CPU time of this process and of its finished children (the pool's workers, joined at
    the end of each exploration)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(kernel, setup, check, strategy, runs, workers):
    t, c = time.perf_counter(), cpu_seconds()
    report = ash.explore(kernel, setup, check, strategy, runs=runs, workers=workers,
                         stop_on_failure=False, store=None, progress=False)
    elapsed, cpu = time.perf_counter() - t, cpu_seconds() - c
    assert report.runs == runs
    timed.cpu = cpu
    return elapsed, report


def compare(name, kernel, setup, check, strategy, runs, reps):
    serial, parallel, cpu_s, cpu_p = [], [], [], []
    for _ in range(reps):  # alternating, so that load changes hit both alike
        s, rs = timed(kernel, setup, check, strategy, runs, 1)
        cpu_s.append(timed.cpu)
        p, rp = timed(kernel, setup, check, strategy, runs, 2)
        cpu_p.append(timed.cpu)
        assert (rs.outcomes, len(rs.failures)) == (rp.outcomes, len(rp.failures))
        serial.append(s)
        parallel.append(p)
    ms, mp = statistics.median(serial), statistics.median(parallel)
    # CPU seconds the 2-worker exploration spent (parent + workers) for each CPU second of the
    # serial one: what parallelism costs in work, whatever the load; on two idle cores the
    # speed-up approaches 2 / this
    overhead = statistics.median(cpu_p) / statistics.median(cpu_s)
    print(f"   {name:34} serial {runs / ms:7,.0f}/s  2 workers {runs / mp:7,.0f}/s  "
          f"speed-up {ms / mp:4.2f}x  (median of {reps}: {ms:.2f} s vs {mp:.2f} s); "
          f"CPU {overhead:4.2f}x the serial's")
    return ms / mp


def break_even(reps):
    print("4. break-even, three_points (64 invocations), Random: serial s / 2-worker s")
    for runs in (50, 100, 200, 400, 800):
        ratios = []
        for _ in range(reps):
            s, _ = timed(three_points, three_setup, None, ash.Random(0), runs, 1)
            p, _ = timed(three_points, three_setup, None, ash.Random(0), runs, 2)
            ratios.append(s / p)
        print(f"   {runs:5} runs: serial {s:.2f} s, speed-up {statistics.median(ratios):4.2f}x")


def _burn(n):
    total = 0
    for i in range(n):
        total += i
    return total


def ceiling(reps):
    """What 2 processes of plain Python get over 1 on this machine now: the best any parallel
    exploration can do under the current load."""
    ctx = multiprocessing.get_context("fork")
    ratios = []
    with ctx.Pool(2) as pool:
        for _ in range(reps):
            t = time.perf_counter()
            _burn(5_000_000)
            _burn(5_000_000)
            serial = time.perf_counter() - t
            t = time.perf_counter()
            pool.map(_burn, [5_000_000, 5_000_000])
            ratios.append(serial / (time.perf_counter() - t))
    best = statistics.median(ratios)
    print(f"0. the machine's ceiling: 2 processes of plain Python do {best:.2f}x the work of "
          f"1 per second now (median of {reps})")


def main(quick=False):
    reps = 3 if quick else 5
    print(f"load average at start: {os.getloadavg()}; cores: {os.cpu_count()}, "
          f"affinity: {len(os.sched_getaffinity(0))}")
    ceiling(reps)
    n = 1000 if quick else 3000
    print("1.-2. schedules per second, every run checked")
    compare("lost update, Random", lu.lost_update, lu.setup, lu.check, ash.Random(0), n, reps)
    compare("lost update, PCT(depth=3)", lu.lost_update, lu.setup, lu.check, ash.PCT(0), n,
            reps)
    compare("scan (128 invocations), Random", ps.scan_blocks, scan_setup, scan_check,
            ash.Random(0), n // 5, reps)
    compare("scan (128 invocations), PCT", ps.scan_blocks, scan_setup, scan_check,
            ash.PCT(0), n // 5, reps)
    print("3. 10,000 schedules of a 64-invocation kernel")
    compare("three_points, Random", three_points, three_setup, None, ash.Random(0),
            2000 if quick else 10_000, 1 if quick else 3)
    break_even(reps)
    ceiling(reps)
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
