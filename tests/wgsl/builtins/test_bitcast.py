"""``bitcast[T](e)`` (WGSL ``bitcast<T>(e)``) for every pair of f32, i32, u32 and their vectors.

Expected values come from ``struct``: the little-endian bytes of one type read as another."""

import math
import random
import struct

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import bitcast, bool_, f32, i32, u32, vec2b, vec2f, vec3f, vec3u, vec4u
from asyncshader.wgsl.types import _VECS

FORMAT = {"f": "<f", "i": "<i", "u": "<I"}
NUMPY = {"f": np.float32, "i": np.int32, "u": np.uint32}
SCALAR = {"f": f32, "i": i32, "u": u32}

rng = random.Random(23)
PATTERNS = [0, 1, 0x3F800000, 0xBF800000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
            0x7FC00001, 0x7F800001, 0xFFFFFFFF, 0x7F7FFFFF, 0x00800000, 0x007FFFFF, 0x12345678,
            *[rng.getrandbits(32) for _ in range(40)]]


def from_pattern(p, kind):
    """A numpy scalar of the kind whose bits are p (built with struct, not numpy's view)."""
    v = struct.unpack(FORMAT[kind], struct.pack("<I", p))[0]
    if kind == "f":  # through float64 a signalling NaN would be quietened: build its bits
        return np.frombuffer(struct.pack("<I", p), dtype="<f4")[0]
    return NUMPY[kind](v)


def pattern(x):
    """The bits of a numpy scalar, through struct on its bytes."""
    return struct.unpack("<I", x.tobytes())[0]


def assert_bits(got, kind, p):
    assert type(got) is NUMPY[kind], type(got)
    assert pattern(got) == p, (hex(pattern(got)), hex(p))


@pytest.mark.parametrize("src", "fiu")
@pytest.mark.parametrize("dst", "fiu")
def test_scalar_bitcast_keeps_the_32_bits(src, dst):
    for p in PATTERNS:
        assert_bits(bitcast[SCALAR[dst]](from_pattern(p, src)), dst, p)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("src", "fiu")
@pytest.mark.parametrize("dst", "fiu")
def test_vector_bitcast_is_component_wise(n, src, dst):
    src_cls, dst_cls = _VECS[(n, src)], _VECS[(n, dst)]
    for i in range(0, len(PATTERNS) - n, 2):
        ps = PATTERNS[i:i + n]
        v = src_cls._make(*[from_pattern(p, src) for p in ps])
        got = bitcast[dst_cls](v)
        assert type(got) is dst_cls
        for c, p in zip(got, ps):
            assert_bits(c, dst, p)


def test_hand_written_values():
    assert bitcast[u32](f32(1.0)) == 0x3F800000
    assert bitcast[u32](f32(-0.0)) == 0x80000000
    assert bitcast[i32](u32(0xFFFFFFFF)) == -1
    assert bitcast[u32](i32(-2147483648)) == 0x80000000
    assert bitcast[f32](u32(0x40490FDB)) == np.float32(3.14159265)
    assert math.isinf(bitcast[f32](u32(0xFF800000))) and bitcast[f32](u32(0xFF800000)) < 0
    assert bitcast[vec2f](ash.vec2u(0x3F800000, 0xC0000000)) == vec2f(1.0, -2.0)
    assert bitcast[ash.vec2[f32]] is bitcast[vec2f]  # vec2[f32] is vec2f, as vec2<f32>


def test_nan_payloads_survive_a_round_trip():
    for p in (0x7FC00001, 0x7F800001, 0xFFBFFFFF, 0x7FFFFFFF):
        assert bitcast[u32](bitcast[f32](u32(p))) == p


def test_numpy_types_name_the_same_targets():
    assert bitcast[np.uint32] is bitcast[u32]
    assert bitcast[np.float32] is bitcast[f32]


def test_plain_numbers_are_abstract_and_convert_as_wgsl():
    # bitcast<u32>(AbstractInt) is u32(e): 0 ... 0xFFFFFFFF
    assert_bits(bitcast[u32](0xFFFFFFFF), "u", 0xFFFFFFFF)
    with pytest.raises(TypeError, match=r"-1 does not fit u32.*u32\(i32\(-1\)\)"):
        bitcast[u32](-1)
    # other targets take the i32 overload: the value must fit i32
    assert_bits(bitcast[f32](0x3F800000), "f", 0x3F800000)
    assert_bits(bitcast[i32](-7), "i", 0xFFFFFFF9)
    with pytest.raises(TypeError, match=r"does not fit i32.*u32\(3212836864\)"):
        bitcast[f32](0xBF800000)
    # an abstract float becomes f32 first
    assert_bits(bitcast[u32](1.0), "u", 0x3F800000)
    assert_bits(bitcast[i32](-2.0), "i", 0xC0000000)
    with pytest.raises(TypeError, match="does not fit f32"):
        bitcast[u32](1e39)


@pytest.mark.parametrize(("target", "arg", "match"), [
    (u32, vec2f(1, 2), r"takes f32, i32, u32 or vec2h, not vec2f.*bitcast\[vec2u\]"),
    (vec4u, vec3f(1, 2, 3), r"takes vec4f, vec4i or vec4u .*not vec3f"),
    (vec3u, f32(1), r"bitcast\[vec3u\].*not f32 1.0"),
    (u32, True, r"no bitcast of bool"),
    (f32, np.int64(1), r"numpy.int64"),
    (u32, "1", r"not str"),
])
def test_wrong_sources_are_type_errors(target, arg, match):
    with pytest.raises(TypeError, match=match):
        bitcast[target](arg)


@pytest.mark.parametrize("target", [bool_, vec2b, float, int, "f16", [u32]])
def test_targets_wgsl_does_not_have_are_type_errors(target):
    with pytest.raises(TypeError, match=r"bitcast<T> takes T = f32, i32, u32, f16 or a vector"):
        bitcast[target]


def test_calling_bitcast_directly_points_at_the_spelling():
    with pytest.raises(TypeError, match=r"write bitcast\[T\]\(e\)"):
        bitcast(u32, f32(1))
