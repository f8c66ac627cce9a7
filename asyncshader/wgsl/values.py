"""WGSL's value semantics for composite values in a shader: vectors, matrices, structs and
arrays are values, so assigning one (``a = v``), passing one to a helper or loading one from
memory (``v = buf[i]``, ``s = p[i]``) gives a value that nothing else changes.

Composite values are never changed in place in a shader. The source rewrite
(:mod:`asyncshader.wgsl.rewrite`) turns a store whose target starts at a local name,
``v.x = e``, ``v.xz = w``, ``s.velocity.y = e``, ``m[1][2] = e``, ``a[i] = e``, into
``v = put(v, e, "x")`` (:func:`put`: a new value with that part replaced), when the name holds
a value (:data:`IS_VALUE`, by its class); when it holds memory (a buffer a helper was passed, a
numpy row), the statement stays the store it was. Since no value is ever changed in place,
``a = v`` needs no copy: two names may share one object, and the first store through either
name makes that name a new object.

A vector loaded from memory (``buf[i]``, ``p[i].velocity``) and a struct reference ``p[i]``
keep the store into memory their class gives them; only a store whose target expression is
memory (``buf[i].x = e``, ``p[i].velocity.y = e``) reaches it, as in WGSL.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
from sys import _getframe
from typing import Any

import numpy as np

from .matrices import MATRICES, MATRICES_H, Matrix, _column, _column_index
from .memory import Ptr
from .struct_refs import ArrayRef, _Ref
from .structs import convert, is_struct
from .types import _CONVERT, _VECS, ArrayType, Vec, _swizzle_index, _type_name

__all__ = ["IS_VALUE", "ArrayValue", "is_swizzle", "parts", "put", "store_swizzle"]


class ArrayValue(list):
    """A WGSL array value (``array<E, N>`` of a function-scope ``var``): a list of its ``N``
    elements, each a value of ``E``, with its type in ``.type``. Made by calling the array
    type, ``ash.array(f32, 6)()`` (zero) or ``ash.array(f32, 3)(1.0, 2.0, 3.0)``."""

    __slots__ = ("type",)

    def __repr__(self) -> str:
        return f"{self.type!r}({', '.join(repr(v) for v in self)})"


def array_value(t: ArrayType, values: tuple) -> ArrayValue:
    """``t(*values)``: the array value of type ``t``, zero when no values are given (WGSL's
    ``var a: array<E, N>;``), else one value per element (WGSL's ``array<E, N>(...)``)."""
    where = repr(t)
    if not values:
        items = convert(t, None, where)
    else:
        if len(values) != t.length:
            raise TypeError(f"{where}(...) takes {t.length} elements (or none: zero), got "
                            f"{len(values)}")
        items = [convert(t.element, v, f"{where}[{i}]") for i, v in enumerate(values)]
    out = ArrayValue(items)
    out.type = t
    return out


ArrayType._value = array_value  # type: ignore[attr-defined]  # (ArrayType.__call__ calls it)


class _IsValue(dict):
    """``IS_VALUE[x.__class__]``: whether ``x`` is a composite value (a vector, a matrix, a
    struct value or reference, an array value or array member reference, a fragment output's
    dataclass), by its class; or a pointer, whose ``p.value.x = e`` stores the new value
    through it (``*p``)."""

    def __missing__(self, cls: type) -> bool:
        value = issubclass(cls, (Vec, Matrix, _Ref, ArrayRef, list, Ptr)) or is_struct(cls) or (
            dataclasses.is_dataclass(cls) and not cls.__dataclass_params__.frozen)
        self[cls] = value
        return value


IS_VALUE = _IsValue()
_PLAIN_MATRICES = frozenset(MATRICES) | frozenset(MATRICES_H)


def is_swizzle(name: str) -> bool:
    """Whether an attribute store ``v.name = e`` names several components (``xz``, ``rgb``)
    or an rgba alias (``r``): a store the vector classes do not have as an attribute."""
    return 1 <= len(name) <= 4 and (name in ("r", "g", "b", "a") or len(name) > 1) and \
        _swizzle_index(name, 4) is not None


def parts(value: Any, name: str) -> tuple:
    """The components a swizzle store ``v.<name> = value`` assigns: ``value``'s, which must be
    a vector of ``len(name)`` components (one component: a scalar)."""
    n = len(name)
    if n == 1:
        return (value,)
    if len(set(name)) != n:
        raise TypeError(f"`v.{name} = ...`: a swizzle store names each component once "
                        "(WGSL)")
    if not isinstance(value, Vec) or value.size != n:
        raise TypeError(f"`v.{name} = {_type_name(type(value))}`: the value of a store to "
                        f"the swizzle .{name} is a vector of {n} components (WGSL)")
    return tuple(value)


def store_swizzle(obj: Any, name: str, value: Any) -> None:
    """``obj.<name> = value`` where ``name`` looks like a swizzle (``xz``, ``rgb``, ``a``): on
    a vector (one loaded from memory: ``buf[i].xz = w``), a store of each component in turn,
    each seen by the race detector; on anything else (a struct member called ``a``), the
    attribute store."""
    if not isinstance(obj, Vec):
        setattr(obj, name, value)
        return
    idx = _swizzle_index(name, obj.size)
    if idx is None:
        raise AttributeError(obj._attribute_error(name))
    for i, c in zip(idx, parts(value, name)):
        setattr(obj, "xyzw"[i], c)


def put(obj: Any, value: Any, *path: Any) -> Any:
    """``obj`` with the part that ``path`` names replaced by ``value``: a new value, ``obj``
    unchanged. A path is a sequence of member or component names (``str``) and indices
    (``put(s, e, "velocity", "y")`` is ``s.velocity.y = e``). A struct or array reference
    (``s = p[i]``) is loaded first: the result is a value, and memory is not written."""
    if isinstance(obj, (_Ref, ArrayRef)):
        obj = obj.load(_getframe(1))
    if len(path) > 1:
        value = put(_get(obj, path[0]), value, *path[1:])
    return _replace(obj, path[0], value)


def _get(obj: Any, key: Any) -> Any:
    return getattr(obj, key) if key.__class__ is str else obj[key]


def _replace(obj: Any, key: Any, value: Any) -> Any:
    if obj.__class__ is Ptr:  # (p.value... = e: the new value is stored through the pointer)
        setattr(obj, key, value)
        return obj
    if isinstance(obj, Vec):
        return _vec_with(obj, key, value)
    if isinstance(obj, Matrix):
        cls = next(c for c in type(obj).__mro__ if c in _PLAIN_MATRICES)
        columns = [c if c.__class__ is cls.column else cls.column._make(*c) for c in obj._c]
        columns[_column_index(obj, key)] = _column(cls, value, f"{cls.__name__}[i] = v")
        return cls._of(columns)
    if isinstance(obj, list):
        return _array_with(obj, key, value)
    if dataclasses.is_dataclass(obj):  # (a struct; a fragment's output is a plain dataclass)
        return _struct_with(obj, key, value)
    if isinstance(obj, tuple) and key.__class__ is str and key in getattr(obj, "_fields", ()):
        return obj._replace(**{key: value})  # (a frexp/modf result: a named tuple)
    raise TypeError(f"cannot store into a part of {_type_name(type(obj))}")


#: (component or swizzle name, vector size): the component indices it names
_SWIZZLES: dict[tuple[str, int], tuple[int, ...] | None] = {}


def _vec_with(v: Vec, key: Any, value: Any) -> Vec:
    comps = list(v)
    convert_component = _CONVERT[v.kind]
    if key.__class__ is str:
        idx = _SWIZZLES.get((key, v.size), ())
        if idx == ():
            idx = _SWIZZLES[(key, v.size)] = _swizzle_index(key, v.size)
        if idx is None:
            raise AttributeError(v._attribute_error(key))
        if len(idx) == 1:
            comps[idx[0]] = convert_component(value)
        else:
            for i, c in zip(idx, parts(value, key)):
                comps[i] = convert_component(c)
    else:
        if not isinstance(key, (int, np.integer)) or isinstance(key, (bool, np.bool_)):
            raise TypeError(f"a {_type_name(type(v))} component index is an integer, not "
                            f"{_type_name(type(key))}")
        if not 0 <= key < v.size:
            raise IndexError(f"component {int(key)} of a {_type_name(type(v))}: it has "
                             f"components 0 to {v.size - 1}")
        comps[int(key)] = convert_component(value)
    return _VECS[(v.size, v.kind)]._make(*comps)


def _array_with(a: list, key: Any, value: Any) -> list:
    if not isinstance(key, (int, np.integer)) or isinstance(key, (bool, np.bool_)):
        raise TypeError(f"an array is indexed by an integer, not {_type_name(type(key))}")
    if not 0 <= key < len(a):
        raise IndexError(f"element {int(key)} of an array of {len(a)} elements")
    t = getattr(a, "type", None)
    new = ArrayValue(a) if t is not None else list(a)
    if t is not None:
        new.type = t
        value = convert(t.element, value, f"{t!r}[{int(key)}]")
    new[int(key)] = value
    return new


_MEMBERS: dict[type, dict[str, Any]] = {}


def _struct_with(s: Any, key: Any, value: Any) -> Any:
    cls = type(s)
    members = _MEMBERS.get(cls)
    if members is None:
        members = _MEMBERS[cls] = {m.name: m.type for m in cls.__wgsl_layout__.members} \
            if is_struct(cls) else {f.name: None for f in dataclasses.fields(cls)}
    if key.__class__ is not str or key not in members:
        if is_struct(cls):  # (slotted: the struct value's own AttributeError, as host code's)
            setattr(copy.copy(s), str(key), value)
        close = difflib.get_close_matches(str(key), members, n=1)
        raise AttributeError(f"struct {cls.__name__} has no member {key!r}"
                             + (f": did you mean {close[0]!r}?" if close else
                                f" (members: {', '.join(members)})"))
    new = copy.copy(s)
    t = members[key]
    object.__setattr__(new, key, value if t is None else
                       convert(t, value, f"{cls.__name__}.{key}"))
    return new
