"""Packing and unpacking (WGSL §17.9, §17.10) and the packed dot products.

Expected values are computed here independently: snorm/unorm packing with exact rational
arithmetic (``fractions``) of the spec's ``floor(0.5 + k * clamp(x))``; pack2x16float with numpy's
float16 (asyncshader packs with ``struct``); unpacking by decoding lanes by hand and checking
correct rounding with fractions; hand-written values from the spec."""

import itertools
import math
import random
import struct
import warnings
from fractions import Fraction

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import (
    dot4i8_packed,
    dot4u8_packed,
    f32,
    i32,
    pack2x16float,
    pack2x16snorm,
    pack2x16unorm,
    pack4x8snorm,
    pack4x8unorm,
    pack4xi8,
    pack4xi8_clamp,
    pack4xu8,
    pack4xu8_clamp,
    u32,
    unpack2x16float,
    unpack2x16snorm,
    unpack2x16unorm,
    unpack4x8snorm,
    unpack4x8unorm,
    unpack4xi8,
    unpack4xu8,
    vec2f,
    vec4f,
    vec4i,
    vec4u,
)

NAN, INF = float("nan"), float("inf")
rng = random.Random(19)


def f32_values(lo, hi, n):
    return [float(np.float32(rng.uniform(lo, hi))) for _ in range(n)]


def near_ties(k):
    """f32 values at and around the points where k * x is n + 0.5 (the rounding ties)."""
    out = []
    for n in range(-k, k, max(1, k // 40)):
        x = np.float32((n + 0.5) / k)
        out += [float(x), float(np.nextafter(x, np.float32(2))), float(np.nextafter(
            x, np.float32(-2)))]
    return out


# --------------------------------------------------------------------------- pack: snorm / unorm
def ref_norm(x, k, lo):
    """floor(0.5 + k * min(1, max(lo, x))) in exact rational arithmetic; NaN packs as 0 (the
    documented choice for WGSL's indeterminate value)."""
    if math.isnan(x):
        return 0
    c = min(Fraction(1), max(Fraction(lo), Fraction(x) if math.isfinite(x) else
                             Fraction(int(math.copysign(2, x)))))
    return math.floor(Fraction(1, 2) + k * c)


def word(lanes, width):
    w = 0
    for i, lane in enumerate(lanes):
        w |= (lane & ((1 << width) - 1)) << (width * i)
    return w


def assert_u32(got, want):
    assert type(got) is np.uint32, type(got)
    assert int(got) == want, (hex(int(got)), hex(want))


SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, INF, -INF, NAN, 1e-45, -1e-45, 1e30,
           0.0019607844, 0.99999994, -0.99999994]


@pytest.mark.parametrize(("fn", "k", "lo", "n", "width"), [
    (pack4x8snorm, 127, -1, 4, 8), (pack4x8unorm, 255, 0, 4, 8),
    (pack2x16snorm, 32767, -1, 2, 16), (pack2x16unorm, 65535, 0, 2, 16)],
    ids=["pack4x8snorm", "pack4x8unorm", "pack2x16snorm", "pack2x16unorm"])
def test_snorm_unorm_packing_is_floor_of_half_plus_k_x_exactly(fn, k, lo, n, width):
    cls = vec4f if n == 4 else vec2f
    values = SPECIAL + f32_values(-1.5, 1.5, 400) + near_ties(k)
    for i in range(0, len(values) - n, 1 if n == 2 else 3):
        xs = values[i:i + n]
        assert_u32(fn(cls(*xs)), word([ref_norm(x, k, lo) for x in xs], width))


def test_packing_ties_round_up_not_to_even():
    # 255 * 0.0019607844f is 0.5000000...; WGSL floor(0.5 + 0.5...) = 1,
    # round-half-to-even (lavapipe) gives 0
    assert_u32(pack4x8unorm(vec4f(0.0019607844, 0, 0, 0)), 0x00000001)
    assert_u32(pack4x8unorm(vec4f(0.5, 0, 0, 0)), 128)  # 127.5 -> 128
    assert_u32(pack4x8snorm(vec4f(-0.5, 0.5, 0, 0)), 0x40C1)  # -63.5 -> -63 (0xC1); 63.5 -> 64
    assert_u32(pack2x16snorm(vec2f(-0.5, 0.5)), 0x4000C001)  # -16383.5 -> -16383; 16383.5 -> 16384
    assert_u32(pack2x16unorm(vec2f(0.5, 1.0)), 0xFFFF8000)  # 32767.5 -> 32768


def test_packing_clamps_out_of_range_and_infinite_inputs():
    assert_u32(pack4x8snorm(vec4f(2.0, -2.0, INF, -INF)), 0x817F817F)  # 127, -127 (not -128)
    assert_u32(pack4x8unorm(vec4f(2.0, -2.0, INF, -INF)), 0x00FF00FF)
    assert_u32(pack2x16snorm(vec2f(-1e30, 1e30)), 0x7FFF8001)
    assert_u32(pack2x16unorm(vec2f(-1.0, 7.0)), 0xFFFF0000)


def test_nan_packs_as_zero():
    assert_u32(pack4x8snorm(vec4f(NAN, 1, NAN, -1)), 0x81007F00)
    assert_u32(pack4x8unorm(vec4f(1, NAN, 1, NAN)), 0x00FF00FF)
    assert_u32(pack2x16snorm(vec2f(NAN, NAN)), 0)
    assert_u32(pack2x16unorm(vec2f(NAN, 1.0)), 0xFFFF0000)


def test_component_zero_is_the_least_significant_part():
    assert_u32(pack4x8unorm(vec4f(1, 0, 0, 0)), 0x000000FF)
    assert_u32(pack4x8unorm(vec4f(0, 0, 0, 1)), 0xFF000000)
    assert_u32(pack2x16unorm(vec2f(1, 0)), 0x0000FFFF)


# ------------------------------------------------------------------------------- pack2x16float
def half_bits_numpy(x):
    return int(np.array([x], np.float32).astype(np.float16).view(np.uint16)[0])


def test_pack2x16float_matches_numpy_float16_in_range():
    values = [0.0, -0.0, 1.0, -2.0, 0.1, 65504.0, -65504.0, 65519.0, 2.0**-14, 2.0**-24,
              2.0**-25, 3 * 2.0**-26, 1.5 * 2.0**-24, 2.0**-14 - 2.0**-24, 1e-45, 1e-8,
              *f32_values(-65519, 65519, 100), *f32_values(-1e-4, 1e-4, 100),
              *f32_values(-2, 2, 100)]
    for x, y in itertools.pairwise(values):
        assert_u32(pack2x16float(vec2f(x, y)), half_bits_numpy(x) | half_bits_numpy(y) << 16)


def test_pack2x16float_hand_written_bits():
    assert_u32(pack2x16float(vec2f(1.0, -2.0)), 0xC0003C00)
    assert_u32(pack2x16float(vec2f(65504.0, -0.0)), 0x80007BFF)
    assert_u32(pack2x16float(vec2f(65519.0, 0.5)), 0x38007BFF)  # 65519 rounds down to 65504
    # subnormal halves are kept (WGSL allows flushing them to zero; asyncshader does not)
    assert_u32(pack2x16float(vec2f(2.0**-24, 2.0**-14 - 2.0**-24)), 0x03FF0001)
    assert_u32(pack2x16float(vec2f(2.0**-25, 3 * 2.0**-25)), 0x00020000)  # ties to even: 0, 2
    assert_u32(pack2x16float(vec2f(1e-45, -1e-45)), 0x80000000)  # f32 subnormals -> +-0


def test_pack2x16float_out_of_f16_range_gives_infinity_bits():
    # WGSL: indeterminate when a component is outside f16's finite range; asyncshader gives
    # that half +-infinity (and a quiet NaN for NaN), documented
    with pytest.warns(ash.WGSLIndeterminateWarning, match="outside f16's finite range"):
        assert_u32(pack2x16float(vec2f(65520.0, -65520.0)), 0xFC007C00)
    with pytest.warns(ash.WGSLIndeterminateWarning) as caught:
        assert_u32(pack2x16float(vec2f(1e6, 1.0)), 0x3C007C00)
    assert caught[0].filename == __file__  # at the caller's line
    with warnings.catch_warnings():  # infinities and NaN are indeterminate already: quiet
        warnings.simplefilter("error")
        assert_u32(pack2x16float(vec2f(INF, -INF)), 0xFC007C00)
        assert_u32(pack2x16float(vec2f(NAN, 0.0)), 0x00007E00)


# ----------------------------------------------------------------------------- integer packing
def test_integer_packing_truncates_or_clamps():
    assert_u32(pack4xi8(vec4i(1, -1, 127, -128)), 0x807FFF01)
    assert_u32(pack4xi8(vec4i(128, -129, 256, 0x12345678)), 0x78007F80)  # low 8 bits
    assert_u32(pack4xi8_clamp(vec4i(128, -129, 2**31 - 1, -(2**31))), 0x807F807F)
    assert_u32(pack4xi8_clamp(vec4i(-1, 0, 5, -5)), 0xFB0500FF)
    assert_u32(pack4xu8(vec4u(1, 255, 256, 0xFFFFFFFF)), 0xFF00FF01)
    assert_u32(pack4xu8_clamp(vec4u(1, 255, 256, 0xFFFFFFFF)), 0xFFFFFF01)


def test_integer_packing_against_a_reference():
    for _ in range(200):
        xs = [rng.randrange(-(2**31), 2**31) for _ in range(4)]
        us = [rng.getrandbits(rng.choice((8, 9, 32))) for _ in range(4)]
        assert_u32(pack4xi8(vec4i(*xs)), word(xs, 8))
        assert_u32(pack4xi8_clamp(vec4i(*xs)), word([min(127, max(-128, x)) for x in xs], 8))
        assert_u32(pack4xu8(vec4u(*us)), word(us, 8))
        assert_u32(pack4xu8_clamp(vec4u(*us)), word([min(255, u) for u in us], 8))


# ---------------------------------------------------------------------------------- unpacking
def lanes(w, width, signed):
    out = []
    for i in range(32 // width):
        v = (w >> (width * i)) & ((1 << width) - 1)
        if signed and v >> (width - 1):
            v -= 1 << width
        out.append(v)
    return out


def assert_correctly_rounded(got, exact):
    """got (an np.float32) is the f32 nearest to the rational ``exact``."""
    assert type(got) is np.float32
    here = abs(Fraction(float(got)) - exact)
    for step in (np.float32(np.inf), np.float32(-np.inf)):
        other = np.nextafter(got, step)
        assert here <= abs(Fraction(float(other)) - exact), (got, exact)


WORDS = [0, 0xFFFFFFFF, 0x80808080, 0x7F7F7F7F, 0x8001FF7F, 0x01020304, 0x7FFF8000,
         0x80007FFF, 0xFFFF0000, *[rng.getrandbits(32) for _ in range(60)]]


def test_unpack_8bit_lanes_over_every_byte():
    for b in range(256):
        w = b | (255 - b) << 8 | ((b * 7) & 255) << 16 | ((b * 13) & 255) << 24
        u, s = lanes(w, 8, False), lanes(w, 8, True)
        got = unpack4x8unorm(u32(w))
        assert type(got) is vec4f
        for g, v in zip(got, u):
            assert_correctly_rounded(g, Fraction(v, 255))
        for g, v in zip(unpack4x8snorm(u32(w)), s):
            assert_correctly_rounded(g, max(Fraction(v, 127), Fraction(-1)))
        got_i, got_u = unpack4xi8(u32(w)), unpack4xu8(u32(w))
        assert type(got_i) is vec4i and all(type(c) is np.int32 for c in got_i)
        assert type(got_u) is vec4u and all(type(c) is np.uint32 for c in got_u)
        assert list(got_i) == s and list(got_u) == u


def test_unpack_16bit_lanes():
    halves = [*range(0, 65536, 97), 0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF]
    for h in halves:
        w = h | (0xFFFF - h) << 16
        got_u, got_s = unpack2x16unorm(u32(w)), unpack2x16snorm(u32(w))
        assert type(got_u) is vec2f and type(got_s) is vec2f
        for g, v in zip(got_u, lanes(w, 16, False)):
            assert_correctly_rounded(g, Fraction(v, 65535))
        for g, v in zip(got_s, lanes(w, 16, True)):
            assert_correctly_rounded(g, max(Fraction(v, 32767), Fraction(-1)))


def test_unpack_snorm_end_points():
    assert list(unpack4x8snorm(u32(0x7F81807F))) == [1.0, -1.0, -1.0, 1.0]  # -128 and -127: -1
    assert list(unpack2x16snorm(u32(0x80007FFF))) == [1.0, -1.0]
    assert list(unpack4x8unorm(u32(0xFF00FF00))) == [0.0, 1.0, 0.0, 1.0]


def decode_half(h):
    """binary16 bits -> Python float, from the format: sign, 5-bit exponent (bias 15), 10 bits."""
    sign = -1.0 if h >> 15 else 1.0
    e, m = (h >> 10) & 31, h & 1023
    if e == 31:
        return sign * INF if m == 0 else NAN
    if e == 0:
        return sign * m * 2.0**-24
    return sign * (1 + m / 1024) * 2.0 ** (e - 15)


def test_unpack2x16float_decodes_every_half():
    for h in range(65536):
        got = unpack2x16float(u32(h | 0x3C00 << 16))
        assert type(got) is vec2f and type(got.x) is np.float32
        want = decode_half(h)
        if math.isnan(want):
            assert math.isnan(got.x), hex(h)
        else:
            assert got.x == want and math.copysign(1, got.x) == math.copysign(1, want), hex(h)
        assert got.y == 1.0


def test_struct_half_format_agrees_with_the_decoder():  # the test's own reference, checked
    for h in (0, 1, 0x3C00, 0x7BFF, 0x8001, 0xC000, 0x0400, 0x03FF):
        assert decode_half(h) == struct.unpack("<e", h.to_bytes(2, "little"))[0]


def test_round_trips():
    for w in WORDS:
        assert_u32(pack4xu8(unpack4xu8(u32(w))), w)
        assert_u32(pack4xi8(unpack4xi8(u32(w))), w)
        assert_u32(pack4x8unorm(unpack4x8unorm(u32(w))), w)
        lanes16 = lanes(w, 16, False)
        if all((v >> 10) & 31 != 31 for v in lanes16):  # finite halves
            assert_u32(pack2x16float(unpack2x16float(u32(w))), w)


# ------------------------------------------------------------------------- packed dot products
def test_dot4_packed_against_a_reference_and_the_extremes():
    for a in WORDS:
        for b in WORDS[::7]:
            want_u = sum(x * y for x, y in zip(lanes(a, 8, False), lanes(b, 8, False)))
            want_i = sum(x * y for x, y in zip(lanes(a, 8, True), lanes(b, 8, True)))
            assert_u32(dot4u8_packed(u32(a), u32(b)), want_u)
            got = dot4i8_packed(u32(a), u32(b))
            assert type(got) is np.int32 and int(got) == want_i
    assert_u32(dot4u8_packed(u32(0xFFFFFFFF), u32(0xFFFFFFFF)), 260100)
    assert dot4i8_packed(u32(0x80808080), u32(0x80808080)) == 65536
    assert dot4i8_packed(u32(0x80808080), u32(0x7F7F7F7F)) == -65024
    assert dot4i8_packed(0x01020304, 0xFFFFFFFF) == -10  # plain ints are u32 here


# ----------------------------------------------------------------------------- argument types
@pytest.mark.parametrize(("fn", "arg", "match"), [
    (pack4x8unorm, vec4i(1, 2, 3, 4), r"takes a vec4f \(WGSL vec4<f32>\), not vec4i"),
    (pack4x8snorm, (0.0, 0.0, 0.0, 0.0), r"takes a vec4f.*not tuple"),
    (pack2x16float, vec4f(0, 0, 0, 0), r"takes a vec2f.*vec2f\(v\)"),
    (pack4xi8, vec4u(1, 2, 3, 4), r"pack4xI8\) takes a vec4i"),
    (pack4xu8_clamp, vec4i(1, 2, 3, 4), r"pack4xU8Clamp\) takes a vec4u"),
    (unpack4x8unorm, i32(1), r"takes a u32 as e, not i32 1.*bitcast\[u32\]"),
    (unpack2x16float, f32(1), r"takes a u32 as e, not f32"),
    (unpack4xi8, -1, r"-1 does not fit u32"),
])
def test_wrong_argument_types_are_type_errors(fn, arg, match):
    with pytest.raises(TypeError, match=match):
        fn(arg)


def test_dot_products_check_both_words():
    with pytest.raises(TypeError, match=r"dot4U8Packed\) takes a u32 as e2"):
        dot4u8_packed(u32(1), i32(1))
