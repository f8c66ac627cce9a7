"""What stepping by hand costs: the stepper (asyncshader.stepper) against a plain dispatch of
the same kernel under the same strategy, in the same process, alternating, medians.

The kernel: one workgroup of ``--size`` invocations, each passing 4 atomics (scheduling points)
and 2 barriers: ``size * 7`` steps. Rows, as ratios against ``ash.run(schedule=Reverse())``
(the general loop, a decision at every step, as the stepper makes):

* ``run_with(Reverse())``: the stepper taking every step itself (one generator resume each);
* ``pick`` per step: the caller choosing each step through ``pick`` (what a person or a
  notebook does);
* ``undo()`` at the end: one undo after the whole run, which re-runs every step but the last.

    python benchmarks/stepper.py [--size 64] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import asyncshader as ash
from asyncshader import atomic_add, ptr, u32, workgroup_barrier


def make_kernel(size: int):
    @ash.compute(workgroup_size=size)
    async def kernel(count: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
        i = local_invocation_index
        for _ in range(2):
            await atomic_add(ptr(count, 0), 1)
            await atomic_add(ptr(count, 0), 1)
            await workgroup_barrier()
        out[i] = count[0]
    return kernel


def bindings(size: int) -> dict:
    return {"count": np.zeros(1, np.uint32), "out": np.zeros(size, np.uint32)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    size = args.size
    kernel = make_kernel(size)
    expected = None

    def plain():
        r = ash.run(kernel, 1, schedule=ash.Reverse(), sanitize="off", **bindings(size))
        return r["out"].tolist()

    def run_with():
        s = ash.stepper(kernel, 1, sanitize="off", **bindings(size)).run_with(ash.Reverse())
        return s.result["out"].tolist()

    def picks():
        s = ash.stepper(kernel, 1, sanitize="off", **bindings(size))
        while not s.done:
            s.pick(s.runnable[-1])  # Reverse's choice, made by hand
        return s.result["out"].tolist()

    stepper = ash.stepper(kernel, 1, sanitize="off", **bindings(size)).run_with(ash.Reverse())
    steps = stepper.steps

    def undo():
        stepper.undo()
        stepper.pick(stepper.runnable[-1])  # (the last step again, for the next repetition)
        return stepper.result["out"].tolist()

    rows = {"ash.run(schedule=Reverse())": plain, "stepper run_with(Reverse())": run_with,
            "stepper pick per step": picks, "stepper undo() at the end": undo}
    times: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(args.repeat):  # alternating
        for name, fn in rows.items():
            t = time.perf_counter()
            got = fn()
            times[name].append(time.perf_counter() - t)
            if expected is None:
                expected = got
            assert got == expected, f"{name}: {got} != {expected}"
    base = statistics.median(times["ash.run(schedule=Reverse())"])
    print(f"asyncshader stepper: one workgroup of {size}, {steps} steps, "
          f"median of {args.repeat}")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"  {name:32} {med * 1e3:8.2f} ms  {med / base:6.2f}x  "
              f"{med / steps * 1e6:7.1f} us/step")


if __name__ == "__main__":
    main()
