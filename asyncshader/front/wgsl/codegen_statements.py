"""Statements of loaded WGSL whose Python form needs more than one Python statement: a
``switch`` with a ``break`` before the end of a clause, and a compound assignment whose
target's index calls a function.

A WGSL ``break`` inside a switch clause leaves the switch; Python's ``match`` has no such
exit, so each clause of such a switch becomes ``while True: <clause>; break`` (its ``break``
leaves the ``while``, and so the switch). A ``continue`` inside it is for the enclosing
loop: it sets the switch's flag and leaves the ``while``, and after the ``match``
``if flag:`` continues (or, in a switch nested in another
such switch, passes the continue out the same way).

``a[f()] += 1`` evaluates ``f()`` once (WGSL's compound assignment evaluates its target
once): each index that calls a function is computed first into a local, which both the load
and the store then read."""

from __future__ import annotations

import ast as py
from typing import Any

from . import syntax as ast

__all__ = ["Statements"]


class Statements:
    """A mixin of :class:`~.codegen.Generator`: wrapped switches and once-evaluated
    indices."""

    hoisted: dict[int, str]  # id(index expression) -> the local holding its value
    continues: dict[int, str]  # id(continue) -> the flag of the switch it leaves

    def wrapped_switch(self, s: ast.Switch, match: py.stmt, outer: str | None
                       ) -> list[py.stmt]:
        """``match`` (``s``'s) with each clause inside ``while True: ...; break``;
        ``outer``: the flag of the wrapped switch around it that a ``continue`` leaves next
        (see the module's text)."""
        flag = f"__continue{id(s)}"
        for case in match.cases:
            case.body = [py.While(py.Constant(True), [*case.body, py.Break()], [])]
        stmts = [match]
        if not any(next(_jumps(case.body, "continue"), None) for case in s.cases):
            return stmts
        then = [py.Assign([py.Name(outer, py.Store())], py.Constant(True)), py.Break()] \
            if outer else [py.Continue()]
        return [py.Assign([py.Name(flag, py.Store())], py.Constant(False)), *stmts,
                py.If(py.Name(flag, py.Load()), then, [])]

    def mark_continues(self, s: ast.Switch) -> str | None:
        """Notes each ``continue`` under ``s`` (outside nested loops) as leaving ``s``;
        returns the flag they left before (a wrapped switch around ``s``), if any."""
        outer = None
        for case in s.cases:
            for j in _jumps(case.body, "continue"):
                outer = self.continues.get(id(j), outer)
                self.continues[id(j)] = f"__continue{id(s)}"
        return outer

    def continue_out(self, s: ast.Jump) -> list[py.stmt] | None:
        """A ``continue`` inside a wrapped switch: its flag set, the switch left."""
        flag = self.continues.get(id(s))
        if flag is None:
            return None
        return [py.Assign([py.Name(flag, py.Store())], py.Constant(True)), py.Break()]

    def hoist_indices(self, target: ast.Expr) -> list[py.stmt]:
        """Each index in ``target`` that calls a function, computed into a local that the
        target's load and store then read (the call runs once)."""
        stmts = []
        for index in _call_indices(target):
            name = f"__index{id(index)}"
            stmts.append(self.place(py.Assign([py.Name(name, py.Store())],
                                              self.index_value(index)), index.span))
            self.hoisted[id(index)] = name
        return stmts


def _jumps(node: Any, kind: str):
    """The ``break``/``continue`` statements under ``node``, not entering loops."""
    if isinstance(node, ast.Jump) and node.kind == kind:
        yield node
    if isinstance(node, (ast.For, ast.While, ast.Loop)):
        return
    for name in getattr(node, "__slots__", ()):
        value = getattr(node, name, None)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, (ast.Stmt, ast.Case, ast.Block)):
                yield from _jumps(child, kind)


def _calls(node: Any) -> bool:
    if isinstance(node, ast.Call):
        return True
    for name in getattr(node, "__slots__", ()):
        value = getattr(node, name, None)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ast.Expr) and _calls(child):
                return True
    return False


def _call_indices(target: ast.Expr) -> list[ast.Expr]:
    """The index expressions of ``target``'s access chain (through parentheses, members,
    indices and ``*``/``&``) that call a function, outermost access last."""
    out: list[ast.Expr] = []
    node = target
    while True:
        if isinstance(node, ast.Paren):
            node = node.inner
        elif isinstance(node, ast.Member):
            node = node.base
        elif isinstance(node, ast.Index):
            if _calls(node.index):
                out.append(node.index)
            node = node.base
        elif isinstance(node, ast.Unary):
            node = node.operand
        else:
            return out[::-1]
