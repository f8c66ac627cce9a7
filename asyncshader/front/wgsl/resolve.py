"""Name resolution (§ Declaration and scope): every identifier of a parsed module is bound to
the declaration it denotes, and what WGSL's scoping rules reject is a diagnostic at the place.

- Module-scope declarations may come in any order; each name is declared once, and a cycle
  of dependencies among them (``const a = b; const b = a;``, a struct containing itself) is
  an error, as is recursion (a function that calls itself, directly or through others).
- A function-scope declaration is in scope from the end of its declaration to the end of its
  block; the parameters and the body's outermost declarations share one scope, and a
  ``continuing`` block (and its ``break if``) sees the loop body's declarations.
- A name no declaration gives is a predeclared object (:mod:`.predeclared`), else an error
  that suggests the close names in scope.
- ``break``, ``continue`` and ``return`` are checked where they stand: ``break`` in a loop or
  switch, ``continue`` in a loop, and neither may leave a ``continuing`` block, nor may
  ``return``.

Struct members and swizzles (``a.b``) and attribute arguments that are names (``@builtin``)
are not resolved here: they depend on types.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from . import syntax as ast
from .predeclared import (
    ENABLE_EXTENSIONS,
    ENUMERANT,
    FUNCTION,
    GENERATOR,
    LANGUAGE_EXTENSIONS,
    PREDECLARED,
    TEMPLATED_FUNCTIONS,
    TYPE,
    Predeclared,
)
from .source import Source, Span, error_at

_STAGES = ("compute", "fragment", "vertex")


@dataclass
class Resolved:
    """A module whose identifiers are bound (each :class:`~.syntax.Ident`'s ``target``)."""

    module: ast.Module
    source: Source
    #: module-scope declarations by name
    globals: dict[str, ast.Decl]
    #: the entry points (functions with ``@compute``, ``@fragment`` or ``@vertex``), in order
    entry_points: list[ast.Function]
    #: for each function, the user-declared functions it calls (each once, in call order)
    calls: dict[str, list[str]] = field(default_factory=dict)


def resolve(module: ast.Module, source: Source) -> Resolved:
    """Bind every identifier of ``module`` to its declaration; raises
    :class:`~.source.WGSLError` where WGSL's scoping rules are broken."""
    return _Resolver(module, source).run()


def stage_of(function: ast.Function) -> str | None:
    """``"compute"``, ``"fragment"`` or ``"vertex"`` for an entry point, else None."""
    for attribute in function.attributes:
        if attribute.name in _STAGES:
            return attribute.name
    return None


@dataclass
class _Jumps:
    """Where a statement stands: inside a loop, a switch, a continuing block."""

    loop: bool = False
    switch: bool = False
    continuing: bool = False


class _Resolver:
    def __init__(self, module: ast.Module, source: Source) -> None:
        self.module = module
        self.source = source
        self.globals: dict[str, ast.Decl] = {}
        self.scopes: list[dict[str, object]] = []
        self.later: dict[str, ast.VarDecl] = {}  # names declared further down the function
        self.depends: dict[str, list[tuple[str, Span]]] = {}
        self.current: str | None = None  # the module-scope declaration being resolved
        self.calls: dict[str, list[str]] = {}

    def error(self, span: Span, message: str):
        return error_at(self.source, span, message)

    def line_of(self, span: Span) -> int:
        return self.source.line_col(span.start)[0]

    # --- module scope ---------------------------------------------------------------------

    def run(self) -> Resolved:
        self.directives()
        for decl in self.module.decls:
            name, span = _declared_name(decl)
            if name is None:
                continue
            if name in self.globals:
                first = self.globals[name]
                raise self.error(span, f"redeclaration of '{name}' (it is already declared at "
                                 f"line {self.line_of(_declared_name(first)[1])}); rename "
                                 "one of them")
            self.globals[name] = decl
        for decl in self.module.decls:
            self.current = _declared_name(decl)[0]
            self.depends.setdefault(self.current or "", [])
            self.module_decl(decl)
        self.check_cycles()
        entry_points = [d for d in self.module.decls
                        if isinstance(d, ast.Function) and stage_of(d)]
        return Resolved(self.module, self.source, self.globals, entry_points, self.calls)

    def directives(self) -> None:
        for directive in self.module.directives:
            known = {"enable": ENABLE_EXTENSIONS, "requires": LANGUAGE_EXTENSIONS}.get(
                directive.kind)
            for name in directive.names if known is not None else ():
                if name not in known:
                    kind = "extension" if directive.kind == "enable" else "language extension"
                    raise self.error(directive.span, f"'{name}' is not a WGSL {kind} (WGSL "
                                     f"defines: {', '.join(sorted(known))}); "
                                     "browser-specific extensions are not supported")

    def module_decl(self, decl: ast.Decl) -> None:
        if isinstance(decl, ast.VarDecl):
            self.attributes(decl.attributes)
            self.template(decl.template)
            self.type(decl.type)
            self.expr(decl.init)
        elif isinstance(decl, ast.Alias):
            self.type(decl.type)
        elif isinstance(decl, ast.Struct):
            for member in decl.members:
                self.attributes(member.attributes)
                self.type(member.type)
        elif isinstance(decl, ast.ConstAssert):
            self.expr(decl.expr)
        elif isinstance(decl, ast.Function):
            self.function(decl)

    def check_cycles(self) -> None:
        """A cycle of module-scope dependencies is an error; among functions it is recursion."""
        state: dict[str, int] = {}  # 1: on the path, 2: done
        path: list[tuple[str, Span]] = []

        def visit(name: str) -> None:
            state[name] = 1
            for target, span in self.depends.get(name, ()):
                if state.get(target) == 1:
                    names = [n for n, _ in path[[n for n, _ in path].index(target):]]
                    self.cycle_error([*names, target], span)
                if target not in state:
                    path.append((target, span))
                    visit(target)
                    path.pop()
            state[name] = 2

        for name in self.depends:
            if name and name not in state:
                path.append((name, Span(0, 0)))
                visit(name)
                path.pop()

    def cycle_error(self, names: list[str], span: Span):
        chain = " -> ".join(names)
        if all(isinstance(self.globals.get(n), ast.Function) for n in names):
            raise self.error(span, f"recursion is not allowed in WGSL: {chain}; rewrite it "
                             "as a loop")
        raise self.error(span, f"'{names[0]}' depends on itself: {chain}")

    # --- functions and statements ---------------------------------------------------------

    def function(self, function: ast.Function) -> None:
        self.calls[function.name] = []
        self.attributes(function.attributes)
        self.attributes(function.return_attributes)
        self.type(function.return_type)
        self.scopes = [{}]
        self.later = {}
        for param in function.params:
            self.attributes(param.attributes)
            self.type(param.type)
            self.declare(param.name, param, param.span)
        self.statements(function.body.body, _Jumps(), new_scope=False)
        self.scopes = []

    def declare(self, name: str, decl: object, span: Span) -> None:
        scope = self.scopes[-1]
        if name in scope:
            first = scope[name]
            line = self.line_of(first.span) if hasattr(first, "span") else "?"
            raise self.error(span, f"redeclaration of '{name}' in the same scope (it is "
                             f"already declared at line {line}); rename it, or assign to "
                             "the first one")
        scope[name] = decl

    def statements(self, body: list[ast.Stmt], jumps: _Jumps, new_scope: bool = True) -> None:
        if new_scope:
            self.scopes.append({})
        declared_here = [s.decl for s in body if isinstance(s, ast.DeclStmt)]
        saved = dict(self.later)
        self.later.update((d.name, d) for d in declared_here)
        for statement in body:
            self.statement(statement, jumps)
        self.later = saved
        if new_scope:
            self.scopes.pop()

    def statement(self, s: ast.Stmt, jumps: _Jumps) -> None:
        if isinstance(s, ast.DeclStmt):
            decl = s.decl
            self.template(decl.template)
            self.type(decl.type)
            self.expr(decl.init)
            self.declare(decl.name, decl, decl.name_span)
        elif isinstance(s, ast.Assign):
            self.expr(s.target)
            self.expr(s.value)
        elif isinstance(s, ast.IncDec):
            self.expr(s.target)
        elif isinstance(s, ast.CallStmt):
            self.expr(s.call)
        elif isinstance(s, ast.Return):
            if jumps.continuing:
                raise self.error(s.span, "'return' cannot leave a 'continuing' block")
            self.expr(s.value)
        elif isinstance(s, ast.Block):
            self.statements(s.body, jumps)
        elif isinstance(s, ast.If):
            self.expr(s.condition)
            self.statements(s.then.body, jumps)
            if isinstance(s.orelse, ast.If):
                self.statement(s.orelse, jumps)
            elif s.orelse is not None:
                self.statements(s.orelse.body, jumps)
        elif isinstance(s, ast.Switch):
            self.switch(s, jumps)
        elif isinstance(s, ast.Loop):
            self.loop(s, jumps)
        elif isinstance(s, ast.For):
            self.scopes.append({})
            if s.init is not None:
                self.statement(s.init, jumps)
            self.expr(s.condition)
            if s.update is not None:
                self.statement(s.update, jumps)
            self.statements(s.body.body, _Jumps(loop=True))
            self.scopes.pop()
        elif isinstance(s, ast.While):
            self.expr(s.condition)
            self.statements(s.body.body, _Jumps(loop=True))
        elif isinstance(s, ast.Jump):
            self.jump(s, jumps)
        elif isinstance(s, ast.AssertStmt):
            self.expr(s.expr)

    def switch(self, s: ast.Switch, jumps: _Jumps) -> None:
        self.expr(s.selector)
        defaults = [c for c in s.cases for sel in c.selectors if sel is None]
        if len(defaults) != 1:
            where = defaults[1].span if len(defaults) > 1 else s.span
            raise self.error(where, "a switch must have exactly one 'default' clause (found "
                             f"{len(defaults)})")
        inner = _Jumps(loop=jumps.loop and not jumps.continuing, switch=True,
                       continuing=False)
        inner_continue_ok = jumps.loop and not jumps.continuing
        for case in s.cases:
            for selector in case.selectors:
                self.expr(selector)
            inner.loop = inner_continue_ok
            self.statements(case.body.body, inner)

    def loop(self, s: ast.Loop, jumps: _Jumps) -> None:
        self.scopes.append({})
        body = s.body.body
        declared = [st.decl for st in body if isinstance(st, ast.DeclStmt)]
        saved = dict(self.later)
        self.later.update((d.name, d) for d in declared)
        for statement in body:
            self.statement(statement, _Jumps(loop=True))
        if s.continuing is not None:  # 'break if' sees the continuing block's declarations
            self.scopes.append({})
            self.statements(s.continuing.body, _Jumps(continuing=True), new_scope=False)
            self.expr(s.break_if)
            self.scopes.pop()
        self.later = saved
        self.scopes.pop()

    def jump(self, s: ast.Jump, jumps: _Jumps) -> None:
        if s.kind == "break" and not (jumps.loop or jumps.switch):
            raise self.error(s.span, "'break' must be inside a loop or a switch"
                             + (" (to leave a loop from its 'continuing' block, end the "
                                "block with 'break if condition;')" if jumps.continuing
                                else ""))
        if s.kind == "continue" and not jumps.loop:
            raise self.error(s.span, "'continue' must be inside a loop"
                             + (", and cannot be in its 'continuing' block"
                                if jumps.continuing else ""))

    # --- expressions, types, attributes ---------------------------------------------------

    def attributes(self, attributes: list[ast.Attribute]) -> None:
        for attribute in attributes:
            if attribute.name in ("builtin", "interpolate", "diagnostic"):
                continue
            for arg in attribute.args:
                self.expr(arg)

    def template(self, args: list[ast.Expr] | None) -> None:
        for arg in args or ():
            if isinstance(arg, ast.Ident):
                self.ident(arg, context="template")
            else:
                self.expr(arg)

    def type(self, node: ast.Ident | None) -> None:
        if node is not None:
            self.ident(node, context="type")

    def expr(self, e: ast.Expr | None) -> None:
        if e is None:
            return
        if isinstance(e, ast.Ident):
            self.ident(e, context="value")
        elif isinstance(e, ast.Call):
            self.call(e)
        elif isinstance(e, ast.Binary):
            self.expr(e.left)
            self.expr(e.right)
        elif isinstance(e, ast.Unary):
            self.expr(e.operand)
        elif isinstance(e, ast.Paren):
            self.expr(e.inner)
        elif isinstance(e, ast.Member):
            self.expr(e.base)
        elif isinstance(e, ast.Index):
            self.expr(e.base)
            self.expr(e.index)

    def call(self, e: ast.Call) -> None:
        target = self.ident(e.callee, context="call")
        if isinstance(target, ast.Function) and self.current is not None:
            callees = self.calls.setdefault(self.current, [])
            if target.name not in callees:
                callees.append(target.name)
        for arg in e.args:
            self.expr(arg)

    def ident(self, node: ast.Ident, context: str) -> object:
        target = self.lookup(node)
        node.target = target
        name = node.name
        is_type = isinstance(target, ast.Struct | ast.Alias) or (
            isinstance(target, Predeclared) and target.kind in (TYPE, GENERATOR))
        if context == "type" and not is_type:
            raise self.error(node.span, f"'{name}' is {_describe(target)}, not a type")
        if context == "call" and not (is_type or isinstance(target, ast.Function) or (
                isinstance(target, Predeclared) and target.kind == FUNCTION)):
            raise self.error(node.span, f"'{name}' is {_describe(target)}; only functions and "
                             "types can be called")
        if context == "value":
            if is_type:
                raise self.error(node.span, f"'{name}' is a type, not a value; construct a "
                                 f"value with {name}(...)")
            if isinstance(target, ast.Function) or (
                    isinstance(target, Predeclared) and target.kind == FUNCTION):
                raise self.error(node.span, f"'{name}' is a function; call it: {name}(...)")
            if isinstance(target, Predeclared) and target.kind == ENUMERANT:
                raise self.error(node.span, f"'{name}' is {_describe(target)}; it is only "
                                 "meaningful in a template list such as var<storage, read>")
        if node.template is not None:
            if not is_type and not (isinstance(target, Predeclared)
                                    and target.name in TEMPLATED_FUNCTIONS):
                raise self.error(node.span, f"'{name}' is {_describe(target)} and takes no "
                                 "template list")
            self.template(node.template)
        return target

    def lookup(self, node: ast.Ident) -> object:
        name = node.name
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if name in self.globals:
            self.depends.setdefault(self.current or "", []).append((name, node.span))
            return self.globals[name]
        if name in PREDECLARED:
            return PREDECLARED[name]
        if name in self.later:
            later = self.later[name]
            raise self.error(node.span, f"'{name}' is used before its declaration at line "
                             f"{self.line_of(later.span)}; declare it first")
        visible = set(self.globals) | {n for scope in self.scopes for n in scope}
        close = difflib.get_close_matches(name, visible | set(PREDECLARED), n=3)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise self.error(node.span, f"'{name}' is not declared{hint}")


def _declared_name(decl: ast.Decl) -> tuple[str | None, Span]:
    if isinstance(decl, ast.VarDecl | ast.Alias | ast.Struct | ast.Function):
        return decl.name, decl.name_span
    return None, decl.span


def _describe(target: object) -> str:
    if isinstance(target, Predeclared):
        return f"a predeclared {target.kind}"
    return {ast.VarDecl: "a variable or value", ast.Param: "a parameter",
            ast.Function: "a function", ast.Struct: "a struct",
            ast.Alias: "a type alias"}.get(type(target), "something else")
