"""What a Timeline costs: the 64-wide tree reduction (7 barriers per invocation) run plain
(race detector off), with the race detector (the default), with a do-nothing instrument that
watches every step and memory access (what any such instrument costs: the general loop and
access-reporting memory), with a Timeline attached, and recorded then drawn (HTML, Perfetto
JSON, access diagram). The figures to compare are the ratios, measured in this process,
alternating, medians.

    python benchmarks/timeline.py [--groups 4] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import asyncshader as ash
from asyncshader import f32, u32, vec3u, workgroup_barrier

N = 64
tile = ash.workgroup(ash.array(f32, N))


@ash.compute(workgroup_size=N)
async def reduce64(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                   workgroup_id: vec3u):
    i = local_invocation_index
    tile[i] = inp[workgroup_id.x * N + i]
    await workgroup_barrier()
    s = N // 2
    while s > 0:
        if i < s:
            tile[i] += tile[i + s]
        await workgroup_barrier()
        s //= 2
    if i == 0:
        out[workgroup_id.x] = tile[0]


class Watching(ash.Instrument):
    """Watches every step and access and does nothing: the floor of any such instrument."""

    wants_memory_access = True

    def invocation_resumed(self, inv):
        pass

    def memory_access(self, inv, memory, index, kind):
        pass


def one(kind: str, groups: int, folder: str) -> float:
    inp = np.arange(groups * N, dtype=np.float32) % 7
    out = np.zeros(groups, np.float32)
    start = time.perf_counter()
    if kind == "plain":
        ash.run(reduce64, groups, inp=inp, out=out, sanitize="off")
    elif kind == "detector":
        ash.run(reduce64, groups, inp=inp, out=out, sanitize="report")
    elif kind == "watching":
        ash.run(reduce64, groups, inp=inp, out=out, sanitize="report", instruments=[Watching()])
    else:
        tl = ash.Timeline()
        ash.run(reduce64, groups, inp=inp, out=out, sanitize="report", instruments=[tl])
        if kind == "timeline+draw":
            tl.to_html(os.path.join(folder, "t.html"))
            tl.to_perfetto(os.path.join(folder, "t.json"))
            ash.access_diagram(tl, os.path.join(folder, "d.svg"))
    elapsed = time.perf_counter() - start
    expected = (inp.reshape(groups, N).astype(np.float64)).sum(axis=1)
    assert np.array_equal(out, expected.astype(np.float32)), (kind, out, expected)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    kinds = ["plain", "detector", "watching", "timeline", "timeline+draw"]
    times: dict[str, list[float]] = {k: [] for k in kinds}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeat):  # alternating: load on the machine hits every kind
            for k in kinds:
                times[k].append(one(k, args.groups, folder))
    base = statistics.median(times["plain"])
    watching = statistics.median(times["watching"])
    print(f"asyncshader, {args.groups} workgroups of {N} (median of {args.repeat}):")
    for k in kinds:
        t = statistics.median(times[k])
        print(f"  {k:<14} {t * 1e3:8.1f} ms   {t / base:6.2f}x plain   "
              f"{t / watching:5.2f}x watching")


if __name__ == "__main__":
    main()
