"""A race through one component of a vector in memory (``buf[i][c] = v``, ``buf[i][c] += v``,
``p[i].v[1] = v``, ``wv[i][1] = v``) is reported at the shader's line, with its source text,
as ``buf[i].y = v`` is; two racing pairs of lines are two findings."""

import inspect

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32, vec2f, vec4f


def line(fn, text):
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, s in enumerate(src) if text in s)


def sites(result):
    """Every (line, source text) the race findings of ``result`` name."""
    return {(a.line, a.source) for f in result.findings if isinstance(f, ash.DataRace)
            for a in (f.first, f.second)}


def pairs(result):
    return sorted({(f.race, *sorted([f.first.line, f.second.line]))
                   for f in result.findings if isinstance(f, ash.DataRace)})


@ash.compute(workgroup_size=4)
async def index_store(buf: ash.Storage[vec4f], *, local_invocation_index: u32):
    v = f32(local_invocation_index)
    buf[0][1] = v  # component 1
    buf[0][2] = v  # component 2


@ash.compute(workgroup_size=4)
async def index_update(buf: ash.Storage[vec4f], *, local_invocation_index: u32):
    buf[0][3] += 1.0  # the update


@ash.struct
class Particle:
    v: vec2f


@ash.compute(workgroup_size=4)
async def member_component(p, *, local_invocation_index: u32):
    p[0].v[1] = f32(local_invocation_index)  # the member's component


wv = ash.workgroup(ash.array(vec2f, 4))


@ash.compute(workgroup_size=4)
async def workgroup_component(out: ash.Storage[f32], *, local_invocation_index: u32):
    wv[0][1] = f32(local_invocation_index)  # the workgroup vector's component


CASES = [
    (index_store, lambda: {"buf": np.zeros((4, 4), np.float32)},
     ["buf[0][1] = v  # component 1", "buf[0][2] = v  # component 2"]),
    (index_update, lambda: {"buf": np.zeros((4, 4), np.float32)},
     ["buf[0][3] += 1.0  # the update"]),
    (member_component, lambda: {"p": Particle.zeros(4)},
     ["p[0].v[1] = f32(local_invocation_index)  # the member's component"]),
    (workgroup_component, lambda: {"out": np.zeros(4, np.float32)},
     ["wv[0][1] = f32(local_invocation_index)  # the workgroup vector's component"]),
]


#: every case under InOrder, and under Lockstep (its vectorised detector) those whose kernel
#: uses every binding it is given (Lockstep refuses an unused one)
RUNS = [pytest.param(*case, schedule, id=f"{case[0].fn.__name__}-{type(schedule).__name__}")
        for schedule in (ash.InOrder(), ash.Lockstep()) for case in CASES
        if isinstance(schedule, ash.InOrder) or case[0] is not workgroup_component]


@pytest.mark.parametrize("kernel, bindings, texts, schedule", RUNS)
def test_a_component_race_names_the_shaders_line_and_text(kernel, bindings, texts, schedule):
    r = ash.run(kernel, sanitize="report", schedule=schedule, **bindings())
    assert r.findings, "the race is found"
    expected = {(line(kernel.fn, t), t) for t in texts}
    assert sites(r) == expected


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Lockstep()], ids=repr)
def test_two_racing_component_stores_are_distinct_findings(schedule):
    r = ash.run(index_store, buf=np.zeros((4, 4), np.float32), sanitize="report",
                schedule=schedule)
    one, two = line(index_store.fn, "# component 1"), line(index_store.fn, "# component 2")
    # each line races with itself (four invocations store the same component); the load of the
    # whole vector that buf[0] is also meets the other line's store
    assert ("write-write", one, one) in pairs(r)
    assert ("write-write", two, two) in pairs(r)
    assert len({(f.race, f.first.line, f.second.line) for f in r.findings}) == len(r.findings)


# ------------------------------------------- different components of one vector, both detectors
@ash.compute(workgroup_size=4)
async def split_components(buf: ash.Storage[vec4f], *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        buf[0].y = 1.0  # y
    if i == 1:
        buf[0].z = 2.0  # z
    if i == 2:
        buf[0][3] = 3.0  # w


SPLIT_WGSL = """
@group(0) @binding(0) var<storage, read_write> buf: array<vec4f>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i == 0u) { buf[0].y = 1.0; }
    if (i == 1u) { buf[0].z = 2.0; }
    if (i == 2u) { buf[0][3] = 3.0; }
}
"""


#: a Python kernel under Lockstep is left out: its vectors may be a bare 2-D buffer's numpy
#: rows, stored element by element (docs/lockstep.md, where the detectors differ)
@pytest.mark.parametrize("schedule, wgsl", [
    (schedule, wgsl) for schedule in (ash.InOrder(), ash.Reverse(), ash.Lockstep())
    for wgsl in (False, True) if wgsl or not isinstance(schedule, ash.Lockstep)],
    ids=lambda x: repr(x) if not isinstance(x, bool) else ("wgsl" if x else "python"))
def test_stores_of_different_components_race_under_every_schedule_and_lockstep(schedule, wgsl):
    # WGSL: a write of one component may access every memory location of the vector, so
    # different invocations writing different components must synchronize; the component
    # store loads the vector it writes into (the CPU's reference), in Lockstep too
    kernel = ash.load_wgsl(SPLIT_WGSL)["main"] if wgsl else split_components
    buf = np.zeros((1, 4), np.float32)
    r = ash.run(kernel, 1, schedule=schedule, sanitize="report", buf=buf)
    if wgsl:
        y, z, w = 5, 6, 7
    else:
        y, z, w = (line(split_components.fn, f"# {c}") for c in "yzw")
    assert pairs(r) == [("read-write", y, z), ("read-write", y, w), ("read-write", z, w)]
    assert all(f.same_workgroup and f.address_space == "storage" for f in r.findings)
    assert buf.tolist() == [[0, 1, 2, 3]]
