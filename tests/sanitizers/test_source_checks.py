"""Decoration-time checks of shader source: a forgotten `await` is an error, not a no-op."""

import functools

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


@pytest.mark.parametrize("line, name", [
    ("x = ash.subgroup_add(v)", "ash.subgroup_add"),
    ("return ash.dpdx(v)", "ash.dpdx"),
    ("y = 2 * ash.dpdx(v)", "ash.dpdx"),
    ("out[0] = ash.quad_swap_x(v) + 1.0", "ash.quad_swap_x"),
    ("x = f32(ash.subgroup_max(v))", "ash.subgroup_max"),
])
def test_an_operation_whose_value_is_used_without_await_is_refused_with_the_line(line, name):
    """The value of an unawaited operation is the operation itself, not its result: an error
    at decoration naming the line, in a fragment shader as in a compute kernel."""
    source = ("async def shader(out: ash.Storage, *, position: ash.vec4f):\n"
              "    v = position.x\n"
              f"    {line}\n")
    space = {"ash": ash, "f32": ash.f32}
    exec(compile(source, "<forgot>", "exec"), space)
    fn = space["shader"]
    import linecache
    linecache.cache["<forgot>"] = (len(source), None, source.splitlines(True), "<forgot>")
    try:
        with pytest.raises(TypeError, match=rf"<forgot>:3: {name}\(\) is called without "
                           r"`await`, so its value is the unawaited operation") as info:
            ash.fragment(fn)
    finally:
        del linecache.cache["<forgot>"]
    assert f"Write `await {name}(...)`" in str(info.value)


def test_an_operation_kept_in_a_name_and_awaited_later_is_fine():
    @ash.compute(workgroup_size=2)
    async def keeps(out: ash.Storage, *, local_invocation_index: ash.u32):
        pending = ash.atomic_add(ash.ptr(out, 0), 1)
        await pending

    import numpy as np

    out = np.zeros(1, np.uint32)
    ash.run(keeps, out=out)
    assert out[0] == 2


def test_workgroup_memory_declared_inside_a_kernel_is_refused():
    with pytest.raises(ash.ShaderCreationError, match=r"test_source_checks.py:\d+: in "
                       r".*inside_kernel: ash.workgroup\(\.\.\.\) inside a function") as info:
        @ash.compute(workgroup_size=4)
        async def inside_kernel(out: ash.Storage, *, local_invocation_index: ash.u32):
            tile = ash.workgroup(ash.array(ash.f32, 4))
            tile[local_invocation_index] = 1.0
    assert "module scope" in str(info.value) and "top level of the module" in str(info.value)


# ------------------------------------------------ direct awaits: suspending in the shader's frame
async def a_helper():
    await workgroup_barrier()


async def direct(out: ash.Storage):
    await workgroup_barrier()
    v = await ash.dpdx(await ash.quad_swap_x(1.0))  # awaits inside an await's arguments
    await ash.atomic_add(ash.ptr(out, 0), v)

    async def never_awaited_here():  # its body runs in a frame of its own
        await a_helper()


def test_direct_awaits_lists_the_operations_a_shader_awaits_by_name_or_module_attribute():
    from asyncshader.sanitizers.source_checks import direct_awaits

    targets = {target for _, target in direct_awaits(direct)}
    assert targets == {workgroup_barrier, ash.dpdx, ash.quad_swap_x, ash.atomic_add}


async def awaits_a_helper():
    await a_helper()


async def awaits_a_variable():
    op = workgroup_barrier()
    await op


async def awaits_either(flag):
    await (workgroup_barrier() if flag else a_helper())


async def awaits_in_a_comprehension():
    return [await ash.dpdx(float(i)) for i in range(2)]


async def awaits_in_a_default():
    async def inner(x=await a_helper()):  # noqa: B008  (evaluated in this frame)
        return x
    return inner


async def async_with(cm):
    async with cm:
        pass


def make_helper():
    return a_helper()


async def awaits_what_a_plain_function_returns():
    await make_helper()


async def shadows_an_operation_with_a_local():
    workgroup_barrier = a_helper
    await workgroup_barrier()


async def binds_an_operation_name_in_a_comprehension():
    [(workgroup_barrier := a_helper) for _ in range(1)]
    await workgroup_barrier()


async def defines_an_operation_name():
    async def workgroup_barrier():
        await a_helper()
    await workgroup_barrier()


async def imports_as_an_operation_name():
    from asyncio import sleep as workgroup_barrier
    await workgroup_barrier()


async def loops_over_an_operation_name():
    for workgroup_barrier in (a_helper,):  # noqa: F402  (the point of the test)
        await workgroup_barrier()


async def captures_an_operation_name(op):
    match op:
        case workgroup_barrier:
            await workgroup_barrier()


async def shadows_a_module_with_a_class():
    class ash:
        workgroup_barrier = a_helper
    await ash.workgroup_barrier()


async def declares_an_operation_name_global():
    global workgroup_barrier
    await workgroup_barrier()


def _nonlocal_user():
    op = workgroup_barrier

    async def declares_an_operation_name_nonlocal():
        nonlocal op
        await op()
    return declares_an_operation_name_nonlocal


def _wrapped_operation(op):
    @functools.wraps(op)  # copies the operation's mark, not what it returns
    def wrapper():
        return a_helper()
    return wrapper


wrapped_barrier = _wrapped_operation(workgroup_barrier)


async def awaits_a_wrapper_of_an_operation():
    await wrapped_barrier()


SHADOWS = [shadows_an_operation_with_a_local, binds_an_operation_name_in_a_comprehension,
           defines_an_operation_name, imports_as_an_operation_name, loops_over_an_operation_name,
           captures_an_operation_name, shadows_a_module_with_a_class,
           declares_an_operation_name_global, _nonlocal_user(), awaits_a_wrapper_of_an_operation]


@pytest.mark.parametrize("fn", SHADOWS, ids=lambda f: f.__name__)
def test_direct_awaits_is_none_when_the_shader_may_rebind_what_it_awaits(fn):
    from asyncshader.sanitizers.source_checks import direct_awaits

    assert direct_awaits(fn) is None


def _wrap(fn):
    @functools.wraps(fn)
    async def direct(out):  # the name of what it wraps, whose source inspect would read
        return await fn(out)
    return direct


a_wrapper = _wrap(direct)


@pytest.mark.parametrize("fn", [awaits_a_helper, awaits_a_variable, awaits_either,
                                awaits_in_a_comprehension, awaits_in_a_default, async_with,
                                awaits_what_a_plain_function_returns, a_wrapper],
                         ids=["helper", "variable", "either", "comprehension", "default",
                              "async_with", "plain_function", "wrapper"])
def test_direct_awaits_is_none_when_a_shader_may_suspend_in_another_coroutine(fn):
    from asyncshader.sanitizers.source_checks import direct_awaits

    assert direct_awaits(fn) is None


def test_a_name_rebound_after_decoration_is_no_longer_direct(monkeypatch):
    from asyncshader.sanitizers.source_checks import direct_awaits, still_direct

    found = direct_awaits(direct)
    assert still_direct(direct, found)
    monkeypatch.setitem(direct.__globals__, "workgroup_barrier", a_helper)
    assert not still_direct(direct, found)


def test_a_trap_function_must_not_be_an_async_def():
    from asyncshader._core.traps import trap_function

    with pytest.raises(TypeError, match="not an async def"):
        trap_function(a_helper)


def test_a_module_whose_getattr_raises_is_read_as_unknown_not_an_error():
    import types

    odd = types.ModuleType("odd")

    def explode(name):
        raise RuntimeError(f"no {name} here")
    odd.__getattr__ = explode

    async def uses_odd(out: ash.Storage):
        await odd.barrier()

    from asyncshader.sanitizers.source_checks import direct_awaits

    assert direct_awaits(uses_odd) is None
    ash.compute(workgroup_size=2)(uses_odd)  # decorating reads the same names: no error
