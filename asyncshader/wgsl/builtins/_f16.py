"""The f16 overloads of the numeric built-ins (WGSL's ``enable f16;``), made from their f32
kernels: :func:`to_f16` rounds a float64 to f16, :func:`f16_kernel` wraps an f32 kernel so that
its result (a scalar, a ``vecNh``, a FrexpResult/ModfResult) comes out in f16."""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..types import Vec

__all__ = ["f16_kernel", "to_f16"]

#: the doubles that round to a finite f16 lie strictly inside ±65520
_F16_ROUNDS_FINITE = 65520.0
_INF16 = np.float16("inf")
_F16 = np.float16


def to_f16(r: float) -> np.float16:
    """The double ``r`` rounded to the nearest f16 (ties to even, one rounding); ±inf past
    the f16 range (|r| >= 65520), NaN for NaN."""
    if -_F16_ROUNDS_FINITE < r < _F16_ROUNDS_FINITE or r != r:
        return _F16(r)
    return _INF16 if r > 0 else -_INF16


def _as_f16(r: Any) -> Any:
    """A kernel's result with its float parts rounded to f16: a scalar, a ``vecNh`` (whose
    components an f32 kernel made f32), or a FrexpResult/ModfResult of them."""
    c = r.__class__
    if c is _F16:
        return r
    if c is np.float32 or c is float or c is np.float64:
        return to_f16(float(r))
    if isinstance(r, Vec):
        return c._make(*map(_as_f16, r)) if r.kind == "h" else r
    if isinstance(r, tuple):
        return c(*map(_as_f16, r))
    return r


def _overflowed(raw: Any, out: Any) -> bool:
    """Whether rounding ``raw`` to f16 (``out``) made a finite float infinite."""
    if isinstance(raw, (Vec, tuple)):
        return builtins.any(map(_overflowed, raw, out))
    return (out.__class__ is _F16 and not math.isfinite(out)
            and isinstance(raw, (float, np.floating)) and math.isfinite(raw))


def f16_kernel(kernel: Callable[..., Any], wgsl: str, indeterminate: Callable[..., Any],
               scalar: bool = False) -> Callable[..., Any]:
    """The f16 overload of a built-in from its f32 ``kernel``: the f32 kernel computes (in
    float64, rounded to f32), and its result is rounded to f16. The two roundings stay within
    one f16 ULP of the exact value and give it exactly when it is an f16 (every correctly
    rounded built-in but the transcendental ones is exact); every WGSL f16 bound (builtins.md
    §4) is at least one ULP. A finite result past the f16 range is ±inf, reported through
    ``indeterminate`` (a WGSLIndeterminateWarning: WGSL's overflow is an indeterminate value).
    ``scalar``: the kernel maps components (its result is one float), which takes a shorter
    path."""
    rule = (f"{wgsl} on f16 with a result past the f16 range (|x| >= 65520)",
            "WGSL does not define the result of an f16 overflow (an indeterminate value); "
            "asyncshader returns ±inf. Bound the arguments, or compute in f32 (f32(x)).")

    if scalar:
        def h1(*args: Any) -> Any:
            r = float(kernel(*args))
            if -_F16_ROUNDS_FINITE < r < _F16_ROUNDS_FINITE:
                return _F16(r)
            out = to_f16(r)
            if math.isfinite(r):   # finite, past the f16 range
                return indeterminate(*rule, tuple(map(_plain_value, args)), out)
            return out
        h1.__name__ = h1.__qualname__ = f"{getattr(kernel, '__name__', 'kernel')}_f16"
        return h1

    def h(*args: Any) -> Any:
        raw = kernel(*args)
        out = _as_f16(raw)
        if out.__class__ is _F16 and -_INF16 < out < _INF16:
            return out
        if _overflowed(raw, out):
            return indeterminate(*rule, tuple(map(_plain_value, args)), out)
        return out
    h.__name__ = h.__qualname__ = f"{getattr(kernel, '__name__', 'kernel')}_f16"
    return h


def _plain_value(a: Any) -> Any:
    return tuple(map(float, a)) if isinstance(a, Vec) else float(a)
