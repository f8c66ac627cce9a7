"""Matrices in emitted WGSL: ``matCxR<f32>`` / ``matCxR<f16>`` constructors and WGSL's matrix
operators (``+``, ``-``, ``*`` by a scalar, ``matCxR * vecC -> vecR``, ``vecR * matCxR ->
vecC``, ``matKxR * matCxK -> matCxR``; Python's ``@`` is WGSL's ``*``). Column indexing
(``m[i]``) is in :mod:`asyncshader.emit.expressions`, ``transpose`` and ``determinant`` are rows
of :mod:`asyncshader.emit.names`.

Buffers of matrices keep asyncshader's (n, C, R) shape on the CPU; WGSL pads each column of a
3-row matrix to 4 components: :mod:`asyncshader.emit.buffers` pads and unpads them."""

from __future__ import annotations

import ast
from typing import Any

from .values import E
from .wtypes import Matrix, Scalar, Unknown, Vector

__all__ = ["binop", "builtin", "construct"]


def _scalar(fx: Any, node: ast.AST, t: Any, m: Matrix) -> None:
    """``t`` (a scalar operand) must be the matrix's scalar (or an abstract literal)."""
    fx.module.unify(t, m.scalar, node, fx)


def binop(fx: Any, node: ast.BinOp, a: Any, b: Any, ta: Any, tb: Any) -> Any:
    """``a op b`` where one side is a matrix (or the operator is ``@``): WGSL's rules, an
    error naming both types for anything else."""
    op = type(node.op)
    star = op in (ast.Mult, ast.MatMult)
    result = None
    if isinstance(ta, Matrix) and isinstance(tb, Matrix):
        if op in (ast.Add, ast.Sub) and (ta.cols, ta.rows) == (tb.cols, tb.rows):
            fx.module.unify(ta.scalar, tb.scalar, node, fx)
            result = ta
        elif star and ta.cols == tb.rows:
            fx.module.unify(ta.scalar, tb.scalar, node, fx)
            result = Matrix(tb.cols, ta.rows, ta.scalar)
    elif isinstance(ta, Matrix) and star and _fits(tb, ta.cols):
        fx.module.unify(tb, Vector(ta.cols, ta.scalar), node, fx)
        result = ta.column
    elif isinstance(tb, Matrix) and star and _fits(ta, tb.rows):
        fx.module.unify(ta, tb.column, node, fx)
        result = Vector(tb.cols, tb.scalar)
    elif op is ast.Mult and isinstance(ta, Matrix) and isinstance(tb, Scalar):
        _scalar(fx, node, tb, ta)
        result = ta
    elif op is ast.Mult and isinstance(tb, Matrix) and isinstance(ta, Scalar):
        _scalar(fx, node, ta, tb)
        result = tb
    if result is None:
        sym = _SYMBOLS.get(op, op.__name__)
        fx.fail(node, f"{_name(ta)} {sym} {_name(tb)} (not a WGSL matrix operation)",
                "WGSL defines m + m, m - m, m * scalar, matCxR * vecC, vecR * matCxR and "
                "matKxR * matCxK (C columns of R rows); convert or transpose an operand")
    text = {ast.Add: "+", ast.Sub: "-"}.get(op, "*")
    level = "add" if text in "+-" else "mul"
    return E(f"{a.operand(level, 0)} {text} {b.operand(level, 1)}", result, level)


def construct(fx: Any, node: ast.Call, t: Matrix) -> Any:
    """``matCxR(...)``: nothing (zero), a matrix (a conversion), C columns or C*R scalars."""
    if node.keywords:
        fx.fail(node, "keyword arguments to a matrix constructor", "pass them by position")
    args = [fx.value(a) for a in node.args]
    types = [fx.module.resolved(a.type) for a in args]
    if len(args) == 1 and isinstance(types[0], (Matrix, Unknown)):
        if isinstance(types[0], Unknown):
            fx.module.unify(types[0], t, node, fx)
        if types[0] == t:
            return args[0]
        if (types[0].cols, types[0].rows) != (t.cols, t.rows):
            fx.fail(node, f"{t.wgsl}({_name(types[0])})", f"convert a matrix of {t.cols} "
                    f"columns of {t.rows} rows")
    elif len(args) == t.cols and all(isinstance(x, (Vector, Unknown)) for x in types):
        for x, n in zip(types, node.args):
            fx.module.unify(x, t.column, n, fx)
    elif len(args) == t.cols * t.rows and all(isinstance(x, (Scalar, Unknown)) for x in types):
        for x, n in zip(types, node.args):
            fx.module.unify(x, t.scalar, n, fx)
    elif args:
        fx.fail(node, f"{t.wgsl}(...) from {', '.join(_name(x) for x in types)}",
                f"pass {t.cols} {t.column.wgsl} columns or {t.cols * t.rows} "
                f"{t.scalar.wgsl} scalars (column by column)")
    return E(f"{t.wgsl}({', '.join(a.text for a in args)})", t)


def builtin(fx: Any, node: ast.Call, row: Any) -> Any:
    """``transpose(m)`` (``matCxR -> matRxC``) or ``determinant(m)`` (a square matrix's
    scalar)."""
    if len(node.args) != 1 or node.keywords:
        fx.fail(node, f"{row.name} with {len(node.args)} arguments", f"{row.name}(m): one "
                "matrix")
    m = fx.value(node.args[0])
    t = fx.module.resolved(m.type)
    square = isinstance(t, Matrix) and t.cols == t.rows
    if not isinstance(t, Matrix) or (row.name == "determinant" and not square):
        fx.fail(node, f"{row.name} of a {_name(t)}", f"{row.name} takes a "
                f"{'square ' if row.name == 'determinant' else ''}matrix (mat3x3f ...)")
    result = Matrix(t.rows, t.cols, t.scalar) if row.name == "transpose" else t.scalar
    return E(f"{row.wgsl}({m.text})", result)


def _fits(t: Any, size: int) -> bool:
    """``t`` is (or may be) a vector of ``size`` components."""
    return isinstance(t, Unknown) or (isinstance(t, Vector) and t.size == size)


_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.MatMult: "@", ast.Div: "/",
            ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**"}


def _name(t: Any) -> str:
    return t.what if isinstance(t, Unknown) else getattr(t, "wgsl", str(t))
