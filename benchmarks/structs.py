"""What a member access on a struct buffer, and a vector element of a buffer of vectors, cost
against an element access on a flat buffer.

The target: ``p[i].mass`` costs at most about twice ``buf[i]``. Each kernel runs
``--loads`` loads and as many stores per invocation in a loop; a kernel with the same loop and
no memory access is the baseline subtracted from all, so the ratios are the accesses' own cost.
Kernels are timed in alternation (``--repeat`` rounds, medians), with the race detector on
(the default, ``sanitize="report"``) and off.

Vectors: ``v = buf[i]; buf[i] = v + 1.0`` on a ``Storage[vec3f]`` buffer (``buf[i]`` is a
vec3f), against the same on an (n, 3) array bound without a vector element, where ``buf[i]``
is a numpy row and the shader wrote ``vec3f(buf[i])`` to get a vector (what kernels had to do
before declared vector buffers loaded vectors). Both access 3 components; the ratios are to
one flat element access.

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


@ash.compute(workgroup_size=4)
async def vector(buf: ash.Storage[vec3f], n: u32, local_invocation_index):
    i = local_invocation_index
    v = vec3f(0.0)
    for _ in range(n):
        v = buf[i]
        buf[i] = v + 1.0


@ash.compute(workgroup_size=4)
async def rows(buf, n: u32, local_invocation_index):
    i = local_invocation_index
    v = vec3f(0.0)
    for _ in range(n):
        v = vec3f(buf[i])  # (a numpy row: the vector made by hand)
        buf[i] = v + 1.0


KERNELS = {"empty": empty, "flat": flat, "member": member, "rows": rows, "vector": vector}


def run_once(name: str, n: int, sanitize: str) -> float:
    kernel = KERNELS[name]
    if name == "member":
        memory = Particle.zeros(4)
        memory["mass"] = 1.0
        bindings = {"p": memory}
    else:
        memory = np.ones((4, 3) if name in ("rows", "vector") else 4, np.float32)
        bindings = {"buf": memory}
    start = time.perf_counter()
    ash.run(kernel, 1, n=n, sanitize=sanitize, **bindings)
    elapsed = time.perf_counter() - start
    first = memory["mass"][0] if name == "member" else memory.flat[0]
    assert first == (1.0 if name == "empty" else 1.0 + n)
    return elapsed


def measure(n: int, repeat: int, sanitize: str) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in KERNELS}
    for name in KERNELS:
        run_once(name, 2, sanitize)  # compile and warm up
    for _ in range(repeat):
        for name in KERNELS:
            times[name].append(run_once(name, n, sanitize))
    return {k: statistics.median(v) for k, v in times.items()}


#: one access outside a dispatch, unwatched (what ``sanitize="off"`` runs): a load and a store
#: of a flat element, a struct member, a row made a vector by hand and a declared vector
ONE_ACCESS = {"flat": ("buf[i]", "buf[i] = x"), "member": ("p[i].mass", "p[i].mass = x"),
              "rows": ("vec3f(rows[i])", "rows[i] = v"), "vector": ("vecs[i]", "vecs[i] = v")}


def per_access(number: int, repeat: int) -> dict[str, tuple[float, float]]:
    """ns per load and per store of each of ONE_ACCESS, on the arrays a shader is given with
    ``sanitize="off"`` (medians of alternating rounds)."""
    from asyncshader.wgsl.struct_buffers import StructArray
    from asyncshader.wgsl.vec_arrays import vector_view

    ns = {"buf": np.ones(4, np.float32), "p": Particle.zeros(4).view(StructArray).shader_arg(),
          "rows": np.ones((4, 3), np.float32),
          "vecs": vector_view(np.ones((4, 3), np.float32), vec3f),
          "i": np.uint32(2), "x": np.float32(1.5), "v": vec3f(1.5, 2.5, 3.5), "vec3f": vec3f}
    rounds: dict[tuple[str, int], list[float]] = {}
    for _ in range(repeat):
        for name, stmts in ONE_ACCESS.items():
            for k, stmt in enumerate(stmts):
                rounds.setdefault((name, k), []).append(
                    timeit.timeit(stmt, globals=ns, number=number) / number * 1e9)
    assert ns["p"][2].mass == 1.5 and ns["buf"][2] == 1.5
    assert list(ns["vecs"][2]) == ns["rows"][2].tolist() == [1.5, 2.5, 3.5]
    return {name: (statistics.median(rounds[(name, 0)]), statistics.median(rounds[(name, 1)]))
            for name in ONE_ACCESS}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    per = 4 * 2 * args.loads  # accesses per dispatch: 4 invocations, a load and a store each
    print(f"{'sanitize=':10s} {'flat buf[i]':>12s} {'p[i].mass':>12s} {'ratio':>6s} "
          f"{'vec3f(row)':>12s} {'ratio':>6s} {'vec3f buf[i]':>12s} {'ratio':>6s} (ns per "
          "access, the empty loop subtracted; ratios to flat; asyncshader)")
    for sanitize in ("report", "off"):
        t = measure(args.loads, args.repeat, sanitize)
        ns = {k: (t[k] - t["empty"]) / per * 1e9 for k in ("flat", "member", "rows", "vector")}
        flat_ns = max(ns["flat"], 1.0)  # (tiny runs: noise)
        print(f"{sanitize:10s} {ns['flat']:10.0f}ns "
              + " ".join(f"{ns[k]:10.0f}ns {ns[k] / flat_ns:6.2f}"
                         for k in ("member", "rows", "vector")))
    one = per_access(max(args.loads * 10, 100), args.repeat)
    for k, what in enumerate(("load", "store")):
        fl = one["flat"][k]
        print(f"{what:10s} {fl:10.0f}ns " + " ".join(
            f"{one[n][k]:10.0f}ns {one[n][k] / fl:6.2f}" for n in ("member", "rows", "vector"))
            + ("  (one access, unwatched, outside a dispatch)" if k == 0 else ""))


if __name__ == "__main__":
    main()
