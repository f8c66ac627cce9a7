"""The coroutine schedules' dispatch options under schedule=ash.Lockstep(): each is checked as
the coroutine path checks it, then honoured, accepted without effect where no result WGSL
defines depends on it (max_live_workgroups, max_live_quads, a compute dispatch's
derivatives), or refused with the fix where it asks for what Lockstep does not do
(max_points_per_invocation, a watchdog in seconds, a subgroup_reduction order other than
lanes). Never ignored in silence."""

import anyio
import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32, vec4f
from asyncshader.errors import DispatchError, OptionError

LOCKSTEP = dict(schedule=ash.Lockstep(), sanitize="off")


@ash.compute(workgroup_size=4)
async def subgroup_sum(vals: ash.Storage[f32], out: ash.Storage[f32], *,
                       local_invocation_index: u32):
    out[local_invocation_index] = await ash.subgroup_add(vals[local_invocation_index])


@ash.fragment
async def doubled(*, position: vec4f):
    return position.x * 2.0


def sums(**options):
    vals = np.array([1e8, 1, -1e8, 1], np.float32)
    out = np.zeros(4, np.float32)
    ash.run(subgroup_sum, 1, vals=vals, out=out, subgroup_size=4, **options)
    return out.tolist()


def test_a_reduction_order_other_than_lanes_is_refused_not_ignored():
    # the orders differ: lanes ((1e8 + 1) - 1e8) + 1 = 1; tree (1e8 + 1) + (-1e8 + 1) = 0
    assert sums(sanitize="off") == [1.0] * 4
    assert sums(sanitize="off", subgroup_reduction="tree") == [0.0] * 4
    assert sums(**LOCKSTEP) == sums(**LOCKSTEP, subgroup_reduction="lanes") == [1.0] * 4
    with pytest.raises(OptionError, match="subgroup_reduction='lanes'"):
        sums(**LOCKSTEP, subgroup_reduction="tree")


def test_how_many_workgroups_or_quads_are_live_changes_nothing_and_is_checked():
    assert sums(**LOCKSTEP, max_live_workgroups=8) == [1.0] * 4
    want = np.tile(np.arange(0.5, 4, 1, dtype=np.float32) * 2, (2, 1))
    got = ash.run_fragments(doubled, 4, 2, max_live_quads=3, **LOCKSTEP).output
    assert got.tolist() == want.tolist()
    with pytest.raises(OptionError, match="max_live_workgroups must be"):
        sums(**LOCKSTEP, max_live_workgroups=0)
    with pytest.raises(OptionError, match="max_live_quads must be"):
        ash.run_fragments(doubled, 4, 2, max_live_quads=0, **LOCKSTEP)


def test_a_compute_dispatch_s_derivative_mode_is_checked():
    assert sums(**LOCKSTEP, derivatives="fine") == [1.0] * 4  # (no derivatives in it)
    with pytest.raises(DispatchError, match="derivatives= must be 'coarse' or 'fine'"):
        sums(**LOCKSTEP, derivatives="smooth")


def run_both(**options):
    """The option through ash.run and through ash.run_fragments, each under Lockstep."""
    sums(**LOCKSTEP, **options)
    ash.run_fragments(doubled, 4, 2, **LOCKSTEP, **options)


def test_a_step_bound_is_refused_naming_lockstep_s_loop_bound():
    run_both(max_points_per_invocation=10_000)  # (the default: accepted)
    with pytest.raises(OptionError, match=r"Lockstep\(max_iterations=N\)"):
        sums(**LOCKSTEP, max_points_per_invocation=50)
    with pytest.raises(OptionError, match=r"max_points_per_invocation=50 would bound nothing"):
        ash.run_fragments(doubled, 4, 2, max_points_per_invocation=50, **LOCKSTEP)
    with pytest.raises(OptionError, match="max_points_per_invocation must be"):
        sums(**LOCKSTEP, max_points_per_invocation=0)


def test_a_watchdog_in_seconds_is_refused_and_none_is_what_lockstep_does():
    run_both(watchdog=None)
    run_both(watchdog=10.0)  # (the default: accepted)
    with pytest.raises(OptionError, match=r"watchdog=2 would bound nothing.*max_iterations"):
        sums(**LOCKSTEP, watchdog=2)
    with pytest.raises(OptionError, match=r"keeps no clock"):
        ash.run_fragments(doubled, 4, 2, watchdog=0.5, **LOCKSTEP)
    with pytest.raises(DispatchError, match="watchdog= must be a positive number"):
        ash.run_fragments(doubled, 4, 2, watchdog=-1, **LOCKSTEP)


def test_the_awaited_forms_hand_lockstep_their_options_too():
    async def main(options):
        await ash.dispatch(subgroup_sum, 1, vals=np.zeros(4, np.float32),
                           out=np.zeros(4, np.float32), **LOCKSTEP, **options)
        await ash.dispatch_fragments(doubled, 4, 2, **LOCKSTEP, **options)

    anyio.run(main, {"watchdog": None})  # (what Lockstep does: accepted)
    for options in ({"watchdog": 3}, {"max_points_per_invocation": 7}):
        with pytest.raises(OptionError, match=r"Lockstep\(max_iterations=N\)"):
            anyio.run(main, options)
    with pytest.raises(OptionError, match="subgroup_reduction='lanes'"):
        anyio.run(main, {"subgroup_reduction": "reverse"})
