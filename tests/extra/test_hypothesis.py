"""asyncshader.extra.hypothesis: schedules that Hypothesis draws, shrinks and stores, together
with a kernel's inputs."""

import sys

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32

hypothesis = pytest.importorskip("hypothesis", reason="pip install 'asyncshader[hypothesis]'")
from hypothesis import HealthCheck, find, given, settings  # noqa: E402
from hypothesis.database import DirectoryBasedExampleDatabase  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402

from asyncshader.extra.hypothesis import DrawnSchedule, schedules  # noqa: E402

sys.path.insert(0, "examples")
import lost_update as lu  # noqa: E402

tile = ash.workgroup(ash.array(u32, 8))


@ash.compute(workgroup_size=8)
async def shift_missing_barrier(inp: ash.Storage, out: ash.Storage, *,
                                local_invocation_index: u32):
    """Each invocation reads what its left neighbour wrote, with no barrier in between: right
    when the invocations run in order, wrong when one runs before its neighbour."""
    i = local_invocation_index
    tile[i] = inp[i] * 2
    # BUG: workgroup_barrier() belongs here
    if i > 0:
        out[i] = tile[i - 1]


def run_shift(inp, schedule):
    return ash.run(shift_missing_barrier, inp=inp, out=np.zeros(8, np.uint32),
                   schedule=schedule, sanitize="off")["out"]


def expected_shift(inp):
    return [2 * int(v) % 2**32 for v in inp[:-1]]   # u32: WGSL wraps modulo 2**32


QUIET = settings(database=None, derandomize=True, deadline=None,
                 suppress_health_check=list(HealthCheck))


def test_in_order_the_missing_barrier_hides_and_the_empty_draw_is_in_order():
    inp = np.arange(1, 9, dtype=np.uint32)
    assert run_shift(inp, DrawnSchedule()).tolist()[1:] == expected_shift(inp)
    assert run_shift(inp, ash.InOrder()).tolist()[1:] == expected_shift(inp)


def test_a_given_test_varies_inputs_and_schedule_and_prints_the_trace():
    seen = []

    @QUIET
    @given(inp=arrays(np.uint32, 8), schedule=schedules())
    def test_shift(inp, schedule):
        seen.append((inp.copy(), schedule))
        assert run_shift(inp, schedule).tolist()[1:] == expected_shift(inp)

    with pytest.raises(AssertionError) as e:
        test_shift()
    notes = "\n".join(getattr(e.value, "__notes__", []))
    # Hypothesis's header for the failing example: "Falsifying example" (6.155 here),
    # "Failing test case" (6.170, what a fresh install gets)
    header = "Falsifying example" in notes or "Failing test case" in notes
    assert header and "DrawnSchedule(" in notes
    # the shrunk example: a single non-zero input, one invocation raised above its left
    # neighbour, no change point (no preemption)
    inp, schedule = seen[-1]
    assert np.count_nonzero(inp) == 1 and inp.max() == 1
    assert schedule.change_points == () and max(schedule.priorities) > 0
    trace = schedule.traces[-1]
    assert f"asyncshader trace of test_hypothesis.shift_missing_barrier: {trace.to_string()}" \
        in notes
    # the printed trace replays the failure without Hypothesis
    assert run_shift(inp, trace.to_string()).tolist()[1:] != expected_shift(inp)


def fails(kernel, setup, check):
    def condition(schedule):
        try:
            check(ash.run(kernel, **setup(), schedule=schedule, sanitize="off"))
        except AssertionError:
            return True
        return False
    return condition


def test_hypothesis_finds_and_shrinks_the_lost_update_and_ash_shrink_finishes_the_job(
        monkeypatch):
    monkeypatch.setattr(lu, "WORK", 4)  # 14 steps: change points among the first 16 decisions
    found = find(schedules(max_decisions=16), fails(lu.lost_update, lu.setup, lu.check),
                 settings=settings(QUIET, max_examples=3000))
    trace = found.traces[-1]
    with pytest.raises(AssertionError, match="lost update"):
        lu.check(ash.run(lu.lost_update, **lu.setup(), schedule=trace, sanitize="off"))
    # Hypothesis shrinks the lists it drew, not the preemptions: it ends at 2 or 3 change
    # points depending on its seed; the bug needs 2 preemptions, which ash.shrink reaches
    assert 2 <= len(found.change_points) <= 3
    assert 2 <= ash.schedule_stats(lu.lost_update, lu.setup, trace).preemptions <= 3
    shrunk = ash.shrink(lu.lost_update, lu.setup, trace, lu.check)
    assert shrunk.after.preemptions == 2


def test_the_example_database_replays_a_failure_first(tmp_path):
    calls = []

    @settings(QUIET, database=DirectoryBasedExampleDatabase(str(tmp_path)))
    @given(schedule=schedules())
    def test_shift(schedule):
        calls.append(schedule)
        inp = np.arange(1, 9, dtype=np.uint32)
        assert run_shift(inp, schedule).tolist()[1:] == expected_shift(inp)

    with pytest.raises(AssertionError):
        test_shift()
    first = len(calls)
    calls.clear()
    with pytest.raises(AssertionError):
        test_shift()
    # the stored (shrunk) schedule runs first and fails at once
    inp = np.arange(1, 9, dtype=np.uint32)
    assert run_shift(inp, calls[0]).tolist()[1:] != expected_shift(inp)
    assert len(calls) < first
