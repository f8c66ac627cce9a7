"""What a built-in call costs against the Python expression it replaces, measured in one run.

WGSL's built-ins (``asyncshader.clamp``, ``mix``, ``dot``, ``normalize`` ...) resolve WGSL's
overloads from their arguments' types and round float64 work to f32. The target is at
most about twice the cheapest Python expression that computes the same thing on
numpy scalars or with vec4f arithmetic. Each pair is timed in alternation (``--repeat`` rounds
of ``--number`` calls each, the best round counts), so machine load hits both sides alike.

    python benchmarks/builtins.py [--number 20000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np
from _timing import alternating

import asyncshader as ash
from asyncshader.wgsl.types import Vec

X, LO, HI = ash.f32(0.3), ash.f32(0.0), ash.f32(1.0)
A, B = ash.vec4f(1.0, 2.0, 3.0, 4.0), ash.vec4f(5.0, 6.0, 7.0, 8.0)
T = ash.f32(0.25)
NS = {"ash": ash, "np": np, "x": X, "lo": LO, "hi": HI, "a": A, "b": B, "t": T}

#: (what, the built-in call, the expression it replaces on numpy scalars / vec4f arithmetic)
PAIRS = [
    ("clamp f32", "ash.clamp(x, lo, hi)", "min(max(x, lo), hi)"),
    ("clamp literals", "ash.clamp(x, 0.0, 1.0)", "min(max(x, 0.0), 1.0)"),
    ("sqrt f32", "ash.sqrt(x)", "np.sqrt(x)"),
    ("floor f32", "ash.floor(x)", "np.floor(x)"),
    ("mix vec4f", "ash.mix(a, b, t)", "a * (1.0 - t) + b * t"),
    ("dot vec4f", "ash.dot(a, b)", "a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w"),
    ("normalize vec4f", "ash.normalize(a)",
     "a * (1.0 / np.sqrt(a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w))"),
    ("length vec4f", "ash.length(a)",
     "np.sqrt(a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w)"),
]


def check() -> None:
    """The built-ins compute what their expressions compute (within 1 f32 ULP)."""
    for what, call, expr in PAIRS:
        got, want = eval(call, NS), eval(expr, NS)
        got_l = list(got) if isinstance(got, Vec) else [got]
        want_l = list(want) if isinstance(want, Vec) else [want]
        for g, w in zip(got_l, want_l):
            assert abs(float(g) - float(w)) <= float(np.spacing(np.float32(w))), (what, g, w)


def measure(number: int, repeat: int) -> list[tuple[str, float, float]]:
    return [(what, *alternating(call, expr, number=number, repeat=repeat, globals_a=NS))
            for what, call, expr in PAIRS]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    check()
    print(f"{'':16s} {'asyncshader':>12s} {'expression':>11s} {'ratio':>6s}")
    for what, t_call, t_expr in measure(args.number, args.repeat):
        print(f"{what:16s} {t_call:10.0f}ns {t_expr:9.0f}ns {t_call / t_expr:6.2f}")


if __name__ == "__main__":
    main()
