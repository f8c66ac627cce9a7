"""Tree reduction: summing a float32 array with workgroup memory and ``workgroupBarrier()``.

What this example teaches (WGSL concepts):

* ``var<workgroup>``: memory shared by the invocations of one workgroup, and only by them. Here
  ``scratch = ash.workgroup(ash.array(f32, WG))`` plays the part of
  ``var<workgroup> scratch: array<f32, WG>;``. Every workgroup gets its own zeroed copy.
* ``workgroupBarrier()``: a rendezvous. No invocation passes it until every invocation of its
  workgroup has reached it, so the writes made before it are visible to the reads made after it.
  It must be called in *uniform control flow*: every invocation reaches the same barrier the same
  number of times. That is why invocations past the end of the input do not return early; they
  load the identity (0.0) and keep taking part in the barriers.
* The tree: at each step the lower half of the active invocations adds in the value of its partner
  ``stride`` places up, then everybody meets at a barrier and ``stride`` halves: log2(WG) steps
  for WG values.
* Multi-pass reduction: a workgroup can only sum its own block, because WGSL has no barrier across
  workgroups. Each dispatch turns the input into one partial sum per workgroup, and we dispatch
  again on the partial sums until a single value remains.

The order of the additions is fixed by the tree, not by the schedule, so the result is
bit-identical under every schedule: try ``reduce_sum(x, schedule=ash.Random(1))``.

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/reduce.py
"""

from __future__ import annotations

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec3u, workgroup_barrier

#: Workgroup width: the number of invocations per workgroup and of values each one sums.
#: Any power of two works (the tree halves the stride down to 1); 256 is a common GPU choice.
WG = 256

# var<workgroup> scratch: array<f32, WG>;
scratch = ash.workgroup(ash.array(f32, WG))


@ash.compute(workgroup_size=WG)
async def block_sum(inp: ash.Storage, partial: ash.Storage, n: u32, *,
                    local_invocation_index: u32, workgroup_id: vec3u,
                    global_invocation_id: vec3u):
    """partial[w] = sum of inp[w*WG : (w+1)*WG] (elements at or past ``n`` count as 0)."""
    i = local_invocation_index
    g = global_invocation_id.x
    # 1. Every invocation loads one element into workgroup memory (0.0 past the end: no early
    #    return, because every invocation must reach every barrier below).
    scratch[i] = inp[g] if g < n else f32(0)
    await workgroup_barrier()          # all loads are done before anyone reads a neighbour
    # 2. The tree: WG/2 additions, then WG/4, ... then 1.
    stride = WG // 2
    while stride > 0:                  # uniform loop: every invocation runs the same steps
        if i < stride:
            scratch[i] += scratch[i + stride]
        await workgroup_barrier()      # this level's sums are done before the next level reads
        stride //= 2
    # 3. One invocation writes the workgroup's result.
    if i == 0:
        partial[workgroup_id.x] = scratch[0]


def reduce_sum(values: np.ndarray, *, schedule=None, max_live_workgroups: int = 1
               ) -> tuple[np.float32, int]:
    """Sums ``values`` (float32) on the simulated GPU; returns (sum, number of dispatches)."""
    data = np.ascontiguousarray(values, dtype=np.float32).ravel()
    if data.size == 0:
        return np.float32(0), 0
    dispatches = 0
    while True:
        groups = -(-data.size // WG)                 # ceil(n / WG) workgroups
        partial = np.zeros(groups, np.float32)
        ash.run(block_sum, workgroups=groups, inp=data, partial=partial, n=data.size,
                schedule=schedule, max_live_workgroups=max_live_workgroups)
        dispatches += 1
        if groups == 1:
            return partial[0], dispatches
        data = partial                               # next pass: sum the partial sums


def setup() -> dict:
    """One dispatch's bindings, for the command line (``asyncshader run|explore|wgsl|crosscheck
    examples/reduce.py::block_sum``): 1,000 values, 4 workgroups (the last one partly past
    ``n``)."""
    values = np.random.default_rng(1).random(1000, dtype=np.float32)
    return {"workgroups": 4, "inp": values, "partial": np.zeros(4, np.float32), "n": 1000}


def main() -> dict:
    """Sums 70,000 random float32 values; prints and returns the result next to numpy's."""
    rng = np.random.default_rng(2024)
    values = rng.random(70_000, dtype=np.float32)
    total, dispatches = reduce_sum(values)
    expected = values.sum(dtype=np.float64)
    rel = abs(float(total) - float(expected)) / float(expected)
    print(f"Tree reduction of {values.size:,} float32 values, {WG} invocations per workgroup")
    print(f"  dispatches (passes): {dispatches}")
    print(f"  asyncshader sum:     {float(total):.6f}")
    print(f"  numpy sum (f64):     {expected:.6f}")
    print(f"  relative error:      {rel:.2e}")
    ok = bool(rel < 1e-5)
    print("  match: yes" if ok else "  match: NO")
    return {"values": values, "sum": total, "numpy_sum": float(expected),
            "dispatches": dispatches, "ok": ok}


if __name__ == "__main__":
    main()
