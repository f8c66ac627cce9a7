"""WGSL's texture built-ins without a quad: queries, textureLoad/Store and sampling with an
explicit level. Expected values are worked out by hand from Vulkan's filtering rules."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec2f, vec2i, vec3f, vec4f

TEX, SMP = ash.Texture2D[f32], ash.Sampler
RGBA8Out = ash.StorageTexture2D["rgba8unorm", "write"]
R32Rw = ash.StorageTexture2D["r32float", "read_write"]


def run1(kernel, **bindings):
    out = np.zeros(8, np.float32)
    ash.run(kernel, 1, out=out, **bindings)
    return out


def ramp4():
    """A 4x4 r8unorm texture whose texel (x, y) is 10 * x + 50 * y (out of 255)."""
    y, x = np.mgrid[0:4, 0:4]
    return ash.Texture([(10 * x + 50 * y).astype(np.uint8)[..., None]], "r8unorm")


@ash.compute(workgroup_size=1)
async def loads(out: ash.Storage[f32], tex: TEX):
    out[0] = ash.texture_load(tex, vec2i(1, 2), 0).x
    out[1] = ash.texture_load(tex, vec2i(4, 0), 0).x         # x out of bounds
    out[2] = ash.texture_load(tex, vec2i(-1, 0), 0).x
    out[3] = ash.texture_load(tex, vec2i(0, 0), 1).x         # level past the chain
    out[4] = ash.texture_load(tex, vec2i(0, 0), 0).w         # r8: alpha reads 1


def test_texture_load_reads_texels_and_zero_out_of_bounds():
    out = run1(loads, tex=ramp4())
    assert out[:5].tolist() == [np.float32(110 / 255), 0, 0, 0, 1]


def test_texture_load_converts_per_format():
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[f32], tex: TEX):
        v = ash.texture_load(tex, vec2i(0, 0), 0)
        out[0], out[1], out[2], out[3] = v.x, v.y, v.z, v.w

    got = run1(k, tex=ash.Texture([np.array([[[255, 0, 51, 128]]], np.uint8)], "bgra8unorm"))
    assert got[:4].tolist() == [np.float32(0.2), 0, 1, np.float32(128 / 255)]
    got = run1(k, tex=ash.Texture([np.array([[[-128, 127, 0, 1]]], np.int8)], "rgba8snorm"))
    assert got[:4].tolist() == [-1, 1, 0, np.float32(1 / 127)]

    @ash.compute(workgroup_size=1)
    async def ints(out: ash.Storage[u32], tex: ash.Texture2D[u32]):
        out[0] = ash.texture_load(tex, vec2i(0, 0), 0).y

    o = np.zeros(1, np.uint32)
    ash.run(ints, 1, out=o, tex=ash.Texture([np.array([[[7, 65535]]], np.uint16)], "rg16uint"))
    assert o[0] == 65535


def test_queries():
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[u32], tex: ash.Texture2DArray[f32]):
        d = ash.texture_dimensions(tex, 1)
        out[0], out[1] = d.x, d.y
        out[2] = ash.texture_num_levels(tex)
        out[3] = ash.texture_num_layers(tex)

    levels = [np.zeros((5, 8 >> k, 16 >> k, 4), np.uint8) for k in range(3)]
    o = np.zeros(4, np.uint32)
    ash.run(k, 1, out=o, tex=ash.Texture(levels).view(base_array_layer=1, base_mip_level=0))
    assert o.tolist() == [8, 4, 3, 4]


def test_texture_store_converts_and_writes_into_the_callers_array():
    @ash.compute(workgroup_size=4)
    async def k(dst: RGBA8Out, *, local_invocation_index: u32):
        i = local_invocation_index
        ash.texture_store(dst, vec2i(i32(i % 2), i32(i / 2)), vec4f(f32(i) / 3, -1, 2, 0.5))
        ash.texture_store(dst, vec2i(9, 9), vec4f(1, 1, 1, 1))     # out of bounds: dropped

    host = np.zeros((2, 2, 4), np.uint8)
    ash.run(k, 1, dst=ash.Texture([host]))
    assert host[..., 0].tolist() == [[0, 85], [170, 255]]
    assert (host[..., 1] == 0).all() and (host[..., 2] == 255).all()
    assert (host[..., 3] == 128).all()                          # 127.5 rounds to 128


def test_read_write_storage_texture_reads_its_own_stores():
    @ash.compute(workgroup_size=1)
    async def k(t: R32Rw):
        v = ash.texture_load(t, vec2i(0, 0))
        ash.texture_store(t, vec2i(0, 0), vec4f(v.x * 2, 0, 0, 0))
        w = ash.texture_load(t, vec2i(0, 0))
        ash.texture_store(t, vec2i(1, 0), vec4f(w.x + 1, 0, 0, 0))

    host = np.array([[[3.0], [0.0]]], np.float32)
    ash.run(k, 1, t=ash.Texture([host], "r32float"))
    assert host[0, :, 0].tolist() == [6.0, 7.0]


def test_storing_to_a_sampled_texture_is_an_error_naming_the_fix():
    @ash.compute(workgroup_size=1)
    async def k(tex: TEX):
        ash.texture_store(tex, vec2i(0, 0), vec4f(1, 1, 1, 1))

    with pytest.raises(ash.ShaderError, match="cannot be written. Fix: declare a storage"):
        ash.run(k, 1, tex=ramp4())


@ash.compute(workgroup_size=1)
async def at(out: ash.Storage[f32], tex: TEX, smp: SMP, uv: ash.Uniform[vec2f],
             level: ash.Uniform[f32]):
    out[0] = ash.texture_sample_level(tex, smp, uv, level).x


def sample(tex, smp, u, v, level=0.0):
    return float(run1(at, tex=tex, smp=smp, uv=vec2f(u, v), level=f32(level))[0])


def test_nearest_and_linear_filtering_at_level_zero():
    t = ramp4()
    nearest, linear = ash.Sampler(), ash.Sampler(mag_filter="linear")
    assert sample(t, nearest, 0.3, 0.6) * 255 == pytest.approx(10 * 1 + 50 * 2, abs=1e-4)
    # linear at texel-space (1.5, 2.5) - 0.5 = (1, 2) exactly: the texel itself
    assert sample(t, linear, 1.5 / 4, 2.5 / 4) * 255 == pytest.approx(110, abs=1e-4)
    # at (1.75, 2.25) - 0.5: 1.25 between x 1 and 2, 1.75 between y 1 and 2
    assert sample(t, linear, 1.75 / 4, 2.25 / 4) * 255 == pytest.approx(
        10 * 1.25 + 50 * 1.75, abs=1e-4)


@pytest.mark.parametrize("mode, u, texel_x", [
    ("clamp-to-edge", 1.3, 3), ("clamp-to-edge", -0.2, 0),
    ("repeat", 1.3, 1),                  # 1.3 * 4 = 5.2 -> 5 mod 4
    ("repeat", -0.2, 3),                 # -0.8 -> -1 mod 4
    ("mirror-repeat", 1.3, 2),           # 5 in a mirrored period of 8 -> 7 - 5
    ("mirror-repeat", -0.2, 0),          # -1 -> 0
])
def test_address_modes_with_nearest_filtering(mode, u, texel_x):
    got = sample(ramp4(), ash.Sampler(address_mode_u=mode), u, 0.1)
    assert got * 255 == pytest.approx(10 * texel_x, abs=1e-4)


def test_linear_filtering_wraps_each_tap():
    # u = 0: x = -0.5: half of texel -1 and half of texel 0
    t = ramp4()
    assert sample(t, ash.Sampler(address_mode_u="repeat", mag_filter="linear"),
                  0.0, 0.125) * 255 == pytest.approx(0.5 * 30 + 0.5 * 0, abs=1e-4)
    assert sample(t, ash.Sampler(address_mode_u="clamp-to-edge", mag_filter="linear"),
                  0.0, 0.125) * 255 == pytest.approx(0, abs=1e-4)


def mips():
    """A 4x4 chain of constant levels: 0.0, 0.4, 0.8 (r8unorm values 0, 102, 204)."""
    return ash.Texture([np.full((4 >> k, 4 >> k, 1), v, np.uint8)
                        for k, v in enumerate((0, 102, 204))], "r8unorm")


@pytest.mark.parametrize("level, nearest, linear", [
    (0.0, 0.0, 0.0), (0.5, 0.0, 0.2),     # nearest: halves round down (ceil(d + 0.5) - 1)
    (0.75, 0.4, 0.3), (1.25, 0.4, 0.5), (2.0, 0.8, 0.8), (7.0, 0.8, 0.8), (-3.0, 0.0, 0.0),
])
def test_mip_selection_and_blending(level, nearest, linear):
    t = mips()
    assert sample(t, ash.Sampler(), 0.5, 0.5, level) == pytest.approx(nearest, abs=1e-6)
    assert sample(t, ash.Sampler(mipmap_filter="linear", min_filter="linear"), 0.5, 0.5,
                  level) == pytest.approx(linear, abs=1e-6)


def test_lod_clamps():
    s = ash.Sampler(lod_min_clamp=1.0, lod_max_clamp=1.0)
    assert sample(mips(), s, 0.5, 0.5, 0.0) == pytest.approx(0.4)
    assert sample(mips(), s, 0.5, 0.5, 2.0) == pytest.approx(0.4)


def cube():
    """A 2x2-per-face cube whose face f holds 40 * f + texel index (y * 2 + x)."""
    faces = np.arange(6)[:, None, None] * 40 + np.arange(4).reshape(2, 2)
    return ash.Texture([faces.astype(np.uint8)[..., None]], "r8unorm")


@pytest.mark.parametrize("direction, face, texel", [
    ((1, 0.2, -0.4), 0, 1),     # +X: s = (-z/x + 1)/2 = 0.7, t = (-y/x + 1)/2 = 0.4
    ((-1, 0.2, -0.4), 1, 0),    # -X: s = (z/|x| + 1)/2 = 0.3, t = 0.4
    ((0.3, 1, 0.6), 2, 3),      # +Y: s = (x/y + 1)/2 = 0.65, t = (z/y + 1)/2 = 0.8
    ((0.3, -1, 0.6), 3, 1),     # -Y: s = 0.65, t = (-z/|y| + 1)/2 = 0.2
    ((-0.3, 0.6, 1), 4, 0),     # +Z: s = (x/z + 1)/2 = 0.35, t = (-y/z + 1)/2 = 0.2
    ((-0.3, -0.6, -1), 5, 3),   # -Z: s = (-x/|z| + 1)/2 = 0.65, t = (-y/|z| + 1)/2 = 0.8
])
def test_cube_face_selection(direction, face, texel):
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[f32], tex: ash.TextureCube[f32], smp: SMP,
                d: ash.Uniform[vec3f]):
        out[0] = ash.texture_sample_level(tex, smp, d, 0.0).x

    got = run1(k, tex=cube().view(dimension="cube"), smp=ash.Sampler(), d=vec3f(*direction))
    assert got[0] * 255 == pytest.approx(40 * face + texel, abs=1e-4)


def test_gather_returns_the_footprint_in_wgsl_order():
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[f32], tex: TEX, smp: SMP):
        v = ash.texture_gather(0, tex, smp, vec2f(0.5, 0.5))
        out[0], out[1], out[2], out[3] = v.x, v.y, v.z, v.w

    got = run1(k, tex=ramp4(), smp=ash.Sampler()) * 255
    # footprint x 1..2, y 1..2: (i0, j1), (i1, j1), (i1, j0), (i0, j0)
    assert got[:4] == pytest.approx([10 + 100, 20 + 100, 20 + 50, 10 + 50], abs=1e-4)


def test_depth_comparison_filters_pass_fail_results():
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[f32], tex: ash.TextureDepth2D, smp: ash.SamplerComparison):
        out[0] = ash.texture_sample_compare_level(tex, smp, vec2f(0.5, 0.5), 0.5)
        v = ash.texture_gather_compare(tex, smp, vec2f(0.5, 0.5), 0.5)
        out[1], out[2], out[3], out[4] = v.x, v.y, v.z, v.w

    depth = np.array([[[0.2], [0.9]], [[0.9], [0.9]]], np.float32)
    got = run1(k, tex=ash.Texture([depth], "depth32float"),
               smp=ash.Sampler(compare="less", mag_filter="linear"))
    # ref 0.5 < texel passes for the three 0.9 texels; bilinear at the centre: 3/4
    assert got[:5].tolist() == [0.75, 1.0, 1.0, 1.0, 0.0]


def test_offset_out_of_range_is_refused():
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[f32], tex: TEX, smp: SMP):
        out[0] = ash.texture_sample_level(tex, smp, vec2f(0.5, 0.5), 0.0, vec2i(8, 0)).x

    with pytest.raises(ash.ShaderError, match=r"each component in \[-8, 7\]"):
        run1(k, tex=ramp4(), smp=ash.Sampler())


def test_offsets_move_in_texels():
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[f32], tex: TEX, smp: SMP):
        out[0] = ash.texture_sample_level(tex, smp, vec2f(0.1, 0.1), 0.0, vec2i(2, 1)).x

    assert run1(k, tex=ramp4(), smp=ash.Sampler())[0] * 255 == pytest.approx(20 + 50)


def test_base_clamp_to_edge_keeps_half_a_texel_inside():
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[f32], tex: TEX, smp: SMP):
        out[0] = ash.texture_sample_base_clamp_to_edge(tex, smp, vec2f(-1.0, 0.125)).x

    s = ash.Sampler(address_mode_u="repeat", mag_filter="linear")
    assert run1(k, tex=ramp4(), smp=s)[0] == 0.0     # repeat would blend texel 3 in


R32Read = ash.StorageTexture2D["r32float", "read"]


def test_a_read_only_storage_texture_refuses_stores():
    @ash.compute(workgroup_size=1)
    async def k(t: R32Read):
        ash.texture_store(t, vec2i(0, 0), vec4f(1, 0, 0, 0))

    with pytest.raises(ash.ShaderError, match="r32float, read> cannot be written. Fix"):
        ash.run(k, 1, t=ash.Texture([np.zeros((1, 1, 1), np.float32)], "r32float"))


def test_an_array_texture_needs_its_array_index():
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[f32], t: ash.Texture2DArray[f32], s: SMP):
        out[0] = ash.texture_sample_level(t, s, vec2f(0.5, 0.5), 0.0).x

    with pytest.raises(ash.ShaderError, match=r"takes 2 argument\(s\) after the coordinates "
                                              r"\(the array index first\)"):
        run1(k, t=ash.Texture([np.zeros((2, 2, 2, 4), np.uint8)]), s=ash.Sampler())
