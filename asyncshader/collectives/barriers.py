"""Workgroup collectives: control barriers and ``workgroupUniformLoad``.

Each is a small :class:`~asyncshader.traps.Rendezvous` over the workgroup (scope
``"workgroup"``) plus, where it returns something, a resolver. The scheduler core does the
waiting and the uniformity checks.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import numpy as np

from .._core.traps import Rendezvous, constant_trap, suspend, trap_function
from ..errors import BarrierDivergenceError, DivergenceError
from ..wgsl.managed import _map_of
from ..wgsl.memory import (
    WorkgroupAtomic,
    WorkgroupStruct,
    WorkgroupVar,
    _read_whole,
    read_unreported,
    resolve_ptr,
)
from ..wgsl.types import Vec

WORKGROUP = "workgroup"  # the scope of workgroup collectives

_BARRIER_HINT = ("call barriers in uniform control flow: every invocation of the workgroup must "
                 "reach the same barrier call (no early return, no barrier under a condition that "
                 "differs between invocations)")


class _Barrier(Rendezvous):
    __slots__ = ()
    divergence_error = BarrierDivergenceError
    divergence_hint = _BARRIER_HINT
    no_group_hint = ("Workgroup barriers and workgroup_uniform_load exist only in compute "
                     "shaders (WGSL: compute stage only).")


_WORKGROUP_BARRIER = _Barrier("workgroup_barrier", WORKGROUP)
_STORAGE_BARRIER = _Barrier("storage_barrier", WORKGROUP)
_TEXTURE_BARRIER = _Barrier("texture_barrier", WORKGROUP)


workgroup_barrier = constant_trap(
    _WORKGROUP_BARRIER, "workgroup_barrier", __name__,
    """WGSL ``workgroupBarrier()``: waits until every invocation of the workgroup reaches this
    barrier; orders workgroup memory. Must be reached in uniform control flow.""")

storage_barrier = constant_trap(
    _STORAGE_BARRIER, "storage_barrier", __name__,
    """WGSL ``storageBarrier()``: a workgroup control barrier that orders storage memory.""")

texture_barrier = constant_trap(
    _TEXTURE_BARRIER, "texture_barrier", __name__,
    """WGSL ``textureBarrier()``: a workgroup control barrier that orders storage textures.""")


def _uniform_load(values: list, group: Any) -> list:
    first = values[0]
    for v in values:
        if (v[0] is not first[0] and not _same_view(v[0], first[0])) or not _same_index(
                v[1], first[1]):  # the scheduler names each member's pointer (describe_value)
            raise DivergenceError("The invocations passed different pointers; WGSL requires "
                                  "workgroupUniformLoad's pointer to be uniform (one pointer "
                                  "for the whole workgroup)")
    memory, index = first
    if isinstance(memory, WorkgroupAtomic):
        value = np.ndarray.__getitem__(memory, index)
    elif isinstance(memory, WorkgroupStruct) and memory.ndim == 0:
        return [memory.unreported_value() for _ in values]  # (each invocation its own copy)
    elif isinstance(index, tuple) and index == ():
        value = _read_whole(memory)
    else:  # barrier, load, barrier: the load cannot race, so it is not reported
        value = read_unreported(memory, index, group.members[0])
    if isinstance(value, np.ndarray):
        return [np.array(value) for _ in values]  # each invocation gets its own copy
    if isinstance(value, Vec):  # (a vector is mutable: v.x += 1 changes one invocation's)
        return [value._make(*value) for _ in values]
    return [value] * len(values)


def _same_view(a: np.ndarray, b: np.ndarray) -> bool:
    """Two views of the same elements (``grid[1]`` taken by each invocation is a new object)."""
    return (a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
            and a.shape == b.shape and a.strides == b.strides)


def _same_index(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and a == b
    return bool(a == b)


def _describe(p: tuple) -> str:
    """A pointer as the shader wrote it: ``tile``, ``tile[3]``, ``grid[1]`` (a row's view),
    ``grid[1][2]``."""
    memory, index = p
    origin = getattr(memory, "_origin", None)
    name = getattr(memory if origin is None else origin, "var_name", "memory")
    mapping = None if origin is None else _map_of(memory)
    if mapping is not None and memory.size:  # a view of a variable: where it starts
        start = np.unravel_index(int(np.asarray(mapping).flat[0]), origin.shape)
        name += "".join(f"[{int(i)}]" for i in start[:origin.ndim - memory.ndim])
    if isinstance(index, tuple) and index == ():
        return name
    plain = tuple(int(i) for i in index) if isinstance(index, tuple) else (
        int(index) if isinstance(index, (int, np.integer)) else index)
    return f"{name}[{plain!r}]" if not isinstance(plain, tuple) else \
        name + "".join(f"[{i!r}]" for i in plain)


@trap_function
def workgroup_uniform_load(p: Any) -> Awaitable[Any]:
    """WGSL ``workgroupUniformLoad(p)``: barrier, load, barrier. Every invocation of the
    workgroup gets the same value of the workgroup variable ``p`` (a variable, ``ptr(var, i)``
    or ``(var, i)``); an atomic variable is loaded atomically."""
    memory, index = resolve_ptr(p)
    if not isinstance(memory, WorkgroupVar):
        raise TypeError("workgroup_uniform_load() takes a workgroup variable (ptr<workgroup, T>), "
                        f"not {type(memory).__name__}")
    return suspend(_UniformLoad("workgroup_uniform_load", WORKGROUP, (memory, index),
                                _uniform_load))


class _UniformLoad(_Barrier):
    __slots__ = ()
    #: a resolver's DivergenceError (members with different pointers) names each member's
    #: pointer with this, and ends with this fix (asyncshader._core.diagnostics)
    describe_value = staticmethod(_describe)
    uniform_fix = ("pass the same workgroup variable (and the same index) in every invocation "
                   "of the workgroup; to load a different element per invocation, read it "
                   "after a workgroup_barrier() instead")
