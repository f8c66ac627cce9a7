"""What a matrix operation costs against the scalar arithmetic it stands for, measured in one run.

``m * v`` on a ``mat4x4f`` is sixteen multiply-adds; the target is at most about
twice the time of those sixteen written out on numpy f32 scalars (``a00 * x + a10 * y + ...``,
four sums, no vector built). ``v * m``, ``m * m`` (64 multiply-adds) and ``m + m`` (16 f32
additions) are compared the same way, and ``m * v`` also against the column sum a shader would
write with vectors only (``c0 * v.x + c1 * v.y + ...``). Each pair is timed in alternation
(``--repeat`` rounds of ``--number`` operations each) and the median round counts, so machine
load hits both sides alike.

    python benchmarks/matrices.py [--number 20000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np
from _timing import alternating

import asyncshader as ash

VALUES = [np.float32(0.37 * i - 2.5) for i in range(16)]  # column-major: a[c * 4 + r]
M = ash.mat4x4f(*VALUES)
N = ash.mat4x4f(*VALUES[::-1])
V = ash.vec4f(1.5, 2.5, -0.5, 3.25)
NS = {"ash": ash, "np": np, "m": M, "n": N, "v": V, "c0": M[0], "c1": M[1], "c2": M[2],
      "c3": M[3], "x": V.x, "y": V.y, "z": V.z, "w": V.w,
      **{f"a{c}{r}": VALUES[c * 4 + r] for c in range(4) for r in range(4)},
      **{f"b{c}{r}": VALUES[15 - (c * 4 + r)] for c in range(4) for r in range(4)},
      "m64": np.asarray(M, np.float64)}


def _mv(a: str, vs: list[str]) -> str:
    """The four sums of ``a`` (a matrix's element names) times the vector components ``vs``."""
    return ", ".join(" + ".join(f"{a}{c}{r} * {vs[c]}" for c in range(4)) for r in range(4))


_MM = ", ".join(" + ".join(f"a{k}{r} * b{c}{k}" for k in range(4))
                for c in range(4) for r in range(4))

#: (what, the matrix operation, the scalar expression it stands for)
PAIRS = [
    ("m * v  mat4x4f", "m * v", _mv("a", ["x", "y", "z", "w"])),
    ("m * v  as vectors", "m * v", "c0 * v.x + c1 * v.y + c2 * v.z + c3 * v.w"),
    ("v * m  mat4x4f", "v * m", ", ".join(
        " + ".join(f"a{c}{r} * {'xyzw'[r]}" for r in range(4)) for c in range(4))),
    ("m * m  mat4x4f", "m * n", _MM),
    ("m + m  mat4x4f", "m + n", ", ".join(f"a{c}{r} + b{c}{r}" for c in range(4)
                                         for r in range(4))),
    ("determinant", "ash.determinant(m)", "np.linalg.det(m64)"),
]


def _flat(x: object) -> list[float]:
    if isinstance(x, ash.Matrix):
        return [float(e) for col in x for e in col]
    if isinstance(x, ash.wgsl.types.Vec):
        return [float(e) for e in x]
    if isinstance(x, tuple):
        return [float(e) for e in x]
    return [float(x)]  # type: ignore[arg-type]


def check() -> None:
    """Each operation computes what its expression computes (closely: the expression rounds
    every f32 operation, the matrix operation each sum once)."""
    for what, op, expr in PAIRS:
        got, want = _flat(eval(op, NS)), _flat(eval(expr, NS))
        assert len(got) == len(want) and np.allclose(got, want, rtol=1e-5, atol=1e-4), what


def measure(number: int, repeat: int) -> list[tuple[str, float, float]]:
    return [(what, *alternating(op, expr, number=number, repeat=repeat, globals_a=NS,
                                pick=statistics.median)) for what, op, expr in PAIRS]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    check()
    print(f"{'':18s} {'asyncshader':>12s} {'expression':>11s} {'ratio':>6s}")
    for what, t_op, t_expr in measure(args.number, args.repeat):
        print(f"{what:18s} {t_op:10.0f}ns {t_expr:9.0f}ns {t_op / t_expr:6.2f}")


if __name__ == "__main__":
    main()
