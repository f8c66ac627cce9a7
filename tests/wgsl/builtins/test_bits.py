"""The bit built-ins (countLeadingZeros ... reverseBits) against WGSL's definitions.

Expected values come from plain loops over the 32 bits written here from the spec's words
(WGSL §17.5), and from the spec's worked examples typed in by hand; never from asyncshader."""

import random

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import (
    count_leading_zeros,
    count_one_bits,
    count_trailing_zeros,
    extract_bits,
    first_leading_bit,
    first_trailing_bit,
    i32,
    insert_bits,
    reverse_bits,
    u32,
    vec2i,
    vec2u,
    vec3i,
    vec3u,
    vec4f,
    vec4i,
    vec4u,
)
from asyncshader.wgsl.types import Vec

INT_MIN = -(2**31)


# ------------------------------------------------------------------ references: loops over bits
def bits(x):
    """The 32 bits of x's two's-complement pattern, least significant first."""
    return [(x >> k) & 1 for k in range(32)]


def value(bs, signed):
    v = 0
    for k, b in enumerate(bs):
        v += b << k
    return v - (1 << 32) if signed and bs[31] else v


def ref_clz(x, signed):
    n = 0
    for b in reversed(bits(x)):
        if b:
            break
        n += 1
    return n


def ref_popcount(x, signed):
    return sum(bits(x))


def ref_ctz(x, signed):
    n = 0
    for b in bits(x):
        if b:
            break
        n += 1
    return n


def ref_first_leading_bit(x, signed):
    bs = bits(x)
    if signed:  # the most significant bit that differs from the sign bit
        for k in range(30, -1, -1):
            if bs[k] != bs[31]:
                return k
        return -1
    for k in range(31, -1, -1):
        if bs[k]:
            return k
    return 0xFFFFFFFF


def ref_first_trailing_bit(x, signed):
    for k, b in enumerate(bits(x)):
        if b:
            return k
    return -1 if signed else 0xFFFFFFFF


def ref_reverse(x, signed):
    return value(bits(x)[::-1], signed)


def ref_extract(x, offset, count, signed):
    o = min(offset, 32)
    c = min(count, 32 - o)
    if c == 0:
        return 0
    src = bits(x)
    out = [src[o + k] for k in range(c)]
    fill = src[o + c - 1] if signed else 0
    out += [fill] * (32 - c)
    return value(out, signed)


def ref_insert(x, new, offset, count, signed):
    o = min(offset, 32)
    c = min(count, 32 - o)
    src, nb = bits(x), bits(new)
    out = [nb[k - o] if o <= k < o + c else src[k] for k in range(32)]
    return value(out, signed)


# ------------------------------------------------------------------------------------- samples
rng = random.Random(17)
PATTERNS = [0, 1, 2, 3, 0xF0, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE,
            0x40000000, 0x55555555, 0xAAAAAAAA, 0x12345678, 0xDEADBEEF, 0x00010000, 0x8000,
            *[rng.getrandbits(32) for _ in range(40)], *[1 << k for k in range(32)]]
U_VALUES = PATTERNS
I_VALUES = [p - (1 << 32) if p >= 1 << 31 else p for p in PATTERNS]
SAMPLES = [(u32(v), v, False) for v in U_VALUES] + [(i32(v), v, True) for v in I_VALUES]

UNARY = [
    (count_leading_zeros, ref_clz),
    (count_one_bits, ref_popcount),
    (count_trailing_zeros, ref_ctz),
    (first_leading_bit, ref_first_leading_bit),
    (first_trailing_bit, ref_first_trailing_bit),
    (reverse_bits, ref_reverse),
]


def expect(v, signed):
    """The numpy scalar of the argument's type, checked value and type by assert_same."""
    return (np.int32 if signed else np.uint32)(v)


def assert_same(got, want):
    assert type(got) is type(want), (got, want)
    if isinstance(want, Vec):
        assert all(type(g) is type(w) for g, w in zip(got, want)), (got, want)
    assert got == want, (got, want)


@pytest.mark.parametrize(("fn", "ref"), UNARY, ids=[f.__name__ for f, _ in UNARY])
def test_unary_bit_functions_on_scalars_match_a_loop_over_the_bits(fn, ref):
    for arg, v, signed in SAMPLES:
        assert_same(fn(arg), expect(ref(v, signed), signed))


def test_the_spec_worked_examples():
    assert_same(count_leading_zeros(u32(0)), np.uint32(32))
    assert_same(count_leading_zeros(i32(0)), np.int32(32))
    assert_same(count_leading_zeros(i32(-1)), np.int32(0))
    assert_same(count_leading_zeros(i32(1)), np.int32(31))
    assert_same(count_one_bits(i32(-1)), np.int32(32))
    assert_same(count_one_bits(u32(0xFFFFFFFF)), np.uint32(32))
    assert_same(count_one_bits(i32(INT_MIN)), np.int32(1))
    assert_same(count_trailing_zeros(u32(0)), np.uint32(32))
    assert_same(count_trailing_zeros(i32(INT_MIN)), np.int32(31))
    assert_same(first_leading_bit(i32(1)), np.int32(0))
    assert_same(first_leading_bit(i32(0x40000000)), np.int32(30))
    assert_same(first_leading_bit(i32(-2)), np.int32(0))
    assert_same(first_leading_bit(i32(INT_MIN)), np.int32(30))
    assert_same(first_leading_bit(i32(0)), np.int32(-1))
    assert_same(first_leading_bit(i32(-1)), np.int32(-1))
    assert_same(first_leading_bit(u32(0)), np.uint32(0xFFFFFFFF))
    assert_same(first_leading_bit(u32(0x80000000)), np.uint32(31))
    assert_same(first_trailing_bit(i32(0)), np.int32(-1))
    assert_same(first_trailing_bit(u32(0)), np.uint32(0xFFFFFFFF))
    assert_same(first_trailing_bit(i32(INT_MIN)), np.int32(31))
    assert_same(reverse_bits(u32(1)), np.uint32(0x80000000))
    assert_same(reverse_bits(i32(1)), np.int32(INT_MIN))
    assert_same(reverse_bits(u32(0x12345678)), np.uint32(0x1E6A2C48))


EXTRACT_ARGS = [(0, 0), (0, 32), (0, 99), (4, 4), (31, 1), (31, 99), (32, 0), (32, 5), (33, 1),
                (99, 99), (16, 16), (16, 17), (8, 0), (0xFFFFFFFF, 0xFFFFFFFF), (5, 0xFFFFFFFF),
                (1, 31), (1, 32), (30, 3), (12, 7)]


def test_extract_bits_matches_the_definition_with_offset_and_count_clamped():
    for arg, v, signed in SAMPLES:
        for offset, count in EXTRACT_ARGS:
            want = expect(ref_extract(v, offset, count, signed), signed)
            assert_same(extract_bits(arg, u32(offset), u32(count)), want)
            assert_same(extract_bits(arg, offset, count), want)  # plain ints are u32 here


def test_extract_bits_worked_examples_and_the_cts_cases():
    assert_same(extract_bits(u32(0xF0), u32(4), u32(4)), np.uint32(0xF))
    assert_same(extract_bits(i32(0xF0), u32(4), u32(4)), np.int32(-1))  # bit c-1 sign-extends
    assert_same(extract_bits(i32(0x70), 4, 4), np.int32(7))
    assert_same(extract_bits(i32(INT_MIN), 31, 99), np.int32(-1))
    assert_same(extract_bits(u32(0x80000000), 31, 99), np.uint32(1))
    assert_same(extract_bits(u32(123), 32, 5), np.uint32(0))
    assert_same(extract_bits(u32(1), 0, 99), np.uint32(1))  # CTS (low_1, 0, 99) -> low_1
    assert_same(extract_bits(i32(-5), 0, 32), np.int32(-5))
    assert_same(extract_bits(i32(-5), 3, 0), np.int32(0))  # count 0 -> 0


def test_insert_bits_matches_the_definition_with_offset_and_count_clamped():
    news = [0, 0xFFFFFFFF, 0x12345678, 0xA5, 1]
    for arg, v, signed in SAMPLES[::3]:
        for new in news:
            newarg = i32(new) if signed else u32(new)
            newv = int(newarg)
            for offset, count in EXTRACT_ARGS:
                want = expect(ref_insert(v, newv, offset, count, signed), signed)
                assert_same(insert_bits(arg, newarg, u32(offset), u32(count)), want)


def test_insert_bits_worked_examples():
    assert_same(insert_bits(u32(7), u32(0), 40, 8), np.uint32(7))  # o = 32, c = 0: e
    assert_same(insert_bits(u32(0), u32(0xFF), 4, 4), np.uint32(0xF0))
    assert_same(insert_bits(u32(0xFFFFFFFF), u32(0), 28, 99), np.uint32(0x0FFFFFFF))
    assert_same(insert_bits(i32(0), i32(1), 31, 1), np.int32(INT_MIN))
    assert_same(insert_bits(i32(-1), i32(0), 0, 0), np.int32(-1))  # count 0: e
    assert_same(insert_bits(u32(0), 0xF, 0, 4), np.uint32(0xF))  # plain int takes e's type
    assert_same(insert_bits(0, i32(-1), 0, 32), np.int32(-1))


VECTOR_TYPES = [(vec2u, False), (vec3u, False), (vec4u, False),
                (vec2i, True), (vec3i, True), (vec4i, True)]


def _vector_args(cls, signed, start):
    n = cls.size
    values = (I_VALUES if signed else U_VALUES)[start:start + n]
    return cls(*values), values


@pytest.mark.parametrize(("cls", "signed"), VECTOR_TYPES, ids=lambda p: getattr(p, "__name__",
                                                                                 str(p)))
def test_every_function_works_component_wise_on_every_vector_size(cls, signed):
    for start in range(0, 40, 5):
        vec, values = _vector_args(cls, signed, start)
        for fn, ref in UNARY:
            want = cls(*[ref(v, signed) for v in values])
            assert_same(fn(vec), want)
        for offset, count in ((4, 4), (31, 99), (0, 0), (33, 1), (3, 17)):
            want = cls(*[ref_extract(v, offset, count, signed) for v in values])
            assert_same(extract_bits(vec, u32(offset), u32(count)), want)
            new, newvals = _vector_args(cls, signed, start + 7)
            want = cls(*[ref_insert(v, nv, offset, count, signed)
                         for v, nv in zip(values, newvals)])
            assert_same(insert_bits(vec, new, u32(offset), u32(count)), want)


def test_a_plain_int_is_an_abstract_int_and_becomes_i32():
    assert_same(count_one_bits(7), np.int32(3))
    assert_same(first_leading_bit(-1), np.int32(-1))
    assert_same(extract_bits(0xF0, 4, 4), np.int32(-1))
    with pytest.raises(TypeError, match=r"does not fit i32.*u32\(4294967295\)"):
        count_one_bits(0xFFFFFFFF)


@pytest.mark.parametrize("bad", [np.float32(1.5), 1.5, True, np.bool_(True), np.int64(3),
                                 vec4f(1, 2, 3, 4), "7", None])
def test_a_non_integer_argument_is_a_type_error_naming_wgsl_and_the_fix(bad):
    for fn, _ in UNARY:
        with pytest.raises(TypeError, match=r"WGSL .*i32, u32, vecN<i32> or vecN<u32>"):
            fn(bad)
    with pytest.raises(TypeError, match="extractBits"):
        extract_bits(bad, 0, 1)
    with pytest.raises(TypeError, match="insertBits"):
        insert_bits(bad, bad, 0, 1)


def test_argument_messages_name_the_conversion():
    with pytest.raises(TypeError, match=r"numpy\.int64 3, which is not a WGSL type"):
        count_one_bits(np.int64(3))
    with pytest.raises(TypeError, match=r"bitcast\[u32\]\(x\) for the bits of a float"):
        reverse_bits(np.float32(1))
    with pytest.raises(TypeError, match=r"takes a u32 as offset, not i32 4.*u32\(x\)"):
        extract_bits(u32(1), i32(4), u32(4))
    with pytest.raises(TypeError, match=r"as count.*-1 does not fit u32"):
        extract_bits(u32(1), 4, -1)
    with pytest.raises(TypeError, match=r"one type, got u32 and i32.*u32\(newbits\)"):
        insert_bits(u32(1), i32(1), 0, 1)
    with pytest.raises(TypeError, match=r"one type, got vec2u and vec3u"):
        insert_bits(vec2u(1, 2), vec3u(1, 2, 3), 0, 1)
    with pytest.raises(TypeError, match=r"newbits"):
        insert_bits(u32(1), 1.5, 0, 1)


def test_bit_built_ins_inside_a_dispatch():
    @ash.compute(workgroup_size=4)
    async def kernel(data: ash.Storage, out: ash.Storage, *, global_invocation_id: vec3u):
        i = global_invocation_id.x
        x = data[i]
        out[i] = count_one_bits(x) + extract_bits(x, 4, 4) + first_leading_bit(x)

    data = np.array([0, 0xF0, 0xFFFFFFFF, 0x100], np.uint32)
    out = np.zeros(4, np.uint32)
    ash.run(kernel, 1, data=data, out=out)
    # 0: 0 + 0 + 0xFFFFFFFF; 0xF0: 4 + 15 + 7; all ones: 32 + 15 + 31; 0x100: 1 + 0 + 8
    assert out.tolist() == [0xFFFFFFFF, 26, 78, 9]
