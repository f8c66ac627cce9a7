"""``asyncshader.webgpu.explore`` runs a whole host program under many schedules and replays
a failing run; the pytest fixture ``webgpu_device`` gives a strict device."""

import numpy as np
import pytest
from test_asyncshader_options import RACY

import asyncshader as ash
import asyncshader.webgpu as wgpu

FIXED = RACY.replace("    out[i] = tile", "    workgroupBarrier();\n    out[i] = tile")


def host_program(code):
    """A host program: one dispatch of ``code``, then a check of the last invocation's read
    (``out[3]`` is ``tile[0]``: 1 once invocation 0 has stored it)."""
    def host(device):
        counter = device.create_buffer(size=4, usage="STORAGE")
        out = device.create_buffer(size=16, usage="STORAGE|COPY_SRC")
        pipeline = device.create_compute_pipeline(layout="auto", compute={
            "module": device.create_shader_module(code=code)})
        group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
            {"binding": 0, "resource": {"buffer": counter}},
            {"binding": 1, "resource": {"buffer": out}}])
        encoder = device.create_command_encoder()
        compute_pass = encoder.begin_compute_pass()
        compute_pass.set_pipeline(pipeline)
        compute_pass.set_bind_group(0, group)
        compute_pass.dispatch_workgroups(1)
        compute_pass.end()
        device.queue.submit([encoder.finish()])
        got = np.frombuffer(device.queue.read_buffer(out), np.uint32).tolist()
        host.seen.append(got)
        assert got[3] == 1, got
    host.seen = []
    return host


def test_explore_finds_the_schedule_where_the_host_check_fails_and_replays_it():
    host = host_program(RACY)
    host(wgpu.gpu.request_adapter_sync().request_device_sync(sanitize="off"))  # in order: ok
    report = wgpu.explore(host, runs=20, sanitize="off")
    assert not report.ok and report.runs == report.failures[0].run + 1
    failure = report.failures[0]
    assert isinstance(failure.error, AssertionError) and len(failure.traces) == 1
    assert f"run {failure.run} (seed {failure.seed}) failed" in str(report)
    failed = host.seen[-1]
    with pytest.raises(AssertionError):
        host(failure.device(sanitize="off"))  # the same schedule: the same failure
    assert host.seen[-1] == failed


def test_explore_of_a_correct_program_passes_every_run():
    host = host_program(FIXED.replace("    counter[0] =", "    if (i == 0u) { counter[0] =")
                        .replace("+ 1u;\n}", "+ 1u; }\n}"))
    report = wgpu.explore(host, runs=10, strategy="pct", sanitize="report")
    assert report.ok and report.runs == 10 and str(report).startswith("10 runs")
    assert all(seen == [2, 3, 4, 1] for seen in host.seen)


def test_the_pytest_fixture_gives_a_strict_device(webgpu_device):
    assert isinstance(webgpu_device, wgpu.GPUDevice) and webgpu_device.asyncshader.strict
    with pytest.raises(ash.DataRaceError):
        host_program(RACY)(webgpu_device)


SEEN_STRATEGIES = []


@pytest.mark.schedules(runs=3, strategy="random", seed=5)
def test_the_schedules_marker_drives_the_fixture_devices_dispatches(webgpu_device):
    host_program(FIXED.replace("    counter[0] =", "    if (i == 0u) { counter[0] =")
                 .replace("+ 1u;\n}", "+ 1u; }\n}"))(webgpu_device)
    SEEN_STRATEGIES.append(repr(webgpu_device.asyncshader.dispatches[-1].trace))
    assert ": random(seed=" in SEEN_STRATEGIES[-1]  # (without the marker: in_order())
    if len(SEEN_STRATEGIES) == 3:  # (the marker's three runs, each its own random schedule)
        strategies = [s.split(": ")[1].split(",")[0] for s in SEEN_STRATEGIES]
        assert all(s.startswith("random(seed=") for s in strategies), strategies
        assert len(set(strategies)) == 3, strategies
