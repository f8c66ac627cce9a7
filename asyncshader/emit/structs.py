"""Struct declarations of an emitted module: the structs the shader builds (a fragment output,
a dataclass value) and every ``@ash.struct`` its bindings, workgroup variables and values use,
nested ones first, each member with the ``@align``/``@size`` its WGSL layout needs (the
layout asyncshader gives the struct's numpy dtype, so a struct buffer copies as bytes)."""

from __future__ import annotations

import ast
import dataclasses
from typing import Any

from .atomics import holds_atomic
from .values import E
from .wtypes import Array, Atomic, Scalar, Struct, from_python

__all__ = ["array_value", "declarations", "reachable"]


def reachable(types: list[Any], module: Any) -> list[Struct]:
    """The structs ``types`` contain (members before the structs that hold them), once each
    by name."""
    out: dict[str, Struct] = {}

    def visit(t: Any) -> None:
        t = module.resolved(t)
        if isinstance(t, Array):
            visit(t.element)
        elif isinstance(t, Struct) and t.name not in out:
            for _, ft in t.fields:
                visit(ft)
            out[t.name] = t
    for t in types:
        visit(t)
    return list(out.values())


def declarations(module: Any, structs: list[Struct], output: str | None, as_function: bool
                 ) -> list[str]:
    """The WGSL text of ``structs``; ``output`` (the fragment output struct's name) gets
    ``@location(k)`` members (``@interpolate(flat)`` for integers) unless ``as_function``."""
    out: list[str] = []
    for s in structs:
        members = []
        for k, (fname, ft) in enumerate(s.fields):
            loc = f"@location({k}) " if s.name == output and not as_function else ""
            flat = "@interpolate(flat) " if loc and _kind(module.resolved(ft)) in "iu" else ""
            attrs = s.attrs[k] if s.attrs else ""
            wgsl = module.final(ft, module.entry, fname)
            members.append(f"    {attrs}{loc}{flat}{fname}: {wgsl},")
        out += [f"struct {s.name} {{", *members, "}", ""]
    return out


def _kind(t: Any) -> str:
    s = getattr(t, "scalar", t)
    if isinstance(t, Atomic):
        s = t.scalar
    return s.kind if isinstance(s, Scalar) else "f"


def construct(fx: Any, node: Any, s: Struct) -> Any:
    """``S(a, b, name=c)`` for an ``@ash.struct`` class ``S``: members not given are zero
    (asyncshader's constructor's rule), written ``T()`` as WGSL's zero value."""
    names = [f for f, _ in s.fields]
    _no_atomics(fx, node, s, f"a {s.name} value")
    given = dict(zip(names, node.args)) | {k.arg: k.value for k in node.keywords}
    unknown = sorted(set(given) - set(names))
    if unknown:
        fx.fail(node, f"{s.name}(...) with {', '.join(unknown)}", f"{s.name} has the members "
                f"{', '.join(names)}")
    parts = []
    for fname, ft in s.fields:
        if isinstance(ft, Array) and ft.length is None:
            fx.fail(node, f"a {s.name} value (it ends in a runtime-sized array)", "such a "
                    "struct lives only in a storage buffer: store its members one by one")
        if fname not in given:
            parts.append(f"{module_type(fx, ft, fname)}()")
            continue
        v = fx.value(given[fname])
        fx.module.unify(ft, fx.module.resolved(v.type), given[fname], fx)
        parts.append(v.text)
    fx.module.structs.setdefault(s.name, (None, s))  # (declared even if no binding holds it)
    return E(f"{s.name}({', '.join(parts)})", s)


def load(fx: Any, node: Any) -> Any:
    """``p[i].load()``, asyncshader's copy of a struct element (a plain read of a member
    writes nothing back), or None if ``node`` is no such call: in WGSL a load of ``p[i]`` is a
    value already."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "load") or node.args or \
            node.keywords:
        return None
    base = fx.expr(func.value)
    t = fx.module.resolved(base.type)
    if isinstance(t, Struct):
        _no_atomics(fx, node, t, f"loading the whole {t.name} `{ast.unparse(func.value)}`")
    return E(base.text, t) if isinstance(t, Struct) else None


def _no_atomics(fx: Any, node: Any, s: Struct, what: str) -> None:
    """A struct holding an atomic has no value in WGSL (it is not constructible): neither
    built nor loaded whole."""
    if holds_atomic(fx.module, s):
        fx.fail(node, f"{what} (it holds an atomic, which only the atomic built-ins read and "
                "write)", "read and write its members one by one, the atomic ones with "
                "ash.atomic_load / ash.atomic_store")


def dataclass_value(fx: Any, node: Any, cls: type) -> Any:
    """``Output(a, b)`` for a plain dataclass (a fragment shader's outputs): every field
    given."""
    fields = [f.name for f in dataclasses.fields(cls)]
    given = dict(zip(fields, node.args)) | {k.arg: k.value for k in node.keywords}
    missing = [f for f in fields if f not in given]
    if missing:
        fx.fail(node, f"{cls.__name__}(...) without {', '.join(missing)}", "give every "
                  "field: WGSL structs have no defaults")
    values = [fx.value(given[f]) for f in fields]
    struct = fx.module.struct(cls, [(f, fx.module.resolved(v.type).concrete()
                                       if fx.module.resolved(v.type).abstract else
                                       fx.module.resolved(v.type))
                                      for f, v in zip(fields, values)], node, fx)
    return E(f"{struct.name}({', '.join(v.text for v in values)})", struct)


def module_type(fx: Any, t: Any, name: str) -> str:
    return fx.module.final(t, fx, name)


def array_value(fx: Any, node: ast.Call) -> E | None:
    """``ash.array(E, N)(...)``, a function-scope array value: ``array<E, N>()`` (zero) or
    ``array<E, N>(a, b, ...)``; None if ``node`` is no such call."""
    from ..wgsl.source import resolve
    from ..wgsl.types import ArrayType
    from ..wgsl.types import array as array_type

    inner = node.func
    if not (isinstance(inner, ast.Call) and resolve(inner.func, fx.scope) is array_type):
        return None
    given = [resolve(a, fx.scope) if not isinstance(a, ast.Constant) else a.value
             for a in inner.args]
    try:
        t = from_python(ArrayType(*given)) if len(given) == 2 and not inner.keywords else None
    except TypeError:
        t = None
    if t is None:
        fx.fail(node, f"the array type `{ast.unparse(inner)}`", "write ash.array(E, N) with a "
                "WGSL type E and an int N (a literal or a module constant)")
    if node.keywords or len(node.args) not in (0, t.length):
        fx.fail(node, f"`{ast.unparse(node)}` with {len(node.args)} values", f"give none (zero) "
                f"or {t.length}, one per element")
    parts = []
    for a in node.args:
        v = fx.value(a)
        fx.module.unify(t.element, fx.module.resolved(v.type), a, fx)
        parts.append(fx.as_float(v, fx.module.resolved(v.type), t.element).text)
    for s in reachable([t], fx.module):  # (declared even if no binding holds one)
        fx.module.structs.setdefault(s.name, (None, s))
    return E(f"{t.wgsl}({', '.join(parts)})", t)
