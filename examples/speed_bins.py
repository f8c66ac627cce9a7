"""A histogram of speeds into a struct buffer of bins: atomics on struct members, a
pipeline-overridable bin count, a ``switch`` and a helper that writes through a pointer.

What this example teaches (WGSL concepts):

* ``struct Bin { count: atomic<u32>, weight: atomic<u32> }`` in a storage buffer: every
  invocation adds to its bin with ``atomicAdd(&bins[b].count, 1u)``, written
  ``await atomic_add(ptr(bins[b].count), 1)``; atomics on one member never race.
* ``override BINS: u32 = 4;`` is ``BINS = ash.override(u32, 4)``: one shader, a bin count
  chosen per dispatch (``overrides={"BINS": 8}``; on a GPU, the pipeline's constants).
* ``switch v % 3 { case 0: ... default: ... }`` is ``match v % 3:`` with ``case 0:`` and
  ``case _:``.
* ``fn clamp_bin(b: ptr<function, u32>)`` writes its caller's variable: ``clamp_bin(&b)`` is
  ``clamp_bin(ptr(b))``, and ``*b`` is ``b.value``.
* ``var<storage, read_write> seen: atomic<u32>;`` is a parameter ``Storage[atomic(u32)]``:
  one counter, bound to a one-element array.

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/speed_bins.py
"""

from __future__ import annotations

import numpy as np

import asyncshader as ash
from asyncshader import atomic_add, ptr, u32

WG = 64
BINS = ash.override(u32, 4)     # override BINS: u32 = 4u;


@ash.struct
class Bin:
    count: ash.atomic(u32)
    weight: ash.atomic(u32)


def clamp_bin(b):
    """The last bin also takes every speed past the others (``*b = min(*b, BINS - 1)``)."""
    if b.value >= BINS:
        b.value = BINS - 1


@ash.compute(workgroup_size=WG)
async def histogram(speeds: ash.Storage[u32], bins: ash.Storage[Bin],
                    seen: ash.Storage[ash.atomic(u32)], *, global_invocation_id: ash.vec3u):
    """Counts ``speeds`` into ``bins`` of 16 speeds each; slow multiples of 3 weigh 3."""
    v = speeds[global_invocation_id.x]
    b = v // 16
    clamp_bin(ptr(b))
    w = u32(1)
    match v % 3:
        case 0:
            w = u32(3)
        case _:
            w = u32(1)
    await atomic_add(ptr(bins[b].count), 1)
    await atomic_add(ptr(bins[b].weight), w)
    await atomic_add(ptr(seen), 1)


def setup() -> dict:
    """One dispatch's bindings, for the command line (``asyncshader run|wgsl|crosscheck
    examples/speed_bins.py::histogram``): 8 bins, chosen by the override."""
    speeds = np.random.default_rng(7).integers(0, 160, 128).astype(np.uint32)
    return {"workgroups": 2, "speeds": speeds, "bins": Bin.zeros(8),
            "seen": np.zeros(1, np.uint32), "overrides": {"BINS": 8}}


def expected(speeds: np.ndarray, n_bins: int) -> tuple[list[int], list[int]]:
    """The histogram by numpy: counts and weights per bin."""
    b = np.minimum(speeds // 16, n_bins - 1)
    w = np.where(speeds % 3 == 0, 3, 1)
    return (np.bincount(b, minlength=n_bins).tolist(),
            np.bincount(b, weights=w, minlength=n_bins).astype(int).tolist())


def main(n: int = 256) -> list[int]:
    speeds = np.random.default_rng(7).integers(0, 160, n).astype(np.uint32)
    for n_bins in (4, 8):
        bins, seen = Bin.zeros(n_bins), np.zeros(1, np.uint32)
        ash.run(histogram, n // WG, speeds=speeds, bins=bins, seen=seen,
                overrides={"BINS": n_bins}, schedule=ash.Random(1))
        counts, weights = expected(speeds, n_bins)
        ok = bins["count"].tolist() == counts and bins["weight"].tolist() == weights
        print(f"BINS={n_bins}: counts {bins['count'].tolist()} weights "
              f"{bins['weight'].tolist()} seen {int(seen[0])}; same as numpy: "
              f"{'yes' if ok and seen[0] == n else 'NO'}")
    return bins["count"].tolist()


if __name__ == "__main__":
    main()
