"""Textures hold one numpy array per mip level in WebGPU's shapes; views and samplers are
validated as WebGPU validates them, with errors that name what is wrong and the fix."""

import numpy as np
import pytest

from asyncshader.wgsl.textures.resources import Sampler, Texture


def chain(w, h, n, c=4, layers=None):
    shape = (lambda k: (max(1, h >> k), max(1, w >> k), c)) if layers is None else (
        lambda k: (layers, max(1, h >> k), max(1, w >> k), c))
    return [np.zeros(shape(k), np.uint8) for k in range(n)]


def test_a_2d_texture_with_its_mip_chain():
    t = Texture(chain(8, 4, 4))
    assert (t.width, t.height, t.depth_or_array_layers, t.mip_level_count) == (8, 4, 1, 4)
    assert t.size(3) == (1, 1, 1)
    assert t.view().dimension == "2d"


def test_layered_textures_default_to_array_views_and_make_cube_views():
    t = Texture(chain(4, 4, 1, layers=12))
    assert t.view().dimension == "2d-array" and t.view().array_layer_count == 12
    v = t.view(dimension="cube", base_array_layer=6)
    assert (v.base_array_layer, v.array_layer_count) == (6, 6)
    assert t.view(dimension="cube-array").array_layer_count == 12


def test_the_host_array_is_the_texture_memory():
    a = np.zeros((2, 2, 4), np.uint8)
    t = Texture([a])
    assert t.block(0).base is a or np.shares_memory(t.block(0), a)


@pytest.mark.parametrize("levels, fmt, dim, match", [
    ([np.zeros((4, 4, 4), np.float32)], "rgba8unorm", "2d", r"astype\(np.uint8\)"),
    ([np.zeros((4, 4, 3), np.uint8)], "rgba8unorm", "2d", "C = 4"),
    ([np.zeros((4, 4, 4), np.uint8), np.zeros((3, 2, 4), np.uint8)], "rgba8unorm", "2d",
     r"level 1 .* must be \(1, 2, 2\)"),
    ([np.zeros((4, 1), np.uint8), np.zeros((2, 1), np.uint8)], "r8unorm", "1d",
     "one mip level"),
    ([np.zeros((2, 2, 4), np.uint8)] * 3, "rgba8unorm", "2d", "at most 2"),
    ([np.zeros((2, 2, 4), np.uint8)], "rgba8unorm", "cube", "view"),
])
def test_bad_textures_are_refused_with_the_fix(levels, fmt, dim, match):
    with pytest.raises((ValueError, TypeError), match=match):
        Texture(levels, fmt, dim)


def test_bad_views_are_refused():
    t = Texture(chain(4, 4, 3, layers=6))
    with pytest.raises(ValueError, match="outside the texture's 3 levels"):
        t.view(base_mip_level=2, mip_level_count=2)
    with pytest.raises(ValueError, match="needs 6 array layers"):
        t.view(dimension="cube", array_layer_count=4)
    with pytest.raises(ValueError, match="one array layer"):
        t.view(dimension="2d", array_layer_count=2)
    with pytest.raises(ValueError, match="square"):
        Texture(chain(4, 2, 1, layers=6)).view(dimension="cube")


def test_sampler_descriptor_as_wgpu_py_spells_it():
    s = Sampler(address_mode_u="repeat", mag_filter="linear", compare="less")
    assert s.is_comparison and s.descriptor()["address_mode_u"] == "repeat"
    assert s.descriptor()["compare"] == "less" and s.lod_max_clamp == 32.0
    with pytest.raises(ValueError, match="clamp-to-edge, repeat, mirror-repeat"):
        Sampler(address_mode_v="clamp")
    with pytest.raises(ValueError, match="all 'linear'"):
        Sampler(max_anisotropy=4)
    with pytest.raises(ValueError, match="1 to 16"):
        Sampler(max_anisotropy=17, mag_filter="linear", min_filter="linear",
                mipmap_filter="linear")
    with pytest.raises(ValueError, match="lod_min_clamp <= lod_max_clamp"):
        Sampler(lod_min_clamp=3, lod_max_clamp=1)
    with pytest.raises(TypeError):
        Sampler(addressModeU="repeat")


def test_a_host_write_into_a_level_between_runs_shows_in_the_next_run():
    import asyncshader as ash

    @ash.compute(workgroup_size=1)
    async def read_centre(out: ash.Storage[ash.f32], t: ash.Texture2D[ash.f32], s: ash.Sampler):
        out[0] = ash.texture_sample_level(t, s, ash.vec2f(0.5, 0.5), 0.0).x
        out[1] = ash.texture_load(t, ash.vec2i(0, 0), 0).y

    level = np.full((4, 4, 4), 51, np.uint8)
    tex, out = Texture([level]), np.zeros(2, np.float32)
    ash.run(read_centre, 1, out=out, t=tex, s=Sampler(), sanitize="off")
    assert out.tolist() == [np.float32(0.2), np.float32(0.2)]
    level[...] = 102  # (the caller's array is the texture's memory)
    ash.run(read_centre, 1, out=out, t=tex, s=Sampler(), sanitize="off")
    assert out.tolist() == [np.float32(0.4), np.float32(0.4)]


def test_assigning_a_level_replaces_it_in_the_next_run():
    import asyncshader as ash

    @ash.compute(workgroup_size=1)
    async def read_level_one(out: ash.Storage[ash.f32], t: ash.Texture2D[ash.f32],
                             s: ash.Sampler):
        out[0] = ash.texture_sample_level(t, s, ash.vec2f(0.5, 0.5), 1.0).x
        out[1] = ash.texture_load(t, ash.vec2i(1, 1), 1).y

    tex = Texture([np.zeros((4, 4, 4), np.uint8), np.full((2, 2, 4), 51, np.uint8)])
    out = np.zeros(2, np.float32)
    ash.run(read_level_one, 1, out=out, t=tex, s=Sampler(), sanitize="off")
    assert out.tolist() == [np.float32(0.2), np.float32(0.2)]  # 51 / 255
    tex.levels[1] = np.full((2, 2, 4), 102, np.uint8)
    ash.run(read_level_one, 1, out=out, t=tex, s=Sampler(), sanitize="off")
    assert out.tolist() == [np.float32(0.4), np.float32(0.4)]  # 102 / 255
    assert tex.block(1)[0, 0, 0, 0] == 102


@pytest.mark.parametrize("change, error, match", [
    (lambda t: t.levels.__setitem__(0, np.zeros((3, 3, 4), np.uint8)), ValueError,
     r"shaped \(3, 3, 4\), level 0 is \(4, 4, 4\).*new ash.Texture"),
    (lambda t: t.levels.__setitem__(1, np.zeros((2, 2, 4), np.float32)), TypeError,
     r"astype\(np.uint8\)"),
    (lambda t: t.levels.append(np.zeros((1, 1, 4), np.uint8)), TypeError,
     r"mip levels are fixed.*levels\[k\] = array"),
    (lambda t: t.levels.pop(), TypeError, "mip levels are fixed"),
    (lambda t: setattr(t, "levels", chain(2, 2, 1)), TypeError, "mip levels are fixed"),
    (lambda t: t.levels.__setitem__(slice(0, 1), []), TypeError, "one by one"),
])
def test_a_level_change_that_breaks_the_chain_is_refused_with_the_fix(change, error, match):
    tex = Texture(chain(4, 4, 2))
    with pytest.raises(error, match=match):
        change(tex)
    assert [a.shape for a in tex.levels] == [(4, 4, 4), (2, 2, 4)]


def test_a_copied_texture_replaces_its_own_levels():
    import copy
    import pickle

    tex = Texture(chain(4, 4, 2))
    for other in (copy.deepcopy(tex), pickle.loads(pickle.dumps(tex))):
        other.levels[1] = np.full((2, 2, 4), 9, np.uint8)
        assert other.block(1)[0, 0, 0, 0] == 9 and tex.block(1)[0, 0, 0, 0] == 0
