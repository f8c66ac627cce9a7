"""Checks of a shader's source made once, when it is decorated.

A shader that calls ``workgroup_barrier()`` without ``await`` gets back an awaitable and throws
it away: nothing waits, and nothing says so. Python cannot warn about that cheaply at run time
(the traps are generators), so the decorators read the source instead: a call to an asyncshader
operation whose value is thrown away (a statement of its own) inside an ``async def`` (the shader
and the async helpers it calls by name) is an error. Keeping the awaitable to await later is
fine.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types
from typing import Any


def is_trap_function(obj: Any) -> bool:
    return getattr(obj, "__ash_trap__", False) is True


def check_awaits(fn: Any) -> None:
    """Raises TypeError at the first asyncshader operation called without ``await`` in ``fn``
    or an ``async def`` helper it refers to by name. Silently skips code without source."""
    seen: set[int] = set()
    _check(fn, seen)


def _check(fn: Any, seen: set[int]) -> None:
    if not isinstance(fn, types.FunctionType) or id(fn.__code__) in seen:
        return
    seen.add(id(fn.__code__))
    try:
        lines, first = inspect.getsourcelines(fn)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return
    scope = _names(fn)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        target = _resolve(node.func, scope)
        if is_trap_function(target) and _in_async_def(node, parents) \
                and isinstance(parents.get(node), ast.Expr):  # the value is thrown away
            line = first + node.lineno - 1
            name = ast.unparse(node.func)
            raise TypeError(
                f"{fn.__code__.co_filename}:{line}: {name}() is called without `await`, so it "
                f"does nothing (it only builds the operation). Write `await {name}(...)`.")
        if isinstance(target, types.FunctionType) and inspect.iscoroutinefunction(target):
            _check(target, seen)


def _in_async_def(node: ast.AST, parents: dict) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.AsyncFunctionDef):
            return True
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            return False
    return False


def _names(fn: types.FunctionType) -> dict[str, Any]:
    scope = dict(vars(__builtins__)) if isinstance(__builtins__, types.ModuleType) \
        else dict(__builtins__)
    scope.update(fn.__globals__)
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            scope[name] = cell.cell_contents
        except ValueError:
            pass
    return scope


def _resolve(expr: ast.AST, scope: dict[str, Any]) -> Any:
    if isinstance(expr, ast.Name):
        return scope.get(expr.id)
    if isinstance(expr, ast.Attribute):
        base = _resolve(expr.value, scope)
        if isinstance(base, (types.ModuleType, type)):
            return getattr(base, expr.attr, None)
    return None
