"""Lockstep's race detector: the coroutine detector's findings from the lanes' accesses as
arrays. The detector suites (tests/sanitizers/test_races*.py, the Oclgrind agreement) run
under Lockstep too; here: what only Lockstep has (the order its findings follow, the
memory it does not record, the Python lines of a kernel it runs as WGSL) and kernels that
use what WGSL has and Python kernels lack (pointers into memory passed to functions, struct
members, compare-exchange), each against the coroutine detector."""

import inspect
import os
import random
import warnings

import numpy as np
import pytest
from helpers import load_example

import asyncshader as ash
from asyncshader import u32
from asyncshader.emit import to_wgsl
from asyncshader.emit.marks import SOURCE_LINES
from asyncshader.lockstep import races as lockstep_races
from asyncshader.lockstep.races import Recorder
from asyncshader.lockstep.schedule import program_of


def line(fn, text):
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, s in enumerate(src) if text in s)


def verdicts(result):
    """What no order changes: each race's kind, memory, space, pair of lines, whether only
    within workgroups, hint; each out-of-bounds access's memory, index, length, line, count."""
    out = set()
    for f in result.findings:
        if isinstance(f, ash.DataRace):
            out.add((f.race, f.memory, f.address_space, f.same_workgroup, f.hint,
                     tuple(sorted({(f.first.file, f.first.line),
                                   (f.second.file, f.second.line)}))))
        else:
            out.add((type(f).__name__, f.memory, str(f.index), f.length, f.access.kind,
                     f.access.line, f.count, tuple(map(str, f.elements))))
    return out


def both(kernel, groups, make):
    """The findings of the coroutine detector (InOrder) and of Lockstep's, on fresh buffers."""
    return [ash.run(kernel, groups, schedule=s, sanitize="report", **make())
            for s in (ash.InOrder(), ash.Lockstep())]


# --------------------------------------------------------------- the order findings follow
partial = ash.workgroup(ash.array(ash.f32, 8))


@ash.compute(workgroup_size=8)
async def reduce_missing_barrier(inp: ash.Storage, out: ash.Storage, *,
                                 local_invocation_index: u32):
    i = local_invocation_index
    partial[i] = inp[i]
    await ash.workgroup_barrier()
    s = 4
    while s > 0:
        if i < s:
            partial[i] += partial[i + s]  # the racy update
        s //= 2
    if i == 0:
        out[0] = partial[0]


def test_a_findings_order_dependent_parts_follow_the_lockstep_interleaving():
    # In lockstep the loop's rounds run one after the other for every lane: round s=4 has
    # lanes 0-3 write partial[0..3]; round s=2 has lanes 0 and 1 read partial[2] and
    # partial[3], which lanes 2 and 3 wrote in the same phase (the first two conflicts);
    # round s=1 has lane 0 read partial[1], which lane 1 wrote in round s=2 (the third).
    # The first conflict names the earlier access first: lane 2's store, then lane 0's load.
    r = ash.run(reduce_missing_barrier, inp=np.ones(8, np.float32),
                out=np.zeros(1, np.float32), schedule=ash.Lockstep(), sanitize="report")
    (race,) = r.findings
    assert (race.race, race.memory, race.index) == ("read-write", "partial", 2)
    assert (race.count, race.elements) == (3, [2, 3, 1])
    assert (race.first.kind, race.second.kind) == ("store", "load")
    assert race.first.invocation.endswith("local_invocation_index=2]")
    assert race.second.invocation.endswith("local_invocation_index=0]")
    racy = line(reduce_missing_barrier.fn, "# the racy update")
    assert race.first.line == race.second.line == racy
    inorder = ash.run(reduce_missing_barrier, inp=np.ones(8, np.float32),
                      out=np.zeros(1, np.float32), sanitize="report")
    assert verdicts(inorder) == verdicts(r)  # (the rest is the same under both)


# --------------------------------------------------------------------- the default mode
@ash.compute(workgroup_size=4)
async def everyone_writes(out: ash.Storage, *, local_invocation_index: u32):
    out[0] = local_invocation_index


def test_the_detector_is_on_by_default_and_warns_at_the_dispatch_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = ash.run(everyone_writes, out=np.zeros(1, np.uint32), schedule=ash.Lockstep())
    (w,) = [w for w in caught if w.category is ash.DataRaceWarning]
    assert w.filename == __file__ and "Write-write data race on storage memory out[0]" in \
        str(w.message)
    (race,) = r.findings
    assert race.count == 3 and not race.same_value
    off = ash.run(everyone_writes, out=np.zeros(1, np.uint32), schedule=ash.Lockstep(),
                  sanitize="off")
    assert off.findings == []


def test_sanitize_error_raises_with_the_trace_and_allow_races_quiets_a_binding():
    with pytest.raises(ash.DataRaceError) as info:
        ash.run(everyone_writes, out=np.zeros(1, np.uint32), schedule=ash.Lockstep(),
                sanitize="error")
    assert info.value.asyncshader_trace.strategy["name"] == "lockstep"
    r = ash.run(everyone_writes, out=np.zeros(1, np.uint32), schedule=ash.Lockstep(),
                sanitize="error", allow_races=["out"])
    assert r.findings == []


# ------------------------------------------------------------------- barriers and phases
slot = ash.workgroup(ash.array(u32, 4))


@ash.compute(workgroup_size=2)
async def race_after_barriers(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        slot[0] = 7  # ordered: a barrier follows
    await ash.workgroup_barrier()
    await ash.storage_barrier()
    out[i] = slot[0]  # racy read
    slot[0] = i + 1  # racy write
    out[2] = i  # racy storage write


@pytest.mark.parametrize("barriers", [0, 2 ** 40])
def test_phases_have_no_limit(monkeypatch, barriers):
    chunk = Recorder.chunk

    def start_late(self, first, count, n):
        chunk(self, first, count, n)
        for phases in self.phases.values():
            phases += barriers

    monkeypatch.setattr(Recorder, "chunk", start_late)
    r = ash.run(race_after_barriers, out=np.zeros(3, np.uint32), schedule=ash.Lockstep(),
                sanitize="report")
    fn = race_after_barriers.fn
    read, write = line(fn, "# racy read"), line(fn, "# racy write")
    store = line(fn, "# racy storage write")
    assert sorted((f.race, *sorted({f.first.line, f.second.line})) for f in r.findings) == \
        sorted([("read-write", read, write), ("write-write", write),
                ("write-write", store)])


@ash.compute(workgroup_size=4)
async def half_barrier(out: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index < 2:
        await ash.workgroup_barrier()  # reached by half the workgroup
    out[local_invocation_index] = 1


def test_a_barrier_reached_by_part_of_a_workgroup_is_the_coroutine_schedules_error():
    for schedule in (ash.InOrder(), ash.Lockstep()):
        with pytest.raises(ash.BarrierDivergenceError) as info:
            ash.run(half_barrier, 3, out=np.zeros(12, np.uint32), schedule=schedule)
        text = str(info.value)
        assert text.startswith("BarrierDivergenceError in workgroup_id=(0,0,0)")
        assert f":{line(half_barrier.fn, '# reached by half')} in workgroup_barrier()" in text
        assert "Fix: call barriers in uniform control flow" in text


# ---------------------------------------------------------------- WGSL against InOrder
POINTER_PARAMS = """
@group(0) @binding(0) var<storage, read_write> buf: array<u32>;
fn put(p: ptr<storage, array<u32>, read_write>, i: u32, v: u32) {
    (*p)[i] = v;
}
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    put(&buf, i / 2u, i);
    put(&buf, i + 6u, i);
}
"""

ATOMICS = """
@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    let r = atomicCompareExchangeWeak(&c[0], 0u, i + 1u);
    if (i == 3u) {
        out[0] = atomicLoad(&c[0]);
        atomicStore(&c[1], 5u);
    }
    out[1] = atomicLoad(&c[1]);
    out[2u + i] = u32(r.exchanged);
}
"""

VECTORS = """
var<workgroup> tile: array<vec4f, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    tile[i] = vec4f(f32(i));
    out[i] = tile[(i + 1u) % 4u];
    out[i + 3u] = tile[i + 2u];
}
"""

STRUCTS = """
struct P { pos: vec2f, vel: vec2f }
@group(0) @binding(0) var<storage, read_write> ps: array<P>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    ps[i].pos = ps[(i + 1u) % 4u].vel;
    ps[i].vel = vec2f(f32(i));
}
"""


BRANCHES = """
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> t: array<u32, 4>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i > 5u) {
        out[i + 4u] = 1u;
    }
    t[i] = i;
}
"""


TEXTURED = """
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    let texel = textureLoad(tex, vec2u(i, 0u), 0);
    out[i] = texel.x;
    out[0] = texel.y;
}
"""


def _texture():
    return ash.Texture([np.full((1, 4, 4), 128, np.uint8)])


def _particles(n):
    return ash.load_wgsl(STRUCTS)["P"].zeros(n)


@pytest.mark.parametrize("text, make", [
    (POINTER_PARAMS, lambda: dict(buf=np.zeros(8, np.uint32))),
    (ATOMICS, lambda: dict(c=np.zeros(2, np.uint32), out=np.zeros(8, np.uint32))),
    (VECTORS, lambda: dict(out=np.zeros((4, 4), np.float32))),
    (STRUCTS, lambda: dict(ps=_particles(4))),
    (BRANCHES, lambda: dict(out=np.zeros(8, np.uint32))),
    (TEXTURED, lambda: dict(tex=_texture(), out=np.zeros(8, np.float32))),
], ids=["pointer parameters", "atomics", "vectors", "struct members", "out of bounds",
        "a texture read"])
def test_wgsl_kernels_give_the_coroutine_detectors_findings(text, make):
    inorder, lockstep = both(ash.load_wgsl(text)["main"], 2, make)
    assert verdicts(inorder) == verdicts(lockstep) != set()


def test_the_findings_name_the_elements_as_the_coroutine_detector_does():
    inorder, lockstep = both(ash.load_wgsl(STRUCTS)["main"], 1, lambda: dict(ps=_particles(4)))
    # (which element a finding names first follows the order; the elements do not)
    assert {str(e) for f in lockstep.findings for e in f.elements} == \
        {str(e) for f in inorder.findings for e in f.elements} == \
        {f"({k}, '.vel.{c}')" for k in range(4) for c in "xy"}
    assert "storage memory ps[0].vel.x" in ash.render_findings(lockstep.findings)
    _, lockstep = both(ash.load_wgsl(VECTORS)["main"], 1,
                       lambda: dict(out=np.zeros((4, 4), np.float32)))
    assert {(f.memory, f.index, f.length) for f in lockstep.findings
            if isinstance(f, ash.OutOfBounds)} == {("tile", 4, 4), ("out", 4, 4)}


# ---------------------------------------------------------------- what is not recorded
@ash.compute(workgroup_size=4)
async def gather_rows(table: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    acc = ash.f32(0.0)
    for k in range(4):
        acc += table[k]  # every lane reads every row: never written, never racy
    out[local_invocation_index] = acc


def test_memory_no_line_writes_is_not_recorded():
    bindings = dict(table=np.ones(4, np.float32), out=np.zeros(4, np.float32))
    program, _ = program_of(gather_rows, bindings, watch=True)
    assert program.written == {"out"}
    r = ash.run(gather_rows, schedule=ash.Lockstep(), sanitize="report", **bindings)
    assert r.findings == [] and bindings["out"].tolist() == [4] * 4


# ------------------------------------------------------------------- the examples, both ways
EXAMPLES = [("boids.py", "update", "setup"), ("matmul.py", "matmul_tiled", "setup"),
            ("reduce.py", "block_sum", "setup"), ("speed_bins.py", "histogram", "setup"),
            ("racy_counter.py", "racy_increment", "setup"),
            ("racy_counter.py", "atomic_increment", "setup"),
            ("lost_update.py", "lost_update", "setup"),
            ("prefix_sum.py", "scan_blocks", "setup_scan_blocks"),
            ("stream_compaction.py", "compact", "setup")]


@pytest.mark.parametrize("example, kernel, setup", EXAMPLES,
                         ids=[f"{e}::{k}" for e, k, _ in EXAMPLES])
def test_the_examples_give_the_coroutine_detectors_findings(example, kernel, setup):
    # (matmul, reduce and prefix_sum read memory in `x if c else y`, and prefix_sum through a
    # name that holds one of two arrays in turn: to_wgsl writes a select(), which reads both
    # sides; Python reads one, and so does Lockstep's detector)
    module = load_example(example)
    found = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        given = getattr(module, setup)()
        groups = given.pop("workgroups", 1)
        r = ash.run(getattr(module, kernel), groups, schedule=schedule, sanitize="report",
                    overrides=given.pop("overrides", None), **given)
        found.append(verdicts(r))
    assert found[0] == found[1]
    assert bool(found[0]) == (kernel in ("racy_increment", "lost_update"))


# -------------------------------------------------------- a Python kernel's Python lines
def test_to_wgsl_marks_python_lines_only_for_lockstep():
    plain = to_wgsl(everyone_writes, out=np.zeros(1, np.uint32))
    assert "// @ash" not in plain
    marks = []
    token = SOURCE_LINES.set(marks)
    try:
        marked = to_wgsl(everyone_writes, out=np.zeros(1, np.uint32))
    finally:
        SOURCE_LINES.reset(token)
    (store,) = [t for t in marked.splitlines() if t.strip().startswith("out[0]")]
    k = int(store.rsplit("// @ash ", 1)[1])
    assert marks[k] == (__file__, line(everyone_writes.fn, "out[0] = local_invocation"))
    assert [t.split(" // @ash")[0] for t in marked.splitlines()] == plain.splitlines()


@ash.compute(workgroup_size=4)
async def guarded(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = inp[i + 2] if i < 2 else ash.f32(0)  # reads inp[2], inp[3] only


def test_a_conditional_expression_reads_one_side_as_in_python():
    # to_wgsl writes an if/else here (WGSL's select would evaluate both sides and read
    # inp[4] and inp[5], out of bounds, which the Python kernel does not)
    bindings = dict(inp=np.arange(4, dtype=np.float32), out=np.zeros(4, np.float32))
    assert "select(" not in to_wgsl(guarded, **bindings)
    r = ash.run(guarded, schedule=ash.Lockstep(), sanitize="report", **bindings)
    assert r.findings == [] and bindings["out"].tolist() == [2, 3, 0, 0]


@ash.compute(workgroup_size=4)
async def guarded_elif(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    if i > 10:
        out[i] = ash.f32(1)
    elif (inp[i + 2] if i < 2 else ash.f32(0)) > ash.f32(1):  # reads inp[2], inp[3] only
        out[i] = ash.f32(5)


def test_a_select_in_a_condition_is_recorded_for_the_side_each_lane_takes():
    # an elif's condition is evaluated in place, so to_wgsl keeps select(), which reads
    # both sides in WGSL; Lockstep's detector records each side for the lanes taking it only
    bindings = dict(inp=np.arange(4, dtype=np.float32), out=np.zeros(4, np.float32))
    assert "select(0.0f, inp[i + 2], i < 2)" in to_wgsl(guarded_elif, **bindings)
    r = ash.run(guarded_elif, schedule=ash.Lockstep(), sanitize="report", **bindings)
    assert r.findings == [] and bindings["out"].tolist() == [5, 5, 0, 0]
    inorder = dict(inp=np.arange(4, dtype=np.float32), out=np.zeros(4, np.float32))
    assert ash.run(guarded_elif, sanitize="report", **inorder).findings == []


# ------------------------------------------------------------- generated kernels, both ways
_INDICES = ["i", "(i + 1u) % 8u", "i / 2u", "0u", "7u - i", "(i * 3u) % 8u", "i + 2u", "gid"]


def _statement(r, nested=False):
    k = r.randrange(5 if nested else 7)
    a, b = r.choice(_INDICES), r.choice(_INDICES)
    if k == 4:
        return f"if (i < {r.randrange(1, 8)}u) {{ {_statement(r, True)} }}"
    return [f"t[{a}] = i + {r.randrange(3)}u;", f"out[{a}] = t[{b}];",
            f"out[{a}] = out[{b}] + 1u;", f"atomicAdd(&c[({a}) % 4u], 1u);", "",
            "workgroupBarrier();", "storageBarrier();"][k]


def generated(seed):
    """A kernel of 3 to 6 random statements: workgroup and storage memory written and read at
    indices that collide or not, out of bounds or not, in branches, between barriers."""
    r = random.Random(seed)
    body = "\n    ".join(_statement(r) for _ in range(r.randrange(3, 7)))
    return f"""
var<workgroup> t: array<u32, 8>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> c: array<atomic<u32>>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32, @builtin(global_invocation_id) g: vec3u) {{
    let gid = g.x;
    {body}
    atomicAdd(&c[3], 0u);
    out[15] = t[7];
}}
"""


@pytest.mark.parametrize("keep", [False, True], ids=["checked at the end", "kept"])
@pytest.mark.parametrize("seed", range(int(os.environ.get("LOCKSTEP_RACES_FUZZ", "40"))))
def test_generated_kernels_give_the_same_races_and_out_of_bounds_accesses(seed, keep,
                                                                          monkeypatch):
    if keep:  # storage memory checked every few accesses, keeping what can still conflict
        monkeypatch.setattr(lockstep_races, "KEEP", 3)
    kernel = ash.load_wgsl(generated(seed))["main"]
    found = [ash.run(kernel, 2, schedule=s, sanitize="report", max_live_workgroups=2,
                     out=np.zeros(16, np.uint32), c=np.zeros(4, np.uint32)).findings
             for s in (ash.InOrder(), ash.Lockstep())]
    races = [{(f.race, f.memory, f.address_space, tuple(sorted({f.first.line, f.second.line})))
              : f.same_workgroup for f in fs if isinstance(f, ash.DataRace)} for fs in found]
    oob = [{(f.memory, f.length, f.access.kind, f.access.line, f.count) for f in fs
            if isinstance(f, ash.OutOfBounds)} for fs in found]
    assert races[0].keys() == races[1].keys() and oob[0] == oob[1]
    # same_workgroup: False under Lockstep as soon as the pair races between workgroups;
    # the coroutine detector says so when the occurrence its order reports is one
    for pair, within in races[1].items():
        assert races[0][pair] or not within, pair
