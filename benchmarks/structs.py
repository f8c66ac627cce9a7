"""What a member access on a struct buffer costs against an element access on a flat buffer.

The target (issue 18): ``p[i].mass`` costs at most about twice ``buf[i]``. Each kernel runs
``--loads`` loads and as many stores per invocation in a loop; a kernel with the same loop and
no memory access is the baseline subtracted from both, so the ratio is the accesses' own cost.
Kernels are timed in alternation (``--repeat`` rounds, medians), with the race detector on
(the default, ``sanitize="report"``) and off.

    python benchmarks/structs.py [--loads 2000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import timeit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec3f


@ash.struct
class Particle:
    position: vec3f
    mass: f32
    velocity: vec3f


@ash.compute(workgroup_size=4)
async def empty(buf, n: u32, local_invocation_index):
    i = local_invocation_index
    s = f32(0.0)
    for _ in range(n):
        s = s + 1.0
    if s < 0.0:  # (never: the same loop, no memory access)
        buf[i] = s


@ash.compute(workgroup_size=4)
async def flat(buf, n: u32, local_invocation_index):
    i = local_invocation_index
    s = f32(0.0)
    for _ in range(n):
        s = buf[i]
        buf[i] = s + 1.0


@ash.compute(workgroup_size=4)
async def member(p, n: u32, local_invocation_index):
    i = local_invocation_index
    s = f32(0.0)
    for _ in range(n):
        s = p[i].mass
        p[i].mass = s + 1.0


def run_once(kernel: object, n: int, sanitize: str) -> float:
    buf = np.ones(4, np.float32) if kernel is not member else None
    p = Particle.zeros(4)
    p["mass"] = 1.0
    start = time.perf_counter()
    if kernel is member:
        ash.run(kernel, 1, p=p, n=n, sanitize=sanitize)
        assert p["mass"][0] == 1.0 + n
    else:
        ash.run(kernel, 1, buf=buf, n=n, sanitize=sanitize)
        assert buf[0] == (1.0 if kernel is empty else 1.0 + n)
    return time.perf_counter() - start


def measure(n: int, repeat: int, sanitize: str) -> dict[str, float]:
    times: dict[str, list[float]] = {"empty": [], "flat": [], "member": []}
    kernels = {"empty": empty, "flat": flat, "member": member}
    for k in kernels.values():
        run_once(k, 2, sanitize)  # compile and warm up
    for _ in range(repeat):
        for name, k in kernels.items():
            times[name].append(run_once(k, n, sanitize))
    return {k: statistics.median(v) for k, v in times.items()}


def per_access(number: int, repeat: int) -> tuple[float, float, float, float]:
    """ns per load and per store outside a dispatch, unwatched (what ``sanitize="off"`` runs):
    ``buf[i]`` on a numpy array against ``p[i].mass`` on the shader's view of a struct buffer
    (medians of alternating rounds)."""
    from asyncshader.wgsl.struct_buffers import StructArray

    buf = np.ones(4, np.float32)
    p = Particle.zeros(4).view(StructArray).shader_arg()
    ns = {"buf": buf, "p": p, "i": np.uint32(2), "x": np.float32(1.5)}
    rounds: dict[str, list[float]] = {k: [] for k in ("fl", "ml", "fs", "ms")}
    stmts = {"fl": "buf[i]", "ml": "p[i].mass", "fs": "buf[i] = x", "ms": "p[i].mass = x"}
    for _ in range(repeat):
        for k, stmt in stmts.items():
            rounds[k].append(timeit.timeit(stmt, globals=ns, number=number) / number * 1e9)
    assert p[2].mass == 1.5 and buf[2] == 1.5
    fl, ml, fs, ms = (statistics.median(rounds[k]) for k in ("fl", "ml", "fs", "ms"))
    return fl, ml, fs, ms


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    per = 4 * 2 * args.loads  # accesses per dispatch: 4 invocations, a load and a store each
    print(f"{'sanitize=':10s} {'flat buf[i]':>12s} {'p[i].mass':>12s} {'ratio':>6s} "
          "(ns per access, the empty loop subtracted; asyncshader)")
    for sanitize in ("report", "off"):
        t = measure(args.loads, args.repeat, sanitize)
        flat_ns = (t["flat"] - t["empty"]) / per * 1e9
        member_ns = (t["member"] - t["empty"]) / per * 1e9
        print(f"{sanitize:10s} {flat_ns:10.0f}ns {member_ns:10.0f}ns "
              f"{member_ns / max(flat_ns, 1e-9):6.2f}")
    fl, ml, fs, ms = per_access(max(args.loads * 10, 100), args.repeat)
    print(f"{'load':10s} {fl:10.0f}ns {ml:10.0f}ns {ml / fl:6.2f}  (one access, unwatched, "
          "outside a dispatch)")
    print(f"{'store':10s} {fs:10.0f}ns {ms:10.0f}ns {ms / fs:6.2f}")


if __name__ == "__main__":
    main()
