"""The type checker (§ Type checking): every expression of a resolved module gets its WGSL
type (``Expr.type``, in the IR's types, :mod:`asyncshader.ir.types`) and its evaluation phase
(``Expr.stage``); declarations get theirs (:attr:`Typed.types`, by declaration); what WGSL's
type rules reject is a diagnostic at the place, with the fix where there is one.

- Abstract numbers stay abstract in const-expressions and are converted where a concrete type
  is needed (§ Conversion rank): by a declared type, a parameter, the other operand, or
  concretization (``let x = 1;`` is an ``i32``). A const value that does not fit the type it
  converts to is an error (``let x: u32 = -1;``).
- An expression that names memory has a reference type; where a value is needed the load rule
  reads it (:func:`.conversions.loaded`). ``&`` makes a pointer, ``*`` a reference, and
  ``p.x`` / ``p[i]`` read through a pointer.
- Const-expressions are evaluated (:mod:`.consteval`) where WGSL needs their values (array
  sizes, ``@align``/``@size``, ``const_assert``, constant indices, switch selectors, the
  values of ``const`` declarations), with WGSL's errors.

Last, the uniformity analysis (:mod:`.uniformity`) checks that barriers, derivatives and
subgroup operations run in uniform control flow.

Not checked here yet: entry-point interfaces (``@builtin``/``@location`` types), address-space
layout constraints of uniform and storage buffers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...ir.types import (
    BOOL,
    I32,
    U32,
    Array,
    Atomic,
    Opaque,
    Pointer,
    Reference,
    Scalar,
    Struct,
    Vector,
    concretize,
    default_access,
    is_abstract,
)
from . import syntax as ast
from .behaviour import returns_on_every_path
from .check_exprs import Expressions
from .consteval import UNKNOWN, ConstError, fit
from .conversions import common_type, constructible, converts, describe, loaded
from .evaluate import Evaluation
from .interface import Interfaces
from .resolve import Resolved
from .source import Span, WGSLError, error_at
from .typenames import TypeNames
from .uniformity import check_uniformity


@dataclass
class Typed:
    """A resolved module whose expressions carry their types (``Expr.type``)."""

    resolved: Resolved
    #: the type of each declaration (a ``var``'s store type), by ``id(declaration)``
    types: dict[int, Any] = field(default_factory=dict)
    #: the values of the ``const`` declarations, by ``id(declaration)``
    values: dict[int, Any] = field(default_factory=dict)
    #: the structs, by name
    structs: dict[str, Struct] = field(default_factory=dict)
    #: each function's parameter types and return type (None: none), by name
    signatures: dict[str, tuple[list[Any], Any]] = field(default_factory=dict)

    def type_of(self, decl: object) -> Any:
        """The type of a declaration (a ``var``'s store type)."""
        return self.types[id(decl)]


def check(resolved: Resolved) -> Typed:
    """Types every expression of ``resolved``; raises :class:`~.source.WGSLError` where WGSL's
    type rules are broken."""
    return Checker(resolved).run()


class Checker(TypeNames, Expressions, Evaluation, Interfaces):
    def __init__(self, resolved: Resolved) -> None:
        self.resolved = resolved
        self.source = resolved.source
        self.type_cache: dict[int, Any] = {}
        self.structs: dict[str, Struct] = {}
        self.types: dict[int, Any] = {}
        self.values: dict[int, Any] = {}
        self.signatures: dict[str, tuple[list[Any], Any]] = {}
        self.busy: set[int] = set()
        self.returns: Any = None
        self.unevaluated = 0  # > 0: typing an operand WGSL does not evaluate (short circuit)
        self.memo: dict[int, Any] = {}  # the values of const-expressions, by id(expression)
        self.current = ""  # the function being checked
        self.uses: dict[str, dict] = {}  # the module-scope variables each function names
        self.discards: dict[str, Span] = {}  # the functions with a 'discard', and where
        #: what a uniformity error is: "error" (as compilers), "warning" or "off" (.uniformity)
        self.uniformity = "error"
        self.required = {name for d in resolved.module.directives if d.kind == "requires"
                         for name in d.names}
        self.enabled = {name for d in resolved.module.directives if d.kind == "enable"
                        for name in d.names}

    def error(self, span: Span, message: str) -> WGSLError:
        return error_at(self.source, span, message)

    def needs_f16(self, span: Span) -> None:
        if "f16" not in self.enabled:
            raise self.error(span, "f16 needs 'enable f16;' at the top of the module")

    def run(self) -> Typed:
        for decl in self.resolved.module.decls:
            if isinstance(decl, ast.VarDecl):
                self.decl_type(decl)
                self.attributes(decl.attributes)
            elif isinstance(decl, ast.Alias):
                self.type_of(decl.type)
            elif isinstance(decl, ast.Struct):
                self.struct_type(decl)
                for member, (_, t) in zip(decl.members, self.struct_type(decl).fields):
                    self.attributes(member.attributes)
                    self.builtin_value(member.attributes, t, member.type.span)
            elif isinstance(decl, ast.ConstAssert):
                self.const_assert(decl.expr)
            elif isinstance(decl, ast.Function):
                self.function(decl)
        self.per_entry_point()
        self.override_ids()
        check_uniformity(self)
        return Typed(self.resolved, self.types, self.values, self.structs, self.signatures)

    # --- declarations ---------------------------------------------------------------------

    def is_global(self, decl: object) -> bool:
        return self.resolved.globals.get(getattr(decl, "name", None)) is decl

    def decl_type(self, decl: ast.VarDecl | ast.Param) -> Any:
        key = id(decl)
        if key not in self.types:
            if isinstance(decl, ast.Param):
                self.types[key] = self.param_type(decl)
            else:
                self.types[key] = self.var_decl(decl)
        return self.types[key]

    def param_type(self, param: ast.Param) -> Any:
        t = self.type_of(param.type)
        if (isinstance(t, Array) and not isinstance(t.length, int)) or isinstance(t, Atomic):
            raise self.error(param.type.span, f"a parameter cannot be {describe(t)} (pass "
                             "a pointer to it)")
        return t

    def var_decl(self, decl: ast.VarDecl) -> Any:
        declared = self.type_of(decl.type) if decl.type is not None else None
        kind = decl.kind
        if decl.init is None:
            if kind in ("const", "let"):
                raise self.error(decl.name_span, f"'{kind} {decl.name}' needs a value: "
                                 f"{kind} {decl.name} = ...;")
            if declared is None:
                raise self.error(decl.name_span, f"'{decl.name}' needs a type or a value")
            t = declared
        else:
            got = self.value_type(decl.init)
            if kind == "const" and decl.init.stage != "const":
                raise self.error(decl.init.span, f"'const {decl.name}' needs a "
                                 "const-expression (it is computed at run time here); "
                                 "declare it with 'let'")
            if kind == "override" and decl.init.stage == "runtime":
                raise self.error(decl.init.span, f"the default of override '{decl.name}' "
                                 "must be a const- or override-expression")
            if kind in ("var", "override") and self.is_global(decl) and kind == "var" and \
                    decl.init.stage == "runtime":
                raise self.error(decl.init.span, "a module-scope 'var' is initialized with "
                                 "a const- or override-expression")
            if declared is not None:
                self.expect(decl.init, declared, f"'{decl.name}'")
                t = declared
            else:
                t = got if kind == "const" else concretize(got)
                self.check_fits(decl.init, got, t)
            if kind == "const":
                self.values[id(decl)] = self.const_init(decl, t)
        if kind == "override" and (not isinstance(t, Scalar) or is_abstract(t)):
            raise self.error(decl.name_span, f"override '{decl.name}' is {describe(t)}; an "
                             "override is a scalar (bool, i32, u32, f32 or f16)")
        if kind in ("const", "var", "override") and isinstance(t, Pointer):
            raise self.error(decl.name_span, f"a '{kind}' cannot hold a pointer; use 'let'")
        if kind in ("const", "let") and not (constructible(t) or isinstance(t, Pointer) or (
                kind == "let" and isinstance(t, Opaque))):
            raise self.error(decl.name_span, f"a '{kind}' cannot hold {describe(t)}")
        if kind == "var":
            self.check_var(decl, t)
        return t

    def const_init(self, decl: ast.VarDecl, t: Any) -> Any:
        try:
            return fit(self.value(decl.init), t)
        except ConstError as error:
            raise self.error(decl.init.span, str(error)) from None

    def var_space(self, decl: ast.VarDecl, t: Any = None) -> tuple[str, str]:
        """A ``var``'s address space and access mode (``t``: its store type, if known)."""
        args = decl.template or []
        if not args:
            if not self.is_global(decl):
                return "function", "read_write"
            t = self.decl_type(decl) if t is None else t
            if isinstance(t, Opaque) and t.is_handle:
                return "handle", "read"
            return "private", "read_write"
        space = self.enumerant(args[0], ("function", "private", "workgroup", "uniform",
                                         "storage", "immediate"), "an address space")
        access = default_access(space)
        if len(args) > 1:
            access = self.enumerant(args[1], ("read", "write", "read_write"),
                                    "an access mode")
        return space, access

    def check_var(self, decl: ast.VarDecl, t: Any) -> None:
        space, access = self.var_space(decl, t)
        if isinstance(t, Opaque) and t.is_handle:
            self.resource(decl, t, "handle")
            if decl.template:
                raise self.error(decl.name_span, f"{describe(t)} is a handle: declare it "
                                 f"'var {decl.name}: {t.wgsl};' without an address space")
            return
        if not self.is_global(decl):
            if space != "function":
                raise self.error(decl.span, f"a variable in a function is in the function "
                                 f"address space, not {space}")
        elif space == "function":
            raise self.error(decl.span, "a module-scope variable cannot be in the function "
                             "address space")
        elif not decl.template:
            raise self.error(decl.span, f"module-scope 'var {decl.name}' needs an address "
                             f"space: var<private> {decl.name}")
        if isinstance(t, Array) and t.length is None and space != "storage":
            raise self.error(decl.span, "a runtime-sized array lives only in a storage "
                             "buffer")
        self.check_store_type(decl, t, space)
        if self.is_global(decl):
            self.resource(decl, t, space)
        if space in ("uniform", "storage") and decl.init is not None:
            raise self.error(decl.init.span, f"a {space} buffer cannot have an initializer")
        if (access != "read" and space == "uniform") or (
                len(decl.template or []) > 1 and space != "storage"):
            raise self.error(decl.span, f"only storage buffers name an access mode ({space} "
                             f"is {default_access(space)})")

    def signature(self, function: ast.Function) -> tuple[list[Any], Any]:
        found = self.signatures.get(function.name)
        if found is None:
            params = [self.decl_type(p) for p in function.params]
            result = self.type_of(function.return_type) if function.return_type else None
            if result is not None and not constructible(result):
                raise self.error(function.return_type.span, f"a function cannot return "
                                 f"{describe(result)} (only constructible types: no atomics, "
                                 "pointers or runtime-sized arrays)")
            found = self.signatures[function.name] = (params, result)
        return found

    def function(self, function: ast.Function) -> None:
        self.attributes(function.attributes)
        self.attributes(function.return_attributes)
        for param in function.params:
            self.attributes(param.attributes)
            self.builtin_value(param.attributes, self.decl_type(param), param.type.span)
        self.returns = self.signature(function)[1]
        if function.return_type is not None:
            self.builtin_value(function.return_attributes, self.returns,
                               function.return_type.span)
        self.entry_point(function)
        self.current = function.name
        self.block(function.body)
        if self.returns is not None and not returns_on_every_path(function):
            raise self.error(function.name_span, f"function '{function.name}' returns "
                             f"{describe(self.returns)}, but a path reaches the end of its "
                             "body without 'return': return a value on every path")
        self.returns = None

    def const_assert(self, e: ast.Expr) -> None:
        t = self.value_type(e)
        if t != BOOL or e.stage != "const":
            raise self.error(e.span, "const_assert takes a bool const-expression")
        value = self.value(e)
        if value is False:
            raise self.error(e.span, "const_assert failed: the condition is false")

    # --- statements -----------------------------------------------------------------------

    def block(self, block: ast.Block) -> None:
        for s in block.body:
            self.statement(s)

    def statement(self, s: ast.Stmt) -> None:
        method = getattr(self, "s_" + type(s).__name__)
        method(s)

    def s_Block(self, s: ast.Block) -> None:
        self.block(s)

    def s_DeclStmt(self, s: ast.DeclStmt) -> None:
        self.decl_type(s.decl)

    def s_AssertStmt(self, s: ast.AssertStmt) -> None:
        self.const_assert(s.expr)

    def s_Jump(self, s: ast.Jump) -> None:
        if s.kind == "discard":
            self.discards.setdefault(self.current, s.span)

    def s_CallStmt(self, s: ast.CallStmt) -> None:
        result = self.expr(s.call)
        target = s.call.callee.target
        must_use = isinstance(target, ast.Function) and any(
            a.name == "must_use" for a in target.attributes)
        if not isinstance(target, ast.Function) and result is not None and \
                not s.call.callee.name.startswith("atomic"):
            must_use = True  # built-ins and constructors that give a value (§ must_use)
        if must_use:
            raise self.error(s.span, f"the result of {s.call.callee.name}(...) must be used: "
                             "use it, or discard it with '_ = ...;'")

    def condition(self, e: ast.Expr, what: str) -> None:
        t = self.value_type(e)
        if t != BOOL:
            raise self.error(e.span, f"{what} must be a bool, not {describe(t)}")

    def s_If(self, s: ast.If) -> None:
        self.condition(s.condition, "an if condition")
        self.block(s.then)
        if s.orelse is not None:
            self.statement(s.orelse)

    def s_While(self, s: ast.While) -> None:
        self.condition(s.condition, "a while condition")
        self.block(s.body)

    def s_For(self, s: ast.For) -> None:
        if s.init is not None:
            self.statement(s.init)
        if s.condition is not None:
            self.condition(s.condition, "a for loop's condition")
        if s.update is not None:
            self.statement(s.update)
        self.block(s.body)

    def s_Loop(self, s: ast.Loop) -> None:
        self.block(s.body)
        if s.continuing is not None:
            self.block(s.continuing)
        if s.break_if is not None:
            self.condition(s.break_if, "'break if' takes a condition that")

    def s_Switch(self, s: ast.Switch) -> None:
        t = self.value_type(s.selector)
        selectors = [x for case in s.cases for x in case.selectors if x is not None]
        types = [t] + [self.value_type(x) for x in selectors]
        common = common_type(types)
        if common is None or concretize(common) not in (I32, U32):
            raise self.error(s.selector.span, "a switch selects on an i32 or u32, and its "
                             f"case values must have one type: {describe(t)} and "
                             f"{', '.join(describe(x) for x in types[1:])}")
        common = concretize(common)
        seen: dict[int, Span] = {}
        for x in selectors:
            if x.stage != "const":
                raise self.error(x.span, "a case value must be a const-expression")
            value = self.value(x)
            if value is UNKNOWN:
                continue
            self.check_fits(x, loaded(x.type), common)
            if value in seen:
                raise self.error(x.span, f"the case value {value} appears twice in this "
                                 "switch")
            seen[value] = x.span
        for case in s.cases:
            self.block(case.body)

    def s_Return(self, s: ast.Return) -> None:
        if s.value is None:
            if self.returns is not None:
                raise self.error(s.span, f"this function returns {describe(self.returns)}: "
                                 "return a value")
            return
        if self.returns is None:
            raise self.error(s.value.span, "this function returns no value (declare its "
                             "type: fn f() -> T)")
        self.expect(s.value, self.returns, "the returned value")

    def writable(self, target: ast.Expr, what: str) -> Reference:
        t = self.expr(target)
        if isinstance(target, ast.Member) and isinstance(t, Vector):
            raise self.error(target.span, f"cannot {what} the swizzle '.{target.name}': WGSL "
                             "assigns one vector component at a time (v.x = ...; v.y = ...) "
                             "or the whole vector")
        if not isinstance(t, Reference):
            name = target.name if isinstance(target, ast.Ident) else ""
            decl = getattr(target, "target", None)
            kind = getattr(decl, "kind", "parameter" if isinstance(decl, ast.Param) else "")
            because = f": '{name}' is a {kind}; declare it with 'var'" if name and kind \
                else " (only variables and their parts can be assigned)"
            raise self.error(target.span, f"cannot {what} {describe(t)}{because}")
        if t.access == "read":
            raise self.error(target.span, f"cannot {what} memory that is read-only "
                             f"({t.space}, {t.access})")
        return t

    def s_Assign(self, s: ast.Assign) -> None:
        if s.target is None:  # the phony assignment: any value
            self.value_type(s.value)
            return
        ref = self.writable(s.target, "assign to")
        if isinstance(ref.store, Atomic):
            raise self.error(s.span, "an atomic is written with atomicStore(&a, v)")
        if s.op == "=":
            self.expect(s.value, ref.store, "the assigned value")
            return
        binary = ast.Binary(s.span, s.op[:-1], s.target, s.value)
        result = self.value_type(binary)
        if not converts(result, ref.store):
            raise self.error(s.span, f"'{s.op}' gives {describe(result)}, which cannot be "
                             f"stored in {describe(ref.store)}")

    def s_IncDec(self, s: ast.IncDec) -> None:
        ref = self.writable(s.target, "increment" if s.op == "++" else "decrement")
        if ref.store not in (I32, U32):
            raise self.error(s.span, f"'{s.op}' takes an i32 or u32 variable, not "
                             f"{describe(ref.store)}")

    # --- conversions where a type is expected ---------------------------------------------

    def expect(self, e: ast.Expr, want: Any, what: str) -> None:
        got = self.value_type(e)
        if not converts(got, want):
            hint = ""
            if isinstance(got, (Scalar, Vector)) and isinstance(want, (Scalar, Vector)) and \
                    not got.abstract and (isinstance(got, Vector) == isinstance(want, Vector)):
                hint = f": convert it with {describe(want)}(...)"
            elif isinstance(want, Pointer) and isinstance(self.expr(e), Reference):
                hint = ": pass its address with '&'"
            raise self.error(e.span, f"{what} is {describe(want)}, not {describe(got)}{hint}")
        self.check_fits(e, got, want)

    def check_fits(self, e: ast.Expr, got: Any, want: Any) -> None:
        """A const abstract value converted to a concrete type must fit it."""
        if e.stage != "const" or not is_abstract(got) or is_abstract(want) or \
                self.unevaluated:
            return
        try:
            fit(self.value(e), want)
        except ConstError as error:
            raise self.error(e.span, str(error)) from None

