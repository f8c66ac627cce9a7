"""WGSL ``bitcast<T>(e)``, spelled ``bitcast[T](e)`` (as ``vec3[f32]`` spells ``vec3<f32>``):
the same 32 bits read as another type.

Pairs (all of WGSL's): ``T`` and the type of ``e`` are each ``f32``, ``i32`` or ``u32`` (the
identity when they are the same), or vectors of them with the same number of components
(component-wise); and with f16 (builtins.md §3.3): ``bitcast[vec2h](e)`` of a 32-bit scalar and
back (``bitcast[u32](vec2h(a, b))`` has ``a`` in bits 0-15), ``bitcast[vec4h](e)`` of a
``vec2`` of 32-bit components and back (``bitcast[vec2u](vec4h(a, b, c, d))``: ``.x`` from
``a, b``), and the identity on ``f16`` and ``vecNh``. Scalar ``f16`` and ``vec3h`` have no
other pair (their widths match nothing).

A plain Python ``int`` is WGSL's AbstractInt: ``bitcast[u32](x)`` takes it as a u32
(0 ... 4294967295), every other target as an i32 (it must fit, as in WGSL:
``bitcast[f32](0xBF800000)`` is an error there too; write ``bitcast[f32](u32(0xBF800000))``).
A Python ``float`` is an AbstractFloat and becomes an f32 first.

An f32 result whose bits are an infinity or a NaN is WGSL's indeterminate value; asyncshader
keeps the bits (a NaN's payload included), so ``bitcast[u32](bitcast[f32](x)) == x`` for every
u32 ``x``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..types import _VECS, f16, f32, i32, u32
from ._intargs import F32, I32, M32, U32, abstract_i32, abstract_u32, as_i32, describe, lift

__all__ = ["bitcast"]

_KIND = {F32: "f", I32: "i", U32: "u"}
_NAME = {"f": "f32", "i": "i32", "u": "u32"}
_NUMPY = {"f": F32, "i": I32, "u": U32}


def _view(dst: type) -> Callable[[Any], Any]:
    return lambda e: e.view(dst)


def _identity(e: Any) -> Any:
    return e


#: (source kind, target kind) -> reinterpretation of one numpy scalar
_REINTERPRET: dict[tuple[str, str], Callable[[Any], Any]] = {
    ("f", "f"): _identity, ("i", "i"): _identity, ("u", "u"): _identity,
    ("i", "u"): lambda e: U32(int(e) & M32), ("u", "i"): lambda e: as_i32(int(e)),
    ("f", "u"): _view(U32), ("f", "i"): _view(I32), ("u", "f"): _view(F32),
    ("i", "f"): _view(F32),
}


def _abstract_float(e: float) -> np.float32:
    """AbstractFloat -> f32: the nearest f32; an error when it overflows (as in WGSL)."""
    if math.isfinite(e) and abs(e) >= 3.4028235677973366e38:  # rounds to infinity
        raise TypeError(f"bitcast: the float {e!r} does not fit f32 (WGSL: a shader-creation "
                        f"error)")
    return F32(e)


def _scalar_cast(kind: str) -> Callable[[Any], Any]:
    table: dict[type, Callable[[Any], Any]] = {
        src: _REINTERPRET[(k, kind)] for src, k in _KIND.items()}
    name = _NAME[kind]
    from_i32 = _REINTERPRET[("i", kind)]
    if kind == "u":  # WGSL's bitcast<u32>(AbstractInt) is u32(e)
        table[int] = lambda e: abstract_u32(f"bitcast[{name}]", f"bitcast<{name}>", e)
    else:
        table[int] = lambda e: from_i32(abstract_i32(f"bitcast[{name}]", f"bitcast<{name}>", e))
    from_f32 = _REINTERPRET[("f", kind)]
    table[float] = lambda e: from_f32(_abstract_float(e))

    def cast(e: Any) -> Any:
        f = table.get(type(e))
        return f(e) if f is not None else _bad_source(name, "f32, i32, u32 or vec2h", e)

    cast.table = table  # type: ignore[attr-defined]

    cast.__name__ = cast.__qualname__ = f"bitcast[{name}]"
    cast.__doc__ = (f"WGSL ``bitcast<{name}>(e)``: the 32 bits of ``e`` (f32, i32, u32 or vec2h) "
                    f"as {name}.")
    return cast


def _vector_cast(n: int, kind: str) -> Callable[[Any], Any]:
    target = _VECS[(n, kind)]
    table = {_VECS[(n, k)]: lift(_REINTERPRET[(k, kind)], target) for k in "fiu"}
    name = target.__name__
    takes = f"vec{n}f, vec{n}i or vec{n}u (the same number of 32-bit components)"
    if n == 2:
        takes = "vec2f, vec2i, vec2u or vec4h (64 bits)"

    def cast(e: Any) -> Any:
        f = table.get(type(e))
        return f(e) if f is not None else _bad_source(name, takes, e)

    cast.table = table  # type: ignore[attr-defined]
    cast.__name__ = cast.__qualname__ = f"bitcast[{name}]"
    cast.__doc__ = (f"WGSL ``bitcast<vec{n}<{_NAME[kind]}>>(e)``: each component's 32 bits as "
                    f"{_NAME[kind]}.")
    return cast


def _bad_source(name: str, takes: str, e: Any) -> Any:
    hint = ""
    if type(e) in _VECS.values() and name in _NAME.values():  # a vector to a scalar target
        hint = (f" For a vector write bitcast[vec{e.size}{name[0]}] (as WGSL's "
                f"bitcast<vec{e.size}<{name}>>).")
    elif type(e) in (bool, np.bool_):
        hint = " WGSL has no bitcast of bool: write u32(b) (1 or 0)."
    raise TypeError(f"bitcast[{name}] (WGSL bitcast<{name}>) takes {takes}, not "
                    f"{describe(e)}.{hint}")


_CASTS: dict[Any, Callable[[Any], Any]] = {}
for _kind in "fiu":
    _CASTS[_NUMPY[_kind]] = _scalar_cast(_kind)
    for _n in (2, 3, 4):
        _CASTS[_VECS[(_n, _kind)]] = _vector_cast(_n, _kind)

# ------------------------------------------------------------------------------ f16 forms
F16 = np.float16
_VEC2H, _VEC3H, _VEC4H = _VECS[(2, "h")], _VECS[(3, "h")], _VECS[(4, "h")]


def _halves(words: np.ndarray) -> list:
    """The f16 values whose bits are the 32-bit ``words``, lowest half first."""
    return list(words.view(F16))


def _words(v: Any, dst: type) -> np.ndarray:
    """The 32-bit words (as ``dst``) of the halves of a vec2h or vec4h, x in the low bits."""
    return np.array(list(v), F16).view(dst)


def _from_32(kind: str) -> Callable[[Any], Any]:
    """vec2h -> a 32-bit scalar of ``kind``."""
    dst = _NUMPY[kind]
    return lambda v: _words(v, dst)[0]


def _from_64(kind: str) -> Callable[[Any], Any]:
    """vec4h -> vec2 of 32-bit ``kind`` components."""
    dst, make = _NUMPY[kind], _VECS[(2, kind)]._make
    return lambda v: make(*_words(v, dst))


def _to_vec2h(e: Any) -> Any:
    return _VEC2H._make(*_halves(np.array([e])))


def _to_vec4h(e: Any) -> Any:
    return _VEC4H._make(*_halves(np.array(list(e), type(e.x))))


def _f16_casts() -> None:
    """The f16 forms of bitcast (builtins.md §3.3), added to the 32-bit ones."""
    for kind in "fiu":
        _CASTS[_NUMPY[kind]].table[_VEC2H] = _from_32(kind)   # type: ignore[attr-defined]
        _CASTS[_VECS[(2, kind)]].table[_VEC4H] = _from_64(kind)   # type: ignore[attr-defined]
    to_vec2h: dict[type, Callable[[Any], Any]] = {_VEC2H: _identity, F32: _to_vec2h,
                                                  I32: _to_vec2h, U32: _to_vec2h}
    to_vec2h[int] = lambda e: _to_vec2h(abstract_i32("bitcast[vec2h]", "bitcast<vec2<f16>>", e))
    to_vec2h[float] = lambda e: _to_vec2h(_abstract_float(e))
    to_vec4h = {_VEC4H: _identity, **{_VECS[(2, k)]: _to_vec4h for k in "fiu"}}
    for target, table, takes in (
            (F16, {F16: _identity}, "f16 (an f16 has 16 bits: bitcast[vec2h] takes 32)"),
            (_VEC2H, to_vec2h, "f32, i32, u32 or vec2h (32 bits)"),
            (_VEC3H, {_VEC3H: _identity}, "vec3h (48 bits match no other type)"),
            (_VEC4H, to_vec4h, "vec2f, vec2i, vec2u or vec4h (64 bits)")):
        _CASTS[target] = _table_cast(target, table, takes)
    _CASTS[f16] = _CASTS[F16]


def _table_cast(target: Any, table: dict, takes: str) -> Callable[[Any], Any]:
    name = "f16" if target is F16 else target.__name__

    def cast(e: Any) -> Any:
        f = table.get(type(e))
        return f(e) if f is not None else _bad_source(name, takes, e)

    cast.__name__ = cast.__qualname__ = f"bitcast[{name}]"
    cast.__doc__ = f"WGSL ``bitcast<{name}>(e)``: the bits of ``e`` ({takes}) as {name}."
    cast.table = table  # type: ignore[attr-defined]
    return cast


_CASTS.update({f32: _CASTS[F32], i32: _CASTS[I32], u32: _CASTS[U32]})


_f16_casts()


class _Bitcast:
    """WGSL ``bitcast<T>(e)``, written ``bitcast[T](e)``: the bits of ``e`` read as ``T``.

    ``T`` is ``f32``, ``i32``, ``u32`` or a vector of them (``vec4u``, ``vec2[f32]``); ``e`` has
    the same width: a 32-bit scalar for a scalar ``T``, a vector of as many 32-bit components
    for a vector ``T``. ``bitcast[u32](f32(1.0))`` is ``0x3F800000``,
    ``bitcast[i32](u32(0xFFFFFFFF))`` is -1, ``bitcast[vec2f](vec2u(0x3F800000, 0))`` is
    ``vec2f(1, 0)``. With f16: ``bitcast[vec2h](u32(0x3C00))`` is ``vec2h(1, 0)``,
    ``bitcast[u32](vec2h(1, 0))`` is ``0x3C00``, ``bitcast[vec4h](vec2u(...))`` and back.
    """

    def __getitem__(self, target: Any) -> Callable[[Any], Any]:
        try:
            cast = _CASTS.get(target)
        except TypeError:  # unhashable
            cast = None
        if cast is None:
            raise TypeError(
                f"bitcast[{getattr(target, '__name__', target)!s}]: WGSL's bitcast<T> takes T = "
                "f32, i32, u32, f16 or a vector of them (vec2f ... vec4u, vec2h ... vec4h); "
                "bool has no bit pattern in WGSL")
        return cast

    def __call__(self, *args: Any) -> Any:
        raise TypeError("write bitcast[T](e) with the target type in brackets, as WGSL's "
                        "bitcast<T>(e): e.g. bitcast[u32](x)")

    def __repr__(self) -> str:
        return "bitcast"


bitcast = _Bitcast()
