"""What a store into a part of a local composite value costs: ``v.x = e`` on a local vector
(a new vector, WGSL's value semantics: docs/design.md, "Composite values"), against the whole
vector assigned (``v = v + w``, which makes a new vector too) and a component store through
memory (``buf[i].x = e``, which the rewrite leaves alone).

Each kernel runs ``--n`` iterations of its statement in a loop per invocation; a kernel with
the same loop and no vector is the baseline subtracted from all, so the figures are the
statements' own cost, in ns per iteration, with ``sanitize="off"``. Kernels are timed in
alternation (``--repeat`` rounds, medians).

    python benchmarks/value_stores.py [--n 2000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec4f


@ash.compute(workgroup_size=4)
async def empty(buf: ash.Storage[vec4f], n: u32, local_invocation_index):
    s = f32(0.0)
    for _ in range(n):
        s = s + 1.0
    buf[local_invocation_index].y = s


@ash.compute(workgroup_size=4)
async def whole(buf: ash.Storage[vec4f], n: u32, local_invocation_index):
    s = f32(0.0)
    v = vec4f(0.0)
    one = vec4f(1.0, 0.0, 0.0, 0.0)
    for _ in range(n):
        s = s + 1.0
        v = v + one
    buf[local_invocation_index].y = s + v.x - v.x


@ash.compute(workgroup_size=4)
async def part(buf: ash.Storage[vec4f], n: u32, local_invocation_index):
    s = f32(0.0)
    v = vec4f(0.0)
    for _ in range(n):
        s = s + 1.0
        v.x = s
    buf[local_invocation_index].y = s + v.x - v.x


@ash.compute(workgroup_size=4)
async def memory(buf: ash.Storage[vec4f], n: u32, local_invocation_index):
    s = f32(0.0)
    i = local_invocation_index
    for _ in range(n):
        s = s + 1.0
        buf[i].x = s
    buf[i].y = s


KERNELS = {"empty": empty, "whole": whole, "part": part, "memory": memory}


def run_once(kernel: object, n: int) -> float:
    buf = np.zeros((4, 4), np.float32)
    start = time.perf_counter()
    ash.run(kernel, 1, buf=buf, n=n, sanitize="off")
    elapsed = time.perf_counter() - start
    assert buf[0, 1] == n
    return elapsed


def measure(n: int, repeat: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in KERNELS}
    for kernel in KERNELS.values():
        run_once(kernel, 2)  # compile and warm up
    for _ in range(repeat):
        for name, kernel in KERNELS.items():
            times[name].append(run_once(kernel, n))
    return {k: statistics.median(v) for k, v in times.items()}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    t = measure(args.n, args.repeat)
    per = {k: (t[k] - t["empty"]) / (4 * args.n) * 1e9 for k in KERNELS if k != "empty"}
    print("ns per iteration, the empty loop subtracted (sanitize='off'; ratios to `v = v + w`)")
    for name, label in (("whole", "v = v + w (a new vector)"),
                        ("part", "v.x = s   (a store into a part of a local)"),
                        ("memory", "buf[i].x = s (a component store to memory)")):
        ratio = per[name] / per["whole"] if per["whole"] > 0 else float("nan")
        print(f"{label:46s} {per[name]:8.0f}ns  {ratio:5.2f}")


if __name__ == "__main__":
    main()
