"""Texture and sampler parameters bind by name; a resource that does not fit its declaration is
refused with a BindingError naming the binding, what it declares and what was given."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32, vec2i


def rgba(h=2, w=2, layers=None):
    return np.zeros((h, w, 4) if layers is None else (layers, h, w, 4), np.uint8)


def test_annotations_spell_the_wgsl_types():
    assert repr(ash.Texture2D[f32]) == "texture_2d<f32>"
    assert repr(ash.TextureCubeArray[u32]) == "texture_cube_array<u32>"
    assert repr(ash.TextureDepth2DArray) == "texture_depth_2d_array"
    assert repr(ash.StorageTexture3D["r32float", "read_write"]) == \
        "texture_storage_3d<r32float, read_write>"
    assert repr(ash.StorageTexture2D["rgba8unorm"]) == "texture_storage_2d<rgba8unorm, write>"


def test_bad_annotations_are_refused():
    with pytest.raises(TypeError, match="not a WGSL storage texel format"):
        ash.StorageTexture2D["rgba8unorm-srgb"]
    with pytest.raises(TypeError, match="one of read, write, read_write"):
        ash.StorageTexture2D["r32float", "readwrite"]
    with pytest.raises(TypeError, match="f32, i32 or u32"):
        ash.Texture2D[ash.vec4f]
    with pytest.raises(TypeError, match="no element type"):
        ash.TextureDepth2D[f32]


@ash.compute(workgroup_size=1)
async def first_texel(out: ash.Storage[f32], tex: ash.Texture2D[f32]):
    out[0] = ash.texture_load(tex, vec2i(0, 0), 0).x


@ash.compute(workgroup_size=1)
async def with_sampler(out: ash.Storage[f32], tex: ash.Texture2D[f32], smp: ash.Sampler):
    out[0] = ash.texture_sample_level(tex, smp, ash.vec2f(0.5, 0.5), 0.0).x


@pytest.mark.parametrize("given, match", [
    (ash.Texture([rgba(layers=3)]), r"'tex' is a texture_2d<f32> .* got a 2d-array view"),
    (ash.Texture([np.zeros((2, 2, 1), np.uint32)], "r32uint"),
     r"read as u32. Fix: declare \[u32\]"),
    (np.zeros((2, 2, 4), np.uint8), "pass an ash.Texture"),
])
def test_texture_binding_errors_name_binding_declaration_and_value(given, match):
    out = np.zeros(1, np.float32)
    with pytest.raises(ash.BindingError, match=match):
        ash.run(first_texel, 1, out=out, tex=given)


def test_a_depth_texture_binds_to_texture_2d_f32_as_webgpu_allows():
    out = np.zeros(1, np.float32)
    ash.run(first_texel, 1, out=out,
            tex=ash.Texture([np.full((2, 2, 1), 0.25, np.float32)], "depth32float"))
    assert out[0] == 0.25


def test_sampler_bindings_check_comparison():
    out, tex = np.zeros(1, np.float32), ash.Texture([rgba()])
    with pytest.raises(ash.BindingError, match="'smp' is a sampler but got a comparison sampler"):
        ash.run(with_sampler, 1, out=out, tex=tex, smp=ash.Sampler(compare="less"))
    with pytest.raises(ash.BindingError, match="'smp' is a sampler; pass an ash.Sampler"):
        ash.run(with_sampler, 1, out=out, tex=tex, smp=tex)


def test_an_array_layer_view_binds_where_a_2d_texture_is_declared():
    layers = rgba(layers=3)
    layers[2, 0, 0, 0] = 255
    out = np.zeros(1, np.float32)
    tex = ash.Texture([layers])
    ash.run(first_texel, 1, out=out, tex=tex.view(dimension="2d", base_array_layer=2))
    assert out[0] == 1.0


R32FloatOut = ash.StorageTexture2D["r32float", "write"]  # (linters read strings in
#                                                           annotations as names: alias it)


def test_storage_texture_format_must_match_exactly():
    @ash.compute(workgroup_size=1)
    async def fill(dst: R32FloatOut):
        ash.texture_store(dst, vec2i(0, 0), ash.vec4f(1, 0, 0, 0))

    with pytest.raises(ash.BindingError, match="format must match exactly.*format='r32float'"):
        ash.run(fill, 1, dst=ash.Texture([np.zeros((1, 1, 4), np.float32)], "rgba32float"))
