"""The parameters of entry points, generated for their stage. A fragment entry point
(:mod:`asyncshader.stages.fragment`) takes its built-in inputs by the runtime's names
(``position``, ``front_facing``, ``sample_index``, ``sample_mask``), its ``@location`` inputs
as per-pixel inputs named as in WGSL (a parameter's name, or for a struct parameter its
members' names, the struct value built in the prologue), and the buffers it uses as keyword
parameters annotated with their module-scope declarations' bindings, so that each fragment
gets its own views of them (a helper invocation's stores are dropped). The helper functions
it calls that reach those buffers are generated again for it (``name__entry``), taking the
buffers as keyword parameters, so they read the fragment's views too. A compute entry point's
struct parameter of built-in values is a parameter per member."""

from __future__ import annotations

import ast as py
import keyword
from dataclasses import dataclass
from typing import Any

from ...ir.types import Struct
from ...stages.compute import COMPUTE_BUILTINS
from ...stages.fragment import FRAGMENT_BUILTINS
from . import syntax as ast
from .codegen_textures import _first_call
from .codegen_values import member_attribute
from .reflect import _idents, _reached


@dataclass(frozen=True)
class FragmentInput:
    """A per-pixel input of a generated fragment entry point: the name a run binds it by,
    its ``@location`` (None for a built-in) and its WGSL type (for messages)."""

    name: str
    location: int | None
    wgsl: str


def _io(attributes: list[ast.Attribute], gen: Any) -> tuple[str | None, int | None]:
    """A parameter's or member's ``@builtin`` name and ``@location``."""
    builtin = location = None
    for a in attributes:
        if a.name == "builtin":
            builtin = a.args[0].name
        elif a.name == "location":
            location = int(gen.checker.value(a.args[0]))
    return builtin, location


class _Parameters:
    """The keyword parameters of one entry point being generated, and its prologue."""

    def __init__(self, gen: Any, builtins: tuple[str, ...], args: py.arguments) -> None:
        self.gen, self.builtins, self.args = gen, builtins, args
        self.prologue: list[py.stmt] = []
        self.inputs: list[FragmentInput] = []

    def parameter(self, name: str, span: Any, annotation: py.expr | None = None) -> None:
        gen = self.gen
        if name in gen.used or keyword.iskeyword(name) or name in ("ash", "int") or (
                name in gen.globals and annotation is None):
            raise gen.refuse(span, f"an entry point input named '{name}' (the name is taken)")
        self.args.kwonlyargs.append(py.arg(name, annotation))
        self.args.kw_defaults.append(None)
        gen.used.add(name)

    def bind_local(self, p: ast.Param, value: py.expr) -> None:
        """The WGSL parameter ``p`` bound to ``value`` in the prologue (an input under its
        own name: nothing to bind)."""
        gen = self.gen
        if isinstance(value, py.Name) and value.id == p.name:
            gen.names[id(p)] = p.name
            return
        local = gen.local_name(p)
        if not (isinstance(value, py.Name) and value.id == local):
            self.prologue.append(gen.place(py.Assign([py.Name(local, py.Store())], value),
                                           p.span))

    def one(self, name: str, attributes: list[ast.Attribute], t: Any, span: Any) -> str:
        """A built-in (by the runtime's name) or a located input (by ``name``); the name of
        its Python parameter."""
        builtin, location = _io(attributes, self.gen)
        if builtin is not None:
            if builtin not in self.builtins:
                raise self.gen.refuse(span, f"the entry point input @builtin({builtin})")
            compute = self.builtins is COMPUTE_BUILTINS  # (typed as the compute stage's)
            self.parameter(builtin, span, self.gen.type_expr(t, span) if compute else None)
            return builtin
        self.parameter(name, span)
        self.inputs.append(FragmentInput(name, location, getattr(t, "wgsl", str(t))))
        return name

    def param(self, p: ast.Param, t: Any) -> None:
        """The WGSL parameter ``p`` of IR type ``t``: one input, or a struct of them (its
        value built in the prologue)."""
        if not isinstance(t, Struct):
            self.bind_local(p, py.Name(self.one(p.name, p.attributes, t, p.span), py.Load()))
            return
        decl = self.gen.typed.resolved.globals.get(t.name)
        members = [self.one(m.name, m.attributes, mt, m.span)
                   for m, (_, mt) in zip(decl.members, t.fields)]
        self.bind_local(p, py.Call(py.Name(t.name, py.Load()), [],
                                   [py.keyword(member_attribute(t, m.name),
                                               py.Name(arg, py.Load()))
                                    for m, arg in zip(decl.members, members)]))


def struct_of_builtins(gen: Any, p: ast.Param, t: Struct, args: py.arguments) -> list[py.stmt]:
    """A compute entry point's struct parameter whose members are built-in values: a keyword
    parameter per member (added to ``args``), and the prologue building the struct value."""
    params = _Parameters(gen, COMPUTE_BUILTINS, args)
    params.param(p, t)
    return params.prologue


_QUAD_OPS = ("quadBroadcast", "quadSwapX", "quadSwapY", "quadSwapDiagonal")


def check_whole_quads(gen: Any, fn: ast.Function, size: tuple[int, int, int] | None) -> None:
    """A compute entry point of ``size`` that is no whole number of quads and reaches a quad
    operation is refused at the call. Valid WGSL (Tint takes it: WGSL sets no divisibility
    for quad operations outside a compute-derivative layout, and a read of a quad member
    that does not exist is indeterminate), but asyncshader's compute quads are four
    consecutive local invocation indices, all present: it forms no partial quad."""
    n = size[0] * size[1] * size[2] if size is not None else 0
    if not n % 4:
        return
    decls = {d.name: d for d in gen.typed.resolved.module.decls if isinstance(d, ast.Function)}
    for name in sorted(_reached(gen.typed.resolved.calls, fn.name)):
        call = _first_call(decls[name].body, _QUAD_OPS) if name in decls else None
        if call is not None:
            raise gen.refuse(call.span, f"{call.callee.name} in the compute entry point "
                             f"'{fn.name}' of {n} invocation{'s' if n > 1 else ''} (valid "
                             "WGSL; its last quad would have fewer than four members, and "
                             "asyncshader's compute quads are four consecutive local "
                             "invocation indices: make the workgroup a multiple of 4)")


def fragment_parameters(gen: Any, fn: ast.Function, types: list[Any]
                        ) -> tuple[py.arguments, list[py.stmt], list[FragmentInput]]:
    """The keyword parameters of the fragment entry point ``fn`` (its parameters' IR types:
    ``types``), the prologue that binds its WGSL parameters, and its per-pixel inputs."""
    params = _Parameters(gen, FRAGMENT_BUILTINS, py.arguments([], [], None, [], [], None, []))
    for p, t in zip(fn.params, types):
        params.param(p, t)
    buffers = _buffers(gen, fn.name)
    for name in buffers:  # (annotated with its declaration's binding)
        params.parameter(name, fn.span, py.Attribute(py.Name(name, py.Load()), "annotation",
                                                     py.Load()))
    gen.variant = (f"__{fn.name}", buffers, _reaching(gen, fn.name, buffers))
    return params.args, params.prologue, params.inputs


def _buffers(gen: Any, entry: str) -> list[str]:
    """The Python names of the buffers, textures and samplers the entry point uses."""
    return [gen.py_global(r.name) for r in gen.reflection.entry_points[entry].resources]


def _reaching(gen: Any, entry: str, buffers: list[str]) -> set[str]:
    """The functions the entry point calls (directly or not) that reach one of ``buffers``
    (directly or through their calls)."""
    calls = gen.typed.resolved.calls
    decls = {d.name: d for d in gen.typed.resolved.module.decls
             if isinstance(d, ast.Function)}
    uses = {name: bool({gen.py_global(i) for i in _idents(decls[name])} & set(buffers))
            for name in decls}
    reached = _reached(calls, entry) - {entry}

    def reaches(name: str, seen: frozenset = frozenset()) -> bool:
        return uses[name] or any(reaches(c, seen | {name}) for c in calls.get(name, ())
                                 if c not in seen)
    return {name for name in reached if reaches(name)}


def helper_call(gen: Any, name: str, args: list[py.expr]) -> py.expr:
    """The call of the user function ``name``: in a fragment entry point and its helpers,
    the helper's variant for the entry point where it reaches the entry point's buffers (they
    are passed on by name)."""
    variant = gen.variant
    if variant is None or name not in variant[2]:
        return py.Call(py.Name(name, py.Load()), args, [])
    suffix, buffers, _ = variant
    return py.Call(py.Name(name + suffix, py.Load()), args,
                   [py.keyword(b, py.Name(b, py.Load())) for b in buffers])


def fragment_helpers(gen: Any) -> list[py.stmt]:
    """For each fragment entry point, its variants of the helpers that reach its buffers."""
    out: list[py.stmt] = []
    decls = {d.name: d for d in gen.typed.resolved.module.decls
             if isinstance(d, ast.Function)}
    for entry in gen.fragments:
        buffers = _buffers(gen, entry)
        reaching = _reaching(gen, entry, buffers)
        for name in sorted(reaching):
            gen.variant = (f"__{entry}", buffers, reaching)
            node = gen.function(decls[name])
            node.name = f"{name}__{entry}"
            if node.name in gen.globals:
                raise gen.refuse(decls[name].span, f"a function named '{node.name}' next to "
                                 f"the fragment entry point '{entry}' calling '{name}'")
            for b in buffers:
                node.args.kwonlyargs.append(py.arg(b, None))
                node.args.kw_defaults.append(None)
            out.append(node)
    gen.variant = None
    return out
