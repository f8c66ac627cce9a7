"""The built-ins whose result is a struct WGSL predeclares but source cannot name: ``frexp``
(``__frexp_result_f32 {fract, exp}``), ``modf`` (``__modf_result_f32 {fract, whole}``), with
their vector and f16 variants (``__frexp_result_vec3_f32 {fract: vec3f, exp: vec3i}`` ...),
and ``atomicCompareExchangeWeak`` (``__atomic_compare_exchange_result<T> {old_value: T,
exchanged: bool}``). asyncshader returns NamedTuples with the same members in the same order
(``FrexpResult``, ``ModfResult``, ``AtomicCompareExchangeResult``), so a shader may

* read a member of the call: ``ash.frexp(x).exp`` is ``frexp(x).exp``;
* keep the result in a local: ``r = ash.frexp(x)`` is ``let r = frexp(x);`` (no type
  written: WGSL infers it), then ``r.fract``;
* unpack it: ``f, e = ash.frexp(x)`` is ``let frexp1 = frexp(x); let f = frexp1.fract; let e =
  frexp1.exp;`` (the temporary's name taken by nothing else in the function).

naga (wgpu 0.32) types ``frexp(f16).exp`` as an i16 and then rejects it, so an f16 ``frexp``
is computed in f32, ``frexp(f32(x))``, its ``fract`` read back as ``f16(r.fract)``: exact for
every f16 (f32 holds it, and the fraction's 11 significant bits fit back into an f16).

Whatever would have to spell the type is an error naming the line and the fix: a local first
assigned inside a block and used after it (WGSL declares such a local before the block, with
its type), a helper's parameter or result, indexing the result (``r[0]``)."""

from __future__ import annotations

import ast
from typing import Any

from .values import E
from .wtypes import (
    AFLOAT,
    AINT,
    BOOL,
    F16,
    F32,
    I32,
    Predeclared,
    Unknown,
    Vector,
    scalar_of,
    with_scalar,
)

__all__ = ["check_named", "compare_exchange_type", "member", "split", "unpack"]

_STEM = {"frexp": "frexp", "modf": "modf", "atomic": "exchange"}


def _name(kind: str, t: Any) -> str:
    shape = f"vec{t.size}_{t.scalar.name}" if isinstance(t, Vector) else t.name
    return f"__{kind}_result_{shape}"


def compare_exchange_type(args: list) -> Predeclared:
    """The result rule of ``atomicCompareExchangeWeak`` (``args[0]``: the pointee's type)."""
    t = args[0]
    return Predeclared(f"__atomic_compare_exchange_result<{getattr(t, 'wgsl', '?')}>",
                       (("old_value", t), ("exchanged", BOOL)))


def split(fx: Any, node: ast.Call, row: Any) -> E:
    """``frexp(e)`` or ``modf(e)``: ``e`` an f32 or f16 scalar or vector (an abstract float
    is taken as f32, as WGSL concretises it for a ``let``)."""
    if len(node.args) != 1 or node.keywords:
        fx.fail(node, f"{row.name} with {len(node.args)} arguments", f"{row.name}(x): one "
                "float or float vector")
    e = fx.value(node.args[0])
    t = fx.module.resolved(e.type)
    if isinstance(t, Unknown) and not fx.module.int_local(t):  # (nothing else says: f32)
        t = fx.module.unify(t, F32, node, fx)
    if t in (AFLOAT, AINT):
        t = F32
    s = scalar_of(t)
    if s is None or s.kind != "f" or isinstance(t, Unknown):
        what = t.what if isinstance(t, Unknown) else f"a {getattr(t, 'wgsl', t)}"
        fx.fail(node, f"{row.name} of {what}", f"{row.name} takes an f32 "
                "or f16 scalar or vector: convert it, e.g. f32(x)")
    if row.name == "modf":
        return E(f"modf({e.text})", Predeclared(_name("modf", t), (("fract", t), ("whole", t))))
    members = (("fract", t), ("exp", with_scalar(t, I32)))
    if s == F16:  # naga types frexp(f16).exp as an i16, then rejects it: frexp in f32, exact
        wide = with_scalar(t, F32)  # for every f16 (its fract has 11 significant bits)
        return E(f"frexp({wide.wgsl}({e.text}))", Predeclared(_name("frexp", t), members,
                                                               convert=(t.wgsl, "")))
    return E(f"frexp({e.text})", Predeclared(_name("frexp", t), members))


def member(t: Predeclared, base: str, name: str) -> E:
    """The member ``name`` of ``base``, a result of type ``t``."""
    for k, (field, ft) in enumerate(t.fields):
        if field == name:
            convert = t.convert[k] if t.convert else ""
            return E(f"{convert}({base}.{field})" if convert else f"{base}.{field}", ft)
    raise KeyError(name)


def unpack(fx: Any, target: ast.Tuple, e: E, node: ast.AST) -> None:
    """``a, b = <a frexp, modf or compare-exchange result>`` (``e``, translated): the result
    in a temporary, each name one of its members, in order."""
    t = fx.module.resolved(e.type)
    if len(t.fields) != len(target.elts):
        fx.fail(node, f"unpacking a {t.name} into {len(target.elts)} names (it has "
                f"{len(t.fields)}: {', '.join(f for f, _ in t.fields)})", "unpack it into as "
                "many names, or read its members by name")
    tmp = fx.fresh(next(v for k, v in _STEM.items() if t.name.startswith(f"__{k}")))
    fx.emit(f"let {tmp} = {e.text};")
    for name, (field, _) in zip(target.elts, t.fields):
        fx.store(name, None, node, member(t, tmp, field))


def check_named(fx: Any, node: ast.AST, t: Any, what: str) -> None:
    """Fails (naming the line) where ``what`` would need ``t``, a predeclared result struct,
    spelled."""
    t = fx.module.resolved(t)
    if isinstance(t, Predeclared):
        fx.fail(node, f"{what}, a {t.name} (a type WGSL source cannot name)", "pass or return "
                "its members (r.fract, r.exp ...) instead, and keep the result in a local "
                "assigned where it is used")
