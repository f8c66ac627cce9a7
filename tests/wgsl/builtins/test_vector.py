"""The vector built-ins (dot, cross, length, distance, normalize, faceForward, reflect,
refract) against exact fractions and integer arithmetic, on every vector size."""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from f32_refs import bits, is_f32, round_f32, ulp, ulp_steps

import asyncshader as ash
from asyncshader import f32, i32, u32

pytestmark = pytest.mark.filterwarnings("error::asyncshader.WGSLIndeterminateWarning")

FVEC = {2: ash.vec2f, 3: ash.vec3f, 4: ash.vec4f}
IVEC = {2: ash.vec2i, 3: ash.vec3i, 4: ash.vec4i}
UVEC = {2: ash.vec2u, 3: ash.vec3u, 4: ash.vec4u}


def _random_f32(rng, n, scale=10.0):
    return [round_f32(x) for x in rng.uniform(-scale, scale, n)]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_dot_f32_is_the_exact_sum_rounded(n):
    rng = np.random.default_rng(n)
    for _ in range(50):
        a, b = _random_f32(rng, n), _random_f32(rng, n)
        exact = sum(Fraction(x) * Fraction(y) for x, y in zip(a, b))
        got = ash.dot(FVEC[n](*a), FVEC[n](*b))
        assert is_f32(got) and ulp_steps(got, round_f32(exact)) <= 1


def test_dot_cancellation_is_accurate():
    # f32 evaluation loses the small term; WGSL allows any accuracy at least the formula's
    got = ash.dot(ash.vec3f(1e8, 1.0, -1e8), ash.vec3f(1.0, 1.0, 1.0))
    assert float(got) == 1.0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_dot_integers_wrap_modulo_2_to_32(n):
    a = [2 ** 30, 3, -7, 2 ** 31 - 1][:n]
    b = [4, -5, 9, 2][:n]
    exact = sum(x * y for x, y in zip(a, b))
    want = (exact + 2 ** 31) % 2 ** 32 - 2 ** 31
    got = ash.dot(IVEC[n](*a), IVEC[n](*b))
    assert type(got) is np.int32 and int(got) == want
    ua, ub = [2 ** 32 - 1, 2, 3, 2 ** 31][:n], [2, 2 ** 31, 1, 2][:n]
    got = ash.dot(UVEC[n](*ua), UVEC[n](*ub))
    assert type(got) is np.uint32 and int(got) == sum(x * y for x, y in zip(ua, ub)) % 2 ** 32


def test_dot_takes_vectors_only():
    with pytest.raises(TypeError, match=r"dot\(f32, f32\).*vectors"):
        ash.dot(f32(1.0), f32(2.0))
    with pytest.raises(TypeError, match="vec2<f32> and vec3<f32>"):
        ash.dot(ash.vec2f(1.0), ash.vec3f(1.0))


def test_cross():
    assert ash.cross(ash.vec3f(1, 0, 0), ash.vec3f(0, 1, 0)) == ash.vec3f(0, 0, 1)
    rng = np.random.default_rng(3)
    for _ in range(50):
        a, b = _random_f32(rng, 3), _random_f32(rng, 3)
        fa, fb = [Fraction(x) for x in a], [Fraction(x) for x in b]
        exact = [fa[1] * fb[2] - fa[2] * fb[1], fa[2] * fb[0] - fa[0] * fb[2],
                 fa[0] * fb[1] - fa[1] * fb[0]]
        got = ash.cross(ash.vec3f(*a), ash.vec3f(*b))
        assert type(got) is ash.vec3f
        assert all(ulp_steps(g, round_f32(e)) <= 1 for g, e in zip(got, exact))
    with pytest.raises(TypeError, match="vec3"):
        ash.cross(ash.vec4f(1.0), ash.vec4f(2.0))


def test_length_and_distance():
    assert float(ash.length(ash.vec2f(3.0, 4.0))) == 5.0
    assert float(ash.length(ash.vec4f(2.0, 2.0, 2.0, 2.0))) == 4.0
    assert bits(ash.length(f32(-3.5))) == bits(3.5) and bits(ash.length(f32(-0.0))) == 0
    assert float(ash.length(ash.vec2f(1e30, 1e30))) == round_f32(math.sqrt(2) * 1e30)
    assert float(ash.distance(ash.vec3f(1, 2, 3), ash.vec3f(4, 6, 3))) == 5.0
    assert float(ash.distance(f32(-1.0), f32(2.5))) == 3.5
    got = ash.length(ash.vec3f(1.0, 2.0, 3.0))
    assert is_f32(got) and abs(float(got) - math.sqrt(14)) <= ulp(math.sqrt(14))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_normalize(n):
    v = FVEC[n](*[3.0, 4.0, 12.0, 84.0][:n])
    norm = math.sqrt(sum(x * x for x in [3.0, 4.0, 12.0, 84.0][:n]))   # 5, 13, 85
    got = ash.normalize(v)
    assert type(got) is FVEC[n]
    assert [ulp_steps(g, round_f32(Fraction(float(x)) / Fraction(norm))) for g, x in zip(got, v)] \
        == [0] * n


def test_normalize_zero_vector_warns_and_gives_nan():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = ash.normalize(ash.vec3f(0.0, -0.0, 0.0))
    assert type(got) is ash.vec3f and all(np.isnan(c) for c in got)
    assert len(caught) == 1 and "zero vector" in str(caught[0].message)


def test_face_forward():
    n = ash.vec3f(0.0, 0.0, 1.0)
    assert ash.face_forward(n, ash.vec3f(0, 0, -1), n) == n        # dot < 0: e1
    assert ash.face_forward(n, ash.vec3f(0, 0, 1), n) == -n        # dot > 0: -e1
    assert ash.face_forward(n, ash.vec3f(1, 0, 0), n) == -n        # dot == 0: -e1
    assert ash.face_forward.__doc__.startswith("WGSL ``faceForward(")


def test_reflect():
    got = ash.reflect(ash.vec2f(1.0, -1.0), ash.vec2f(0.0, 1.0))
    assert type(got) is ash.vec2f and list(got) == [1.0, 1.0]
    rng = np.random.default_rng(9)
    for _ in range(30):
        i, nrm = _random_f32(rng, 4), _random_f32(rng, 4, 1.0)
        fi, fn = [Fraction(x) for x in i], [Fraction(x) for x in nrm]
        d = sum(a * b for a, b in zip(fn, fi))
        exact = [a - 2 * d * b for a, b in zip(fi, fn)]
        got = ash.reflect(ash.vec4f(*i), ash.vec4f(*nrm))
        assert all(ulp_steps(g, round_f32(e)) <= 1 or abs(float(g) - float(e)) < 1e-6
                   for g, e in zip(got, exact))


def test_refract():
    i, n = ash.vec3f(0.0, 0.0, -1.0), ash.vec3f(0.0, 0.0, 1.0)
    assert ash.refract(i, n, f32(1.0)) == i            # eta 1 at normal incidence: straight on
    assert ash.refract(i, n, 0.5) == ash.vec3f(0.0, 0.0, -1.0)
    # total internal reflection: k < 0 gives the zero vector exactly
    s = round_f32(math.sqrt(0.5))
    got = ash.refract(ash.vec2f(s, -s), ash.vec2f(0.0, 1.0), f32(1.5))
    assert type(got) is ash.vec2f and [bits(c) for c in got] == [0, 0]
    # a generic case against float64 (sqrt: not a fraction), within 2 ULP
    e1, e2, eta = ash.vec2f(0.6, -0.8), ash.vec2f(0.0, 1.0), 0.75
    d = float(e2.x) * float(e1.x) + float(e2.y) * float(e1.y)
    k = 1 - float(f32(eta)) ** 2 * (1 - d * d)
    want = [float(f32(eta)) * float(a) - (float(f32(eta)) * d + math.sqrt(k)) * float(b)
            for a, b in zip(e1, e2)]
    got = ash.refract(e1, e2, eta)
    assert all(abs(float(g) - w) <= 2 * ulp(w) for g, w in zip(got, want))
    with pytest.raises(TypeError, match="refract"):
        ash.refract(e1, e2, ash.vec2f(1.0))


def test_i32_and_u32_overloads_only_where_wgsl_has_them():
    with pytest.raises(TypeError, match=r"length\(vec2i\)"):
        ash.length(ash.vec2i(3, 4))
    with pytest.raises(TypeError, match="normalize"):
        ash.normalize(ash.vec3u(1, 2, 3))
    assert int(ash.dot(ash.vec2i(1, 2), ash.vec2i(3, i32(4)))) == 11
    assert type(ash.dot(ash.vec2u(1, 2), ash.vec2u(3, u32(4)))) is np.uint32
