"""A shader's source as Python sees it: its syntax tree (with the line it starts at), and the
names its body refers to, resolved as the body would resolve them (closure cells, then module
globals, then builtins). Read by the checks made when a shader is decorated and by the rewrite
that gives its operators WGSL's meaning."""

from __future__ import annotations

import ast
import builtins
import copy
import inspect
import textwrap
import types
from typing import Any

#: the attribute that holds a generated function's syntax tree (:func:`generated_tree`)
GENERATED = "__ash_generated__"


def generated_tree(fn: Any) -> ast.Module | None:
    """The syntax tree of a function generated from another language's source
    (:func:`~asyncshader.wgsl.generated.compile_generated`): a module whose one statement is
    the function's ``def``, positioned at the other language's lines; None for other code."""
    return getattr(fn, GENERATED, None)


def parse(fn: types.FunctionType) -> tuple[ast.Module, int] | None:
    """``fn``'s source as a syntax tree, with its first line number; None without source.
    The tree's columns are those of the source dedented by the first line's indentation.
    A generated function's tree is a copy of the one it was compiled from (its line numbers
    are the generating source's, so the first line number is 1)."""
    tree = generated_tree(fn)
    if tree is not None:
        return copy.deepcopy(tree), 1
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None
    text = "".join(lines)
    try:
        return ast.parse(textwrap.dedent(text)), first
    except SyntaxError:  # (IndentationError too: e.g. a multi-line string at column 0)
        pass
    try:  # parsed where it stands, inside a block, then moved to column 0 and line 1
        inner = ast.parse("if 1:\n" + text).body[0].body  # type: ignore[attr-defined]
    except SyntaxError:
        return None
    indent = len(lines[0]) - len(lines[0].lstrip())
    module = ast.Module(inner, type_ignores=[])
    ast.increment_lineno(module, -1)
    for node in ast.walk(module):
        if getattr(node, "col_offset", None) is not None:
            node.col_offset -= indent
        if getattr(node, "end_col_offset", None) is not None:
            node.end_col_offset -= indent
    return module, first


def root_name(expr: ast.AST) -> str | None:
    """The name an attribute chain starts from (``ash`` of ``ash.dpdx``)."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


class Scope:
    """Names as ``fn``'s body sees them (closure cells, then module globals, then builtins),
    looked up when asked: nothing is copied, so a check at every dispatch stays cheap."""

    def __init__(self, fn: types.FunctionType) -> None:
        self.globals = fn.__globals__
        self.cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
        where = self.globals.get("__builtins__", builtins)
        self.builtins = vars(where) if isinstance(where, types.ModuleType) else where

    def get(self, name: str) -> Any:
        cell = self.cells.get(name)
        if cell is not None:
            try:
                return cell.cell_contents
            except ValueError:  # an empty cell
                return None
        if name in self.globals:
            return self.globals[name]
        return self.builtins.get(name)


def resolve(expr: ast.AST, scope: Scope) -> Any:
    if isinstance(expr, ast.Name):
        return scope.get(expr.id)
    if isinstance(expr, ast.Attribute):
        base = resolve(expr.value, scope)
        if isinstance(base, (types.ModuleType, type)):
            try:
                return getattr(base, expr.attr, None)
            except Exception:  # a module __getattr__ or a metaclass that raises: unknown
                return None
    return None
