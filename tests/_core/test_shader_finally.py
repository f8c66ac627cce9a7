"""A shader whose ``try``/``finally`` awaits in the ``finally``: when the run stops, its
coroutines are closed without a RuntimeError ("coroutine ignored GeneratorExit"), and an
exception the shader itself raised, held up by the ``finally``'s await, is what the run reports,
at its line, with what stopped the run in a note."""

import inspect
import warnings

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32, vec4f

SCHEDULES = [ash.InOrder(), ash.Random(3)]


def line(fn, text):
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, s in enumerate(src) if text in s)


@ash.compute(workgroup_size=4)
async def raises_in_try(out: ash.Storage[u32], *, local_invocation_index: u32):
    i = local_invocation_index
    try:
        if i == 1:
            raise ValueError("boom")  # the original
        await ash.workgroup_barrier()
    finally:
        await ash.workgroup_barrier()  # the finally's await
    out[i] = 1


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
@pytest.mark.parametrize("sanitize", ["report", "off"])
def test_the_shaders_own_exception_is_reported_at_its_line(schedule, sanitize):
    fn = raises_in_try.fn
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is left for the garbage collector to complain of
        with pytest.raises(ash.ShaderError) as err:
            ash.run(raises_in_try, out=np.zeros(4, np.uint32), schedule=schedule,
                    sanitize=sanitize)
    assert isinstance(err.value.original, ValueError)
    assert "local_invocation_index=1" in err.value.invocation
    msg = str(err.value)
    assert f":{line(fn, '# the original')}: raise ValueError(\"boom\")" in msg
    note = "\n".join(err.value.__notes__)
    assert f":{line(fn, '# the finally')}:" in note and "BarrierDivergenceError" in note


@ash.compute(workgroup_size=4)
async def others_wait_in_try(out: ash.Storage[u32], *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 3:
        raise KeyError("three")  # the error
    try:
        await ash.workgroup_barrier()
    finally:
        await ash.workgroup_barrier()
        out[i] = 5


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_closing_invocations_whose_finally_awaits_raises_nothing_else(schedule):
    out = np.zeros(4, np.uint32)
    with pytest.raises(ash.ShaderError) as err:
        ash.run(others_wait_in_try, out=out, schedule=schedule)
    assert isinstance(err.value.original, KeyError)
    assert f":{line(others_wait_in_try.fn, '# the error')}:" in str(err.value)
    assert not getattr(err.value, "__notes__", None)
    assert out.tolist() == [0, 0, 0, 0]  # a closed invocation's finally stops at its await


@ash.fragment
async def shade_raises(*, position: vec4f) -> vec4f:
    d = 0.0
    try:
        if position.x > 1.0:
            raise ArithmeticError("right half")  # the fragment's original
        d = await ash.dpdx(position.x)
    finally:
        d += await ash.dpdy(position.y)  # the fragment's finally
    return vec4f(d, 0.0, 0.0, 1.0)


def test_a_finally_that_awaits_is_closed_cleanly_in_a_fragment_quad_too():
    with pytest.raises(ash.ShaderError) as err:
        ash.run_fragments(shade_raises, 4, 2)
    assert isinstance(err.value.original, ArithmeticError)
    fn = shade_raises.fn
    assert f":{line(fn, 'the fragment' + chr(39) + 's original')}:" in str(err.value)
    assert f":{line(fn, 'the fragment' + chr(39) + 's finally')}:" in "\n".join(
        err.value.__notes__)


@ash.compute(workgroup_size=4)
async def handles_and_waits(out: ash.Storage[u32], *, local_invocation_index: u32):
    i = local_invocation_index
    try:
        if i == 1:
            raise ValueError("handled")
    except ValueError:
        await ash.workgroup_barrier()  # the handler's barrier
    if i != 1:
        await ash.workgroup_barrier()  # the others' barrier
    out[i] = 1


def test_an_exception_the_shader_handled_is_not_blamed_for_the_divergence():
    with pytest.raises(ash.BarrierDivergenceError) as err:
        ash.run(handles_and_waits, out=np.zeros(4, np.uint32))
    assert "ValueError" not in str(err.value) and not getattr(err.value, "__notes__", None)
    assert f".py:{line(handles_and_waits.fn, '# the handler')} in" in str(err.value)


@ash.compute(workgroup_size=4)
async def one_raises_one_holds(out: ash.Storage[u32], *, local_invocation_index: u32):
    i = local_invocation_index
    try:
        if i == 0:
            raise LookupError("held")
    finally:
        if i == 0:
            await ash.workgroup_barrier()  # held here
    if i == 3:
        raise RuntimeError("the run's own")  # the run's error
    await ash.workgroup_barrier()


def test_the_exception_that_ended_the_run_stays_the_reported_one():
    with pytest.raises(ash.ShaderError) as err:
        ash.run(one_raises_one_holds, out=np.zeros(4, np.uint32))
    assert isinstance(err.value.original, RuntimeError)
    assert "local_invocation_index=3" in err.value.invocation
