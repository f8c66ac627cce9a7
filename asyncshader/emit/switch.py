"""``match`` as WGSL's ``switch``: a mixin of :class:`asyncshader.emit.functions.Function`.

``match x:`` with ``case 1:``, ``case 2 | 3:`` and ``case _:`` is ``switch x { case 1: {...}
case 2, 3: {...} default: {...} }``: the selector an ``i32`` or ``u32``, the cases integer
constants (:mod:`asyncshader.wgsl.matches` refuses every other pattern, at decoration). WGSL
requires a ``default``; a ``match`` without ``case _`` gets an empty one, which is what Python
does when no case matches. A constant that an earlier case already matched can never select
the later case in Python, and WGSL refuses it twice: it is left out of the later case."""

from __future__ import annotations

import ast
from typing import Any

from ..wgsl.matches import case_values
from .wtypes import AINT, I32, U32, Scalar, Unknown

__all__ = ["Switches"]


class Switches:
    """Translates ``match``; needs ``value``, ``nested``, ``emit``, ``fail`` and the
    function's state below."""

    module: Any
    scope: Any
    file: str
    first: int
    depth: int

    def s_Match(self, node: ast.Match) -> None:
        selector = self.value(node.subject)
        t = self.module.resolved(selector.type)
        if isinstance(t, Scalar) and t.abstract:
            t = AINT
        integer = t in (I32, U32, AINT) or (isinstance(t, Unknown) and self.module.int_local(t))
        if not integer and not (isinstance(t, Unknown) and not self.module.final_pass):
            self.fail(node.subject, f"`match {ast.unparse(node.subject)}` on a "
                      f"{getattr(t, 'wgsl', t)} (WGSL's switch selects on i32 or u32)",
                      "match an integer: convert it (i32(x)) or use if / elif")
        self.emit(f"switch {selector.text} {{")
        seen: set[int] = set()
        default = False
        self.depth += 1
        for case in node.cases:
            where = f"{self.file}:{self.first + case.pattern.lineno - 1}"
            values = case_values(case.pattern, self.scope, where)
            if values is None:
                head, default = "default", True
            else:
                fresh = [v for k, v in enumerate(values) if v not in seen and v not in
                         values[:k]]
                seen.update(values)
                if not fresh:
                    continue  # (every constant taken by an earlier case: it never runs)
                if t == U32 and min(fresh) < 0:
                    self.fail(case.pattern, f"`case {ast.unparse(case.pattern)}:` on a u32 "
                              "selector", "match non-negative constants, or an i32")
                head = "case " + ", ".join(str(v) for v in fresh)
            self.emit(f"{head}: {{")
            self.nested(case.body)
            self.emit("}")
        if not default:
            self.emit("default: {}")
        self.depth -= 1
        self.emit("}")
