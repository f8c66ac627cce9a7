"""Entry points of a loaded WGSL module beyond compute built-ins: a fragment entry point runs with
``ash.run_fragments`` (its ``@location`` inputs per pixel, by WGSL name or ``location_N``; its
built-ins the fragment stage's; struct inputs and outputs; ``discard``); a vertex entry point is
listed and refused to run, with the reason; a compute entry point takes a struct of built-in
values. Expected values are derived by hand or with numpy,
and lavapipe renders the same module (a full-screen triangle from its own vertex entry point)
writing the same storage buffer."""

import numpy as np
import pytest

import asyncshader as ash

SHADED = """\
struct VertexOut {
    @builtin(position) pos: vec4f,
    @location(0) uv: vec2f,
}
struct Params { tint: vec4f, cut: f32, width: u32, }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> image: array<vec4f>;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> VertexOut {
    let corner = vec2f(f32((i << 1u) & 2u), f32(i & 2u));  // (0,0) (2,0) (0,2)
    return VertexOut(vec4f(corner * vec2f(2.0, -2.0) + vec2f(-1.0, 1.0), 0.0, 1.0), corner);
}

@fragment
fn fs(in: VertexOut) -> @location(0) vec4f {
    let color = vec4f(in.uv, in.pos.x / 8.0, 1.0) * params.tint;
    if (in.uv.x > params.cut) {
        discard;
    }
    image[u32(in.pos.y) * params.width + u32(in.pos.x)] = color;
    return color;
}
"""

OUTPUTS = """\
struct Out {
    @location(0) color: vec4f,
    @location(1) side: u32,
    @builtin(frag_depth) depth: f32,
}

@fragment
fn main(@location(0) v: f32, @location(2) n: vec2i, @builtin(position) p: vec4f,
        @builtin(front_facing) front: bool) -> Out {
    return Out(vec4f(v, f32(n.x + n.y), p.y, 1.0), select(7u, 1u, front), v * 0.5);
}
"""


#: the runs each test below makes: the coroutine runtime's default, and Lockstep
RUNS = pytest.mark.parametrize("how", [{}, {"schedule": ash.Lockstep(), "sanitize": "off"}],
                               ids=["InOrder", "Lockstep"])


def uv_of(width, height):
    """The full-screen triangle's uv at each pixel centre: ((x + 0.5) / w, (y + 0.5) / h)."""
    x = (np.arange(width, dtype=np.float32) + 0.5) / width
    y = (np.arange(height, dtype=np.float32) + 0.5) / height
    return np.stack(np.meshgrid(x, y), -1).astype(np.float32)


def params_bytes(width):
    # Params: tint (vec4f) at 0, cut (f32) at 16, width (u32) at 20, size 32
    return np.frombuffer(np.array([1.0, 2.0, 4.0, 1.0, 0.6], np.float32).tobytes()
                         + np.array([width, 0, 0], np.uint32).tobytes(), np.uint8).copy()


def render_lavapipe(device, wgsl, width, height, params, image):
    """Draws the module's ``vs`` + ``fs`` over the target; returns ``image`` as read back."""
    import wgpu

    usage = wgpu.BufferUsage
    module = device.create_shader_module(code=wgsl)
    pipeline = device.create_render_pipeline(
        layout="auto", vertex={"module": module, "entry_point": "vs"},
        fragment={"module": module, "entry_point": "fs",
                  "targets": [{"format": wgpu.TextureFormat.rgba8unorm}]},
        primitive={"topology": wgpu.PrimitiveTopology.triangle_list})
    ubuf = device.create_buffer_with_data(data=params.tobytes(), usage=usage.UNIFORM)
    sbuf = device.create_buffer_with_data(data=image.tobytes(),
                                          usage=usage.STORAGE | usage.COPY_SRC)
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": ubuf, "offset": 0, "size": ubuf.size}},
        {"binding": 1, "resource": {"buffer": sbuf, "offset": 0, "size": sbuf.size}}])
    target = device.create_texture(size=(width, height, 1),
                                   format=wgpu.TextureFormat.rgba8unorm,
                                   usage=wgpu.TextureUsage.RENDER_ATTACHMENT)
    encoder = device.create_command_encoder()
    rpass = encoder.begin_render_pass(color_attachments=[{
        "view": target.create_view(), "load_op": wgpu.LoadOp.clear,
        "store_op": wgpu.StoreOp.store, "clear_value": (0, 0, 0, 0)}])
    rpass.set_pipeline(pipeline)
    rpass.set_bind_group(0, group)
    rpass.draw(3)
    rpass.end()
    device.queue.submit([encoder.finish()])
    return np.frombuffer(device.queue.read_buffer(sbuf), np.float32).reshape(image.shape)


def test_a_fragment_entry_point_with_a_struct_input_and_discard_shades_as_lavapipe_does(
        gpu_device):
    width, height = 8, 4
    module = ash.load_wgsl(SHADED)
    uv = uv_of(width, height)
    image = np.full((height * width, 4), -1.0, np.float32)
    result = ash.run_fragments(module["fs"], width, height, uv=uv, params=params_bytes(width),
                               image=image)
    pos_x = np.arange(width, dtype=np.float32) + 0.5
    want = np.concatenate([uv, np.broadcast_to((pos_x / 8)[None, :, None], (height, width, 1)),
                           np.ones((height, width, 1), np.float32)], -1) * [1, 2, 4, 1]
    kept = uv[..., 0] <= np.float32(0.6)  # discard where uv.x > cut: x >= 5 of 8
    assert result.mask.tolist() == kept.tolist()
    assert np.allclose(result.output[kept], want[kept], rtol=0, atol=1e-6)
    written = image.reshape(height, width, 4)
    assert np.allclose(written[kept], want[kept], rtol=0, atol=1e-6)
    assert (written[~kept] == -1).all()  # a discarded fragment's store has no effect
    gpu = render_lavapipe(gpu_device, SHADED, width, height, params_bytes(width),
                          np.full((height * width, 4), -1.0, np.float32))
    assert np.allclose(gpu, image, rtol=0, atol=1e-5)  # (interpolated uv: a few ulps)


@RUNS
def test_inputs_by_location_builtins_and_struct_outputs(how):
    module = ash.load_wgsl(OUTPUTS)
    width, height = 2, 2
    v = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    n = np.arange(8, dtype=np.int32).reshape(2, 2, 2)
    result = ash.run_fragments(module["main"], width, height, location_0=v, n=n,
                               front_facing=False, **how)
    out = result.output
    assert sorted(out) == ["color", "depth", "side"]
    assert out["color"][..., 0].tolist() == v.tolist()
    assert out["color"][..., 1].tolist() == [[1.0, 5.0], [9.0, 13.0]]  # n.x + n.y
    assert out["color"][..., 2].tolist() == [[0.5, 0.5], [1.5, 1.5]]  # position.y
    assert out["side"].tolist() == [[7, 7], [7, 7]]  # front_facing false
    assert out["depth"].tolist() == (v * 0.5).tolist()


def test_a_missing_or_doubly_given_input_names_its_location():
    module = ash.load_wgsl(OUTPUTS)
    v = np.zeros((2, 2), np.float32)
    with pytest.raises(ash.BindingError, match=r"missing fragment input 'n' \(@location\(2\) "
                       r"vec2i\): pass n= or location_2="):
        ash.run_fragments(module["main"], 2, 2, v=v)
    with pytest.raises(ash.BindingError, match="'v' is given twice, by name and as location_0"):
        ash.run_fragments(module["main"], 2, 2, v=v, location_0=v, n=np.zeros((2, 2, 2)))


def test_a_vertex_entry_point_is_listed_and_refused_with_the_reason():
    module = ash.load_wgsl(SHADED)
    assert module.entry_points == ["vs", "fs"]
    with pytest.raises(ash.ShaderCreationError, match=r"::vs is a vertex entry point: "
                       "asyncshader has no vertex stage or rasterizer"):
        module["vs"]


def test_a_missing_entry_point_lists_the_ones_there_are():
    with pytest.raises(KeyError, match="has no entry point or declaration 'main'; its entry "
                       "points: vs, fs"):
        ash.load_wgsl(SHADED)["main"]


@RUNS
def test_helpers_reach_the_fragment_s_own_buffer_views_so_a_discarded_store_is_dropped(how):
    wgsl = """\
@group(0) @binding(0) var<uniform> k: f32;
@group(0) @binding(1) var<storage, read_write> hits: array<atomic<u32>>;
fn count(i: u32) { atomicAdd(&hits[i], 1u); }
fn scaled(x: f32) -> f32 { count(u32(x)); return x * k; }
fn plus_one(x: f32) -> f32 { return x + 1.0; }
@fragment
fn fs(@location(0) x: f32) -> @location(0) f32 {
    if (x > 2.5) { discard; }
    return plus_one(scaled(x));
}
@compute @workgroup_size(1)
fn other() { count(0u); }
"""
    module = ash.load_wgsl(wgsl)
    x = np.array([[0, 1, 2, 3]] * 2, np.float32)
    hits = np.zeros(4, np.uint32)
    result = ash.run_fragments(module["fs"], 4, 2, x=x, k=np.float32([3.0]), hits=hits, **how)
    assert result.output[:, :3].tolist() == [[1.0, 4.0, 7.0]] * 2  # x * 3 + 1
    assert hits.tolist() == [2, 2, 2, 0]  # the discarded column's atomics had no effect
    ash.run(module["other"], 1, hits=hits)  # (the compute entry point calls the plain count)
    assert hits.tolist() == [3, 2, 2, 0]


def test_a_compute_entry_point_takes_a_struct_of_built_in_values():
    wgsl = """\
struct Ids { @builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u, }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(ids: Ids, @builtin(num_workgroups) n: vec3u) {
    out[ids.wg.x * 4u + ids.li] = ids.li * 10u + ids.wg.x + n.x * 100u;
}
"""
    out = np.zeros(8, np.uint32)
    ash.run(ash.load_wgsl(wgsl)["main"], 2, out=out)
    assert out.tolist() == [200 + 10 * i + w for w in (0, 1) for i in range(4)]


@RUNS
def test_derivatives_in_a_loaded_fragment_entry_point_are_taken_over_its_quads(how):
    wgsl = """\
@fragment
fn fs(@location(0) uv: vec2f) -> @location(0) vec2f {
    return vec2f(dpdx(uv.x * uv.x), fwidth(uv.y));
}
"""
    x, y = np.meshgrid(np.arange(4, dtype=np.float32), np.arange(2, dtype=np.float32) * 3)
    result = ash.run_fragments(ash.load_wgsl(wgsl)["fs"], 4, 2, uv=np.stack([x, y], -1), **how)
    # coarse dpdx over quads {0, 1} and {2, 3}: 1 - 0 and 9 - 4; fwidth(uv.y) = 0 + 3
    assert result.output[..., 0].tolist() == [[1, 1, 5, 5]] * 2
    assert result.output[..., 1].tolist() == [[3, 3, 3, 3]] * 2


@RUNS
def test_a_fragment_s_private_variables_are_its_own_and_reach_its_helpers(how):
    wgsl = """\
var<private> total: f32 = 1.0;
@group(0) @binding(0) var<uniform> k: f32;
fn add(x: f32) { total += x * k; }
@fragment
fn fs(@location(0) x: f32) -> @location(0) f32 {
    add(x);
    add(x);
    return total;
}
"""
    x = np.array([[1, 2], [3, 4]], np.float32)
    result = ash.run_fragments(ash.load_wgsl(wgsl)["fs"], 2, 2, x=x, k=np.float32([0.5]),
                               **how)
    assert result.output.tolist() == (1 + x).tolist()  # 1 + 2 * x * 0.5, per fragment
