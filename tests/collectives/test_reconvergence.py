"""Maximal reconvergence (docs/subgroups.md, "Reconvergence"): lanes that diverged around a
subgroup operation meet again at the end of the ``if`` or loop, so the next operation in
uniform control flow includes every lane. Expected values are worked out by hand in
reconvergence_cases.py (and equal lavapipe's: test_reconvergence_gpu.py)."""

from __future__ import annotations

import numpy as np
import pytest
from reconvergence_cases import CASES, if_then, lane_loop, loop_continue, while_if

import asyncshader as ash
from asyncshader import u32

SCHEDULES = [ash.InOrder(), ash.Reverse(), ash.Random(0), ash.Random(11), ash.PCT(1),
             ash.PCT(4, depth=2)]


def _run(kernel, schedule=None, **kw):
    out = np.zeros(8, np.uint32)
    inner = np.zeros(8, np.uint32)
    r = ash.run(kernel, 1, out=out, inner=inner, subgroup_size=8, schedule=schedule,
                sanitize="report", **kw)
    return inner.tolist(), out.tolist(), r


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
@pytest.mark.parametrize("name", list(CASES))
def test_lanes_reconverge_after_structured_control_flow(name, schedule):
    kernel, _, inner, out = CASES[name]
    assert _run(kernel, schedule)[:2] == (inner, out)


def test_the_operation_after_an_if_includes_every_lane_and_is_not_reported():
    """3 of 8 lanes run a subgroup_add inside an ``if``; the uniform one after it sums all
    8 lanes, and only the one inside the ``if`` is non-uniform."""
    inner, out, r = _run(if_then)
    assert (inner, out) == ([3, 3, 3, 0, 0, 0, 0, 0], [8] * 8)
    (note,) = [f for f in r.findings if isinstance(f, ash.NonUniformCollective)]
    assert note.active == [0, 1, 2] and note.line == if_then.fn.__code__.co_firstlineno + 4


def test_strict_accepts_the_uniform_operation_after_a_divergent_loop():
    @ash.compute(workgroup_size=8, strict=True)
    async def k(out: ash.Storage, *, subgroup_invocation_id: u32):
        i = subgroup_invocation_id
        j = u32(0)
        while j < i:  # a lane-dependent trip count, no subgroup operation inside
            j += 1
        out[i] = await ash.subgroup_add(j)

    out = np.zeros(8, np.uint32)
    ash.run(k, 1, out=out, subgroup_size=8, schedule=ash.Random(2))
    assert out.tolist() == [28] * 8  # 0 + 1 + ... + 7


def test_a_lane_that_returned_is_inactive_afterwards():
    _, out, r = _run(CASES["return"][0])
    assert out == [5, 5, 5, 5, 5, 0, 0, 0]
    (note,) = [f for f in r.findings if isinstance(f, ash.NonUniformCollective)]
    assert note.inactive == [5, 6, 7]


def test_only_loops_whose_lanes_can_fall_out_of_step_count_iterations():
    """A loop whose subgroup operations are unconditional statements of its body keeps its
    lanes in step: no counter (the call site alone names the dynamic instance, and the fast
    paths stay). A ``continue``, or an operation inside an ``if`` in the loop, needs one."""
    assert lane_loop.shader_fn.__ash_counts__ is False
    assert loop_continue.shader_fn.__ash_counts__ is True
    assert while_if.shader_fn.__ash_counts__ is True


def test_different_iterations_of_one_call_site_are_different_operations():
    """Lane j skips the operation in iteration j (a ``continue``) and reaches it in iteration
    j + 1 while the others still stand in iteration j: the two are not one operation."""
    @ash.compute(workgroup_size=8)
    async def k(out: ash.Storage, *, subgroup_invocation_id: u32):
        i = subgroup_invocation_id
        seen = u32(0)
        for j in range(3):
            if i == j:
                continue
            seen = seen * 10 + await ash.subgroup_add(u32(1))
        out[i] = seen

    for schedule in SCHEDULES:
        out = np.zeros(8, np.uint32)
        ash.run(k, 1, out=out, subgroup_size=8, schedule=schedule)
        assert out.tolist() == [77, 77, 77, 777, 777, 777, 777, 777]


def test_fragment_subgroups_reconverge_too():
    """A 4x2 target is one subgroup of 8 (two quads); the pixels of the left column take an
    ``if`` with a subgroup_add (2 of them), and the one after it sees all 8 again."""
    @ash.fragment
    async def fs(*, position: ash.vec4f):
        inside = u32(0)
        if position.x < 1.0:
            inside = await ash.subgroup_add(u32(1))
        after = await ash.subgroup_add(u32(1))
        return ash.vec4u(inside, after, 0, 0)

    for schedule in SCHEDULES:
        out = ash.run_fragments(fs, 4, 2, subgroup_size=8, schedule=schedule,
                                sanitize="report").output
        assert out[..., 0].tolist() == [[2, 0, 0, 0], [2, 0, 0, 0]]
        assert (out[..., 1] == 8).all()
