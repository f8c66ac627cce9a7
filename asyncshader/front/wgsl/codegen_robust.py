"""Indexing in generated code at the speed of a hand-written kernel's.

The generator writes every index through the robust accesses (``__ash_load(m, i)``,
``__ash_store(m, i, v)``: :mod:`asyncshader.wgsl.robust`, WGSL's out-of-bounds rules), a call
per access, and WGSL's ``/`` and ``%`` through :mod:`asyncshader.wgsl.operators`. Where the
index can never be negative (a ``u32``, or a constant at least 0), the
call is marked (:func:`mark`) and :func:`fast_indexing` writes it as numpy's plain indexing,
then puts each statement in the form the runtime's source rewrite gives hand-written kernels
(:class:`~asyncshader.wgsl.robust.Robust`): a ``try`` whose ``except IndexError`` runs the
statement again with every index checked. A signed index keeps its call: plain indexing would
count a negative one from the end. A u32 divided by a nonzero constant is Python's ``//``
(:func:`plain_division`), as the source rewrite writes ``s // 2`` in a hand-written kernel."""

from __future__ import annotations

import ast as py
from functools import partial
from typing import Any

import numpy as np

from ...wgsl import robust
from ...wgsl.robust import Robust

_FAST = "_ash_never_negative"
#: the names the rewritten statements call (added to a loaded module's namespace)
NAMES = {"__ash_ix": partial(robust.ix), "__ash_u32": np.uint32}


def mark(call: py.Call, never_negative: bool) -> py.Call:
    """``call`` (a robust load or store), marked for plain indexing if its index is never
    negative."""
    setattr(call, _FAST, never_negative)
    return call


def never_negative(checker: Any, index: Any) -> bool:
    """Whether the WGSL index expression ``index`` (typed) is a ``u32`` or a constant >= 0."""
    t = value_type_of(index.type)
    if getattr(t, "name", None) == "u32":
        return True
    if index.stage == "const":
        value = checker.value(index)
        return isinstance(value, (int, np.integer)) and value >= 0
    return False


def plain_division(checker: Any, e: Any, result: Any) -> py.operator | None:
    """Python's ``//`` or ``%`` for WGSL's ``/`` or ``%`` of two u32 scalars by a nonzero
    constant (where they mean the same: no division by zero, no sign to round), else None."""
    if e.op not in ("/", "%") or getattr(result, "name", None) != "u32" or \
            getattr(value_type_of(e.type), "name", None) != "u32" or e.right.stage != "const":
        return None
    divisor = checker.value(e.right)
    if not isinstance(divisor, (int, np.integer)) or divisor == 0:
        return None
    return py.FloorDiv() if e.op == "/" else py.Mod()


def value_type_of(t: Any) -> Any:
    return getattr(t, "store", t)  # (a reference: its value's type)


def fast_indexing(tree: py.Module) -> py.Module:
    """``tree`` with the marked accesses of every function written as plain indexing inside
    the runtime's ``try``/``except IndexError`` statements."""
    for node in tree.body:
        if isinstance(node, (py.FunctionDef, py.AsyncFunctionDef)):
            node.body = Robust(_name, _impure).body([_Plain().visit(s) for s in node.body])
    return py.fix_missing_locations(tree)


def _name(op: str) -> str:
    return f"__ash_r{op}" if op in ("c", "v", "t") else f"__ash_{op}"


def _impure(call: py.Call) -> bool:
    """A call whose effects a second run of its statement would repeat: a WGSL function's
    (the runtime's own, ``ash.<name>``, and the robust accesses have none)."""
    return isinstance(call.func, py.Name) and not call.func.id.startswith("__ash_")


def _simple(node: py.expr) -> bool:
    """No call or await inside (its evaluation may move after the stored value's)."""
    return not any(isinstance(n, (py.Call, py.Await)) for n in py.walk(node))


class _Plain(py.NodeTransformer):
    def visit_Call(self, node: py.Call) -> Any:
        self.generic_visit(node)
        if getattr(node, _FAST, False) and node.func.id == "__ash_load":  # type: ignore
            return py.copy_location(py.Subscript(node.args[0], node.args[1], py.Load()), node)
        return node

    def visit_Expr(self, node: py.Expr) -> Any:
        self.generic_visit(node)
        call = node.value
        if isinstance(call, py.Call) and getattr(call, _FAST, False) and \
                call.func.id == "__ash_store" and _simple(call.args[0]) and \
                _simple(call.args[1]):  # type: ignore[attr-defined]
            target = py.copy_location(py.Subscript(call.args[0], call.args[1], py.Store()),
                                      call)
            return py.copy_location(py.Assign([target], call.args[2]), node)
        return node
