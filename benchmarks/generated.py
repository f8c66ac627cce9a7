"""A generated kernel against the hand-written one: the 256-wide tree reduction of
benchmarks/reduce.py, once as written in Python (``reduce256``), once as a WGSL front-end will
generate it (``asyncshader.wgsl.generated.compile_generated``: a Python tree positioned at the
WGSL lines, compiled under the .wgsl file's name, operators already in their WGSL form,
module-scope bindings as in WGSL).

Here the generated code is Python text whose line N is the code of WGSL line N (as the
front-end's positioned tree will be). The two kernels alternate (``--repeat`` rounds, best of
each), with the race detector on (the default) and off; the figure is the ratio
generated / hand-written in invocations per second (1.0: the same speed).

    python benchmarks/generated.py [--groups 64] [--repeat 5] [--inline-constants]
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import asyncshader as ash
from asyncshader.wgsl.generated import compile_generated

sys.path.insert(0, os.path.dirname(__file__))
from reduce import N, reduce256  # (the hand-written kernel)

WGSL = """\
var<workgroup> tile: array<f32, 256>;
@group(0) @binding(0) var<storage, read> inp: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) wid: vec3u) {
    tile[i] = inp[wid.x * 256u + i];
    workgroupBarrier();
    var s = 128u;
    while (s > 0u) {
        if (i < s) {
            tile[i] = tile[i] + tile[i + s];
        }
        workgroupBarrier();
        s = s / 2u;
    }
    if (i == 0u) {
        out[wid.x] = tile[0];
    }
}
"""

# line N of the generated code stands for line N of WGSL. As the front-end will, the code
# names its constants once (on the entry point's line: numpy scalars made at load, not at every
# use) and writes `s // 2` for `s / 2u`: the type checker knows s is u32 and the divisor a
# nonzero constant, where Python's `//` is WGSL's `/` (a call of ash.u32 at every use costs
# as much as the rest of the loop: docs/performance.md)
GENERATED = """\
tile = ash.workgroup(ash.array(ash.f32, 256))
inp = ash.storage(ash.f32, group=0, binding=0, access="read")
out = ash.storage(ash.f32, group=0, binding=1)
_u0, _u128, _u256 = ash.u32(0), ash.u32(128), ash.u32(256)
async def main(*, local_invocation_index: ash.u32, workgroup_id: ash.vec3u):
    i = local_invocation_index; wid = workgroup_id; tile[i] = inp[wid.x * _u256 + i]
    await ash.workgroup_barrier()
    s = _u128
    while s > _u0:
        if i < s:
            tile[i] = tile[i] + tile[i + s]

        await ash.workgroup_barrier()
        s = s // 2

    if i == _u0:
        out[wid.x] = tile[_u0]
"""


def generated_kernel(inline_constants: bool = False) -> ash.ComputeKernel:
    """The generated kernel; ``inline_constants``: with ``ash.u32(N)`` made at every use, as a
    naive generator would write them."""
    text = GENERATED
    if inline_constants:  # (the shader's lines, below the constants' line 4)
        head, body = text.split("async def", 1)
        text = head + "async def" + re.sub(r"\b_u(\d+)\b", r"ash.u32(\1)", body)
    ns = compile_generated(ast.parse(text), "reduce.wgsl", WGSL, {"ash": ash})
    return ash.compute(workgroup_size=N)(ns["main"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--inline-constants", action="store_true",
                        help="generate ash.u32(N) at every use instead of named constants")
    args = parser.parse_args(argv)
    g = args.groups
    inp = np.random.default_rng(0).random(g * N, dtype=np.float32)
    expect = inp.reshape(g, N).sum(axis=1, dtype=np.float64)
    generated = generated_kernel(args.inline_constants)
    print(f"256-wide tree reduction, {g} workgroups ({g * N:,} invocations), best of "
          f"{args.repeat} alternating rounds; invocations/s")
    print(f"{'sanitize=':<10} {'asyncshader hand-written':>26} {'generated (reduce.wgsl)':>26}"
          f" {'ratio':>7}")
    for sanitize in ("report", "off"):
        best = {"hand": float("inf"), "generated": float("inf")}
        for _ in range(args.repeat):
            for name, kernel in (("hand", reduce256), ("generated", generated)):
                out = np.zeros(g, np.float32)
                t0 = time.perf_counter()
                ash.run(kernel, g, sanitize=sanitize, inp=inp, out=out)
                best[name] = min(best[name], time.perf_counter() - t0)
                np.testing.assert_allclose(out, expect, rtol=1e-5)  # each run checks itself
        rate = {k: g * N / t for k, t in best.items()}
        print(f"{sanitize:<10} {rate['hand']:>26,.0f} {rate['generated']:>26,.0f} "
              f"{rate['generated'] / rate['hand']:>7.2f}")


if __name__ == "__main__":
    main()
