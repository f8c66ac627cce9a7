"""The uniformity graph of one function (§ Uniformity Analysis): the rules for statements,
expressions, function calls and function-scope variables' values (§ Uniformity Rules for
Statements, § Function-scope Variable Value Analysis), as :mod:`.uniformity` runs them.

A node stands for a proposition ("control flow here is uniform", "this value is uniform");
an edge X -> Y says X needs Y. Node 0 is MayBeNonUniform: what has an edge to it cannot be
proven uniform. The nodes a diagnostic quotes carry a note (a span and a sentence): the
statement whose condition splits control flow, the place a non-uniform value comes from.
``for`` and ``while`` are walked as the loops they desugar to (``loop { if !c { break; } ...
continuing { update } }``), ``loop {s}`` as ``loop {s continuing {}}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...ir.types import Opaque, Pointer, Reference
from . import syntax as ast
from .behaviour import BREAK, CONTINUE, NEXT, RETURN, of_statement
from .predeclared import FUNCTION
from .predeclared import Predeclared as Name
from .source import Span

MAY_BE_NON_UNIFORM = 0
SPLIT = "control flow depends on possibly non-uniform value"


class Graph:
    """A uniformity graph: ``edges[n]`` are the nodes ``n`` needs; ``notes[n]`` the
    ``(span, sentence)`` a diagnostic shows for ``n`` (None: none)."""

    def __init__(self) -> None:
        self.edges: list[list[int]] = [[]]
        self.notes: list[tuple[Span, str] | None] = [None]

    def node(self, *needs: int, note: tuple[Span, str] | None = None) -> int:
        self.edges.append(list(needs))
        self.notes.append(note)
        return len(self.edges) - 1

    def join(self, *needs: int) -> int:
        """A node needing each of ``needs`` (the one node itself when there is one)."""
        unique = list(dict.fromkeys(needs))
        return unique[0] if len(unique) == 1 else self.node(*unique)

    def source(self, span: Span, sentence: str) -> int:
        """A value that may be non-uniform, and why."""
        return self.node(MAY_BE_NON_UNIFORM, note=(span, sentence))

    def path(self, start: int, goal: int = MAY_BE_NON_UNIFORM) -> list[int] | None:
        """The nodes from ``start`` to ``goal`` (None: it is not reachable)."""
        parent = {start: start}
        queue = [start]
        for n in queue:
            for m in self.edges[n]:
                if m not in parent:
                    parent[m] = n
                    queue.append(m)
        if goal not in parent:
            return None
        found = [goal]
        while found[-1] != start:
            found.append(parent[found[-1]])
        return found[::-1]

    def splits(self, start: int, goal: int) -> list[tuple[Span, str]]:
        """The notes of the statements that split control flow on the way to ``goal``."""
        return [self.notes[n] for n in self.path(start, goal) or ()
                if self.notes[n] is not None and self.notes[n][1] == SPLIT]


@dataclass
class Requirement:
    """A node required to be uniform (an edge from RequiredToBeUniform.S): ``severity``,
    the diagnostic rule that filters it (None: a barrier's, not filterable), the collective
    operation behind it (``cause``), the diagnostic's place and message (the operation's
    call, even in a callee, as Tint reports it) and the notes of the call chain from it."""

    severity: str
    rule: str | None
    node: int
    span: Span
    message: str
    cause: str
    notes: list[tuple[Span, str]] = field(default_factory=list)


@dataclass
class _Jumps:
    """The states that leave a loop or switch by ``break``, or go to a loop's continuing
    block by ``continue``."""

    is_loop: bool
    breaks: list[dict] = field(default_factory=list)
    continues: list[dict] = field(default_factory=list)


class FunctionWalk:
    """Walks one function's body, building its graph. ``analysis`` (:class:`.uniformity.
    Analysis`) gives the tags of callees, built-ins and the diagnostic filters in force."""

    def __init__(self, analysis: Any, function: ast.Function) -> None:
        self.analysis = analysis
        self.function = function
        self.graph = Graph()
        self.requirements: list[Requirement] = []
        self.state: dict[int, int] = {}  # function-scope variables' values, by id(decl)
        self.lets: dict[int, int] = {}  # let declarations' and parameters' value nodes
        self.pointers: dict[int, tuple] = {}  # pointer lets: (root, index nodes, full)
        self.jumps: list[_Jumps] = []
        self.behaviours: dict[int, frozenset[str]] = {}
        self.filters: list[dict[str, str]] = [analysis.filters_of(function.attributes)]
        self.returns: list[dict] = []  # the variables' values at each return
        self.value_return: int | None = None

    def behaviour(self, s: ast.Stmt) -> frozenset[str]:
        key = id(s)
        if key not in self.behaviours:
            self.behaviours[key] = of_statement(s)
        return self.behaviours[key]

    def severity(self, rule: str) -> str:
        """The severity of ``rule`` here: the nearest enclosing diagnostic filter's."""
        for layer in reversed(self.filters):
            if rule in layer:
                return layer[rule]
        return self.analysis.global_filters.get(rule, "error")

    def require(self, severity: str, rule: str | None, node: int, span: Span, message: str,
                cause: str, notes: list | None = None) -> None:
        if severity != "off":
            self.requirements.append(Requirement(severity, rule, node, span, message, cause,
                                                 notes or []))

    def merge(self, states: list[dict], keys: dict) -> dict:
        """The variables' values where the paths of ``states`` meet (only those of ``keys``,
        the variables in scope there)."""
        if not states:
            return dict(keys)
        return {k: self.graph.join(*(s.get(k, keys[k]) for s in states)) for k in keys}

    # --- statements -----------------------------------------------------------------------

    def block(self, statements: list[ast.Stmt], cf: int) -> int:
        for s in statements:
            cf = self.statement(s, cf)
            if NEXT not in self.behaviour(s):
                break  # the rest is unreachable: not analysed (§ Uniformity Rules)
        return cf

    def statement(self, s: ast.Stmt, cf: int) -> int:
        attributes = getattr(s, "attributes", None)
        if attributes:
            self.filters.append(self.analysis.filters_of(attributes))
        try:
            return getattr(self, "s_" + type(s).__name__)(s, cf)
        finally:
            if attributes:
                self.filters.pop()

    def s_Block(self, s: ast.Block, cf: int) -> int:
        saved = self.state
        cf = self.block(s.body, cf)
        self.state = {k: v for k, v in self.state.items() if k in saved}
        return cf

    def s_AssertStmt(self, s: ast.AssertStmt, cf: int) -> int:
        return cf

    def s_Jump(self, s: ast.Jump, cf: int) -> int:
        if s.kind == "break":
            self.jumps[-1].breaks.append(dict(self.state))
        elif s.kind == "continue":
            next(j for j in reversed(self.jumps) if j.is_loop).continues.append(
                dict(self.state))
        return cf  # discard demotes to a helper invocation: uniformity is unchanged

    def s_DeclStmt(self, s: ast.DeclStmt, cf: int) -> int:
        decl = s.decl
        if decl.kind == "const":
            return cf
        if decl.init is not None and isinstance(decl.init.type, Pointer):
            self.pointers[id(decl)] = self.view(decl.init, cf)  # substituted where used
            return cf
        value = cf if decl.init is None else self.expr(decl.init, cf)  # (var x; is zero)
        if decl.kind == "var":
            self.state[id(decl)] = value
        else:
            self.lets[id(decl)] = value
        return cf

    def s_CallStmt(self, s: ast.CallStmt, cf: int) -> int:
        self.call(s.call, cf)
        return cf

    def s_Return(self, s: ast.Return, cf: int) -> int:
        if s.value is not None and self.value_return is not None:
            self.graph.edges[self.value_return].append(self.expr(s.value, cf))
        self.returns.append(dict(self.state))
        return cf

    def s_Assign(self, s: ast.Assign, cf: int) -> int:
        if s.target is None:
            self.expr(s.value, cf)
            return cf
        value = self.expr(s.value, cf)
        if s.op != "=":
            value = self.graph.join(self.expr(s.target, cf), value)
        self.store(s.target, value, cf)
        return cf

    def s_IncDec(self, s: ast.IncDec, cf: int) -> int:
        self.store(s.target, self.expr(s.target, cf), cf)
        return cf

    def store(self, target: ast.Expr, value: int, cf: int) -> None:
        """An assignment's left-hand side (§ LHSValue): a function-scope variable's next
        value needs the control flow, the value and the indices, and its previous value
        when the assignment is partial."""
        root, indices, full = self.view(target, cf)
        key = id(root)
        if key in self.state:
            needs = [cf, value, *indices] + ([] if full else [self.state[key]])
            self.state[key] = self.graph.join(*needs)

    def s_If(self, s: ast.If, cf: int) -> int:
        value = self.expr(s.condition, cf)
        branch = self.graph.node(value, note=(self.analysis.keyword(s.span), SPLIT))
        saved = self.state
        ends, states = [], []
        for part in (s.then, s.orelse):
            self.state = dict(saved)
            ends.append(branch if part is None else self.statement(part, branch))
            if part is None or NEXT in self.behaviour(part):
                states.append(self.state)
        self.state = self.merge(states, saved)
        if self.behaviour(s) == {NEXT}:
            return cf
        return self.graph.join(*ends)

    def s_Switch(self, s: ast.Switch, cf: int) -> int:
        value = self.expr(s.selector, cf)
        branch = self.graph.node(value, note=(self.analysis.keyword(s.span), SPLIT))
        saved = self.state
        self.jumps.append(_Jumps(is_loop=False))
        ends, states = [], []
        for case in s.cases:
            self.state = dict(saved)
            ends.append(self.statement(case.body, branch))
            if NEXT in self.behaviour(case.body):
                states.append(self.state)
        self.state = self.merge(states + self.jumps.pop().breaks, saved)
        if self.behaviour(s) == {NEXT}:
            return cf
        return self.graph.join(*ends)

    def s_For(self, s: ast.For, cf: int) -> int:
        saved = self.state
        if s.init is not None:
            cf = self.statement(s.init, cf)
        cf = self.statement(_desugared(s, s.condition, s.body, s.update), cf)
        self.state = {k: v for k, v in self.state.items() if k in saved}
        return cf

    def s_While(self, s: ast.While, cf: int) -> int:
        return self.statement(_desugared(s, s.condition, s.body, None), cf)

    def s_Loop(self, s: ast.Loop, cf: int) -> int:
        body = self.behaviour(s.body)
        saved = self.state
        self.jumps.append(_Jumps(is_loop=True))
        if not body & {NEXT, CONTINUE}:  # one iteration at most
            end = self.statement(s.body, cf)
            self.state = self.merge(self.jumps.pop().breaks, saved)
            return cf if body == {BREAK} else end
        head = self.graph.node(cf)
        heads = {k: self.graph.node(v) for k, v in saved.items()}
        self.state = dict(heads)
        end = self.statement(s.body, head)
        jumps = self.jumps[-1]
        self.state = self.merge(([self.state] if NEXT in body else []) + jumps.continues,
                                heads)
        if s.continuing is not None:
            end = self.statement(s.continuing, end)
        if s.break_if is not None:
            value = self.expr(s.break_if, end)
            end = self.graph.node(value, note=(s.break_if.span, SPLIT))
            jumps.breaks.append(dict(self.state))
        self.graph.edges[head].append(end)
        for k, n in heads.items():
            self.graph.edges[n].append(self.state.get(k, n))
        self.jumps.pop()
        self.state = self.merge(jumps.breaks, saved)
        return cf if RETURN not in body else head

    # --- expressions (§ Uniformity Rules for Expressions) ---------------------------------

    def expr(self, e: ast.Expr, cf: int) -> int:
        """The node of ``e``'s value (an RHSValue; a reference is loaded)."""
        if isinstance(e.type, Reference):
            return self.load(e, cf)
        if isinstance(e.type, Pointer):
            root, indices, _ = self.view(e, cf)
            return self.graph.join(self.lets.get(id(root), cf), *indices)
        if isinstance(e, ast.Literal):
            return cf
        if isinstance(e, ast.Ident):
            return self.identifier(e, cf)
        if isinstance(e, ast.Paren):
            return self.expr(e.inner, cf)
        if isinstance(e, ast.Unary):
            return self.expr(e.operand, cf)
        if isinstance(e, ast.Member):
            return self.expr(e.base, cf)
        if isinstance(e, ast.Index):
            return self.graph.join(self.expr(e.base, cf), self.expr(e.index, cf))
        if isinstance(e, ast.Binary):
            left = self.expr(e.left, cf)
            if e.op in ("&&", "||"):
                branch = self.graph.node(left, note=(e.left.span, SPLIT))
                return self.graph.join(left, self.expr(e.right, branch))
            return self.graph.join(left, self.expr(e.right, cf))
        if isinstance(e, ast.Call):
            return self.call(e, cf)
        return cf

    def identifier(self, e: ast.Ident, cf: int) -> int:
        target = e.target
        if isinstance(target, (ast.VarDecl, ast.Param)) and id(target) in self.lets:
            return self.graph.join(cf, self.lets[id(target)])
        return cf  # a const, an override, a type: uniform

    def view(self, e: ast.Expr, cf: int) -> tuple[Any, list[int], bool]:
        """A memory view's root variable (a declaration), the nodes of the indices that
        select its part, and whether it is a full reference (§ Function-scope Variable Value
        Analysis). A pointer ``let`` is replaced by its initializer (§ Pointer Desugaring)."""
        if isinstance(e, ast.Paren):
            return self.view(e.inner, cf)
        if isinstance(e, ast.Unary) and e.op in ("*", "&"):
            return self.view(e.operand, cf)
        if isinstance(e, ast.Ident):
            if id(e.target) in self.pointers:
                return self.pointers[id(e.target)]
            return e.target, [], True
        if isinstance(e, ast.Member):
            root, indices, _ = self.view(e.base, cf)
            return root, indices, False
        if isinstance(e, ast.Index):
            index = self.expr(e.index, cf)
            root, indices, _ = self.view(e.base, cf)
            return root, [*indices, index], False
        if isinstance(e, ast.Call):  # a built-in giving a pointer (bufferView)
            return None, [self.call(e, cf)], False
        return None, [cf], False

    def load(self, e: ast.Expr, cf: int) -> int:
        """The value read from a memory view (the load rule)."""
        root, indices, _ = self.view(e, cf)
        key = id(root)
        if key in self.state:
            return self.graph.join(cf, self.state[key], *indices)
        why = self.analysis.non_uniform_memory(root, self.function)
        if why is not None:
            return self.graph.source(e.span, why)
        return self.graph.join(cf, *indices)

    # --- calls (§ Uniformity Rules for Function Calls) ------------------------------------

    def call(self, e: ast.Call, cf: int) -> int:
        target = e.callee.target
        args, roots = [], []
        for a in e.args:
            if isinstance(a.type, Pointer):  # its view, not its contents
                root, indices, _ = self.view(a, cf)
                args.append(self.graph.join(self.lets.get(id(root), cf), *indices))
            else:
                root = None
                args.append(self.expr(a, cf))
            roots.append(root)
        if isinstance(target, ast.Function):
            return self.user_call(e, target, args, roots, cf)
        if isinstance(target, Name) and target.kind == FUNCTION:
            return self.analysis.builtin_call(self, e, args, cf)
        return self.graph.join(cf, *args)  # a value constructor

    def user_call(self, e: ast.Call, callee: ast.Function, args: list[int], roots: list,
                  cf: int) -> int:
        tags = self.analysis.tags[callee.name]
        g = self.graph
        result = g.node(cf)
        name = callee.name
        if tags.call_site is not None:
            q = tags.call_site
            self.require(q.severity, q.rule, cf, q.span, q.message, q.cause,
                         [*q.notes, (e.span, f"called by '{name}' from "
                                     f"'{self.function.name}'")])
        if tags.returns_non_uniform:
            g.edges[result].append(g.source(e.span, f"return value of '{name}' may be "
                                            "non-uniform"))
        for i, (arg, ptag) in enumerate(zip(args, tags.params)):
            if ptag.required is not None:
                q = ptag.required
                self.require(q.severity, q.rule, arg, q.span, q.message, q.cause,
                             [*q.notes, (e.args[i].span, "possibly non-uniform value passed "
                                         "here")])
            if ptag.returned:
                g.edges[result].append(arg)
            if ptag.pointer is not None:
                self.pointer_argument(e, i, roots, ptag, args, result)
        return result

    def pointer_argument(self, e: ast.Call, i: int, roots: list, ptag: Any, args: list[int],
                         result: int) -> None:
        """A function address space pointer argument: the variable's contents may be
        required uniform, feed the result, and change by the call (Vout(call))."""
        state = self.state
        key = id(roots[i])
        if key not in state:
            return
        before = state[key]
        callee = e.callee.name
        if ptag.contents_required is not None:
            q = ptag.contents_required
            self.require(q.severity, q.rule, before, q.span, q.message, q.cause,
                         [*q.notes, (e.args[i].span, "possibly non-uniform contents passed "
                                     "here")])
        if ptag.returned:
            self.graph.edges[result].append(before)
        tag = ptag.pointer
        needs = [args[j] for j in tag.sources] + ([before] if tag.keeps else []) + \
            [state[id(roots[j])] for j in tag.contents if id(roots[j]) in state]
        if tag.non_uniform:
            needs.append(self.graph.source(e.span, f"'{callee}' may leave non-uniform "
                                           f"contents in '{getattr(roots[i], 'name', '')}'"))
        state[key] = self.graph.join(*needs) if needs else self.graph.node()


def _desugared(s: ast.For | ast.While, condition: ast.Expr | None, body: ast.Block,
               update: ast.Stmt | None) -> ast.Loop:
    """``for``/``while`` as ``loop { if !condition { break; } body continuing { update }
    }`` (the negation does not change uniformity)."""
    statements: list[ast.Stmt] = list(body.body)
    if condition is not None:
        exit_ = ast.Block(condition.span, [ast.Jump(condition.span, "break")])
        statements.insert(0, ast.If(s.span, condition, ast.Block(condition.span, []), exit_))
    inner = ast.Block(body.span, statements, body.attributes)
    continuing = ast.Block(update.span, [update]) if update is not None else None
    return ast.Loop(s.span, inner, continuing, None)


def loaded_store(t: Any) -> Any:
    """A type with the load rule applied (a reference's store type)."""
    return t.store if isinstance(t, Reference) else t


def is_read_write_storage_texture(t: Any) -> bool:
    t = loaded_store(t)
    return isinstance(t, Opaque) and t.name.startswith("texture_storage") and \
        "read_write" in t.params
