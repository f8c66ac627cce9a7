"""``x ** n`` in a shader means what the emitted WGSL computes (asyncshader.wgsl.powers): an int
literal exponent from 0 to 4 is repeated multiplication, anything else WGSL's ``pow`` on a
float base (NaN and a WGSLIndeterminateWarning for a negative base), and an integer base with
any other exponent is an error (WGSL has no integer pow). Expected values are worked by hand."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import ShaderTypeError, f16, f32, i32, u32, vec2f, vec3i


@ash.compute(workgroup_size=1)
async def small_powers(out: ash.Storage, iout: ash.Storage, *, local_invocation_index: u32):
    x = f32(-2.0)
    out[0] = x ** 2                     # 4: negative bases work, as x * x
    out[1] = (x + f32(0.5)) ** 3        # -3.375: any base expression (evaluated once)
    out[2] = x ** 0                     # 1: one of x's type
    out[3] = x ** 1
    y = x
    y **= 4                             # 16
    out[4] = y
    iout[0] = i32(-3) ** 3              # -27: integers too
    iout[1] = u32(7) ** 2               # 49
    iout[2] = (vec3i(1, -2, 3) ** 2).y  # 4
    iout[3] = i32(50000) ** 2           # wraps as i32 multiplication does: 2500000000 - 2**32


def test_a_small_int_literal_exponent_is_repeated_multiplication():
    out, iout = np.zeros(5, np.float32), np.zeros(4, np.int32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (numpy's overflow note on the wrap)
        ash.run(small_powers, out=out, iout=iout)
    assert out.tolist() == [4.0, -3.375, 1.0, -2.0, 16.0]
    assert iout.tolist() == [-27, 49, 4, 2500000000 - 2**32]


@ash.compute(workgroup_size=1)
async def real_powers(out: ash.Storage, hout: ash.Storage):
    out[0] = f32(2.0) ** 0.5            # pow: sqrt(2) rounded to f32
    out[1] = f32(-2.0) ** 2.0           # pow of a negative base: NaN, whole exponent or not
    out[2] = f32(-8.0) ** 5             # past 4: pow, NaN too
    out[3] = (vec2f(4.0, 9.0) ** 0.5).y  # a scalar exponent applies to every component: 3
    hout[0] = f16(4.0) ** f16(1.5)      # 8


def test_any_other_exponent_is_wgsl_pow_with_nan_and_a_warning_for_a_negative_base():
    out, hout = np.zeros(4, np.float32), np.zeros(1, np.float16)
    with pytest.warns(ash.WGSLIndeterminateWarning, match=r"pow\(e1, e2\) with e1 < 0"):
        ash.run(real_powers, out=out, hout=hout)
    assert out[0] == np.float32(1.4142135)
    assert np.isnan(out[1]) and np.isnan(out[2])
    assert out[3] == 3.0 and hout[0] == 8.0


def test_an_integer_base_with_any_other_exponent_is_an_error_naming_the_fix():
    @ash.compute(workgroup_size=1)
    async def int_pow(out: ash.Storage, *, local_invocation_index: u32):
        out[0] = local_invocation_index ** 5   # the line

    with pytest.raises(ash.ShaderError) as info:
        ash.run(int_pow, out=np.zeros(1, np.uint32))
    assert isinstance(info.value.original, ShaderTypeError)
    text = str(info.value)
    assert "`u32 ** a Python int (5)`: WGSL has no integer pow" in text
    assert "Fix: multiply (x * x * x), loop, or convert to a float: f32(x) ** y" in text
    assert "local_invocation_index ** 5   # the line" in text


def test_two_python_numbers_keep_pythons_meaning():
    @ash.compute(workgroup_size=1)
    async def host(out: ash.Storage):
        k = 3
        out[0] = 2 ** k * 1.5 ** 2

    out = np.zeros(1, np.float32)
    ash.run(host, out=out)
    assert out[0] == 18.0
