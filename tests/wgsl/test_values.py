"""Composite values in a shader have WGSL's value semantics: assigning a vector, matrix, struct
or array copies it, a helper's parameters are copies, and a local loaded from memory is a copy;
memory changes only through a memory expression (``buf[i].x = e``, ``p[i].velocity.y = e``).
Expected values are worked out by hand from WGSL's rules."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, mat2x2f, u32, vec2f, vec3f, vec4f

MODES = ["report", "off"]


@ash.struct
class Body:
    position: vec3f
    mass: f32
    velocity: vec3f
    spin: mat2x2f


def bumped(v: vec4f) -> vec4f:
    v.x += 1.0           # a parameter is a copy: the caller's v is not changed
    return v


def into(buf, i: u32) -> None:
    buf[i].y = 9.0       # a buffer passed to a helper: a store into memory


@ash.compute(workgroup_size=1)
async def locals_copy(out: ash.Storage[vec4f]):
    v = vec4f(1.0, 2.0, 3.0, 4.0)
    a = v
    a.x = 5.0
    w = bumped(v)
    out[0] = v
    out[1] = a
    out[2] = w
    m = mat2x2f(1.0, 2.0, 3.0, 4.0)
    n = m
    n[1].x = 10.0
    n[0] = vec2f(7.0, 8.0)
    out[3] = vec4f(m[0], m[1])
    out[4] = vec4f(n[0], n[1])


@pytest.mark.parametrize("sanitize", MODES)
def test_assigning_a_vector_or_matrix_copies_it_and_helpers_get_copies(sanitize):
    out = np.zeros((5, 4), np.float32)
    ash.run(locals_copy, out=out, sanitize=sanitize)
    assert out.tolist() == [[1, 2, 3, 4], [5, 2, 3, 4], [2, 2, 3, 4],
                            [1, 2, 3, 4], [7, 8, 10, 4]]


@ash.compute(workgroup_size=2)
async def element_locals(buf: ash.Storage[vec4f], *, local_invocation_index: u32):
    i = local_invocation_index
    v = buf[i]
    v.y = 1.0            # a copy: memory keeps its value
    v.zw = vec2f(5.0, 6.0)
    buf[i].x = v.y + v.z  # a memory expression: a store
    into(buf, i)


@pytest.mark.parametrize("sanitize", MODES)
def test_a_local_loaded_from_a_vector_buffer_is_a_copy(sanitize):
    buf = np.arange(8, dtype=np.float32).reshape(2, 4)
    result = ash.run(element_locals, buf=buf, sanitize=sanitize)
    # x = 1 + 5 (the copy's y and z), y = 9 (the helper's store), z and w unchanged
    assert buf.tolist() == [[6, 9, 2, 3], [6, 9, 6, 7]]
    assert result.findings == []


@ash.compute(workgroup_size=2)
async def struct_locals(p, out: ash.Storage[f32], *, local_invocation_index: u32):
    i = local_invocation_index
    s = p[i]
    s.velocity.y = 1.0     # a copy of the struct: memory keeps its value
    s.mass += 2.0
    t = s
    t.mass = 100.0         # and a copy of the copy
    m = p[i].spin
    m[1].y = 50.0          # a matrix member loaded into a local: a copy too
    out[i] = s.velocity.y + s.mass + m[1].y
    p[i].position.z = t.mass   # a memory expression: a store
    if i == 1:
        p[i] = s           # storing the whole value writes every member


@pytest.mark.parametrize("sanitize", MODES)
def test_a_local_holding_a_struct_element_is_a_copy(sanitize):
    p = Body.zeros(2)
    p["mass"] = [3.0, 4.0]
    p["velocity"] = [[0.0, 7.0, 0.0], [0.0, 8.0, 0.0]]
    p["spin"] = np.arange(8, dtype=np.float32).reshape(2, 2, 2)
    out = np.zeros(2, np.float32)
    ash.run(struct_locals, p=p, out=out, sanitize=sanitize)
    assert out.tolist() == [1.0 + 5.0 + 50.0, 1.0 + 6.0 + 50.0]
    # element 0: only position.z was stored; element 1: the copy s, stored whole (its
    # position.z stays the 0.0 the copy was loaded with: s was loaded before the store)
    assert p[0]["position"].tolist() == [0, 0, 100] and p[0]["mass"] == 3.0
    assert p[0]["velocity"].tolist() == [0, 7, 0] and p[0]["spin"].tolist() == [[0, 1], [2, 3]]
    assert p[1]["position"].tolist() == [0, 0, 0] and p[1]["mass"] == 6.0
    assert p[1]["velocity"].tolist() == [0, 1, 0] and p[1]["spin"].tolist() == [[4, 5], [6, 7]]


@ash.compute(workgroup_size=1)
async def struct_values(out: ash.Storage[f32]):
    a = Body(mass=2.0)
    b = a
    b.velocity.x = 3.0
    b.spin[0].y = 4.0
    out[0] = a.velocity.x + a.spin[0].y
    out[1] = b.velocity.x + b.spin[0].y + b.mass


def test_a_struct_value_assigned_to_another_name_is_a_copy():
    out = np.zeros(2, np.float32)
    ash.run(struct_values, out=out)
    assert out.tolist() == [0.0, 3.0 + 4.0 + 2.0]


@ash.compute(workgroup_size=1)
async def wrong_member(out: ash.Storage[f32]):
    a = Body()
    a.masss = 1.0
    out[0] = a.mass


def test_a_store_to_a_member_a_struct_lacks_names_it():
    with pytest.raises(ash.ShaderError, match=r"AttributeError: 'Body' object has no "
                                               r"attribute 'masss' at .*a.masss = 1.0"):
        ash.run(wrong_member, out=np.zeros(1, np.float32))


def test_a_store_through_a_helper_given_a_buffer_is_seen_at_the_helper_line():
    @ash.compute(workgroup_size=2)
    async def racing(buf: ash.Storage[vec4f], *, local_invocation_index: u32):
        into(buf, 0)

    with pytest.warns(ash.DataRaceWarning):
        findings = ash.run(racing, buf=np.zeros((1, 4), np.float32)).findings
    [race] = [f for f in findings if f.race == "write-write"]
    assert race.index == (0, 1)
    assert (race.first.line, race.second.line) == (into.__code__.co_firstlineno + 1,) * 2


@ash.compute(workgroup_size=2)
async def element_copies(buf: ash.Storage[vec4f], *, local_invocation_index: u32):
    i = local_invocation_index
    v = buf[i]
    v.y = 1.0
    v.zw = vec2f(5.0, 6.0)
    buf[i].x = v.y + v.z


def test_to_wgsl_emits_the_copies_and_the_gpu_agrees(crosscheck):
    text = ash.to_wgsl(element_copies, buf=np.zeros((2, 4), np.float32))
    assert "var v = buf[i];\n    v.y = 1.0;" in text
    report = crosscheck(element_copies, 1, buf=np.arange(8, dtype=np.float32).reshape(2, 4))
    assert report.gpu["buf"].tolist() == [[6, 1, 2, 3], [6, 5, 6, 7]]
    report = crosscheck(locals_copy, 1, out=np.zeros((5, 4), np.float32))
    assert report.gpu["out"].tolist() == [[1, 2, 3, 4], [5, 2, 3, 4], [2, 2, 3, 4],
                                          [1, 2, 3, 4], [7, 8, 10, 4]]


@ash.compute(workgroup_size=1)
async def unpacked(out: ash.Storage[vec4f]):
    v = vec4f(1.0, 2.0, 3.0, 4.0)
    a = v
    a.x, a.w = a.w, a.x     # a store into parts of a local, unpacked: a copy too
    out[0] = v
    out[1] = a
    out[2].y, out[2].z = f32(7.0), f32(8.0)


def test_unpacking_into_parts_of_a_local_changes_that_local_only():
    out = np.zeros((3, 4), np.float32)
    ash.run(unpacked, out=out)
    assert out.tolist() == [[1, 2, 3, 4], [4, 2, 3, 1], [0, 7, 8, 0]]


@dataclasses.dataclass
class Shade:
    color: vec4f
    depth: float


@ash.fragment
async def shaded(*, position: vec4f):
    a = Shade(vec4f(1.0), 0.5)
    b = a                      # a fragment output's struct value: a copy too
    b.color.x = 0.0
    b.depth = 0.25
    return Shade(a.color + b.color, a.depth + b.depth)


def test_a_fragment_output_value_assigned_to_another_name_is_a_copy():
    r = ash.run_fragments(shaded, 1, 1)
    assert r["color"][0, 0].tolist() == [1.0, 2.0, 2.0, 2.0]
    assert r["depth"][0, 0] == 0.75


accent = ash.workgroup(vec4f)


@ash.compute(workgroup_size=2)
async def workgroup_vector(out: ash.Storage[vec4f], *, local_invocation_index: u32):
    if local_invocation_index == 0:
        accent.value = vec4f(1.0)
        accent.value.x = 5.0            # WGSL's accent.x = 5.0: a store into the variable
        accent.value.yz = vec2f(7.0, 8.0)
        c = accent.value
        c.w = 9.0                       # a copy: the variable keeps its w
    await ash.workgroup_barrier()
    out[local_invocation_index] = accent.value


def test_component_stores_through_a_workgroup_vector_value_reach_it(crosscheck):
    out = np.zeros((2, 4), np.float32)
    ash.run(workgroup_vector, out=out)
    assert out.tolist() == [[5, 7, 8, 1]] * 2
    report = crosscheck(workgroup_vector, 1, out=np.zeros((2, 4), np.float32))
    assert report.gpu["out"].tolist() == [[5, 7, 8, 1]] * 2


turn = ash.workgroup(mat2x2f)


@ash.compute(workgroup_size=1)
async def workgroup_matrix(out: ash.Storage[vec2f]):
    turn.value = mat2x2f(1.0, 2.0, 3.0, 4.0)
    turn.value[1].x = 9.0               # WGSL's turn[1].x = 9.0
    turn.value[0] = vec2f(5.0, 6.0)     # WGSL's turn[0] = ...
    m = turn.value
    m[1].y = 0.0                        # a copy: the variable keeps its 4.0
    out[0] = turn.value[0]
    out[1] = turn.value[1]
    out[2] = m[1]


def test_column_stores_through_a_workgroup_matrix_value_reach_it(crosscheck):
    out = np.zeros((3, 2), np.float32)
    ash.run(workgroup_matrix, out=out)
    assert out.tolist() == [[5, 6], [9, 4], [9, 0]]
    report = crosscheck(workgroup_matrix, 1, out=np.zeros((3, 2), np.float32))
    assert report.gpu["out"].tolist() == [[5, 6], [9, 4], [9, 0]]
