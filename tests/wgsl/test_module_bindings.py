"""Module-scope bindings (WGSL's module-scope ``var<storage>`` / ``var<uniform>`` with their
``@group``/``@binding``): declared once with ``ash.storage`` / ``ash.uniform``, used by name in a
kernel and the helpers it calls, bound by name at each run; the name holds the run's value only
while its shaders run; the race detector sees accesses through them; concurrent dispatches and
threads each see their own values."""

from __future__ import annotations

import threading

import anyio
import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32, vec3f, vec3u


@ash.struct
class Particle:
    pos: vec3f
    vel: vec3f


@ash.struct
class SimParams:
    dt: f32
    n: u32


params = ash.uniform(SimParams, group=0, binding=0)
particles = ash.storage(Particle, group=0, binding=1)
speeds = ash.storage(f32, group=1, binding=0)
table = ash.storage(u32, group=1, binding=1, access="read")


def advance(i: u32):
    particles[i].pos += particles[i].vel * params.dt


@ash.compute(workgroup_size=4)
async def step(*, global_invocation_id: vec3u):
    i = global_invocation_id.x
    if i < params.n:
        advance(i)
        speeds[i] = ash.length(particles[i].vel) + f32(table[i % 2])


def _particles(n: int = 8) -> np.ndarray:
    ps = Particle.zeros(n)
    ps["vel"][:, 0] = np.arange(n)
    ps["pos"][:, 1] = 1.0
    return ps


def test_a_kernel_and_its_helper_use_module_scope_bindings_bound_by_name():
    ps, speeds_ = _particles(), np.zeros(8, np.float32)
    result = ash.run(step, 2, particles=ps, params=SimParams(dt=0.5, n=6), speeds=speeds_,
                     table=np.array([10, 20], np.uint32))
    assert ps["pos"][:, 0].tolist() == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 0.0, 0.0]
    assert ps["pos"][:, 1].tolist() == [1.0] * 8
    assert speeds_.tolist() == [10.0, 21.0, 12.0, 23.0, 14.0, 25.0, 0.0, 0.0]
    assert result.findings == []
    assert set(result.outputs) >= {"particles", "speeds"}


def test_outside_a_run_the_name_is_the_declaration_and_says_how_to_bind_it():
    ash.run(step, 2, particles=_particles(), params=SimParams(dt=0.5, n=6),
            speeds=np.zeros(8, np.float32), table=np.zeros(2, np.uint32))
    assert isinstance(particles, ash.ModuleBinding)
    assert repr(particles) == ("<module-scope binding particles: @group(0) @binding(1) "
                               "var<storage, read_write> of Particle>")
    with pytest.raises(TypeError, match=r"particles is a module-scope binding.*bound by name: "
                       r"ash.run\(kernel, \.\.\., particles=<array or value>\)"):
        particles[0]
    with pytest.raises(TypeError, match="params is a module-scope binding"):
        _ = params.dt


def test_a_run_that_fails_puts_the_declarations_back():
    with pytest.raises(ash.ShaderError):
        ash.run(step, 2, particles=_particles(), params=SimParams(dt=0.5, n=6),
                speeds=np.zeros(3, np.float32), table=np.zeros(2, np.uint32),
                sanitize="off")  # (speeds[3] is past the end: IndexError)
    assert isinstance(particles, ash.ModuleBinding) and isinstance(speeds, ash.ModuleBinding)


def test_bindings_are_checked_as_parameters_are():
    with pytest.raises(ash.BindingError, match="missing binding 'table' for step"):
        ash.run(step, 2, particles=_particles(), params=SimParams(dt=0.5, n=6),
                speeds=np.zeros(8, np.float32))
    with pytest.raises(ash.BindingError, match=r"binding 'speeds' is declared Storage\[f32, "
                       r"at\(group=1, binding=0\)\] but the array is int32"):
        ash.run(step, 2, particles=_particles(), params=SimParams(dt=0.5, n=6),
                speeds=np.zeros(8, np.int32), table=np.zeros(2, np.uint32))


def test_a_read_only_module_binding_refuses_a_store():
    def poke():
        table[0] = 5

    @ash.compute(workgroup_size=1)
    async def pokes():
        poke()

    with pytest.raises(ash.ShaderError, match="'table' is declared read-only"):
        ash.run(pokes, table=np.zeros(2, np.uint32))


hits = ash.storage(u32, group=0, binding=0)


def bump():
    hits[0] = hits[0] + 1


@ash.compute(workgroup_size=4)
async def racy():
    bump()


def test_the_race_detector_sees_accesses_through_a_helper():
    result = ash.run(racy, hits=np.zeros(1, np.uint32), sanitize="report")
    races = {(f.race, f.memory) for f in result.findings}
    assert races == {("read-write", "hits"), ("write-write", "hits")}


def test_a_declaration_in_a_closure_is_bound_too():
    local_out = ash.storage(u32, group=0, binding=0)

    @ash.compute(workgroup_size=4)
    async def fill(*, local_invocation_index: u32):
        local_out[local_invocation_index] = local_invocation_index * 3

    out = np.zeros(4, np.uint32)
    ash.run(fill, local_out=out)
    assert out.tolist() == [0, 3, 6, 9]
    assert isinstance(local_out, ash.ModuleBinding)


def test_a_parameter_may_not_share_a_name_or_a_binding_point_with_one():
    @ash.compute(workgroup_size=1)
    async def same_name(hits: ash.Storage[u32]):
        bump()

    with pytest.raises(TypeError, match="its parameter 'hits' and the module-scope binding "
                       "'hits' share a name"):
        ash.run(same_name, hits=np.zeros(1, np.uint32))

    @ash.compute(workgroup_size=1)
    async def same_point(other: ash.Storage[u32, ash.at(0, 0)]):
        bump()

    with pytest.raises(TypeError, match=r"'other' and the module-scope binding 'hits' are both "
                       r"at @group\(0\) @binding\(0\)"):
        ash.run(same_point, other=np.zeros(1, np.uint32), hits=np.zeros(1, np.uint32))

    twin = ash.storage(u32, group=0, binding=0)

    @ash.compute(workgroup_size=1)
    async def two_at_one_point():
        twin[0] = hits[0]

    with pytest.raises(TypeError, match=r"binding '(hits|twin)' and the module-scope binding "
                       r"'(hits|twin)' are both at @group\(0\) @binding\(0\)"):
        ash.run(two_at_one_point, twin=np.zeros(1, np.uint32), hits=np.zeros(1, np.uint32))


acc = ash.storage(f32, group=0, binding=0)


@ash.compute(workgroup_size=32)
async def accumulate(*, local_invocation_index: u32):
    i = local_invocation_index
    for _ in range(300):  # (many steps: the dispatches take turns at checkpoints)
        acc[i] = acc[i] + 1.0
        await ash.workgroup_barrier()


def test_concurrent_dispatches_each_see_their_own_arrays():
    a, b = np.zeros(32, np.float32), np.full(32, 1000, np.float32)

    async def both():
        async with anyio.create_task_group() as tg:
            tg.start_soon(lambda: ash.dispatch(accumulate, acc=a))
            tg.start_soon(lambda: ash.dispatch(accumulate, acc=b))

    anyio.run(both)
    assert a.tolist() == [300.0] * 32 and b.tolist() == [1300.0] * 32
    assert isinstance(acc, ash.ModuleBinding)


@ash.compute(workgroup_size=8)
async def accumulate_each(*, global_invocation_id: vec3u):
    i = global_invocation_id.x
    for _ in range(40):
        acc[i] = acc[i] + 1.0
        await ash.workgroup_barrier()


def test_runs_in_threads_take_turns():
    """(A run holds the module globals for its turn: the threads take turns, each seeing its
    own array.)"""
    arrays = [np.full(32, 10 * k, np.float32) for k in range(3)]
    wide = [np.full(64, 100 * k, np.float32) for k in range(3)]
    errors = []

    def work(arr, many):
        try:
            ash.run(accumulate, acc=arr)
            ash.run(accumulate_each, 8, acc=many, schedule=ash.Random(1), max_live_workgroups=2)
        except Exception as exc:  # (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=pair) for pair in zip(arrays, wide)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [arr.tolist() for arr in arrays] == [[300.0 + 10 * k] * 32 for k in range(3)]
    assert [arr.tolist() for arr in wide] == [[40.0 + 100 * k] * 64 for k in range(3)]


def test_the_declarations_check_their_arguments():
    with pytest.raises(TypeError, match="non-negative ints; binding is -1"):
        ash.storage(f32, group=0, binding=-1)
    with pytest.raises(TypeError, match="'read_write' or 'read', not 'write'"):
        ash.storage(f32, group=0, binding=0, access="write")


cells = ash.storage(u32, group=0, binding=0)
shared = ash.workgroup(ash.array(u32, 8))


@ash.compute(workgroup_size=8)
async def mirrored(*, local_invocation_index: u32, workgroup_id: vec3u):
    i = local_invocation_index
    shared[i] = i + workgroup_id.x
    await ash.workgroup_barrier()
    cells[workgroup_id.x * 8 + i] = shared[7 - i]


@ash.compute(workgroup_size=(4, 2), derivatives="quads")
async def swapped(*, local_invocation_index: u32, workgroup_id: vec3u):
    cells[workgroup_id.x * 8 + local_invocation_index] = \
        await ash.quad_swap_x(local_invocation_index)


@pytest.mark.parametrize("schedule,live", [(None, 1), (ash.Random(3), 1), (ash.Random(5), 3),
                                           (ash.PCT(2), 2), (ash.Reverse(), 4)])
@pytest.mark.parametrize("sanitize", [None, "off"])
def test_every_schedule_and_interleaving_of_workgroups_sees_the_runs_buffer(schedule, live,
                                                                           sanitize):
    out = np.zeros(160, np.uint32)
    ash.run(mirrored, 20, cells=out, schedule=schedule, max_live_workgroups=live,
            sanitize=sanitize)
    assert out.tolist() == [7 - i + w for w in range(20) for i in range(8)]
    out = np.zeros(160, np.uint32)
    ash.run(swapped, 20, cells=out, schedule=schedule, max_live_workgroups=live,
            sanitize=sanitize)
    assert out.tolist() == [1, 0, 3, 2, 5, 4, 7, 6] * 20
    assert isinstance(cells, ash.ModuleBinding)
