"""WGSL's data packing and unpacking built-ins (WGSL §17.9 and §17.10), and the packed dot
products dot4U8Packed and dot4I8Packed.

Component ``i`` of a vector goes to bits ``8i .. 8i + 7`` (the 4x8 forms) or ``16i .. 16i + 15``
(the 2x16 forms) of the ``u32``: component 0 is the least significant part.

Rounding is WGSL's, not round-half-to-even: ``pack4x8unorm`` computes
``floor(0.5 + 255 * min(1, max(0, e)))`` per component, exactly (the product of an f32 and 255,
127, 65535 or 32767 is exact in float64, so the floor is the exact one the spec defines), so a
tie rounds up: ``pack4x8unorm(vec4f(0.0019607844, 0, 0, 0))`` is 1, and
``pack4x8snorm(vec4f(-0.5, 0, 0, 0))`` has the byte -63 (0xC1), where round-half-to-even gives -64.
(Mesa's lavapipe rounds ties to even here: it packs 0.0019607844 to 0.)

Where WGSL leaves a result indeterminate, asyncshader picks one and documents it:
a NaN component of the snorm/unorm packers packs as 0; +-inf clamps like any out-of-range value;
``pack2x16float`` of a component outside f16's finite range (|x| >= 65520, which rounds to
infinity) or NaN gives that half the bits of +-inf (0x7C00 / 0xFC00) or a quiet NaN (0x7E00),
and a finite such component issues a ``WGSLIndeterminateWarning`` at the caller's line (NaN and
infinite inputs are indeterminate already and pass quietly, as in the numeric built-ins).
f16 subnormals are kept (the spec allows flushing them to 0; asyncshader does not flush).
"""

from __future__ import annotations

import math
import struct
from typing import Any

import numpy as np

from ..types import vec2f, vec4f, vec4i, vec4u
from ._intargs import F32, I32, U32, bad_argument, u32_arg
from ._overloads import indeterminate

__all__ = [
    "dot4i8_packed",
    "dot4u8_packed",
    "pack2x16float",
    "pack2x16snorm",
    "pack2x16unorm",
    "pack4x8snorm",
    "pack4x8unorm",
    "pack4xi8",
    "pack4xi8_clamp",
    "pack4xu8",
    "pack4xu8_clamp",
    "unpack2x16float",
    "unpack2x16snorm",
    "unpack2x16unorm",
    "unpack4x8snorm",
    "unpack4x8unorm",
    "unpack4xi8",
    "unpack4xu8",
]

_TAKES = {vec4f: "a vec4f (WGSL vec4<f32>)", vec2f: "a vec2f (WGSL vec2<f32>)",
          vec4i: "a vec4i (WGSL vec4<i32>)", vec4u: "a vec4u (WGSL vec4<u32>)"}


def _vector(fn: str, wgsl: str, e: Any, cls: type) -> Any:
    if not isinstance(e, cls):  # (a vector loaded from memory is a subclass)
        bad_argument(fn, wgsl, e, _TAKES[cls], f"build one, e.g. {cls.__name__}(v)")
    return e


def _word(fn: str, wgsl: str, e: Any, what: str = "e") -> int:
    """A u32 argument as a Python int."""
    return int(e) if type(e) is U32 else u32_arg(fn, wgsl, e, what)


# ------------------------------------------------------------------------------------ snorm, unorm
def _snorm(c: Any, k: float) -> int:
    """``floor(0.5 + k * min(1, max(-1, c)))``, exact; NaN (indeterminate in WGSL) gives 0."""
    x = float(c)
    if x != x:
        return 0
    return math.floor(0.5 + k * (1.0 if x > 1.0 else -1.0 if x < -1.0 else x))


def _unorm(c: Any, k: float) -> int:
    """``floor(0.5 + k * min(1, max(0, c)))``, exact; NaN gives 0."""
    x = float(c)
    if x != x:
        return 0
    return math.floor(0.5 + k * (1.0 if x > 1.0 else 0.0 if x < 0.0 else x))


def pack4x8snorm(e: vec4f) -> np.uint32:
    """WGSL ``pack4x8snorm(e: vec4<f32>) -> u32``: each component becomes the 8-bit two's
    complement of ``floor(0.5 + 127 * min(1, max(-1, e[i])))`` in bits ``8i .. 8i + 7``."""
    v = _vector("pack4x8snorm", "pack4x8snorm", e, vec4f)
    return U32((_snorm(v.x, 127.0) & 255) | (_snorm(v.y, 127.0) & 255) << 8
               | (_snorm(v.z, 127.0) & 255) << 16 | (_snorm(v.w, 127.0) & 255) << 24)


def pack4x8unorm(e: vec4f) -> np.uint32:
    """WGSL ``pack4x8unorm(e: vec4<f32>) -> u32``: each component becomes
    ``floor(0.5 + 255 * min(1, max(0, e[i])))`` in bits ``8i .. 8i + 7``."""
    v = _vector("pack4x8unorm", "pack4x8unorm", e, vec4f)
    return U32(_unorm(v.x, 255.0) | _unorm(v.y, 255.0) << 8 | _unorm(v.z, 255.0) << 16
               | _unorm(v.w, 255.0) << 24)


def pack2x16snorm(e: vec2f) -> np.uint32:
    """WGSL ``pack2x16snorm(e: vec2<f32>) -> u32``: each component becomes the 16-bit two's
    complement of ``floor(0.5 + 32767 * min(1, max(-1, e[i])))`` in bits ``16i .. 16i + 15``."""
    v = _vector("pack2x16snorm", "pack2x16snorm", e, vec2f)
    return U32((_snorm(v.x, 32767.0) & 0xFFFF) | (_snorm(v.y, 32767.0) & 0xFFFF) << 16)


def pack2x16unorm(e: vec2f) -> np.uint32:
    """WGSL ``pack2x16unorm(e: vec2<f32>) -> u32``: each component becomes
    ``floor(0.5 + 65535 * min(1, max(0, e[i])))`` in bits ``16i .. 16i + 15``."""
    v = _vector("pack2x16unorm", "pack2x16unorm", e, vec2f)
    return U32(_unorm(v.x, 65535.0) | _unorm(v.y, 65535.0) << 16)


# ------------------------------------------------------------------------------------------ f16
_HALF = struct.Struct("<e")  # IEEE binary16, round to nearest even, subnormals kept


def _half_bits(c: Any) -> int:
    x = float(c)
    if x != x:
        return 0x7E00
    if -65520.0 < x < 65520.0:  # else rounds past 65504 to infinity (struct would raise)
        return int.from_bytes(_HALF.pack(x), "little")
    bits = 0x7C00 if x > 0 else 0xFC00
    if math.isinf(x):  # already an indeterminate value from an earlier step: quiet
        return bits
    return indeterminate("pack2x16float(e) with a component outside f16's finite range",
                         "WGSL's result is an indeterminate u32; asyncshader packs that half as "
                         "+-infinity", (c,), bits)


def pack2x16float(e: vec2f) -> np.uint32:
    """WGSL ``pack2x16float(e: vec2<f32>) -> u32``: the binary16 bits of ``e[i]`` (rounded to
    nearest, ties to even; subnormals kept) in bits ``16i .. 16i + 15``. WGSL makes the whole
    result indeterminate when a component is outside f16's finite range; asyncshader gives that
    half the bits of +-inf (NaN: 0x7E00)."""
    v = _vector("pack2x16float", "pack2x16float", e, vec2f)
    return U32(_half_bits(v.x) | _half_bits(v.y) << 16)


# ------------------------------------------------------------------------------- integer packing
def pack4xi8(e: vec4i) -> np.uint32:
    """WGSL ``pack4xI8(e: vec4<i32>) -> u32``: the low 8 bits of each component (no clamping)
    in bits ``8i .. 8i + 7``."""
    v = _vector("pack4xi8", "pack4xI8", e, vec4i)
    return U32((int(v.x) & 255) | (int(v.y) & 255) << 8 | (int(v.z) & 255) << 16
               | (int(v.w) & 255) << 24)


def pack4xu8(e: vec4u) -> np.uint32:
    """WGSL ``pack4xU8(e: vec4<u32>) -> u32``: the low 8 bits of each component (no clamping)
    in bits ``8i .. 8i + 7``."""
    v = _vector("pack4xu8", "pack4xU8", e, vec4u)
    return U32((int(v.x) & 255) | (int(v.y) & 255) << 8 | (int(v.z) & 255) << 16
               | (int(v.w) & 255) << 24)


def _clamp_i8(c: Any) -> int:
    x = int(c)
    return (127 if x > 127 else -128 if x < -128 else x) & 255


def _clamp_u8(c: Any) -> int:
    x = int(c)
    return 255 if x > 255 else x


def pack4xi8_clamp(e: vec4i) -> np.uint32:
    """WGSL ``pack4xI8Clamp(e: vec4<i32>) -> u32``: each component clamped to [-128, 127], its
    8-bit two's complement in bits ``8i .. 8i + 7``."""
    v = _vector("pack4xi8_clamp", "pack4xI8Clamp", e, vec4i)
    return U32(_clamp_i8(v.x) | _clamp_i8(v.y) << 8 | _clamp_i8(v.z) << 16
               | _clamp_i8(v.w) << 24)


def pack4xu8_clamp(e: vec4u) -> np.uint32:
    """WGSL ``pack4xU8Clamp(e: vec4<u32>) -> u32``: each component clamped to [0, 255], in bits
    ``8i .. 8i + 7``."""
    v = _vector("pack4xu8_clamp", "pack4xU8Clamp", e, vec4u)
    return U32(_clamp_u8(v.x) | _clamp_u8(v.y) << 8 | _clamp_u8(v.z) << 16
               | _clamp_u8(v.w) << 24)


# ------------------------------------------------------------------------------------- unpacking
def _signed(bits: np.ndarray) -> np.ndarray:
    """Two's complement of 8- or 16-bit lanes: -128 .. 127 or -32768 .. 32767."""
    half = 1 << (bits.itemsize * 8 - 1)
    return (bits.astype(np.int64) ^ half) - half


_BYTES = np.arange(256, dtype=np.uint8)
_HALVES = np.arange(65536, dtype=np.uint32).astype(np.uint16)
# lookup tables by lane bits; f32 division is correctly rounded, so every entry is
_UNORM8 = tuple(_BYTES.astype(F32) / F32(255))
_SNORM8 = tuple(np.maximum(_signed(_BYTES).astype(F32) / F32(127), F32(-1)))
_I8 = tuple(_signed(_BYTES).astype(I32))
_U8 = tuple(_BYTES.astype(U32))
_UNORM16 = _HALVES.astype(F32) / F32(65535)
_SNORM16 = np.maximum(_signed(_HALVES).astype(F32) / F32(32767), F32(-1))
_FLOAT16 = _HALVES.view(np.float16).astype(F32)  # f16 -> f32 is exact


def _lanes8(fn: str, wgsl: str, e: Any, table: tuple, cls: Any) -> Any:
    u = _word(fn, wgsl, e)
    return cls._make(table[u & 255], table[u >> 8 & 255], table[u >> 16 & 255], table[u >> 24])


def _lanes16(fn: str, wgsl: str, e: Any, table: np.ndarray) -> vec2f:
    u = _word(fn, wgsl, e)
    return vec2f._make(table[u & 0xFFFF], table[u >> 16])  # type: ignore[attr-defined]


def unpack4x8snorm(e: np.uint32) -> vec4f:
    """WGSL ``unpack4x8snorm(e: u32) -> vec4<f32>``: component ``i`` is ``max(v / 127, -1)``
    for the signed byte ``v`` in bits ``8i .. 8i + 7`` (correctly rounded; WGSL allows 3 ULP)."""
    return _lanes8("unpack4x8snorm", "unpack4x8snorm", e, _SNORM8, vec4f)


def unpack4x8unorm(e: np.uint32) -> vec4f:
    """WGSL ``unpack4x8unorm(e: u32) -> vec4<f32>``: component ``i`` is ``v / 255`` for the
    unsigned byte ``v`` in bits ``8i .. 8i + 7`` (correctly rounded; WGSL allows 3 ULP)."""
    return _lanes8("unpack4x8unorm", "unpack4x8unorm", e, _UNORM8, vec4f)


def unpack4xi8(e: np.uint32) -> vec4i:
    """WGSL ``unpack4xI8(e: u32) -> vec4<i32>``: component ``i`` is the byte in bits
    ``8i .. 8i + 7``, sign-extended."""
    return _lanes8("unpack4xi8", "unpack4xI8", e, _I8, vec4i)


def unpack4xu8(e: np.uint32) -> vec4u:
    """WGSL ``unpack4xU8(e: u32) -> vec4<u32>``: component ``i`` is the byte in bits
    ``8i .. 8i + 7``, zero-extended."""
    return _lanes8("unpack4xu8", "unpack4xU8", e, _U8, vec4u)


def unpack2x16snorm(e: np.uint32) -> vec2f:
    """WGSL ``unpack2x16snorm(e: u32) -> vec2<f32>``: component ``i`` is ``max(v / 32767, -1)``
    for the signed 16 bits ``v`` at ``16i`` (correctly rounded; WGSL allows 3 ULP)."""
    return _lanes16("unpack2x16snorm", "unpack2x16snorm", e, _SNORM16)


def unpack2x16unorm(e: np.uint32) -> vec2f:
    """WGSL ``unpack2x16unorm(e: u32) -> vec2<f32>``: component ``i`` is ``v / 65535`` for the
    unsigned 16 bits ``v`` at ``16i`` (correctly rounded; WGSL allows 3 ULP)."""
    return _lanes16("unpack2x16unorm", "unpack2x16unorm", e, _UNORM16)


def unpack2x16float(e: np.uint32) -> vec2f:
    """WGSL ``unpack2x16float(e: u32) -> vec2<f32>``: component ``i`` is the binary16 value in
    bits ``16i .. 16i + 15``, exactly (subnormals kept; an infinity or NaN half, indeterminate
    in WGSL, gives +-inf or NaN)."""
    return _lanes16("unpack2x16float", "unpack2x16float", e, _FLOAT16)


# ----------------------------------------------------------------------------- packed dot products
def dot4u8_packed(e1: np.uint32, e2: np.uint32) -> np.uint32:
    """WGSL ``dot4U8Packed(e1: u32, e2: u32) -> u32``: the dot product of the four unsigned
    bytes of ``e1`` and of ``e2`` (at most 4 * 255 * 255 = 260100)."""
    a = _word("dot4u8_packed", "dot4U8Packed", e1, "e1")
    b = _word("dot4u8_packed", "dot4U8Packed", e2, "e2")
    return U32((a & 255) * (b & 255) + (a >> 8 & 255) * (b >> 8 & 255)
               + (a >> 16 & 255) * (b >> 16 & 255) + (a >> 24) * (b >> 24))


def dot4i8_packed(e1: np.uint32, e2: np.uint32) -> np.int32:
    """WGSL ``dot4I8Packed(e1: u32, e2: u32) -> i32``: the dot product of the four signed
    (sign-extended) bytes of ``e1`` and of ``e2`` (-65024 ... 65536: it cannot overflow)."""
    a = _word("dot4i8_packed", "dot4I8Packed", e1, "e1")
    b = _word("dot4i8_packed", "dot4I8Packed", e2, "e2")
    total = 0
    for shift in (0, 8, 16, 24):
        x, y = a >> shift & 255, b >> shift & 255
        total += ((x ^ 128) - 128) * ((y ^ 128) - 128)
    return I32(total)
