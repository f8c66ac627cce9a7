"""A strategy object is a reusable description: every dispatch draws from its own state, so a
strategy shared by dispatches running at once (or one after another) gives each the schedule it
gives alone, under asyncio and trio alike."""

import anyio
import numpy as np
import pytest

import asyncshader as ash

pytestmark = pytest.mark.anyio

WORKGROUPS = 140  # 140 * 8 invocations * 4 steps: past the 4096-step checkpoint, so two
# dispatches in one task group interleave (the first yields to the host mid-run)


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request):
    return request.param


@ash.compute(workgroup_size=8)
async def tickets(c: ash.Storage, out: ash.Storage, *, global_invocation_id: ash.vec3u):
    """Three tickets per invocation, folded into its output: the order of the atomics, and so
    the schedule, shows in the outputs."""
    i = global_invocation_id.x
    for _ in range(3):
        t = await ash.atomic_add(ash.ptr(c, 0), 1)
        out[i] = out[i] * 7 + t


class Rotate(ash.Strategy):
    """A user's strategy with state of its own (set up by begin, changed by pick)."""

    name = "rotate"

    def begin(self, scheduler):
        self.count = 0

    def pick(self, runnable):
        self.count += 1
        return self.count % len(runnable)


def fresh():
    return {"c": np.zeros(1, np.uint32), "out": np.zeros(WORKGROUPS * 8, np.uint32)}


async def one(schedule, **options):
    result = await ash.dispatch(tickets, WORKGROUPS, schedule=schedule, sanitize="off",
                                **fresh(), **options)
    assert result.counters.steps > 4096  # long enough to reach a checkpoint mid-run
    return result.trace, result["out"].tolist()


async def two_at_once(schedule, **options):
    got = {}

    async def task(i):
        got[i] = await one(schedule, **options)

    async with anyio.create_task_group() as tg:
        tg.start_soon(task, 0)
        tg.start_soon(task, 1)
    return got[0], got[1]


def recorded():
    """A trace to replay: a Random run's."""
    return ash.run(tickets, WORKGROUPS, schedule=ash.Random(11), sanitize="off",
                   **fresh()).trace


CASES = {
    "pct": (lambda: ash.PCT(5), {}),
    "random_two_live": (lambda: ash.Random(3), {"max_live_workgroups": 2}),
    "random_one_live": (lambda: ash.Random(3), {}),
    "reverse_two_live": (lambda: ash.Reverse(), {"max_live_workgroups": 2}),
    "user_strategy": (lambda: Rotate(), {"max_live_workgroups": 3}),
    "replay": (lambda: ash.Replay(recorded()), {}),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_a_shared_strategy_gives_each_concurrent_dispatch_its_schedule_alone(case):
    make, options = CASES[case]
    alone = await one(make(), **options)
    shared = make()
    first, second = await two_at_once(shared, **options)
    assert first == alone and second == alone
    again = await two_at_once(shared, **options)  # the same program, repeated
    assert again == (first, second)


async def test_a_run_leaves_the_strategy_object_as_it_was():
    for strategy, live in ((ash.PCT(5), 2), (ash.Random(3), 2), (Rotate(), 2),
                           (ash.Replay(recorded()), 1)):
        before = dict(vars(strategy))
        await one(strategy, max_live_workgroups=live)
        assert vars(strategy) == before, strategy
    # PCT records the decisions it estimated for this run, its object stays a description
    assert ash.PCT(5).describe()["steps"] is None
    trace, _ = await one(ash.PCT(5))
    assert trace.strategy == {"name": "pct", "seed": 5, "depth": 3,
                              "steps": 4 * WORKGROUPS * 8}


def test_one_exhaustive_object_describes_the_same_search_every_time():
    from helpers import shared_add, two

    search = ash.Exhaustive(2)
    first = ash.explore(shared_add, two, None, search, runs=100)
    second = ash.explore(shared_add, two, None, search, runs=100)
    assert (first.runs, first.complete, len(first.outcomes)) == (4, True, 1)
    assert (second.runs, second.pruned, second.complete) == (4, first.pruned, True)
    assert search.runs == 0 and search.stack == []  # the object given was not searched with
