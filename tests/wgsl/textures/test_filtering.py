"""Filtering over arrays of points (asyncshader/wgsl/textures/filtering.py) against the
scalar path it mirrors (sampling.py, and the quad rendezvous of textureSample): the same
bits point by point, the level of detail from quad differences included."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader.collectives.textures import _lods
from asyncshader.wgsl.textures import filtering, sampling
from asyncshader.wgsl.textures.annotations import bind_texture
from asyncshader.wgsl.textures.resources import ADDRESS_MODES, COMPARE_FUNCTIONS, FILTERS

rng = np.random.default_rng(11)


def chain(layers=1, size=16, levels=5):
    shape = (layers,) if layers > 1 else ()
    return ash.Texture([rng.integers(0, 256, (*shape, size >> k, size >> k, 4),
                                     dtype=np.uint8) for k in range(levels)])


def points(n, axes):
    p = rng.uniform(-0.3, 1.3, (axes, n))
    p[:, :3] = np.array([[np.nan] * axes, [-0.0] * axes, [np.inf] * axes]).T
    return p.astype(np.float32).astype(np.float64)


@pytest.mark.parametrize("sampler", [
    ash.Sampler(mag_filter="linear", min_filter="linear", mipmap_filter="linear",
                address_mode_u="repeat", address_mode_v="mirror-repeat"),
    ash.Sampler(mag_filter="nearest", min_filter="linear", mipmap_filter="nearest",
                lod_min_clamp=0.5, lod_max_clamp=3.25)])
@pytest.mark.parametrize("dimension", ["2d", "cube"])
def test_sample_at_per_point_levels_gives_the_scalar_paths_bits(dimension, sampler):
    texture = chain(6 if dimension == "cube" else 1)
    view = texture.view(dimension=dimension)
    n = 200
    coords = points(n, 3 if dimension == "cube" else 2)
    lod = rng.uniform(-2, 6, n)  # (each point its own level and filter: grouped)
    lod[:2] = [np.nan, -np.inf]
    got = filtering.sample(filtering.Texels(view), sampler, list(coords), np.zeros(n, int),
                           lod)
    want = [sampling.sample(view, sampler, coords[:, k].tolist(), 0, float(lod[k]))
            for k in range(n)]
    assert got.astype(np.float32).tobytes() == np.array(want, np.float32).tobytes()


@pytest.mark.parametrize("fine", [False, True])
@pytest.mark.parametrize("dimension", ["2d", "cube"])
def test_quad_lods_are_the_quad_rendezvous_levels(dimension, fine):
    # 16 quads of points, each quad a small patch (its derivatives differ quad to quad)
    texture = chain(6 if dimension == "cube" else 1)
    view = texture.view(dimension=dimension)
    axes = 3 if dimension == "cube" else 2
    centre = rng.uniform(-1, 1, (axes, 16, 1))
    spread = rng.uniform(-0.05, 0.05, (axes, 16, 4)) * rng.uniform(0, 1, (1, 16, 1))
    coords = (centre + spread).reshape(axes, 64).astype(np.float32).astype(np.float64)
    got = filtering.quad_lods(view, list(coords), np.zeros(64, int), fine)
    bound = bind_texture("k", "tex", None, view)
    want = []
    for q in range(16):
        members = [(bound, None, list(coords[:, 4 * q + m]), 0) for m in range(4)]
        want += _lods(members, fine)
    assert got.tolist() == want
    assert len(set(want)) > 8  # (levels that differ: the test tells quads apart)


def test_lod_from_float32_gradients_is_computed_in_float32_as_the_scalar_path():
    view = chain().view()
    dx = rng.uniform(-0.2, 0.2, (2, 100)).astype(np.float32)
    dy = rng.uniform(-0.2, 0.2, (2, 100)).astype(np.float32)
    got = filtering.lod_from_gradients(view, list(dx), list(dy))
    want = [sampling.implicit_lod(view, list(dx[:, k]), list(dy[:, k])) for k in range(100)]
    assert got.tolist() == want


def test_lod_from_float64_gradients_has_the_c_librarys_pow_and_log2_bits():
    # numpy's x * x and log2 differ from the C library's pow(x, 2) and log2 (the scalar
    # path's) in about one value in a thousand: 20,000 gradients find such values
    view = chain().view()
    g = rng.standard_normal((4, 20000)) * rng.choice([1e-4, 1e-2, 1.0, 1e3], (4, 20000))
    g[:, :4] = [[0.0, np.nan, np.inf, -0.0]] * 4
    got = filtering.lod_from_gradients(view, list(g[:2]), list(g[2:]))
    want = [sampling.implicit_lod(view, g[:2, k].tolist(), g[2:, k].tolist())
            for k in range(g.shape[1])]
    assert got.tobytes() == np.array(want).tobytes()
    with np.errstate(divide="ignore"):  # (the same formula in numpy's own arithmetic)
        plain = np.log2(np.maximum(np.sqrt((g[0] * 16) ** 2 + (g[1] * 16) ** 2),
                                   np.sqrt((g[2] * 16) ** 2 + (g[3] * 16) ** 2)))
    assert (plain[4:] != got[4:]).any()  # (would not do)


SAMPLED_FORMATS = ["rgba8unorm", "rgba8unorm-srgb", "bgra8unorm", "bgra8unorm-srgb",
                   "rgba8snorm", "rg8unorm", "r8snorm", "rgba16float", "r16float",
                   "rgba32float", "r32float", "rg16unorm", "rgba16snorm", "depth16unorm",
                   "depth32float", "rgb10a2unorm"]


def random_texture(r, fmt, dimension):
    f = ash.wgsl.textures.formats.texel_format(fmt)
    w, h = int(r.integers(1, 12)), int(r.integers(1, 12))
    d = int(r.integers(1, 5)) if dimension == "3d" else 6 * int(r.integers(1, 3)) \
        if dimension.startswith("cube") else int(r.integers(1, 4))
    if dimension.startswith("cube"):
        h = w
    levels = int(r.integers(1, max(w, h, d if dimension == "3d" else 1).bit_length() + 1))
    out = []
    for k in range(levels):
        shape = (max(1, d >> k) if dimension == "3d" else d, max(1, h >> k), max(1, w >> k),
                 f.channels)
        if f.dtype.kind == "f":
            a = r.uniform(-3, 3, shape).astype(f.dtype)
        else:
            info = np.iinfo(f.dtype)
            a = r.integers(info.min, int(info.max) + 1, shape).astype(f.dtype)
            if fmt == "rgb10a2unorm":
                a = (a.astype(np.int64) % np.array([1024, 1024, 1024, 4])).astype(f.dtype)
        out.append(a)
    texture = ash.Texture(out, fmt, "3d" if dimension == "3d" else "2d")
    return texture.view(dimension=dimension)


def random_sampler(r, compare):
    def pick(options):
        return options[int(r.integers(len(options)))]

    low = float(r.choice([0.0, 0.0, 0.5, 1.25]))
    return ash.Sampler(
        address_mode_u=pick(ADDRESS_MODES), address_mode_v=pick(ADDRESS_MODES),
        address_mode_w=pick(ADDRESS_MODES), mag_filter=pick(FILTERS),
        min_filter=pick(FILTERS), mipmap_filter=pick(FILTERS),
        lod_min_clamp=low, lod_max_clamp=low + float(r.choice([0.0, 0.75, 2.5, 32.0])),
        compare=pick(COMPARE_FUNCTIONS) if compare else None)


@pytest.mark.parametrize("seed", range(24))
def test_random_textures_samplers_and_points_give_the_scalar_paths_bits(seed):
    # a random format, view dimension, size and chain, sampler and points: sample (with a
    # depth comparison for depth formats, half the time), gather, against the scalar path
    r = np.random.default_rng(1000 + seed)
    fmt = SAMPLED_FORMATS[seed % len(SAMPLED_FORMATS)]
    dimension = ["2d", "2d-array", "3d", "cube", "cube-array"][seed % 5]
    depth = fmt.startswith("depth")
    if depth and dimension == "3d":
        dimension = "2d"
    view = random_texture(r, fmt, dimension)
    compare = depth and seed % 2 == 0
    sampler = random_sampler(r, compare)
    n = 60
    axes = 3 if dimension in ("3d", "cube", "cube-array") else 2
    coords = r.uniform(-1.7, 1.7, (axes, n)).astype(np.float32).astype(np.float64)
    layers = view.array_layer_count // (6 if dimension.startswith("cube") else 1)
    layer = r.integers(0, layers, n) if "array" in dimension else np.zeros(n, int)
    lod = r.uniform(-2, 6, n).astype(np.float32).astype(np.float64)
    ref = r.uniform(0, 1, n).astype(np.float32).astype(np.float64)
    offset = () if dimension.startswith("cube") else \
        tuple(int(v) for v in r.integers(-8, 8, axes))
    op = sampling.compare_op(sampler) if compare else None
    texels = filtering.Texels(view)
    got = filtering.sample(texels, sampler, list(coords), layer, lod, offset,
                           (sampler.compare, ref) if compare else None)
    want = [sampling.sample(view, sampler, coords[:, k].tolist(), int(layer[k]),
                            float(lod[k]), offset, (op, float(ref[k])) if compare else None)
            for k in range(n)]
    assert got.astype(np.float32).tobytes() == np.array(want, np.float32).tobytes()
    if dimension in ("3d",):
        return
    gathered = filtering.gather(texels, sampler, list(coords), layer, seed % 4 if not depth
                                else 0, offset, (sampler.compare, ref) if compare else None)
    want = [sampling.gather(view, sampler, coords[:, k].tolist(), int(layer[k]),
                            seed % 4 if not depth else 0, offset,
                            (op, float(ref[k])) if compare else None) for k in range(n)]
    assert gathered.astype(np.float32).tobytes() == np.array(want, np.float32).tobytes()
