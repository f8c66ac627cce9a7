"""WGSL structs: ``@ash.struct`` classes with WGSL's host-shareable layout, their values, and
struct buffers as shaders see them.

A struct class is a dataclass (its values are WGSL struct values: ``Particle(mass=2.0)``, zero
defaults) that also carries its layout: ``Particle.dtype`` (a numpy structured dtype whose bytes
are a GPU buffer's), ``Particle.align``, ``Particle.size``, ``Particle.offsets``.

Struct buffers as shaders see them (references, loads and stores) are in
:mod:`asyncshader.wgsl.struct_refs`.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import numpy as np

from .layout import (
    MemberAttrs,
    RuntimeArrayType,
    StructLayout,
    is_matrix,
    struct_dtype,
    struct_layout,
)
from .types import ArrayType, AtomicType, Vec, _ScalarType, _type_name

__all__ = ["buffer", "convert", "is_struct", "struct", "struct_of", "zero_of"]

def is_struct(t: Any) -> bool:
    """Whether ``t`` is a class declared with :func:`struct`."""
    return isinstance(getattr(t, "__wgsl_layout__", None), StructLayout)


def struct_of(dtype: np.dtype) -> Any:
    """The struct class a structured dtype was made for (``Particle.dtype``), or None."""
    meta = dtype.metadata
    return None if meta is None else meta.get("asyncshader_struct")


# ------------------------------------------------------------------------------ declaration
def struct(cls: type) -> type:
    """Declares a WGSL struct from a class with typed members (a dataclass is made of it)::

        @ash.struct
        class Particle:
            position: vec3f
            mass: f32
            velocity: ash.align(16, vec3f)   # @align(16); ash.size(n, T) is @size(n)
            history: ash.array(vec2f, 4)

    ``Particle.dtype`` is the numpy structured dtype with WGSL's offsets and size, so
    ``Particle.zeros(n)`` (or ``np.zeros(n, Particle.dtype)``) is a buffer whose bytes are a
    GPU ``array<Particle, n>``'s. ``Particle(position=..., mass=...)`` is a struct value
    (members not given are zero). A ``runtime_array(T)`` last member makes a struct that is
    bound alone: ``Buf.zeros(length=n)``.
    """
    hints = _member_types(cls)
    layout = struct_layout(cls.__name__, list(hints.items()))
    for name, t in hints.items():
        default = dataclasses.field(default_factory=lambda t=t: zero_of(t))
        setattr(cls, name, default)
    cls.__annotations__ = {n: object for n in hints}  # (the dataclass needs no types)
    cls.__post_init__ = _post_init  # type: ignore[attr-defined]
    cls.__wgsl_layout__ = layout
    cls = dataclasses.dataclass(cls, slots=True)  # (slots: a store into no member is an error)
    cls.wgsl = cls.__name__  # type: ignore[attr-defined]
    cls.align = layout.align  # type: ignore[attr-defined]
    cls.size = layout.size  # type: ignore[attr-defined]
    cls.offsets = {m.name: m.offset for m in layout.members}  # type: ignore[attr-defined]
    cls.dtype = struct_dtype(layout, cls)  # type: ignore[attr-defined]
    cls.zeros = classmethod(_zeros)  # type: ignore[attr-defined]
    cls.dtype_for = classmethod(  # type: ignore[attr-defined]
        lambda c, length: struct_dtype(c.__wgsl_layout__, c, length))
    return cls


def _member_types(cls: type) -> dict[str, Any]:
    """The members' types (string annotations evaluated where the class is), or TypeError
    naming the member whose type is not defined: the struct itself (WGSL structs cannot be
    recursive) or a name not declared yet."""
    try:
        return inspect.get_annotations(cls, eval_str=True)
    except NameError:
        pass
    for member, t in inspect.get_annotations(cls).items():
        try:
            inspect.get_annotations(type(cls.__name__, (), {
                "__annotations__": {member: t}, "__module__": cls.__module__}), eval_str=True)
        except NameError as exc:
            if exc.name == cls.__name__:
                raise TypeError(f"struct {cls.__name__}: member {member!r} refers to "
                                f"{cls.__name__} itself: WGSL structs cannot be recursive (no "
                                "struct holds itself, directly or through an array); hold an "
                                "index into a buffer instead") from None
            raise TypeError(f"struct {cls.__name__}: member {member!r} has type {t!r}, but "
                            f"{exc.name!r} is not defined where {cls.__name__} is: declare "
                            f"{exc.name} before {cls.__name__}") from None
    return inspect.get_annotations(cls, eval_str=True)  # (raises what the loop did not find)


def _zeros(cls: Any, n: int | None = None, *, length: int = 0) -> np.ndarray:
    """A zeroed buffer: ``array<S, n>`` (shape (n,)), or one struct (shape ()) when ``n`` is
    None; ``length`` is the element count of a runtime-sized last member."""
    layout = cls.__wgsl_layout__
    if layout.runtime is None and length:
        raise TypeError(f"{cls.__name__}.zeros(length={length}): {cls.__name__} has no "
                        "runtime-sized member")
    if layout.runtime is not None and n is not None:
        raise TypeError(f"{cls.__name__} ends in a runtime-sized array, so WGSL binds it alone "
                        f"(not in an array): {cls.__name__}.zeros(length=n)")
    dtype = struct_dtype(layout, cls, length) if layout.runtime is not None else cls.dtype
    return np.zeros(() if n is None else (n,), dtype)


def buffer(t: Any, n: int | None = None, *, length: int = 0) -> np.ndarray:
    """``ash.buffer(Particle, n)``: a zeroed buffer of ``n`` structs (``Particle.zeros(n)``)."""
    if not is_struct(t):
        raise TypeError(f"buffer() takes an @ash.struct class, not {t!r}; for scalars use "
                        "np.zeros(n, np.float32)")
    return t.zeros(n, length=length)


def _post_init(self: Any) -> None:
    for m in self.__wgsl_layout__.members:
        value = getattr(self, m.name)
        object.__setattr__(self, m.name, convert(m.type, value, f"{type(self).__name__}."
                                                 f"{m.name}"))


def zero_of(t: Any) -> Any:
    """WGSL's zero value of ``t``."""
    t = t.type if isinstance(t, MemberAttrs) else t
    if isinstance(t, RuntimeArrayType):
        return None  # not constructible: it lives in a buffer only
    return convert(t, None, "")


def convert(t: Any, value: Any, where: str) -> Any:
    """``value`` as a value of WGSL type ``t`` (None: the zero value)."""
    if isinstance(t, AtomicType):
        t = t.scalar
    if isinstance(t, _ScalarType) or (isinstance(t, type) and issubclass(t, Vec)):
        if value is None:
            return t()
        if type(value) is t:
            return value
        try:
            converted = t(value)
            if isinstance(converted, np.ndarray):  # (a scalar type of a sequence: an array)
                raise TypeError("a sequence, not one number")
            return converted
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{where} is {_type_name(t)}: got {value!r} (a "
                            f"{type(value).__name__}), which is no {_type_name(t)} value "
                            f"({exc})") from None
    if is_struct(t):
        if value is None:
            return t()
        if isinstance(value, t):
            return value
        if getattr(value, "_struct", None) is t and hasattr(value, "load"):
            return value.load()  # a reference (struct_refs.py): WGSL's load of p[i]
        raise TypeError(f"{where} is a {t.__name__}, not {type(value).__name__}")
    if is_matrix(t):
        if value is None:
            return t(np.zeros((t.cols, t.rows), t.scalar.dtype))
        return value if isinstance(value, t) else t(np.asarray(value, t.scalar.dtype))
    if isinstance(t, ArrayType):
        if value is None:
            return [zero_of(t.element) for _ in range(t.length)]
        items = list(value)
        if len(items) != t.length:
            raise TypeError(f"{where} is array<{_type_name(t.element)}, {t.length}>, got "
                            f"{len(items)} elements")
        return [convert(t.element, v, f"{where}[{i}]") for i, v in enumerate(items)]
    if isinstance(t, RuntimeArrayType):
        if value is not None:
            raise TypeError(f"{where} is a runtime-sized array: it lives in a buffer only "
                            "(WGSL cannot construct it)")
        return None
    raise TypeError(f"{where}: {t!r} is not a WGSL type")
