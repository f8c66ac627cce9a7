"""WGSL's built-in functions over lanes. Each call goes either to a vector form written here
(the hot ones: select, min, max, clamp, abs, sqrt, floor, ceil, trunc, dot, length,
distance, normalize, all, any) or, lane by lane, to asyncshader's own scalar built-in
(:mod:`asyncshader.wgsl.builtins`): the one definition of every built-in's value. A vector
form computes what the scalar one computes, in the same float64-then-f32 steps, and hands
the lanes outside the built-in's domain (where the scalar one warns) back to the scalar one;
tests/lockstep fuzz each vector form against it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..ir.types import Matrix, Scalar, Vector
from ..wgsl import builtins as scalar_builtins
from ..wgsl import types as wgsl_types
from ..wgsl.builtins._overloads import _NAN32
from ..wgsl.spelling import snake
from ..wgsl.types import _VECS
from .lanes import lane_array

DTYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "u32": np.uint32,
          "bool": np.bool_}


def dtype_of(t: Any) -> Any:
    """The numpy dtype of a scalar, vector or matrix type's components (None: not one
    Lockstep holds in lanes)."""
    s = t.scalar if isinstance(t, (Vector, Matrix)) else t
    return DTYPES.get(s.name) if isinstance(s, Scalar) else None


def scalar_function(wgsl_name: str) -> Callable | None:
    """asyncshader's scalar built-in for the WGSL name (None: it has none)."""
    name = snake(wgsl_name)
    for module in (scalar_builtins, wgsl_types):
        fn = getattr(module, name, None)
        if callable(fn):
            return fn
    return None


def _runtime(value: np.ndarray, t: Any, lane: int) -> Any:
    if isinstance(t, Vector):
        kind = "h" if t.scalar.name == "f16" else t.scalar.kind
        return _VECS[(t.size, kind)]._make(*value[:, lane])
    return value[lane]


def per_lane(fn: Callable, args: list, types: list, result: Any, m: Any, L: int) -> Any:
    """``fn`` (a scalar built-in) called for each active lane on that lane's values."""
    full = [lane_array(np.asarray(a, dtype_of(t)), L) for a, t in zip(args, types)]
    dtype = dtype_of(result)
    n = result.size if isinstance(result, Vector) else 0
    out = np.zeros((n, L) if n else L, dtype)
    lanes = range(L) if m is None else np.flatnonzero(lane_array(m, L))
    for lane in lanes:
        r = fn(*[_runtime(a, t, lane) for a, t in zip(full, types)])
        if n:
            out[:, lane] = list(r)
        else:
            out[lane] = r
    return out


def _rounded(r: np.ndarray) -> np.ndarray:
    """float64 lanes rounded to f32 as :func:`asyncshader.wgsl.builtins._overloads.to_f32`
    rounds one: to nearest, and every NaN its one quiet NaN."""
    out = np.asarray(r.astype(np.float32))
    nan = np.isnan(out)
    if nan.any():
        out = np.where(nan, _NAN32, out)
    return out


def _f64(v: Any) -> np.ndarray:
    return np.asarray(v).astype(np.float64)


def _dot64(a: Any, b: Any) -> np.ndarray:
    a, b = _f64(a), _f64(b)
    total = a[0] * b[0]
    for k in range(1, a.shape[0]):
        total = total + a[k] * b[k]
    return total


def _sum_squares(d: np.ndarray) -> np.ndarray:
    total = 0.0 + d[0] * d[0]
    for k in range(1, d.shape[0]):
        total = total + d[k] * d[k]
    return total


def _select(f: Any, t: Any, c: Any) -> Any:
    return np.where(c, t, f)


def _min(a: Any, b: Any) -> Any:
    return np.where(b < a, b, a)


def _max(a: Any, b: Any) -> Any:
    return np.where(a < b, b, a)


def _clamp(e: Any, low: Any, high: Any) -> Any:
    if np.asarray(e).dtype.kind == "f" and np.any(np.asarray(low) > np.asarray(high)):
        return None  # (indeterminate for floats: the scalar built-in warns)
    mid = np.where(e < low, low, e)
    return np.where(high < mid, high, mid)


def _abs(e: Any) -> Any:
    e = np.asarray(e)
    return e if e.dtype == np.uint32 else np.abs(e)


def _sqrt(e: Any) -> Any:
    e = np.asarray(e)
    if not np.all(e >= 0):  # (negative or NaN: out of domain, the scalar built-in warns)
        return None
    return np.sqrt(e)


def _dot(a: Any, b: Any) -> Any:
    a = np.asarray(a)
    if a.dtype.kind != "f":
        total = a[0].astype(a.dtype) * np.asarray(b)[0]
        for k in range(1, a.shape[0]):
            total = total + a[k] * np.asarray(b)[k]
        return total
    return _rounded(_dot64(a, b))


def _length(e: Any) -> Any:
    e = np.asarray(e)
    if e.ndim < 2:
        return np.abs(e)
    return _rounded(np.sqrt(_dot64(e, e)))


def _distance(a: Any, b: Any) -> Any:
    a, b = np.asarray(a), np.asarray(b)
    d = _f64(a) - _f64(b)
    if a.ndim < 2 and b.ndim < 2:
        return _rounded(np.abs(d))
    return _rounded(np.sqrt(_sum_squares(d)))


def _normalize(e: Any) -> Any:
    c = _f64(e)
    n = np.sqrt(_sum_squares(c))
    if np.any(n == 0.0):  # (the zero vector: out of domain, the scalar built-in warns)
        return None
    return (c / n).astype(np.float32)  # (as the scalar one: f32 one times each)


def _all(e: Any) -> Any:
    e = np.asarray(e)
    return np.all(e, axis=0) if e.ndim == 2 else e


def _any(e: Any) -> Any:
    e = np.asarray(e)
    return np.any(e, axis=0) if e.ndim == 2 else e


def _float_ufunc(ufunc: Any) -> Callable:
    def apply(e: Any) -> Any:
        return ufunc(np.asarray(e))
    return apply


#: the vector forms, by WGSL name; None from one: those lanes go to the scalar built-in
FAST: dict[str, Callable] = {
    "select": _select, "min": _min, "max": _max, "clamp": _clamp, "abs": _abs,
    "sqrt": _sqrt, "floor": _float_ufunc(np.floor), "ceil": _float_ufunc(np.ceil),
    "trunc": _float_ufunc(np.trunc), "dot": _dot, "length": _length,
    "distance": _distance, "normalize": _normalize, "all": _all, "any": _any,
}
#: built-ins whose vector forms take integer arguments too (the others: floats only)
_ANY_KIND = {"select", "min", "max", "clamp", "abs", "dot", "all", "any"}
#: the vector forms exact on f16 (they pick, compare or round to an integer); the others
#: compute in f32 steps, so f16 lanes go to the scalar built-in's f16 overload
_F16_EXACT = {"select", "min", "max", "clamp", "abs", "floor", "ceil", "trunc", "all", "any"}


def call(name: str, args: list, types: list, result: Any, m: Any, L: int) -> Any:
    """The built-in ``name`` (its WGSL name) on lanes ``args`` of types ``types``."""
    fast = FAST.get(name)
    kinds = {t.scalar.kind if isinstance(t, Vector) else t.kind for t in types}
    if any(dtype_of(t) is np.float16 for t in [*types, result]) and name not in _F16_EXACT:
        fast = None
    if fast is not None and (name in _ANY_KIND or kinds <= {"f"}):
        value = fast(*args)
        if value is not None:
            return value
    return per_lane(scalar_function(name), args, types, result, m, L)
