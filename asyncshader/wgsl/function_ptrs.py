"""Pointers into a function's own variables (WGSL ``ptr<function, T>``): the part of the
shader's source rewrite (:mod:`asyncshader.wgsl.rewrite`) that makes ``ash.ptr(x)`` of a local
``x`` a pointer through which a helper changes the caller's ``x``.

Python cannot point at a local, so a function that takes the address of a local keeps that
local in a :class:`~asyncshader.wgsl.memory.FunctionVar` for its whole life: each read of
``x`` becomes ``cell.value``, each assignment ``cell.value = ...``, and ``ash.ptr(x)`` is
``ash.ptr(cell)``, whose ``.value`` reads and writes the cell. Only such locals pay for the
cell; no value is shared between names by it (a read gives what the cell holds, as a WGSL load
would), so the rule does not lean on how composite values are copied."""

from __future__ import annotations

import ast
from typing import Any

from .memory import ptr
from .source import Scope, resolve

__all__ = ["CELL", "address_taken", "prologue", "to_cells"]

#: the name the rewritten source calls to make a cell (less the rewrite's prefix)
CELL = "function_var"


def address_taken(fn_node: Any, scope: Scope, bound: set[str]) -> set[str]:
    """The names among ``bound`` (the names the function binds) that appear as
    ``ash.ptr(name)``, a call of :func:`~asyncshader.wgsl.memory.ptr` with one argument,
    less its parameters (WGSL takes no address of a parameter; a resource parameter is
    memory already)."""
    args = fn_node.args
    bound = bound - {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    return {n.args[0].id for n in ast.walk(fn_node)
            if isinstance(n, ast.Call) and len(n.args) == 1 and not n.keywords
            and isinstance(n.args[0], ast.Name) and n.args[0].id in bound
            and resolve(n.func, scope) is ptr}


def prologue(names: set[str], prefix: str) -> list[ast.stmt]:
    """The statements that make each (empty) cell when the function starts."""
    return [ast.Assign([ast.Name(prefix + "v_" + name, ast.Store())],
                       ast.Call(ast.Name(prefix + CELL, ast.Load()), [], []))
            for name in sorted(names)]


def to_cells(fn_node: Any, names: set[str], prefix: str, scope: Scope) -> None:
    """Rewrites ``fn_node``'s reads and assignments of ``names`` into their cells', in place,
    and puts the cells' :func:`prologue` first."""
    _Cells(names, prefix, scope).visit(fn_node)
    fn_node.body[:0] = [ast.copy_location(s, fn_node.body[0])
                        for s in prologue(names, prefix)]


class _Cells(ast.NodeTransformer):
    def __init__(self, names: set[str], prefix: str, scope: Scope) -> None:
        self.names, self.prefix, self.scope = names, prefix, scope

    def _cell(self, name: str, at: ast.AST) -> ast.Name:
        return ast.copy_location(ast.Name(self.prefix + "v_" + name, ast.Load()), at)

    def visit_Call(self, node: ast.Call) -> Any:
        if len(node.args) == 1 and isinstance(node.args[0], ast.Name) and \
                node.args[0].id in self.names and resolve(node.func, self.scope) is ptr:
            node.func = self.visit(node.func)
            node.args = [self._cell(node.args[0].id, node.args[0])]
            return node
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> Any:
        if node.id not in self.names or isinstance(node.ctx, ast.Del):
            return node
        return ast.copy_location(ast.Attribute(self._cell(node.id, node), "value", node.ctx),
                                 node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> Any:
        self.generic_visit(node)
        if isinstance(node.target, ast.Attribute):
            node.simple = 0  # (an annotated attribute target)
        return node
