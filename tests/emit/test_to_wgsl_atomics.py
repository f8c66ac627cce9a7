"""to_wgsl for atomics beyond the read-modify-writes: atomicCompareExchangeWeak (its result
struct's members, held in a local or unpacked), cross-checked on lavapipe with kernels whose
outcome no schedule changes (WGSL's weak exchange may fail spuriously: each is a loop); and
the atomics WGSL does not have, errors naming the line, the buffer and the fix: on f32 (WGSL
has atomic<i32> and atomic<u32> only) and on read-only or uniform bindings."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import bitcast, f32, i32, u32, vec3u
from asyncshader.emit import WGSLEmitError, to_wgsl
from asyncshader.extra.gpu import validate


@ash.compute(workgroup_size=32)
async def float_sum(total: ash.Storage[u32], values: ash.Storage[f32], *,
                    global_invocation_id: vec3u):
    """An f32 sum in a u32 (its bits), the idiom for float atomics: load, add, exchange if
    nobody changed it meanwhile, else retry with what they left."""
    i = global_invocation_id.x
    old = await ash.atomic_load(ash.ptr(total, 0))
    while True:
        new = bitcast[u32](bitcast[f32](old) + values[i])
        r = await ash.atomic_compare_exchange_weak(ash.ptr(total, 0), old, new)
        if r.exchanged:
            break
        old = r.old_value


def test_a_compare_exchange_loop_sums_floats_as_lavapipe_does(crosscheck):
    text = to_wgsl(float_sum)
    assert "var<storage, read_write> total: array<atomic<u32>>;" in text
    assert "let r = atomicCompareExchangeWeak(&total[0], old, new_);" in text
    assert "if r.exchanged {\n            break;\n        }\n        old = r.old_value;" in text
    values = np.arange(64, dtype=np.float32)  # whole numbers: every order of adding is exact
    report = crosscheck(float_sum, 2, total=np.zeros(1, np.uint32), values=values)
    assert report.gpu["total"].view(np.float32).tolist() == [2016.0]  # 0 + 1 + ... + 63
    assert report.cpu["total"].view(np.float32).tolist() == [2016.0]


@ash.compute(workgroup_size=32)
async def maximum(best: ash.Storage[i32], values: ash.Storage[i32], *,
                  global_invocation_id: vec3u):
    i = global_invocation_id.x
    seen = await ash.atomic_load(ash.ptr(best, 0))
    while seen < values[i]:  # (someone left a larger value: done)
        seen, done = await ash.atomic_compare_exchange_weak(ash.ptr(best, 0), seen, values[i])
        if done:
            break


def test_an_unpacked_compare_exchange_builds_an_atomic_max(crosscheck):
    text = to_wgsl(maximum)
    assert "let exchange1 = atomicCompareExchangeWeak(&best[0], seen, values[i]);\n" \
        "        seen = exchange1.old_value;\n        let done = exchange1.exchanged;" in text
    values = np.random.default_rng(20).integers(-10**6, 10**6, 64).astype(np.int32)
    best = np.array([-2**31], np.int32)
    report = crosscheck(maximum, 2, best=best, values=values)
    assert report.gpu["best"].tolist() == report.cpu["best"].tolist() == [int(values.max())]


@ash.compute(workgroup_size=1)
async def exchanged_flag(flags: ash.Storage[u32]):
    flags[1] = u32((await ash.atomic_compare_exchange_weak(ash.ptr(flags, 0), 0, 7)).exchanged)


def test_a_member_of_the_awaited_call_reads_the_result(wgsl_device):
    text = to_wgsl(exchanged_flag)
    assert "atomicStore(&flags[1], u32(atomicCompareExchangeWeak(&flags[0], 0, 7).exchanged))" \
        in text
    validate(text, wgsl_device)


# ------------------------------------------------------------------------ what WGSL lacks
@ash.compute(workgroup_size=4)
async def float_atomic(acc: ash.Storage, *, local_invocation_index: u32):
    await ash.atomic_add(ash.ptr(acc, 0), 1.5)


@ash.compute(workgroup_size=4)
async def read_only_atomic(counts: ash.ReadOnly[u32], *, local_invocation_index: u32):
    await ash.atomic_add(ash.ptr(counts, 0), 1)


def test_an_atomic_on_f32_names_the_line_the_buffer_and_the_fix():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_atomics.py:\d+: float_atomic: an "
                       r"atomic on acc, a buffer of f32 \(WGSL has atomic<i32> and atomic<u32> "
                       r"only\).*Fix: bind an int32 or uint32 array .*fixed point.*bitcast and "
                       r"atomic_compare_exchange_weak in a loop"):
        to_wgsl(float_atomic, acc=np.zeros(4, np.float32))
    with pytest.raises(ash.ShaderError, match="atomic<i32> or atomic<u32>"):  # (the CPU too)
        ash.run(float_atomic, acc=np.zeros(4, np.float32))


def test_an_atomic_on_a_read_only_binding_names_the_line_and_the_fix():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_atomics.py:\d+: read_only_atomic: an "
                       r"atomic on counts \(a read-only binding: var<storage, read>\).*Fix: bind "
                       r"it as ash.Storage"):
        to_wgsl(read_only_atomic)
