"""What a bilinear texture sample costs against a storage buffer load, in the coroutine path
(issue target: at most 10x), measured in one run.

Three kernels run the same loop of ``--loads`` iterations in each of 64 invocations: one with
an empty body (the loop's own cost), one that adds ``buf[j]`` (a storage buffer load), one
that adds ``texture_sample_level(t, s, uv, 0.0).x`` with a linear sampler on a 64x64
rgba8unorm texture of random texels (bilinear filtering of four texels). The comparison the
target means is the whole ``ash.run`` of N samples against the whole ``ash.run`` of N loads,
per operation (the loop and the run's own cost on both sides); the cost of the operation alone
(the kernel's time less the empty loop's, per iteration) is printed too. Each dispatch is timed
in turns with the others, ``--repeat`` rounds, in CPU time of the process
(``time.process_time``: waiting for the CPU on a shared machine does not count), the least of
the rounds counts. Python kernels with the race detector off (the fastest loads) and with the
default ``sanitize="report"``; the same loops in WGSL through ``load_wgsl``, detector off.

    python benchmarks/textures.py [--loads 200] [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

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


#: the same three loops in WGSL, run through load_wgsl (the loaded-WGSL path)
WGSL = """
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<storage, read> buf: array<f32>;
@group(0) @binding(2) var t: texture_2d<f32>;
@group(0) @binding(3) var s: sampler;
override LOADS: u32 = 200;
@compute @workgroup_size(64) fn empty(@builtin(local_invocation_index) i: u32) {
  var acc = 0.0;
  let one = buf[0];
  for (var j = 0u; j < LOADS; j++) { acc += one; }
  out[i] = acc;
}
@compute @workgroup_size(64) fn buffer_load(@builtin(local_invocation_index) i: u32) {
  var acc = 0.0;
  for (var j = 0u; j < LOADS; j++) { acc += buf[j]; }
  out[i] = acc;
}
@compute @workgroup_size(64) fn bilinear(@builtin(local_invocation_index) i: u32) {
  var acc = 0.0;
  let uv = vec2f(f32(i) / 64 + 0.003, 0.4);
  for (var j = 0u; j < LOADS; j++) { acc += textureSampleLevel(t, s, uv, 0.0).x; }
  out[i] = acc;
}
"""


def expected_samples(texels: np.ndarray) -> np.ndarray:
    """Each invocation's red channel at its uv, bilinear by hand (numpy, clamp-to-edge): x =
    u * 64 - 0.5 = i - 0.308, y = 0.4 * 64 - 0.5 = 25.1."""
    red = texels[..., 0].astype(np.float64) / 255
    i = np.arange(64)
    x = (i / 64 + 0.003) * 64 - 0.5
    x0 = np.floor(x).astype(int)
    a = x - x0
    c0, c1 = np.clip(x0, 0, 63), np.clip(x0 + 1, 0, 63)
    rows = 0.9 * red[25] + 0.1 * red[26]
    return (1 - a) * rows[c0] + a * rows[c1]


def measure(sanitize: str, loads: int, repeat: int, kernels: Any) -> dict[str, float]:
    """Nanoseconds per iteration of each kernel (least of ``repeat`` rounds); ``kernels``:
    the empty, buffer and sample kernels by name."""
    empty, buffer_load, bilinear = (kernels[k] for k in ("empty", "buffer_load", "bilinear"))
    buf = np.ones(loads, np.float32)
    texels = np.random.default_rng(31).integers(0, 256, (64, 64, 4), dtype=np.uint8)
    tex = ash.Texture([texels])
    smp = ash.Sampler(mag_filter="linear", min_filter="linear")
    out = np.zeros(64, np.float32)
    runs = {"empty": lambda: ash.run(empty, 1, out=out, buf=buf, sanitize=sanitize),
            "buffer": lambda: ash.run(buffer_load, 1, out=out, buf=buf, sanitize=sanitize),
            "sample": lambda: ash.run(bilinear, 1, out=out, t=tex, s=smp, sanitize=sanitize)}
    want = {"empty": np.full(64, loads), "buffer": np.full(64, loads),
            "sample": loads * expected_samples(texels)}
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(repeat):
        for name, fn in runs.items():
            t = time.process_time()
            fn()
            times[name].append(time.process_time() - t)
            assert np.allclose(out, want[name], rtol=1e-4), (name, out[:4], want[name][:4])
    return {k: min(v) / (64 * loads) * 1e9 for k, v in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    LOADS[0] = args.loads
    print(f"asyncshader textures: {args.loads} iterations x 64 invocations, least of "
          f"{args.repeat} rounds, CPU time")
    python = {"empty": empty, "buffer_load": buffer_load, "bilinear": bilinear}
    wgsl = ash.load_wgsl(WGSL, name="textures.wgsl", constants={"LOADS": args.loads})
    for label, kernels, sanitize in (("Python", python, "off"), ("Python", python, "report"),
                                     ("loaded WGSL", wgsl, "off")):
        per = measure(sanitize, args.loads, args.repeat, kernels)
        load, sample = per["buffer"] - per["empty"], per["sample"] - per["empty"]
        print(f" {label} kernels, sanitize={sanitize!r}")
        print(f"  whole run per load            {per['buffer']:8.0f} ns")
        print(f"  whole run per bilinear sample {per['sample']:8.0f} ns")
        print(f"  ratio sample / load           {per['sample'] / per['buffer']:8.1f}x  "
              "(target: at most 10x)")
        print(f"  loop iteration (empty body)   {per['empty']:8.0f} ns")
        print(f"  load alone, over the loop     {load:8.0f} ns")
        print(f"  sample alone, over the loop   {sample:8.0f} ns  ({sample / max(load, 1):.0f}x "
              "the load alone)")


if __name__ == "__main__":
    main()
