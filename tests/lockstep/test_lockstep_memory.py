"""What a Lockstep dispatch holds in memory: a buffer already in WGSL's layout is the
memory itself (no copy), and each chunk's arrays are freed when the chunk ends (not kept
until Python's cycle collector runs); a loaded kernel is compiled from the tree load_wgsl
checked, not from its text again. benchmarks/lockstep_memory.py measures the peaks."""

import gc

import numpy as np
import pytest

import asyncshader as ash
from asyncshader.ir.types import Array, Atomic, Scalar, Vector
from asyncshader.lockstep.buffers import word_view

F32, U32, I32 = Scalar("f32"), Scalar("u32"), Scalar("i32")


@pytest.mark.parametrize("value,t", [
    (np.zeros(8, np.float32), Array(F32, None)),
    (np.zeros((2, 4), np.float32), Array(F32, 8)),          # (any shape: the same bytes)
    (np.zeros(8, np.uint32), Array(Atomic(U32), None)),
    (np.zeros((3, 4), np.int32), Array(Vector(4, I32), None)),
    (np.zeros((3, 2), np.float32), Array(Vector(2, F32), 3)),
    (np.zeros(1, np.uint32), U32),
])
def test_a_buffer_in_wgsls_layout_is_seen_without_a_copy(value, t):
    words = word_view(value, t, "read_write")
    assert words is not None and words.dtype == np.uint32 and words.size == value.size
    assert np.shares_memory(words, value)


@pytest.mark.parametrize("value,t,access", [
    (np.zeros((3, 3), np.float32), Array(Vector(3, F32), None), "read_write"),  # (padded)
    (np.zeros(8, np.float64), Array(F32, None), "read_write"),     # (converted)
    (np.zeros(8, np.int32), Array(F32, None), "read_write"),       # (converted)
    (np.zeros(16, np.float32)[::2], Array(F32, None), "read_write"),  # (strided)
    (np.zeros(6, np.float32), Array(F32, 8), "read_write"),        # (padded to 8)
    (np.zeros(8, np.float32).astype(">f4"), Array(F32, None), "read_write"),  # (byte order)
    (np.zeros(8, np.float32), Array(Vector(4, F32), None), "read_write"),  # (flat vec4s)
])
def test_a_buffer_in_another_layout_is_copied(value, t, access):
    assert word_view(value, t, access) is None


def test_a_read_only_array_is_seen_for_a_read_binding_and_copied_for_a_writable_one():
    value = np.zeros(8, np.float32)
    value.flags.writeable = False
    assert word_view(value, Array(F32, None), "read") is not None
    assert word_view(value, Array(F32, None), "read_write") is None


SCALE = ash.load_wgsl("""
@group(0) @binding(0) var<storage, read> inp: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> odd: array<vec3f>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[gid.x] = inp[gid.x] * 2.0 + vec4f(0.0, 0.0, 0.0, f32(gid.x));
  odd[gid.x] = inp[gid.x].xyz + 1.0;
}
""")


def test_viewed_and_copied_buffers_give_the_values_of_the_kernel():
    inp = np.arange(32, dtype=np.float32).reshape(8, 4)
    inp.flags.writeable = False  # (a read binding: seen as it is)
    out = np.zeros((8, 4), np.float32)          # (viewed)
    odd = np.full((8, 4), -1.0, np.float32)     # (vec3, 16 bytes apart: copied in and back)
    ash.run(SCALE["main"], 2, inp=inp, out=out, odd=odd, schedule=ash.Lockstep(),
            sanitize="off")
    want = inp * 2
    want[:, 3] += np.arange(8)
    assert out.tolist() == want.tolist()
    assert odd[:, :3].tolist() == (inp[:, :3] + 1).tolist()
    assert odd[:, 3].tolist() == [-1.0] * 8  # (the padding: untouched)


def test_the_arrays_of_each_chunk_are_freed_when_it_ends():
    module = ash.load_wgsl("""
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3u) { out[gid.x] = gid.x * 2u; }
""")
    out = np.zeros(256, np.uint32)
    schedule = ash.Lockstep(max_lanes=4)  # (64 chunks of one workgroup)
    ash.run(module["main"], 64, out=out, schedule=schedule, sanitize="off")  # (compiled)
    gc.collect()
    gc.disable()
    try:
        ash.run(module["main"], 64, out=out, schedule=schedule, sanitize="off")
        left = gc.collect()  # (what only the cycle collector would have freed)
    finally:
        gc.enable()
    assert left == 0
    assert out.tolist() == [2 * k for k in range(256)]


def test_a_loaded_kernel_is_compiled_from_load_wgsls_checked_tree(monkeypatch):
    from asyncshader.lockstep import typed

    module = ash.load_wgsl("""
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3u) { out[gid.x] = gid.x + 7u; }
""", name="carried_tree.wgsl")
    assert module["main"].checked is not None

    def no_second_parse(*args):
        raise AssertionError("the loaded module's text was parsed again")
    monkeypatch.setattr(typed, "parse", no_second_parse)
    out = np.zeros(8, np.uint32)
    ash.run(module["main"], 2, out=out, schedule=ash.Lockstep(), sanitize="off")
    assert out.tolist() == [k + 7 for k in range(8)]
