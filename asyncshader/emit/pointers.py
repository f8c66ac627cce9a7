"""Pointers into the caller's function-scope variables: ``ash.ptr(x)`` of a local ``x`` is
``&x``, a ``ptr<function, T>`` a helper takes as a parameter, and the helper's ``p.value`` is
``*p`` (a load, or the target of an assignment: ``*p = v;``, ``*p += v;``, ``(*p).x = v;``).
The variable a pointer is taken of is a ``var`` (WGSL takes no address of a ``let``)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from .values import E

__all__ = ["Pointer", "deref", "function_pointer"]


@dataclass(frozen=True)
class Pointer:
    """``ptr<function, T>``: ``pointee`` (T, maybe still unknown) and its text when made."""

    pointee: Any
    text: str

    @property
    def wgsl(self) -> str:
        return f"ptr<function, {self.text}>"

    abstract = False


def function_pointer(fx: Any, node: ast.Call) -> E:
    """``ash.ptr(x)`` outside an atomic or ``workgroup_uniform_load``: ``&x`` of a local."""
    arg = node.args[0] if len(node.args) == 1 and not node.keywords else None
    local = fx.locals.get(arg.id) if isinstance(arg, ast.Name) else None
    if local is None or local.memory is not None or local.selector:
        what = "a parameter" if isinstance(arg, ast.Name) and arg.id in fx.params else \
            f"`{ast.unparse(node)}`"
        fx.fail(node, f"`{ast.unparse(node)}` as a ptr<function, T> ({what} is not a local "
                "variable of this function)", "take ash.ptr(x) of a local variable x (copy "
                "a parameter into one first: x = param); pass memory to a helper as the "
                "buffer or workgroup variable itself")
    if not local.mutable:  # (declared `let` this pass: WGSL takes the address of a var only)
        local.mutable = True
        decl = re.compile(rf"^(\s*)let {re.escape(local.wgsl)}\b")
        fx.lines[:] = [decl.sub(r"\1var " + local.wgsl, line) for line in fx.lines]
    t = fx.module.resolved(local.type)
    return E(f"&{local.wgsl}", Pointer(t, fx.module.final(t, fx, arg.id)), "mul")


def deref(fx: Any, node: ast.Attribute, base: E) -> E | None:
    """``p.value`` of a pointer ``p``: ``*p``, or None when ``base`` is no pointer."""
    t = fx.module.resolved(base.type)
    if not isinstance(t, Pointer):
        return None
    if node.attr != "value":
        fx.fail(node, f"`.{node.attr}` of the pointer {ast.unparse(node.value)}",
                f"read and write through it as {ast.unparse(node.value)}.value (WGSL *p)")
    return E(f"*{base.text}", t.pointee, "mul")
