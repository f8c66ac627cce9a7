"""The built-ins that take a pointer (``ash.ptr(buf, i)`` is ``&buf[i]``): the atomics
(``atomicLoad``, ``atomicStore``, the read-modify-writes, ``atomicCompareExchangeWeak``) and
``workgroupUniformLoad``.

WGSL has ``atomic<i32>`` and ``atomic<u32>`` only, in ``read_write`` storage and in workgroup
memory: an atomic on a buffer of f32 (or of anything but i32 / u32), or on a read-only or
uniform binding, is an error naming the line, the buffer and the fix (asyncshader's CPU runtime
refuses both when the dispatch reaches them). A storage buffer an atomic touches becomes
``array<atomic<T>>``, its plain loads and stores ``atomicLoad`` / ``atomicStore``.

``atomicCompareExchangeWeak(p, cmp, v)`` returns WGSL's ``__atomic_compare_exchange_result<T>``
(``old_value``, ``exchanged``: :mod:`asyncshader.emit.results`), which asyncshader's
``AtomicCompareExchangeResult`` mirrors. WGSL lets it fail spuriously (``exchanged`` false
though the value equalled ``cmp``; asyncshader never does): use it in a loop."""

from __future__ import annotations

import ast
from typing import Any

from ..wgsl.memory import ptr
from . import consts
from .names import SPACES
from .values import E, Memory
from .wtypes import I32, U32, Array, Atomic, Struct, Unknown, scalar_of

__all__ = ["FLOAT_FIX", "call", "holds_atomic", "pointer", "zero"]

#: what to write instead of an atomic on floats
FLOAT_FIX = ("bind an int32 or uint32 array (ash.Storage[u32]) and keep integers in it: fixed "
             "point for fractions (i32(round(x * 65536.0))), or the f32's bits in a u32, "
             "updated with bitcast and atomic_compare_exchange_weak in a loop (docs/to-gpu.md)")


def call(fx: Any, node: ast.Call, row: Any) -> E:
    """``row`` (a built-in whose first argument is a pointer) applied to ``node``'s
    arguments; the others take the pointee's scalar type."""
    if not node.args:
        fx.fail(node, f"{row.name}() without a pointer", f"{row.name}(ash.ptr(buf, i))")
    target, pointee = pointer(fx, node.args[0], atomic=row.name.startswith("atomic_"))
    rest = [fx.value(a) for a in node.args[1:]]
    s = scalar_of(pointee)
    for a, n in zip(rest, node.args[1:]):
        if s is not None:
            fx.module.unify(fx.module.resolved(a.type), s, n, fx)
    return E(f"{row.wgsl}({', '.join([target] + [a.text for a in rest])})", row.rule([pointee]))


def pointer(fx: Any, node: ast.expr, atomic: bool) -> tuple[str, Any]:
    """``ash.ptr(mem, i)`` (or a whole variable) as ``&mem[i]``, with the pointee's type (an
    atomic's scalar)."""
    if isinstance(node, ast.Call) and fx.expr(node.func).ref is ptr:
        target = fx.expr(node.args[0])
        if len(node.args) == 1 and target.memory is None and \
                isinstance(fx.module.resolved(target.type), Atomic):
            return _member(fx, node.args[0], target, atomic)
        mem = target.memory if target.memory is not None else _inner_array(fx, target)
        index = fx.value(node.args[1]) if len(node.args) > 1 else None
    else:
        mem, index = fx.expr(node).memory, None
    if mem is None:
        fx.fail(node, f"`{ast.unparse(node)}` as a pointer", "write ash.ptr(buffer, index) "
                "(WGSL &buffer[index])")
    t = fx.module.resolved(mem.type)
    if index is not None and isinstance(t, Array):
        consts.check_index(fx, node, index, t.length, mem.name)
    element = mem.element(fx.module) if index is not None else t
    if atomic:
        _check_atomic(fx, node, mem, element)
    if atomic and mem.space == "storage":
        mem.atomic_use = True
        fx.module.mark_atomic(mem.name)
    text = f"&{mem.name}[{index.text}]" if index is not None else f"&{mem.name}"
    pointee = element.scalar if isinstance(element, Atomic) else element
    return text, pointee


def _member(fx: Any, arg: ast.expr, target: E, atomic: bool) -> tuple[str, Any]:
    """``ash.ptr(p[i].count)``: an ``atomic<T>`` member of a struct in storage or workgroup
    memory, as ``&p[i].count``."""
    root = arg
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    mem = fx.lookup_name(root).memory if isinstance(root, ast.Name) else None
    if mem is None:
        fx.fail(arg, f"`ash.ptr({ast.unparse(arg)})`", "point at a member of a struct in a "
                "storage buffer or a workgroup variable")
    if atomic and mem.space in ("read", "uniform"):
        fx.fail(arg, f"an atomic on {ast.unparse(arg)} (a member of a read-only binding: "
                f"{SPACES[mem.space]})", "bind it as ash.Storage: WGSL's atomics live in "
                "read_write storage and workgroup memory")
    return f"&{target.text}", fx.module.resolved(target.type).scalar


def zero(module: Any, place: str, t: Any, depth: int = 0) -> str:
    """The statements that zero ``place`` of type ``t`` (workgroup memory at the entry): an
    assignment of the zero value, except where atomics are inside, which only atomicStore can
    write (a struct member by member, an array element by element)."""
    t = module.resolved(t)
    if isinstance(t, Atomic):
        return f"atomicStore(&{place}, 0);"
    if isinstance(t, Struct) and holds_atomic(module, t):
        return " ".join(zero(module, f"{place}.{f}", ft, depth) for f, ft in t.fields)
    if isinstance(t, Array) and holds_atomic(module, t):
        j = f"j{depth}"
        return (f"for (var {j} = 0u; {j} < {t.length}u; {j}++) "
                f"{{ {zero(module, f'{place}[{j}]', t.element, depth + 1)} }}")
    return f"{place} = {module.final(t, module.entry, place)}();"


def holds_atomic(module: Any, t: Any) -> bool:
    """Whether a value of ``t`` contains an ``atomic<T>`` (and so cannot be assigned whole)."""
    t = module.resolved(t)
    if isinstance(t, Atomic):
        return True
    if isinstance(t, Array):
        return holds_atomic(module, t.element)
    return isinstance(t, Struct) and any(holds_atomic(module, ft) for _, ft in t.fields)


def _inner_array(fx: Any, target: E) -> Memory | None:
    """``grid[1]`` of a ``var<workgroup>`` array of arrays, as the memory ``ash.ptr(grid[1],
    2)`` points into (``&grid[1][2]``); None for anything else."""
    ref = target.ref
    t = fx.module.resolved(target.type)
    if isinstance(ref, tuple) and ref[0] == "element" and ref[1].space == "workgroup" and \
            isinstance(t, Array):
        return Memory(target.text, "workgroup", t)
    return None


def _check_atomic(fx: Any, node: ast.expr, mem: Any, element: Any) -> None:
    if mem.space in ("read", "uniform"):
        fx.fail(node, f"an atomic on {mem.name} (a read-only binding: {SPACES[mem.space]})",
                "bind it "
                "as ash.Storage: WGSL's atomics live in read_write storage and workgroup memory")
    if mem.space == "workgroup" and not isinstance(element, Atomic):
        fx.fail(node, f"an atomic on {mem.name}, which is not declared atomic",
                "declare it ash.workgroup(ash.atomic(u32)) (WGSL atomic<u32>)")
    scalar = fx.module.resolved(element.scalar if isinstance(element, Atomic) else element)
    if not isinstance(scalar, Unknown) and scalar not in (I32, U32):
        fx.fail(node, f"an atomic on {mem.name}, a buffer of {getattr(scalar, 'wgsl', scalar)} "
                "(WGSL has atomic<i32> and atomic<u32> only)", FLOAT_FIX)
