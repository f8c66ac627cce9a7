"""Independent references for the built-in tests: f32 rounding and bit patterns through
``struct`` (not numpy, not asyncshader), ULP distances, exact values with ``fractions``."""

import math
import struct
from fractions import Fraction

import numpy as np


def round_f32(x: float | Fraction) -> float:
    """x rounded to the nearest f32 (ties to even) by the C library's double -> float cast
    (``struct``), as a Python float. A Fraction goes through the nearest double first, so the
    result is one of the two f32 values around x (the nearest one but for near-ties)."""
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def bits(x) -> int:
    """The 32-bit pattern of the f32 value x."""
    return struct.unpack("<I", struct.pack("<f", float(x)))[0]


def from_bits(u: int) -> float:
    return struct.unpack("<f", struct.pack("<I", u))[0]


def _ordered(x) -> int:
    b = bits(x)
    return -(b & 0x7FFFFFFF) if b & 0x80000000 else b


def ulp_steps(a, b) -> int:
    """How many f32 values apart a and b are (0: equal; -0.0 and +0.0 are 0 apart)."""
    return abs(_ordered(a) - _ordered(b))


def ulp(x: float) -> float:
    """WGSL's ULP(x) for f32: the gap between the two f32 values around x (§Floating Point
    Accuracy); past the finite range, the gap between the two largest finite values."""
    x = abs(float(x))
    if x >= 2.0 ** 128:
        return 2.0 ** 104
    if x < 2.0 ** -126:
        return 2.0 ** -149
    _, e = math.frexp(x)   # x = m * 2**e, 0.5 <= m < 1: the f32 gap at x is 2**(e - 24)
    return 2.0 ** (e - 24)


def within_ulps(got, exact: float, n: float) -> bool:
    """|got - exact| <= n ULP(exact), computed in float64 (exact is the float64 reference)."""
    return abs(float(got) - exact) <= n * ulp(exact)


def is_f32(x) -> bool:
    return type(x) is np.float32
