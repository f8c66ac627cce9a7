"""`await dispatch(...)` under asyncio and trio, cancellation, concurrent dispatches, results."""

import anyio
import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request):
    return request.param


partial = ash.workgroup(ash.array(ash.f32, 64))


@ash.compute(workgroup_size=64)
async def block_sum(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                    workgroup_id):
    i = local_invocation_index
    partial[i] = inp[workgroup_id.x * 64 + i]
    await ash.workgroup_barrier()
    s = 32
    while s > 0:
        if i < s:
            partial[i] += partial[i + s]
        await ash.workgroup_barrier()
        s //= 2
    if i == 0:
        out[workgroup_id.x] = partial[0]


async def test_dispatch_awaited_gives_the_same_result_and_trace_as_run():
    inp = np.arange(64 * 8, dtype=np.float32)
    out_a, out_b = np.zeros(8, np.float32), np.zeros(8, np.float32)
    a = await ash.dispatch(block_sum, 8, inp=inp, out=out_a, schedule=ash.Random(2))
    b = ash.run(block_sum, 8, inp=inp, out=out_b, schedule=ash.Random(2))
    np.testing.assert_array_equal(out_a, inp.reshape(8, 64).sum(axis=1))
    np.testing.assert_array_equal(out_a, out_b)
    assert a.trace == b.trace


async def test_a_long_dispatch_is_cancelled_by_fail_after():
    inp = np.ones(64 * 4000, dtype=np.float32)
    out = np.zeros(4000, np.float32)
    with pytest.raises(TimeoutError):
        with anyio.fail_after(0.2):
            await ash.dispatch(block_sum, 4000, inp=inp, out=out)
    assert 0 < np.count_nonzero(out) < 4000  # it started, and it stopped


class _Resumes(ash.Instrument):
    """Watching resumes forces the general loop."""

    def invocation_resumed(self, inv):
        pass


@ash.compute(workgroup_size=64)
async def no_rendezvous(out: ash.Storage, *, global_invocation_id):
    out[global_invocation_id.x] = 1


@ash.fragment
async def flat(*, position: ash.vec4f):
    return position.x


@pytest.mark.parametrize("how", ["in order", "general loop", "fragments, lean",
                                 "fragments, general loop"])
async def test_a_dispatch_without_rendezvous_still_lets_the_host_cancel_it(how):
    """Shaders that never meet a rendezvous end each unit in its first round: the dispatch
    must still give the host its turn every few thousand steps, or nothing can cancel it
    (a cancel scope cancelled before the dispatch starts stops it at its first checkpoint)."""
    out = np.zeros(64 * 256, np.uint32)
    with anyio.CancelScope() as scope:
        scope.cancel()
        if how.startswith("fragments"):
            instruments = [_Resumes()] if how.endswith("loop") else []
            await ash.dispatch_fragments(flat, 256, 256, instruments=instruments)
        else:
            instruments = [_Resumes()] if how == "general loop" else []
            await ash.dispatch(no_rendezvous, 256, out=out, instruments=instruments)
    assert scope.cancelled_caught  # it did not run to the end
    if not how.startswith("fragments"):
        assert 4096 <= np.count_nonzero(out) < out.size  # stopped at the first checkpoint


async def test_concurrent_dispatches_sharing_a_workgroup_variable_do_not_mix():
    """Two dispatches interleave at checkpoints; each keeps its own workgroup memory."""
    inp_a = np.arange(64 * 300, dtype=np.float32) % 7
    inp_b = np.arange(64 * 300, dtype=np.float32) % 5
    out_a, out_b = np.zeros(300, np.float32), np.zeros(300, np.float32)
    async with anyio.create_task_group() as tg:
        tg.start_soon(lambda: ash.dispatch(block_sum, 300, inp=inp_a, out=out_a))
        tg.start_soon(lambda: ash.dispatch(block_sum, 300, inp=inp_b, out=out_b,
                                           schedule=ash.Random(1)))
    np.testing.assert_array_equal(out_a, inp_a.reshape(300, 64).sum(axis=1))
    np.testing.assert_array_equal(out_b, inp_b.reshape(300, 64).sum(axis=1))


async def test_errors_propagate_through_dispatch():
    @ash.compute(workgroup_size=2)
    async def diverges(out: ash.Storage, *, local_invocation_index: u32):
        if local_invocation_index == 0:
            await ash.workgroup_barrier()

    with pytest.raises(ash.BarrierDivergenceError):
        await ash.dispatch(diverges, out=np.zeros(1, np.uint32))


def test_result_exposes_outputs_counters_and_trace():
    inp = np.arange(128, dtype=np.float32)
    out = np.zeros(2, np.float32)
    r = ash.run(block_sum, 2, inp=inp, out=out)
    assert r["out"] is out and r.outputs["inp"] is inp
    c = r.counters
    assert c.invocations == 128
    assert c.rendezvous == 2 * 7  # 1 + 6 barriers per workgroup
    assert c.steps == 128 * 8  # 7 suspensions + the final resume each
    assert c.points == 0
    assert r.findings == []


def test_a_kernel_made_by_exec_without_a_module_name_is_named_by_its_file():
    source = ("async def made(out: ash.Storage, *, local_invocation_index: u32):\n"
              "    out[local_invocation_index] = 7\n")
    namespace = {"ash": ash, "u32": u32}  # no __name__: the function's __module__ is None
    exec(compile(source, "<generated>", "exec"), namespace)
    kernel = ash.compute(workgroup_size=2)(namespace["made"])
    out = np.zeros(2, np.uint32)
    result = ash.run(kernel, out=out)
    assert out.tolist() == [7, 7] and result.trace.kernel["name"] == "<generated>.made"


@ash.compute(workgroup_size=64)
async def races_in_last_workgroup(out: ash.Storage, *, local_invocation_index: u32,
                                  workgroup_id, num_workgroups):
    i = local_invocation_index
    partial[i] = i
    if workgroup_id.x == num_workgroups.x - 1:  # uniform per workgroup
        out[i] = partial[(i + 1) % 64]  # no barrier: races with the store above
    await ash.workgroup_barrier()


@ash.compute(workgroup_size=64)
async def shifts_after_barrier(out: ash.Storage, *, local_invocation_index: u32, workgroup_id):
    i = local_invocation_index
    partial[i] = i
    await ash.workgroup_barrier()
    out[workgroup_id.x * 64 + i] = partial[(i + 1) % 64]


@pytest.mark.parametrize("other_sanitize", ["report", "off"])
async def test_concurrent_dispatches_sharing_a_workgroup_variable_keep_their_own_detectors(
        other_sanitize):
    # the variable is shared by both kernels; each dispatch must watch it (or not) for itself,
    # also after the other one finished or switched it off
    results = {}

    async def racy():
        results["racy"] = await ash.dispatch(races_in_last_workgroup, 100,
                                             out=np.zeros(64, np.float32), sanitize="report")

    async def clean(name, sanitize):
        results[name] = await ash.dispatch(shifts_after_barrier, 100,
                                           out=np.zeros(6400, np.float32), sanitize=sanitize)

    async with anyio.create_task_group() as tg:
        tg.start_soon(racy)
        tg.start_soon(clean, "other", other_sanitize)
        tg.start_soon(clean, "clean", "report")
    assert [f.memory for f in results["racy"].findings] == ["partial"]
    assert results["clean"].findings == [] and results["other"].findings == []
