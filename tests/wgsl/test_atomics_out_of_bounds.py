"""An atomic out of bounds follows WGSL's robust access as a plain access does: it has no
effect, returns zero (a compare-exchange: old value zero, not exchanged), and is an
``OutOfBounds`` finding naming the invocation and the line, with the kind Lockstep gives it
("store" for an atomic that writes, "load" for ``atomicLoad``); never an ``IndexError``. The
coroutine schedules and Lockstep agree."""

import inspect

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import i32, u32

SCHEDULES = [ash.InOrder(), ash.Reverse(), ash.Lockstep()]

PAST_THE_END = """
@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    out[i] = atomicAdd(&c[i + 2u], 1u);
    out[4u + i] = atomicLoad(&c[1u + i * 3u]);
    let r = atomicCompareExchangeWeak(&c[i * 4u], 0u, 7u);
    out[8u + i] = r.old_value + select(0u, 100u, r.exchanged);
}
"""


def oob(result):
    return sorted((f.memory, f.access.kind, f.access.line, f.count, f.length,
                   sorted(map(str, f.elements)))
                  for f in result.findings if isinstance(f, ash.OutOfBounds))


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_a_wgsl_atomic_past_the_end_does_nothing_returns_zero_and_is_a_finding(schedule):
    c, out = np.array([0, 5, 0, 0], np.uint32), np.full(12, 9, np.uint32)
    r = ash.run(ash.load_wgsl(PAST_THE_END)["main"], 1, schedule=schedule, sanitize="report",
                c=c, out=out)
    assert oob(r) == [("c", "load", 7, 3, 4, ["10", "4", "7"]),
                      ("c", "store", 6, 2, 4, ["4", "5"]),
                      ("c", "store", 8, 3, 4, ["12", "4", "8"])]
    assert not [f for f in r.findings if isinstance(f, ash.DataRace)]
    # lanes 0 and 1 add to c[2] and c[3]; lane 0's compare-exchange finds 0 in c[0]
    assert c.tolist() == [7, 5, 1, 1]
    assert out[:4].tolist() == [0, 0, 0, 0]  # old values: 0, 0, and zero out of bounds
    assert out[4:8].tolist() == [5, 0, 0, 0]  # atomicLoad of c[1], then zero out of bounds
    assert out[8:].tolist() == [100, 0, 0, 0]  # c[0] exchanged; outside: 0, not exchanged
    finding = next(f for f in r.findings if f.access.line == 6)
    assert "by global_invocation_id=(" in finding.render()
    assert "atomicAdd(&c[i + 2u], 1u);" in finding.render()


ws = ash.workgroup(ash.array(ash.atomic(u32), 4))


@ash.compute(workgroup_size=4)
async def python_atomics(c: ash.Storage[u32], out: ash.Storage[u32], *,
                         local_invocation_index: u32):
    i = local_invocation_index
    out[i] = await ash.atomic_add(ash.ptr(c, i + 2), 1)  # storage, past the end
    await ash.atomic_or(ash.ptr(ws, i32(i) - 3), 1)  # workgroup, negative for i < 3


@pytest.mark.parametrize("schedule", SCHEDULES[:2], ids=repr)
def test_a_python_atomic_out_of_bounds_or_negative_is_a_finding_too(schedule):
    c, out = np.zeros(4, np.uint32), np.full(4, 9, np.uint32)
    r = ash.run(python_atomics, schedule=schedule, sanitize="report", c=c, out=out)
    src, start = inspect.getsourcelines(python_atomics.fn)
    at = {k: start + next(n for n, s in enumerate(src) if k in s) for k in ("past", "negative")}
    assert oob(r) == [("c", "store", at["past"], 2, 4, ["4", "5"]),
                      ("ws", "store", at["negative"], 3, 4, ["-1", "-2", "-3"])]
    assert c.tolist() == [0, 0, 1, 1] and out.tolist() == [0, 0, 0, 0]


def test_an_atomic_out_of_bounds_with_the_detector_off_is_dropped_quietly():
    c, out = np.zeros(4, np.uint32), np.full(4, 9, np.uint32)
    r = ash.run(python_atomics, sanitize="off", c=c, out=out)
    assert r.findings == [] and c.tolist() == [0, 0, 1, 1] and out.tolist() == [0, 0, 0, 0]
