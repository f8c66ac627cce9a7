"""Stream compaction: keeping the values that pass a test, packed, with a subgroup ballot and an
exclusive scan.

What this example teaches (WGSL concepts):

* ``subgroupBallot(keep)`` gives every member a ``vec4u`` bit mask: bit k is set if member k
  keeps its value. ``countOneBits`` of its words is how many the subgroup keeps.
* ``subgroupExclusiveAdd(u32(keep))`` is each member's place among the kept values of its
  subgroup: the number of kept values at lower subgroup invocation ids.
* ``subgroupElect()`` picks one member (the lowest active one) to reserve room for the whole
  subgroup with a single ``atomicAdd`` on a global counter; ``subgroupBroadcastFirst`` hands the
  reserved base to the others. One atomic per subgroup instead of one per value.
* The subgroups reserve in the order the schedule runs their atomics, so the packed output's
  *order* depends on the schedule (and on the GPU); its *contents* do not. The check compares
  sorted values, and the example shows two schedules giving two orders.

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/stream_compaction.py
"""

from __future__ import annotations

import numpy as np

import asyncshader as ash
from asyncshader import atomic_add, ptr, u32

WG = 64


@ash.compute(workgroup_size=WG)
async def compact(inp: ash.Storage[u32], out: ash.Storage[u32], count: ash.Storage[u32], *,
                  global_invocation_id: ash.vec3u):
    """Appends every odd value of ``inp`` to ``out``; ``count[0]`` ends as their number."""
    v = inp[global_invocation_id.x]
    keep = v % 2 == 1
    b = await ash.subgroup_ballot(keep)
    kept = ash.count_one_bits(b.x) + ash.count_one_bits(b.y) + ash.count_one_bits(
        b.z) + ash.count_one_bits(b.w)
    offset = await ash.subgroup_exclusive_add(u32(1) if keep else u32(0))
    base = u32(0)
    if await ash.subgroup_elect():
        base = await atomic_add(ptr(count, 0), kept)
    base = await ash.subgroup_broadcast_first(base)
    if keep:
        out[base + offset] = v


def setup() -> dict:
    """One dispatch's bindings, for the command line (``asyncshader run|wgsl|crosscheck
    examples/stream_compaction.py::compact``; where each value lands depends on the order of
    the atomics: cross-check with ``--ignore out``)."""
    data = np.random.default_rng(3).integers(0, 100, 128).astype(np.uint32)
    return {"workgroups": 2, "inp": data, "out": np.zeros(128, np.uint32),
            "count": np.zeros(1, np.uint32)}


def main(n: int = 256) -> list[int]:
    rng = np.random.default_rng(3)
    data = rng.integers(0, 100, n).astype(np.uint32)
    expected = sorted(int(v) for v in data if v % 2 == 1)
    print(f"Stream compaction of {n} values: {len(expected)} odd ones")
    orders = []
    for schedule in (ash.InOrder(), ash.Random(5)):
        out = np.zeros(n, np.uint32)
        count = np.zeros(1, np.uint32)
        ash.run(compact, n // WG, inp=data, out=out, count=count, schedule=schedule,
                subgroup_size=16, max_live_workgroups=n // WG)
        got = out[:count[0]].tolist()
        orders.append(got)
        print(f"  {type(schedule).__name__:8} count={int(count[0])} first values {got[:6]}  "
              f"same values as numpy: {'yes' if sorted(got) == expected else 'NO'}")
    same = "the same" if orders[0] == orders[1] else "a different"
    print(f"  the two schedules packed them in {same} order (each subgroup reserves its room "
          "when its atomic runs)")
    return orders[0]


if __name__ == "__main__":
    main()
