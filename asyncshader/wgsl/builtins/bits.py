"""WGSL's bit built-ins (WGSL §17.5, integer built-in functions): countLeadingZeros,
countOneBits, countTrailingZeros, extractBits, insertBits, firstLeadingBit, firstTrailingBit,
reverseBits.

Each takes ``i32``, ``u32`` or a vector of them (``vec2i`` ... ``vec4u``), works component-wise and
returns the argument's type (``count_one_bits(vec3i(...))`` is a ``vec3i``). A plain Python
``int`` is WGSL's AbstractInt: it becomes an ``i32``, as WGSL's overload resolution makes a
literal argument, and must fit. Offsets and counts are ``u32`` scalars, also for vectors.
Anything else (``f32``, ``bool``, a ``numpy.int64`` from a mixed expression) is a ``TypeError``
naming the conversion to write: WGSL converts nothing implicitly.

Every result is defined: at runtime WGSL clamps ``offset`` and ``count`` of extractBits and
insertBits (``o = min(offset, 32)``, ``c = min(count, 32 - o)``) where a const-expression would be
a shader-creation error.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..types import ByClass, wgsl_class
from ._intargs import (
    I32,
    I_POS,
    INTEGRAL,
    IVECS,
    M32,
    U32,
    U_POS,
    UVECS,
    abstract_i32,
    abstract_u32,
    as_i32,
    bad_argument,
    u32_arg,
    unary_table,
)

__all__ = [
    "count_leading_zeros",
    "count_one_bits",
    "count_trailing_zeros",
    "extract_bits",
    "first_leading_bit",
    "first_trailing_bit",
    "insert_bits",
    "reverse_bits",
]

#: an integer scalar or vector; the functions return the type they are given
T = TypeVar("T")

# --------------------------------------------------------------------------- scalar implementations
# Each takes a u32 or i32 numpy scalar (or a Python int in its range) and returns a numpy scalar
# of the same type. Counts and positions come from the prebuilt tables U_POS / I_POS (index k + 1).
_CLZ_U = tuple(U_POS[33 - k] for k in range(33))  # indexed by bit_length: 32 - bit_length
_CLZ_I = tuple(I_POS[33 - k] for k in range(33))
_CTZ_U = (U_POS[33], *U_POS[1:33])  # indexed by (u & -u).bit_length(): 0 -> 32, k + 1 -> k
_CTZ_I = (I_POS[33], *I_POS[1:33])
_REV8 = tuple(int(f"{b:08b}"[::-1], 2) for b in range(256))


def _rev32(u: int) -> int:
    return (_REV8[u & 255] << 24 | _REV8[u >> 8 & 255] << 16 | _REV8[u >> 16 & 255] << 8
            | _REV8[u >> 24])


_COUNT_LEADING_ZEROS = unary_table(
    "count_leading_zeros", "countLeadingZeros",
    lambda e: _CLZ_U[int(e).bit_length()], lambda e: _CLZ_I[(int(e) & M32).bit_length()])
_COUNT_ONE_BITS = unary_table(
    "count_one_bits", "countOneBits",
    lambda e: U_POS[e.bit_count() + 1], lambda e: I_POS[(int(e) & M32).bit_count() + 1])
_COUNT_TRAILING_ZEROS = unary_table(
    "count_trailing_zeros", "countTrailingZeros",
    lambda e: _CTZ_U[(int(e) & -int(e)).bit_length()],
    lambda e: _CTZ_I[(int(e) & -int(e)).bit_length()])
_FIRST_LEADING_BIT = unary_table(
    "first_leading_bit", "firstLeadingBit",
    # unsigned: the highest 1 bit; signed: the highest bit that differs from the sign bit
    # (v ^ (v >> 31) flips a negative value's bits), -1 for 0 and -1
    lambda e: U_POS[int(e).bit_length()],
    lambda e: I_POS[(int(e) ^ (int(e) >> 31)).bit_length()])
_FIRST_TRAILING_BIT = unary_table(
    "first_trailing_bit", "firstTrailingBit",
    lambda e: U_POS[(int(e) & -int(e)).bit_length()],
    lambda e: I_POS[(int(e) & -int(e)).bit_length()])
_REVERSE_BITS = unary_table(
    "reverse_bits", "reverseBits",
    lambda e: U32(_rev32(int(e))), lambda e: as_i32(_rev32(int(e) & M32)))


def count_leading_zeros(e: T) -> T:
    """WGSL ``countLeadingZeros(e)``: the number of consecutive 0 bits from the most significant
    bit. Overloads: ``T -> T`` for T = i32, u32, vecN<i32>, vecN<u32> (component-wise).
    ``count_leading_zeros(u32(0))`` is 32; a negative i32 gives 0."""
    f = _COUNT_LEADING_ZEROS[type(e)]
    return f(e) if f is not None else bad_argument("count_leading_zeros", "countLeadingZeros", e)


def count_one_bits(e: T) -> T:
    """WGSL ``countOneBits(e)``: the number of 1 bits (population count). Overloads: ``T -> T``
    for T = i32, u32, vecN<i32>, vecN<u32> (component-wise). ``count_one_bits(i32(-1))`` is
    32."""
    f = _COUNT_ONE_BITS[type(e)]
    return f(e) if f is not None else bad_argument("count_one_bits", "countOneBits", e)


def count_trailing_zeros(e: T) -> T:
    """WGSL ``countTrailingZeros(e)``: the number of consecutive 0 bits from the least
    significant bit. Overloads: ``T -> T`` for T = i32, u32, vecN<i32>, vecN<u32>
    (component-wise). ``count_trailing_zeros(u32(0))`` is 32."""
    f = _COUNT_TRAILING_ZEROS[type(e)]
    return f(e) if f is not None else bad_argument("count_trailing_zeros",
                                                   "countTrailingZeros", e)


def first_leading_bit(e: T) -> T:
    """WGSL ``firstLeadingBit(e)``, both overloads (component-wise for vectors):

    * signed, ``T -> T`` for T = i32, vecN<i32>: the position of the most significant bit that
      differs from the sign bit; ``-1`` when ``e`` is 0 or -1 (``first_leading_bit(i32(-2))``
      is 0, of ``-2147483648`` it is 30);
    * unsigned, ``T -> T`` for T = u32, vecN<u32>: the position of the most significant 1 bit;
      ``0xFFFFFFFF`` (``T(-1)``) when ``e`` is 0.
    """
    f = _FIRST_LEADING_BIT[type(e)]
    return f(e) if f is not None else bad_argument("first_leading_bit", "firstLeadingBit", e)


def first_trailing_bit(e: T) -> T:
    """WGSL ``firstTrailingBit(e)``: the position of the least significant 1 bit; ``T(-1)``
    (``-1`` for i32, ``0xFFFFFFFF`` for u32) when ``e`` is 0. Overloads: ``T -> T`` for T = i32,
    u32, vecN<i32>, vecN<u32> (component-wise)."""
    f = _FIRST_TRAILING_BIT[type(e)]
    return f(e) if f is not None else bad_argument("first_trailing_bit", "firstTrailingBit", e)


def reverse_bits(e: T) -> T:
    """WGSL ``reverseBits(e)``: bit k of the result is bit 31 - k of ``e``. Overloads:
    ``T -> T`` for T = i32, u32, vecN<i32>, vecN<u32> (component-wise)."""
    f = _REVERSE_BITS[type(e)]
    return f(e) if f is not None else bad_argument("reverse_bits", "reverseBits", e)


# ------------------------------------------------------------------------- extractBits, insertBits
def _extract_u(e: Any, o: int, c: int) -> Any:
    return U32((int(e) >> o) & ((1 << c) - 1))


def _extract_i(e: Any, o: int, c: int) -> Any:
    if c == 0:
        return I_POS[1]
    half = 1 << (c - 1)  # sign-extend bit c - 1: (v ^ half) - half
    return I32((((int(e) >> o) & ((1 << c) - 1)) ^ half) - half)


def _insert_u(e: Any, n: Any, o: int, c: int) -> Any:
    mask = ((1 << c) - 1) << o
    return U32(int(e) & ~mask | int(n) << o & mask)


def _insert_i(e: Any, n: Any, o: int, c: int) -> Any:
    mask = ((1 << c) - 1) << o
    return as_i32((int(e) & ~mask | int(n) << o & mask) & M32)


def _lift_extract(f: Any, cls: type) -> Any:
    make = cls._make  # type: ignore[attr-defined]
    return lambda v, o, c: make(*[f(x, o, c) for x in v])


def _lift_insert(f: Any, cls: type) -> Any:
    make = cls._make  # type: ignore[attr-defined]
    return lambda v, n, o, c: make(*[f(x, y, o, c) for x, y in zip(v, n)])


_EXTRACT = ByClass({U32: _extract_u, I32: _extract_i})
_INSERT = ByClass({U32: _insert_u, I32: _insert_i})
for _n in (2, 3, 4):
    _EXTRACT[UVECS[_n]] = _lift_extract(_extract_u, UVECS[_n])
    _EXTRACT[IVECS[_n]] = _lift_extract(_extract_i, IVECS[_n])
    _INSERT[UVECS[_n]] = _lift_insert(_insert_u, UVECS[_n])
    _INSERT[IVECS[_n]] = _lift_insert(_insert_i, IVECS[_n])


#: offset and count types the fast path takes as they are (u32, and plain ints as AbstractInt)
_PLAIN = frozenset({U32, int})


def _offset_count(fn: str, wgsl: str, offset: Any, count: Any) -> tuple[int, int]:
    """``offset`` and ``count`` as Python ints, clamped as WGSL does at runtime:
    ``o = min(offset, 32)``, ``c = min(count, 32 - o)``. (The callers inline the common case,
    two u32 scalars already within range.)"""
    o = int(offset) if type(offset) is U32 else u32_arg(fn, wgsl, offset, "offset")
    c = int(count) if type(count) is U32 else u32_arg(fn, wgsl, count, "count")
    if o > 32:
        o = 32
    if c > 32 - o:
        c = 32 - o
    return o, c


def extract_bits(e: T, offset: Any, count: Any) -> T:
    """WGSL ``extractBits(e, offset, count)``: the ``count`` bits of ``e`` from bit ``offset``,
    in the low bits of the result. ``offset`` and ``count`` are u32 scalars, also for vectors.
    Overloads (component-wise for vectors):

    * signed, ``(T, u32, u32) -> T`` for T = i32, vecN<i32>: the upper bits are copies of bit
      ``count - 1`` (sign extension): ``extract_bits(i32(0xF0), 4, 4)`` is -1;
    * unsigned, ``(T, u32, u32) -> T`` for T = u32, vecN<u32>: the upper bits are 0.

    As WGSL at runtime, ``o = min(offset, 32)`` and ``c = min(count, 32 - o)``; ``c == 0`` gives
    0 (``extract_bits(x, 32, 5)`` is 0, ``extract_bits(x, 0, 99)`` is ``x``).
    """
    if type(offset) in _PLAIN and type(count) in _PLAIN:  # the common case: within range
        o, c = int(offset), int(count)
        if o >= 0 and c >= 0 and o + c <= 32:
            if type(e) is U32:  # the commonest: a u32 scalar, inline
                return U32((int(e) >> o) & ((1 << c) - 1))  # type: ignore[return-value]
            f = _EXTRACT[type(e)]
            if f is not None:
                return f(e, o, c)
    f = _EXTRACT[type(e)]
    if f is None:
        if type(e) is not int:
            bad_argument("extract_bits", "extractBits", e, what="e")
        e, f = abstract_i32("extract_bits", "extractBits", e), _extract_i  # type: ignore[assignment]
    return f(e, *_offset_count("extract_bits", "extractBits", offset, count))


def insert_bits(e: T, newbits: T, offset: Any, count: Any) -> T:
    """WGSL ``insertBits(e, newbits, offset, count)``: ``e`` with bits ``offset ..
    offset + count - 1`` replaced by the low ``count`` bits of ``newbits``. Overloads:
    ``(T, T, u32, u32) -> T`` for T = i32, u32, vecN<i32>, vecN<u32> (component-wise; ``offset``
    and ``count`` are u32 scalars). As WGSL at runtime, ``o = min(offset, 32)`` and
    ``c = min(count, 32 - o)``; ``c == 0`` gives ``e``."""
    if type(newbits) is not type(e) and wgsl_class(newbits) is not wgsl_class(e):
        e, newbits = _same_type(e, newbits)
    f = _INSERT[type(e)]
    if f is None:
        bad_argument("insert_bits", "insertBits", e, what="e")
    if type(offset) in _PLAIN and type(count) in _PLAIN:  # the common case: within range
        o, c = int(offset), int(count)
        if o >= 0 and c >= 0 and o + c <= 32:
            return f(e, newbits, o, c)
    return f(e, newbits, *_offset_count("insert_bits", "insertBits", offset, count))


def _same_type(e: Any, newbits: Any) -> tuple[Any, Any]:
    """insertBits's ``e`` and ``newbits`` share one type; a Python int takes the other's."""
    te, tn = wgsl_class(e), wgsl_class(newbits)  # (a vector loaded from memory: its type)
    if te is int and tn is int:
        return (abstract_i32("insert_bits", "insertBits", e),
                abstract_i32("insert_bits", "insertBits", newbits))
    if te is int and tn in (U32, I32):
        convert = abstract_u32 if tn is U32 else abstract_i32
        return convert("insert_bits", "insertBits", e), newbits
    if tn is int and te in (U32, I32):
        convert = abstract_u32 if te is U32 else abstract_i32
        return e, convert("insert_bits", "insertBits", newbits)
    if te in _INSERT and tn in _INSERT:
        raise TypeError(f"insert_bits() (WGSL insertBits) takes e and newbits of one type, got "
                        f"{_INSERT_NAMES[te]} and {_INSERT_NAMES[tn]}: convert newbits, e.g. "
                        f"{_INSERT_NAMES[te]}(newbits), or bitcast[{_INSERT_NAMES[te]}](newbits) "
                        "to keep its bits")
    bad_argument("insert_bits", "insertBits", e if te not in _INSERT else newbits,
                 INTEGRAL + " (e and newbits of one type)",
                 what="e" if te not in _INSERT else "newbits")


_INSERT_NAMES = {t: ({U32: "u32", I32: "i32"}.get(t) or t.__name__) for t in _INSERT}
