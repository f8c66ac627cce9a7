"""WGSL's meaning of Python's ``x ** n`` in a shader, the same as ``to_wgsl`` emits it.

WGSL has no power operator, only ``pow(e1, e2)`` on ``f32``/``f16`` (and their vectors), which
is ``exp2(e2 * log2(e1))``: NaN (indeterminate) for a negative ``e1`` even when ``e2`` is a
whole number, and no integer overload. So a shader's ``**`` is read in two ways (the source
rewrite of :mod:`asyncshader.wgsl.rewrite` calls these functions; the emitter writes the same):

* an exponent that is an int literal from 0 to :data:`SMALL_MAX` (``x ** 2``) is repeated
  multiplication, ``x * x`` (``x ** 0`` is one of ``x``'s type, ``x ** 1`` is ``x``), for every
  numeric type: negative bases and integers work as in Python, and the result is the one a GPU
  gives for ``x * x``, rounded once per multiplication. Up to 4 because that is where Python
  users write ``**`` for a polynomial (squares, cubes, fourth powers), where the product is at
  most three roundings (within 1.5 ULP, tighter than WGSL's ``pow``), and where the emitted text
  stays short; past it, the usual meaning is a real power;
* anything else is WGSL's ``pow``: a float base only (``ShaderTypeError`` for an integer one,
  as WGSL has no integer ``pow``: the message says to multiply or to convert), NaN with a
  :class:`~asyncshader.WGSLIndeterminateWarning` for a negative base (``to_wgsl`` warns when it
  writes such a ``pow``). A scalar exponent of a vector base is splat to the vector's type.

Two Python numbers keep Python's meaning, as for the other operators: they are host values.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ShaderTypeError
from .builtins.trig import pow as _pow
from .operators import _name
from .types import Vec

#: the largest int literal exponent that ``**`` reads as repeated multiplication
SMALL_MAX = 4

_PY = (int, float)
_INTEGERS = (np.int32, np.uint32)


def small_power(x: Any, n: int) -> Any:
    """``x ** n`` for an int literal ``n`` in [0, SMALL_MAX]: ``x * x * ...`` (left to right,
    as the emitted WGSL multiplies), ``x ** 0`` one of ``x``'s type."""
    if n == 0:
        return x.__class__(1)
    result = x
    for _ in range(n - 1):
        result = result * x
    return result


def power(x: Any, y: Any) -> Any:
    """``x ** y`` for any other exponent: WGSL's ``pow(x, y)`` on a float base."""
    if x.__class__ in _PY and y.__class__ in _PY:
        return x ** y
    kind = x.kind if isinstance(x, Vec) else np.dtype(type(x)).kind \
        if isinstance(x, np.generic) else ("i" if isinstance(x, int) else None)
    if kind in ("i", "u"):
        raise ShaderTypeError(
            f"`{_name(x)} ** {_name(y)}`: WGSL has no integer pow, and only an int literal "
            f"exponent from 0 to {SMALL_MAX} is read as repeated multiplication. Fix: multiply "
            "(x * x * x), loop, or convert to a float: f32(x) ** y")
    if isinstance(x, Vec) and not isinstance(y, Vec):
        y = type(x)(y)  # (a scalar exponent applies to every component)
    return _pow(x, y)
