"""Implicit conversions on store: WGSL converts nothing implicitly, so a float stored into
integer memory (an i32/u32 storage buffer, workgroup variable or fragment storage) would not
compile. numpy truncates it; the race detector's access-reporting arrays see the store and
report an ImplicitConversion finding naming the line, both types and the conversion to write
(a TypeError for a strict kernel). With sanitize="off" nothing is checked."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec3f, vec4f
from asyncshader.sanitizers.findings import ImplicitConversion, findings_json


def line_of(fn, text):
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(src) if text in line)


def conversions(result):
    return [f for f in result.findings if isinstance(f, ImplicitConversion)]


# ----------------------------------------------------------------------------- storage buffers
@ash.compute(workgroup_size=4)
async def halves(out: ash.Storage, *, local_invocation_index: u32):
    out[local_invocation_index] = local_invocation_index * 0.5  # float into the buffer


@pytest.mark.parametrize("dtype, wgsl", [(np.int32, "i32"), (np.uint32, "u32")])
@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Random(3)], ids=repr)
def test_a_float_stored_into_an_integer_buffer_is_reported_with_the_conversion(
        dtype, wgsl, schedule):
    out = np.zeros(4, dtype)
    r = ash.run(halves, out=out, sanitize="report", schedule=schedule)
    assert out.tolist() == [0, 0, 1, 1]  # numpy truncated: what the finding says happened
    (found,) = conversions(r)
    assert found.severity == "error" and found.count == 4
    assert sorted(found.elements) == [0, 1, 2, 3]
    assert (found.memory, found.address_space) == ("out", "storage")
    assert (found.value_type, found.memory_type, found.conversion) == (
        "f32 (a numpy float64)", wgsl, f"{wgsl}(...)")
    assert found.access.line == line_of(halves.fn, "# float into the buffer")
    assert found.access.kind == "store" and "local_invocation_index=" in found.access.invocation
    text = found.render()
    assert text.startswith("Implicit conversion on store to storage memory out[")
    assert f"test_conversions.py:{found.access.line}: out[local_invocation_index] = " in text
    assert f"out holds {wgsl}" in text and "WGSL converts nothing implicitly" in text
    assert f"Fix: convert explicitly, {wgsl}(...)" in text
    assert '"type": "ImplicitConversion"' in findings_json(r.findings)


def test_the_default_mode_warns_and_error_mode_raises():
    with pytest.warns(ash.DataRaceWarning, match="Implicit conversion on store"):
        ash.run(halves, out=np.zeros(4, np.int32))
    with pytest.raises(ash.DataRaceError, match="i32\\(\\.\\.\\.\\)") as info:
        ash.run(halves, out=np.zeros(4, np.int32), sanitize="error")
    assert [type(f) for f in info.value.findings] == [ImplicitConversion]


@ash.compute(workgroup_size=4, strict=True)
async def halves_strict(out: ash.Storage, *, local_invocation_index: u32):
    # (f32(...) * 0.5 is well typed; a strict kernel refuses u32 * 0.5 already at the
    # expression: tests/wgsl/test_operators.py)
    out[local_invocation_index] = f32(local_invocation_index) * 0.5  # strict store


def test_a_strict_kernel_raises_at_the_store():
    out = np.zeros(4, np.int32)
    with pytest.raises(ash.ShaderError) as info:
        ash.run(halves_strict, out=out, sanitize="report")
    assert isinstance(info.value.original, TypeError)
    msg = str(info.value)
    assert "a float stored into out[0]" in msg and "out holds i32" in msg
    assert "Fix: convert explicitly, i32(...)" in msg
    assert f"test_conversions.py:{line_of(halves_strict.fn, '# strict store')}: " in msg
    assert not out.any()  # raised before storing


def test_with_sanitize_off_nothing_is_checked():
    out = np.zeros(4, np.int32)
    r = ash.run(halves, out=out, sanitize="off")
    assert r.findings == [] and out.tolist() == [0, 0, 1, 1]


@ash.compute(workgroup_size=2)
async def rows_of_floats(grid: ash.Storage, vecs: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    grid[i, 1] = f32(2.75)  # [row, column] of a 2-D buffer
    vecs[i] = vec3f(1.5, 2.5, -3.5)  # a vector into an array<vec3i>


def test_two_dimensional_indices_and_vectors_are_checked_too():
    grid, vecs = np.zeros((2, 2), np.uint32), np.zeros((2, 3), np.int32)
    r = ash.run(rows_of_floats, grid=grid, vecs=vecs, sanitize="report")
    got = {(f.memory, f.value_type, f.memory_type, f.access.line, f.count)
           for f in conversions(r)}
    assert got == {
        ("grid", "f32", "u32", line_of(rows_of_floats.fn, "[row, column]"), 2),
        ("vecs", "vec3f", "vec3i", line_of(rows_of_floats.fn, "array<vec3i>"), 2)}
    assert vecs.tolist() == [[1, 2, -3]] * 2 and grid[:, 1].tolist() == [2, 2]


@ash.compute(workgroup_size=4)
async def well_typed(ints: ash.Storage, floats: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    ints[i] = i32(i) * 2 + i32(1)  # i32 into i32 (i32 + u32 would be refused: see below)
    ints[i] = i32(f32(i) * 0.5)  # an explicit conversion
    floats[i] = f32(i) * 0.5  # floats into floats
    floats[i] = i  # an integer into a float buffer: exact, as WGSL's abstract ints are
    floats[i] = 7


def test_well_typed_stores_are_not_reported():
    ints, floats = np.zeros(4, np.int32), np.zeros(4, np.float32)
    r = ash.run(well_typed, ints=ints, floats=floats, sanitize="report")
    assert r.findings == []
    assert ints.tolist() == [0, 0, 1, 1] and floats.tolist() == [7, 7, 7, 7]


# ---------------------------------------------------------------------------- workgroup memory
tile = ash.workgroup(ash.array(i32, 4))
total = ash.workgroup(u32)


@ash.compute(workgroup_size=4)
async def through_workgroup_memory(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    tile[i] = f32(i) / 3  # float into workgroup memory
    if i == 0:
        total.value = f32(2.5)  # float into a scalar workgroup variable
    await ash.workgroup_barrier()
    out[i] = tile[i] + i32(total.value)


def test_workgroup_elements_and_scalar_variables_are_checked():
    out = np.zeros(4, np.int32)
    r = ash.run(through_workgroup_memory, out=out, sanitize="report")
    got = {(f.memory, f.address_space, f.memory_type, f.access.line, f.count)
           for f in conversions(r)}
    assert got == {
        ("tile", "workgroup", "i32", line_of(through_workgroup_memory.fn, "into workgroup"), 4),
        ("total", "workgroup", "u32", line_of(through_workgroup_memory.fn, "into a scalar"), 1)}
    assert out.tolist() == [2, 2, 2, 3]  # truncated: 0, 0, 0, 1 plus 2


# ---------------------------------------------------------------------------- fragment stage
@ash.fragment
async def counts_in_floats(hits: ash.Storage, *, position: vec4f):
    hits[int(position.y) * 2 + int(position.x)] = position.x  # float into fragment storage
    return vec4f(0, 0, 0, 1)


def test_a_fragments_float_into_integer_storage_is_reported():
    hits = np.zeros(4, np.uint32)
    r = ash.run_fragments(counts_in_floats, 2, 2, hits=hits, sanitize="report")
    (found,) = conversions(r)
    assert (found.memory, found.value_type, found.memory_type, found.count) == (
        "hits", "f32", "u32", 4)
    assert found.access.line == line_of(counts_in_floats.fn, "into fragment storage")
    assert hits.tolist() == [0, 1, 0, 1]


@ash.fragment
async def int_then_float(*, position: vec4f):
    return i32(1) if position.x < 1 else f32(0.5)  # a float where the first returned an i32


def test_fragment_outputs_of_mixed_types_are_refused():
    """A fragment output is typed by the shader's signature in WGSL: a float where the first
    fragment returned an i32 would be truncated into the int image, so it is refused."""
    with pytest.raises(TypeError) as info:
        ash.run_fragments(int_then_float, 2, 1)
    msg = str(info.value)
    assert msg.startswith("fragment (1,0) returned float32 for output, but the first fragment "
                          "returned int32")
    assert "every fragment must return the same type" in msg


@ash.compute(workgroup_size=1)
async def numpy_methods(out: ash.Storage, grid: ash.Storage):
    out.fill(0.5)  # fill with a float
    out.put([1, 2], [1.5, 2.5])  # put floats
    grid.flat[3] = f32(3.75)  # a float through .flat


def test_numpy_methods_that_store_are_checked_too():
    out, grid = np.zeros(4, np.int32), np.zeros((2, 2), np.uint32)
    r = ash.run(numpy_methods, out=out, grid=grid, sanitize="report")
    got = {(f.memory, f.index if not isinstance(f.index, list) else tuple(f.index),
            f.memory_type, f.access.line) for f in conversions(r)}
    line = lambda text: line_of(numpy_methods.fn, text)  # noqa: E731
    assert got == {("out", "...", "i32", line("fill with")),
                   ("out", (1, 2), "i32", line("put floats")),
                   ("grid", 3, "u32", line("through .flat"))}
    assert out.tolist() == [0, 1, 2, 0] and grid.ravel().tolist() == [0, 0, 0, 3]


# --------------------------------------------------- values numpy widened from a mixed expression
@ash.compute(workgroup_size=2)
async def mixed_sum(out: ash.Storage, wg_out: ash.Storage, *, local_invocation_index: u32):
    out[local_invocation_index] = local_invocation_index + i32(-1)  # u32 + i32: WGSL refuses


def test_a_value_numpy_widened_from_u32_and_i32_is_reported_where_the_store_wraps_it():
    # numpy makes u32 + i32 an int64 (WGSL refuses the expression); stored into u32 memory,
    # -1 (invocation 0) is wrapped silently: the detector reports that store; 0 (invocation 1)
    # fits and is stored exactly (as is a numpy sum that fits: not reported)
    out = np.zeros(2, np.uint32)
    r = ash.run(mixed_sum, out=out, wg_out=np.zeros(1, np.uint32), sanitize="report")
    [found] = conversions(r)
    text = found.render()
    assert found.count == 1 and found.elements == [0]
    assert "numpy int64 (-1)" in text and "mixed i32 with u32" in text
    assert f"test_conversions.py:{line_of(mixed_sum.fn, 'i32(-1)')}" in text
    assert "u32(x) + y or x + i32(y)" in text


def test_sanitize_off_does_not_check_widened_values_either():
    out = np.zeros(2, np.uint32)
    r = ash.run(mixed_sum, out=out, wg_out=np.zeros(1, np.uint32), sanitize="off")
    assert r.findings == [] and out.tolist() == [4294967295, 0]
