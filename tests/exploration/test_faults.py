"""What an exploration keeps when something goes wrong: its workers end with the process that
explores, however it ends; failures found before a worker crash or a Ctrl-C are in the store
and in the report the error carries, with how to resume."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from helpers import ROOT
from test_parallel import check, racy_lock, setup

import asyncshader as ash
from asyncshader.exploration.store import DirectoryStore, failure_key

#: a script that explores for a long time on two worker processes; each worker writes a file
#: named by its pid when it runs its first run
EXPLORING = '''
import os
import sys

import numpy as np

import asyncshader as ash
from asyncshader import atomic_add, ptr, u32

OUT = sys.argv[1]


@ash.compute(workgroup_size=4)
async def counting(c: ash.Storage, *, local_invocation_index: u32):
    for _ in range(8):
        await atomic_add(ptr(c, 0), 1)


def setup():
    if str(os.getpid()) != os.environ["EXPLORING_PID"]:  # in a worker
        mark = os.path.join(OUT, f"worker-{os.getpid()}")
        if not os.path.exists(mark):
            open(mark, "w").close()
    return {"c": np.zeros(1, np.uint32)}


if __name__ == "__main__":
    if os.environ.get("NO_PRCTL"):  # as on a system without prctl: a thread watches instead
        import ctypes

        from asyncshader.exploration import parallel

        def no_libc(*args, **kwargs):
            raise OSError("no prctl here")

        ctypes.CDLL = no_libc  # (the forked workers inherit both)
        parallel.PARENT_LOOK = 0.1
    os.environ["EXPLORING_PID"] = str(os.getpid())
    ash.explore(counting, setup, None, ash.Random(0), runs=10**8, workers=2, store=None,
                progress=False)
'''


def _alive(pid):
    """Whether process ``pid`` runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _until(condition, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(("how", "prctl"), [(signal.SIGKILL, True), (signal.SIGTERM, True),
                                            (signal.SIGKILL, False)],
                         ids=["SIGKILL", "SIGTERM", "SIGKILL-without-prctl"])
def test_the_workers_end_when_the_exploring_process_is_killed(tmp_path, how, prctl):
    script = tmp_path / "exploring.py"
    script.write_text(textwrap.dedent(EXPLORING))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ASYNCSHADER_STORE": "off"}
    if not prctl:
        env["NO_PRCTL"] = "1"
    parent = subprocess.Popen([sys.executable, str(script), str(tmp_path)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    workers = []
    try:
        def two_workers_run():
            workers[:] = [int(p.name.split("-")[1]) for p in tmp_path.glob("worker-*")]
            return len(workers) == 2 or parent.poll() is not None

        assert _until(two_workers_run, 60) and parent.poll() is None, (
            parent.stderr.read().decode() if parent.poll() is not None else "no workers")
        parent.send_signal(how)
        parent.wait(10)
        assert _until(lambda: not any(_alive(p) for p in workers), 10), (
            f"orphaned workers still run: {[p for p in workers if _alive(p)]}")
    finally:
        for pid in [parent.pid, *workers]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        parent.wait(10)


# ------------------------------------------------------------ Ctrl-C and workers that die
def interrupt_after(calls):
    """A setup() that acts as Ctrl-C on its ``calls + 1``-th call (KeyboardInterrupt is what
    Python raises there)."""
    made = []

    def setup_then_ctrl_c():
        if len(made) == calls:
            raise KeyboardInterrupt
        made.append(1)
        return setup()

    return setup_then_ctrl_c


def test_ctrl_c_keeps_the_failures_found_stores_them_and_says_how_to_resume(tmp_path):
    store = DirectoryStore(tmp_path / "failures")
    kw = dict(stop_on_failure=False, workers=1)
    with pytest.raises(ash.ExplorationInterrupted) as stopped:
        ash.explore(racy_lock, interrupt_after(50), check, ash.Random(0), runs=120,
                    store=store, **kw)
    assert isinstance(stopped.value, KeyboardInterrupt)  # it still stops a program
    partial = stopped.value.report
    whole = ash.explore(racy_lock, setup, check, ash.Random(0), runs=120, store=None, **kw)
    assert partial.runs == 50 and partial.stopped == "interrupted"
    # the runs that finished, as the uninterrupted exploration has them
    assert summary_of_failures(partial) == [f for f in summary_of_failures(whole) if f[0] < 50]
    assert partial.failures, "Random(0..49) must lose updates for the test to mean much"
    assert list(store.fetch(failure_key(racy_lock.identity))) == [
        partial.failures[0].trace_string.encode()]
    text = str(stopped.value)
    assert "interrupted (Ctrl-C), after 50 of 120 runs" in text
    assert f"{len(partial.failures)} failing run(s) found (first: run" in text
    assert "The first of each kind is saved in the failure store" in text
    assert "is this error's .report" in text
    assert "explore again with strategy=Random(50), runs=70" in text
    # going on as it says gives the failures of the runs not done
    rest = ash.explore(racy_lock, setup, check, ash.Random(50), runs=70, store=None, **kw)
    assert [(f[0] + 50, *f[1:]) for f in summary_of_failures(rest)] == [
        f for f in summary_of_failures(whole) if f[0] >= 50]


def test_ctrl_c_during_a_parallel_exploration_halts_the_workers_and_keeps_their_failures(
        tmp_path):
    store = DirectoryStore(tmp_path / "failures")

    def ctrl_c_once_workers_reported(done, total):
        if done > 100:
            raise KeyboardInterrupt

    with pytest.raises(ash.ExplorationInterrupted) as stopped:
        ash.explore(racy_lock, setup, check, ash.Random(0), runs=2000, workers=2,
                    stop_on_failure=False, store=store, progress=ctrl_c_once_workers_reported)
    partial = stopped.value.report
    assert 100 < partial.runs < 2000 and [f for f in partial.failures if f.run >= 16]
    whole = ash.explore(racy_lock, setup, check, ash.Random(0), runs=2000, workers=1,
                        stop_on_failure=False, store=None)
    assert set(summary_of_failures(partial)) <= set(summary_of_failures(whole))
    assert list(store.fetch(failure_key(racy_lock.identity))) == [
        whole.failures[0].trace_string.encode()]
    assert "explore again with strategy=Random(" in str(stopped.value)


def crash_in_a_worker():
    """setup() that ends a worker process abruptly on its 100th call there (as a segfault or
    the OOM killer would)."""
    if str(os.getpid()) != os.environ["EXPLORE_TEST_PARENT"]:
        CALLS.append(1)
        if len(CALLS) == 100:
            os._exit(3)
    return setup()


CALLS = []


def test_a_worker_that_dies_keeps_the_failures_already_back_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLORE_TEST_PARENT", str(os.getpid()))
    store = DirectoryStore(tmp_path / "failures")
    with pytest.raises(ash.ExplorationBrokenError) as broken:
        ash.explore(racy_lock, crash_in_a_worker, check, ash.Random(0), runs=5000, workers=2,
                    stop_on_failure=False, store=store)
    assert isinstance(broken.value, RuntimeError)
    partial = broken.value.report
    assert partial.stopped == "workers died" and partial.failures
    saved = list(store.fetch(failure_key(racy_lock.identity)))
    assert saved == [partial.failures[0].trace_string.encode()]
    text = str(broken.value)
    assert "lost its workers" in text and "saved in the failure store" in text
    assert "workers=1 to see its error here" in text


def summary_of_failures(report):
    return [(f.run, f.error, f.trace_string) for f in report.failures]


INTERRUPTED_FILE = '''
import numpy as np
import asyncshader as ash
from asyncshader import atomic_add, ptr, u32

CALLS = []


@ash.compute(workgroup_size=2)
async def racy(counter: ash.Storage, tickets: ash.Storage, *, local_invocation_index: u32):
    v = counter[0]
    await atomic_add(ptr(tickets, 0), 1)
    counter[0] = v + 1


def setup():
    if len(CALLS) == 30:
        raise KeyboardInterrupt  # what Ctrl-C raises, on the 31st run
    CALLS.append(1)
    return {"counter": np.zeros(1, np.uint32), "tickets": np.zeros(1, np.uint32)}


def check(result):
    assert result["counter"][0] == 2, "lost update"
'''


def test_the_cli_shows_the_failures_an_interrupted_exploration_found_and_how_to_resume(
        tmp_path):
    from asyncshader.tools.cli import main

    (tmp_path / "k.py").write_text(textwrap.dedent(INTERRUPTED_FILE))
    lines = []
    code = main(["explore", str(tmp_path / "k.py") + "::racy", "--runs", "100",
                 "--keep-going", "--seed", "0"], out=lines.append)
    text = "\n".join(lines)
    assert code == 1  # failures were found before Ctrl-C
    assert "failed: check failed: AssertionError: lost update" in text
    assert "replay: asyncshader replay" in text
    assert "stopped: explore(k.racy) was interrupted (Ctrl-C), after 30 of 100 runs" in text
    assert "strategy=Random(30), runs=70" in text
