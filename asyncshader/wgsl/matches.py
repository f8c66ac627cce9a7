"""``match`` in a shader is WGSL's ``switch``: the checks that keep Python's ``match`` to what
``switch`` can mean, made when a shader is decorated (its own body) and when it is first
compiled for a dispatch (every helper it calls by name).

A ``case`` is an integer constant (``case 1:``, ``case -1:``, a dotted module constant
``case Mode.FILL:``), several of them (``case 2 | 3:``, WGSL's ``case 2, 3:``), or the
wildcard ``case _:`` (``default:``). Python already runs such a ``match`` with WGSL's meaning:
the first case whose constant equals the selector runs, else the wildcard's, else nothing.
Anything else Python's ``match`` allows (a capture ``case x:``, ``case 1 as y:``, a guard
``case 1 if c:``, sequences, mappings, classes, strings, floats) has no ``switch`` spelling and
is refused; so is a ``break`` directly inside a case, which in WGSL would leave the ``switch``
where Python leaves the loop."""

from __future__ import annotations

import ast
from typing import Any

from ..errors import ShaderCreationError
from .source import Scope, resolve

__all__ = ["case_values", "check_matches"]

_FIX = ("write integer cases: `case 1:`, `case 2 | 3:`, `case Mode.FILL:` (a module constant), "
        "and `case _:` for the rest; or use if / elif")


def check_matches(tree: ast.AST, scope: Scope, file: str, first: int, name: str) -> None:
    """Raises :class:`~asyncshader.ShaderCreationError` at the first ``match`` statement of
    ``tree`` (a function's source, starting at line ``first`` of ``file``) that WGSL's
    ``switch`` cannot express."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Match):
            continue
        for case in node.cases:
            where = f"{file}:{first + case.pattern.lineno - 1}: {name}"
            if case.guard is not None:
                raise ShaderCreationError(
                    f"{where}: `case {ast.unparse(case.pattern)} if "
                    f"{ast.unparse(case.guard)}:` has a guard, which WGSL's switch does not "
                    f"have. Fix: test the condition inside the case, or {_FIX}")
            case_values(case.pattern, scope, where)
            brk = _break_in(case.body)
            if brk is not None:
                raise ShaderCreationError(
                    f"{file}:{first + brk.lineno - 1}: {name}: `break` inside a `match` case: "
                    "WGSL's `break` would leave the switch, where Python's leaves the loop. "
                    "Fix: set a flag in the case and break after the match")


def case_values(pattern: ast.pattern, scope: Scope, where: str) -> list[Any] | None:
    """The constants a case pattern matches (None for the wildcard ``_``); raises
    ShaderCreationError, at ``where``, for a pattern that is not one of them."""
    if isinstance(pattern, ast.MatchAs) and pattern.pattern is None and pattern.name is None:
        return None
    if isinstance(pattern, ast.MatchOr):
        values: list[Any] = []
        for p in pattern.patterns:
            v = case_values(p, scope, where)
            if v is None:
                break
            values += v
        else:
            return values
    elif isinstance(pattern, ast.MatchValue):
        v = _constant(pattern.value, scope)
        if v is not None:
            return [v]
    what = ast.unparse(pattern)
    why = ("captures the selector into a name (it matches everything)"
           if isinstance(pattern, ast.MatchAs) else "is not an integer constant")
    raise ShaderCreationError(f"{where}: `case {what}:` {why}; WGSL's switch selects by "
                              f"integer constants only. Fix: {_FIX}")


def _constant(node: ast.expr, scope: Scope) -> int | None:
    """The integer a case value names: a literal, a negated literal, a dotted name (which must
    hold an integer when it can be read; a name defined later is judged by the emitter)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _constant(node.operand, scope)
        return None if v is None else -v
    if isinstance(node, ast.Constant):
        v = node.value
    elif isinstance(node, ast.Attribute):
        v = resolve(node, scope)
        if v is None:
            return 0  # (not defined yet: at first dispatch it is read again)
    else:
        return None
    if isinstance(v, bool) or not _is_int(v):
        return None
    return int(v)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) or (hasattr(v, "dtype") and getattr(v.dtype, "kind", "") in "iu"
                                  and getattr(v, "ndim", 1) == 0)


def _break_in(stmts: list[ast.stmt]) -> ast.Break | None:
    """A ``break`` in ``stmts`` that belongs to no loop inside them."""
    todo = list(stmts)
    while todo:
        s = todo.pop()
        if isinstance(s, ast.Break):
            return s
        if isinstance(s, (ast.For, ast.While, ast.AsyncFor)):
            todo.extend(s.orelse)  # (a loop's own body breaks out of that loop)
            continue
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody", "handlers"):
            todo.extend(getattr(s, field, None) or [])
        if isinstance(s, ast.Match):
            for c in s.cases:
                todo.extend(c.body)
    return None
