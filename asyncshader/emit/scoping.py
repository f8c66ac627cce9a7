"""What the emitter needs to know about a function's names before it translates it: how often
each is assigned or stored through, which must be declared at the top of the function (a name
first assigned in a block and used outside it: WGSL scopes by block, Python by function), and
whether a loop's variable is read after its loop."""

from __future__ import annotations

import ast
from typing import Any

__all__ = ["bind_counts", "hoisted", "store_counts", "used_outside"]


def store_counts(fn_node: ast.AST) -> dict[str, int]:
    counts: dict[str, int] = {}
    for n in ast.walk(fn_node):
        names = []
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            names = [n.id]
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            names = [n.target.id]
        elif isinstance(n, (ast.AugAssign, ast.Assign)):  # v.x = ..., v[i] += ...
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                while isinstance(t, (ast.Attribute, ast.Subscript)):
                    t = t.value
                if isinstance(t, ast.Name) and t not in (n.targets if isinstance(
                        n, ast.Assign) else ()):
                    names.append(t.id)
        for name in names:
            counts[name] = counts.get(name, 0) + 1
    return counts


def bind_counts(fn_node: ast.AST) -> dict[str, int]:
    counts: dict[str, int] = {}
    for n in ast.walk(fn_node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            counts[n.id] = counts.get(n.id, 0) + 1
    return counts


def _assigned_here(stmt: ast.stmt) -> list[str]:
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    out = []
    for t in targets:
        for n in ast.walk(t):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                out.append(n.id)
    return out


def hoisted(fn_node: Any) -> set[str]:
    """The names first assigned in a block but used outside it (after it, or before it in a
    loop): declared at the top of the function."""
    first: dict[str, tuple[list, int]] = {}

    def visit(stmts: list) -> None:
        for k, s in enumerate(stmts):
            for name in _assigned_here(s):
                first.setdefault(name, (stmts, k))
            blocks = [getattr(s, f, None) for f in ("body", "orelse", "finalbody")]
            for inner in blocks + [c.body for c in getattr(s, "cases", ())]:  # (match's too)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt) \
                        and not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    visit(inner)

    visit(fn_node.body)
    total: dict[str, int] = {}
    for n in ast.walk(fn_node):
        if isinstance(n, ast.Name):
            total[n.id] = total.get(n.id, 0) + 1
    out = set()
    for name, (stmts, k) in first.items():
        inside = sum(1 for s in stmts[k:] for n in ast.walk(s)
                     if isinstance(n, ast.Name) and n.id == name)
        if inside != total.get(name, 0):
            out.add(name)
    return out


def used_outside(fn_node: ast.AST, loop: ast.For, name: str) -> bool:
    """``name``, the variable of ``loop``, is used outside it: where it would read the loop's
    last value. Uses inside a sibling loop over the same name are that loop's own variable
    (each WGSL ``for`` declares its own); a loop around ``loop`` is no sibling."""
    inside = {id(n) for n in ast.walk(loop)}
    for other in ast.walk(fn_node):
        if isinstance(other, ast.For) and other is not loop and isinstance(
                other.target, ast.Name) and other.target.id == name and \
                id(other) not in inside and loop not in list(ast.walk(other)):
            inside |= {id(n) for n in ast.walk(other)}
    return any(isinstance(n, ast.Name) and n.id == name and id(n) not in inside
               for n in ast.walk(fn_node))
