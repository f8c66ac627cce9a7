"""to_wgsl writes texture and sampler parameters as handle bindings and the texture built-ins
as WGSL's calls; crosscheck and crosscheck_fragments upload the textures and samplers to
lavapipe and agree with the CPU (tolerances as in tests/extra/test_textures_on_gpu.py)."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, vec2f, vec2i, vec4f

RGBA8Out = ash.StorageTexture2D["rgba8unorm", "write"]
RNG = np.random.default_rng(7)


@ash.compute(workgroup_size=64)
async def sampled(t: ash.Texture2D[f32], s: ash.Sampler, uv: ash.Storage[vec4f],
                  out: ash.Storage[vec4f], *, global_invocation_id: ash.vec3u):
    i = global_invocation_id.x
    p = uv[i]
    d = ash.texture_dimensions(t, 0)
    out[i] = ash.texture_sample_level(t, s, vec2f(p.x, p.y), p.z) + \
        ash.texture_load(t, vec2i(1, 2), 0) * f32(d.x)


@ash.compute(workgroup_size=1)
async def paint(dst: RGBA8Out):
    ash.texture_store(dst, vec2i(0, 0), vec4f(1, 0, 0, 1))


def test_bindings_and_calls_are_written_as_wgsl():
    src = ash.to_wgsl(sampled)
    assert "@group(0) @binding(0) var t: texture_2d<f32>;" in src
    assert "@group(0) @binding(1) var s: sampler;" in src
    assert "textureSampleLevel(t, s, vec2f(p.x, p.y), p.z)" in src
    assert "textureLoad(t, vec2i(1i, 2i), 0)" in src and "textureDimensions(t, 0)" in src
    src = ash.to_wgsl(paint)
    assert "var dst: texture_storage_2d<rgba8unorm, write>;" in src
    assert "textureStore(dst, vec2i(0i), vec4f(1.0f, 0.0f, 0.0f, 1.0f));" in src


def test_a_texture_bound_without_annotation_takes_its_type_from_the_value():
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[ash.u32], t):
        out[0] = ash.texture_load(t, vec2i(0, 0), 0).x

    src = ash.to_wgsl(k, out=np.zeros(1, np.uint32),
                      t=ash.Texture([np.zeros((2, 2, 1), np.uint32)], "r32uint"))
    assert "var t: texture_2d<u32>;" in src


@pytest.mark.usefixtures("gpu_device")
def test_crosscheck_uploads_textures_and_samplers():
    tex = ash.Texture([RNG.integers(0, 256, (16 >> k, 16 >> k, 4)).astype(np.uint8)
                       for k in range(5)])
    smp = ash.Sampler(mag_filter="linear", min_filter="linear", mipmap_filter="linear",
                      address_mode_u="repeat")
    uv = RNG.uniform(-1, 2, (64, 4)).astype(np.float32)
    uv[:, 2] = RNG.uniform(0, 4, 64)
    report = ash.crosscheck(sampled, 1, atol=2 / 256 * 16, t=tex, s=smp, uv=uv,
                            out=np.zeros((64, 4), np.float32))
    assert report.ok      # (atol: 2/256 of the filtered part, times d.x = 16 added texels)


@pytest.mark.usefixtures("gpu_device")
def test_crosscheck_fragments_with_implicit_lod():
    # levels 20 k apart (out of 255) plus noise below 4: lavapipe's level of detail is
    # approximate (Vulkan asks for 4 bits of LOD precision), so a 1/16 level error moves the
    # blend by 20/255/16; the filtering tolerance adds 2/256
    tex = ash.Texture([(20 * k + RNG.integers(0, 4, (16 >> k, 16 >> k, 4))).astype(np.uint8)
                       for k in range(5)])
    smp = ash.Sampler(mag_filter="linear", min_filter="linear", mipmap_filter="linear",
                      address_mode_u="repeat", address_mode_v="repeat")

    @ash.fragment
    async def floor(t: ash.Texture2D[f32], s: ash.Sampler, *, position: vec4f):
        u = position.x * (f32(0.05) + f32(0.01) * position.x)
        return await ash.texture_sample(t, s, vec2f(u, position.y * f32(0.2)))

    report = ash.crosscheck_fragments(floor, 12, 10, atol=20 / 255 / 16 + 2 / 256, t=tex,
                                      s=smp)
    assert report.ok


@ash.compute(workgroup_size=(4, 4))
async def ramp(dst: RGBA8Out, *, global_invocation_id: ash.vec3u):
    p = global_invocation_id
    ash.texture_store(dst, ash.vec2u(p.x, p.y), vec4f(f32(p.x) * 0.25, f32(p.y) / 3.0, 1, 1))


@pytest.mark.usefixtures("gpu_device")
def test_crosscheck_compares_the_storage_textures_a_kernel_writes():
    tex = ash.Texture([np.zeros((4, 4, 4), np.uint8)])
    report = ash.crosscheck(ramp, 1, dst=tex)
    assert report.ok and "dst" in report.counts and report.sizes["dst"] == 64
    # x / 4 and y / 3 as unorm8: 63.75 -> 64, 127.5 -> 128 (ties away from zero), 191.25 ->
    # 191; 85, 170, 255 (both sides, the bytes read back from the GPU texture)
    for side in (report.cpu["dst"], report.gpu["dst"]):
        assert side.shape == (1, 4, 4, 4)
        assert side[0, 0, :, 0].tolist() == [0, 64, 128, 191]
        assert side[0, :, 0, 1].tolist() == [0, 85, 170, 255]
    assert not tex.levels[0].any()  # (the caller's texture: each side wrote a copy)


R32 = ash.StorageTexture2D["r32float", "read_write"]


@ash.compute(workgroup_size=(2, 2))
async def tally(acc: R32, *, global_invocation_id: ash.vec3u, subgroup_size: ash.u32):
    p = ash.vec2u(global_invocation_id.x, global_invocation_id.y)
    ash.texture_store(acc, p, ash.texture_load(acc, p) + vec4f(f32(subgroup_size)))


@pytest.mark.usefixtures("gpu_device")
def test_a_storage_texture_that_differs_is_reported_texel_by_texel():
    start = np.arange(4, dtype=np.float32).reshape(2, 2, 1)
    tex = ash.Texture([start.copy()], "r32float")
    report = ash.crosscheck(tally, 1, acc=tex, raise_on_difference=False)  # (CPU: 32 lanes)
    assert not report.ok and report.counts["acc"] == 4
    first = report.differences["acc"][0]
    assert first.index == (0, 0, 0, 0) and (first.cpu, first.gpu) == (32.0, 8.0)
    assert "acc: 4 of 4 elements differ" in report.describe()
    # each side started from the caller's texels: + the subgroup size once
    same = ash.crosscheck(tally, 1, acc=tex, subgroup_size=8)  # (lavapipe's 8)
    assert same.gpu["acc"].ravel().tolist() == [8.0, 9.0, 10.0, 11.0]
    assert (tex.levels[0] == start).all()


@ash.fragment
async def stamp(dst: RGBA8Out, *, position: vec4f):
    p = vec2i(ash.i32(position.x), ash.i32(position.y))
    ash.texture_store(dst, p, vec4f((position.x - 0.5) * 0.25, (position.y - 0.5) / 3.0, 1, 1))
    return vec4f(position.x, position.y, 0.0, 1.0)


@pytest.mark.usefixtures("gpu_device")
def test_crosscheck_fragments_compares_the_storage_textures_a_shader_writes():
    tex = ash.Texture([np.zeros((4, 4, 4), np.uint8)])
    report = ash.crosscheck_fragments(stamp, 4, 4, dst=tex)
    assert report.ok and report.sizes["dst"] == 64 and report.sizes["output"] == 64
    for side in (report.cpu["dst"], report.gpu["dst"]):  # (as ramp's, pixel centres x + 0.5)
        assert side.shape == (1, 4, 4, 4)
        assert side[0, 0, :, 0].tolist() == [0, 64, 128, 191]
        assert side[0, :, 0, 1].tolist() == [0, 85, 170, 255]
    assert not tex.levels[0].any()  # (the caller's texture: each side wrote a copy)
