"""WGSL atomic built-ins on ``atomic<i32>`` / ``atomic<u32>``.

Each atomic is a scheduling point (:class:`~asyncshader.traps.Point`): the invocation suspends and
the operation lands when the schedule next picks it, so the schedule decides the order in which
concurrent atomics land. Arithmetic wraps modulo 2**32; ``atomic_max``/``atomic_min`` are signed
for i32 and unsigned for u32; every read-modify-write returns the old value.

A pointer is a workgroup atomic variable, ``ptr(buffer_or_var, index)`` or ``(buffer, index)``,
or ``ptr(p[i].count)`` for an ``atomic<T>`` member of a struct in storage or workgroup memory;
storage buffers must be int32 or uint32 arrays. Helper invocations (fragment stage) perform no
atomic and get 0 back, as Tint does. An atomic out of bounds follows WGSL's robust access as
asyncshader implements it for every access: no effect, zero back, and an ``OutOfBounds`` finding
(of kind store, or load for ``atomic_load``) at the atomic's line, as Lockstep reports it.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, NamedTuple

import numpy as np

from .._core.traps import Point, suspend, trap_function
from .memory import WorkgroupAtomic, WorkgroupVar, resolve_ptr
from .robust import outside
from .struct_refs import AtomicMember

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


#: the atomics that change memory whenever their operand is not zero (modulo 2^32)
_ALWAYS_CHANGE = frozenset({"atomic_add", "atomic_sub", "atomic_xor"})


class AtomicOp(Point):
    """A pending atomic operation; :meth:`apply` performs it when the invocation resumes."""

    __slots__ = ("compare", "index", "memory", "op", "operand", "report")

    def __init__(self, op: str, memory: np.ndarray, index: Any, operand: Any,
                 compare: Any = None, report: Any = None) -> None:
        self.op = op
        self.memory = memory
        self.index = index
        self.operand = operand
        self.compare = compare
        self.report = report  # (memory, index) the instruments see, if not memory[index]

    def apply(self, inv: Any) -> Any:
        memory, index, op = self.memory, self.index, self.op
        dtype = memory.dtype
        if inv.helper:  # helper invocations: no effect, indeterminate (0) result
            run = getattr(inv.unit.context, "run", None)
            if run is not None:
                run.helper_effect(inv, self.report[0] if self.report else memory, op)
            zero = dtype.type(0)
            return self._nothing(zero)
        if outside(memory, index):  # WGSL's robust access: no effect, zero back (a finding)
            run = getattr(inv.unit.context, "run", None)
            if run is not None:
                run.out_of_bounds(memory, index, "load" if op == "atomic_load" else "store",
                                  waiting=inv)
            return self._nothing(dtype.type(0))
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
        if hooks and self.report is not None:
            memory, index = self.report
        for hook in hooks:
            hook(inv, op, memory, index, old, new)
        return result

    def _nothing(self, zero: Any) -> Any:
        """What an atomic that did nothing returns: zero, or a failed exchange of zero."""
        if self.compare is not None:
            return AtomicCompareExchangeResult(zero, False)
        return None if self.op == "atomic_store" else zero

    def polls(self) -> Any:
        """Whether, applied now, this atomic would leave memory as it is (a load, an exchange or
        store of the value already there, a compare-exchange that fails...): then the location
        and the value it would read, else ``None``. The schedules' fairness rule reads it: an
        invocation that reads the same value from the same place again, having changed
        nothing, is polling (:class:`~asyncshader.PCT`)."""
        op = self.op
        if op in _ALWAYS_CHANGE and int(self.operand) & _MASK:
            return None  # (the common case, answered without reading memory)
        memory, index = self.memory, self.index
        if outside(memory, index):  # (it would do nothing and read zero)
            return (id(memory), index if isinstance(index, tuple) else int(index), 0)
        old = int(np.ndarray.__getitem__(memory, index))
        if op == "atomic_compare_exchange_weak":
            changes = old == int(self.compare) and int(_wrap(memory.dtype, int(self.operand))) \
                != old
        elif op == "atomic_load":
            changes = False
        else:
            changes = int(_wrap(memory.dtype, _RMW[op](old, int(self.operand)))) != old
        if changes:
            return None
        return (id(memory), index if isinstance(index, tuple) else int(index), old)

    def __repr__(self) -> str:
        return f"{self.op}({getattr(self.memory, 'var_name', 'buffer')}[{self.index!r}])"


def _atomic(op: str, p: Any, operand: Any = 0, compare: Any = None) -> Awaitable[Any]:
    memory, index = resolve_ptr(p)
    if memory.__class__ is AtomicMember:  # &p[i].count: a member of a struct in memory
        view, place, report = memory.target(op != "atomic_load")
        return suspend(AtomicOp(op, view, place, operand, compare, report))
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


def _read_modify_write(op: str, wgsl: str, what: str) -> Any:
    def atomic_rmw(p: Any, value: Any) -> Awaitable[Any]:
        return _atomic(op, p, value)
    atomic_rmw.__name__ = atomic_rmw.__qualname__ = op
    atomic_rmw.__doc__ = f"WGSL ``{wgsl}(p, v)``: {what}; returns the old value."
    return trap_function(atomic_rmw)


atomic_add = _read_modify_write("atomic_add", "atomicAdd", "adds v, wrapping around")
atomic_sub = _read_modify_write("atomic_sub", "atomicSub", "subtracts v, wrapping around")
atomic_max = _read_modify_write("atomic_max", "atomicMax",
                                "keeps the larger (signed for i32, unsigned for u32)")
atomic_min = _read_modify_write("atomic_min", "atomicMin",
                                "keeps the smaller (signed for i32, unsigned for u32)")
atomic_and = _read_modify_write("atomic_and", "atomicAnd", "bitwise and with v")
atomic_or = _read_modify_write("atomic_or", "atomicOr", "bitwise or with v")
atomic_xor = _read_modify_write("atomic_xor", "atomicXor", "bitwise exclusive or with v")
atomic_exchange = _read_modify_write("atomic_exchange", "atomicExchange", "stores v")


@trap_function
def atomic_compare_exchange_weak(p: Any, compare: Any, value: Any
                                 ) -> Awaitable[AtomicCompareExchangeResult]:
    """WGSL ``atomicCompareExchangeWeak(p, cmp, v)``: stores ``v`` if the value equals ``cmp``;
    returns ``(old_value, exchanged)``. asyncshader never fails spuriously."""
    return _atomic("atomic_compare_exchange_weak", p, value, compare)
