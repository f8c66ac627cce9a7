"""The parameters of a fragment entry point, generated for the fragment stage
(:mod:`asyncshader.stages.fragment`): its built-in inputs by the runtime's names
(``position``, ``front_facing``, ``sample_index``, ``sample_mask``), its ``@location`` inputs
as per-pixel inputs named as in WGSL (a parameter's name, or for a struct parameter its
members' names, the struct value built in the prologue), and the buffers it uses as keyword
parameters annotated with their module-scope declarations' bindings, so that each fragment
gets its own views of them (a helper invocation's stores are dropped)."""

from __future__ import annotations

import ast as py
import keyword
from dataclasses import dataclass
from typing import Any

from ...ir.types import Struct
from ...stages.fragment import FRAGMENT_BUILTINS
from . import syntax as ast


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


def fragment_parameters(gen: Any, fn: ast.Function, types: list[Any]
                        ) -> tuple[py.arguments, list[py.stmt], list[FragmentInput]]:
    """The keyword parameters of the fragment entry point ``fn`` (its parameters' IR types:
    ``types``), the prologue that binds its WGSL parameters, and its per-pixel inputs."""
    args = py.arguments([], [], None, [], [], None, [])
    prologue: list[py.stmt] = []
    inputs: list[FragmentInput] = []

    def parameter(name: str, span: Any, annotation: py.expr | None = None) -> None:
        if name in gen.used or keyword.iskeyword(name) or name in ("ash", "int") or (
                name in gen.globals and annotation is None):
            raise gen.refuse(span, f"a fragment input named '{name}' (the name is taken)")
        args.kwonlyargs.append(py.arg(name, annotation))
        args.kw_defaults.append(None)
        gen.used.add(name)

    def bind_local(p: ast.Param, value: py.expr) -> None:
        if isinstance(value, py.Name) and value.id == p.name:  # (the input's own name)
            gen.names[id(p)] = p.name
            return
        local = gen.local_name(p)
        if not (isinstance(value, py.Name) and value.id == local):
            prologue.append(gen.place(py.Assign([py.Name(local, py.Store())], value), p.span))

    def one(name: str, attributes: list[ast.Attribute], t: Any, span: Any) -> str:
        builtin, location = _io(attributes, gen)
        if builtin is not None:
            if builtin not in FRAGMENT_BUILTINS:
                raise gen.refuse(span, f"the fragment input @builtin({builtin})")
            parameter(builtin, span)
            return builtin
        parameter(name, span)
        inputs.append(FragmentInput(name, location, getattr(t, "wgsl", str(t))))
        return name

    for p, t in zip(fn.params, types):
        if isinstance(t, Struct):
            decl = gen.typed.resolved.globals.get(t.name)
            members = [one(m.name, m.attributes, mt, m.span)
                       for m, (_, mt) in zip(decl.members, t.fields)]
            value = py.Call(py.Name(t.name, py.Load()), [],
                            [py.keyword(m.name, py.Name(arg, py.Load()))
                             for m, arg in zip(decl.members, members)])
            bind_local(p, value)
        else:
            bind_local(p, py.Name(one(p.name, p.attributes, t, p.span), py.Load()))
    for r in gen.reflection.entry_points[fn.name].resources:
        if r.min_size is not None:  # (a buffer: its declaration's binding, as an annotation)
            parameter(r.name, fn.span, py.Attribute(py.Name(r.name, py.Load()), "annotation",
                                                    py.Load()))
    return args, prologue, inputs
