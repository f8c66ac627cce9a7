"""Agreement with Oclgrind: the same kernels as asyncshader shaders and as OpenCL C, both race
detectors, the same verdict and the same pair of source lines.

Each asyncshader kernel here has a twin in tests/oclgrind/<name>.cl. The OpenCL twins run under
Oclgrind (pyopencl on Oclgrind's ICD, race detector on: see tests/oclgrind/harness.py) in a child
process whose stderr is parsed. WGSL's barriers map to OpenCL's as

    workgroup_barrier()          barrier(CLK_LOCAL_MEM_FENCE)   (orders workgroup/local memory)
    storage_barrier()            barrier(CLK_GLOBAL_MEM_FENCE)  (orders storage/global memory)
    workgroup_uniform_load(p)    barrier(CLK_LOCAL_MEM_FENCE); v = *p; barrier(...)
    atomic_load(p)               atomic_or(p, 0)

and var<workgroup> to __local, storage bindings to __global buffers (same order as the kernel's
parameters). ``Case.lines`` in ``CASES`` below is the explicit mapping: for every kernel, each
asyncshader statement that takes part in a race (found by a unique snippet of its text) and the
.cl line of its twin statement; the .cl files carry ``// line N`` comments at those lines and
the asyncshader statements ``# cl N`` comments, checked too.

One difference is by design and asserted as such: Oclgrind suppresses write-write races in which
both writes store the same value unless run with ``--uniform-writes``; asyncshader reports them
with ``DataRace.same_value`` set (WGSL calls them races all the same). So Oclgrind's default
report must equal asyncshader's races without the same-value ones, and Oclgrind's
``--uniform-writes`` report must equal all of asyncshader's races.

Skipped, with the reason, when pyopencl or Oclgrind is not installed:
``apt-get install oclgrind ocl-icd-libopencl1`` and ``pip install pyopencl``.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from helpers import TESTS

import asyncshader as ash
from asyncshader import atomic_add, f32, ptr, u32, vec3u, workgroup_barrier

CL_DIR = str(TESTS / "oclgrind")


def _load_harness() -> Any:
    spec = importlib.util.spec_from_file_location("oclgrind_harness",
                                                  os.path.join(CL_DIR, "harness.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


harness = _load_harness()


@pytest.fixture(scope="module")
def oclgrind():
    try:
        import pyopencl  # noqa: F401
    except ImportError as e:  # not installed, or installed without a usable libOpenCL
        pytest.skip(f"Oclgrind agreement tests skipped: pyopencl does not import ({e}); "
                    "pip install pyopencl")
    ok, why = harness.available()
    if not ok:
        pytest.skip(f"Oclgrind agreement tests skipped: {why}")
    return harness


# =============================================================================== the kernels
# Each asyncshader kernel, with a comment "cl N" on each statement that races, N being the line
# of its twin in tests/oclgrind/<kernel name>.cl.

# ------------------------------------------------------------------ reduction, missing barrier
rd_partial = ash.workgroup(ash.array(f32, 8))


@ash.compute(workgroup_size=8)
async def reduce_missing_barrier(inp: ash.Storage, out: ash.Storage, *,
                                 local_invocation_index: u32, workgroup_id: vec3u):
    i = local_invocation_index
    rd_partial[i] = inp[i]
    await workgroup_barrier()
    s = 4
    while s > 0:
        if i < s:
            rd_partial[i] += rd_partial[i + s]  # cl 10
        s //= 2  # the barrier that belongs here is missing
    if i == 0:
        out[workgroup_id.x] = rd_partial[0]


rc_partial = ash.workgroup(ash.array(f32, 8))


@ash.compute(workgroup_size=8)
async def reduce_correct(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                         workgroup_id: vec3u):
    i = local_invocation_index
    rc_partial[i] = inp[i]
    await workgroup_barrier()
    s = 4
    while s > 0:
        if i < s:
            rc_partial[i] += rc_partial[i + s]
        await workgroup_barrier()
        s //= 2
    if i == 0:
        out[workgroup_id.x] = rc_partial[0]


# -------------------------------------------------------------- tiled matmul, missing barrier
mm_tile_a = ash.workgroup(ash.array(f32, 4))


@ash.compute(workgroup_size=(2, 2))
async def matmul_missing_barrier(a: ash.Storage, b: ash.Storage, c: ash.Storage, *,
                                 local_invocation_id: vec3u):
    x, y = int(local_invocation_id.x), int(local_invocation_id.y)
    acc = 0.0
    for t in range(2):
        mm_tile_a[y * 2 + x] = a[y * 4 + t * 2 + x]  # cl 11: load this tile
        await workgroup_barrier()
        for k in range(2):
            acc += mm_tile_a[y * 2 + k] * b[(t * 2 + k) * 2 + x]  # cl 14: use it
        # missing: await workgroup_barrier() before the next tile overwrites mm_tile_a
    c[y * 2 + x] = acc


# --------------------------------------------------------------- write-write between groups
@ash.compute(workgroup_size=2)
async def cross_group_write(out: ash.Storage, *, local_invocation_index: u32,
                            workgroup_id: vec3u):
    if local_invocation_index == 0:
        out[0] = workgroup_id.x  # cl 6: every workgroup writes slot 0


# ------------------------------------------------------------------- atomics: never a race
@ash.compute(workgroup_size=8)
async def atomic_counter(counter: ash.Storage):
    await atomic_add(ptr(counter, 0), 1)


hg_local = ash.workgroup(ash.array(ash.atomic(u32), 4))


@ash.compute(workgroup_size=8)
async def histogram_atomics(data: ash.Storage, hist: ash.Storage, *,
                            local_invocation_index: u32, global_invocation_id: vec3u):
    i = local_invocation_index
    if i < 4:  # WGSL zero-initialises workgroup memory; OpenCL stores the zero (plainly)
        await ash.atomic_store(ptr(hg_local, i), 0)
    await workgroup_barrier()
    await atomic_add(ptr(hg_local, data[global_invocation_id.x] % 4), 1)
    await workgroup_barrier()
    if i < 4:
        await atomic_add(ptr(hist, i), await ash.atomic_load(ptr(hg_local, i)))


# -------------------------------------------------------------- workgroup_uniform_load broadcast
ul_value = ash.workgroup(u32)


@ash.compute(workgroup_size=4)
async def uniform_load_broadcast(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 3:
        ul_value.value = 42
    v = await ash.workgroup_uniform_load(ul_value)  # cl 10-12: barrier, load, barrier
    out[i] = v
    if i == 0:
        ul_value.value = 7  # ordered after the others' loads by the trailing barrier


# ------------------------------------------------------- flag hand-off between workgroups
@ash.compute(workgroup_size=1)
async def flag_handoff(data: ash.Storage, flag: ash.Storage, out: ash.Storage, *,
                       workgroup_id: vec3u):
    if workgroup_id.x == 0:
        data[0] = 7  # cl 8: producer writes the payload
        await ash.atomic_store(ptr(flag, 0), 1)
    else:
        if await ash.atomic_load(ptr(flag, 0)) == 1:
            out[0] = data[0]  # cl 12: consumer reads it; relaxed atomics order nothing


# ---------------------------------------------------------------- same value from everyone
@ash.compute(workgroup_size=4)
async def same_value_writes(flag: ash.Storage):
    flag[0] = 1  # cl 5


# ------------------------------------------------------ each barrier orders its own memory
@ash.compute(workgroup_size=2)
async def storage_workgroup_barrier(buf: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    buf[i] = 1  # cl 6
    await workgroup_barrier()  # orders workgroup memory only
    v = buf[1 - i]  # cl 8
    buf[2 + i] = v


@ash.compute(workgroup_size=2)
async def storage_barrier(buf: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    buf[i] = 1
    await ash.storage_barrier()
    v = buf[1 - i]
    buf[2 + i] = v


wb_slots = ash.workgroup(ash.array(u32, 2))


@ash.compute(workgroup_size=2)
async def workgroup_memory_storage_barrier(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    wb_slots[i] = i + 1  # cl 7
    await ash.storage_barrier()  # orders storage memory only
    out[i] = wb_slots[1 - i]  # cl 9


# -------------------------------------------------------------------- atomic against plain
@ash.compute(workgroup_size=4)
async def atomic_vs_plain(counter: ash.Storage, out: ash.Storage, *,
                          local_invocation_index: u32):
    if local_invocation_index == 0:
        out[0] = counter[0]  # cl 7: plain load
    else:
        await atomic_add(ptr(counter, 0), 1)  # cl 9: atomic


# ============================================================================ the cases
@dataclass
class Case:
    kernel: Any  # the asyncshader kernel; its .cl twin is tests/oclgrind/<name>.cl
    workgroups: Any  # asyncshader dispatch size; OpenCL global size = workgroups * local size
    bindings: dict  # name -> (numpy array factory); OpenCL args are the same, in this order
    lines: dict = field(default_factory=dict)  # asyncshader snippet -> .cl line (the mapping)
    same_outputs: bool = True  # the two runs must compute the same buffers (race-free kernels)

    @property
    def name(self) -> str:
        return self.kernel.fn.__name__


def _f32(*shape, fill=0.0):
    return lambda: np.full(shape, fill, np.float32)


def _u32(n):
    return lambda: np.zeros(n, np.uint32)


# The explicit per-kernel mapping table: asyncshader statement (a unique snippet) -> .cl line.
CASES = [
    Case(reduce_missing_barrier, 1, {"inp": _f32(8, fill=1.0), "out": _f32(1)},
         {"rd_partial[i] += rd_partial[i + s]": 10}, same_outputs=False),
    Case(reduce_correct, 3, {"inp": lambda: np.arange(8, dtype=np.float32), "out": _f32(3)}),
    Case(matmul_missing_barrier, 1,
         {"a": lambda: np.arange(8, dtype=np.float32), "b": lambda: np.arange(8, dtype=np.float32),
          "c": _f32(4)},
         {"mm_tile_a[y * 2 + x] = a[": 11, "acc += mm_tile_a[": 14}, same_outputs=False),
    Case(cross_group_write, 2, {"out": _u32(1)}, {"out[0] = workgroup_id.x": 6},
         same_outputs=False),
    Case(atomic_counter, 4, {"counter": _u32(1)}),
    Case(histogram_atomics, 4,
         {"data": lambda: np.arange(32, dtype=np.uint32) * 7, "hist": _u32(4)}),
    Case(uniform_load_broadcast, 1, {"out": _u32(4)}),
    Case(flag_handoff, 2, {"data": _u32(1), "flag": _u32(1), "out": _u32(1)},
         {"data[0] = 7": 8, "out[0] = data[0]": 12}),
    Case(same_value_writes, 1, {"flag": _u32(1)}, {"flag[0] = 1": 5}),
    Case(storage_workgroup_barrier, 1, {"buf": _u32(4)}, {"buf[i] = 1": 6, "v = buf[1 - i]": 8}),
    Case(storage_barrier, 1, {"buf": _u32(4)}),
    Case(workgroup_memory_storage_barrier, 1, {"out": _u32(2)},
         {"wb_slots[i] = i + 1": 7, "out[i] = wb_slots[1 - i]": 9}),
    Case(atomic_vs_plain, 1, {"counter": _u32(1), "out": _u32(1)},
         {"out[0] = counter[0]": 7, "await atomic_add(ptr(counter, 0), 1)": 9},
         same_outputs=False),
]
IDS = [c.name for c in CASES]
_SPACES = {"workgroup": "local", "storage": "global"}


def _py_line(fn, snippet: str) -> int:
    src, start = inspect.getsourcelines(fn)
    hits = [start + k for k, s in enumerate(src) if snippet in s]
    assert len(hits) == 1, f"snippet {snippet!r} must name one line of {fn.__name__}"
    return hits[0]


def _sizes(case: Case) -> tuple[tuple, tuple]:
    groups = case.workgroups if isinstance(case.workgroups, tuple) else (case.workgroups,)
    local = tuple(int(n) for n in case.kernel.workgroup_size)
    while local and local[-1] == 1 and len(local) > len(groups):
        local = local[:-1]
    groups = groups + (1,) * (len(local) - len(groups))
    return tuple(g * n for g, n in zip(groups, local)), local


def run_asyncshader(case: Case, schedule: Any = None) -> tuple[list, list]:
    """asyncshader's races as ((kind, .cl line, .cl line, memory, same group), same value) pairs,
    and the buffers after the run. A line that ``case.lines`` does not map stays as minus its
    asyncshader line number, so that it cannot match."""
    arrays = {k: make() for k, make in case.bindings.items()}
    r = ash.run(case.kernel, case.workgroups, sanitize="report", max_live_workgroups=4,
                schedule=schedule, **arrays)
    to_cl = {_py_line(case.kernel.fn, snip): cl for snip, cl in case.lines.items()}
    found = []
    for f in r.findings:
        assert isinstance(f, ash.DataRace), f"unexpected finding:\n{f.render()}"
        l1, l2 = sorted(to_cl.get(a.line, -a.line) for a in (f.first, f.second))
        found.append(((f.race, l1, l2, _SPACES[f.address_space], f.same_workgroup),
                      f.same_value))
    return found, list(arrays.values())


def run_oclgrind(case: Case, og: Any, uniform_writes: bool = False) -> tuple[set, Any]:
    global_size, local_size = _sizes(case)
    rep = og.run(f"{case.name}.cl", case.name, global_size, local_size,
                 [make() for make in case.bindings.values()], uniform_writes=uniform_writes)
    assert not rep.errors, f"Oclgrind reported errors other than races:\n{rep.stderr}"
    return {(r.kind, *r.lines, r.memory, r.same_group) for r in rep.races}, rep


# ============================================================================== the tests
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_mapping_table_names_the_commented_lines(case):
    """Every mapped .cl line carries its ``// line N`` comment and every asyncshader line its
    ``# cl N`` comment (so a reader can follow the pairs in both files)."""
    with open(os.path.join(CL_DIR, f"{case.name}.cl")) as f:
        cl = f.read().splitlines()
    assert f"__kernel void {case.name}(" in "\n".join(cl)
    src, start = inspect.getsourcelines(case.kernel.fn)
    for snippet, n in case.lines.items():
        assert f"// line {n}" in cl[n - 1], f"{case.name}.cl line {n}: {cl[n - 1]!r}"
        assert f"# cl {n}" in src[_py_line(case.kernel.fn, snippet) - start]


def _verdict(races) -> set:
    return {(kind, memory, same_group) for kind, _, _, memory, same_group in races}


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_asyncshader_and_oclgrind_agree_on_the_verdict(case, oclgrind):
    """Race or no race, and for each race its kind, memory (local/global) and whether both
    accesses came from one work-group."""
    ours, arrays = run_asyncshader(case)
    theirs, rep = run_oclgrind(case, oclgrind)
    # Oclgrind (default options) hides same-value write-write races, by design.
    mine = _verdict(key for key, same_value in ours if not same_value)
    assert mine == _verdict(theirs), (
        f"{case.name}: asyncshader {sorted(ours)} vs Oclgrind {sorted(theirs)}\n{rep.stderr}")
    assert bool(ours) == bool(case.lines), "case.lines maps lines for the racy kernels only"
    if case.same_outputs:
        for got, cl in zip(arrays, rep.outputs):
            np.testing.assert_allclose(got, cl, err_msg=f"{case.name}: the twins differ")


LINE_CASES = [pytest.param(c, id=c.name) for c in CASES]


@pytest.mark.parametrize("case", LINE_CASES)
def test_asyncshader_and_oclgrind_agree_on_the_pair_of_source_lines(case, oclgrind):
    """The same races, each with the same two source lines (through the mapping table)."""
    ours, _ = run_asyncshader(case)
    theirs, rep = run_oclgrind(case, oclgrind)
    mine = {key for key, same_value in ours if not same_value}
    assert mine == theirs, (
        f"{case.name}: asyncshader {sorted(ours)} vs Oclgrind {sorted(theirs)} (a negative "
        f"line is an asyncshader line that case.lines does not map)\n{rep.stderr}")


@pytest.mark.parametrize("case", LINE_CASES)
def test_lockstep_and_oclgrind_agree_on_the_races_and_their_lines(case, oclgrind):
    """Lockstep's vectorised detector: the same races as Oclgrind's with --uniform-writes
    (every race, the same-value ones included: whether both wrote the same value depends on
    the interleaving, and Lockstep's is not Oclgrind's)."""
    ours, _ = run_asyncshader(case, ash.Lockstep())
    theirs, rep = run_oclgrind(case, oclgrind, uniform_writes=True)
    mine = {key for key, _ in ours}
    assert mine == theirs, (
        f"{case.name}: asyncshader {sorted(ours)} vs Oclgrind {sorted(theirs)} (a negative "
        f"line is an asyncshader line that case.lines does not map)\n{rep.stderr}")


@pytest.mark.parametrize("case", [c for c in CASES if c.name == "same_value_writes"],
                         ids=["same_value_writes"])
def test_same_value_writes_agree_only_with_uniform_writes(case, oclgrind):
    """asyncshader reports the same-value race and says so; Oclgrind hides it by default and
    reports it, on the same line, with --uniform-writes."""
    ours, _ = run_asyncshader(case)
    assert ours and all(same_value for _, same_value in ours)
    hidden, _ = run_oclgrind(case, oclgrind)
    assert hidden == set()
    shown, _ = run_oclgrind(case, oclgrind, uniform_writes=True)
    assert {key for key, _ in ours} == shown == {("write-write", 5, 5, "global", True)}


def test_harness_parses_oclgrind_reports():
    """The stderr parser on a report as Oclgrind 21.10 prints it (no Oclgrind needed)."""
    stderr = (
        "Read-write data race at local memory address 0x1000000000004\n"
        "\tKernel: reduce_missing_barrier\n\t\n"
        "\tFirst entity:  Global(1,0,0) Local(1,0,0) Group(0,0,0)\n"
        "\t  store float %add5, float addrspace(3)* %arrayidx1, align 4\n"
        "\tAt line 10 (column 18) of input.cl:\n\t  partial[i] += partial[i + s];\n\t\n"
        "\tSecond entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
        "\t  %1 = load float, float addrspace(3)* %arrayidx3, align 4\n"
        "\tAt line 10 (column 21) of input.cl:\n\t  partial[i] += partial[i + s];\n\t\n\n"
        "Write-write data race at global memory address 0x2000000000000\n"
        "\tKernel: cross_group_write\n\t\n"
        "\tFirst entity:  Global(2,0,0) Local(0,0,0) Group(1,0,0)\n"
        "\tAt line 6 (column 12) of input.cl:\n\t  out[0] = get_group_id(0);\n\t\n"
        "\tSecond entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
        "\tAt line 6 (column 12) of input.cl:\n\t  out[0] = get_group_id(0);\n\t\n\n"
        "Work-group divergence detected (barrier):\n\tKernel: k\n")
    races, errors = harness.parse(stderr)
    assert [(r.kind, r.memory, r.lines, r.same_group) for r in races] == [
        ("read-write", "local", (10, 10), True), ("write-write", "global", (6, 6), False)]
    assert errors == ["Work-group divergence detected (barrier):"]
