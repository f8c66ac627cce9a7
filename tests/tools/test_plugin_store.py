"""The failure store under pytest: a failure found in one session (by a marked test, or by
explore() in worker processes) is replayed first in the next."""

from helpers import ROOT
from test_pytest_plugin import KERNEL

pytest_plugins = ["pytester"]


def test_a_marked_tests_failure_is_stored_and_replayed_first_next_session(pytester, tmp_path,
                                                                          monkeypatch):
    store = tmp_path / "store"
    monkeypatch.setenv("ASYNCSHADER_STORE", str(store))
    body = KERNEL + '''
RUNS = []

@pytest.mark.schedules(runs=50, strategy="random", races=False)
def test_counts():
    RUNS.append(1)
    assert count() == 4, f"run {len(RUNS)}"
'''
    pytester.makepyfile(test_racy=body)
    first = pytester.runpytest("-p", "no:cacheprovider")
    first.assert_outcomes(failed=1)
    assert len(list(store.rglob("*"))) == 2  # a key's folder, holding one failure
    second = pytester.runpytest("-p", "no:cacheprovider")
    second.assert_outcomes(failed=1)
    out = second.stdout.str()
    # the stored schedule ran first: the first run failed
    assert "AssertionError: run 1" in out
    assert "a failure stored by an earlier run still fails" in out
    # fixed (the same kernel, a check that holds): the stored failure passes and is dropped
    pytester.makepyfile(test_racy=body.replace("count() == 4", "count() >= 1"))
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert [p for p in store.rglob("*") if p.is_file()] == []


def test_a_failure_found_by_explores_workers_fails_the_next_session_at_once(pytester, tmp_path,
                                                                           monkeypatch):
    monkeypatch.setenv("ASYNCSHADER_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # this copy of asyncshader, in the subprocess
    pytester.makepyfile(test_explored=KERNEL + '''
def setup():
    return {"counter": np.zeros(1, np.uint32), "tickets": np.zeros(1, np.uint32)}

def check(result):  # fails on the rare schedule that loses no update (run 42 of Random(0))
    assert result["counter"][0] != 4

def test_explore():
    report = ash.explore(racy, setup, check, ash.Random(0), runs=200, workers=2)
    print("REPORT", report.replayed, report.runs,
          [(f.run, f.stored) for f in report.failures])
''')
    first = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s")
    first.assert_outcomes(passed=1)
    # found by a worker: the runs after the first 16 ran in the two worker processes
    first.stdout.fnmatch_lines(["*REPORT 0 43 [[](42, False)[]]"])
    second = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s")
    second.assert_outcomes(passed=1)
    second.stdout.fnmatch_lines(["*REPORT 1 0 [[](-1, True)[]]"])
