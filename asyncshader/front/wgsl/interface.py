"""Entry-point interfaces and resource declarations (§ Entry points, § Resource interface):
the arguments of ``@group``, ``@binding``, ``@location``, ``@id`` and ``@workgroup_size``; the
types of ``@builtin`` values; which variables need ``@group``/``@binding``; a compute entry
point's ``@workgroup_size``; every entry-point parameter and result given to a ``@builtin`` or
a ``@location``. A mixin of the checker."""

from __future__ import annotations

import re
from typing import Any

from ...ir.builtin_values import BUILTIN_STAGES, BUILTIN_VALUES
from ...ir.layout import check_uniform
from ...ir.types import (
    BOOL,
    F32,
    I32,
    U32,
    Array,
    Atomic,
    Opaque,
    Scalar,
    Struct,
    Vector,
    concretize,
)
from . import syntax as ast
from .consteval import UNKNOWN
from .conversions import constructible, describe, host_shareable, leaf
from .resolve import stage_of
from .source import Span

_IO = ("builtin", "location")


def _slot(decl: ast.VarDecl, value: Any) -> tuple[Any, Any]:
    found = {a.name: a.args[0] for a in decl.attributes
             if a.name in ("group", "binding") and a.args}
    return value(found.get("group")), value(found.get("binding"))


class Interfaces:
    def attributes(self, attributes: list[ast.Attribute]) -> None:
        """The arguments of ``@group``, ``@binding``, ``@location``, ``@id``, ``@blend_src``
        (non-negative integer constants) and ``@workgroup_size`` (one to three positive
        integers of one type, constants or overrides)."""
        for attribute in attributes:
            name = attribute.name
            if name == "workgroup_size":
                types = [self.value_type(a) for a in attribute.args]
                if any(concretize(t) not in (I32, U32) for t in types) or \
                        len({t for t in types if not t.abstract}) > 1:
                    raise self.error(attribute.span, "@workgroup_size takes one to three "
                                     "integers of one type (all i32 or all u32)")
                for arg in attribute.args:
                    self.constant(arg, "@workgroup_size", minimum=1, override=True)
            elif name in ("group", "binding", "location", "id", "blend_src"):
                for arg in attribute.args:
                    t = self.value_type(arg)
                    if concretize(t) not in (I32, U32):
                        raise self.error(arg.span, f"@{name} takes an integer, not "
                                         f"{describe(t)}")
                    self.constant(arg, f"@{name}", minimum=0)

    def builtin_value(self, attributes: list[ast.Attribute], t: Any, span: Span) -> None:
        """A ``@builtin(name)`` parameter, member or result has the type WGSL gives it
        (§ Built-in values)."""
        for attribute in attributes:
            if attribute.name != "builtin" or len(attribute.args) != 1 or \
                    not isinstance(attribute.args[0], ast.Ident):
                continue
            name = attribute.args[0].name
            want = BUILTIN_VALUES.get(name)
            if want is None and name != "clip_distances":
                raise self.error(attribute.span, f"'{name}' is not a WGSL built-in value")
            if name == "clip_distances":
                ok = isinstance(t, Array) and t.element == F32 and isinstance(t.length, int)
                want = Array(F32, 8)
            else:
                ok = t == want
            if not ok:
                raise self.error(span, f"@builtin({name}) is {describe(want)}, not "
                                 f"{describe(t)}")

    def constant(self, arg: ast.Expr, what: str, minimum: int, override: bool = False) -> None:
        if arg.stage == "runtime" or (arg.stage == "override" and not override):
            raise self.error(arg.span, f"{what} takes a const-expression"
                             + (" or an override-expression" if override else ""))
        value = self.value(arg) if arg.stage == "const" else UNKNOWN
        if isinstance(value, int) and value < minimum:
            raise self.error(arg.span, f"{what} must be at least {minimum}, not {value}")

    def check_store_type(self, decl: ast.VarDecl, t: Any, space: str) -> None:
        """What each address space may hold (§ Address spaces)."""
        if isinstance(t, Opaque) and not t.is_handle:
            return  # a buffer<N> (buffer_view): storage, uniform or workgroup bytes
        if space in ("function", "private") and not constructible(t):
            why = "atomics live in storage or workgroup memory" if _has_atomic(t) else \
                "it is not constructible"
            raise self.error(decl.name_span, f"a {space} variable cannot hold {describe(t)} "
                             f"({why})")
        if space in ("storage", "uniform") and not host_shareable(t):
            hint = " (bool has no memory layout a host shares; use u32)" if \
                "bool" in describe(t) or isinstance(t, Struct) else ""
            raise self.error(decl.name_span, f"a {space} buffer cannot hold {describe(t)}: "
                             f"it is not host-shareable{hint}")
        if space == "uniform" and not constructible(t):
            raise self.error(decl.name_span, f"a uniform buffer cannot hold {describe(t)} "
                             "(no atomics or runtime-sized arrays)")
        if space == "uniform" and "uniform_buffer_standard_layout" not in self.required:
            try:
                check_uniform(t, f"var<uniform> {decl.name}")
            except TypeError as error:
                why = re.sub(r"array\((\w+), (\d+)\)", r"array<\1, \2>",
                             str(error).split(" (WGSL)")[0].split(". Fix")[0])
                raise self.error(decl.name_span, f"{why}. Fix: @align(16) on the member, an "
                                 "array of vec4 (or of a struct with @size(16)), or "
                                 "'requires uniform_buffer_standard_layout;'") from None
        if space == "workgroup" and isinstance(t, Opaque):
            raise self.error(decl.name_span, f"workgroup memory cannot hold {describe(t)}")

    def resource(self, decl: ast.VarDecl, t: Any, space: str) -> None:
        """A uniform, storage or handle variable has ``@group`` and ``@binding``; no other
        variable has them, and workgroup memory has no initializer."""
        names = {a.name for a in decl.attributes}
        is_resource = space in ("uniform", "storage") or (
            isinstance(t, Opaque) and t.is_handle)
        if is_resource and not {"group", "binding"} <= names:
            raise self.error(decl.name_span, f"the resource '{decl.name}' needs both @group(n) "
                             "and @binding(n)")
        if not is_resource and names & {"group", "binding"}:
            raise self.error(decl.name_span, f"@group and @binding are for resources (uniform "
                             f"and storage buffers, textures, samplers), not a {space} "
                             "variable")
        if space == "workgroup" and decl.init is not None:
            raise self.error(decl.init.span, "workgroup memory cannot have an initializer "
                             "(it starts zeroed)")

    def entry_point(self, function: ast.Function) -> None:
        """``@workgroup_size`` exactly on compute entry points; each parameter and the result
        of an entry point given to a built-in value or a location."""
        stage = stage_of(function)
        has_size = any(a.name == "workgroup_size" for a in function.attributes)
        if stage == "compute" and not has_size:
            raise self.error(function.name_span, f"compute entry point '{function.name}' needs "
                             "@workgroup_size(x, y, z)")
        if stage != "compute" and has_size:
            raise self.error(function.name_span, "@workgroup_size is only for compute entry "
                             "points")
        if stage is None:
            return
        inputs: list[tuple[str, Any, Span]] = []
        for param in function.params:
            inputs += self.io(param.attributes, self.decl_type(param), param.span,
                              "parameter")
        outputs: list[tuple[str, Any, Span]] = []
        if function.return_type is not None:
            outputs = self.io(function.return_attributes, self.returns,
                              function.return_type.span, "result")
        for direction, found in (("input", inputs), ("output", outputs)):
            seen: set[tuple[str, Any]] = set()
            for kind, key, span in found:
                if (kind, key) in seen:
                    raise self.error(span, f"@{kind}({key}) appears twice among the "
                                     f"{direction}s of entry point '{function.name}'")
                seen.add((kind, key))
                if kind == "builtin" and (stage, direction) not in BUILTIN_STAGES.get(
                        key, {(stage, direction)}):
                    raise self.error(span, f"@builtin({key}) is not a {stage} shader "
                                     f"{direction}")
        if stage == "vertex" and ("builtin", "position") not in {
                (k, key) for k, key, _ in outputs}:
            raise self.error(function.name_span, f"vertex entry point '{function.name}' must "
                             "output @builtin(position)")

    def override_ids(self) -> None:
        """No two overrides share an ``@id``."""
        seen: dict[Any, ast.VarDecl] = {}
        for decl in self.resolved.module.decls:
            if not isinstance(decl, ast.VarDecl) or decl.kind != "override":
                continue
            for attribute in decl.attributes:
                if attribute.name == "id" and attribute.args:
                    key = self.value(attribute.args[0])
                    other = seen.setdefault(key, decl)
                    if other is not decl and key is not UNKNOWN:
                        raise self.error(attribute.span, f"overrides '{other.name}' and "
                                         f"'{decl.name}' both have @id({key})")

    def per_entry_point(self) -> None:
        """What an entry point reaches through its calls: no two resources at one
        ``@group``/``@binding``, and ``discard`` only in a fragment shader."""
        calls = self.resolved.calls
        for function in self.resolved.entry_points:
            reached, todo = set(), [function.name]
            while todo:
                name = todo.pop()
                if name not in reached:
                    reached.add(name)
                    todo.extend(calls.get(name, ()))
            slots: dict[tuple[Any, Any], ast.VarDecl] = {}
            for name in sorted(reached):
                for decl in self.uses.get(name, {}).values():
                    if not any(a.name == "binding" for a in decl.attributes):
                        continue
                    slot = _slot(decl, lambda e: self.value(e) if e is not None else None)
                    other = slots.setdefault(slot, decl)
                    if other is not decl and UNKNOWN not in slot:
                        raise self.error(decl.name_span, f"'{decl.name}' and '{other.name}' "
                                         f"are both at @group({slot[0]}) @binding({slot[1]}), "
                                         f"and entry point '{function.name}' uses both")
            stage = stage_of(function)
            for name in sorted(reached):
                span = self.discards.get(name)
                if span is not None and stage != "fragment":
                    raise self.error(span, f"'discard' is only for fragment shaders, and "
                                     f"{stage} entry point '{function.name}' reaches it")

    def io(self, attributes: list[ast.Attribute], t: Any, span: Span,
           what: str) -> list[tuple[str, Any, Span]]:
        """The built-in values and locations a parameter or result binds (a struct's members
        each bind one): ``(kind, name or number, span)``."""
        for attribute in attributes:
            if attribute.name == "location":
                if not isinstance(t, (Scalar, Vector)) or leaf(t) == BOOL:
                    raise self.error(span, f"a @location {what} is a number or a vector of "
                                     f"numbers, not {describe(t)}")
                arg = attribute.args[0] if attribute.args else None
                key = f"{self.value(arg) if arg is not None else None}"
                for blend in attributes:  # dual-source blending: two outputs at location 0
                    if blend.name == "blend_src" and blend.args:
                        key += f") @blend_src({self.value(blend.args[0])}"
                return [("location", key, span)]
            if attribute.name == "builtin" and attribute.args and \
                    isinstance(attribute.args[0], ast.Ident):
                return [("builtin", attribute.args[0].name, span)]
        if isinstance(t, Struct):
            decl = self.resolved.globals.get(t.name)
            members = getattr(decl, "members", [])
            if members and all(any(a.name in _IO for a in m.attributes) for m in members):
                return [binding for member, (_, mt) in zip(members, t.fields)
                        for binding in self.io(member.attributes, mt, member.span, "member")]
        raise self.error(span, f"an entry point's {what} needs @builtin(...) or "
                         "@location(n) (or a struct whose members all have one)")

def _has_atomic(t: Any) -> bool:
    if isinstance(t, Atomic):
        return True
    if isinstance(t, Array):
        return _has_atomic(t.element)
    if isinstance(t, Struct):
        return any(_has_atomic(m) for _, m in t.fields)
    return False
