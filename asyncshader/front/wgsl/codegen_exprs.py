"""Expressions of a typed WGSL module as Python expressions for the runtime (a mixin of
:class:`~.codegen.Generator`): const-expressions evaluated once at load into the namespace,
WGSL's operators where Python's meaning differs (``/``, ``%``, shifts) as calls of
:mod:`asyncshader.wgsl.operators`, indexing through :mod:`asyncshader.wgsl.robust`'s loads,
built-ins as asyncshader's snake_case functions (awaited where they are collective)."""

from __future__ import annotations

import ast as py
from typing import Any

from ...collectives import barriers, derivatives, quads, subgroups
from ...ir.types import (
    Array,
    Atomic,
    Matrix,
    OverrideSize,
    Pointer,
    Reference,
    Scalar,
    Struct,
    Vector,
    concretize,
    scalar_of,
)
from ...wgsl import atomics, builtins, types
from ...wgsl.spelling import snake
from . import syntax as ast
from .codegen_entry import helper_call
from .codegen_fast import mark, never_negative, plain_division
from .codegen_textures import is_texture_builtin, texture_call
from .codegen_values import attribute, holds_struct, is_value_type
from .consteval import UNKNOWN, ConstError, fit
from .pipeline import MISSING
from .predeclared import Predeclared

#: where WGSL's built-in functions live in asyncshader, and whether a call is awaited
_PLAIN = (builtins, types)
_AWAITED = (atomics, barriers, derivatives, quads, subgroups)
_ARITH = {"+": py.Add, "-": py.Sub, "*": py.Mult, "&": py.BitAnd, "|": py.BitOr, "^": py.BitXor}
_CALLED = {"/": "div", "%": "mod", "<<": "shl", ">>": "shr"}
_COMPARE = {"==": py.Eq, "!=": py.NotEq, "<": py.Lt, "<=": py.LtE, ">": py.Gt, ">=": py.GtE}
_SCALARS = {"f32": "f32", "i32": "i32", "u32": "u32", "bool": "bool_", "f16": "f16"}
_VEC_SUFFIX = {"f32": "f", "i32": "i", "u32": "u", "bool": "b", "f16": "h"}


def builtin_function(wgsl_name: str) -> tuple[str, bool] | None:
    """asyncshader's name for the WGSL built-in function ``wgsl_name`` and whether a call of it
    is awaited; None where asyncshader has none."""
    name = snake(wgsl_name)
    for modules, awaited in ((_AWAITED, True), (_PLAIN, False)):
        for module in modules:
            if callable(getattr(module, name, None)):
                return name, awaited
    return None


def value_type(t: Any) -> Any:
    """The type of a value of an expression of type ``t`` (the load rule)."""
    return t.store if isinstance(t, Reference) else t


class Expressions:
    """Python expressions for WGSL expressions; mixed into the generator."""

    #: the override values of the pipeline being generated (:class:`.pipeline.Pipeline`);
    #: None: overrides are refused
    pipeline: Any = None
    #: in a fragment entry point and its helpers' variants: (suffix, buffers, the helpers
    #: reaching them) (:mod:`.codegen_entry`)
    variant: Any = None

    # --- helpers that build Python syntax -------------------------------------------------

    def ash_attr(self, name: str) -> py.expr:
        return py.Attribute(py.Name("ash", py.Load()), name, py.Load())

    def ash_call(self, name: str, args: list[py.expr], awaited: bool = False) -> py.expr:
        call = py.Call(self.ash_attr(name), args, [])
        return py.Await(call) if awaited else call

    def type_expr(self, t: Any, span: Any) -> py.expr:
        """The Python expression naming the runtime type of ``t``."""
        if isinstance(t, Scalar) and t.name in _SCALARS:
            return self.ash_attr(_SCALARS[t.name])
        if isinstance(t, Vector) and t.scalar.name in _VEC_SUFFIX:
            return self.ash_attr(f"vec{t.size}{_VEC_SUFFIX[t.scalar.name]}")
        if isinstance(t, Array) and isinstance(t.length, OverrideSize) and \
                self.pipeline is not None:
            t = Array(t.element, self.pipeline.length(t.length))
        if isinstance(t, Array) and isinstance(t.length, int):
            return self.ash_call("array", [self.type_expr(t.element, span),
                                           py.Constant(t.length)])
        if isinstance(t, Atomic):
            return self.ash_call("atomic", [self.type_expr(t.scalar, span)])
        if isinstance(t, Struct) and t.name in self.struct_names:
            return py.Name(t.name, py.Load())
        return self.composite_type_expr(t, span)

    def make_value(self, v: Any, t: Any, span: Any) -> Any:
        """The runtime value of the const value ``v`` of type ``t``."""
        runtime = eval(compile(py.fix_missing_locations(py.Expression(self.type_expr(t, span))),
                               "<wgsl type>", "eval"), {"ash": self.ash})
        if isinstance(t, Scalar):
            return runtime(v)
        if isinstance(t, Vector):
            return runtime(*v)
        return self.composite_value(v, t, span)

    def constant(self, value: Any, t: Any, span: Any) -> py.expr:
        """A name in the namespace holding the runtime value ``value`` of type ``t``, made
        once at load (one name per value and type)."""
        try:
            value = fit(value, t)
        except ConstError:
            raise self.refuse(span, f"this value as {t.wgsl} here") from None
        if holds_struct(t):
            return self.late_constant(value, t, span)
        key = (t, repr(value))
        if key not in self.constant_names:
            name = self.constant_names[key] = f"__k{len(self.constants)}"
            self.constants[name] = self.make_value(value, t, span)
        return py.Name(self.constant_names[key], py.Load())

    def want_for(self, e: ast.Expr, scalar: Any) -> Any:
        """The concrete type ``e`` is converted to: its own type, an abstract one taking the
        scalar ``scalar`` (the other operand's, the result's)."""
        t = value_type(e.type)
        s = scalar_of(t)
        if s is not None and s.abstract and scalar is not None and not scalar.abstract:
            return Vector(t.size, scalar) if isinstance(t, Vector) else scalar
        return concretize(t)

    # --- expressions ----------------------------------------------------------------------

    def expr(self, e: ast.Expr, want: Any = None) -> py.expr:
        """The Python expression computing ``e``'s value (converted to ``want``, a concrete
        type, where ``e`` is abstract)."""
        node = self.expr_node(e, want)
        return self.loaded(e, self.place(node, e.span))

    def expr_node(self, e: ast.Expr, want: Any) -> py.expr:
        t = value_type(e.type)
        if e.stage == "const" and is_value_type(t):
            value = self.checker.value(e)
            if value is not UNKNOWN:
                return self.constant(value, want or concretize(t), e.span)
        if e.stage == "override" and self.pipeline is not None and \
                isinstance(t, (Scalar, Vector)):
            value = self.pipeline.value_of(e)  # (evaluated at pipeline creation)
            if value is MISSING:  # (an entry point reaching it is refused: never runs)
                return py.Name("__ash_override_without_value", py.Load())
            if value is not UNKNOWN:
                return self.constant(value, want or concretize(t), e.span)
        method = getattr(self, "e_" + type(e).__name__, None)
        if method is None:
            raise self.refuse(e.span, f"the expression {self.text(e.span)!r}")
        return method(e, want)

    def e_Paren(self, e: ast.Paren, want: Any) -> py.expr:
        return self.expr_node(e.inner, want)

    def e_Ident(self, e: ast.Ident, want: Any) -> py.expr:
        target = e.target
        if isinstance(target, ast.VarDecl) and target.kind == "override":
            raise self.refuse(e.span, f"the override '{e.name}' here (its default is an "
                              "override-expression calling a built-in function the loader "
                              "does not evaluate)")
        if isinstance(target, ast.VarDecl) and target.kind == "const":
            # (a value the evaluator does not compute, a frexp result: its initializer, a
            # const-expression, computed here; it has no effects)
            return self.expr_node(target.init, want)
        if isinstance(target, ast.VarDecl) and target.name in self.privates and \
                self.is_global(target):
            return self.private_load(e)
        if isinstance(target, ast.VarDecl) and self.is_global(target):
            name = py.Name(self.py_global(e.name), py.Load())
            if isinstance(e.type, Reference) and e.type.space == "workgroup" and \
                    isinstance(e.type.store, (Scalar, Vector, Struct)):
                return py.Attribute(name, "value", py.Load())
            if self.storage_value(e):
                return mark(self.robust("load", [name, py.Constant(0)]), True)
            return name
        if isinstance(target, (ast.VarDecl, ast.Param)) and id(target) in self.names:
            return py.Name(self.names[id(target)], py.Load())
        raise self.refuse(e.span, f"the name '{e.name}' here")

    def storage_value(self, e: ast.Ident) -> bool:
        """Whether ``e`` names a storage buffer of one scalar, vector or matrix (an array of
        one)."""
        return isinstance(e.type, Reference) and e.type.space == "storage" and \
            isinstance(e.type.store, (Scalar, Vector, Matrix))

    def e_Member(self, e: ast.Member, want: Any) -> py.expr:
        base = value_type(e.base.type)
        if not isinstance(base, (Vector, Struct)):
            raise self.refuse(e.span, f"the member access '.{e.name}'")
        return py.Attribute(self.expr(e.base), attribute(e), py.Load())

    def e_Index(self, e: ast.Index, want: Any) -> py.expr:
        base = value_type(e.base.type)
        if not isinstance(base, (Array, Vector, Matrix)):
            raise self.refuse(e.span, "indexing this")
        index = self.index_value(e.index)
        helper = self.index_helper(e.base)
        if not helper:
            return py.Subscript(self.reference(e.base), index, py.Load())
        return mark(self.robust(helper, [self.reference(e.base), index]),
                    helper == "load" and never_negative(self.checker, e.index))

    def robust(self, name: str, args: list[py.expr]) -> py.expr:
        return py.Call(py.Name(f"__ash_{name}", py.Load()), args, [])

    def e_Unary(self, e: ast.Unary, want: Any) -> py.expr:
        ops = {"-": py.USub, "!": py.Not, "~": py.Invert}
        if e.op not in ops:
            raise self.refuse(e.span, f"the operator '{e.op}' here")
        t = concretize(value_type(e.type))
        if e.op == "!" and isinstance(t, Vector):
            return self.vector_not(e, t)
        return py.UnaryOp(ops[e.op](), self.expr(e.operand, want=t))

    def e_Binary(self, e: ast.Binary, want: Any) -> py.expr:
        left_t, right_t = value_type(e.left.type), value_type(e.right.type)
        if e.op in ("&&", "||"):
            op = py.And() if e.op == "&&" else py.Or()
            return py.BoolOp(op, [self.expr(e.left), self.expr(e.right)])
        if e.op in _COMPARE:
            if isinstance(left_t, Vector):
                return self.vector_compare(e, left_t, right_t)
            scalar = left_t if not left_t.abstract else right_t
            left = self.expr(e.left, self.want_for(e.left, scalar.concrete()))
            right = self.expr(e.right, self.want_for(e.right, scalar.concrete()))
            return py.Compare(left, [_COMPARE[e.op]()], [right])
        result = scalar_of(concretize(value_type(e.type)))
        left = self.expr(e.left, self.want_for(e.left, result))
        right_scalar = Scalar("u32") if e.op in ("<<", ">>") else result
        right = self.expr(e.right, self.want_for(e.right, right_scalar))
        if e.op in _ARITH:
            return py.BinOp(left, _ARITH[e.op](), right)
        if (plain := plain_division(self.checker, e, result)) is not None:
            return py.BinOp(left, plain, right)
        if e.op in _CALLED:
            return py.Call(py.Name(f"__ash_{_CALLED[e.op]}", py.Load()), [left, right], [])
        raise self.refuse(e.span, f"the operator '{e.op}'")

    def e_Call(self, e: ast.Call, want: Any) -> py.expr:
        target = e.callee.target
        result = value_type(e.type)
        if isinstance(target, ast.Function):
            params, _ = self.typed.signatures[target.name]
            args = [self.value(a, concretize(p)) for a, p in zip(e.args, params)]
            return py.Await(helper_call(self, target.name, self.private_args() + args))
        if isinstance(target, (ast.Struct, ast.Alias)) or (
                isinstance(target, Predeclared) and target.kind in ("type", "type-generator")):
            return self.construct(e, result)
        if isinstance(target, Predeclared) and e.callee.name == "bitcast":
            return py.Call(py.Subscript(self.ash_attr("bitcast"), self.type_expr(
                concretize(result), e.span), py.Load()), [self.expr(e.args[0])], [])
        if isinstance(target, Predeclared) and is_texture_builtin(e.callee.name):
            return texture_call(self, e)
        if isinstance(target, Predeclared) and e.callee.template is None:
            found = builtin_function(e.callee.name)
            if found is None:
                raise self.refuse(e.span, f"the built-in function {e.callee.name}")
            name, awaited = found
            # (each argument as the type of its parameter in the overload the checker
            # selected: an abstract one converts to it)
            args = [self.pointer_arg(a) if isinstance(a.type, Pointer) else self.expr(
                        a, concretize(p)) for a, p in zip(e.args, e.params)]
            return self.ash_call(name, args, awaited)
        raise self.refuse(e.span, f"the call of {e.callee.name}")

    def construct(self, e: ast.Call, t: Any) -> py.expr:
        if not is_value_type(t):
            raise self.refuse(e.span, f"a constructor of {getattr(t, 'wgsl', t)}")
        scalar = scalar_of(t) if isinstance(t, (Scalar, Vector, Matrix)) else None
        if isinstance(t, Struct):
            args = [self.value(a, concretize(ft)) for a, (_, ft) in zip(e.args, t.fields)]
        elif isinstance(t, Array):
            args = [self.value(a, t.element) for a in e.args]
        else:
            args = [self.value(a, self.want_for(a, scalar)) for a in e.args]
        return py.Call(self.type_name(t, e.span), args, [])

