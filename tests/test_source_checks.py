"""Decoration-time checks of shader source: a forgotten `await` is an error, not a no-op."""

import pytest

import asyncshader as ash
from asyncshader import workgroup_barrier


def test_a_barrier_called_without_await_is_refused_at_decoration_with_the_line():
    with pytest.raises(TypeError) as info:
        @ash.compute(workgroup_size=4)
        async def forgets(out: ash.Storage):
            workgroup_barrier()  # forgot await

    msg = str(info.value)
    assert "test_source_checks.py:" in msg
    assert "workgroup_barrier() is called without `await`" in msg
    assert "Write `await workgroup_barrier(...)`" in msg


def test_module_attribute_calls_and_async_helpers_are_checked_too():
    async def helper(p):
        ash.atomic_add(p, 1)

    with pytest.raises(TypeError, match=r"ash.atomic_add\(\) is called without `await`"):
        @ash.compute(workgroup_size=4)
        async def uses_helper(out: ash.Storage):
            await helper(ash.ptr(out, 0))


def test_awaited_calls_sync_helpers_and_references_are_fine():
    def make_barrier():  # a plain function may build the awaitable for its caller
        return workgroup_barrier()

    @ash.compute(workgroup_size=2)
    async def fine(out: ash.Storage):
        op = ash.workgroup_barrier
        await op()
        await make_barrier()
        await ash.atomic_add(ash.ptr(out, 0), 1)

    import numpy as np

    out = np.zeros(1, np.uint32)
    ash.run(fine, out=out)
    assert out[0] == 2
