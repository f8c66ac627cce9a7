"""The race detector's fix hints for a kernel loaded from WGSL name the fix in WGSL
(``atomicAdd(&buf[i], v)``, ``workgroupBarrier()``); a Python kernel's keep Python's
spelling (``atomic_add(ptr(buf, i), v)``, ``workgroup_barrier()``)."""

import numpy as np
import pytest

import asyncshader as ash

#: the coroutine detector and Lockstep's (tests/lockstep/test_lockstep_races.py)
DETECTORS = [ash.InOrder(), ash.Lockstep()]

LOST_UPDATE = """\
@group(0) @binding(0) var<storage, read_write> counter: array<u32>;

@compute @workgroup_size(4)
fn main() {
    counter[0] = counter[0] + 1u;
}
"""

HAND_OFF = """\
var<workgroup> tile: array<u32, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    tile[i] = i * 10u;
    out[i] = tile[(i + 1u) % 4u];
}
"""


def hints(module, schedule, **bindings):
    result = ash.run(module["main"], 1, sanitize="report", schedule=schedule, **bindings)
    return {f.hint for f in result.findings if getattr(f, "race", None)}


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_a_lost_update_in_wgsl_is_told_to_use_atomic_add_spelled_in_wgsl(schedule):
    found = hints(ash.load_wgsl(LOST_UPDATE), schedule, counter=np.zeros(1, np.uint32))
    assert found and all("atomicAdd(&buf[i], v)" in h and "atomic_add" not in h
                         for h in found)


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_a_hand_off_in_wgsl_is_told_to_put_a_workgroup_barrier_between_the_lines(schedule):
    found = hints(ash.load_wgsl(HAND_OFF), schedule, out=np.zeros(4, np.uint32))
    assert found == {"a workgroupBarrier() between line 6 and line 7 orders these (reached by "
                     "every invocation of the workgroup: not inside a branch some skip); or "
                     "make the update one atomic (atomicAdd(&buf[i], v), atomicStore, ...), or "
                     "give each invocation its own location"}


@ash.compute(workgroup_size=4)
async def python_lost_update(counter: ash.Storage):
    counter[0] = counter[0] + 1


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_a_python_kernels_hint_keeps_python_spelling(schedule):
    result = ash.run(python_lost_update, 1, sanitize="report", schedule=schedule,
                     counter=np.zeros(1, np.uint32))
    found = {f.hint for f in result.findings if getattr(f, "race", None)}
    assert found and all("atomic_add(ptr(buf, i), v)" in h for h in found)
