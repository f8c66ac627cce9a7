"""Function-scope arrays, WGSL's ``var a: array<f32, 6>;``: ``ash.array(f32, 6)()`` is a zero
array value, ``ash.array(vec2f, 2)(v, w)`` one with its elements; ``b = a`` copies (a store
into ``b`` leaves ``a`` as it was), ``a[i] = x`` and ``a[i].y = x`` store into the local.
to_wgsl writes ``array<E, N>(...)``. Expected values by hand."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import array, f32, i32, u32, vec2f


@ash.struct
class Hit:
    distance: f32
    normal: vec2f


def total(values: ash.array(f32, 4)) -> f32:
    values[0] = 1000.0              # a copy: the caller's array is not changed
    return values[1] + values[2] + values[3]


@ash.compute(workgroup_size=2)
async def local_arrays(out: ash.Storage[f32], *, local_invocation_index: u32):
    i = local_invocation_index
    a = ash.array(f32, 4)()
    for j in range(4):
        a[j] = f32(j) * 2.0 + f32(i)      # (i, 2 + i, 4 + i, 6 + i)
    b = a
    b[0] = 100.0
    v = array(vec2f, 2)(vec2f(1.0, 2.0), vec2f(3.0, 4.0))
    v[1].y = 9.0
    hits = array(Hit, 2)()
    hits[1].normal.x = 0.5
    hits[1].distance += 2.0
    out[5 * i] = a[0] + b[0]
    out[5 * i + 1] = total(a) + a[0]
    out[5 * i + 2] = v[0].y + v[1].y
    out[5 * i + 3] = hits[0].distance + hits[1].distance + hits[1].normal.x
    out[5 * i + 4] = f32(len(a))


def expected():
    out = []
    for i in range(2):
        out += [i + 100.0, (2 + i) + (4 + i) + (6 + i) + i, 2.0 + 9.0, 2.5, 4.0]
    return out


@pytest.mark.parametrize("sanitize", ["report", "off"])
def test_local_arrays_are_values(sanitize):
    out = np.zeros(10, np.float32)
    ash.run(local_arrays, out=out, sanitize=sanitize)
    assert out.tolist() == expected()


def test_a_local_array_value_zero_or_given():
    assert ash.array(i32, 3)() == [0, 0, 0]
    a = ash.array(vec2f, 2)(vec2f(1.0, 2.0), (3.0, 4.0))
    assert a == [vec2f(1.0, 2.0), vec2f(3.0, 4.0)] and a.type.length == 2
    with pytest.raises(TypeError, match=r"array\(f32, 3\)\(\.\.\.\) takes 3 elements \(or "
                                        r"none: zero\), got 2"):
        ash.array(f32, 3)(1.0, 2.0)


def test_to_wgsl_writes_array_values_and_the_gpu_agrees(crosscheck):
    text = ash.to_wgsl(local_arrays, out=np.zeros(10, np.float32))
    assert "var a = array<f32, 4>();" in text and "var b = a;\n    b[0] = 100.0;" in text
    assert "var v = array<vec2f, 2>(vec2f(1.0f, 2.0f), vec2f(3.0f, 4.0f));" in text
    assert "var hits = array<Hit, 2>();" in text
    report = crosscheck(local_arrays, 1, out=np.zeros(10, np.float32))
    assert report.gpu["out"].tolist() == expected()
