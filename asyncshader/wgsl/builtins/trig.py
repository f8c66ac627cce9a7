"""WGSL's transcendental built-ins (§17.5): trigonometric and hyperbolic functions, their
inverses, ``exp``, ``exp2``, ``log``, ``log2``, ``pow``, ``sqrt``, ``inverseSqrt``, ``degrees``
and ``radians``, on ``f32`` and ``vecN<f32>``.

Each is computed in float64 (Python's ``math``, i.e. the C library) from the exact f32 argument
and rounded once to the nearest f32. The result is within 1 ULP of the exact value, well inside
every bound of WGSL's accuracy table, and does not depend on the CPU (numpy's float32 loops
choose SIMD code by CPU, so their last bits can differ between machines). ``sqrt`` is the
IEEE-754 f32 square root (numpy's), which is correctly rounded.

An argument outside the function's WGSL domain (``sqrt(-1.0)``, ``log(0.0)``, ``acos(2.0)``)
or a result past the f32 range (``exp(100.0)``) gives the IEEE-754 value (NaN, ±inf) with a
:class:`~asyncshader.WGSLIndeterminateWarning`, once per call site: on a GPU the result is an
indeterminate value.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ._overloads import Signature, builtin, doc, indeterminate, out_of_domain, to_f32

__all__ = [
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cos", "cosh", "degrees", "exp",
    "exp2", "inverse_sqrt", "log", "log2", "pow", "radians", "sin", "sinh", "sqrt", "tan",
    "tanh",
]

_ONE = np.float32(1.0)
_NAN = float("nan")
_INF = float("inf")
_CR = ("computed in float64 and rounded to the nearest f32: within 1 ULP of the exact value "
       "(WGSL: {})")


def _indeterminate_rule(name: str, condition: str, returns: str, fix: str) -> tuple[str, str]:
    return (f"{name} with {condition}",
            f"WGSL does not define the result (a GPU returns an indeterminate value, often "
            f"NaN, possibly different each run); asyncshader returns {returns}. {fix}")


def _finite_only(fn: Callable[[float], float]) -> Callable[[Any], np.float32]:
    """A kernel for ``fn``, whose domain is every finite value (±inf give NaN quietly)."""
    def kernel(x: Any) -> np.float32:
        try:
            return _ONE * fn(float(x))
        except ValueError:   # an infinite argument
            return _ONE * _NAN
    return kernel


def _ranged(fn: Callable[[float], float], low: float, high: float, rule: tuple[str, str],
            edge: Callable[[float], float] | None = None) -> Callable[[Any], np.float32]:
    """A kernel for ``fn`` on [low, high]; outside it NaN (or ``edge(x)`` at an open end)."""
    def kernel(x: Any) -> np.float32:
        r = float(x)
        if low <= r <= high:
            try:
                return _ONE * fn(r)
            except ValueError:   # the domain's end where the result is infinite
                pass
        value = edge(r) if edge is not None and r == r else _NAN
        return out_of_domain(rule[0], rule[1], (r,), _ONE * value)
    return kernel


def _growing(fn: Callable[[float], float], rule: tuple[str, str],
             sign: Callable[[float], float] = lambda r: 1.0) -> Callable[[Any], np.float32]:
    """A kernel for ``fn`` whose result can pass the f32 range (then ±inf, and a warning)."""
    def kernel(x: Any) -> np.float32:
        r = float(x)
        try:
            v = fn(r)
        except OverflowError:
            v = math.copysign(_INF, sign(r))
        out = to_f32(v)
        if not math.isfinite(out) and math.isfinite(r):   # finite argument, infinite result
            return indeterminate(rule[0], rule[1], (r,), out)
        return out
    return kernel


# ----------------------------------------------------------------------- trigonometric
def _unary(wgsl: str, name: str, kernel: Callable[[Any], Any], what: str, accuracy: str,
           notes: str = "") -> Callable[..., Any]:
    sig = Signature(wgsl, name, ("T",))
    return builtin(sig, {"f": kernel}, doc(sig, ("e",), what, accuracy, notes), ("e",))


_TRIG_NOTE = ("WGSL bounds the error for arguments in [-π, π] only; asyncshader's value is "
              "accurate for every finite argument. ±inf give NaN.")
sin = _unary("sin", "sin", _finite_only(math.sin), "the sine of ``e`` (radians), "
             "component-wise.", _CR.format("absolute error at most 2**-11 on [-π, π]"),
             _TRIG_NOTE)
cos = _unary("cos", "cos", _finite_only(math.cos), "the cosine of ``e`` (radians), "
             "component-wise.", _CR.format("absolute error at most 2**-11 on [-π, π]"),
             _TRIG_NOTE)
tan = _unary("tan", "tan", _finite_only(math.tan), "the tangent of ``e`` (radians), "
             "component-wise.", _CR.format("inherited from sin(e) / cos(e)"),
             "±inf give NaN.")
atan = _unary("atan", "atan", _finite_only(math.atan), "the principal arc tangent of ``e``, "
              "in [-π/2, π/2], component-wise.", _CR.format("4096 ULP"))

_ACOS = _indeterminate_rule("acos(e)", "|e| > 1", "NaN", "Clamp the argument: "
                            "acos(clamp(e, -1.0, 1.0)).")
_ASIN = _indeterminate_rule("asin(e)", "|e| > 1", "NaN", "Clamp the argument: "
                            "asin(clamp(e, -1.0, 1.0)).")
acos = _unary("acos", "acos", _ranged(math.acos, -1.0, 1.0, _ACOS),
              "the principal arc cosine of ``e``, in [0, π], component-wise.",
              _CR.format("the worse of absolute error 6.77e-5 and the accuracy inherited "
                         "from atan2(sqrt(1 - e*e), e)"),
              "Domain [-1, 1]: outside it the result is indeterminate in WGSL; asyncshader "
              "returns NaN and warns (WGSLIndeterminateWarning).")
asin = _unary("asin", "asin", _ranged(math.asin, -1.0, 1.0, _ASIN),
              "the principal arc sine of ``e``, in [-π/2, π/2], component-wise.",
              _CR.format("the worse of absolute error 6.81e-5 and the accuracy inherited "
                         "from atan2(e, sqrt(1 - e*e))"),
              "Domain [-1, 1]: outside it the result is indeterminate in WGSL; asyncshader "
              "returns NaN and warns (WGSLIndeterminateWarning).")


def _atan2(y: Any, x: Any) -> np.float32:
    fy, fx = float(y), float(x)
    if fy == 0.0 and fx == 0.0:
        return indeterminate(*_ATAN2, (fy, fx), _ONE * math.atan2(fy, fx))
    return _ONE * math.atan2(fy, fx)


_ATAN2 = _indeterminate_rule("atan2(y, x)", "y == 0 and x == 0", "C's atan2 (0, ±π by the "
                             "zeros' signs)", "Check for the zero vector before taking its "
                             "angle.")
_ATAN2_SIG = Signature("atan2", "atan2", ("T", "T"))
atan2 = builtin(_ATAN2_SIG, {"f": _atan2}, doc(
    _ATAN2_SIG, ("y", "x"), "the angle in [-π, π] whose tangent is y / x, with the quadrant "
    "given by the signs of y and x, component-wise.",
    _CR.format("4096 ULP when |x| is in [2**-126, 2**126] and y is normal"),
    "WGSL does not bound the error at y == x == 0 (nor for tiny x or subnormal y): "
    "asyncshader returns C's atan2 there and warns at (0, 0) (WGSLIndeterminateWarning)."),
    ("y", "x"))

# ------------------------------------------------------------------------- hyperbolic
_ACOSH = _indeterminate_rule("acosh(x)", "x < 1", "NaN", "Keep the argument at least 1: "
                             "acosh(max(x, 1.0)).")
_ATANH = _indeterminate_rule("atanh(t)", "|t| >= 1", "±inf at ±1, NaN beyond", "Keep |t| "
                             "below 1.")
_COSH = _indeterminate_rule("cosh(a)", "a result past the f32 range (|a| > 89.4)", "+inf",
                            "Bound the argument.")
_SINH = _indeterminate_rule("sinh(a)", "a result past the f32 range (|a| > 89.4)", "±inf",
                            "Bound the argument.")
sinh = _unary("sinh", "sinh", _growing(math.sinh, _SINH, lambda r: r),
              "the hyperbolic sine of ``a``, component-wise.",
              _CR.format("inherited from (exp(a) - exp(-a)) * 0.5"),
              "A result past the f32 range is ±inf with a WGSLIndeterminateWarning.")
cosh = _unary("cosh", "cosh", _growing(math.cosh, _COSH),
              "the hyperbolic cosine of ``a``, component-wise.",
              _CR.format("inherited from (exp(a) + exp(-a)) * 0.5"),
              "A result past the f32 range is +inf with a WGSLIndeterminateWarning.")
tanh = _unary("tanh", "tanh", _finite_only(math.tanh),
              "the hyperbolic tangent of ``a``, component-wise.",
              _CR.format("the worse of absolute error 1.0e-5 and the accuracy inherited from "
                         "sinh(a) / cosh(a)"))
asinh = _unary("asinh", "asinh", _finite_only(math.asinh),
               "the inverse hyperbolic sine of ``y``, component-wise.",
               _CR.format("inherited from log(y + sqrt(y*y + 1))"))
acosh = _unary("acosh", "acosh", _ranged(math.acosh, 1.0, _INF, _ACOSH),
               "the inverse hyperbolic cosine of ``x``, in [0, +inf], component-wise.",
               _CR.format("inherited from log(x + sqrt(x*x - 1))"),
               "Domain [1, +inf]: below 1 the result is indeterminate in WGSL; asyncshader "
               "returns NaN and warns (WGSLIndeterminateWarning).")
atanh = _unary("atanh", "atanh", _ranged(math.atanh, -1.0, 1.0, _ATANH,
                                         edge=lambda r: math.copysign(_INF, r)
                                         if abs(r) == 1.0 else _NAN),
               "the inverse hyperbolic tangent of ``t``, component-wise.",
               _CR.format("inherited from log((1 + t) / (1 - t)) * 0.5"),
               "Domain (-1, 1): atanh(±1) is infinite and |t| > 1 has no value, both "
               "indeterminate in WGSL; asyncshader returns ±inf or NaN and warns "
               "(WGSLIndeterminateWarning).")

# ---------------------------------------------------------------- exponentials and logs
_EXP = _indeterminate_rule("exp(e1)", "a result past the f32 range (e1 > 88.72)", "+inf",
                           "Bound the argument.")
_EXP2 = _indeterminate_rule("exp2(e)", "a result past the f32 range (e >= 128)", "+inf",
                            "Bound the argument.")
_LOG = _indeterminate_rule("log(e)", "e <= 0", "-inf at 0, NaN below", "Keep the argument "
                           "positive, e.g. log(max(e, 1e-30)).")
_LOG2 = _indeterminate_rule("log2(e)", "e <= 0", "-inf at 0, NaN below", "Keep the argument "
                            "positive, e.g. log2(max(e, 1e-30)).")
_SQRT = _indeterminate_rule("sqrt(e)", "e < 0", "NaN", "Keep the argument non-negative: "
                            "sqrt(max(e, 0.0)).")
_ISQRT = _indeterminate_rule("inverseSqrt(e)", "e <= 0", "+inf at +0, -inf at -0, NaN "
                             "below", "Keep the argument positive.")
_POW = _indeterminate_rule("pow(e1, e2)", "e1 < 0, or a result past the f32 range "
                           "(including pow(0, e2 < 0))", "NaN for e1 < 0, +inf for an "
                           "overflow", "WGSL computes pow as exp2(e2 * log2(e1)): for a "
                           "negative base use abs(e1) and fix the sign yourself.")


def _log_edge(r: float) -> float:
    return -_INF if r == 0.0 else _NAN


def _isqrt_edge(r: float) -> float:
    return math.copysign(_INF, r) if r == 0.0 else _NAN


exp = _unary("exp", "exp", _growing(math.exp, _EXP),
             "the natural exponential e**e1, component-wise.",
             _CR.format("3 + 2 * |x| ULP"),
             "A result past the f32 range is +inf with a WGSLIndeterminateWarning.")
exp2 = _unary("exp2", "exp2", _growing(lambda r: 2.0 ** r, _EXP2),
              "2 raised to the power e, component-wise.", _CR.format("3 + 2 * |x| ULP"),
              "A result past the f32 range is +inf with a WGSLIndeterminateWarning.")
log = _unary("log", "log", _ranged(math.log, 0.0, _INF, _LOG, _log_edge),
             "the natural logarithm of ``e``, component-wise.",
             _CR.format("absolute error at most 2**-21 on [0.5, 2.0], 3 ULP elsewhere"),
             "Domain (0, +inf]: log(0) = -inf and negative arguments are indeterminate in "
             "WGSL; asyncshader returns -inf or NaN and warns (WGSLIndeterminateWarning).")
log2 = _unary("log2", "log2", _ranged(math.log2, 0.0, _INF, _LOG2, _log_edge),
              "the base-2 logarithm of ``e``, component-wise.",
              _CR.format("absolute error at most 2**-21 on [0.5, 2.0], 3 ULP elsewhere"),
              "Domain (0, +inf]: log2(0) = -inf and negative arguments are indeterminate "
              "in WGSL; asyncshader returns -inf or NaN and warns "
              "(WGSLIndeterminateWarning).")
def _sqrt(x: Any) -> np.float32:
    if x >= 0.0:   # numpy's f32 square root is IEEE's: correctly rounded, and the fastest
        return _np_sqrt(x)
    return out_of_domain(*_SQRT, (float(x),), _ONE * _NAN)


_np_sqrt = np.sqrt
sqrt = _unary("sqrt", "sqrt", _sqrt,
              "the square root of ``e``, component-wise.",
              "correctly rounded (IEEE-754 f32 square root; WGSL: inherited from "
              "1.0 / inverseSqrt(e))",
              "Domain [0, +inf]: sqrt(-0.0) is -0.0; a negative argument is indeterminate in "
              "WGSL; asyncshader returns NaN and warns (WGSLIndeterminateWarning).")
inverse_sqrt = _unary("inverseSqrt", "inverse_sqrt",
                      _ranged(lambda r: 1.0 / math.sqrt(r), 5e-324, _INF, _ISQRT,
                              _isqrt_edge),
                      "1 / sqrt(e), component-wise.", _CR.format("2 ULP"),
                      "Domain (0, +inf]: at 0 the result is infinite and below it has no "
                      "value, both indeterminate in WGSL; asyncshader returns ±inf or NaN "
                      "and warns (WGSLIndeterminateWarning).")


def _pow(x: Any, y: Any) -> np.float32:
    fx, fy = float(x), float(y)
    if fx < 0.0:
        return out_of_domain(*_POW, (fx, fy), _ONE * _NAN)
    try:
        v = math.pow(fx, fy)
    except (OverflowError, ValueError):   # past the double range; 0 ** negative
        v = _INF
    out = to_f32(v)
    if not math.isfinite(out) and math.isfinite(fx) and math.isfinite(fy):
        return indeterminate(*_POW, (fx, fy), out)
    return out


_POW_SIG = Signature("pow", "pow", ("T", "T"))
pow = builtin(_POW_SIG, {"f": _pow}, doc(
    _POW_SIG, ("e1", "e2"), "e1 raised to the power e2, component-wise.",
    _CR.format("inherited from exp2(e2 * log2(e1))"),
    "Domain: e1 >= 0 (WGSL also excludes (1, ±inf) and (±inf, 0)). A negative e1 is "
    "indeterminate in WGSL, even with an integral e2: asyncshader returns NaN (what "
    "exp2(e2 * log2(e1)) gives) and warns; a result past the f32 range (pow(0, -1), "
    "pow(10, 40)) is +inf with a warning (WGSLIndeterminateWarning). pow(0, 0) is 1."),
    ("e1", "e2"))

# ---------------------------------------------------------------------------- angles
_TO_DEG = 57.295779513082322865
_TO_RAD = 0.017453292519943295474
degrees = _unary("degrees", "degrees", lambda x: to_f32(float(x) * _TO_DEG),
                 "radians to degrees: e1 * 180 / π, component-wise.",
                 _CR.format("inherited from e1 * 57.295779513082322865"))
radians = _unary("radians", "radians", lambda x: _ONE * (float(x) * _TO_RAD),
                 "degrees to radians: e1 * π / 180, component-wise.",
                 _CR.format("inherited from e1 * 0.017453292519943295474"))
