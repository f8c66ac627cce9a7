"""Bindings of a loaded WGSL module are bytes, as on a GPU: any C-contiguous numpy array is
viewed through the binding's WGSL type and layout (asyncshader.front.wgsl.bindings), without a
copy, by WGSL variable name or by ``bindings={(group, binding): array}``. Expected values are
derived with numpy on the same bytes, and lavapipe runs the same text on the same bytes."""

import struct

import numpy as np
import pytest
from ports import wgsl_originals

import asyncshader as ash
from asyncshader.front.wgsl import reflect_wgsl
from asyncshader.front.wgsl.bindings import view_binding

VEC3 = """\
@group(0) @binding(0) var<storage, read_write> pos: array<vec3f>;
@group(0) @binding(1) var<uniform> scale: f32;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) g: vec3u) {
    pos[g.x] = pos[g.x] * scale + vec3f(1.0, 2.0, 3.0);
}
"""

PARTICLES = """\
struct Particle { pos: vec2f, vel: vec2f, mass: f32, }
struct Params { dt: f32, n: u32, }
@group(0) @binding(0) var<storage, read_write> ps: array<Particle>;
@group(0) @binding(1) var<uniform> params: Params;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) g: vec3u) {
    let i = g.x;
    if (i < params.n) {
        ps[i] = Particle(ps[i].pos + ps[i].vel * params.dt, ps[i].vel, ps[i].mass * 2.0);
    }
}
"""

TWO_AT_ONE_SLOT = """\
@group(0) @binding(0) var<storage, read_write> counts: array<u32>;
@group(0) @binding(0) var<storage, read_write> values: array<f32>;
@group(0) @binding(1) var<storage, read> inp: array<u32>;

@compute @workgroup_size(1)
fn count() { counts[1] = inp[0] + 7u; }

@compute @workgroup_size(1)
fn scale() { values[1] = 1.5; }
"""

HISTOGRAM = """\
@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) g: vec3u) {
    atomicAdd(&bins[data[g.x] % 4u], 1u);
}
"""


def vec3_buffer():
    """Four vec3f in a buffer's layout: 16 bytes each, the fourth float padding (-1)."""
    buf = np.full((4, 4), -1.0, np.float32)
    buf[:, :3] = np.arange(12, dtype=np.float32).reshape(4, 3)
    return buf


def test_an_array_of_vec3f_is_viewed_with_its_16_byte_stride_and_stores_land_in_place(
        gpu_device):
    buf = vec3_buffer()
    raw = buf.view(np.uint8).reshape(-1)  # the same memory, as bytes
    ash.run(ash.load_wgsl(VEC3)["main"], 1, pos=raw, scale=np.float32([2.0]))
    want = vec3_buffer()
    want[:, :3] = want[:, :3] * 2 + [1, 2, 3]
    assert buf.tolist() == want.tolist()  # padding untouched: still -1
    gpu = wgsl_originals.run(gpu_device, VEC3, "main", 1, pos=vec3_buffer(),
                             scale=np.float32([2.0]))
    assert gpu["pos"][:, :3].tolist() == want[:, :3].tolist()


@pytest.mark.parametrize("sanitize", ["off", "report"])
def test_bindings_by_group_and_binding_and_the_race_detector_see_the_same_memory(sanitize):
    buf = vec3_buffer()
    result = ash.run(ash.load_wgsl(VEC3)["main"], 1, sanitize=sanitize,
                     bindings={(0, 0): buf.view(np.uint8), (0, 1): np.float32([3.0])})
    assert buf[:, :3].tolist() == (np.arange(12).reshape(4, 3) * 3 + [1, 2, 3]).tolist()
    assert buf[:, 3].tolist() == [-1.0] * 4
    assert not result.findings


def test_a_struct_array_is_viewed_from_plain_floats_and_a_uniform_from_packed_bytes(
        gpu_device):
    # Particle: pos at 0, vel at 8, mass at 16, size 24 (6 floats, the last one padding)
    ps = np.arange(24, dtype=np.float32).reshape(4, 6)
    params = np.frombuffer(struct.pack("<fI", 0.5, 3), np.uint8).copy()
    module = ash.load_wgsl(PARTICLES)
    assert module["Particle"].dtype.itemsize == 24
    got = ps.copy()
    ash.run(module["main"], 1, ps=got, params=params)
    want = ps.copy()
    want[:3, 0:2] += want[:3, 2:4] * 0.5  # only params.n = 3 particles move
    want[:3, 4] *= 2
    assert got.tolist() == want.tolist()
    gpu = wgsl_originals.run(gpu_device, PARTICLES, "main", 1, ps=ps.copy(),
                             params=params.tobytes())
    assert gpu["ps"].tolist() == want.tolist()


def test_a_slot_resolves_to_the_variable_the_running_entry_point_uses():
    module = ash.load_wgsl(TWO_AT_ONE_SLOT)
    buf = np.zeros(8, np.uint8)
    inp = np.array([5], np.uint32)
    ash.run(module["count"], 1, bindings={(0, 0): buf, (0, 1): inp})
    assert buf.view(np.uint32).tolist() == [0, 12]
    ash.run(module["scale"], 1, bindings={(0, 0): buf})
    assert buf.view(np.float32).tolist() == [0.0, 1.5]


def test_read_only_bytes_and_atomics_bind_from_uint8_arrays():
    data = np.arange(16, dtype=np.uint32)
    data_bytes = data.view(np.uint8)
    data_bytes.flags.writeable = False
    bins = np.zeros(16, np.uint8)  # four atomic<u32>, as bytes
    ash.run(ash.load_wgsl(HISTOGRAM)["main"], 2, data=data_bytes, bins=bins)
    assert bins.view(np.uint32).tolist() == [4, 4, 4, 4]


def test_view_binding_gives_the_runtime_form_without_a_copy():
    reflection = reflect_wgsl(VEC3)
    pos = reflection.entry_points["main"].resources[0]
    raw = np.zeros(64, np.uint8)
    view = view_binding(pos, raw)
    assert view.shape == (4, 3) and view.dtype == np.float32 and view.strides == (16, 4)
    assert np.shares_memory(view, raw)
    view[2, 1] = 1.0
    assert raw.view(np.float32)[9] == 1.0  # vec 2, component 1: byte 32 + 4
    scale = reflection.entry_points["main"].resources[1]
    assert view_binding(scale, np.float32([2.5, 9.0])).tolist() == 2.5  # leading bytes


@pytest.mark.parametrize("nbytes, needs", [
    (20, "a multiple of 16 bytes, at least 16"),
    (0, "a multiple of 16 bytes, at least 16"),
])
def test_a_storage_buffer_of_the_wrong_size_names_binding_type_and_sizes(nbytes, needs):
    with pytest.raises(ash.BindingError) as info:
        ash.run(ash.load_wgsl(VEC3)["main"], 1, pos=np.zeros(nbytes, np.uint8),
                scale=np.float32([1.0]))
    message = str(info.value)
    assert "'pos'" in message and "array<vec3f>" in message
    assert needs in message and f"got {nbytes} bytes" in message


def test_a_uniform_below_its_size_names_its_struct_and_sizes():
    with pytest.raises(ash.BindingError) as info:
        ash.run(ash.load_wgsl(PARTICLES)["main"], 1, ps=np.zeros(24, np.uint8),
                params=np.zeros(4, np.uint8))
    message = str(info.value)
    assert "var<uniform> params: Params" in message
    assert "needs 8 bytes; got 4 bytes" in message


def test_an_unpadded_vec3_array_is_refused_with_the_padded_shape():
    with pytest.raises(ash.BindingError, match=r"12 bytes apart.*16 bytes apart.*\(4, 4\)"):
        ash.run(ash.load_wgsl(VEC3)["main"], 1, pos=np.zeros((4, 3), np.float32),
                scale=np.float32([1.0]))


def test_a_strided_array_is_refused_as_not_bytes_in_a_row():
    with pytest.raises(ash.BindingError, match="strided view.*ascontiguousarray"):
        ash.run(ash.load_wgsl(VEC3)["main"], 1, pos=np.zeros(32, np.float32)[::2],
                scale=np.float32([1.0]))


def test_missing_unused_and_doubly_given_bindings_name_them():
    module = ash.load_wgsl(TWO_AT_ONE_SLOT)
    with pytest.raises(ash.BindingError, match=r"missing binding 'inp' \(@group\(0\) "
                       r"@binding\(1\) var<storage, read> inp: array<u32>, a multiple of 4"):
        ash.run(module["count"], 1, counts=np.zeros(2, np.uint32))
    with pytest.raises(ash.BindingError, match="count uses no binding 'values'"):
        ash.run(module["count"], 1, counts=np.zeros(2, np.uint32),
                inp=np.zeros(1, np.uint32), values=np.zeros(2, np.float32))
    with pytest.raises(ash.BindingError, match=r"@group\(0\) @binding\(1\), which scale does "
                       "not use"):
        ash.run(module["scale"], 1, bindings={(0, 0): np.zeros(8, np.uint8),
                                               (0, 1): np.zeros(4, np.uint8)})
    with pytest.raises(ash.BindingError, match="given twice"):
        ash.run(module["scale"], 1, values=np.zeros(2, np.float32),
                bindings={(0, 0): np.zeros(8, np.uint8)})


def test_a_struct_ending_in_a_runtime_array_is_one_struct_whose_array_length_is_from_the_size():
    wgsl = """\
struct Buf { count: u32, items: array<vec4f>, }
@group(0) @binding(0) var<storage, read_write> buf: Buf;
@compute @workgroup_size(1)
fn main() { buf.count = arrayLength(&buf.items); }
"""
    resource = reflect_wgsl(wgsl).entry_points["main"].resources[0]
    assert (resource.min_size, resource.stride) == (32, 16)  # items at 16, one vec4f

    @ash.struct
    class Buf:
        count: ash.u32
        items: ash.runtime_array(ash.vec4f)

    raw = np.zeros(16 + 3 * 16, np.uint8)
    view = view_binding(resource, raw, {"Buf": Buf})
    assert view.shape == () and view["items"].shape == (3, 4) and np.shares_memory(view, raw)
    view["items"][2, 3] = 5.0
    assert raw.view(np.float32)[4 + 2 * 4 + 3] == 5.0
    with pytest.raises(ash.BindingError, match=r"needs 16 bytes plus a multiple of 16, at "
                       r"least 32; got 40 bytes"):
        view_binding(resource, np.zeros(40, np.uint8), {"Buf": Buf})
    with pytest.raises(ash.BindingError, match="no struct class for Buf"):
        view_binding(resource, raw)  # (the module's structs not given)


def test_an_array_of_vec3h_is_viewed_with_its_8_byte_stride():
    wgsl = """\
enable f16;
@group(0) @binding(0) var<storage, read_write> a: array<vec3h>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    a[i] = a[i] * 2.0h + vec3h(f16(i));
}
"""
    buf = np.ones((2, 4), np.float16)
    buf[:, 3] = -1  # padding: vec3h is 6 bytes, its array stride 8
    ash.run(ash.load_wgsl(wgsl)["main"], 1, a=buf.view(np.uint8))
    assert buf.tolist() == [[2, 2, 2, -1], [3, 3, 3, -1]]


def test_bytes_objects_bind_as_buffers_and_a_bytearray_takes_the_stores():
    out = bytearray(64)  # four vec3f, 16 bytes each
    ash.run(ash.load_wgsl(VEC3)["main"], 1, pos=out, scale=struct.pack("<f", 2.0))
    assert np.frombuffer(out, np.float32).reshape(4, 4)[:, :3].tolist() == [[1, 2, 3]] * 4
    with pytest.raises(ash.BindingError, match="read-only"):
        ash.run(ash.load_wgsl(VEC3)["main"], 1, pos=bytes(64), scale=struct.pack("<f", 2.0))


def test_an_array_of_mat3x3f_is_viewed_with_its_padded_columns():
    wgsl = """\
@group(0) @binding(0) var<storage, read_write> ms: array<mat3x3f>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    ms[i] = ms[i] * 2.0;
}
"""
    module = ash.load_wgsl(wgsl)
    buf = np.full((2, 3, 4), -1.0, np.float32)  # each column 16 bytes: 3 floats, padding
    buf[..., :3] = np.arange(18).reshape(2, 3, 3)
    ash.run(module["main"], 1, ms=buf.view(np.uint8).reshape(-1))
    assert buf[..., :3].tolist() == (np.arange(18).reshape(2, 3, 3) * 2).tolist()
    assert (buf[..., 3] == -1).all()
    with pytest.raises(ash.BindingError, match=r"36 bytes apart.*48 bytes apart.*"
                       r"np.zeros\(\(2, 3, 4\), np.float32\) and use a\[:, :, :3\]"):
        ash.run(module["main"], 1, ms=np.zeros((2, 3, 3), np.float32))


def test_one_struct_in_storage_and_in_a_uniform_bind_from_bytes(gpu_device):
    wgsl = """\
struct S { a: u32, v: vec3f, }
@group(0) @binding(0) var<storage, read_write> s: S;
@group(0) @binding(1) var<uniform> u: S;
@compute @workgroup_size(1)
fn main() {
    s.a = s.a + u.a;
    s.v = u.v * 2.0;
}
"""
    # S: a at 0, v at 16 (a vec3f aligns to 16), size 32
    def buffers():
        s = np.zeros(32, np.uint8)
        s.view(np.uint32)[0] = 5
        u = np.zeros(8, np.float32)
        u.view(np.uint32)[0] = 7
        u[4:7] = [1, 2, 3]
        return s, u
    s, u = buffers()
    ash.run(ash.load_wgsl(wgsl)["main"], 1, s=s, u=u)
    assert s.view(np.uint32)[0] == 12 and s.view(np.float32)[4:7].tolist() == [2, 4, 6]
    s_gpu, u_gpu = buffers()
    gpu = wgsl_originals.run(gpu_device, wgsl, "main", 1, s=s_gpu, u=u_gpu)
    assert gpu["s"].tolist() == s.tolist()


def test_a_scalar_uniform_from_bytes_is_its_value():
    wgsl = """\
@group(0) @binding(0) var<uniform> offset: i32;
@group(0) @binding(1) var<storage, read_write> out: array<i32>;
@compute @workgroup_size(1)
fn main() { out[0] = offset * 2; }
"""
    out = np.zeros(1, np.int32)
    ash.run(ash.load_wgsl(wgsl)["main"], 1,
            bindings={(0, 0): np.array([-7], np.int32).view(np.uint8), (0, 1): out})
    assert out.tolist() == [-14]  # (the bytes of -7, not the truth of a 0-d array: 1)


UNIFORM_VECTORS = """\
@group(0) @binding(0) var<uniform> u: array<vec4u, 2>;
@group(0) @binding(1) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1)
fn main() { let i = o[0]; o[1] = u[i].y; o[2] = u[1].w; o[3] = u[0].x + u[i][2]; }
"""


@pytest.mark.parametrize("sanitize", ["off", "report"])
def test_an_element_of_a_uniform_array_of_vectors_is_a_vector(sanitize):
    u, o = np.arange(8, dtype=np.uint32), np.array([1, 0, 0, 0], np.uint32)
    ash.run(ash.load_wgsl(UNIFORM_VECTORS)["main"], 1, u=u, o=o, sanitize=sanitize)
    assert o.tolist() == [1, 5, 7, 0 + 6]
