"""to_wgsl of numpy's scalar types called as conversions (np.uint32(x), np.int32, np.float32,
np.float16, np.bool_): WGSL's u32(x), i32(x), f32(x), f16(x), bool(x), giving what numpy gives
wherever numpy defines a result (integers keep their bits, floats in range truncate toward
zero, integers round to the nearest float); constants converted by numpy itself; numpy's other
scalar types refused. Expected values by hand; the CPU (InOrder), Lockstep and lavapipe agree."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec3f
from asyncshader.emit import WGSLEmitError, to_wgsl


@ash.compute(workgroup_size=8)
async def casts(f: ash.Storage[f32], i: ash.Storage[i32], u: ash.Storage[u32],
                to_u: ash.Storage[u32], to_i: ash.Storage[i32], to_f: ash.Storage[f32],
                truth: ash.Storage[u32], *, local_invocation_index: u32):
    k = local_invocation_index
    to_u[2 * k] = np.uint32(f[k])
    to_u[2 * k + 1] = np.uint32(i[k])
    to_i[2 * k] = np.int32(f[k])
    to_i[2 * k + 1] = np.int32(u[k])
    to_f[2 * k] = np.float32(i[k])
    to_f[2 * k + 1] = np.float32(u[k])
    if np.bool_(f[k]):
        truth[k] = np.uint32(7)


F = [0.0, 3.7, -0.5, 1e9, 16777216.0, 0.99, 5.5, 123.25]
I = [-1, 5, -2**31, 2**31 - 1, 0, 16777217, -7, 100]
U = [2**32 - 1, 0, 2**31, 1, 16777217, 3, 2**32 - 256, 7]
#: by hand: floats truncate toward zero; integers keep their 32 bits; integers round to the
#: nearest f32 (16777217 and 2**31 - 1 and 2**32 - 1 are not f32s)
WANT_U = [0, 2**32 - 1, 3, 5, 0, 2**31, 10**9, 2**31 - 1, 16777216, 0, 0, 16777217,
          5, 2**32 - 7, 123, 100]
WANT_I = [0, -1, 3, 0, 0, -2**31, 10**9, 1, 16777216, 16777217, 0, 3, 5, -256, 123, 7]
WANT_F = [-1.0, 2.0**32, 5.0, 0.0, -2.0**31, 2.0**31, 2.0**31, 1.0, 0.0, 16777216.0,
          16777216.0, 3.0, -7.0, 2.0**32 - 256, 100.0, 7.0]
WANT_TRUTH = [0, 7, 7, 7, 7, 7, 7, 7]  # (-0.5 is not 0: true)


def buffers():
    return dict(f=np.array(F, np.float32), i=np.array(I, np.int32), u=np.array(U, np.uint32),
                to_u=np.zeros(16, np.uint32), to_i=np.zeros(16, np.int32),
                to_f=np.zeros(16, np.float32), truth=np.zeros(8, np.uint32))


def check(out):
    assert out["to_u"].tolist() == WANT_U
    assert out["to_i"].tolist() == WANT_I
    assert out["to_f"].tolist() == WANT_F
    assert out["truth"].tolist() == WANT_TRUTH


def test_numpy_casts_are_wgsl_conversions():
    text = to_wgsl(casts)
    for line in ("to_u[2 * k] = u32(f[k]);", "to_u[2 * k + 1] = u32(i[k]);",
                 "to_i[2 * k] = i32(f[k]);", "to_i[2 * k + 1] = i32(u[k]);",
                 "to_f[2 * k] = f32(i[k]);", "to_f[2 * k + 1] = f32(u[k]);",
                 "if bool(f[k]) {", "truth[k] = 7u;"):
        assert line in text, (line, text)


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Lockstep()], ids=repr)
def test_the_cpu_and_lockstep_give_numpy_s_values(schedule):
    out = buffers()
    ash.run(casts, 1, schedule=schedule, sanitize="off", **out)
    check(out)


def test_lavapipe_gives_the_same_values(crosscheck):
    report = crosscheck(casts, 1, **buffers())
    check(report.gpu)


@ash.compute(workgroup_size=4)
async def out_of_range(f: ash.Storage[f32], to_u: ash.Storage[u32], to_i: ash.Storage[i32], *,
                       local_invocation_index: u32):
    k = local_invocation_index
    to_u[k] = np.uint32(f[k])
    to_i[k] = np.int32(f[k])


def test_a_float_outside_the_range_clamps_as_wgsl_does():
    # numpy leaves these to the C cast (x86 and ARM differ); WGSL clamps to the range's
    # f32s (the largest below 2**32 is 2**32 - 256, below 2**31 it is 2**31 - 128)
    out = dict(f=np.array([-1.5, 5e9, -3e9, 2.5], np.float32), to_u=np.zeros(4, np.uint32),
               to_i=np.zeros(4, np.int32))
    ash.run(out_of_range, 1, schedule=ash.Lockstep(), sanitize="off", **out)
    assert out["to_u"].tolist() == [0, 2**32 - 256, 0, 2]
    assert out["to_i"].tolist() == [-1, 2**31 - 128, -2**31, 2]


@ash.compute(workgroup_size=1)
async def constants(out: ash.Storage[u32], h: ash.Storage[f32]):
    out[0] = np.uint32(5) + np.uint32(True)
    out[1] = np.uint32(np.int32(-3))
    h[0] = f32(np.float16(0.1))


def test_constants_are_converted_by_numpy_and_f16_is_enabled():
    text = to_wgsl(constants)
    assert "out[0] = 5u + 1u;" in text
    assert "out[1] = 4294967293u;" in text
    assert text.startswith("enable f16;") and "h[0] = f32(0.1h);" in text


@ash.compute(workgroup_size=1)
async def negative_literal(out: ash.Storage[u32]):
    out[0] = np.uint32(-1)


@ash.compute(workgroup_size=1)
async def wide(out: ash.Storage[f32], *, local_invocation_index: u32):
    out[0] = np.float64(local_invocation_index)


@ash.compute(workgroup_size=1)
async def of_a_vector(out: ash.Storage[u32]):
    out[0] = np.uint32(vec3f(1.0, 2.0, 3.0))


@pytest.mark.parametrize("kernel, message", [
    (negative_literal, r":\d+: negative_literal: np.uint32\(-1\) is refused by numpy "
                       r"\(Python integer -1 out of bounds for uint32\)"),
    (wide, r":\d+: wide: np.float64 has no WGSL type. Fix: convert to one it has: "
           r"np.float32\(x\) \(WGSL's f32\)"),
    (of_a_vector, r"np.uint32\(\) of a vec3f cannot be written in WGSL. Fix: .*vec3u\(v\)"),
])
def test_what_numpy_refuses_or_wgsl_lacks_is_refused_at_the_line(kernel, message):
    with pytest.raises(WGSLEmitError, match=message):
        to_wgsl(kernel)
