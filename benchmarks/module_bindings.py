"""What an access through a module-scope binding costs against the same access through a
parameter.

``buf = ash.storage(f32, ...)`` at module scope is swapped for the run's array while the run's
workgroups execute (docs/design.md, "Module-scope bindings"), so ``buf[i]`` in a shader should
cost what a parameter's ``buf[i]`` costs. Each kernel runs ``--loads`` loads and as many stores
per invocation in a loop, over ``--groups`` workgroups of 4 (each workgroup entry installs the
run's values); a kernel with the same loop and no memory access is the baseline subtracted
from both. Kernels are timed in alternation (``--repeat`` rounds, medians), with the race
detector on (the default, ``sanitize="report"``) and off.

    python benchmarks/module_bindings.py [--loads 2000] [--groups 8] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec3u

cells = ash.storage(f32, group=0, binding=1)


@ash.compute(workgroup_size=4)
async def empty(buf: ash.Storage[f32], n: u32, *, global_invocation_id: vec3u):
    i = global_invocation_id.x
    s = f32(0.0)
    for _ in range(n):
        s = s + 1.0
    if s < 0.0:  # (never: the same loop, no memory access)
        buf[i] = s


@ash.compute(workgroup_size=4)
async def parameter(buf: ash.Storage[f32], n: u32, *, global_invocation_id: vec3u):
    i = global_invocation_id.x
    s = f32(0.0)
    for _ in range(n):
        s = buf[i]
        buf[i] = s + 1.0


@ash.compute(workgroup_size=4)
async def module_scope(n: u32, *, global_invocation_id: vec3u):
    i = global_invocation_id.x
    s = f32(0.0)
    for _ in range(n):
        s = cells[i]
        cells[i] = s + 1.0


KERNELS = {"empty": empty, "parameter": parameter, "module_scope": module_scope}


def run_once(name: str, n: int, groups: int, sanitize: str) -> float:
    memory = np.ones(4 * groups, np.float32)
    bindings = {"cells": memory} if name == "module_scope" else {"buf": memory}
    start = time.perf_counter()
    ash.run(KERNELS[name], groups, n=n, sanitize=sanitize, **bindings)
    elapsed = time.perf_counter() - start
    assert memory.tolist() == [1.0 if name == "empty" else 1.0 + n] * (4 * groups)
    return elapsed


def measure(n: int, groups: int, repeat: int, sanitize: str) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in KERNELS}
    for name in KERNELS:
        run_once(name, 2, groups, sanitize)  # compile and warm up
    for _ in range(repeat):
        for name in KERNELS:
            times[name].append(run_once(name, n, groups, sanitize))
    return {k: statistics.median(v) for k, v in times.items()}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=2000)
    ap.add_argument("--groups", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    per = 4 * args.groups * 2 * args.loads  # accesses per dispatch: a load and a store each
    print(f"{'sanitize=':10s} {'parameter buf[i]':>17s} {'module-scope cells[i]':>22s} "
          f"{'ratio':>6s} (ns per access, the empty loop subtracted; asyncshader)")
    for sanitize in ("report", "off"):
        t = measure(args.loads, args.groups, args.repeat, sanitize)
        ns = {k: (t[k] - t["empty"]) / per * 1e9 for k in ("parameter", "module_scope")}
        base = max(ns["parameter"], 1.0)  # (tiny runs: noise)
        print(f"{sanitize:10s} {ns['parameter']:15.0f}ns {ns['module_scope']:20.0f}ns "
              f"{ns['module_scope'] / base:6.2f}")


if __name__ == "__main__":
    main()
