"""Texture sampling in fragment shaders under ``ash.Lockstep()``: the implicit-LOD built-ins
(``textureSample``, ``textureSampleBias``, ``textureSampleCompare``) take each lane's level of
detail from its quad's differences of the coordinates, fine or coarse, helpers included, and
give the bits InOrder gives: the webgpu-samples fragment shaders of tests/data/wgsl_textures,
every implicit-LOD built-in on every texture kind, and the fragment texture tests' shaders;
a quad split at the call is a DerivativeUniformityError."""

import inspect

import numpy as np
import pytest
from helpers import load_example
from test_lockstep_textures import DATA, borrowed, copied, memory_of, same_bits, small

import asyncshader as ash


def twin_fragments(shader, width, height, **given):
    """run_fragments under InOrder and Lockstep (copies of the bindings); the outputs, masks,
    buffers and textures must end bit-identical; returns InOrder's output."""
    mine = {k: copied(v) for k, v in given.items()}
    ours = ash.run_fragments(shader, width, height, sanitize="off", **given)
    fast = ash.run_fragments(shader, width, height, schedule=ash.Lockstep(), sanitize="off",
                             **mine)
    assert_same_output(ours, fast)
    for name in given:
        for a, b in zip(memory_of(given[name]), memory_of(mine[name])):
            assert same_bits(a, b), name
    return ours.output


def assert_same_output(ours, fast):
    """Two fragment results hold the same bits: each output (a struct's by member) and the
    mask."""
    mine, theirs = (r.output if isinstance(r.output, dict) else {"": r.output}
                    for r in (ours, fast))
    assert mine.keys() == theirs.keys()
    for key in mine:
        assert same_bits(mine[key], theirs[key]), (key, np.argwhere(mine[key] != theirs[key]))
    assert same_bits(ours.mask, fast.mask)


def pixel_uv(width, height):
    x = (np.arange(width, dtype=np.float32) + 0.5) / width
    y = (np.arange(height, dtype=np.float32) + 0.5) / height
    return np.stack(np.meshgrid(x, y), -1).astype(np.float32)


def rgba8(rng, h, w):
    return rng.integers(0, 256, (h, w, 4), dtype=np.uint8)


@pytest.mark.parametrize("derivatives", ["coarse", "fine"])
def test_textured_fragment_with_implicit_lod_is_bit_identical(derivatives):
    # webgpu-samples texturedCube: textureSample of a 5-level chain, uv stretched along a
    # curve so that each quad picks its own level and blend
    module = ash.load_wgsl((DATA / "texturedCube_sampleTextureMixColor.frag.wgsl").read_text())
    rng = np.random.default_rng(3)
    tex = ash.Texture([rgba8(rng, 16 >> k, 16 >> k) for k in range(5)])
    smp = ash.Sampler(mag_filter="linear", min_filter="linear", mipmap_filter="linear",
                      address_mode_u="repeat", address_mode_v="repeat")
    uv = pixel_uv(18, 14)
    uv = (uv * (1 + 3 * uv ** 2)).astype(np.float32)  # (derivatives grow across the image)
    colour = np.concatenate([np.ones((14, 18, 1)), np.full((14, 18, 1), 0.5), uv[..., :1],
                             np.ones((14, 18, 1))], -1).astype(np.float32)
    out = twin_fragments(module["main"], 18, 14, fragUV=uv, fragPosition=colour,
                         myTexture=tex, mySampler=smp, derivatives=derivatives)
    assert len(np.unique(out[..., 0])) > 100


def test_textured_fragment_under_coverage_samples_with_helpers():
    # a triangle's edge: the uncovered pixels of a covered quad run as helpers, their
    # coordinates taking part in the level of detail
    module = ash.load_wgsl((DATA / "texturedCube_sampleTextureMixColor.frag.wgsl").read_text())
    rng = np.random.default_rng(8)
    tex = ash.Texture([rgba8(rng, 16 >> k, 16 >> k) for k in range(5)])
    smp = ash.Sampler(min_filter="linear", mipmap_filter="linear")
    uv = (pixel_uv(9, 9) ** 2 * 3).astype(np.float32)
    y, x = np.mgrid[0:9, 0:9]
    out = twin_fragments(module["main"], 9, 9, fragUV=uv,
                         fragPosition=np.ones((9, 9, 4), np.float32), myTexture=tex,
                         mySampler=smp, coverage=x + y < 9)
    assert (out[x + y >= 9] == 0).all() and (out[x + y < 9] != 0).any()


def test_shadow_map_compare_is_bit_identical():
    # webgpu-samples shadowMapping: 3x3 textureSampleCompare with offsets, a depth texture,
    # a comparison sampler, an override set at load
    module = ash.load_wgsl((DATA / "shadowMapping_fragment.wgsl").read_text(),
                           constants={"shadowDepthTextureSize": 16.0})
    rng = np.random.default_rng(4)
    depth = ash.Texture([rng.integers(0, 65536, (16, 16, 1), dtype=np.uint16)],
                        "depth16unorm")
    scene = np.zeros(36, np.float32)  # two mat4x4f, then lightPos (vec3f) at 128
    scene[32:35] = (0.0, 0.0, 4.0)
    uv = pixel_uv(16, 16)
    ones = np.ones((16, 16, 1), np.float32)
    out = twin_fragments(
        module["main"], 16, 16, shadowPos=np.concatenate([uv, ones * 0.5], -1),
        fragPos=np.concatenate([uv, 0 * ones], -1),
        fragNorm=np.concatenate([uv[..., :1] - 0.5, 0 * ones, ones], -1),
        scene=scene.view(np.uint8), shadowMap=depth, shadowSampler=ash.Sampler(compare="less"))
    assert len(np.unique(out[..., 0])) > 5


def test_cube_map_and_volume_and_mipmap_fragments_are_bit_identical():
    rng = np.random.default_rng(5)
    # webgpu-samples cubemap: a direction through a matrix picks the face (linear: filtered
    # within the face)
    module = ash.load_wgsl((DATA / "cubemap_sampleCubemap.wgsl").read_text())
    cube = ash.Texture([rng.integers(0, 256, (6, 8 >> k, 8 >> k, 4), dtype=np.uint8)
                        for k in range(4)]).view(dimension="cube")
    matrix = np.array([[1.1, 0, 0, 0], [0, 1, 0, 0], [0.31, 0.17, 1.03, 0], [0, 0, 0, 1]],
                      np.float32).T.copy()
    uv = pixel_uv(12, 12)
    direction = np.concatenate([uv * 2 - 1, -np.ones((12, 12, 1)), np.ones((12, 12, 1))],
                               -1).astype(np.float32)
    out = twin_fragments(module["mainFS"], 12, 12, direction=direction,
                         viewDirectionProjectionInverse=matrix.view(np.uint8), myTexture=cube,
                         mySampler=ash.Sampler(mag_filter="linear", min_filter="linear",
                                               mipmap_filter="linear"))
    assert len(np.unique(out[..., 0])) > 20
    # webgpu-samples volumeRenderingTexture3D: 64 trilinear textureSample steps
    module = ash.load_wgsl((DATA / "volumeRenderingTexture3D_volume.wgsl").read_text())
    volume = ash.Texture([rng.integers(0, 256, (4, 4, 4, 1), dtype=np.uint8)], "r8unorm",
                         dimension="3d")
    uv = pixel_uv(6, 6)
    near = np.concatenate([uv * 1.6 - 0.8, np.full((6, 6, 1), -0.99)], -1).astype(np.float32)
    step = np.concatenate([0.01 * uv[..., :1], np.zeros((6, 6, 1)),
                           np.full((6, 6, 1), 1.98 / 64)], -1).astype(np.float32)
    out = twin_fragments(module["fragment_main"], 6, 6, near=near, step=step,
                         myTexture=volume, mySampler=ash.Sampler(mag_filter="linear",
                                                                 min_filter="linear"))
    assert len(np.unique(out[..., 0])) > 10
    # webgpu-samples generateMipmap fs2d: the next level from a one-level view
    module = ash.load_wgsl((DATA / "generateMipmap_generateMipmap.wgsl").read_text())
    base = rgba8(rng, 16, 16)
    view = ash.Texture([base, np.zeros((8, 8, 4), np.uint8)]).view(mip_level_count=1)
    out = twin_fragments(module["fs2d"], 8, 8, texcoord=pixel_uv(8, 8),
                         baseArrayLayer=np.zeros((8, 8), np.uint32), ourTexture2d=view,
                         ourSampler=ash.Sampler(min_filter="linear", mag_filter="linear"))
    want = base.astype(np.float64).reshape(8, 2, 8, 2, 4).mean(axis=(1, 3)) / 255
    assert np.abs(out - want).max() <= 1e-6


IMPLICIT = """\
@group(0) @binding(0) var flat: texture_2d_array<f32>;
@group(0) @binding(1) var cubes: texture_cube_array<f32>;
@group(0) @binding(2) var volume: texture_3d<f32>;
@group(0) @binding(3) var line: texture_1d<f32>;
@group(0) @binding(4) var shadows: texture_depth_2d_array;
@group(0) @binding(5) var s: sampler;
@group(0) @binding(6) var c: sampler_comparison;
struct Out { @location(0) a: vec4f, @location(1) b: vec4f, @location(2) d: vec4f }
@fragment fn main(@location(0) uv: vec2f, @location(1) bias: f32) -> Out {
  let layer = min(i32(uv.x * 3.0), 2);
  let dir = vec3f(uv * 2.0 - 1.0, 0.4 - uv.x);
  var o: Out;
  o.a = textureSampleBias(flat, s, uv, layer, bias, vec2i(-3, 2))
      + textureSample(cubes, s, dir, 1);
  o.b = textureSample(volume, s, vec3f(uv, uv.x * uv.y)) + textureSample(line, s, uv.y * 3.0);
  o.d = vec4f(textureSampleCompare(shadows, c, uv, 1, bias * 0.1 + 0.5, vec2i(1, 0)),
              textureSampleCompare(shadows, c, uv.yx, 0, 0.5), 0.0, 1.0);
  return o;
}
"""


def test_every_implicit_lod_builtin_on_every_kind_is_bit_identical():
    rng = np.random.default_rng(12)

    def chain(layers, size, levels, fmt="rgba8unorm"):
        return [rng.integers(0, 256, ((layers,) if layers else ()) + (size >> k,) * 2 + (4,),
                             dtype=np.uint8) for k in range(levels)]

    flat = ash.Texture(chain(3, 16, 5)).view(dimension="2d-array")
    cubes = ash.Texture(chain(12, 8, 4)).view(dimension="cube-array")
    volume = ash.Texture([rng.integers(0, 256, (8 >> k, 8 >> k, 8 >> k, 4), dtype=np.uint8)
                          for k in range(4)], dimension="3d")
    line = ash.Texture([rng.integers(0, 256, (16, 4), dtype=np.uint8)], dimension="1d")
    shadows = ash.Texture([rng.integers(0, 65536, (2, 8 >> k, 8 >> k, 1), dtype=np.uint16)
                           for k in range(3)], "depth16unorm").view(dimension="2d-array")
    uv = (pixel_uv(14, 10) * (0.5 + pixel_uv(14, 10)[..., ::-1])).astype(np.float32)
    bias = rng.uniform(-3, 3, (10, 14)).astype(np.float32)
    bias[0, :3] = [np.nan, 40.0, -40.0]  # (clamped to [-16, 15.99]; NaN: the least level)
    sampler = ash.Sampler(mag_filter="linear", min_filter="linear", mipmap_filter="linear",
                          address_mode_u="mirror-repeat", address_mode_w="repeat")
    compare = ash.Sampler(compare="greater", mag_filter="linear", min_filter="linear",
                          mipmap_filter="nearest")
    for derivatives in ("coarse", "fine"):
        out = twin_fragments(ash.load_wgsl(IMPLICIT)["main"], 14, 10, uv=uv, bias=bias,
                             flat=flat, cubes=cubes, volume=volume, line=line,
                             shadows=shadows, s=sampler, c=compare, derivatives=derivatives)
        for member in ("a", "b", "d"):
            assert len(np.unique(out[member][..., 0])) > 20


def test_implicit_lod_sampling_in_non_uniform_control_flow_is_a_derivative_error():
    module = ash.load_wgsl("""\
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  if (p.x < 1.0) { return vec4f(0.0); }
  return textureSample(t, s, p.xy / 8.0);
}
""", uniformity="off")  # (a compiler rejects it; loaded anyway to see the run-time report)
    with pytest.raises(ash.DerivativeUniformityError, match=r"quad id 1, 3 reach textureSample "
                       r"at .*\.wgsl:5:\d+, quad id 0, 2 do not"):
        ash.run_fragments(module["main"], 4, 4, t=small(), s=ash.Sampler(),
                          schedule=ash.Lockstep(), sanitize="off")


FRAGMENT_TESTS = borrowed("collectives/test_textures.py")


@pytest.mark.parametrize("name, fn, args", FRAGMENT_TESTS, ids=[b[0] for b in FRAGMENT_TESTS])
def test_the_fragment_texture_tests_shaders_agree_under_lockstep(name, fn, args, monkeypatch):
    # each run_fragments of the test runs as written (its assertions hold) and, on copies of
    # its bindings, under Lockstep: the outputs must be bit-identical
    run, twins = ash.run_fragments, []

    def both(shader, width, height, **given):
        mine = {k: copied(v) for k, v in given.items() if k != "sanitize"}
        result = run(shader, width, height, **given)  # (an error the test expects: raised)
        fast = run(shader, width, height, schedule=ash.Lockstep(), sanitize="off", **mine)
        assert_same_output(result, fast)
        twins.append(shader)
        return result

    monkeypatch.setattr(ash, "run_fragments", both)
    fn(**args)
    assert twins or "pytest.raises" in inspect.getsource(fn)


@pytest.mark.parametrize("derivatives", ["coarse", "fine"])
def test_the_textured_floor_example_renders_the_same_bits_under_lockstep(derivatives):
    # examples/textured_floor.py: a Python fragment shader (through to_wgsl), a callable
    # input, an odd-sized image (helpers at the edge), nine mip levels of a 256x256 texture
    module = load_example("textured_floor.py")
    smp = ash.Sampler(address_mode_u="repeat", address_mode_v="repeat")
    out = twin_fragments(module.textured_floor, module.WIDTH, module.HEIGHT,
                         uv=module.floor_uv, tex=module.tinted_chain(), smp=smp,
                         derivatives=derivatives)
    assert len(set(module.levels_of(out).ravel().tolist())) >= 8  # (the bands of the floor)


def test_helper_invocations_store_nothing_into_a_storage_texture():
    # each shaded pixel writes its own texel; the helpers (uncovered pixels of covered quads,
    # discarded ones) write nothing (WGSL: a helper invocation's writes have no effect)
    module = ash.load_wgsl("""\
@group(0) @binding(0) var img: texture_storage_2d<r32float, write>;
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  if (p.x > 6.0 && p.y < 2.0) { discard; }
  textureStore(img, vec2i(p.xy), vec4f(p.x * 10.0 + p.y));
  return vec4f(1.0);
}
""")
    y, x = np.mgrid[0:8, 0:8]
    every = ash.Texture([np.full((6, 6, 1), -1.0, np.float32)], "r32float")
    twin_fragments(module["main"], 6, 6, img=every)  # (no helper: as InOrder)
    assert (every.levels[0] > 0).all()
    image = ash.Texture([np.full((8, 8, 1), -1.0, np.float32)], "r32float")
    ash.run_fragments(module["main"], 8, 8, img=image, coverage=x > y,
                      schedule=ash.Lockstep(), sanitize="off")
    want = np.where((x > y) & ~((x + 0.5 > 6) & (y + 0.5 < 2)), (x + 0.5) * 10 + y + 0.5, -1)
    assert image.levels[0][..., 0].tolist() == want.tolist()
