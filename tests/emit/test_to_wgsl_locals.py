"""to_wgsl for locals that are stored into through a component or an element: a local changed
only by `v.x += 1` is a `var`; a local holding a vector or struct element loaded from a buffer
is a copy on both sides (a `var`); a local holding a numpy row of a buffer bound without a
vector element is a view of the row on the CPU but a copy in WGSL, so a store through it is an
error naming the line and the fix; a name given one buffer (in two branches) stores into it.
Found by the census after (n, k) arrays became vector buffers."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32, vec2f, vec4f
from asyncshader.emit import WGSLEmitError, to_wgsl


@ash.compute(workgroup_size=2)
async def bumped(out: ash.Storage[vec4f], *, local_invocation_index: u32):
    v = vec4f(1.0, 2.0, 3.0, 4.0)
    v.x += f32(local_invocation_index)
    out[local_invocation_index] = v


def test_a_local_changed_through_a_component_is_a_var(crosscheck):
    text = to_wgsl(bumped)
    assert "var v = vec4f(1.0f, 2.0f, 3.0f, 4.0f);\n    v.x += f32(local_invocation_index);" \
        in text
    report = crosscheck(bumped, 1, out=np.zeros((2, 4), np.float32))
    assert report.gpu["out"].tolist() == [[1, 2, 3, 4], [2, 2, 3, 4]]


def test_a_local_holding_a_numpy_row_is_a_view_on_the_cpu():
    """What the error below protects: the CPU's `c = buf[i]` of a buffer bound without a
    vector element is a numpy view of row i."""
    @ash.compute(workgroup_size=2)
    async def through_a_row(buf, *, local_invocation_index: u32):
        c = buf[local_invocation_index]
        c[0] = 5.0

    buf = np.zeros((2, 4), np.float32)
    ash.run(through_a_row, buf=buf)
    assert buf[:, 0].tolist() == [5.0, 5.0]  # (WGSL's `var c = buf[i]; c[0] = 5.0;`: 0.0)
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_locals.py:\d+: "
                       r"test_a_local_holding_a_numpy_row_is_a_view_on_the_cpu.<locals>."
                       r"through_a_row: a store into `c\[0\]`, where 'c' holds a row of buf, "
                       r"bound without a vector element \(the CPU indexes numpy rows, views of "
                       r"the buffer, so the store reaches buf; in WGSL c is a copy\).*Fix: "
                       r"declare the binding's element \(buf: ash.Storage\[vec4f\]\)"):
        to_wgsl(through_a_row, buf=buf)


@ash.struct
class Mote:
    mass: f32
    velocity: vec2f


@ash.compute(workgroup_size=2)
async def through_a_struct(motes, out: ash.Storage[f32], *, local_invocation_index: u32):
    m = motes[local_invocation_index]   # a copy of the element, on both sides
    m.velocity.y -= m.mass
    out[local_invocation_index] = m.velocity.y


@ash.compute(workgroup_size=2)
async def copied_first(motes, out: ash.Storage[f32], *, local_invocation_index: u32):
    v = vec2f(motes[local_invocation_index].velocity)  # (a copy on both sides)
    v.y -= 1.0
    out[local_invocation_index] = v.y


def test_a_store_through_a_struct_element_local_changes_the_copy_only(crosscheck):
    motes = Mote.zeros(2)
    motes["mass"] = [1.0, 2.0]
    motes["velocity"] = [[0.0, 5.0], [0.0, 7.0]]
    text = to_wgsl(through_a_struct, motes=motes, out=np.zeros(2, np.float32))
    assert "var m = motes[local_invocation_index];\n    m.velocity.y -= m.mass;" in text
    report = crosscheck(through_a_struct, 1, motes=motes, out=np.zeros(2, np.float32))
    assert report.gpu["out"].tolist() == [4.0, 5.0]
    assert report.gpu["motes"]["velocity"].tolist() == [[0.0, 5.0], [0.0, 7.0]]  # unchanged
    text = to_wgsl(copied_first, motes=Mote.zeros(2), out=np.zeros(2, np.float32))
    assert "var v = vec2f(motes[local_invocation_index].velocity);\n    v.y -= 1.0;" in text


@ash.compute(workgroup_size=2)
async def one_buffer_two_branches(buf: ash.Storage[f32], *, local_invocation_index: u32):
    if local_invocation_index == 0:
        a = buf
    else:
        a = buf
    a[local_invocation_index] = 1.0


@ash.compute(workgroup_size=2)
async def renamed_buffer(buf: ash.Storage[f32], *, local_invocation_index: u32):
    a = buf
    a[local_invocation_index] += 1.0


def test_a_name_for_one_buffer_stores_into_it(crosscheck):
    text = to_wgsl(one_buffer_two_branches)
    # (a one-buffer selector wrote `if {`)
    assert "if a == 0u {\n        buf[local_invocation_index] = tmp1;\n    }" in text
    report = crosscheck(one_buffer_two_branches, 1, buf=np.zeros(2, np.float32))
    assert report.gpu["buf"].tolist() == [1.0, 1.0]
    assert "buf[local_invocation_index] += 1.0;" in to_wgsl(renamed_buffer)


@ash.compute(workgroup_size=1)
async def two_loops_over_i(out: ash.Storage[f32], n: u32, m: ash.i32):
    acc = f32(0)
    for i in range(n):
        acc += f32(i)
    for i in range(m):
        acc += f32(i) * 2.0
    for i in range(3):
        acc += f32(i) * 4.0
    out[0] = acc


def test_sibling_loops_may_reuse_a_loop_variables_name_with_different_types(crosscheck):
    text = to_wgsl(two_loops_over_i)
    assert "for (var i: u32 = 0; i < n; i++) {" in text
    assert "for (var i: i32 = 0; i < m; i++) {" in text
    report = crosscheck(two_loops_over_i, out=np.zeros(1, np.float32), n=4, m=3)
    assert report.gpu["out"].tolist() == [(0 + 1 + 2 + 3) + 2 * (0 + 1 + 2) + 4 * (0 + 1 + 2)]


def test_a_loop_variable_read_after_a_sibling_loop_over_it_is_still_refused():
    @ash.compute(workgroup_size=1)
    async def last_i(out: ash.Storage[ash.i32]):
        for i in range(3):
            out[0] += i
        for i in range(2):
            for i in range(4):  # (shadows the outer i: after it, i is the inner loop's)
                out[0] += i
            out[0] += i

    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_locals.py:\d+: .*last_i: the loop "
                       r"variable 'i' used after its loop"):
        to_wgsl(last_i)


@ash.compute(workgroup_size=4)
async def spec_reserved_names(out: ash.Storage[u32], *, local_invocation_index: u32):
    move = local_invocation_index   # 'move', 'std' and 'partition' are WGSL reserved words
    std = move + u32(1)
    partition = std * u32(2)
    out[move] = partition


def test_a_local_named_by_a_wgsl_reserved_word_gets_an_underscore_and_compiles(gpu_device):
    from asyncshader.extra.device import validate
    text = to_wgsl(spec_reserved_names)
    assert "let move_ = local_invocation_index;" in text and "out[move_] = partition_;" in text
    validate(text, gpu_device)  # (naga refuses a reserved word as a name)
