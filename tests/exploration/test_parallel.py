"""explore(workers=..., executor=...): the same report as the serial exploration, whatever the
workers; portfolios; what cannot be sent to a worker; the failure store."""

import concurrent.futures as cf
import functools

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import atomic_add, atomic_load, atomic_store, ptr, u32
from asyncshader.exploration import explore as explore_module
from asyncshader.exploration import parallel
from asyncshader.exploration.store import DirectoryStore, failure_key

N = 4


@ash.compute(workgroup_size=N)
async def racy_lock(total: ash.Storage, lock: ash.Storage, *, local_invocation_index: u32):
    """The lost update of examples/lost_update.py without the long prelude: fails often."""
    i = local_invocation_index
    await atomic_add(ptr(lock, 1), i)  # one more scheduling point
    if await atomic_load(ptr(lock, 0)) == 0:
        await atomic_store(ptr(lock, 0), 1)
        old = total[0]
        await atomic_add(ptr(lock, 1), 1)
        total[0] = old + 1
        await atomic_store(ptr(lock, 0), 0)
    else:
        await atomic_add(ptr(total, 1), 1)


def setup():
    return {"total": np.zeros(2, np.uint32), "lock": np.zeros(2, np.uint32)}


def check(result):
    total = result["total"]
    assert int(total[0]) + int(total[1]) == N, f"lost update: {total.tolist()}"


def lost_two(result):
    """Fails on a rarer outcome: two updates lost."""
    total = result["total"]
    assert int(total[0]) + int(total[1]) > N - 2, f"two updates lost: {total.tolist()}"


def check_always_passes(result):
    return True


def summary(report):
    """What must not depend on the workers: counts, outcomes in order, failures and traces."""
    return (report.runs, list(report.outcomes.items()), report.examples,
            sorted(report.failing_outcomes), report.stopped, report.complete,
            [(f.run, f.error, f.trace_string) for f in report.failures])


@pytest.mark.parametrize("strategy", [ash.Random(7), ash.PCT(3, depth=3),
                                      [ash.Random(0), ash.PCT(1)]],
                         ids=["random", "pct", "portfolio"])
@pytest.mark.parametrize("stop_on_failure", [True, False])
def test_two_workers_give_the_serial_report(strategy, stop_on_failure):
    kw = dict(runs=120, stop_on_failure=stop_on_failure, store=None)
    serial = ash.explore(racy_lock, setup, check, strategy, workers=1, **kw)
    assert serial.failures, "the kernel must fail under these schedules for the test to mean much"
    if not stop_on_failure:
        assert serial.runs == 120 and len(serial.failures) > 1
    together = ash.explore(racy_lock, setup, check, strategy, workers=2, **kw)
    assert summary(together) == summary(serial)
    # the first failure's trace replays to the same failure here
    with pytest.raises(AssertionError, match="lost update"):
        check(ash.run(racy_lock, **setup(), schedule=together.failures[0].trace,
                          sanitize="off"))


def test_a_failure_far_in_stops_the_workers_and_keeps_the_serial_first_failure():
    # a check that fails on a rarer outcome: the first failure (run 39) lies past the runs
    # measured here first, so chunks after it are running when it is found
    serial = ash.explore(racy_lock, setup, lost_two, ash.Random(0), runs=400, workers=1,
                         store=None)
    together = ash.explore(racy_lock, setup, lost_two, ash.Random(0), runs=400, workers=2,
                           store=None)
    assert serial.failures[0].run > 16
    assert serial.failures and summary(together) == summary(serial)
    assert together.runs == serial.failures[0].run + 1 < 400


@ash.compute(workgroup_size=2)
async def picky(c: ash.Storage, *, local_invocation_index: u32):
    old = await atomic_add(ptr(c, 0), 1)
    if local_invocation_index == 0 and old == 1:
        raise RuntimeError("invocation 0 came second")


def one_counter():
    return {"c": np.zeros(1, np.uint32)}


def test_a_kernel_that_raises_in_a_worker_is_a_failure_with_its_trace():
    kw = dict(runs=60, stop_on_failure=False, store=None)
    serial = ash.explore(picky, one_counter, None, ash.Random(0), workers=1, **kw)
    together = ash.explore(picky, one_counter, None, ash.Random(0), workers=2, **kw)
    assert summary(together) == summary(serial)
    late = [f for f in together.failures if f.run >= 16]  # found by the workers
    assert late and "ShaderError" in late[0].error and "came second" in late[0].error
    assert isinstance(late[0].exception, ash.ShaderError)
    with pytest.raises(ash.ShaderError, match="came second"):
        ash.run(picky, **one_counter(), schedule=late[0].trace)


def test_any_executor_runs_the_tasks():
    serial = ash.explore(racy_lock, setup, check_always_passes, ash.PCT(0), runs=60,
                         workers=1, store=None)
    with cf.ProcessPoolExecutor(2) as pool:
        remote = ash.explore(racy_lock, setup, check_always_passes, ash.PCT(0), runs=60,
                             executor=pool, store=None)
    with cf.ThreadPoolExecutor(2) as pool:
        threads = ash.explore(racy_lock, setup, check_always_passes, ash.PCT(0), runs=60,
                              executor=pool, store=None)
    assert summary(remote) == summary(serial) == summary(threads)
    assert serial.runs == 60 and len(serial.outcomes) >= 2


def test_a_partial_of_module_level_functions_is_sent_as_it_is():
    serial = ash.explore(racy_lock, functools.partial(setup), check, ash.Random(0), runs=40,
                         workers=1, store=None)
    together = ash.explore(racy_lock, functools.partial(setup), check, ash.Random(0), runs=40,
                           workers=2, store=None)
    assert summary(together) == summary(serial)


def test_a_lambda_setup_cannot_go_to_workers_and_the_error_says_where_and_how_to_fix():
    with pytest.raises(ash.OptionError) as e:
        ash.explore(racy_lock, lambda: setup(), check, ash.Random(0), runs=40, workers=2,
                    store=None)
    text = str(e.value)
    assert "explore(workers=2) runs setup in other processes" in text
    assert "is a lambda" in text and "test_parallel.py:" in text
    assert "module level" in text and "workers=1" in text


def test_a_kernel_defined_inside_a_function_cannot_go_to_workers():
    @ash.compute(workgroup_size=2)
    async def local(c: ash.Storage, *, local_invocation_index: u32):
        await atomic_add(ptr(c, 0), 1)

    with pytest.raises(ash.OptionError, match=r"runs kernel in other.*defined inside a "
                       r"function.*module level"):
        ash.explore(local, lambda: {"c": np.zeros(1, np.uint32)}, None, "random", runs=40,
                    workers=2, store=None)


def test_the_default_stays_in_this_process_for_short_explorations_and_unsendable_setups(
        monkeypatch):
    def no_pool(workers):
        raise AssertionError("a short exploration must not start processes")

    monkeypatch.setattr(parallel, "_pool", no_pool)
    report = ash.explore(racy_lock, setup, check, ash.Random(0), runs=50,
                         stop_on_failure=False, store=None)
    assert report.runs == 50
    # a long one with a setup that cannot be sent stays here too, instead of failing
    monkeypatch.setattr(parallel, "AUTO_PARALLEL_SECONDS", 0.0)
    report = ash.explore(racy_lock, lambda: setup(), check, ash.Random(0), runs=50,
                         stop_on_failure=False, store=None)
    assert report.runs == 50


def test_the_default_goes_parallel_when_the_runs_left_take_long(monkeypatch):
    started = []
    real = parallel._pool

    def counting_pool(workers):
        started.append(workers)
        return real(workers)

    monkeypatch.setattr(parallel, "_pool", counting_pool)
    monkeypatch.setattr(parallel, "AUTO_PARALLEL_SECONDS", 0.0)
    monkeypatch.setattr(parallel, "available_cores", lambda: 2)
    report = ash.explore(racy_lock, setup, check_always_passes, ash.Random(0), runs=40,
                         store=None)
    assert started == [2] and report.runs == 40


def test_sequential_strategies_refuse_workers():
    with pytest.raises(ash.OptionError, match="an exhaustive search.*runs in one process"):
        ash.explore(racy_lock, setup, check, ash.Exhaustive(1), workers=2, store=None)
    with pytest.raises(ash.OptionError, match="single schedule"):
        ash.explore(racy_lock, setup, check, ash.InOrder(), workers=2, store=None)
    with pytest.raises(ash.OptionError, match="workers must be a number of processes"):
        ash.explore(racy_lock, setup, check, "random", workers=0, store=None)
    with pytest.raises(ash.OptionError, match="executor must be a concurrent.futures"):
        ash.explore(racy_lock, setup, check, "random", executor="dask", store=None)


def check_always_fails(result):
    return False


def test_a_portfolio_takes_turns_and_refuses_sequential_members():
    # every run fails, so every run's trace is in the report, with its strategy
    report = ash.explore(racy_lock, setup, check_always_fails,
                         [ash.Random(5), ash.PCT(9, depth=2)], runs=4, workers=1,
                         stop_on_failure=False, store=None)
    assert report.strategy["name"] == "portfolio"
    assert [m["name"] for m in report.strategy["members"]] == ["random", "pct"]
    used = [f.trace.strategy for f in report.failures]
    assert [(u["name"], u["seed"]) for u in used] == [("random", 5), ("pct", 9),
                                                      ("random", 6), ("pct", 10)]
    with pytest.raises(ash.OptionError, match="portfolio"):
        ash.explore(racy_lock, setup, check, [ash.Random(0), ash.Exhaustive(1)], store=None)


def test_progress_reaches_the_total_in_parallel():
    seen = []
    ash.explore(racy_lock, setup, check_always_passes, ash.Random(0), runs=80, workers=2,
                store=None, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (80, 80) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_time_budget_stops_the_workers():
    report = ash.explore(racy_lock, setup, check_always_passes, ash.Random(0), runs=10**6,
                         workers=2, time_budget=0.5, store=None)
    assert report.stopped.startswith("time budget of 0.5 s") and report.runs < 10**6


# --------------------------------------------------------------------------- the store
def test_failures_found_by_workers_are_stored_and_the_next_process_replays_them_first(
        tmp_path, monkeypatch):
    store = DirectoryStore(tmp_path / "failures")
    first = ash.explore(racy_lock, setup, check, ash.Random(0), runs=200, workers=2,
                        store=store)
    assert first.failures and first.replayed == 0
    saved = list(store.fetch(failure_key(racy_lock.identity)))
    assert saved == [first.failures[0].trace_string.encode()]
    # this process saved it: it does not replay it again (same report again)
    again = ash.explore(racy_lock, setup, check, ash.Random(0), runs=200, store=store)
    assert summary(again) == summary(first)
    monkeypatch.setattr(explore_module, "_SAVED_HERE", set())  # as a new process
    later = ash.explore(racy_lock, setup, check, ash.PCT(50), runs=200, store=store)
    assert later.replayed == 1 and later.runs == 0
    assert later.failures[0].stored and later.failures[0].run == -1
    assert later.failures[0].trace_string == first.failures[0].trace_string
    assert later.stopped == "a stored failure still fails"
    assert "replayed 1 stored failure(s) first: 1 still fail" in later.summary()


def test_a_stored_failure_that_passes_now_is_deleted(tmp_path, monkeypatch):
    monkeypatch.setattr(explore_module, "_SAVED_HERE", set())  # as a new process
    store = DirectoryStore(tmp_path)
    key = failure_key(racy_lock.identity)
    found = ash.explore(racy_lock, setup, check, ash.Random(0), runs=200, store=None)
    store.save(key, found.failures[0].trace_string.encode())
    store.save(key, b"ash1:not a trace")
    fixed = ash.explore(racy_lock, setup, check_always_passes, ash.Random(0), runs=5,
                        store=store)
    assert fixed.replayed == 2 and not fixed.failures and fixed.runs == 5
    assert list(store.fetch(key)) == []


def test_hypothesis_example_databases_are_stores(tmp_path):
    pytest.importorskip("hypothesis")
    from hypothesis.database import DirectoryBasedExampleDatabase, InMemoryExampleDatabase

    for db in (InMemoryExampleDatabase(), DirectoryBasedExampleDatabase(str(tmp_path))):
        found = ash.explore(racy_lock, setup, check, ash.Random(0), runs=200, store=db)
        assert list(db.fetch(failure_key(racy_lock.identity))) == [
            found.failures[0].trace_string.encode()]


def test_the_default_store_is_a_folder_in_the_current_directory_or_the_environments(
        tmp_path, monkeypatch):
    from asyncshader.exploration import store as store_module

    monkeypatch.delenv("ASYNCSHADER_STORE", raising=False)
    monkeypatch.chdir(tmp_path)
    assert store_module.default_store().path == tmp_path / ".asyncshader" / "failures"
    monkeypatch.setenv("ASYNCSHADER_STORE", str(tmp_path / "elsewhere"))
    assert store_module.default_store().path == tmp_path / "elsewhere"
    monkeypatch.setenv("ASYNCSHADER_STORE", "off")
    assert store_module.default_store() is None
    with pytest.raises(ash.OptionError, match="store must be a folder"):
        ash.explore(racy_lock, setup, check, store=42)
