"""What f16 and read-only storage cost, as ratios measured in one run.

* f16 against f32: the same scalar expression, vec4 expression and built-in calls on
  ``ash.f16``/``vec4h`` and on ``ash.f32``/``vec4f`` (numpy computes a float16 operation in
  float32 and rounds; the f16 built-ins round their f32 kernel's result).
* read-only storage against read_write storage: a dispatch of 256 invocations, each summing 64
  elements of a buffer, with the buffer bound ``ash.ReadOnly`` and ``ash.Storage``
  (``sanitize="off"``, and the default with the race detector, which watches only the writable
  buffer).

Each pair is timed in alternation (``--repeat`` rounds, the best round counts), so machine load
hits both sides alike.

    python benchmarks/f16.py [--number 20000] [--repeat 5] [--groups 16]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np
from _timing import alternating

import asyncshader as ash

#: (what, f16 expression, f32 expression), over the names in _names(kind)
PAIRS = [
    ("x * y + z", "x * y + z"),
    ("vec4 a * t + b", "a * t + b"),
    ("sin(x)", "ash.sin(x)"),
    ("clamp(x, 0.0, 1.0)", "ash.clamp(x, 0.0, 1.0)"),
    ("dot(a, b)", "ash.dot(a, b)"),
    ("normalize(a)", "ash.normalize(a)"),
]


def _names(scalar: type, vec: type) -> dict:
    return {"ash": ash, "x": scalar(0.3), "y": scalar(1.5), "z": scalar(-0.25),
            "t": scalar(0.5), "a": vec(1, 2, 3, 4), "b": vec(5, 6, 7, 8)}


def check() -> None:
    """The f16 results are f16, within two f16 ULP of the f32 results on the same values (an
    expression of two operations rounds twice)."""
    h = _names(ash.f16, ash.vec4h)
    f = {k: ash.f32(v) if isinstance(v, np.float16) else
         ash.vec4f(v) if isinstance(v, ash.vec4h) else v for k, v in h.items()}
    for what, expr in PAIRS:
        got, want = eval(expr, h), eval(expr, f)
        for g, w in zip(np.ravel(list(got) if isinstance(got, ash.vec4h) else [got]),
                        np.ravel(list(want) if isinstance(want, ash.vec4f) else [want])):
            assert isinstance(g, np.float16), (what, g)
            assert abs(float(g) - float(w)) <= 2 * float(np.spacing(np.float16(w))), (what, g, w)


def measure_types(number: int, repeat: int) -> list[tuple[str, float, float]]:
    h, f = _names(ash.f16, ash.vec4h), _names(ash.f32, ash.vec4f)
    return [(what, *alternating(expr, expr, number=number, repeat=repeat, globals_a=h,
                                globals_b=f)) for what, expr in PAIRS]


@ash.compute(workgroup_size=256)
async def sum_read_only(src: ash.ReadOnly, out: ash.Storage, *, global_invocation_index: ash.u32):
    i = global_invocation_index
    acc = ash.f32(0)
    for j in range(64):
        acc = acc + src[(i + j) % 1024]
    out[i] = acc


@ash.compute(workgroup_size=256)
async def sum_read_write(src: ash.Storage, out: ash.Storage, *,
                         global_invocation_index: ash.u32):
    i = global_invocation_index
    acc = ash.f32(0)
    for j in range(64):
        acc = acc + src[(i + j) % 1024]
    out[i] = acc


def measure_storage(groups: int, repeat: int) -> list[tuple[str, float, float]]:
    src = np.ones(1024, np.float32)
    rows = []
    for sanitize in ("off", None):
        best = {sum_read_only: float("inf"), sum_read_write: float("inf")}
        for _ in range(repeat):
            for kernel in best:
                out = np.zeros(256 * groups, np.float32)
                t = time.perf_counter()
                ash.run(kernel, groups, src=src, out=out, sanitize=sanitize)
                best[kernel] = min(best[kernel], time.perf_counter() - t)
                assert (out == 64).all()
        rows.append((f"sanitize={sanitize or 'default'!r}", best[sum_read_only],
                     best[sum_read_write]))
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--groups", type=int, default=16)
    args = ap.parse_args(argv)
    check()
    print(f"{'f16 vs f32':22s} {'f16':>9s} {'f32':>9s} {'ratio':>6s}")
    for what, t_h, t_f in measure_types(args.number, args.repeat):
        print(f"{what:22s} {t_h:7.0f}ns {t_f:7.0f}ns {t_h / t_f:6.2f}")
    print(f"\n{'asyncshader dispatch':22s} {'ReadOnly':>9s} {'Storage':>9s} {'ratio':>6s}")
    for what, t_ro, t_rw in measure_storage(args.groups, args.repeat):
        print(f"{what:22s} {t_ro * 1e3:7.1f}ms {t_rw * 1e3:7.1f}ms {t_ro / t_rw:6.2f}")


if __name__ == "__main__":
    main()
