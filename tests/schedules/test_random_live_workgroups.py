"""Random with several live workgroups: each decision takes the next invocation of the order it
keeps, and reads the whole runnable set only when invocations joined it (a barrier released
its members, a workgroup started), with the same picks as a pass over the set every time."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32

W = 32
tile = ash.workgroup(ash.array(f32, W))


@ash.compute(workgroup_size=W)
async def tree_sum(inp: ash.Storage, out: ash.Storage, tickets: ash.Storage, *,
                   local_invocation_index: u32, workgroup_id: ash.vec3u):
    i = local_invocation_index
    tile[i] = inp[workgroup_id.x * W + i]
    await ash.atomic_add(ash.ptr(tickets, 0), 1)  # a scheduling point: the picked one stays
    await ash.workgroup_barrier()
    s = W // 2
    while s > 0:
        if i < s:
            tile[i] += tile[i + s]
        await ash.workgroup_barrier()
        s //= 2
    if i == 0:
        out[workgroup_id.x] = tile[0]


def run(strategy, live, groups=8):
    inp = np.arange(groups * W, dtype=np.float32)
    out = np.zeros(groups, np.float32)
    result = ash.run(tree_sum, groups, inp=inp, out=out, tickets=np.zeros(1, np.uint32),
                     schedule=strategy, sanitize="off", max_live_workgroups=live)
    # sums of 32 consecutive integers from 32k: 32 * 32k + 496 (exact in f32)
    assert out.tolist() == [32.0 * 32 * k + 496 for k in range(groups)]
    return result


class FullPass(ash.Random):
    """Random's picks, each made by a pass over the whole runnable set."""

    def pick(self, runnable):
        return self._pick(runnable)


class CountingPasses(ash.Random):
    def begin(self, scheduler):
        super().begin(scheduler)
        self.passes = 0

    def _pick(self, runnable):
        self.passes += 1
        return super()._pick(runnable)


@pytest.mark.parametrize("live", [2, 3, 8])
def test_the_picks_are_those_of_a_pass_over_the_runnable_set(live):
    for seed in range(4):
        kept, passed = run(ash.Random(seed), live).trace, run(FullPass(seed), live).trace
        assert kept.decisions == passed.decisions and kept.steps == passed.steps


def test_decisions_read_the_runnable_set_only_when_invocations_joined_it():
    strategy = CountingPasses(5)
    seen = []
    original = strategy.for_run

    def kept():
        made = original()
        seen.append(made)
        return made

    strategy.for_run = kept
    result = run(strategy, live=8)
    # 8 workgroups of 32 start and pass 6 barriers each: about 8 * 7 joins of many at once
    passes, decisions = seen[0].passes, result.counters.decisions
    assert decisions > 8 * W * 7 and passes <= 8 * 8 + 8, (passes, decisions)
