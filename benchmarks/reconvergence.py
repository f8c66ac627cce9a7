"""What maximal reconvergence costs: a subgroupAdd round inside a loop whose lanes can fall out
of step (the operation sits in an ``if``: the loop counts its iterations and each round reads
where every lane stands) against the same loop with the operation unconditional (no counter,
the lean rounds as before). Both in the same run, alternating; medians of ``--repeat``.

    python benchmarks/reconvergence.py [--groups 32] [--repeat 5]
    python benchmarks/reconvergence.py --checkout /other/tree   # another checkout's figures
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

_ARGS = argparse.ArgumentParser()
_ARGS.add_argument("--groups", type=int, default=32)
_ARGS.add_argument("--repeat", type=int, default=5)
_ARGS.add_argument("--checkout", default=os.path.join(os.path.dirname(__file__), ".."))
OPTIONS = _ARGS.parse_args()
sys.path.insert(0, OPTIONS.checkout)

import asyncshader as ash  # noqa: E402
from asyncshader import u32  # noqa: E402

N, ROUNDS = 64, 16


@ash.compute(workgroup_size=N, subgroup_size=N)
async def steady(out: ash.Storage, *, local_invocation_index: u32, workgroup_id: ash.vec3u):
    v = local_invocation_index
    for _ in range(ROUNDS):
        v = await ash.subgroup_add(v | u32(1))
    out[workgroup_id.x * N + local_invocation_index] = v


@ash.compute(workgroup_size=N, subgroup_size=N)
async def in_an_if(out: ash.Storage, *, local_invocation_index: u32, workgroup_id: ash.vec3u):
    v = local_invocation_index
    for j in range(ROUNDS):
        if local_invocation_index + u32(j) >= 0:  # always true, but per lane
            v = await ash.subgroup_add(v | u32(1))
    out[workgroup_id.x * N + local_invocation_index] = v


def main():
    times = {steady: [], in_an_if: []}
    outs = {}
    for _ in range(OPTIONS.repeat):
        for k in times:
            out = np.zeros(N * OPTIONS.groups, np.uint32)
            t = time.perf_counter()
            ash.run(k, OPTIONS.groups, out=out, sanitize="off")
            times[k].append(time.perf_counter() - t)
            outs[k] = out
    assert (outs[steady] == outs[in_an_if]).all()  # the same sums either way
    rounds = N * OPTIONS.groups * ROUNDS
    base = statistics.median(times[steady])
    print(f"subgroupAdd rounds in a loop, {OPTIONS.groups} workgroups of {N}, {ROUNDS} rounds "
          f"(median of {OPTIONS.repeat}; asyncshader from {os.path.dirname(ash.__file__)})")
    for k, name in ((steady, "unconditional (no counter)"), (in_an_if, "inside an if")):
        m = statistics.median(times[k])
        print(f"   {name:28} {rounds / m:10,.0f} rounds/s   {m / base:5.2f}x the time")


if __name__ == "__main__":
    main()
