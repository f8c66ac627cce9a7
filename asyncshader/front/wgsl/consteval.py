"""Const-expressions evaluated at load (§ Const-expressions), with WGSL's errors: a concrete
``i32``/``u32`` result out of range, an AbstractInt beyond 64 bits, integer division or
remainder by zero, a float result that is not finite, a shift count at least the bit width,
an abstract value that does not fit the concrete type it converts to.

Values are Python values: ``int`` for the integer types (AbstractInt, ``i32``, ``u32``),
``float`` for the float types (``f32`` and ``f16`` rounded to their precision), ``bool``, and
tuples for vectors, matrices (columns), arrays and structs (members in order). The
evaluator covers scalar and vector arithmetic, comparisons, logic, shifts, conversions,
constructors, indexing, member access and swizzles of const values; anything else (most
built-in functions, matrix products) is :data:`UNKNOWN`: a const-expression whose value the
front-end does not compute at load, which is never an error."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from ...ir.types import Array, Matrix, Scalar, Struct, Vector
from .conversions import describe


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()

_INT_RANGE = {"i32": (-2**31, 2**31 - 1), "u32": (0, 2**32 - 1),
              "abstract-int": (-2**63, 2**63 - 1)}
_FLOAT_MAX = {"f32": float(np.finfo(np.float32).max), "f16": 65504.0,
              "abstract-float": float(np.finfo(np.float64).max)}
#: the range a concrete float converts into (the largest f32 below 2**31 and 2**32: § 15.7.6)
_FLOAT_TO_INT = {"i32": (-2**31, 2147483520), "u32": (0, 4294967040)}
_BITS = {"i32": 32, "u32": 32, "abstract-int": 64}


class ConstError(Exception):
    """A const-expression's value is an error in WGSL (the message says why)."""


def fit(value: Any, t: Any) -> Any:
    """``value`` as a value of scalar type ``t``: a ConstError if it does not fit (an integer
    out of range, a float beyond the type's finite range); floats are rounded to ``t``."""
    if value is UNKNOWN:
        return UNKNOWN
    if isinstance(t, Vector):
        return tuple(fit(v, t.scalar) for v in value)
    if isinstance(t, Matrix):
        return tuple(fit(c, t.column) for c in value)
    if isinstance(t, Array):
        return tuple(fit(v, t.element) for v in value)
    if not isinstance(t, Scalar):
        return value
    if t.name == "bool":
        return bool(value)
    if t.name in _INT_RANGE:
        lo, hi = _INT_RANGE[t.name]
        if isinstance(value, float):
            raise ConstError(f"{value!r} is not an integer")
        if not lo <= value <= hi:
            raise ConstError(f"the value {value} does not fit in {describe(t)} "
                             f"(its range is {lo}..{hi})")
        return int(value)
    value = float(value)
    if math.isnan(value) or abs(value) > _FLOAT_MAX[t.name]:
        raise ConstError(f"the value {value!r} is not a finite {describe(t)}")
    if t.name == "f32":
        return float(np.float32(value))
    if t.name == "f16":
        return float(np.float16(value))
    return value


def convert(value: Any, src: Scalar, dst: Scalar) -> Any:
    """A value constructor's conversion ``dst(value)`` of a scalar (§ Conversion built-ins):
    floats to integers truncate and clamp (WGSL), integers to floats round, to bool compare
    with zero; an abstract value must fit."""
    if value is UNKNOWN:
        return UNKNOWN
    if dst.name == "bool":
        return bool(value)
    if isinstance(value, bool):
        value = int(value)
    if dst.kind in "iu":
        if isinstance(value, float):
            if src.abstract or dst.abstract:
                return fit(math.trunc(value), dst)
            lo, hi = _FLOAT_TO_INT[dst.name]  # WGSL: truncate, then clamp
            return 0 if math.isnan(value) else int(min(max(math.trunc(value), lo), hi))
        if src.abstract or dst.abstract:
            return fit(value, dst)
        return value % 2**32 if dst.name == "u32" else (value + 2**31) % 2**32 - 2**31
    return fit(float(value), dst)


def _wrap_check(value: int, t: Scalar) -> int:
    lo, hi = _INT_RANGE[t.name]
    if not lo <= value <= hi:
        raise ConstError(f"the result {value} overflows {describe(t)} (its range is "
                         f"{lo}..{hi})")
    return value


def _div(a: Any, b: Any, t: Scalar) -> Any:
    if t.kind in "iu":
        if b == 0:
            raise ConstError("integer division by zero")
        q = abs(a) // abs(b)
        return q if (a < 0) == (b < 0) else -q
    if b == 0:
        raise ConstError("division by zero (the result is not a finite float)")
    return a / b


def _rem(a: Any, b: Any, t: Scalar) -> Any:
    if t.kind in "iu":
        if b == 0:
            raise ConstError("integer remainder by zero")
        return a - b * _div(a, b, t)
    if b == 0:
        raise ConstError("remainder by zero (the result is not a finite float)")
    return math.fmod(a, b)


def _shift(op: str, a: int, b: int, t: Scalar) -> int:
    """``a << b`` or ``a >> b`` (§ Bit shift expressions): a concrete shift count must be less
    than the bit width; an abstract one may be any (``0 << 99`` is 0), and a left shift must
    not shift out bits that differ from the sign bit."""
    if t.name != "abstract-int" and b >= _BITS[t.name]:
        raise ConstError(f"the shift count {b} is not less than the bit width of "
                         f"{describe(t)} ({_BITS[t.name]})")
    if op == ">>":
        return a >> min(b, 64)
    if a == 0:
        return 0
    if b >= 64:
        raise ConstError(f"{a} << {b} overflows {describe(t)}")
    result = a << b
    if t.name == "u32":
        if result >= 2**32:
            raise ConstError(f"{a} << {b} overflows u32 (bits shifted out are not zero)")
        return result
    lo, hi = _INT_RANGE[t.name]
    if not lo <= result <= hi:
        raise ConstError(f"{a} << {b} overflows {describe(t)} (bits shifted out differ "
                         "from the sign bit)")
    return result


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


def scalar_binary(op: str, a: Any, b: Any, t: Scalar) -> Any:
    """``a op b`` of two scalars of type ``t`` (the operands' common type)."""
    if op in _COMPARE:
        return _COMPARE[op](a, b)
    if op in ("&&", "||"):
        return (a and b) if op == "&&" else (a or b)
    if op in ("&", "|", "^"):
        if t.name == "bool":
            return {"&": a and b, "|": a or b, "^": a != b}[op]
        result = {"&": a & b, "|": a | b, "^": a ^ b}[op]
        return result
    if op in ("<<", ">>"):
        return _shift(op, a, b, t)
    if op == "/":
        result = _div(a, b, t)
    elif op == "%":
        result = _rem(a, b, t)
    else:
        result = _ARITH[op](a, b)
    if t.kind in "iu":
        return _wrap_check(result, t)
    return fit(result, t)


def binary(op: str, a: Any, ta: Any, b: Any, tb: Any, t: Any) -> Any:
    """``a op b`` where ``ta``/``tb`` are the operands' types after conversion and ``t`` the
    scalar the operation works in; component-wise over vectors, a scalar with a vector
    applies to each component."""
    if a is UNKNOWN or b is UNKNOWN or isinstance(ta, Matrix) or isinstance(tb, Matrix):
        return UNKNOWN
    if isinstance(ta, Vector) or isinstance(tb, Vector):
        n = ta.size if isinstance(ta, Vector) else tb.size
        av = a if isinstance(ta, Vector) else (a,) * n
        bv = b if isinstance(tb, Vector) else (b,) * n
        return tuple(scalar_binary(op, x, y, t) for x, y in zip(av, bv))
    return scalar_binary(op, a, b, t)


def unary(op: str, a: Any, t: Any) -> Any:
    if a is UNKNOWN or isinstance(t, Matrix):
        return UNKNOWN
    if isinstance(t, Vector):
        return tuple(unary(op, x, t.scalar) for x in a)
    if op == "!":
        return not a
    if op == "~":
        return ~a if t.name != "u32" else (~a) & 0xFFFFFFFF
    if op == "-":
        return _wrap_check(-a, t) if t.kind in "iu" else -a
    return UNKNOWN


#: the most elements a const-expression's array value is held with (``array<i32,
#: 636109182>()`` is valid WGSL: a tuple of it would take gigabytes)
LARGEST_VALUE = 1 << 16


def zero(t: Any) -> Any:
    """The zero value of a constructible type."""
    if isinstance(t, Scalar):
        return False if t.name == "bool" else 0.0 if t.kind == "f" else 0
    if isinstance(t, Vector):
        return (zero(t.scalar),) * t.size
    if isinstance(t, Matrix):
        return (zero(t.column),) * t.cols
    if isinstance(t, Array) and isinstance(t.length, int):
        if t.length > LARGEST_VALUE:  # (not held: a use of it is evaluated where it runs)
            return UNKNOWN
        return (zero(t.element),) * t.length
    if isinstance(t, Struct):
        return tuple(zero(m) for _, m in t.fields)
    return UNKNOWN
