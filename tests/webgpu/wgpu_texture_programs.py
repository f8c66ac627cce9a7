"""Host programs with textures, written against wgpu-py's API, run by the tests on both wgpu
(lavapipe) and asyncshader.webgpu: each takes the ``wgpu`` module and a device and returns
what it read back."""

import numpy as np

LOAD_STORE = """\
@group(0) @binding(0) var src: texture_2d<u32>;
@group(0) @binding(1) var dst: texture_storage_2d<r32uint, write>;

@compute @workgroup_size(4, 4)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(src);
    if (id.x >= size.x || id.y >= size.y) {
        return;
    }
    let t = textureLoad(src, vec2i(id.xy), 0);
    textureStore(dst, vec2i(id.xy), vec4u(t.r + 2u * t.g + 3u * t.b + 5u * t.a + id.x));
}
"""


def load_store(wgpu, device, texels):
    """Uploads ``texels`` ((height, width, 4) uint8) to an rgba8uint texture with
    ``queue.write_texture`` (unaligned rows), runs LOAD_STORE into an r32uint storage texture,
    and reads it back twice: through ``copy_texture_to_buffer`` (rows padded to 256 bytes)
    and through ``queue.read_texture``. Returns both as (height, width) uint32 arrays."""
    h, w, _ = texels.shape
    tu = wgpu.TextureUsage
    src = device.create_texture(size=(w, h, 1), format="rgba8uint",
                                usage=tu.TEXTURE_BINDING | tu.COPY_DST)
    device.queue.write_texture({"texture": src, "mip_level": 0, "origin": (0, 0, 0)},
                               texels.tobytes(), {"offset": 0, "bytes_per_row": w * 4,
                                                  "rows_per_image": h}, (w, h, 1))
    dst = device.create_texture(size=(w, h, 1), format="r32uint",
                                usage=tu.STORAGE_BINDING | tu.COPY_SRC)
    pipeline = device.create_compute_pipeline(
        layout="auto", compute={"module": device.create_shader_module(code=LOAD_STORE),
                                "entry_point": "main"})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": src.create_view()},
        {"binding": 1, "resource": dst.create_view()}])
    out = device.create_buffer(size=256 * h, usage=wgpu.BufferUsage.COPY_DST
                               | wgpu.BufferUsage.MAP_READ)
    encoder = device.create_command_encoder()
    compute_pass = encoder.begin_compute_pass()
    compute_pass.set_pipeline(pipeline)
    compute_pass.set_bind_group(0, group)
    compute_pass.dispatch_workgroups((w + 3) // 4, (h + 3) // 4)
    compute_pass.end()
    encoder.copy_texture_to_buffer({"texture": dst, "mip_level": 0, "origin": (0, 0, 0)},
                                   {"buffer": out, "offset": 0, "bytes_per_row": 256,
                                    "rows_per_image": h}, (w, h, 1))
    device.queue.submit([encoder.finish()])
    out.map_sync(wgpu.MapMode.READ)
    copied = np.frombuffer(out.read_mapped(), np.uint32).reshape(h, 64)[:, :w].copy()
    out.unmap()
    read = np.frombuffer(device.queue.read_texture(
        {"texture": dst, "mip_level": 0, "origin": (0, 0, 0)},
        {"offset": 0, "bytes_per_row": w * 4}, (w, h, 1)), np.uint32).reshape(h, w)
    return copied, read


SAMPLE_LEVEL = """\
@group(0) @binding(0) var image: texture_2d<f32>;
@group(0) @binding(1) var linear_sampler: sampler;
@group(0) @binding(2) var<storage, read> coords: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> out: array<vec4f>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) id: vec3u) {
    if (id.x < arrayLength(&out)) {
        out[id.x] = textureSampleLevel(image, linear_sampler, coords[id.x], 0.0);
    }
}
"""


def sample_level(wgpu, device, texels, coords):
    """Uploads ``texels`` ((height, width, 4) uint8) to an rgba8unorm texture through a
    buffer and ``copy_buffer_to_texture`` (rows padded to 256 bytes), and samples it at
    ``coords`` ((n, 2) float32) with a linear, repeating sampler at level 0. Returns the
    (n, 4) float32 samples."""
    h, w, _ = texels.shape
    padded = np.zeros((h, 256), np.uint8)
    padded[:, :w * 4] = texels.reshape(h, w * 4)
    staging = device.create_buffer_with_data(data=padded, usage=wgpu.BufferUsage.COPY_SRC)
    image = device.create_texture(size=(w, h, 1), format="rgba8unorm",
                                  usage=wgpu.TextureUsage.TEXTURE_BINDING
                                  | wgpu.TextureUsage.COPY_DST)
    sampler = device.create_sampler(mag_filter="linear", min_filter="linear",
                                    address_mode_u="repeat", address_mode_v="repeat")
    coords_buf = device.create_buffer_with_data(data=coords, usage=wgpu.BufferUsage.STORAGE)
    out = device.create_buffer(size=16 * len(coords), usage=wgpu.BufferUsage.STORAGE
                               | wgpu.BufferUsage.COPY_SRC)
    pipeline = device.create_compute_pipeline(
        layout="auto", compute={"module": device.create_shader_module(code=SAMPLE_LEVEL),
                                "entry_point": "main"})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": image.create_view()},
        {"binding": 1, "resource": sampler},
        {"binding": 2, "resource": {"buffer": coords_buf, "offset": 0,
                                    "size": coords_buf.size}},
        {"binding": 3, "resource": {"buffer": out, "offset": 0, "size": out.size}}])
    encoder = device.create_command_encoder()
    encoder.copy_buffer_to_texture({"buffer": staging, "offset": 0, "bytes_per_row": 256,
                                    "rows_per_image": h},
                                   {"texture": image, "mip_level": 0, "origin": (0, 0, 0)},
                                   (w, h, 1))
    compute_pass = encoder.begin_compute_pass()
    compute_pass.set_pipeline(pipeline)
    compute_pass.set_bind_group(0, group)
    compute_pass.dispatch_workgroups((len(coords) + 7) // 8)
    compute_pass.end()
    device.queue.submit([encoder.finish()])
    return np.frombuffer(device.queue.read_buffer(out), np.float32).reshape(-1, 4)


def layered_round_trip(wgpu, device):
    """Writes mip level 1 (2x2, two layers) of a 4x4x2 r32uint texture from data whose images
    are 3 rows apart, copies layer 1 of it back out at origin (1, 0, 1) to a buffer offset by
    256 with images 3 rows apart, and returns the whole buffer."""
    tu = wgpu.TextureUsage
    tex = device.create_texture(size=(4, 4, 2), format="r32uint", mip_level_count=3,
                                usage=tu.COPY_DST | tu.COPY_SRC)
    data = np.arange(2 * 3 * 2, dtype=np.uint32) + 100  # (images, rows_per_image, width)
    device.queue.write_texture({"texture": tex, "mip_level": 1, "origin": (0, 0, 0)}, data,
                               {"offset": 0, "bytes_per_row": 8, "rows_per_image": 3},
                               (2, 2, 2))
    out = device.create_buffer(size=256 * 8, usage=wgpu.BufferUsage.COPY_DST
                               | wgpu.BufferUsage.COPY_SRC)
    encoder = device.create_command_encoder()
    encoder.copy_texture_to_buffer({"texture": tex, "mip_level": 1, "origin": (1, 0, 1)},
                                   {"buffer": out, "offset": 256, "bytes_per_row": 256,
                                    "rows_per_image": 3}, (1, 2, 1))
    device.queue.submit([encoder.finish()])
    return np.frombuffer(device.queue.read_buffer(out), np.uint32)
