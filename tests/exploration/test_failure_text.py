"""A failure of explore() prints as a few lines whatever the run's length: the run, the error
and how to replay it, with the trace as one line of counts, never its decisions."""

import numpy as np

import asyncshader as ash
from asyncshader import atomic_add, ptr, u32

ROUNDS = 160  # x 64 invocations: over 10,000 scheduling decisions in one run


@ash.compute(workgroup_size=64)
async def busy(counter: ash.Storage[u32]):
    for _ in range(ROUNDS):
        await atomic_add(ptr(counter, 0), 1)


def setup():
    return {"counter": np.zeros(1, np.uint32)}


def never(result):
    return False  # every run fails: the text of a failure is what is tested


def test_a_long_failing_run_prints_in_a_few_short_lines():
    report = ash.explore(busy, setup, check=never, strategy=ash.Random(3), runs=1)
    [failure] = report.failures
    assert failure.trace.decision_count > 10_000
    for text in (repr(failure), str(failure), repr(failure.trace)):
        assert len(text) < 600, text
        assert "array(" not in text
    assert str(failure).startswith("run 0 failed: check returned False")
    assert f"{failure.trace.steps:,} steps" in repr(failure.trace)
    assert f"{failure.trace.decision_count:,} decisions" in repr(failure.trace)
    assert "random(seed=3)" in repr(failure.trace)
    assert "ash.Replay(failure.trace)" in str(failure)
    assert len(repr(report)) < 2000


def test_the_printed_advice_replays_the_failure():
    report = ash.explore(busy, setup, check=never, strategy=ash.Random(3), runs=1)
    [failure] = report.failures
    counter = np.zeros(1, np.uint32)
    again = ash.run(busy, counter=counter, schedule=ash.Replay(failure.trace))
    assert again.trace == failure.trace
    assert counter[0] == 64 * ROUNDS
