"""WGSL's built-in function library (WGSL §17), as plain functions on asyncshader's values.

Names are WGSL's in snake_case (docs/builtins.md states the rule): ``countOneBits`` is
``count_one_bits``, ``pack4xU8Clamp`` is ``pack4xu8_clamp``, ``arrayLength`` is ``array_length``;
``bitcast<T>(e)`` is written ``bitcast[T](e)``.
"""

# ---- bit manipulation, packing, bitcast, arrayLength (branch builtins-bits) ---------------------
from .arrays import array_length
from .bitcast import bitcast
from .bits import (
    count_leading_zeros,
    count_one_bits,
    count_trailing_zeros,
    extract_bits,
    first_leading_bit,
    first_trailing_bit,
    insert_bits,
    reverse_bits,
)
from .packing import (
    dot4i8_packed,
    dot4u8_packed,
    pack2x16float,
    pack2x16snorm,
    pack2x16unorm,
    pack4x8snorm,
    pack4x8unorm,
    pack4xi8,
    pack4xi8_clamp,
    pack4xu8,
    pack4xu8_clamp,
    unpack2x16float,
    unpack2x16snorm,
    unpack2x16unorm,
    unpack4x8snorm,
    unpack4x8unorm,
    unpack4xi8,
    unpack4xu8,
)

__all__ = [  # the names from builtins-bits (the other blocks add theirs with +=)
    "array_length",
    "bitcast",
    "count_leading_zeros",
    "count_one_bits",
    "count_trailing_zeros",
    "dot4i8_packed",
    "dot4u8_packed",
    "extract_bits",
    "first_leading_bit",
    "first_trailing_bit",
    "insert_bits",
    "pack2x16float",
    "pack2x16snorm",
    "pack2x16unorm",
    "pack4x8snorm",
    "pack4x8unorm",
    "pack4xi8",
    "pack4xi8_clamp",
    "pack4xu8",
    "pack4xu8_clamp",
    "reverse_bits",
    "unpack2x16float",
    "unpack2x16snorm",
    "unpack2x16unorm",
    "unpack4x8snorm",
    "unpack4x8unorm",
    "unpack4xi8",
    "unpack4xu8",
]
# ---- end of builtins-bits block -----------------------------------------------------------------
