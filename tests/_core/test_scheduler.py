"""The scheduler core: rendezvous, divergence, deadlock, errors, instruments, lazy workgroups."""

import asyncio
import itertools

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32, workgroup_barrier

SCHEDULES = [ash.InOrder(), ash.Random(0), ash.Random(1)]


def line_of(fn, text):
    """The line number of the first source line of ``fn`` containing ``text``."""
    import inspect

    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(src) if text in line)


# ------------------------------------------------------------------------------- divergence
@ash.compute(workgroup_size=8)
async def split_barriers(out: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index < 4:
        await workgroup_barrier()  # first barrier
    else:
        await workgroup_barrier()  # second barrier
    out[local_invocation_index] = 1


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_barriers_at_different_call_sites_raise_divergence_with_both_lines(schedule):
    out = np.zeros(8, np.uint32)
    with pytest.raises(ash.BarrierDivergenceError) as info:
        ash.run(split_barriers, out=out, schedule=schedule)
    msg = str(info.value)
    first = line_of(split_barriers.fn, "# first barrier")
    second = line_of(split_barriers.fn, "# second barrier")
    assert f"test_scheduler.py:{first}" in msg and f"test_scheduler.py:{second}" in msg
    assert "local_invocation_index 0-3 (4 invocations)" in msg
    assert "local_invocation_index 4-7 (4 invocations)" in msg
    assert "workgroup_id=(0,0,0)" in msg and "non-uniform control flow" in msg
    assert "Fix:" in msg
    assert sorted(len(invs) for _, invs in info.value.positions) == [4, 4]
    assert not out.any()  # nobody passed the barrier


@ash.compute(workgroup_size=4)
async def early_return(out: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index == 2:
        return
    await workgroup_barrier()
    out[local_invocation_index] = 1


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_an_invocation_returning_while_others_wait_is_divergence(schedule):
    with pytest.raises(ash.BarrierDivergenceError) as info:
        ash.run(early_return, out=np.zeros(4, np.uint32), schedule=schedule)
    msg = str(info.value)
    assert "returned while others wait" in msg
    assert "local_invocation_index 2 (1 invocation): returned" in msg
    assert "local_invocation_index 0-1, 3 (3 invocations): waits at" in msg
    assert f":{line_of(early_return.fn, 'await workgroup_barrier()')}" in msg


async def helper_barrier(flag):
    if flag:
        await workgroup_barrier()  # inside the helper, first
    else:
        await workgroup_barrier()  # inside the helper, second


@ash.compute(workgroup_size=2)
async def nested_divergence(out: ash.Storage, *, local_invocation_index: u32):
    await helper_barrier(local_invocation_index == 0)
    out[local_invocation_index] = 1


def test_divergence_inside_an_awaited_helper_is_found_by_the_whole_await_chain():
    with pytest.raises(ash.BarrierDivergenceError) as info:
        ash.run(nested_divergence, out=np.zeros(2, np.uint32))
    msg = str(info.value)
    assert f":{line_of(helper_barrier, 'first')}" in msg
    assert f":{line_of(helper_barrier, 'second')}" in msg


async def barrier_in_a_helper():
    await workgroup_barrier()  # in the helper


@ash.compute(workgroup_size=2)
async def direct_or_helper(out: ash.Storage, *, local_invocation_index: u32):
    await (workgroup_barrier() if local_invocation_index == 0 else barrier_in_a_helper())
    out[local_invocation_index] = 1


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_a_barrier_awaited_directly_and_one_in_a_helper_on_the_same_line_diverge(schedule):
    # both members stop at the same instruction of the kernel's frame; only the await chain
    # tells them apart
    out = np.zeros(2, np.uint32)
    with pytest.raises(ash.BarrierDivergenceError) as info:
        ash.run(direct_or_helper, out=out, schedule=schedule)
    assert f":{line_of(barrier_in_a_helper, 'in the helper')}" in str(info.value)
    assert not out.any()


_calls = itertools.count()


async def alternating_barriers():
    if next(_calls) % 2 == 0:
        await workgroup_barrier()  # even calls
    else:
        await workgroup_barrier()  # odd calls


meet = workgroup_barrier  # what awaits_meet awaited when it was decorated


@ash.compute(workgroup_size=2)
async def awaits_meet(out: ash.Storage, *, local_invocation_index: u32):
    await meet()
    out[local_invocation_index] = 1


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_a_name_rebound_to_a_helper_after_decoration_is_checked_through_the_helper(
        schedule, monkeypatch):
    """A shader whose awaits are all direct calls of operations is checked by its frame's
    instruction alone; the dispatch re-reads the names, so a helper bound later is seen."""
    assert awaits_meet.awaited is not None
    ash.run(awaits_meet, out=np.zeros(2, np.uint32), schedule=schedule)  # direct: fine
    monkeypatch.setitem(globals(), "meet", alternating_barriers)
    with pytest.raises(ash.BarrierDivergenceError) as info:
        ash.run(awaits_meet, out=np.zeros(2, np.uint32), schedule=schedule)
    assert f":{line_of(alternating_barriers, 'even calls')}" in str(info.value)
    assert f":{line_of(alternating_barriers, 'odd calls')}" in str(info.value)


@ash.compute(workgroup_size=2)
async def shadows_the_barrier(out: ash.Storage, *, local_invocation_index: u32):
    workgroup_barrier = alternating_barriers  # a local: not the operation
    await workgroup_barrier()
    out[local_invocation_index] = 1


def test_a_local_that_shadows_an_operation_is_checked_through_the_helper():
    assert shadows_the_barrier.awaited is None
    with pytest.raises(ash.BarrierDivergenceError) as info:
        ash.run(shadows_the_barrier, out=np.zeros(2, np.uint32))
    assert f":{line_of(alternating_barriers, 'odd calls')}" in str(info.value)


@ash.compute(workgroup_size=5)
async def two_ops_on_one_line(out: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index == 1 and out[0] == 1:
        return  # with out[0] == 1: one returns between arrivals at the two operations
    await (workgroup_barrier() if local_invocation_index < 3 else ash.storage_barrier())


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
@pytest.mark.parametrize("one_returns", [False, True])
def test_two_operations_on_one_line_are_told_apart_member_by_member(schedule, one_returns):
    with pytest.raises(ash.BarrierDivergenceError) as info:
        ash.run(two_ops_on_one_line, out=np.array([one_returns], np.uint32), schedule=schedule)
    msg = str(info.value)
    first = "0, 2 (2 invocations)" if one_returns else "0-2 (3 invocations)"
    assert f"local_invocation_index {first}: waits at" in msg.replace("\n", " ")
    assert msg.split(f"local_invocation_index {first}: waits at")[1].split("\n")[0].count(
        "in workgroup_barrier()") == 1
    assert "local_invocation_index 3-4 (2 invocations): waits at" in msg
    assert msg.split("3-4 (2 invocations): waits at")[1].split("\n")[0].count(
        "in storage_barrier()") == 1
    assert ("returned (finished the shader)" in msg) == one_returns


def test_a_rendezvous_kind_carries_only_the_value():
    from asyncshader._core.traps import Rendezvous, rendezvous_kind

    kind = rendezvous_kind("double", "quad", lambda values, group: [2 * v for v in values])
    req = kind(21)
    assert isinstance(req, Rendezvous)
    assert (req.op, req.scope, req.value) == ("double", "quad", 21)
    assert req.resolve([1, 2], None) == [2, 4]
    assert rendezvous_kind("meet", "workgroup", None)(0).resolve is None


@ash.compute(workgroup_size=4)
async def barrier_in_uniform_loop(out: ash.Storage, *, local_invocation_index: u32):
    for _ in range(3):
        await helper_barrier(True)
    out[local_invocation_index] = 7


def test_a_barrier_in_a_uniform_loop_and_helper_is_fine():
    out = np.zeros(4, np.uint32)
    r = ash.run(barrier_in_uniform_loop, out=out, schedule=ash.Random(3))
    assert out.tolist() == [7, 7, 7, 7]
    assert r.counters.rendezvous == 3


@ash.compute(workgroup_size=2)
async def barrier_vs_storage_barrier(out: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index == 0:
        await workgroup_barrier()
    else:
        await ash.storage_barrier()


def test_different_barrier_operations_diverge_and_are_named():
    with pytest.raises(ash.BarrierDivergenceError) as info:
        ash.run(barrier_vs_storage_barrier, out=np.zeros(2, np.uint32))
    assert "in workgroup_barrier()" in str(info.value)
    assert "in storage_barrier()" in str(info.value)


# --------------------------------------------------------------------------- shader errors
@ash.compute(workgroup_size=(2, 2))
async def divides_by_zero(out: ash.Storage, *, local_invocation_id, workgroup_id):
    await workgroup_barrier()
    if local_invocation_id.x == 1 and local_invocation_id.y == 1 and workgroup_id.x == 1:
        out[0] = 1 // int(local_invocation_id.x - 1)


def test_exception_in_a_shader_names_the_invocation_and_chains_the_original():
    with pytest.raises(ash.ShaderError) as info:
        ash.run(divides_by_zero, workgroups=2, out=np.zeros(1, np.uint32))
    err = info.value
    assert isinstance(err.__cause__, ZeroDivisionError)
    assert isinstance(err.original, ZeroDivisionError)
    msg = str(err)
    assert "global_invocation_id=(3,1,0)" in msg
    assert "workgroup_id=(1,0,0)" in msg and "local_invocation_id=(1,1,0)" in msg
    assert "local_invocation_index=3" in msg
    assert f"test_scheduler.py:{line_of(divides_by_zero.fn, '1 // int')}" in msg


@ash.compute(workgroup_size=4)
async def awaits_asyncio(out: ash.Storage):
    await asyncio.sleep(0)


def test_awaiting_a_foreign_awaitable_raises_foreign_await_error_with_the_line():
    with pytest.raises(ash.ForeignAwaitError) as info:
        ash.run(awaits_asyncio, out=np.zeros(1, np.uint32))
    msg = str(info.value)
    assert "sleep" in msg and "yielded None" in msg
    assert f"test_scheduler.py:{line_of(awaits_asyncio.fn, 'asyncio.sleep')}" in msg
    assert "global_invocation_id=(0,0,0)" in msg


def test_decorating_a_plain_function_is_a_type_error_at_decoration_time():
    with pytest.raises(TypeError, match="async def"):
        @ash.compute(workgroup_size=1)
        def not_async(out):
            pass


@ash.compute(workgroup_size=2)
async def spins_forever(flag: ash.Storage):
    while await ash.atomic_load(ash.ptr(flag, 0)) == 0:
        pass


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Random(0)], ids=repr)
def test_a_spin_loop_that_cannot_finish_hits_the_step_limit_instead_of_hanging(schedule):
    with pytest.raises(ash.StepLimitError, match="500 scheduling points") as info:
        ash.run(spins_forever, flag=np.zeros(1, np.uint32), schedule=schedule,
                max_points_per_invocation=500)
    assert "spin loop" in str(info.value) and "atomic_load" in str(info.value)


# --------------------------------------------------------------------------------- deadlock
tickets = ash.workgroup(ash.atomic(u32))


@ash.compute(workgroup_size=3)
async def waits_on_missing_peer(out: ash.Storage, *, local_invocation_index: u32):
    await ash.atomic_add(tickets, 1)
    await workgroup_barrier()
    out[local_invocation_index] = await ash.atomic_load(tickets)


def test_atomics_between_barriers_count_as_steps_and_reach_every_invocation():
    out = np.zeros(3, np.uint32)
    r = ash.run(waits_on_missing_peer, out=out, schedule=ash.Random(5))
    assert out.tolist() == [3, 3, 3]
    assert r.counters.points == 6


# ------------------------------------------------------------------------------ instruments
class Recorder(ash.Instrument):
    def __init__(self):
        self.events = []

    def invocation_finished(self, inv):
        self.events.append(("finished", inv.key))

    def rendezvous_completed(self, group, op, members):
        self.events.append((op, len(members)))

    def atomic(self, inv, op, memory, index, old, new):
        self.events.append((op, int(old), int(new)))


@ash.compute(workgroup_size=2)
async def instrumented(counter: ash.Storage, *, local_invocation_index: u32):
    await ash.atomic_add(ash.ptr(counter, 0), 5)
    await workgroup_barrier()


def test_instruments_observe_atomics_rendezvous_and_finishes_in_schedule_order():
    rec = Recorder()
    ash.run(instrumented, counter=np.zeros(1, np.uint32), instruments=[rec])
    assert rec.events == [("atomic_add", 0, 5), ("atomic_add", 5, 10),
                          ("workgroup_barrier", 2), ("finished", 0), ("finished", 1)]


# ---------------------------------------------------------------------- lazy, bounded workgroups
class LiveCounter(ash.Instrument):
    def __init__(self):
        self.max_live = 0
        self.sched = None

    def run_started(self, scheduler):
        self.sched = scheduler

    def invocation_resumed(self, inv):
        self.max_live = max(self.max_live, len(self.sched.live))


@ash.compute(workgroup_size=4)
async def tiny(out: ash.Storage, *, workgroup_id):
    await workgroup_barrier()
    await ash.atomic_add(ash.ptr(out, workgroup_id.x), 1)


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_at_most_max_live_workgroups_are_alive_at_once(limit):
    out = np.zeros(16, np.uint32)
    counter = LiveCounter()
    r = ash.run(tiny, 16, out=out, schedule=ash.Random(2), max_live_workgroups=limit,
                instruments=[counter])
    assert counter.max_live == limit
    assert out.tolist() == [4] * 16
    assert r.counters.invocations == 64


def test_with_several_live_workgroups_random_interleaves_them():
    out = np.zeros(4, np.uint32)
    order = []

    class Order(ash.Instrument):
        def invocation_resumed(self, inv):
            order.append(inv.key // 4)

    ash.run(tiny, 4, out=out, schedule=ash.Random(9), max_live_workgroups=4,
            instruments=[Order()])
    switches = sum(1 for a, b in itertools.pairwise(order) if a != b)
    assert switches > 4  # more than one workgroup after another
    assert order != sorted(order)
