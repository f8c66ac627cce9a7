"""WGSL types as the emitter sees them, and how asyncshader's types and numpy dtypes map onto
them. A type is a small frozen value: a scalar (``f32``, ``i32``, ``u32``, ``bool``, or one of
WGSL's abstract numeric types for Python literals), a vector, an array (fixed or runtime-sized),
an atomic, or a struct. The emitter's type inference (:mod:`asyncshader.emit.infer`) works on
these; new asyncshader types (matrices, f16, structs) are new rows in :func:`from_python`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import AsyncShaderError
from ..wgsl.layout import RuntimeArrayType, align_size
from ..wgsl.matrices import Matrix as _PyMatrix
from ..wgsl.structs import is_struct
from ..wgsl.structs import struct_of as _struct_of
from ..wgsl.types import ArrayType, AtomicType, Vec, _ScalarType


class WGSLEmitError(AsyncShaderError, TypeError):
    """The shader uses something WGSL cannot express (or whose type cannot be inferred); the
    message names the file:line, the construct and what to write instead."""


@dataclass(frozen=True)
class Scalar:
    """``f32``, ``i32``, ``u32``, ``bool``, or ``abstract-int`` / ``abstract-float``."""

    name: str

    @property
    def wgsl(self) -> str:
        return self.name

    @property
    def abstract(self) -> bool:
        return self.name.startswith("abstract")

    @property
    def kind(self) -> str:
        """'f', 'i', 'u' or 'b'."""
        return {"f32": "f", "i32": "i", "u32": "u", "bool": "b", "abstract-int": "i",
                "abstract-float": "f", "f16": "f"}[self.name]

    def concrete(self) -> Scalar:
        return {"abstract-int": I32, "abstract-float": F32}.get(self.name, self)


@dataclass(frozen=True)
class Vector:
    size: int
    scalar: Scalar

    @property
    def wgsl(self) -> str:
        short = {"f32": "f", "i32": "i", "u32": "u", "f16": "h"}.get(self.scalar.name)
        return f"vec{self.size}{short}" if short else f"vec{self.size}<{self.scalar.wgsl}>"

    @property
    def abstract(self) -> bool:
        return self.scalar.abstract

    def concrete(self) -> Vector:
        return Vector(self.size, self.scalar.concrete())


@dataclass(frozen=True)
class Matrix:
    """``matCxR<f32>`` / ``matCxR<f16>``: ``cols`` columns of ``vecR``."""

    cols: int
    rows: int
    scalar: Scalar

    @property
    def wgsl(self) -> str:
        return f"mat{self.cols}x{self.rows}{'h' if self.scalar.name == 'f16' else 'f'}"

    @property
    def column(self) -> Vector:
        return Vector(self.rows, self.scalar)

    abstract = False


@dataclass(frozen=True)
class Atomic:
    scalar: Scalar

    @property
    def wgsl(self) -> str:
        return f"atomic<{self.scalar.wgsl}>"

    abstract = False


@dataclass(frozen=True)
class Array:
    element: Any
    length: int | None  # None: runtime-sized (a storage buffer)

    @property
    def wgsl(self) -> str:
        n = "" if self.length is None else f", {self.length}"
        return f"array<{self.element.wgsl}{n}>"

    abstract = False


@dataclass(frozen=True)
class Struct:
    """A struct: a fragment shader's output dataclass, or an ``@ash.struct`` class (``attrs``
    then holds each member's ``@align(n) @size(n)`` where its layout needs them)."""

    name: str
    fields: tuple[tuple[str, Any], ...]
    attrs: tuple[str, ...] = ()

    @property
    def wgsl(self) -> str:
        return self.name

    abstract = False


@dataclass(frozen=True)
class Predeclared(Struct):
    """A struct a WGSL built-in returns (``__frexp_result_f32``, ``__modf_result_vec3_f32``,
    ``__atomic_compare_exchange_result_u32`` ...): its members read as a struct's, but WGSL
    source cannot name the type, so a value of it lives only in a ``let`` or ``var`` whose
    type is inferred (:mod:`asyncshader.emit.results`). ``convert`` holds, per member, the
    conversion its reads go through where the emitted call differs (f16 ``frexp``)."""

    convert: tuple[str, ...] = ()


@dataclass(frozen=True)
class Unknown:
    """A type not known yet: a storage buffer's element, a fragment input, found by use."""

    what: str
    wgsl = "?"
    abstract = False


@dataclass(frozen=True)
class Elements(Unknown):
    """The element type of a module tuple of Python ints (a const array): the one concrete
    type its uses ask for, else i32 (:mod:`asyncshader.emit.consts`). ``key`` tells two tuples
    of one name apart."""

    key: int = 0


F32, I32, U32, BOOL = Scalar("f32"), Scalar("i32"), Scalar("u32"), Scalar("bool")
F16 = Scalar("f16")  # (WGSL's `enable f16;`: the module says so when it uses one)
AINT, AFLOAT = Scalar("abstract-int"), Scalar("abstract-float")
_BY_KIND = {"f": F32, "i": I32, "u": U32, "b": BOOL, "h": F16}


def scalar_of(t: Any) -> Scalar | None:
    """The scalar type of a scalar or vector (None for anything else)."""
    if isinstance(t, Scalar):
        return t
    if isinstance(t, Vector):
        return t.scalar
    return None


def with_scalar(t: Any, s: Scalar) -> Any:
    """``t`` (a scalar or vector) with its scalar replaced by ``s``."""
    return Vector(t.size, s) if isinstance(t, Vector) else s


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


def from_python(t: Any) -> Any:
    """The WGSL type of an asyncshader type object or annotation (``f32``, ``vec3u``,
    ``array(f32, 64)``, ``atomic(u32)``, ``float``, ``np.float32`` ...); None if it is not one."""
    if isinstance(t, _ScalarType):
        return _BY_KIND[{"f32": "f", "i32": "i", "u32": "u", "bool": "b", "f16": "h"}[t.wgsl]]
    if isinstance(t, type) and issubclass(t, Vec) and hasattr(t, "size"):
        return Vector(t.size, _BY_KIND[t.kind])
    if isinstance(t, type) and issubclass(t, _PyMatrix) and hasattr(t, "cols"):
        return Matrix(t.cols, t.rows, from_python(t.scalar))
    if is_struct(t):
        return _struct(t)
    if isinstance(t, RuntimeArrayType):
        return Array(from_python(t.element), None)
    if isinstance(t, ArrayType):
        element = from_python(t.element)
        return None if element is None else Array(element, t.length)
    if isinstance(t, AtomicType):
        return Atomic(from_python(t.scalar))
    if t in (float, np.float32):
        return F32
    if t in (int, np.int32):
        return I32
    if t is np.uint32:
        return U32
    if t is np.float16:
        return F16
    if t in (bool, np.bool_):
        return BOOL
    wgsl = getattr(t, "wgsl", None)  # types added later (matrices, f16) carry their WGSL name
    if isinstance(wgsl, str) and isinstance(t, type):
        return Scalar(wgsl) if wgsl == "f16" else Named(wgsl)
    return None


def _struct(cls: type) -> Struct:
    """An ``@ash.struct`` class: its members, with ``@align``/``@size`` where its layout (WGSL's,
    :mod:`asyncshader.wgsl.layout`) differs from the members' natural alignment and size."""
    fields, attrs = [], []
    for m in cls.__wgsl_layout__.members:
        fields.append((m.name, from_python(m.type)))
        if isinstance(m.type, RuntimeArrayType):
            attrs.append(f"@align({m.align}) " if m.align != align_size(m.type)[0] else "")
            continue
        natural_align, natural_size = align_size(m.type)
        attrs.append((f"@align({m.align}) " if m.align != natural_align else "") +
                     (f"@size({m.size}) " if m.size != natural_size else ""))
    return Struct(cls.__name__, tuple(fields), tuple(attrs))


@dataclass(frozen=True)
class Named:
    """A type the emitter knows only by its WGSL spelling (a matrix, say)."""

    wgsl: str
    abstract = False


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
