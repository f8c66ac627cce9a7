"""A dispatch started inside a running shader (``ash.run``, ``ash.dispatch`` or
``ash.run_fragments`` called by a shader) is refused before it touches anything: workgroup
variables belong to the module, so it would overwrite the workgroup memory the outer dispatch's
invocations are using. The error names the invocation, the line and the fix."""

import inspect

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32, vec4f

tile = ash.workgroup(ash.array(u32, 4))


@ash.compute(workgroup_size=4)
async def inner(out: ash.Storage[u32], *, local_invocation_index: u32):
    tile[local_invocation_index] = 99
    out[local_invocation_index] = 7


@ash.compute(workgroup_size=4)
async def outer_runs(out: ash.Storage[u32], scratch: ash.Storage[u32], *,
                     local_invocation_index: u32):
    i = local_invocation_index
    tile[i] = i
    if i == 2:
        ash.run(inner, out=scratch)  # the nested dispatch
    await ash.workgroup_barrier()
    out[i] = tile[i]


@ash.compute(workgroup_size=4)
async def outer_awaits(out: ash.Storage[u32], scratch: ash.Storage[u32], *,
                       local_invocation_index: u32):
    i = local_invocation_index
    tile[i] = i
    if i == 2:
        await ash.dispatch(inner, out=scratch)  # the nested dispatch
    await ash.workgroup_barrier()
    out[i] = tile[i]


@ash.fragment
async def red() -> vec4f:
    return vec4f(1.0, 0.0, 0.0, 1.0)


@ash.compute(workgroup_size=4)
async def outer_shades(out: ash.Storage[u32], scratch: ash.Storage[u32], *,
                       local_invocation_index: u32):
    if local_invocation_index == 2:
        ash.run_fragments(red, 2, 2)  # the nested dispatch
    out[local_invocation_index] = 1


def line(fn, text):
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, s in enumerate(src) if text in s)


@pytest.mark.parametrize("outer", [outer_runs, outer_awaits, outer_shades],
                         ids=["run", "dispatch", "run_fragments"])
def test_a_dispatch_inside_a_shader_is_refused_naming_invocation_line_and_fix(outer):
    out, scratch = np.zeros(4, np.uint32), np.zeros(4, np.uint32)
    with pytest.raises(ash.ShaderError) as err:
        ash.run(outer, out=out, scratch=scratch)
    msg = str(err.value)
    assert isinstance(err.value.original, ash.DispatchError)
    assert "local_invocation_index=2" in msg
    assert f":{line(outer.fn, '# the nested dispatch')}:" in msg
    assert "inside a running shader" in msg and "one after the other from the host" in msg
    assert scratch.tolist() == [0, 0, 0, 0]  # the inner dispatch never ran


def test_dispatches_one_after_the_other_each_keep_their_workgroup_memory():
    @ash.compute(workgroup_size=4)
    async def keeps(out: ash.Storage[u32], *, local_invocation_index: u32):
        i = local_invocation_index
        tile[i] = i
        await ash.workgroup_barrier()
        out[i] = tile[3 - i]

    out, scratch = np.zeros(4, np.uint32), np.zeros(4, np.uint32)
    ash.run(keeps, out=out)
    ash.run(inner, out=scratch)
    assert out.tolist() == [3, 2, 1, 0] and scratch.tolist() == [7, 7, 7, 7]
