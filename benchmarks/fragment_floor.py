"""What a fragment loop costs at the least: the 2x2-quad loop of benchmarks/fragments.py with
asyncshader's pieces added one at a time, but no scheduler around them. Each row is a ratio
against the bare trampoline whose shader gets a ``vec4f`` position, in the same process.

Rows: bare yields and nothing else; plus what a lean quad's round checks (each member's request
as it comes, the call sites once a round: asyncshader/lean.py); plus a ``(kind, value)`` pair
per derivative (``traps.rendezvous_kind``, as asyncshader's derivatives yield); then
asyncshader's own ``dpdx``/``dpdy``; then, for comparison, the same with an ``Invocation`` per
fragment and a ``Group`` per quad (what a quad that is not lean costs); then the asyncshader
dispatch itself. The gap between the lean rows and the last one is what the scheduler and the
dispatch add around the rounds.

    python benchmarks/fragment_floor.py [--size 256] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import sys
import types

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import fragments

import asyncshader as ash
from asyncshader import vec4f
from asyncshader.dispatch import CURRENT_RUN
from asyncshader.invocations import Group, Invocation, _sites
from asyncshader.traps import rendezvous_kind

_KIND = rendezvous_kind("dpdx", "quad", None)


@types.coroutine
def _bare(v):
    return (yield v)


@types.coroutine
def _request(v):
    return (yield (_KIND, v))


def _shader(trap):
    async def shade(position):
        f = position.x * position.y
        return await trap(f) + await trap(f)
    return shade


class _Run:  # what asyncshader's dpdx asks of the current dispatch
    derivative_kinds = ash.derivatives.derivative_kinds("coarse")


def quad_loop(size, shader, value_of, checks, objects=False):
    """The bare trampoline's loop (round 0 is dpdx: P1 - P0, round 1 dpdy: P2 - P0, coarse),
    optionally with the lean rounds' checks, or with asyncshader's per-invocation objects."""
    token = CURRENT_RUN.set(_Run())
    try:
        out = np.zeros((size, size), np.float32)
        half = [np.float32(i + 0.5) for i in range(size)]
        z, w = np.float32(0), np.float32(1)
        make = vec4f._make
        for qy in range(0, size, 2):
            for qx in range(0, size, 2):
                coros = [shader(make(half[qx + (k & 1)], half[qy + (k >> 1)], z, w))
                         for k in range(4)]
                if objects:
                    unit = Group("quad", 0, "", "quad id")
                    invs = [Invocation(k, c, unit, None, None, None) for k, c in enumerate(coros)]
                sent = [None] * 4
                for other in (1, 2, None):  # the lane differenced with lane 0; None: the end
                    got = []
                    kind = None
                    for k, c in enumerate(coros):
                        try:
                            r = c.send(sent[k])
                        except StopIteration as stop:
                            out[qy + (k >> 1), qx + (k & 1)] = stop.value
                            continue
                        if checks and (r.__class__ is not tuple or r[0] is not kind) and k:
                            raise AssertionError("not one kind")
                        kind = r[0] if checks else None
                        got.append(r)
                    if other is None:
                        break
                    if checks:
                        sites = (_sites(invs) if objects else
                                 [c.cr_frame.f_lasti for c in coros])
                        assert sites.count(sites[0]) == 4
                    v = [value_of(r) for r in got]
                    sent = [v[other] - v[0]] * 4
        return out
    finally:
        CURRENT_RUN.reset(token)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    n = args.size
    plain, value = (lambda r: r), (lambda r: r[1])
    dpdx_shader = fragments.shade.fn
    variants = [
        ("bare trampoline, vec4f position", lambda: fragments.run_bare(n, fragments._position)),
        ("bare yields, no objects", lambda: quad_loop(n, _shader(_bare), plain, False)),
        ("+ a (kind, value) pair per derivative, lean checks",
         lambda: quad_loop(n, _shader(_request), value, True)),
        ("+ asyncshader's dpdx/dpdy",
         lambda: quad_loop(n, lambda p: dpdx_shader(position=p), value, True)),
        ("  (the same with Invocation and Group objects)",
         lambda: quad_loop(n, lambda p: dpdx_shader(position=p), value, True, True)),
        ("asyncshader InOrder, sanitize='off'",
         lambda: ash.run_fragments(fragments.shade, n, n, sanitize="off").output),
    ]
    best = fragments.best_times(variants, args.repeat)
    print(f"{n}x{n} fragments, dpdx and dpdy in each, best of {args.repeat}")
    print(f"{'what the loop does':52s} {'ns/fragment':>12s} {'vs vec4f bare':>14s}")
    for (name, _), t in zip(variants, best):
        print(f"{name:52s} {t / (n * n) * 1e9:12,.0f} {best[0] / t:14.2f}")


if __name__ == "__main__":
    main()
