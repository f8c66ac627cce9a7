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
