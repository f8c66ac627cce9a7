"""WGSL's f16 (``enable f16;``): the scalar ``f16`` (a numpy.float16), the vectors ``vec2h``
``vec3h`` ``vec4h``, their arithmetic (every operation rounds to binary16), conversions
(builtins.md §3.1), the operators' typing (mixed f16/f32 is refused) and float16 storage buffers.

Expected values are written by hand from binary16's format (10 fraction bits, ULP 2**-10 in
[1, 2)) or computed exactly with Fraction and rounded to binary16 by tests/wgsl/f16_refs.py,
which works on integers only (it does not use numpy)."""

import math
from fractions import Fraction

import numpy as np
import pytest
from f16_refs import round_to_f16

import asyncshader as ash
from asyncshader import f16, f32, i32, u32, vec2h, vec3, vec3f, vec3h, vec4f, vec4h
from asyncshader.wgsl.operators import div, floordiv, mod


def test_the_reference_rounding_on_hand_made_cases():
    assert round_to_f16(Fraction(1) + Fraction(1, 2048)) == 1.0  # a tie: to even
    assert round_to_f16(Fraction(1) + Fraction(3, 2048)) == 1.0 + 2 / 1024  # a tie: to even
    assert round_to_f16(Fraction(65519)) == 65504.0
    assert round_to_f16(Fraction(65520)) == math.inf
    assert round_to_f16(Fraction(1, 2 ** 25)) == 0.0  # half the smallest subnormal: to even
    assert round_to_f16(Fraction(3, 2 ** 26)) == 2.0 ** -24


def test_f16_scalar_constructor_rounds_to_binary16():
    assert isinstance(f16(0.1), np.float16) and isinstance(f16(0.1), f16)
    assert float(f16(0.1)) == 0.0999755859375  # 1638 * 2**-14
    assert float(f16(2049)) == 2048.0 and float(f16(2051)) == 2052.0  # ties to even
    assert float(f16(65519.0)) == 65504.0
    assert float(f16(f32(1.0009765625))) == 1.0009765625  # f32 -> f16 exact
    assert float(f16(True)) == 1.0 and float(f16()) == 0.0
    assert float(f16(2.0 ** -24)) == 2.0 ** -24  # subnormals are kept
    assert f16.wgsl == "f16" and f16.dtype == np.dtype(np.float16)


def test_f16_conversion_past_the_range_is_infinite():
    # WGSL (§3.1): at runtime an out-of-range f32 -> f16 conversion is indeterminate (an
    # implementation may give ±65504 for |x| < 65536, else ±inf); asyncshader picks IEEE's
    # round to nearest: ±65504 below 65520, ±inf from there on
    with np.errstate(over="raise"):  # no numpy overflow warning either
        assert f16(65520.0) == math.inf and f16(-1e300) == -math.inf
        assert f16(10 ** 400) == math.inf and f16(f32(1e30)) == math.inf
    assert math.isnan(f16(float("nan")))


def test_f16_to_integers_truncates_and_never_clamps():
    # every finite f16 fits in i32 (and in u32 when non-negative): builtins.md §3.1
    assert i32(f16(-3.75)) == -3 and u32(f16(3.75)) == 3
    assert i32(f16(65504.0)) == 65504 and i32(f16(-65504.0)) == -65504
    assert u32(f16(-2.5)) == 0
    assert f32(f16(0.1)) == np.float32(0.0999755859375)  # f16 -> f32 is exact


@pytest.mark.parametrize("a, b", [
    (1.0, 2.0 ** -11),  # exact sum 1 + 2**-11: a tie, to even (1.0)
    (1.0, 3 * 2.0 ** -11),  # 1 + 3 * 2**-11: a tie, to even (1 + 2**-9)
    (2048.0, 1.0),  # 2049: a tie between 2048 and 2050, to even
    (0.1, 0.2),
    (65504.0, 8.0),  # rounds back to 65504
    (65504.0, 16.0),  # 65520: a tie past MAX, to infinity
    (2.0 ** -24, 2.0 ** -24),  # subnormals add exactly
    (1.0009765625, 1.0009765625),
    (3.140625, -3.138671875),
])
def test_f16_add_sub_mul_div_are_correctly_rounded(a, b):
    # numpy computes a binary16 operation in float32 and rounds once to binary16; float32's 24
    # bits are at least 2 * 11 + 2, so the result is the correctly rounded binary16 value of the
    # exact one (checked here against Fraction arithmetic)
    x, y = f16(a), f16(b)
    fx, fy = Fraction(float(x)), Fraction(float(y))
    with np.errstate(over="ignore"):
        results = [(x + y, fx + fy), (x - y, fx - fy), (x * y, fx * fy), (div(x, y), fx / fy)]
    for got, exact in results:
        assert isinstance(got, np.float16)
        assert float(got) == round_to_f16(exact), (a, b, got, exact)


def test_f16_random_operations_match_the_exact_rounding():
    rng = np.random.default_rng(16)
    bits = rng.integers(0, 0x7C00, 600, dtype=np.uint16)  # finite positive f16 patterns
    vals = bits.view(np.float16) * np.where(rng.random(600) < 0.5, 1, -1).astype(np.float16)
    with np.errstate(all="ignore"):
        for x, y in zip(vals[::2], vals[1::2]):
            fx, fy = Fraction(float(x)), Fraction(float(y))
            assert float(x * y) == round_to_f16(fx * fy)
            assert float(x + y) == round_to_f16(fx + fy)
            assert float(div(x, y)) == round_to_f16(fx / fy)


def test_a_python_number_with_f16_stays_f16():
    # WGSL: an abstract number converts to f16 (AbstractFloat -> f16 is an automatic conversion)
    x = f16(1.0)
    for r in (x + 0.1, 0.1 + x, x * 3, 2 * x, div(x, 3), div(1, x), mod(x, 0.75)):
        assert isinstance(r, np.float16), r
    assert float(x + 0.1) == round_to_f16(1 + Fraction(float(f16(0.1))))


def test_f16_remainder_truncates_like_wgsl():
    assert float(mod(f16(-7.0), f16(2.0))) == -1.0
    assert float(mod(f16(7.5), f16(-2.0))) == 1.5
    assert float(floordiv(f16(7.0), f16(2.0))) == 3.0


@pytest.mark.parametrize("op", [div, mod])
def test_mixed_f16_and_f32_is_refused_at_division_and_remainder(op):
    with pytest.raises(ash.ShaderTypeError, match=r"f16 . f32.*f32\(x\)|f16\(y\)"):
        op(f16(1.0), f32(2.0))
    with pytest.raises(ash.ShaderTypeError, match="f32"):
        op(f32(1.0), f16(2.0))
    with pytest.raises(ash.ShaderTypeError, match="i32"):
        op(f16(1.0), i32(2))


def test_a_literal_past_the_f16_range_is_refused():
    with pytest.raises(ash.ShaderTypeError, match="does not fit in f16"):
        div(f16(1.0), 1e5)
    with pytest.raises(ash.ShaderTypeError, match="does not fit in f16"):
        mod(70000, f16(3.0))


def test_strict_kernels_refuse_mixed_f16_and_f32_at_plus_minus_times():
    @ash.compute(workgroup_size=1, strict=True)
    async def mixed(out: ash.Storage):
        a, b = f16(1.5), f32(2.0)
        out[0] = f32(a) * b  # converted: fine
        out[1] = a * b  # line refused

    out = np.zeros(2, np.float32)
    with pytest.raises(ash.ShaderError, match=r"f16 \* f32.*not a WGSL expression") as err:
        ash.run(mixed, out=out)
    assert "test_f16.py" in str(err.value)
    assert out[0] == 3.0


def test_strict_kernels_take_f16_with_literals():
    @ash.compute(workgroup_size=1, strict=True)
    async def literals(out: ash.Storage):
        a = f16(1.5)
        out[0] = a * 2 + 0.25 - a / 3

    out = np.zeros(1, np.float16)
    ash.run(literals, out=out)
    a = Fraction(3, 2)
    third = Fraction(round_to_f16(a / 3))
    assert float(out[0]) == round_to_f16(Fraction(round_to_f16(a * 2 + Fraction(1, 4))) - third)


# -------------------------------------------------------------------------------------- vectors
def test_f16_vectors_and_the_vec_template():
    assert vec3[f16] is vec3h and vec3[np.float16] is vec3h
    v = vec3h(1, 2, 3)
    assert v.kind == "h" and v.scalar is f16 and isinstance(v.x, np.float16)
    assert type(v.xy) is vec2h and type(v.xyzx) is vec4h
    assert repr(vec2h(0.1, 2)) == "vec2h(0.0999755859375, 2.0)"
    assert vec4h(vec4f(0.1, 1e5, -1, 2)) == vec4h(f16(0.1), math.inf, -1, 2)  # converts
    assert np.asarray(v).dtype == np.float16


def test_f16_vector_arithmetic_rounds_every_component():
    v = vec3h(1.0, 2048.0, 0.1)
    w = v + vec3h(2.0 ** -11, 1.0, 0.2)
    assert [float(c) for c in w] == [1.0, 2048.0, round_to_f16(Fraction(float(f16(0.1)))
                                                                + Fraction(float(f16(0.2))))]
    for r in (v * 0.5, v / 3, v % 2, -v, 2.0 * v, v - 1):
        assert type(r) is vec3h and all(isinstance(c, np.float16) for c in r)
    assert [float(c) for c in v / 3] == [round_to_f16(Fraction(float(c)) / 3) for c in v]
    assert [float(c) for c in vec2h(-7, 7.5) % vec2h(2, -2)] == [-1.0, 1.5]
    assert (v < vec3h(2)).x and not (v < vec3h(2)).y


def test_f16_vectors_refuse_other_types():
    v = vec3h(1)
    with pytest.raises(TypeError, match="cannot combine vec3h with vec3f.*vec3h\\(other\\)"):
        v + vec3f(1)
    with pytest.raises(TypeError, match="cannot combine vec3h with float32.*f16\\(x\\)"):
        v * f32(2)
    with pytest.raises(TypeError, match="does not fit in f16"):
        v * 1e6


# ------------------------------------------------------------------------ memory and storage
def test_float16_storage_buffers_bind_and_round_on_store():
    @ash.compute(workgroup_size=4)
    async def halve(buf: ash.Storage[f16], *, global_invocation_index: u32):
        i = global_invocation_index
        buf[i] = buf[i] / 3 + f16(0.5)

    buf = np.array([1, 2, 3, 4], np.float16)
    expect = [round_to_f16(Fraction(round_to_f16(Fraction(int(x), 3))) + Fraction(1, 2))
              for x in buf]
    result = ash.run(halve, buf=buf)
    assert [float(x) for x in buf] == expect
    assert result.outputs["buf"] is buf


def test_array_of_vec4h_storage_and_workgroup_f16_memory():
    tile = ash.workgroup(ash.array(vec4h, 2))
    total = ash.workgroup(f16)

    @ash.compute(workgroup_size=2)
    async def k(out: ash.Storage, *, local_invocation_index: u32):
        i = local_invocation_index
        tile[i] = vec4h(out[i]) * 0.5
        await ash.workgroup_barrier()
        if i == 0:
            total.value = tile[0].x + tile[1].w
        await ash.workgroup_barrier()
        out[i] = vec4h(total.value)

    out = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.float16)
    ash.run(k, out=out)
    assert out.tolist() == [[4.5] * 4, [4.5] * 4]


def test_storage_of_f16_refuses_a_float32_array():
    @ash.compute(workgroup_size=1)
    async def k(buf: ash.Storage[f16]):
        buf[0] = f16(1)

    with pytest.raises(ash.BindingError, match=r"Storage\[f16\].*float32"):
        ash.run(k, buf=np.zeros(1, np.float32))


# --------------------------------------------------------------------- bitcast and packing
def test_bitcast_f16_forms_follow_the_lane_order():
    # builtins.md §3.3: x sits at the lowest bytes; 1.0h = 0x3C00, -2.5h = 0xC100, 2.0h = 0x4000
    bc = ash.bitcast
    assert bc[u32](vec2h(1.0, -2.5)) == 0xC1003C00
    assert bc[i32](vec2h(1.0, -2.5)) == 0xC1003C00 - 2 ** 32
    assert bc[f32](vec2h(0.0, 1.875)) == 1.0  # 0x3F800000: the high half is 0x3F80 = 1.875h
    assert bc[vec2h](u32(0xC1003C00)) == vec2h(1.0, -2.5)
    assert bc[vec2h](f32(1.0)) == vec2h(0.0, 1.875)
    assert bc[vec2h](0x4000) == vec2h(2.0, 0.0)  # an abstract int: as i32
    assert bc[ash.vec2u](vec4h(1.0, 2.0, -2.5, 0.0)) == ash.vec2u(0x40003C00, 0x0000C100)
    assert bc[vec4h](ash.vec2u(0x40003C00, 0xC100)) == vec4h(1.0, 2.0, -2.5, 0.0)
    assert bc[vec4h](ash.vec2i(-1, 0))[0].__class__ is np.float16
    assert bc[f16](f16(3.0)) == 3.0 and bc[vec3h](vec3h(1, 2, 3)) == vec3h(1, 2, 3)
    for target, arg in ((f16, u32(1)), (u32, f16(1)), (vec3h, vec3f(1)), (vec2h, ash.vec2u(1)),
                        (ash.vec3u, vec4h(1))):
        with pytest.raises(TypeError, match="bitcast"):
            bc[target](arg)


def test_bitcast_round_trips_every_half_pattern():
    words = np.arange(0, 2 ** 16, 7, dtype=np.uint32) | (np.arange(0, 2 ** 16, 7,
                                                                   dtype=np.uint32)[::-1] << 16)
    for w in words[:2000]:
        h = ash.bitcast[vec2h](u32(w))
        assert ash.bitcast[u32](h) == w  # NaN payloads too: the bits are kept


def test_pack2x16float_agrees_with_the_f16_type():
    rng = np.random.default_rng(5)
    for a, b in rng.uniform(-65504, 65504, (300, 2)).astype(np.float32):
        assert ash.pack2x16float(ash.vec2f(a, b)) == ash.bitcast[u32](vec2h(f16(a), f16(b)))
        assert ash.quantize_to_f16(a) == f32(f16(a))
    for w in rng.integers(0, 2 ** 32, 300, dtype=np.uint64).astype(np.uint32):
        h = ash.bitcast[vec2h](u32(w))
        if all(np.isfinite(c) for c in h):
            assert ash.unpack2x16float(u32(w)) == ash.vec2f(f32(h.x), f32(h.y))


# --------------------------------------------------------------- f32 stored into f16 memory
def test_an_f32_stored_into_f16_memory_is_an_implicit_conversion():
    from asyncshader.sanitizers.findings import ImplicitConversion

    @ash.compute(workgroup_size=2)
    async def k(out: ash.Storage[f16], *, local_invocation_index: u32):
        i = local_invocation_index
        out[i] = f32(0.1) * f32(i + 1)  # an f32 into array<f16>
        out[i + 2] = 0.1  # a Python float: WGSL's abstract float converts to f16
        out[i + 4] = f16(0.1)

    out = np.zeros(6, np.float16)
    r = ash.run(k, out=out, sanitize="report")
    found = [f for f in r.findings if isinstance(f, ImplicitConversion)]
    assert len(found) == 1 and found[0].memory_type == "f16" and found[0].value_type == "f32"
    text = found[0].render()
    assert "rounded the value to f16" in text and "Fix: convert explicitly, f16(...)" in text
    assert out.tolist() == [float(f16(0.1)), float(f16(f32(0.2)))] + [float(f16(0.1))] * 4


def test_a_strict_kernel_refuses_an_f32_store_into_f16_memory():
    @ash.compute(workgroup_size=1, strict=True)
    async def k(out: ash.Storage[f16]):
        out[0] = ash.vec2f(1, 2).x

    with pytest.raises(ash.ShaderError, match=r"a float stored into out\[0\].*f16\(\.\.\.\)"):
        ash.run(k, out=np.zeros(1, np.float16))
