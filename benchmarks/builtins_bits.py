"""What a bit, packing or bitcast built-in costs against the cheapest plain Python/numpy
expression that computes the same thing (same value, same numpy type) on numpy scalars: the
target is at most about 2x. Each row times the built-in and its plain twins in the same
process, interleaved, best of ``--repeat``; the ratio is built-in / fastest twin.

The plain twins do only the common case (no clamping of offset/count, no argument checks, no
T(-1) for zero) so they are a floor: the built-in does strictly more.

    python benchmarks/builtins_bits.py [--number 20000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import timeit

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import asyncshader as ash
from asyncshader import f32, i32, u32, vec4f, vec4u

U = np.uint32
x, xi, o, c = u32(0xF0F01234), i32(-123456), u32(4), u32(12)
n, fx = u32(0xABC), f32(1.5)
v4u, v4f, w = vec4u(1, 0xFF, 0x1234, 0xFFFFFFFF), vec4f(0.1, 0.5, 0.9, 1.0), u32(0x80FF7F01)
_REV = [int(f"{b:08b}"[::-1], 2) for b in range(256)]


def _rev_plain(x):
    u = int(x)
    return U(_REV[u & 255] << 24 | _REV[u >> 8 & 255] << 16 | _REV[u >> 16 & 255] << 8
             | _REV[u >> 24])


def _pack_plain(v):
    return U(math.floor(0.5 + 255.0 * min(1.0, max(0.0, float(v.x))))
             | math.floor(0.5 + 255.0 * min(1.0, max(0.0, float(v.y)))) << 8
             | math.floor(0.5 + 255.0 * min(1.0, max(0.0, float(v.z)))) << 16
             | math.floor(0.5 + 255.0 * min(1.0, max(0.0, float(v.w)))) << 24)


def _unpack_plain(w):
    u = int(w)
    return vec4f((u & 255) / 255, (u >> 8 & 255) / 255, (u >> 16 & 255) / 255, (u >> 24) / 255)


#: (label, built-in expression, plain twins computing the same value and type)
ROWS = [
    ("count_one_bits(u32)", "ash.count_one_bits(x)",
     ["U(x.bit_count())", "U(int(x).bit_count())"]),
    ("count_one_bits(i32)", "ash.count_one_bits(xi)",
     ["np.int32((int(xi) & 0xFFFFFFFF).bit_count())"]),
    ("count_leading_zeros(u32)", "ash.count_leading_zeros(x)",
     ["U(32 - int(x).bit_length())"]),
    ("first_leading_bit(u32)", "ash.first_leading_bit(x)", ["U(int(x).bit_length() - 1)"]),
    ("extract_bits(u32)", "ash.extract_bits(x, o, c)",
     ["U((int(x) >> int(o)) & ((1 << int(c)) - 1))", "(x >> o) & ((U(1) << c) - U(1))"]),
    ("extract_bits(i32)", "ash.extract_bits(xi, o, c)",
     ["np.int32((((int(xi) >> int(o)) & ((1 << int(c)) - 1)) ^ (1 << (int(c) - 1)))"
      " - (1 << (int(c) - 1)))"]),
    ("insert_bits(u32)", "ash.insert_bits(x, n, o, c)",
     ["U(int(x) & ~(((1 << int(c)) - 1) << int(o)) | (int(n) << int(o))"
      " & (((1 << int(c)) - 1) << int(o)))"]),
    ("reverse_bits(u32)", "ash.reverse_bits(x)", ["_rev_plain(x)"]),
    ("bitcast[u32](f32)", "ash.bitcast[u32](fx)", ["fx.view(U)"]),
    ("count_one_bits(vec4u)", "ash.count_one_bits(v4u)",
     ["vec4u(v4u.x.bit_count(), v4u.y.bit_count(), v4u.z.bit_count(), v4u.w.bit_count())"]),
    ("pack4x8unorm(vec4f)", "ash.pack4x8unorm(v4f)", ["_pack_plain(v4f)"]),
    ("unpack4x8unorm(u32)", "ash.unpack4x8unorm(w)", ["_unpack_plain(w)"]),
]


def _same(a, b):
    if isinstance(a, ash.wgsl.types.Vec):
        return type(a) is type(b) and all(type(p) is type(q) and p == q for p, q in zip(a, b))
    return type(a) is type(b) and a == b


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=20000, help="calls per timing")
    ap.add_argument("--repeat", type=int, default=7, help="timings per expression (best kept)")
    args = ap.parse_args(argv)
    env = dict(globals())
    print(f"asyncshader built-ins against plain numpy-scalar expressions "
          f"(best of {args.repeat} x {args.number} calls, ns per call)")
    print(f"{'built-in':26s} {'ns':>7s} {'plain ns':>9s} {'ratio':>6s}  fastest plain twin")
    worst = 0.0
    for label, builtin, plains in ROWS:
        want = eval(builtin, env)
        for p in plains:  # the twins compute the same value, of the same type
            assert _same(eval(p, env), want), (label, p, eval(p, env), want)
        stmts = [builtin, *plains]
        best = [math.inf] * len(stmts)
        for _ in range(args.repeat):  # interleaved, so load changes hit every statement alike
            for k, s in enumerate(stmts):
                t = timeit.timeit(s, globals=env, number=args.number) / args.number
                best[k] = min(best[k], t)
        k_plain = min(range(1, len(stmts)), key=lambda k: best[k])
        ratio = best[0] / best[k_plain]
        worst = max(worst, ratio)
        print(f"{label:26s} {best[0] * 1e9:7.0f} {best[k_plain] * 1e9:9.0f} {ratio:6.2f}  "
              f"{stmts[k_plain]}")
    print(f"worst ratio {worst:.2f} (target: at most about 2)")


if __name__ == "__main__":
    main()
