"""WGSL atomic built-ins on ``atomic<i32>`` / ``atomic<u32>``.

Each atomic is a scheduling point (:class:`~asyncshader.traps.Point`): the invocation suspends and
the operation lands when the schedule next picks it, so the schedule decides the order in which
concurrent atomics land. Arithmetic wraps modulo 2**32; ``atomic_max``/``atomic_min`` are signed
for i32 and unsigned for u32; every read-modify-write returns the old value.

A pointer is a workgroup atomic variable, ``ptr(buffer_or_var, index)`` or ``(buffer, index)``;
storage buffers must be int32 or uint32 arrays. Helper invocations (fragment stage) perform no
atomic and get 0 back, as Tint does.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, NamedTuple

import numpy as np

from .memory import WorkgroupAtomic, WorkgroupVar, resolve_ptr
from .traps import Point, suspend, trap_function

_MASK = 0xFFFFFFFF


class AtomicCompareExchangeResult(NamedTuple):
    """WGSL ``__atomic_compare_exchange_result<T>``: ``old_value`` and ``exchanged``."""

    old_value: Any
    exchanged: bool


def _wrap(dtype: np.dtype, x: int) -> Any:
    x &= _MASK
    if dtype == np.int32 and x >= 0x80000000:
        x -= 0x100000000
    return dtype.type(x)


_RMW = {
    "atomic_add": lambda old, v: old + v,
    "atomic_sub": lambda old, v: old - v,
    "atomic_max": max,
    "atomic_min": min,
    "atomic_and": lambda old, v: old & v,
    "atomic_or": lambda old, v: old | v,
    "atomic_xor": lambda old, v: old ^ v,
    "atomic_exchange": lambda old, v: v,
    "atomic_store": lambda old, v: v,
    "atomic_load": lambda old, v: old,
}


class AtomicOp(Point):
    """A pending atomic operation; :meth:`apply` performs it when the invocation resumes."""

    __slots__ = ("compare", "index", "memory", "op", "operand")

    def __init__(self, op: str, memory: np.ndarray, index: Any, operand: Any,
                 compare: Any = None) -> None:
        self.op = op
        self.memory = memory
        self.index = index
        self.operand = operand
        self.compare = compare

    def apply(self, inv: Any) -> Any:
        memory, index, op = self.memory, self.index, self.op
        dtype = memory.dtype
        if inv.helper:  # helper invocations: no effect, indeterminate (0) result
            zero = dtype.type(0)
            return AtomicCompareExchangeResult(zero, False) if self.compare is not None else \
                (None if op == "atomic_store" else zero)
        old = np.ndarray.__getitem__(memory, index)
        old_i = int(old)
        if op == "atomic_compare_exchange_weak":
            exchanged = old_i == int(self.compare)
            new = _wrap(dtype, int(self.operand)) if exchanged else old
            result: Any = AtomicCompareExchangeResult(old, exchanged)
        else:
            new = _wrap(dtype, _RMW[op](old_i, int(self.operand)))
            result = None if op == "atomic_store" else old
        if op != "atomic_load":
            np.ndarray.__setitem__(memory, index, new)
        hooks = inv.unit.context.run.atomic_hooks if inv.unit.context is not None else ()
        for hook in hooks:
            hook(inv, op, memory, index, old, new)
        return result

    def __repr__(self) -> str:
        return f"{self.op}({getattr(self.memory, 'var_name', 'buffer')}[{self.index!r}])"


def _atomic(op: str, p: Any, operand: Any = 0, compare: Any = None) -> Awaitable[Any]:
    memory, index = resolve_ptr(p)
    if not isinstance(memory, np.ndarray) or memory.dtype not in (np.int32, np.uint32):
        what = getattr(memory, "dtype", type(memory).__name__)
        raise TypeError(f"{op}() needs atomic<i32> or atomic<u32> memory: a workgroup "
                        f"atomic(...) variable or an int32/uint32 storage buffer, not {what}")
    if isinstance(memory, WorkgroupVar) and not isinstance(memory, WorkgroupAtomic):
        raise TypeError(f"{op}() on {memory.var_name}, which is not atomic: declare it "
                        "workgroup(atomic(u32)) or workgroup(array(atomic(u32), N))")
    return suspend(AtomicOp(op, memory, index, operand, compare))


@trap_function
def atomic_load(p: Any) -> Awaitable[Any]:
    """WGSL ``atomicLoad(p)``: the current value."""
    return _atomic("atomic_load", p)


@trap_function
def atomic_store(p: Any, value: Any) -> Awaitable[None]:
    """WGSL ``atomicStore(p, v)``."""
    return _atomic("atomic_store", p, value)


@trap_function
def atomic_add(p: Any, value: Any) -> Awaitable[Any]:
    """WGSL ``atomicAdd(p, v)``: adds (wrapping), returns the old value."""
    return _atomic("atomic_add", p, value)


@trap_function
def atomic_sub(p: Any, value: Any) -> Awaitable[Any]:
    """WGSL ``atomicSub(p, v)``: subtracts (wrapping), returns the old value."""
    return _atomic("atomic_sub", p, value)


@trap_function
def atomic_max(p: Any, value: Any) -> Awaitable[Any]:
    """WGSL ``atomicMax(p, v)`` (signed for i32, unsigned for u32); returns the old value."""
    return _atomic("atomic_max", p, value)


@trap_function
def atomic_min(p: Any, value: Any) -> Awaitable[Any]:
    """WGSL ``atomicMin(p, v)`` (signed for i32, unsigned for u32); returns the old value."""
    return _atomic("atomic_min", p, value)


@trap_function
def atomic_and(p: Any, value: Any) -> Awaitable[Any]:
    """WGSL ``atomicAnd(p, v)``; returns the old value."""
    return _atomic("atomic_and", p, value)


@trap_function
def atomic_or(p: Any, value: Any) -> Awaitable[Any]:
    """WGSL ``atomicOr(p, v)``; returns the old value."""
    return _atomic("atomic_or", p, value)


@trap_function
def atomic_xor(p: Any, value: Any) -> Awaitable[Any]:
    """WGSL ``atomicXor(p, v)``; returns the old value."""
    return _atomic("atomic_xor", p, value)


@trap_function
def atomic_exchange(p: Any, value: Any) -> Awaitable[Any]:
    """WGSL ``atomicExchange(p, v)``: stores ``v``, returns the old value."""
    return _atomic("atomic_exchange", p, value)


@trap_function
def atomic_compare_exchange_weak(p: Any, compare: Any, value: Any
                                 ) -> Awaitable[AtomicCompareExchangeResult]:
    """WGSL ``atomicCompareExchangeWeak(p, cmp, v)``: stores ``v`` if the value equals ``cmp``;
    returns ``(old_value, exchanged)``. asyncshader never fails spuriously."""
    return _atomic("atomic_compare_exchange_weak", p, value, compare)
