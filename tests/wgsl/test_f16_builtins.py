"""The f16 overloads of WGSL's numeric built-ins (builtins.md §8): every FLT/NUM/SNUM function and
the vector functions take ``f16`` and ``vecNh`` and return f16, with WGSL's f16 accuracy (§4).

References are exact: Fraction for the rational functions, 113-bit mpmath for the others, then
the binary16 values next to the exact result (tests/wgsl/f16_refs.py, integers only). A result
must be one of those two neighbours (one f16 ULP): that is at least as strict as every f16 bound
of §4 - correctly rounded, or an ULP bound of 1 or more (atan 5, exp 1 + 2|x|, log 3, inverseSqrt
2), or an absolute bound larger than an f16 ULP where it applies (sin/cos 2**-7 on [-π, π], where
|result| <= 1 has ULP <= 2**-11; log 2**-7 on [0.5, 2]; acos/asin 3.91e-3 > 2**-9, the ULP of
results up to π), or inherited from a formula: the formula's interval contains the exact value
and has f16 endpoints, so it contains both neighbours. Results that are f16 values (abs, floor,
min, ...) must be exactly them."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from f16_refs import f16_neighbours, mp_exact, round_to_f16

import asyncshader as ash
from asyncshader import f16, f32, i32, u32, vec2h, vec3h, vec4h

mpmath = pytest.importorskip("mpmath", reason="mpmath (the test extra) gives the references")

RNG = np.random.default_rng(1616)


def mpfn(f):
    """A reference from an mpmath function of mpf arguments, evaluated at 113 bits."""
    return lambda *qs: mp_exact(f, *qs)


def frac(m) -> Fraction:
    return mp_exact(lambda: m)


def mp(q: Fraction):
    return mpmath.mpf(q.numerator) / q.denominator


def samples(low: float, high: float, n: int = 40) -> list[np.float16]:
    """f16 arguments in [low, high]: the ends, and values spread over the range."""
    vals = np.concatenate([[low, high], RNG.uniform(low, high, n)]).astype(np.float16)
    vals = vals[(vals >= low) & (vals <= high)]
    return [f16(v) for v in vals]


# name -> (reference of the exact value, argument ranges): transcendental and inherited ones
APPROX = {
    "sin": (mpfn(mpmath.sin), [(-3.14, 3.14)]),
    "cos": (mpfn(mpmath.cos), [(-3.14, 3.14)]),
    "tan": (mpfn(mpmath.tan), [(-1.5, 1.5)]),
    "asin": (mpfn(mpmath.asin), [(-1, 1)]),
    "acos": (mpfn(mpmath.acos), [(-1, 1)]),
    "atan": (mpfn(mpmath.atan), [(-1000, 1000)]),
    "sinh": (mpfn(mpmath.sinh), [(-10, 10)]),
    "cosh": (mpfn(mpmath.cosh), [(-10, 10)]),
    "tanh": (mpfn(mpmath.tanh), [(-8, 8)]),
    "asinh": (mpfn(mpmath.asinh), [(-1000, 1000)]),
    "acosh": (mpfn(mpmath.acosh), [(1, 1000)]),
    "atanh": (mpfn(mpmath.atanh), [(-0.999, 0.999)]),
    "exp": (mpfn(mpmath.exp), [(-10, 10)]),
    "exp2": (mpfn(lambda x: mpmath.power(2, x)), [(-20, 15)]),
    "log": (mpfn(mpmath.log), [(2.0 ** -24, 65504)]),
    "log2": (mpfn(lambda x: mpmath.log(x, 2)), [(2.0 ** -24, 65504)]),
    "sqrt": (mpfn(mpmath.sqrt), [(0, 65504)]),
    "inverse_sqrt": (mpfn(lambda x: 1 / mpmath.sqrt(x)), [(2.0 ** -20, 65504)]),
    "degrees": (mpfn(lambda x: x * 180 / mpmath.pi), [(-300, 300)]),
    "radians": (mpfn(lambda x: x * mpmath.pi / 180), [(-65504, 65504)]),
    "atan2": (mpfn(mpmath.atan2), [(-100, 100), (0.01, 100)]),
    "pow": (mpfn(mpmath.power), [(0.01, 100), (-2, 2)]),
    "fma": (lambda a, b, c: a * b + c, [(-200, 200)] * 3),
    "mix": (lambda a, b, t: a * (1 - t) + b * t, [(-1000, 1000), (-1000, 1000), (0, 1)]),
    "smoothstep": (lambda e0, e1, x: (lambda t: t * t * (3 - 2 * t))(
        min(max((x - e0) / (e1 - e0), Fraction(0)), Fraction(1))), [(-10, -1), (1, 10), (-12, 12)]),
}
# name -> (exact reference, argument ranges): results that are f16 values (or rounded once)
EXACT = {
    "abs": (abs, [(-65504, 65504)]),
    "ceil": (lambda x: Fraction(math.ceil(x)), [(-1000, 1000)]),
    "floor": (lambda x: Fraction(math.floor(x)), [(-1000, 1000)]),
    "trunc": (lambda x: Fraction(math.trunc(x)), [(-1000, 1000)]),
    "round": (lambda x: Fraction(round(x)), [(-1000, 1000)]),  # Fraction rounds ties to even
    "fract": (lambda x: x - math.floor(x), [(-1000, 1000)]),
    "sign": (lambda x: Fraction((x > 0) - (x < 0)), [(-10, 10)]),
    "saturate": (lambda x: min(max(x, Fraction(0)), Fraction(1)), [(-2, 2)]),
    "step": (lambda edge, x: Fraction(1 if edge <= x else 0), [(-2, 2), (-2, 2)]),
    "min": (min, [(-1000, 1000)] * 2),
    "max": (max, [(-1000, 1000)] * 2),
    "clamp": (lambda e, lo, hi: min(max(e, lo), hi), [(-100, 100), (-50, -1), (1, 50)]),
}


def _check(name: str, ref, args: tuple, exact: bool) -> None:
    fn = getattr(ash, name)
    got = fn(*args)
    assert isinstance(got, np.float16), (name, args, type(got))
    want = ref(*[Fraction(float(a)) for a in args])
    if exact:
        assert float(got) == round_to_f16(want), (name, args, got, float(want))
    else:
        assert float(got) in f16_neighbours(want), (name, args, got, float(want))


@pytest.mark.parametrize("name", sorted(APPROX))
def test_f16_results_are_within_one_ulp_of_the_exact_value(name):
    ref, ranges = APPROX[name]
    columns = [samples(lo, hi) for lo, hi in ranges]
    rows = list(zip(*[c[:min(map(len, columns))] for c in columns]))
    assert len(rows) >= 20
    for args in rows:
        _check(name, ref, args, exact=False)


@pytest.mark.parametrize("name", sorted(EXACT))
def test_f16_exact_results_are_exact(name):
    ref, ranges = EXACT[name]
    columns = [samples(lo, hi) for lo, hi in ranges]
    for args in zip(*[c[:min(map(len, columns))] for c in columns]):
        _check(name, ref, args, exact=True)


def test_f16_hand_made_cases():
    assert float(ash.round(f16(2.5))) == 2.0 and float(ash.round(f16(-0.5))) == 0.0
    assert float(ash.fract(f16(-1.25))) == 0.75
    assert float(ash.sqrt(f16(2.0))) == 1.4140625  # sqrt(2) = 1.41421..., f16 ULP 2**-10
    assert float(ash.exp(f16(1.0))) == 2.71875  # e = 2.71828..., ULP 2**-9 (neighbours .716)
    assert float(ash.ldexp(f16(1.5), i32(-24))) == 2.0 ** -23  # 1.5 * 2**-24: a tie, to even
    assert float(ash.ldexp(f16(1.0), -14)) == 2.0 ** -14  # the smallest normal f16
    assert float(ash.ldexp(f16(1.0), 15)) == 32768.0
    assert float(ash.sign(f16(-0.0))) == 0.0


def test_f16_vectors_are_component_wise_and_stay_f16():
    v = vec3h(0.1, -2.5, 3.75)
    for fn in (ash.abs, ash.floor, ash.sin, ash.exp, ash.sqrt, ash.sign, ash.saturate):
        r = fn(ash.abs(v) if fn is ash.sqrt else v)
        assert type(r) is vec3h and all(isinstance(c, np.float16) for c in r), fn
    assert ash.clamp(v, vec3h(0), vec3h(1)) == vec3h(f16(0.1), 0, 1)
    assert ash.mix(vec2h(0, 10), vec2h(1, 20), 0.5) == vec2h(0.5, 15)  # splat S
    assert ash.mix(vec2h(0, 10), vec2h(1, 20), f16(0.25)) == vec2h(0.25, 12.5)
    assert ash.step(vec2h(1), vec2h(0.5, 1)) == vec2h(0, 1)
    assert ash.max(vec4h(1, 2, 3, 4), vec4h(4, 3, 2, 1)) == vec4h(4, 3, 3, 4)


def _vec(v) -> list[Fraction]:
    return [Fraction(float(c)) for c in v]


def test_f16_vector_built_ins_against_exact_values():
    rng = np.random.default_rng(7)
    with mpmath.workprec(113):
        for _ in range(30):
            a = vec3h(*rng.uniform(-50, 50, 3))
            b = vec3h(*rng.uniform(-50, 50, 3))
            fa, fb = _vec(a), _vec(b)
            d = sum(x * y for x, y in zip(fa, fb))
            assert isinstance(ash.dot(a, b), np.float16)
            assert float(ash.dot(a, b)) in f16_neighbours(d)
            norm = frac(mpmath.sqrt(mp(sum(x * x for x in fa))))
            assert float(ash.length(a)) in f16_neighbours(norm)
            dist = frac(mpmath.sqrt(mp(sum((x - y) ** 2 for x, y in zip(fa, fb)))))
            assert float(ash.distance(a, b)) in f16_neighbours(dist)
            n = ash.normalize(a)
            assert type(n) is vec3h
            for c, x in zip(n, fa):
                assert isinstance(c, np.float16)
                assert float(c) in f16_neighbours(frac(mp(x) / mpmath.sqrt(mp(
                    sum(y * y for y in fa)))))
            cross = [fa[1] * fb[2] - fa[2] * fb[1], fa[2] * fb[0] - fa[0] * fb[2],
                     fa[0] * fb[1] - fa[1] * fb[0]]
            got = ash.cross(a, b)
            assert type(got) is vec3h
            assert all(float(c) in f16_neighbours(x) for c, x in zip(got, cross))
            unit = ash.normalize(b)
            fu = _vec(unit)
            du = sum(x * y for x, y in zip(fu, fa))
            refl = [x - 2 * du * u for x, u in zip(fa, fu)]
            got = ash.reflect(a, unit)
            assert type(got) is vec3h
            assert all(float(c) in f16_neighbours(x) for c, x in zip(got, refl))
            ff = ash.face_forward(a, b, a)
            assert ff == (a if d * 0 + sum(x * y for x, y in zip(fb, fa)) < 0 else -a)


def test_f16_refract_against_the_exact_formula():
    i = ash.normalize(vec2h(1, -1))
    n = vec2h(0, 1)
    eta = f16(0.75)
    fi, fn, z = _vec(i), _vec(n), Fraction(0.75)
    d = sum(x * y for x, y in zip(fn, fi))
    k = 1 - z * z * (1 - d * d)
    with mpmath.workprec(113):
        m = frac(mp(z * d) + mpmath.sqrt(mp(k)))
    want = [z * x - m * y for x, y in zip(fi, fn)]
    got = ash.refract(i, n, eta)
    assert type(got) is vec2h
    assert all(float(c) in f16_neighbours(w) for c, w in zip(got, want))
    assert ash.refract(i, n, f16(4.0)) == vec2h(0, 0)  # k < 0: the zero vector


def test_frexp_modf_ldexp_on_f16():
    r = ash.frexp(f16(1.5))
    assert isinstance(r.fract, np.float16) and float(r.fract) == 0.75
    assert isinstance(r.exp, np.int32) and r.exp == 1
    r = ash.frexp(vec2h(2.0 ** -24, -65504))  # a subnormal f16 decomposes exactly
    assert type(r.fract) is vec2h and [float(c) for c in r.fract] == [0.5, -65504 / 65536]
    assert r.exp == ash.vec2i(-23, 16)
    m = ash.modf(vec2h(-1.5, 2.25))
    assert type(m.fract) is vec2h and m.fract == vec2h(-0.5, 0.25) and m.whole == vec2h(-1, 2)
    assert ash.ldexp(vec2h(1, 3), ash.vec2i(2, -1)) == vec2h(4, 1.5)


def test_f16_overflow_and_ldexp_bias_are_indeterminate():
    with pytest.warns(ash.WGSLIndeterminateWarning, match="past the f16 range"):
        assert ash.exp(f16(12.0)) == math.inf  # e**12 = 162755 > 65504 (fine in f32)
    with pytest.warns(ash.WGSLIndeterminateWarning, match="past the f16 range"):
        assert ash.dot(vec2h(300, 300), vec2h(300, 300)) == math.inf
    with pytest.warns(ash.WGSLIndeterminateWarning, match=r"e2 > 16"):
        assert float(ash.ldexp(f16(2.0 ** -20), 17)) == 0.125  # bias 15: e2 > 16 is out
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ash.exp(f16(10.0)) == f16(22026.0)  # e**10 = 22026.47: in range, no warning
        assert float(ash.ldexp(f16(2.0 ** -20), 16)) == 2.0 ** -4


def test_f16_overloads_resolve_like_wgsl():
    x = f16(0.75)
    for _ in range(2):  # the second call takes the fast table, literals converted inline
        r = ash.clamp(x, 0.0, 0.5)
        assert isinstance(r, np.float16) and float(r) == 0.5
        assert isinstance(ash.max(x, 1), np.float16)
        assert isinstance(ash.atan2(1.0, x), np.float16)
    with pytest.raises(TypeError, match=r"clamp\(f16, float, float\).*1000000.0 does not fit in "
                                        r"an f16"):
        ash.clamp(x, 0.0, 1e6)
    with pytest.raises(TypeError, match=r"max\(f16, f32\).*between f16 and f32.*f16\(x\)"):
        ash.max(x, f32(1))
    with pytest.raises(TypeError, match=r"dot\(vec3h, vec3f\)"):
        ash.dot(vec3h(1), ash.vec3f(1))
    with pytest.raises(TypeError, match=r"mix\(vec2h, vec2h, f32\)"):
        ash.mix(vec2h(1), vec2h(2), f32(0.5))
    with pytest.raises(TypeError, match=r"ldexp\(f16, u32\).*i32"):
        ash.ldexp(x, u32(2))


ALL_F16 = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "clamp",
           "cos", "cosh", "cross", "degrees", "distance", "dot", "exp", "exp2", "face_forward",
           "floor", "fma", "fract", "frexp", "inverse_sqrt", "ldexp", "length", "log", "log2",
           "max", "min", "mix", "modf", "normalize", "pow", "radians", "reflect", "refract",
           "round", "saturate", "sign", "sin", "sinh", "smoothstep", "sqrt", "step", "tan",
           "tanh", "trunc"]


@pytest.mark.parametrize("name", ALL_F16)
def test_every_float_built_in_has_an_f16_overload(name):
    assert "f16" in getattr(ash, name).overloads


@pytest.mark.parametrize("name", ["quantize_to_f16", "pack2x16float", "pack4x8snorm"])
def test_f32_only_built_ins_refuse_f16(name):
    # builtins.md §8: quantizeToF16 and the packing functions take f32 only
    arg = f16(1) if name == "quantize_to_f16" else (vec2h(1) if "2x16" in name else vec4h(1))
    with pytest.raises(TypeError, match="f32|vec2f|vec4f"):
        getattr(ash, name)(arg)


def test_f16_built_ins_in_a_shader():
    @ash.compute(workgroup_size=4)
    async def k(buf: ash.Storage[f16], *, global_invocation_index: u32):
        i = global_invocation_index
        buf[i] = ash.clamp(ash.sqrt(buf[i]) * 0.5, 0.0, 1.0)

    buf = np.array([1, 2, 4, 16], np.float16)
    ash.run(k, buf=buf)
    assert buf.tolist() == [0.5, 0.70703125, 1.0, 1.0]  # sqrt(2) = 1.4140625 in f16, halved
