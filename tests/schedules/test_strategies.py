"""Reverse, PCT and the one-line trace strings."""

import importlib.util
import shlex
import sys
import textwrap

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32

sys.path.insert(0, "examples")
import lost_update as lu


@ash.compute(workgroup_size=2)
async def torn(a: ash.Storage, seen: ash.Storage, *, local_invocation_index: u32):
    """Invocation 0 stores a[0] then a[1]; invocation 1 loads a[0] then a[1]. Seeing (1, 0)
    needs two ordering constraints: a depth-2 bug."""
    if local_invocation_index == 0:
        await ash.atomic_store(ash.ptr(a, 0), 1)
        await ash.atomic_store(ash.ptr(a, 1), 1)
    else:
        x = await ash.atomic_load(ash.ptr(a, 0))
        y = await ash.atomic_load(ash.ptr(a, 1))
        seen[0], seen[1] = x, y


def torn_setup():
    return {"a": np.zeros(2, np.uint32), "seen": np.zeros(2, np.uint32)}


def torn_check(result):
    assert result["seen"].tolist() != [1, 0], "saw the second store without the first"


def run_lu(schedule):
    """One dispatch of the lost-update example (its race is the point: detector off)."""
    return ash.run(lu.lost_update, **lu.setup(), sanitize="off", schedule=schedule)


def test_reverse_runs_the_highest_invocation_first():
    log = np.zeros(4, np.uint32)

    @ash.compute(workgroup_size=4)
    async def order(log: ash.Storage, t: ash.Storage, *, local_invocation_index: u32):
        n = await ash.atomic_add(ash.ptr(t, 0), 1)
        log[n] = local_invocation_index

    ash.run(order, log=log, t=np.zeros(1, np.uint32), schedule=ash.Reverse())
    assert log.tolist() == [3, 2, 1, 0]
    assert repr(ash.Reverse()) == "Reverse()"


def test_pct_is_deterministic_and_described_completely():
    a = run_lu(ash.PCT(5, depth=3, steps=20))
    b = run_lu(ash.PCT(5, depth=3, steps=20))
    assert a.trace == b.trace
    assert a.trace.strategy == {"name": "pct", "seed": 5, "depth": 3, "steps": 20}
    traces = {ash.run(torn, **torn_setup(), schedule=ash.PCT(s, 2, 8)).trace.to_string()
              for s in range(20)}
    assert len(traces) > 3
    with pytest.raises(ValueError, match="depth must be an int >= 1"):
        ash.PCT(0, depth=0)


def test_pct_with_depth_d_finds_a_depth_d_bug_and_not_with_less():
    # depth 1: no change points, each invocation runs to the end in priority order
    r1 = ash.explore(torn, torn_setup, torn_check, ash.PCT(0, depth=1), runs=200)
    assert not r1.failures and r1.runs == 200
    r2 = ash.explore(torn, torn_setup, torn_check, ash.PCT(0, depth=2), runs=200)
    assert r2.failures, "PCT depth 2 should find the depth-2 bug within 200 runs"
    # the lost update needs two change points: depth 3
    r3 = ash.explore(lu.lost_update, lu.setup, lu.check, ash.PCT(0, depth=2), runs=300)
    assert not r3.failures
    r4 = ash.explore(lu.lost_update, lu.setup, lu.check, ash.PCT(0, depth=3), runs=3000)
    assert r4.failures


def test_trace_strings_round_trip_and_are_shell_safe():
    for strategy in (ash.InOrder(), ash.Random(3), ash.PCT(1), ash.Reverse()):
        result = run_lu(strategy)
        s = result.trace.to_string()
        assert shlex.quote(s) == s and " " not in s and s.startswith("ash1:lost_update:")
        back = ash.Trace.load(s)
        assert back == result.trace
        again = run_lu(s)  # a string is a schedule
        assert again.trace == result.trace


def test_damaged_or_future_trace_strings_say_what_is_wrong():
    s = run_lu(ash.Random(1)).trace.to_string()
    with pytest.raises(ValueError, match="payload is damaged"):
        ash.Trace.load(s[:-5] + "AAAAA")
    with pytest.raises(ValueError, match="version 9 is not supported"):
        ash.Trace.load("ash9" + s[4:])
    with pytest.raises(ValueError, match="not an asyncshader trace string"):
        ash.Trace.from_string("hello")


def _load(tmp_path, name, body):
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    spec = importlib.util.spec_from_file_location("changing_kernel", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.filterwarnings("ignore::asyncshader.stages.dispatch.TraceSourceWarning")
def test_replaying_a_string_against_a_changed_kernel_names_the_first_differing_decision(
        tmp_path):
    v1 = _load(tmp_path, "v1", """
        import numpy as np, asyncshader as ash
        from asyncshader import u32
        @ash.compute(workgroup_size=2)
        async def k(c: ash.Storage, *, local_invocation_index: u32):
            await ash.atomic_add(ash.ptr(c, 0), 1)
            await ash.atomic_add(ash.ptr(c, 0), 1)
            await ash.atomic_add(ash.ptr(c, 0), 1)
    """)
    v2 = _load(tmp_path, "v2", """
        import numpy as np, asyncshader as ash
        from asyncshader import u32
        @ash.compute(workgroup_size=2)
        async def k(c: ash.Storage, *, local_invocation_index: u32):
            await ash.atomic_add(ash.ptr(c, 0), 1)
    """)
    s = ash.run(v1.k, c=np.zeros(1, np.uint32), schedule=ash.Random(4)).trace.to_string()
    with pytest.raises(ash.ReplayMismatchError) as err:
        ash.run(v2.k, c=np.zeros(1, np.uint32), schedule=s)
    msg = str(err.value)
    assert "decision" in msg and "the kernel's source changed" in msg
    assert v1.k.identity["source_hash"] in msg and v2.k.identity["source_hash"] in msg
