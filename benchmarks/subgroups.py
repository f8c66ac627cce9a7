"""subgroupAdd rounds over a 64-wide workgroup: asyncshader against a bare trampoline doing the
same rendezvous and sum.

Each invocation does ROUNDS rounds of ``v = subgroupAdd(v)`` (u32, wrapping) with one 64-wide
subgroup per workgroup. The bare trampoline is the floor: hand-written coroutines that yield
their value, and a loop that sends each round's sum back, once with plain ints (mod 2**32) and
once with numpy u32 values (what asyncshader's values are). The figures to compare are the
ratios, measured in the same run, alternating the variants; medians of ``--repeat`` rounds.

    python benchmarks/subgroups.py [--groups 64] [--rounds 16] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import types

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import asyncshader as ash
from asyncshader import u32

N = 64
ROUNDS = 16


@ash.compute(workgroup_size=N, subgroup_size=N)
async def rounds(out: ash.Storage, *, local_invocation_index: u32, workgroup_id: ash.vec3u):
    v = local_invocation_index
    for _ in range(ROUNDS):
        v = await ash.subgroup_add(v)
    out[workgroup_id.x * N + local_invocation_index] = v


# ------------------------------------------------------------------------- the bare trampoline
@types.coroutine
def _deposit(v):
    return (yield v)


async def _bare(v):
    for _ in range(ROUNDS):
        v = await _deposit(v)
    return v


def run_bare(out, groups, ids, wrap):
    for w in range(groups):
        coros = [_bare(ids[i]) for i in range(N)]
        values = [c.send(None) for c in coros]
        while True:
            total = wrap(values)
            try:
                values = [c.send(total) for c in coros]
            except StopIteration as stop:  # every member ends in the same round
                out[w * N] = stop.value
                out[w * N + 1:(w + 1) * N] = stop.value
                break


def _sum_ints(values):
    return sum(values) & 0xFFFFFFFF


def _sum_u32(values):
    total = values[0]
    for v in values[1:]:
        total = total + v
    return total


def expected(groups):
    v = np.arange(N, dtype=np.uint64)
    for _ in range(ROUNDS):
        v = np.full(N, v.sum() % 2**32, np.uint64)
    return np.tile(v, groups).astype(np.uint32)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    g = args.groups
    want = expected(g)
    ints, u32s = list(range(N)), [np.uint32(i) for i in range(N)]
    variants = [
        ("bare trampoline (ints)", lambda out: run_bare(out, g, ints, _sum_ints)),
        ("bare trampoline (u32 values)", lambda out: run_bare(out, g, u32s, _sum_u32)),
        ("asyncshader InOrder, sanitize='off'",
         lambda out: ash.run(rounds, g, out=out, sanitize="off")),
        ("asyncshader InOrder, default",
         lambda out: ash.run(rounds, g, out=out)),
    ]
    times: list[list[float]] = [[] for _ in variants]
    with np.errstate(over="ignore"):
        for _ in range(args.repeat):
            for k, (_, fn) in enumerate(variants):
                out = np.zeros(g * N, np.uint32)
                t0 = time.perf_counter()
                fn(out)
                times[k].append(time.perf_counter() - t0)
                assert (out == want).all(), "wrong subgroupAdd result"
    rates = [g * N * ROUNDS / statistics.median(t) for t in times]
    print(f"subgroupAdd rounds: {g} workgroups of {N}, {ROUNDS} rounds each "
          f"({g * N * ROUNDS:,} invocation-rounds), median of {args.repeat}")
    print(f"{'variant':40s} {'rounds/s':>12s} {'vs bare ints':>13s} {'vs bare u32':>12s}")
    for (name, _), rate in zip(variants, rates):
        print(f"{name:40s} {rate:12,.0f} {rate / rates[0]:13.2f} {rate / rates[1]:12.2f}")
    return rates


if __name__ == "__main__":
    main()
