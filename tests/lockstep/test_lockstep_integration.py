"""``schedule=ash.Lockstep()`` wherever a schedule is taken: ash.run and ash.dispatch,
explore, crosscheck, the WebGPU device; and a Lockstep run's trace, which replays through
Lockstep (with the options it recorded) to the same memory (docs/lockstep.md, "Its trace").
The pytest marker and the command line are in tests/tools."""

import anyio
import numpy as np
import pytest

import asyncshader as ash
from asyncshader.errors import ReplayMismatchError, TraceError
from asyncshader.lockstep import LockstepReplay


@ash.compute(workgroup_size=64)
async def scale(inp: ash.Storage, out: ash.Storage, *, global_invocation_id: ash.vec3u):
    i = global_invocation_id.x
    out[i] = inp[i] * 3.0 + 1.0


@ash.compute(workgroup_size=64)
async def count_up(total: ash.Storage):
    # (a lost update: every lane of a chunk reads the same count, so the result is the
    # number of chunks: max_lanes decides the memory)
    total[0] = total[0] + 1


INP = np.arange(256, dtype=np.float32)
WANT = INP * 3 + 1  # (exact in f32 for these values)


def scaled(schedule, **options):
    out = np.zeros(256, np.float32)
    result = ash.run(scale, 4, inp=INP, out=out, schedule=schedule, **options)
    return out, result


def test_run_and_dispatch_take_lockstep():
    out, result = scaled(ash.Lockstep(), sanitize="off")
    assert out.tolist() == WANT.tolist()
    assert result.counters.invocations == 256

    async def main():
        out = np.zeros(256, np.float32)
        await ash.dispatch(scale, 4, inp=INP, out=out, schedule=ash.Lockstep(),
                           sanitize="off")
        return out
    assert anyio.run(main).tolist() == WANT.tolist()


def test_its_trace_records_lockstep_and_its_options():
    _, result = scaled(ash.Lockstep(max_lanes=128, max_iterations=99), sanitize="off")
    assert result.trace.strategy == {"name": "lockstep", "max_lanes": 128,
                                     "max_iterations": 99}
    assert result.trace.dispatch == {"stage": "compute", "workgroups": [4, 1, 1],
                                     "workgroup_size": [64, 1, 1], "subgroup_size": 32}
    assert result.trace.decision_count == 0


def fresh():
    return {"workgroups": 4, "total": np.zeros(1, np.uint32)}


def counted(schedule):
    total = np.zeros(1, np.uint32)
    result = ash.run(count_up, 4, total=total, schedule=schedule, sanitize="off")
    return int(total[0]), result


@pytest.mark.parametrize("form", ["trace", "string", "replay", "json file"])
def test_a_lockstep_trace_replays_through_lockstep_with_its_recorded_options(form, tmp_path):
    first, result = counted(ash.Lockstep(max_lanes=64))
    assert first == 4  # (4 chunks of one workgroup, each adding 1)
    assert counted(ash.Lockstep())[0] == 1  # (one chunk: the options decide the memory)
    trace = result.trace
    if form == "string":
        trace = trace.to_string()
    elif form == "replay":
        trace = ash.Replay(trace)
    elif form == "json file":
        trace.save(tmp_path / "t.json")
        trace = str(tmp_path / "t.json")
    again, replayed = counted(trace)
    assert again == 4
    assert replayed.trace == result.trace  # (the replay's own trace is the same)


def test_a_lockstep_trace_is_replayed_by_lockstep_not_by_the_coroutine_scheduler():
    _, result = counted(ash.Lockstep(max_lanes=64))
    assert isinstance(ash.schedules.names.dispatcher(result.trace), LockstepReplay)
    with pytest.raises(TraceError, match="Lockstep replays it.*steps, shrinks"):
        ash.shrink(count_up, fresh, result.trace, lambda r: r.outputs["total"][0] == 4)
    stepper = ash.Stepper(count_up, 4, total=np.zeros(1, np.uint32))
    with pytest.raises(TraceError, match="Lockstep replays it.*steps, shrinks"):
        stepper.run_with(result.trace)


def test_a_lockstep_trace_replays_only_its_own_dispatch():
    _, result = scaled(ash.Lockstep(), sanitize="off")
    with pytest.raises(ReplayMismatchError, match="workgroups=.4, 1, 1.*this dispatch has "
                                                  "workgroups=.2, 1, 1"):
        ash.run(scale, 2, inp=INP, out=np.zeros(256, np.float32), schedule=result.trace,
                sanitize="off")
    with pytest.raises(ReplayMismatchError, match="subgroup_size=32.*subgroup_size=8"):
        scaled(result.trace, sanitize="off", subgroup_size=8)
    with pytest.raises(ReplayMismatchError, match="recorded for kernel .*scale, not .*count"):
        counted(result.trace)


def test_a_damaged_lockstep_option_in_a_trace_is_named():
    _, result = scaled(ash.Lockstep(), sanitize="off")
    result.trace.strategy["max_lanes"] = "many"
    with pytest.raises(TraceError, match="Lockstep options are damaged.*max_lanes"):
        scaled(result.trace, sanitize="off")


def test_explore_with_lockstep_is_one_run_and_its_failure_replays():
    report = ash.explore(count_up, fresh, lambda r: r.outputs["total"][0] == 4,
                         strategy=ash.Lockstep(), runs=50, store=None)
    assert report.runs == 1 and report.complete  # (one deterministic schedule)
    assert report.strategy["name"] == "lockstep"
    failure = report.failures[0]
    assert failure.error == "check returned False"
    again = np.zeros(1, np.uint32)
    ash.run(count_up, 4, total=again, schedule=failure.trace, sanitize="off")
    assert again.tolist() == [1]  # (the failing run's memory: the lost updates)


def test_explore_with_lockstep_keeps_the_trace_of_a_run_that_raised():
    @ash.compute(workgroup_size=4)
    async def spin(flag: ash.Storage):
        while flag[0] == 0:  # (waits for a store no lane makes)
            pass

    report = ash.explore(spin, lambda: {"flag": np.zeros(1, np.uint32)},
                         strategy=ash.Lockstep(max_iterations=50), store=None)
    failure = report.failures[0]
    assert "StepLimitError" in failure.error and "50 iterations" in failure.error
    assert failure.trace.strategy["max_iterations"] == 50
    with pytest.raises(ash.StepLimitError, match="50 iterations"):
        ash.run(spin, flag=np.zeros(1, np.uint32), schedule=failure.trace, sanitize="off")


def test_crosscheck_runs_the_cpu_side_in_lockstep():
    pytest.importorskip("wgpu")
    from asyncshader.extra.device import GPUUnavailable, device
    try:
        device()
    except GPUUnavailable as exc:
        pytest.skip(str(exc))
    out = np.zeros(256, np.float32)
    report = ash.crosscheck(scale, 4, inp=INP, out=out, schedule=ash.Lockstep(),
                            sanitize="off")
    assert report.cpu["out"].tolist() == WANT.tolist()
    assert report.gpu["out"].tolist() == WANT.tolist()
    assert out.tolist() == [0.0] * 256  # (each side ran on copies)


SRC = """
struct Params { k: u32, add: u32 }
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<uniform> params: Params;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  data[gid.x] = data[gid.x] * params.k + params.add + gid.x;
}
"""


def submit(device, words):
    """One dispatch of SRC through wgpu-py's API on ``device``: data * 3 + 5 + index."""
    from asyncshader.webgpu import BufferUsage

    module = device.create_shader_module(code=SRC)
    pipeline = device.create_compute_pipeline(
        layout="auto", compute={"module": module, "entry_point": "main"})
    data = device.create_buffer_with_data(
        data=words, usage=BufferUsage.STORAGE | BufferUsage.COPY_SRC)
    params = device.create_buffer_with_data(data=np.array([3, 5], np.uint32),
                                            usage=BufferUsage.UNIFORM)
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": data}},
        {"binding": 1, "resource": {"buffer": params}}])
    encoder = device.create_command_encoder()
    compute = encoder.begin_compute_pass()
    compute.set_pipeline(pipeline)
    compute.set_bind_group(0, group)
    compute.dispatch_workgroups(2)
    compute.end()
    device.queue.submit([encoder.finish()])
    return np.frombuffer(device.queue.read_buffer(data), np.uint32)


def test_the_webgpu_device_runs_its_dispatches_in_lockstep_and_replays_them():
    from asyncshader.webgpu import gpu

    words = np.arange(128, dtype=np.uint32)
    want = (words * 3 + 5 + np.arange(128)).tolist()
    adapter = gpu.request_adapter_sync()
    device = adapter.request_device_sync(schedule=ash.Lockstep(), sanitize="off")
    assert submit(device, words).tolist() == want
    traces = device.asyncshader.traces()
    assert [t.strategy["name"] for t in traces] == ["lockstep"]
    again = adapter.request_device_sync(schedule=traces, sanitize="off")
    assert submit(again, words).tolist() == want
    assert again.asyncshader.traces() == traces


def test_a_webgpu_device_block_and_a_host_exploration_take_lockstep():
    from asyncshader.webgpu import explore, gpu

    words = np.arange(128, dtype=np.uint32)
    want = (words * 3 + 5 + np.arange(128)).tolist()
    device = gpu.request_adapter_sync().request_device_sync()
    with device.options(schedule=ash.Lockstep(), sanitize="off"):
        assert submit(device, words).tolist() == want
    assert submit(device, words).tolist() == want  # (after the block: the default again)
    assert [t.strategy["name"] for t in device.asyncshader.traces()] == ["lockstep",
                                                                         "in_order"]

    def host(device):
        assert submit(device, words).tolist() == want

    report = explore(host, runs=20, strategy="lockstep", sanitize="off")
    assert report.runs == 1 and report.ok

    def wrong(device):
        assert submit(device, words).tolist() == want[::-1]

    failure = explore(wrong, runs=20, strategy="lockstep", sanitize="off").failures[0]
    assert [t.strategy["name"] for t in failure.traces] == ["lockstep"]
    again = failure.device(sanitize="off")
    with pytest.raises(AssertionError):
        wrong(again)
    assert again.asyncshader.traces() == failure.traces  # (replayed in lockstep)


@ash.fragment
async def gradient(*, position: ash.vec4f) -> ash.vec4f:
    return ash.vec4f(position.x / 4.0, position.y / 2.0, 0.0, 1.0)


def test_a_lockstep_fragment_runs_trace_replays_through_lockstep():
    first = ash.run_fragments(gradient, 4, 2, schedule=ash.Lockstep(), sanitize="off")
    assert first.trace.strategy["name"] == "lockstep"
    # pixel (x, y) has its centre at (x + 0.5, y + 0.5)
    assert first.output[1, 3].tolist() == [3.5 / 4, 1.5 / 2, 0.0, 1.0]
    again = ash.run_fragments(gradient, 4, 2, schedule=first.trace.to_string(),
                              sanitize="off")
    assert again.output.tobytes() == first.output.tobytes()
    assert again.trace == first.trace
    with pytest.raises(ReplayMismatchError, match="size=.4, 2.*size=.2, 2"):
        ash.run_fragments(gradient, 2, 2, schedule=first.trace, sanitize="off")


def test_lockstep_by_name_where_strategy_names_are_taken_is_refused_with_the_object():
    with pytest.raises(ash.OptionError, match="schedule='lockstep'.*pass "
                                              r"schedule=ash.Lockstep\(\)"):
        counted("lockstep")
    with pytest.raises(ash.OptionError, match=r"strategy='Lockstep'.*strategy=ash.Lockstep\(\)"):
        ash.explore(count_up, fresh, strategy="Lockstep", store=None)
