"""Textures judged against lavapipe (wgpu on Mesa's CPU Vulkan driver; skips without it): the
same texture bytes and sampler, a WGSL shader written here by hand and the asyncshader kernel
that mirrors it, compared.

Tolerance: loads of integer and float formats, nearest filtering of them and stores must agree
exactly; normalized formats within 1 ulp (asyncshader converts x/255 correctly rounded, lavapipe
multiplies by 1/255 in f32, 1 ulp off for about a third of the values). Linear filtering and mip
blending may differ by 2/256: the WebGPU CTS lets implementations quantize filter weights
(subtexel precision, implementation-defined, at least 4 bits; lavapipe uses 8), and asyncshader
filters in double; a weight off by at most 1/256 per axis and per level blend moves a value in
[0, 1] by at most about 2/256."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32, vec2f, vec3f, vec4f
from asyncshader.extra.textures import draw, run_compute

FILTER_ATOL = 2 / 256


@pytest.fixture(autouse=True)
def _lavapipe(gpu_device):
    return gpu_device


RNG = np.random.default_rng(31)


@pytest.mark.parametrize("fmt, dtype, lo, hi, st", [
    ("rgba8unorm", np.uint8, 0, 256, "f32"), ("rgba8unorm-srgb", np.uint8, 0, 256, "f32"),
    ("bgra8unorm", np.uint8, 0, 256, "f32"), ("rgba8snorm", np.int8, -128, 128, "f32"),
    ("rgba8uint", np.uint8, 0, 256, "u32"), ("rgba16sint", np.int16, -30000, 30000, "i32"),
    ("rgba16float", np.float16, -4, 4, "f32"), ("rg32float", np.float32, -4, 4, "f32"),
    ("r16uint", np.uint16, 0, 65536, "u32"),
])
def test_texture_load_per_format_family(fmt, dtype, lo, hi, st):
    channels = ash.Texture([np.zeros((1, 1, 4), np.uint8)]).format.channels
    fmt_channels = {"rg32float": 2, "r16uint": 1}.get(fmt, channels)
    data = (RNG.uniform(lo, hi, (3, 5, fmt_channels)) if dtype in (np.float16, np.float32)
            else RNG.integers(lo, hi, (3, 5, fmt_channels))).astype(dtype)
    tex = ash.Texture([data], fmt)
    out_dtype = {"f32": np.float32, "u32": np.uint32, "i32": np.int32}[st]
    wgsl = f"""
@group(0) @binding(0) var t: texture_2d<{st}>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4<{st}>>;
@compute @workgroup_size(15) fn main(@builtin(local_invocation_index) i: u32) {{
    out[i] = textureLoad(t, vec2i(i32(i % 5u), i32(i / 5u)), 0);
}}"""
    gpu = np.zeros((15, 4), out_dtype)
    run_compute(wgsl, {0: tex, 1: gpu})
    cpu = np.zeros((15, 4), out_dtype)
    elem = {"f32": ash.vec4f, "u32": ash.vec4u, "i32": ash.vec4i}[st]

    @ash.compute(workgroup_size=15)
    async def load(t: ash.Texture2D[getattr(ash, st)], out: ash.Storage[elem], *,
                   local_invocation_index: u32):
        i = local_invocation_index
        out[i] = ash.texture_load(t, ash.vec2i(ash.i32(i % 5), ash.i32(i / 5)), 0)

    ash.run(load, 1, t=tex, out=cpu)
    if fmt.endswith("srgb"):  # lavapipe approximates the sRGB curve (up to 1.2e-3 off)
        np.testing.assert_allclose(cpu, gpu, atol=0.5 / 255)
    elif "norm" in fmt:  # lavapipe multiplies by 1/255 in f32: within 1 ulp of the exact x/255
        np.testing.assert_array_max_ulp(cpu, gpu, maxulp=1)
    else:
        np.testing.assert_array_equal(cpu, gpu)


SAMPLE_WGSL = """
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var<storage, read_write> uv: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
    out[g.x] = textureSampleLevel(t, s, uv[g.x].xy, uv[g.x].z);
}"""


@ash.compute(workgroup_size=64)
async def sample_level(t: ash.Texture2D[f32], s: ash.Sampler, uv: ash.Storage[vec4f],
                       out: ash.Storage[vec4f], *, global_invocation_id: ash.vec3u):
    i = global_invocation_id.x
    p = uv[i]
    out[i] = ash.texture_sample_level(t, s, vec2f(p.x, p.y), p.z)


def both(tex, smp, uv):
    gpu, cpu = np.zeros_like(uv), np.zeros_like(uv)
    run_compute(SAMPLE_WGSL, {0: tex, 1: smp, 2: uv.copy(), 3: gpu}, len(uv) // 64)
    ash.run(sample_level, len(uv) // 64, t=tex, s=smp, uv=uv, out=cpu)
    return cpu, gpu


def coords(n, lo=-1.3, hi=2.3, levels=(0.0, 0.0)):
    uv = np.zeros((n, 4), np.float32)
    uv[:, :2] = RNG.uniform(lo, hi, (n, 2))
    uv[:, 2] = RNG.uniform(*levels, n)
    return uv


@pytest.mark.parametrize("mode", ["clamp-to-edge", "repeat", "mirror-repeat"])
@pytest.mark.parametrize("filt", ["nearest", "linear"])
def test_sample_level_filters_and_address_modes(mode, filt):
    tex = ash.Texture([RNG.integers(0, 256, (3, 5, 4)).astype(np.uint8)])
    smp = ash.Sampler(address_mode_u=mode, address_mode_v=mode, mag_filter=filt,
                      min_filter=filt)
    cpu, gpu = both(tex, smp, coords(256))
    if filt == "nearest":  # the texel itself: within 1 ulp, as texture_load
        np.testing.assert_array_max_ulp(cpu, gpu, maxulp=1)
    else:
        np.testing.assert_allclose(cpu, gpu, atol=FILTER_ATOL)


def test_mip_selection_and_linear_blending():
    chain = [RNG.integers(0, 256, (16 >> k, 16 >> k, 4)).astype(np.uint8) for k in range(5)]
    tex = ash.Texture(chain)
    for mip in ("nearest", "linear"):
        smp = ash.Sampler(mag_filter="linear", min_filter="linear", mipmap_filter=mip,
                          address_mode_u="repeat", address_mode_v="repeat")
        cpu, gpu = both(tex, smp, coords(512, levels=(-0.5, 5.0)))
        np.testing.assert_allclose(cpu, gpu, atol=FILTER_ATOL)


@ash.compute(workgroup_size=5)
async def by_layer(t: ash.Texture2DArray[f32], s: ash.Sampler, layers: ash.Storage[ash.i32],
                   out: ash.Storage[f32], *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = ash.texture_sample_level(t, s, vec2f(0.5, 0.5), layers[i], 0.0).x * 255.0


def test_an_array_index_outside_the_view_is_clamped_to_its_layers():
    levels = np.zeros((4, 2, 2, 4), np.uint8)
    levels[:, ...] = np.array([10, 20, 30, 40], np.uint8)[:, None, None, None]
    view = ash.Texture([levels]).view(dimension="2d-array", base_array_layer=1,
                                      array_layer_count=2)   # the layers holding 20 and 30
    layers = np.array([-1, 0, 1, 2, 5], np.int32)
    src = """
@group(0) @binding(0) var t: texture_2d_array<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var<storage, read> layers: array<i32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(5) fn main(@builtin(local_invocation_index) i: u32) {
    out[i] = textureSampleLevel(t, s, vec2f(0.5), layers[i], 0.0).x * 255.0;
}"""
    gpu = np.zeros(5, np.float32)
    run_compute(src, {0: view, 1: ash.Sampler(), 2: layers, 3: gpu})
    cpu = np.zeros(5, np.float32)
    ash.run(by_layer, 1, t=view, s=ash.Sampler(), layers=layers, out=cpu)
    assert np.round(cpu).tolist() == [20, 20, 30, 30, 30]  # (by hand: the view's first, last)
    np.testing.assert_allclose(cpu, gpu, atol=1e-3)


def test_a_cube_map():
    faces = RNG.integers(0, 256, (6, 4, 4, 4)).astype(np.uint8)
    view = ash.Texture([faces]).view(dimension="cube")
    d = RNG.uniform(-1, 1, (256, 3)).astype(np.float32)
    a = np.sort(np.abs(d), axis=1)
    d = d[(a[:, 2] - a[:, 1]) > 0.05][:192]       # no ties between major axes
    dirs = np.zeros((192, 4), np.float32)
    dirs[:, :3] = d
    wgsl = """
@group(0) @binding(0) var t: texture_cube<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var<storage, read_write> dir: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
    out[g.x] = textureSampleLevel(t, s, dir[g.x].xyz, 0.0);
}"""

    @ash.compute(workgroup_size=64)
    async def cube(t: ash.TextureCube[f32], s: ash.Sampler, dir: ash.Storage[vec4f],
                   out: ash.Storage[vec4f], *, global_invocation_id: ash.vec3u):
        i = global_invocation_id.x
        out[i] = ash.texture_sample_level(t, s, vec3f(dir[i].x, dir[i].y, dir[i].z), 0.0)

    gpu, cpu = np.zeros_like(dirs), np.zeros_like(dirs)
    smp = ash.Sampler()
    run_compute(wgsl, {0: view, 1: smp, 2: dirs.copy(), 3: gpu}, 3)
    ash.run(cube, 3, t=view, s=smp, dir=dirs, out=cpu)
    np.testing.assert_array_max_ulp(cpu, gpu, maxulp=1)


RGBA8 = ash.StorageTexture2D["rgba8unorm", "write"]


def test_texture_store_of_a_storage_texture():
    wgsl = """
@group(0) @binding(0) var t: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(1) var<storage, read_write> v: array<vec4f>;
@compute @workgroup_size(4, 4) fn main(@builtin(local_invocation_id) l: vec3u) {
    textureStore(t, vec2i(l.xy), v[l.y * 4u + l.x]);
}"""
    @ash.compute(workgroup_size=(4, 4))
    async def store(t: RGBA8, v: ash.Storage[vec4f], *, local_invocation_id: ash.vec3u):
        l = local_invocation_id
        ash.texture_store(t, ash.vec2i(ash.i32(l.x), ash.i32(l.y)), v[l.y * 4 + l.x])

    values = RNG.uniform(-0.5, 1.5, (16, 4)).astype(np.float32)
    gpu_host, cpu_host = np.zeros((4, 4, 4), np.uint8), np.zeros((4, 4, 4), np.uint8)
    run_compute(wgsl, {0: ash.Texture([gpu_host]), 1: values.copy()})
    ash.run(store, 1, t=ash.Texture([cpu_host]), v=values)
    np.testing.assert_array_equal(cpu_host, gpu_host)
    assert gpu_host.any()


def test_implicit_lod_texture_sample_in_a_fragment_shader():
    chain = [np.full((32 >> k, 32 >> k, 4), 40 * k, np.uint8) for k in range(6)]
    chain[0][::2, ::2] = 255                      # level 0 not constant: filtering shows
    # u depends on x only and v on y only: the gradients are axis-aligned, where every rho
    # Vulkan allows (max of the components up to their sum) is the same
    tex = ash.Texture(chain)
    smp = ash.Sampler(mag_filter="linear", min_filter="linear", mipmap_filter="linear",
                      address_mode_u="repeat", address_mode_v="repeat")
    w, h = 16, 12
    wgsl = """
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
    let uv = vec2f(p.x * (0.02 + 0.004 * p.x), p.y * 0.03);
    return textureSample(t, s, uv);
}"""
    gpu = draw(wgsl, w, h, {0: tex, 1: smp})

    @ash.fragment
    async def textured(t: ash.Texture2D[f32], s: ash.Sampler, *, position: vec4f):
        uv = vec2f(position.x * (f32(0.02) + f32(0.004) * position.x), position.y * f32(0.03))
        return await ash.texture_sample(t, s, uv)

    cpu = ash.run_fragments(textured, w, h, t=tex, s=smp).output
    # lavapipe's LOD is approximate (Vulkan asks for 4 bits of LOD precision): a 1/16 level
    # error moves the blend between levels 40/255 apart by 40/255/16
    np.testing.assert_allclose(cpu, gpu, atol=40 / 255 / 16 + FILTER_ATOL)
