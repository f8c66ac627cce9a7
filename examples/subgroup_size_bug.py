"""A kernel that assumes the subgroup size: right at 32, wrong at 8, found by exploring sizes.

What this example teaches (WGSL concepts):

* The subgroup size is the GPU's choice (``subgroup_size`` builtin): 32 on most desktop GPUs, 64
  on some AMD parts, 8 on Mesa's lavapipe, 4 on some mobile GPUs. Code written and tested on one
  GPU often hard-codes it.
* ``buggy_sum`` below sums 64 values with ``subgroupAdd`` and then lets the invocations at
  ``lid % 32 == 0`` publish "their subgroup's" sum: true only when subgroups have 32 members.
  At size 8 the two publishers hold sums of 8 values each; at 64 both hold the whole sum.
* ``ash.explore(..., subgroup_sizes=[4, 8, 32, 64])`` runs the kernel at each size (with the
  schedule strategy you choose) and reports the first failing run with its size.
  ``examples/subgroup_reduce.py`` is the fixed version: it reads ``subgroup_id`` and
  ``num_subgroups``.

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/subgroup_size_bug.py
"""

from __future__ import annotations

import numpy as np

import asyncshader as ash
from asyncshader import u32

WG = 64
halves = ash.workgroup(ash.array(u32, 2))
DATA = np.arange(1, WG + 1, dtype=np.uint32)  # sums to 2080


@ash.compute(workgroup_size=WG)
async def buggy_sum(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    """out[0] = sum(inp), assuming 32-wide subgroups (the bug)."""
    lid = local_invocation_index
    s = await ash.subgroup_add(inp[lid])
    if lid % 32 == 0:                  # BUG: "the first lane of each subgroup", if it has 32
        halves[lid // 32] = s
    await ash.workgroup_barrier()
    if lid == 0:
        out[0] = halves[0] + halves[1]


def setup() -> dict:
    return {"inp": DATA.copy(), "out": np.zeros(1, np.uint32)}


def check(result: ash.DispatchResult) -> None:
    assert int(result["out"][0]) == int(DATA.sum()), f"sum {int(result['out'][0])}"


def main() -> ash.ExploreReport:
    print(f"Sum of 1..{WG} = {int(DATA.sum())}")
    for size in (32, 8):
        r = ash.run(buggy_sum, 1, subgroup_size=size, **setup())
        print(f"  subgroup_size={size:2}: out[0] = {int(r['out'][0])}")
    report = ash.explore(buggy_sum, setup, check, "inorder", subgroup_sizes=[32, 4, 8, 64])
    failure = report.failures[0]
    print(f"explore over subgroup sizes [32, 4, 8, 64]: {report.runs} run(s), first failure: "
          f"run {failure.run}: {failure.error}")
    return report


if __name__ == "__main__":
    main()
