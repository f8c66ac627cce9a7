"""Generated code at the speed of a hand-written kernel: indexing, division, counted loops.

The generator writes every index through the robust accesses (``__ash_load(m, i)``,
``__ash_store(m, i, v)``: :mod:`asyncshader.wgsl.robust`, WGSL's out-of-bounds rules), a call
per access, and WGSL's ``/`` and ``%`` through :mod:`asyncshader.wgsl.operators`. Where the
index can never be negative (a ``u32``, or a constant at least 0), the
call is marked (:func:`mark`) and :func:`fast_indexing` writes it as numpy's plain indexing,
then puts each statement in the form the runtime's source rewrite gives hand-written kernels
(:class:`~asyncshader.wgsl.robust.Robust`): a ``try`` whose ``except IndexError`` runs the
statement again with every index checked. A signed index keeps its call: plain indexing would
count a negative one from the end. A u32 divided by a nonzero constant is Python's ``//``
(:func:`plain_division`), as the source rewrite writes ``s // 2`` in a hand-written kernel.
A counted ``for`` (``for (var j = a; j < n; j++)`` whose body does not change ``j`` and whose
bound cannot change while it runs) is a Python ``for`` over the values ``j`` takes
(:func:`counted_loop`), as a hand-written kernel's ``for j in range(n)``, instead of a
``while`` loop that tests and steps ``j`` in WGSL's arithmetic."""

from __future__ import annotations

import ast as py
from functools import lru_cache, partial
from typing import Any

import numpy as np

from ...ir.types import Scalar
from ...wgsl import robust
from ...wgsl.robust import Robust
from . import syntax as ast

_FAST = "_ash_never_negative"
#: the names the rewritten statements call (added to a loaded module's namespace)
def _count(dtype: Any, start: Any, end: Any, inclusive: bool) -> Any:
    """The values a counted loop's variable takes, in its WGSL type (a short run of them is
    made once: every invocation of a kernel counts the same few)."""
    start, end = int(start), int(end) + inclusive
    if end - start > 4096:
        return np.arange(start, end, dtype=dtype)
    return _counted(dtype, start, end)


@lru_cache(maxsize=512)
def _counted(dtype: Any, start: int, end: int) -> tuple:
    return tuple(np.arange(start, end, dtype=dtype))


NAMES = {"__ash_ix": partial(robust.ix), "__ash_u32": np.uint32,
         "__ash_count_u32": partial(_count, np.uint32),
         "__ash_count_i32": partial(_count, np.int32)}


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
    structs = {node.name for node in tree.body if isinstance(node, py.ClassDef)}
    impure = partial(_impure, structs)
    for node in tree.body:
        if isinstance(node, (py.FunctionDef, py.AsyncFunctionDef)):
            node.body = Robust(_name, impure).body([_Plain().visit(s) for s in node.body])
    return py.fix_missing_locations(tree)


def _name(op: str) -> str:
    return f"__ash_r{op}" if op in ("c", "v", "t") else f"__ash_{op}"


def _impure(structs: set[str], call: py.Call) -> bool:
    """A call whose effects a second run of its statement would repeat: a WGSL function's
    (the runtime's own, ``ash.<name>``, the robust accesses and struct constructors have
    none)."""
    return isinstance(call.func, py.Name) and not call.func.id.startswith("__ash_") and \
        call.func.id not in structs


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


def counted_loop(gen: Any, s: ast.For) -> list[py.stmt] | None:
    """``for (var j = a; j < n; j++) { body }`` (or ``<=``, ``j += 1``) as ``for j in
    __ash_count_u32(a, n, False): body``, where ``j`` is an i32 or u32 the body neither stores
    nor takes the address of and ``n`` cannot change while the loop runs; else None (the
    generator's ``while`` loop)."""
    decl = getattr(s.init, "decl", None)
    cond = _bare(s.condition) if s.condition is not None else None
    if not isinstance(decl, ast.VarDecl) or decl.kind != "var" or decl.init is None or \
            not isinstance(cond, ast.Binary) or cond.op not in ("<", "<="):
        return None
    t = gen.typed.type_of(decl)
    if not isinstance(t, Scalar) or t.name not in ("u32", "i32") or \
            not _names(cond.left, decl) or not _steps_by_one(gen, s.update, decl) or \
            not _invariant(gen, cond.right) or _changes(s.body, decl):
        return None
    start, end = gen.expr(decl.init, t), gen.expr(cond.right, t)
    values = py.Call(py.Name(f"__ash_count_{t.name}", py.Load()),
                     [start, end, py.Constant(cond.op == "<=")], [])
    loop = py.For(py.Name(gen.local_name(decl), py.Store()), gen.place(values, cond.span),
                  gen.loop_body(s.body), [])
    return [loop]


def _bare(e: Any) -> Any:
    while isinstance(e, ast.Paren):
        e = e.inner
    return e


def _names(e: Any, decl: ast.VarDecl) -> bool:
    e = _bare(e)
    return isinstance(e, ast.Ident) and e.target is decl


def _steps_by_one(gen: Any, update: Any, decl: ast.VarDecl) -> bool:
    if isinstance(update, ast.IncDec):
        return update.op == "++" and _names(update.target, decl)
    return isinstance(update, ast.Assign) and update.op == "+=" and \
        _names(update.target, decl) and update.value.stage == "const" and \
        gen.checker.value(update.value) == 1


def _invariant(gen: Any, e: Any) -> bool:
    """Whether ``e``'s value cannot change while a loop runs: constants, ``let``s and
    parameters, uniforms and read-only storage, ``arrayLength``, and what is made of them."""
    e = _bare(e)
    if e.stage in ("const", "override"):
        return True
    if isinstance(e, ast.Ident):
        target = e.target
        if isinstance(target, ast.Param):
            return True
        if isinstance(target, ast.VarDecl) and target.kind in ("let", "const", "override"):
            return True
        if isinstance(target, ast.VarDecl) and gen.is_global(target) and target.kind == "var":
            space, access = gen.checker.var_space(target, gen.typed.type_of(target))
            return space == "uniform" or (space == "storage" and access == "read")
        return False
    if isinstance(e, ast.Call):
        return e.callee.name == "arrayLength"
    if isinstance(e, ast.Binary):
        return _invariant(gen, e.left) and _invariant(gen, e.right)
    if isinstance(e, ast.Member):
        return _invariant(gen, e.base)
    if isinstance(e, ast.Index):
        return _invariant(gen, e.base) and _invariant(gen, e.index)
    return False


def _changes(body: Any, decl: ast.VarDecl) -> bool:
    """Whether ``body`` stores into the variable ``decl`` or takes its address."""
    todo = [body]
    while todo:
        n = todo.pop()
        if isinstance(n, list):
            todo.extend(n)
            continue
        if isinstance(n, (ast.Assign, ast.IncDec)) and n.target is not None and \
                _names(n.target, decl):
            return True
        if isinstance(n, ast.Unary) and n.op == "&" and _names(n.operand, decl):
            return True
        for name in getattr(n, "__slots__", ()):
            if name not in ("target", "type", "span", "name_span") or \
                    isinstance(n, (ast.Assign, ast.IncDec)):
                child = getattr(n, name, None)
                if isinstance(child, (list, ast.Expr, ast.Stmt, ast.Decl)):
                    todo.append(child)
    return False
