"""textureSample and its Bias and Compare forms pick the mip level from the quad's derivatives
of the coordinate, as dpdx does: helpers take part, and compute kernels without a derivative
layout refuse them."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, vec2f


def tinted_chain():
    """An 8x8 r8unorm chain whose level k is the constant 50 * k (out of 255)."""
    return ash.Texture([np.full((8 >> k, 8 >> k, 1), 50 * k, np.uint8) for k in range(4)],
                       "r8unorm")


def uv_ramp(w, h, scale):
    """Texture coordinates that advance ``scale / 4`` per pixel in x and y."""
    y, x = np.mgrid[0:h, 0:w]
    return np.stack([(x + 0.5) * scale / 4, (y + 0.5) * scale / 4], -1).astype(np.float32)


@ash.fragment
async def textured(uv: ash.Input, tex: ash.Texture2D[f32], smp: ash.Sampler):
    return (await ash.texture_sample(tex, smp, uv)).x


@ash.fragment
async def biased(uv: ash.Input, tex: ash.Texture2D[f32], smp: ash.Sampler):
    return (await ash.texture_sample_bias(tex, smp, uv, 1.0)).x


@pytest.mark.parametrize("scale, level", [(0.5, 0), (1, 1), (2, 2), (4, 3), (16, 3)])
def test_the_quads_derivatives_choose_the_level(scale, level):
    # a step of scale / 4 in uv is 2 * scale texels of the 8-texel level 0: lod log2(2 * scale)
    r = ash.run_fragments(textured, 4, 4, uv=uv_ramp(4, 4, scale), tex=tinted_chain(),
                          smp=ash.Sampler())
    assert np.allclose(r.output * 255, 50 * level)


def test_bias_adds_to_the_implicit_level():
    r = ash.run_fragments(biased, 4, 4, uv=uv_ramp(4, 4, 1), tex=tinted_chain(),
                          smp=ash.Sampler())
    assert np.allclose(r.output * 255, 100)


def test_helper_invocations_supply_the_edge_pixels_derivatives():
    # 3 wide: column 2's quad partner is a helper at x = 3, whose uv continues the ramp
    r = ash.run_fragments(textured, 3, 3, uv=uv_ramp(3, 3, 2), tex=tinted_chain(),
                          smp=ash.Sampler())
    assert r.output.shape == (3, 3) and np.allclose(r.output * 255, 100)


def test_linear_mip_blending_between_levels():
    # scale 1.5: rho = 3 texels, lod log2(3) = 1.585: 0.415 of level 1 and 0.585 of level 2
    s = ash.Sampler(min_filter="linear", mipmap_filter="linear")
    r = ash.run_fragments(textured, 4, 4, uv=uv_ramp(4, 4, 1.5), tex=tinted_chain(), smp=s)
    lod = np.log2(3)
    assert np.allclose(r.output * 255, 50 * lod, atol=1e-3)


def test_compare_at_the_implicit_level():
    @ash.fragment
    async def shadow(uv: ash.Input, tex: ash.TextureDepth2D, smp: ash.SamplerComparison):
        return await ash.texture_sample_compare(tex, smp, uv, 0.5)

    depth = [np.full((4 >> k, 4 >> k, 1), v, np.float32) for k, v in enumerate((0.9, 0.1))]
    r = ash.run_fragments(shadow, 2, 2, uv=uv_ramp(2, 2, 1), tex=ash.Texture(depth,
                          "depth32float"), smp=ash.Sampler(compare="less"))
    assert (r.output == 1.0).all()       # compare samples level 0 (0.5 < 0.9)


def test_texture_sample_in_a_compute_kernel_without_a_derivative_layout_is_refused():
    @ash.compute(workgroup_size=4)
    async def k(out: ash.Storage[f32], tex: ash.Texture2D[f32], smp: ash.Sampler):
        out[0] = (await ash.texture_sample(tex, smp, vec2f(0.5, 0.5))).x

    with pytest.raises(ash.ShaderError, match="texture_sample_level.*derivatives=\"quads\""):
        ash.run(k, 1, out=np.zeros(1, np.float32), tex=tinted_chain(), smp=ash.Sampler())


def test_texture_sample_in_non_uniform_control_flow_is_a_uniformity_error():
    @ash.fragment
    async def branchy(uv: ash.Input, tex: ash.Texture2D[f32], smp: ash.Sampler, *,
                      position: ash.vec4f):
        if position.x < 1:
            return (await ash.texture_sample(tex, smp, uv)).x
        return f32(0)

    with pytest.raises(ash.DerivativeUniformityError):
        ash.run_fragments(branchy, 2, 2, uv=uv_ramp(2, 2, 1), tex=tinted_chain(),
                          smp=ash.Sampler())
