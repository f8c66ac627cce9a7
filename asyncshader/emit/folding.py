"""Constant folding for the emitter: what Python computes from module constants alone
(``vec2f(*CENTER)``, ``7 / 2`` of two Python numbers) is emitted as the literal it gives, since
WGSL's abstract arithmetic would mean something else or hide the constant's type."""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from ..wgsl.source import root_name
from ..wgsl.types import Vec, _ScalarType
from .values import E
from .wtypes import type_of_value


class Folding:
    """Mixin of :class:`~asyncshader.emit.expressions.Expressions`: needs ``self.constant``,
    ``self.is_global`` and ``self.scope``."""

    def fold_binop(self, node: ast.BinOp, x: Any, y: Any) -> E | None:
        """Two Python numbers keep Python's meaning (``7 / 2`` is 3.5): folded to a literal
        where WGSL's abstract arithmetic would differ."""
        if isinstance(node.op, ast.Div) or (isinstance(node.op, (ast.FloorDiv, ast.Mod))
                                            and (x < 0 or y < 0)) or isinstance(node.op, ast.Pow):
            try:
                v = {ast.Div: lambda: x / y, ast.FloorDiv: lambda: x // y,
                     ast.Mod: lambda: x % y, ast.Pow: lambda: x ** y}[type(node.op)]()
            except (ZeroDivisionError, OverflowError):
                return None
            return self.constant(v, type_of_value(v))
        return None

    def fold_call(self, node: ast.Call, callee: Any) -> E | None:
        """A constructor or built-in applied to module constants only (``vec2f(*CENTER)``,
        ``f32(RADIUS)``): evaluated here, emitted as a literal."""
        foldable = isinstance(callee, _ScalarType) or (isinstance(callee, type) and issubclass(
            callee, Vec))
        if not foldable:
            return None
        for a in [*node.args, *(k.value for k in node.keywords)]:
            a = a.value if isinstance(a, ast.Starred) else a
            if isinstance(a, ast.UnaryOp) and isinstance(a.operand, ast.Constant):
                continue
            if not isinstance(a, (ast.Name, ast.Constant, ast.Attribute)):
                return None  # (folding an expression would hide its type errors)
            root = root_name(a)
            if root is not None and not self.is_global(root):
                return None
        try:
            code = compile(ast.Expression(ast.fix_missing_locations(node)), "<fold>", "eval")
            with np.errstate(all="ignore"):  # (numpy's overflow warnings are the CPU run's)
                v = eval(code, {"__builtins__": {}}, _Lookup(self.scope))
        except Exception:
            return None
        t = type_of_value(v)
        if t is None:
            return None
        return self.constant(v, t)


class _Lookup(dict):
    """Names for folding constants, looked up as the shader would."""

    def __init__(self, scope: Any) -> None:
        super().__init__()
        self.scope = scope

    def __missing__(self, key: str) -> Any:
        return self.scope.get(key)
