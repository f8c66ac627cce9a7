"""Tiled matrix multiply ``C = A @ B`` with two workgroup tiles and a 2-D workgroup.

What this example teaches (WGSL concepts):

* A 2-D ``@workgroup_size(8, 8)``: ``local_invocation_id`` is ``(x, y)`` inside the tile and
  ``global_invocation_id`` is ``(column, row)`` of the output element the invocation computes.
  The dispatch is 2-D too: ``workgroups=(ceil(N/8), ceil(M/8))``.
* Tiling through ``var<workgroup>`` memory: the naive kernel reads every element of A and B
  from (slow) global memory N or M times. Here a workgroup walks along the K dimension one 8x8
  tile at a time; each invocation loads ONE element of the A tile and ONE of the B tile into
  workgroup memory, and then each invocation reads 8 values from each tile. Global reads drop by
  the tile size.
* The two barriers of the loop, and why both are needed:
  - after loading: nobody may multiply before every element of both tiles has been written;
  - after multiplying: nobody may load the NEXT tile over values a slower neighbour still reads.
* Bounds: matrices whose sizes are not multiples of 8 pad the tiles with zeros, and invocations
  outside C still load and take part in the barriers (uniform control flow), but store nothing.
* Storage buffers are flat arrays, as in WGSL: element (r, c) of an M x K row-major matrix is at
  ``r * K + c``.

f32 accumulation rounds after every multiply-add, so the comparison with numpy (which may sum in
another order, or in higher precision) uses a relative tolerance.

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/matmul.py
"""

from __future__ import annotations

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec3u, workgroup_barrier

TILE = 8

# var<workgroup> tile_a: array<f32, 64>;   var<workgroup> tile_b: array<f32, 64>;
tile_a = ash.workgroup(ash.array(f32, TILE * TILE))
tile_b = ash.workgroup(ash.array(f32, TILE * TILE))


@ash.compute(workgroup_size=(TILE, TILE))
async def matmul_tiled(a: ash.Storage, b: ash.Storage, c: ash.Storage, m: u32, n: u32, k: u32,
                       *, local_invocation_id: vec3u, global_invocation_id: vec3u):
    """c (m x n) = a (m x k) @ b (k x n), all row-major float32."""
    lx, ly = local_invocation_id.x, local_invocation_id.y
    col, row = global_invocation_id.x, global_invocation_id.y
    acc = f32(0)
    num_tiles = (k + TILE - 1) // TILE          # uniform: the same for every invocation
    for t in range(num_tiles):
        # Load: this invocation fetches a[row, t*8 + lx] and b[t*8 + ly, col] (0 if outside).
        a_col = t * TILE + lx
        b_row = t * TILE + ly
        tile_a[ly * TILE + lx] = a[row * k + a_col] if row < m and a_col < k else f32(0)
        tile_b[ly * TILE + lx] = b[b_row * n + col] if b_row < k and col < n else f32(0)
        await workgroup_barrier()    # both tiles complete before anyone multiplies
        for j in range(TILE):
            acc += tile_a[ly * TILE + j] * tile_b[j * TILE + lx]
        await workgroup_barrier()    # everyone done reading before the next tile overwrites
    if row < m and col < n:
        c[row * n + col] = acc


def matmul(a: np.ndarray, b: np.ndarray, *, schedule=None, max_live_workgroups: int = 1
           ) -> np.ndarray:
    """``a @ b`` (as float32) on the simulated GPU."""
    a = np.ascontiguousarray(a, dtype=np.float32)
    b = np.ascontiguousarray(b, dtype=np.float32)
    (m, k), (k2, n) = a.shape, b.shape
    if k != k2:
        raise ValueError(f"shapes {a.shape} and {b.shape} do not multiply")
    c = np.zeros(m * n, np.float32)
    groups = (-(-n // TILE), -(-m // TILE))     # x covers columns, y covers rows
    ash.run(matmul_tiled, workgroups=groups, a=a.ravel(), b=b.ravel(), c=c, m=m, n=n, k=k,
            schedule=schedule, max_live_workgroups=max_live_workgroups)
    return c.reshape(m, n)


def setup() -> dict:
    """One dispatch's bindings, for the command line (``asyncshader run|wgsl|crosscheck
    examples/matmul.py::matmul_tiled``): a (20 x 28) @ (28 x 12) product, edge tiles
    included."""
    rng = np.random.default_rng(3)
    a, b = rng.random(20 * 28, np.float32), rng.random(28 * 12, np.float32)
    return {"workgroups": (2, 3), "a": a, "b": b, "c": np.zeros(20 * 12, np.float32),
            "m": 20, "n": 12, "k": 28}


def main() -> dict:
    """Multiplies a 20x28 by a 28x12 matrix (sizes that are not multiples of 8)."""
    rng = np.random.default_rng(11)
    a = rng.standard_normal((20, 28)).astype(np.float32)
    b = rng.standard_normal((28, 12)).astype(np.float32)
    c = matmul(a, b)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    err = float(np.max(np.abs(c - expected)))
    ok = bool(np.allclose(c, expected, rtol=1e-4, atol=1e-4))
    groups = (-(-b.shape[1] // TILE), -(-a.shape[0] // TILE))
    print(f"Tiled matmul: ({a.shape[0]}x{a.shape[1]}) @ ({b.shape[0]}x{b.shape[1]}) with "
          f"{TILE}x{TILE} tiles, workgroups={groups}")
    print(f"  C[0, :4]       = {np.array2string(c[0, :4], precision=4)}")
    print(f"  numpy C[0, :4] = {np.array2string(expected[0, :4].astype(np.float32), precision=4)}")
    print(f"  max |C - A@B|  = {err:.2e}")
    print("  match: yes" if ok else "  match: NO")
    return {"a": a, "b": b, "c": c, "max_abs_error": err, "ok": ok}


if __name__ == "__main__":
    main()
