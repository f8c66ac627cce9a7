"""A loaded module's reflection: what each entry point reaches, at which slot, how big."""

import pytest

import asyncshader as ash
from asyncshader.front.wgsl import reflect_wgsl
from asyncshader.ir.types import U32, Array, Atomic

MODULE = """
override blockSize: u32 = 8;
override scale: f32;
@id(7) override unused = 3;
struct P { n: u32, data: array<vec3f> }
@group(0) @binding(0) var<storage, read_write> a: P;
@group(0) @binding(1) var<uniform> u: vec4f;
@group(0) @binding(1) var<storage> b: array<f32, 4>;
@group(1) @binding(0) var<storage, read_write> counts: array<atomic<u32>>;
var<workgroup> tile: array<f32, blockSize>;
fn helper() -> f32 { return u.x * scale; }
@compute @workgroup_size(4) fn main() { a.n = u32(helper()); tile[0] = 1.0; }
@compute @workgroup_size(1) fn other() { _ = b[0]; atomicAdd(&counts[0], 1u); }
"""


def test_each_entry_point_lists_the_resources_it_reaches_through_its_calls():
    r = reflect_wgsl(MODULE)
    assert [x.name for x in r.entry_points["main"].resources] == ["a", "u"]
    assert [x.name for x in r.entry_points["other"].resources] == ["b", "counts"]
    assert r.entry_points["main"].stage == "compute"


def test_one_slot_may_hold_different_variables_for_different_entry_points():
    r = reflect_wgsl(MODULE)
    assert r.at("main", 0, 1).name == "u" and r.at("main", 0, 1).kind == "uniform"
    assert r.at("other", 0, 1).name == "b" and r.at("other", 0, 1).access == "read"
    assert r.at("main", 1, 0) is None


def test_minimum_binding_sizes_follow_webgpu():
    r = reflect_wgsl(MODULE)
    a, u = r.entry_points["main"].resources
    # struct P { n: u32 @ 0, data: array<vec3f> @ 16 (align 16), stride 16 }: 16 + one element
    assert (a.min_size, a.stride, a.access) == (32, 16, "read_write")
    assert (u.min_size, u.stride) == (16, None)
    counts = r.at("other", 1, 0)
    assert (counts.min_size, counts.stride) == (4, 4)
    assert counts.type == Array(Atomic(U32), None)


def test_overrides_reached_include_those_in_workgroup_array_lengths():
    r = reflect_wgsl(MODULE)
    assert r.entry_points["main"].overrides == ("blockSize", "scale")
    assert r.entry_points["other"].overrides == ()
    assert r.overrides["unused"].id == 7 and r.overrides["scale"].has_default is False


def test_a_loaded_module_carries_its_reflection():
    module = ash.load_wgsl("""
        @group(0) @binding(3) var<storage, read_write> out: array<u32>;
        @compute @workgroup_size(2) fn main(@builtin(local_invocation_index) i: u32) {
            out[i] = i;
        }""")
    (out,) = module.reflection.entry_points["main"].resources
    assert (out.name, out.group, out.binding, out.min_size, out.stride) == ("out", 0, 3, 4, 4)


def test_a_module_that_is_not_wgsl_raises_the_public_wgsl_error():
    with pytest.raises(ash.WGSLError, match=r"\.wgsl:1:\d+"):
        ash.load_wgsl("fn main( {")
    assert issubclass(ash.WGSLError, ash.ShaderCreationError)
