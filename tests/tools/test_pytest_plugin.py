"""The pytest plugin: @pytest.mark.schedules runs a test's dispatches under many schedules and
prints one line that replays a failing run."""

import re
import shlex

pytest_plugins = ["pytester"]

KERNEL = '''
import numpy as np
import pytest
import asyncshader as ash
from asyncshader import u32

@ash.compute(workgroup_size=4)
async def racy(counter: ash.Storage, tickets: ash.Storage, *, local_invocation_index: u32):
    seen = counter[0]
    await ash.atomic_add(ash.ptr(tickets, 0), 1)
    counter[0] = seen + 1

def count():
    counter = np.zeros(1, np.uint32)
    ash.run(racy, counter=counter, tickets=np.zeros(1, np.uint32))
    return int(counter[0])
'''


def test_marked_test_finds_the_race_and_prints_a_replay_line(pytester):
    pytester.makepyfile(test_racy=KERNEL + '''
RUNS = []

@pytest.mark.schedules(runs=50, strategy="random", races=False)  # the race is the point
def test_counts():
    RUNS.append(1)
    assert count() == 4

@pytest.mark.schedules(runs=7, strategy="pct", races=False)  # the race is the point
def test_in_order_is_fine_to_read():
    RUNS.append(2)
    assert count() >= 1

def test_runs_counted():
    assert RUNS.count(2) == 7
''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    line = next(l for l in out.splitlines() if "reproduce: pytest" in l)
    m = re.search(r"--asyncshader-replay=(\S+)", line)
    trace = m.group(1)
    assert shlex.quote(trace) == trace
    saved = list((pytester.path / ".asyncshader").glob("*.trace"))
    assert len(saved) == 1 and saved[0].read_text().strip() == trace
    # the printed line reproduces the failure: same assertion, same value
    failed_value = re.search(r"assert (\d) == 4", out).group(1)
    again = pytester.runpytest("-p", "no:cacheprovider", "test_racy.py::test_counts",
                               f"--asyncshader-replay={trace}")
    again.assert_outcomes(failed=1)
    assert f"assert {failed_value} == 4" in again.stdout.str()
    assert "replayed 1 schedule(s)" in again.stdout.str()


def test_seed_option_fixes_the_schedules(pytester):
    pytester.makepyfile(test_seeded=KERNEL + '''
SEEN = []

@pytest.mark.schedules(runs=5, strategy="random", races=False)  # the race is the point
def test_collect():
    SEEN.append(count())

def test_report():
    print("SEEN", SEEN)
''')
    outs = []
    for seed in (123, 123, 7):
        r = pytester.runpytest("-p", "no:cacheprovider", "-s", f"--asyncshader-seed={seed}")
        r.assert_outcomes(passed=2)
        outs.append(next(l for l in r.stdout.str().splitlines() if "SEEN" in l))
    assert outs[0] == outs[1]  # the same seed: the same schedules, the same results
    assert outs[0] != outs[2]  # another seed: other schedules (lost updates differ)


def test_anyio_async_tests_run_every_schedule(pytester):
    pytester.makepyfile(test_async=KERNEL + '''
DONE = []

@pytest.fixture
def anyio_backend():
    return "asyncio"

@pytest.mark.anyio
@pytest.mark.schedules(runs=40, strategy="random", races=False)  # the race is the point
async def test_async_counts():
    counter = np.zeros(1, np.uint32)
    await ash.dispatch(racy, counter=counter, tickets=np.zeros(1, np.uint32))
    DONE.append(int(counter[0]))
    assert counter[0] == 4
''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    assert "--asyncshader-replay=ash1:racy:" in result.stdout.str()


def test_unknown_strategy_is_a_usage_error_naming_the_choices(pytester):
    pytester.makepyfile(test_bad='''
import pytest

@pytest.mark.schedules(runs=3, strategy="bogus")
def test_x():
    pass
''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert "random, pct, reverse, in_order" in result.stdout.str() + result.stderr.str()


def test_a_race_fails_a_marked_test_even_when_every_schedule_gives_the_right_value(pytester):
    """The sanitizer is on inside @pytest.mark.schedules: the racy read-modify-write fails the
    test although the in-order schedule computes the right count; races=False allows it."""
    pytester.makepyfile(test_sanitized=KERNEL + '''
@pytest.mark.schedules(runs=3, strategy="in_order")
def test_counts():
    assert count() == 4

@pytest.mark.schedules(runs=3, strategy="in_order", races=False)
def test_counts_allowing_races():
    assert count() == 4
''')
    r = pytester.runpytest("-p", "no:cacheprovider")
    r.assert_outcomes(passed=1, failed=1)
    out = r.stdout.str()
    assert "the sanitizer found" in out and "Read-write data race on storage memory counter[0]" \
        in out
    assert "--asyncshader-replay=" in out


def test_races_fail_a_marked_test_whatever_the_schedule_unless_the_dispatch_reads_them(pytester):
    """Dispatches that do not choose sanitize= fail the test on findings, also with their own
    schedule=; an explicit sanitize="report" means the test reads the findings itself."""
    pytester.makepyfile(test_choices=KERNEL + '''
def run_racy(**kw):
    return ash.run(racy, counter=np.zeros(1, np.uint32), tickets=np.zeros(1, np.uint32), **kw)

@pytest.mark.schedules(runs=2)
def test_own_schedule_still_checked():
    run_racy(schedule=ash.InOrder())

@pytest.mark.schedules(runs=2)
def test_expects_the_race():
    r = run_racy(sanitize="report")
    assert [f.race for f in r.findings] == ["read-write", "write-write"]

@pytest.mark.schedules(runs=2, races=False)
def test_races_allowed():
    assert run_racy().findings == []
''')
    r = pytester.runpytest("-p", "no:cacheprovider")
    r.assert_outcomes(passed=2, failed=1)
    out = r.stdout.str()
    assert "test_own_schedule_still_checked" in out and "the sanitizer found" in out
    assert "DataRaceWarning" not in out
