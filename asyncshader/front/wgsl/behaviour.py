"""Behavior analysis (§ Statements Behavior Analysis): the ways a statement can finish (Next,
Return, Break, Continue), by the spec's table. A function with a return type must end every
path with ``return`` (its body's behavior is exactly {Return}), and a ``continuing`` block
cannot ``return`` or ``continue``; the resolver already places ``break`` and ``continue``."""

from __future__ import annotations

from . import syntax as ast

NEXT, RETURN, BREAK, CONTINUE = "Next", "Return", "Break", "Continue"


def of_block(statements: list[ast.Stmt]) -> frozenset[str]:
    """The behavior of a statement sequence."""
    found = frozenset((NEXT,))
    for s in statements:
        if NEXT not in found:
            break
        found = (found - {NEXT}) | of_statement(s)
    return found


def of_statement(s: ast.Stmt) -> frozenset[str]:
    if isinstance(s, ast.Return):
        return frozenset((RETURN,))
    if isinstance(s, ast.Jump):
        return frozenset(({"break": BREAK, "continue": CONTINUE}.get(s.kind, NEXT),))
    if isinstance(s, ast.Block):
        return of_block(s.body)
    if isinstance(s, ast.If):
        orelse = frozenset((NEXT,)) if s.orelse is None else of_statement(s.orelse)
        return of_block(s.then.body) | orelse
    if isinstance(s, ast.Switch):
        found = frozenset().union(*(of_block(c.body.body) for c in s.cases))
        return (found | {NEXT}) - {BREAK} if BREAK in found else found
    if isinstance(s, ast.Loop):
        body = of_block(s.body.body)
        continuing = of_block(s.continuing.body) if s.continuing else frozenset((NEXT,))
        if s.break_if is not None:
            continuing = continuing | {BREAK, NEXT}
        return _loop(body, continuing)
    if isinstance(s, (ast.For, ast.While)):
        body = of_block(s.body.body)
        if s.condition is not None:  # desugared: `if !condition { break; }` first
            body = frozenset((NEXT, BREAK)) | body
        return _loop(body, frozenset((NEXT,)))
    return frozenset((NEXT,))


def _loop(body: frozenset[str], continuing: frozenset[str]) -> frozenset[str]:
    if body == {RETURN}:
        return body
    both = body | continuing
    if BREAK in both:
        return (both | {NEXT}) - {BREAK, CONTINUE}
    return both - {CONTINUE, NEXT}


def returns_on_every_path(function: ast.Function) -> bool:
    """Whether the body's behavior is exactly {Return} (required with a return type)."""
    return of_block(function.body.body) == {RETURN}
