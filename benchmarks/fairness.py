"""PCT's fairness: correct spin loops pass, and PCT still finds the bugs it found.

    python benchmarks/fairness.py                          # 10 seeds (a few minutes)
    python benchmarks/fairness.py --seeds 2 --cap 20       # a smoke run
    python benchmarks/fairness.py --checkout /other/tree   # the figures of another checkout

1. Correct spin loops under PCT(seed, depth) for depths 1-4: puzzle 10's reference lock (four
   invocations take one lock with an atomic exchange) and a flag wait (three invocations wait
   for the fourth's store). Counted: runs that end in StepLimitError (a false alarm: a GPU
   runs them to the end) and runs whose output is wrong (must be none).
2. Runs to find a bug, median over the seeds (PCT(seed * 1_000_003, depth), each seed's runs
   seeded seed, seed + 1, ...; capped): examples/lost_update.py's lost update (depth 3), and
   puzzle 10 with its lock taken by a load and then a store (depths 1-4, two invocations in
   the critical section at once: a wrong ``data``). A run that ends in StepLimitError is not a
   find: it is the false alarm of part 1.

``--checkout`` runs another checkout's asyncshader (before-and-after figures).
"""

import argparse
import os
import statistics
import sys

import numpy as np

_HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
_ARGS = argparse.ArgumentParser()
_ARGS.add_argument("--seeds", type=int, default=10)
_ARGS.add_argument("--cap", type=int, default=500, help="runs per seed at most")
_ARGS.add_argument("--checkout", default=_HERE, help="the asyncshader checkout to measure")
OPTIONS = _ARGS.parse_args()
sys.path.insert(0, os.path.join(_HERE, "examples"))
sys.path.insert(0, OPTIONS.checkout)

import lost_update as lu  # noqa: E402

import asyncshader as ash  # noqa: E402
from asyncshader import atomic_exchange, atomic_load, atomic_store, ptr, u32  # noqa: E402


@ash.compute(workgroup_size=4)
async def lock_ok(lock: ash.Storage, data: ash.Storage):
    while await atomic_exchange(ptr(lock, 0), 1) != 0:
        pass
    d0 = await atomic_load(ptr(data, 0))
    d1 = await atomic_load(ptr(data, 1))
    await atomic_store(ptr(data, 0), d0 + 1)
    await atomic_store(ptr(data, 1), d1 + d0)
    await atomic_store(ptr(lock, 0), 0)


@ash.compute(workgroup_size=4)
async def lock_load_store(lock: ash.Storage, data: ash.Storage):
    while await atomic_load(ptr(lock, 0)) != 0:  # BUG: test, then set
        pass
    await atomic_store(ptr(lock, 0), 1)
    d0 = await atomic_load(ptr(data, 0))
    d1 = await atomic_load(ptr(data, 1))
    await atomic_store(ptr(data, 0), d0 + 1)
    await atomic_store(ptr(data, 1), d1 + d0)
    await atomic_store(ptr(lock, 0), 0)


@ash.compute(workgroup_size=4)
async def flag_wait(flag: ash.Storage, data: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 3:
        await atomic_store(ptr(data, 1), 7)
        await atomic_store(ptr(flag, 0), 1)
    else:
        while await atomic_load(ptr(flag, 0)) == 0:
            pass
        await atomic_add_data(data)


async def atomic_add_data(data):
    await ash.atomic_add(ptr(data, 0), await atomic_load(ptr(data, 1)))


def lock_setup():
    return {"lock": np.zeros(1, np.uint32), "data": np.zeros(2, np.uint32)}


def flag_setup():
    return {"flag": np.zeros(1, np.uint32), "data": np.zeros(2, np.uint32)}


def outcome(kernel, setup, want, strategy):
    """'ok', 'wrong' or 'step limit' for one run."""
    try:
        r = ash.run(kernel, 1, schedule=strategy, max_points_per_invocation=500, **setup())
    except ash.StepLimitError:
        return "step limit"
    return "ok" if r["data"].tolist() == want else "wrong"


def runs_to_find(kernel, setup, want, depth, seed, cap):
    for run in range(1, cap + 1):
        if outcome(kernel, setup, want, ash.PCT(seed * 1_000_003 + run, depth=depth)) \
                == "wrong":
            return run
    return cap


def main(seeds, cap):
    print(f"1. correct spin loops under PCT, {seeds} seeds per depth: runs ending in "
          "StepLimitError / wrong outputs")
    print("   kernel        depth 1   depth 2   depth 3   depth 4")
    for name, kernel, setup, want in (("lock (p10)", lock_ok, lock_setup, [4, 6]),
                                      ("flag wait", flag_wait, flag_setup, [21, 7])):
        cells = []
        for depth in range(1, 5):
            seen = [outcome(kernel, setup, want, ash.PCT(s, depth=depth)) for s in range(seeds)]
            assert "wrong" not in seen, (name, depth)
            cells.append(f"{seen.count('step limit'):>3} / 0")
        print(f"   {name:12} " + "   ".join(f"{c:7}" for c in cells))
    print(f"2. runs to find the bug (median over {seeds} seeds, cap {cap:,})")
    rows = [("lost update (example), depth 3", lu.lost_update, lu.setup, None, 3)]
    rows += [(f"p10 load-then-store lock, depth {d}", lock_load_store, lock_setup, [4, 6], d)
             for d in range(1, 5)]
    for name, kernel, setup, want, depth in rows:
        if want is None:  # the example's own check
            found = [ash.explore(kernel, setup, lu.check, ash.PCT(s * 1_000_003, depth=depth),
                                 runs=cap, store=None) for s in range(seeds)]
            runs = [r.runs if r.failures else cap for r in found]
        else:
            runs = [runs_to_find(kernel, setup, want, depth, s, cap) for s in range(seeds)]
        print(f"   {name:34} median {statistics.median(runs):7,.1f} (min {min(runs):,}, "
              f"max {max(runs):,}; {sum(r == cap for r in runs)} at the cap)")
    print(f"   (asyncshader from {os.path.abspath(os.path.dirname(ash.__file__))})")


if __name__ == "__main__":
    main(OPTIONS.seeds, OPTIONS.cap)
