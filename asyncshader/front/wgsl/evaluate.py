"""The values of typed const-expressions (a mixin of the checker): literals, ``const``
declarations, operators, conversions and constructors, members, swizzles and indexing, by
:mod:`.consteval`'s arithmetic; a WGSL error in the evaluation (overflow, division by zero,
a shift out of range) is a diagnostic at the expression."""

from __future__ import annotations

import math
from typing import Any

from ...ir.types import Array, Matrix, Scalar, Struct, Vector, scalar_of
from . import syntax as ast
from .consteval import UNKNOWN, ConstError, binary, convert, fit, unary, zero
from .conversions import common_type, leaf, loaded

_BUILTIN_KERNELS = {"abs": abs, "min": min, "max": max, "select": None, "all": None,
                    "any": None, "clamp": lambda x, lo, hi: min(max(x, lo), hi)}


def _split(f: Any, v: Any) -> Any:
    """``frexp``'s (fract, exp) or ``modf``'s (fract, whole) of a scalar or a vector (``f``:
    Python's math.frexp or math.modf, which split as WGSL does), as the result struct's
    members."""
    if isinstance(v, tuple):
        parts = [f(x) for x in v]
        return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
    return f(v)


def literal_value(e: ast.Literal) -> Any:
    """The value a literal denotes (its digits, without the suffix)."""
    if e.kind == "bool":
        return e.text == "true"
    text = e.text[:len(e.text) - len(e.suffix)]  # (the f of 0x1f is a digit, no suffix)
    if e.kind == "int":
        return int(text, 16) if text.lower().startswith("0x") else int(text)
    if text.lower().startswith("0x"):
        body = text[2:]
        if "p" not in body.lower():
            body += "p0"
        return float.fromhex("0x" + body)
    return float(text)


class Evaluation:
    """Evaluates const-expressions; mixed into the checker. (Pipeline creation evaluates
    override-expressions with it too: :mod:`.pipeline` widens :attr:`phases` and gives the
    overrides' values by :meth:`declared_value`.)"""

    #: the evaluation phases whose expressions have a value here
    phases: tuple[str, ...] = ("const",)

    def declared_value(self, decl: object) -> Any:
        """The value of a name bound to ``decl`` that is not a ``const`` (an override's at
        pipeline creation); UNKNOWN here."""
        return UNKNOWN

    def value(self, e: ast.Expr) -> Any:
        """The value of the typed const-expression ``e`` (UNKNOWN where the evaluator does not
        compute it, or inside the unevaluated side of ``false && e`` / ``true || e``)."""
        if self.unevaluated:
            return UNKNOWN
        key = id(e)
        if key in self.memo:
            return self.memo[key]
        try:
            v = self.memo[key] = self._value(e)
        except ConstError as error:
            raise self.error(e.span, str(error)) from None
        return v

    def type_level_value(self, e: ast.Expr) -> Any:
        """The value of a const-expression a type depends on (an array's element count, an
        ``@align``): evaluated even on the unevaluated side of a short circuit."""
        saved, self.unevaluated = self.unevaluated, 0
        try:
            return self.value(e)
        finally:
            self.unevaluated = saved

    def _value(self, e: ast.Expr) -> Any:
        if e.stage not in self.phases:
            return UNKNOWN
        if isinstance(e, ast.Literal):
            v = literal_value(e)
            return fit(v, e.type) if e.suffix or e.kind != "bool" else v
        if isinstance(e, ast.Paren):
            return self.value(e.inner)
        if isinstance(e, ast.Ident):
            decl = e.target
            if isinstance(decl, ast.VarDecl) and decl.kind == "const":
                self.decl_type(decl)
                return self.values.get(id(decl), UNKNOWN)
            return self.declared_value(decl)
        if isinstance(e, ast.Unary):
            return unary(e.op, self.value(e.operand), loaded(e.operand.type))
        if isinstance(e, ast.Binary):
            return self.binary_value(e)
        if isinstance(e, ast.Member):
            return self.member_value(e)
        if isinstance(e, ast.Index):
            base, i = self.value(e.base), self.value(e.index)
            if base is UNKNOWN or i is UNKNOWN:
                return UNKNOWN
            if not 0 <= i < len(base):  # (an override-expression's, known at pipeline creation)
                raise self.error(e.index.span, f"index {i} is out of bounds: the value has "
                                 f"{len(base)} elements (0..{len(base) - 1})")
            return base[i]
        if isinstance(e, ast.Call):
            return self.call_value(e)
        return UNKNOWN

    def binary_value(self, e: ast.Binary) -> Any:
        a, b = self.value(e.left), self.value(e.right)
        lt, rt = loaded(e.left.type), loaded(e.right.type)
        if a is UNKNOWN or b is UNKNOWN or isinstance(lt, Matrix) or isinstance(rt, Matrix):
            return UNKNOWN
        if e.op in ("<<", ">>"):
            s = leaf(e.type)
            return binary(e.op, fit(a, lt) if lt.abstract else a, lt, b, rt, s)
        if e.op in ("&&", "||"):
            return (a and b) if e.op == "&&" else (a or b)
        s = common_type([leaf(lt), leaf(rt)])
        a = self.converted(a, lt, s)
        b = self.converted(b, rt, s)
        return binary(e.op, a, lt, b, rt, s)

    @staticmethod
    def converted(v: Any, t: Any, s: Scalar) -> Any:
        """``v`` of scalar or vector type ``t`` with its components converted to ``s``."""
        if leaf(t) == s:
            return v
        if isinstance(t, Vector):
            return tuple(fit(x, s) for x in v)
        return fit(v, s)

    def builtin_value_of(self, e: ast.Call) -> Any:
        """The value of a const call of ``abs``, ``min``, ``max``, ``clamp``, ``select``,
        ``all`` or ``any`` (other built-ins: UNKNOWN)."""
        name = e.callee.name
        kernel = _BUILTIN_KERNELS.get(name, UNKNOWN)
        args = [self.value(a) for a in e.args]
        if name in ("frexp", "modf") and len(args) == 1 and args[0] is not UNKNOWN:
            return _split(math.frexp if name == "frexp" else math.modf, args[0])
        if kernel is UNKNOWN or UNKNOWN in args:
            return UNKNOWN
        types = [loaded(a.type) for a in e.args]
        if name in ("all", "any"):
            v = args[0]
            return (all if name == "all" else any)(v) if isinstance(v, tuple) else v
        s = leaf(e.type)
        if name == "select":
            f, t = (self.converted(v, at, s) for v, at in zip(args[:2], types[:2]))
            c = args[2]
            if isinstance(e.type, Vector):
                f = f if isinstance(f, tuple) else (f,) * e.type.size
                t = t if isinstance(t, tuple) else (t,) * e.type.size
                c = c if isinstance(c, tuple) else (c,) * e.type.size
                return tuple(y if k else x for x, y, k in zip(f, t, c))
            return t if c else f
        values = [self.converted(v, at, s) for v, at in zip(args, types)]
        if isinstance(e.type, Vector):
            return tuple(fit(kernel(*parts), s) for parts in zip(*values))
        return fit(kernel(*values), s)

    def member_value(self, e: ast.Member) -> Any:
        base = self.value(e.base)
        t = loaded(e.base.type)
        if base is UNKNOWN:
            return UNKNOWN
        if isinstance(t, Struct):
            names = [n for n, _ in t.fields]
            return base[names.index(e.name)]
        letters = "xyzw" if e.name[0] in "xyzw" else "rgba"
        parts = tuple(base[letters.index(c)] for c in e.name)
        return parts[0] if len(parts) == 1 else parts

    def call_value(self, e: ast.Call) -> Any:
        target = e.callee.target
        t = e.type
        if not isinstance(target, (ast.Struct, ast.Alias)) and \
                getattr(target, "kind", "") not in ("type", "type-generator"):
            return self.builtin_value_of(e)
        args = [self.value(a) for a in e.args]
        if UNKNOWN in args:
            return UNKNOWN
        if not args:
            return zero(t)
        types = [loaded(a.type) for a in e.args]
        if isinstance(t, Scalar):
            return convert(args[0], types[0], t)
        if isinstance(t, Vector):
            if len(args) == 1 and isinstance(types[0], Scalar):
                return (convert(args[0], types[0], t.scalar),) * t.size
            flat = []
            for v, at in zip(args, types):
                if isinstance(at, Vector):
                    flat += [convert(x, at.scalar, t.scalar) for x in v]
                else:
                    flat.append(convert(v, at, t.scalar))
            return tuple(flat)
        if isinstance(t, Matrix):  # (columns, a matrix, or every component column by column)
            flat = []
            for v, at in zip(args, types):
                parts = [x for c in v for x in c] if isinstance(at, Matrix) else \
                    v if isinstance(at, Vector) else (v,)
                flat += [convert(x, scalar_of(at), t.scalar) for x in parts]
            return tuple(tuple(flat[i * t.rows:(i + 1) * t.rows]) for i in range(t.cols))
        if isinstance(t, Array):
            element = t.element
            return tuple(fit(v, element) if isinstance(element, (Scalar, Vector)) else v
                         for v in args)
        if isinstance(t, Struct):
            return tuple(fit(v, mt) if isinstance(mt, (Scalar, Vector)) else v
                         for v, (_, mt) in zip(args, t.fields))
        return UNKNOWN
