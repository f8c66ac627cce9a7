"""The component-wise numeric built-ins (abs ... trunc): WGSL's edge cases, result types, every
vector size. Expected values come from exact integer arithmetic, fractions, struct bit
patterns and float64 references, never from the function under test."""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from f32_refs import bits, from_bits, is_f32, round_f32, ulp_steps

import asyncshader as ash
from asyncshader import f32, i32, u32

#: a warning no test expects fails it (the tests that expect one record it with quiet())
pytestmark = pytest.mark.filterwarnings("error::asyncshader.WGSLIndeterminateWarning")

INT_MIN, INT_MAX, U32_MAX = -2 ** 31, 2 ** 31 - 1, 2 ** 32 - 1
DENORM = from_bits(1)             # 2**-149, the smallest subnormal f32
MAX_F32 = from_bits(0x7F7FFFFF)
INF, NAN = float("inf"), float("nan")
VEC = {("f", 2): ash.vec2f, ("f", 3): ash.vec3f, ("f", 4): ash.vec4f,
       ("i", 2): ash.vec2i, ("i", 3): ash.vec3i, ("i", 4): ash.vec4i,
       ("u", 2): ash.vec2u, ("u", 3): ash.vec3u, ("u", 4): ash.vec4u}
SCALAR = {"f": (f32, np.float32), "i": (i32, np.int32), "u": (u32, np.uint32)}


def same_f32(got, want: float) -> bool:
    """got is an np.float32 with exactly want's bits (NaN: any NaN)."""
    if not is_f32(got):
        return False
    if want != want:
        return got != got
    return bits(got) == bits(want)


def quiet(fn, *args):
    """Calls fn with warnings recorded, returns (result, the WGSLIndeterminateWarnings)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args)
    return out, [w for w in caught if issubclass(w.category, ash.WGSLIndeterminateWarning)]


# ------------------------------------------------------------------------------------- abs
@pytest.mark.parametrize("x, want", [
    (-0.0, 0.0), (0.0, 0.0), (-1.5, 1.5), (-DENORM, DENORM), (-MAX_F32, MAX_F32),
    (-INF, INF), (NAN, NAN)])
def test_abs_f32_clears_the_sign_bit(x, want):
    assert same_f32(ash.abs(f32(x)), want)


@pytest.mark.parametrize("x, want", [(INT_MIN, INT_MIN), (-5, 5), (INT_MAX, INT_MAX), (0, 0),
                                     (INT_MIN + 1, INT_MAX)])
def test_abs_i32_wraps_at_int_min(x, want):
    r = ash.abs(i32(x))
    assert type(r) is np.int32 and int(r) == want


def test_abs_u32_is_the_identity():
    r = ash.abs(u32(U32_MAX))
    assert type(r) is np.uint32 and int(r) == U32_MAX


@pytest.mark.parametrize("kind", "fiu")
@pytest.mark.parametrize("n", [2, 3, 4])
def test_abs_vectors_of_every_size(kind, n):
    raw = [-3, 4, -(2 ** 31), 7][:n] if kind == "i" else [3, 4, 2 ** 32 - 1, 0][:n] \
        if kind == "u" else [-0.0, 2.5, -DENORM, -INF][:n]
    want = [x if kind == "u" else (INT_MIN if x == INT_MIN else builtins_abs(x))
            for x in raw]
    r = ash.abs(VEC[(kind, n)](*raw))
    assert type(r) is VEC[(kind, n)]
    assert [float(c) for c in r] == [float(w) for w in want]
    if kind == "f":
        assert bits(r.x) == 0   # abs(-0.0) is +0.0


builtins_abs = abs


# ------------------------------------------------------------------------------------ sign
@pytest.mark.parametrize("x, want", [(2.5, 1.0), (-2.5, -1.0), (0.0, 0.0), (-0.0, 0.0),
                                     (DENORM, 1.0), (-DENORM, -1.0), (INF, 1.0), (-INF, -1.0)])
def test_sign_f32(x, want):
    assert same_f32(ash.sign(f32(x)), want)


@pytest.mark.parametrize("x, want", [(INT_MIN, -1), (-1, -1), (0, 0), (7, 1), (INT_MAX, 1)])
def test_sign_i32(x, want):
    r = ash.sign(i32(x))
    assert type(r) is np.int32 and int(r) == want


def test_sign_has_no_u32_overload():
    with pytest.raises(TypeError, match=r"sign\(u32\).*not u32"):
        ash.sign(u32(3))


def test_sign_vectors():
    assert ash.sign(ash.vec4i(-9, 0, 3, INT_MIN)) == ash.vec4i(-1, 0, 1, -1)
    r = ash.sign(ash.vec3f(-0.5, 0.0, 8.0))
    assert type(r) is ash.vec3f and list(r) == [-1.0, 0.0, 1.0]


# ------------------------------------------------------------------------------- min, max
@pytest.mark.parametrize("kind, a, b", [
    ("i", INT_MIN, INT_MAX), ("i", -1, 0), ("u", 0, U32_MAX), ("u", 5, 3), ("f", -1.5, 2.0),
    ("f", -INF, INF), ("f", DENORM, 0.0)])
def test_min_max_scalars(kind, a, b):
    conv, np_type = SCALAR[kind]
    lo, hi = ash.min(conv(a), conv(b)), ash.max(conv(a), conv(b))
    assert type(lo) is np_type and type(hi) is np_type
    assert (float(lo), float(hi)) == (float(builtins_min(a, b)), float(builtins_max(a, b)))


builtins_min, builtins_max = min, max


def test_max_min_follow_wgsl_rule_for_zeros_and_nan():
    # max(e1, e2) = e2 if e1 < e2 else e1; min(e1, e2) = e2 if e2 < e1 else e1
    assert bits(ash.max(f32(-0.0), f32(0.0))) == 0x80000000   # -0.0 < 0.0 is false: e1
    assert bits(ash.min(f32(0.0), f32(-0.0))) == 0            # -0.0 < 0.0 is false: e1
    assert np.isnan(ash.max(f32(NAN), f32(1.0))) and ash.max(f32(1.0), f32(NAN)) == 1.0
    assert np.isnan(ash.min(f32(NAN), f32(1.0))) and ash.min(f32(1.0), f32(NAN)) == 1.0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_min_max_vectors(n):
    a, b = ash.vec4i(INT_MIN, 5, -3, 0), ash.vec4i(0, INT_MAX, -4, 0)
    va, vb = VEC[("i", n)](*list(a)[:n]), VEC[("i", n)](*list(b)[:n])
    lo, hi = ash.min(va, vb), ash.max(va, vb)
    assert type(lo) is VEC[("i", n)]
    assert [int(c) for c in lo] == [builtins_min(int(x), int(y)) for x, y in zip(va, vb)]
    assert [int(c) for c in hi] == [builtins_max(int(x), int(y)) for x, y in zip(va, vb)]


# ---------------------------------------------------------------------------------- clamp
@pytest.mark.parametrize("e, low, high", [(5, 0, 3), (-7, -2, 9), (INT_MIN, INT_MIN, 0),
                                          (5, 10, 2), (0, 10, 2), (20, 10, 2)])
def test_clamp_i32_is_min_of_max_also_when_low_exceeds_high(e, low, high):
    want = builtins_min(builtins_max(e, low), high)   # WGSL's integer clamp, exactly
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # integers: defined, no warning
        r = ash.clamp(i32(e), i32(low), i32(high))
    assert type(r) is np.int32 and int(r) == want


def test_clamp_u32_and_abstract_bounds():
    r = ash.clamp(u32(7), 2, 3)   # 2, 3 are AbstractInt: they become u32
    assert type(r) is np.uint32 and int(r) == 3
    assert int(ash.clamp(u32(U32_MAX), u32(0), u32(U32_MAX))) == U32_MAX
    assert int(ash.clamp(u32(1), 9, 4)) == 4


def test_clamp_f32():
    assert same_f32(ash.clamp(f32(0.25), 0.0, 1.0), 0.25)
    assert same_f32(ash.clamp(f32(-3.0), 0.0, 1.0), 0.0)
    assert same_f32(ash.clamp(f32(INF), f32(-1.0), f32(1.0)), 1.0)
    assert same_f32(ash.clamp(f32(DENORM), f32(0.0), f32(1.0)), DENORM)


def test_clamp_f32_low_above_high_returns_high_and_warns():
    r, caught = quiet(ash.clamp, f32(0.5), f32(1.0), f32(0.0))
    assert same_f32(r, 0.0)   # min(max(0.5, 1.0), 0.0); the median would be 0.5
    assert len(caught) == 1 and "low > high" in str(caught[0].message)
    assert caught[0].filename == __file__


@pytest.mark.parametrize("n", [2, 3, 4])
def test_clamp_vectors(n):
    v = VEC[("f", n)](*[-1.0, 0.5, 2.0, -0.0][:n])
    r = ash.clamp(v, VEC[("f", n)](0.0), VEC[("f", n)](1.0))
    assert type(r) is VEC[("f", n)]
    assert [float(c) for c in r] == [0.0, 0.5, 1.0, -0.0][:n]


# -------------------------------------------------------------------- saturate, step
@pytest.mark.parametrize("x, want", [(-0.5, 0.0), (0.5, 0.5), (1.5, 1.0), (DENORM, DENORM),
                                     (-INF, 0.0), (INF, 1.0)])
def test_saturate(x, want):
    assert same_f32(ash.saturate(f32(x)), want)


@pytest.mark.parametrize("edge, x, want", [(0.5, 0.5, 1.0), (0.5, 0.4999, 0.0),
                                           (0.0, -0.0, 1.0), (-INF, -MAX_F32, 1.0),
                                           (NAN, 0.0, 0.0)])
def test_step(edge, x, want):
    assert same_f32(ash.step(f32(edge), f32(x)), want)


def test_step_and_saturate_vectors():
    assert ash.step(ash.vec3f(0.5), ash.vec3f(0.0, 0.5, 1.0)) == ash.vec3f(0.0, 1.0, 1.0)
    assert ash.saturate(ash.vec2f(-1.0, 3.0)) == ash.vec2f(0.0, 1.0)


# ----------------------------------------------------------------------------- smoothstep
def _smooth_exact(e0, e1, x) -> Fraction:
    t = (Fraction(x) - Fraction(e0)) / (Fraction(e1) - Fraction(e0))
    t = builtins_min(builtins_max(t, Fraction(0)), Fraction(1))
    return t * t * (3 - 2 * t)


@pytest.mark.parametrize("e0, e1, x", [(0.0, 1.0, 0.5), (0.0, 1.0, 0.25), (0.0, 1.0, -1.0),
                                       (0.0, 1.0, 2.0), (2.0, -2.0, 1.0), (0.1, 0.7, 0.3),
                                       (-1e30, 1e30, 1e29)])
def test_smoothstep_matches_exact_formula(e0, e1, x):
    e0, e1, x = round_f32(e0), round_f32(e1), round_f32(x)
    r = ash.smoothstep(f32(e0), f32(e1), f32(x))
    assert is_f32(r) and ulp_steps(r, round_f32(_smooth_exact(e0, e1, x))) <= 1


def test_smoothstep_equal_edges_is_indeterminate():
    below, caught = quiet(ash.smoothstep, f32(1.0), f32(1.0), f32(0.0))
    assert same_f32(below, 0.0) and len(caught) == 1
    assert "edge0 == edge1" in str(caught[0].message)
    above, _ = quiet(ash.smoothstep, f32(1.0), f32(1.0), f32(2.0))
    at, _ = quiet(ash.smoothstep, f32(1.0), f32(1.0), f32(1.0))
    assert same_f32(above, 1.0) and np.isnan(at)


def test_smoothstep_vector():
    r = ash.smoothstep(ash.vec4f(0.0), ash.vec4f(1.0), ash.vec4f(-1.0, 0.0, 0.5, 1.0))
    assert type(r) is ash.vec4f and list(r) == [0.0, 0.0, 0.5, 1.0]


# ------------------------------------------------------------------------------ mix, fma
@pytest.mark.parametrize("a, b, t", [(0.0, 10.0, 0.25), (1.0, 2.0, 0.1), (-3.5, 7.25, 0.7),
                                     (1e30, -1e30, 0.5), (0.1, 0.2, 1.0), (5.0, 9.0, 2.0)])
def test_mix_is_the_exact_blend_rounded(a, b, t):
    a, b, t = round_f32(a), round_f32(b), round_f32(t)
    exact = Fraction(a) * (1 - Fraction(t)) + Fraction(b) * Fraction(t)
    r = ash.mix(f32(a), f32(b), f32(t))
    assert is_f32(r) and ulp_steps(r, round_f32(exact)) <= 1


def test_mix_at_one_is_exactly_e2():
    assert same_f32(ash.mix(f32(1e-3), f32(0.1), f32(1.0)), round_f32(0.1))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_mix_vector_with_scalar_or_vector_factor(n):
    cls = VEC[("f", n)]
    a, b = cls(*[0.0, 1.0, -2.0, 4.0][:n]), cls(*[10.0, 3.0, 2.0, 0.0][:n])
    want = [x + (y - x) * 0.25 for x, y in zip(list(a), list(b))]   # exact in binary here
    for factor in (f32(0.25), 0.25, cls(0.25)):
        r = ash.mix(a, b, factor)
        assert type(r) is cls and [float(c) for c in r] == want


@pytest.mark.parametrize("a, b, c", [(1.0 + 2 ** -23, 1.0 - 2 ** -23, -1.0),
                                     (3.0, 7.0, 0.1), (1e19, 1e-19, -1.0),
                                     (-0.3, 0.7, 0.21)])
def test_fma_is_within_one_ulp_of_the_fused_value(a, b, c):
    a, b, c = round_f32(a), round_f32(b), round_f32(c)
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    r = ash.fma(f32(a), f32(b), f32(c))
    assert is_f32(r) and ulp_steps(r, round_f32(exact)) <= 1
    if a == round_f32(1.0 + 2 ** -23):   # the fused result keeps the -2**-46 term
        assert float(r) == -(2.0 ** -46)


def test_fma_overflow_is_infinite_without_numpy_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert same_f32(ash.fma(f32(1e20), f32(1e20), f32(1.0)), INF)


def test_fma_vector():
    r = ash.fma(ash.vec2f(2.0, 3.0), ash.vec2f(4.0, 5.0), ash.vec2f(1.0, -15.0))
    assert type(r) is ash.vec2f and list(r) == [9.0, 0.0]


# ---------------------------------------------------------------------------- rounding
ROUNDING_CASES = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, 4194304.5, -4194304.5,
                  8388609.0, 1e30, -1e-30, DENORM, -DENORM, 0.0, -0.0, 2.75, -2.75]


def _round_half_even(x: float) -> float:
    f = Fraction(x)
    fl = math.floor(f)
    diff = f - fl
    r = fl + 1 if diff > Fraction(1, 2) or (diff == Fraction(1, 2) and fl % 2) else fl
    return math.copysign(float(r), x) if r == 0 else float(r)


@pytest.mark.parametrize("x", ROUNDING_CASES)
def test_ceil_floor_trunc_round(x):
    x = round_f32(x)
    fl, ce = float(math.floor(Fraction(x))), float(math.ceil(Fraction(x)))
    tr = float(math.trunc(Fraction(x)))
    # IEEE results keep the argument's sign on a zero result
    fl, ce, tr = (math.copysign(v, x) if v == 0 else v for v in (fl, ce, tr))
    assert same_f32(ash.floor(f32(x)), fl)
    assert same_f32(ash.ceil(f32(x)), ce)
    assert same_f32(ash.trunc(f32(x)), tr)
    assert same_f32(ash.round(f32(x)), _round_half_even(x))


def test_round_ties_to_even_spec_examples():
    assert [float(ash.round(f32(v))) for v in (2.5, -2.5, 0.5, 1.5)] == [2.0, -2.0, 0.0, 2.0]


@pytest.mark.parametrize("fn", [ash.ceil, ash.floor, ash.trunc, ash.round])
def test_rounding_non_finite_and_vectors(fn):
    assert same_f32(fn(f32(INF)), INF) and same_f32(fn(f32(-INF)), -INF)
    assert np.isnan(fn(f32(NAN)))
    r = fn(ash.vec4f(2.0, -3.0, 0.0, 1e30))
    assert type(r) is ash.vec4f and list(r) == [2.0, -3.0, 0.0, round_f32(1e30)]


@pytest.mark.parametrize("x, want", [
    (-1.25, 0.75), (1.5, 0.5), (-1e-10, 1.0), (-DENORM, 1.0), (DENORM, DENORM),
    (-0.0, 0.0), (3.0, 0.0), (1e30, 0.0), (-1.1, round_f32(Fraction(round_f32(-1.1)) + 2))])
def test_fract(x, want):
    assert same_f32(ash.fract(f32(x)), want)


def test_fract_non_finite_is_nan_and_vectors_work():
    assert np.isnan(ash.fract(f32(INF))) and np.isnan(ash.fract(f32(NAN)))
    assert ash.fract(ash.vec3f(2.25, -0.25, 7.0)) == ash.vec3f(0.25, 0.75, 0.0)


# ----------------------------------------------------------------------- frexp, modf
@pytest.mark.parametrize("x, fract, exp", [
    (1.5, 0.75, 1), (-8.0, -0.5, 4), (0.0, 0.0, 0), (-0.0, -0.0, 0), (DENORM, 0.5, -148),
    (MAX_F32, from_bits(0x3F7FFFFF), 128), (from_bits(0x00800000), 0.5, -125),
    (3.0, 0.75, 2)])
def test_frexp_scalar(x, fract, exp):
    r = ash.frexp(f32(x))
    assert isinstance(r, ash.FrexpResult) and r._fields == ("fract", "exp")
    assert same_f32(r.fract, fract) and type(r.exp) is np.int32 and int(r.exp) == exp
    # the definition, exactly: x == fract * 2**exp
    assert Fraction(float(r.fract)) * Fraction(2) ** int(r.exp) == Fraction(x)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_frexp_vector(n):
    v = VEC[("f", n)](*[1.5, -8.0, 0.0, 1024.0][:n])
    r = ash.frexp(v)
    assert type(r.fract) is VEC[("f", n)] and type(r.exp) is VEC[("i", n)]
    assert list(r.fract) == [0.75, -0.5, 0.0, 0.5][:n]
    assert [int(e) for e in r.exp] == [1, 4, 0, 11][:n]


@pytest.mark.parametrize("x, fract, whole", [
    (-1.5, -0.5, -1.0), (1.5, 0.5, 1.0), (2.0, 0.0, 2.0), (-0.0, -0.0, -0.0),
    (DENORM, DENORM, 0.0), (1e30, 0.0, round_f32(1e30)), (-INF, -0.0, -INF)])
def test_modf_scalar(x, fract, whole):
    r = ash.modf(f32(x))
    assert isinstance(r, ash.ModfResult) and r._fields == ("fract", "whole")
    assert same_f32(r.fract, fract) and same_f32(r.whole, whole)


def test_modf_vector():
    r = ash.modf(ash.vec3f(-1.5, 2.25, 7.0))
    assert type(r.fract) is ash.vec3f and type(r.whole) is ash.vec3f
    assert list(r.fract) == [-0.5, 0.25, 0.0] and list(r.whole) == [-1.0, 2.0, 7.0]


# ---------------------------------------------------------------------------------- ldexp
@pytest.mark.parametrize("x, e, want", [
    (1.5, 3, 12.0), (1.0, -149, DENORM), (1.0, -150, 0.0), (1.5, -150, DENORM),
    (1.0, 127, 2.0 ** 127), (-0.0, 5, -0.0), (0.75, 128, 2.0 ** 127 * 1.5), (3.0, -1, 1.5)])
def test_ldexp(x, e, want):
    assert same_f32(ash.ldexp(f32(x), i32(e)), want)
    assert same_f32(ash.ldexp(f32(x), e), want)   # an AbstractInt exponent becomes i32


@pytest.mark.parametrize("x, e", [(1.0, 128), (1.0, 129), (0.0, 200), (-1.5, 128)])
def test_ldexp_past_the_range_warns(x, e):
    r, caught = quiet(ash.ldexp, f32(x), i32(e))
    assert len(caught) == 1 and "ldexp" in str(caught[0].message)
    assert is_f32(r)


def test_ldexp_vector_exponent_and_round_trip_with_frexp():
    v = ash.vec3f(0.1, -7.0, 3e-39)
    parts = ash.frexp(v)
    assert ash.ldexp(parts.fract, parts.exp) == v
    with pytest.raises(TypeError, match="vec3<i32>"):
        ash.ldexp(v, i32(1))
    with pytest.raises(TypeError, match=r"ldexp\(f32, u32\).*exponent must be i32"):
        ash.ldexp(f32(1.0), u32(1))


# ------------------------------------------------------------------------- quantizeToF16
@pytest.mark.parametrize("x", [1.0001, 0.1, 65504.0, 65519.0, 2.0 ** -24, 2.0 ** -25,
                               3 * 2.0 ** -26, -2.0 ** -14 * 1.0009765625, -0.0, 1e-8,
                               1234.5678])
def test_quantize_to_f16_matches_numpy_half(x):
    x = round_f32(x)
    want = float(np.array([x], np.float64).astype(np.float16)[0])   # numpy's own rounding
    assert same_f32(ash.quantize_to_f16(f32(x)), want)


def test_quantize_to_f16_ties_to_even_by_bits():
    # 1 + 2**-11 lies halfway between the f16 values 1 and 1 + 2**-10: ties go to 1.0
    assert same_f32(ash.quantize_to_f16(f32(1.0 + 2 ** -11)), 1.0)
    assert same_f32(ash.quantize_to_f16(f32(1.0 + 3 * 2 ** -11)), 1.0 + 2 ** -9)


def test_quantize_to_f16_out_of_range_warns():
    r, caught = quiet(ash.quantize_to_f16, f32(65520.0))
    assert same_f32(r, INF) and len(caught) == 1
    r, caught = quiet(ash.quantize_to_f16, f32(-INF))
    assert same_f32(r, -INF) and not caught   # already infinite: no new warning


def test_quantize_to_f16_vector():
    r = ash.quantize_to_f16(ash.vec2f(0.1, 2.0))
    assert type(r) is ash.vec2f and list(r) == [float(np.float16(0.1)), 2.0]
