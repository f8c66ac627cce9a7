"""WGSL's uniformity analysis (§ Uniformity Analysis), run at the end of type checking: a
barrier (``workgroupBarrier``, ``storageBarrier``, ``textureBarrier``,
``workgroupUniformLoad``), a derivative or implicit-LOD ``textureSample``, or a subgroup or quad
operation that the analysis cannot prove to run in uniform control flow is a diagnostic at
its call, with the chain a compiler (Tint) gives: the statement whose condition splits control
flow and where the non-uniform value comes from ("builtin 'lid' (local_invocation_id) of
'main' may be non-uniform", "reading from read_write storage buffer 'b' ...").

Functions are analysed callees first (:mod:`.uniformity_walk` builds each one's graph); each
gets the spec's tags (call site, return value, parameters, pointer parameters) that its
callers use. Severities follow the diagnostic filters: ``diagnostic(off|info|warning|error,
derivative_uniformity)`` at module scope and ``@diagnostic(...)`` on functions and statements
(likewise ``subgroup_uniformity``); barriers are always errors. An error raises
:class:`~.source.WGSLError`, a warning is a :class:`WGSLWarning` (Python's ``warnings``), an
info is dropped. As with the ``subgroup_uniformity`` language extension (Tint has it), the
analysis runs once per uniformity scope: at workgroup scope for barriers and derivatives, and,
in a module that enables ``subgroups``, at subgroup scope for subgroup and quad operations.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

from ...ir.types import Pointer
from . import syntax as ast
from .behaviour import NEXT, of_block
from .resolve import stage_of
from .source import Span, WGSLError
from .uniformity_walk import (
    MAY_BE_NON_UNIFORM,
    SPLIT,
    FunctionWalk,
    Graph,
    Requirement,
    is_read_write_storage_texture,
)

SEVERITIES = ("error", "warning", "info", "off")
#: the filterable triggering rules (§ Filterable Triggering Rules)
RULES = ("derivative_uniformity", "subgroup_uniformity")
BARRIERS = frozenset(("workgroupBarrier", "storageBarrier", "textureBarrier"))
#: the built-ins that compute a derivative (textureSample and friends implicitly)
DERIVATIVES = frozenset(("dpdx", "dpdxCoarse", "dpdxFine", "dpdy", "dpdyCoarse", "dpdyFine",
                         "fwidth", "fwidthCoarse", "fwidthFine", "textureSample",
                         "textureSampleBias", "textureSampleCompare"))
#: the built-in values uniform in the workgroup (§ Uniformity Rules for Expressions)
UNIFORM_BUILTIN_VALUES = frozenset(("workgroup_id", "num_workgroups", "num_subgroups"))
#: the subgroup operations whose function tag is NoRestriction at subgroup scope
SUBGROUP_UNIFORM_RESULTS = frozenset(
    "subgroupAdd subgroupAll subgroupAnd subgroupAny subgroupBallot subgroupBroadcast "
    "subgroupBroadcastFirst subgroupMax subgroupMin subgroupMul subgroupOr subgroupXor".split())
_SHUFFLE_OPERAND = {"subgroupShuffleUp": "delta", "subgroupShuffleDown": "delta",
                    "subgroupShuffleXor": "mask"}
_HINT = {None: "execute it in uniform control flow: move it out of the branch, or make the "
               "condition uniform (a value shared by the workgroup: workgroupUniformLoad)",
         "derivative_uniformity": "move it out of the branch, or filter the rule: "
                                  "@diagnostic(off, derivative_uniformity)",
         "subgroup_uniformity": "move it out of the branch, or filter the rule: "
                                "@diagnostic(off, subgroup_uniformity)"}


class WGSLWarning(UserWarning):
    """A WGSL compiler's warning: a uniformity failure a diagnostic filter made a warning,
    an unknown diagnostic rule."""


@dataclass
class Required:
    """A uniformity requirement a function puts on its callers: ``severity`` and ``rule``
    (the diagnostic rule, None for a barrier's), the collective operation behind it
    (``cause``), the diagnostic's place and message, and the notes of the chain so far."""

    severity: str
    rule: str | None
    cause: str
    span: Span
    message: str
    notes: list[tuple[Span, str]] = field(default_factory=list)


@dataclass
class PointerTag:
    """A function address space pointer parameter: whether the call may leave non-uniform
    contents, whether the previous contents reach the new ones (``keeps``), and which
    arguments (``sources``) and other pointer arguments' contents (``contents``) they
    depend on."""

    non_uniform: bool = False
    keeps: bool = False
    sources: list[int] = field(default_factory=list)
    contents: list[int] = field(default_factory=list)


@dataclass
class ParamTag:
    """A parameter's tags: required uniform (its value; a pointer's contents), and whether
    the return value depends on it (ParameterReturnContentsRequiredToBeUniform)."""

    required: Required | None = None
    contents_required: Required | None = None
    returned: bool = False
    pointer: PointerTag | None = None


@dataclass
class Tags:
    """A function's call site tag (None: CallSiteNoRestriction), function tag (whether its
    return value may be non-uniform) and parameter tags."""

    call_site: Required | None = None
    returns_non_uniform: bool = False
    params: list[ParamTag] = field(default_factory=list)


def check_uniformity(checker: Any) -> None:
    """Runs the uniformity analysis on a type-checked module (a :class:`~.check.Checker`
    that has run); raises :class:`~.source.WGSLError` at the first uniformity error. The
    checker's ``uniformity`` may make errors warnings (``"warning"``: a test that wants to
    watch a non-uniform barrier diverge at run time) or skip the analysis (``"off"``)."""
    if checker.uniformity != "off":
        Analysis(checker, "workgroup").run()
        if any(d.kind == "enable" and "subgroups" in d.names
               for d in checker.resolved.module.directives):
            Analysis(checker, "subgroup").run()


class Analysis:
    """The analysis at one uniformity scope: ``"workgroup"`` (barriers, derivatives) or
    ``"subgroup"`` (subgroup and quad operations; ``subgroup_id`` is uniform there, and the
    reductions' results are as uniform as their arguments)."""

    def __init__(self, checker: Any, scope: str = "workgroup") -> None:
        self.checker = checker
        self.scope = scope
        self.resolved = checker.resolved
        self.source = checker.source
        self.tags: dict[str, Tags] = {}
        directives = [d for d in self.resolved.module.directives if d.kind == "diagnostic"]
        self.global_filters = self.filters(
            [(d.names[0], d.names[1], d.span) for d in directives])

    def run(self) -> None:
        for function in self.callees_first():
            self.tags[function.name] = self.function(function)

    def callees_first(self) -> list[ast.Function]:
        functions = {d.name: d for d in self.resolved.module.decls
                     if isinstance(d, ast.Function)}
        order: list[ast.Function] = []
        done: set[str] = set()
        for name in functions:
            stack = [(name, iter(self.resolved.calls.get(name, ())))]
            done.add(name)
            while stack:  # iterative depth-first: call chains can be long
                current, callees = stack[-1]
                callee = next(callees, None)
                if callee is None:
                    stack.pop()
                    order.append(functions[current])
                elif callee in functions and callee not in done:
                    done.add(callee)
                    stack.append((callee, iter(self.resolved.calls.get(callee, ()))))
        return order

    # --- diagnostic filters ---------------------------------------------------------------

    def filters(self, controls: list[tuple[str, str, Span]]) -> dict[str, str]:
        """The rules' new severities of one place's diagnostic controls, checked."""
        found: dict[str, str] = {}
        for severity, rule, span in controls:
            if severity not in SEVERITIES:
                raise self.error(span, f"unknown diagnostic severity '{severity}': use "
                                 "error, warning, info or off")
            if found.get(rule, severity) != severity:
                raise self.error(span, f"conflicting diagnostic filters for '{rule}' here "
                                 f"('{found[rule]}' and '{severity}'): keep one")
            if "." not in rule and rule not in RULES:
                warnings.warn(WGSLWarning(self.text("warning", span, f"unknown diagnostic "
                                                    f"rule '{rule}' (WGSL's rules: "
                                                    f"{', '.join(RULES)})")), stacklevel=2)
            found[rule] = severity
        return found

    def filters_of(self, attributes: list[ast.Attribute]) -> dict[str, str]:
        return self.filters([(a.args[0].name, a.args[1].name, a.span) for a in attributes
                             if a.name == "diagnostic" and len(a.args) == 2])

    # --- facts the walk asks for ----------------------------------------------------------

    def keyword(self, span: Span) -> Span:
        """The span of the keyword a statement starts with (where a compiler points)."""
        text, end = self.source.text, span.start
        while end < span.end and (text[end].isalnum() or text[end] == "_"):
            end += 1
        return Span(span.start, max(end, span.start + 1))

    def non_uniform_memory(self, root: Any, function: ast.Function) -> str | None:
        """Why reading ``root``'s memory may give a non-uniform value (None: it does not):
        mutable module-scope variables and the memory behind non-read-only pointer
        parameters outside the function address space."""
        checker = self.checker
        if isinstance(root, ast.VarDecl) and root.kind == "var" and checker.is_global(root):
            space, access = checker.var_space(root)
            if space in ("uniform", "handle", "immediate") or access == "read":
                return None
            what = {"storage": f"{access} storage buffer", "workgroup": "workgroup storage "
                    "variable"}.get(space, f"module-scope {space} variable")
            return f"reading from {what} '{root.name}' may result in a non-uniform value"
        if isinstance(root, ast.Param):
            t = checker.types.get(id(root))
            if isinstance(t, Pointer) and t.access != "read":
                return (f"reading from the {t.space} memory behind pointer parameter "
                        f"'{root.name}' of '{function.name}' may result in a non-uniform value")
        return None

    def builtin_call(self, walk: FunctionWalk, e: ast.Call, args: list[int], cf: int) -> int:
        """A built-in function's call (§ Uniformity Rules for Function Calls: the
        exceptions to "no restriction, the result as uniform as the arguments"), at this
        analysis's scope: barriers and derivatives need workgroup uniformity, subgroup and
        quad operations subgroup uniformity."""
        name, g = e.callee.name, walk.graph
        subgroup = self.scope == "subgroup"
        message = f"'{name}' must only be called from {'subgroup ' * subgroup}uniform " \
            "control flow"
        if name in BARRIERS or name == "workgroupUniformLoad":
            if not subgroup:
                walk.require("error", None, cf, e.span, message, name)
                if name == "workgroupUniformLoad":
                    walk.require("error", None, args[0], e.args[0].span, "the pointer given "
                                 "to 'workgroupUniformLoad' must be a uniform value", name)
            return cf  # (workgroupUniformLoad's value is uniform: that is the point of it)
        rule = "derivative_uniformity" if name in DERIVATIVES else "subgroup_uniformity" \
            if name.startswith(("subgroup", "quad")) else None
        if rule is not None and (rule == "subgroup_uniformity") == subgroup:
            severity = walk.severity(rule)
            walk.require(severity, rule, cf, e.span, message, name)
            operand = _SHUFFLE_OPERAND.get(name)
            if operand is not None and len(args) > 1:
                walk.require(severity, rule, args[1], e.args[1].span,
                             f"the {operand} of '{name}' must be a uniform value", name)
        if subgroup and name in SUBGROUP_UNIFORM_RESULTS:
            return g.join(cf, *args)
        if rule is not None or (name.startswith("atomic") and name != "atomicStore") or (
                name == "textureLoad" and e.args and
                is_read_write_storage_texture(e.args[0].type)):
            return g.node(cf, g.source(e.span, f"return value of '{name}' may be "
                                       "non-uniform"))
        return g.join(cf, *args)

    # --- one function ---------------------------------------------------------------------

    def entry_input(self, g: Graph, function: ast.Function, param: ast.Param,
                    stage: str) -> int:
        """An entry point's parameter: uniform built-in values are, the rest is not."""
        members = [(param.name, param.attributes)]
        struct = param.type.target
        while isinstance(struct, ast.Alias):
            struct = struct.type.target
        if isinstance(struct, ast.Struct):
            members = [(f"{param.name}.{m.name}", m.attributes) for m in struct.members]
        for name, attributes in members:
            builtin = next((a.args[0].name for a in attributes
                            if a.name == "builtin" and a.args), None)
            if builtin is None:
                return g.source(param.span, f"user-defined input '{name}' of "
                                f"'{function.name}' may be non-uniform")
            if builtin not in UNIFORM_BUILTIN_VALUES and not (
                    builtin == "subgroup_size" and stage == "compute") and not (
                    builtin == "subgroup_id" and self.scope == "subgroup"):
                return g.source(param.span, f"builtin '{name}' ({builtin}) of "
                                f"'{function.name}' may be non-uniform")
        return g.node()

    def function(self, function: ast.Function) -> Tags:
        walk = FunctionWalk(self, function)
        g = walk.graph
        cf_start = g.node()
        stage = stage_of(function)
        params, contents = [], {}
        for i, p in enumerate(function.params):
            node = self.entry_input(g, function, p, stage) if stage else g.node()
            params.append(node)
            walk.lets[id(p)] = node
            t = self.checker.types.get(id(p))
            if isinstance(t, Pointer) and t.space == "function":
                contents[i] = walk.state[id(p)] = g.node()  # desugared to a local variable
        if function.return_type is not None:
            walk.value_return = g.node()
        walk.statement(function.body, cf_start)  # (with its @diagnostic filters)
        if NEXT in of_block(function.body.body):
            walk.returns.append(dict(walk.state))
        tags = Tags(params=[ParamTag() for _ in function.params])
        self.requirements(walk, cf_start, params, contents, tags)
        if walk.value_return is not None:
            reach = _reach(g, [walk.value_return])
            tags.returns_non_uniform = MAY_BE_NON_UNIFORM in reach
            for i, n in enumerate(params):
                tags.params[i].returned = n in reach or contents.get(i) in reach
        for i, own in contents.items():
            key = id(function.params[i])
            after = g.join(*(s[key] for s in walk.returns)) if walk.returns else g.node()
            reach = _reach(g, [after])
            tags.params[i].pointer = PointerTag(
                MAY_BE_NON_UNIFORM in reach, own in reach,
                [j for j, n in enumerate(params) if n in reach],
                [j for j, n in contents.items() if n in reach and j != i])
        return tags

    def requirements(self, walk: FunctionWalk, cf_start: int, params: list[int],
                     contents: dict[int, int], tags: Tags) -> None:
        """Phase two: what RequiredToBeUniform.S reaches, per severity: MayBeNonUniform is
        a uniformity failure; the start of the function or a parameter, a tag."""
        visited: set[int] = set()
        for severity in ("error", "warning", "info"):
            reached = []
            for r in (r for r in walk.requirements if r.severity == severity):
                nodes = _reach(walk.graph, [r.node], visited)
                if MAY_BE_NON_UNIFORM in nodes:
                    self.fail(walk, r)
                    break
                reached.append((r, nodes))
            else:
                for r, nodes in reached:
                    self.tag(walk, r, nodes, cf_start, params, contents, tags)

    def tag(self, walk: FunctionWalk, r: Requirement, nodes: set[int], cf_start: int,
            params: list[int], contents: dict[int, int], tags: Tags) -> None:
        def required(i: int | None = None, what: str = "") -> Required:
            notes = list(r.notes)
            if i is not None:
                node = params[i] if not what else contents[i]
                param = walk.function.params[i]
                notes += [*walk.graph.splits(r.node, node),
                          (param.span, f"{what}parameter '{param.name}' of "
                           f"'{walk.function.name}' may be non-uniform")]
            return Required(r.severity, r.rule, r.cause, r.span, r.message, notes)

        if cf_start in nodes and tags.call_site is None:
            tags.call_site = required()
        for i, n in enumerate(params):
            if n in nodes and tags.params[i].required is None:
                tags.params[i].required = required(i)
        for i, n in contents.items():
            if n in nodes and tags.params[i].contents_required is None:
                tags.params[i].contents_required = required(i, "the contents of pointer ")

    # --- diagnostics ----------------------------------------------------------------------

    def error(self, span: Span, message: str) -> WGSLError:
        return WGSLError(self.text("error", span, message), self.source.where(span))

    def text(self, severity: str, span: Span, message: str) -> str:
        return f"{self.source.where(span)}: {severity}: {message}\n{self.source.excerpt(span)}"

    def fail(self, walk: FunctionWalk, r: Requirement) -> None:
        """A uniformity failure of ``r``: the diagnostic with the chain that explains it."""
        g = walk.graph
        path = g.path(r.node) or []
        noted = [g.notes[n] for n in path if g.notes[n] is not None]
        split = next((note for note in noted if note[1] == SPLIT), None)
        origin = next((note for note in reversed(noted) if note[1] != SPLIT), None)
        notes = r.notes + [note for note in (split, origin) if note is not None]
        text = self.text(r.severity, r.span, r.message)
        for span, sentence in notes:
            text += "\n" + self.text("note", span, sentence)
        text += f"\n    help: {_HINT[r.rule]}"
        if r.severity == "error" and self.checker.uniformity == "error":
            raise WGSLError(text, self.source.where(r.span))
        if r.severity != "info":
            warnings.warn(WGSLWarning(text), stacklevel=2)


def _reach(g: Graph, starts: list[int], visited: set[int] | None = None) -> set[int]:
    """The nodes reachable from ``starts`` not in ``visited`` (which then holds them)."""
    seen = visited if visited is not None else set()
    found = set()
    queue = [n for n in starts if n not in seen]
    seen.update(queue)
    found.update(queue)
    for n in queue:
        for m in g.edges[n]:
            if m not in seen:
                seen.add(m)
                found.add(m)
                queue.append(m)
    return found
