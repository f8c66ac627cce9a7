"""Peak memory of Lockstep against InOrder (both ``sanitize="off"``) on the kernels of
benchmarks/lockstep.py, and on the 1,048,576-invocation reduction of benchmarks/memory.py.

Each (kernel, schedule) runs once in a fresh process; the figure is the peak of the memory
the dispatch allocates (Python objects and numpy arrays, as ``tracemalloc`` traces them)
above what was allocated before it (the imports, the bindings), so the interpreter, numpy
and the caller's arrays are left out. Lockstep's includes compiling the kernel (its first
run) unless ``--warm`` measures a second run. ``Lockstep(max_lanes=65536)`` shows what a
larger chunk than the default (4,096 lanes) costs: memory grows with the lanes of a chunk.

    python benchmarks/lockstep_memory.py [--boids 256] [--groups 64] [--big-groups 4096] [--warm]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHILD = r"""
import json, sys, tracemalloc
sys.path[:0] = [{root!r}, {bench!r}, {examples!r}]
import numpy as np
import asyncshader as ash
import lockstep as bench
import reduce as reduction
which, schedule, n_boids, groups, big = {which!r}, {schedule!r}, {boids}, {groups}, {big}
if which == "big reduce":
    title, kernel, workgroups = f"reduce 256-wide x {{big}} groups", reduction.reduce256, big
    given = dict(inp=np.ones(big * 256, np.float32), out=np.zeros(big, np.float32))
else:
    title, kernel, workgroups, given, _ = bench.cases(n_boids, groups)[int(which)]
chosen = {{"InOrder": ash.InOrder(), "Lockstep": ash.Lockstep(),
          "Lockstep(max_lanes=65536)": ash.Lockstep(max_lanes=65536)}}[schedule]
if {warm}:  # (a first run on copies: Lockstep's compile and InOrder's preparation)
    ash.run(kernel, workgroups, schedule=chosen, sanitize="off",
            **{{k: v.copy() if isinstance(v, np.ndarray) else v for k, v in given.items()}})
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
ash.run(kernel, workgroups, schedule=chosen, sanitize="off", **given)
peak = tracemalloc.get_traced_memory()[1]
print(json.dumps({{"title": title, "growth_mb": (peak - before) / 2**20}}))
"""

SCHEDULES = ("InOrder", "Lockstep", "Lockstep(max_lanes=65536)")


def measure(which: str, schedule: str, args: argparse.Namespace) -> dict:
    code = CHILD.format(root=ROOT, bench=HERE, examples=os.path.join(ROOT, "examples"),
                        which=which, schedule=schedule, boids=args.boids, groups=args.groups,
                        big=args.big_groups, warm=args.warm)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boids", type=int, default=256,
                    help="particles of the two boids kernels (InOrder's run is the slow part)")
    ap.add_argument("--groups", type=int, default=64, help="workgroups of the reduction")
    ap.add_argument("--big-groups", type=int, default=4096,
                    help="workgroups of benchmarks/memory.py's reduction (256 invocations each)")
    ap.add_argument("--warm", action="store_true",
                    help="measure a second run (the first, on copies, compiles the kernel)")
    args = ap.parse_args(argv)
    print(f"{'kernel':40s} " + " ".join(f"{s:>26s}" for s in SCHEDULES) + f" {'ratio':>7s}")
    for which in ["0", "1", "2", "3", "4", "big reduce"]:
        rows = [measure(which, s, args) for s in SCHEDULES]
        title = rows[0]["title"]
        base = rows[0]["growth_mb"]
        cells = " ".join(f"{r['growth_mb']:24.2f}MB" for r in rows)
        print(f"{title:40s} {cells} {rows[1]['growth_mb'] / base:6.1f}x", flush=True)
    print("peak memory the dispatch allocated (tracemalloc), sanitize=\"off\"; ratio: Lockstep "
          "(default max_lanes) / InOrder")


if __name__ == "__main__":
    main()
