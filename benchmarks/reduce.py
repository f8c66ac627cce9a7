"""256-wide tree reduction (9 barriers per invocation): asyncshader against a bare trampoline.

Both run in this process on the same input; the figures to compare are the ratios, not the
absolute rates. When Oclgrind is installed (.ci/install-oclgrind), the same reduction as OpenCL C
runs under Oclgrind with its race detector (benchmarks/oclgrind_reduce.py) as the last row and
the column "vs Oclgrind+races" compares asyncshader's default run (race detector on) with it.
The bare trampoline is the floor DESIGN.md sets: hand-written coroutines, plain Python lists
for workgroup memory and plain ints for ids, driven by `coro.send` in a loop.
A second bare variant uses the same value types as asyncshader (numpy float32 memory, u32 ids),
to separate the scheduler's cost from the cost of WGSL-exact values.

    python benchmarks/reduce.py [--groups 256] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import types

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import asyncshader as ash
from asyncshader import f32, u32, vec3u, workgroup_barrier

N = 256

tile = ash.workgroup(ash.array(f32, N))


@ash.compute(workgroup_size=N)
async def reduce256(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                    workgroup_id: vec3u):
    i = local_invocation_index
    tile[i] = inp[workgroup_id.x * N + i]
    await workgroup_barrier()
    s = N // 2
    while s > 0:
        if i < s:
            tile[i] += tile[i + s]
        await workgroup_barrier()
        s //= 2
    if i == 0:
        out[workgroup_id.x] = tile[0]


# ------------------------------------------------------------------------- the bare trampoline
@types.coroutine
def _bare_barrier():
    yield None


async def _bare_kernel(i, w, inp, out, mem):
    mem[i] = inp[w * N + i]
    await _bare_barrier()
    s = N // 2
    while s > 0:
        if i < s:
            mem[i] += mem[i + s]
        await _bare_barrier()
        s //= 2
    if i == 0:
        out[w] = mem[0]


def run_bare(inp, out, groups, mem, ids):
    zeros = [0] * N
    for w in range(groups):
        mem[:] = zeros  # zero-init, as WGSL requires
        batch = [_bare_kernel(ids[i], ids[w], inp, out, mem) for i in range(N)]
        while batch:
            waiting = []
            for c in batch:
                try:
                    c.send(None)
                    waiting.append(c)
                except StopIteration:
                    pass
            batch = waiting


def run_bare_random(inp, out, groups, seed=1):
    """The typed bare trampoline, but each step picks a runnable coroutine uniformly at random
    (the per-step rule Random(seed) followed until it kept an order per round): what random
    interleaving costs by itself, picks included."""
    import random

    uniform = random.Random(seed).random
    mem, ids = np.zeros(N, np.float32), [np.uint32(i) for i in range(max(N, groups))]
    for w in range(groups):
        mem[:] = 0
        runnable = [_bare_kernel(ids[i], ids[w], inp, out, mem) for i in range(N)]
        while runnable:
            waiting = []
            while runnable:
                pos = int(uniform() * len(runnable))
                try:
                    runnable[pos].send(None)
                    waiting.append(runnable[pos])
                except StopIteration:
                    pass
                del runnable[pos]
            runnable = waiting


def run_bare_plain(inp, out, groups):
    run_bare(inp.tolist(), out, groups, [0.0] * N, list(range(max(N, groups))))


def run_bare_typed(inp, out, groups):
    run_bare(inp, out, groups, np.zeros(N, np.float32),
             [np.uint32(i) for i in range(max(N, groups))])


# ----------------------------------------------------------------------------------- measuring
def interleaved(variants, n_out, expect, repeat):
    """Best time of each variant over `repeat` rounds, the variants alternating within a round
    so that a slow spell of the machine hits all of them alike; checks every result."""
    best = [float("inf")] * len(variants)
    for _ in range(repeat):
        for k, (_, fn) in enumerate(variants):
            out = np.zeros(n_out, np.float32)
            t0 = time.perf_counter()
            fn(out)
            best[k] = min(best[k], time.perf_counter() - t0)
            assert np.allclose(out, expect, rtol=1e-4), "wrong reduction result"
    return [(name, n_out * N / t) for (name, _), t in zip(variants, best)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-oclgrind", action="store_true",
                    help="skip the Oclgrind column (it runs when Oclgrind is installed)")
    args = ap.parse_args(argv)
    g = args.groups
    inp = np.random.default_rng(1).random(g * N, dtype=np.float32)
    expect = inp.reshape(g, N).sum(axis=1, dtype=np.float64)
    variants = [
        ("bare trampoline (lists, ints)", lambda out: run_bare_plain(inp, out, g)),
        ("bare trampoline (f32 memory, u32 ids)", lambda out: run_bare_typed(inp, out, g)),
        ("bare trampoline (f32, u32, random order)", lambda out: run_bare_random(inp, out, g)),
        ("asyncshader InOrder, sanitize='off'",
         lambda out: ash.run(reduce256, g, inp=inp, out=out, sanitize="off")),
        ("asyncshader InOrder, sanitize='off', watchdog=None",
         lambda out: ash.run(reduce256, g, inp=inp, out=out, sanitize="off", watchdog=None)),
        ("asyncshader Random(seed=1), sanitize='off'",
         lambda out: ash.run(reduce256, g, inp=inp, out=out, schedule=ash.Random(1),
                             sanitize="off")),
        ("asyncshader InOrder, default (race detector on)",
         lambda out: _race_free(ash.run(reduce256, g, inp=inp, out=out))),
    ]
    rows = interleaved(variants, g, expect, args.repeat)
    if not args.no_oclgrind:
        from oclgrind_reduce import oclgrind_rate  # (benchmarks/ is on sys.path as a script)

        rate, note = oclgrind_rate(inp, g, args.repeat)
        if rate is None:
            print(f"({note}; no Oclgrind column)")
        else:
            rows.append(("Oclgrind 21.10, race detector on (OpenCL C)", rate))
    base = rows[0][1]
    typed = rows[1][1]
    peer = rows[-1][1] if rows[-1][0].startswith("Oclgrind") else None
    print(f"256-wide tree reduction, {g} workgroups ({g * N:,} invocations), best of "
          f"{args.repeat}")
    head = f"{'variant':48s} {'invocations/s':>14s} {'vs bare':>8s} {'vs typed bare':>14s}"
    print(head + (f" {'vs Oclgrind+races':>18s}" if peer else ""))
    for name, rate in rows:
        line = f"{name:48s} {rate:14,.0f} {rate / base:8.2f} {rate / typed:14.2f}"
        print(line + (f" {rate / peer:18.2f}" if peer else ""))
    return rows


def _race_free(result):
    assert not result.findings, ash.render_findings(result.findings)


if __name__ == "__main__":
    main()
