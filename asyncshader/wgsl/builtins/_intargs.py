"""Argument checking shared by the bit, packing and bitcast built-ins (private).

Arguments are checked by ``type(x)`` in a dict, one lookup per call: the integer built-ins take
``i32``, ``u32`` (numpy scalars) and their vectors; a Python ``int`` is WGSL's AbstractInt and
converts the way WGSL's overload resolution converts a literal (to ``i32`` unless the parameter
is ``u32``), and must fit. Anything else is a ``TypeError`` that names the built-in, the WGSL
function, the value's type and the conversion to write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

from ..types import _VECS, ByClass, Vec

U32, I32, F32 = np.uint32, np.int32, np.float32
M32 = 0xFFFFFFFF
INTEGRAL = "i32, u32, vecN<i32> or vecN<u32>"

#: vector classes by (size, kind)
UVECS = {n: _VECS[(n, "u")] for n in (2, 3, 4)}
IVECS = {n: _VECS[(n, "i")] for n in (2, 3, 4)}

#: the i32 and u32 values 0..32 and -1 (T(-1)) as numpy scalars, indexed by ``k + 1``: results
#: such as bit positions and counts come out of these tables instead of being constructed
U_POS = (U32(M32), *(U32(k) for k in range(33)))
I_POS = tuple(I32(k) for k in range(-1, 33))


def as_i32(bits: int) -> np.int32:
    """The i32 whose two's-complement bit pattern is ``bits`` (0 <= bits < 2**32)."""
    return I32((bits ^ 0x80000000) - 0x80000000)


def describe(x: Any) -> str:
    """A value's WGSL type (or, for a non-WGSL value, its Python type) and the value."""
    t = type(x)
    if isinstance(x, Vec):
        return repr(x)
    wgsl = {U32: "u32", I32: "i32", F32: "f32", np.float16: "f16", np.bool_: "bool", bool: "bool",
            int: "an abstract int", float: "an abstract float"}.get(t)
    if wgsl is not None:
        return f"{wgsl} {x}"
    if isinstance(x, np.generic):
        return (f"numpy.{t.__name__} {x}, which is not a WGSL type (mixing i32 with u32, or "
                f"numpy with Python numbers, gives it)")
    return f"{t.__module__}.{t.__qualname__} {x!r}".removeprefix("builtins.")


def bad_argument(fn: str, wgsl: str, x: Any, takes: str = INTEGRAL,
                 fix: str = "convert first: i32(x) or u32(x), or bitcast[u32](x) for the bits "
                            "of a float", what: str = "") -> NoReturn:
    """Raises the TypeError for an argument of the wrong type."""
    where = f" as {what}" if what else ""
    raise TypeError(f"{fn}() (WGSL {wgsl}) takes {takes}{where}, not {describe(x)}. WGSL "
                    f"converts nothing implicitly; {fix}.")


def abstract_i32(fn: str, wgsl: str, x: int) -> np.int32:
    """A Python int where WGSL would pick the i32 overload: it must fit i32."""
    if -0x80000000 <= x <= 0x7FFFFFFF:
        return I32(x)
    fix = f"u32({x})" if 0 <= x <= M32 else f"i32({x}) to wrap it"
    raise TypeError(f"{fn}({x}) (WGSL {wgsl}): a plain integer is WGSL's AbstractInt, which "
                    f"becomes an i32 here, and {x} does not fit i32 (-2147483648 ... "
                    f"2147483647). Write {fix}.")


def abstract_u32(fn: str, wgsl: str, x: int, what: str = "") -> np.uint32:
    """A Python int where WGSL's parameter is u32: it must fit u32."""
    if 0 <= x <= M32:
        return U32(x)
    where = f" as {what}" if what else ""
    raise TypeError(f"{fn}() (WGSL {wgsl}) takes a u32{where}; the plain integer {x} does not "
                    f"fit u32 (0 ... 4294967295). Write u32(i32({x})) for its bits.")


def u32_arg(fn: str, wgsl: str, x: Any, what: str) -> int:
    """A u32 scalar parameter (offsets, counts, packed words) as a Python int."""
    t = type(x)
    if t is U32:
        return int(x)
    if t is int:
        return int(abstract_u32(fn, wgsl, x, what))
    bad_argument(fn, wgsl, x, "a u32", "write u32(x), or bitcast[u32](x) for an i32's bits",
                 what)


def lift(f: Callable[[Any], Any], cls: type) -> Callable[[Vec], Vec]:
    """``f`` applied to each component of a vector of class ``cls``; the result is a ``cls``."""
    make = cls._make  # type: ignore[attr-defined]
    return lambda v: make(*map(f, v))


def unary_table(fn: str, wgsl: str, on_u: Callable[[Any], Any],
                on_i: Callable[[Any], Any]) -> ByClass:
    """The implementations of a component-wise integer built-in ``T -> T`` by argument type:
    ``on_u`` for u32 and ``on_i`` for i32 components, a Python int as i32."""
    table = ByClass({U32: on_u, I32: on_i})
    for n in (2, 3, 4):
        table[UVECS[n]] = lift(on_u, UVECS[n])
        table[IVECS[n]] = lift(on_i, IVECS[n])
    table[int] = lambda x: on_i(abstract_i32(fn, wgsl, x))
    return table
