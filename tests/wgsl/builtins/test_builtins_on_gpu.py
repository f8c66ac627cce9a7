"""Every numeric built-in asyncshader exports (abs ... trunc, dot, cross, normalize, frexp, modf,
...) over edge inputs, judged against the spec on two sides: asyncshader (the function called
from Python on ``ash.f32`` ... ``ash.vec4u`` values) and a real WebGPU implementation (the WGSL
built-in in a compute shader on wgpu + Mesa's lavapipe, tests/gpu.py; skipped, saying what to
install, without it). See docs/oracle.md.

Expected values come from the spec (builtins_spec §2, §4, §5.2-5.3), computed without either side
by the reference module ``spec_intervals.py`` next to this file: exact and correctly rounded
results from ``fractions`` (either f32 neighbour of the exact value), ULP and absolute bounds
around 113-bit ``mpmath`` values (float64 ``math`` without mpmath), and for the functions whose
accuracy WGSL inherits from a formula (``acosh``, ``mix``, ``dot``, ``normalize``, ``pow``, ...)
the formula in interval arithmetic, each step with its own bound, as the CTS does (§2.3).
Subnormal inputs and outputs of every step may be flushed to zero (§2.1). The sign of a zero is
not checked (implementations may ignore it, §2.1).

Rows whose result WGSL leaves indeterminate (outside the domain, overflow, a step whose accuracy
is unbounded there: e.g. ``sqrt(0)``, inherited from ``1.0 / inverseSqrt(0)``, divides by an
infinity) are dropped by the reference (``Accept.anything``): nothing is asserted about them.

Rows are grouped per function, type, shape and spec rule (``tie``, ``INT_MIN``, ``low > high``,
...); a known departure of either side is an ``xfail(strict=True)`` on exactly its group, naming
the rule (``KNOWN`` for asyncshader, ``LAVAPIPE`` for the driver).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pytest
from gpu import Expr, evaluate, report
from spec_intervals import (
    F32_MAX,
    I32_MAX,
    I32_MIN,
    LARGEST_SUBNORMAL,
    MIN_NORMAL,
    NUMPY,
    TINY,
    U32_MAX,
    VECTOR_REFS,
    WGSL,
    Accept,
    exact,
    f32,
    spec,
)

import asyncshader as ash
from asyncshader.wgsl.types import Vec

# ----------------------------------------------------------------------------- the edge inputs
PI_BELOW = f32(3.1415925)  # the f32 just below π (the nearest, 3.1415927, is above π)
BASIC = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 0.1, -0.1, f32(1 / 3), 3.0, -7.25, 1e-30,
         1e10, -1e10, 16777216.0, MIN_NORMAL, -MIN_NORMAL, TINY, -TINY, LARGEST_SUBNORMAL,
         F32_MAX, -F32_MAX]
TRIG = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 1.5707964, PI_BELOW, -PI_BELOW, 1e-30, TINY, 10.0]
#: per WGSL expression head: {rule: [argument tuples]}; rows WGSL leaves indeterminate (e.g.
#: sqrt(-1), log(0), exp(100), acos(1.5), ldexp(1, 129)) stay in the table to show they were
#: considered: the reference drops them
F32_ROWS = {
    "abs": {"ordinary": BASIC},
    "ceil": {"ordinary": [*BASIC, -0.5, 2.5]},
    "floor": {"ordinary": [*BASIC, -0.5, 2.5]},
    "trunc": {"ordinary": [*BASIC, -0.5, 2.5]},
    "round": {"ordinary": BASIC, "tie": [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 4194304.5,
                                         -4194304.5, 8388607.5]},
    "sign": {"ordinary": BASIC},
    "saturate": {"ordinary": [*BASIC, 2.0, 0.99999994]},
    "fract": {"ordinary": BASIC, "negative": [-0.5, -1.1, -7.25, -1e-10, -1e-30, -TINY]},
    "modf.fract": {"ordinary": [*BASIC, -1.1]},
    "modf.whole": {"ordinary": [*BASIC, -1.1]},
    "frexp.fract": {"ordinary": [*BASIC, 3.0, 0.75, -1024.0]},
    "frexp.exp": {"ordinary": [*BASIC, 3.0, 0.75, -1024.0]},
    "quantizeToF16": {"ordinary": [0.0, -0.0, 1.0, -1.0, 0.1, f32(1 / 3), 65504.0, -65504.0,
                                   65520.0, 1e-30, 2.0**-24, 6e-8, 2.0**-14, 2049.0, 2051.0,
                                   1e10]},
    "ldexp": {"ordinary": [(1.0, 0), (1.5, 3), (-3.0, -2), (0.0, 200), (1.0, 127), (1.0, 128),
                           (1.0, 129), (F32_MAX, 1), (1.0, -126), (0.75, -20)],
              "e2 = 128": [(0.5, 128), (-0.75, 128)],  # 2^127 and more: defined (e2 <= bias + 1)
              "underflow": [(1.0, -127), (1.0, -149), (1.5, -140), (1.0, -150), (1.0, -160),
                            (3.0, -149)]},
    "min": {"ordinary": [(1.0, 2.0), (-1.0, 1.0), (0.0, -0.0), (-0.0, 0.0), (F32_MAX, -F32_MAX),
                         (1e-30, 1e-31), (TINY, 0.0), (TINY, 2 * TINY), (-TINY, TINY)]},
    "max": {"ordinary": [(1.0, 2.0), (-1.0, 1.0), (0.0, -0.0), (-0.0, 0.0), (F32_MAX, -F32_MAX),
                         (1e-30, 1e-31), (TINY, 0.0), (TINY, 2 * TINY), (-TINY, TINY)]},
    "clamp": {"ordinary": [(0.5, 0.0, 1.0), (-1.0, 0.0, 1.0), (2.0, 0.0, 1.0), (-0.0, 0.0, 1.0),
                           (1e-30, -1.0, 1.0), (F32_MAX, -F32_MAX, 0.0)],
              "low > high": [(0.5, 1.0, 0.0), (2.0, 1.0, 0.0), (-1.0, 1.0, 0.0)]},
    "step": {"ordinary": [(0.0, 0.0), (1.0, 0.5), (0.5, 1.0), (-0.0, 0.0), (0.0, -0.0),
                          (TINY, 0.0), (1.0, 1.0), (-F32_MAX, F32_MAX)]},
    "sqrt": {"ordinary": [0.0, -0.0, 1.0, 2.0, 4.0, 0.25, 1e-30, 1e30, MIN_NORMAL, TINY, F32_MAX,
                          -1.0, 3.0, 1e-20]},
    "inverseSqrt": {"ordinary": [0.0, 1.0, 2.0, 4.0, 0.25, 1e-30, 1e30, MIN_NORMAL, TINY,
                                 F32_MAX, -1.0, 3.0]},
    "exp": {"ordinary": [0.0, -0.0, 1.0, -1.0, 0.5, 10.0, -10.0, 88.0, -87.0, -103.0, 100.0,
                         1e-30, TINY]},
    "exp2": {"ordinary": [0.0, -0.0, 1.0, -1.0, 0.5, 10.0, -10.0, 127.0, -126.0, -140.0, 128.0,
                          1e-30, 23.5]},
    "log": {"ordinary": [1.0, 0.5, 2.0, 2.7182817, 10.0, 1e30, F32_MAX, MIN_NORMAL, 1e-30, 0.0,
                         -1.0, TINY, 0.75, 1.0000001]},
    "log2": {"ordinary": [1.0, 0.5, 2.0, 8.0, 10.0, 1e30, F32_MAX, MIN_NORMAL, 1e-30, 0.0, -1.0,
                          TINY, 0.75, 1.0000001]},
    "sin": {"ordinary": TRIG}, "cos": {"ordinary": TRIG}, "tan": {"ordinary": TRIG},
    "atan": {"ordinary": [0.0, -0.0, 1.0, -1.0, 0.5, 1e10, -1e10, 1e-30, F32_MAX, TINY]},
    "atan2": {"ordinary": [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0), (0.0, 1.0),
                           (0.0, -1.0), (0.0, 0.0), (1.0, 0.0), (1e10, 1e-10), (1e-30, 1.0),
                           (TINY, 1.0), (3.0, 4.0)]},
    "acos": {"ordinary": [0.0, 0.5, -0.5, 0.99, -0.99, 1e-10, 0.1], "domain edge": [1.0, -1.0],
             "out of domain": [1.5, -1.0000001]},
    "asin": {"ordinary": [0.0, 0.5, -0.5, 0.99, -0.99, 1e-10, 0.1], "domain edge": [1.0, -1.0],
             "out of domain": [1.5, -1.0000001]},
    "acosh": {"ordinary": [1.5, 2.0, 10.0, 1e10, 1.0000001, 1.0, 0.5, 1e20]},
    "asinh": {"ordinary": [0.0, 1.0, -1.0, 0.5, 10.0, -10.0, 1e10, 1e-30, 1e20]},
    "atanh": {"ordinary": [0.0, 0.5, -0.5, 0.99, 1e-10, 1.0, -1.0, 1.5]},
    "sinh": {"ordinary": [0.0, 1.0, -1.0, 0.5, 10.0, -10.0, 1e-5, 88.0, 100.0]},
    "cosh": {"ordinary": [0.0, 1.0, -1.0, 0.5, 10.0, -10.0, 1e-5, 88.0, 100.0]},
    "tanh": {"ordinary": [0.0, 1.0, -1.0, 0.5, 10.0, -10.0, 1e-5, 20.0, 100.0]},
    "degrees": {"ordinary": [0.0, 1.0, -1.0, PI_BELOW, 1e-30, 1e30, TINY]},
    "radians": {"ordinary": [0.0, 1.0, -1.0, 180.0, 1e-30, 1e30, TINY]},
    "pow": {"ordinary": [(2.0, 10.0), (4.0, 0.5), (10.0, -2.0), (1.0, 5.0), (0.5, 100.0),
                         (3.0, 2.5), (0.0, 1.0), (-2.0, 2.0), (2.0, 0.0), (1e10, 3.0)]},
    "fma": {"ordinary": [(2.0, 3.0, 1.0), (0.1, 10.0, -1.0), (1.0000001, 1.0000001, -1.0),
                         (F32_MAX, 2.0, -F32_MAX), (1e-30, 1e-30, 0.0), (-0.0, 1.0, 0.0)]},
    "mix": {"ordinary": [(0.0, 10.0, 0.25), (1.0, 2.0, 0.0), (1.0, 2.0, 1.0), (-1.0, 1.0, 0.5),
                         (1e10, -1e10, 0.3), (1.0, 1.0, 1e10), (0.0, 1.0, 2.0),
                         (-3.0, 5.0, 0.25), (0.1, 0.7, 0.25), (1e10, -1e10, 0.25)]},
    "smoothstep": {"ordinary": [(0.0, 1.0, 0.5), (0.0, 1.0, -1.0), (0.0, 1.0, 2.0),
                                (0.0, 1.0, 0.25), (-1.0, 3.0, 0.0)],
                   "edge0 > edge1": [(1.0, 0.0, 0.25), (1.0, 0.0, 2.0)],
                   "edge0 == edge1": [(2.0, 2.0, 1.0), (2.0, 2.0, 3.0)]},
}
INT_ROWS = {
    ("abs", "i"): {"ordinary": [0, 1, -1, -5, I32_MAX, I32_MIN + 1], "INT_MIN": [I32_MIN]},
    ("abs", "u"): {"ordinary": [0, 1, 5, 0x80000000, U32_MAX]},
    ("sign", "i"): {"ordinary": [0, 1, -1, 5, -5, I32_MAX, I32_MIN]},
    ("min", "i"): {"ordinary": [(1, 2), (-1, 1), (I32_MIN, I32_MAX), (0, -0), (-5, -6)]},
    ("max", "i"): {"ordinary": [(1, 2), (-1, 1), (I32_MIN, I32_MAX), (0, -0), (-5, -6)]},
    ("min", "u"): {"ordinary": [(1, 2), (0, U32_MAX), (0x80000000, 0x7FFFFFFF)]},
    ("max", "u"): {"ordinary": [(1, 2), (0, U32_MAX), (0x80000000, 0x7FFFFFFF)]},
    ("clamp", "i"): {"ordinary": [(5, 0, 10), (-5, 0, 10), (15, 0, 10), (I32_MIN, -1, 1)],
                     "low > high": [(5, 10, 0), (-5, 10, 0), (15, 10, 0), (0, I32_MAX, I32_MIN)]},
    ("clamp", "u"): {"ordinary": [(5, 0, 10), (15, 0, 10), (U32_MAX, 1, 2)],
                     "low > high": [(5, 10, 0), (15, 10, 0), (0, U32_MAX, 1)]},
}
V3 = [(1.0, 2.0, 3.0), (0.1, -0.2, 0.3), (0.0, 0.0, 0.0), (-0.0, 1.0, 0.0), (1e10, 1e-10, -1e10),
      (3.0, 4.0, 0.0), (TINY, 1.0, MIN_NORMAL), (1e20, 1e20, 1e20)]
V4 = [(1.0, 2.0, 3.0, 4.0), (0.1, 0.2, 0.3, 0.4), (1e10, 1.0, -1e10, 1.0), (0.0, 0.0, 0.0, 0.0)]
N3 = [(0.0, 1.0, 0.0), (0.6, 0.8, 0.0), (0.0, -0.6, 0.8)]  # unit normals
#: vector functions: (WGSL head, kind) -> {rule: [argument tuples]}
VECTOR_ROWS = {
    ("dot", "f"): {"ordinary": [(a, b) for a in V3[:6] for b in V3[:6:2]] + [(a, b) for a in V4
                                                                             for b in V4[:2]]},
    ("dot", "i"): {"ordinary": [((1, 2, 3), (4, -5, 6)), ((0, 0, 0), (I32_MIN, 1, 2))],
                   "wraps": [((I32_MAX, 1, 0), (2, 2, 0)), ((I32_MIN, I32_MIN, 1), (1, 1, -1))]},
    ("dot", "u"): {"ordinary": [((1, 2, 3), (4, 5, 6))],
                   "wraps": [((U32_MAX, 2, 0), (2, U32_MAX, 7)), ((0x80000000, 1, 1), (2, 0, 0))]},
    ("cross", "f"): {"ordinary": [(a, b) for a in V3[:6] for b in V3[:6:2]]},
    ("length", "f"): {"ordinary": [(v,) for v in V3 + V4] + [(x,) for x in (3.0, -4.0, 0.0, 1e-30,
                                                                        1e30)]},
    ("distance", "f"): {"ordinary": [(a, b) for a in V3[:6] for b in V3[:3]]
                        + [(3.0, 5.0), (-1.0, 1e10)]},
    ("normalize", "f"): {"ordinary": [(v,) for v in V3 + V4]},
    ("faceForward", "f"): {"ordinary": [((1.0, 2.0, 3.0), n, i) for n in N3 for i in
                                        ((0.0, -1.0, 0.0), (0.0, 1.0, 0.0), (1.0, 0.0, 0.0))]},
    ("reflect", "f"): {"ordinary": [(i, n) for i in V3[:6] for n in N3]},
    ("refract", "f"): {"ordinary": [(i, n, eta) for i in ((0.6, -0.8, 0.0), (0.0, -1.0, 0.0),
                                                          (0.8, 0.0, -0.6))
                                    for n in N3 for eta in (0.5, 1.0, 1.5, 2.0)]},
}
PY_NAMES = {"inverseSqrt": "inverse_sqrt", "quantizeToF16": "quantize_to_f16",
            "faceForward": "face_forward"}


# --------------------------------------------------------------------------------- the cases
def _type(kind: str, size: int) -> str:
    return WGSL[kind] if not size else f"vec{size}<{WGSL[kind]}>"


@dataclass
class Case:
    """One built-in on one argument type and shape, over the rows that exercise one rule."""

    fn: str  # the WGSL expression head: "clamp", "frexp.exp", ...
    args: tuple  # (kind, size) of each argument
    result: tuple  # (kind, size) of the result
    rule: str
    rows: list[tuple]

    @property
    def kind(self) -> str:
        return self.args[0][0]

    @property
    def shape(self) -> str:
        sizes = dict.fromkeys(s for _, s in self.args)
        return "/".join(f"vec{s}" if s else "scalar" for s in sizes)

    @property
    def id(self) -> str:
        return f"{self.fn} {WGSL[self.kind]} {self.shape} [{self.rule}]"

    @property
    def wgsl(self) -> str:
        head, _, field = self.fn.partition(".")
        return f"{head}({', '.join('abc'[:len(self.args)])})" + (f".{field}" if field else "")

    @cached_property
    def expected(self) -> list[list[Accept]]:
        """Per row, per component, what the spec accepts."""
        if self.fn in VECTOR_REFS:
            return [spec(self.fn, self.kind, row) for row in self.rows]
        size = self.result[1]
        out = []
        for row in self.rows:
            comps = zip(*[v if isinstance(v, tuple) else (v,) * max(size, 1) for v in row])
            out.append([spec(self.fn, self.kind, c)[0] for c in comps])
        return out


def _pack(rows: list[tuple], n: int) -> list[tuple]:
    """Scalar rows packed into vecN rows, component by component (cyclically to fill the last)."""
    out = []
    for i in range(0, len(rows), n):
        chunk = [rows[i:i + n][j % len(rows[i:i + n])] for j in range(n)]
        out.append(tuple(tuple(r[k] for r in chunk) for k in range(len(rows[0]))))
    return out


def _as_f32(v: object) -> object:
    """A table's float (a tuple's floats) as the f32 the shader gets."""
    if isinstance(v, tuple):
        return tuple(_as_f32(c) for c in v)
    return f32(v) if isinstance(v, float) else v


def _cases() -> list[Case]:
    cases = []
    table = [((fn, "f"), groups) for fn, groups in F32_ROWS.items()] + list(INT_ROWS.items())
    for n, ((fn, kind), groups) in enumerate(table):
        size = 2 + n % 3  # every function on a scalar and one vector size, the sizes in turn
        for rule, rows in groups.items():
            rows = [_as_f32(r if isinstance(r, tuple) else (r,)) for r in rows]
            rows = [r for r in rows if not spec(fn, kind, r)[0].anything]  # indeterminate: dropped
            if not rows:
                continue
            kinds = [("i" if fn == "ldexp" and k == 1 else kind) for k in range(len(rows[0]))]
            result = "i" if fn == "frexp.exp" else kind
            for s in (0, size):
                cases.append(Case(fn, tuple((k, s) for k in kinds), (result, s), rule,
                                  rows if not s else _pack(rows, s)))
            if fn == "mix":  # WGSL's mix(vecN, vecN, f32): rows sharing a blend factor
                by_t: dict = {}
                for r in rows:
                    by_t.setdefault(r[-1], []).append(r)
                packed = [(*p[:-1], t) for t, same in by_t.items() for p in _pack(same, 3)]
                cases.append(Case(fn, (("f", 3), ("f", 3), ("f", 0)), ("f", 3), rule, packed))
    for (fn, kind), groups in VECTOR_ROWS.items():
        for rule, rows in groups.items():
            by_shape: dict = {}
            for r in map(_as_f32, rows):
                if not all(a.anything for a in spec(fn, kind, r)):
                    by_shape.setdefault(tuple(len(a) if isinstance(a, tuple) else 0 for a in r),
                                        []).append(r)
            for sizes, group in by_shape.items():
                scalar_result = fn in ("dot", "length", "distance")
                cases.append(Case(fn, tuple((kind, s) for s in sizes),
                                  (kind, 0 if scalar_result else sizes[0]), rule, group))
    return cases


CASES = _cases()


# ----------------------------------------------------------------------------- the two sides
def _value(kind: str, size: int, v: object) -> object:
    scalar = getattr(ash, WGSL[kind])
    return getattr(ash, f"vec{size}{kind}")(*[scalar(c) for c in v]) if size else scalar(v)


def python_values(case: Case) -> list[object]:
    """Each row through asyncshader: the built-in called from Python on asyncshader values
    (numpy's and asyncshader's indeterminate-value warnings silenced, as the rows are
    determinate); an exception is returned as the row's value."""
    head, _, field = case.fn.partition(".")
    function = getattr(ash, PY_NAMES.get(head, head))
    out = []
    for row in case.rows:
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value = function(*[_value(*t, v) for t, v in zip(case.args, row)])
            out.append(getattr(value, field) if field else value)
        except Exception as e:
            out.append(e)
    return out


def gpu_exprs(cases: list[Case]) -> list[Expr]:
    return [Expr(c.wgsl, {n: _type(*t) for n, t in zip("abc", c.args)}, _type(*c.result),
                 {n: [r[k] for r in c.rows] for k, n in enumerate("abc"[:len(c.args)])})
            for c in cases]


def mismatches(case: Case, got: list[object], expect: list[list[Accept]] | None = None,
               gpu: bool = False) -> list[str]:
    """Each row whose value or type is not what the spec says, as a line for the report."""
    kind, size = case.result
    vec = getattr(ash, f"vec{size}{kind}") if size else None
    out = []
    for i, (row, value, accept) in enumerate(zip(case.rows, got, expect or case.expected)):
        if gpu:
            comps = [value.item()] if value.ndim == 0 else [c.item() for c in value]
            typed = value.dtype == NUMPY[kind]
        elif size:
            comps = list(value) if isinstance(value, Vec) else [value]
            typed = type(value) is vec and all(type(c) is NUMPY[kind] for c in comps)
        else:
            comps, typed = [value], type(value) is NUMPY[kind]
        if not (typed and len(comps) == len(accept) and all(c in a for c, a in zip(comps, accept))):
            want = ", ".join(str(a) for a in accept)
            out.append(f"row {i}: {case.wgsl} with {dict(zip('abc', row))}: got {value!r} "
                       f"({type(value).__name__}), WGSL says {_type(kind, size)} {want}")
    return out


@pytest.fixture(scope="module")
def gpu_values(gpu_device):
    """Every case's rows evaluated on lavapipe: one evaluate call, shaders of 32 expressions."""
    return dict(zip((c.id for c in CASES), evaluate(gpu_device, gpu_exprs(CASES))))


# ------------------------------------------------------------------------------------ the tests
#: asyncshader's departures from WGSL: (WGSL head, kinds, shapes or None, rules or None, reason)
KNOWN: list = []
#: lavapipe's departures from WGSL, in the same form
LAVAPIPE: list = []


def known(table: list, case: Case) -> str | None:
    for fn, kinds, shapes, rules, reason in table:
        if case.fn == fn and case.kind in kinds and (shapes is None or case.shape in shapes) \
                and (rules is None or case.rule in rules):
            return reason
    return None


def _param(case: Case, table: list):
    reason = known(table, case)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(case, marks=marks, id=case.id)


@pytest.mark.parametrize("case", [_param(c, KNOWN) for c in CASES])
def test_asyncshader_follows_wgsl(case):
    bad = mismatches(case, python_values(case))
    assert not bad, report(bad, case)


@pytest.mark.parametrize("case", [_param(c, LAVAPIPE) for c in CASES])
def test_lavapipe_follows_wgsl(case, gpu_values):
    bad = mismatches(case, list(gpu_values[case.id]), gpu=True)
    assert not bad, report(bad, case)


# ------------------------------------------------------------- the checks that check the checks
def _one(fn: str, *args, kind: str = "f") -> object:
    [accept] = spec(fn, kind, args)
    [value] = accept.values
    return value


def test_the_reference_gives_the_spec_examples():
    # builtins_spec §5.2-5.3 and §4, values written out by hand
    assert (_one("round", 2.5), _one("round", -2.5), _one("round", 0.5)) == (2.0, -2.0, 0.0)
    assert (_one("modf.fract", -1.5), _one("modf.whole", -1.5)) == (-0.5, -1.0)
    assert (_one("frexp.fract", 1.5), _one("frexp.exp", 1.5)) == (0.75, 1)
    assert spec("frexp.exp", "f", (0.0,))[0].anything  # exp of zero: not stated
    assert spec("frexp.fract", "f", (TINY,))[0].anything  # subnormal: indeterminate
    assert (_one("abs", I32_MIN, kind="i"), _one("sign", I32_MIN, kind="i")) == (I32_MIN, -1)
    assert _one("clamp", 5, 10, 0, kind="i") == 0  # low > high: high
    assert spec("clamp", "f", (0.5, 1.0, 0.0))[0].values == {0.0, 0.5}  # min-max or median
    assert spec("fract", "f", (f32(-1e-10),))[0].values == {1.0, f32(0.99999994)}
    assert spec("ldexp", "f", (1.0, -149))[0].values == {TINY, 0.0}  # may flush
    assert _one("ldexp", 0.5, 128) == 2.0**127
    assert spec("dot", "i", ((I32_MAX, 1, 0), (2, 2, 0)))[0].values == {0}  # wraps
    assert [a.values for a in spec("faceForward", "f", ((1.0, 2.0, 3.0), (0.0, 1.0, 0.0),
                                                        (1.0, 0.0, 0.0)))] == \
        [{-1.0}, {-2.0}, {-3.0}]  # dot(e2, e3) == 0: -e1
    assert [a.values for a in spec("refract", "f", ((0.6, -0.8, 0.0), (0.0, 1.0, 0.0), 2.0))] \
        == [{0.0}] * 3  # k < 0: the zero vector
    [sqrt4] = spec("sqrt", "f", (4.0,))
    assert 2.0 in sqrt4 and 2.0 + 2**-18 not in sqrt4 and 2.0 - 2**-18 not in sqrt4
    [exp1] = spec("exp", "f", (1.0,))
    assert f32(math.e) in exp1 and f32(math.e) + 2**-19 not in exp1  # 5 ULP is 5 * 2^-22
    [sin1] = spec("sin", "f", (1.0,))  # absolute 2^-11
    assert math.sin(1) + 2**-12 in sin1 and math.sin(1) + 2**-10 not in sin1
    indeterminate = [("sqrt", (-1.0,)), ("sqrt", (0.0,)), ("log", (0.0,)), ("acos", (1.5,)),
                     ("acos", (1.0,)), ("exp", (100.0,)), ("ldexp", (1.0, 129)),
                     ("smoothstep", (2.0, 2.0, 1.0)), ("sin", (f32(math.pi),)),
                     ("normalize", ((0.0, 0.0, 0.0),))]
    for fn, args in indeterminate:
        assert all(a.anything for a in spec(fn, "f", args)), (fn, args)


def test_the_oracle_computes_what_wgsl_says(gpu_device):
    [rnd, absi, clampi, fexp, whole, dotu] = evaluate(gpu_device, [
        Expr("round(a)", {"a": "f32"}, "f32", {"a": [2.5, -2.5, 0.5, 1.5]}),
        Expr("abs(a)", {"a": "vec2i"}, "vec2i", {"a": [[I32_MIN, -3]]}),
        Expr("clamp(a, b, c)", {"a": "i32", "b": "i32", "c": "i32"}, "i32",
             {"a": [5], "b": [10], "c": [0]}),
        Expr("frexp(a).exp", {"a": "f32"}, "i32", {"a": [1.5, 1024.0]}),
        Expr("modf(a).whole", {"a": "vec2f"}, "vec2f", {"a": [[-1.5, 2.25]]}),
        Expr("dot(a, b)", {"a": "vec2u", "b": "vec2u"}, "u32",
             {"a": [[U32_MAX, 2]], "b": [[2, 3]]}),
    ])
    assert rnd.tolist() == [2.0, -2.0, 0.0, 2.0] and rnd.dtype == np.float32
    assert absi.tolist() == [[I32_MIN, 3]] and clampi.tolist() == [0]
    assert fexp.tolist() == [1, 11] and whole.tolist() == [[-1.0, 2.0]]
    assert dotu.tolist() == [4] and dotu.dtype == np.uint32


def _case(fn: str, shape: str = "scalar", rule: str = "ordinary") -> Case:
    return next(c for c in CASES if (c.fn, c.shape, c.rule) == (fn, shape, rule))


def test_a_wrong_expected_value_is_reported(gpu_values):
    # so that the differential test can fail: one row's expectation off, against lavapipe
    case = _case("round", rule="tie")
    row = next(i for i, r in enumerate(case.rows) if r == (2.5,))
    wrong = [list(r) for r in case.expected]
    wrong[row] = [exact(3.0)]
    bad = mismatches(case, list(gpu_values[case.id]), wrong, gpu=True)
    assert len(bad) == 1 and bad[0].startswith(f"row {row}: round(a) with {{'a': 2.5}}"), bad
    assert "got np.float32(2.0)" in bad[0] and bad[0].endswith("WGSL says f32 3.0")
    # an interval: exp(1) expected 2 ULP higher than the spec's bound allows
    case = _case("exp")
    row = next(i for i, r in enumerate(case.rows) if r == (1.0,))
    wrong = [list(r) for r in case.expected]
    [(_, hi)] = wrong[row][0].intervals
    wrong[row] = [Accept(intervals=((hi + 2**-22, hi + 2**-21),))]
    bad = mismatches(case, list(gpu_values[case.id]), wrong, gpu=True)
    assert [line.split(":")[0] for line in bad] == [f"row {row}"], bad
    assert not mismatches(case, list(gpu_values[case.id]), gpu=True)


def test_a_wrong_value_or_type_is_reported():
    case = _case("floor", "vec4")
    got = python_values(case)
    assert not mismatches(case, got)
    got[1] = ash.vec4i(*[int(c) for c in got[1]])  # a vec4<i32>, not a vec4<f32>
    got[2] = ash.vec4f(*[np.nextafter(c, np.float32(np.inf)) for c in got[2]])  # 1 ULP off
    bad = mismatches(case, got)
    assert [line.split(":")[0] for line in bad] == ["row 1", "row 2"], bad
    case = _case("abs", rule="INT_MIN")
    assert mismatches(case, [np.int64(2**31)])[0].endswith("(int64), WGSL says i32 -2147483648")
