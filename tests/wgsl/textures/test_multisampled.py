"""Multisampled textures: ``ash.Texture([samples], sample_count=4)`` with one level shaped
(4, height, width, C), declared ``ash.TextureMultisampled2D[T]`` or
``ash.TextureDepthMultisampled2D``, read with ``texture_load(t, coords, sample_index)``
(out of range: zero) and counted by ``texture_num_samples``; WebGPU's rules on the resource
and the binding."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec2i


def samples():
    s = np.zeros((4, 2, 2, 1), np.float32)
    s[:, 1, 0, 0] = [0.1, 0.2, 0.3, 0.4]  # texel (x 0, y 1)
    return s


@ash.compute(workgroup_size=5)
async def each_sample(out: ash.Storage[f32], ms: ash.TextureMultisampled2D[f32], *,
                      local_invocation_index: u32):
    i = local_invocation_index
    out[i] = ash.texture_load(ms, vec2i(0, 1), i32(i)).x + f32(ash.texture_num_samples(ms))


@ash.compute(workgroup_size=4)
async def depth_samples(out: ash.Storage[f32], ms: ash.TextureDepthMultisampled2D, *,
                        local_invocation_index: u32):
    i = local_invocation_index
    out[i] = ash.texture_load(ms, vec2i(0, 1), i32(i))


def test_texture_load_reads_each_sample_and_zero_past_the_last():
    out = np.zeros(5, np.float32)
    ash.run(each_sample, 1, out=out,
            ms=ash.Texture([samples()], "r32float", sample_count=4))
    assert np.allclose(out, [4.1, 4.2, 4.3, 4.4, 4.0])  # sample 4 is out of range: 0 (+ 4)


def test_a_multisampled_depth_texture_loads_f32_samples():
    out = np.zeros(4, np.float32)
    ash.run(depth_samples, 1, out=out,
            ms=ash.Texture([samples()], "depth32float", sample_count=4))
    assert np.allclose(out, [0.1, 0.2, 0.3, 0.4])


@pytest.mark.parametrize("args, words", [
    (dict(sample_count=2), "WebGPU allows 1 or 4"),
    (dict(sample_count=4, dimension="3d"), "is 2d with one mip level"),
])
def test_a_multisampled_texture_follows_webgpus_rules(args, words):
    with pytest.raises(ValueError, match=words):
        ash.Texture([samples()], "r32float", **args)
    with pytest.raises(ValueError, match=r"shaped \(4, height, width, C\)"):
        ash.Texture([np.zeros((2, 2, 1), np.float32)], "r32float", sample_count=4)


def test_multisampled_and_single_sampled_bindings_do_not_mix():
    with pytest.raises(ash.BindingError, match="declare texture_multisampled_2d<f32>"):
        @ash.compute(workgroup_size=1)
        async def single(out: ash.Storage[f32], t: ash.Texture2D[f32]):
            out[0] = ash.texture_load(t, vec2i(0, 0), 0).x

        ash.run(single, 1, out=np.zeros(1, np.float32),
                t=ash.Texture([samples()], "r32float", sample_count=4))
    with pytest.raises(ash.BindingError, match="sample_count=4"):
        ash.run(each_sample, 1, out=np.zeros(5, np.float32),
                ms=ash.Texture([samples()[0]], "r32float"))


def test_texture_num_samples_needs_a_multisampled_texture():
    @ash.compute(workgroup_size=1)
    async def count(out: ash.Storage[f32], t: ash.Texture2D[f32]):
        out[0] = f32(ash.texture_num_samples(t))

    with pytest.raises(ash.ShaderError, match="takes a multisampled texture"):
        ash.run(count, 1, out=np.zeros(1, np.float32),
                t=ash.Texture([np.zeros((2, 2, 1), np.float32)], "r32float"))


def test_to_wgsl_writes_multisampled_bindings_and_naga_accepts_them(gpu_device):
    from asyncshader.extra.device import validate

    src = ash.to_wgsl(each_sample)
    assert "var ms: texture_multisampled_2d<f32>;" in src
    assert "textureLoad(ms, vec2i(0i, 1i), i32(i)).x + f32(textureNumSamples(ms))" in src
    validate(src, gpu_device)
    depth = ash.to_wgsl(depth_samples)
    assert "var ms: texture_depth_multisampled_2d;" in depth
    validate(depth, gpu_device)
