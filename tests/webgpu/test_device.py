"""asyncshader.webgpu's API as wgpu-py's: adapters, devices, buffers and their mapping, queue
writes and reads, copies, clears, struct uniforms, vec3 arrays, several bind groups, indirect
dispatches, compute_with_buffers, and the refusals (render pipelines, WGSL it cannot run)."""

import anyio
import numpy as np
import pytest
import wgpu_programs

import asyncshader.webgpu as wgpu


@pytest.fixture
def device():
    return wgpu.gpu.request_adapter_sync().request_device_sync()


def test_struct_uniforms_vec3_arrays_bind_groups_and_indirect_dispatch_agree_with_lavapipe(
        device, gpu_device):
    import wgpu as real

    points = np.arange(30, dtype=np.float32).reshape(10, 3) - 7.5
    mine = wgpu_programs.transform_points(wgpu, device, points, 2.0, (1, -1, 0.5), 9)
    theirs = wgpu_programs.transform_points(real, gpu_device, points, 2.0, (1, -1, 0.5), 9)
    want = points.copy()
    want[:9] = points[:9] * 2.0 + np.array([1, -1, 0.5], np.float32)
    assert mine[0].tolist() == want.tolist() == theirs[0].tolist()
    assert mine[1] == [5, 4] == theirs[1]  # (indices 0..8: five even, four odd; cleared first)


@pytest.mark.parametrize(("declaration", "expression", "data", "want"), [
    ("i32", "f32(u)", np.array([-7, 0, 0, 0], np.int32), -7.0),
    ("vec2f", "u.y * 2.0", np.array([5, 6, 0, 0], np.float32), 12.0),
    ("array<vec4f, 2>", "u[1].y", np.arange(8, dtype=np.float32), 5.0),
    ("array<vec4u, 2>", "f32(u[1].w + u[0].x)", np.arange(8, dtype=np.uint32) + 3, 13.0),
], ids=["i32", "vec2f", "array-vec4f", "array-vec4u"])
def test_uniforms_of_each_shape_read_their_bytes_as_lavapipe_does(declaration, expression,
                                                                   data, want, gpu_device):
    import wgpu as real

    mine = wgpu_programs.read_uniform(wgpu, wgpu.gpu.request_adapter_sync().request_device_sync(),
                                      declaration, expression, data)
    assert mine == want == wgpu_programs.read_uniform(real, gpu_device, declaration, expression,
                                                      data)


@pytest.mark.parametrize("constants", [{"7": 2.0}, {"scale": 3, "7": 5.0, "width": 2}],
                         ids=["defaults", "all-given"])
def test_pipeline_constants_set_overrides_as_on_lavapipe(constants, gpu_device):
    import wgpu as real

    mine = wgpu_programs.with_constants(wgpu, wgpu.gpu.request_adapter_sync()
                                        .request_device_sync(), constants)
    scale, bias, width = (constants.get("scale", 2), int(constants["7"]),
                          constants.get("width", 4))
    assert mine == [scale * 10 + bias + i * 1000 if i < width else 0 for i in range(8)]
    assert mine == wgpu_programs.with_constants(real, gpu_device, constants)


def test_adapter_and_device_describe_themselves_as_wgpu_py_does(device):
    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    assert adapter.info["adapter_type"] == "CPU" and adapter.info.vendor == "asyncshader"
    assert "asyncshader" in adapter.summary
    assert {"subgroups", "shader-f16"} <= adapter.features
    assert device.features == set()
    assert wgpu.gpu.request_adapter_sync().request_device_sync(
        required_features=["subgroups"]).features == {"subgroups"}
    assert wgpu.gpu.request_adapter_sync().request_device_sync(  # (wgpu-native's name)
        required_features=["subgroup"]).features == {"subgroups"}
    assert device.limits["max-storage-buffer-binding-size"] == 128 * 1024 * 1024
    assert device.queue.label == "" and device.adapter_info["vendor"] == "asyncshader"


def test_flags_take_ints_or_strings_and_enums_list_their_values():
    assert wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC == 132
    assert wgpu.enums.flag_value(wgpu.BufferUsage, "storage | COPY_SRC") == 132
    assert list(wgpu.BufferBindingType) == ["uniform", "storage", "read-only-storage"]
    assert wgpu.MapMode.READ == 1 and wgpu.BufferMapState.mapped == "mapped"
    with pytest.raises(ValueError, match="Invalid flag value for BufferUsage: 'STORGE'"):
        wgpu.enums.flag_value(wgpu.BufferUsage, "STORGE")


def test_buffers_map_write_read_and_copy_bytes(device):
    b = device.create_buffer_with_data(data=b"\x01\x02\x03", usage="COPY_SRC")
    assert b.size == 4 and b.usage == wgpu.BufferUsage.COPY_SRC
    assert bytes(device.queue.read_buffer(b)) == b"\x01\x02\x03\x00"
    m = device.create_buffer(size=16, usage="MAP_READ|COPY_DST", mapped_at_creation=True)
    assert m.map_state == "mapped"
    m.unmap()
    dst = device.create_buffer(size=16, usage="COPY_DST|COPY_SRC")
    device.queue.write_buffer(dst, 4, np.arange(4, dtype=np.uint32), 4, 8)  # words 1 and 2
    encoder = device.create_command_encoder()
    encoder.copy_buffer_to_buffer(dst, 0, m, 0, 16)
    device.queue.submit([encoder.finish()])
    m.map_sync(wgpu.MapMode.READ, 8, 8)
    assert np.frombuffer(m.read_mapped(), np.uint32).tolist() == [2, 0]
    with pytest.raises(ValueError, match="not contained in the currently mapped range"):
        m.read_mapped(0, 8)
    m.unmap()
    assert np.frombuffer(device.queue.read_buffer(dst), np.uint32).tolist() == [0, 1, 2, 0]


def test_the_async_forms_complete(device):
    async def main():
        adapter = await wgpu.gpu.request_adapter_async()
        dev = await adapter.request_device_async()
        b = dev.create_buffer(size=8, usage="MAP_WRITE|COPY_SRC")
        await b.map_async(wgpu.MapMode.WRITE)
        b.write_mapped(np.array([7, 9], np.uint32))
        b.unmap()
        await dev.queue.on_submitted_work_done_async()
        return np.frombuffer(dev.queue.read_buffer(b), np.uint32).tolist()

    assert anyio.run(main) == [7, 9]


def test_async_methods_return_settled_promises_as_wgpu_py_does(device):
    promise = wgpu.gpu.request_adapter_async()
    assert isinstance(promise, wgpu.GPUPromise) and "fulfilled" in repr(promise)
    adapter = promise.sync_wait()
    assert adapter.request_device_async().then(lambda d: d.limits["max-bind-groups"]
                                               ).sync_wait() == 4
    b = device.create_buffer(size=8, usage="MAP_READ|COPY_DST")
    b.map_async("READ").sync_wait()
    again = b.map_async("READ")  # (mapped already: the promise is rejected, not the call)
    with pytest.raises(RuntimeError, match="currently unmapped, not 'mapped'"):
        again.sync_wait()
    seen = []
    again.then(seen.append, seen.append)
    assert [type(e).__name__ for e in seen] == ["RuntimeError"]
    assert again.catch(lambda e: "handled").sync_wait() == "handled"
    with pytest.raises(ValueError, match="multiple of 8"):  # (argument checks still raise)
        b.map_async("READ", 4, 4)


def test_compute_with_buffers_runs_the_shader_on_asyncshader():
    shader = """\
@group(0) @binding(0) var<storage, read> x: array<i32>;
@group(0) @binding(1) var<storage, read_write> y: array<i32>;
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3u) { y[id.x] = x[id.x] * x[id.x] - 3; }
"""
    x = np.arange(-3, 5, dtype=np.int32)
    out = wgpu.utils.compute_with_buffers({0: x}, {1: (8, "i")}, shader)
    assert out[1].tolist() == (x * x - 3).tolist()


def test_an_explicit_layout_that_misses_a_shader_binding_is_refused_at_the_pipeline(device):
    module = device.create_shader_module(code=wgpu_programs.SCAN)

    def pipeline(binding_type):
        layout = device.create_bind_group_layout(entries=[
            {"binding": 0, "visibility": wgpu.ShaderStage.COMPUTE,
             "buffer": {"type": binding_type}}])
        device.create_compute_pipeline(
            layout=device.create_pipeline_layout(bind_group_layouts=[layout]),
            compute={"module": module, "entry_point": "main"})

    with pytest.raises(wgpu.GPUValidationError, match=r"group: 0, binding: 1 \}.*\(src\)"):
        pipeline(wgpu.BufferBindingType.uniform)
    with pytest.raises(wgpu.GPUValidationError, match=r"\(offset\) is a uniform buffer but "
                       "the layout declares read-only-storage"):
        pipeline(wgpu.BufferBindingType.read_only_storage)


def test_render_pipelines_and_copies_of_packed_texels_are_refused_with_the_reason(device):
    with pytest.raises(NotImplementedError, match="compute only.*rasterization"):
        device.create_render_pipeline(layout="auto", vertex={})
    packed = device.create_texture(size=(4, 4, 1), format="rgb10a2unorm",
                                   usage=wgpu.TextureUsage.COPY_DST)
    with pytest.raises(NotImplementedError, match="rgb10a2unorm.*packed format"):
        device.queue.write_texture({"texture": packed}, bytes(64), {"bytes_per_row": 16},
                                   (4, 4, 1))


def test_wgsl_errors_carry_the_diagnostic(device):
    with pytest.raises(wgpu.GPUValidationError) as info:
        device.create_shader_module(code="@compute @workgroup_size(1)\nfn main() { let x = ; }")
    assert "wgsl:2:" in str(info.value) and "^" in str(info.value)


def test_valid_wgsl_that_load_wgsl_cannot_run_yet_is_an_internal_error_saying_so(device):
    code = """\
struct P { x: f32, y: f32 }
@group(0) @binding(0) var<storage, read_write> out: array<array<P, 2>>;
@compute @workgroup_size(1)
fn main() { out[0][1].x += 1.0; }
"""
    with pytest.raises(wgpu.GPUInternalError, match="not supported yet by load_wgsl"):
        device.create_shader_module(code=code)


F16 = """\
enable f16;
@group(0) @binding(0) var<storage, read_write> halves: array<f16>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) { halves[i] = halves[i] * 1.5h + f16(i); }
"""

SUBGROUPS = """\
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_size) size: u32) {
    out[i] = subgroupAdd(1u) * 100u + size;
}
"""


def run_one(device, code, buffer_size, data=None):
    """One dispatch of ``code`` with its binding 0 holding ``data`` (or zeros)."""
    usage = "STORAGE|COPY_SRC"
    buffer = (device.create_buffer_with_data(data=data, usage=usage) if data is not None
              else device.create_buffer(size=buffer_size, usage=usage))
    pipeline = device.create_compute_pipeline(layout="auto", compute={
        "module": device.create_shader_module(code=code)})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": buffer}}])
    encoder = device.create_command_encoder()
    compute_pass = encoder.begin_compute_pass()
    compute_pass.set_pipeline(pipeline)
    compute_pass.set_bind_group(0, group)
    compute_pass.dispatch_workgroups(1)
    compute_pass.end()
    device.queue.submit([encoder.finish()])
    return device.queue.read_buffer(buffer)


def test_enabled_extensions_need_their_device_features(device):
    with pytest.raises(wgpu.GPUValidationError, match=r"feature\(s\) \['shader-f16'\]"):
        device.create_shader_module(code=F16)
    f16_device = wgpu.gpu.request_adapter_sync().request_device_sync(
        required_features=["shader-f16"])
    halves = np.array([2, -4, 0.5, 8], np.float16)
    got = np.frombuffer(run_one(f16_device, F16, 8, halves), np.float16)
    assert got.tolist() == (halves * np.float16(1.5) + np.arange(4, dtype=np.float16)).tolist()


@pytest.mark.parametrize("size", [4, 16])
def test_the_subgroup_size_is_a_device_option(size):
    device = wgpu.gpu.request_adapter_sync().request_device_sync(
        required_features=["subgroups"], subgroup_size=size)
    got = np.frombuffer(run_one(device, SUBGROUPS, 64), np.uint32)
    assert got.tolist() == [size * 100 + size] * 16  # each subgroup adds its members' 1s
