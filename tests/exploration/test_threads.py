"""Explorations on threads: an executor of threads (``ThreadPoolExecutor``, a Dask worker
with several threads) gives the serial report, and a worker's threads load a kernel file
once, whole."""

import concurrent.futures as cf
import sys
import textwrap
import threading
import types

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32
from asyncshader.exploration import parallel


@pytest.fixture
def fast_switching():
    """Threads take turns at the GIL every 10 microseconds instead of 5 ms: runs in two
    threads interleave many times per run, as on a busy machine."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(before)

KERNEL_FILE = '''
import sys

gate = sys.modules["explore_test_gate"]
gate.started.set()
gate.go.wait(10)  # (the test lets the file finish once another thread asked for it)

import asyncshader as ash
from asyncshader import u32


@ash.compute(workgroup_size=2)
async def kern(out: ash.Storage, *, local_invocation_index: u32):
    out[local_invocation_index] = local_invocation_index
'''


def test_two_threads_resolving_a_kernel_file_at_once_both_get_the_kernel(tmp_path, monkeypatch):
    gate = types.ModuleType("explore_test_gate")
    gate.started, gate.go = threading.Event(), threading.Event()
    monkeypatch.setitem(sys.modules, "explore_test_gate", gate)
    file = tmp_path / "loaded_by_threads.py"
    file.write_text(textwrap.dedent(KERNEL_FILE))
    monkeypatch.delitem(sys.modules, "loaded_by_threads", raising=False)
    # a script's kernel: found by its file, not by its module ("__main__" is the worker's)
    ref = parallel.Ref("__main__", "kern", str(file))
    got = {}

    def resolve(name):
        try:
            got[name] = ref.resolve()
        except Exception as exc:  # (what the thread met, for the assertion below)
            got[name] = exc

    first = threading.Thread(target=resolve, args=("first",))
    first.start()
    assert gate.started.wait(10)  # the first thread is inside the file now
    second = threading.Thread(target=resolve, args=("second",))
    second.start()
    second.join(1.0)  # (it must wait for the first: it finishes only after the file does)
    gate.go.set()
    first.join(10)
    second.join(10)
    assert getattr(got["first"], "stage", None) == "compute", got
    assert got["second"] is got["first"]
    monkeypatch.delitem(sys.modules, "loaded_by_threads", raising=False)


# ---------------------------------------------------------------------------- workgroup memory

W = 32
tile = ash.workgroup(ash.array(f32, W))


@ash.compute(workgroup_size=W)
async def tree_sum(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                   workgroup_id: ash.vec3u):
    i = local_invocation_index
    tile[i] = inp[workgroup_id.x * W + i]
    await ash.workgroup_barrier()
    s = W // 2
    while s > 0:
        if i < s:
            tile[i] += tile[i + s]
        await ash.workgroup_barrier()
        s //= 2
    if i == 0:
        out[workgroup_id.x] = tile[0]


def sums_setup():
    return {"inp": np.arange(4 * W, dtype=np.float32), "out": np.zeros(4, np.float32),
            "workgroups": 4, "sanitize": "off"}


def sums_check(result):
    assert result["out"].tolist() == EXPECTED, f"sums {result['out'].tolist()}"


def summary(report):
    return (report.runs, list(report.outcomes.items()), sorted(report.failing_outcomes),
            [(f.run, f.error, f.trace_string) for f in report.failures])


def test_a_thread_pool_gives_the_serial_report_for_a_kernel_with_workgroup_memory(
        fast_switching):
    kw = dict(runs=80, stop_on_failure=False, store=None)
    serial = ash.explore(tree_sum, sums_setup, sums_check, ash.Random(0), workers=1, **kw)
    with cf.ThreadPoolExecutor(2) as pool:
        threads = ash.explore(tree_sum, sums_setup, sums_check, ash.Random(0), executor=pool,
                              **kw)
    assert serial.runs == 80 and not serial.failures  # the reduction is right on every schedule
    assert summary(threads) == summary(serial)


def test_threads_dispatching_kernels_that_share_workgroup_memory_take_turns(fast_switching):
    """Synchronous runs and awaited dispatches in two threads at once: each gets the sums it
    gets alone (the awaited one lets others run at its checkpoints)."""
    import anyio

    wrong = []

    def sync_runs():
        for seed in range(20):
            result = ash.run(tree_sum, **sums_setup(), schedule=ash.Random(seed))
            if result["out"].tolist() != EXPECTED:
                wrong.append(("run", seed, result["out"].tolist()))

    async def awaited_runs():
        for seed in range(20):
            result = await ash.dispatch(tree_sum, **sums_setup(), schedule=ash.Random(seed))
            if result["out"].tolist() != EXPECTED:
                wrong.append(("dispatch", seed, result["out"].tolist()))

    workers = [threading.Thread(target=sync_runs),
               threading.Thread(target=anyio.run, args=(awaited_runs,))]
    for t in workers:
        t.start()
    for t in workers:
        t.join(120)
    assert not any(t.is_alive() for t in workers)
    assert wrong == []


EXPECTED = [float(sum(range(k * W, (k + 1) * W))) for k in range(4)]  # by Gauss: 496, 1520...
