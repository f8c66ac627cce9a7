"""The memory layout of the IR's types (WGSL § Memory Layout), by the rules of
:mod:`asyncshader.wgsl.layout`, which lays out the run-time types: an IR type is mapped onto the
run-time type object it describes (``Vector(3, F32)`` onto ``vec3f``, a :class:`Struct` onto a
stand-in carrying its :class:`~asyncshader.wgsl.layout.StructLayout`), so that the two can
never disagree. ``bool`` lays out as 4 bytes (WGSL's table), though it is not host-shareable."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..wgsl import layout as _rules
from ..wgsl.matrices import _MATS
from ..wgsl.types import _VECS, ArrayType, AtomicType, f16, f32, i32, u32
from .types import Array, Atomic, Matrix, Scalar, Struct, Vector

__all__ = ["align_of", "check_uniform", "size_of", "stride_of", "struct_layout"]

_SCALARS = {"f32": f32, "f16": f16, "i32": i32, "u32": u32, "bool": u32}
_ATTR = re.compile(r"@(align|size)\((\d+)\)")


class _Laid:
    """A struct as :mod:`asyncshader.wgsl.layout` reads one: anything with ``__wgsl_layout__``."""

    def __init__(self, layout: _rules.StructLayout) -> None:
        self.__wgsl_layout__ = layout
        self.wgsl = layout.name


def _runtime(t: Any) -> Any:
    """The run-time type object that ``t`` describes (for its layout)."""
    if isinstance(t, Scalar):
        if t.abstract:
            raise TypeError(f"{t.wgsl} has no memory layout (it is not a concrete type)")
        return _SCALARS[t.name]
    if isinstance(t, Vector):
        kind = {"f32": "f", "f16": "h", "i32": "i", "u32": "u", "bool": "u"}[t.scalar.name]
        return _VECS[(t.size, kind)]
    if isinstance(t, Matrix):
        return _MATS[(t.cols, t.rows, "h" if t.scalar.name == "f16" else "f")]
    if isinstance(t, Atomic):
        return AtomicType(_SCALARS[t.scalar.name])
    if isinstance(t, Array):
        if t.length is None:
            return _rules.RuntimeArrayType(_runtime(t.element))
        if not isinstance(t.length, int):
            raise TypeError(f"{t.wgsl} has no layout before pipeline creation (its element "
                            "count is an override)")
        return ArrayType(_runtime(t.element), t.length)
    if isinstance(t, Struct):
        return _Laid(struct_layout(t))
    raise TypeError(f"{getattr(t, 'wgsl', t)} has no memory layout")


def member_attrs(attrs: str) -> tuple[int, int]:
    """``(align, size)`` from a member's layout attributes as a :class:`Struct` holds them
    (``"@align(16) @size(32) "``); 0 where not given."""
    found = dict(_ATTR.findall(attrs))
    return int(found.get("align", 0)), int(found.get("size", 0))


@lru_cache(maxsize=1024)
def struct_layout(t: Struct) -> _rules.StructLayout:
    """The layout of a struct: each member's offset, alignment and size (WGSL § Structure
    Member Layout), with its ``@align``/``@size``. Raises TypeError for what WGSL rejects (a
    size below the member's, an alignment that is not a multiple of the member's)."""
    fields = []
    for i, (name, member) in enumerate(t.fields):
        runtime = _runtime(member)
        align, size = member_attrs(t.attrs[i] if i < len(t.attrs) else "")
        if align or size:
            runtime = _rules.MemberAttrs(runtime, align, size)
        fields.append((name, runtime))
    return _rules.struct_layout(t.name, fields)


def check_uniform(t: Any, where: str) -> None:
    """Raises TypeError when ``t`` breaks the uniform address space's layout constraints
    (without ``uniform_buffer_standard_layout``), by :func:`asyncshader.wgsl.layout.
    check_uniform`."""
    _rules.check_uniform(_runtime(t), where)


def align_of(t: Any) -> int:
    """WGSL ``AlignOf(t)`` in bytes."""
    return _rules.align_of(_runtime(t))


def size_of(t: Any) -> int:
    """WGSL ``SizeOf(t)`` in bytes (a runtime-sized array: one element's stride)."""
    return _rules.size_of(_runtime(t))


def stride_of(t: Any) -> int:
    """The element stride of ``array<t>``."""
    return _rules.stride_of(_runtime(t))
