"""Every option of every public entry point is checked at the API boundary: a bad value is an
OptionError naming the option, the value and the form it takes, before anything runs; nothing
is guessed (``"64"`` is not 64, ``True`` is not 1)."""

import anyio
import numpy as np
import pytest
from helpers import shared_add, two

import asyncshader as ash
from asyncshader import u32, vec4f


@ash.compute(workgroup_size=4)
async def fill(out: ash.Storage, *, global_invocation_id: ash.vec3u):
    out[global_invocation_id.x] = global_invocation_id.x


@ash.fragment
async def red(*, position: vec4f):
    return vec4f(1, 0, 0, 1)


def run_fill(**options):
    return ash.run(fill, **{"out": np.zeros(64, np.uint32), **options})


def run_red(**options):
    return ash.run_fragments(red, **{"width": 4, "height": 2, **options})


def decorate(**options):
    async def k(out: ash.Storage):
        pass
    return ash.compute(**{"workgroup_size": 1, **options})(k)


def explore(**options):
    return ash.explore(**{"kernel": shared_add, "setup": two, **options})


BAD = [
    # the kernel decorator
    (decorate, "workgroup_size", "64", "without quotes"),
    (decorate, "workgroup_size", True, "a bool is not a number"),
    (decorate, "workgroup_size", 64.0, "write workgroup_size=64"),
    (decorate, "workgroup_size", (8, "8"), "is not an int"),
    (decorate, "workgroup_size", (), "it is empty"),
    (decorate, "workgroup_size", {8, 4}, "a tuple of 1 to 3 ints"),
    (decorate, "workgroup_size", [0, 1], "at least 1 in every dimension"),
    (decorate, "workgroup_size", None, "a tuple of 1 to 3 ints"),
    (decorate, "derivatives", "quad", "None, 'quads' or 'linear'"),
    (decorate, "strict", "yes", "True or False"),
    # run (dispatch shares the checks: see below)
    (run_fill, "workgroups", "12", "write workgroups=12"),
    (run_fill, "workgroups", True, "a bool is not a number"),
    (run_fill, "workgroups", 2.0, "write workgroups=2"),
    (run_fill, "workgroups", (2, 2.5), "is not an int"),
    (run_fill, "workgroups", (1, 1, 1, 1), "1 to 3 dimensions"),
    (run_fill, "workgroups", -1, "must not be negative"),
    (run_fill, "max_live_workgroups", True, "a positive int"),
    (run_fill, "max_live_workgroups", "2", "a positive int"),
    (run_fill, "max_points_per_invocation", None, "a positive int"),
    (run_fill, "max_points_per_invocation", 0, "a positive int"),
    (run_fill, "max_points_per_invocation", 1.5, "a positive int"),
    (run_fill, "instruments", 5, "a list of Instrument instances"),
    (run_fill, "instruments", [5], "a list of Instrument instances"),
    (run_fill, "instruments", [ash.Footprints], "pass an instance"),
    (run_fill, "instruments", ash.Footprints(), "write instruments=[...]"),
    (run_fill, "allow_races", 5, "a name or a collection of names"),
    (run_fill, "allow_races", ["out", 1], "1 is not a str"),
    (run_fill, "schedule", 42, "a Strategy"),
    (run_fill, "schedule", ash.Random, "pass an instance"),
    (run_fill, "schedule", "randm", "did you mean 'random'"),
    # the fragment stage
    (run_red, "width", "4", "write width=4"),
    (run_red, "height", True, "a non-negative int"),
    (run_red, "width", -1, "a non-negative int"),
    (run_red, "max_live_quads", 0, "a positive int"),
    (run_red, "max_points_per_invocation", None, "a positive int"),
    (run_red, "position_z", "0.5", "a number"),
    (run_red, "front_facing", 1, "True or False"),
    (run_red, "instruments", 5, "a list of Instrument instances"),
    (run_red, "schedule", "nonsense", "a strategy name"),
    # explore
    (explore, "runs", True, "a positive int"),
    (explore, "runs", "10", "write runs=10"),
    (explore, "time_budget", -1, "seconds > 0"),
    (explore, "stop_on_failure", "yes", "True or False"),
    (explore, "recheck", "0.1", "a fraction"),
    (explore, "recheck", 2, "a fraction"),
    (explore, "progress", 5, "progress(done, total)"),
    (explore, "setup", 5, "setup() -> dict"),
    (explore, "check", 5, "check(result)"),
    (explore, "kernel", lambda: None, "a @compute kernel or a @fragment shader"),
    (explore, "strategy", 5, "a Strategy or one of the names"),
    (explore, "strategy", ash.PCT, "pass an instance"),
]


@pytest.mark.parametrize("entry, option, value, hint", BAD,
                         ids=[f"{e.__name__}-{o}={v!r}" for e, o, v, _ in BAD])
def test_a_bad_option_names_the_option_the_value_and_the_form(entry, option, value, hint):
    with pytest.raises(ash.OptionError) as info:
        entry(**{option: value})
    message = str(info.value)
    assert message.startswith(option) or f"strategy {value!r}" in message, message
    shown = value.__name__ if isinstance(value, type) else repr(value)[:20]
    assert shown in message and hint in message, message


@pytest.mark.parametrize("make, option, value", [
    (ash.Random, "Random(seed)", "1"), (ash.Random, "Random(seed)", True),
    (lambda v: ash.PCT(seed=v), "PCT(seed)", 1.5), (lambda v: ash.PCT(depth=v), "PCT depth", 0),
    (lambda v: ash.PCT(steps=v), "PCT steps", 0), (ash.Exhaustive, "max_preemptions", -1),
    (ash.Exhaustive, "max_preemptions", True), (lambda v: ash.Exhaustive(por=v), "por", "no"),
])
def test_strategy_constructors_check_their_options(make, option, value):
    with pytest.raises(ash.OptionError, match=f"{option.replace('(', '.').replace(')', '.')}"
                                              f".*{value!r}"):
        make(value)


def test_shrink_checks_its_options(tmp_path):
    failing = ash.run(shared_add, **two(), schedule=ash.Random(1)).trace
    with pytest.raises(ash.OptionError, match="max_runs must be a positive int, got 0"):
        ash.shrink(shared_add, two, failing, max_runs=0)
    with pytest.raises(ash.OptionError, match="setup must be a function"):
        ash.shrink(shared_add, None, failing)
    with pytest.raises(ash.TraceError, match="not int"):
        ash.shrink(shared_add, two, 5)
    with pytest.raises(ash.OptionError, match="kernel must be a @compute kernel"):
        ash.schedule_stats(object(), two, failing)


def test_fragment_decorator_refuses_what_is_not_a_function():
    with pytest.raises(ash.OptionError, match=r"@fragment must be an async def shader .*, got 5"):
        ash.fragment(5)


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_the_awaitable_entry_points_check_the_same_options(backend):
    async def main():
        with pytest.raises(ash.OptionError, match="workgroups must be"):
            await ash.dispatch(fill, "12", out=np.zeros(64, np.uint32))
        with pytest.raises(ash.OptionError, match="max_live_quads must be"):
            await ash.dispatch_fragments(red, 4, 2, max_live_quads=True)
    anyio.run(main, backend=backend)


def test_the_forms_the_options_take_still_run():
    for size in (4, np.int64(4), (4,), [2, 2], (2, 2, 1)):
        @ash.compute(workgroup_size=size)
        async def k(out: ash.Storage, *, local_invocation_index: u32):
            out[local_invocation_index] = local_invocation_index + 1
        out = np.zeros(4, np.uint32)
        ash.run(k, out=out)
        assert out.tolist() == [1, 2, 3, 4], size
    for groups in (np.uint32(16), (16,), [16, 1], (16, 1, 1), np.array([16, 1])):
        out = np.zeros(64, np.uint32)
        run_fill(workgroups=groups, out=out)
        assert out.tolist() == list(range(64)), groups
    assert run_fill(workgroups=0).counters.invocations == 0
    r = run_red(position_z=np.float32(0.5), front_facing=np.bool_(False),
                instruments=(ash.Footprints(),), allow_races="out")
    assert r.output.shape == (2, 4, 4)
