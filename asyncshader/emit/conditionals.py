"""The translation of Python's conditional expression ``a if c else b`` (a mixin of
:class:`asyncshader.emit.expressions.Expressions`): WGSL's ``select`` where both sides are
plain values, an ``if``/``else`` into a ``var`` where a side reads memory (``select``
evaluates both sides; the Python kernel reads only the side it takes)."""

from __future__ import annotations

import ast

from .marks import conditional
from .values import E
from .wtypes import BOOL


def _reads(*nodes: ast.AST) -> bool:
    """Whether evaluating ``nodes`` may read memory: they index something."""
    return any(isinstance(n, ast.Subscript) for node in nodes for n in ast.walk(node))


class Conditionals:
    """Mixin: ``x_IfExp``. Needs the translator's ``value``, ``lines``, ``emit``, ``fresh``,
    ``ordered``, ``module`` and ``fail``."""

    def x_IfExp(self, node: ast.IfExp) -> E:
        test = self.value(node.test)
        if self.module.resolved(test.type) != BOOL:
            self.fail(node.test, "a condition that is not a bool", "compare explicitly (x != 0)")
        mark = len(self.lines)  # (what each side emits goes into its side of the if below)
        a = self.value(node.body)
        a_lines = self.lines[mark:]
        del self.lines[mark:]
        b = self.value(node.orelse)
        b_lines = self.lines[mark:]
        del self.lines[mark:]
        t = self.module.unify(self.module.resolved(a.type), self.module.resolved(b.type), node,
                              self)
        if not (self.ordered and _reads(node.body, node.orelse)):
            self.lines += a_lines + b_lines
            return E(conditional(b.text, a.text, test.text), t)
        # (a branch that reads memory runs only when taken, as in Python: select() would
        # read both, and the detector would see loads and bounds the kernel does not make)
        tmp = self.fresh("tmp")
        self.emit(f"var {tmp}: {self.module.final(t, self, tmp)};")
        for head, lines, v in ((f"if {test.text} {{", a_lines, a), ("} else {", b_lines, b)):
            self.emit(head)
            self.lines += ["    " + line for line in lines]
            self.emit(f"    {tmp} = {v.text};")
        self.emit("}")
        return E(tmp, t)
