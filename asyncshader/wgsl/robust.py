"""WGSL's robust buffer access for runs that watch nothing (``sanitize="off"``): an index out
of bounds loads zero and drops the store, as the race detector's runs do (where it is also an
``OutOfBounds`` finding), never a Python ``IndexError``, and a negative index is out of bounds
(it does not count from the end).

The fast path stays numpy's plain indexing: the source rewrite (:mod:`asyncshader.wgsl.rewrite`)
puts each simple statement that indexes something in a ``try`` (free in Python 3.11 while
nothing is raised) whose ``except IndexError`` runs the statement again with every index
through :func:`load` and :func:`store`, which check it. Running it again is safe because such a
statement awaits nothing and calls no helper of the user's (its loads and built-ins give the
same values again, and a store that raised stored nothing); a statement that does await or call
a helper, an ``if``'s condition that does, a ``while`` condition and a ``for`` loop's iterable
index through :func:`load`/:func:`store` at once (they are rarer and dearer anyway). An index
expression that subtracts (``a[i - 1]``, ``a[-k]``) is tested inline (a ``u32`` is never
negative; anything else is compared with 0) and a negative value goes through :func:`ix`,
which turns it into one numpy refuses, so that it takes the same path; a negative value that a
name holds (``j = i - 1`` then ``a[j]``) is past that reach and counts from the end, as numpy
does (docs/design.md, "Deviations"). Code without source is not rewritten and keeps numpy's
indexing.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

import numpy as np

#: what :func:`ix` gives for a negative index: past the end of any buffer (numpy refuses it)
_PAST = 2**62


def ix(memory: Any, index: Any) -> Any:
    """``index``, or, where it is negative, an index past every buffer's end (numpy refuses
    it), unless ``memory`` checks its indices itself (the race detector's views, which report
    the negative index as it is)."""
    if index >= 0 or getattr(memory, "_checks_indices", False):
        return index
    return _PAST


def outside(memory: Any, index: Any) -> bool | None:
    """Whether ``index`` is out of ``memory``'s bounds (negative included); None when
    ``memory`` is not an array (a vector, a Python container: its own indexing applies)."""
    if not isinstance(memory, np.ndarray):
        return None
    parts = index if isinstance(index, tuple) else (index,)
    for k, size in zip(parts, memory.shape):
        if isinstance(k, slice):
            continue
        try:
            k = int(k)
        except (TypeError, ValueError):
            return None
        if not 0 <= k < size:
            return True
    return False


def load(memory: Any, index: Any) -> Any:
    """``memory[index]``, or zero of its element where the index is out of bounds (memory
    that checks its indices itself, the race detector's views, gives zero and reports it)."""
    if outside(memory, index) and not getattr(memory, "_checks_indices", False):
        parts = index if isinstance(index, tuple) else (index,)
        if all(memory.shape):  # (the same form of index, so that a vector buffer gives a vector)
            return _zero(memory[tuple(0 for _ in parts) if isinstance(index, tuple) else 0])
        return np.zeros(memory.shape[len(parts):], memory.dtype)[()]
    return memory[index]


def store(memory: Any, index: Any, value: Any) -> None:
    """``memory[index] = value``, dropped where the index is out of bounds (and reported by
    memory that checks its indices itself)."""
    if not outside(memory, index) or getattr(memory, "_checks_indices", False):
        memory[index] = value


def _zero(like: Any) -> Any:
    if isinstance(like, np.ndarray):
        return np.zeros_like(like)
    return type(like)(0)


# ------------------------------------------------------------------------ the source rewrite
_SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


class Robust:
    """Rewrites a function body's indexing as the module's docstring says. ``name(op)`` gives
    the name the rewritten source calls ``op`` ("load", "store", "ix") by (and records it);
    ``impure(call)`` says whether a call may have effects (a helper of the user's)."""

    def __init__(self, name: Any, impure: Any) -> None:
        self.name, self.impure = name, impure

    def body(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            out.extend(self.statement(stmt))
        return out

    def statement(self, stmt: ast.stmt) -> list[ast.stmt]:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stmt.body = self.body(stmt.body)
            return [stmt]
        if isinstance(stmt, ast.ClassDef):
            return [stmt]
        if isinstance(stmt, _SIMPLE):
            if not _indexes(stmt):
                return [stmt]
            if not self._safe(stmt):
                return self._checked(stmt)
            handler = ast.ExceptHandler(ast.Name("IndexError", ast.Load()), None,
                                        self._checked(copy.deepcopy(stmt)))
            guarded = _Guard(self).visit(stmt)
            return [_at(ast.Try([guarded], [handler], [], []), stmt)]
        before: list[ast.stmt] = []
        if isinstance(stmt, ast.If) and _indexes(stmt.test):
            if self._safe(stmt.test):
                flag = ast.Name(self.name("c"), ast.Store())
                test = ast.Assign([flag], stmt.test)
                before = self.statement(_at(test, stmt))
                stmt.test = _at(ast.Name(flag.id, ast.Load()), stmt.test)
            else:
                stmt.test = _Checked(self).visit(stmt.test)
        for field in ("test", "iter", "subject"):
            value = getattr(stmt, field, None)
            if isinstance(value, ast.expr) and _indexes(value):
                setattr(stmt, field, _Checked(self).visit(value))
        for field in ("body", "orelse", "finalbody"):
            value = getattr(stmt, field, None)
            if isinstance(value, list):
                setattr(stmt, field, self.body(value))
        for handler in getattr(stmt, "handlers", ()):
            handler.body = self.body(handler.body)
        for case in getattr(stmt, "cases", ()):
            case.body = self.body(case.body)
        return [*before, stmt]

    def _safe(self, node: ast.AST) -> bool:
        """Running it again gives the same: no await, no yield, no helper of the user's."""
        return not any(isinstance(n, (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr))
                       or (isinstance(n, ast.Call) and self.impure(n)) for n in ast.walk(node))

    def _checked(self, stmt: ast.stmt) -> list[ast.stmt]:
        """``stmt`` with every index checked (:func:`load`, :func:`store`)."""
        checked = _Checked(self)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, ast.Subscript) for t in targets):
                # the value first, into a temporary, as Python evaluates it before the targets
                tmp = self.name("v")
                done = [_at(ast.Assign([ast.Name(tmp, ast.Store())],
                                       checked.visit(stmt.value)), stmt)]
                value = ast.Name(tmp, ast.Load())
                return done + [self._store(checked, t, value, stmt) for t in targets]
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Subscript):
            t = stmt.target
            current = ast.Call(ast.Name(self.name("load"), ast.Load()),
                               [checked.visit(copy.deepcopy(t.value)),
                                checked.visit(copy.deepcopy(t.slice))], [])
            value = ast.BinOp(current, stmt.op, checked.visit(stmt.value))
            return [self._store(checked, t, value, stmt)]
        return [checked.visit(stmt)]

    def _store(self, checked: _Checked, target: ast.expr, value: ast.expr,
               at: ast.stmt) -> ast.stmt:
        if isinstance(target, ast.Subscript):
            call = ast.Call(ast.Name(self.name("store"), ast.Load()),
                            [checked.visit(target.value), checked.visit(target.slice), value],
                            [])
            return _at(ast.Expr(call), at)
        return _at(ast.Assign([checked.visit(target)], value), at)


class _Checked(ast.NodeTransformer):
    """Every index load through :func:`load` (stores are :meth:`Robust._store`'s)."""

    def __init__(self, robust: Robust) -> None:
        self.robust = robust

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load) or isinstance(node.slice, ast.Slice):
            return node
        return _at(ast.Call(ast.Name(self.robust.name("load"), ast.Load()),
                            [node.value, node.slice], []), node)

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node  # (a scope of its own)


class _Guard(ast.NodeTransformer):
    """An index that subtracts through :func:`ix` (a negative one then raises IndexError)."""

    def __init__(self, robust: Robust) -> None:
        self.robust = robust

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(_subtracts(p) for p in parts) and not _simple(node.value):
            return node  # (the container is evaluated once: its load may not be repeated)
        guarded = [_at(self._guard(node.value, p), p) if _subtracts(p) else p for p in parts]
        if guarded != parts:
            node.slice = _at(ast.Tuple(guarded, ast.Load()), node.slice) \
                if isinstance(node.slice, ast.Tuple) else guarded[0]
        return node

    def _guard(self, memory: ast.expr, index: ast.expr) -> ast.expr:
        """``t if (t := index).__class__ is u32 or t >= 0 else ix(memory, t)``: inline, as a
        call per index costs a kernel of a few loads a third of its time; a u32 (the builtins'
        type) is never negative, and its comparison with 0 is numpy's (slow)."""
        t = self.robust.name("t")
        test = ast.BoolOp(ast.Or(), [
            ast.Compare(ast.Attribute(ast.NamedExpr(ast.Name(t, ast.Store()), index),
                                      "__class__", ast.Load()),
                        [ast.Is()], [ast.Name(self.robust.name("u32"), ast.Load())]),
            ast.Compare(ast.Name(t, ast.Load()), [ast.GtE()], [ast.Constant(0)])])
        call = ast.Call(ast.Name(self.robust.name("ix"), ast.Load()),
                        [copy.deepcopy(memory), ast.Name(t, ast.Load())], [])
        return ast.IfExp(test, ast.Name(t, ast.Load()), call)

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node

    def _comprehension(self, node: ast.AST) -> ast.AST:
        return node  # (an assignment expression may not stand in its iterable)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension


def _subtracts(index: ast.expr) -> bool:
    return not isinstance(index, ast.Slice) and any(
        (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub))
        or (isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub)) for n in ast.walk(index))


def _simple(expr: ast.expr) -> bool:
    """A name or an attribute of one: cheap to evaluate twice, the same value both times."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return isinstance(expr, ast.Name)


def _indexes(node: ast.AST) -> bool:
    """Whether ``node`` indexes something in its own scope."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Subscript):
            return True
        if n is not node and isinstance(n, _SCOPES):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return False


def _at(node: Any, where: ast.AST) -> Any:
    """``node`` and its new children at ``where``'s place."""
    for child in ast.walk(node):
        if "lineno" in child._attributes and getattr(child, "lineno", None) is None:
            ast.copy_location(child, where)
    return node
