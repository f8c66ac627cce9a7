"""Textures and samplers in loaded WGSL: a module's ``texture_*`` and ``sampler`` variables bind
an ``ash.Texture`` (or a view) and an ``ash.Sampler`` by WGSL name or ``bindings={(group,
binding): ...}``, checked against the declared type; §17's texture built-ins run as
asyncshader's. Real texture-using shaders from webgpu-samples (tests/data/wgsl_textures/) run
through ``load_wgsl`` and agree with lavapipe on the same texture bytes and sampler within
docs/textures.md's tolerances (filtering and implicit LOD: 2/256 plus one 8-bit step for a
stored unorm texel); expected values are also derived with numpy where the shader allows."""

from pathlib import Path

import numpy as np
import pytest

import asyncshader as ash

DATA = Path(__file__).parent.parent / "data" / "wgsl_textures"

LEVELS = """\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var tex: texture_2d<f32>;
@group(0) @binding(2) var smp: sampler;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = textureSampleLevel(tex, smp, vec2f(0.5, 0.5), f32(i) * 0.5).x
         + textureLoad(tex, vec2i(1, 0), 0).x + f32(textureNumLevels(tex))
         + f32(textureDimensions(tex, 1).x) * 10.0;
}
"""


def chain():
    """A 4x4 r8unorm texture whose levels read 0, 0.4 and 0.8; texel (1, 0) of level 0
    reads 51/255."""
    levels = [np.full((4 >> k, 4 >> k, 1), v, np.uint8) for k, v in enumerate((0, 102, 204))]
    levels[0][0, 1, 0] = 51
    return ash.Texture(levels, "r8unorm")


def test_texture_builtins_of_a_loaded_module_filter_load_and_query():
    module = ash.load_wgsl(LEVELS)
    out = np.zeros(4, np.float32)
    ash.run(module["main"], 1, out=out, tex=chain(),
            smp=ash.Sampler(min_filter="linear", mipmap_filter="linear"))
    # level 0, 0.5, 1, 1.5 at the centre (level 0's centre texels read 0): blended levels;
    # plus texel (1, 0) = 0.2, plus 3 levels, plus level 1's width 2 times 10
    assert np.allclose(out, np.array([0.0, 0.2, 0.4, 0.6]) + 0.2 + 3 + 20, atol=1e-6)


def test_bound_by_group_and_binding():
    module = ash.load_wgsl(LEVELS)
    out = np.zeros(4, np.float32)
    ash.run(module["main"], 1, out=out,
            bindings={(0, 1): chain(), (0, 2): ash.Sampler(mipmap_filter="nearest")})
    assert np.allclose(out, [23.2, 23.2, 23.6, 23.6], atol=1e-6)  # levels 0, 0, 1, 1


@pytest.mark.parametrize("given, words", [
    (dict(smp=ash.Sampler(compare="less")),
     ["@group(0) @binding(2) var smp: sampler", "comparison sampler", "drop compare="]),
    (dict(tex=ash.Texture([np.zeros((2, 2, 1), np.uint32)], "r32uint")),
     ["@group(0) @binding(1) var tex: texture_2d<f32> but got a r32uint texture",
      "read as u32", "Fix: declare texture_2d<u32>"]),
    (dict(tex=ash.Texture([np.zeros((2, 4, 4, 1), np.uint8)], "r8unorm")),
     ["var tex: texture_2d<f32>", "2d-array view", "texture.view(dimension='2d')"]),
    (dict(tex=ash.Sampler()), ["var tex: texture_2d<f32> needs an ash.Texture"]),
    (dict(tex=None), ["missing binding 'tex'", "bindings={(0, 1): ...}"]),
])
def test_a_texture_or_sampler_of_the_wrong_kind_is_a_binding_error_naming_it(given, words):
    module = ash.load_wgsl(LEVELS)
    kwargs = {**dict(tex=chain(), smp=ash.Sampler()), **given}
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    with pytest.raises(ash.BindingError) as info:
        ash.run(module["main"], 1, out=np.zeros(4, np.float32), **kwargs)
    for w in words:
        assert w in str(info.value)


COMPARE = """\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var depth: texture_depth_2d;
@group(0) @binding(2) var smp: sampler_comparison;
@compute @workgroup_size(1)
fn main() { out[0] = textureSampleCompareLevel(depth, smp, vec2f(0.5, 0.5), 0.5); }
"""


def test_a_storage_texture_of_another_format_names_the_declaration_to_write():
    module = ash.load_wgsl("""\
@group(0) @binding(3) var img: texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(1) fn main() { textureStore(img, vec2i(0), vec4f(1.0)); }
""")
    with pytest.raises(ash.BindingError) as info:
        ash.run(module["main"], 1, img=ash.Texture([np.zeros((1, 1, 1), np.float32)],
                                                   "r32float"))
    assert str(info.value).endswith(
        "@group(0) @binding(3) var img: texture_storage_2d<rgba8unorm, write> but got a "
        "r32float texture: a storage texture's format must match exactly. Fix: make the "
        "texture with format='rgba8unorm', or declare texture_storage_2d<r32float, write>")


def test_a_comparison_sampler_is_required_where_declared():
    module = ash.load_wgsl(COMPARE)
    d = ash.Texture([np.array([[[0.2], [0.9]], [[0.9], [0.9]]], np.float32)], "depth32float")
    out = np.zeros(1, np.float32)
    ash.run(module["main"], 1, out=out, depth=d,
            smp=ash.Sampler(compare="less", mag_filter="linear"))
    assert out[0] == 0.75  # three of the four texels pass 0.5 < texel
    with pytest.raises(ash.BindingError, match="comparison sampler but got a sampler without"):
        ash.run(module["main"], 1, out=out, depth=d, smp=ash.Sampler())


BUILTINS = """\
@group(0) @binding(0) var<storage, read_write> out: array<vec4f>;
@group(0) @binding(1) var layers: texture_2d_array<f32>;
@group(0) @binding(2) var smp: sampler;
@group(0) @binding(3) var depth: texture_depth_2d;
@group(0) @binding(4) var cmp: sampler_comparison;
@group(0) @binding(5) var img: texture_storage_2d<r32float, read_write>;
@group(0) @binding(6) var ints: texture_2d<u32>;

fn gathered(t: texture_2d_array<f32>, s: sampler, uv: vec2f) -> vec4f {
  return textureGather(1, t, s, uv, 1);
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let uv = vec2f(f32(i) * 0.25 + 0.1, 0.4);
  out[i * 8u + 0u] = gathered(layers, smp, uv);
  out[i * 8u + 1u] = textureSampleGrad(layers, smp, uv, 1, vec2f(0.3, 0.0), vec2f(0.0, 0.1));
  out[i * 8u + 2u] = textureSampleLevel(layers, smp, uv, i % 2u, 0.0, vec2i(1, -1));
  out[i * 8u + 3u] = vec4f(textureSampleCompareLevel(depth, cmp, uv, 0.5),
                           textureGatherCompare(depth, cmp, uv, 0.5).xyz);
  out[i * 8u + 4u] = vec4f(vec2f(textureDimensions(layers, 1)), f32(textureNumLayers(layers)),
                           f32(textureNumLevels(layers)));
  out[i * 8u + 5u] = vec4f(textureLoad(ints, vec2u(i, 1u), 0));
  let p = vec2i(i32(i), 0);
  textureStore(img, p, vec4f(textureLoad(img, p).x * 2.0 + 1.0));
  textureBarrier();
  out[i * 8u + 6u] = textureLoad(img, vec2i(3 - i32(i), 0));
  out[i * 8u + 7u] = textureLoad(layers, vec2i(i32(i), 1), 1, 1);
}
"""


def test_the_texture_builtins_through_a_helper_function_agree_with_lavapipe():
    # gather (from a helper taking the texture and sampler), grad, level with an offset, the
    # depth comparisons, the queries, integer loads, a read_write storage texture read and
    # written around textureBarrier
    rng = np.random.default_rng(7)
    layers = ash.Texture([rng.integers(0, 256, (2, 8, 8, 4), dtype=np.uint8),
                          rng.integers(0, 256, (2, 4, 4, 4), dtype=np.uint8)])
    depth = ash.Texture([rng.integers(0, 65536, (4, 4, 1), dtype=np.uint16)], "depth16unorm")
    ints = ash.Texture([rng.integers(0, 1000, (4, 4, 4)).astype(np.uint32)], "rgba32uint")
    smp = ash.Sampler(mag_filter="linear", min_filter="linear", mipmap_filter="linear",
                      address_mode_u="repeat")
    cmp = ash.Sampler(compare="less", mag_filter="linear", min_filter="linear")

    def img():
        return ash.Texture([np.arange(4, dtype=np.float32).reshape(1, 4, 1)], "r32float")

    ours, theirs = np.zeros((32, 4), np.float32), np.zeros((32, 4), np.float32)
    ours_img, theirs_img = img(), img()
    ash.run(ash.load_wgsl(BUILTINS)["main"], 1, out=ours, layers=layers, smp=smp, depth=depth,
            cmp=cmp, img=ours_img, ints=ints)
    pytest.importorskip("wgpu")
    from asyncshader.extra.textures import run_compute

    run_compute(BUILTINS, {0: theirs, 1: layers, 2: smp, 3: depth, 4: cmp, 5: theirs_img,
                           6: ints})
    ours, theirs = ours.reshape(4, 8, 4), theirs.reshape(4, 8, 4)
    assert ours_img.levels[0].ravel().tolist() == [1.0, 3.0, 5.0, 7.0]  # 2x + 1
    assert theirs_img.levels[0].ravel().tolist() == [1.0, 3.0, 5.0, 7.0]
    assert ours[:, 6, 0].tolist() == [7.0, 5.0, 3.0, 1.0]  # read after textureBarrier
    assert ours[:, 4].tolist() == [[4.0, 4.0, 2.0, 2.0]] * 4  # level 1 is 4x4; 2 layers, levels
    assert ours[:, 5].tolist() == ints.levels[0][1, :4].astype(np.float32).tolist()
    exact = [0, 4, 5, 6, 7]  # gather, queries, loads: no filtering (unorm: within 1 ulp)
    assert np.abs(ours[:, exact] - theirs[:, exact]).max() <= 1e-6
    assert np.abs(ours - theirs).max() <= 2 / 256  # (filtering: 8-bit subtexel weights)


# --- real shaders, against lavapipe --------------------------------------------------------

def rgba8(rng, h, w):
    return rng.integers(0, 256, (h, w, 4), dtype=np.uint8)


def gpu_run(dev, source, groups, *, compute=None, workgroups=(1, 1, 1), vertex=None,
            fragment=None, size=(8, 8), constants=None):
    """Runs ``source`` on lavapipe: a compute entry point over ``workgroups``, or ``vertex``
    ((module source, entry)) and ``fragment`` drawn as one triangle into an rgba32float
    target of ``size``; the storage resources read back; the target's pixels returned."""
    import wgpu

    from asyncshader.extra.textures import bind_groups, read_back, read_resources

    module = dev.create_shader_module(code=source)
    stage = {"constants": constants} if constants else {}
    if compute:
        pipeline = dev.create_compute_pipeline(layout="auto", compute={
            "module": module, "entry_point": compute, **stage})
    else:
        vs = dev.create_shader_module(code=vertex[0])
        pipeline = dev.create_render_pipeline(
            layout="auto", vertex={"module": vs, "entry_point": vertex[1]},
            fragment={"module": module, "entry_point": fragment, **stage,
                      "targets": [{"format": wgpu.TextureFormat.rgba32float}]},
            primitive={"topology": wgpu.PrimitiveTopology.triangle_list})
    made, back = bind_groups(dev, pipeline, groups)
    enc = dev.create_command_encoder()
    if compute:
        p = enc.begin_compute_pass()
    else:
        w, h = size
        target = ash.Texture([np.zeros((h, w, 4), np.float32)], "rgba32float")
        gpu_target = dev.create_texture(size=(w, h, 1), format="rgba32float",
                                        usage=wgpu.TextureUsage.RENDER_ATTACHMENT |
                                        wgpu.TextureUsage.COPY_SRC)
        p = enc.begin_render_pass(color_attachments=[{
            "view": gpu_target.create_view(), "load_op": wgpu.LoadOp.clear,
            "store_op": wgpu.StoreOp.store, "clear_value": (0, 0, 0, 0)}])
    p.set_pipeline(pipeline)
    for g, group in made:
        p.set_bind_group(g, group)
    if compute:
        p.dispatch_workgroups(*workgroups)
    else:
        p.draw(3)
    p.end()
    dev.queue.submit([enc.finish()])
    read_resources(dev, back)
    if not compute:
        read_back(dev, gpu_target, target)
        return target.levels[0]
    return None


def pixel_uv(width, height):
    """The full-screen triangle's corner coordinate at each pixel centre, (x + 0.5) / w and
    (y + 0.5) / h, as :data:`VS` interpolates it."""
    x = (np.arange(width, dtype=np.float32) + 0.5) / width
    y = (np.arange(height, dtype=np.float32) + 0.5) / height
    return np.stack(np.meshgrid(x, y), -1).astype(np.float32)


def vertex_shader(outputs):
    """A full-screen triangle whose ``outputs`` ((location, type, expression of c, the
    corner coordinate) each) are linear in the pixel position, so interpolation gives their
    value at each pixel centre."""
    fields = "".join(f"  @location({k}) o{k}: {t},\n" for k, t, _ in outputs)
    values = "".join(f", {e}" for _, _, e in outputs)
    return (f"struct V {{\n  @builtin(position) p: vec4f,\n{fields}}}\n"
            "@vertex fn vs(@builtin(vertex_index) i: u32) -> V {\n"
            "  let c = vec2f(f32((i << 1u) & 2u), f32(i & 2u));\n"
            f"  return V(vec4f(c * vec2f(2.0, -2.0) + vec2f(-1.0, 1.0), 0.0, 1.0){values});\n"
            "}\n")


def test_image_blur_with_a_workgroup_tile_agrees_with_numpy_and_lavapipe(gpu_device):
    # webgpu-samples imageBlur: textureSampleLevel into a workgroup tile, a box filter
    # along x, textureStore into an rgba8unorm storage texture
    source = (DATA / "imageBlur_blur.wgsl").read_text()
    rng = np.random.default_rng(1)
    image = rgba8(rng, 8, 40)
    filter_dim, block_dim = 5, 128 - 4
    params = np.array([filter_dim, block_dim], np.int32).tobytes()
    flip = np.zeros(4, np.uint32).tobytes()
    smp = ash.Sampler(mag_filter="linear", min_filter="linear")
    ours = ash.Texture([np.zeros((8, 40, 4), np.uint8)])
    module = ash.load_wgsl(source)
    ash.run(module["main"], (1, 2), bindings={
        (0, 0): smp, (0, 1): np.frombuffer(params, np.uint8).copy(), (1, 1): ash.Texture([image]),
        (1, 2): ours, (1, 3): np.frombuffer(flip, np.uint8).copy()})
    theirs = ash.Texture([np.zeros((8, 40, 4), np.uint8)])
    gpu_run(gpu_device, source, {0: {0: smp, 1: params},
                                 1: {1: ash.Texture([image]), 2: theirs, 3: flip}},
            compute="main", workgroups=(1, 2, 1))
    # numpy: the mean of 5 texels along x, clamped to the edge, as unorm, rgb; alpha 1
    f = image.astype(np.float64) / 255
    cols = np.clip(np.arange(40)[:, None] + np.arange(-2, 3)[None, :], 0, 39)
    want = np.round(f[:, cols, :3].mean(axis=2) * 255)
    got = ours.levels[0].astype(int)
    assert np.abs(got[..., :3] - want).max() <= 1 and (got[..., 3] == 255).all()
    assert np.abs(got - theirs.levels[0].astype(int)).max() <= 1


def test_generate_mipmap_fragment_averages_2x2_texels_as_lavapipe_does(gpu_device):
    # webgpu-samples generateMipmap fs2d: the next level drawn from a one-level view of the
    # previous, bilinear filtering at the corner of 2x2 texels: their mean
    source = (DATA / "generateMipmap_generateMipmap.wgsl").read_text()
    rng = np.random.default_rng(2)
    base = rgba8(rng, 16, 16)
    tex = ash.Texture([base, np.zeros((8, 8, 4), np.uint8)])
    view = tex.view(base_mip_level=0, mip_level_count=1)
    smp = ash.Sampler(min_filter="linear", mag_filter="linear")
    module = ash.load_wgsl(source)
    ours = ash.run_fragments(module["fs2d"], 8, 8, texcoord=pixel_uv(8, 8),
                             baseArrayLayer=np.zeros((8, 8), np.uint32),
                             ourTexture2d=view, ourSampler=smp).output
    want = base.astype(np.float64).reshape(8, 2, 8, 2, 4).mean(axis=(1, 3)) / 255
    assert np.abs(ours - want).max() <= 2 / 256
    theirs = gpu_run(gpu_device, source, {0: {0: smp, 1: view}}, vertex=(source, "vs"),
                     fragment="fs2d", size=(8, 8))
    assert np.abs(ours - theirs).max() <= 2 / 256


def test_textured_fragment_with_implicit_lod_agrees_with_lavapipe(gpu_device):
    # webgpu-samples texturedCube: textureSample (its level of detail from the quad's
    # derivatives of fragUV) times a per-pixel colour; uv advances 3 texels a pixel: LOD 1.58
    source = (DATA / "texturedCube_sampleTextureMixColor.frag.wgsl").read_text()
    rng = np.random.default_rng(3)
    tex = ash.Texture([rgba8(rng, 16 >> k, 16 >> k) for k in range(5)])
    smp = ash.Sampler(mag_filter="linear", min_filter="linear", mipmap_filter="linear",
                      address_mode_u="repeat", address_mode_v="repeat")
    vs = vertex_shader([(0, "vec2f", "c * 1.5"), (1, "vec4f", "vec4f(1.0, 0.5, c.x, 1.0)")])
    uv = pixel_uv(8, 8)
    color = np.concatenate([np.ones((8, 8, 1)), np.full((8, 8, 1), 0.5), uv[..., :1],
                            np.ones((8, 8, 1))], -1).astype(np.float32)
    module = ash.load_wgsl(source)
    ours = ash.run_fragments(module["main"], 8, 8, fragUV=uv * np.float32(1.5),
                             fragPosition=color, myTexture=tex, mySampler=smp).output
    theirs = gpu_run(gpu_device, source, {0: {1: smp, 2: tex}}, vertex=(vs, "vs"),
                     fragment="main", size=(8, 8))
    # the LOD tolerance (1/16 level) times the largest difference of adjacent levels' texels
    assert np.abs(ours - theirs).max() <= 2 / 256 + 1 / 16


def test_shadow_map_compare_agrees_with_lavapipe(gpu_device):
    # webgpu-samples shadowMapping fragment: 3x3 textureSampleCompare (percentage-closer
    # filtering) with a depth texture and a comparison sampler; the override set at load
    source = (DATA / "shadowMapping_fragment.wgsl").read_text()
    rng = np.random.default_rng(4)
    # (depth16unorm: WebGPU writes no depth32float texture from the host)
    depth = ash.Texture([rng.integers(0, 65536, (8, 8, 1), dtype=np.uint16)], "depth16unorm")
    smp = ash.Sampler(compare="less")
    scene = np.zeros(36, np.float32)  # two mat4x4f, then lightPos (vec3f) at 128
    scene[32:35] = (0.0, 0.0, 4.0)
    vs = vertex_shader([(0, "vec3f", "vec3f(c, 0.5)"), (1, "vec3f", "vec3f(c, 0.0)"),
                        (2, "vec3f", "vec3f(c.x - 0.5, 0.0, 1.0)")])
    uv = pixel_uv(8, 8)
    ones = np.ones((8, 8, 1), np.float32)
    module = ash.load_wgsl(source, constants={"shadowDepthTextureSize": 8.0})
    ours = ash.run_fragments(
        module["main"], 8, 8, shadowPos=np.concatenate([uv, ones * 0.5], -1),
        fragPos=np.concatenate([uv, 0 * ones], -1),
        fragNorm=np.concatenate([uv[..., :1] - 0.5, 0 * ones, ones], -1),
        scene=scene.view(np.uint8), shadowMap=depth, shadowSampler=smp).output
    theirs = gpu_run(gpu_device, source, {0: {0: scene.tobytes(), 1: depth, 2: smp}},
                     vertex=(vs, "vs"), fragment="main", size=(8, 8),
                     constants={"shadowDepthTextureSize": 8.0})
    assert np.abs(ours - theirs).max() <= 1e-5


def test_cube_map_sampled_by_direction_agrees_with_lavapipe(gpu_device):
    # webgpu-samples cubemap mainFS: a direction through a matrix, normalized, picks the face
    source = (DATA / "cubemap_sampleCubemap.wgsl").read_text()
    rng = np.random.default_rng(5)
    faces = ash.Texture([rng.integers(0, 256, (6, 4, 4, 4), dtype=np.uint8)])
    cube = faces.view(dimension="cube")
    smp = ash.Sampler()  # nearest: no filtering across a face's seam
    # (x scaled by 1.1: no pixel's direction has two largest components equal, where the
    # face a GPU picks is implementation-defined)
    m = np.array([[1.1, 0, 0, 0], [0, 1, 0, 0], [0.31, 0.17, 1.03, 0], [0, 0, 0, 1]],
                 np.float32)
    matrix = m.T.copy()  # (column-major: WGSL's column c is m[:, c])
    vs = vertex_shader([(1, "vec4f", "vec4f(c * 2.0 - 1.0, -1.0, 1.0)")])
    uv = pixel_uv(8, 8)
    direction = np.concatenate([uv * 2 - 1, -np.ones((8, 8, 1)), np.ones((8, 8, 1))],
                               -1).astype(np.float32)
    t = np.sort(np.abs(direction @ m.T)[..., :3], -1)
    assert (t[..., 2] - t[..., 1]).min() > 0.03  # (the largest component is alone)
    module = ash.load_wgsl(source)
    ours = ash.run_fragments(module["mainFS"], 8, 8, direction=direction,
                             viewDirectionProjectionInverse=matrix.view(np.uint8),
                             myTexture=cube, mySampler=smp).output
    theirs = gpu_run(gpu_device, source, {0: {0: matrix.tobytes(), 1: smp, 2: cube}},
                     vertex=(vs, "vs"), fragment="mainFS", size=(8, 8))
    assert np.abs(ours - theirs).max() <= 1e-6


def test_volume_ray_march_through_a_3d_texture_agrees_with_lavapipe(gpu_device):
    # webgpu-samples volumeRenderingTexture3D fragment_main: 64 textureSample steps through
    # a texture_3d with trilinear filtering
    source = (DATA / "volumeRenderingTexture3D_volume.wgsl").read_text()
    rng = np.random.default_rng(6)
    volume = ash.Texture([rng.integers(0, 256, (4, 4, 4, 1), dtype=np.uint8)], "r8unorm",
                         dimension="3d")
    smp = ash.Sampler(mag_filter="linear", min_filter="linear")
    vs = vertex_shader([(0, "vec3f", "vec3f(c * 1.6 - 0.8, -0.99)"),
                        (1, "vec3f", "vec3f(0.01 * c.x, 0.0, 1.98 / 64.0)")])
    uv = pixel_uv(4, 4)
    near = np.concatenate([uv * 1.6 - 0.8, np.full((4, 4, 1), -0.99)], -1).astype(np.float32)
    step = np.concatenate([0.01 * uv[..., :1], np.zeros((4, 4, 1)),
                           np.full((4, 4, 1), 1.98 / 64)], -1).astype(np.float32)
    module = ash.load_wgsl(source)
    ours = ash.run_fragments(module["fragment_main"], 4, 4, near=near, step=step,
                             myTexture=volume, mySampler=smp).output
    theirs = gpu_run(gpu_device, source, {0: {1: smp, 2: volume}},
                     vertex=(vs, "vs"), fragment="fragment_main", size=(4, 4))
    assert np.abs(ours - theirs).max() <= 2 / 256


MULTISAMPLED = """\
@group(0) @binding(0) var ms: texture_multisampled_2d<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let dims = textureDimensions(ms);
  let p = vec2u(g.x % dims.x, g.x / dims.x);
  for (var s = 0u; s < textureNumSamples(ms); s++) {
    out[g.x * 4u + s] = textureLoad(ms, p, s);
  }
}
"""

PER_SAMPLE = """\
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let c = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(c * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) p: vec4f, @builtin(sample_index) s: u32) -> @location(0) vec4f {
  return vec4f(floor(p.x) * 16.0, floor(p.y) * 16.0, f32(s) * 40.0, 255.0) / 255.0;
}
"""


def render_multisampled(dev, width, height):
    """A 4-sample rgba8unorm texture rendered on lavapipe with per-sample shading: sample s
    of texel (x, y) holds (16x, 16y, 40s, 255)."""
    import wgpu

    usage = wgpu.TextureUsage
    tex = dev.create_texture(size=(width, height, 1), format="rgba8unorm", sample_count=4,
                             usage=usage.RENDER_ATTACHMENT | usage.TEXTURE_BINDING)
    module = dev.create_shader_module(code=PER_SAMPLE)
    pipeline = dev.create_render_pipeline(
        layout="auto", vertex={"module": module, "entry_point": "vs"},
        fragment={"module": module, "entry_point": "fs", "targets": [{"format": "rgba8unorm"}]},
        primitive={"topology": wgpu.PrimitiveTopology.triangle_list}, multisample={"count": 4})
    enc = dev.create_command_encoder()
    p = enc.begin_render_pass(color_attachments=[{
        "view": tex.create_view(), "load_op": wgpu.LoadOp.clear,
        "store_op": wgpu.StoreOp.store, "clear_value": (0, 0, 0, 0)}])
    p.set_pipeline(pipeline)
    p.draw(3)
    p.end()
    dev.queue.submit([enc.finish()])
    return tex


def test_a_multisampled_texture_loads_each_sample_as_lavapipe_does(gpu_device):
    import wgpu

    width, height = 4, 2
    samples = np.zeros((4, height, width, 4), np.uint8)  # (sample, y, x, channel)
    for s in range(4):
        for y in range(height):
            for x in range(width):
                samples[s, y, x] = (16 * x, 16 * y, 40 * s, 255)
    ours = np.zeros((width * height * 4, 4), np.float32)
    ash.run(ash.load_wgsl(MULTISAMPLED)["main"], 2, out=ours,
            ms=ash.Texture([samples], sample_count=4))
    want = samples.transpose(1, 2, 0, 3).reshape(-1, 4) / np.float32(255)  # pixel, sample
    assert np.abs(ours - want).max() <= 1e-6
    tex = render_multisampled(gpu_device, width, height)
    module = gpu_device.create_shader_module(code=MULTISAMPLED)
    pipeline = gpu_device.create_compute_pipeline(layout="auto", compute={
        "module": module, "entry_point": "main"})
    buf = gpu_device.create_buffer(size=ours.nbytes, usage=wgpu.BufferUsage.STORAGE |
                                   wgpu.BufferUsage.COPY_SRC)
    group = gpu_device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": tex.create_view()},
        {"binding": 1, "resource": {"buffer": buf, "offset": 0, "size": buf.size}}])
    enc = gpu_device.create_command_encoder()
    p = enc.begin_compute_pass()
    p.set_pipeline(pipeline)
    p.set_bind_group(0, group)
    p.dispatch_workgroups(2)
    p.end()
    gpu_device.queue.submit([enc.finish()])
    theirs = np.frombuffer(gpu_device.queue.read_buffer(buf), np.float32).reshape(ours.shape)
    assert np.abs(ours - theirs).max() <= 1e-6


def test_a_single_sampled_texture_bound_to_a_multisampled_binding_is_refused():
    with pytest.raises(ash.BindingError, match="sample_count=4"):
        ash.run(ash.load_wgsl(MULTISAMPLED)["main"], 2, out=np.zeros((32, 4), np.float32),
                ms=ash.Texture([np.zeros((2, 4, 4), np.uint8)]))


def test_texture_sample_reached_from_a_compute_entry_point_is_refused_at_its_line():
    source = """\
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var<storage, read_write> o: array<f32>;
fn f(uv: vec2f) -> f32 { return textureSample(t, s, uv).x; }
@compute @workgroup_size(1) fn main() { o[0] = f(vec2f(0.5)); }
"""
    with pytest.raises(ash.ShaderCreationError) as info:
        ash.load_wgsl(source)
    message = str(info.value)
    assert ".wgsl:4:33: error: textureSample is for the fragment stage only" in message
    assert "compute entry point 'main'" in message and "Fix: textureSampleLevel" in message
