"""What interleaving workgroups costs Random: the 256-wide reduction of benchmarks/reduce.py
with ``max_live_workgroups`` 1, 2 and 8, under ``Random(1)``, and under a Random that reads the
whole runnable set at every decision (``FullPass``: how Random decided before it kept its order
between decisions; the same picks, so the same schedule). Ratios are against
``max_live_workgroups=1`` in the same process.

With one live workgroup Random runs on the scheduler's random-order fast path. With more, it
runs on the general loop, which switches workgroup memory at almost every step (a save and a
restore of each variable), and each decision costs Random a look at where its next invocation
stands (a binary search), not a pass over every live invocation.

    python benchmarks/live_workgroups.py [--groups 16] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import reduce

import asyncshader as ash


class FullPass(ash.Random):
    """Random's picks, each made by a pass over the whole runnable set."""

    def pick(self, runnable: list) -> int:
        return self._pick(runnable)


def timed(strategy: ash.Strategy, groups: int, live: int, repeat: int) -> tuple[float, str]:
    inp = np.random.default_rng(0).random(groups * reduce.N, dtype=np.float32)
    best, digest = float("inf"), ""
    for _ in range(repeat):
        out = np.zeros(groups, np.float32)
        started = time.perf_counter()
        result = ash.run(reduce.reduce256, groups, inp=inp, out=out, schedule=strategy,
                         sanitize="off", max_live_workgroups=live)
        best = min(best, time.perf_counter() - started)
        expected = inp.reshape(groups, reduce.N).astype(np.float64).sum(axis=1)
        assert np.allclose(out, expected, rtol=1e-4), "wrong sums"
        digest = result.trace.digest()
    return groups * reduce.N / best, digest


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"256-wide tree reduction, {args.groups} workgroups "
          f"({args.groups * reduce.N:,} invocations), Random(1), sanitize='off', best of "
          f"{args.repeat}")
    print(f"{'variant':44} {'invocations/s':>14} {'vs live=1':>10}")
    base = None
    for live in (1, 2, 8):
        rate, digest = timed(ash.Random(1), args.groups, live, args.repeat)
        base = base or rate
        print(f"{f'asyncshader max_live_workgroups={live}':44} {rate:14,.0f} {rate / base:10.2f}")
        if live > 1:
            full, full_digest = timed(FullPass(1), args.groups, live, args.repeat)
            assert full_digest == digest, "the full pass must pick the same schedule"
            print(f"{'  the same, a full pass per decision':44} {full:14,.0f} "
                  f"{full / base:10.2f}")


if __name__ == "__main__":
    main()
