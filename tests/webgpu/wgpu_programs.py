"""Host programs written against wgpu-py's API, run by the tests on both wgpu (lavapipe) and
asyncshader.webgpu: each takes the ``wgpu`` module and a device and returns what it read back."""

import numpy as np

SCAN = """\
@group(0) @binding(0) var<uniform> offset: u32;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let i = id.x;
    if (i >= arrayLength(&dst)) {
        return;
    }
    var v = src[i];
    if (i >= offset) {
        v += src[i - offset];
    }
    dst[i] = v;
}
"""


def ping_pong_scan(wgpu, device, values):
    """An inclusive prefix sum of ``values`` (u32) by Hillis and Steele: one compute pass per
    step (step k adds the element 2**k to the left), the passes reading one buffer and writing
    the other, with a copy back between passes; each step's offset in one uniform buffer,
    picked by a dynamic offset. Returns the sums (read through a mapped buffer)."""
    n = len(values)
    steps = max(1, (n - 1).bit_length())
    usage = wgpu.BufferUsage
    offsets = np.zeros(steps * 64, np.uint32)  # one offset per 256 bytes
    offsets[::64] = [1 << k for k in range(steps)]
    uniform = device.create_buffer_with_data(data=offsets, usage=usage.UNIFORM)
    a = device.create_buffer_with_data(data=np.asarray(values, np.uint32),
                                       usage=usage.STORAGE | usage.COPY_DST | usage.COPY_SRC)
    b = device.create_buffer(size=a.size, usage=usage.STORAGE | usage.COPY_SRC)
    readback = device.create_buffer(size=a.size, usage=usage.MAP_READ | usage.COPY_DST)
    layout = device.create_bind_group_layout(entries=[
        {"binding": 0, "visibility": wgpu.ShaderStage.COMPUTE,
         "buffer": {"type": wgpu.BufferBindingType.uniform, "has_dynamic_offset": True}},
        {"binding": 1, "visibility": wgpu.ShaderStage.COMPUTE,
         "buffer": {"type": wgpu.BufferBindingType.read_only_storage}},
        {"binding": 2, "visibility": wgpu.ShaderStage.COMPUTE,
         "buffer": {"type": wgpu.BufferBindingType.storage}}])
    pipeline = device.create_compute_pipeline(
        layout=device.create_pipeline_layout(bind_group_layouts=[layout]),
        compute={"module": device.create_shader_module(code=SCAN), "entry_point": "main"})
    group = device.create_bind_group(layout=layout, entries=[
        {"binding": 0, "resource": {"buffer": uniform, "offset": 0, "size": 4}},
        {"binding": 1, "resource": {"buffer": a, "offset": 0, "size": a.size}},
        {"binding": 2, "resource": {"buffer": b, "offset": 0, "size": b.size}}])
    encoder = device.create_command_encoder()
    for k in range(steps):
        compute_pass = encoder.begin_compute_pass()
        compute_pass.set_pipeline(pipeline)
        compute_pass.set_bind_group(0, group, [256 * k])
        compute_pass.dispatch_workgroups((n + 63) // 64)
        compute_pass.end()
        encoder.copy_buffer_to_buffer(b, 0, a, 0, a.size)
    encoder.copy_buffer_to_buffer(a, 0, readback, 0, a.size)
    device.queue.submit([encoder.finish()])
    readback.map_sync(wgpu.MapMode.READ)
    out = np.frombuffer(readback.read_mapped(), np.uint32).copy()
    readback.unmap()
    return out


TRANSFORM = """\
struct Params {
    scale: f32,
    offset: vec3f,
    count: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> points: array<vec3f>;
@group(1) @binding(0) var<storage, read_write> hits: array<atomic<u32>>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) id: vec3u) {
    if (id.x >= params.count) {
        return;
    }
    points[id.x] = points[id.x] * params.scale + params.offset;
    atomicAdd(&hits[id.x % 2u], 1u);
}
"""


def transform_points(wgpu, device, points, scale, offset, count):
    """Scales and moves the first ``count`` of ``points`` ((n, 3) f32) in place and counts
    even and odd indices: a struct uniform written by ``queue.write_buffer``, vec3f elements
    (16-byte stride), two bind groups, a staging buffer filled through ``map_sync``/
    ``write_mapped``, a cleared counter buffer and an indirect dispatch. Returns (points,
    hits) read back."""
    usage = wgpu.BufferUsage
    n = len(points)
    padded = np.zeros((n, 4), np.float32)
    padded[:, :3] = points
    staging = device.create_buffer(size=padded.nbytes, usage=usage.MAP_WRITE | usage.COPY_SRC,
                                   mapped_at_creation=False)
    staging.map_sync(wgpu.MapMode.WRITE)
    staging.write_mapped(padded)
    staging.unmap()
    data = device.create_buffer(size=padded.nbytes,
                                usage=usage.STORAGE | usage.COPY_DST | usage.COPY_SRC)
    params = device.create_buffer(size=32, usage=usage.UNIFORM | usage.COPY_DST)
    words = np.zeros(8, np.uint32)
    words[0] = np.float32(scale).view(np.uint32)
    words[4:7] = np.asarray(offset, np.float32).view(np.uint32)
    words[7] = count
    device.queue.write_buffer(params, 0, words)
    hits = device.create_buffer_with_data(data=np.full(2, 99, np.uint32),
                                          usage=usage.STORAGE | usage.COPY_DST | usage.COPY_SRC)
    indirect = device.create_buffer_with_data(
        data=np.array([(count + 7) // 8, 1, 1], np.uint32), usage=usage.INDIRECT)
    pipeline = device.create_compute_pipeline(layout="auto", compute={
        "module": device.create_shader_module(code=TRANSFORM), "entry_point": "main"})
    group0 = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": params, "offset": 0, "size": 32}},
        {"binding": 1, "resource": {"buffer": data, "offset": 0, "size": data.size}}])
    group1 = device.create_bind_group(layout=pipeline.get_bind_group_layout(1), entries=[
        {"binding": 0, "resource": {"buffer": hits, "offset": 0, "size": hits.size}}])
    encoder = device.create_command_encoder()
    encoder.copy_buffer_to_buffer(staging, 0, data, 0, padded.nbytes)
    encoder.clear_buffer(hits)
    compute_pass = encoder.begin_compute_pass()
    compute_pass.set_pipeline(pipeline)
    compute_pass.set_bind_group(0, group0)
    compute_pass.set_bind_group(1, group1)
    compute_pass.dispatch_workgroups_indirect(indirect, 0)
    compute_pass.end()
    device.queue.submit([encoder.finish()])
    out = np.frombuffer(device.queue.read_buffer(data), np.float32).reshape(n, 4)[:, :3]
    return out.copy(), np.frombuffer(device.queue.read_buffer(hits), np.uint32).tolist()


def read_uniform(wgpu, device, declaration, expression, data):
    """Binds ``data``'s bytes as ``var<uniform> u: <declaration>`` and returns the f32 that
    ``out[0] = <expression>;`` stores."""
    code = (f"@group(0) @binding(0) var<uniform> u: {declaration};\n"
            "@group(0) @binding(1) var<storage, read_write> out: array<f32>;\n"
            f"@compute @workgroup_size(1)\nfn main() {{ out[0] = {expression}; }}\n")
    uniform = device.create_buffer_with_data(data=data, usage=wgpu.BufferUsage.UNIFORM)
    out = device.create_buffer(size=4, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    pipeline = device.create_compute_pipeline(layout="auto", compute={
        "module": device.create_shader_module(code=code), "entry_point": "main"})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": uniform, "offset": 0, "size": uniform.size}},
        {"binding": 1, "resource": {"buffer": out, "offset": 0, "size": 4}}])
    encoder = device.create_command_encoder()
    compute_pass = encoder.begin_compute_pass()
    compute_pass.set_pipeline(pipeline)
    compute_pass.set_bind_group(0, group)
    compute_pass.dispatch_workgroups(1)
    compute_pass.end()
    device.queue.submit([encoder.finish()])
    return float(np.frombuffer(device.queue.read_buffer(out), np.float32)[0])


OVERRIDES = """\
override scale: u32 = 2u;
@id(7) override bias: f32;
override width: u32 = 4u;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(width)
fn main(@builtin(local_invocation_index) i: u32) {
    out[i] = scale * 10u + u32(bias) + i * 1000u;
}
"""


def with_constants(wgpu, device, constants):
    """One workgroup of OVERRIDES with the pipeline ``constants``; returns the 8 u32 of its
    output buffer."""
    pipeline = device.create_compute_pipeline(layout="auto", compute={
        "module": device.create_shader_module(code=OVERRIDES), "entry_point": "main",
        "constants": constants})
    out = device.create_buffer(size=32, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": out, "offset": 0, "size": 32}}])
    encoder = device.create_command_encoder()
    compute_pass = encoder.begin_compute_pass()
    compute_pass.set_pipeline(pipeline)
    compute_pass.set_bind_group(0, group)
    compute_pass.dispatch_workgroups(1)
    compute_pass.end()
    device.queue.submit([encoder.finish()])
    return np.frombuffer(device.queue.read_buffer(out), np.uint32).tolist()
