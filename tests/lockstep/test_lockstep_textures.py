"""Textures and samplers under ``ash.Lockstep()``: every texture built-in of the compute
stage, for every texture kind, gives the bit pattern ``InOrder`` gives (the coroutine path's
scalar filtering is the reference; Lockstep's is the same arithmetic over arrays), storage
textures are written back into the caller's arrays, the compute-stage texture tests' kernels
and the webgpu-samples compute shader agree, and what Lockstep cannot run is refused with
the construct and its line."""

import importlib.util
import inspect
from pathlib import Path

import numpy as np
import pytest

import asyncshader as ash

TESTS = Path(__file__).parent.parent
DATA = TESTS / "data" / "wgsl_textures"


# --- twins: one dispatch under InOrder and under Lockstep ----------------------------------

def copied(value):
    """A fresh copy of a binding: arrays and textures (with their views) get their own
    memory, so that two runs write apart."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, ash.TextureView):
        t = copied(value.texture)
        return t.view(value.dimension, value.base_mip_level, value.mip_level_count,
                      value.base_array_layer, value.array_layer_count)
    if isinstance(value, ash.Texture):
        return ash.Texture([a.copy() for a in value.levels], value.format.name,
                           value.dimension, value.sample_count)
    return value


def memory_of(value):
    """The memory a binding holds after a run: an array, or a texture's levels."""
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, ash.TextureView):
        value = value.texture
    if isinstance(value, ash.Texture):
        return value.levels
    return []


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def twin_run(kernel, workgroups, **bindings):
    """Runs the dispatch under InOrder (sanitize off) and under Lockstep on copies of the
    bindings; asserts every buffer and texture ends bit-identical; returns the InOrder
    memory (the bindings given)."""
    mine = {k: copied(v) for k, v in bindings.items()}
    ash.run(kernel, workgroups, sanitize="off", **bindings)
    ash.run(kernel, workgroups, schedule=ash.Lockstep(), sanitize="off", **mine)
    for name in bindings:
        for a, b in zip(memory_of(bindings[name]), memory_of(mine[name])):
            assert same_bits(a, b), (name, np.argwhere(a != b)[:5])


# --- the texture tests' kernels, each dispatch also under Lockstep -------------------------

def borrowed(relative):
    """The test functions of a texture test file (one entry per parameter set): (id,
    function, arguments)."""
    spec = importlib.util.spec_from_file_location(f"borrowed_{Path(relative).stem}",
                                                  TESTS / relative)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = []
    for name, fn in vars(module).items():
        if not name.startswith("test_") or not callable(fn):
            continue
        marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"]
        if not marks:
            if fn.__code__.co_argcount == 0:
                out.append((name, fn, {}))
            continue
        names = [n.strip() for n in marks[0].args[0].split(",")]
        for k, values in enumerate(marks[0].args[1]):
            values = values if len(names) > 1 else (values,)
            out.append((f"{name}[{k}]", fn, dict(zip(names, values))))
    return out


BORROWED = borrowed("wgsl/textures/test_builtins.py") + \
    borrowed("wgsl/textures/test_multisampled.py")


@pytest.mark.parametrize("name, fn, args", BORROWED, ids=[b[0] for b in BORROWED])
def test_the_texture_tests_kernels_agree_under_lockstep(name, fn, args, monkeypatch):
    # each ash.run of the test runs as written (its assertions hold) and, on copies of its
    # bindings, under Lockstep: the memories must end bit-identical
    run, twins = ash.run, []

    def both(kernel, workgroups=1, **bindings):
        mine = {k: copied(v) for k, v in bindings.items() if k != "sanitize"}
        result = run(kernel, workgroups, **bindings)  # (an error the test expects: raised)
        run(kernel, workgroups, schedule=ash.Lockstep(), sanitize="off", **mine)
        for key in mine:
            for a, b in zip(memory_of(bindings[key]), memory_of(mine[key])):
                assert same_bits(a, b), (key, np.argwhere(a != b)[:5])
        twins.append(kernel)
        return result

    monkeypatch.setattr(ash, "run", both)
    fn(**args)
    # (a test of an error the coroutine path raises runs no twin: the error comes first)
    assert twins or "pytest.raises" in inspect.getsource(fn)


# --- every built-in on every texture kind, 64 lanes of awkward coordinates -----------------

LANES = 64


def points(seed):
    """Per lane: coordinates in [-0.6, 1.6] (outside the texture too), a level of detail in
    [-1.5, 4.5], then lanes with -0.0, NaN and infinities; and per-lane derivatives."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(-0.6, 1.6, (LANES, 4)).astype(np.float32)
    p[:, 3] = rng.uniform(-1.5, 4.5, LANES)
    p[:6, :] = [[-0.0, 0.5, 0.5, 0.0], [np.nan, 0.5, 0.25, 1.0], [0.5, np.inf, 0.5, np.nan],
                [-np.inf, 0.1, 0.9, np.inf], [0.0, 0.0, 0.0, -np.inf], [0.5, 0.5, 0.5, 0.5]]
    p[6:12, :3] = [[1, 0, 0], [-1, 0.5, 0.5], [0.3, 1, -0.2], [0, 0, -1], [1, 1, 1], [0, 0, 0]]
    p[12:16, :2] = (np.array([[0, 0], [3, 2], [7, 7], [8, 1]]) + 0.5) / 8  # texel centres
    grads = rng.uniform(-0.3, 0.3, (LANES, 2, 4)).astype(np.float32)
    grads[:4] = 0.0
    grads[4:8] *= 1e-3
    return p, grads.reshape(LANES * 2, 4)


def colour(rng, shape, fmt):
    if fmt.endswith("float"):
        a = rng.uniform(-2, 2, shape).astype(np.float16 if "16" in fmt else np.float32)
        a.reshape(-1)[:3] = [np.inf, -np.inf, -0.0]  # (infinities: NaN where weighted by 0)
        return a
    return rng.integers(0, 256, shape, dtype=np.uint8)


def chain_of(rng, shape, fmt, layered, levels=3):
    """A texture's levels, each halving ``shape``'s (layers or depth, height, width) but
    the layers where ``layered``."""
    out = []
    for k in range(levels):
        size = [max(1, n >> k) for n in shape]
        if layered:
            size[0] = shape[0]
        out.append(colour(rng, (*size, 4), fmt))
    return out


SAMPLERS = {
    "nearest": ash.Sampler(),
    "linear": ash.Sampler(mag_filter="linear", min_filter="linear", mipmap_filter="linear",
                          address_mode_u="repeat", address_mode_v="mirror-repeat",
                          address_mode_w="repeat"),
    "mixed": ash.Sampler(mag_filter="linear", min_filter="nearest", mipmap_filter="linear",
                         address_mode_u="mirror-repeat", lod_min_clamp=0.25,
                         lod_max_clamp=1.5),
    "trilinear-clamped": ash.Sampler(mag_filter="nearest", min_filter="linear",
                                     mipmap_filter="nearest", max_anisotropy=1,
                                     lod_min_clamp=0.0, lod_max_clamp=2.0),
}

KERNEL = """\
@group(0) @binding(0) var<storage, read_write> out: array<vec4f>;
@group(0) @binding(1) var<storage, read> pts: array<vec4f>;
@group(0) @binding(2) var<storage, read> grads: array<vec4f>;
@group(0) @binding(3) var t: {type};
@group(0) @binding(4) var s: sampler;
@group(0) @binding(5) var c: sampler_comparison;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {{
  let p = pts[i];
  let dx = grads[2u * i];
  let dy = grads[2u * i + 1u];
  let layer = i32(i % 3u);
  let n = {count}u;
  var k = 0u;
{calls}}}
"""

#: per texture kind: WGSL type, coordinates, array index, offset, derivative swizzle
KINDS = {
    "1d": ("texture_1d<f32>", "p.x", None, None, None),
    "2d": ("texture_2d<f32>", "p.xy", None, "vec2i(1, -2)", "xy"),
    "2d_array": ("texture_2d_array<f32>", "p.xy", "layer", "vec2i(-8, 7)", "xy"),
    "3d": ("texture_3d<f32>", "p.xyz", None, "vec3i(0, 1, -1)", "xyz"),
    "cube": ("texture_cube<f32>", "p.xyz - 0.5", None, None, "xyz"),
    "cube_array": ("texture_cube_array<f32>", "p.xyz - 0.5", "layer", None, "xyz"),
    "depth_2d": ("texture_depth_2d", "p.xy", None, "vec2i(2, 0)", None),
    "depth_2d_array": ("texture_depth_2d_array", "p.xy", "layer", None, None),
    "depth_cube": ("texture_depth_cube", "p.xyz - 0.5", None, None, None),
    "depth_cube_array": ("texture_depth_cube_array", "p.xyz - 0.5", "layer", None, None),
    "u32": ("texture_2d<u32>", "p.xy", None, "vec2i(-1, 1)", None),
    "i32": ("texture_2d_array<i32>", "p.xy", "layer", None, None),
}


def calls(kind):
    """The expressions (vec4f each) of the built-ins a texture of ``kind`` takes."""
    _, coords, layer, offset, grad = KINDS[kind]
    depth, integer = kind.startswith("depth"), kind in ("u32", "i32")
    at = f", {layer}" if layer else ""
    off = f", {offset}" if offset else ""
    cube = "cube" in kind
    dims = {"1d": 1, "3d": 3}.get(kind, 2)
    load_coords = {1: "i32(floor(p.x * 10.0)) - 2", 2: "vec2i(floor(p.xy * 10.0)) - 2",
                   3: "vec3i(floor(p.xyz * 10.0)) - 2"}[dims]
    level = "i32(floor(p.w))"
    out = []
    if not cube:
        out.append(f"vec4f(textureLoad(t, {load_coords}{at}, {level}))")
    size = "textureDimensions(t, u32(i) % textureNumLevels(t))"
    out.append({1: f"vec4f(f32({size}))", 2: f"vec4f(vec2f({size}), 0.0, 0.0)",
                3: f"vec4f(vec3f({size}), 0.0)"}[dims if not cube else 2])
    if layer:
        out.append("vec4f(f32(textureNumLayers(t)))")
    if integer:
        out.append(f"vec4f(textureGather(1, t, s, {coords}{at}{off}))")
        out.append(f"vec4f(textureGather(3, t, s, {coords}{at}))")
        return out
    lod = level if depth else "p.w"
    out.append(f"vec4f(textureSampleLevel(t, s, {coords}{at}, {lod}{off}))")
    if depth:
        out.append(f"vec4f(textureSampleCompareLevel(t, c, {coords}{at}, p.z{off}))")
        out.append(f"textureGatherCompare(t, c, {coords}{at}, p.w{off})")
        out.append(f"textureGather(t, s, {coords}{at}{off})")
        return out
    if dims == 2 or cube:  # (textureGather: 2d, 2d arrays and cubes)
        out.append(f"textureGather(2, t, s, {coords}{at}{off})")
    if grad:
        out.append(f"textureSampleGrad(t, s, {coords}{at}, dx.{grad}, dy.{grad}{off})")
    if kind == "2d":
        out.append("textureSampleBaseClampToEdge(t, s, p.xy)")
    return out


def texture_for(kind, rng, fmt):
    if kind == "1d":
        return ash.Texture([colour(rng, (8, 4), fmt)], fmt, "1d")
    if kind == "3d":
        return ash.Texture(chain_of(rng, (4, 8, 8), fmt, False), fmt, "3d")
    if kind in ("u32", "i32"):
        name = f"rgba16{'uint' if kind == 'u32' else 'sint'}"
        dtype = np.uint16 if kind == "u32" else np.int16
        shape = (8, 8, 4) if kind == "u32" else (3, 8, 8, 4)
        return ash.Texture([rng.integers(-300 * (kind == "i32"), 60000 if kind == "u32"
                                         else 300, shape).astype(dtype)], name)
    if kind.startswith("depth"):
        layers = {"depth_2d": 1, "depth_2d_array": 3, "depth_cube": 6,
                  "depth_cube_array": 18}[kind]
        a = rng.integers(0, 65536, (layers, 8, 8, 1), dtype=np.uint16)
        t = ash.Texture([a[0] if layers == 1 else a, a[:, :4, :4][0] if layers == 1 else
                         a[:, :4, :4]], "depth16unorm")
    else:
        layers = {"2d": 1, "2d_array": 3, "cube": 6, "cube_array": 18}[kind]
        levels = chain_of(rng, (layers, 8, 8), fmt, True)
        t = ash.Texture([v[0] for v in levels] if layers == 1 else levels, fmt)
    dimension = kind.replace("depth_", "").replace("_", "-")
    return t.view(dimension=dimension) if "cube" in kind or "array" in kind else t


@pytest.mark.parametrize("sampler", list(SAMPLERS))
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_builtin_on_every_texture_kind_is_bit_identical_to_inorder(kind, sampler):
    fmt = "rgba8unorm-srgb" if sampler == "mixed" else \
        "rgba16float" if sampler == "linear" else "rgba8unorm"
    rng = np.random.default_rng(hash((kind, sampler)) % 2**32)
    lines = calls(kind)
    body = "".join(f"  out[i * n + {k}u] = {c};\n" for k, c in enumerate(lines))
    source = KERNEL.format(type=KINDS[kind][0], count=len(lines), calls=body)
    pts, grads = points(len(lines))
    compare = ash.Sampler(compare=["less", "greater-equal", "never", "always"][len(kind) % 4],
                          mag_filter="linear", min_filter="linear")
    module = ash.load_wgsl(source)
    out = np.zeros((LANES * len(lines), 4), np.float32)
    twin_run(module["main"], 1, out=out, pts=pts, grads=grads, t=texture_for(kind, rng, fmt),
             s=SAMPLERS[sampler], **({"c": compare} if "Compare" in source else {}))
    assert np.isfinite(out).sum() > out.size // 2  # (values, not all NaN or zero)
    assert np.count_nonzero(out) > out.size // 4


# --- storage textures: every storage format, written back into the caller's arrays ---------

STORE = """\
@group(0) @binding(0) var<storage, read> values: array<vec4f>;
@group(0) @binding(1) var img: texture_storage_{dim}<{format}, read_write>;
@compute @workgroup_size(8, 4)
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) i: u32) {{
  let p = vec2i(g.xy) - vec2i(0, 1);  // (row -1 is out of bounds: dropped)
  let old = textureLoad(img, {coords});
  let v = values[i] * {scale};
  textureStore(img, {coords}, {value});
  textureBarrier();
  textureStore(img, {coords2}, {value2});
}}
"""


def storage_case(fmt, dim):
    kind = ash.wgsl.textures.formats.texel_format(fmt).sample_type
    cast = {"f32": "vec4f", "u32": "vec4u", "i32": "vec4i"}[kind]
    scale = {"f32": "1.0", "u32": "40000.0", "i32": "-40000.0"}[kind]
    coords = {"1d": "p.x", "2d": "p", "2d_array": "p, 1", "3d": "vec3i(p, 1)"}[dim]
    coords2 = {"1d": "7 - p.x", "2d": "vec2i(7 - p.x, p.y)", "2d_array": "vec2i(p.y, p.x), 0",
               "3d": "vec3i(p.y, p.x, 0)"}[dim]
    return STORE.format(dim=dim, format=fmt, coords=coords, coords2=coords2, scale=scale,
                        value=f"{cast}(v) + old", value2=f"{cast}(v.wzyx)")


@pytest.mark.parametrize("dim", ["1d", "2d", "2d_array", "3d"])
@pytest.mark.parametrize("fmt", ash.wgsl.textures.formats.STORAGE_FORMATS)
def test_storage_texture_stores_convert_and_write_back_bit_identically(fmt, dim):
    f = ash.wgsl.textures.formats.texel_format(fmt)
    rng = np.random.default_rng(len(fmt) * 7 + len(dim))
    values = rng.uniform(-1.5, 1.5, (32, 4)).astype(np.float32)
    values[:4] = [[np.nan, -0.0, np.inf, -np.inf], [0.5, 1 / 255, 127.5 / 255, -0.5],
                  [1.0, -1.0, 0.0031308, 0.04045], [2.5e-3, 0.999, 1.001, -1.001]]
    shape = {"1d": (8, f.channels), "2d": (4, 8, f.channels), "2d_array": (2, 4, 8, f.channels),
             "3d": (2, 4, 8, f.channels)}[dim]
    host = np.zeros(shape, f.dtype)
    texture = ash.Texture([host], fmt, {"2d_array": "2d"}.get(dim, dim))
    image = texture.view("2d-array") if dim == "2d_array" else texture
    twin_run(ash.load_wgsl(storage_case(fmt, dim))["main"], 1, values=values, img=image)
    assert np.count_nonzero(host)  # (written into the caller's array)


# --- the webgpu-samples compute shader -----------------------------------------------------

def test_image_blur_with_a_workgroup_tile_agrees_with_inorder_and_numpy():
    # webgpu-samples imageBlur (tests/data/wgsl_textures): textureSampleLevel into a
    # workgroup tile, a workgroupBarrier, a box filter, textureStore into rgba8unorm; both
    # directions (flip)
    module = ash.load_wgsl((DATA / "imageBlur_blur.wgsl").read_text())
    rng = np.random.default_rng(1)
    image = rng.integers(0, 256, (40, 40, 4), dtype=np.uint8)
    smp = ash.Sampler(mag_filter="linear", min_filter="linear")
    params = np.array([(5, 124)], [("filterDim", "<i4"), ("blockDim", "<u4")])
    f = image.astype(np.float64) / 255
    cols = np.clip(np.arange(40)[:, None] + np.arange(-2, 3)[None, :], 0, 39)
    for flip, want in ((0, f[:, cols, :3].mean(axis=2)),
                       (1, f[cols, :, :3].mean(axis=1))):
        out = ash.Texture([np.zeros((40, 40, 4), np.uint8)])
        twin_run(module["main"], (1, 10), samp=smp, params=params,
                 inputTex=ash.Texture([image]), outputTex=out,
                 flip=np.array([(flip,)], [("value", "<u4")]))
        got = out.levels[0].astype(int)
        assert np.abs(got[..., :3] - np.round(want * 255)).max() <= 1
        assert (got[..., 3] == 255).all()


# --- errors ----------------------------------------------------------------------------------

SAMPLED = """\
@group(0) @binding(0) var<storage, read_write> out: array<vec4f>;
@group(0) @binding(1) var tex: texture_2d<f32>;
@group(0) @binding(2) var smp: sampler;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = textureSampleLevel(tex, smp, vec2f(0.5), 0.0)
         + vec4f(vec2f(textureDimensions(tex, i)), 0.0, 0.0);
}
"""


def lockstep(kernel, groups=1, **bindings):
    return ash.run(kernel, groups, schedule=ash.Lockstep(), sanitize="off", **bindings)


def small():
    return ash.Texture([np.zeros((4, 4, 4), np.uint8), np.zeros((2, 2, 4), np.uint8)])


@pytest.mark.parametrize("given, words", [
    (dict(smp=ash.Sampler(compare="less")),
     ["var smp: sampler is a filtering sampler but got a comparison sampler",
      "drop compare="]),
    (dict(tex=ash.Texture([np.zeros((2, 2, 1), np.uint32)], "r32uint")),
     ["var tex: texture_2d<f32> but got a r32uint texture", "read as u32",
      "Fix: declare texture_2d<u32>"]),
    (dict(tex=ash.Texture([np.zeros((2, 4, 4, 1), np.uint8)], "r8unorm")),
     ["binding 'tex' is a texture_2d<f32> (view dimension '2d') but got a 2d-array view",
      "texture.view(dimension='2d')"]),
    (dict(tex=ash.Sampler()), ["var tex: texture_2d<f32> needs an ash.Texture",
                               "not Sampler"]),
    (dict(tex=None), ["missing binding 'tex'", "pass tex=<ash.Texture>"]),
])
def test_a_texture_or_sampler_of_the_wrong_kind_is_a_binding_error_naming_it(given, words):
    bindings = {**dict(tex=small(), smp=ash.Sampler()), **given}
    with pytest.raises(ash.AsyncShaderError) as info:
        lockstep(ash.load_wgsl(SAMPLED)["main"], out=np.zeros((4, 4), np.float32),
                 **{k: v for k, v in bindings.items() if v is not None})
    for w in words:
        assert w in str(info.value)


def test_a_level_past_the_chain_in_texture_dimensions_names_the_line():
    # lanes 2 and 3 ask for levels 2 and 3 of a two-level texture
    with pytest.raises(ValueError, match=r"\.wgsl:7:\d+: textureDimensions\(tex, 2\): the "
                       r"level is outside the view's 2 mip levels.*Fix: pass a level below "
                       r"textureNumLevels\(\)"):
        lockstep(ash.load_wgsl(SAMPLED)["main"], out=np.zeros((4, 4), np.float32),
                 tex=small(), smp=ash.Sampler())


def test_implicit_lod_sampling_in_compute_is_refused_with_its_line():
    @ash.compute(workgroup_size=4, derivatives="linear")
    async def k(out: ash.Storage[ash.f32], tex: ash.Texture2D[ash.f32], smp: ash.Sampler, *,
                local_invocation_index: ash.u32):
        uv = ash.vec2f(ash.f32(local_invocation_index) * 0.25, 0.5)
        out[local_invocation_index] = (await ash.texture_sample(tex, smp, uv)).x

    with pytest.raises(ash.WGSLError, match=r"\.wgsl:\d+:\d+: error: not supported by "
                       r"Lockstep: textureSample .*Fix: textureSampleLevel"):
        lockstep(k, out=np.zeros(4, np.float32), tex=small(), smp=ash.Sampler())


def test_an_array_index_outside_the_layers_samples_the_nearest_layer():
    # Vulkan takes a sampled layer as clamp(index, 0, layers - 1); layer k reads 10 * (k + 1)
    module = ash.load_wgsl("""\
@group(0) @binding(0) var<storage, read_write> out: array<vec4f>;
@group(0) @binding(1) var t: texture_2d_array<f32>;
@group(0) @binding(2) var s: sampler;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let layer = array(-5, 0, 2, 9)[i];
  out[i] = vec4f(textureSampleLevel(t, s, vec2f(0.5), layer, 0.0).x,
                 textureGather(0, t, s, vec2f(0.5), layer).x, 0.0, 0.0);
}
""")
    levels = np.repeat(np.array([10, 20, 30], np.uint8)[:, None, None, None], 4, axis=1)
    texture = ash.Texture([np.repeat(np.repeat(levels, 2, axis=2), 4, axis=3)])
    out = np.zeros((4, 4), np.float32)
    lockstep(module["main"], out=out, t=texture.view(dimension="2d-array"), s=ash.Sampler())
    want = np.float32(np.array([10, 10, 30, 30]) / 255)
    assert out[:, 0].tolist() == want.tolist() and out[:, 1].tolist() == want.tolist()


def test_a_written_storage_texture_is_among_the_dispatchs_outputs_as_under_inorder():
    module = ash.load_wgsl(storage_case("rgba8unorm", "2d"))
    values = np.full((32, 4), 0.5, np.float32)
    results = [ash.run(module["main"], 1, values=values, sanitize="off", schedule=schedule,
                       img=ash.Texture([np.zeros((4, 8, 4), np.uint8)]))
               for schedule in (None, ash.Lockstep())]
    assert "img" in results[0].outputs and "img" in results[1].outputs
    assert same_bits(results[0].outputs["img"], results[1].outputs["img"])
    assert results[1].outputs["img"].shape == (1, 4, 8, 4)


@ash.compute(workgroup_size=1)
async def levels_of_any(out: ash.Storage[ash.f32], tex):
    out[0] = ash.f32(ash.texture_num_levels(tex))


def test_an_unannotated_texture_parameter_is_compiled_again_for_another_kind_of_texture():
    # to_wgsl takes an unannotated parameter's type from the bound texture: a 3d texture
    # after a 2d one is another WGSL module, not a binding error
    flat = ash.Texture([np.zeros((4, 4, 4), np.uint8)])
    volume = ash.Texture([np.zeros((4, 4, 4, 1), np.float32),
                          np.zeros((2, 2, 2, 1), np.float32)], "r32float", "3d")
    for texture, levels in ((flat, 1), (volume, 2)):
        out = np.zeros(1, np.float32)
        lockstep(levels_of_any, out=out, tex=texture)
        assert out[0] == levels


def test_textures_passed_to_a_helper_function_and_a_read_write_texture_around_a_barrier():
    # tests/front/test_wgsl_textures.py's BUILTINS: gather through a helper taking the
    # texture and sampler, grad, an offset, depth comparisons, queries, integer loads, a
    # read_write storage texture read and written around textureBarrier
    spec = importlib.util.spec_from_file_location("front_textures",
                                                  TESTS / "front" / "test_wgsl_textures.py")
    front = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(front)
    rng = np.random.default_rng(7)
    image = ash.Texture([np.arange(4, dtype=np.float32).reshape(1, 4, 1)], "r32float")
    out = np.zeros((32, 4), np.float32)
    twin_run(ash.load_wgsl(front.BUILTINS)["main"], 1, out=out, img=image,
             layers=ash.Texture([rng.integers(0, 256, (2, 8, 8, 4), dtype=np.uint8),
                                 rng.integers(0, 256, (2, 4, 4, 4), dtype=np.uint8)]),
             smp=ash.Sampler(mag_filter="linear", min_filter="linear",
                             mipmap_filter="linear", address_mode_u="repeat"),
             depth=ash.Texture([rng.integers(0, 65536, (4, 4, 1), dtype=np.uint16)],
                               "depth16unorm"),
             cmp=ash.Sampler(compare="less", mag_filter="linear", min_filter="linear"),
             ints=ash.Texture([rng.integers(0, 1000, (4, 4, 4)).astype(np.uint32)],
                              "rgba32uint"))
    assert image.levels[0].ravel().tolist() == [1.0, 3.0, 5.0, 7.0]  # 2x + 1
    assert out.reshape(4, 8, 4)[:, 6, 0].tolist() == [7.0, 5.0, 3.0, 1.0]  # after the barrier


def test_texture_dimensions_of_a_level_past_the_chain_in_an_inactive_lane_is_no_error():
    module = ash.load_wgsl("""\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var tex: texture_2d<f32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i < 2u) { out[i] = textureDimensions(tex, i).x; }
}
""")
    out = np.zeros(4, np.uint32)
    twin_run(module["main"], 1, out=out, tex=small())
    assert out.tolist() == [4, 2, 0, 0]
