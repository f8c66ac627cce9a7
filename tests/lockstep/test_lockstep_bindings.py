"""Bindings and outputs under ``ash.Lockstep()`` are the coroutine path's: a loaded WGSL
module binds by WGSL name or by ``bindings={(group, binding): value}``, each numpy array's
bytes viewed through the binding's WGSL type (the one resolution,
``front.wgsl.bindings.resolve_bindings``), textures and samplers included, for compute and
fragment entry points; a dispatch's ``outputs`` hold what it may write (the arrays of
``var<storage, read_write>`` and writable storage textures), never a read-only buffer or a
uniform, with the keys InOrder's hold."""

import numpy as np
import pytest

import asyncshader as ash

PARTICLES = """\
struct P { a: vec2f, b: f32, }
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<P>;
@group(1) @binding(0) var<uniform> k: u32;
@group(1) @binding(1) var<storage, read_write> pos: array<vec3f>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) g: vec3u) {
    out[g.x].a = vec2f(f32(inp[g.x] * k), 1.0);
    out[g.x].b = 2.5;
    pos[g.x] = pos[g.x] + vec3f(1.0, 2.0, 3.0);
}
"""

TEXTURED = """\
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@group(0) @binding(2) var dst: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(2, 2)
fn main(@builtin(global_invocation_id) g: vec3u) {
    let uv = (vec2f(g.xy) + 0.5) / 2.0;
    textureStore(dst, g.xy, textureSampleLevel(src, smp, uv, 0.0) * 2.0);
}
"""

SHADED = """\
@group(0) @binding(0) var<storage, read> scale: array<f32>;
@group(0) @binding(1) var<storage, read_write> hits: array<u32>;
@group(0) @binding(2) var img: texture_storage_2d<r32uint, write>;

@fragment
fn main(@builtin(position) p: vec4f) -> @location(0) f32 {
    let x = u32(p.x);
    let y = u32(p.y);
    hits[y * 4u + x] = x + 10u * y;
    textureStore(img, vec2u(x, y), vec4u(x * y + 1u, 0u, 0u, 1u));
    return p.x * scale[0];
}
"""

SCHEDULES = {"inorder": ash.InOrder, "lockstep": ash.Lockstep}


def particle_buffers():
    """``inp`` (u32), ``out`` (array<P>: 16-byte elements, as raw bytes) and ``pos``
    (array<vec3f>: 16-byte stride, the fourth float -1 padding the kernel never touches)."""
    pos = np.full((4, 4), -1.0, np.float32)
    pos[:, :3] = np.arange(12, dtype=np.float32).reshape(4, 3)
    return np.arange(4, dtype=np.uint32), np.zeros(64, np.uint8), pos


def expected_particles():
    """By hand: out[i] = P(vec2f(3 i, 1), 2.5) (its last 4 bytes padding, 0); pos[i] + (1,2,3)."""
    out = np.zeros((4, 4), np.float32)
    out[:, 0], out[:, 1], out[:, 2] = 3 * np.arange(4), 1.0, 2.5
    pos = np.full((4, 4), -1.0, np.float32)
    pos[:, :3] = np.arange(12, dtype=np.float32).reshape(4, 3) + np.float32([1, 2, 3])
    return out, pos


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_a_loaded_kernel_binds_by_group_and_binding_under_both_schedules(schedule):
    inp, out, pos = particle_buffers()
    kernel = ash.load_wgsl(PARTICLES)["main"]
    result = ash.run(kernel, 1, schedule=SCHEDULES[schedule](), sanitize="off", bindings={
        (0, 0): inp, (0, 1): out, (1, 0): np.uint32(3), (1, 1): pos.view(np.uint8)})
    want_out, want_pos = expected_particles()
    assert out.view(np.float32).reshape(4, 4).tolist() == want_out.tolist()
    assert pos.tolist() == want_pos.tolist()  # (padding untouched: still -1)
    assert sorted(result.outputs) == ["out", "pos"]  # (not the read-only inp, not k)


def test_bindings_by_slot_and_by_name_mixed_give_the_same_bytes_as_inorder():
    kernel = ash.load_wgsl(PARTICLES)["main"]
    runs = []
    for schedule in SCHEDULES.values():
        inp, out, pos = particle_buffers()
        result = ash.run(kernel, 1, schedule=schedule(), sanitize="off", inp=inp,
                         k=np.uint32(3), bindings={(0, 1): out, (1, 1): pos})
        runs.append((out.tobytes(), pos.tobytes(), sorted(result.outputs),
                     {k: np.asarray(v).tobytes() for k, v in result.outputs.items()}))
    assert runs[0] == runs[1]


def test_a_binding_the_entry_point_does_not_use_is_the_same_error_under_lockstep():
    kernel = ash.load_wgsl(PARTICLES)["main"]
    inp, out, pos = particle_buffers()
    with pytest.raises(ash.BindingError, match=r"@group\(2\) @binding\(0\), which main does "
                                               r"not use"):
        ash.run(kernel, 1, schedule=ash.Lockstep(), sanitize="off", inp=inp, out=out,
                k=np.uint32(3), pos=pos, bindings={(2, 0): inp})


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_a_packed_vec3_array_is_refused_under_both_schedules_naming_the_padded_form(schedule):
    inp, out, _ = particle_buffers()
    with pytest.raises(ash.BindingError, match=r"binding 'pos' .* 12 bytes apart, but in a "
                                               r"buffer they are 16 bytes apart"):
        ash.run(ash.load_wgsl(PARTICLES)["main"], 1, schedule=SCHEDULES[schedule](),
                sanitize="off", inp=inp, out=out, k=np.uint32(3),
                pos=np.zeros((4, 3), np.float32))


def test_textures_and_samplers_bind_by_slot_under_lockstep_as_under_inorder():
    kernel = ash.load_wgsl(TEXTURED)["main"]
    texels = np.arange(16, dtype=np.float32).reshape(2, 2, 4)
    smp = ash.Sampler()
    stored = []
    for schedule in SCHEDULES.values():
        dst = ash.Texture([np.zeros((2, 2, 4), np.float32)], "rgba32float")
        result = ash.run(kernel, 1, schedule=schedule(), sanitize="off", bindings={
            (0, 0): ash.Texture([texels.copy()], "rgba32float"), (0, 1): smp, (0, 2): dst})
        assert list(result.outputs) == ["dst"]
        stored.append(dst.levels[0])
    # nearest filtering at each texel's centre: the texel itself, doubled
    assert stored[0].tolist() == (texels * 2).tolist()
    assert stored[1].tobytes() == stored[0].tobytes()


def test_fragments_bind_by_slot_under_lockstep_and_output_only_what_they_may_write():
    shader = ash.load_wgsl(SHADED)["main"]
    runs = []
    for schedule in SCHEDULES.values():
        hits = np.zeros(16, np.uint32)
        img = ash.Texture([np.zeros((4, 4, 1), np.uint32)], "r32uint")
        result = ash.run_fragments(shader, 4, 4, schedule=schedule(), sanitize="off",
                                   bindings={(0, 0): np.float32([2.0]), (0, 1): hits,
                                             (0, 2): img})
        runs.append((hits, img.levels[0], result))
    (hits, img, ours), (fast_hits, fast_img, fast) = runs
    ys, xs = np.mgrid[0:4, 0:4]
    assert hits.tolist() == (xs + 10 * ys).reshape(-1).tolist()
    assert img[..., 0].tolist() == (xs * ys + 1).tolist()
    assert ours.output.tolist() == ((xs + 0.5) * 2).tolist()
    assert fast_hits.tobytes() == hits.tobytes() and fast_img.tobytes() == img.tobytes()
    assert fast.output.tobytes() == ours.output.tobytes()
    assert sorted(ours.outputs) == ["hits", "img", "output"]  # (not the read-only scale)
    assert sorted(fast.outputs) == sorted(ours.outputs)
    for key in ours.outputs:
        assert np.asarray(fast.outputs[key]).tobytes() == np.asarray(ours.outputs[key]).tobytes()


@ash.compute(4)
async def scaled(global_invocation_id, src: ash.ReadOnly[ash.f32], table: ash.Uniform[ash.vec4f],
                 dst, counts: ash.Storage[ash.atomic(ash.u32)]):
    i = global_invocation_id.x
    dst[i] = src[i] * table.y
    await ash.atomic_add(ash.ptr(counts), 1)


def test_a_python_kernels_outputs_leave_out_read_only_and_uniform_arrays_as_inorder_does():
    results = []
    for schedule in SCHEDULES.values():
        src, table = np.arange(4, dtype=np.float32), np.float32([1, 3, 5, 7])
        dst, counts = np.zeros(4, np.float32), np.zeros(1, np.uint32)
        result = ash.run(scaled, 1, schedule=schedule(), sanitize="off", src=src, table=table,
                         dst=dst, counts=counts)
        assert dst.tolist() == [0.0, 3.0, 6.0, 9.0] and counts.tolist() == [4]
        results.append(result)
    ours, fast = results
    assert sorted(ours.outputs) == ["counts", "dst"]
    assert sorted(fast.outputs) == sorted(ours.outputs)
    for key in ours.outputs:
        assert np.asarray(fast.outputs[key]).tobytes() == np.asarray(ours.outputs[key]).tobytes()
