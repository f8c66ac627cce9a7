"""The transcendental built-ins (sin ... inverseSqrt): within WGSL's accuracy bounds (and
asyncshader's own 1 ULP) of float64 references computed by numpy over arrays, exact where the
mathematics is exact, and WGSLIndeterminateWarning where WGSL leaves the result undefined."""

import math
import warnings

import numpy as np
import pytest
from f32_refs import bits, from_bits, is_f32, round_f32, ulp, ulp_steps

import asyncshader as ash
from asyncshader import f32

pytestmark = pytest.mark.filterwarnings("error::asyncshader.WGSLIndeterminateWarning")

DENORM, MAX_F32 = from_bits(1), from_bits(0x7F7FFFFF)
INF, NAN = float("inf"), float("nan")
PI32 = round_f32(math.pi)


def _samples(low: float, high: float, n: int = 301, extra=()) -> list[float]:
    rng = np.random.default_rng(17)
    xs = [*np.linspace(low, high, n), *rng.uniform(low, high, n)]
    return sorted({round_f32(x) for x in xs if low <= x <= high} | set(map(round_f32, extra)))


def _geometric(n: int = 400, extra=()) -> list[float]:
    """Positive f32 values spread over every binade, subnormals included."""
    rng = np.random.default_rng(29)
    xs = rng.uniform(1.0, 2.0, n) * 2.0 ** rng.integers(-149, 128, n)
    return sorted({round_f32(x) for x in xs if 0 < x < 2.0 ** 128} | set(map(round_f32, extra)))


#: (function, numpy float64 reference, argument samples, WGSL's bound as a checker)
def _abs_err(eps):
    return lambda got, exact, x: abs(float(got) - exact) <= eps


def _ulps(n):
    return lambda got, exact, x: abs(float(got) - exact) <= n(x) * ulp(exact)


EDGES = [0.0, -0.0, DENORM, -DENORM, 1.0, -1.0, 0.5, -0.5]
CASES = [
    ("sin", np.sin, _samples(-PI32, PI32, extra=EDGES), _abs_err(2 ** -11)),
    ("cos", np.cos, _samples(-PI32, PI32, extra=EDGES), _abs_err(2 ** -11)),
    ("tan", np.tan, _samples(-1.5, 1.5, extra=EDGES), _ulps(lambda x: 4)),
    ("atan", np.arctan, _samples(-20.0, 20.0, extra=[*EDGES, 1e6, 1e30, -1e30]),
     _ulps(lambda x: 4096)),
    ("acos", np.arccos, _samples(-1.0, 1.0, extra=EDGES), _abs_err(6.77e-5)),
    ("asin", np.arcsin, _samples(-1.0, 1.0, extra=EDGES), _abs_err(6.81e-5)),
    ("sinh", np.sinh, _samples(-80.0, 80.0, extra=EDGES), _ulps(lambda x: 4)),
    ("cosh", np.cosh, _samples(-80.0, 80.0, extra=EDGES), _ulps(lambda x: 4)),
    ("tanh", np.tanh, _samples(-20.0, 20.0, extra=EDGES), _abs_err(1.0e-5)),
    ("asinh", np.arcsinh, _samples(-20.0, 20.0, extra=[*EDGES, *_geometric(60)]),
     _ulps(lambda x: 4)),
    ("acosh", np.arccosh, _samples(1.0, 20.0, extra=[1.0, 1.0000001, MAX_F32, 1e10]),
     _ulps(lambda x: 4)),
    ("atanh", np.arctanh, _samples(-0.9999999, 0.9999999, extra=[*EDGES[:4], 0.5, -0.5]),
     _ulps(lambda x: 4)),
    ("exp", np.exp, _samples(-87.0, 88.7, extra=EDGES), _ulps(lambda x: 3 + 2 * abs(x))),
    ("exp2", np.exp2, _samples(-126.0, 127.9, extra=EDGES), _ulps(lambda x: 3 + 2 * abs(x))),
    ("log", np.log, _geometric(extra=[DENORM, MAX_F32, 0.5, 1.0, 2.0, 0.9999999]),
     lambda got, exact, x: (abs(float(got) - exact) <= 2 ** -21 if 0.5 <= x <= 2.0
                            else abs(float(got) - exact) <= 3 * ulp(exact))),
    ("log2", np.log2, _geometric(extra=[DENORM, MAX_F32, 0.5, 1.0, 2.0, 1.0000001]),
     lambda got, exact, x: (abs(float(got) - exact) <= 2 ** -21 if 0.5 <= x <= 2.0
                            else abs(float(got) - exact) <= 3 * ulp(exact))),
    ("sqrt", np.sqrt, _geometric(extra=[DENORM, MAX_F32, 2.0, 0.0, 3.0]),
     _ulps(lambda x: 1)),
    ("inverse_sqrt", lambda x: 1.0 / np.sqrt(x), _geometric(extra=[DENORM, MAX_F32, 4.0]),
     _ulps(lambda x: 2)),
    ("degrees", np.degrees, _samples(-1e30, 1e30, extra=EDGES), _ulps(lambda x: 1.5)),
    ("radians", np.radians, _samples(-1e30, 1e30, extra=EDGES), _ulps(lambda x: 1.5)),
]


@pytest.mark.parametrize("name, ref, xs, bound", CASES, ids=[c[0] for c in CASES])
def test_within_wgsl_bounds_and_one_ulp(name, ref, xs, bound):
    fn = getattr(ash, name)
    exact = ref(np.array(xs, np.float64))   # numpy float64 over arrays: not asyncshader's path
    for x, e in zip(xs, exact):
        got = fn(f32(x))
        assert is_f32(got), (name, x, type(got))
        assert bound(got, float(e), x), (name, x, float(got), float(e))
        # asyncshader's own claim: the float64 value rounded once, so within 1 ULP
        assert abs(float(got) - float(e)) <= ulp(float(e)), (name, x, float(got), float(e))


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_vectors_of_every_size(name):
    fn = getattr(ash, name)
    args = [1.0, 0.5, 0.25, 2.0] if name not in ("acosh",) else [1.0, 1.5, 2.0, 3.0]
    if name in ("acos", "asin", "atanh"):
        args = [0.5, -0.25, 0.0, 0.75]
    for n, cls in ((2, ash.vec2f), (3, ash.vec3f), (4, ash.vec4f)):
        r = fn(cls(*args[:n]))
        assert type(r) is cls
        assert [bits(c) for c in r] == [bits(fn(f32(a))) for a in args[:n]]


def test_exact_values():
    assert same(ash.exp2(f32(10.0)), 1024.0) and same(ash.exp2(f32(-149.0)), DENORM)
    assert same(ash.log2(f32(8.0)), 3.0) and same(ash.log2(f32(DENORM)), -149.0)
    assert same(ash.sqrt(f32(4.0)), 2.0) and same(ash.sqrt(f32(-0.0)), -0.0)
    assert same(ash.sqrt(f32(INF)), INF) and same(ash.inverse_sqrt(f32(INF)), 0.0)
    assert same(ash.inverse_sqrt(f32(0.25)), 2.0)
    assert same(ash.pow(f32(2.0), f32(10.0)), 1024.0) and same(ash.pow(f32(9.0), 0.5), 3.0)
    assert same(ash.pow(f32(0.0), f32(2.0)), 0.0) and same(ash.pow(f32(0.0), f32(0.0)), 1.0)
    assert same(ash.exp(f32(0.0)), 1.0) and same(ash.log(f32(1.0)), 0.0)
    assert same(ash.sin(f32(-0.0)), -0.0) and same(ash.cos(f32(0.0)), 1.0)
    assert same(ash.atan(f32(INF)), round_f32(math.pi / 2))
    assert same(ash.exp(f32(-INF)), 0.0) and same(ash.tanh(f32(INF)), 1.0)


def same(got, want) -> bool:
    return is_f32(got) and (bits(got) == bits(want) if want == want else got != got)


def test_sqrt_is_correctly_rounded():
    # 2 is not a square: the nearest f32 to sqrt(2), by exact integer arithmetic on the bits
    got = ash.sqrt(f32(2.0))
    m = bits(got) & 0x7FFFFF | 0x800000          # sqrt(2) = m * 2**-23 with m in [2**23, 2**24)
    assert (2 * m - 1) ** 2 < 2 * 4 ** 24 < (2 * m + 1) ** 2   # |m - sqrt(2)*2**23| < 1/2


def test_atan2_quadrants_and_zero_zero():
    for y, x in [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0), (0.0, -1.0), (3.0, 0.0)]:
        got = ash.atan2(f32(y), f32(x))
        assert is_f32(got) and ulp_steps(got, round_f32(math.atan2(y, x))) <= 1
    r, caught = recorded(ash.atan2, f32(0.0), f32(0.0))
    assert same(r, 0.0) and len(caught) == 1 and "y == 0 and x == 0" in str(caught[0].message)
    v = ash.atan2(ash.vec2f(1.0, -1.0), ash.vec2f(0.0, 0.0))
    assert type(v) is ash.vec2f and list(v) == [round_f32(math.pi / 2), round_f32(-math.pi / 2)]


def test_pow_against_float64():
    rng = np.random.default_rng(5)
    xs = rng.uniform(0.0, 10.0, 200).astype(np.float32)
    ys = rng.uniform(-10.0, 10.0, 200).astype(np.float32)
    want = np.power(xs.astype(np.float64), ys.astype(np.float64))
    for x, y, w in zip(xs, ys, want):
        got = ash.pow(x, y)
        assert is_f32(got) and abs(float(got) - w) <= ulp(w), (x, y, got, w)


def recorded(fn, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args)
    return out, [w for w in caught if issubclass(w.category, ash.WGSLIndeterminateWarning)]


# ------------------------------------------------------------------ indeterminate domains
OUTSIDE = [
    ("acos", (2.0,), NAN), ("acos", (-1.0000001,), NAN), ("asin", (-3.0,), NAN),
    ("acosh", (0.5,), NAN), ("atanh", (1.0,), INF), ("atanh", (-1.0,), -INF),
    ("atanh", (2.0,), NAN), ("log", (0.0,), -INF), ("log", (-0.0,), -INF),
    ("log", (-1.0,), NAN), ("log2", (0.0,), -INF), ("log2", (-DENORM,), NAN),
    ("sqrt", (-1.0,), NAN), ("sqrt", (-DENORM,), NAN), ("inverse_sqrt", (0.0,), INF),
    ("inverse_sqrt", (-0.0,), -INF), ("inverse_sqrt", (-4.0,), NAN), ("exp", (88.8,), INF),
    ("exp", (1000.0,), INF), ("exp2", (128.0,), INF), ("cosh", (-90.0,), INF),
    ("sinh", (-90.0,), -INF), ("sinh", (1000.0,), INF), ("pow", (-2.0, 2.0), NAN),
    ("pow", (0.0, -1.0), INF), ("pow", (10.0, 39.0), INF),
]


@pytest.mark.parametrize("name, args, want", OUTSIDE,
                         ids=[f"{n}{a}" for n, a, _ in OUTSIDE])
def test_outside_the_domain_warns_and_returns_the_documented_value(name, args, want):
    got, caught = recorded(getattr(ash, name), *map(f32, args))
    assert same(got, want), (got, want)
    assert len(caught) == 1
    wgsl = {"inverse_sqrt": "inverseSqrt"}.get(name, name)
    assert str(caught[0].message).startswith(wgsl + "(")
    assert caught[0].filename == __file__   # the caller's line, not the library's
    assert caught[0].message.arguments == tuple(float(f32(a)) for a in args)


INSIDE_EDGES = [("acos", 1.0), ("acos", -1.0), ("asin", 1.0), ("acosh", 1.0), ("exp", 88.7),
                ("exp2", 127.99), ("sqrt", 0.0), ("log", DENORM), ("sinh", 89.0)]


@pytest.mark.parametrize("name, x", INSIDE_EDGES)
def test_domain_edges_inside_do_not_warn(name, x):
    got = getattr(ash, name)(f32(x))   # pytestmark makes any such warning an error
    assert is_f32(got) and math.isfinite(got)


@pytest.mark.parametrize("name", ["sin", "cos", "tan", "acos", "log", "sqrt", "exp", "cosh"])
def test_non_finite_arguments_pass_quietly(name):
    fn = getattr(ash, name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # no WGSL warning, no numpy RuntimeWarning
        assert np.isnan(fn(f32(NAN)))
        fn(f32(INF))
        fn(f32(-INF))
    assert np.isnan(ash.sin(f32(INF))) and np.isnan(ash.sqrt(f32(-INF)))


def test_warning_once_per_call_site():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")   # Python's default: once per location and text
        for v in (-1.0, -2.0, -3.0):
            ash.sqrt(f32(v))                        # one call site, three bad values
        ash.sqrt(f32(-4.0))                         # another call site
    lines = [w.lineno for w in caught if issubclass(w.category, ash.WGSLIndeterminateWarning)]
    assert len(lines) == 2 and lines[0] != lines[1]


def test_warning_points_at_the_shader_line_in_a_dispatch():
    out = np.zeros(64, np.float32)

    @ash.compute(workgroup_size=64)
    async def kernel(out: ash.Storage, *, local_invocation_index: ash.u32):
        i = local_invocation_index
        out[i] = ash.sqrt(f32(-1.0) - f32(i))   # every invocation: outside the domain

    line = kernel.__code__.co_firstlineno + 2 if hasattr(kernel, "__code__") else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        ash.run(kernel, 1, out=out, sanitize="off")
    mine = [w for w in caught if issubclass(w.category, ash.WGSLIndeterminateWarning)]
    assert len(mine) == 1 and mine[0].filename == __file__
    assert "out[i] = ash.sqrt" in open(__file__).read().splitlines()[mine[0].lineno - 1]
    assert line is None or mine[0].lineno == line
    assert np.isnan(out).all()


MPMATH = [("sin", "sin", (-3.0, 3.0)), ("cos", "cos", (-3.0, 3.0)), ("tan", "tan", (-1.5, 1.5)),
          ("atan", "atan", (-50.0, 50.0)), ("acos", "acos", (-1.0, 1.0)),
          ("asin", "asin", (-1.0, 1.0)), ("sinh", "sinh", (-80.0, 80.0)),
          ("cosh", "cosh", (-80.0, 80.0)), ("tanh", "tanh", (-10.0, 10.0)),
          ("asinh", "asinh", (-1e6, 1e6)), ("acosh", "acosh", (1.0, 1e6)),
          ("atanh", "atanh", (-0.999, 0.999)), ("exp", "exp", (-87.0, 88.0)),
          ("exp2", lambda mp, x: mp.power(2, x), (-126.0, 127.0)),
          ("log", "log", (1e-30, 1e30)), ("log2", lambda mp, x: mp.log(x, 2), (1e-30, 1e30)),
          ("sqrt", "sqrt", (0.0, 1e30)),
          ("inverse_sqrt", lambda mp, x: 1 / mp.sqrt(x), (1e-30, 1e30))]


@pytest.mark.parametrize("name, mp_fn, span", MPMATH, ids=[m[0] for m in MPMATH])
def test_within_one_ulp_of_a_100_bit_reference(name, mp_fn, span):
    """An independent check of the 1 ULP claim: mpmath at 100 bits (not the C library)."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.prec = 100
    for x in _samples(*span, n=60):
        arg = mpmath.mpf(x)
        exact = float(mp_fn(mpmath, arg) if callable(mp_fn) else getattr(mpmath, mp_fn)(arg))
        got = getattr(ash, name)(f32(x))
        assert abs(float(got) - exact) <= ulp(exact), (name, x, float(got), exact)
