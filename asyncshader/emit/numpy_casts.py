"""numpy's scalar types called as conversions in a Python kernel (``np.uint32(x)``,
``np.int32``, ``np.float32``, ``np.float16``, ``np.bool_``): WGSL's ``u32(x)``, ``i32(x)``,
``f32(x)``, ``f16(x)`` and ``bool(x)``, which give what numpy gives wherever numpy defines it:

- an integer to the other integer type keeps the bits (numpy wraps, WGSL reinterprets);
- a float to an integer truncates toward zero, in range (``(-1, 2**32)`` for u32,
  ``(-2**31 - 1, 2**31)`` for i32). Outside it, or for NaN, numpy's result is a C cast's:
  undefined, different on x86 and ARM (with a RuntimeWarning "invalid value encountered in
  cast"); WGSL's clamps to the range's floats (u32(5e9) is 4294967040, the largest f32
  below 2**32), much as numpy on ARM saturates;
- an integer to a float rounds to the nearest, a float to bool is ``x != 0`` (NaN is true),
  a bool is 0 or 1;
- a constant argument is converted here, by numpy: ``np.uint32(-1)`` is refused as numpy
  refuses it (OverflowError).

numpy's other scalar types (``np.float64``, ``np.int64`` ...) have no WGSL type and are
refused, naming the WGSL one.
"""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from ..ir.types import BOOL, F16, F32, I32, U32, Scalar, Unknown
from .values import E

#: the numpy scalar types WGSL has, and the WGSL type each converts to
CASTS = {np.uint32: U32, np.int32: I32, np.float32: F32, np.float16: F16, np.bool_: BOOL}


def is_numpy_scalar(callee: Any) -> bool:
    """Whether ``callee`` is one of numpy's scalar types (``np.uint32`` ...)."""
    return isinstance(callee, type) and issubclass(callee, np.generic)


def numpy_cast(fx: Any, node: ast.Call, callee: type) -> E:
    """``np.uint32(x)`` and the like (the module docstring says which), as WGSL's conversion
    of ``x``, or a literal for a constant ``x``."""
    name = f"np.{callee.__name__}"
    t = CASTS.get(callee)
    if t is None:
        kind = np.dtype(callee).kind
        wgsl = {"f": "float32", "i": "int32", "u": "uint32", "b": "bool_"}.get(kind, "float32")
        fx.fail_because(node, f"{name} has no WGSL type",
                f"convert to one it has: np.{wgsl}(x) (WGSL's {CASTS[getattr(np, wgsl)].wgsl})")
    if node.keywords or len(node.args) != 1:
        fx.fail(node, f"{name}() with other than one argument", f"convert one value: {name}(x)")
    a = fx.value(node.args[0])
    at = fx.module.resolved(a.type)
    if a.has_const and isinstance(a.const, (bool, int, float, np.generic)):
        try:
            v = callee(a.const)
        except (OverflowError, ValueError) as exc:
            fx.fail_because(node, f"{name}({a.const!r}) is refused by numpy ({exc})",
                    f"give {name} a value in its range")
        return fx.constant(v, t)
    if not isinstance(at, (Scalar, Unknown)):
        fx.fail(node, f"{name}() of a {getattr(at, 'wgsl', at)}",
                f"{name} converts a scalar; convert a vector with its WGSL type (vec3u(v) ...)")
    return fx.convert(node, a, t)
