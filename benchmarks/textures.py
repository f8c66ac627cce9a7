"""What a bilinear texture sample costs against a storage buffer load, in the coroutine path
(issue target: at most 10x), measured in one run.

Three kernels run the same loop of ``--loads`` iterations in each of 64 invocations: one with
an empty body (the loop's own cost), one that adds ``buf[j]`` (a storage buffer load), one
that adds ``texture_sample_level(t, s, uv, 0.0).x`` with a linear sampler on a 64x64 rgba8unorm
texture (bilinear filtering of four texels). Each dispatch is timed in turns with the others
(``--repeat`` rounds, the median counts); the cost of one operation is the kernel's time less
the empty loop's, per iteration. The ratio is sample / load; the ratio of whole iterations
(loop overhead included on both sides) is printed too, as it is steadier on a loaded machine.

    python benchmarks/textures.py [--loads 200] [--repeat 5]
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
from asyncshader import f32, u32, vec2f

LOADS = [200]


@ash.compute(workgroup_size=64)
async def empty(out: ash.Storage[f32], buf: ash.Storage[f32], *, local_invocation_index: u32):
    acc = f32(0)
    one = buf[0]
    for _j in range(LOADS[0]):
        acc += one
    out[local_invocation_index] = acc


@ash.compute(workgroup_size=64)
async def buffer_load(out: ash.Storage[f32], buf: ash.Storage[f32], *,
                      local_invocation_index: u32):
    acc = f32(0)
    for j in range(LOADS[0]):
        acc += buf[j]
    out[local_invocation_index] = acc


@ash.compute(workgroup_size=64)
async def bilinear(out: ash.Storage[f32], t: ash.Texture2D[f32], s: ash.Sampler, *,
                   local_invocation_index: u32):
    acc = f32(0)
    uv = vec2f(f32(local_invocation_index) / 64 + 0.003, 0.4)
    for _j in range(LOADS[0]):
        acc += ash.texture_sample_level(t, s, uv, 0.0).x
    out[local_invocation_index] = acc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    LOADS[0] = args.loads
    buf = np.ones(args.loads, np.float32)
    tex = ash.Texture([np.full((64, 64, 4), 51, np.uint8)])
    smp = ash.Sampler(mag_filter="linear", min_filter="linear")
    out = np.zeros(64, np.float32)
    runs = {"empty": lambda: ash.run(empty, 1, out=out, buf=buf, sanitize="off"),
            "buffer": lambda: ash.run(buffer_load, 1, out=out, buf=buf, sanitize="off"),
            "sample": lambda: ash.run(bilinear, 1, out=out, t=tex, s=smp, sanitize="off")}
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(args.repeat):
        for name, fn in runs.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
            expected = args.loads * (0.2 if name == "sample" else 1.0)
            assert np.allclose(out, expected, rtol=1e-4), (name, out[:4])
    per = {k: statistics.median(v) / (64 * args.loads) * 1e9 for k, v in times.items()}
    load, sample = per["buffer"] - per["empty"], per["sample"] - per["empty"]
    print(f"asyncshader textures: {args.loads} iterations x 64 invocations, median of "
          f"{args.repeat}")
    print(f"  loop iteration (empty body)   {per['empty']:8.0f} ns")
    print(f"  storage buffer load           {load:8.0f} ns  (over the empty loop)")
    print(f"  bilinear texture_sample_level {sample:8.0f} ns  (over the empty loop)")
    print(f"  ratio sample / load           {sample / load:8.1f}x  (target: at most 10x)")
    print(f"  ratio of whole iterations     {per['sample'] / per['buffer']:8.1f}x  (loop "
          "overhead on both sides)")


if __name__ == "__main__":
    main()
