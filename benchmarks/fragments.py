"""512x512 fragment dispatch where every fragment awaits dpdx and dpdy: asyncshader against a bare
2x2-quad coroutine trampoline, in the same process (compare the ratios, not the absolute rates).

The bare trampoline is the floor DESIGN.md sets: for each quad, four hand-written coroutines that
yield their value at each derivative; the loop differences the four values (coarse: P1 - P0 and
P2 - P0, in f32) and sends the results back, then stores the returned colours. It computes the
same values as asyncshader (checked), in numpy float32. Its shader gets x and y as two floats;
the second bare variant passes the shader what asyncshader passes, a ``vec4f`` position, to
separate the scheduler's cost from the cost of the WGSL builtin's type (as benchmarks/reduce.py
does for memory and ids).

    python benchmarks/fragments.py [--size 512] [--repeat 3]
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
from asyncshader import vec4f


@ash.fragment
async def shade(*, position: vec4f):
    f = position.x * position.y
    return await ash.dpdx(f) + await ash.dpdy(f)


# ------------------------------------------------------------------------ the bare trampoline
@types.coroutine
def _rendezvous(value):
    return (yield value)


async def _bare_shade(x, y):
    f = x * y
    return await _rendezvous(f) + await _rendezvous(f)


async def _bare_shade_vec4f(position):
    f = position.x * position.y
    return await _rendezvous(f) + await _rendezvous(f)


def _xy(x, y):
    return _bare_shade(x, y)


_Z, _W = np.float32(0), np.float32(1)


def _position(x, y, make=vec4f._make):
    return _bare_shade_vec4f(make(x, y, _Z, _W))


def run_bare(size: int, shader=_xy) -> np.ndarray:
    out = np.zeros((size, size), np.float32)
    half = [np.float32(i + 0.5) for i in range(size + 1)]
    for qy in range(0, size, 2):
        for qx in range(0, size, 2):
            quad = [shader(half[qx + (k & 1)], half[qy + (k >> 1)]) for k in range(4)]
            p = [c.send(None) for c in quad]  # all four at dpdx
            dx = p[1] - p[0]
            p = [c.send(dx) for c in quad]  # all four at dpdy
            dy = p[2] - p[0]
            for k, c in enumerate(quad):
                try:
                    c.send(dy)
                except StopIteration as stop:
                    out[qy + (k >> 1), qx + (k & 1)] = stop.value
    return out


def best_times(variants, repeat):
    """The best time of each ``(name, fn)`` over ``repeat`` rounds, the variants alternating
    within a round; every variant must produce the same image as the first."""
    best = [float("inf")] * len(variants)
    reference = None
    for _ in range(repeat):
        for k, (_, fn) in enumerate(variants):
            t0 = time.perf_counter()
            out = fn()
            best[k] = min(best[k], time.perf_counter() - t0)
            if reference is None:
                reference = out
            np.testing.assert_array_equal(out, reference)
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    n = args.size
    variants = [
        ("bare 2x2-quad trampoline", lambda: run_bare(n)),
        ("bare trampoline, vec4f position", lambda: run_bare(n, _position)),
        ("asyncshader InOrder, sanitize='off'",
         lambda: ash.run_fragments(shade, n, n, sanitize="off").output),
        ("asyncshader InOrder, sanitize='off', watchdog=None",
         lambda: ash.run_fragments(shade, n, n, sanitize="off", watchdog=None).output),
        ("asyncshader Random(seed=1), sanitize='off'",
         lambda: ash.run_fragments(shade, n, n, schedule=ash.Random(1), sanitize="off").output),
        ("asyncshader InOrder, default (detector on)",
         lambda: ash.run_fragments(shade, n, n).output),
    ]
    best = best_times(variants, args.repeat)
    base, typed = n * n / best[0], n * n / best[1]
    print(f"{n}x{n} fragments, dpdx and dpdy in each, best of {args.repeat}")
    print(f"{'variant':44s} {'fragments/s':>12s} {'vs bare':>8s} {'vs vec4f bare':>14s}")
    for (name, _), t in zip(variants, best):
        print(f"{name:44s} {n * n / t:12,.0f} {n * n / t / base:8.2f} {n * n / t / typed:14.2f}")


if __name__ == "__main__":
    main()
