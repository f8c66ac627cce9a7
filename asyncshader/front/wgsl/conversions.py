"""WGSL's automatic conversions (§ Conversion rank, § Load rule): which types a value of an
abstract type converts to, the common type of several operands (a binary operator's, a
constructor's arguments, a built-in's ``T``), and the load rule that turns a reference into
the value it holds."""

from __future__ import annotations

from typing import Any

from ...ir.types import (
    AFLOAT,
    AINT,
    Array,
    Atomic,
    Matrix,
    Predeclared,
    Reference,
    Scalar,
    Struct,
    Vector,
    is_abstract,
)

INF = float("inf")


def rank(src: Any, dst: Any) -> float:
    """WGSL's ConversionRank(src, dst): 0 for the same type, a small number for a feasible
    automatic conversion of an abstract type, infinity where none exists."""
    if src == dst:
        return 0
    if isinstance(src, Scalar) and isinstance(dst, Scalar):
        return _SCALAR_RANK.get((src.name, dst.name), INF)
    if isinstance(src, Vector) and isinstance(dst, Vector) and src.size == dst.size:
        return rank(src.scalar, dst.scalar)
    if isinstance(src, Matrix) and isinstance(dst, Matrix) and \
            (src.cols, src.rows) == (dst.cols, dst.rows):
        return rank(src.scalar, dst.scalar)
    if isinstance(src, Array) and isinstance(dst, Array) and src.length == dst.length:
        return rank(src.element, dst.element)
    if isinstance(src, Predeclared) and isinstance(dst, Predeclared) and \
            len(src.fields) == len(dst.fields):
        return max((rank(a, b) for (_, a), (_, b) in zip(src.fields, dst.fields)), default=0)
    return INF


_SCALAR_RANK = {
    ("abstract-float", "f32"): 1, ("abstract-float", "f16"): 2,
    ("abstract-int", "i32"): 3, ("abstract-int", "u32"): 4,
    ("abstract-int", "abstract-float"): 5, ("abstract-int", "f32"): 6,
    ("abstract-int", "f16"): 7,
}


def converts(src: Any, dst: Any) -> bool:
    """Whether a value of ``src`` converts automatically to ``dst`` (or already is one)."""
    return rank(src, dst) < INF


def loaded(t: Any) -> Any:
    """The load rule: a reference's store type; any other type is its own value type."""
    return t.store if isinstance(t, Reference) else t


def leaf(t: Any) -> Scalar | None:
    """The scalar a scalar, vector, matrix or array (of those) is made of."""
    while isinstance(t, Array):
        t = t.element
    if isinstance(t, Scalar):
        return t
    if isinstance(t, (Vector, Matrix)):
        return t.scalar
    return None


def with_leaf(t: Any, s: Scalar) -> Any:
    """``t`` with the scalar it is made of replaced by ``s``."""
    if isinstance(t, Scalar):
        return s
    if isinstance(t, Vector):
        return Vector(t.size, s)
    if isinstance(t, Matrix):
        return Matrix(t.cols, t.rows, s)
    if isinstance(t, Array):
        return Array(with_leaf(t.element, s), t.length)
    return t


def constructible(t: Any) -> bool:
    """WGSL's constructible types (§ Constructible types): scalars, vectors, matrices,
    fixed-size arrays and structs of them; not atomics, runtime-sized or override-sized
    arrays, pointers, textures or samplers."""
    if isinstance(t, (Scalar, Vector, Matrix)):
        return True
    if isinstance(t, Array):
        return isinstance(t.length, int) and constructible(t.element)
    if isinstance(t, Struct):
        return all(constructible(m) for _, m in t.fields)
    return False


def host_shareable(t: Any) -> bool:
    """WGSL's host-shareable types (§ Host-shareable types): what a storage or uniform buffer
    holds: numbers (no bool), vectors and matrices of them, atomics, arrays and structs."""
    if isinstance(t, (Scalar, Vector, Matrix)):
        return leaf(t) is not None and leaf(t).kind != "b" and not leaf(t).abstract
    if isinstance(t, Atomic):
        return True
    if isinstance(t, Array):
        return host_shareable(t.element)
    if getattr(t, "name", None) == "buffer":  # (the buffer_view extension's byte buffer)
        return True
    if isinstance(t, Struct):
        return all(host_shareable(m) for _, m in t.fields)
    return False


def common_type(types: list[Any]) -> Any | None:
    """The type every one of ``types`` converts to with the least rank (WGSL's choice for a
    constructor's inferred element type or an operator's operands), or None if none does.
    Only abstract types convert, so the candidate is one of the types themselves, or one of
    them with AbstractInt made AbstractFloat (``array(1, 2.5)``)."""
    candidates = list(dict.fromkeys(types))
    for t in types:
        if leaf(t) == AINT:
            candidates.append(with_leaf(t, AFLOAT))
    best, best_rank = None, INF
    for c in candidates:
        total = sum(rank(t, c) for t in types)
        if total < best_rank:
            best, best_rank = c, total
    return best


def describe(t: Any) -> str:
    """A type as a diagnostic names it (WGSL's spelling; AbstractInt and AbstractFloat as the
    spec writes them)."""
    if t is None:
        return "no value"
    text = getattr(t, "wgsl", None) or str(t)
    return text.replace("abstract-int", "AbstractInt").replace("abstract-float",
                                                                "AbstractFloat")


def concrete_hint(t: Any) -> str:
    return "" if not is_abstract(t) else f" ({describe(t)})"
