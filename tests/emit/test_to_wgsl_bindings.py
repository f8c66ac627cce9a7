"""to_wgsl for bindings beyond the entry point's parameters: a helper that takes a storage
buffer, a uniform or a workgroup array is emitted once per binding it is called with, naming
that module-scope variable (WGSL cannot pass a buffer by value, and a pointer parameter into
storage needs unrestricted_pointer_parameters, which is not in the baseline)."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32
from asyncshader.emit import WGSLEmitError, to_wgsl

tile = ash.workgroup(ash.array(f32, 8))


def doubled(buf, i: u32) -> f32:
    return buf[i] * 2.0


def scaled(buf, k, i: u32) -> f32:
    return doubled(buf, i) * k          # (passes the binding on to another helper)


async def publish(t, i: u32, v: f32):
    t[i] = v
    await ash.workgroup_barrier()


@ash.compute(workgroup_size=8)
async def mix(a: ash.Storage[f32], b: ash.ReadOnly[f32], k: f32, *,
              local_invocation_index: u32):
    i = local_invocation_index
    await publish(tile, i, doubled(a, i) + scaled(b, k, i))
    a[i] = tile[7 - i]


def test_a_helper_taking_a_binding_is_specialised_to_it_and_names_it():
    text = to_wgsl(mix)
    assert "fn doubled(i: u32) -> f32 {\n    return a[i] * 2.0;\n}" in text
    assert "fn doubled_2(i: u32) -> f32 {\n    return b[i] * 2.0;\n}" in text
    assert "fn scaled(i: u32) -> f32 {\n    return doubled_2(i) * k;\n}" in text
    assert "fn publish(i: u32, v: f32) {\n    tile[i] = v;" in text
    assert "publish(i, doubled(i) + scaled(i));" in text


def test_helpers_taking_bindings_agree_with_lavapipe(crosscheck):
    a, b = np.arange(8, dtype=np.float32), np.full(8, 0.5, np.float32)
    report = crosscheck(mix, 1, a=a, b=b, k=3.0)
    # a[i] = tile[7 - i] = 2 * a[7 - i] + 2 * b[7 - i] * 3
    assert report.gpu["a"].tolist() == (2 * a[::-1] + 3.0).tolist()


def test_a_local_choosing_between_buffers_cannot_be_passed_to_a_helper():
    @ash.compute(workgroup_size=4)
    async def ping_pong(a: ash.Storage[f32], b: ash.Storage[f32], *,
                        local_invocation_index: u32):
        i = local_invocation_index
        src, dst = a, b
        for _ in range(2):
            dst[i] = doubled(src, i)
            src, dst = dst, src

    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_bindings.py:\d+: .*ping_pong: passing "
                       r"`src`, a local that names one of several buffers in turn, to doubled.*"
                       r"Fix: pass the buffer itself"):
        to_wgsl(ping_pong)
