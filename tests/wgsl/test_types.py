"""WGSL value types: scalars with WGSL conversion and wrap-around, vectors, swizzles."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec2f, vec3f, vec3i, vec3u, vec4f, vec4u


def test_scalar_constructors_convert_like_wgsl():
    assert u32(-1) == 4294967295 and isinstance(u32(-1), np.uint32)
    assert i32(0xFFFFFFFF) == -1 and i32(0x80000000) == -2147483648
    assert u32(2.9) == 2 and u32(-3.5) == 0 and u32(1e20) == 4294967295
    assert i32(-2.9) == -2 and i32(1e20) == 2147483647
    assert f32(0.1) == np.float32(0.1) and float(f32(0.1)) != 0.1
    assert isinstance(np.uint32(3), u32) and not isinstance(3, u32)


def test_a_zero_dimensional_array_converts_by_its_value():
    # (a uniform i32 viewed from a buffer's bytes is such an array: -7, not its truth 1)
    assert i32(np.array(-7, np.int32)) == -7 and u32(np.array(5, np.uint32)) == 5
    assert u32(np.array(-1, np.int32)) == 4294967295 and i32(np.array(-2.9, np.float32)) == -2


def test_u32_and_i32_arithmetic_wraps_inside_a_dispatch():
    @ash.compute(workgroup_size=1)
    async def wraps(out: ash.Storage, sout: ash.Storage, *, local_invocation_index: u32):
        out[0] = local_invocation_index - 1
        out[1] = u32(0xFFFFFFFF) * 3
        sout[0] = i32(2147483647) + 1

    out, sout = np.zeros(2, np.uint32), np.zeros(1, np.int32)
    with np.errstate(over="raise"):  # the dispatch silences overflow itself
        ash.run(wraps, out=out, sout=sout)
    assert out.tolist() == [4294967295, 4294967293]
    assert sout.tolist() == [-2147483648]


def test_f32_arithmetic_rounds_every_operation():
    a, b = f32(16777216.0), f32(1.0)
    assert a + b == a  # 2**24 + 1 is not representable in f32
    assert float(a) + float(b) != float(a)


def test_vector_construction_splat_and_composition():
    assert list(vec3f(1, 2, 3)) == [1.0, 2.0, 3.0]
    assert list(vec3f(2)) == [2.0, 2.0, 2.0]
    assert list(vec4f(vec2f(1, 2), 3, 4)) == [1.0, 2.0, 3.0, 4.0]
    assert list(vec3u()) == [0, 0, 0]
    assert isinstance(vec3f(1, 2, 3).x, np.float32) and isinstance(vec3u(1, 2, 3).y, np.uint32)
    with pytest.raises(TypeError, match="takes 3 components"):
        vec3f(1, 2)
    assert ash.vec3[ash.f32] is vec3f and ash.vec4[u32] is vec4u


def test_components_swizzles_and_rgba_aliases():
    v = vec4f(1, 2, 3, 4)
    assert v.w == 4 and v.a == 4 and v.r == 1
    assert v.zyx == vec3f(3, 2, 1) and v.xx == vec2f(1, 1) and v.rgba == v
    v.x = 10
    assert v[0] == 10 and len(v) == 4
    v[1] = 7
    assert v.y == 7
    with pytest.raises(AttributeError, match="'q'"):
        _ = v.q
    with pytest.raises(AttributeError):
        _ = vec2f(1, 2).z


def test_every_swizzle_reads_a_vector_of_the_same_kind():
    v, w = vec4u(1, 2, 3, 4), ash.vec3h(0.5, 1.5, 2.5)
    assert v.wzyx == vec4u(4, 3, 2, 1) and type(v.wzyx) is vec4u
    assert v.ba == ash.vec2u(3, 4) and type(v.ab) is ash.vec2u and v.g == 2
    assert w.bgr == ash.vec3h(2.5, 1.5, 0.5) and type(w.zz) is ash.vec2h
    assert ash.vec2b(True, False).yxy == ash.vec3b(False, True, False)
    with pytest.raises(AttributeError):
        _ = vec3f(1, 2, 3).xyzw  # (w is not a component of a vec3f)
    with pytest.raises(AttributeError):
        _ = v.xyzwx  # (five letters)
    with pytest.raises(AttributeError):
        _ = v.xg  # (letters of one set only)


def test_vectors_read_components_without_a_getattr_hook():
    # A class with __getattr__ reads every attribute through CPython's slower hook: the
    # swizzles are properties, so `v.x` stays a plain slot read (docs/performance.md).
    for cls in (vec2f, vec3i, vec4u, ash.vec4h, ash.vec3b):
        assert not hasattr(cls, "__getattr__")


@ash.compute(workgroup_size=1)
async def reads_no_such_component(out: ash.Storage[vec4f]):
    v = vec3f(1.0)
    out[0] = vec4f(v.q, 0.0, 0.0, 0.0)


def test_a_shader_reading_no_such_component_is_told_the_components():
    with pytest.raises(ash.ShaderError, match=r"invocation .* raised AttributeError: vec3f has no "
                       r"component or swizzle 'q' \(components: x, y, z; aliases r g b a\) at "
                       r".*test_types.py:\d+: out\[0\] = vec4f\(v.q") as info:
        ash.run(reads_no_such_component, out=np.zeros((1, 4), np.float32))
    assert "components: x, y, z" in str(info.value.original)  # (the chained cause too)


def test_vector_arithmetic_is_component_wise_with_scalar_broadcast():
    a, b = vec3f(1, 2, 3), vec3f(4, 5, 6)
    assert a + b == vec3f(5, 7, 9) and a * 2 == vec3f(2, 4, 6) and 2 * a == vec3f(2, 4, 6)
    assert b - a == vec3f(3, 3, 3) and 1 - a == vec3f(0, -1, -2)
    assert b / 2 == vec3f(2, 2.5, 3) and -a == vec3f(-1, -2, -3) and abs(-a) == a
    assert vec3f(5.5, -5.5, 7) % vec3f(2, 2, 7) == vec3f(1.5, -1.5, 0)  # WGSL: trunc-based


def test_integer_vector_division_and_remainder_truncate_like_wgsl():
    assert vec3i(-7, 7, -7) / vec3i(2, 2, -2) == vec3i(-3, 3, 3)
    assert vec3i(-7, 7, -7) % vec3i(2, 2, 2) == vec3i(-1, 1, -1)
    assert vec3u(7, 8, 9) / vec3u(2, 0, 3) == vec3u(3, 8, 3)  # x / 0 is x
    assert vec3u(7, 8, 9) % vec3u(2, 0, 3) == vec3u(1, 0, 0)  # x % 0 is 0


def test_integer_vectors_wrap_and_shift_modulo_32():
    with np.errstate(over="ignore"):
        assert vec3u(1, 2, 3) - 5 == vec3u(4294967292, 4294967293, 4294967294)
    assert vec3u(1, 1, 1) << vec3u(33, 1, 0) == vec3u(2, 2, 1)
    assert vec3u(0xF0, 0x0F, 0xFF) & 0x3C == vec3u(0x30, 0x0C, 0x3C)
    assert ~vec3u(0, 1, 2) == vec3u(4294967295, 4294967294, 4294967293)


def test_comparisons_are_component_wise_and_need_all_or_any():
    a = vec3f(1, 5, 3)
    mask = a < vec3f(2, 2, 4)
    assert list(mask) == [True, False, True]
    assert ash.any(mask) and not ash.all(mask)
    with pytest.raises(TypeError, match="use asyncshader.all"):
        bool(mask)
    assert a == vec3f(1, 5, 3) and a != vec3f(1, 5, 4)
    assert list(a.eq(vec3f(1, 0, 3))) == [True, False, True]
    assert ash.select(vec3f(0), vec3f(9), mask) == vec3f(9, 0, 9)
    assert ash.select(1, 2, False) == 1


def test_mixing_vector_types_is_an_error_with_the_fix():
    with pytest.raises(TypeError, match=r"convert one side first, e.g. vec3f\(other\)"):
        vec3f(1, 2, 3) + vec3u(1, 2, 3)


def test_vectors_convert_to_numpy_and_store_into_buffers():
    buf = np.zeros((2, 3), np.float32)
    buf[1] = vec3f(1, 2, 3)
    assert buf[1].tolist() == [1, 2, 3]
    assert np.asarray(vec3u(1, 2, 3)).dtype == np.uint32


def test_scalar_operands_take_the_vector_component_type():
    assert isinstance((vec3f(1, 2, 3) * u32(2)).x, np.float32)
    assert (vec3u(1, 2, 3) + 1) == vec3u(2, 3, 4) and isinstance((vec3u(1) + 1).x, np.uint32)
    with pytest.raises(TypeError, match="cannot combine vec3u with a float"):
        vec3u(1) + 1.5
    with pytest.raises(TypeError, match="cannot combine vec3i with a float"):
        2.5 * vec3i(1)


def test_float_to_integer_conversion_clamps_infinities():
    assert u32(float("inf")) == 4294967295 and u32(float("-inf")) == 0
    assert i32(float("inf")) == 2147483647 and i32(float("-inf")) == -2147483648
    assert u32(float("nan")) == 0


def test_f32_to_integer_conversions_clamp_to_what_f32_can_represent():
    # WGSL §15.7.6: truncate, then clamp to the target's range as the source type represents
    # it: 2147483520 and 4294967040 are the largest f32 values below 2**31 and 2**32
    assert ash.i32(np.float32(1e20)) == 2147483520 and ash.u32(np.float32(1e20)) == 4294967040
    assert ash.i32(np.float32(2147483647.0)) == 2147483520  # (the f32 is 2**31)
    assert ash.i32(np.float32(-1e20)) == -2147483648 and ash.u32(np.float32(-1.0)) == 0
    assert ash.i32(np.float32(-3.9)) == -3 and ash.u32(np.float32(3.9)) == 3
    assert ash.vec2i(ash.vec2f(1e20, -1e20)) == ash.vec2i(2147483520, -2147483648)
    # a Python float is WGSL's abstract float: the true limits
    assert ash.i32(1e20) == 2147483647 and ash.u32(float("inf")) == 4294967295
