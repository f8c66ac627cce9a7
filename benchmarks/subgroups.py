"""subgroupAdd rounds over a 64-wide workgroup: asyncshader against a bare trampoline doing the
same rendezvous and sum.

Each invocation does ROUNDS rounds of ``v = subgroupAdd(v)`` (u32, wrapping) with one 64-wide
subgroup per workgroup. The bare trampoline is the floor: hand-written coroutines that yield
their value, and a loop that sends each round's sum back, once with plain ints (mod 2**32) and
once with numpy u32 values (what asyncshader's values are). The figures to compare are the
ratios, measured in the same run, alternating the variants; medians of ``--repeat`` rounds.

Two figures: the whole dispatch (16 rounds, with what a dispatch costs besides: making the
invocations, the kernel's store, their return), and *a round* alone: each variant also runs a
one-round version, and the round's cost is the difference divided by 15 (the target: "a
subgroupAdd round at least 0.5x a bare trampoline doing the same rendezvous and sum").

    python benchmarks/subgroups.py [--groups 64] [--repeat 5]
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


@ash.compute(workgroup_size=N, subgroup_size=N)
async def one_round(out: ash.Storage, *, local_invocation_index: u32, workgroup_id: ash.vec3u):
    v = local_invocation_index
    v = await ash.subgroup_add(v)
    out[workgroup_id.x * N + local_invocation_index] = v


# ------------------------------------------------------------------------- the bare trampoline
@types.coroutine
def _deposit(v):
    return (yield v)


async def _bare(v, rounds):
    for _ in range(rounds):
        v = await _deposit(v)
    return v


def run_bare(out, groups, ids, wrap, rounds=ROUNDS):
    for w in range(groups):
        coros = [_bare(ids[i], rounds) for i in range(N)]
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


def expected(groups, rounds=ROUNDS):
    v = np.arange(N, dtype=np.uint64)
    for _ in range(rounds):
        v = np.full(N, v.sum() % 2**32, np.uint64)
    return np.tile(v, groups).astype(np.uint32)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    g = args.groups
    ints, u32s = list(range(N)), [np.uint32(i) for i in range(N)]
    variants = [  # name, then the run of ROUNDS rounds and of one round
        ("bare trampoline (ints)", lambda out, r: run_bare(out, g, ints, _sum_ints, r)),
        ("bare trampoline (u32 values)", lambda out, r: run_bare(out, g, u32s, _sum_u32, r)),
        ("asyncshader InOrder, sanitize='off'",
         lambda out, r: ash.run(rounds if r == ROUNDS else one_round, g, out=out,
                                sanitize="off")),
        ("asyncshader InOrder, default",
         lambda out, r: ash.run(rounds if r == ROUNDS else one_round, g, out=out)),
    ]
    want = {r: expected(g, r) for r in (ROUNDS, 1)}
    times: dict[tuple[int, int], list[float]] = {}
    with np.errstate(over="ignore"):
        for _ in range(args.repeat):
            for k, (_, fn) in enumerate(variants):
                for r in (ROUNDS, 1):
                    out = np.zeros(g * N, np.uint32)
                    t0 = time.perf_counter()
                    fn(out, r)
                    times.setdefault((k, r), []).append(time.perf_counter() - t0)
                    assert (out == want[r]).all(), "wrong subgroupAdd result"
    whole = [g * N * ROUNDS / statistics.median(times[k, ROUNDS]) for k in range(len(variants))]
    # a round: the median over repetitions of (t(16 rounds) - t(1 round)) / 15
    per_round = [g * N * (ROUNDS - 1) / max(1e-9, statistics.median(
        [a - b for a, b in zip(times[k, ROUNDS], times[k, 1])])) for k in range(len(variants))]
    print(f"subgroupAdd rounds: {g} workgroups of {N}, {ROUNDS} rounds each "
          f"({g * N * ROUNDS:,} invocation-rounds), median of {args.repeat}")
    print(f"{'variant':38s} {'rounds/s':>11s} {'vs ints':>8s} {'vs u32':>7s}"
          f" {'a round: /s':>12s} {'vs ints':>8s} {'vs u32':>7s}")
    for (name, _), rate, one in zip(variants, whole, per_round):
        print(f"{name:38s} {rate:11,.0f} {rate / whole[0]:8.2f} {rate / whole[1]:7.2f}"
              f" {one:12,.0f} {one / per_round[0]:8.2f} {one / per_round[1]:7.2f}")
    return whole, per_round


if __name__ == "__main__":
    main()
