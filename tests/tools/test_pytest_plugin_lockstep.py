"""@pytest.mark.schedules(strategy="lockstep"): the test's dispatches run once in lockstep, and
a failing run's line replays it in lockstep; what the marker cannot run there is refused with
the fix."""

import re

pytest_plugins = ["pytester"]

KERNEL = '''
import numpy as np
import pytest
import asyncshader as ash

@ash.compute(workgroup_size=4)
async def racy(counter: ash.Storage):
    counter[0] = counter[0] + 1

def count():
    counter = np.zeros(1, np.uint32)
    result = ash.run(racy, counter=counter)
    assert result.trace.strategy["name"] == "lockstep"
    return int(counter[0])
'''


def test_the_lockstep_marker_runs_once_and_its_failure_replays_in_lockstep(pytester):
    pytester.makepyfile(test_racy=KERNEL + '''
RUNS = []

@pytest.mark.schedules(runs=30, strategy="lockstep", races=False)
def test_counts():
    RUNS.append(1)
    assert count() == 4

def test_ran_once():
    assert RUNS == [1]
''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "assert 1 == 4" in out  # (every lane read 0 in lockstep: one update survives)
    trace = re.search(r"--asyncshader-replay=(\S+)", out).group(1)
    again = pytester.runpytest("-p", "no:cacheprovider", "test_racy.py::test_counts",
                               f"--asyncshader-replay={trace}")
    again.assert_outcomes(failed=1)
    assert "assert 1 == 4" in again.stdout.str()
    assert "replayed 1 schedule(s)" in again.stdout.str()


def test_the_lockstep_marker_fails_a_racy_test_with_locksteps_race_detector(pytester):
    pytester.makepyfile(test_racy=KERNEL + '''
@pytest.mark.schedules(strategy="lockstep")
def test_counts():
    count()
''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "Read-write data race on storage memory counter[0]" in out
    assert "counter[0] = counter[0] + 1" in out


def test_a_wgsl_test_file_in_lockstep_is_refused_with_the_fix(pytester):
    pytester.makefile(".wgsl", test_counts='''
import wgsl_test::{expect};

// @pytest.mark.schedules(strategy="lockstep", races=False)
@test
fn adds() {
    expect(1 + 1 == 2);
}
''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "test_counts.wgsl: a WGSL @test function cannot run in lockstep" in out
    assert "Use strategy='in_order'" in out


def test_the_lockstep_marker_runs_a_tests_fragment_dispatches_in_lockstep(pytester):
    pytester.makepyfile(test_shade='''
import pytest
import asyncshader as ash

@ash.fragment
async def gradient(*, position: ash.vec4f) -> ash.vec4f:
    return ash.vec4f(position.x / 4.0, 0.0, 0.0, 1.0)

@pytest.mark.schedules(strategy="lockstep", races=False)
def test_shades():
    result = ash.run_fragments(gradient, 4, 1)
    assert result.trace.strategy["name"] == "lockstep"
    assert result.output[0, :, 0].tolist() == [0.125, 0.375, 0.625, 0.875]
''')
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_the_lockstep_marker_with_races_runs_the_detector_on_fragment_dispatches(pytester):
    """With races on (the marker's default), a fragment dispatch in lockstep runs the race
    detector as under the coroutine schedules: a race-free shader passes, a racy one fails
    naming its race."""
    pytester.makepyfile(test_shade='''
import numpy as np
import pytest
import asyncshader as ash

@ash.fragment
async def gradient(*, position: ash.vec4f) -> ash.vec4f:
    return ash.vec4f(position.x / 4.0, 0.0, 0.0, 1.0)

@ash.fragment
async def counts_pixels(total: ash.Storage, *, position: ash.vec4f):
    total[0] = total[0] + 1

@pytest.mark.schedules(strategy="lockstep")
def test_shades():
    ash.run_fragments(gradient, 4, 1)

@pytest.mark.schedules(strategy="lockstep")
def test_counts():
    ash.run_fragments(counts_pixels, 4, 1, total=np.zeros(1, np.uint32))
''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "FAILED test_shade.py::test_counts" in out
    assert "data race on storage memory total[0]" in out
