"""workgroupUniformLoad and workgroup zero-initialisation against the WebGPU CTS vectors in
``tests/data/compute_atomics_cases.json`` (``workgroupUniformLoad``, ``zero_init``).

* ``webgpu:shader,execution,expression,call,builtin,workgroupUniformLoad:types``: the LAST
  invocation stores a value into ``var<workgroup> wgvar``, then every invocation writes
  ``workgroupUniformLoad(&wgvar)`` to its output slot (prefilled with 0xdeadbeef): all of them must
  see the stored value, because workgroupUniformLoad is barrier; load; barrier.
* ``webgpu:shader,execution,zero_init:compute,zero_init``: after another dispatch filled workgroup
  memory with 0xdeadbeef, every workgroup variable must read as zero at entry, without a barrier.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers import DATA_DIR

import asyncshader as ash
from asyncshader import (
    array,
    atomic,
    bool_,
    f32,
    i32,
    u32,
    vec2u,
    vec3b,
    vec3f,
    vec3i,
    vec4f,
    vec4u,
)

DATA = json.loads((DATA_DIR / "compute_atomics_cases.json").read_text())
UNIFORM_LOAD = DATA["workgroupUniformLoad"]
EXPECTED = UNIFORM_LOAD["expected_per_invocation"]
ZERO_INIT = DATA["zero_init"]
DEADBEEF = 0xDEADBEEF
# CTS workgroupUniformLoad:types wgsize parameter (the JSON's "test" lists them)
UNIFORM_LOAD_SIZES = [(1, 1), (3, 7), (1, 128), (16, 16)]


# ------------------------------------------------------------------------- workgroupUniformLoad
# One shader per CTS type. The types the CTS also covers but asyncshader's workgroup memory does
# not model (mat3x2f, SimpleStruct, ComplexStruct, AtomicInStruct) are left out: asyncshader has
# no matrix or struct workgroup types.
wgvar_bool = ash.workgroup(bool_)
wgvar_u32 = ash.workgroup(u32)
wgvar_vec4u = ash.workgroup(vec4u)
wgvar_array = ash.workgroup(array(u32, 4))
wgvar_atomic_u32 = ash.workgroup(atomic(u32))
wgvar_atomic_i32 = ash.workgroup(atomic(i32))


async def _load_bool(buffer: ash.Storage, value: ash.Uniform, num_invocations: ash.Uniform, *,
                     local_invocation_index):
    if local_invocation_index == num_invocations - 1:
        wgvar_bool.value = value
    buffer[local_invocation_index] = u32(await ash.workgroup_uniform_load(wgvar_bool))


async def _load_u32(buffer: ash.Storage, value: ash.Uniform, num_invocations: ash.Uniform, *,
                    local_invocation_index):
    if local_invocation_index == num_invocations - 1:
        wgvar_u32.value = u32(value)
    buffer[local_invocation_index] = await ash.workgroup_uniform_load(wgvar_u32)


async def _load_vec4u(buffer: ash.Storage, value: ash.Uniform, num_invocations: ash.Uniform, *,
                      local_invocation_index):
    if local_invocation_index == num_invocations - 1:
        wgvar_vec4u.value = vec4u(*value)
    v = await ash.workgroup_uniform_load(wgvar_vec4u)
    assert isinstance(v, vec4u)
    buffer[local_invocation_index] = (v.x, v.y, v.z, v.w)


async def _load_array(buffer: ash.Storage, value: ash.Uniform, num_invocations: ash.Uniform, *,
                      local_invocation_index):
    if local_invocation_index == num_invocations - 1:
        for i in range(4):
            wgvar_array[i] = u32(value[i])
    buffer[local_invocation_index] = await ash.workgroup_uniform_load(wgvar_array)


async def _load_atomic_u32(buffer: ash.Storage, value: ash.Uniform,
                           num_invocations: ash.Uniform, *, local_invocation_index):
    if local_invocation_index == num_invocations - 1:
        await ash.atomic_store(wgvar_atomic_u32, u32(value))
    buffer[local_invocation_index] = await ash.workgroup_uniform_load(wgvar_atomic_u32)


async def _load_atomic_i32(buffer: ash.Storage, value: ash.Uniform,
                           num_invocations: ash.Uniform, *, local_invocation_index):
    if local_invocation_index == num_invocations - 1:
        await ash.atomic_store(wgvar_atomic_i32, i32(value))
    buffer[local_invocation_index] = await ash.workgroup_uniform_load(wgvar_atomic_i32)


# CTS type -> (shader, value the last invocation stores, words per invocation, buffer dtype)
UNIFORM_LOAD_TYPES = {
    "bool": (_load_bool, True, 1, np.uint32),
    "u32": (_load_u32, EXPECTED["u32"], 1, np.uint32),
    "vec4u": (_load_vec4u, EXPECTED["vec4u"], 4, np.uint32),
    "array<u32,4>": (_load_array, EXPECTED["array<u32,4>"], 4, np.uint32),
    "atomic<u32>": (_load_atomic_u32, EXPECTED["atomic<u32>"], 1, np.uint32),
    "atomic<i32>": (_load_atomic_i32, EXPECTED["atomic<i32>"], 1, np.int32),
}


def expected_words(type_name: str) -> list[int]:
    if type_name == "bool":
        assert EXPECTED["bool"] == "true -> u32 1"
        return [1]
    value = EXPECTED[type_name]
    return value if isinstance(value, list) else [value]


@pytest.mark.parametrize("schedule", [None, ash.Random(seed=1), ash.Random(seed=2)],
                         ids=["in_order", "random1", "random2"])
@pytest.mark.parametrize("wgsize", UNIFORM_LOAD_SIZES, ids=lambda s: f"wg{s[0]}x{s[1]}")
@pytest.mark.parametrize("type_name", list(UNIFORM_LOAD_TYPES))
def test_workgroup_uniform_load_gives_every_invocation_the_last_invocations_store(
        type_name, wgsize, schedule):
    """CTS builtin,workgroupUniformLoad:types."""
    shader, value, words, dtype = UNIFORM_LOAD_TYPES[type_name]
    n = wgsize[0] * wgsize[1]
    buffer = np.full((n, words), DEADBEEF, np.uint32).view(dtype)
    ash.run(ash.compute(workgroup_size=wgsize)(shader), workgroups=1, buffer=buffer, value=value,
            num_invocations=n, schedule=schedule)
    expected = np.array(expected_words(type_name), dtype)
    np.testing.assert_array_equal(buffer, np.broadcast_to(expected, (n, words)))


# ---------------------------------------------------------------------------------- zero-init
# var<workgroup> variables of the CTS zero_init types that asyncshader models: scalars, vectors,
# arrays of scalars and of vectors, atomics and arrays of atomics. (Matrices and structs have no
# asyncshader workgroup type; var<private>/var<function> are plain Python locals here.)
zi_u32 = ash.workgroup(u32)
zi_i32 = ash.workgroup(i32)
zi_f32 = ash.workgroup(f32)
zi_bool = ash.workgroup(bool_)
zi_vec2u = ash.workgroup(vec2u)
zi_vec3i = ash.workgroup(vec3i)
zi_vec4f = ash.workgroup(vec4f)
zi_vec3b = ash.workgroup(vec3b)
zi_array_u32 = ash.workgroup(array(u32, 17))
zi_array_f32 = ash.workgroup(array(f32, 5))
zi_array_bool = ash.workgroup(array(bool_, 3))
zi_array_vec4u = ash.workgroup(array(vec4u, 3))
zi_array_vec3f = ash.workgroup(array(vec3f, 2))
zi_atomic_u32 = ash.workgroup(atomic(u32))
zi_atomic_i32 = ash.workgroup(atomic(i32))
zi_array_atomic_u32 = ash.workgroup(array(atomic(u32), 4))
zi_array_atomic_i32 = ash.workgroup(array(atomic(i32), 3))

PLAIN_NAMES = ["u32", "i32", "f32", "bool", "vec2u", "vec3i", "vec4f", "vec3b", "array<u32,17>",
               "array<f32,5>", "array<bool,3>", "array<vec4u,3>", "array<vec3f,2>"]
ATOMIC_NAMES = ["atomic<u32>", "atomic<i32>", "array<atomic<u32>,4>", "array<atomic<i32>,3>"]
NAMES = PLAIN_NAMES + ATOMIC_NAMES


def plain_vars():
    return (zi_u32, zi_i32, zi_f32, zi_bool, zi_vec2u, zi_vec3i, zi_vec4f, zi_vec3b,
            zi_array_u32, zi_array_f32, zi_array_bool, zi_array_vec4u, zi_array_vec3f)


def atomic_vars():
    return (zi_atomic_u32, zi_atomic_i32, zi_array_atomic_u32, zi_array_atomic_i32)


def junk(var):
    """0xdeadbeef in the variable's element type (bool: true)."""
    if var.dtype == np.bool_:
        return True
    return np.array(DEADBEEF, np.uint32).view(var.dtype)[()]


def atomic_indices(var):
    return [()] if var.shape == () else list(range(var.shape[0]))


async def fill_with_deadbeef():
    for var in plain_vars():
        var.value = junk(var)
    for var in atomic_vars():
        for index in atomic_indices(var):
            await ash.atomic_store(ash.ptr(var, index), junk(var))


async def record_nonzero(flags, junk_expected):
    """flags[k] = 1 where variable k does not hold zero (or, with ``junk_expected``, does not
    hold 0xdeadbeef in every component)."""
    def bad(values, var):
        values = np.asarray(values)
        return np.any(values != junk(var)) if junk_expected else np.any(values != 0)
    for k, var in enumerate(plain_vars()):
        if bad(var.value, var):
            flags[k] = 1
    for k, var in enumerate(atomic_vars(), start=len(PLAIN_NAMES)):
        for index in atomic_indices(var):
            if bad(await ash.atomic_load(ash.ptr(var, index)), var):
                flags[k] = 1


async def _fill_workgroup_memory(*, local_invocation_index):
    """The CTS's first dispatch: fill all workgroup memory with 0xdeadbeef."""
    if local_invocation_index == 0:
        await fill_with_deadbeef()


async def _zero_init_check(failed: ash.Storage, clobbered: ash.Storage, *,
                           local_invocation_index):
    # read every variable at entry, with no barrier before the reads (as the CTS)
    await record_nonzero(failed, junk_expected=False)
    await ash.workgroup_barrier()
    # then dirty this workgroup's memory: no later workgroup or dispatch may see it
    if local_invocation_index == 0:
        await fill_with_deadbeef()
    await ash.workgroup_barrier()
    # zeroing the memory of a workgroup that starts meanwhile must not touch this one's
    await record_nonzero(clobbered, junk_expected=True)


ZERO_INIT_SIZE = (4, 2)
FILL = ash.compute(workgroup_size=ZERO_INIT_SIZE)(_fill_workgroup_memory)
CHECK = ash.compute(workgroup_size=ZERO_INIT_SIZE)(_zero_init_check)


def failures(flags) -> list[str]:
    return [name for name, f in zip(NAMES, flags) if f]


def run_check(**kwargs):
    failed = np.zeros(len(NAMES), np.uint32)
    clobbered = np.zeros(len(NAMES), np.uint32)
    ash.run(CHECK, failed=failed, clobbered=clobbered, **kwargs)
    return failures(failed), failures(clobbered)


def test_workgroup_memory_is_zero_after_a_dispatch_filled_it_with_deadbeef():
    """CTS zero_init:compute,zero_init (a prior dispatch fills workgroup memory with 0xdeadbeef)."""
    assert ZERO_INIT["expected"].startswith("all components zero")
    ash.run(FILL, workgroups=3)
    failed, clobbered = run_check(workgroups=1)
    assert failed == [], f"not zero at entry after the 0xdeadbeef dispatch: {failed}"
    assert clobbered == []


@pytest.mark.parametrize(("schedule", "max_live"), [
    (None, 1), (None, 2), (ash.Random(seed=0), 1), (ash.Random(seed=1), 2),
    (ash.Random(seed=2), 2), (ash.Random(seed=3), 3),
], ids=["in_order-live1", "in_order-live2", "random0-live1", "random1-live2", "random2-live2",
        "random3-live3"])
def test_every_workgroup_starts_with_zeroed_memory(schedule, max_live):
    """CTS zero_init:compute,zero_init (every workgroup of a dispatch, under several schedules)."""
    ash.run(FILL, workgroups=2)
    failed, clobbered = run_check(workgroups=(3, 2), schedule=schedule,
                                  max_live_workgroups=max_live)
    assert failed == [], f"not zero at workgroup start: {failed}"
    assert clobbered == [], f"another workgroup's start overwrote this one's memory: {clobbered}"


flag = ash.workgroup(ash.u32)


@ash.compute(workgroup_size=4)
async def values_then_barriers(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        flag.value = 5
    v = await ash.workgroup_uniform_load(flag)  # hands out values...
    b = await ash.workgroup_barrier()  # ...and a barrier hands out none
    w = await ash.workgroup_uniform_load(flag)
    c = await ash.storage_barrier()
    out[i] = (b is None) + 2 * (c is None) + 4 * (v == 5) + 8 * (w == 5)


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Random(1)], ids=repr)
def test_a_barrier_after_a_collective_returns_none_not_the_collectives_value(schedule):
    # (single-scope runs take the fast paths, which clear handed-out values themselves)
    out = np.zeros(4, np.uint32)
    ash.run(values_then_barriers, out=out, schedule=schedule, sanitize="off")
    assert out.tolist() == [15, 15, 15, 15]


# -------------------------------------- workgroup_uniform_load: a pointer that is not uniform
ul_table = ash.workgroup(array(u32, 4))
ul_grid = ash.workgroup(array(array(u32, 4), 2))


@ash.compute(workgroup_size=4)
async def uniform_load_of_each_invocations_element(out: ash.Storage, *, local_invocation_index):
    i = local_invocation_index
    out[i] = await ash.workgroup_uniform_load(ash.ptr(ul_table, i % 2))  # element per parity


@ash.compute(workgroup_size=4)
async def uniform_load_of_each_invocations_row(out: ash.Storage, *, local_invocation_index):
    i = local_invocation_index
    out[i] = (await ash.workgroup_uniform_load(ul_grid[i // 2]))[0]  # a row per half


def _line_of(text: str) -> int:
    lines = Path(__file__).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Reverse(), ash.Random(3)], ids=repr)
@pytest.mark.parametrize(("kernel", "marker", "pointers"), [
    (uniform_load_of_each_invocations_element, "# element per parity",
     {"0, 2": "ul_table[0]", "1, 3": "ul_table[1]"}),
    (uniform_load_of_each_invocations_row, "# a row per half",
     {"0-1": "ul_grid[0]", "2-3": "ul_grid[1]"}),
], ids=["element", "row"])
def test_a_pointer_that_differs_between_invocations_is_a_divergence_naming_each(
        kernel, marker, pointers, schedule):
    """WGSL workgroupUniformLoad: the pointer must be uniform. A different pointer per invocation
    is a uniformity violation (DivergenceError, not a ShaderError about types), at the call's
    line, with each invocation's pointer."""
    with pytest.raises(ash.DivergenceError) as info:
        ash.run(kernel, out=np.zeros(4, np.uint32), schedule=schedule)
    err = info.value
    assert type(err) is ash.DivergenceError
    msg = str(err)
    assert f"test_barriers.py:{_line_of(marker)}: " in msg
    assert "workgroup_uniform_load()" in msg and "uniform" in msg
    for lanes, pointer in pointers.items():
        assert f"local_invocation_index {lanes} (2 invocations): {pointer}\n" in msg, msg
    assert "Fix: pass the same workgroup variable" in msg
    assert "convert" not in msg and "type" not in msg  # not the fix for values of two types
    assert [(w.split()[-1], len(ms)) for w, ms in err.positions] == [
        (f"workgroup_uniform_load({p})", 2) for p in pointers.values()]
