"""WGSL's meaning of the operators whose Python (numpy) meaning differs: ``/``, ``//``, ``%``,
``<<`` and ``>>``.

A shader's source is rewritten when it is first dispatched (:mod:`asyncshader.wgsl.rewrite`) so
that ``a / b`` calls :func:`div`, ``a % b`` :func:`mod`, and so on. Each function looks at its
operands' types and applies WGSL's rule:

* ``i32`` / ``u32`` division truncates toward zero; ``e / 0`` is ``e``; ``i32`` min ``/ -1`` is
  min (WGSL §8.7, "Arithmetic Expressions"); ``//`` is the same integer division.
* ``%`` has the sign of the dividend (truncated remainder) for ``i32`` and ``f32``; ``e % 0``
  is 0 for integers.
* shifts take the count modulo 32; the count is ``u32`` (an ``i32`` count is an error, as in
  WGSL); ``i32 >> n`` is arithmetic, ``u32 >> n`` logical; the result has the type of the
  left operand.
* an unsuffixed Python literal takes the type of the other operand (WGSL's abstract numbers:
  an ``int`` becomes ``i32``, ``u32``, ``f32`` or ``f16``, and must fit; a ``float`` becomes
  ``f32`` or ``f16`` only), and two different concrete types are an error that names both and
  the conversion to write: WGSL converts nothing implicitly.
* two Python numbers keep Python's meaning (``7 / 2 == 3.5``): they are host values, not WGSL
  values (WGSL's own abstract-int ``7 / 2`` would be 3; write ``i32(7) / 2`` for that).

Vectors (:class:`~asyncshader.wgsl.types.Vec`) already implement WGSL's rules in their own
operators; numpy arrays (a storage buffer, a row of one) get the same rules element-wise.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ..errors import ShaderTypeError
from .matrices import Matrix
from .matrices import _refuse as _refuse_matrix
from .types import Vec, _idiv, _irem, _to_i32

I32, U32, F32, F16, BOOL = np.int32, np.uint32, np.float32, np.float16, np.bool_
_INTS = (I32, U32)
_FLOATS = (F32, F16)
_WGSL = {I32: "i32", U32: "u32", F32: "f32", F16: "f16", BOOL: "bool"}
_RANGE = {I32: (-(2**31), 2**31 - 1), U32: (0, 2**32 - 1)}
_KIND = {"f": F32, "i": I32, "u": U32, "b": BOOL, "h": F16}


def _name(x: Any) -> str:
    """How a value's type is called in WGSL (or in Python, when it is not a WGSL type)."""
    t = type(x)
    if t in _WGSL:
        return _WGSL[t]
    if isinstance(x, Vec):
        return type(x).__name__
    if isinstance(x, np.ndarray):
        return f"an array of {_WGSL.get(x.dtype.type, x.dtype.name)}"
    if t is int or t is float:
        return f"a Python {t.__name__} ({x!r})"
    return f"numpy {t.__name__}" if isinstance(x, np.generic) else t.__name__


def _refuse(sym: str, a: Any, b: Any, why: str = "") -> ShaderTypeError:
    if isinstance(a, Matrix) or isinstance(b, Matrix):  # (m / s, m % s, m << n: WGSL has none)
        return _refuse_matrix(a, sym, b)
    named = [_WGSL[type(x)] for x in (a, b) if type(x) in _WGSL]
    if len(named) == 2:
        fix = f" Convert one side: {named[1]}(x) {sym} y, or x {sym} {named[0]}(y)."
    elif named:
        fix = f" Convert the other side: e.g. {named[0]}(x)."
    else:
        fix = " Convert both sides to one WGSL type, e.g. ash.f32(x) or ash.u32(x)."
    odd = next((x for x in (a, b) if isinstance(x, np.generic) and type(x) not in _WGSL), None)
    if odd is not None and not why:
        why = (f" numpy {type(odd).__name__} is not a WGSL type: it comes from mixing types "
               "in an earlier expression (u32 with i32, or an integer with a float literal),"
               " which numpy widens and WGSL refuses.")
    return ShaderTypeError(f"`{_name(a)} {sym} {_name(b)}` is not a WGSL expression: both "
                           f"operands must have one type.{why}{fix}")


_F32_MAX = float(np.finfo(np.float32).max)
#: the largest magnitude of a literal that converts to a finite value, by float type
_FLOAT_MAX = {F32: _F32_MAX, F16: 65504.0}


def _literal(x: Any, t: type, sym: str, a: Any, b: Any) -> Any:
    """A Python number as WGSL's abstract literal becomes concrete type ``t``."""
    if t in _FLOATS and type(x) in (int, float) and not abs(x) <= _FLOAT_MAX[t] and x == x:
        shown = f"{x:.6g}" if type(x) is float else (str(x) if x.bit_length() < 64 else
                                                       f"of {len(str(abs(x)))} digits")
        raise _refuse(sym, a, b, f" The literal {shown} does not fit in {_WGSL[t]}.")
    if type(x) is int:
        if t in _FLOATS:
            return t(x)
        low, high = _RANGE.get(t, (1, 0))
        if low <= x <= high:
            return t(x)
        raise _refuse(sym, a, b, f" The literal {x} does not fit in {_WGSL.get(t, t)}.")
    if type(x) is float and t in _FLOATS:
        return t(x)
    raise _refuse(sym, a, b)


def _common(a: Any, b: Any, sym: str) -> tuple[Any, Any, type]:
    """The two scalar operands in one WGSL type (abstract literals converted), or an error."""
    ta, tb = type(a), type(b)
    if ta is tb and ta in _WGSL:
        return a, b, ta
    if ta in _WGSL and tb in (int, float):
        return a, _literal(b, ta, sym, a, b), ta
    if tb in _WGSL and ta in (int, float):
        return _literal(a, tb, sym, a, b), b, tb
    raise _refuse(sym, a, b)


def _is_py(x: Any) -> bool:
    t = type(x)
    return t is int or t is float or t is bool


def _array_op(a: Any, b: Any, sym: str, scalar_fn: Any) -> Any:
    """An operator on numpy arrays (and scalars with them), element-wise by WGSL's rule."""
    dt = a.dtype if isinstance(a, np.ndarray) else b.dtype
    other = b if isinstance(a, np.ndarray) else a
    if isinstance(other, np.ndarray):
        if other.dtype != dt:
            raise _refuse(sym, a, b)
    elif type(other) in _WGSL:
        if type(other) is not dt.type:
            raise _refuse(sym, a, b)
    elif type(other) in _PY_NUMBERS:
        _literal(other, dt.type, sym, a, b)  # (raises if it does not fit the array's type)
    elif not isinstance(other, Vec):
        raise _refuse(sym, a, b)
    a_arr, b_arr = np.asarray(a), np.asarray(b)
    kind = dt.kind
    if kind == "f":
        return scalar_fn(a, b)  # the float rules are numpy's own (fmod for %)
    with np.errstate(all="ignore"):
        a_arr, b_arr = a_arr.astype(dt), b_arr.astype(dt)
        if sym in ("/", "//"):
            safe = np.where(b_arr == 0, 1, b_arr)
            if kind == "i":
                safe = np.where((a_arr == np.iinfo(dt).min) & (safe == -1), 1, safe)
            q = np.abs(a_arr.astype(np.int64)) // np.abs(safe.astype(np.int64))
            q = np.where((a_arr < 0) != (safe < 0), -q, q)
            return np.where(b_arr == 0, a_arr, q).astype(dt)
        safe = np.where(b_arr == 0, 1, b_arr)
        return np.where(b_arr == 0, 0, np.fmod(a_arr, safe)).astype(dt)


def div(a: Any, b: Any) -> Any:
    """WGSL ``e1 / e2``: truncating integer division (``e / 0`` is ``e``), f32 division."""
    ta = type(a)
    if ta is type(b):
        if ta is F32 or ta is int or ta is float or ta is F16:
            return a / b
        if ta is U32:
            return a // b if b else a
        if ta is I32:
            return _idiv(a, b)
    if isinstance(a, Vec):
        return a / b
    if isinstance(b, Vec):
        return b.__rtruediv__(a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return _array_op(a, b, "/", operator.truediv)
    if _is_py(a) and _is_py(b):
        return a / b
    a, b, t = _common(a, b, "/")
    return div(a, b) if t is not BOOL else _refuse_bool("/", a, b)


def floordiv(a: Any, b: Any) -> Any:
    """``e1 // e2``: for integers, WGSL's integer division (the same as ``/``); for floats
    Python's floor division (WGSL has no ``//``: ``floor(e1 / e2)`` is the WGSL spelling)."""
    ta = type(a)
    if ta is type(b) and (ta is int or ta is float or ta is F32 or ta is F16):
        return a // b
    if isinstance(a, Vec) or isinstance(b, Vec):
        return div(a, b) if (a if isinstance(a, Vec) else b).kind in "iu" else a // b
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return _array_op(a, b, "//", operator.floordiv)
    if _is_py(a) and _is_py(b):
        return a // b
    a, b, t = _common(a, b, "//")
    return div(a, b) if t in _INTS else (a // b if t in _FLOATS else _refuse_bool("//", a, b))


def mod(a: Any, b: Any) -> Any:
    """WGSL ``e1 % e2``: the sign of the dividend (``e1 - e2 * trunc(e1 / e2)``, for f32 too);
    ``e % 0`` is 0 for integers."""
    ta = type(a)
    if ta is type(b):
        if ta is F32 or ta is F16:
            return np.fmod(a, b)
        if ta is U32:
            return a % b if b else U32(0)
        if ta is I32:
            return _irem(a, b)
        if ta is int or ta is float:
            return a % b
    if isinstance(a, (str, bytes)) or (not isinstance(a, (np.generic, Vec, np.ndarray))
                                       and not isinstance(b, (np.generic, Vec, np.ndarray))):
        return a % b  # Python numbers, and "%d" % args
    if isinstance(a, Vec):
        return a % b
    if isinstance(b, Vec):
        want = _KIND[b.kind]
        if (type(a) in _WGSL and type(a) is not want) or (type(a) is float
                                                           and want not in _FLOATS):
            raise _refuse("%", a, b)
        return type(b)(a) % b
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return _array_op(a, b, "%", np.fmod)
    a, b, t = _common(a, b, "%")
    return mod(a, b) if t is not BOOL else _refuse_bool("%", a, b)


def _refuse_bool(sym: str, a: Any, b: Any) -> Any:
    raise ShaderTypeError(f"`bool {sym} bool` is not a WGSL expression: arithmetic is for "
                          "numbers. Convert with ash.u32(b) or use select().")


def _count(a: Any, b: Any, sym: str) -> int:
    """A shift count as WGSL takes it: u32 (or an unsuffixed literal), modulo 32."""
    tb = type(b)
    if tb is U32 or (tb is int and b >= 0):
        return int(b) & 31
    if tb is int:
        raise ShaderTypeError(f"`{_name(a)} {sym} {b}`: a shift count is a u32; {b} is "
                              "negative.")
    raise ShaderTypeError(f"`{_name(a)} {sym} {_name(b)}`: WGSL takes the shift count as u32 "
                          f"(never i32 or a float). Write x {sym} u32(n).")


def _shift(a: Any, b: Any, sym: str, left: bool) -> Any:
    ta = type(a)
    if ta is int and type(b) is int:
        return a << b if left else a >> b
    if isinstance(a, Vec):
        return a << b if left else a >> b
    if isinstance(a, np.ndarray):
        if a.dtype.type not in _INTS:
            raise ShaderTypeError(f"`{_name(a)} {sym} ...`: shifts are for i32 and u32.")
        if not (type(b) is U32 or (type(b) is int and b >= 0)
                or (isinstance(b, np.ndarray) and b.dtype.type is U32)):
            raise ShaderTypeError(f"`{_name(a)} {sym} {_name(b)}`: WGSL takes the shift count "
                                  f"as u32 (never i32 or a float). Write x {sym} u32(n).")
        n = np.asarray(b).astype(np.uint32) & 31
        return (np.left_shift(a, n.astype(a.dtype)) if left else
                np.right_shift(a, n.astype(a.dtype)))
    if ta is int:  # an abstract left operand with a u32 count: it becomes i32
        a, ta = _literal(a, I32, sym, a, b), I32
    if ta not in _INTS:
        raise ShaderTypeError(f"`{_name(a)} {sym} {_name(b)}`: shifts are for i32 and u32 "
                              "(and their vectors).")
    n = _count(a, b, sym)
    if left:
        r = (int(a) << n) & 0xFFFFFFFF
        return U32(r) if ta is U32 else _to_i32(r)
    return ta(int(a) >> n)  # i32: Python's >> is arithmetic; u32 values are non-negative


def shl(a: Any, b: Any) -> Any:
    """WGSL ``e1 << e2``: the count (u32) modulo 32; the result has ``e1``'s type."""
    return _shift(a, b, "<<", True)


def shr(a: Any, b: Any) -> Any:
    """WGSL ``e1 >> e2``: arithmetic for i32, logical for u32; the count (u32) modulo 32."""
    return _shift(a, b, ">>", False)


_PY_NUMBERS = (int, float)
_CHECK_OWN = (Vec, Matrix, np.ndarray)
_SEQUENCES = (str, bytes, list, tuple)


def _same_type(sym: str, op: Any) -> Any:
    """``op`` (``+ - * & | ^``) with WGSL's typing, for strict kernels: both operands of one
    type (a Python literal takes the other's type, if it fits), or an error naming both.
    Python's meaning is otherwise kept: numpy's 32-bit arithmetic already wraps and rounds."""
    def apply(a: Any, b: Any) -> Any:
        ta, tb = a.__class__, b.__class__
        if ta is tb and ta is BOOL and sym in "+-*":
            raise ShaderTypeError(f"`bool {sym} bool` is not a WGSL expression: arithmetic is "
                                  "for numbers. Convert with u32(b), or use select().")
        if ta is tb or (ta in _PY_NUMBERS and tb in _PY_NUMBERS):
            return op(a, b)
        if isinstance(a, _SEQUENCES) or isinstance(b, _SEQUENCES):
            return op(a, b)  # ("-" * n, [0] * 4: Python's, not WGSL values)
        if ta in _WGSL and tb in _PY_NUMBERS and ta is not BOOL:
            return op(a, _literal(b, ta, sym, a, b))
        if tb in _WGSL and ta in _PY_NUMBERS and tb is not BOOL:
            return op(_literal(a, tb, sym, a, b), b)
        if (ta is BOOL and tb is bool) or (tb is BOOL and ta is bool):
            return op(a, b)
        if isinstance(a, _CHECK_OWN) or isinstance(b, _CHECK_OWN):
            return op(a, b)  # (vectors and matrices check their own operands)
        raise _refuse(sym, a, b)
    apply.__name__ = apply.__qualname__ = f"strict {sym}"
    apply.__doc__ = f"WGSL ``e1 {sym} e2`` with WGSL's typing (strict kernels)."
    return apply


def inplace(op: Any, target: Any, value: Any) -> Any:
    """``target op= value``: the result, written back into ``target`` when it is a numpy array
    (a view of a buffer: numpy's own ``//=`` would update the buffer in place too)."""
    result = op(target, value)
    if isinstance(target, np.ndarray) and target.ndim:
        target[...] = result
        return target
    return result


#: the rewritten operators, by the name the rewritten source calls them
OPERATORS = {"div": div, "floordiv": floordiv, "mod": mod, "shl": shl, "shr": shr,
             "add": _same_type("+", operator.add), "sub": _same_type("-", operator.sub),
             "mul": _same_type("*", operator.mul), "and": _same_type("&", operator.and_),
             "or": _same_type("|", operator.or_), "xor": _same_type("^", operator.xor)}

#: the types of a left operand for which Python's operator, with an int literal on the right
#: (1 or more for / // %, 0 to 31 for shifts), already gives WGSL's value and type: the
#: rewritten source tests ``x.__class__`` against these and calls the operator function only
#: for the others (a call costs about three times the operator itself)
SAFE_WITH_LITERAL = {
    "div": frozenset({int, float, F32, F16}),  # (u32 / 2 is a float64 in numpy; i32 too)
    "floordiv": frozenset({int, float, F32, F16, U32}),  # (i32 // 2 floors in numpy)
    "mod": frozenset({int, float, U32}),  # (numpy's f32 and i32 % floor)
    "shl": frozenset({int, I32, U32}),
    "shr": frozenset({int, I32, U32}),
}
