"""Every scalar and vector operator of WGSL on f32/i32/u32 (and their vectors), over edge-case
inputs, judged against the spec on two sides: asyncshader's Python value semantics (the same
expression written in Python on ``ash.i32`` ... ``ash.vec4f`` values) and a real WebGPU
implementation (wgpu on Mesa's lavapipe, tests/gpu.py; those tests skip, saying what to install,
without it). See docs/oracle.md.

Expected values come from the spec's rules computed here, independently of both sides: exact
integer arithmetic on Python ints masked to 32 bits (truncating division, ``x / 0 == x``,
``x % 0 == 0``, shift counts modulo 32), and for f32 exact rationals (``fractions``) with the
spec's accuracy: ``+ - *`` and negation correctly rounded (either neighbour of the exact value),
``/`` within 2.5 ULP for |y| in [2^-126, 2^126], ``%`` inherited from ``x - y * trunc(x / y)``,
subnormal inputs and outputs possibly flushed to zero (builtins_spec §2). Rows whose result the spec
leaves indeterminate (overflow to infinity, division by zero or by a subnormal) are not tested.

The rows of each operator are split by the spec rule they exercise ("truncation (mixed signs)",
"divisor 0", "count >= 32", ...), so that a known departure is marked on exactly the rows it
concerns: ``KNOWN`` (asyncshader) and ``LAVAPIPE`` (the driver) mark them
``xfail(strict=True)``, and such a test fails, to be updated, the day the departure is fixed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np
import pytest
from gpu import Expr, evaluate, report

import asyncshader as ash
from asyncshader.wgsl.rewrite import wgsl_eval
from asyncshader.wgsl.types import Vec  # the vector types' base class

I32_MIN, I32_MAX, U32_MAX = -(2**31), 2**31 - 1, 2**32 - 1
F32_MAX = float(np.finfo(np.float32).max)
MIN_NORMAL = 2.0**-126
I32_EDGES = [0, 1, -1, 2, -2, 3, -3, 7, -7, 31, 32, 36, 768, -768, 0x40000000,
             I32_MIN, I32_MIN + 1, I32_MAX, I32_MAX - 1]
U32_EDGES = [0, 1, 2, 3, 7, 31, 32, 33, 36, 63, 768, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, U32_MAX]
COUNTS = [0, 1, 4, 31, 32, 33, 36, 63, 64, U32_MAX]
F32_EDGES = [float(np.float32(v)) for v in (
    0.0, -0.0, 1.0, -1.0, 0.5, -1.5, 3.0, -7.0, 2.5, 0.1, 1 / 3, 16777216.0, 1e10, -3e-5, 1e-30,
    MIN_NORMAL, -MIN_NORMAL, 2.0**-149, -(2.0**-149), 1.1754942e-38, 2.0**127, F32_MAX, -F32_MAX)]
TYPES = {"f": ash.f32, "i": ash.i32, "u": ash.u32}
WGSL = {"f": "f32", "i": "i32", "u": "u32", "b": "bool"}
NUMPY = {"f": np.float32, "i": np.int32, "u": np.uint32, "b": np.bool_}
#: what an asyncshader value of each kind is (WGSL's bool is a Python bool, or numpy's)
SCALARS = {**NUMPY, "b": (bool, np.bool_)}


# ------------------------------------------------------------------ the spec's rules, by hand
def wrap(v: int, kind: str) -> int:
    """v modulo 2^32, as i32 (two's complement) or u32."""
    v &= U32_MAX
    return v - 2**32 if kind == "i" and v > I32_MAX else v


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


INT_OPS = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    # WGSL §1.1: e1 / 0 is e1, INT_MIN / -1 is INT_MIN (wraps), else truncate toward zero
    "/": lambda a, b: a if b == 0 else _trunc_div(a, b),
    "%": lambda a, b: 0 if b == 0 else a - _trunc_div(a, b) * b,
    "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
    "<<": lambda a, b: a << (b % 32), ">>": lambda a, b: a >> (b % 32),  # count modulo 32
}
CMP_OPS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
           "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
UNARY_OPS = {"-": lambda a: -a, "~": lambda a: ~a}


def step(c: float, sign: int) -> np.float32:
    """The next f32 after c, upward (sign 1) or downward (-1); past F32_MAX it is infinite."""
    with np.errstate(over="ignore"):
        return np.nextafter(np.float32(c), np.float32(sign * np.inf))


def _f32_around(q: Fraction) -> tuple[float, float]:
    """The f32 values just below and just above q (equal when q is an f32); |q| <= F32_MAX."""
    c = np.float32(float(q))
    while Fraction(float(c)) > q:
        c = step(c, -1)
    while abs(float(c)) < F32_MAX and Fraction(float(step(c, 1))) <= q:
        c = step(c, 1)
    return float(c), float(c if Fraction(float(c)) == q else step(c, 1))


def _is_subnormal(x: float) -> bool:
    return 0 < abs(x) < MIN_NORMAL


def _flushed(*xs: float) -> list[tuple[float, ...]]:
    """The inputs as given and with each subnormal flushed to zero (spec: may be flushed)."""
    return sorted(set(itertools.product(*[(x, 0.0) if _is_subnormal(x) else (x,) for x in xs])))


@dataclass(frozen=True)
class Accept:
    """What the spec accepts for one component: a set of values, an f32 interval, or (indeterminate)
    anything."""

    values: frozenset = frozenset()
    interval: tuple[Fraction, Fraction] | None = None
    anything: bool = False

    def __contains__(self, got: object) -> bool:
        if self.anything or got in self.values:
            return True
        if self.interval is None or isinstance(got, (bool, np.bool_)):
            return False
        g = float(got)
        return g == g and abs(g) != np.inf and self.interval[0] <= Fraction(g) <= self.interval[1]

    def __str__(self) -> str:
        if self.anything:
            return "anything (indeterminate)"
        parts = [repr(v) for v in sorted(self.values, key=float)]
        if self.interval:
            parts.append(f"[{float(self.interval[0])!r}, {float(self.interval[1])!r}]")
        return " or ".join(parts)


ANYTHING = Accept(anything=True)


def _rounded(q: Fraction) -> Accept:
    """Correctly rounded: q or either f32 neighbour; a subnormal result may be flushed."""
    if abs(q) > F32_MAX:  # overflow: indeterminate (finite math assumption, spec §2.1)
        return ANYTHING
    down, up = _f32_around(q)
    return Accept(frozenset({down, up} | ({0.0} if _is_subnormal(down) or _is_subnormal(up)
                                          else set())))


def _ulp(q: Fraction) -> Fraction:
    """The spec's ULP(q): the least gap between two distinct finite f32s a <= q <= b."""
    down, up = _f32_around(q)
    if down != up:
        return Fraction(up) - Fraction(down)
    gaps = [abs(Fraction(down) - Fraction(float(n))) for n in (step(down, -1), step(down, 1))
            if abs(float(n)) <= F32_MAX]
    return min(gaps)


def _divided(x: float, y: float) -> Accept:
    """x / y within 2.5 ULP where |y| is in [2^-126, 2^126]; elsewhere the spec sets no bound."""
    if not MIN_NORMAL <= abs(y) <= 2.0**126:
        return ANYTHING
    q = Fraction(x) / Fraction(y)
    if _rounded(q).anything:
        return ANYTHING
    e = Fraction(5, 2) * _ulp(q)
    lo, hi = q - e, q + e
    if max(abs(lo), abs(hi)) > F32_MAX:  # the accepted results reach overflow
        return ANYTHING
    flush = {0.0} if lo < MIN_NORMAL and hi > -MIN_NORMAL else set()
    return Accept(frozenset(flush), (lo, hi))


def _f32s_in(lo: Fraction, hi: Fraction) -> list[float]:
    c, _ = _f32_around(lo)
    out = []
    while Fraction(c) <= hi:
        if Fraction(c) >= lo:
            out.append(c)
        c = float(step(c, 1))
    return out


def _remainder(x: float, y: float) -> Accept:
    """x % y inherited from x - y * trunc(x / y): the span of what its steps may give (each
    rounded either way, or fused), and of the exact value, since an implementation may be more
    accurate (spec §2.1; the CTS also accepts the span)."""
    d = _divided(x, y)
    if d.anything:
        return ANYTHING
    values = [Fraction(x) - Fraction(y) * (Fraction(x) / Fraction(y)).__trunc__()]
    for t in {float(np.trunc(v)) for v in _f32s_in(*d.interval) + list(d.values)}:
        product = Fraction(y) * Fraction(t)
        if _rounded(product).anything:  # may overflow to infinity: indeterminate
            return ANYTHING
        steps = [_rounded(Fraction(x) - Fraction(m)) for m in _rounded(product).values]
        for acc in [*steps, _rounded(Fraction(x) - product)]:
            if acc.anything:
                return ANYTHING
            values += [Fraction(v) for v in acc.values]
    lo, hi = min(values), max(values)
    return Accept(frozenset({0.0} if lo < MIN_NORMAL and hi > -MIN_NORMAL else ()), (lo, hi))


FLOAT_OPS = {
    "+": lambda x, y: _rounded(Fraction(x) + Fraction(y)),
    "-": lambda x, y: _rounded(Fraction(x) - Fraction(y)),
    "*": lambda x, y: _rounded(Fraction(x) * Fraction(y)),
    "/": _divided, "%": _remainder,
}


def _union(accepts: list[Accept]) -> Accept:
    if any(a.anything for a in accepts):
        return ANYTHING
    intervals = [a.interval for a in accepts if a.interval]
    return Accept(frozenset().union(*[a.values for a in accepts]),
                  (min(i[0] for i in intervals), max(i[1] for i in intervals)) if intervals
                  else None)


def expected(op: str, kind: str, args: tuple) -> Accept:
    """The spec's value(s) for ``op`` on one component (args are Python ints / f32 floats)."""
    if kind == "f":
        combos = _flushed(*args)
        if op in CMP_OPS:
            return Accept(frozenset(bool(CMP_OPS[op](*c)) for c in combos))
        if len(args) == 1:  # negation is exact
            return _union([_rounded(-Fraction(c[0])) for c in combos])
        return _union([FLOAT_OPS[op](*c) for c in combos])
    if op in CMP_OPS:
        return Accept(frozenset({CMP_OPS[op](*args)}))
    fn = UNARY_OPS[op] if len(args) == 1 else INT_OPS[op]
    return Accept(frozenset({wrap(fn(*args), kind)}))


def rule(op: str, kind: str, args: tuple) -> str:
    """The spec rule a row exercises (rows are grouped by it)."""
    if len(args) == 1:
        return "-INT_MIN wraps" if op == "-" and args[0] == I32_MIN else "ordinary"
    a, b = args
    if op in ("/", "%") and kind in "iu":
        if b == 0:
            return "divisor 0"
        if a == I32_MIN and b == -1:
            return "INT_MIN by -1"
        if (a < 0) != (b < 0) and a % b:
            return "truncation (mixed signs)"  # where truncating and flooring differ
    if op == "%" and kind == "f" and (a < 0) != (b < 0) and a != 0 and np.fmod(a, b) != 0:
        return "truncation (mixed signs)"
    if op in ("<<", ">>") and b >= 32:
        return "count >= 32"
    if op in ("+", "-", "*", "<<") and kind in "iu" and wrap(INT_OPS[op](a, b), kind) != \
            INT_OPS[op](a, b):
        return "wraps"
    if kind == "f" and any(_is_subnormal(x) for x in args):
        return "subnormal operand"
    return "ordinary"


# --------------------------------------------------------------------------------------- the cases
@dataclass
class Case:
    """One WGSL operator on one operand kind and shape, over the rows that exercise one rule.

    ``rows`` holds, per row, one value per operand: a number, or a tuple for a vector."""

    op: str
    kind: str  # of the operands: f, i, u (a shift count is u32 whatever the kind)
    shape: str  # "scalar", "vecN", "vecN op scalar" or "scalar op vecN"
    rule: str
    rows: list[tuple]

    @property
    def id(self) -> str:
        return f"{WGSL[self.kind]} {self.shape} {self.wgsl} [{self.rule}]"

    @property
    def unary(self) -> bool:
        return len(self.rows[0]) == 1

    @property
    def wgsl(self) -> str:
        return f"{self.op}a" if self.unary else f"a {self.op} b"

    @property
    def size(self) -> int:
        return int(self.shape.split("vec")[1][0]) if "vec" in self.shape else 0

    def operand_type(self, k: int) -> tuple[str, int]:
        """(kind, vector size or 0) of operand k."""
        kind = "u" if k == 1 and self.op in ("<<", ">>") else self.kind
        scalar = (self.shape.startswith("vec") and k == 1 and "op scalar" in self.shape) or \
            (self.shape.startswith("scalar op") and k == 0)
        return kind, 0 if scalar else self.size

    @property
    def result(self) -> tuple[str, int]:
        return ("b" if self.op in CMP_OPS else self.kind), self.size

    @cached_property
    def expected(self) -> list[list[Accept]]:
        """Per row, per component, what the spec accepts."""
        out = []
        for row in self.rows:
            comps = [[v] * max(self.size, 1) if not isinstance(v, tuple) else list(v)
                     for v in row]
            out.append([expected(self.op, self.kind, args) for args in zip(*comps)])
        return out


def _wgsl_type(kind: str, size: int) -> str:
    return WGSL[kind] if not size else f"vec{size}<{WGSL[kind]}>"


def _vector_rows(rows: list[tuple], n: int, splat: int | None) -> list[tuple]:
    """Packs scalar rows into vecN rows, component by component (cyclically to fill the last);
    operand ``splat`` stays scalar, so only rows sharing its value are packed together."""
    if splat is None:
        chunks = [rows[i:i + n] for i in range(0, len(rows), n)]
    else:
        by_value: dict = {}
        for r in rows:
            by_value.setdefault(r[splat], []).append(r)
        chunks = [same[i:i + n] for same in by_value.values() for i in range(0, len(same), n)]
    packed = []
    for chunk in chunks:
        chunk = [chunk[j % len(chunk)] for j in range(n)]
        packed.append(tuple(chunk[0][k] if k == splat else tuple(r[k] for r in chunk)
                            for k in range(len(chunk[0]))))
    return packed


def _scalar_rows(op: str, kind: str) -> list[tuple]:
    edges = {"f": F32_EDGES, "i": I32_EDGES, "u": U32_EDGES}[kind]
    if op in ("<<", ">>"):
        return list(itertools.product(edges, COUNTS))
    return list(itertools.product(edges, edges))


def _cases() -> list[Case]:
    ops = []
    for kind in "fiu":
        binary = ["+", "-", "*", "/", "%", *CMP_OPS] + (
            ["&", "|", "^", "<<", ">>"] if kind in "iu" else [])
        ops += [(op, kind, False) for op in binary]
        ops += [(op, kind, True) for op in ("-", "~") if (op, kind) not in (("-", "u"), ("~", "f"))]
    cases = []
    for op, kind, unary in ops:
        edges = {"f": F32_EDGES, "i": I32_EDGES, "u": U32_EDGES}[kind]
        rows = [(a,) for a in edges] if unary else _scalar_rows(op, kind)
        rows = [r for r in rows if not expected(op, kind, r).anything]
        by_rule: dict[str, list[tuple]] = {}
        for r in rows:
            by_rule.setdefault(rule(op, kind, r), []).append(r)
        for name, group in by_rule.items():
            cases.append(Case(op, kind, "scalar", name, group))
            for n in (2, 3, 4):
                cases.append(Case(op, kind, f"vec{n}", name, _vector_rows(group, n, None)))
            if op in ("+", "-", "*", "/", "%") and not unary:  # WGSL's vector-scalar forms
                cases.append(Case(op, kind, "vec3 op scalar", name, _vector_rows(group, 3, 1)))
                cases.append(Case(op, kind, "scalar op vec3", name, _vector_rows(group, 3, 0)))
    return cases


CASES = _cases()


# ----------------------------------------------------------------------------- the two sides
def spellings(case: Case) -> list[str]:
    """How a user writes the case's WGSL expression in Python, on asyncshader values."""
    if case.unary:
        return [case.wgsl]
    if case.size and case.op in ("==", "!="):
        return ["a.eq(b)" if case.op == "==" else "a.ne(b)"]  # the component-wise spellings
    out = [case.wgsl]
    if case.op == "/" and case.kind in "iu":
        out.append("a // b")  # the integer division spelling kernels also use (an alias)
    return out


def _value(kind: str, size: int, v: object) -> object:
    if not size:
        return TYPES[kind](v)
    return getattr(ash, f"vec{size}{kind}")(*[TYPES[kind](c) for c in v])


def python_values(case: Case, spelling: str) -> list[object]:
    """The Python expression on asyncshader values as a shader runs it (its operators
    rewritten as a shader's source is: ``wgsl_eval``), row by row (numpy's warnings silenced,
    as inside a dispatch); an exception is returned as the row's value."""
    out = []
    for row in case.rows:
        env = {name: _value(*case.operand_type(k), v) for k, (name, v) in enumerate(zip("ab", row))}
        try:
            with np.errstate(all="ignore"):
                out.append(wgsl_eval(spelling, env))
        except Exception as e:
            out.append(e)
    return out


def mismatches(case: Case, got: list[object], expect: list[list[Accept]] | None = None,
               label: str = "", gpu: bool = False) -> list[str]:
    """Each row whose value or type is not what the spec says, as a line for the report. ``got``
    holds asyncshader values, or with ``gpu`` the oracle's rows (numpy arrays)."""
    kind, size = case.result
    vec = getattr(ash, f"vec{size}{kind}") if size else None
    out = []
    for i, (row, value, accept) in enumerate(zip(case.rows, got, expect or case.expected)):
        if gpu:
            comps = [value.item()] if value.ndim == 0 else [c.item() for c in value]
            typed = value.dtype == NUMPY[kind]
        elif size:
            comps = list(value) if isinstance(value, Vec) else [value]
            typed = type(value) is vec and all(isinstance(c, SCALARS[kind]) for c in comps)
        else:
            comps = [value]
            typed = isinstance(value, SCALARS[kind])
        ok = typed and len(comps) == len(accept) and all(c in a for c, a in zip(comps, accept))
        if not ok:
            want = ", ".join(str(a) for a in accept)
            out.append(f"row {i}: {label or case.wgsl} with {dict(zip('ab', row))}: got {value!r} "
                       f"({type(value).__name__}), WGSL says {_wgsl_type(kind, size)} {want}")
    return out


@pytest.fixture(scope="module")
def gpu_values(gpu_device):
    """Every case's rows evaluated on lavapipe: one shader, one dispatch."""
    exprs = [Expr(c.wgsl, {name: _wgsl_type(*c.operand_type(k))
                           for k, name in enumerate("ab"[:len(c.rows[0])])},
                  _wgsl_type(*c.result),
                  {name: [r[k] for r in c.rows] for k, name in enumerate("ab"[:len(c.rows[0])])})
             for c in CASES]
    return dict(zip((c.id for c in CASES), evaluate(gpu_device, exprs)))


# ------------------------------------------------------------------------------------ the tests
VECTORS = ("vec2", "vec3", "vec4")
#: asyncshader departures from WGSL, as (kinds, shapes, spelling, rules or None for all, reason)
KNOWN: list = [
    # empty: asyncshader rewrites a shader's / // % << >> to WGSL's operators, so every case
    # (i32 // and % truncating, integer /, e / 0, shift counts >= 32, i32 << u32, f32 %, a
    # numpy scalar on the left of a vector, vecN<i32> shifted by vecN<u32>, vector //,
    # component-wise !=) follows WGSL; an entry here marks a case strict-xfail
]
#: lavapipe's departures from WGSL among these operators, in the same form: none found (its
#: known ones are in the packing built-ins, see docs/oracle.md)
LAVAPIPE: list = []


def known(table: list, case: Case, spelling: str | None = None) -> str | None:
    """The reason ``table`` gives for the case (as written in ``spelling``), or None."""
    shape = "vec3 op scalar" if "op scalar" in case.shape else (
        "scalar op vec3" if case.shape.startswith("scalar op") else case.shape)
    for kinds, shapes, spelled, rules, reason in table:
        if case.kind in kinds and shape in shapes and spelled in (None, spelling) and \
                (rules is None or case.rule in rules):
            return reason
    return None


def _param(case: Case, table: list, spelling: str | None = None):
    reason = known(table, case, spelling)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(case, *([spelling] if spelling else []), marks=marks,
                        id=case.id + (f" as {spelling}" if spelling else ""))


ASYNCSHADER_PARAMS = [_param(c, KNOWN, s) for c in CASES for s in spellings(c)]


@pytest.mark.parametrize(("case", "spelling"), ASYNCSHADER_PARAMS)
def test_asyncshader_follows_wgsl(case, spelling):
    bad = mismatches(case, python_values(case, spelling), label=spelling)
    assert not bad, report(bad, case)


@pytest.mark.parametrize("case", [_param(c, LAVAPIPE) for c in CASES])
def test_lavapipe_follows_wgsl(case, gpu_values):
    bad = mismatches(case, list(gpu_values[case.id]), gpu=True)
    assert not bad, report(bad, case)


# ------------------------------------------------------------- the checks that check the checks
def test_the_reference_gives_the_spec_examples():
    # builtins_spec §1.1a and §2.2, values written out by hand
    def one(op, kind, *args):
        [value] = expected(op, kind, args).values
        return value

    assert (one("/", "i", -7, 2), one("%", "i", -7, 2), one("%", "i", 7, -2)) == (-3, -1, 1)
    assert (one("/", "i", 5, 0), one("%", "i", 5, 0), one("/", "u", 5, 0)) == (5, 0, 5)
    assert (one("/", "i", I32_MIN, -1), one("%", "i", I32_MIN, -1)) == (I32_MIN, 0)
    assert (one("-", "i", I32_MIN), one("+", "u", U32_MAX, 1), one("+", "i", I32_MAX, 1)) == \
        (I32_MIN, 0, I32_MIN)
    assert (one("<<", "u", 1, 33), one("<<", "i", 1, 31), one("<<", "u", U32_MAX, 36)) == \
        (2, I32_MIN, 0xFFFFFFF0)
    assert (one(">>", "i", -8, 1), one(">>", "i", -8, 33), one(">>", "u", 0x80000000, 1)) == \
        (-4, -4, 0x40000000)
    assert expected("%", "f", (-7.0, 2.0)).interval == (-1, -1)
    assert expected("+", "f", (1.0, 2.0**-24)).values == {1.0, 1.0 + 2.0**-23}  # a tie: either
    assert 1.0 + 2.0**-22 not in expected("+", "f", (1.0, 2.0**-24))
    assert expected("*", "f", (2.0**-149, 0.5)).values == {0.0, 2.0**-149}  # may flush
    third = expected("/", "f", (1.0, 3.0))
    assert float(np.float32(1 / 3)) in third and 0.3333 not in third
    assert expected("/", "f", (1.0, 0.0)).anything  # indeterminate: not tested
    assert expected("+", "f", (F32_MAX, F32_MAX)).anything


def test_the_oracle_computes_what_wgsl_says(gpu_device):
    a_i, b_i = [-7, 7, 5, I32_MIN, -1], [2, -2, 0, -1, 768]
    [div, rem, shl, shr, lt, add, sel] = evaluate(gpu_device, [
        Expr("a / b", {"a": "i32", "b": "i32"}, "i32", {"a": a_i, "b": b_i}),
        Expr("a % b", {"a": "i32", "b": "i32"}, "i32", {"a": a_i, "b": b_i}),
        Expr("a << b", {"a": "u32", "b": "u32"}, "u32", {"a": [U32_MAX, 1], "b": [36, 33]}),
        Expr("a >> b", {"a": "vec2i", "b": "vec2u"}, "vec2i", {"a": [[-8, -8]], "b": [[1, 33]]}),
        Expr("a < b", {"a": "vec3<f32>", "b": "vec3f"}, "vec3<bool>",
             {"a": [[1, 2, -0.0]], "b": [[2, 2, 0.0]]}),
        Expr("a + b", {"a": "f32", "b": "f32"}, "f32", {"a": [0.5, 2.0**-149], "b": [0.25, 0]}),
        Expr("select(1i, -1i, a)", {"a": "bool"}, "i32", {"a": [True, False]}),
    ])
    assert div.tolist() == [-3, -3, 5, I32_MIN, 0] and div.dtype == np.int32
    assert rem.tolist() == [-1, 1, 0, 0, -1]
    assert shl.tolist() == [0xFFFFFFF0, 2] and shl.dtype == np.uint32
    assert shr.tolist() == [[-4, -4]]
    assert lt.tolist() == [[True, False, False]] and lt.dtype == np.bool_
    assert add.tolist() == [0.75, 2.0**-149] and add.dtype == np.float32
    assert sel.tolist() == [-1, 1]  # a bool input


def _a_case(op="/", kind="i", rule_name="truncation (mixed signs)"):
    return next(c for c in CASES if (c.op, c.kind, c.shape, c.rule) == (op, kind, "scalar",
                                                                       rule_name))


def test_a_wrong_expected_value_is_reported(gpu_values):
    # so that the differential test can fail: one row's expectation off by one, against lavapipe
    case = _a_case()
    wrong = [list(row) for row in case.expected]
    [right] = wrong[3][0].values
    wrong[3] = [Accept(frozenset({right + 1}))]
    bad = mismatches(case, list(gpu_values[case.id]), wrong, gpu=True)
    assert len(bad) == 1 and bad[0].startswith("row 3: a / b"), bad
    assert f"got np.int32({right})" in bad[0] and bad[0].endswith(f"WGSL says i32 {right + 1}")
    assert not mismatches(case, list(gpu_values[case.id]), gpu=True)


def test_a_wrong_value_or_type_is_reported():
    case = _a_case("+", "f", "ordinary")
    got = [np.float32(min(acc.values)) for [acc] in case.expected]
    assert not mismatches(case, got)
    got[5] = np.float32(np.nextafter(np.nextafter(got[5], np.float32(np.inf)), np.float32(np.inf)))
    got[7] = np.float64(got[7])
    bad = mismatches(case, got)
    assert [line.split(":")[0] for line in bad] == ["row 5", "row 7"], bad
    assert "(float64), WGSL says f32" in bad[1]
    vec = _a_case("<", "u", "ordinary")
    vec = next(c for c in CASES if c.id == vec.id.replace("scalar", "vec2"))
    got = [ash.vec2b(*[next(iter(a.values)) for a in row]) for row in vec.expected]
    assert not mismatches(vec, got)
    got[0] = ash.vec2u(*got[0])
    assert mismatches(vec, got)[0].startswith("row 0: a < b"), "a vec2u is not a vec2<bool>"
