"""Lockstep's operators and conversions over lanes compute what asyncshader's scalar ones
compute (asyncshader.wgsl.operators, asyncshader.wgsl.types), value for value: fuzzed on
random lanes with WGSL's edge cases mixed in."""

import numpy as np
import pytest

from asyncshader import f32, i32, u32
from asyncshader.lockstep import lanes
from asyncshader.wgsl import operators

EDGES_I = [0, 1, -1, 2, -2, 31, 32, 33, 2**31 - 1, -2**31, 7, -7, 1000000007]
EDGES_F = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, -2.5, 2.5, 2147483520.0, 2147483647.0, 4294967040.0,
           4.3e9, -2147483904.0, 3e38, -3e38, float("inf"), float("-inf"), float("nan"),
           1e-45, 123.456]


def sample(kind, n=400, seed=0):
    rng = np.random.default_rng(seed)
    if kind == "f":
        values = np.concatenate([np.array(EDGES_F, np.float32),
                                 rng.standard_normal(n).astype(np.float32) * 1e3,
                                 rng.integers(-2**31, 2**31, n).astype(np.float32)])
        return values
    values = np.concatenate([np.array(EDGES_I, np.int64), rng.integers(-2**31, 2**31, n),
                             rng.integers(-40, 40, n)])
    return values.astype(np.int32) if kind == "i" else values.astype(np.uint32) \
        if kind == "u" else values


def pairs(kind, seed):
    a = sample(kind, seed=seed)
    b = np.roll(sample(kind, seed=seed + 1), 3)
    m = min(a.size, b.size)
    return a[:m], b[:m]


@pytest.mark.parametrize("kind", ["i", "u"])
@pytest.mark.parametrize("op,vector,scalar", [
    ("/", lanes.div_int, operators.div), ("%", lanes.mod_int, operators.mod)])
def test_integer_division_and_remainder_match_the_scalar_operators(kind, op, vector, scalar):
    a, b = pairs(kind, 1)
    got = vector(a, b)
    want = [scalar(x, y) for x, y in zip(a, b)]
    assert got.dtype == a.dtype
    assert list(got) == [type(got[0])(w) for w in want], op


@pytest.mark.parametrize("kind", ["i", "u"])
@pytest.mark.parametrize("vector,scalar", [(lanes.shl, operators.shl),
                                           (lanes.shr, operators.shr)])
def test_shifts_take_the_count_modulo_32_as_the_scalar_operators(kind, vector, scalar):
    a = sample(kind, seed=2)
    counts = np.resize(np.arange(70, dtype=np.uint32), a.size)
    got = vector(a, counts)
    assert got.dtype == a.dtype
    assert list(got) == [scalar(x, c) for x, c in zip(a, counts)]


@pytest.mark.parametrize("convert,scalar", [(lanes.to_i32, i32), (lanes.to_u32, u32),
                                            (lanes.to_f32, f32)])
@pytest.mark.parametrize("kind", ["f", "i", "u"])
def test_conversions_match_the_scalar_constructors(convert, scalar, kind):
    x = sample(kind, seed=3)
    got = convert(x)
    want = np.array([scalar(v) for v in x])
    assert got.tobytes() == want.astype(got.dtype).tobytes()


def test_float_remainder_is_fmod_as_the_scalar_operator():
    a, b = pairs("f", 4)
    with np.errstate(all="ignore"):  # (x % 0 and inf % y: NaN, as WGSL's f32 remainder)
        got = np.fmod(a, b)
        want = np.array([operators.mod(x, y) for x, y in zip(a, b)], np.float32)
    assert got.tobytes() == want.tobytes()


def test_masks_combine_with_none_for_every_lane_and_false_for_none():
    some = np.array([True, False, True])
    assert lanes.both(None, some) is some
    assert lanes.both(some, False) is False
    assert list(lanes.minus(None, some)) == [False, True, False]
    assert lanes.minus(some, None) is False
    assert lanes.either(False, some) is some and lanes.either(some, None) is None
    assert lanes.cond(np.bool_(True)) is None and lanes.cond(np.array([False])) is False
    assert lanes.tidy(np.array([True, True])) is None
    assert list(lanes.put(some, np.arange(3), np.full(3, 9))) == [0, 9, 2]
