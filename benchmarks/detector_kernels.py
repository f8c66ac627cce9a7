"""The race detector's cost on three ordinary kernels: a tiled matmul (64^3, 8x8 tiles in
workgroup memory), a 3x3 blur of a 2-D image, and a block sum (a workgroup tree reduction).
Each kernel runs with the detector on (the default) and off (``sanitize="off"``), alternating
within each round, best of ``--repeat``; the ratio default/off is printed per kernel, measured in
the same run. Every result is checked against numpy.

    python benchmarks/detector_kernels.py [--repeat 3] [--kernels matmul blur blocksum]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import asyncshader as ash
from asyncshader import u32, vec3u

# ------------------------------------------------------------------------ tiled matmul
N, TILE = 64, 8
tile_a = ash.workgroup(ash.array(ash.array(ash.f32, TILE), TILE))
tile_b = ash.workgroup(ash.array(ash.array(ash.f32, TILE), TILE))


@ash.compute(workgroup_size=(TILE, TILE))
async def matmul(a: ash.Storage, b: ash.Storage, c: ash.Storage, *,
                 global_invocation_id: vec3u, local_invocation_id: vec3u):
    row, col = global_invocation_id.y, global_invocation_id.x
    ty, tx = local_invocation_id.y, local_invocation_id.x
    acc = 0.0
    for t in range(N // TILE):
        tile_a[ty, tx] = a[row, t * TILE + tx]
        tile_b[ty, tx] = b[t * TILE + ty, col]
        await ash.workgroup_barrier()
        for k in range(TILE):
            acc += tile_a[ty, k] * tile_b[k, tx]
        await ash.workgroup_barrier()
    c[row, col] = acc


def matmul_case():
    rng = np.random.default_rng(1)
    a = rng.random((N, N), dtype=np.float32)
    b = rng.random((N, N), dtype=np.float32)

    def run(sanitize):
        c = np.zeros((N, N), np.float32)
        ash.run(matmul, (N // TILE, N // TILE), a=a, b=b, c=c, sanitize=sanitize)
        np.testing.assert_allclose(c, a @ b, rtol=1e-4)
    return f"tiled matmul {N}^3, {TILE}x{TILE} tiles", run


# ----------------------------------------------------------------------------- 3x3 blur
H = W = 64


@ash.compute(workgroup_size=(8, 8))
async def blur(src: ash.Storage, dst: ash.Storage, *, global_invocation_id: vec3u):
    x, y = int(global_invocation_id.x), int(global_invocation_id.y)
    s = 0.0
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            yy = min(max(y + dy, 0), H - 1)
            xx = min(max(x + dx, 0), W - 1)
            s += src[yy, xx]
    dst[y, x] = s / 9.0


def blur_case():
    src = np.random.default_rng(2).random((H, W), dtype=np.float32)
    padded = np.pad(src, 1, mode="edge")
    expect = sum(padded[1 + dy:1 + dy + H, 1 + dx:1 + dx + W]
                 for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / 9.0

    def run(sanitize):
        dst = np.zeros((H, W), np.float32)
        ash.run(blur, (W // 8, H // 8), src=src, dst=dst, sanitize=sanitize)
        np.testing.assert_allclose(dst, expect, rtol=1e-5)
    return f"3x3 blur {H}x{W}", run


# ---------------------------------------------------------------------------- block sum
BLOCK, BLOCKS = 64, 64
partial = ash.workgroup(ash.array(ash.f32, BLOCK))


@ash.compute(workgroup_size=BLOCK)
async def block_sum(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                    workgroup_id: vec3u, global_invocation_id: vec3u):
    i = local_invocation_index
    partial[i] = inp[global_invocation_id.x]
    await ash.workgroup_barrier()
    s = BLOCK // 2
    while s > 0:
        if i < s:
            partial[i] += partial[i + s]
        await ash.workgroup_barrier()
        s //= 2
    if i == 0:
        out[workgroup_id.x] = partial[0]


def block_sum_case():
    inp = np.random.default_rng(3).random(BLOCK * BLOCKS, dtype=np.float32)

    def run(sanitize):
        out = np.zeros(BLOCKS, np.float32)
        ash.run(block_sum, BLOCKS, inp=inp, out=out, sanitize=sanitize)
        np.testing.assert_allclose(out, inp.reshape(BLOCKS, BLOCK).sum(1), rtol=1e-4)
    return f"block sum {BLOCKS} blocks of {BLOCK}", run


CASES = {"matmul": matmul_case, "blur": blur_case, "blocksum": block_sum_case}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kernels", nargs="+", choices=list(CASES), default=list(CASES))
    args = ap.parse_args(argv)
    print(f"{'kernel':36s} {'sanitize=off':>13s} {'default':>9s} {'ratio':>7s}")
    for name in args.kernels:
        title, run = CASES[name]()
        best = {}
        for _ in range(args.repeat):
            for mode in ("off", None):  # None: the default (the detector on)
                t0 = time.perf_counter()
                run(mode)
                best[mode] = min(best.get(mode, float("inf")), time.perf_counter() - t0)
        print(f"{title:36s} {best['off']:12.3f}s {best[None]:8.3f}s "
              f"{best[None] / best['off']:6.1f}x", flush=True)


if __name__ == "__main__":
    main()
