"""``array_length`` (WGSL ``arrayLength``): the element count of a storage buffer."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import array_length, f32, ptr, u32, vec3u


@ash.compute(workgroup_size=2)
async def lengths(buf: ash.Storage, grid: ash.Storage, out: ash.Storage, *,
                  local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        out[0] = array_length(buf)
        out[1] = array_length(ptr(buf))  # WGSL's arrayLength(&buf)
        out[2] = array_length(grid)  # array<array<f32, 3>>: the outer count
        out[3] = u32(array_length(out) == 4 and isinstance(array_length(out), np.uint32))
    buf[i] = f32(i)


@pytest.mark.parametrize("sanitize", [None, "report"])
def test_array_length_of_storage_buffers(sanitize):
    buf, grid = np.zeros(7, np.float32), np.zeros((5, 3), np.float32)
    out = np.zeros(4, np.uint32)
    result = ash.run(lengths, 1, buf=buf, grid=grid, out=out, sanitize=sanitize)
    assert out.tolist() == [7, 7, 5, 1]
    assert not result.findings  # array_length reads no element: no race, no access


tile = ash.workgroup(ash.array(f32, 4))


@ash.compute(workgroup_size=1)
async def of_workgroup(out: ash.Storage):
    out[0] = array_length(tile)


@ash.compute(workgroup_size=1)
async def of_uniform(table: ash.Uniform, out: ash.Storage):
    out[0] = array_length(table)


@ash.compute(workgroup_size=1)
async def of_element(buf: ash.Storage):
    buf[0] = array_length(ptr(buf, 3))


def test_fixed_size_arrays_and_element_pointers_are_refused():
    out = np.zeros(1, np.uint32)
    with pytest.raises(ash.ShaderError, match=r"workgroup array has a fixed size.*length is 4"):
        ash.run(of_workgroup, out=out)
    with pytest.raises(ash.ShaderError, match=r"read-only, a uniform binding.*len\(x\)"):
        ash.run(of_uniform, table=np.arange(3, dtype=np.float32), out=out)
    with pytest.raises(ash.ShaderError, match=r"pointer to the whole runtime-sized array"):
        ash.run(of_element, buf=np.zeros(4, np.uint32))
    with pytest.raises(TypeError, match=r"not vec3u"):
        array_length(vec3u(1, 2, 3))
    with pytest.raises(TypeError, match=r"0-d array"):
        array_length(np.zeros((), np.float32))


@ash.struct
class Pair:
    a: f32
    b: f32


@ash.compute(workgroup_size=1)
async def struct_lengths(pairs: ash.Storage[Pair], seen: ash.ReadOnly[Pair], out: ash.Storage):
    out[0] = array_length(pairs)
    out[1] = array_length(ptr(pairs))  # WGSL's arrayLength(&pairs) of an array<Pair>
    out[2] = array_length(ptr(seen))


def test_a_pointer_to_a_struct_buffer_gives_its_length():
    out = np.zeros(3, np.uint32)
    for sanitize in ("report", "off"):
        ash.run(struct_lengths, pairs=Pair.zeros(5), seen=Pair.zeros(2), out=out,
                sanitize=sanitize)
        assert out.tolist() == [5, 5, 2]
    module = ash.load_wgsl("""
        struct P { a: f32, b: f32 }
        @group(0) @binding(0) var<storage, read> seen: array<P>;
        @group(0) @binding(1) var<storage, read_write> out: array<u32>;
        @compute @workgroup_size(1)
        fn main() { out[0] = arrayLength(&seen); }
    """)
    ash.run(module["main"], 1, seen=np.zeros(7, module["P"].dtype), out=out)
    assert out[0] == 7


def test_a_pointer_to_a_structs_runtime_sized_member_has_its_length():
    @ash.struct
    class Buf:
        count: u32
        data: ash.runtime_array(f32)

    @ash.compute(workgroup_size=1)
    async def k(b):
        b.count = array_length(ptr(b.data)) * 10 + array_length(b.data)  # &b.data, b.data

    b = Buf.zeros(length=6)
    ash.run(k, 1, b=b)
    assert np.frombuffer(b.tobytes(), np.uint32)[0] == 66

