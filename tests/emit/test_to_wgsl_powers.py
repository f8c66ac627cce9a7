"""``x ** n`` is emitted as the CPU runs it (asyncshader.wgsl.powers): an int literal exponent
from 0 to 4 as a product, anything else as WGSL's pow() with a warning (NaN for a negative base),
an integer base with another exponent refused; lavapipe computes what the CPU computes.

(WGSL calls pow of a negative base indeterminate: the CPU gives NaN and warns, and lavapipe gives
4.0 for pow(-2.0, 2.0), having turned pow(x, 2.0) into x * x; so the cross-check takes pow of
non-negative bases only.)"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import WGSLEmitError, f32, i32, to_wgsl, u32, vec2f
from asyncshader.extra.gpu import crosscheck


@ash.compute(workgroup_size=4)
async def powers(x: ash.Storage[f32], out: ash.Storage[f32], iout: ash.Storage[i32], *,
                 local_invocation_index: u32):
    i = local_invocation_index
    v = x[i]
    out[i * 6] = v ** 2
    out[i * 6 + 1] = (v + 0.5) ** 3
    out[i * 6 + 2] = v ** 0
    w = v
    w **= 4
    out[i * 6 + 3] = w
    out[i * 6 + 4] = ash.abs(v) ** 2.5   # pow (of a negative base: indeterminate, see below)
    out[i * 6 + 5] = (vec2f(v, 2.0) ** 0.5).y
    iout[i] = i32(i) - 2
    iout[i] = iout[i] ** 3


def test_small_literal_powers_are_products_and_the_rest_pow():
    with pytest.warns(ash.WGSLIndeterminateWarning) as caught:
        text = to_wgsl(powers)
    said = sorted(str(w.message) for w in caught)
    assert len(said) == 2 and "test_to_wgsl_powers.py:32: `ash.abs(v) ** 2.5` is written as " \
        "WGSL's pow(), which is NaN (an indeterminate value) for a negative base" in said[0]
    assert "test_to_wgsl_powers.py:33: `vec2f(v, 2.0) ** 0.5`" in said[1]
    assert "out[i * 6] = v * v;" in text
    assert "out[i * 6 + 1] = (v + 0.5) * (v + 0.5) * (v + 0.5);" in text
    assert "out[i * 6 + 2] = 1.0f;" in text
    assert "w = w * w * w * w;" in text
    assert "out[i * 6 + 4] = pow(abs(v), 2.5);" in text
    assert "pow(vec2f(v, 2.0), vec2f(0.5))" in text
    assert "iout[i] = iout[i] * iout[i] * iout[i];" in text


def test_the_cpu_and_lavapipe_agree_on_powers(gpu_device):
    x = np.array([-2.0, -0.5, 1.5, 3.0], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ash.WGSLIndeterminateWarning)
        report = crosscheck(powers, 1, x=x, out=np.zeros(24, np.float32),
                            iout=np.zeros(4, np.int32), device=gpu_device)  # (pow: 2 ULP apart)
    assert report.ok
    got = report.gpu["out"].reshape(4, 6)
    assert got[:, 0].tolist() == [4.0, 0.25, 2.25, 9.0]                # by hand
    assert got[:, 1].tolist() == [-3.375, 0.0, 8.0, 42.875]
    assert got[:, 3].tolist() == [16.0, 0.0625, 5.0625, 81.0]
    np.testing.assert_allclose(got[:, 4], np.abs(x.astype(np.float64)) ** 2.5, rtol=1e-6)
    assert got[:, 5].tolist() == [np.float32(np.sqrt(2.0))] * 4
    assert report.gpu["iout"].tolist() == [-8, -1, 0, 1]


@ash.compute(workgroup_size=1)
async def int_pow(out: ash.Storage[u32], n: ash.Storage[u32]):
    out[0] = n[0] ** n[1]


async def helper(v):
    return v + 1.0


@ash.compute(workgroup_size=1)
async def helper_base(out: ash.Storage[f32]):
    out[0] = (await helper(out[0])) ** 2


def test_an_integer_pow_and_a_base_that_calls_a_helper_are_refused():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_powers.py:72: int_pow: `n\[0\] \*\* "
                       r"n\[1\]` on a u32 \(WGSL has no integer pow.*convert to a float"):
        to_wgsl(int_pow)
    with pytest.raises(WGSLEmitError, match=r"helper_base: `await helper\(out\[0\]\) \*\* 2`, "
                       r"whose base calls .*assign the base to a name first"):
        to_wgsl(helper_base)
