"""Race-free kernels (tree reduction, Hillis–Steele scan, tiled matmul) against numpy, for several
sizes and under several schedules and workgroup interleavings.

These kernels have no data race, so the schedule must not change a single bit of their output:
every result is compared bit for bit with a numpy float32 model that performs the same additions
in the same order, and loosely with a float64 numpy reference. Also: traces are deterministic
per seed, and differ between seeds.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import load_example, numpy_tree_sum

import asyncshader as ash

ROOT = Path(__file__).resolve().parent.parent




reduce_ex = load_example("reduce.py")
scan_ex = load_example("prefix_sum.py")
matmul_ex = load_example("matmul.py")

SCHEDULES = {
    "in_order": lambda: ash.InOrder(),
    "random0": lambda: ash.Random(0),
    "random1": lambda: ash.Random(1),
    "random2024": lambda: ash.Random(2024),
}
LIVE = (1, 3)


def schedules():
    return [pytest.param(name, live, id=f"{name}-live{live}")
            for name in SCHEDULES for live in LIVE]


def bits(a) -> bytes:
    return np.asarray(a, dtype=np.float32).tobytes()


# -------------------------------------------------------------- numpy float32 models (same order)


def model_scan(values: np.ndarray, width: int) -> np.ndarray:
    data = values.astype(np.float32)
    n = data.size
    groups = -(-n // width)
    blocks = np.zeros(groups * width, np.float32)
    blocks[:n] = data
    blocks = blocks.reshape(groups, width)
    offset = 1
    while offset < width:                     # Hillis–Steele, one ping-pong step at a time
        nxt = blocks.copy()
        nxt[:, offset:] = blocks[:, offset:] + blocks[:, :-offset]
        blocks = nxt
        offset *= 2
    if groups > 1:
        scanned = model_scan(blocks[:, -1].copy(), width)
        blocks[1:] += scanned[:-1, None]
    return blocks.ravel()[:n]


def model_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for kk in range(a.shape[1]):              # acc += a[r, kk] * b[kk, c], f32 product and sum
        acc += np.multiply.outer(a[:, kk], b[kk, :])
    return acc


# ------------------------------------------------------------------------------------- reduction
REDUCE_SIZES = (1, 255, 256, 257, 1000)


@pytest.mark.parametrize(("schedule", "live"), schedules())
def test_tree_reduction_all_sizes(schedule, live):
    rng = np.random.default_rng(1)
    for n in REDUCE_SIZES:
        values = rng.standard_normal(n).astype(np.float32)
        total, passes = reduce_ex.reduce_sum(values, schedule=SCHEDULES[schedule](),
                                             max_live_workgroups=live)
        assert passes == (1 if n <= 256 else 2)
        assert bits(total) == bits(numpy_tree_sum(values, reduce_ex.WG)), n
        assert float(total) == pytest.approx(values.sum(dtype=np.float64), rel=1e-4, abs=1e-4)


def test_block_sum_partials():
    """One dispatch: every workgroup's partial sum, with a last block that is mostly padding
    (loaded as 0)."""
    wg = reduce_ex.WG
    n = 3 * wg + 5
    values = np.arange(n, dtype=np.float32)
    partial = np.full(4, -1, np.float32)
    for schedule in (ash.InOrder(), ash.Random(7)):
        ash.run(reduce_ex.block_sum, workgroups=4, inp=values, partial=partial, n=n,
                schedule=schedule, max_live_workgroups=3)
        expected = [values[w * wg:(w + 1) * wg].sum(dtype=np.float64) for w in range(4)]
        np.testing.assert_array_equal(partial, np.array(expected, np.float32))


acc = ash.workgroup(ash.array(ash.f32, 64))


@ash.compute(workgroup_size=64)
async def sum_into_zeroed(inp: ash.Storage, out: ash.Storage, *,
                          local_invocation_index: ash.u32, workgroup_id: ash.vec3u):
    """A tree reduction that never initialises ``acc``: it relies on WGSL's zero-initialised
    ``var<workgroup>`` memory (``acc[i] += ...``), in every workgroup, however they interleave.
    The tree leaves non-zero values behind, so memory leaking between workgroups would show."""
    i = local_invocation_index
    acc[i] += inp[workgroup_id.x * 64 + i]
    await ash.workgroup_barrier()
    s = 32
    while s > 0:
        if i < s:
            acc[i] += acc[i + s]
        await ash.workgroup_barrier()
        s //= 2
    if i == 0:
        out[workgroup_id.x] = acc[0]


@pytest.mark.parametrize(("schedule", "live"), schedules())
def test_reduction_relies_on_zeroed_workgroup_memory(schedule, live):
    groups = 6
    values = np.random.default_rng(6).integers(-100, 100, groups * 64).astype(np.float32)
    out = np.full(groups, np.nan, np.float32)
    ash.run(sum_into_zeroed, workgroups=groups, inp=values, out=out,
            schedule=SCHEDULES[schedule](), max_live_workgroups=live)
    np.testing.assert_array_equal(out, values.reshape(groups, 64).sum(axis=1))


def test_awaited_dispatch_matches_run():
    """``await ash.dispatch(...)`` under asyncio: the same output bits and the same trace."""
    values = np.random.default_rng(7).random(1000, dtype=np.float32)
    groups = -(-values.size // reduce_ex.WG)
    outs, traces = [], []
    for awaited in (False, True):
        partial = np.zeros(groups, np.float32)
        kwargs = dict(workgroups=groups, inp=values, partial=partial, n=values.size,
                      schedule=ash.Random(3), max_live_workgroups=3)
        if awaited:
            result = asyncio.run(ash.dispatch(reduce_ex.block_sum, **kwargs))
        else:
            result = ash.run(reduce_ex.block_sum, **kwargs)
        outs.append(bits(partial))
        traces.append(result.trace)
    assert outs[0] == outs[1]
    assert traces[0] == traces[1]
    blocks = np.zeros(groups * reduce_ex.WG, np.float32)
    blocks[:values.size] = values
    np.testing.assert_allclose(np.frombuffer(outs[0], np.float32),
                               blocks.reshape(groups, -1).sum(axis=1, dtype=np.float64),
                               rtol=1e-5)


# ------------------------------------------------------------------------------------------ scan
SCAN_SIZES = (1, 63, 64, 65, 200, 64 * 64 + 5)   # the last needs three levels of block sums


@pytest.mark.parametrize(("schedule", "live"), schedules())
def test_scan_all_sizes(schedule, live):
    rng = np.random.default_rng(2)
    for n in SCAN_SIZES:
        values = rng.random(n, dtype=np.float32)
        out = scan_ex.inclusive_scan(values, schedule=SCHEDULES[schedule](),
                                     max_live_workgroups=live)
        assert out.shape == (n,) and out.dtype == np.float32
        assert bits(out) == bits(model_scan(values, scan_ex.WG)), n
        np.testing.assert_allclose(out, np.cumsum(values, dtype=np.float64), rtol=1e-5)


def test_scan_integers_exact():
    values = np.random.default_rng(3).integers(-50, 50, 1500).astype(np.float32)
    out = scan_ex.inclusive_scan(values, schedule=ash.Random(5), max_live_workgroups=3)
    np.testing.assert_array_equal(out, np.cumsum(values.astype(np.int64)))


def test_scan_blocks_single_dispatch():
    """scan_blocks alone: per-block scans and block totals."""
    wg = scan_ex.WG
    values = np.ones(2 * wg + 3, np.float32)
    out = np.zeros_like(values)
    sums = np.zeros(3, np.float32)
    ash.run(scan_ex.scan_blocks, workgroups=3, inp=values, out=out, block_sums=sums,
            n=values.size, schedule=ash.Random(9), max_live_workgroups=3)
    expected = np.concatenate([np.arange(1, wg + 1)] * 2 + [np.arange(1, 4)])
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(sums, [wg, wg, 3])


# ---------------------------------------------------------------------------------------- matmul
MATMUL_SHAPES = ((1, 1, 1), (8, 8, 8), (16, 5, 9), (9, 17, 3), (20, 28, 12))   # (m, k, n)


@pytest.mark.parametrize(("schedule", "live"), schedules())
def test_tiled_matmul_all_shapes(schedule, live):
    rng = np.random.default_rng(4)
    for m, k, n in MATMUL_SHAPES:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        c = matmul_ex.matmul(a, b, schedule=SCHEDULES[schedule](), max_live_workgroups=live)
        assert c.shape == (m, n) and c.dtype == np.float32
        assert bits(c) == bits(model_matmul(a, b)), (m, k, n)
        exact = a.astype(np.float64) @ b.astype(np.float64)
        bound = k * np.finfo(np.float32).eps * (np.abs(a) @ np.abs(b)).astype(np.float64)
        assert np.all(np.abs(c - exact) <= bound), (m, k, n)


# ------------------------------------------------------------------------- schedule independence
def test_results_identical_across_schedules():
    rng = np.random.default_rng(5)
    values = rng.random(700, dtype=np.float32)
    a = rng.standard_normal((11, 13)).astype(np.float32)
    b = rng.standard_normal((13, 10)).astype(np.float32)
    seen = set()
    for name, live in [(s, lv) for s in SCHEDULES for lv in LIVE]:
        sched = SCHEDULES[name]
        total, _ = reduce_ex.reduce_sum(values, schedule=sched(), max_live_workgroups=live)
        scanned = scan_ex.inclusive_scan(values, schedule=sched(), max_live_workgroups=live)
        c = matmul_ex.matmul(a, b, schedule=sched(), max_live_workgroups=live)
        seen.add((bits(total), bits(scanned), bits(c)))
    assert len(seen) == 1


# ------------------------------------------------------------------------------------ traces
def _run_scan_blocks(schedule, live=3, n=300):
    values = np.arange(n, dtype=np.float32)
    groups = -(-n // scan_ex.WG)
    out = np.zeros(n, np.float32)
    return ash.run(scan_ex.scan_blocks, workgroups=groups, inp=values, out=out,
                   block_sums=np.zeros(groups, np.float32), n=n, schedule=schedule,
                   max_live_workgroups=live), out


@pytest.mark.parametrize("live", LIVE)
def test_same_seed_same_trace(live):
    r1, out1 = _run_scan_blocks(ash.Random(42), live=live)
    r2, out2 = _run_scan_blocks(ash.Random(42), live=live)
    assert r1.trace == r2.trace
    assert r1.trace.to_json() == r2.trace.to_json()
    assert r1.trace.decision_count > 0 and r1.trace.choices()
    assert bits(out1) == bits(out2)
    assert r1.counters == r2.counters


def test_strategy_object_reused_gives_same_trace():
    strategy = ash.Random(8)
    r1, _ = _run_scan_blocks(strategy)
    r2, _ = _run_scan_blocks(strategy)
    assert r1.trace == r2.trace
    assert r1.trace.to_json() == r2.trace.to_json()


@pytest.mark.parametrize("live", LIVE)
def test_different_seeds_different_traces(live):
    runs = [_run_scan_blocks(ash.Random(seed), live=live) for seed in (1, 2, 3)]
    traces = [r.trace for r, _ in runs]
    outs = [out for _, out in runs]
    for i in range(3):
        for j in range(i + 1, 3):
            assert traces[i] != traces[j]
            assert traces[i].to_json() != traces[j].to_json()
            assert traces[i].choices() != traces[j].choices()
            assert bits(outs[i]) == bits(outs[j])      # race-free: same output anyway


class _Observer(ash.Instrument):
    """Observes only; its presence makes the scheduler take its general (instrumented) loop."""

    def invocation_finished(self, inv):
        pass


def _observed_pair(make_schedule, live):
    """The same scan_blocks run without and with an observing instrument (which makes the
    scheduler leave its fast paths for the general loop)."""
    plain, out1 = _run_scan_blocks(make_schedule(), live=live)
    values = np.arange(300, dtype=np.float32)
    out2 = np.zeros(300, np.float32)
    observed = ash.run(scan_ex.scan_blocks, workgroups=5, inp=values, out=out2,
                       block_sums=np.zeros(5, np.float32), n=300, schedule=make_schedule(),
                       max_live_workgroups=live, instruments=[_Observer()])
    assert bits(out1) == bits(out2)
    return plain, observed


@pytest.mark.parametrize(("schedule", "live"), schedules())
def test_observer_does_not_change_run(schedule, live):
    """An instrument only observes: same outputs, trace and counters (found once: the in-order
    fast path did not count context_switches)."""
    plain, observed = _observed_pair(SCHEDULES[schedule], live)
    assert plain.trace == observed.trace
    assert plain.trace.to_json() == observed.trace.to_json()
    assert plain.counters == observed.counters
    assert observed.counters.context_switches >= 4      # 5 workgroups


def test_in_order_trace_is_deterministic():
    r1, _ = _run_scan_blocks(ash.InOrder(), live=1)
    r2, _ = _run_scan_blocks(None, live=1)
    assert r1.trace == r2.trace
    assert r1.trace.choices() == []                   # in order: no non-canonical decision


@pytest.mark.parametrize("live", LIVE)
def test_replayed_trace_reproduces_schedule(tmp_path, live):
    original, out = _run_scan_blocks(ash.Random(11), live=live)
    path = tmp_path / "scan.json"
    original.trace.save(path)
    replayed, out2 = _run_scan_blocks(ash.Replay(path), live=live)
    assert replayed.trace.choices() == original.trace.choices()
    assert replayed.trace.decision_count == original.trace.decision_count
    assert replayed.trace.steps == original.trace.steps
    assert bits(out) == bits(out2)
    assert ash.Trace.load(path) == original.trace


_HASHSEED_SCRIPT = """
import hashlib, importlib.util, sys
import numpy as np
import asyncshader as ash
spec = importlib.util.spec_from_file_location("asyncshader_example_prefix_sum", sys.argv[1])
m = importlib.util.module_from_spec(spec); sys.modules[spec.name] = m; spec.loader.exec_module(m)
n = 300; g = -(-n // m.WG); out = np.zeros(n, np.float32)
r = ash.run(m.scan_blocks, workgroups=g, inp=np.arange(n, dtype=np.float32), out=out,
            block_sums=np.zeros(g, np.float32), n=n, schedule=ash.Random(42),
            max_live_workgroups=3)
print(hashlib.sha256(r.trace.to_json().encode()).hexdigest())
"""


def test_trace_independent_of_hash_seed():
    """DESIGN: same seed, same trace, whatever PYTHONHASHSEED (checked in fresh processes)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    digests = set()
    for hash_seed in ("1", "2"):
        env["PYTHONHASHSEED"] = hash_seed
        proc = subprocess.run([sys.executable, "-c", _HASHSEED_SCRIPT,
                               str(ROOT / "examples" / "prefix_sum.py")],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        digests.add(proc.stdout.strip())
    in_process, _ = _run_scan_blocks(ash.Random(42))
    digests.add(hashlib.sha256(in_process.trace.to_json().encode()).hexdigest())
    assert len(digests) == 1
