"""The WGSL code generator: a typed WGSL module (:mod:`.check`) to a Python syntax tree for the
runtime, every node at its WGSL line and column, compiled by
:func:`asyncshader.wgsl.generated.compile_generated` with the .wgsl file's name
(docs/design.md, "Generated shaders"). The tree is written in the form the runtime's source
passes produce, since generated code is not rewritten.

It covers a first slice of the language (docs/wgsl-testing.md lists it): module-scope
storage, uniform and workgroup variables, ``const`` declarations, structs, functions and
compute entry points, the statements, and expressions on scalars and vectors. Anything else
is refused at load with ``file:line:col`` and "not supported yet by load_wgsl: <construct>",
never run with another meaning.
"""

from __future__ import annotations

import ast as py
import keyword
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ...ir.types import (
    Array,
    Atomic,
    Matrix,
    Opaque,
    OverrideSize,
    Pointer,
    Reference,
    Scalar,
    Struct,
    Vector,
    concretize,
    scalar_of,
)
from ...stages.compute import COMPUTE_BUILTINS  # (passed by parameter name)
from . import syntax as ast
from .codegen_entry import (
    check_whole_quads,
    fragment_helpers,
    fragment_parameters,
    struct_of_builtins,
)
from .codegen_exprs import Expressions, value_type
from .codegen_fast import counted_loop, mark, never_negative
from .codegen_pointers import Pointers
from .codegen_textures import check_compute_stage, handle_binding
from .codegen_values import PRIVATE, VALUE_SPACES, Values, is_value_type, member_attribute
from .consteval import UNKNOWN, ConstError, fit, zero
from .pipeline import workgroup_dimension
from .source import Span, WGSLError, error_at

#: module-scope names generated code cannot define: the names it calls, and Python's
#: constants (a variable named so is renamed, :func:`_python_names`; anything else refused)
_TAKEN = ("ash", "int", "True", "False", "None")


def _python_names(decls: list) -> dict[str, str]:
    """The Python names of the module-scope variables whose WGSL names Python cannot give
    them (a keyword such as ``in``, or one of :data:`_TAKEN`): the name with ``_`` appended
    until no other module-scope name has it. A run still binds them by WGSL name."""
    names = {d.name for d in decls if hasattr(d, "name")}
    out = {}
    for d in decls:
        if isinstance(d, ast.VarDecl) and (keyword.iskeyword(d.name) or d.name in _TAKEN):
            name = d.name + "_"
            while name in names or keyword.iskeyword(name):
                name += "_"
            names.add(name)
            out[d.name] = name
    return out


_COMPOUND = {"+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "&=": "&", "|=": "|",
             "^=": "^", "<<=": "<<", ">>=": ">>"}


class Generator(Pointers, Values, Expressions):
    """Generates one module; :meth:`module` gives the tree, :attr:`constants` the values the
    tree's names refer to and :attr:`entry_points` each compute entry point's workgroup
    size."""

    def __init__(self, checker: Any, typed: Any, runtime: ModuleType) -> None:
        self.checker, self.typed, self.ash = checker, typed, runtime
        self.source = typed.resolved.source
        self.constants: dict[str, Any] = {}
        self.names: dict[int, str] = {}  # Python names of locals and parameters, by id(decl)
        self.used: set[str] = set()
        self.struct_names: set[str] = set()
        self.entry_points: dict[str, tuple[int, int, int]] = {}
        self.fragments: dict[str, list] = {}  # fragment entry points' per-pixel inputs
        self.globals = {d.name for d in typed.resolved.module.decls if hasattr(d, "name")}
        self.current_return: Any = None
        self.synthetic: list[ast.Expr] = []  # nodes made here, evaluated by the checker
        self.constant_names: dict[tuple, str] = {}  # (type, value) -> its name
        self.late: list[py.stmt] = []  # constants holding structs, made as the module ends
        self.late_names: dict[tuple, str] = {}
        self.type_names: dict[Any, str] = {}  # array types, made once
        self.privates = {d.name: d for d in typed.resolved.module.decls
                         if isinstance(d, ast.VarDecl) and d.kind == "var" and
                         checker.var_space(d)[0] == "private"}
        self.python_names = _python_names(typed.resolved.module.decls)
        self.globals |= set(self.python_names.values())

    # --- positions and refusals -----------------------------------------------------------

    def refuse(self, span: Span, construct: str) -> WGSLError:
        return error_at(self.source, span, f"not supported yet by load_wgsl: {construct}")

    def text(self, span: Span) -> str:
        return self.source.text[span.start:span.end]

    def place(self, node: Any, span: Span) -> Any:
        """``node`` at ``span``'s line and column (its end on the same line or later)."""
        line, col = self.source.line_col(span.start)
        end_line, end_col = self.source.line_col(max(span.end, span.start))
        node.lineno, node.col_offset = line, col - 1
        node.end_lineno, node.end_col_offset = end_line, end_col - 1
        if end_line == line:
            node.end_col_offset = max(node.end_col_offset, node.col_offset)
        return node

    def py_global(self, name: str) -> str:
        """The Python name of the module-scope variable ``name`` (:func:`_python_names`)."""
        return self.python_names.get(name, name)

    def is_global(self, decl: object) -> bool:
        return self.typed.resolved.globals.get(getattr(decl, "name", None)) is decl

    # --- the module -----------------------------------------------------------------------

    def module(self) -> py.Module:
        body: list[py.stmt] = []
        for decl in self.typed.resolved.module.decls:  # (variables are renamed)
            if getattr(decl, "name", None) in _TAKEN and not isinstance(decl, ast.VarDecl):
                raise self.refuse(decl.span, f"a module-scope name '{decl.name}'")
        decls = self.typed.resolved.module.decls
        structs = [d for d in decls if isinstance(d, ast.Struct)]
        while structs:  # (WGSL declares in any order; a class needs its members' classes)
            ready = [d for d in structs if _struct_uses(self.typed.structs[d.name])
                     <= self.struct_names]
            for decl in ready or structs[:1]:
                body.append(self.struct(decl))
            structs = [d for d in structs if d.name not in self.struct_names]
        for decl in decls:
            if not isinstance(decl, ast.Struct):
                body += self.declaration(decl)
        body += fragment_helpers(self)
        body += self.late
        return py.fix_missing_locations(py.Module(body, type_ignores=[]))

    def source_span(self, name: str) -> Span:
        for decl in self.typed.resolved.module.decls:
            if getattr(decl, "name", None) == name:
                return decl.span
        return Span(0, 0)

    def declaration(self, decl: ast.Decl) -> list[py.stmt]:
        if isinstance(decl, (ast.ConstAssert, ast.Alias)):
            return []  # (checked at load; an alias names a type the checker resolved)
        if isinstance(decl, ast.Struct):
            return [self.struct(decl)]
        if isinstance(decl, ast.VarDecl):
            return self.global_var(decl)
        if isinstance(decl, ast.Function):
            return [self.function(decl)]
        raise self.refuse(decl.span, f"the declaration {type(decl).__name__.lower()}")

    def struct(self, decl: ast.Struct) -> py.stmt:
        t = self.typed.structs[decl.name]
        attrs = t.attrs or ("",) * len(t.fields)
        fields = [self.place(py.AnnAssign(py.Name(member_attribute(t, name), py.Store()),
                                          self.member_type_expr(ft, a, m.span), None, 1), m.span)
                  for (name, ft), a, m in zip(t.fields, attrs, decl.members)]
        self.struct_names.add(decl.name)
        cls = py.ClassDef(decl.name, [], [], fields or [py.Pass()],
                          [self.ash_attr("struct")])
        return self.place(cls, decl.span)

    def global_var(self, decl: ast.VarDecl) -> list[py.stmt]:
        t = self.typed.type_of(decl)
        if decl.kind == "const":
            value = self.typed.values.get(id(decl))
            if isinstance(t, (Scalar, Vector)):
                t = concretize(t)  # (module["N"] of `const N = 4;` is an i32)
                try:
                    self.constants[decl.name] = self.make_value(fit(value, t), t, decl.span)
                except ConstError:  # (an abstract value no i32 holds: Python's number)
                    self.constants[decl.name] = value
            elif value is not UNKNOWN and is_value_type(t):
                self.module_constant(decl, concretize(t), value)
            return []
        if decl.kind == "override" or decl.name in self.privates:
            return []  # (a use of an override is refused; private: each invocation's own)
        space, access = self.checker.var_space(decl, t)
        attrs = {a.name: a for a in decl.attributes}
        if space == "workgroup" and self.pipeline is not None and not self.pipeline.sized(t):
            value = py.Constant(None)  # (its size has no value: what uses it is refused)
        elif space == "workgroup":
            value = self.ash_call("workgroup", [self.type_expr(t, decl.span)])
        elif space == "storage" and ((isinstance(t, Array) and (
                not isinstance(t.element, Array) or _of_scalars(t))
                                      and not isinstance(t.length, OverrideSize)) or
                                     isinstance(t, (Scalar, Vector, Matrix, Atomic))):
            # (one scalar, vector, matrix or atomic: an array of one, used as name[0]; arrays
            # of arrays of scalars, vectors, matrices or atomics: a numpy array of as many
            # axes, of the scalar)
            element = t.element if isinstance(t, Array) else t
            while isinstance(element, Array):
                element = element.element
            nested = isinstance(t, Array) and isinstance(t.element, Array)
            element = element.scalar if isinstance(element, Atomic) or (
                nested and isinstance(element, (Vector, Matrix))) else element
            value = py.Call(self.ash_attr("storage"), [self.type_expr(element, decl.span)],
                            [*self.binding_keywords(decl, attrs),
                             py.keyword("access", py.Constant(access))])
        elif space == "storage" and isinstance(t, Struct):
            value = py.Call(self.ash_attr("storage"), [self.type_expr(t, decl.span)],
                            [*self.binding_keywords(decl, attrs),
                             py.keyword("access", py.Constant(access))])
        elif space == "uniform":
            value = py.Call(self.ash_attr("uniform"), [self.type_expr(t, decl.span)],
                            self.binding_keywords(decl, attrs))
        elif space == "handle":
            value = handle_binding(self, decl, t)
        else:
            raise self.refuse(decl.span, f"a var<{space}> of type {t.wgsl}")
        return [self.place(py.Assign([py.Name(self.py_global(decl.name), py.Store())], value),
                           decl.span)]

    def binding_keywords(self, decl: ast.VarDecl, attrs: dict) -> list[py.keyword]:
        return [py.keyword(k, py.Constant(self.checker.value(attrs[k].args[0])))
                for k in ("group", "binding")]

    # --- functions ------------------------------------------------------------------------

    def function(self, fn: ast.Function) -> py.stmt:
        self.names, self.used = {}, set()
        self.find_cells(fn)
        attrs = {a.name: a for a in fn.attributes}
        if "vertex" in attrs:  # (listed, refused when asked for: no vertex stage here)
            return self.place(py.Pass(), fn.span)
        entry = "compute" in attrs
        args = py.arguments([], [], None, [], [], None, [])
        prologue: list[py.stmt] = []
        params, result = self.typed.signatures[fn.name]
        self.current_return = concretize(result) if result is not None else None
        if "fragment" in attrs:
            args, prologue, self.fragments[fn.name] = fragment_parameters(self, fn, params)
        others = () if "fragment" in attrs else fn.params  # (a fragment's: just above)
        for p, t in zip(others, params):
            builtin = next((a for a in p.attributes if a.name == "builtin"), None)
            if entry and builtin is not None and builtin.args[0].name in COMPUTE_BUILTINS:
                runtime = builtin.args[0].name
                args.kwonlyargs.append(py.arg(runtime, self.type_expr(t, p.span)))
                args.kw_defaults.append(None)
                self.used.add(runtime)
                name = self.local_name(p)
                if name != runtime:
                    prologue.append(self.place(py.Assign([py.Name(name, py.Store())],
                                                         py.Name(runtime, py.Load())), p.span))
            elif entry and isinstance(t, Struct):  # (its members are built-in values)
                prologue += struct_of_builtins(self, p, t, args)
            elif entry or not (is_value_type(t) or isinstance(t, (Pointer, Opaque))):
                raise self.refuse(p.span, f"the parameter {self.text(p.span)!r}")
            else:
                args.args.append(py.arg(self.local_name(p), None))
        if entry:
            check_compute_stage(self, fn)  # (textureSample: fragment stage only)
            self.entry_points[fn.name] = self.workgroup_size(attrs["workgroup_size"])
            check_whole_quads(self, fn, self.entry_points[fn.name])
        if self.privates and (entry or "fragment" in attrs):  # (an entry point's own)
            prologue = self.private_prologue(fn.span) + prologue
        elif self.privates:
            args.args.insert(0, py.arg(PRIVATE, None))
        body = prologue + self.block(fn.body)
        self.variant = None  # (a fragment entry point's helper calls: generated)
        node = py.AsyncFunctionDef(fn.name, args, body or [py.Pass()], [], None)
        return self.place(node, fn.span)

    def workgroup_size(self, attr: ast.Attribute) -> tuple[int, int, int] | None:
        """The entry point's workgroup size (None: an override it reads has no value)."""
        sizes = []
        for a in attr.args:
            if a.stage == "const":
                sizes.append(int(self.checker.value(a)))
            elif self.pipeline is None:
                raise self.refuse(a.span, "a workgroup size given by an override")
            else:
                sizes.append(workgroup_dimension(self.pipeline, a))
        return None if None in sizes else tuple(sizes + [1] * (3 - len(sizes)))

    def local_name(self, decl: ast.VarDecl | ast.Param) -> str:
        """A Python name for a WGSL local: its own unless Python or the module already uses
        it (WGSL lets a block shadow a name; Python's function scope does not)."""
        name, n = decl.name, 1
        while name in self.used or name in self.globals or keyword.iskeyword(name) or \
                name in ("ash", "int"):
            n += 1
            name = f"{decl.name}__{n}"
        self.used.add(name)
        self.names[id(decl)] = name
        return name

    # --- statements -----------------------------------------------------------------------

    def block(self, block: ast.Block) -> list[py.stmt]:
        out: list[py.stmt] = []
        for s in block.body:
            out += self.statement(s)
        return out

    def statement(self, s: ast.Stmt) -> list[py.stmt]:
        method = getattr(self, "s_" + type(s).__name__, None)
        if method is None:
            raise self.refuse(s.span, f"the statement {self.text(s.span).split()[0]!r}")
        return [self.place(node, s.span) for node in method(s)]

    def s_Block(self, s: ast.Block) -> list[py.stmt]:
        return self.block(s)

    def s_AssertStmt(self, s: ast.AssertStmt) -> list[py.stmt]:
        return []

    def s_DeclStmt(self, s: ast.DeclStmt) -> list[py.stmt]:
        decl = s.decl
        if decl.kind == "const":
            return []  # (its uses are const-expressions, evaluated at load)
        t = self.typed.type_of(decl)
        if not (is_value_type(t) or isinstance(t, Pointer)):
            raise self.refuse(decl.span, f"a '{decl.kind}' of type {getattr(t, 'wgsl', t)}")
        value = self.value(decl.init, t) if decl.init is not None else \
            self.constant(zero(t), t, decl.span)
        return [py.Assign([py.Name(self.local_name(decl), py.Store())],
                          self.cell_of(decl, value))]

    def store(self, target: ast.Expr, value: py.expr, once: bool = True) -> py.stmt:
        """A store of ``value`` into ``target``, whose index is evaluated before ``value``
        (left to right); ``once=False``: the target was also read (compound assignment), so
        an index that calls a function, which would run twice, is refused."""
        inner = target.inner if isinstance(target, ast.Paren) else target
        if self.through_pointer(target):
            return self.store_through(target, value, once)
        if isinstance(inner, ast.Ident) and self.storage_value(inner):
            return py.Expr(mark(self.robust("store", [py.Name(self.py_global(inner.name),
                                                              py.Load()),
                                                      py.Constant(0), value]), True))
        if isinstance(inner, ast.Ident) and self.whole_memory(inner):
            return py.Expr(py.Call(py.Name("__ash_store_whole", py.Load()),
                                   [self.reference(inner), value], []))
        if isinstance(inner, ast.Ident):
            load = self.reference(inner)
            if isinstance(load, py.Name):
                return py.Assign([py.Name(load.id, py.Store())], value)
            load.ctx = py.Store()
            return py.Assign([load], value)
        if isinstance(inner, ast.Index) and isinstance(inner.base, ast.Ident) and \
                isinstance(inner.base.type, Reference) and \
                isinstance(inner.base.type.store, Array) and \
                inner.base.type.space not in VALUE_SPACES and \
                (once or not any(isinstance(n, ast.Call) for n in _walk(inner.index))):
            index = self.expr(inner.index, self.want_for(inner.index, scalar_of(
                value_type(inner.index.type)).concrete()))
            return py.Expr(mark(self.robust("store", [self.expr(inner.base), index, value]),
                                never_negative(self.checker, inner.index)))
        return self.store_part(target, value, once)

    def s_Assign(self, s: ast.Assign) -> list[py.stmt]:
        if s.target is None:
            if s.value.stage == "const":
                return []  # (`_ = e` of a const-expression: evaluated at load, no effect)
            return [py.Expr(self.expr(s.value))]
        t = concretize(value_type(s.target.type))
        if s.op == "=":
            return [self.store(s.target, self.value(s.value, t))]
        op = _COMPOUND[s.op]
        first, target = self.hoist_indices(s.target)
        combined = ast.Binary(s.span, op, target, s.value, type=t, stage="runtime")
        return [*first, self.store(target, self.expr(combined, t), once=False)]

    def s_IncDec(self, s: ast.IncDec) -> list[py.stmt]:
        t = concretize(value_type(s.target.type))
        one = ast.Literal(s.span, "int", "1", "", type=t, stage="const")
        self.synthetic.append(one)  # (the evaluator memoizes by id: keep it alive)
        first, target = self.hoist_indices(s.target)
        combined = ast.Binary(s.span, s.op[0], target, one, type=t, stage="runtime")
        return [*first, self.store(target, self.expr(combined, t), once=False)]

    def s_CallStmt(self, s: ast.CallStmt) -> list[py.stmt]:
        return [py.Expr(self.expr(s.call))]

    def s_Return(self, s: ast.Return) -> list[py.stmt]:
        if s.value is None:
            return [py.Return(None)]
        return [py.Return(self.value(s.value, self.current_return))]

    def s_If(self, s: ast.If) -> list[py.stmt]:
        orelse: list[py.stmt] = []
        if isinstance(s.orelse, ast.If):
            orelse = self.statement(s.orelse)
        elif s.orelse is not None:
            orelse = self.block(s.orelse) or [py.Pass()]
        return [py.If(self.expr(s.condition), self.block(s.then) or [py.Pass()], orelse)]

    def s_While(self, s: ast.While) -> list[py.stmt]:
        return [py.While(self.expr(s.condition), self.loop_body(s.body), [])]

    def loop_body(self, body: ast.Block) -> list[py.stmt]:
        return self.block(body) or [py.Pass()]

    def continuing_loop(self, condition: ast.Expr | None, body: ast.Block,
                        continuing: Callable[[], list[py.stmt]]) -> list[py.stmt]:
        """``while True`` whose continuing part runs before each iteration but the first,
        so that ``continue`` runs it too, as WGSL's does. The continuing part is generated
        after the body, whose declarations it may use."""
        flag = f"__first{id(body)}"
        head: list[py.stmt] = []
        if condition is not None:
            head.append(self.place(py.If(py.UnaryOp(py.Not(), self.expr(condition)),
                                         [py.Break()], []), condition.span))
        stmts = self.block(body)
        after = continuing()
        if after:
            head[:0] = [py.If(py.UnaryOp(py.Not(), py.Name(flag, py.Load())), after, []),
                        py.Assign([py.Name(flag, py.Store())], py.Constant(False))]
        start = [py.Assign([py.Name(flag, py.Store())], py.Constant(True))] if after else []
        return [*start, py.While(py.Constant(True), head + stmts or [py.Pass()], [])]

    def s_For(self, s: ast.For) -> list[py.stmt]:
        if (counted := counted_loop(self, s)) is not None:
            return counted
        init = self.statement(s.init) if s.init is not None else []
        return init + self.continuing_loop(
            s.condition, s.body, lambda: self.statement(s.update) if s.update else [])

    def s_Loop(self, s: ast.Loop) -> list[py.stmt]:
        def continuing() -> list[py.stmt]:
            stmts = self.block(s.continuing) if s.continuing is not None else []
            if s.break_if is not None:
                stmts.append(self.place(py.If(self.expr(s.break_if), [py.Break()], []),
                                        s.break_if.span))
            return stmts
        return self.continuing_loop(None, s.body, continuing)

    def s_Jump(self, s: ast.Jump) -> list[py.stmt]:
        if s.kind == "break":
            return [py.Break()]
        if s.kind == "continue":
            return [py.Continue()]
        if s.kind == "discard":  # (WGSL's demote to helper: the invocation goes on)
            return [py.Expr(self.ash_call("discard", []))]
        raise self.refuse(s.span, f"'{s.kind}'")

    def s_Switch(self, s: ast.Switch) -> list[py.stmt]:
        t = concretize(value_type(s.selector.type))
        cases, default, continues = [], None, False
        flag = f"__continue{id(s)}"
        for case in s.cases:
            body = case.body.body
            if body and isinstance(body[-1], ast.Jump) and body[-1].kind == "break":
                body = body[:-1]  # (WGSL's switch does not fall through)
            stmts = self.block(ast.Block(case.body.span, body)) or [py.Pass()]
            if any(isinstance(n, ast.Jump) and n.kind == "break"
                   for inner in body for n in _walk(inner)):
                stmts, more = _breakable(stmts, flag)
                continues = continues or more
            if None in case.selectors:
                default = py.match_case(py.MatchAs(), None, stmts)
                continue
            patterns = [py.MatchValue(self.place(py.Constant(int(self.checker.value(v))),
                                                 v.span)) for v in case.selectors]
            pattern = patterns[0] if len(patterns) == 1 else py.MatchOr(patterns)
            cases.append(py.match_case(pattern, None, stmts))
        subject = py.Call(py.Name("int", py.Load()), [self.expr(s.selector, t)], [])
        match = py.Match(subject, cases + ([default] if default else []))
        if not continues:
            return [match]
        return [py.Assign([py.Name(flag, py.Store())], py.Constant(False)), match,
                py.If(py.Name(flag, py.Load()), [py.Continue()], [])]


def _breakable(body: list[py.stmt], flag: str) -> tuple[list[py.stmt], bool]:
    """A switch clause's statements with a ``break`` inside: in a loop run once, which the
    ``break`` leaves (Python's ``break`` in a ``match`` case would leave the loop around the
    switch); a ``continue`` of the loop around the switch sets ``flag`` and leaves it too.
    Returns the statements and whether a ``continue`` was so rewritten."""
    continues = []

    def rewrite(stmts: list[py.stmt]) -> list[py.stmt]:
        out: list[py.stmt] = []
        for stmt in stmts:
            if isinstance(stmt, py.Continue):
                continues.append(stmt)
                out += [py.Assign([py.Name(flag, py.Store())], py.Constant(True)), py.Break()]
                continue
            if isinstance(stmt, py.If):  # (not into loops: their continue is their own)
                stmt.body, stmt.orelse = rewrite(stmt.body), rewrite(stmt.orelse)
            for case in getattr(stmt, "cases", ()):
                case.body = rewrite(case.body)
            out.append(stmt)
        return out

    loop = py.While(py.Constant(True), [*rewrite(body), py.Break()], [])
    return [loop], bool(continues)


def _of_scalars(t: Array) -> bool:
    """Whether the array ``t`` holds arrays of arrays ... of scalars, vectors or matrices (a
    vector's components: one more axis; a matrix's columns and rows: two)."""
    while isinstance(t, Array):
        t = t.element
    return isinstance(t, (Scalar, Vector, Matrix, Atomic))


def _struct_uses(t: Struct) -> set[str]:
    """The names of the structs ``t``'s members are or hold."""
    out = set()
    for _, member in t.fields:
        while isinstance(member, Array):
            member = member.element
        if isinstance(member, Struct):
            out.add(member.name)
    return out


def _walk(node: Any):
    """Every syntax node under ``node``, not entering nested loops."""
    yield node
    if isinstance(node, (ast.For, ast.While, ast.Loop)):
        return
    for name in getattr(node, "__slots__", ()):
        value = getattr(node, name, None)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, (ast.Stmt, ast.Expr, ast.Case, ast.VarDecl)):
                yield from _walk(child)


def generate(checker: Any, typed: Any, runtime: ModuleType) -> Generator:
    """A generator for ``typed`` (run :meth:`Generator.module` for the tree)."""
    return Generator(checker, typed, runtime)
