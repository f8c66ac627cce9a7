"""WGSL's memory layout of host-shareable types (WGSL §Memory Layout): ``AlignOf``, ``SizeOf``,
array strides, struct member offsets, and the uniform address space's extra rules.

The layout protocol: a type's alignment and size come from

* a scalar type (``f32``, ``i32``, ``u32``, ``f16`` ...): its ``dtype.itemsize`` for both
  (generic over the scalar's byte size: 4 for 32-bit types, 2 for f16);
* a vector type: ``size`` components of its ``scalar`` (vec3 aligns like vec4);
* a matrix type (anything with ``cols``, ``rows`` and ``scalar``): ``cols`` column vectors of
  ``rows`` components, each column at a multiple of the column vector's alignment;
* ``array(E, N)``, ``runtime_array(E)``, ``atomic(T)``;
* a struct (a class declared with :func:`asyncshader.struct`): its ``__wgsl_layout__``.

:func:`align` and :func:`size` are WGSL's ``@align(n)`` and ``@size(n)`` member attributes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .types import ArrayType, AtomicType, Vec, _ScalarType, _type_name

__all__ = ["Member", "MemberAttrs", "RuntimeArrayType", "StructLayout", "align", "align_of",
           "check_uniform", "dtype_of", "leaves", "round_up", "runtime_array", "size",
           "size_of", "stride_of"]


def round_up(k: int, n: int) -> int:
    """WGSL's ``roundUp(k, n)``: the smallest multiple of ``k`` that is at least ``n``."""
    return -(-n // k) * k


class RuntimeArrayType:
    """WGSL ``array<E>``: a runtime-sized array, only as the last member of a struct in a
    storage buffer (its length comes from the buffer; ``array_length`` gives it)."""

    def __init__(self, element: Any) -> None:
        self.element = element

    def __repr__(self) -> str:
        return f"runtime_array({_type_name(self.element)})"


def runtime_array(element: Any) -> RuntimeArrayType:
    """WGSL ``array<element>`` (runtime-sized), e.g. ``data: ash.runtime_array(f32)`` as the last
    member of a struct."""
    return RuntimeArrayType(element)


@dataclass(frozen=True)
class MemberAttrs:
    """A member type with WGSL's ``@align(n)`` and/or ``@size(n)`` (0: not given)."""

    type: Any
    align: int = 0
    size: int = 0

    def __repr__(self) -> str:
        out = _type_name(self.type)
        if self.size:
            out = f"size({self.size}, {out})"
        if self.align:
            out = f"align({self.align}, {out})"
        return out


def _attrs(t: Any) -> MemberAttrs:
    return t if isinstance(t, MemberAttrs) else MemberAttrs(t)


def align(n: int, t: Any) -> MemberAttrs:
    """WGSL ``@align(n)`` on a struct member: ``velocity: ash.align(16, vec3f)``. ``n`` is a
    positive power of two (checked when the struct is declared)."""
    if not isinstance(n, int) or n <= 0 or n & (n - 1):
        raise TypeError(f"align({n!r}, ...): WGSL's @align takes a positive power of two")
    return MemberAttrs(_attrs(t).type, n, _attrs(t).size)


def size(n: int, t: Any) -> MemberAttrs:
    """WGSL ``@size(n)`` on a struct member: ``x: ash.size(16, f32)`` (n at least the type's
    size, checked when the struct is declared)."""
    if not isinstance(n, int) or n <= 0:
        raise TypeError(f"size({n!r}, ...): WGSL's @size takes a positive integer")
    return MemberAttrs(_attrs(t).type, _attrs(t).align, n)


# ------------------------------------------------------------------------ AlignOf and SizeOf
def is_matrix(t: Any) -> bool:
    """Whether ``t`` is a matrix type (the matrix protocol: ``cols``, ``rows``, ``scalar``)."""
    return isinstance(t, type) and all(hasattr(t, a) for a in ("cols", "rows", "scalar")) \
        and isinstance(t.cols, int)


def _scalar_size(t: Any) -> int:
    return int(np.dtype(t.dtype).itemsize)


def _vec_align_size(n: int, scalar: Any) -> tuple[int, int]:
    s = _scalar_size(scalar)
    return (2 if n == 2 else 4) * s, n * s


def align_size(t: Any) -> tuple[int, int]:
    """(AlignOf(t), SizeOf(t)) per WGSL §Alignment and Size; SizeOf of a runtime-sized array is
    its stride (one element: call it for the element count you need)."""
    t = getattr(t, "type", t) if isinstance(t, MemberAttrs) else t
    if isinstance(t, _ScalarType):
        n = _scalar_size(t)
        return n, n
    if isinstance(t, AtomicType):
        return align_size(t.scalar)
    if isinstance(t, type) and issubclass(t, Vec):
        return _vec_align_size(t.size, t.scalar)
    if is_matrix(t):
        va, vs = _vec_align_size(t.rows, t.scalar)
        return va, t.cols * round_up(va, vs)
    if isinstance(t, ArrayType):
        ea, es = align_size(t.element)
        return ea, t.length * round_up(ea, es)
    if isinstance(t, RuntimeArrayType):
        ea, es = align_size(t.element)
        return ea, round_up(ea, es)
    layout = getattr(t, "__wgsl_layout__", None)
    if isinstance(layout, StructLayout):
        return layout.align, layout.size
    raise TypeError(f"{t!r} is not a WGSL type with a memory layout: use f32, i32, u32, "
                    "vecNf/i/u, a matrix, array(T, N), runtime_array(T), atomic(T) or an "
                    "@ash.struct class")


def align_of(t: Any) -> int:
    """WGSL ``AlignOf(t)`` in bytes."""
    return align_size(t)[0]


def size_of(t: Any) -> int:
    """WGSL ``SizeOf(t)`` in bytes."""
    return align_size(t)[1]


def stride_of(t: Any) -> int:
    """The element stride of ``array<t>``: ``roundUp(AlignOf(t), SizeOf(t))``."""
    a, s = align_size(t)
    return round_up(a, s)


# ------------------------------------------------------------------------------ struct layout
@dataclass(frozen=True)
class Member:
    """One laid-out struct member: name, type, byte offset, AlignOfMember and SizeOfMember."""

    name: str
    type: Any
    offset: int
    align: int
    size: int


@dataclass(frozen=True)
class StructLayout:
    """A struct's layout: its members (with offsets), AlignOf and SizeOf (SizeOf counts a
    runtime-sized last member as empty: its elements start at its offset)."""

    name: str
    members: tuple[Member, ...]
    align: int
    size: int
    #: why the struct is not host-shareable (``"member 'b' is bool"``), "" when it is:
    #: WGSL allows it in function, private and workgroup memory, not in a buffer
    not_shareable: str = ""

    @property
    def runtime(self) -> Member | None:
        """The runtime-sized last member, if any."""
        last = self.members[-1] if self.members else None
        return last if last is not None and isinstance(last.type, RuntimeArrayType) else None


#: the largest struct, in bytes: numpy's structured dtypes hold at most a C int's worth
MAX_STRUCT_SIZE = 2**31 - 1


def _bool_in(t: Any) -> tuple[str, str] | None:
    """The bool or bool vector type ``t`` is or holds (through arrays), if any, and the type to
    use instead: WGSL's bool is not host-shareable."""
    while isinstance(t, (ArrayType, RuntimeArrayType)):
        t = _attrs(t.element).type
    if t is bool or getattr(t, "wgsl", None) == "bool":
        return "bool", "u32"
    if isinstance(t, type) and issubclass(t, Vec) and t.kind == "b":
        return f"vec{t.size}<bool>", f"vec{t.size}u"
    return None


def _laid_out_as(t: Any) -> Any:
    """The type whose layout ``t`` takes: ``t``, with bool as u32 and ``vecN<bool>`` as
    ``vecNu`` (WGSL's table gives bool 4 bytes; :mod:`asyncshader.ir.layout` agrees)."""
    if isinstance(t, ArrayType):
        return ArrayType(_laid_out_as(_attrs(t.element).type), t.length)
    if isinstance(t, RuntimeArrayType):
        return RuntimeArrayType(_laid_out_as(_attrs(t.element).type))
    if t is bool or getattr(t, "wgsl", None) == "bool":
        from .types import u32
        return u32
    if isinstance(t, type) and issubclass(t, Vec) and t.kind == "b":
        from .types import _VECS
        return _VECS[(t.size, "u")]
    return t


def not_shareable(t: Any) -> str:
    """Why a struct ``t`` (or an array of one) cannot be in a storage or uniform buffer (it
    holds a bool: WGSL's host-shareable types hold none), "" when it can."""
    t = _attrs(t).type
    while isinstance(t, (ArrayType, RuntimeArrayType)):
        t = _attrs(t.element).type
    layout = getattr(t, "__wgsl_layout__", None)
    return layout.not_shareable if isinstance(layout, StructLayout) else ""


def _bool_member(name: str, mname: str, t: Any) -> str:
    """Why the member ``mname`` of type ``t`` keeps struct ``name`` out of buffers ("": it
    does not)."""
    held = _bool_in(t)
    if t is bool or getattr(t, "wgsl", None) == "bool":
        return (f"struct {name}: member {mname!r} is bool, which is not host-shareable "
                "(WGSL): use u32 (0 or 1)")
    if held is not None:
        return (f"struct {name}: member {mname!r} is {_type_name(t)}, which holds {held[0]}: "
                f"WGSL's bool is not host-shareable, so a buffer cannot hold one: use "
                f"{held[1]} (0 or 1)")
    inner = not_shareable(t)
    return f"struct {name}: member {mname!r} holds {inner}" if inner else ""


def struct_layout(name: str, fields: list[tuple[str, Any]]) -> StructLayout:
    """Lays out the members ``(name, type or align/size(...))`` in order (WGSL §Structure
    Member Layout). Raises TypeError naming the member for what WGSL rejects. A member
    holding a bool is laid out as its u32 counterpart and makes the struct not
    host-shareable (:attr:`StructLayout.not_shareable`)."""
    if not fields:
        raise TypeError(f"struct {name} has no members: WGSL structs need at least one")
    members, end, struct_align, why = [], 0, 1, ""
    for i, (mname, declared) in enumerate(fields):
        attrs = _attrs(declared)
        t = attrs.type
        if isinstance(t, RuntimeArrayType) and i != len(fields) - 1:
            raise TypeError(f"struct {name}: member {mname!r} is a runtime-sized array, which "
                            "WGSL allows only as the last member")
        why = why or _bool_member(name, mname, t)
        try:
            natural_align, natural_size = align_size(_laid_out_as(t))
        except TypeError as exc:
            raise TypeError(f"struct {name}: member {mname!r}: {exc}") from None
        if isinstance(t, RuntimeArrayType) and attrs.size:
            raise TypeError(f"struct {name}: member {mname!r}: @size needs a type with a "
                            "creation-fixed footprint, not a runtime-sized array")
        if attrs.size and attrs.size < natural_size:
            raise TypeError(f"struct {name}: member {mname!r} has @size({attrs.size}) but its "
                            f"type {_type_name(t)} is {natural_size} bytes: WGSL requires "
                            f"@size(n) with n >= {natural_size}")
        if attrs.align and attrs.align % natural_align:
            raise TypeError(f"struct {name}: member {mname!r} has @align({attrs.align}) but its "
                            f"type {_type_name(t)} needs a multiple of {natural_align}")
        a = attrs.align or natural_align
        s = 0 if isinstance(t, RuntimeArrayType) else (attrs.size or natural_size)
        offset = 0 if i == 0 else round_up(a, end)
        members.append(Member(mname, t, offset, a, s))
        end = offset + s
        if end > MAX_STRUCT_SIZE:
            raise TypeError(f"struct {name}: member {mname!r} ({_type_name(t)}) makes the struct "
                            f"{end} bytes: a struct holds at most {MAX_STRUCT_SIZE} bytes here "
                            "(numpy's limit on one element; a GPU binds far less, WebGPU's "
                            "maxStorageBufferBindingSize is 128 MiB by default): bind the "
                            "elements as a buffer of their own")
        struct_align = max(struct_align, a)
    return StructLayout(name, tuple(members), struct_align, round_up(struct_align, end), why)


# ------------------------------------------------------------------------------------ dtypes
def dtype_of(t: Any, runtime_length: int = 0) -> np.dtype:
    """The numpy dtype holding a value of ``t`` with WGSL's byte layout (offsets, strides,
    padding, itemsize = SizeOf). A runtime-sized array gets ``runtime_length`` elements."""
    t = _attrs(t).type
    if isinstance(t, (_ScalarType, AtomicType)):
        return np.dtype((t if isinstance(t, _ScalarType) else t.scalar).dtype).newbyteorder("<")
    if isinstance(t, type) and issubclass(t, Vec):
        return np.dtype((dtype_of(t.scalar), (t.size,)))
    if is_matrix(t):
        col = _padded(dtype_of(_vec_of(t)), stride_of(_vec_of(t)))
        return np.dtype((col, (t.cols,)))
    if isinstance(t, (ArrayType, RuntimeArrayType)):
        n = t.length if isinstance(t, ArrayType) else runtime_length
        return np.dtype((_padded(dtype_of(t.element), stride_of(t.element)), (n,)))
    layout = getattr(t, "__wgsl_layout__", None)
    if isinstance(layout, StructLayout):
        return struct_dtype(layout, t, runtime_length)
    raise TypeError(f"{t!r} has no WGSL memory layout")


def _vec_of(m: Any) -> Any:
    column = getattr(m, "column", None)
    if column is not None:
        return column
    from .types import _VECS  # a matrix stand-in without ``column``: its scalar's vector
    kind = np.dtype(m.scalar.dtype).kind
    return _VECS[(m.rows, kind)]


def _padded(dtype: np.dtype, stride: int) -> np.dtype:
    """``dtype`` widened to ``stride`` bytes (trailing padding) when it is narrower."""
    if dtype.itemsize == stride:
        return dtype
    return np.dtype({"names": ["v"], "formats": [dtype], "offsets": [0], "itemsize": stride})


def struct_dtype(layout: StructLayout, cls: Any = None, runtime_length: int = 0) -> np.dtype:
    """The structured dtype of a struct (its class in the dtype's metadata, as
    ``asyncshader_struct``)."""
    names, formats, offsets = [], [], []
    size_ = layout.size
    for m in layout.members:
        names.append(m.name)
        formats.append(dtype_of(m.type, runtime_length))
        offsets.append(m.offset)
        if isinstance(m.type, RuntimeArrayType):
            size_ = max(size_, m.offset + stride_of(m.type.element) * runtime_length)
    spec = {"names": names, "formats": formats, "offsets": offsets,
            "itemsize": round_up(layout.align, size_)}
    return np.dtype(spec, metadata={"asyncshader_struct": cls} if cls is not None else None)


# ---------------------------------------------------------------------------- leaf locations
def leaves(t: Any, offset: int = 0, path: str = "") -> list[tuple[str, int, np.dtype]]:
    """Every scalar of a value of ``t``: (path such as ``.velocity.y``, byte offset, scalar
    dtype), in memory order. Padding is no leaf."""
    t = _attrs(t).type
    if isinstance(t, (_ScalarType, AtomicType)):
        return [(path, offset, dtype_of(t))]
    if isinstance(t, type) and issubclass(t, Vec):
        s = _scalar_size(t.scalar)
        return [(f"{path}.{'xyzw'[j]}", offset + j * s, dtype_of(t.scalar))
                for j in range(t.size)]
    if is_matrix(t):
        col, stride = _vec_of(t), stride_of(_vec_of(t))
        return [leaf for c in range(t.cols) for leaf in leaves(col, offset + c * stride,
                                                               f"{path}[{c}]")]
    if isinstance(t, ArrayType):
        stride = stride_of(t.element)
        return [leaf for i in range(t.length)
                for leaf in leaves(t.element, offset + i * stride, f"{path}[{i}]")]
    layout = getattr(t, "__wgsl_layout__", None)
    if isinstance(layout, StructLayout):
        return [leaf for m in layout.members if not isinstance(m.type, RuntimeArrayType)
                for leaf in leaves(m.type, offset + m.offset, f"{path}.{m.name}")]
    raise TypeError(f"{t!r} has no WGSL memory layout")


def granule(t: Any) -> int:
    """The smallest scalar size in bytes in a value of ``t`` (4, or 2 with f16 members): the
    race detector's unit of memory for a struct buffer."""
    t = _attrs(t).type
    layout = getattr(t, "__wgsl_layout__", None)
    if isinstance(layout, StructLayout):
        return min(granule(m.type) for m in layout.members)
    if isinstance(t, (ArrayType, RuntimeArrayType)):
        return granule(t.element)
    if isinstance(t, AtomicType):
        return 4
    scalar = t if isinstance(t, _ScalarType) else t.scalar
    return 4 if scalar.dtype.kind == "b" else _scalar_size(scalar)  # (bool: a 4-byte slot)


# ------------------------------------------------------------------ the uniform address space
def check_uniform(t: Any, where: str, member: str = "") -> None:
    """Raises TypeError when ``t`` breaks the uniform address space's layout rules (WGSL
    §Address Space Layout Constraints, without ``uniform_buffer_standard_layout``): array
    strides a multiple of 16; struct and array members at offsets that are multiples of 16;
    after a struct member, the next member at least roundUp(16, SizeOf) bytes later; no
    runtime-sized arrays. ``where`` names the binding in the message, ``member`` the struct member
being checked (``Particle.history``)."""
    t = _attrs(t).type
    if isinstance(t, ArrayType):
        stride = stride_of(t.element)
        if stride % 16:
            what = f"member {member} ({t!r})" if member else repr(t)
            raise TypeError(
                f"{where}: {what} has a stride of {stride} "
                "bytes, and the uniform address space needs array strides that are multiples of "
                f"16 (WGSL). Fix: an array of a vec4 type, or of a struct with one member "
                f"@size(16) (ash.size(16, {_type_name(t.element)}))")
        check_uniform(t.element, where, f"{member}[i]" if member else "")
        return
    if isinstance(t, RuntimeArrayType):
        raise TypeError(f"{where}: a runtime-sized array cannot live in the uniform address "
                        "space (WGSL). Fix: bind it as Storage, or give it a fixed size")
    layout = getattr(t, "__wgsl_layout__", None)
    if not isinstance(layout, StructLayout):
        return
    previous: Member | None = None
    for m in layout.members:
        mt = m.type
        is_struct = isinstance(getattr(mt, "__wgsl_layout__", None), StructLayout)
        if (is_struct or isinstance(mt, (ArrayType, RuntimeArrayType))) and m.offset % 16:
            what = "struct" if is_struct else "array"
            raise TypeError(
                f"{where}: member {layout.name}.{m.name} ({_type_name(mt)}) is at offset "
                f"{m.offset}, and in the uniform address space a member of {what} type must "
                f"start at a multiple of 16 (WGSL RequiredAlignOf = roundUp(16, AlignOf)). Fix: "
                f"declare it {m.name}: ash.align(16, {_type_name(mt)})")
        if previous is not None and isinstance(
                getattr(previous.type, "__wgsl_layout__", None), StructLayout):
            gap = round_up(16, previous.size)
            if m.offset - previous.offset < gap:
                raise TypeError(
                    f"{where}: member {layout.name}.{m.name} is at offset {m.offset}, only "
                    f"{m.offset - previous.offset} bytes after the struct member "
                    f"{previous.name}, and in the uniform address space the member after a "
                    f"struct must start at least roundUp(16, SizeOf) = {gap} bytes after it "
                    f"(WGSL). Fix: declare it {m.name}: ash.align(16, {_type_name(mt)})")
        check_uniform(mt, where, f"{layout.name}.{m.name}")
        previous = m
