"""WGSL's types as static values: the one type model of the IR, shared by the WGSL front-end
(which types a parsed module with it) and the emitter (which infers the types of a Python
shader in it). A type is a small frozen value: a scalar (``f32``, ``f16``, ``i32``, ``u32``,
``bool``, or one of WGSL's abstract numeric types), a vector, a matrix, an atomic, an array
(fixed-size, override-sized or runtime-sized), a struct, a pointer or a reference (the type
of a memory view), or an opaque type (samplers and textures: they type-check; running them
is refused). :func:`from_python` maps asyncshader's run-time type objects (``f32``,
``vec3u``, ``array(f32, 64)``, an ``@ash.struct`` class ...) onto these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..wgsl.layout import RuntimeArrayType, align_size
from ..wgsl.matrices import Matrix as _PyMatrix
from ..wgsl.structs import is_struct
from ..wgsl.types import ArrayType, AtomicType, Vec, _ScalarType


@dataclass(frozen=True)
class Scalar:
    """``f32``, ``f16``, ``i32``, ``u32``, ``bool``, or ``abstract-int`` / ``abstract-float``
    (WGSL's AbstractInt and AbstractFloat: the types of literals without a suffix)."""

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
    """``matCxR<f32>`` / ``matCxR<f16>``: ``cols`` columns of ``vecR`` (an AbstractFloat
    matrix is the type of a const matrix built from abstract numbers)."""

    cols: int
    rows: int
    scalar: Scalar

    @property
    def wgsl(self) -> str:
        if self.scalar.abstract:
            return f"mat{self.cols}x{self.rows}<{self.scalar.wgsl}>"
        return f"mat{self.cols}x{self.rows}{'h' if self.scalar.name == 'f16' else 'f'}"

    @property
    def column(self) -> Vector:
        return Vector(self.rows, self.scalar)

    abstract = False  # (:func:`is_abstract` sees an AbstractFloat matrix)


@dataclass(frozen=True)
class Atomic:
    scalar: Scalar

    @property
    def wgsl(self) -> str:
        return f"atomic<{self.scalar.wgsl}>"

    abstract = False


@dataclass(frozen=True)
class OverrideSize:
    """The element count of an override-sized array (``array<f32, N>`` with ``N`` an
    override, in workgroup memory): known at pipeline creation. ``text`` is the expression as
    written; two override-sized arrays are the same type only if their counts are the same
    override-expression (WGSL), so ``key`` identifies the expression."""

    text: str
    key: int = 0

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Array:
    """``array<E, N>``: ``length`` is an int (fixed-size), an :class:`OverrideSize`, or None
    (runtime-sized: the last member of a storage buffer's struct, or the buffer itself)."""

    element: Any
    length: int | OverrideSize | None

    @property
    def wgsl(self) -> str:
        n = "" if self.length is None else f", {self.length}"
        return f"array<{self.element.wgsl}{n}>"

    abstract = False  # (:func:`is_abstract` sees an array of abstract elements)


@dataclass(frozen=True)
class Struct:
    """A struct: a WGSL ``struct`` declaration, a fragment shader's output dataclass, or an
    ``@ash.struct`` class. ``attrs`` holds each member's layout attributes as WGSL writes
    them (``"@align(16) @size(32) "``, ``""`` where the member is laid out naturally), with
    numbers; :func:`asyncshader.ir.layout.struct_layout` lays it out from them."""

    name: str
    fields: tuple[tuple[str, Any], ...]
    attrs: tuple[str, ...] = ()

    @property
    def wgsl(self) -> str:
        return self.name

    def member(self, name: str) -> Any:
        """The type of member ``name`` (None if the struct has none of that name)."""
        for field_name, t in self.fields:
            if field_name == name:
                return t
        return None

    abstract = False


@dataclass(frozen=True)
class Predeclared(Struct):
    """A struct a WGSL built-in returns (``__frexp_result_f32``, ``__modf_result_vec3_f32``,
    ``__atomic_compare_exchange_result_u32`` ...): its members read as a struct's, but WGSL
    source cannot name the type, so a value of it lives only in a ``let`` or ``var`` whose
    type is inferred. ``convert`` holds, per member, the conversion its reads go through
    where the emitted call differs (f16 ``frexp``)."""

    convert: tuple[str, ...] = ()


#: the address spaces (§ Address spaces) and the access modes (§ Memory access mode)
SPACES = ("function", "private", "workgroup", "uniform", "storage", "handle", "immediate")
ACCESS_MODES = ("read", "write", "read_write")


def default_access(space: str) -> str:
    """The access mode a ``var`` or ``ptr`` of ``space`` has when none is written."""
    return "read" if space in ("uniform", "storage", "handle", "immediate") else "read_write"


@dataclass(frozen=True)
class Pointer:
    """``ptr<space, T, access>``: a value that is a memory view (``&v``, a pointer
    parameter); ``*p`` is a :class:`Reference` to the same memory."""

    space: str
    store: Any
    access: str = "read_write"

    @property
    def wgsl(self) -> str:
        access = "" if self.access == default_access(self.space) else f", {self.access}"
        return f"ptr<{self.space}, {self.store.wgsl}{access}>"

    abstract = False


@dataclass(frozen=True)
class Reference:
    """``ref<space, T, access>``: the type of an expression that names memory (a variable,
    ``s.member``, ``a[i]``, ``*p``). It is not written in WGSL source; where a value is
    needed the load rule reads the memory and the type becomes ``store``."""

    space: str
    store: Any
    access: str = "read_write"

    @property
    def wgsl(self) -> str:
        return f"ref<{self.space}, {self.store.wgsl}, {self.access}>"

    abstract = False


@dataclass(frozen=True)
class Opaque:
    """A sampler or texture type (``sampler``, ``texture_2d<f32>``, ``texture_storage_2d<
    rgba8unorm, write>``, ``texture_depth_2d`` ...): ``name`` is its predeclared name and
    ``params`` its template arguments as WGSL writes them (a type's WGSL name, a texel format
    or an access mode). A module declaring one loads and type-checks; running an entry point
    that uses one is refused. ``element`` is a ``binding_array``'s element type (indexing one
    gives it). ``buffer`` (the ``buffer_view`` language extension) is an untyped byte buffer
    in the storage or workgroup address space, not a handle."""

    name: str
    params: tuple[str, ...] = ()
    element: Any = None

    @property
    def wgsl(self) -> str:
        return f"{self.name}<{', '.join(self.params)}>" if self.params else self.name

    @property
    def is_texture(self) -> bool:
        return self.name.startswith("texture")

    @property
    def is_handle(self) -> bool:
        """Whether a variable of this type is in the handle address space."""
        return self.name != "buffer"

    abstract = False


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


@dataclass(frozen=True)
class Named:
    """A type known only by its WGSL spelling."""

    wgsl: str
    abstract = False


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


def is_abstract(t: Any) -> bool:
    """Whether ``t`` holds an abstract numeric type anywhere (a scalar, vector, matrix, array
    element or built-in result struct member): then only a const-expression has it. (The
    ``abstract`` attribute of a type is its scalar's flag: a scalar's or vector's.)"""
    if isinstance(t, (Scalar, Vector)):
        return t.abstract
    if isinstance(t, Matrix):
        return t.scalar.abstract
    if isinstance(t, Array):
        return is_abstract(t.element)
    if isinstance(t, Predeclared):
        return any(is_abstract(m) for _, m in t.fields)
    return False


def concretize(t: Any) -> Any:
    """``t`` with each abstract type replaced by its concretization (§ Conversion rank):
    AbstractInt becomes i32 and AbstractFloat f32, in vectors, matrices and arrays too."""
    if isinstance(t, Scalar):
        return t.concrete()
    if isinstance(t, Vector):
        return Vector(t.size, t.scalar.concrete())
    if isinstance(t, Matrix):
        return Matrix(t.cols, t.rows, t.scalar.concrete())
    if isinstance(t, Array) and is_abstract(t):
        return Array(concretize(t.element), t.length)
    if isinstance(t, Predeclared) and is_abstract(t):
        function = t.name[2:].split("_result")[0]
        return Predeclared(result_struct_name(function, concretize(t.fields[0][1])),
                           tuple((n, concretize(m)) for n, m in t.fields))
    return t


def result_struct_name(function: str, t: Any) -> str:
    """The name WGSL gives the result struct of ``frexp``, ``modf`` or
    ``atomicCompareExchangeWeak`` for argument type ``t``: ``__frexp_result_vec3_f32``,
    ``__modf_result_abstract``, ``__atomic_compare_exchange_result_u32``."""
    if isinstance(t, Vector):
        spelled = f"vec{t.size}_{'abstract' if t.abstract else t.scalar.name}"
    else:
        spelled = "abstract" if t.abstract else t.name
    return f"__{function}_result_{spelled}"


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
        return struct_of_class(t)
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
    wgsl = getattr(t, "wgsl", None)  # types added later carry their WGSL name
    if isinstance(wgsl, str) and isinstance(t, type):
        return Scalar(wgsl) if wgsl == "f16" else Named(wgsl)
    return None


def struct_of_class(cls: type) -> Struct:
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
