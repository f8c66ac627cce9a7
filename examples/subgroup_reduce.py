"""Subgroup reduction: summing a workgroup's values with ``subgroupAdd`` and one barrier.

What this example teaches (WGSL concepts):

* A *subgroup* is a set of invocations a GPU runs in lockstep (a warp, a wave). Its size is
  the GPU's, not yours: 32 on NVIDIA and Apple, 32 or 64 on AMD, 8 to 32 on Intel, 8 on Mesa's
  lavapipe. ``subgroup_size`` says which at run time; asyncshader lets you choose it per dispatch
  (``ash.run(..., subgroup_size=8)``; default 32).
* ``subgroupAdd(x)`` returns the sum of ``x`` over the subgroup to every member: no workgroup
  memory and no barrier inside the subgroup. A workgroup of WG invocations has
  ``num_subgroups`` subgroups (``subgroup_id`` says which one an invocation is in).
* Combining subgroups still needs workgroup memory and a barrier: each subgroup's first member
  stores its subgroup's sum, and invocation 0 adds ``num_subgroups`` of them. The code reads
  ``num_subgroups`` and ``subgroup_id`` instead of assuming a size, so it is right at every size
  (``examples/subgroup_size_bug.py`` is the version that assumes 32).

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/subgroup_reduce.py
"""

from __future__ import annotations

import numpy as np

import asyncshader as ash
from asyncshader import u32, vec3u

WG = 64
partials = ash.workgroup(ash.array(u32, 128 // 4))  # room for the most subgroups (size 4)


@ash.compute(workgroup_size=WG)
async def workgroup_sum(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                        workgroup_id: vec3u, subgroup_invocation_id: u32, subgroup_id: u32,
                        num_subgroups: u32):
    """out[w] = the sum of inp[w*WG : (w+1)*WG] (u32, wrapping)."""
    s = await ash.subgroup_add(inp[workgroup_id.x * WG + local_invocation_index])
    if subgroup_invocation_id == 0:        # one writer per subgroup
        partials[subgroup_id] = s
    await ash.workgroup_barrier()
    if local_invocation_index == 0:
        total = u32(0)
        for k in range(num_subgroups):
            total += partials[k]
        out[workgroup_id.x] = total


def setup() -> dict:
    """One dispatch's bindings, for the command line (``asyncshader run|wgsl|crosscheck
    examples/subgroup_reduce.py::workgroup_sum``): 3 workgroups of 64 values."""
    data = np.random.default_rng(5).integers(0, 1000, 3 * WG).astype(np.uint32)
    return {"workgroups": 3, "inp": data, "out": np.zeros(3, np.uint32)}


def main(groups: int = 4) -> dict[int, list[int]]:
    """The sums at every subgroup size WGSL allows, and numpy's."""
    rng = np.random.default_rng(7)
    data = rng.integers(0, 1000, groups * WG).astype(np.uint32)
    expected = data.reshape(groups, WG).sum(axis=1).tolist()
    print(f"Subgroup reduction of {groups} workgroups of {WG} values; numpy: {expected}")
    sums = {}
    for size in (4, 8, 16, 32, 64, 128):
        out = np.zeros(groups, np.uint32)
        ash.run(workgroup_sum, groups, inp=data, out=out, subgroup_size=size)
        sums[size] = out.tolist()
        print(f"  subgroup_size={size:3}: {sums[size]}  match: "
              f"{'yes' if sums[size] == expected else 'NO'}")
    return sums


if __name__ == "__main__":
    main()
