"""The race detector's cost on whole-row reads of an ``array<vec4f>`` buffer (each row read is
a watched view), for a small and a large buffer: the ratio should not grow with the buffer.

    python benchmarks/detector_rows.py [--rows 4096 1048576] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import asyncshader as ash
from asyncshader import vec3u, vec4f

N = 4096  # invocations


@ash.compute(workgroup_size=64)
async def rows(pos: ash.Storage, out: ash.Storage, *, global_invocation_id: vec3u):
    i = global_invocation_id.x
    v = vec4f(pos[i])
    out[i] = vec4f(pos[(i + 1) % N]).x + v.y


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[4096, 1 << 20])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"{N} invocations, each reading two rows of a (rows, 4) float32 buffer")
    print(f"{'rows':>10s} {'sanitize=off':>14s} {'default':>10s} {'ratio':>7s}")
    for n in args.rows:
        pos = np.arange(4 * max(n, N), dtype=np.float32).reshape(-1, 4)
        best = {}
        for _ in range(args.repeat):
            for mode in ("off", "report"):
                out = np.zeros(N, np.float32)
                t0 = time.perf_counter()
                ash.run(rows, N // 64, pos=pos, out=out, sanitize=mode)
                best[mode] = min(best.get(mode, float("inf")), time.perf_counter() - t0)
                expect = pos[(np.arange(N) + 1) % N, 0] + pos[:N, 1]
                np.testing.assert_array_equal(out, expect)
        print(f"{n:10d} {best['off']:13.3f}s {best['report']:9.3f}s "
              f"{best['report'] / best['off']:6.1f}x")


if __name__ == "__main__":
    main()
