"""A wgpu-py program run on the CPU: swap ``import wgpu`` for ``import asyncshader.webgpu as
wgpu`` and the same host code runs deterministically, with the race detector on every dispatch.

The program reverses each block of 16 values through workgroup memory: every invocation stores
its value into a tile, then reads its mirror's. The first version forgets the barrier between
the store and the load: on a GPU it often gives the right answer and sometimes not; here the
device names the race, the dispatch and the WGSL lines.

    python examples/webgpu_reverse.py
"""

import numpy as np

import asyncshader.webgpu as wgpu  # the only line that differs from a wgpu-py program

SHADER = """\
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> reversed: array<u32>;
var<workgroup> tile: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) id: vec3u,
        @builtin(local_invocation_index) i: u32) {
    tile[i] = values[id.x];
    BARRIER
    reversed[id.x] = tile[15u - i];
}
"""


def reverse_blocks(device, values, barrier):
    """The host program: buffers, an automatic layout, one dispatch, a read back."""
    code = SHADER.replace("BARRIER", "workgroupBarrier();" if barrier else "// (no barrier)")
    data = device.create_buffer_with_data(data=values, usage=wgpu.BufferUsage.STORAGE)
    out = device.create_buffer(size=data.size,
                               usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    pipeline = device.create_compute_pipeline(
        layout="auto", compute={"module": device.create_shader_module(label="reverse.wgsl",
                                                                    code=code),
                                "entry_point": "main"})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": data, "offset": 0, "size": data.size}},
        {"binding": 1, "resource": {"buffer": out, "offset": 0, "size": out.size}}])
    encoder = device.create_command_encoder()
    compute_pass = encoder.begin_compute_pass(label="reverse")
    compute_pass.set_pipeline(pipeline)
    compute_pass.set_bind_group(0, group)
    compute_pass.dispatch_workgroups(len(values) // 16)
    compute_pass.end()
    device.queue.submit([encoder.finish()])
    return np.frombuffer(device.queue.read_buffer(out), np.uint32)


def main():
    values = np.arange(64, dtype=np.uint32) * 3
    want = values.reshape(-1, 16)[:, ::-1].ravel()
    device = wgpu.gpu.request_adapter_sync().request_device_sync(sanitize="report")

    got = reverse_blocks(device, values, barrier=False)
    print(f"without the barrier: same values as numpy: {'yes' if (got == want).all() else 'no'}"
          " (in this schedule)")
    findings = device.asyncshader.findings
    print(f"the device found {len(findings)} race(s); the first:")
    print(str(findings[0]).split("\n  Hint")[0])

    device.asyncshader.clear()
    got = reverse_blocks(device, values, barrier=True)
    print(f"with the barrier: same values as numpy: {'yes' if (got == want).all() else 'NO'}, "
          f"{len(device.asyncshader.findings)} finding(s)")
    return got, want


if __name__ == "__main__":
    main()
