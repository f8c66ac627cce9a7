"""What asyncshader.webgpu gives that a GPU cannot: each dispatch's options (schedule,
sanitizer, subgroup size, watchdog, strict), its findings named by dispatch and WGSL line, its
trace, and a replay of a whole submit."""

import numpy as np
import pytest

import asyncshader as ash
import asyncshader.webgpu as wgpu

RACY = """\
@group(0) @binding(0) var<storage, read_write> counter: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    tile[i] = i + 1u;
    out[i] = tile[(i + 1u) % 4u];
    counter[0] = counter[0] + 1u;
}
"""


def run_racy(device, label=""):
    """One dispatch of RACY; returns what ``out`` holds afterwards."""
    counter = device.create_buffer(size=4, usage=wgpu.BufferUsage.STORAGE)
    out = device.create_buffer(size=16, usage="STORAGE|COPY_SRC")
    pipeline = device.create_compute_pipeline(
        label=label, layout="auto",
        compute={"module": device.create_shader_module(label="racy.wgsl", code=RACY),
                 "entry_point": "main"})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": counter}},
        {"binding": 1, "resource": {"buffer": out}}])
    encoder = device.create_command_encoder()
    compute_pass = encoder.begin_compute_pass(label="racy pass")
    compute_pass.set_pipeline(pipeline)
    compute_pass.set_bind_group(0, group)
    compute_pass.dispatch_workgroups(1)
    compute_pass.end()
    device.queue.submit([encoder.finish()])
    return np.frombuffer(device.queue.read_buffer(out), np.uint32).tolist()


def new_device(**options):
    return wgpu.gpu.request_adapter_sync().request_device_sync(**options)


@pytest.mark.parametrize("schedule", [None, ash.Lockstep()], ids=["InOrder", "Lockstep"])
def test_findings_name_the_dispatch_and_the_wgsl_lines(schedule):
    device = new_device(sanitize="report", **({} if schedule is None else
                                               {"schedule": schedule}))
    run_racy(device, label="racy")
    findings = device.asyncshader.findings
    text = "\n".join(map(str, findings))
    assert findings and all(f.dispatch.startswith("submit 1, dispatch 0 of pass 0 'racy pass': "
                                                  "entry point 'main'") for f in findings)
    assert "(pipeline 'racy')" in findings[0].dispatch
    assert "workgroups (1, 1, 1)" in findings[0].dispatch
    # the missing barrier between line 6's store and line 7's load; line 8's counter
    # (the shader module's label names the WGSL file)
    assert "racy.wgsl:6: tile[i] = i + 1u;" in text and "racy.wgsl:7: out[i] = tile" in text
    assert "racy.wgsl:8: counter[0] = counter[0] + 1u;" in text
    assert "entry point 'main' of racy.wgsl" in findings[0].dispatch
    assert {type(f.finding).__name__ for f in findings} == {"DataRace"}


def test_a_clean_shader_has_no_findings():
    device = new_device(sanitize="report")
    run_racy_free = RACY.replace("    out[i] = tile", "    workgroupBarrier();\n    out[i] = tile")
    module = device.create_shader_module(code=run_racy_free.replace(
        "    counter[0] = counter[0] + 1u;\n", ""))
    out = device.create_buffer(size=16, usage="STORAGE|COPY_SRC")
    pipeline = device.create_compute_pipeline(layout="auto", compute={"module": module})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 1, "resource": {"buffer": out}}])
    encoder = device.create_command_encoder()
    p = encoder.begin_compute_pass()
    p.set_pipeline(pipeline)
    p.set_bind_group(0, group)
    p.dispatch_workgroups(1)
    p.end()
    device.queue.submit([encoder.finish()])
    assert np.frombuffer(device.queue.read_buffer(out), np.uint32).tolist() == [2, 3, 4, 1]
    assert device.asyncshader.findings == [] and len(device.asyncshader.dispatches) == 1


def test_strict_raises_at_the_submit_naming_the_dispatch():
    device = new_device(strict=True)
    with pytest.raises(ash.DataRaceError) as info:
        run_racy(device)
    assert "submit 1, dispatch 0 of pass 0 'racy pass'" in "\n".join(info.value.__notes__)
    assert ".wgsl:8" in str(info.value)


def test_the_options_context_manager_changes_the_block_only():
    device = new_device()
    with device.options(strict=True), pytest.raises(ash.DataRaceError):
        run_racy(device)
    assert device.asyncshader.strict is False
    with pytest.raises(TypeError, match="the options are schedule"):
        with device.options(speed=2):
            pass


def test_schedules_change_what_a_racy_program_reads_and_traces_replay_it():
    outs = {}
    for seed in range(8):
        device = new_device(schedule=ash.Random(seed), sanitize="off")
        outs[seed] = (run_racy(device), device.asyncshader.traces())
    assert len({tuple(o) for o, _ in outs.values()}) > 1  # the race shows
    for out, traces in outs.values():
        again = new_device(schedule=traces, sanitize="off")
        assert run_racy(again) == out
    in_order = new_device(sanitize="off")
    assert run_racy(in_order) == run_racy(new_device(sanitize="off"))  # deterministic


def test_replaying_more_dispatches_than_traces_is_an_error_saying_so():
    device = new_device(schedule=[], sanitize="off")
    with pytest.raises(ash.AsyncShaderError, match="every trace given has been replayed"):
        run_racy(device)


def test_a_shader_error_names_the_dispatch():
    device = new_device()
    code = """\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main() { loop { out[0] += 1u; } }
"""
    module = device.create_shader_module(code=code)
    out = device.create_buffer(size=4, usage="STORAGE")
    pipeline = device.create_compute_pipeline(layout="auto", compute={"module": module})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": out}}])
    encoder = device.create_command_encoder()
    p = encoder.begin_compute_pass()
    p.set_pipeline(pipeline)
    p.set_bind_group(0, group)
    p.dispatch_workgroups(1)
    p.end()
    with device.options(watchdog=0.2), pytest.raises(ash.AsyncShaderError) as info:
        device.queue.submit([encoder.finish()])
    assert "submit 1, dispatch 0 of pass 0" in "\n".join(info.value.__notes__)


def test_two_texts_under_one_label_report_under_two_names():
    device = new_device()
    first = device.create_shader_module(label="same", code=RACY)
    second = device.create_shader_module(label="same", code=RACY.replace("1u;\n}", "2u;\n}"))
    assert first._module.name == "same.wgsl"
    assert second._module.name.startswith("same ") and second._module.name.endswith(".wgsl")
    assert device.create_shader_module(label="same", code=RACY)._module is first._module


def test_a_failing_submit_keeps_its_trace_and_a_new_device_replays_the_failure():
    device = new_device(strict=True, schedule=ash.Random(3))
    with pytest.raises(ash.DataRaceError) as first:
        run_racy(device)
    record = device.asyncshader.dispatches[-1]
    assert record.result is None and record.error is first.value and record.findings
    again = new_device(strict=True, schedule=device.asyncshader.traces())
    with pytest.raises(ash.DataRaceError) as replayed:
        run_racy(again)
    assert str(replayed.value) == str(first.value)


def test_an_out_of_bounds_store_is_a_finding_at_its_line_and_leaves_the_buffer_alone():
    code = """\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    out[i + 2u] = 7u;
}
"""
    device = new_device(sanitize="report")
    buffer = device.create_buffer(size=256, usage="STORAGE|COPY_SRC")
    pipeline = device.create_compute_pipeline(layout="auto", compute={
        "module": device.create_shader_module(label="oob", code=code)})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": buffer, "offset": 0, "size": 16}}])
    encoder = device.create_command_encoder()
    compute_pass = encoder.begin_compute_pass()
    compute_pass.set_pipeline(pipeline)
    compute_pass.set_bind_group(0, group)
    compute_pass.dispatch_workgroups(1)
    compute_pass.end()
    device.queue.submit([encoder.finish()])
    # the binding is 4 u32: invocations 2 and 3 store past it, and WGSL's robust access keeps
    # the bytes after the binding (the rest of the buffer) untouched
    words = np.frombuffer(device.queue.read_buffer(buffer), np.uint32)
    assert words[:4].tolist() == [0, 0, 7, 7] and not words[4:].any()
    found = [(f.finding.memory, f.finding.access.kind, f.finding.access.where, f.finding.count)
             for f in device.asyncshader.findings]
    assert found == [("out", "store", "oob.wgsl:4", 2)]
    assert "Out-of-bounds store of out[4] (length 4)" in str(device.asyncshader.findings[0])


def test_dispatches_are_named_by_submit_and_command_buffer():
    device = new_device(sanitize="off")
    pipeline = device.create_compute_pipeline(layout="auto", compute={
        "module": device.create_shader_module(code=RACY)})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": device.create_buffer(size=4, usage="STORAGE")}},
        {"binding": 1, "resource": {"buffer": device.create_buffer(size=16, usage="STORAGE")}}])

    def command_buffer(dispatches):
        encoder = device.create_command_encoder()
        compute_pass = encoder.begin_compute_pass()
        compute_pass.set_pipeline(pipeline)
        compute_pass.set_bind_group(0, group)
        for _ in range(dispatches):
            compute_pass.dispatch_workgroups(1)
        compute_pass.end()
        return encoder.finish()

    device.queue.submit([command_buffer(1)])
    device.queue.submit([command_buffer(1), command_buffer(2)])
    assert [d.name.split(": ")[0] for d in device.asyncshader.dispatches] == [
        "submit 1, dispatch 0 of pass 0", "submit 2, command buffer 0, dispatch 0 of pass 0",
        "submit 2, command buffer 1, dispatch 0 of pass 0",
        "submit 2, command buffer 1, dispatch 1 of pass 0"]
