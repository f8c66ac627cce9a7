"""Pointers in generated shaders (WGSL's ``&r``, a ``ptr<AS, T>`` parameter or ``let``,
``*p``, ``p.x``, ``p[i]``): a :class:`Place` is the memory a pointer starts at and the path
of members and indices from there, each index evaluated once, when the pointer is made, as
WGSL evaluates it.

A :class:`Place` starts at a storage buffer, a uniform or a workgroup variable; a
:class:`ValuePlace` at what holds a variable that is a value: the cell
(:class:`~asyncshader.wgsl.memory.FunctionVar`) of a function-scope variable whose address is
taken, or an invocation's namespace of private variables. Every access walks the path again,
through the runtime's own references (``buf[i]``, ``tile[i][j]``, ``ps[i].member``), so a
load through a pointer sees the memory as it is then, and a store through it is the store the
same access written directly makes: the race detector sees it at the WGSL line that stores
(this module is library code, which reports skip), robust access applies to out-of-bounds
indices. A function or private variable is a value (:mod:`asyncshader.wgsl.values`): a store
into a part of it makes a new value (:func:`~asyncshader.wgsl.values.put`) that the variable
then holds; an index out of bounds drops the store and loads the nearest element (WGSL allows
any element; naga clamps the index so, and lavapipe agrees then).

Atomics, ``workgroupUniformLoad`` and ``arrayLength`` take the runtime's own pointers
(:class:`~asyncshader.wgsl.memory.Ptr`): :meth:`Place.native` gives one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .memory import FunctionVar, Ptr, WorkgroupVar
from .robust import load as robust_load
from .robust import store as robust_store
from .types import Vec
from .values import put

__all__ = ["Place", "ValuePlace", "function_var", "sub"]


def function_var(value: Any) -> FunctionVar:
    """The cell of a function-scope variable whose address is taken (its initial value)."""
    return FunctionVar(value)


class Place:
    """A pointer into memory: ``root`` (a storage buffer, a uniform, a workgroup variable)
    and ``path``, a tuple of member names (``str``) and indices (integers; a vector's
    component is its index)."""

    __slots__ = ("path", "root")

    def __init__(self, root: Any, path: tuple = ()) -> None:
        self.root, self.path = root, path

    def load(self, more: tuple = ()) -> Any:
        """``*p``: the value the pointer names (``more``: of the part that these further
        keys name, ``p[i]`` without making the pointer ``&p[i]``)."""
        root = self.root
        path = self.path + more if more else self.path
        if len(path) == 1 and path[0].__class__ is not str and isinstance(root, np.ndarray):
            return robust_load(root, path[0])  # (the common case: one element of a buffer)
        obj, pending = _reach(root, path)
        if pending:
            return robust_load(obj, _index(pending))
        if obj is root and isinstance(root, WorkgroupVar):  # (a whole workgroup variable)
            return root.value
        return obj

    def store(self, value: Any) -> None:
        """``*p = value``."""
        self.store_at((), value)

    def store_at(self, more: tuple, value: Any) -> None:
        """``p.m = value``, ``p[i] = value``: a store into the part that the keys ``more``
        name."""
        root = self.root
        path = self.path + more if more else self.path
        if not path:
            root.value = value
            return
        obj, pending = _reach(root, path[:-1])
        key = path[-1]
        if key.__class__ is not str and isinstance(obj, np.ndarray):
            robust_store(obj, _index((*pending, key)), value)
            return
        obj = _element(obj, pending)
        if key.__class__ is str:
            setattr(obj, key, value)
        elif isinstance(obj, Vec):  # (a vector of memory stores its components by name)
            if 0 <= key < obj.size:  # (else dropped, as robust access drops it)
                setattr(obj, "xyzw"[int(key)], value)
        else:
            robust_store(obj, key, value)

    def native(self) -> Ptr:
        """The runtime's pointer to the same memory (:func:`~asyncshader.wgsl.memory.ptr`'s
        forms): ``Ptr(buffer, index)``, ``Ptr(variable)``, ``Ptr(struct member)``."""
        root, path = self.root, self.path
        if not path:
            return Ptr(root)
        obj, pending = _reach(root, path[:-1])
        key = path[-1]
        if key.__class__ is not str and isinstance(obj, np.ndarray):
            return Ptr(obj, _index((*pending, key)))
        obj = _element(obj, pending)
        return Ptr(getattr(obj, key) if key.__class__ is str else obj[key])

    def __repr__(self) -> str:
        name = getattr(self.root, "var_name", None) or type(self.root).__name__
        return f"<pointer to {name}{''.join(_step(k) for k in self.path)}>"


class ValuePlace(Place):
    """A pointer to a variable that holds a value (``ptr<function, T>``,
    ``ptr<private, T>``): ``root`` holds the variable as its attribute ``path[0]`` (a cell's
    ``value``, a private variable's name), the rest of the path leads into the value."""

    __slots__ = ()

    def load(self, more: tuple = ()) -> Any:
        path = self.path + more if more else self.path
        value = getattr(self.root, path[0])
        for key in path[1:]:
            if key.__class__ is str:
                value = getattr(value, key)
            else:  # (out of bounds: the nearest element, as naga's clamp reads it)
                value = value[int(key) if _inside(value, key) else 0 if key < 0 else -1]
        return value

    def store_at(self, more: tuple, value: Any) -> None:
        path = self.path + more if more else self.path
        root, name, inner = self.root, path[0], path[1:]
        if not inner:
            setattr(root, name, value)
            return
        whole = getattr(root, name)
        part = whole
        last = len(inner) - 1
        for n, key in enumerate(inner):  # (an index out of bounds: the store is dropped)
            if key.__class__ is not str and not _inside(part, key):
                return
            if n < last:
                part = getattr(part, key) if key.__class__ is str else part[int(key)]
        setattr(root, name, put(whole, value, *inner))

    def native(self) -> Ptr:
        raise TypeError(f"{self!r}: atomics and workgroupUniformLoad take memory in the "
                        "storage or workgroup address space, not a function or private "
                        "variable")

    def __repr__(self) -> str:
        name = "variable" if self.root.__class__ is FunctionVar else self.path[0]
        return f"<pointer to {name}{''.join(_step(k) for k in self.path[1:])}>"


def sub(p: Place, keys: tuple) -> Place:
    """The pointer to a part of what ``p`` points at: ``&(*p).x``, ``&p[i]`` (and the
    references ``p.x``, ``p[i]`` of the pointer sugar)."""
    return p.__class__(p.root, p.path + keys)


def _reach(obj: Any, path: tuple) -> tuple[Any, tuple]:
    """The object ``path`` leads to from the memory ``obj``, and the indices still to apply
    to it where it is a numpy array (kept together, so that ``tile[i][j]`` is one access of
    ``tile[i, j]``, as the runtime makes it)."""
    pending: tuple = ()
    for key in path:
        if key.__class__ is str:
            obj, pending = getattr(_element(obj, pending), key), ()
        elif isinstance(obj, np.ndarray):
            pending += (key,)
        elif isinstance(obj, Vec):  # (a component of a vector of memory; zero past its end)
            obj = obj[int(key)] if 0 <= key < obj.size else obj.scalar(0)
        else:
            obj = robust_load(obj, key)
    return obj, pending


def _element(obj: Any, pending: tuple) -> Any:
    """The reference to a member-bearing part of ``obj``: its element at ``pending``, or a
    whole workgroup variable's value (a struct reference, a vector storing into it)."""
    if pending:
        return robust_load(obj, _index(pending))
    if isinstance(obj, np.ndarray):
        return obj.value
    return obj


def _index(pending: tuple) -> Any:
    return pending[0] if len(pending) == 1 else pending


def _inside(value: Any, key: Any) -> bool:
    return 0 <= key < len(value)


def _step(key: Any) -> str:
    return f".{key}" if key.__class__ is str else f"[{key}]"
