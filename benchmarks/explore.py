"""Schedule exploration: schedules per second, and runs needed to find the lost update.

    python benchmarks/explore.py            # full figures (about two minutes)
    python benchmarks/explore.py --quick    # fewer runs and seeds

1. Rate: explore() on a 64-invocation kernel with three scheduling points (atomics) per
   invocation, under Random, PCT and Exhaustive(2) (the last with footprint recording).
2. Runs to find the bug of examples/lost_update.py with Random vs PCT(depth=3): the median,
   over 20 seeds, of the number of runs until the first failure (Random capped).
"""

import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))

import lost_update as lu

import asyncshader as ash
from asyncshader import u32


@ash.compute(workgroup_size=64)
async def three_points(hist: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    a = await ash.atomic_add(ash.ptr(hist, i % 8), 1)
    b = await ash.atomic_max(ash.ptr(hist, 8), i)
    c = await ash.atomic_add(ash.ptr(hist, 9), a + b)
    out[i] = c


def setup():
    return {"hist": np.zeros(10, np.uint32), "out": np.zeros(64, np.uint32)}


def rate(strategy, runs):
    report = ash.explore(three_points, setup, None, strategy, runs=runs)
    assert report.runs == runs
    return report.schedules_per_second, report


def runs_to_find(make, seed, cap):
    report = ash.explore(lu.lost_update, lu.setup, lu.check, make(seed), runs=cap)
    return report.runs if report.failures else cap


def main(quick=False):
    runs = 300 if quick else 2000
    print(f"1. explore() on a 64-invocation kernel, 3 scheduling points each ({runs} runs)")
    base = ash.run(three_points, **setup(), schedule=ash.Random(0))
    print(f"   per run: {base.counters.steps} steps, {base.counters.decisions} decisions")
    for name, strategy, n in (("Random", ash.Random(0), runs), ("PCT(depth=3)", ash.PCT(0), runs),
                              ("Exhaustive(2)", ash.Exhaustive(2), max(runs // 10, 50))):
        per_s, _ = rate(strategy, n)
        print(f"   {name:14} {per_s:8,.0f} schedules/s")
    seeds = 6 if quick else 20
    cap = 20_000 if quick else 100_000
    print(f"2. runs to find the lost update (examples/lost_update.py, WORK={lu.WORK}), "
          f"median over {seeds} seeds")
    t = time.perf_counter()
    pct = [runs_to_find(lambda s: ash.PCT(s * 1_000_003, depth=3), k, cap) for k in range(seeds)]
    t_pct = time.perf_counter() - t
    t = time.perf_counter()
    rnd = [runs_to_find(lambda s: ash.Random(s * 1_000_003), k, cap) for k in range(seeds)]
    t_rnd = time.perf_counter() - t
    m_pct, m_rnd = statistics.median(pct), statistics.median(rnd)
    print(f"   PCT(depth=3): median {m_pct:,.0f} runs (min {min(pct):,}, max {max(pct):,}; "
          f"{t_pct:.1f} s)")
    print(f"   Random:       median {m_rnd:,.0f} runs (min {min(rnd):,}, max {max(rnd):,}; "
          f"{t_rnd:.1f} s; {sum(r == cap for r in rnd)} seed(s) hit the cap of {cap:,})")
    print(f"   PCT needs {m_pct / m_rnd:.3f} of Random's runs ({m_rnd / m_pct:.1f}x fewer)")
    ex = ash.explore(lu.lost_update, lu.setup, lu.check, ash.Exhaustive(2), runs=10_000)
    print(f"   Exhaustive(2): first failure at run {ex.runs}; InOrder: "
          f"{len(ash.explore(lu.lost_update, lu.setup, lu.check, ash.InOrder()).failures)} "
          "failures over its single schedule")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
