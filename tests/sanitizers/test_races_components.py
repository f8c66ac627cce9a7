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
