"""Module constants as WGSL ``const`` declarations: a number, a vector or a matrix the shader
reads from its Python module, and a tuple of them, which becomes a const array.

A module tuple that a shader indexes (``PALETTE[level]``) is declared once at module scope::

    const PALETTE = array<vec3f, 9>(
        vec3f(59.0f, 76.0f, 192.0f), vec3f(79.0f, 143.0f, 214.0f), ...
    );

Its element type is the one WGSL gives an array of those values: a tuple of one vector (or
matrix, or numpy scalar) type is an array of that type; a tuple of equal-length tuples is an
array of arrays; Python floats are ``f32`` (an array indexed at run time is concretized, and
abstract float concretizes to f32). Python ints follow WGSL's abstract int as far as one array
can: the array takes the one concrete type its uses ask for (``u32`` if an element meets a
u32, ``f32`` if it meets a float, as ``K`` of ``const K = 3;`` would convert), else ``i32``;
uses that ask for two different types are an error that asks for a conversion. An element read
with a constant index (``TABLE[2]``) is the element itself, a literal with WGSL's abstract
rules, exactly like a module constant ``K``. ``len(TUPLE)`` is a constant.

Naga (wgpu) and Mesa's lavapipe accept a runtime index into a module-scope ``const`` array as
it is (tests/emit/test_to_wgsl_consts.py runs one), so no copy into a ``var`` is made."""

from __future__ import annotations

import ast
import re
from typing import Any

import numpy as np

from .values import E
from .wtypes import (
    AFLOAT,
    AINT,
    BOOL,
    F32,
    I32,
    Array,
    Elements,
    Matrix,
    Scalar,
    Vector,
    WGSLEmitError,
    literal,
    type_of_value,
)

#: the longest line a const declaration takes before its elements go on lines of their own
_WIDTH = 100
_FIX = ("make it a tuple of numbers, of one vector type (vec3f(...), ...), or of "
        "equal-length tuples of numbers: it becomes a WGSL const array")


class _Unfit(Exception):
    """A tuple WGSL cannot hold as an array (the message says why)."""


# ------------------------------------------------------------------------------ names
def const_name(module: Any, name: str, value: Any, t: Any) -> str:
    """The WGSL name of the module constant ``name`` (declared on first use; the same value
    under the same name is declared once)."""
    for wgsl, (v, _) in module.consts.items():
        if (wgsl == name or wgsl.startswith(name + "_")) and (v is value or (
                type(v) is type(value) and not isinstance(v, tuple) and _same_value(v, value))):
            return wgsl
    wgsl = module._unique(name, module.consts)
    module.consts[wgsl] = (value, t)
    return wgsl


def _same_value(a: Any, b: Any) -> bool:
    try:
        return bool(np.all(np.asarray(a) == np.asarray(b)))
    except Exception:
        return False


# ------------------------------------------------------------------------------ types
def tuple_value(fn: Any, node: ast.AST, name: str, value: tuple) -> E:
    """The module tuple ``name`` as a const array (an error naming the line if WGSL cannot
    hold it)."""
    try:
        t = _array_of(value)
    except _Unfit as exc:
        fn.fail(node, f"the module tuple {name} ({exc})", _FIX)
    if _leaf(t) == AINT:
        u = Elements(f"the elements of {name}", id(value))
        fn.module.defaults[u] = I32
        t = _with_leaf(t, u)
    elif _leaf(t) == AFLOAT:
        t = _with_leaf(t, F32)
    return E(const_name(fn.module, name, value, t), t, const=value)


def _array_of(value: Any) -> Any:
    """The WGSL type of a host value, tuples as arrays (abstract numbers not yet decided)."""
    if not isinstance(value, tuple):
        t = type_of_value(value)
        if not isinstance(t, (Scalar, Vector, Matrix)):
            raise _Unfit(f"it holds {_describe(value)}, which has no WGSL literal")
        return t
    if not value:
        raise _Unfit("it is empty, and WGSL has no arrays of length 0")
    common = _array_of(value[0])
    for v in value[1:]:
        common = _common(common, _array_of(v))
    return Array(common, len(value))


def _common(a: Any, b: Any) -> Any:
    """The type both elements convert to, as in WGSL's ``array(a, b)``."""
    if a == b:
        return a
    if isinstance(a, Array) and isinstance(b, Array):
        if a.length != b.length:
            raise _Unfit(f"its tuples have different lengths ({a.length} and {b.length}); "
                         "WGSL arrays hold elements of one type")
        return Array(_common(a.element, b.element), a.length)
    if isinstance(a, Scalar) and isinstance(b, Scalar) and BOOL not in (a, b):
        if a.abstract and b.abstract:
            return AFLOAT
        for x, y in ((a, b), (b, a)):
            if x.abstract and (x == AINT or y.kind == "f"):
                return y
    raise _Unfit(f"it mixes {_type_name(a)} and {_type_name(b)}; WGSL arrays hold elements of "
                 "one type")


def _leaf(t: Any) -> Any:
    return _leaf(t.element) if isinstance(t, Array) else t


def _with_leaf(t: Any, leaf: Any) -> Any:
    return Array(_with_leaf(t.element, leaf), t.length) if isinstance(t, Array) else leaf


def _type_name(t: Any) -> str:
    if isinstance(t, Array):
        return f"tuples of {t.length}"
    return {AINT: "Python ints", AFLOAT: "Python floats"}.get(t, getattr(t, "wgsl", str(t)))


def _describe(value: Any) -> str:
    what = repr(value)
    return f"{type(value).__name__} {what if len(what) <= 30 else what[:27] + '...'}"


# ------------------------------------------------------------------------------ uses
def element(fn: Any, node: ast.Subscript, base: E, index: E, t: Array) -> E:
    """``base[index]`` of an array value (a const array, a local array, a struct member): a
    constant index past the end is an error, as in WGSL; a constant index into a module tuple
    of Python numbers is the element itself, a literal with WGSL's abstract rules."""
    check_index(fn, node, index, t.length)
    if isinstance(base.const, tuple) and index.has_const:
        v = base.const[int(index.const)]
        vt = type_of_value(v)
        if isinstance(vt, Scalar) and vt.abstract:
            return fn.constant(v, vt)
    return E(f"{base.operand('mul', 1)}[{index.text}]", t.element)


def check_index(fn: Any, node: ast.AST, index: E, length: int | None,
                array: str | None = None) -> None:
    """A constant index at or past ``length`` (a fixed-size array's) names the line;
    ``array`` names the array (by default the subscripted expression ``node.value``)."""
    if length is not None and index.has_const and isinstance(index.const, (int, np.integer)) \
            and int(index.const) >= length:
        array = array or ast.unparse(node.value)
        fn.fail(node, f"the index {int(index.const)} of `{array}`, past its "
                f"end ({length} elements, so 0 to {length - 1})", "index within the array "
                "(WGSL rejects a constant index out of bounds)")


def call_len(fn: Any, node: ast.Call) -> E:
    """``len(x)`` of a module tuple, a fixed-size array or a vector: a constant."""
    if len(node.args) != 1 or node.keywords:
        fn.fail(node, "this call of len()", "pass one module tuple or array")
    e = fn.expr(node.args[0])
    t = fn.module.resolved(e.memory.type if e.memory is not None else e.type)
    if isinstance(e.const, tuple):
        return fn.constant(len(e.const), AINT)
    if isinstance(t, Array) and t.length is not None:
        return fn.constant(t.length, AINT)
    if isinstance(t, Vector):
        return fn.constant(t.size, AINT)
    fn.fail(node, f"len() of `{ast.unparse(node.args[0])}`", "use ash.array_length(buf) for a "
            "buffer, or pass a module tuple or a fixed-size array")


# ------------------------------------------------------------------------------ text
def declarations(module: Any, text: str) -> list[str]:
    """The ``const`` lines (then a blank line), in order of first use, of the constants that
    ``text``, the rest of the module, names (a constant whose every use was folded into a
    literal is left out)."""
    out = [_declaration(module, name, value, t) for name, (value, t) in module.consts.items()
           if re.search(rf"\b{name}\b", text)]
    return [*out, ""] if out else out


def _declaration(module: Any, name: str, value: Any, t: Any) -> str:
    if not isinstance(t, Array):
        return f"const {name} = {literal(value, t)};"
    head = f"const {name} = {module.final(t, None, name)}("
    parts = [_text(module, name, v, t.element) for v in value]
    line = head + ", ".join(parts) + ");"
    if len(line) <= _WIDTH:
        return line
    rows: list[list[str]] = [[]]
    for p in parts:  # (as many elements a line as fit)
        if rows[-1] and 4 + len(", ".join([*rows[-1], p])) + 1 > _WIDTH:
            rows.append([])
        rows[-1].append(p)
    return "\n".join([head, ",\n".join("    " + ", ".join(r) for r in rows), ");"])


def _text(module: Any, name: str, value: Any, t: Any) -> str:
    if isinstance(t, Array):
        parts = ", ".join(_text(module, name, v, t.element) for v in value)
        return f"{module.final(t, None, name)}({parts})"
    t = module.resolved(t)
    if isinstance(t, Elements):
        t = module.defaults[t]
    if isinstance(t, Scalar) and t.kind in "iu" and t != AINT and not isinstance(value, bool):
        low, high = (-2**31, 2**31 - 1) if t.kind == "i" else (0, 2**32 - 1)
        if not low <= int(value) <= high:
            raise WGSLEmitError(f"the module tuple {name} holds {int(value)}, which is not a "
                                f"{t.wgsl} (its uses make it an array<{t.wgsl}>). Fix: keep its "
                                f"values in {low}..{high}, or convert where it is used")
    return literal(value, t)
