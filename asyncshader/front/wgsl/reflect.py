"""What a host program sees of a type-checked WGSL module (WebGPU's pipeline reflection): each
entry point's stage, workgroup size and the resources and overrides it reaches through its
calls; each resource's ``@group``/``@binding``, kind, access and the least buffer size a
binding needs (WebGPU's minimum binding size). ``load_wgsl`` binds buffers by it and the
WebGPU device builds its automatic bind group layouts from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...ir.layout import align_of, size_of, stride_of, struct_layout
from ...ir.types import Array, Opaque, Struct
from . import syntax as ast
from .resolve import stage_of


@dataclass(frozen=True)
class Resource:
    """A module-scope resource variable. ``kind``: ``"uniform"``, ``"storage"``,
    ``"texture"``, ``"storage_texture"``, ``"sampler"``, ``"comparison_sampler"`` or
    ``"external_texture"``; ``access``: ``"read"``, ``"write"`` or ``"read_write"`` for storage
    buffers and storage textures, else None; ``type``: its store type (an IR type).
    ``min_size``: the bytes a buffer binding needs at least (with a runtime-sized array: the
    size with one element, as WebGPU counts it); ``stride``: the element stride of its
    runtime-sized array, None when its size is fixed (both None for handles)."""

    name: str
    group: int
    binding: int
    kind: str
    access: str | None
    type: Any
    min_size: int | None
    stride: int | None
    line: int


@dataclass(frozen=True)
class Override:
    """A module-scope ``override``: its name, ``@id`` (None without one), type and default
    value (None without an initializer; an initializer that is an override-expression is
    evaluated when the pipeline's constants are known)."""

    name: str
    id: int | None
    type: Any
    has_default: bool
    line: int


@dataclass(frozen=True)
class EntryPoint:
    """An entry point: ``stage`` is ``"compute"``, ``"fragment"`` or ``"vertex"``;
    ``resources`` and ``overrides`` are those it reaches (directly, through the functions it
    calls, and for overrides through other overrides' initializers and ``@workgroup_size``),
    in declaration order."""

    name: str
    stage: str
    resources: tuple[Resource, ...]
    overrides: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Reflection:
    """A module's entry points (by name, in order), resources and overrides (in declaration
    order)."""

    entry_points: dict[str, EntryPoint]
    resources: tuple[Resource, ...]
    overrides: dict[str, Override]

    def at(self, entry_point: str, group: int, binding: int) -> Resource | None:
        """The resource the entry point uses at ``@group(group) @binding(binding)``, if any
        (several entry points may declare different variables at one slot)."""
        for r in self.entry_points[entry_point].resources:
            if (r.group, r.binding) == (group, binding):
                return r
        return None


def reflect(checker: Any) -> Reflection:
    """The reflection of a module type-checked by ``checker`` (a :class:`.check.Checker`
    that has run)."""
    resolved = checker.resolved
    source = resolved.source
    decls = resolved.module.decls

    def line(span: Any) -> int:
        return source.line_col(span.start)[0]

    resources: dict[int, Resource] = {}
    overrides: dict[str, Override] = {}
    for decl in decls:
        if not isinstance(decl, ast.VarDecl):
            continue
        if decl.kind == "override":
            ids = [int(checker.value(a.args[0])) for a in decl.attributes
                   if a.name == "id" and a.args]
            overrides[decl.name] = Override(decl.name, ids[0] if ids else None,
                                            checker.decl_type(decl), decl.init is not None,
                                            line(decl.name_span))
        elif decl.kind == "var" and any(a.name == "binding" for a in decl.attributes):
            resources[id(decl)] = _resource(checker, decl, line(decl.name_span))
    entry_points = {}
    for function in resolved.entry_points:
        reached = _reached(resolved.calls, function.name)
        names: set[str] = set()
        for fn in (d for d in decls if isinstance(d, ast.Function) and d.name in reached):
            names |= _idents(fn)
        used = [r for key, r in resources.items()
                if r.name in names and resolved.globals.get(r.name) is not None
                and id(resolved.globals[r.name]) == key]
        entry_points[function.name] = EntryPoint(
            function.name, stage_of(function), tuple(used),
            _overrides_reached(names, resolved.globals, overrides), line(function.name_span))
    return Reflection(entry_points, tuple(resources.values()), overrides)


def _resource(checker: Any, decl: ast.VarDecl, line: int) -> Resource:
    t = checker.decl_type(decl)
    slot = {a.name: int(checker.value(a.args[0])) for a in decl.attributes
            if a.name in ("group", "binding") and a.args}
    space, access = checker.var_space(decl, t)
    min_size = stride = None
    if isinstance(t, Opaque):
        if t.name.startswith("texture_storage"):
            kind, access = "storage_texture", t.params[-1] if len(t.params) > 1 else "write"
        elif t.name == "texture_external":
            kind, access = "external_texture", None
        elif t.is_texture:
            kind, access = "texture", None
        else:
            kind, access = ("comparison_sampler" if t.name == "sampler_comparison"
                            else "sampler"), None
    else:
        kind = space
        access = access if space == "storage" else None
        runtime = _runtime_array(t)
        min_size = size_of(t)
        if runtime is not None:
            stride = stride_of(runtime.element)
            if not isinstance(t, Array):  # a struct ending in one: SizeOf counts no element
                min_size = _struct_size_with(t, stride)
    return Resource(decl.name, slot["group"], slot["binding"], kind, access, t, min_size,
                    stride, line)


def _runtime_array(t: Any) -> Array | None:
    if isinstance(t, Array) and t.length is None:
        return t
    if isinstance(t, Struct) and t.fields:
        return _runtime_array(t.fields[-1][1])
    return None


def _struct_size_with(t: Struct, stride: int) -> int:
    """SizeOf a struct whose last member is a runtime-sized array holding one element."""
    layout = struct_layout(t)
    last = layout.members[-1]
    end = last.offset + stride
    align = align_of(t)
    return -(-end // align) * align


def _reached(calls: dict[str, list[str]], name: str) -> set[str]:
    reached, todo = set(), [name]
    while todo:
        n = todo.pop()
        if n not in reached:
            reached.add(n)
            todo.extend(calls.get(n, ()))
    return reached


def _idents(node: Any) -> set[str]:
    """The names of the identifiers bound to module-scope declarations under ``node`` (its
    attributes included)."""
    return {n.target.name for n in ast.walk(node) if isinstance(n, ast.Ident)
            and n.target is not None and hasattr(n.target, "name")}


def _overrides_reached(names: set[str], globals_: dict[str, Any],
                       overrides: dict[str, Override]) -> tuple[str, ...]:
    """The overrides among ``names``, and those their initializers and the declarations
    among ``names`` (``var<workgroup> a: array<f32, N>``) name, transitively."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        n = todo.pop()
        decl = globals_.get(n)
        if n in seen or not isinstance(decl, ast.VarDecl):
            continue
        seen.add(n)
        todo.extend(_idents(decl))
    return tuple(n for n in overrides if n in seen)
