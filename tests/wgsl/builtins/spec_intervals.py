"""What WGSL's spec accepts for each numeric built-in on f32, i32 and u32 components: the
references of tests/wgsl/builtins/test_builtins_on_gpu.py, computed from the spec alone
(builtins_spec §2, §4, §5.2-5.3), never by asyncshader or a GPU.

``spec(fn, kind, args)`` gives, per component of the result, an :class:`Accept`: exact values
(exact and correctly rounded results: either f32 neighbour of the exact value, from
``fractions``), intervals (ULP and absolute bounds around 113-bit ``mpmath`` values; for the
functions whose accuracy WGSL inherits from a formula, the formula in interval arithmetic with
each step's own bound, as the CTS does, builtins_spec §2.3), or ``anything``: WGSL leaves the
result indeterminate (outside the domain, overflow, a step whose accuracy is unbounded there),
and the test drops the row. Subnormal inputs and outputs of every step may be flushed to zero
(§2.1); the sign of a zero is not checked (implementations may ignore it, §2.1).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

try:  # 113-bit references where mpmath is installed, float64 (math) otherwise: both err far
    import mpmath  # below every bound used here (the tightest, 2 ULP of an f32, is 2^-23 relative)
except ImportError:  # pragma: no cover (mpmath comes with sympy; not a dependency)
    mpmath = None

I32_MIN, I32_MAX, U32_MAX = -(2**31), 2**31 - 1, 2**32 - 1
F32_MAX = float(np.finfo(np.float32).max)
MIN_NORMAL, TINY = 2.0**-126, 2.0**-149
LARGEST_SUBNORMAL = MIN_NORMAL - TINY
WGSL = {"f": "f32", "i": "i32", "u": "u32"}
NUMPY = {"f": np.float32, "i": np.int32, "u": np.uint32}
Iv = tuple[Fraction, Fraction]  # an interval of reals; None where the spec bounds nothing


def f32(x: float) -> float:
    return float(np.float32(x))


# ------------------------------------------------------------- what the spec accepts for a value
@dataclass(frozen=True)
class Accept:
    """What the spec accepts for one component: exact values, intervals, or (indeterminate:
    the row is dropped) anything."""

    values: frozenset = frozenset()
    intervals: tuple = ()
    anything: bool = False

    def __contains__(self, got: object) -> bool:
        if self.anything or got in self.values:  # 0.0 == -0.0: the zero's sign is not checked
            return True
        g = float(got)
        return math.isfinite(g) and any(lo <= Fraction(g) <= hi for lo, hi in self.intervals)

    def __str__(self) -> str:
        parts = [repr(v) for v in sorted(self.values, key=float)]
        parts += [f"[{float(lo)!r}, {float(hi)!r}]" for lo, hi in self.intervals]
        return "anything (indeterminate)" if self.anything else " or ".join(parts)


ANYTHING = Accept(anything=True)


def exact(*values) -> Accept:
    return Accept(frozenset(values))


def union(accepts: list[Accept]) -> Accept:
    if any(a.anything for a in accepts):
        return ANYTHING
    return Accept(frozenset().union(*[a.values for a in accepts]),
                  tuple(dict.fromkeys(i for a in accepts for i in a.intervals)))


def _step(c: float, sign: int) -> float:
    with np.errstate(over="ignore"):
        return float(np.nextafter(np.float32(c), np.float32(sign * np.inf)))


def around(q: Fraction) -> tuple[float, float]:
    """The f32 values just below and just above q (equal when q is an f32); |q| <= F32_MAX."""
    c = f32(float(q))
    while Fraction(c) > q:
        c = _step(c, -1)
    while c < F32_MAX and Fraction(_step(c, 1)) <= q:
        c = _step(c, 1)
    return c, (c if Fraction(c) == q else _step(c, 1))


def ulp(q: Fraction) -> Fraction:
    """WGSL's ULP(q): the least gap between two distinct finite f32 a <= q <= b (§2.1)."""
    down, up = around(q)
    if down != up:
        return Fraction(up) - Fraction(down)
    return min(abs(Fraction(down) - Fraction(n)) for n in (_step(down, -1), _step(down, 1))
               if abs(n) <= F32_MAX)


def _subnormal_range(lo: Fraction, hi: Fraction) -> bool:
    return lo < MIN_NORMAL and hi > -MIN_NORMAL and (lo, hi) != (0, 0)


def rounded(q: Fraction) -> Accept:
    """Correctly rounded: q or either f32 neighbour; a subnormal may be flushed (§2.1)."""
    if abs(q) > F32_MAX:  # overflow: indeterminate (finite math assumption)
        return ANYTHING
    down, up = around(q)
    return exact(down, up, *([0.0] if _subnormal_range(Fraction(down), Fraction(up)) else []))


def accept_interval(iv: Iv | None) -> Accept:
    if iv is None:
        return ANYTHING
    return Accept(frozenset([0.0] if _subnormal_range(*iv) else []), (iv,))


# ------------------------------------------------ interval arithmetic: each step with its bound
def pt(x: float) -> Iv:
    return Fraction(x), Fraction(x)


def _none(f):
    def wrapped(*ivs):
        return None if any(iv is None for iv in ivs) else f(*ivs)
    return wrapped


def cr(lo: Fraction, hi: Fraction) -> Iv | None:
    """A correctly rounded step: widened to the f32 neighbours, and to 0 where it may flush."""
    if max(abs(lo), abs(hi)) > F32_MAX:
        return None
    lo, hi = Fraction(around(lo)[0]), Fraction(around(hi)[1])
    return (min(lo, 0), max(hi, 0)) if _subnormal_range(lo, hi) else (lo, hi)


def widen(lo: Fraction, hi: Fraction, n_lo: Fraction, n_hi: Fraction | None = None) -> Iv | None:
    """[lo - n_lo ULP(lo), hi + n_hi ULP(hi)] (an ULP bound); None past the finite range."""
    if max(abs(lo), abs(hi)) > F32_MAX:
        return None
    lo, hi = lo - n_lo * ulp(lo), hi + (n_lo if n_hi is None else n_hi) * ulp(hi)
    return cr(lo, hi) if max(abs(lo), abs(hi)) <= F32_MAX else None


add = _none(lambda a, b: cr(a[0] + b[0], a[1] + b[1]))
sub = _none(lambda a, b: cr(a[0] - b[1], a[1] - b[0]))


@_none
def mul(a: Iv, b: Iv) -> Iv | None:
    ps = [x * y for x in a for y in b]
    return cr(min(ps), max(ps))


@_none
def div(a: Iv, b: Iv) -> Iv | None:
    """x / y: 2.5 ULP where |y| is in [2^-126, 2^126], unbounded elsewhere (§2.2)."""
    if b[0] <= 0 <= b[1] or not (MIN_NORMAL <= min(map(abs, b)) and max(map(abs, b)) <= 2**126):
        return None
    qs = [x / y for x in a for y in b]
    return widen(min(qs), max(qs), Fraction(5, 2))


_MATH = {"exp": math.exp, "exp2": lambda x: 2.0**x, "log": math.log, "log2": math.log2,
         "sin": math.sin, "cos": math.cos, "atan": math.atan, "atan2": math.atan2,
         "acos": math.acos, "asin": math.asin, "tanh": math.tanh,
         "inverseSqrt": lambda x: 1 / math.sqrt(x)}
_MP = {"exp2": lambda x: mpmath.power(2, x), "log2": lambda x: mpmath.log(x, 2),
       "inverseSqrt": lambda x: 1 / mpmath.sqrt(x)}


def real(f: str, *xs: Fraction) -> Fraction:
    """The function named f at the exact arguments, as an exact Fraction: mpmath's 113 bits,
    or float64 without mpmath (the reference's error is far below every bound)."""
    if mpmath is None:
        return Fraction(_MATH[f](*map(float, xs)))
    with mpmath.workprec(113):
        args = [mpmath.mpf(x.numerator) / x.denominator for x in xs]
        sign, m, e, _ = mpmath.mpf(_MP.get(f, getattr(mpmath, f, None))(*args))._mpf_
    return (-1) ** sign * Fraction(m) * Fraction(2) ** e


def mono(f: str, iv: Iv, increasing: bool = True) -> tuple[Fraction, Fraction]:
    lo, hi = real(f, iv[0]), real(f, iv[1])
    return (lo, hi) if increasing else (hi, lo)


@_none
def exp_(iv: Iv, f: str = "exp") -> Iv | None:
    """exp, exp2: 3 + 2|x| ULP (§4)."""
    lo, hi = mono(f, iv)
    return widen(lo, hi, 3 + 2 * max(map(abs, iv)))


@_none
def log_(iv: Iv, f: str = "log") -> Iv | None:
    """log, log2: absolute 2^-21 on [0.5, 2], 3 ULP elsewhere; domain x > 0 (§4, CTS)."""
    if iv[0] <= 0:
        return None
    lo, hi = mono(f, iv)

    def tol(x, y):
        return Fraction(1, 2**21) if Fraction(1, 2) <= x <= 2 else 3 * ulp(y)
    return cr(lo - tol(iv[0], lo), hi + tol(iv[1], hi))


@_none
def inverse_sqrt_(iv: Iv) -> Iv | None:
    """inverseSqrt: 2 ULP, domain x > 0 (§4, CTS)."""
    if iv[0] <= 0:
        return None
    return widen(*mono("inverseSqrt", iv, increasing=False), 2)


def sqrt_(iv: Iv | None) -> Iv | None:
    return div(pt(1.0), inverse_sqrt_(iv))  # inherited from 1.0 / inverseSqrt(x)


@_none
def atan2_(y: Iv, x: Iv) -> Iv | None:
    """4096 ULP for finite normal y and |x| in [2^-126, 2^126]; corners, as it is monotone in
    each argument inside a quadrant (§4)."""
    if min(map(abs, y)) < MIN_NORMAL or y[0] < 0 < y[1] or x[0] < 0 < x[1] or \
            not (MIN_NORMAL <= min(map(abs, x)) and max(map(abs, x)) <= 2**126):
        return None
    vs = [real("atan2", a, b) for a in y for b in x]
    return widen(min(vs), max(vs), 4096)


def _sin_cos(x: float, f) -> Iv | None:
    """sin, cos: absolute 2^-11 on [-π, π]; unbounded outside (§4)."""
    if abs(x) > math.pi:  # the f32 nearest π is above π: outside too
        return None
    v = real(f, Fraction(x))
    return cr(v - Fraction(1, 2**11), v + Fraction(1, 2**11))


def hull(*ivs: Iv | None) -> Iv | None:
    """The span of several accepted intervals (the CTS's 'worse of' and alternative formulas)."""
    if any(iv is None for iv in ivs):
        return None
    return min(iv[0] for iv in ivs), max(iv[1] for iv in ivs)


def sums(terms: list) -> Iv | None:
    """Σ terms in every association and order (reassociation is allowed, §2.1)."""
    if len(terms) == 1:
        return terms[0]
    out = []
    rest = list(range(1, len(terms)))
    for r in range(len(rest) + 1):
        for left in itertools.combinations(rest, r):
            a = [terms[0]] + [terms[i] for i in left]
            b = [terms[i] for i in rest if i not in left]
            if b:
                out.append(add(sums(a), sums(b)))
    return hull(*out)


def dot_(a: tuple, b: tuple) -> Iv | None:
    return sums([mul(pt(x), pt(y)) for x, y in zip(a, b)])


# --------------------------------------------------- the spec's value of each built-in (§4, §5)
def const(text: str) -> Iv | None:
    """A constant of a formula (an AbstractFloat), converted to f32: either neighbour."""
    return cr(Fraction(text), Fraction(text))


def clip01(iv: Iv | None) -> Iv | None:
    return None if iv is None else tuple(max(Fraction(0), min(Fraction(1), v)) for v in iv)


def _abs_bound(f, x: float, e: str) -> Iv:
    v = real(f, Fraction(x))
    return v - Fraction(e), v + Fraction(e)


def _sinh(x):
    return mul(sub(exp_(pt(x)), exp_(pt(-x))), pt(0.5))


def _cosh(x):
    return mul(add(exp_(pt(x)), exp_(pt(-x))), pt(0.5))


def _one_minus_square(x):
    return sub(pt(1.0), mul(pt(x), pt(x)))


def _acos(x):
    if abs(x) > 1:
        return None
    return hull(_abs_bound("acos", x, "6.77e-5"), atan2_(sqrt_(_one_minus_square(x)), pt(x)))


def _asin(x):
    if abs(x) > 1:
        return None
    return hull(_abs_bound("asin", x, "6.81e-5"), atan2_(pt(x), sqrt_(_one_minus_square(x))))


def _acosh(x):
    """Inherited from log(x + sqrt(x*x - 1)); the CTS also accepts log(x + sqrt((x+1)*(x-1)))."""
    if x < 1:
        return None
    one = pt(1.0)
    return hull(log_(add(pt(x), sqrt_(sub(mul(pt(x), pt(x)), one)))),
                log_(add(pt(x), sqrt_(mul(add(pt(x), one), sub(pt(x), one))))))


def _mix(a, b, t):
    """Inherited from a * (1 - t) + b * t; the CTS also accepts a + (b - a) * t."""
    return hull(add(mul(pt(a), sub(pt(1.0), pt(t))), mul(pt(b), pt(t))),
                add(pt(a), mul(sub(pt(b), pt(a)), pt(t))))


def _smoothstep(e0, e1, x):
    t = clip01(div(sub(pt(x), pt(e0)), sub(pt(e1), pt(e0))))  # e0 == e1: unbounded
    return mul(mul(t, t), sub(pt(3.0), mul(pt(2.0), t)))


def _frexp(x: float, field: str) -> Accept:
    if 0 < abs(x) < MIN_NORMAL:
        return ANYTHING  # subnormal: both fields indeterminate (§5.2)
    if x == 0:
        return exact(0.0) if field == "fract" else ANYTHING  # exp of zero: not stated
    m, e = math.frexp(x)
    return exact(m if field == "fract" else e)


def _quantize(x: float) -> Accept:
    if abs(x) > 65504:
        return ANYTHING  # outside f16's finite range: indeterminate
    h = np.float16(x)
    cands = {float(h)}
    if float(h) != x:  # the other f16 neighbour of x
        cands.add(float(np.nextafter(h, np.float16(np.inf if float(h) < x else -np.inf))))
    return exact(*cands, *([0.0] if any(abs(c) < 2.0**-14 for c in cands) else []))


def _ldexp(x: float, e: int) -> Accept:
    v = Fraction(x) * Fraction(2) ** e
    if e > 128 or abs(v) > F32_MAX:
        return ANYTHING  # e2 > bias + 1, or overflow: indeterminate
    out = rounded(v)
    return union([out, exact(0.0)]) if e + 127 <= 0 else out


def _clamp(e, lo, hi, kind):
    minmax = min(max(e, lo), hi) if kind in "iu" else _wmin(_wmax(e, lo), hi)
    if kind in "iu":
        return exact(minmax)
    return exact(minmax, sorted([e, lo, hi])[1])  # floats: min-max or the median (§5.2)


def _wmax(a, b):
    return b if a < b else a  # WGSL's definition (§5.2)


def _wmin(a, b):
    return b if b < a else a


def _both_subnormal(f):
    def ref(a, b):
        if 0 < abs(a) < MIN_NORMAL and 0 < abs(b) < MIN_NORMAL:
            return exact(a, b)  # either may be returned (§4)
        return exact(f(a, b))
    return ref


def _interval(f):
    return lambda *a: accept_interval(f(*a))


def _wrap(v: int, kind: str) -> int:
    v &= U32_MAX
    return v - 2**32 if kind == "i" and v > I32_MAX else v


#: component-wise references on f32 components: WGSL expression head -> f(*floats) -> Accept
F32_REFS = {
    "abs": lambda x: exact(abs(x)),
    "ceil": lambda x: exact(float(math.ceil(x))),
    "floor": lambda x: exact(float(math.floor(x))),
    "trunc": lambda x: exact(float(math.trunc(x))),
    "round": lambda x: exact(float(round(x))),  # Python's round of a float: ties to even
    "sign": lambda x: exact(float((x > 0) - (x < 0))),
    "saturate": lambda x: exact(min(max(x, 0.0), 1.0)),
    "fract": lambda x: rounded(Fraction(x) - math.floor(x)),  # inherited from x - floor(x)
    "modf.fract": lambda x: exact(x - math.trunc(x)),
    "modf.whole": lambda x: exact(float(math.trunc(x))),
    "frexp.fract": lambda x: _frexp(x, "fract"),
    "frexp.exp": lambda x: _frexp(x, "exp"),
    "quantizeToF16": _quantize,
    "ldexp": _ldexp,
    "min": _both_subnormal(_wmin),
    "max": _both_subnormal(_wmax),
    "clamp": lambda e, lo, hi: _clamp(e, lo, hi, "f"),
    "step": lambda edge, x: exact(1.0 if edge <= x else 0.0),
    "sqrt": _interval(lambda x: sqrt_(pt(x))),
    "inverseSqrt": _interval(lambda x: inverse_sqrt_(pt(x))),
    "exp": _interval(lambda x: exp_(pt(x))),
    "exp2": _interval(lambda x: exp_(pt(x), "exp2") if x < 128 else None),
    "log": _interval(lambda x: log_(pt(x))),
    "log2": _interval(lambda x: log_(pt(x), "log2")),
    "sin": _interval(lambda x: _sin_cos(x, "sin")),
    "cos": _interval(lambda x: _sin_cos(x, "cos")),
    "tan": _interval(lambda x: div(_sin_cos(x, "sin"), _sin_cos(x, "cos"))),
    "atan": _interval(lambda x: widen(*mono("atan", pt(x)), 4096)),
    "atan2": _interval(lambda y, x: atan2_(pt(y), pt(x))),
    "acos": _interval(_acos),
    "asin": _interval(_asin),
    "acosh": _interval(_acosh),
    "asinh": _interval(lambda x: log_(add(pt(x), sqrt_(add(mul(pt(x), pt(x)), pt(1.0)))))),
    "atanh": _interval(lambda x: mul(log_(div(add(pt(1.0), pt(x)), sub(pt(1.0), pt(x)))),
                                     pt(0.5))),
    "sinh": _interval(_sinh),
    "cosh": _interval(_cosh),
    "tanh": _interval(lambda x: hull(_abs_bound("tanh", x, "1e-5"),
                                     div(_sinh(x), _cosh(x)))),
    "degrees": _interval(lambda x: mul(pt(x), const("57.295779513082322865"))),
    "radians": _interval(lambda x: mul(pt(x), const("0.017453292519943295474"))),
    "pow": _interval(lambda x, y: exp_(mul(pt(y), log_(pt(x), "log2")), "exp2")),
    "fma": _interval(lambda a, b, c: add(mul(pt(a), pt(b)), pt(c))),
    "mix": _interval(_mix),
    "smoothstep": _interval(_smoothstep),
}
INT_REFS = {
    "abs": lambda k, x: exact(_wrap(abs(x), k)),  # abs(INT_MIN) wraps to INT_MIN
    "sign": lambda k, x: exact((x > 0) - (x < 0)),
    "min": lambda k, a, b: exact(min(a, b)),
    "max": lambda k, a, b: exact(max(a, b)),
    "clamp": lambda k, e, lo, hi: _clamp(e, lo, hi, k),  # low > high: high (min of max)
}


# ----------------------------------------------------------------- vector functions (§5.3)
def _dot(kind, a, b):
    if kind in "iu":  # integer dot: sum of wrapping products (WGSL does not say otherwise)
        return exact(_wrap(sum(x * y for x, y in zip(a, b)), kind))
    return accept_interval(dot_(a, b))


def _length(v):
    if not isinstance(v, tuple):
        return accept_interval(sqrt_(mul(pt(v), pt(v))))  # scalar: sqrt(x * x)
    return accept_interval(sqrt_(dot_(v, v)))


def _distance(a, b):
    d = [sub(pt(x), pt(y)) for x, y in zip(a, b)] if isinstance(a, tuple) else [sub(pt(a), pt(b))]
    return accept_interval(sqrt_(sums([mul(x, x) for x in d])))


def _normalize(v):
    length = sqrt_(dot_(v, v))
    return [accept_interval(div(pt(x), length)) for x in v]


def _cross(a, b):
    return [accept_interval(sub(mul(pt(a[j]), pt(b[k])), mul(pt(a[k]), pt(b[j]))))
            for j, k in ((1, 2), (2, 0), (0, 1))]


def _face_forward(e1, e2, e3):
    d = dot_(e2, e3)
    if d is None:
        return [ANYTHING] * len(e1)
    picks = ([1] if d[0] < 0 else []) + ([-1] if d[1] >= 0 else [])  # e1 iff dot(e2, e3) < 0
    return [exact(*[s * x for s in picks]) for x in e1]


def _reflect(e1, e2):
    twice = mul(pt(2.0), dot_(e2, e1))
    return [accept_interval(sub(pt(x), mul(twice, pt(n)))) for x, n in zip(e1, e2)]


def _refract(e1, e2, eta):
    d = dot_(e2, e1)
    k = sub(pt(1.0), mul(mul(pt(eta), pt(eta)), sub(pt(1.0), mul(d, d))))
    if k is not None and k[1] < 0:
        return [exact(0.0)] * len(e1)  # k < 0: the zero vector exactly
    if k is None or k[0] < MIN_NORMAL:
        return [ANYTHING] * len(e1)  # k near 0: unbounded (CTS)
    scale = add(mul(pt(eta), d), sqrt_(k))
    return [accept_interval(sub(mul(pt(eta), pt(x)), mul(scale, pt(n)))) for x, n in zip(e1, e2)]


VECTOR_REFS = {"dot": _dot, "length": _length, "distance": _distance, "normalize": _normalize,
               "cross": _cross, "faceForward": _face_forward, "reflect": _reflect,
               "refract": _refract}


def _subnormal(x) -> bool:
    return isinstance(x, float) and 0 < abs(x) < MIN_NORMAL


def flushed(args: tuple) -> list[tuple]:
    """The arguments as given and with each subnormal f32 component flushed to zero (§2.1)."""
    flat = [c for a in args for c in (a if isinstance(a, tuple) else (a,))]
    out = []
    for combo in itertools.product(*[(c, 0.0) if _subnormal(c) else (c,) for c in flat]):
        it = iter(combo)
        out.append(tuple(tuple(next(it) for _ in a) if isinstance(a, tuple) else next(it)
                         for a in args))
    return out


def spec(fn: str, kind: str, args: tuple) -> list[Accept]:
    """What the spec accepts for each component of fn(*args) (one Accept for a scalar)."""
    if fn in VECTOR_REFS:
        per = [VECTOR_REFS[fn](*([kind] if fn == "dot" else []), *a) for a in flushed(args)]
        per = [p if isinstance(p, list) else [p] for p in per]
        return [union(list(c)) for c in zip(*per)]
    if kind in "iu":
        return [INT_REFS[fn](kind, *args)]
    return [union([F32_REFS[fn](*a) for a in flushed(args)])]


