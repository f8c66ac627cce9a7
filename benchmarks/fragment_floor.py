"""What a fragment loop costs at the least: the quad loop a lean dispatch runs
(asyncshader/lean.py), written out by hand with no scheduler around it, with asyncshader's
pieces added one at a time. Each row is a ratio against the bare trampoline of
benchmarks/fragments.py whose shader gets a ``vec4f`` position, in the same process.

Every hand loop makes a quad's four coroutines with one generated call (as the dispatch does),
runs the rounds written out for four members and files the quad's four results in one list
(the dispatch makes the image from it at the end). Rows: bare yields (the value itself);
``(kind, value)`` pairs with the lean rounds' checks (each member's pair as it comes, the call
sites once a round); asyncshader's own ``dpdx``/``dpdy`` and resolvers; then the asyncshader
dispatch. The gap between the last two rows is what the scheduler and the dispatch add around
the rounds: making ``_Quad`` objects, starting and retiring them, the checkpoint test, the
gather.

    python benchmarks/fragment_floor.py [--size 256] [--repeat 5]
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import types

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import fragments

import asyncshader as ash
from asyncshader._core.traps import rendezvous_kind
from asyncshader.collectives.derivatives import DERIVATIVE_KINDS, derivative_kinds

_fragment = importlib.import_module("asyncshader.stages.fragment")  # (ash.fragment: a function)
_KIND = rendezvous_kind("dpdx", "quad", None)


@types.coroutine
def _bare(v):
    return (yield v)


@types.coroutine
def _request(v):
    return (yield (_KIND, v))


def _shader(trap):
    @ash.fragment
    async def shade(*, position: ash.vec4f):
        f = position.x * position.y
        return await trap(f) + await trap(f)
    return shade


def quad_loop(size, shader, pairs):
    """The lean rounds by hand: ``pairs`` False for bare yields (round 1 sends P1 - P0, round 2
    P2 - P0), True for ``(kind, value)`` pairs checked and resolved as lean.py does."""
    token = DERIVATIVE_KINDS.set(derivative_kinds("coarse"))  # what a dispatch sets
    try:
        quad = _fragment._quad_maker(shader.fn, ["position"], {},
                                     {"_z": np.float32(0), "_w": np.float32(1)})
        half = [np.float32(i + 0.5) for i in range(size)]
        results = [None] * (size * size)
        good = set(derivative_kinds("coarse").values()) | {_KIND}
        base = 0
        for qy in range(0, size, 2):
            y0, y1 = half[qy], half[qy + 1]
            for qx in range(0, size, 2):
                c0, c1, c2, c3 = quad(half[qx], half[qx + 1], y0, y1)
                f0, f1, f2, f3 = c0.cr_frame, c1.cr_frame, c2.cr_frame, c3.cr_frame
                v0 = v1 = v2 = v3 = None
                other = 1  # bare rounds: the lane differenced with lane 0 (dpdx, then dpdy)
                while True:
                    try:
                        r0 = c0.send(v0)
                        if pairs:
                            kind = r0[0] if r0.__class__ is tuple and len(r0) == 2 else None
                            assert kind in good
                        r1 = c1.send(v1)
                        if pairs:
                            assert r1.__class__ is tuple and len(r1) == 2 and r1[0] is kind
                        r2 = c2.send(v2)
                        if pairs:
                            assert r2.__class__ is tuple and len(r2) == 2 and r2[0] is kind
                        r3 = c3.send(v3)
                        if pairs:
                            assert r3.__class__ is tuple and len(r3) == 2 and r3[0] is kind
                    except StopIteration as stop:
                        got = [stop.value]
                        for c, v in ((c1, v1), (c2, v2), (c3, v3)):
                            try:
                                c.send(v)
                            except StopIteration as s:
                                got.append(s.value)
                        results[base:base + 4] = got
                        break
                    if not pairs:
                        v0 = v1 = v2 = v3 = (r1 if other == 1 else r2) - r0
                        other = 2
                        continue
                    site = f0.f_lasti
                    assert f1.f_lasti == site and f2.f_lasti == site and f3.f_lasti == site
                    resolve = kind.resolve
                    if resolve is None:  # (the stand-in kind: coarse by hand)
                        d = (r1[1] if other == 1 else r2[1]) - r0[1]
                        other = 2
                        v0 = v1 = v2 = v3 = d
                    else:
                        v0, v1, v2, v3 = resolve([r0[1], r1[1], r2[1], r3[1]], None)
                base += 4
        # the image, in one numpy step as the dispatch's gather makes it
        by_key = np.array(results, np.float32).reshape(size // 2, size // 2, 2, 2)
        return np.ascontiguousarray(by_key.swapaxes(1, 2).reshape(size, size))
    finally:
        DERIVATIVE_KINDS.reset(token)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    n = args.size
    variants = [
        ("bare trampoline, vec4f position", lambda: fragments.run_bare(n, fragments._position)),
        ("lean loop by hand, bare yields", lambda: quad_loop(n, _shader(_bare), False)),
        ("+ (kind, value) pairs and the lean checks",
         lambda: quad_loop(n, _shader(_request), True)),
        ("+ asyncshader's dpdx/dpdy", lambda: quad_loop(n, fragments.shade, True)),
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
