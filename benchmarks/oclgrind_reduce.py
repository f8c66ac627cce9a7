"""The 256-wide tree reduction of benchmarks/reduce.py under Oclgrind and under asyncshader.

The same kernel as OpenCL C runs on Oclgrind (pyopencl on Oclgrind's ICD, one worker thread, in a
child process: see tests/oclgrind/harness.py) with its race detector (OCLGRIND_DATA_RACES=1) and
without; asyncshader runs benchmarks/reduce.py's ``reduce256`` with ``sanitize="report"`` (and
with the sanitizer off) in this process. Oclgrind's rate is the kernel's time from enqueue to
finish (the build and the child process are not counted); asyncshader's is the ash.run() call.
Every run is checked: right sums, and no race reported by either detector.

    python benchmarks/oclgrind_reduce.py [--groups 32] [--repeat 2] [--oclgrind-threads 1]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

import asyncshader as ash  # noqa: E402

N = 256

# The OpenCL twin of benchmarks/reduce.py's reduce256: barrier(CLK_LOCAL_MEM_FENCE) for
# workgroup_barrier(), __local for var<workgroup>.
REDUCE256_CL = """\
__kernel void reduce256(__global const float *inp, __global float *out)
{
  __local float tile[256];
  uint i = get_local_id(0);
  uint w = get_group_id(0);
  tile[i] = inp[w * 256 + i];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 256 / 2; s > 0; s /= 2) {
    if (i < s)
      tile[i] += tile[i + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i == 0)
    out[w] = tile[0];
}
"""


def _load(name: str, path: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def oclgrind_rate(inp: np.ndarray, groups: int, repeat: int, races: bool = True,
                  threads: int = 1) -> tuple[float | None, str]:
    """(invocations/s of the OpenCL reduction under Oclgrind, note), best of ``repeat``; the
    rate is None (and the note says why) when Oclgrind cannot be used here. Checks the sums
    and that Oclgrind reported no race."""
    harness = _load("oclgrind_harness", os.path.join(ROOT, "tests", "oclgrind", "harness.py"))
    ok, why = harness.available()
    if not ok:
        return None, f"Oclgrind is not available: {why}"
    expect = inp.reshape(groups, N).sum(axis=1, dtype=np.float64)
    rep = harness.run_source(REDUCE256_CL, "reduce256", groups * N, N,
                             [inp, np.zeros(groups, np.float32)], data_races=races,
                             repeat=repeat, threads=threads, timeout=600)
    assert not rep.races and not rep.errors, rep.stderr
    assert np.allclose(rep.outputs[1], expect, rtol=1e-4), "wrong Oclgrind result"
    return groups * N / rep.seconds, f"child process {rep.extra['wall']:.1f}s incl. build"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, default=32, help="workgroups of 256 (default 32)")
    ap.add_argument("--repeat", type=int, default=2, help="best of this many runs each")
    ap.add_argument("--oclgrind-threads", type=int, default=1,
                    help="Oclgrind worker threads (default 1, like asyncshader's one thread)")
    args = ap.parse_args(argv)
    g, repeat = args.groups, args.repeat
    reduce_bench = _load("reduce_bench", os.path.join(ROOT, "benchmarks", "reduce.py"))
    inp = np.random.default_rng(1).random(g * N, dtype=np.float32)
    expect = inp.reshape(g, N).sum(axis=1, dtype=np.float64)
    invocations = g * N
    rows = []

    for label, races in (("Oclgrind, race detector on", True),
                         ("Oclgrind, race detector off", False)):
        rate, note = oclgrind_rate(inp, g, repeat, races, args.oclgrind_threads)
        if rate is None:
            print(note)
            return 1
        rows.append((label, rate, note))

    for label, sanitize in (("asyncshader, sanitize='report'", "report"),
                            ("asyncshader, sanitize='off'", "off")):
        best = float("inf")
        for _ in range(repeat):
            out = np.zeros(g, np.float32)
            t0 = time.perf_counter()
            r = ash.run(reduce_bench.reduce256, g, inp=inp, out=out, sanitize=sanitize)
            best = min(best, time.perf_counter() - t0)
            assert not r.findings, ash.render_findings(r.findings)
            assert np.allclose(out, expect, rtol=1e-4), "wrong asyncshader result"
        rows.append((label, invocations / best, ""))

    print(f"256-wide tree reduction, {g} workgroups ({invocations:,} invocations), best of "
          f"{repeat}; Oclgrind with {args.oclgrind_threads} worker thread(s)")
    ref = rows[0][1]
    print(f"{'variant':36s} {'invocations/s':>14s} {'vs Oclgrind+races':>18s}")
    for label, rate, note in rows:
        print(f"{label:36s} {rate:14,.0f} {rate / ref:18.2f}  {note}")
    return rows


if __name__ == "__main__":
    main()
