"""WGSL's component-wise numeric built-ins (§17.5) other than the transcendental ones:
``abs``, ``sign``, ``min``, ``max``, ``clamp``, ``saturate``, ``step``, ``smoothstep``, ``mix``,
``fma``, rounding (``ceil``, ``floor``, ``trunc``, ``round``, ``fract``), the float
decompositions (``frexp``, ``modf``, ``ldexp``) and ``quantizeToF16``.

``abs``, ``min``, ``max``, ``clamp`` take f32, f16, i32 and u32 and their vectors, ``sign``
f32, f16 and i32, ``quantizeToF16`` f32 only, the others f32 and f16. Exact operations give the
exact f32 value; the formulas WGSL states (``mix``, ``fma``, ``smoothstep``) are evaluated in
float64 and rounded once to f32, at least as accurate as WGSL's f32 evaluation (which WGSL
allows, §Floating Point Accuracy). The f16 overloads round that f32 result to f16
(:func:`~asyncshader.wgsl.builtins._overloads.f16_kernel`): exact results stay exact, the others
are within one f16 ULP; ``ldexp`` on f16 rounds once from the exact value.
"""

from __future__ import annotations

import builtins
import math
import struct
from typing import Any, NamedTuple

import numpy as np

from ..types import _VECS, Vec
from ._overloads import (
    Signature,
    builtin,
    doc,
    indeterminate,
    out_of_domain,
    to_f16,
    to_f32,
)

__all__ = [
    "FrexpResult", "ModfResult", "abs", "ceil", "clamp", "floor", "fma", "fract", "frexp",
    "ldexp", "max", "min", "mix", "modf", "quantize_to_f16", "round", "saturate", "sign",
    "smoothstep", "step", "trunc",
]

_ONE = np.float32(1.0)
_F0, _F1, _FM1 = np.float32(0.0), np.float32(1.0), np.float32(-1.0)
_I0, _I1, _IM1 = np.int32(0), np.int32(1), np.int32(-1)
_INT_MIN = np.int32(-2 ** 31)
_NAN, _INF = float("nan"), float("inf")
_EXACT = "exact (the result is representable; WGSL: correctly rounded)"
_F64 = "evaluated in float64 and rounded once to f32 (WGSL: {})"


def _make(wgsl: str, name: str, roles: tuple[str, ...], kinds: str,
          kernels: dict[str, Any], params: tuple[str, ...], what: str, accuracy: str,
          notes: str = "") -> Any:
    sig = Signature(wgsl, name, roles, kinds)
    return builtin(sig, kernels, doc(sig, params, what, accuracy, notes), params)


# ------------------------------------------------------------------- abs, sign, min, max
def _abs_i(x: Any) -> Any:
    return x if x >= 0 or x == _INT_MIN else -x


def _sign_f(x: Any) -> Any:
    return _F1 if x > 0 else _FM1 if x < 0 else _F0 if x == 0 else x


def _sign_i(x: Any) -> Any:
    return _I1 if x > 0 else _IM1 if x < 0 else _I0


def _max(a: Any, b: Any) -> Any:
    return b if a < b else a


def _min(a: Any, b: Any) -> Any:
    return b if b < a else a


abs = _make("abs", "abs", ("T",), "fhiu",
            {"f": builtins.abs, "i": _abs_i, "u": lambda x: x},
            ("e",), "the absolute value of ``e``, component-wise.", _EXACT,
            "Floats: the sign bit is cleared (abs(-0.0) is +0.0). i32: abs(-2147483648) is "
            "-2147483648 (two's complement has no +2147483648). u32: e itself.")
sign = _make("sign", "sign", ("T",), "fhi", {"f": _sign_f, "i": _sign_i}, ("e",),
             "1 for e > 0, 0 for e == 0, -1 for e < 0, component-wise (no u32 overload).",
             _EXACT, "sign(-0.0) is +0.0 (WGSL lets the sign of a zero go); sign(NaN) is NaN.")
max = _make("max", "max", ("T", "T"), "fhiu", {"f": _max, "i": _max, "u": _max},
            ("e1", "e2"), "e2 if e1 < e2, else e1, component-wise.", _EXACT,
            "With a NaN argument the rule as written applies: max(NaN, x) is NaN, "
            "max(x, NaN) is x (WGSL: indeterminate).")
min = _make("min", "min", ("T", "T"), "fhiu", {"f": _min, "i": _min, "u": _min},
            ("e1", "e2"), "e2 if e2 < e1, else e1, component-wise.", _EXACT,
            "With a NaN argument the rule as written applies: min(NaN, x) is NaN, "
            "min(x, NaN) is x (WGSL: indeterminate).")

# ------------------------------------------------------------------------------- clamp
_CLAMP = ("clamp(e, low, high) on floats with low > high",
          "WGSL lets an implementation compute float clamp as min(max(e, low), high) or as "
          "the median of the three, which differ here, so GPUs disagree; asyncshader returns "
          "min(max(e, low), high) (= high, as for integers). Swap the bounds, or order them "
          "with min/max first.")


def _clamp_i(e: Any, low: Any, high: Any) -> Any:
    m = low if e < low else e
    return high if high < m else m


def _clamp_f(e: Any, low: Any, high: Any) -> Any:
    m = low if e < low else e
    r = high if high < m else m
    if low > high:
        return indeterminate(*_CLAMP, (float(e), float(low), float(high)), r)
    return r


clamp = _make("clamp", "clamp", ("T", "T", "T"), "fhiu",
              {"f": _clamp_f, "i": _clamp_i, "u": _clamp_i}, ("e", "low", "high"),
              "min(max(e, low), high), component-wise.", _EXACT,
              "Integers with low > high give high (the formula). Floats with low > high: WGSL "
              "also allows the median of e, low and high, so the result differs between GPUs; "
              "asyncshader returns high and warns (WGSLIndeterminateWarning).")
saturate = _make("saturate", "saturate", ("T",), "fh",
                 {"f": lambda e: _F1 if 1 < (m := _F0 if e < 0 else e) else m},
                 ("e",), "clamp(e, 0.0, 1.0), component-wise.", _EXACT,
                 "saturate(NaN) is NaN (the formula as written).")
step = _make("step", "step", ("T", "T"), "fh", {"f": lambda edge, x: _F1 if edge <= x else _F0},
             ("edge", "x"), "1.0 if edge <= x, else 0.0, component-wise.", _EXACT,
             "A NaN argument gives 0.0.")

# ------------------------------------------------------------------- mix, fma, smoothstep
_SMOOTH = ("smoothstep(edge0, edge1, x) with edge0 == edge1",
           "the formula divides by edge1 - edge0 = 0, so WGSL does not define the result; "
           "asyncshader returns what the formula gives in IEEE arithmetic: 0.0 for x < edge0, "
           "1.0 for x > edge0, NaN at x == edge0. Use step(edge0, x) for a hard edge.")


def _smoothstep(e0: Any, e1: Any, x: Any) -> np.float32:
    a, b, v = float(e0), float(e1), float(x)
    if a == b:
        value = _F0 if v < a else _F1 if v > a else _ONE * _NAN
        return out_of_domain(*_SMOOTH, (a, b, v), value)
    t = (v - a) / (b - a)
    t = 0.0 if t < 0.0 else t   # clamp(t, 0, 1) as WGSL writes it: NaN stays NaN
    t = 1.0 if 1.0 < t else t
    return _ONE * (t * t * (3.0 - 2.0 * t))


def _mix(x: Any, y: Any, z: Any) -> np.float32:
    w = float(z)
    return to_f32(float(x) * (1.0 - w) + float(y) * w)


mix = _make("mix", "mix", ("T", "T", "T|S"), "fh",
            {"f": _mix},
            ("e1", "e2", "e3"), "the linear blend e1 * (1 - e3) + e2 * e3, component-wise; "
            "with vector e1, e2 the blend factor e3 may be a scalar (splatted).",
            _F64.format("inherited from e1 * (1 - e3) + e2 * e3"),
            "Overloads also: mix(vecN<f32>, vecN<f32>, f32). mix(e1, e2, 1.0) is e2 exactly.")
fma = _make("fma", "fma", ("T", "T", "T"), "fh",
            {"f": lambda a, b, c: to_f32(float(a) * float(b) + float(c))},
            ("e1", "e2", "e3"), "e1 * e2 + e3, component-wise.",
            "the product is exact in float64, the sum is rounded to float64 then to f32 "
            "(WGSL: inherited from e1 * e2 + e3, fused or not)")
smoothstep = _make("smoothstep", "smoothstep", ("T", "T", "T"), "fh", {"f": _smoothstep},
                   ("edge0", "edge1", "x"),
                   "the Hermite smooth step t * t * (3 - 2 * t) with t = clamp((x - edge0) / "
                   "(edge1 - edge0), 0, 1), component-wise.",
                   _F64.format("inherited from that formula"),
                   "edge0 > edge1 is allowed (a falling curve). edge0 == edge1 is "
                   "indeterminate in WGSL: asyncshader returns 0 below the edge, 1 above, NaN "
                   "at it, and warns (WGSLIndeterminateWarning).")

# -------------------------------------------------------------------------- rounding


def _fract(x: Any) -> np.float32:
    r = float(x)
    try:
        return _ONE * ((r - math.floor(r)) + 0.0)   # + 0.0: fract(-0.0) is +0.0
    except (OverflowError, ValueError):   # ±inf, NaN
        return _ONE * _NAN


ceil = _make("ceil", "ceil", ("T",), "fh", {"f": np.ceil}, ("e",),
             "the smallest integer not below e, component-wise.", _EXACT)
floor = _make("floor", "floor", ("T",), "fh", {"f": np.floor}, ("e",),
              "the largest integer not above e, component-wise.", _EXACT)
trunc = _make("trunc", "trunc", ("T",), "fh", {"f": np.trunc}, ("e",),
              "e rounded toward zero, component-wise.", _EXACT)
round = _make("round", "round", ("T",), "fh", {"f": np.rint}, ("e",),
              "e rounded to the nearest integer, ties to even, component-wise: round(2.5) is "
              "2.0, round(-2.5) is -2.0, round(0.5) is 0.0.", _EXACT,
              "Not Python's round() on floats in general: it always returns an f32.")
fract = _make("fract", "fract", ("T",), "fh", {"f": _fract}, ("e",),
              "e - floor(e), in [0, 1], component-wise.",
              "the difference rounded once to f32 (WGSL: inherited from e - floor(e))",
              "fract(-1.25) is 0.75; a tiny negative e gives exactly 1.0, as WGSL allows "
              "(fract(-1e-10) is 1.0). ±inf and NaN give NaN.")

# ----------------------------------------------------------------- frexp, modf, ldexp


class FrexpResult(NamedTuple):
    """WGSL ``__frexp_result_f32`` / ``__frexp_result_vecN_f32`` (and the ``f16`` ones):
    ``fract`` (f32 or vecNf; f16 or vecNh) and ``exp`` (i32 or vecNi), with
    ``e == fract * 2**exp``."""

    fract: Any
    exp: Any


class ModfResult(NamedTuple):
    """WGSL ``__modf_result_f32`` / ``__modf_result_vecN_f32`` (and the ``f16`` ones):
    ``fract`` and ``whole``, both of the argument's type, with ``e == fract + whole``."""

    fract: Any
    whole: Any


def _frexp1(x: Any) -> tuple[np.float32, np.int32]:
    m, e = math.frexp(float(x))
    return _ONE * m, np.int32(e)


def _modf1(x: Any) -> tuple[np.float32, np.float32]:
    f, w = math.modf(float(x))
    return _ONE * f, _ONE * w


def _split(kernel: Any, result: type, second: str) -> Any:
    """A kernel of a whole argument returning ``result`` from a per-component pair kernel."""
    def whole(e: Any) -> Any:
        if not isinstance(e, Vec):
            return result(*kernel(e))
        a, b = zip(*map(kernel, e))
        return result(type(e)._make(*a), _VECS[(e.size, second)]._make(*b))
    return whole


_FREXP_SIG = Signature("frexp", "frexp", ("T",))
frexp = builtin(_FREXP_SIG, {"f": _split(_frexp1, FrexpResult, "i")}, doc(
    _FREXP_SIG, ("e",), "splits e into a fraction and a power of two: ``fract * 2**exp == "
    "e`` with 0.5 <= |fract| < 1.", _EXACT,
    "Returns a FrexpResult with WGSL's fields ``fract`` (T) and ``exp`` (i32 or vecN<i32>). "
    "frexp(0.0) is (0.0, 0) and frexp(-0.0) is (-0.0, 0) (WGSL leaves the exponent of 0 "
    "open). Subnormal e: WGSL calls the result indeterminate (a GPU may flush e to zero); "
    "asyncshader returns the exact decomposition, e.g. frexp(2**-149) = (0.5, -148). ±inf "
    "and NaN give (e, 0).", returns="FrexpResult"), ("e",), componentwise=False)
_MODF_SIG = Signature("modf", "modf", ("T",))
modf = builtin(_MODF_SIG, {"f": _split(_modf1, ModfResult, "f")}, doc(
    _MODF_SIG, ("e",), "splits e into its fractional and whole parts, both with e's sign: "
    "``whole = trunc(e)``, ``fract = e - trunc(e)``.", _EXACT,
    "Returns a ModfResult with WGSL's fields ``fract`` and ``whole`` (both T): modf(-1.5) is "
    "(-0.5, -1.0). modf(±inf) is (±0.0, ±inf).", returns="ModfResult"),
    ("e",), componentwise=False)

_LDEXP = ("ldexp(e1, e2) with e2 > 128 or a result past the f32 range",
          "WGSL does not define the result (e2 > bias + 1 = 128, or an overflow); asyncshader "
          "returns e1 * 2**e2 in IEEE arithmetic (±inf, or 0 for e1 == 0). Bound the "
          "exponent.")


def _ldexp(x: Any, n: Any) -> np.float32:
    r, k = float(x), int(n)
    try:
        out = to_f32(math.ldexp(r, k))
    except OverflowError:
        out = _ONE * math.copysign(_INF, r)
    if (k > 128 or not math.isfinite(out)) and math.isfinite(r):
        return indeterminate(*_LDEXP, (r, k), out)
    return out


_LDEXP16 = ("ldexp(e1, e2) on f16 with e2 > 16 or a result past the f16 range",
            "WGSL does not define the result (e2 > bias + 1 = 16 for f16, or an overflow); "
            "asyncshader returns e1 * 2**e2 in IEEE arithmetic (±inf, or 0 for e1 == 0). Bound "
            "the exponent.")


def _ldexp_h(x: Any, n: Any) -> np.float16:
    r, k = float(x), int(n)
    try:
        out = to_f16(math.ldexp(r, k))
    except OverflowError:
        out = to_f16(math.copysign(_INF, r))
    if (k > 16 or not math.isfinite(out)) and math.isfinite(r):
        return indeterminate(*_LDEXP16, (r, k), out)
    return out


ldexp = _make("ldexp", "ldexp", ("T", "I"), "fh", {"f": _ldexp, "h": _ldexp_h}, ("e1", "e2"),
              "e1 * 2**e2, component-wise; e2 is i32 (vecN<i32> for vector e1).",
              "exact, then rounded once to f32 or f16 (WGSL: correctly rounded)",
              "A result below the f32 range rounds to a subnormal or 0 (a GPU may flush it to "
              "0, as WGSL allows for e2 + 127 <= 0; f16: e2 + 15 <= 0). e2 > 128 (f16: 16) or "
              "an overflow is indeterminate in WGSL: asyncshader returns the IEEE value and "
              "warns (WGSLIndeterminateWarning).")

# --------------------------------------------------------------------- quantizeToF16
_QUANTIZE = ("quantizeToF16(e) with |e| beyond the f16 range (>= 65520)",
             "the value does not fit in f16, so WGSL does not define the result; asyncshader "
             "returns ±inf. Clamp to ±65504 first.")
_PACK_F16, _UNPACK_F16 = struct.Struct("<e").pack, struct.Struct("<e").unpack


def _quantize(x: Any) -> np.float32:
    r = float(x)
    try:
        return _ONE * _UNPACK_F16(_PACK_F16(r))[0]
    except OverflowError:
        return out_of_domain(*_QUANTIZE, (r,), _ONE * math.copysign(_INF, r))


quantize_to_f16 = _make(
    "quantizeToF16", "quantize_to_f16", ("T",), "f", {"f": _quantize}, ("e",),
    "e rounded to the nearest IEEE binary16 value (ties to even) and back to f32, "
    "component-wise.", "correctly rounded to f16 (exact back in f32)",
    "Subnormal f16 results are kept (a GPU may flush them to 0). |e| >= 65520 does not fit "
    "f16: WGSL calls it indeterminate; asyncshader returns ±inf and warns "
    "(WGSLIndeterminateWarning).")

