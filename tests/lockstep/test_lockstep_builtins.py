"""Each vector form of a built-in in Lockstep computes what asyncshader's scalar built-in
computes, bit for bit, on random lanes with edge cases (zeros, signs, NaN, huge values); the
lanes outside a built-in's domain go to the scalar built-in itself, with its warning."""

import warnings

import numpy as np
import pytest

from asyncshader.ir.types import BOOL, F32, I32, U32, Vector
from asyncshader.lockstep import builtins as vb
from asyncshader.wgsl.builtins import WGSLIndeterminateWarning

L = 300


def lanes_of(t, seed):
    rng = np.random.default_rng(seed)
    n = t.size if isinstance(t, Vector) else 0
    shape = (n, L) if n else (L,)
    s = t.scalar if n else t
    if s == F32:
        v = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)).astype(np.float32)
        flat = v.reshape(-1)
        flat[:12] = [0.0, -0.0, 1.0, -1.0, 3e38, -3e38, 1e-40, np.inf, 2.0, 0.5, -0.5, 7.0]
        return v
    if s == BOOL:
        return rng.random(shape) < 0.5
    dtype = np.int32 if s == I32 else np.uint32
    return rng.integers(np.iinfo(dtype).min, np.iinfo(dtype).max, shape, dtype=dtype)


CASES = [
    ("min", [F32, F32], F32), ("max", [Vector(3, F32)] * 2, Vector(3, F32)),
    ("min", [I32, I32], I32), ("max", [U32, U32], U32),
    ("clamp", [F32, F32, F32], F32), ("clamp", [Vector(2, I32)] * 3, Vector(2, I32)),
    ("abs", [F32], F32), ("abs", [Vector(4, I32)], Vector(4, I32)),
    ("floor", [Vector(2, F32)], Vector(2, F32)), ("ceil", [F32], F32), ("trunc", [F32], F32),
    ("sqrt", [Vector(3, F32)], Vector(3, F32)),
    ("dot", [Vector(3, F32)] * 2, F32), ("dot", [Vector(4, F32)] * 2, F32),
    ("dot", [Vector(2, I32)] * 2, I32), ("dot", [Vector(3, U32)] * 2, U32),
    ("length", [Vector(2, F32)], F32), ("length", [F32], F32),
    ("distance", [Vector(3, F32)] * 2, F32), ("distance", [F32, F32], F32),
    ("normalize", [Vector(2, F32)], Vector(2, F32)),
    ("normalize", [Vector(4, F32)], Vector(4, F32)),
    ("select", [Vector(3, F32), Vector(3, F32), BOOL], Vector(3, F32)),
    ("select", [I32, I32, BOOL], I32),
    ("all", [Vector(3, BOOL)], BOOL), ("any", [Vector(2, BOOL)], BOOL),
]


@pytest.mark.parametrize("name,types,result", CASES,
                         ids=[f"{n}-{'-'.join(t.wgsl for t in ts)}" for n, ts, _ in CASES])
def test_the_vector_form_gives_the_scalar_built_ins_bits(name, types, result):
    args = [lanes_of(t, seed) for seed, t in enumerate(types)]
    if name in ("sqrt", "clamp") and types[0].wgsl.startswith(("f32", "vec3f")):
        args[0] = np.abs(args[0])  # (in the domain: the vector form's own path)
        if name == "clamp":
            args[1], args[2] = np.minimum(args[1], args[2]), np.maximum(args[1], args[2])
    if name == "clamp" and types[0] != F32:
        args[1], args[2] = np.minimum(args[1], args[2]), np.maximum(args[1], args[2])
    with np.errstate(all="ignore"):
        fast = vb.FAST[name](*args)
        slow = vb.per_lane(vb.scalar_function(name), args, types, result, None, L)
    fast = np.asarray(fast).astype(vb.dtype_of(result))
    assert fast.tobytes() == slow.tobytes()


@pytest.mark.parametrize("name,types,bad", [
    ("sqrt", [F32], np.array([4.0, -1.0], np.float32)),
    ("normalize", [Vector(2, F32)], np.zeros((2, 2), np.float32)),
])
def test_lanes_outside_the_domain_go_to_the_scalar_built_in_and_warn(name, types, bad):
    result = types[0]
    with pytest.warns(WGSLIndeterminateWarning):
        got = vb.call(name, [bad], types, result, None, bad.shape[-1])
    assert np.isnan(np.asarray(got)).any()


def test_a_built_in_without_a_vector_form_runs_the_scalar_one_per_active_lane():
    x = np.array([0.0, 0.5, 1.0, 2.0], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = vb.call("sin", [x], [F32], F32, np.array([True, True, False, True]), 4)
    from asyncshader.wgsl.builtins import sin
    assert got.tobytes() == np.array([sin(x[0]), sin(x[1]), 0, sin(x[3])], np.float32).tobytes()
