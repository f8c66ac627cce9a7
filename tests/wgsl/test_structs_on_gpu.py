"""The same struct buffer written by a hand-written WGSL shader on WebGPU (lavapipe) and by
asyncshader, compared byte for byte: the layout (offsets, strides, padding left alone) is the
real implementation's."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import array, f32, u32, vec2f, vec3f

WGSL = """
struct Inner { a: f32, b: vec2f }
struct P {
  position: vec3f,
  mass: f32,
  @align(16) velocity: vec3f,
  history: array<vec2f, 4>,
  inner: Inner,
  @size(12) k: u32,
  m: mat3x3f,
  tail: f32,
}
@group(0) @binding(0) var<storage, read_write> p: array<P>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let fi = f32(i);
  p[i].position = vec3f(fi, fi + 0.5, -fi);
  p[i].mass = 2.0 * fi + 1.0;
  p[i].velocity.y = p[i].velocity.y + 0.25;
  p[i].history[1] = vec2f(fi, 3.0);
  p[i].history[3].x = 7.0;
  p[i].inner.b = vec2f(1.0, fi);
  p[i].k = i * 3u + 1u;
  p[i].m = mat3x3f(vec3f(1.0, 2.0, 3.0), vec3f(4.0, 5.0, fi), vec3f(7.0, 8.0, 9.0));
  p[i].tail = p[i].mass + p[i].history[2].y;
}
"""


class Mat3x3:
    """A mat3x3f-like class of the matrix protocol: (cols, rows) ndarray in and out."""

    cols, rows, scalar, column = 3, 3, f32, vec3f

    def __init__(self, a):
        self.a = np.array(a, np.float32)

    def __array__(self, dtype=None, copy=None):
        return self.a


@ash.struct
class Inner:
    a: f32
    b: vec2f


@ash.struct
class P:
    position: vec3f
    mass: f32
    velocity: ash.align(16, vec3f)
    history: array(vec2f, 4)
    inner: Inner
    k: ash.size(12, u32)
    m: Mat3x3
    tail: f32


@ash.compute(workgroup_size=4)
async def main(p, global_invocation_id):
    i = global_invocation_id.x
    fi = f32(i)
    p[i].position = vec3f(fi, fi + 0.5, -fi)
    p[i].mass = 2.0 * fi + 1.0
    p[i].velocity.y = p[i].velocity.y + 0.25
    p[i].history[1] = vec2f(fi, 3.0)
    p[i].history[3].x = 7.0
    p[i].inner.b = vec2f(1.0, fi)
    p[i].k = i * 3 + 1
    p[i].m = Mat3x3([[1, 2, 3], [4, 5, fi], [7, 8, 9]])
    p[i].tail = p[i].mass + p[i].history[2].y


def test_struct_buffer_matches_webgpu_byte_for_byte(gpu_device):
    import wgpu

    assert P.size == 160 and P.offsets["m"] == 96 and P.offsets["tail"] == 144
    n = 8
    start = P.zeros(n)
    # every word (padding included) a distinct small float: what neither side writes stays
    np.frombuffer(start, np.float32)[:] = np.arange(start.nbytes // 4, dtype=np.float32) / 8

    device = gpu_device
    buf = device.create_buffer_with_data(
        data=start.tobytes(), usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    pipeline = device.create_compute_pipeline(
        layout="auto", compute={"module": device.create_shader_module(code=WGSL),
                                "entry_point": "main"})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": buf, "offset": 0, "size": buf.size}}])
    encoder = device.create_command_encoder()
    compute = encoder.begin_compute_pass()
    compute.set_pipeline(pipeline)
    compute.set_bind_group(0, group)
    compute.dispatch_workgroups(n // 4, 1, 1)
    compute.end()
    device.queue.submit([encoder.finish()])
    gpu = np.frombuffer(device.queue.read_buffer(buf), np.uint8)

    ours = P.zeros(n)  # (a structured array's .copy() does not keep its padding bytes)
    np.frombuffer(ours, np.uint8)[:] = np.frombuffer(start, np.uint8)
    result = ash.run(main, n // 4, p=ours, sanitize="report")
    assert result.findings == []
    mine = ours.view(np.uint8).reshape(-1)
    differ = np.flatnonzero(mine != gpu)
    if differ.size:
        words = sorted({int(b) // 4 for b in differ})[:8]
        pytest.fail(f"{differ.size} bytes differ, e.g. element {words[0] * 4 // 160} byte "
                    f"{words[0] * 4 % 160}: asyncshader words "
                    f"{np.frombuffer(mine, np.float32)[words]} vs WebGPU "
                    f"{np.frombuffer(gpu, np.float32)[words]}")
    assert not np.array_equal(mine, start.view(np.uint8).reshape(-1))  # something was written
