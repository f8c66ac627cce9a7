"""Out-of-bounds accesses with ``sanitize="off"`` follow WGSL's robust buffer access as the race
detector's runs do (asyncshader.wgsl.robust): a load gives zero, a store is dropped, a negative
index is out of bounds (it does not count from the end); never a Python IndexError. With the
detector on they stay OutOfBounds findings, with the same values."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec4f

tile = ash.workgroup(ash.array(f32, 4))


@ash.compute(workgroup_size=4)
async def out_of_bounds(buf: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    tile[i] = buf[i + 2]            # loads past the end of buf (5 elements) give zero
    out[i] = tile[i]
    out[i + 4] = buf[i - 1]         # u32 0 - 1 wraps past the end: zero
    j = i32(i) - 1
    out[i + 8] = buf[j - 0]         # a negative i32 index: zero, not buf[-1]
    if buf[i + 3] > 0.0:            # a condition that loads out of bounds
        out[i + 12] = 1.0
    buf[i + 5] = 9.0                # stores past the end are dropped
    tile[i + 4] += 1.0              # workgroup memory too
    out[i - 5] = 7.0                # (u32 wrap: dropped)


@pytest.mark.parametrize("sanitize", ["off", "report"])
def test_out_of_bounds_loads_give_zero_and_stores_are_dropped(sanitize):
    buf = np.array([1, 2, 3, 4, 5], np.float32)
    out = np.full(16, -1, np.float32)
    result = ash.run(out_of_bounds, buf=buf, out=out, sanitize=sanitize)
    assert out.tolist() == [3, 4, 5, 0,  0, 1, 2, 3,  0, 1, 2, 3,  1, 1, -1, -1]
    assert buf.tolist() == [1, 2, 3, 4, 5]
    if sanitize == "report":
        assert any(type(f).__name__ == "OutOfBounds" for f in result.findings)


@ash.compute(workgroup_size=2)
async def negative_python_int(out: ash.Storage, *, local_invocation_index: u32):
    for k in range(2):
        out[k + 2] = out[k - 1]     # k - 1 = -1: out of bounds, not out[-1]


def test_a_negative_python_int_index_does_not_count_from_the_end():
    out = np.array([1, 2, 0, 0, 5], np.float32)
    ash.run(negative_python_int, out=out, sanitize="off")
    assert out.tolist() == [1, 2, 0, 1, 5]


def counted(calls, i):
    calls[0] += 1.0                # an effect: a second run of the statement would repeat it
    return i


@ash.compute(workgroup_size=4)
async def effects_once(out: ash.Storage, calls: ash.Storage, count: ash.Storage, *,
                       local_invocation_index: u32):
    i = local_invocation_index
    out[i + 10] = counted(calls, f32(i))                        # a helper: once
    out[i + 20] = f32(await ash.atomic_add(ash.ptr(count, 0), 1))  # an await: once


def test_a_statement_that_awaits_or_calls_a_helper_runs_its_effects_once():
    out, calls, count = np.zeros(4, np.float32), np.zeros(1, np.float32), np.zeros(1, np.uint32)
    ash.run(effects_once, out=out, calls=calls, count=count, sanitize="off")
    assert out.tolist() == [0, 0, 0, 0]
    assert calls.tolist() == [4.0] and count.tolist() == [4]


@ash.compute(workgroup_size=2)
async def vectors(v: ash.Storage[vec4f], out: ash.Storage[vec4f], *,
                  local_invocation_index: u32):
    i = local_invocation_index
    out[i] = v[i + 1]              # v has 2 vectors: the second load is a zero vector
    out[i + 2] = vec4f(1.0)        # dropped


def test_vector_buffers_load_a_zero_vector_and_drop_stores():
    v = np.arange(8, dtype=np.float32).reshape(2, 4)
    out = np.full((2, 4), -1, np.float32)
    ash.run(vectors, v=v, out=out, sanitize="off")
    assert out.tolist() == [[4, 5, 6, 7], [0, 0, 0, 0]]


@ash.struct
class P:
    x: f32
    n: u32


@ash.compute(workgroup_size=2)
async def structs(p: ash.Storage[P], out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = p[i + 1].x            # p has 2 elements: zero past the end
    p[i + 1].n = u32(7)            # dropped past the end


def test_struct_buffers_load_zero_and_drop_stores_past_the_end():
    p = np.zeros(2, P.dtype)
    p["x"] = [1.5, 2.5]
    out = np.full(2, -1, np.float32)
    ash.run(structs, p=p, out=out, sanitize="off")
    assert out.tolist() == [2.5, 0.0]
    assert p["n"].tolist() == [0, 7]


@ash.compute(workgroup_size=1)
async def comprehension(buf: ash.Storage, out: ash.Storage):
    out[0] = sum([buf[k + 1] for k in range(3)])   # buf[3] is past the end: zero


def test_indexing_inside_a_comprehension_is_robust_too():
    out = np.zeros(1, np.float32)
    ash.run(comprehension, buf=np.array([1, 2, 4], np.float32), out=out, sanitize="off")
    assert out.tolist() == [6.0]
