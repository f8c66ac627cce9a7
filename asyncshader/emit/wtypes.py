"""WGSL types as the emitter sees them: the IR's type model (:mod:`asyncshader.ir.types`,
re-exported here), with what only the emitter needs: numpy dtypes and host values to types,
and a folded constant as a WGSL literal. New asyncshader types (matrices, f16, structs) are
new rows in :func:`asyncshader.ir.types.from_python`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import AsyncShaderError
from ..ir.types import (  # the IR's type model, re-exported under the emitter's names
    _BY_KIND,
    AFLOAT,
    AINT,
    BOOL,
    F16,
    F32,
    I32,
    U32,
    Array,
    Atomic,
    Elements,
    Matrix,
    Named,
    Predeclared,
    Scalar,
    Struct,
    Unknown,
    Vector,
    from_python,
    scalar_of,
    with_scalar,
)
from ..ir.types import struct_of_class as _struct
from ..wgsl.matrices import Matrix as _PyMatrix
from ..wgsl.structs import is_struct
from ..wgsl.structs import struct_of as _struct_of
from ..wgsl.types import Vec

__all__ = ["AFLOAT", "AINT", "BOOL", "F16", "F32", "I32", "U32", "Array", "Atomic", "Elements",
           "Matrix", "Named", "Predeclared", "Scalar", "Struct", "Unknown", "Vector",
           "WGSLEmitError", "from_dtype", "from_python", "literal", "scalar_of",
           "type_of_value", "with_scalar"]


class WGSLEmitError(AsyncShaderError, TypeError):
    """The shader uses something WGSL cannot express (or whose type cannot be inferred); the
    message names the file:line, the construct and what to write instead."""


def from_dtype(dtype: Any) -> Scalar:
    kind = np.dtype(dtype).kind
    if np.dtype(dtype) == np.float16:
        return F16
    if np.dtype(dtype).names is not None and is_struct(_struct_of(np.dtype(dtype))):
        return _struct(_struct_of(np.dtype(dtype)))
    if np.dtype(dtype).itemsize != 4 and kind != "b":
        raise WGSLEmitError(f"a {np.dtype(dtype)} array has no WGSL element type; use float32, "
                            "int32 or uint32")
    return _BY_KIND[kind]


def type_of_value(value: Any) -> Any:
    """The WGSL type of a host value (a folded constant): None if it has none."""
    if isinstance(value, (bool, np.bool_)):
        return BOOL
    if isinstance(value, int):
        return AINT
    if isinstance(value, float):
        return AFLOAT
    if isinstance(value, np.generic) and value.dtype == np.float16:
        return F16
    if isinstance(value, np.generic) and value.dtype.itemsize == 4:
        return _BY_KIND.get(value.dtype.kind)
    if isinstance(value, Vec):
        return Vector(value.size, _BY_KIND[value.kind])
    if isinstance(value, _PyMatrix) or is_struct(type(value)):
        return from_python(type(value))
    return None


def literal(value: Any, t: Any) -> str:
    """``value`` (a folded constant) as a WGSL literal of type ``t``."""
    if isinstance(t, Matrix):
        return f"{t.wgsl}({', '.join(literal(c, t.column) for c in value)})"
    if isinstance(t, Vector):
        parts = [literal(c, t.scalar) for c in value]
        if len(set(parts)) == 1:
            return f"{t.wgsl}({parts[0]})"
        return f"{t.wgsl}({', '.join(parts)})"
    name = t.name
    if name == "bool":
        return "true" if value else "false"
    if name == "abstract-int":
        return str(int(value))
    if name == "i32":
        v = int(value)
        return f"{v}i" if v != -2**31 else "i32(-2147483648)"
    if name == "u32":
        return f"{int(value)}u"
    f = float(value)
    if f != f or f in (float("inf"), float("-inf")):
        raise WGSLEmitError(f"the constant {value!r} is not finite; WGSL has no literal for it "
                            "(compute it at run time, e.g. bitcast[f32](u32(0x7f800000)))")
    text = str(np.float32(f)) if name == "f32" else str(np.float16(f)) if name == "f16" \
        else repr(f)
    if "e" not in text and "." not in text:
        text += ".0"
    return text + {"f32": "f", "f16": "h"}.get(name, "")
