"""WebGPU's validation on asyncshader.webgpu: the common mistakes of a host program raise what
wgpu-py on lavapipe raises for the same program (the same exception class, naming the same
wgpu-native call), each message saying which rule."""

import re

import numpy as np
import pytest

import asyncshader.webgpu as ours

SHADER = """\
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> b: array<u32>;
@group(0) @binding(2) var<uniform> u: vec4u;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) g: vec3u) { b[g.x] = a[g.x] + u.x; }
"""


def setup(wgpu, device):
    """A pipeline (layout "auto") and buffers fit for it."""
    pipeline = device.create_compute_pipeline(
        layout="auto", compute={"module": device.create_shader_module(code=SHADER),
                                "entry_point": "main"})
    a = device.create_buffer(size=64, usage="STORAGE|COPY_DST")
    b = device.create_buffer(size=64, usage="STORAGE|COPY_SRC")
    u = device.create_buffer(size=16, usage="UNIFORM|COPY_DST")
    return pipeline, a, b, u


def entry(binding, buffer, offset=0, size=None):
    resource = {"buffer": buffer, "offset": offset}
    if size is not None:
        resource["size"] = size
    return {"binding": binding, "resource": resource}


def group(device, pipeline, *entries):
    return device.create_bind_group(layout=pipeline.get_bind_group_layout(0),
                                    entries=list(entries))


def dispatch(device, pipeline, bind_group, counts=(1,)):
    encoder = device.create_command_encoder()
    compute_pass = encoder.begin_compute_pass()
    if pipeline is not None:
        compute_pass.set_pipeline(pipeline)
    if bind_group is not None:
        compute_pass.set_bind_group(0, bind_group)
    compute_pass.dispatch_workgroups(*counts)
    compute_pass.end()
    device.queue.submit([encoder.finish()])


def m_map_read_with_storage(wgpu, device):
    device.create_buffer(size=16, usage=wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.STORAGE)


def m_no_usage(wgpu, device):
    device.create_buffer(size=16, usage=0)


def m_write_without_copy_dst(wgpu, device):
    b = device.create_buffer(size=16, usage="STORAGE|COPY_SRC")
    device.queue.write_buffer(b, 0, np.zeros(4, np.uint32))


def m_write_unaligned_offset(wgpu, device):
    b = device.create_buffer(size=16, usage="STORAGE|COPY_DST")
    device.queue.write_buffer(b, 2, np.zeros(4, np.uint8))


def m_write_past_the_end(wgpu, device):
    b = device.create_buffer(size=16, usage="STORAGE|COPY_DST")
    device.queue.write_buffer(b, 8, np.zeros(4, np.uint32))


def m_read_without_copy_src(wgpu, device):
    device.queue.read_buffer(device.create_buffer(size=16, usage="STORAGE|COPY_DST"))


def m_map_without_map_read(wgpu, device):
    device.create_buffer(size=16, usage="STORAGE|COPY_SRC").map_sync(wgpu.MapMode.READ)


def m_read_mapped_unmapped(wgpu, device):
    device.create_buffer(size=16, usage="MAP_READ|COPY_DST").read_mapped()


def m_map_twice(wgpu, device):
    b = device.create_buffer(size=16, usage="MAP_READ|COPY_DST")
    b.map_sync(wgpu.MapMode.READ)
    b.map_sync(wgpu.MapMode.READ)


def m_write_mapped_for_reading(wgpu, device):
    b = device.create_buffer(size=16, usage="MAP_READ|COPY_DST")
    b.map_sync(wgpu.MapMode.READ)
    b.write_mapped(np.zeros(4, np.uint32))


def m_unmap_unmapped(wgpu, device):
    device.create_buffer(size=16, usage="MAP_READ|COPY_DST").unmap()


def m_map_unaligned_offset(wgpu, device):
    device.create_buffer(size=16, usage="MAP_READ|COPY_DST").map_sync("READ", 4, 8)


def m_write_destroyed(wgpu, device):
    b = device.create_buffer(size=16, usage="STORAGE|COPY_DST")
    b.destroy()
    device.queue.write_buffer(b, 0, np.zeros(4, np.uint32))


def m_invalid_wgsl(wgpu, device):
    device.create_shader_module(code="fn main( {")


def m_unknown_entry_point(wgpu, device):
    device.create_compute_pipeline(layout="auto", compute={
        "module": device.create_shader_module(code=SHADER), "entry_point": "mian"})


def m_pipeline_constant_the_shader_lacks(wgpu, device):
    code = ("override scale: u32 = 2u;\n@id(7) override bias: f32 = 0.0;\n"
            "@compute @workgroup_size(1) fn main() {}")
    device.create_compute_pipeline(layout="auto", compute={
        "module": device.create_shader_module(code=code), "entry_point": "main",
        "constants": {"bias": 1.0}})  # (an override with an @id is keyed by its id: "7")


def m_pipeline_constant_missing(wgpu, device):
    import wgpu_programs

    wgpu_programs.with_constants(wgpu, device, {"scale": 3})  # (bias, @id(7), has no default)


def m_workgroup_too_large(wgpu, device):
    code = "@compute @workgroup_size(2048) fn main() {}"
    device.create_compute_pipeline(layout="auto", compute={
        "module": device.create_shader_module(code=code), "entry_point": "main"})


def m_bind_group_missing_entry(wgpu, device):
    p, a, b, _u = setup(wgpu, device)
    group(device, p, entry(0, a), entry(1, b))


def m_bind_group_extra_entry(wgpu, device):
    p, a, b, u = setup(wgpu, device)
    group(device, p, entry(0, a), entry(1, b), entry(2, u), entry(3, a))


def m_uniform_buffer_as_storage(wgpu, device):
    p, _a, b, u = setup(wgpu, device)
    group(device, p, entry(0, u), entry(1, b), entry(2, u))


def m_storage_buffer_as_uniform(wgpu, device):
    p, a, b, _u = setup(wgpu, device)
    group(device, p, entry(0, a), entry(1, b), entry(2, a))


def m_unaligned_binding_offset(wgpu, device):
    p, a, b, u = setup(wgpu, device)
    group(device, p, entry(0, a, 4), entry(1, b), entry(2, u))


def m_uniform_binding_too_small(wgpu, device):
    p, a, b, u = setup(wgpu, device)
    group(device, p, entry(0, a), entry(1, b), entry(2, u, 0, 8))


def m_binding_past_the_end(wgpu, device):
    p, a, b, u = setup(wgpu, device)
    group(device, p, entry(0, a, 0, 128), entry(1, b), entry(2, u))


def m_storage_binding_not_multiple_of_4(wgpu, device):
    p, a, b, u = setup(wgpu, device)
    group(device, p, entry(0, a, 0, 6), entry(1, b), entry(2, u))


def m_dispatch_without_pipeline(wgpu, device):
    p, a, b, u = setup(wgpu, device)
    dispatch(device, None, group(device, p, entry(0, a), entry(1, b), entry(2, u)))


def m_dispatch_without_bind_group(wgpu, device):
    p = setup(wgpu, device)[0]
    dispatch(device, p, None)


def m_dispatch_too_many_workgroups(wgpu, device):
    p, a, b, u = setup(wgpu, device)
    dispatch(device, p, group(device, p, entry(0, a), entry(1, b), entry(2, u)), (70000,))


def m_dynamic_offset_for_a_static_binding(wgpu, device):
    p, a, b, u = setup(wgpu, device)
    bg = group(device, p, entry(0, a), entry(1, b), entry(2, u))
    encoder = device.create_command_encoder()
    compute_pass = encoder.begin_compute_pass()
    compute_pass.set_bind_group(0, bg, [256])
    compute_pass.end()
    encoder.finish()


def m_copy_unaligned(wgpu, device):
    b = device.create_buffer(size=64, usage="STORAGE|COPY_SRC")
    c = device.create_buffer(size=64, usage="COPY_DST|MAP_READ")
    device.create_command_encoder().copy_buffer_to_buffer(b, 2, c, 0, 8)


def m_copy_past_the_end(wgpu, device):
    b = device.create_buffer(size=64, usage="STORAGE|COPY_SRC")
    c = device.create_buffer(size=64, usage="COPY_DST|MAP_READ")
    encoder = device.create_command_encoder()
    encoder.copy_buffer_to_buffer(b, 32, c, 0, 64)
    encoder.finish()


def m_copy_within_one_buffer(wgpu, device):
    c = device.create_buffer(size=64, usage="COPY_DST|COPY_SRC")
    encoder = device.create_command_encoder()
    encoder.copy_buffer_to_buffer(c, 0, c, 8, 8)
    encoder.finish()


def m_clear_without_copy_dst(wgpu, device):
    encoder = device.create_command_encoder()
    encoder.clear_buffer(device.create_buffer(size=64, usage="STORAGE|COPY_SRC"))
    encoder.finish()


def m_copy_while_a_pass_is_open(wgpu, device):
    b = device.create_buffer(size=64, usage="STORAGE|COPY_SRC")
    c = device.create_buffer(size=64, usage="COPY_DST|MAP_READ")
    encoder = device.create_command_encoder()
    encoder.begin_compute_pass()
    encoder.copy_buffer_to_buffer(b, 0, c, 0, 8)
    encoder.finish()


def m_writable_binding_aliasing_another(wgpu, device):
    import wgpu_programs

    buffer = device.create_buffer(size=1024, usage="STORAGE|UNIFORM")
    pipeline = device.create_compute_pipeline(layout="auto", compute={
        "module": device.create_shader_module(code=wgpu_programs.SCAN), "entry_point": "main"})
    bind_group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        entry(0, buffer, 0, 4), entry(1, buffer, 256, 256), entry(2, buffer, 512, 256)])
    dispatch(device, pipeline, bind_group)


def m_dispatch_after_the_pass_ended(wgpu, device):
    encoder = device.create_command_encoder()
    compute_pass = encoder.begin_compute_pass()
    compute_pass.end()
    compute_pass.dispatch_workgroups(1)


MISTAKES = [f for name, f in sorted(globals().items()) if name.startswith("m_")]


def raised(mistake, wgpu, device):
    try:
        mistake(wgpu, device)
    except Exception as exc:
        return exc
    return None


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda f: f.__name__[2:])
def test_a_mistake_raises_what_wgpu_on_lavapipe_raises(mistake, gpu_device):
    import wgpu

    theirs = raised(mistake, wgpu, gpu_device)
    mine = raised(mistake, ours, ours.gpu.request_adapter_sync().request_device_sync())
    assert theirs is not None and mine is not None, (theirs, mine)
    assert type(mine).__name__ == type(theirs).__name__, (mine, theirs)
    if isinstance(theirs, (ValueError, RuntimeError)):  # (wgpu-py's own checks: its words)
        assert str(mine) == str(theirs)
    else:  # (wgpu-native's: the same call named, "In wgpuDeviceCreateBindGroup")
        assert re.findall(r"In (wgpu\w+)", str(mine))[:1] == \
            re.findall(r"In (wgpu\w+)", str(theirs))[:1], (mine, theirs)


def test_every_validation_error_names_the_call_and_the_rule():
    device = ours.gpu.request_adapter_sync().request_device_sync()
    with pytest.raises(ours.GPUValidationError) as info:
        m_uniform_binding_too_small(ours, device)
    assert "In wgpuDeviceCreateBindGroup" in str(info.value)
    assert "Binding size 8 of Buffer with '' label is less than minimum 16" in str(info.value)


@pytest.mark.parametrize("mistake", [
    # (wgpu-native aborts the process on these three instead of raising: checked here only)
    "submit_a_mapped_buffer", "submit_twice", "binding_of_size_zero"])
def test_mistakes_that_abort_wgpu_native_raise_validation_errors_here(mistake):
    device = ours.gpu.request_adapter_sync().request_device_sync()
    b = device.create_buffer(size=64, usage="STORAGE|COPY_SRC")
    c = device.create_buffer(size=64, usage="COPY_DST|MAP_READ")
    encoder = device.create_command_encoder()
    encoder.copy_buffer_to_buffer(b, 0, c, 0, 8)
    buffer = encoder.finish()
    with pytest.raises(ours.GPUValidationError) as info:
        if mistake == "submit_a_mapped_buffer":
            c.map_sync("READ")
            device.queue.submit([buffer])
        elif mistake == "submit_twice":
            device.queue.submit([buffer])
            device.queue.submit([buffer])
        else:
            p, a, b, u = setup(ours, device)
            group(device, p, entry(0, a, 0, 0), entry(1, b), entry(2, u))
    assert {"submit_a_mapped_buffer": "is still mapped",
            "submit_twice": "already been submitted",
            "binding_of_size_zero": "Binding with size 0"}[mistake] in str(info.value)


def test_webgpu_default_limits_apply_unless_required_limits_raise_them():
    adapter = ours.gpu.request_adapter_sync()
    device = adapter.request_device_sync()
    assert device.limits["min-storage-buffer-offset-alignment"] == 256
    assert device.limits["max-compute-invocations-per-workgroup"] == 256
    with pytest.raises(ours.GPUValidationError, match="workgroup size \\[512, 1, 1\\]"):
        device.create_compute_pipeline(layout="auto", compute={"module": (
            device.create_shader_module(code="@compute @workgroup_size(512) fn main() {}"))})
    bigger = adapter.request_device_sync(required_limits={
        "max-compute-invocations-per-workgroup": 1024, "max_compute_workgroup_size_x": 1024})
    bigger.create_compute_pipeline(layout="auto", compute={"module": (
        bigger.create_shader_module(code="@compute @workgroup_size(512) fn main() {}"))})
    with pytest.raises(ours.GPUValidationError, match="better than allowed"):
        adapter.request_device_sync(required_limits={"max-bind-groups": 64})
