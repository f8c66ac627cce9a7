"""``x ** n`` as WGSL, meaning what the CPU runs (:mod:`asyncshader.wgsl.powers`): an int
literal exponent from 0 to ``SMALL_MAX`` is repeated multiplication (``x * x * x``; ``x ** 0``
is one of ``x``'s type), anything else ``pow(x, y)`` on a float base, with a
:class:`~asyncshader.WGSLIndeterminateWarning` when it is written (``pow`` is NaN for a negative
base, where Python's ``**`` is not), and an error for an integer base (WGSL has no integer
``pow``). The product repeats the base's text, so a base that calls a helper or awaits an
operation (which would then run once per factor) is an error naming the fix."""

from __future__ import annotations

import ast
import warnings
from typing import Any

from ..wgsl.builtins import WGSLIndeterminateWarning
from ..wgsl.powers import SMALL_MAX
from ..wgsl.source import resolve
from .values import E
from .wtypes import BOOL, Scalar, Unknown, Vector, scalar_of


def power(fx: Any, node: ast.AST, base: ast.expr, exponent: ast.expr, a: E | None = None,
          b: E | None = None) -> E:
    """The WGSL expression of ``base ** exponent`` at ``node`` (a BinOp or an AugAssign);
    ``a`` and ``b``: the operands, when the caller has translated them."""
    a, b = a or fx.value(base), b or fx.value(exponent)
    ta = fx.module.resolved(a.type)
    s = scalar_of(ta)
    if s == BOOL:
        fx.fail(node, "`**` on a bool", "use a number")
    n = exponent.value if isinstance(exponent, ast.Constant) and \
        type(exponent.value) is int and 0 <= exponent.value <= SMALL_MAX else None
    if n is None:
        return _pow(fx, node, base, exponent, a, b)
    if n == 0:
        if isinstance(ta, Vector):
            return E(f"{ta.wgsl}({fx.constant(1, ta.scalar).text})", ta)
        return fx.constant(1 if s is None or s.kind in "iu" else 1.0, ta) \
            if isinstance(ta, Scalar) else E("1", ta)
    calls = [c for c in ast.walk(base) if isinstance(c, (ast.Await, ast.Call))
             and not (isinstance(c, ast.Call) and _pure(fx, c))]
    if calls and n > 1:
        fx.fail(node, f"`{ast.unparse(base)} ** {n}`, whose base calls "
                f"`{ast.unparse(calls[0])}` (the product would call it {n} times)",
                f"assign the base to a name first: `t = {ast.unparse(base)}`, then `t ** {n}`")
    text = " * ".join(a.operand("mul", k > 0) for k in range(n))
    return E(text, ta, "mul" if n > 1 else a.level)


def augmented(fx: Any, node: ast.AugAssign) -> E:
    """The value ``t **= v`` assigns to ``t``."""
    return power(fx, node, node.target, node.value)


def _pure(fx: Any, call: ast.Call) -> bool:
    """Not a call of a helper (a built-in, a constructor: the same value each time)."""
    return not fx.module.is_user_function(resolve(call.func, fx.scope))


def _pow(fx: Any, node: ast.AST, base: ast.expr, exponent: ast.expr, a: E, b: E) -> E:
    ta, tb = fx.module.resolved(a.type), fx.module.resolved(b.type)
    t = fx.module.resolved(fx.binary_type(node, ta, tb))
    s = scalar_of(t)
    if s is not None and not isinstance(t, Unknown) and s.kind in "iu":
        fx.fail(node, f"`{ast.unparse(node)}` on a {t.wgsl} (WGSL has no integer pow, and "
                f"only an int literal exponent from 0 to {SMALL_MAX} is a product)",
                "multiply (x * x * x), loop, or convert to a float: f32(x) ** y")
    if fx.module.final_pass:
        line = fx.first + getattr(node, "lineno", 1) - 1
        warnings.warn(f"{fx.file}:{line}: `{ast.unparse(node)}` is written as WGSL's pow(), "
                      "which is NaN (an indeterminate value) for a negative base even with a "
                      "whole exponent, as the CPU run gives it; an int literal exponent from 0 "
                      f"to {SMALL_MAX} is a product instead", WGSLIndeterminateWarning,
                      stacklevel=2)
    call = ast.copy_location(ast.Call(ast.Name("pow", ast.Load()), [base, exponent], []), node)
    return fx.call_unified(call, "pow", [a, b])
