"""Subgroup operations in a fragment dispatch with ``coverage=``: a subgroup is ``size / 4``
consecutive quads by position, and its members are the invocations of those quads that run
(a covered quad's helpers included, as WGSL and Vulkan let helpers take part; a quad with no
covered pixel holds no invocation, its lanes are inactive). InOrder and Lockstep give the
same values, derived by hand below."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32, vec4f, vec4u


@ash.fragment
async def subgroup_census(*, position: vec4f, subgroup_invocation_id: u32):
    count = await ash.subgroup_add(u32(1))
    xs = await ash.subgroup_add(u32(position.x))
    ballot = await ash.subgroup_ballot(True)
    below = await ash.subgroup_exclusive_add(u32(1))
    first = await ash.subgroup_broadcast_first(subgroup_invocation_id)
    return vec4u(count, xs, ballot.x, below * 100 + first * 10 + subgroup_invocation_id)


def coverage():
    """8 x 4 pixels, 4 x 2 quads, subgroup_size=8: two quads a subgroup, row-major. Subgroup
    0 (quads 0 and 1) has a covered pixel in each quad, subgroup 1 in its first quad only,
    subgroup 2 none, subgroup 3 in its second quad only."""
    cov = np.zeros((4, 8), bool)
    cov[0, 0] = cov[1, 3] = True  # quad 0 (x 0-1, y 0-1) and quad 1 (x 2-3)
    cov[0, 5] = True  # quad 2 (x 4-5, y 0-1)
    cov[3, 7] = True  # quad 7 (x 6-7, y 2-3)
    return cov


#: (x, y) -> (active lanes, the sum of their x, ballot, 100 * exclusive count + 10 * first
#: active lane + own lane), by hand: lane = 4 * (quad's place in its subgroup) + quad id
EXPECTED = {
    (0, 0): (8, 2 * (0 + 1 + 2 + 3), 0xFF, 0 * 100 + 0 + 0),
    (3, 1): (8, 2 * (0 + 1 + 2 + 3), 0xFF, 7 * 100 + 0 + 7),  # quad 1, quad id 3: lane 7
    (5, 0): (4, 2 * (4 + 5), 0x0F, 1 * 100 + 0 + 1),  # quad 2 alone: lanes 0-3
    (7, 3): (4, 2 * (6 + 7), 0xF0, 3 * 100 + 40 + 7),  # quad 7 alone: lanes 4-7
}


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Lockstep(), ash.Lockstep(max_lanes=8)],
                         ids=repr)  # (max_lanes=8: a chunk is one subgroup)
def test_a_subgroup_holds_the_quads_that_run(schedule):
    cov = coverage()
    r = ash.run_fragments(subgroup_census, 8, 4, coverage=cov, subgroup_size=8,
                          schedule=schedule, sanitize="off")
    assert r.mask.tolist() == cov.tolist()
    for (x, y), want in EXPECTED.items():
        assert r.output[y, x].tolist() == list(want), (x, y)
    assert not r.output[~cov].any()  # helpers have no output
    assert r.counters.invocations == 4 * 4  # quads 0, 1, 2 and 7


def test_inorder_and_lockstep_agree_on_random_coverage():
    rng = np.random.default_rng(5)
    cov = rng.random((9, 13)) < 0.15
    for size in (4, 8, 16):
        got = [ash.run_fragments(subgroup_census, 13, 9, coverage=cov, subgroup_size=size,
                                 schedule=s, sanitize="off")
               for s in (ash.InOrder(), ash.Lockstep())]
        assert got[0].output.tobytes() == got[1].output.tobytes(), size
        assert (got[0].mask == cov).all() and (got[1].mask == cov).all()
