"""Stores to a swizzle, ``v.xz = w``, ``c.rgb = ...``, ``c.a = e``, ``v.xy += w``: on a local
they make a new value; on memory (a storage buffer of vectors, a workgroup array, a struct
member) they store each component, and the race detector sees each one at the shader's line.
to_wgsl writes them one component at a time (WGSL assigns no swizzle). Expected values by
hand."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32, vec2f, vec2u, vec3f, vec4f, vec4u

MODES = ["report", "off"]


@ash.struct
class Mover:
    position: vec3f
    mass: f32


colors = ash.workgroup(ash.array(vec4f, 2))


@ash.compute(workgroup_size=2)
async def swizzles(out: ash.Storage[vec4f], ids: ash.Storage[vec4u], movers,
                   *, local_invocation_index: u32):
    i = local_invocation_index
    fi = f32(i)
    v = vec4f(1.0, 2.0, 3.0, 4.0)
    v.xz = vec2f(10.0, 30.0)        # (10, 2, 30, 4)
    v.wy += vec2f(fi, 100.0)        # (10, 102, 30, 4 + i)
    c = v
    c.rgb = v.zyx                   # c = (30, 102, 10, 4 + i), v unchanged
    c.a = 0.5
    u = vec4u(1, 2, 3, 4)
    u.yx = vec2u(7, 8)
    out[2 * i] = v
    out[2 * i + 1] = c
    ids[i] = u
    ids[i].zw = vec2u(i, 9)         # a store into memory, component by component
    ids[i].xy += vec2u(1, 1)
    colors[i] = vec4f(0.0)
    colors[i].gb = vec2f(fi, 2.0)
    await ash.workgroup_barrier()
    out[4 + i] = colors[1 - i]
    movers[i].position.xz = vec2f(fi, -1.0)
    movers[i].position.y += 5.0


def expected():
    out = []
    for i in range(2):
        out += [[10, 102, 30, 4 + i], [30, 102, 10, 0.5]]
    out += [[0, 1, 2, 0], [0, 0, 2, 0]]
    ids = [[9, 8, 0, 9], [9, 8, 1, 9]]
    positions = [[0, 5, -1], [1, 5, -1]]
    return out, ids, positions


def bindings():
    return dict(out=np.zeros((6, 4), np.float32), ids=np.zeros((2, 4), np.uint32),
                movers=Mover.zeros(2))


@pytest.mark.parametrize("sanitize", MODES)
def test_swizzle_stores_on_locals_and_on_memory(sanitize):
    b = bindings()
    result = ash.run(swizzles, **b, sanitize=sanitize)
    out, ids, positions = expected()
    assert b["out"].tolist() == out
    assert b["ids"].tolist() == ids
    assert b["movers"]["position"].tolist() == positions
    assert result.findings == []


def test_the_emitted_swizzle_stores_compute_the_same_on_the_gpu(crosscheck):
    text = ash.to_wgsl(swizzles, **bindings())
    assert "let tmp1 = vec2f(10.0f, 30.0f);\n    v.x = tmp1.x;\n    v.z = tmp1.y;" in text
    assert "ids[i].x = tmp" in text and "movers[i].position.z = tmp" in text
    report = crosscheck(swizzles, 1, **bindings())
    out, ids, positions = expected()
    assert report.gpu["out"].tolist() == out
    assert report.gpu["ids"].tolist() == ids
    assert report.gpu["movers"]["position"].tolist() == positions


@ash.compute(workgroup_size=2)
async def racing_swizzle(buf: ash.Storage[vec4f], *, local_invocation_index: u32):
    buf[0].xz = vec2f(f32(local_invocation_index), 1.0)


def test_a_race_on_a_swizzle_store_is_reported_per_component_at_its_line():
    with pytest.warns(ash.DataRaceWarning):
        findings = ash.run(racing_swizzle, buf=np.zeros((1, 4), np.float32)).findings
    writes = [f for f in findings if f.race == "write-write"]
    elements = sorted(tuple(e) for f in writes for e in f.elements)
    assert elements == [(0, 0), (0, 2)]  # x and z, not y and w
    line = racing_swizzle.fn.__code__.co_firstlineno + 2
    assert {(a.line, a.kind) for f in writes for a in (f.first, f.second)} == {(line, "store")}


@ash.compute(workgroup_size=1)
async def too_many(out: ash.Storage[vec4f]):
    v = vec4f(0.0)
    v.xz = vec3f(1.0)
    out[0] = v


@ash.compute(workgroup_size=1)
async def twice(out: ash.Storage[vec4f]):
    out[0].xx = vec2f(1.0)


@ash.compute(workgroup_size=1)
async def no_such(out: ash.Storage[vec4f]):
    v = vec4f(0.0)
    v.xq = vec2f(1.0)
    out[0] = v


@pytest.mark.parametrize("kernel, message", [
    (too_many, r"`v.xz = vec3f`: the value of a store to the swizzle .xz is a "
               r"vector of 2 components \(WGSL\) at .*test_swizzle_stores.py:\d+: v.xz = vec3f"),
    (twice, r"`v.xx = ...`: a swizzle store names each component once"),
    (no_such, r"vec4f has no component or swizzle 'xq'"),
])
def test_a_wrong_swizzle_store_says_what_is_wrong(kernel, message):
    with pytest.raises(ash.ShaderError, match=message):
        ash.run(kernel, out=np.zeros((1, 4), np.float32))
