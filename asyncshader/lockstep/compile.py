"""Lockstep's compiler: a typed WGSL module (the front-end's checked tree) and one compute
entry point to a Python function whose every operation runs on all lanes at once.

Control flow runs under active masks (:mod:`.lanes`): an ``if`` runs its branches, each for
its lanes (skipped when none); a loop repeats while any lane is in it; ``break``,
``continue`` and ``return`` take lanes out (each has a mask of the lanes that took it: a
construct's statements after one run without them). Functions become Python functions taking
the caller's mask. Constructs outside this slice are refused at compile time with the WGSL
``file:line:col`` and "not supported by Lockstep: <construct>" (docs/lockstep.md).
"""

from __future__ import annotations

import ast as py
from dataclasses import dataclass, field
from typing import Any

from .._core.sources import register_source
from ..front.wgsl import syntax as ast
from ..front.wgsl.source import Span, WGSLError, error_at
from ..ir.layout import size_of
from ..ir.types import (
    Array,
    Atomic,
    Matrix,
    Pointer,
    Scalar,
    Struct,
    Vector,
    concretize,
    scalar_of,
)
from .exprs import Expressions, Ref, value_type
from .pipelines import dimension, sized
from .texture_calls import TextureCalls, handle_type

_COMPOUND = {"+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "&=": "&", "|=": "|",
             "^=": "^", "<<=": "<<", ">>=": ">>"}
#: the compute built-in values Lockstep gives an entry point
BUILTINS = ("global_invocation_id", "local_invocation_id", "local_invocation_index",
            "workgroup_id", "num_workgroups", "workgroup_index", "global_invocation_index",
            "subgroup_invocation_id", "subgroup_size", "subgroup_id", "num_subgroups")


@dataclass
class Program:
    """A compiled entry point: its Python code (``entry(M)`` in a namespace that binds the
    memory and the built-in values), the workgroup size, the module-scope variables by
    WGSL name (space, access, store type) and the workgroup variables' sizes in words."""

    code: Any
    namespace: dict
    workgroup_size: tuple[int, int, int]
    variables: dict[str, tuple[str, str, Any]]
    workgroup_words: dict[str, int] = field(default_factory=dict)
    builtins: set[str] = field(default_factory=set)
    #: the overrides it reads: WGSL name -> (pipeline-constant key: @id or name, type,
    #: initializer's value or None)
    overrides: dict[str, tuple[str, Any, Any]] = field(default_factory=dict)


class Compiler(Expressions, TextureCalls):
    #: the stage of the entry points this compiler takes (:mod:`.fragments` has the other)
    stage = "compute"
    #: whether accesses go through the race detector's recorder (:mod:`.watch`)
    watching = False
    #: the pipeline the override-expressions of sizes are evaluated in (:mod:`.pipelines`)
    pipeline: Any = None

    def __init__(self, checker: Any, typed: Any) -> None:
        self.checker, self.typed = checker, typed
        self.source = typed.resolved.source
        self.namespace: dict[str, Any] = {}
        self.memory: dict[int, tuple[str, str]] = {}  # id(var) -> (Words name, base address)
        self.locals: dict[int, str] = {}
        self.variables: dict[str, tuple[str, str, Any]] = {}
        self.workgroup_words: dict[str, int] = {}
        self.lines: list[str] = []
        self.line_of: list[int] = []  # the WGSL line each line of Python comes from
        self.wgsl_line = 1
        self.depth = 0
        self.mask = "M"
        self.exits: list[str] = []
        self.breaks: list[str] = []
        self.continues: list[str] = []
        self.count = 0
        self.called: set[str] = set()
        self.builtins_used: set[str] = set()
        self.overrides: dict[str, tuple[str, Any, Any]] = {}
        self.pointers: dict[int, Ref] = {}  # id(param or let) -> the memory it points to
        self.private_inits: list[str] = []
        self.reached: set[str] = set()  # the module-scope variables the entry point uses
        self.handles: dict[int, str] = {}  # id(texture or sampler var) -> its WGSL name

    # --- positions and refusals -----------------------------------------------------------

    def refuse(self, span: Span, construct: str) -> WGSLError:
        return error_at(self.source, span, f"not supported by Lockstep: {construct}")

    def text(self, span: Span) -> str:
        return self.source.text[span.start:span.end]

    def where(self, span: Span) -> str:
        line, col = self.source.line_col(span.start)
        return f"{self.source.name}:{line}:{col}"

    def temp(self, stem: str = "t") -> str:
        self.count += 1
        return f"_{stem}{self.count}"

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)
        self.line_of.append(self.wgsl_line)

    # --- the module -----------------------------------------------------------------------

    def compile(self, entry: str) -> Program:
        decls = self.typed.resolved.module.decls
        functions = {d.name: d for d in decls if isinstance(d, ast.Function)}
        if entry not in functions or not any(a.name == self.stage
                                             for a in functions[entry].attributes):
            raise WGSLError(f"{self.source.name}: no {self.stage} entry point {entry!r}",
                            self.source.name)
        for decl in decls:
            if isinstance(decl, ast.VarDecl) and decl.kind == "var":
                self.global_var(decl)
        size = self.workgroup_size(functions[entry])
        done: set[str] = set()
        self.function(functions[entry], entry=True)
        done.add(entry)
        while self.called - done:
            name = sorted(self.called - done)[0]
            self.function(functions[name], entry=False)
            done.add(name)
        code = compile(self.positioned(), self.source.name, "exec")
        variables = {k: v for k, v in self.variables.items() if k in self.reached}
        words = {k: v for k, v in self.workgroup_words.items() if k in self.reached}
        return Program(code, self.namespace, size, variables, words, self.builtins_used,
                       self.overrides)

    def positioned(self) -> py.Module:
        """The generated Python with each statement at the WGSL line it comes from, so that a
        traceback or a warning from a run names the WGSL file's line (its text registered in
        ``linecache``, as load_wgsl registers it)."""
        tree = py.parse("\n".join(self.lines) + "\n")
        for node in py.walk(tree):
            if hasattr(node, "lineno") and node.lineno is not None:
                line = self.line_of[node.lineno - 1]
                node.lineno = node.end_lineno = line
                node.col_offset = node.end_col_offset = 0
        register_source(self.source.name, self.source.text)
        return tree

    def workgroup_size(self, fn: ast.Function) -> tuple[int, int, int]:
        attr = next(a for a in fn.attributes if a.name == "workgroup_size")
        sizes = []
        for a in attr.args:
            sizes.append(int(self.checker.value(a)) if a.stage == "const" else
                         dimension(self.pipeline, a, self.refuse))
        return tuple(sizes + [1] * (3 - len(sizes)))

    def global_var(self, decl: ast.VarDecl) -> None:
        t = sized(self.pipeline, self.typed.type_of(decl))
        space, access = self.checker.var_space(decl, t)
        if space == "handle" and handle_type(t) is not None:  # (bound per dispatch: .textures)
            self.handles[id(decl)] = decl.name
            self.variables[decl.name] = (space, access, t)
            return
        if space == "private":  # (one value per lane, for the whole invocation)
            if not _value(t):
                raise self.refuse(decl.span, f"a var<private> of type {t.wgsl}")
            self.locals[id(decl)] = f"P[{decl.name!r}]"
            init = self.expr(decl.init, t) if decl.init is not None else \
                self.zero(t, decl.span)
            self.private_inits.append(f"P[{decl.name!r}] = {init}")
            return
        if space not in ("storage", "uniform", "workgroup"):
            return  # (a use of it is refused: handle variables)
        name = f"g_{decl.name}"
        if space == "workgroup":
            if not _laid_out(t):
                raise self.refuse(decl.span, f"a var<workgroup> of type {t.wgsl}")
            self.workgroup_words[decl.name] = -(-size_of(t) // 4)
            self.memory[id(decl)] = (name, f"wb_{decl.name}")
        else:
            self.memory[id(decl)] = (name, "0")
        self.variables[decl.name] = (space, access, t)

    # --- functions ------------------------------------------------------------------------

    def function(self, fn: ast.Function, entry: bool) -> None:
        """A WGSL function as ``f_NAME(M, args...)``. A pointer parameter into memory is three
        arguments (the words, the address, the in-bounds lanes); one into a function or
        private variable is the variable's value, copied in, and its final value is returned
        after the result (``(result, value, ...)``): WGSL forbids the aliasing that would
        tell the two apart."""
        params, result = self.typed.signatures[fn.name]
        self.wgsl_line = self.source.line_col(fn.span.start)[0]
        names, inout = [], []
        for p, t in zip(fn.params, params):
            if entry:
                self.entry_parameter(p, t)
                continue
            self.count += 1
            if isinstance(t, Pointer) and t.space in ("storage", "uniform", "workgroup"):
                ref = Ref(f"pm{self.count}", f"pa{self.count}", f"po{self.count}", t.store,
                          f"pi{self.count}")
                self.pointers[id(p)] = ref
                names += [ref.mem, ref.at, ref.ok] + ([ref.idx] if self.watching else [])
                continue
            if isinstance(t, Pointer) and t.space in ("function", "private") and \
                    _value(t.store):
                inout.append(f"p_{p.name}_{self.count}")
            elif not (_value(t) or handle_type(t) is not None):
                raise self.refuse(p.span, f"the parameter {self.text(p.span)!r}")
            self.locals[id(p)] = f"p_{p.name}_{self.count}"
            names.append(self.locals[id(p)])
        header = "entry(M)" if entry else f"f_{fn.name}({', '.join(['M', *names])})"
        self.emit(f"def {header}:")
        self.depth += 1
        self.emit("_ret = False")
        self.emit("_rv = None")
        if entry:
            for line in self.private_inits:
                self.emit(line)
        self.mask, self.exits = "M", ["_ret"]
        self.current_return = concretize(result) if result is not None else None
        self.block(fn.body.body)
        self.emit(f"return {', '.join(['_rv', *inout])}" if inout else "return _rv")
        self.depth -= 1

    def entry_parameter(self, p: ast.Param, t: Any) -> None:
        """A parameter of the entry point: a compute built-in value (``bi_NAME`` in the
        namespace)."""
        builtin = next((a for a in p.attributes if a.name == "builtin"), None)
        if builtin is None or builtin.args[0].name not in BUILTINS:
            raise self.refuse(p.span, f"the parameter {self.text(p.span)!r}")
        self.locals[id(p)] = f"bi_{builtin.args[0].name}"
        self.builtins_used.add(builtin.args[0].name)

    # --- statements -----------------------------------------------------------------------

    def block(self, body: list[ast.Stmt]) -> None:
        """The statements of a block in the current mask; after one that may take lanes
        out, the mask loses them, and the rest runs only if a lane is left."""
        opened = 0
        for s in body:
            self.statement(s)
            if isinstance(s, (ast.Jump, ast.Return)):
                break  # (what follows is unreachable)
            if _jumps(s):
                self.emit(f"{self.mask} = _l.minus({self.mask}, {self.exit_mask()})")
                self.emit(f"if _l.live({self.mask}):")
                self.depth += 1
                opened += 1
        if opened:
            self.emit("pass")
        self.depth -= opened

    def exit_mask(self) -> str:
        code = self.exits[0]
        for x in self.exits[1:]:
            code = f"_l.either({code}, {x})"
        return code

    def statement(self, s: ast.Stmt) -> None:
        method = getattr(self, "s_" + type(s).__name__, None)
        if method is None:
            raise self.refuse(s.span, f"the statement {self.text(s.span).split()[0]!r}")
        outer, self.wgsl_line = self.wgsl_line, self.source.line_col(s.span.start)[0]
        method(s)
        self.wgsl_line = outer

    def s_Block(self, s: ast.Block) -> None:
        self.block(s.body)

    def s_AssertStmt(self, s: ast.AssertStmt) -> None:
        pass

    def s_ConstAssert(self, s: Any) -> None:
        pass

    def s_DeclStmt(self, s: ast.DeclStmt) -> None:
        decl = s.decl
        if decl.kind == "const":
            return  # (its uses are const-expressions)
        t = concretize(self.typed.type_of(decl))
        if isinstance(t, Pointer):
            self.pointer_let(decl, t)
            return
        if not _value(t):
            raise self.refuse(decl.span, f"a '{decl.kind}' of type {getattr(t, 'wgsl', t)}")
        value = self.expr(decl.init, t) if decl.init is not None else self.zero(t, decl.span)
        name = f"v_{decl.name}_{self.count}"
        self.count += 1
        self.emit(f"{name} = {value}")
        self.locals[id(decl)] = name

    def pointer_let(self, decl: ast.VarDecl, t: Pointer) -> None:
        """``let p = &r``: for memory, the address and bounds evaluated now; for a whole
        function or private variable, another name of it."""
        operand = decl.init.inner if isinstance(decl.init, ast.Paren) else decl.init
        if isinstance(operand, ast.Unary) and operand.op == "&":
            target = operand.operand
            if self.is_memory(target):
                ref = self.ref(target)
                at, ok = self.temp("pa"), self.temp("po")
                self.emit(f"{at} = {ref.at}")
                self.emit(f"{ok} = {ref.ok}")
                idx = ref.idx
                if self.watching:  # (the index steps as they are now)
                    idx = self.temp("pi")
                    self.emit(f"{idx} = (lambda _s: lambda: _s)({ref.idx}())")
                self.pointers[id(decl)] = Ref(ref.mem, at, ok, ref.type, idx)
                return
            if isinstance(target, ast.Ident) and id(target.target) in self.locals:
                self.locals[id(decl)] = self.locals[id(target.target)]
                return
        if isinstance(operand, ast.Ident) and id(operand.target) in self.pointers:
            self.pointers[id(decl)] = self.pointers[id(operand.target)]
            return
        if isinstance(operand, ast.Ident) and id(operand.target) in self.locals:
            self.locals[id(decl)] = self.locals[id(operand.target)]
            return
        raise self.refuse(decl.span, f"the pointer {self.text(decl.span)!r}")

    def s_Assign(self, s: ast.Assign) -> None:
        if s.target is None:
            self.emit(self.expr(s.value))
            return
        t = concretize(value_type(s.target.type))
        if s.op == "=":
            self.store(s.target, self.expr(s.value, t))
            return
        combined = ast.Binary(s.span, _COMPOUND[s.op], s.target, s.value, type=t,
                              stage="runtime")
        self.store(s.target, self.expr(combined, t))

    def s_IncDec(self, s: ast.IncDec) -> None:
        t = concretize(value_type(s.target.type))
        one = self.constant(1, t, s.span)
        target = self.expr(s.target)
        self.store(s.target, f"({target} {s.op[0]} {one})")

    def s_CallStmt(self, s: ast.CallStmt) -> None:
        self.emit(self.expr(s.call))

    def s_Return(self, s: ast.Return) -> None:
        if s.value is not None:
            self.emit(f"_rv = _l.put({self.mask}, {self.expr(s.value, self.current_return)}, "
                      "_rv)")
        self.emit(f"_ret = _l.either(_ret, {self.mask})")

    def s_Jump(self, s: ast.Jump) -> None:
        if s.kind == "discard":
            raise self.refuse(s.span, "'discard' (fragment shaders)")
        target = self.breaks[-1] if s.kind == "break" else self.continues[-1]
        self.emit(f"{target} = _l.either({target}, {self.mask})")

    def store(self, target: ast.Expr, value: str) -> None:
        """Stores ``value`` into ``target`` in the current mask's lanes."""
        if self.is_memory(target):
            for line in self.store_memory(self.ref(target), value, target.span):
                self.emit(line)
            return
        chain = []
        e = target
        while isinstance(e, (ast.Member, ast.Index, ast.Paren, ast.Unary)):
            if isinstance(e, (ast.Member, ast.Index)):
                chain.append(e)
            e = e.base if isinstance(e, (ast.Member, ast.Index)) else \
                e.inner if isinstance(e, ast.Paren) else e.operand
        if not (isinstance(e, ast.Ident) and id(e.target) in self.locals):
            raise self.refuse(target.span, f"a store into {self.text(target.span)!r}")
        root = self.locals[id(e.target)]
        self.emit(f"{root} = {self.updated(root, list(reversed(chain)), value)}")

    def updated(self, current: str, chain: list, value: str) -> str:
        """Code for the value ``current`` with the part ``chain`` names replaced by
        ``value`` in the current mask's lanes."""
        if not chain:
            return f"_l.put({self.mask}, {value}, {current})"
        step, rest = chain[0], chain[1:]
        base_t = value_type(step.base.type)
        if isinstance(step, ast.Member) and isinstance(base_t, Struct):
            inner = self.updated(f"{current}[{step.name!r}]", rest, value)
            return f"{{**{current}, {step.name!r}: {inner}}}"
        if isinstance(step, ast.Member) and isinstance(base_t, Vector) and len(step.name) == 1:
            k = "xyzw".index(step.name) if step.name in "xyzw" else "rgba".index(step.name)
            inner = self.updated(f"{current}[{k}]", rest, value)
            return f"_l.with_component(None, {current}, {k}, {inner}, L)"
        if isinstance(step, ast.Index) and isinstance(base_t, (Vector, Array)):
            index = self.temp("i")
            self.emit(f"{index} = {self.expr(step.index, self.want_for(step.index, None))}")
            if isinstance(base_t, Vector):
                inner = self.updated(f"_l.component({current}, {index}, L)", rest, value)
                return f"_l.with_component(None, {current}, {index}, {inner}, L)"
            inner = self.updated(f"_l.array_get({current}, {index}, L)", rest, value)
            return f"_l.array_set({current}, {index}, {inner}, L)"
        raise self.refuse(step.span, f"a store into {self.text(step.span)!r}")

    # --- control flow ---------------------------------------------------------------------

    def branch(self, mask: str, body: list[ast.Stmt]) -> None:
        """``body`` in the lanes of ``mask`` (skipped when it has none)."""
        self.emit(f"if _l.live({mask}):")
        self.depth += 1
        outer, self.mask = self.mask, mask
        self.block(body)
        self.emit("pass")
        self.mask = outer
        self.depth -= 1

    def s_If(self, s: ast.If) -> None:
        c = self.temp("c")
        self.emit(f"{c} = _l.cond({self.expr(s.condition)})")
        then = self.temp("m")
        self.emit(f"{then} = _l.both({self.mask}, {c})")
        self.branch(then, s.then.body)
        if s.orelse is not None:
            other = self.temp("m")
            self.emit(f"{other} = _l.minus({self.mask}, {c})")
            body = [s.orelse] if isinstance(s.orelse, ast.If) else s.orelse.body
            self.branch(other, body)

    def s_Switch(self, s: ast.Switch) -> None:
        t = concretize(value_type(s.selector.type))
        selector = self.temp("s")
        self.emit(f"{selector} = {self.expr(s.selector, t)}")
        done = self.temp("sw")
        self.emit(f"{done} = False")
        values = [int(self.checker.value(v)) for case in s.cases for v in case.selectors
                  if v is not None]
        self.breaks.append(done)
        self.exits.append(done)
        for case in s.cases:
            mask = self.temp("m")
            if None in case.selectors:
                listed = " | ".join(f"({selector} == {self.constant(v, t, s.span)})"
                                    for v in values) or "np.False_"
                self.emit(f"{mask} = _l.minus({self.mask}, _l.cond({listed}))")
            else:
                mine = " | ".join(
                    f"({selector} == {self.constant(int(self.checker.value(v)), t, v.span)})"
                    for v in case.selectors)
                self.emit(f"{mask} = _l.both({self.mask}, _l.cond({mine}))")
            self.branch(mask, case.body.body)
        self.breaks.pop()
        self.exits.pop()

    def s_While(self, s: ast.While) -> None:
        self.loop_span = s.span
        self.loop(s.condition, s.body.body, [], None)

    def s_For(self, s: ast.For) -> None:
        if s.init is not None:
            self.statement(s.init)
        self.loop_span = s.span
        self.loop(s.condition, s.body.body, [s.update] if s.update is not None else [], None)

    def s_Loop(self, s: ast.Loop) -> None:
        continuing = s.continuing.body if s.continuing is not None else []
        self.loop_span = s.span
        self.loop(None, s.body.body, continuing, s.break_if)

    def loop(self, condition: ast.Expr | None, body: list[ast.Stmt],
             continuing: list[ast.Stmt], break_if: ast.Expr | None) -> None:
        """A loop that runs while any lane is in it: ``ml`` holds the lanes still looping,
        ``brk`` those that left it, ``cnt`` those that continued this iteration."""
        ml, brk, cnt, it = self.temp("ml"), self.temp("brk"), self.temp("cnt"), self.temp("m")
        rounds = self.temp("n")
        self.emit(f"{ml} = {self.mask}")
        self.emit(f"{brk} = False")
        self.emit(f"{rounds} = 0")
        self.emit("while True:")
        self.depth += 1
        self.emit(f"{rounds} += 1")
        self.emit(f"if {rounds} > MAX_ITERATIONS:")
        self.emit(f"    _l.endless({ml}, {self.where(self.loop_span)!r}, MAX_ITERATIONS)")
        self.emit(f"{cnt} = False")
        self.emit(f"{it} = {ml}")
        outer = self.mask
        self.mask = it
        if condition is not None:
            c = self.temp("c")
            self.emit(f"{c} = _l.cond({self.expr(condition)})")
            self.emit(f"{brk} = _l.either({brk}, _l.minus({it}, {c}))")
            self.emit(f"{it} = _l.both({it}, {c})")
            self.emit(f"if not _l.live({it}):")
            self.emit("    break")
        self.breaks.append(brk)
        self.continues.append(cnt)
        self.exits += [brk, cnt]
        self.block(body)
        self.exits = self.exits[:-1]  # (continued lanes run the continuing part)
        self.breaks.pop()
        self.continues.pop()
        left = f"_l.either({brk}, _ret)"
        if continuing or break_if is not None:
            going = self.temp("m")
            self.emit(f"{going} = _l.minus({ml}, {left})")
            self.mask = going
            self.block(continuing)
            if break_if is not None:
                self.emit(f"{brk} = _l.either({brk}, _l.both({going}, "
                          f"_l.cond({self.expr(break_if)})))")
        self.exits.pop()
        self.emit(f"{ml} = _l.tidy(_l.minus({ml}, {left}))")
        self.emit(f"if not _l.live({ml}):")
        self.emit("    break")
        self.depth -= 1
        self.mask = outer


def _value(t: Any) -> bool:
    """Whether a local of type ``t`` can hold its value over lanes."""
    if isinstance(t, (Scalar, Vector)):
        return scalar_of(t).name in ("f32", "f16", "i32", "u32", "bool")
    if isinstance(t, Struct):
        return all(_value(m) for _, m in t.fields)
    if isinstance(t, Array):
        return isinstance(t.length, int) and _value(t.element)
    return isinstance(t, Matrix) and t.scalar.name == "f32"


def _laid_out(t: Any) -> bool:
    if isinstance(t, Atomic):
        return True
    if isinstance(t, Array):
        return isinstance(t.length, int) and _laid_out(t.element)
    if isinstance(t, Struct):
        return all(_laid_out(m) for _, m in t.fields)
    return _value(t)


def _jumps(s: Any) -> bool:
    """Whether ``s`` holds a ``break``, ``continue`` or ``return`` (at any depth)."""
    if isinstance(s, (ast.Jump, ast.Return)):
        return True
    for name in getattr(s, "__slots__", ()):
        value = getattr(s, name, None)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, (ast.Stmt, ast.Case)) and _jumps(child):
                return True
    return False


__all__ = ["BUILTINS", "Compiler", "Program", "Ref"]
