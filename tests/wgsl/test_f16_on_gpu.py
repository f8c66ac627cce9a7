"""f16 expressions judged against the spec on two sides: asyncshader (the operators and built-ins
on ``ash.f16`` values) and a WebGPU implementation (the same WGSL with ``enable f16;`` on wgpu +
Mesa's lavapipe, tests/gpu.py; skipped, saying why, where the adapter lacks ``shader-f16``).

Inputs travel as f32 holding f16 values (``f16(a)`` is exact) and results come back as
``f32(...)`` (exact), or as u32 bits. What the spec accepts (builtins.md §2, §3, §4, f16
columns) is computed here from Fraction and 113-bit mpmath, never by either side:
correctly rounded = either f16 neighbour of the exact value; ULP and absolute bounds around it;
``sqrt`` inherited from ``1.0 / inverseSqrt(x)``. A subnormal f16 result may be flushed to zero
(§2.1). Inherited formulas with several steps (tan, pow, mix, ...) are left to the CPU tests
(tests/wgsl/test_f16_builtins.py), which hold asyncshader to one f16 ULP."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest
from f16_refs import f16_neighbours, mp_exact, ulp16
from gpu import Expr, evaluate

import asyncshader as ash
from asyncshader import f16
from asyncshader.wgsl.operators import div

mpmath = pytest.importorskip("mpmath", reason="mpmath (the test extra) gives the references")

MIN_NORMAL16 = Fraction(1, 2 ** 14)
RNG = np.random.default_rng(2016)


@pytest.fixture(scope="module")
def f16_device(gpu_device):
    if "shader-f16" not in gpu_device.features:
        pytest.skip("the WebGPU adapter has no 'shader-f16' feature (WGSL's enable f16;)")
    return gpu_device


# ------------------------------------------------------------------ what the spec accepts
Accept = Callable[[float, tuple], bool]


def correctly_rounded(exact: Fraction, got: float) -> bool:
    flushed = got == 0 and abs(exact) < MIN_NORMAL16
    return flushed or (math.isfinite(got) and got in f16_neighbours(exact))


def within(exact: Fraction, got: float, bound: Fraction) -> bool:
    if abs(exact) < MIN_NORMAL16 and got == 0:
        return True
    return math.isfinite(got) and abs(Fraction(got) - exact) <= bound


def cr(ref: Callable[..., Fraction]) -> Accept:
    return lambda got, args: correctly_rounded(ref(*args), got)


def ulps(ref: Callable[..., Fraction], k: Callable[..., float]) -> Accept:
    def accept(got: float, args: tuple) -> bool:
        exact = ref(*args)
        return within(exact, got, Fraction(k(*args)) * ulp16(exact))
    return accept


def mp(f: Callable[..., object]) -> Callable[..., Fraction]:
    return lambda *args: mp_exact(f, *args)


def _log_accept(base: object) -> Accept:
    ref = mp(lambda x: mpmath.log(x, base))

    def accept(got: float, args: tuple) -> bool:
        exact = ref(*args)
        if Fraction(1, 2) <= args[0] <= 2:  # absolute error 2**-7 on [0.5, 2.0]
            return within(exact, got, Fraction(1, 2 ** 7))
        return within(exact, got, 3 * ulp16(exact))
    return accept


def _sqrt_accept(got: float, args: tuple) -> bool:
    # inherited from 1.0 / inverseSqrt(x): inverseSqrt within 2 ULP, then / within 2.5 ULP
    isq = mp_exact(lambda x: 1 / mpmath.sqrt(x), *args)
    lo, hi = isq - 2 * ulp16(isq), isq + 2 * ulp16(isq)
    low, high = 1 / hi, 1 / lo
    return low - Fraction(5, 2) * ulp16(low) <= Fraction(got) <= high + Fraction(5, 2) * ulp16(high)


def _trig_accept(f: Callable[..., object]) -> Accept:
    ref = mp(f)
    return lambda got, args: within(ref(*args), got, Fraction(1, 2 ** 7))


@dataclass
class Case:
    """An f16 expression: its WGSL text over f32 inputs a, b (f16 values), asyncshader's value
    of it, the spec's acceptance, and the argument ranges."""

    name: str
    wgsl: str
    ours: Callable[..., object]
    accept: Accept
    ranges: list[tuple[float, float]]


CASES = [
    Case("+", "f32(f16(a) + f16(b))", lambda a, b: a + b, cr(lambda a, b: a + b),
         [(-1000, 1000)] * 2),
    Case("-", "f32(f16(a) - f16(b))", lambda a, b: a - b, cr(lambda a, b: a - b),
         [(-1000, 1000)] * 2),
    Case("*", "f32(f16(a) * f16(b))", lambda a, b: a * b, cr(lambda a, b: a * b),
         [(-200, 200)] * 2),
    Case("/", "f32(f16(a) / f16(b))", div, ulps(lambda a, b: a / b, lambda a, b: 2.5),
         [(-600, 600), (0.01, 1000)]),  # (|a / b| stays below 65504)
    Case("abs", "f32(abs(f16(a)))", ash.abs, cr(abs), [(-65504, 65504)]),
    Case("floor", "f32(floor(f16(a)))", ash.floor, cr(lambda a: Fraction(math.floor(a))),
         [(-1000, 1000)]),
    Case("ceil", "f32(ceil(f16(a)))", ash.ceil, cr(lambda a: Fraction(math.ceil(a))),
         [(-1000, 1000)]),
    Case("trunc", "f32(trunc(f16(a)))", ash.trunc, cr(lambda a: Fraction(math.trunc(a))),
         [(-1000, 1000)]),
    Case("round", "f32(round(f16(a)))", ash.round, cr(lambda a: Fraction(round(a))),
         [(-1000, 1000)]),
    Case("fract", "f32(fract(f16(a)))", ash.fract, cr(lambda a: a - math.floor(a)),
         [(-1000, 1000)]),
    Case("sign", "f32(sign(f16(a)))", ash.sign, cr(lambda a: Fraction((a > 0) - (a < 0))),
         [(-10, 10)]),
    Case("min", "f32(min(f16(a), f16(b)))", ash.min, cr(min), [(-1000, 1000)] * 2),
    Case("max", "f32(max(f16(a), f16(b)))", ash.max, cr(max), [(-1000, 1000)] * 2),
    Case("saturate", "f32(saturate(f16(a)))", ash.saturate,
         cr(lambda a: min(max(a, Fraction(0)), Fraction(1))), [(-2, 2)]),
    Case("step", "f32(step(f16(a), f16(b)))", ash.step,
         cr(lambda a, b: Fraction(1 if a <= b else 0)), [(-2, 2)] * 2),
    Case("sqrt", "f32(sqrt(f16(a)))", ash.sqrt, _sqrt_accept, [(2.0 ** -14, 65504)]),
    Case("inverseSqrt", "f32(inverseSqrt(f16(a)))", ash.inverse_sqrt,
         ulps(mp(lambda x: 1 / mpmath.sqrt(x)), lambda a: 2), [(2.0 ** -14, 65504)]),
    Case("exp", "f32(exp(f16(a)))", ash.exp, ulps(mp(mpmath.exp), lambda a: 1 + 2 * abs(a)),
         [(-9, 10)]),
    Case("exp2", "f32(exp2(f16(a)))", ash.exp2,
         ulps(mp(lambda x: mpmath.power(2, x)), lambda a: 1 + 2 * abs(a)), [(-13, 15)]),
    Case("log", "f32(log(f16(a)))", ash.log, _log_accept(mpmath.e), [(2.0 ** -14, 65504)]),
    Case("log2", "f32(log2(f16(a)))", ash.log2, _log_accept(2), [(2.0 ** -14, 65504)]),
    Case("sin", "f32(sin(f16(a)))", ash.sin, _trig_accept(mpmath.sin), [(-3.14, 3.14)]),
    Case("cos", "f32(cos(f16(a)))", ash.cos, _trig_accept(mpmath.cos), [(-3.14, 3.14)]),
    Case("atan", "f32(atan(f16(a)))", ash.atan, ulps(mp(mpmath.atan), lambda a: 5),
         [(-1000, 1000)]),
    Case("atan2", "f32(atan2(f16(a), f16(b)))", ash.atan2,
         ulps(mp(mpmath.atan2), lambda a, b: 5), [(0.01, 100), (-100, -0.01)]),
]


def _rows(ranges: list[tuple[float, float]], n: int = 48) -> list[tuple[np.float16, ...]]:
    columns = []
    for lo, hi in ranges:
        col = np.concatenate([[lo, hi, (lo + hi) / 2], RNG.uniform(lo, hi, n)]).astype(np.float16)
        columns.append([f16(v) for v in np.clip(col, np.float16(lo), np.float16(hi))])
    return list(zip(*columns))


def _judge(case: Case, rows: list, got_gpu: np.ndarray) -> list[str]:
    bad = []
    for args, gpu in zip(rows, got_gpu):
        exact_args = tuple(Fraction(float(a)) for a in args)
        ours = case.ours(*args)
        assert isinstance(ours, np.float16), (case.name, ours)
        for side, value in (("asyncshader", float(ours)), ("lavapipe", float(gpu))):
            if not case.accept(value, exact_args):
                bad.append(f"{side}: {case.name}{tuple(float(a) for a in args)} = {value!r}")
    return bad


def test_f16_expressions_on_both_sides_meet_the_spec(f16_device):
    rows = {case.name: _rows(case.ranges) for case in CASES}
    names = "ab"
    exprs = [Expr(case.wgsl, {names[k]: "f32" for k in range(len(case.ranges))}, "f32",
                  {names[k]: np.array([float(r[k]) for r in rows[case.name]], np.float32)
                   for k in range(len(case.ranges))})
             for case in CASES]
    results = evaluate(f16_device, exprs, enables=("f16",))
    bad = []
    for case, got in zip(CASES, results):
        bad += _judge(case, rows[case.name], got)
    assert not bad, f"{len(bad)} f16 results outside the spec:\n  " + "\n  ".join(bad[:20])


def test_f16_conversions_agree_with_the_gpu(f16_device):
    # f32 -> f16: either neighbour (builtins.md §3.1); i32 -> f16 (|n| <= 65504: exact or a
    # neighbour); f16 -> i32 / u32 truncates; vec3h arithmetic rounds per component. lavapipe
    # and asyncshader both round to nearest here, so the values are compared as equal, and
    # asyncshader's are checked against the spec
    xs = np.concatenate([[0.1, -0.1, 1 / 3, 2049.0, 2051.0, 65504.0, -65519.0, 2.0 ** -14,
                          1.0009765625 + 2.0 ** -12], RNG.uniform(-60000, 60000, 40)]
                        ).astype(np.float32)
    ints = np.array([0, 1, -1, 2049, -2049, 65504, -65504, 12345], np.int32)
    halves = np.array([1.0, -2.5, 0.1, 65504.0, 2.0 ** -14, -0.0, 3.140625, 1000.0], np.float16)
    # (naga 0.32 refuses bitcast<u32>(vec2<f16>) and bitcast<vec2<f16>>(u32): it takes them as
    # component-wise casts of 16-bit lanes; the CPU tests check asyncshader's against §3.3)
    exprs = [
        Expr("f32(f16(x))", {"x": "f32"}, "f32", {"x": xs}),
        Expr("f32(f16(n))", {"n": "i32"}, "f32", {"n": ints}),
        Expr("i32(f16(x))", {"x": "f32"}, "i32", {"x": halves.astype(np.float32)}),
        Expr("u32(f16(x))", {"x": "f32"}, "u32", {"x": halves.astype(np.float32)}),
        Expr("vec3<f32>(vec3<f16>(f16(a), f16(b), 0.5h) * f16(c))",
             {"a": "f32", "b": "f32", "c": "f32"}, "vec3f",
             {"a": halves.astype(np.float32), "b": halves[::-1].astype(np.float32),
              "c": np.full(8, 0.1, np.float16).astype(np.float32)}),
    ]
    gpu = evaluate(f16_device, exprs, enables=("f16",))
    ours = [
        [f16(x) for x in xs],
        [f16(ash.i32(n)) for n in ints],
        [ash.i32(f16(x)) for x in halves],
        [ash.u32(f16(x)) for x in halves],
        [list(ash.vec3h(a, b, 0.5) * f16(0.1)) for a, b in zip(halves, halves[::-1])],
    ]
    for k, (ours_k, gpu_k) in enumerate(zip(ours, gpu)):
        assert np.array_equal(np.asarray(ours_k, np.float64).ravel(),
                              np.asarray(gpu_k, np.float64).ravel()), (exprs[k].wgsl, ours_k,
                                                                       gpu_k)
    for x, h in zip(xs, ours[0]):
        assert correctly_rounded(Fraction(float(x)), float(h)), (x, h)
    assert [int(v) for v in ours[2]] == [1, -2, 0, 65504, 0, 0, 3, 1000]
    assert [int(v) for v in ours[3]] == [1, 0, 0, 65504, 0, 0, 3, 1000]
