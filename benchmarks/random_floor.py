"""What a Random(seed) schedule that draws a pick at every step costs at the least: the
random-order bare trampoline of benchmarks/reduce.py with asyncshader's pieces added one at a
time, but no scheduler. Each row is a ratio against the typed bare trampoline run in order, in
the same process (the target for Random is 0.35 of it). Random keeps a random order per
round rather than drawing at every step (docs/concepts.md#strategies), which is how it gets
past this floor: the last row shows asyncshader itself.

Rows: random order and nothing else; plus an ``Invocation`` per coroutine (what errors, traces
and instruments name); plus the decision trace every run keeps (two entries per decision, so
any run can be replayed); plus the call-site check per barrier round; then asyncshader itself.

    python benchmarks/random_floor.py [--groups 64] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from array import array

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import reduce

import asyncshader as ash
from asyncshader._core.invocations import Group, Invocation, _sites

N = reduce.N


def random_loop(inp, out, groups, objects=False, trace=False, sites=False, seed=1):
    """The random-order trampoline, optionally with invocations, the trace and site checks."""
    uniform = random.Random(seed).random
    mem, ids = np.zeros(N, np.float32), [np.uint32(i) for i in range(max(N, groups))]
    decisions = array("I")
    record = decisions.append
    canon = 0
    for w in range(groups):
        mem[:] = 0
        coros = [reduce._bare_kernel(ids[i], ids[w], inp, out, mem) for i in range(N)]
        if objects:
            unit = Group("workgroup", w, "", "local_invocation_index")
            runnable = [Invocation(w * N + i, c, unit, None, None, None)
                        for i, c in enumerate(coros)]
        else:
            runnable = coros
        while runnable:
            waiting = []
            n = len(runnable)
            while n:
                pos = int(uniform() * n) if n > 1 else 0
                inv = runnable[pos]
                if trace and n > 1:
                    if pos:
                        record(canon)
                        record(inv.key)
                        canon = 0
                    else:
                        canon += 1
                try:
                    if objects:
                        inv.coro.send(inv.value)
                    else:
                        inv.send(None)
                    waiting.append(inv)
                except StopIteration:
                    pass
                del runnable[pos]
                n -= 1
            if sites and waiting:
                found = _sites(waiting)
                assert found.count(found[0]) == len(waiting)
            runnable = waiting


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    g = args.groups
    inp = np.random.default_rng(1).random(g * N, dtype=np.float32)
    expect = inp.reshape(g, N).sum(axis=1, dtype=np.float64)
    variants = [
        ("typed bare trampoline, in order", lambda out: reduce.run_bare_typed(inp, out, g)),
        ("random order", lambda out: random_loop(inp, out, g)),
        ("+ an Invocation per coroutine", lambda out: random_loop(inp, out, g, True)),
        ("+ the decision trace", lambda out: random_loop(inp, out, g, True, True)),
        ("+ call-site checks", lambda out: random_loop(inp, out, g, True, True, True)),
        ("asyncshader Random(seed=1), sanitize='off'",
         lambda out: ash.run(reduce.reduce256, g, inp=inp, out=out, schedule=ash.Random(1),
                             sanitize="off")),
    ]
    rows = reduce.interleaved(variants, g, expect, args.repeat)
    print(f"256-wide tree reduction, {g} workgroups, best of {args.repeat}")
    print(f"{'what the loop does':44s} {'invocations/s':>14s} {'vs typed bare':>14s}")
    for name, rate in rows:
        print(f"{name:44s} {rate:14,.0f} {rate / rows[0][1]:14.2f}")


if __name__ == "__main__":
    main()
