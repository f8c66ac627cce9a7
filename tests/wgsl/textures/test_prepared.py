"""A prepared sampler (asyncshader.wgsl.textures.prepared) returns, bit for bit, what the general
filter (sampling.sample and the built-in's result conversion) returns, for every address mode,
filter, mip setting, LOD clamp and format it takes, at coordinates inside, on the edges, outside,
infinite and NaN; and the texture built-ins take it where it applies. The general filter's own
values are checked by hand and against lavapipe in test_builtins.py and
tests/extra/test_textures_on_gpu.py."""

import copy
import itertools
import math
import pickle

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec2f, vec2i, vec2u
from asyncshader.wgsl.textures.annotations import Texture2D, TextureDepth2D, bind_texture
from asyncshader.wgsl.textures.builtins import load_texel, prepared_sampler, result_value
from asyncshader.wgsl.textures.prepared import prepare, prepare_load
from asyncshader.wgsl.textures.sampling import sample

MODES = ("clamp-to-edge", "repeat", "mirror-repeat")
FILTERS = ("nearest", "linear")
COORDS = [0.0, 1.0, 0.5, 0.3, -0.2, 1.7, 0.999999, -0.0, 1e-9, -3.25, 12.5, 1e12, -1e12,
          math.inf, -math.inf, math.nan]
LODS = [0.0, -1.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.9, 7.0, -math.inf, math.inf, math.nan]


def _bits(x) -> object:
    """A result as its components' types and 32-bit patterns (so that -0.0 and NaN payloads
    compare too)."""
    if isinstance(x, np.generic):
        return type(x), int(np.array(x).view(np.uint32))
    return type(x), tuple((type(c), int(np.array(c).view(np.uint32))) for c in x)


def _chain(rng: np.random.Generator, fmt: str, w: int, h: int, levels: int) -> ash.Texture:
    f = ash.wgsl.textures.formats.texel_format(fmt)
    out = []
    for k in range(levels):
        shape = (max(1, h >> k), max(1, w >> k), f.channels)
        if f.dtype.kind == "f":
            a = rng.normal(0, 2, shape).astype(f.dtype)
            a.flat[::7] = -0.0  # (negative zeros, which a sum of weights must keep)
        else:
            info = np.iinfo(f.dtype)
            a = rng.integers(info.min, info.max, shape, endpoint=True, dtype=f.dtype)
        out.append(a)
    return ash.Texture(out, format=fmt)


def _general(bt, smp, u: float, v: float, lod: float):
    return result_value(bt, sample(bt.view, smp, [u, v], 0, lod))


@pytest.mark.parametrize("fmt,w,h,levels", [
    ("rgba8unorm", 5, 3, 1), ("rgba8unorm", 8, 8, 4), ("rgba8unorm-srgb", 4, 6, 3),
    ("bgra8unorm", 1, 1, 1), ("r8snorm", 7, 1, 3), ("rg16float", 6, 5, 2),
    ("rgba32float", 4, 4, 3), ("depth32float", 5, 4, 3), ("depth16unorm", 3, 3, 2)])
def test_a_prepared_sampler_is_bit_identical_to_the_general_filter(fmt, w, h, levels):
    rng = np.random.default_rng(31)
    tex = _chain(rng, fmt, w, h, levels)
    depth = fmt.startswith("depth")
    bt = bind_texture("k", "t", TextureDepth2D if depth else Texture2D[f32], tex)
    checked = 0
    for mu, mv, mag, mn, mip in itertools.product(MODES, MODES, FILTERS, FILTERS, FILTERS):
        smp = ash.Sampler(address_mode_u=mu, address_mode_v=mv, mag_filter=mag, min_filter=mn,
                          mipmap_filter=mip, lod_min_clamp=0.25 if mip == "linear" else 0.0,
                          lod_max_clamp=2.5)
        fn = prepare(bt.view, smp, depth)
        for u, v in itertools.chain(zip(COORDS, COORDS[3:] + COORDS[:3]),
                                    rng.uniform(-1.5, 2.5, (6, 2)).tolist()):
            for lod in LODS:
                got, want = fn(u, v, lod), _general(bt, smp, u, v, lod)
                assert type(got) is type(want)
                assert _bits(got) == _bits(want), (mu, mv, mag, mn, mip, u, v, lod, got, want)
                checked += 1
    assert checked == 3 * 3 * 2 * 2 * 2 * (len(COORDS) + 6) * len(LODS)


def test_a_prepared_sampler_takes_2d_views_of_f32_textures_without_comparison():
    layered = ash.Texture([np.zeros((6, 4, 4, 4), np.uint8)])
    smp = ash.Sampler()
    assert prepare(layered.view(dimension="2d", base_array_layer=2), smp, False) is not None
    assert prepare(layered.view(dimension="2d-array"), smp, False) is None
    assert prepare(layered.view(dimension="cube"), smp, False) is None
    uint = ash.Texture([np.zeros((4, 4, 4), np.uint32)], format="rgba32uint")
    assert prepare(uint.view(), smp, False) is None
    depth = ash.Texture([np.zeros((4, 4, 1), np.float32)], format="depth32float")
    assert prepare(depth.view(), ash.Sampler(compare="less"), True) is None


def test_a_prepared_sampler_reads_its_layer_of_a_layered_texture():
    levels = np.zeros((3, 2, 2, 4), np.uint8)
    levels[1] = 255
    tex = ash.Texture([levels])
    bt = bind_texture("k", "t", Texture2D[f32], tex.view(dimension="2d", base_array_layer=1))
    got = ash.texture_sample_level(bt, ash.Sampler(), vec2f(0.5, 0.5), 0.0)
    assert got == ash.vec4f(1.0, 1.0, 1.0, 1.0)


def test_texture_sample_level_keeps_one_prepared_sampler_per_view_and_sampler():
    tex = ash.Texture([np.full((4, 4, 4), 51, np.uint8)])
    smp = ash.Sampler(mag_filter="linear")
    bt = bind_texture("k", "t", Texture2D[f32], tex)
    assert ash.texture_sample_level(bt, smp, vec2f(0.5, 0.5), 0.0) == ash.vec4f(0.2)
    fn = bt.prepared[smp]
    assert fn is not None and prepared_sampler(bt, smp) is fn
    again = bind_texture("k", "t", Texture2D[f32], tex)  # (a later run: the same view)
    assert again.prepared[smp] is fn


RGBA8_WRITE = ash.StorageTexture2D["rgba8unorm", "write"]


def test_a_texture_store_forgets_the_prepared_samplers_of_the_texture():
    @ash.compute(workgroup_size=1)
    async def store_then_sample(dst: RGBA8_WRITE, out: ash.Storage[f32]):
        ash.texture_store(dst, ash.vec2u(0, 0), ash.vec4f(1.0, 0.0, 0.0, 1.0))

    tex = ash.Texture([np.full((2, 2, 4), 51, np.uint8)])
    smp = ash.Sampler()
    bt = bind_texture("k", "t", Texture2D[f32], tex)
    assert ash.texture_sample_level(bt, smp, vec2f(0.1, 0.1), 0.0).x == np.float32(0.2)
    ash.run(store_then_sample, 1, dst=tex, out=np.zeros(1, np.float32), sanitize="off")
    assert smp not in bt.prepared
    assert ash.texture_sample_level(bt, smp, vec2f(0.1, 0.1), 0.0).x == np.float32(1.0)


def test_a_sampler_cannot_be_changed_after_it_is_made():
    smp = ash.Sampler()
    with pytest.raises(AttributeError, match="GPUSampler is immutable"):
        smp.mag_filter = "linear"
    assert smp.mag_filter == "nearest"


def test_a_texture_that_was_sampled_pickles_and_copies_without_what_it_keeps_for_speed():
    tex = ash.Texture([np.full((4, 4, 4), 51, np.uint8), np.full((2, 2, 4), 102, np.uint8)])
    smp = ash.Sampler(min_filter="linear", mipmap_filter="linear")
    bt = bind_texture("k", "t", Texture2D[f32], tex)
    assert ash.texture_sample_level(bt, smp, vec2f(0.5, 0.5), 0.5).x == np.float32(0.3)
    again = pickle.loads(pickle.dumps(tex))
    copied = copy.deepcopy(tex)
    copied.levels[0][...] = 0  # (its own arrays: the original's samples do not change)
    for t, want in ((again, 0.3), (copied, 0.2), (tex, 0.3)):
        bound = bind_texture("k", "t", Texture2D[f32], t)
        assert ash.texture_sample_level(bound, smp, vec2f(0.5, 0.5), 0.5).x == np.float32(want)
    assert np.shares_memory(again.block(1), again.levels[1])  # (a store shows in its levels)


@pytest.mark.parametrize("fmt,annotation", [
    ("rgba8unorm", Texture2D[f32]), ("bgra8unorm-srgb", Texture2D[f32]),
    ("r16float", Texture2D[f32]), ("rg32uint", Texture2D[u32]), ("rgba8sint", Texture2D[i32]),
    ("r32sint", Texture2D[i32]), ("depth16unorm", TextureDepth2D),
    ("depth32float", Texture2D[f32])])
def test_a_prepared_texture_load_is_bit_identical_to_the_general_one(fmt, annotation):
    tex = _chain(np.random.default_rng(7), fmt, 6, 5, 3)
    bt = bind_texture("k", "t", annotation, tex)
    fn = prepare_load(bt.view, bt.kind)
    checked = 0
    for x, y, level in itertools.product(range(-2, 8), range(-1, 7), range(-1, 4)):
        for coords in (vec2i(x, y), vec2u(x, y)):
            for lv in (i32(level), u32(level)):
                got, want = fn(coords, lv), load_texel(bt, coords, (lv,))
                assert _bits(got) == _bits(want), (coords, lv, got, want)
                checked += 1
    assert checked == 10 * 8 * 5 * 4
    assert ash.texture_load(bt, vec2i(1, 2), 0) == load_texel(bt, vec2i(1, 2), (0,))
    assert bt.prepared["texture_load"] is not None  # (the built-in made and kept it)


def test_a_storage_texture_has_no_prepared_loader():
    st = ash.Texture([np.zeros((2, 2, 1), np.float32)], "r32float")
    bt = bind_texture("k", "t", ash.StorageTexture2D["r32float", "read"], st)
    assert prepare_load(bt.view, bt.kind) is None


@ash.compute(workgroup_size=8)
async def sample_at(out: ash.Storage[ash.vec4f], uvs: ash.Storage[vec2f], t: Texture2D[f32],
                    s: ash.Sampler, *, local_invocation_index: u32):
    out[local_invocation_index] = ash.texture_sample_level(t, s, uvs[local_invocation_index],
                                                           0.0)


def test_coordinates_read_from_a_buffer_take_the_prepared_sampler():
    tex = _chain(np.random.default_rng(3), "rgba8unorm", 8, 8, 1)
    smp = ash.Sampler(mag_filter="linear", min_filter="linear", address_mode_u="repeat")
    uvs = np.random.default_rng(4).uniform(-0.5, 1.5, (8, 2)).astype(np.float32)
    out = np.zeros((8, 4), np.float32)
    ash.run(sample_at, 1, out=out, uvs=uvs, t=tex, s=smp, sanitize="off")
    assert tex.prepared_for(tex.view())[smp] is not None  # (a vector bound to memory too)
    bt = bind_texture("k", "t", Texture2D[f32], tex)
    want = [list(_general(bt, smp, float(u), float(v), 0.0)) for u, v in uvs]
    assert out.tolist() == np.array(want, np.float32).tolist()
