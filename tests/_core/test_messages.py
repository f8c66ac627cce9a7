"""Messages that point at the right place: a rendezvous reached inside helpers is named by its
chain of call sites (``async def`` helpers and generator-based ``@types.coroutine`` ones, on
every loop: general, fast paths, lean fragment rounds), and an error raised inside generated
code, the standard library or an async library is reported at the user's own line (an async
library that finds no event loop is a ForeignAwaitError)."""

from __future__ import annotations

import asyncio
import inspect
import re
import types

import anyio
import numpy as np
import pytest

import asyncshader as ash
from asyncshader import vec2f, vec3f, vec4f, workgroup_barrier

SCHEDULES = [ash.InOrder(), ash.Reverse(), ash.Random(0), ash.Random(1)]


class Observer(ash.Instrument):
    """Watching resumes forces the general loop (no fast path, no lean units)."""

    def invocation_resumed(self, inv):
        pass


def line_of(fn, text):
    """The line number of the first source line of ``fn`` containing ``text``."""
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(src) if text in line)


def member_blocks(msg: str) -> dict[str, str]:
    """A divergence message's per-member blocks: ``"0-1"`` -> that line and its
    ``called from`` lines."""
    blocks: dict[str, str] = {}
    lanes = None
    for line in msg.splitlines():
        m = re.match(r"  [a-z_ ]+? ([0-9][0-9, -]*) \(\d+ invocations?[^)]*\): (.*)", line)
        if m:
            lanes = m.group(1)
            blocks[lanes] = m.group(2)
        elif lanes is not None and line.startswith("      called from "):
            blocks[lanes] += "\n" + line.strip()
        else:
            lanes = None
    return blocks


def at(fn, text):
    """``file:line`` of the line of ``fn`` holding ``text``, as messages write it."""
    return f"test_messages.py:{line_of(fn, text)}"


# ------------------------------------------------- a barrier in a helper called from two places
async def sync():
    await workgroup_barrier()  # the helper's barrier


@types.coroutine
def gen_sync():
    yield from workgroup_barrier()  # the generator helper's barrier


@ash.compute(workgroup_size=4)
async def helper_from_two_branches(out: ash.Storage, *, local_invocation_index):
    if local_invocation_index < 2:
        await sync()  # call A
    else:
        await sync()  # call B
    out[local_invocation_index] = 1


@ash.compute(workgroup_size=4)
async def gen_helper_from_two_branches(out: ash.Storage, *, local_invocation_index):
    if local_invocation_index < 2:
        await gen_sync()  # call A
    else:
        await gen_sync()  # call B
    out[local_invocation_index] = 1


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
@pytest.mark.parametrize(("kernel", "helper", "barrier"), [
    (helper_from_two_branches, sync, "the helper's barrier"),
    (gen_helper_from_two_branches, gen_sync, "the generator helper's barrier"),
], ids=["async-def", "types-coroutine"])
@pytest.mark.parametrize("observed", [False, True], ids=["fast", "general"])
def test_a_barrier_in_a_helper_called_from_two_branches_names_each_call_site(
        kernel, helper, barrier, schedule, observed):
    """Both halves stand at the helper's one barrier line; what differs is where the helper
    was called from, and the message says it for each half."""
    out = np.zeros(4, np.uint32)
    with pytest.raises(ash.BarrierDivergenceError) as info:
        ash.run(kernel, out=out, schedule=schedule,
                instruments=[Observer()] if observed else ())
    blocks = member_blocks(str(info.value))
    assert set(blocks) == {"0-1", "2-3"}, str(info.value)
    for lanes, call in (("0-1", "# call A"), ("2-3", "# call B")):
        first, called = blocks[lanes].split("\n")
        assert first.startswith("waits at ")
        assert f"{at(helper, barrier)} in workgroup_barrier(): " in first
        assert called.startswith("called from ") and f"{at(kernel.fn, call)}: " in called
    assert len(info.value.positions) == 2
    assert not out.any()


@types.coroutine
def gen_split(flag):
    if flag:
        yield from workgroup_barrier()  # generator, first
    else:
        yield from workgroup_barrier()  # generator, second


async def through(flag):
    await gen_split(flag)  # the async helper's await


@ash.compute(workgroup_size=4)
async def diverges_inside_a_generator_helper(out: ash.Storage, *, local_invocation_index):
    await through(local_invocation_index < 2)  # one call site in the kernel
    out[local_invocation_index] = 1


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
@pytest.mark.parametrize("observed", [False, True], ids=["fast", "general"])
def test_a_divergence_inside_a_generator_based_helper_is_found(schedule, observed):
    """The await chain goes kernel -> async helper -> @types.coroutine helper -> barrier: the
    two halves differ only inside the generator, which the call-site reader did not follow
    (every member passed "the same" barrier, and the run went on)."""
    out = np.zeros(4, np.uint32)
    with pytest.raises(ash.BarrierDivergenceError) as info:
        ash.run(diverges_inside_a_generator_helper, out=out, schedule=schedule,
                instruments=[Observer()] if observed else ())
    blocks = member_blocks(str(info.value))
    assert set(blocks) == {"0-1", "2-3"}, str(info.value)
    for lanes, which in (("0-1", "generator, first"), ("2-3", "generator, second")):
        lines = blocks[lanes].split("\n")
        assert f"{at(gen_split, which)} in workgroup_barrier(): " in lines[0]
        assert f"{at(through, 'the async helper')}: " in lines[1]
        assert f"{at(diverges_inside_a_generator_helper.fn, 'one call site')}: " in lines[2]
    assert not out.any()


@types.coroutine
def gen_dpdx(v, flag):
    if flag:
        d = yield from ash.dpdx(v)  # derivative, first
    else:
        d = yield from ash.dpdx(v)  # derivative, second
    return d


@ash.fragment
async def derivative_in_a_generator_helper(*, position: vec4f):
    d = await gen_dpdx(position.x, position.x < 1)  # one call site in the shader
    return vec4f(d, 0, 0, 1)


@pytest.mark.parametrize("observed", [False, True], ids=["lean", "general"])
def test_a_derivative_that_diverges_inside_a_generator_helper_is_a_uniformity_error(observed):
    """The quad's left and right columns take dpdx at two different lines of a generator-based
    helper: the lean fragment rounds compare call sites with the same reader, and must see it."""
    with pytest.raises(ash.DerivativeUniformityError) as info:
        ash.run_fragments(derivative_in_a_generator_helper, 2, 2,
                          instruments=[Observer()] if observed else ())
    blocks = member_blocks(str(info.value))
    assert set(blocks) == {"0, 2", "1, 3"}, str(info.value)
    assert f"{at(gen_dpdx, 'derivative, first')} in dpdx(): " in blocks["0, 2"]
    assert f"{at(gen_dpdx, 'derivative, second')} in dpdx(): " in blocks["1, 3"]
    shader = at(derivative_in_a_generator_helper.fn, "one call site") + ": "
    assert all(block.split("\n")[1].startswith("called from ") and shader in block
               for block in blocks.values())


# ------------------------------------------------------ errors inside generated / library code
@ash.compute(workgroup_size=2)
async def mixes_vector_sizes(out: ash.Storage, *, local_invocation_index):
    v = vec3f(1, 2, 3) + vec2f(1, 2)  # generated vector code raises
    out[local_invocation_index] = v.x


@ash.compute(workgroup_size=2)
async def empty_queue(out: ash.Storage, *, local_invocation_index):
    out[local_invocation_index] = asyncio.Queue().get_nowait()  # asyncio's own file raises


def combine(a, b):
    return a * b  # in the user's helper, generated code raises


@ash.compute(workgroup_size=2)
async def helper_mixes(out: ash.Storage, *, local_invocation_index):
    out[local_invocation_index] = combine(vec3f(1, 2, 3), vec2f(1, 2)).x


@pytest.mark.parametrize(("kernel", "fn", "marker", "original"), [
    (mixes_vector_sizes, None, "generated vector code raises", TypeError),
    (empty_queue, None, "asyncio's own file raises", asyncio.QueueEmpty),
    (helper_mixes, combine, "in the user's helper", TypeError),
], ids=["generated", "stdlib", "helper"])
@pytest.mark.parametrize("observed", [False, True], ids=["fast", "general"])
def test_an_error_raised_in_generated_or_library_code_points_at_the_users_line(
        kernel, fn, marker, original, observed):
    with pytest.raises(ash.ShaderError) as info:
        ash.run(kernel, out=np.zeros(2, np.float32),
                instruments=[Observer()] if observed else ())
    msg = str(info.value)
    assert isinstance(info.value.original, original)
    assert msg.endswith(at(fn or kernel.fn, marker) + ": " + next(
        line.strip() for line in inspect.getsource(fn or kernel.fn).splitlines()
        if marker in line)), msg
    assert "<string>" not in msg and "asyncio/" not in msg


# ------------------------------------------------- async libraries without their event loop
@ash.compute(workgroup_size=2)
async def awaits_anyio(out: ash.Storage, *, local_invocation_index):
    await anyio.sleep(0)  # anyio, no event loop
    out[local_invocation_index] = 1


@ash.compute(workgroup_size=2)
async def awaits_asyncio_sleep(out: ash.Storage, *, local_invocation_index):
    await asyncio.sleep(0.001)  # asyncio, no running loop
    out[local_invocation_index] = 1


async def pause():
    await anyio.sleep(0)  # anyio, inside the shader's helper


@ash.compute(workgroup_size=2)
async def awaits_anyio_in_a_helper(out: ash.Storage, *, local_invocation_index):
    await pause()
    out[local_invocation_index] = 1


@pytest.mark.parametrize(("kernel", "fn", "marker", "called"), [
    (awaits_anyio, None, "anyio, no event loop", "anyio's sleep()"),
    (awaits_asyncio_sleep, None, "asyncio, no running loop", "asyncio's sleep()"),
    (awaits_anyio_in_a_helper, pause, "inside the shader's helper", "anyio's sleep()"),
], ids=["anyio", "asyncio", "helper"])
@pytest.mark.parametrize("observed", [False, True], ids=["fast", "general"])
def test_an_async_library_without_its_event_loop_is_a_foreign_await_at_the_shaders_line(
        kernel, fn, marker, called, observed):
    """Under ash.run no event loop runs: anyio raises NoEventLoopError (sniffio's
    AsyncLibraryNotFoundError on older versions), asyncio RuntimeError, from their own files.
    Either is the shader awaiting something that is not an asyncshader operation."""
    out = np.zeros(2, np.uint32)
    with pytest.raises(ash.ForeignAwaitError) as info:
        ash.run(kernel, out=out, instruments=[Observer()] if observed else ())
    msg = str(info.value)
    assert re.search(f"called {re.escape(called)} at \\S*{at(fn or kernel.fn, marker)}: ", msg), msg
    assert "global_invocation_id=(0,0,0)" in msg
    assert "needs an event loop" in msg
    assert "may await only asyncshader operations" in msg and "own async helpers" in msg
    assert "site-packages" not in msg and "asyncio/" not in msg
    assert isinstance(info.value.__cause__, RuntimeError)
    assert not out.any()


@ash.compute(workgroup_size=2)
async def raises_its_own_runtime_error(out: ash.Storage):
    raise RuntimeError("the shader's own error")


def test_a_shaders_own_runtime_error_stays_a_shader_error():
    with pytest.raises(ash.ShaderError, match="RuntimeError: the shader's own error"):
        ash.run(raises_its_own_runtime_error, out=np.zeros(1, np.uint32))


@pytest.mark.anyio
async def test_awaiting_anyio_inside_a_running_loop_is_a_foreign_await_too():
    with pytest.raises(ash.ForeignAwaitError) as info:
        await ash.dispatch(awaits_anyio, out=np.zeros(2, np.uint32))
    assert f"{at(awaits_anyio.fn, 'anyio, no event loop')}: " in str(info.value)
    assert "own async helpers" in str(info.value)
