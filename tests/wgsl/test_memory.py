"""Workgroup memory (var<workgroup>): per-workgroup instances, zero-init, types, pointers."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32, vec3u, vec4f
from asyncshader.wgsl.watched import FlatIndex

counts = ash.workgroup(ash.array(u32, 4))
total = ash.workgroup(f32)
color = ash.workgroup(vec4f)
colors = ash.workgroup(ash.array(vec4f, 2))
hits = ash.workgroup(ash.atomic(u32))


@ash.compute(workgroup_size=4)
async def accumulate(out: ash.Storage, *, local_invocation_index: u32, workgroup_id: vec3u):
    i = local_invocation_index
    counts[i] += workgroup_id.x + 1  # starts from zero in every workgroup
    await ash.atomic_add(hits, 1)
    await ash.workgroup_barrier()
    if i == 0:
        out[workgroup_id.x] = counts.sum() * 100 + await ash.atomic_load(hits)


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Random(1), ash.Random(2)], ids=repr)
@pytest.mark.parametrize("live", [1, 3])
def test_each_workgroup_has_its_own_zero_initialised_memory(schedule, live):
    out = np.zeros(6, np.uint32)
    ash.run(accumulate, 6, out=out, schedule=schedule, max_live_workgroups=live)
    assert out.tolist() == [(w + 1) * 4 * 100 + 4 for w in range(6)]


def test_memory_left_by_a_previous_dispatch_is_zeroed():
    counts[:] = 0xDEADBEEF
    out = np.zeros(1, np.uint32)
    ash.run(accumulate, 1, out=out)
    assert out.tolist() == [404]


@ash.compute(workgroup_size=2)
async def scalars_and_vectors(out: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index == 0:
        total.value = 0.1
        color.value = vec4f(1, 2, 3, 4)
        colors[1] = vec4f(5, 6, 7, 8)
    await ash.workgroup_barrier()
    if local_invocation_index == 1:
        c = color.value
        out[0] = total.value
        out[1] = c.w + colors[1].y
        out[2] = colors[0].x  # zero-initialised


def test_scalar_and_vector_variables_read_and_write_through_value():
    out = np.zeros(3, np.float32)
    ash.run(scalars_and_vectors, out=out)
    assert out[0] == np.float32(0.1)  # stored as f32
    assert out[1] == 10 and out[2] == 0
    assert isinstance(colors[0], vec4f) and isinstance(color.value, vec4f)


@ash.compute(workgroup_size=1)
async def plain_access_to_atomic(out: ash.Storage):
    out[0] = hits[()]


def test_plain_access_to_an_atomic_variable_is_refused_with_the_fix():
    with pytest.raises(ash.ShaderError, match="await atomic_load"):
        ash.run(plain_access_to_atomic, out=np.zeros(1, np.uint32))
    with pytest.raises(TypeError, match="atomic_store"):
        hits.value = 3


def test_workgroup_declarations_take_wgsl_types_only():
    with pytest.raises(TypeError, match="use the WGSL type asyncshader.f32"):
        ash.workgroup(float)
    with pytest.raises(TypeError, match="takes a WGSL type"):
        ash.workgroup("f32")
    with pytest.raises(TypeError, match="atomic\\(\\) takes u32 or i32"):
        ash.atomic(f32)
    with pytest.raises(TypeError, match="positive int"):
        ash.array(f32, 0)


def test_workgroup_variables_are_found_through_called_functions_and_named():
    from asyncshader.wgsl.memory import find_workgroup_vars

    def helper():
        return counts[0]

    async def shader():
        helper()
        return total.value

    found = find_workgroup_vars(shader)
    assert set(found) == {"counts", "total"}
    assert counts.var_name == "counts"


def test_arithmetic_on_a_workgroup_array_gives_plain_values():
    result = counts + 1
    assert type(result) is np.ndarray
    assert type(counts.sum()) is not ash.WorkgroupVar


def test_atomics_refuse_non_integer_or_non_atomic_memory():
    @ash.compute(workgroup_size=1)
    async def bad_float(buf: ash.Storage):
        await ash.atomic_add(ash.ptr(buf, 0), 1)

    with pytest.raises(ash.ShaderError, match="atomic<i32> or atomic<u32>"):
        ash.run(bad_float, buf=np.zeros(1, np.float32))

    @ash.compute(workgroup_size=1)
    async def not_atomic(buf: ash.Storage):
        await ash.atomic_add(ash.ptr(counts, 0), 1)

    with pytest.raises(ash.ShaderError, match="declare it workgroup\\(atomic\\(u32\\)\\)"):
        ash.run(not_atomic, buf=np.zeros(1, np.uint32))


def test_atomic_index_out_of_range_is_a_finding_at_the_line_of_the_await():
    @ash.compute(workgroup_size=1)
    async def oob(buf: ash.Storage):
        await ash.atomic_add(ash.ptr(buf, 5), 1)  # the line

    buf = np.zeros(1, np.uint32)
    with pytest.warns(ash.DataRaceWarning, match=r"Out-of-bounds store of buf\[5\]"):
        (found,) = ash.run(oob, buf=buf).findings
    assert (type(found).__name__, found.memory, found.index, found.length) == \
        ("OutOfBounds", "buf", 5, 1)
    assert found.access.line == oob.fn.__code__.co_firstlineno + 2 and buf.tolist() == [0]


class Accesses(ash.Instrument):
    wants_memory_access = True

    def __init__(self):
        self.events = []

    def memory_access(self, inv, memory, index, kind):
        name = getattr(memory, "var_name", None) or f"buffer{memory.shape}"
        if isinstance(index, FlatIndex):
            index = ("flat", *index.flat.tolist())
        elif not isinstance(index, (tuple, slice)):
            index = int(index)
        self.events.append((inv.key, name, index, kind))


shared = ash.workgroup(ash.array(u32, 2))
flag = ash.workgroup(u32)


@ash.compute(workgroup_size=2)
async def touches(buf: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    shared[i] = buf[i] + 1
    await ash.workgroup_barrier()
    if i == 0:
        flag.value = shared[1]
    buf[i] = shared[1 - i]


def test_an_instrument_that_asks_sees_every_plain_load_and_store_with_its_invocation():
    rec = Accesses()
    buf = np.array([10, 20], np.uint32)
    ash.run(touches, buf=buf, instruments=[rec])
    assert buf.tolist() == [21, 11]
    assert rec.events == [
        (0, "buffer(2,)", 0, "load"), (0, "shared", 0, "store"),
        (1, "buffer(2,)", 1, "load"), (1, "shared", 1, "store"),
        (0, "shared", 1, "load"), (0, "flag", (), "store"),
        (0, "shared", 1, "load"), (0, "buffer(2,)", 0, "store"),
        (1, "shared", 0, "load"), (1, "buffer(2,)", 1, "store"),
    ]
    # after the run the variables are plain again (no cost for uninstrumented runs)
    assert type(shared) is ash.WorkgroupVar and shared._run is None


def test_without_such_an_instrument_storage_is_the_callers_array_itself():
    seen = []

    @ash.compute(workgroup_size=1)
    async def identity(buf: ash.Storage):
        seen.append(buf)

    buf = np.zeros(1, np.uint32)
    ash.run(identity, buf=buf, sanitize="off")  # the race detector watches memory too
    assert seen[0] is buf
    ash.run(identity, buf=buf)  # the default: the detector is on
    assert seen[1] is not buf and np.shares_memory(seen[1], buf)


def test_instrumented_storage_behaves_like_the_array_itself():
    @ash.compute(workgroup_size=1)
    async def doubles(buf: ash.Storage):
        buf[:] = buf * 2
        await ash.atomic_add(ash.ptr(buf, 0), 1)

    rec = Accesses()
    buf = np.array([1, 2], np.uint32)
    ash.run(doubles, buf=buf, instruments=[rec])
    assert buf.tolist() == [3, 4]
    # whole-array arithmetic reads every element (reported by flat position), then the store
    assert rec.events == [(0, "buffer(2,)", ("flat", 0, 1), "load"),
                          (0, "buffer(2,)", slice(None), "store")]


def test_workgroup_uniform_load_accepts_a_u32_index():
    table = ash.workgroup(ash.array(u32, 4))

    @ash.compute(workgroup_size=4)
    async def loads(out: ash.Storage, *, local_invocation_index: u32, workgroup_id: vec3u):
        table[local_invocation_index] = local_invocation_index * 10
        out[local_invocation_index] = await ash.workgroup_uniform_load(
            ash.ptr(table, workgroup_id.x + 2))

    out = np.zeros(4, np.uint32)
    ash.run(loads, out=out)
    assert out.tolist() == [20, 20, 20, 20]


def test_a_workgroup_variable_declared_after_the_kernel_is_still_per_workgroup():
    @ash.compute(workgroup_size=1)
    async def counts_up(out: ash.Storage, *, workgroup_id: vec3u):
        late.value = late.value + 1
        out[workgroup_id.x] = late.value

    global late
    late = ash.workgroup(u32)
    out = np.zeros(3, np.uint32)
    ash.run(counts_up, 3, out=out)
    assert out.tolist() == [1, 1, 1]


# ------------------------------------------------------------------ recursion (WGSL forbids it)
def factorial(n):
    return 1 if n <= 1 else n * factorial(n - 1)


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def _line(fn, offset=1):
    return f"{__file__}:{fn.__code__.co_firstlineno + offset}"


def _refused(kernel):
    with pytest.raises(ash.ShaderCreationError) as info:
        ash.run(kernel, out=np.zeros(1, np.float32))
    assert "WGSL forbids recursion" in str(info.value)
    return str(info.value)


def test_a_kernel_calling_a_recursive_helper_is_refused_at_the_helpers_line():
    def countdown(n):
        return 0 if n == 0 else countdown(n - 1)  # a closure: the scan itself recursed here

    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage):
        out[0] = countdown(3)

    message = _refused(k)
    assert message.startswith(f"countdown() at {_line(countdown)} calls itself "
                              "(`return 0 if n == 0 else countdown(n - 1)")

    @ash.compute(workgroup_size=1)
    async def k2(out: ash.Storage):
        out[0] = factorial(3)

    assert _refused(k2).startswith(f"factorial() at {_line(factorial)} calls itself")


def test_mutual_recursion_and_a_recursive_nested_def_are_refused():
    @ash.compute(workgroup_size=1)
    async def parity(out: ash.Storage):
        out[0] = is_even(4)

    assert _refused(parity).startswith(f"is_even() at {_line(is_even)} calls is_odd() (`return "
                                       f"True if n == 0 else is_odd(n - 1)`); is_odd() at "
                                       f"{_line(is_odd)} calls is_even()")

    @ash.compute(workgroup_size=1)
    async def nested(out: ash.Storage):
        def walk(n):
            return 0 if n == 0 else walk(n - 1)
        out[0] = walk(2)

    assert _refused(nested).startswith(f"walk() at {_line(nested.fn, 3)} calls itself")

    with pytest.raises(ash.ShaderCreationError, match=r"shade\(\) at .* calls itself"):
        @ash.fragment
        async def frag(*, position: vec4f):
            def shade(n):
                return 0.0 if n == 0 else shade(n - 1)
            return shade(2)


def test_recursion_inside_library_code_is_not_the_shaders():
    import copy

    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage):
        out[0] = len(copy.deepcopy([1, [2, [3]]]))  # deepcopy recurses; it is not shader code

    out = np.zeros(1, np.float32)
    ash.run(k, out=out)
    assert out[0] == 2


# --------------------------------------------- components of a vector in a workgroup array
@ash.compute(workgroup_size=2)
async def component_stores(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    colors[i].y = f32(2.0) * f32(i + 1)     # WGSL: colors[i].y = ...; a store into the array
    c = colors[i]
    c.w += 1.0                               # a loaded vector is a copy: memory keeps 0
    n = ash.normalize(colors[i] + vec4f(1.0, 0.0, 0.0, 0.0))  # built-ins take it as a value
    await ash.workgroup_barrier()
    out[i] = colors[1 - i]
    out[2 + i] = n


@pytest.mark.parametrize("sanitize", ["report", "off"])
def test_a_component_store_into_a_workgroup_vector_array_reaches_memory(sanitize):
    """``colors[i].y = v`` stores into the workgroup array, not into a copy of the vector."""
    out = np.zeros((4, 4), np.float32)
    ash.run(component_stores, out=out, sanitize=sanitize)
    assert out[:2].tolist() == [[0, 4, 0, 0], [0, 2, 0, 0]]
    # normalize((1, 2(i+1), 0, 0)): by hand for i = 0: (1, 2, 0, 0) / sqrt(5)
    assert np.allclose(out[2], np.array([1, 2, 0, 0]) / np.sqrt(5), rtol=1e-6)
    assert np.allclose(out[3], np.array([1, 4, 0, 0]) / np.sqrt(17), rtol=1e-6)


@ash.compute(workgroup_size=2)
async def racing_component_stores(out: ash.Storage, *, local_invocation_index: u32):
    colors[0].x = f32(local_invocation_index)


def test_component_stores_into_one_element_by_two_invocations_race():
    with pytest.raises(ash.DataRaceError):
        ash.run(racing_component_stores, out=np.zeros(1, np.float32), sanitize="error")


@ash.compute(workgroup_size=2)
async def whole_vector_stores(out: ash.Storage[vec4f], *, local_invocation_index: u32):
    i = local_invocation_index
    colors[i] = vec4f(1.0, 2.0, 3.0, f32(i))
    await ash.workgroup_barrier()
    out[i] = colors[1 - i]


@pytest.mark.parametrize("sanitize", ["report", "off"])
def test_a_whole_vector_store_into_a_workgroup_vector_array(sanitize):
    """Found with storage buffers of vectors: without instruments, numpy's own store into a
    row read the row through the array's __getitem__, a vector, and raised 'Getitem not
    returning array'."""
    out = np.zeros((2, 4), np.float32)
    ash.run(whole_vector_stores, out=out, sanitize=sanitize)
    assert out.tolist() == [[1, 2, 3, 1], [1, 2, 3, 0]]


@ash.compute(workgroup_size=2)
async def uniform_vector_load(out: ash.Storage[vec4f], *, local_invocation_index: u32):
    i = local_invocation_index
    colors[i] = vec4f(f32(i), 1.0, 2.0, 3.0)
    v = await ash.workgroup_uniform_load(ash.ptr(colors, 1))
    v.x += f32(10 * (i + 1))  # a value: changes this invocation's v, not colors[1]
    out[i] = v
    await ash.workgroup_barrier()
    if i == 0:
        out[2] = colors[1]


@pytest.mark.parametrize("sanitize", ["report", "off"])
def test_workgroup_uniform_load_of_a_vector_element_is_a_value(sanitize):
    out = np.zeros((3, 4), np.float32)
    r = ash.run(uniform_vector_load, out=out, sanitize=sanitize)
    assert out.tolist() == [[11, 1, 2, 3], [21, 1, 2, 3], [1, 1, 2, 3]] and r.findings == []


ROWS = ash.workgroup(ash.array(ash.array(ash.vec3f, 4), 2))  # array<array<vec3f, 4>, 2>


def test_a_workgroup_array_of_arrays_of_vectors_holds_rows_of_vectors():
    @ash.compute(workgroup_size=4)
    async def rows(out: ash.Storage[vec4f], *, local_invocation_index: u32):
        i = local_invocation_index
        ROWS[0][i] = ash.vec3f(f32(i), 1.0, 2.0)
        ROWS[1][i] = ash.vec3f(10.0, f32(i), 3.0)
        await ash.workgroup_barrier()
        out[i] = vec4f(ROWS[0][3 - i] + ROWS[1][i], 7.0)

    out = np.zeros((4, 4), np.float32)
    ash.run(rows, 1, out=out)
    assert out.tolist() == [[13.0 - i, 1.0 + i, 5.0, 7.0] for i in range(4)]


def test_two_invocations_writing_one_vector_of_a_row_race():
    @ash.compute(workgroup_size=2)
    async def clash(out: ash.Storage[f32], *, local_invocation_index: u32):
        ROWS[1][2] = ash.vec3f(f32(local_invocation_index), 0.0, 0.0)

    with pytest.warns(ash.DataRaceWarning, match=r"ROWS\[\(1, 2, 0\)\]"):
        ash.run(clash, 1, out=np.zeros(1, np.float32))
