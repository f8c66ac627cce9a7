"""Kernels generated from WGSL source (asyncshader.wgsl.generated): a front-end's Python syntax
tree, positioned at the WGSL lines and compiled with the .wgsl file's name, runs as a
hand-written kernel runs, and every report names the WGSL file, line and text.

Each shader here is kept twice, as a front-end would see it: its WGSL text, and its Python
transcription in the form the front-end generates (operators and value stores already in
their rewritten form, every operation awaited), each Python line ending in ``#@N``: the WGSL
line it stands for. :func:`generate` moves every node to its WGSL line, as the front-end
will, and compiles the tree with :func:`~asyncshader.wgsl.generated.compile_generated`."""

import ast
import linecache
import os
import sysconfig
import traceback

import numpy as np
import pytest

import asyncshader as ash
from asyncshader.wgsl.generated import compile_generated


def generate(python: str, filename: str, wgsl: str) -> dict:
    """The namespace of ``python`` compiled as generated code, each node at its WGSL line."""
    tree = ast.parse(python)
    wgsl_line = {n: int(text.rsplit("#@", 1)[1])
                 for n, text in enumerate(python.splitlines(), 1) if "#@" in text}
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) is None:
            continue
        node.lineno = wgsl_line[node.lineno]
        node.end_lineno = max(node.lineno, wgsl_line.get(node.end_lineno, node.lineno))
        if node.end_lineno == node.lineno:
            node.end_col_offset = max(node.end_col_offset, node.col_offset)
    return compile_generated(tree, filename, wgsl, {"ash": ash})


def wgsl_text(wgsl: str, line: int) -> str:
    return wgsl.splitlines()[line - 1].strip()


REDUCE_WGSL = """\
var<workgroup> tile: array<f32, 8>;
@group(0) @binding(0) var<storage, read> inp: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) wid: vec3u) {
    tile[i] = inp[wid.x * 8u + i];
    workgroupBarrier();
    for (var s = 4u; s > 0u; s = s / 2u) {
        if (i < s) {
            tile[i] = tile[i] + tile[i + s];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        out[wid.x] = tile[0];
    }
}
"""

REDUCE_PY = """\
tile = ash.workgroup(ash.array(ash.f32, 8))  #@1
inp = ash.storage(ash.f32, group=0, binding=0, access="read")  #@2
out = ash.storage(ash.f32, group=0, binding=1)  #@3
async def main(*, local_invocation_index: ash.u32, workgroup_id: ash.vec3u):  #@6
    i = local_invocation_index  #@6
    wid = workgroup_id  #@6
    tile[i] = inp[wid.x * ash.u32(8) + i]  #@7
    await ash.workgroup_barrier()  #@8
    s = ash.u32(4)  #@9
    while s > ash.u32(0):  #@9
        if i < s:  #@10
            tile[i] = tile[i] + tile[i + s]  #@11
        await ash.workgroup_barrier()  #@13
        s = ash.wgsl.operators.div(s, ash.u32(2))  #@9
    if i == ash.u32(0):  #@15
        out[wid.x] = tile[ash.u32(0)]  #@16
"""

RACY_WGSL = """\
@group(0) @binding(0) var<storage, read_write> counter: array<u32>;

@compute @workgroup_size(2)
fn main() {
    let v = counter[0];
    counter[0] = v + 1u;
}
"""

RACY_PY = """\
counter = ash.storage(ash.u32, group=0, binding=0)  #@1
async def main():  #@4
    v = counter[0]  #@5
    counter[0] = v + ash.u32(1)  #@6
"""

DIVERGENT_WGSL = """\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    out[i + 2u] = i;
    if (i < 2u) {
        workgroupBarrier();
    }
}
"""

DIVERGENT_PY = """\
out = ash.storage(ash.u32, group=0, binding=0)  #@1
async def main(*, local_invocation_index: ash.u32):  #@4
    i = local_invocation_index  #@4
    out[i + ash.u32(2)] = i  #@5
    if i < ash.u32(2):  #@6
        await ash.workgroup_barrier()  #@7
"""


@pytest.fixture
def reduce_kernel():
    ns = generate(REDUCE_PY, "reduce.wgsl", REDUCE_WGSL)
    return ash.compute(workgroup_size=8)(ns["main"]), ns


def test_a_generated_reduction_sums_each_workgroup(reduce_kernel):
    kernel, _ = reduce_kernel
    inp = np.arange(24, dtype=np.float32)
    out = np.zeros(3, np.float32)
    ash.run(kernel, 3, inp=inp, out=out)
    assert out.tolist() == [28.0, 92.0, 156.0]  # 0+..+7, 8+..+15, 16+..+23


def test_its_workgroup_variable_and_bindings_are_found_in_the_generated_namespace(
        reduce_kernel):
    kernel, ns = reduce_kernel
    variables, _, _, module = kernel.scan()
    assert variables == [ns["tile"]]
    assert sorted(module) == ["inp", "out"]
    with pytest.raises(ash.BindingError, match="out"):
        ash.run(kernel, 1, inp=np.zeros(8, np.float32))


COUNT_WGSL = """\
var<workgroup> seen: array<u32, 1>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) wid: vec3u) {
    if (i == 0u) { seen[0] = seen[0] + 1u; }
    workgroupBarrier();
    if (i == 1u) { out[wid.x] = seen[0]; }
}
"""

COUNT_PY = """\
seen = ash.workgroup(ash.array(ash.u32, 1))  #@1
out = ash.storage(ash.u32, group=0, binding=0)  #@2
async def main(*, local_invocation_index: ash.u32, workgroup_id: ash.vec3u):  #@4
    i = local_invocation_index  #@4
    if i == 0:  #@5
        seen[0] = seen[0] + ash.u32(1)  #@5
    await ash.workgroup_barrier()  #@6
    if i == 1:  #@7
        out[workgroup_id.x] = seen[0]  #@7
"""


def test_its_workgroup_variable_starts_at_zero_in_every_workgroup():
    ns = generate(COUNT_PY, "count.wgsl", COUNT_WGSL)
    kernel = ash.compute(workgroup_size=2)(ns["main"])
    out = np.zeros(3, np.uint32)
    result = ash.run(kernel, 3, sanitize="report", out=out)
    assert out.tolist() == [1, 1, 1] and result.findings == []


def test_a_race_on_its_workgroup_variable_names_the_wgsl_lines():
    python = COUNT_PY.replace("    await ash.workgroup_barrier()  #@6\n", "")
    ns = generate(python, "count.wgsl", COUNT_WGSL)
    kernel = ash.compute(workgroup_size=2)(ns["main"])
    result = ash.run(kernel, 1, sanitize="report", out=np.zeros(1, np.uint32))
    (race,) = result.findings
    assert (race.memory, race.address_space) == ("seen", "workgroup")
    assert {race.first.where, race.second.where} == {"count.wgsl:5", "count.wgsl:7"}
    assert race.second.source == "if (i == 1u) { out[wid.x] = seen[0]; }"


def test_it_runs_as_generated_without_a_rewrite_and_awaits_directly(reduce_kernel):
    kernel, ns = reduce_kernel
    assert kernel.shader_fn is ns["main"]  # (generated in the rewritten form)
    assert kernel.awaited is not None and len(kernel.awaited) == 2  # two direct barriers
    assert kernel.identity["name"] == "reduce.main"


def test_every_schedule_and_its_replay_agree(reduce_kernel):
    kernel, _ = reduce_kernel
    inp = np.arange(16, dtype=np.float32)
    for seed in range(3):
        out = np.zeros(2, np.float32)
        first = ash.run(kernel, 2, schedule=ash.Random(seed), inp=inp, out=out)
        again = np.zeros(2, np.float32)
        replayed = ash.run(kernel, 2, schedule=ash.Replay(first.trace), inp=inp, out=again)
        assert out.tolist() == again.tolist() == [28.0, 92.0]
        assert replayed.trace.decisions == first.trace.decisions


def test_explored_schedules_all_sum_right(reduce_kernel):
    kernel, _ = reduce_kernel

    def setup():
        return {"workgroups": 2, "inp": np.arange(16, dtype=np.float32),
                "out": np.zeros(2, np.float32)}

    report = ash.explore(kernel, setup, lambda r: r["out"].tolist() == [28.0, 92.0],
                         runs=10, store=None, progress=False, workers=1)
    assert report.runs == 10 and not report.failures


def test_a_timeline_shows_the_wgsl_lines(reduce_kernel):
    kernel, _ = reduce_kernel
    tl = ash.Timeline()
    ash.run(kernel, 1, inp=np.ones(8, np.float32), out=np.zeros(1, np.float32),
            instruments=[tl])
    assert {lane.file for lane in tl.lanes.values()} == {"reduce.wgsl"}
    assert {m.line for m in tl.meetings} == {8, 13}  # the two workgroupBarrier() lines
    svg = tl.to_svg()
    assert "8: workgroupBarrier();" in svg and "13: workgroupBarrier();" in svg


def test_the_stepper_stands_at_wgsl_lines(reduce_kernel):
    kernel, _ = reduce_kernel
    s = ash.stepper(kernel, 1, inp=np.ones(8, np.float32), out=np.zeros(1, np.float32))
    s.pick(0)
    view = s.invocations[0]
    assert (view.file, view.line, view.source) == ("reduce.wgsl", 8, "workgroupBarrier();")
    s.close()


def test_a_race_report_names_the_wgsl_lines_and_shows_their_text():
    ns = generate(RACY_PY, "counter.wgsl", RACY_WGSL)
    racy = ash.compute(workgroup_size=2)(ns["main"])
    counter = np.zeros(1, np.uint32)
    result = ash.run(racy, 1, sanitize="report", counter=counter)
    assert counter.tolist() == [2]  # (in order: nothing lost in this schedule)
    race = next(f for f in result.findings if f.race == "write-write")
    assert race.first.where == "counter.wgsl:6" and race.second.where == "counter.wgsl:6"
    assert race.first.source == wgsl_text(RACY_WGSL, 6) == "counter[0] = v + 1u;"
    assert "at counter.wgsl:6: counter[0] = v + 1u;" in race.render()


def test_a_divergent_barrier_names_the_wgsl_line():
    ns = generate(DIVERGENT_PY, "divergent.wgsl", DIVERGENT_WGSL)
    kernel = ash.compute(workgroup_size=4)(ns["main"])
    with pytest.raises(ash.BarrierDivergenceError) as err:
        ash.run(kernel, 1, out=np.zeros(6, np.uint32))
    assert "divergent.wgsl:7" in str(err.value)
    assert "workgroupBarrier();" in str(err.value)


def test_an_out_of_bounds_store_without_the_detector_raises_at_its_wgsl_line():
    ns = generate(DIVERGENT_PY, "oob.wgsl", DIVERGENT_WGSL)
    kernel = ash.compute(workgroup_size=4)(ns["main"])
    with pytest.raises(ash.ShaderError) as err:
        ash.run(kernel, 1, sanitize="off", out=np.zeros(4, np.uint32))
    assert "oob.wgsl:5" in str(err.value)
    frames = traceback.extract_tb(err.value.__cause__.__traceback__)  # (the IndexError)
    shader = [f for f in frames if f.filename == "oob.wgsl"]
    assert shader and shader[-1].lineno == 5 and shader[-1].line == "out[i + 2u] = i;"


def test_a_forgotten_await_in_generated_code_is_an_error_at_its_wgsl_line():
    python = DIVERGENT_PY.replace("await ash.workgroup_barrier()", "ash.workgroup_barrier()")
    ns = generate(python, "forgot.wgsl", DIVERGENT_WGSL)
    with pytest.raises(TypeError, match=r"forgot\.wgsl:7: ash\.workgroup_barrier\(\) is called "
                                        "without `await`"):
        ash.compute(workgroup_size=4)(ns["main"])


def test_the_source_survives_a_cleared_line_cache(reduce_kernel):
    kernel, _ = reduce_kernel
    linecache.clearcache()
    tl = ash.Timeline()
    ash.run(kernel, 1, inp=np.ones(8, np.float32), out=np.zeros(1, np.float32),
            instruments=[tl])
    assert "8: workgroupBarrier();" in tl.to_svg()


def test_every_node_must_carry_a_position():
    tree = ast.Module([ast.Expr(ast.Constant(1))], type_ignores=[])
    with pytest.raises(ValueError, match="no line number; every node must carry its position "
                                         "in x.wgsl"):
        compile_generated(tree, "x.wgsl", "", {})


FRAGMENT_WGSL = """\
@fragment
fn main(@builtin(position) position: vec4f) -> @location(0) vec2f {
    let f = position.x * position.y;
    return vec2f(dpdxFine(f), dpdyFine(f));
}
"""

FRAGMENT_PY = """\
async def main(*, position: ash.vec4f):  #@2
    f = position.x * position.y  #@3
    return ash.vec2f(await ash.dpdx_fine(f), await ash.dpdy_fine(f))  #@4
"""


def test_a_generated_fragment_shader_takes_derivatives_at_its_wgsl_line():
    ns = generate(FRAGMENT_PY, "product.wgsl", FRAGMENT_WGSL)
    shader = ash.fragment(ns["main"])
    tl = ash.Timeline()
    r = ash.run_fragments(shader, 4, 2, instruments=[tl])
    ys, xs = np.mgrid[0:2, 0:4].astype(np.float32) + np.float32(0.5)
    np.testing.assert_array_equal(r.output[..., 0], ys)  # d(xy)/dx = y at the pixel centres
    np.testing.assert_array_equal(r.output[..., 1], xs)
    assert {(m.op, m.line) for m in tl.meetings} == {("dpdx_fine", 4), ("dpdy_fine", 4)}


SPIN_WGSL = """\
@group(0) @binding(0) var<storage, read_write> flag: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> plain: array<u32>;

@compute @workgroup_size(1)
fn on_atomic() {
    loop {
        if (atomicLoad(&flag[0]) == 1u) { break; }
    }
}

@compute @workgroup_size(1)
fn on_plain() {
    while (plain[0] == 0u) {}
}
"""

SPIN_PY = """\
flag = ash.storage(ash.u32, group=0, binding=0)  #@1
plain = ash.storage(ash.u32, group=0, binding=1)  #@2
async def on_atomic():  #@5
    while True:  #@6
        if await ash.atomic_load(ash.ptr(flag, 0)) == ash.u32(1):  #@7
            break  #@7
async def on_plain():  #@12
    while plain[0] == ash.u32(0):  #@13
        pass  #@13
"""


def test_a_spin_loop_names_its_wgsl_line_when_it_is_stopped():
    ns = generate(SPIN_PY, "spin.wgsl", SPIN_WGSL)
    on_atomic = ash.compute(workgroup_size=1)(ns["on_atomic"])
    with pytest.raises(ash.StepLimitError) as err:
        ash.run(on_atomic, 1, max_points_per_invocation=20, flag=np.zeros(1, np.uint32))
    assert "spin.wgsl:7: if (atomicLoad(&flag[0]) == 1u) { break; }" in str(err.value)
    on_plain = ash.compute(workgroup_size=1)(ns["on_plain"])
    with pytest.raises(ash.ShaderTimeoutError) as err:
        ash.run(on_plain, 1, watchdog=0.2, plain=np.zeros(1, np.uint32))
    assert "spin.wgsl:13" in str(err.value) and "while (plain[0] == 0u) {}" in str(err.value)


def test_a_wgsl_file_inside_a_package_is_still_the_shaders_source():
    """Positions skip library code and asyncshader's own, but a registered .wgsl source is
    the shader's wherever it lies (a .wgsl file bundled in asyncshader or in an installed
    package)."""
    for folder in (os.path.dirname(ash.__file__), sysconfig.get_paths()["purelib"]):
        filename = os.path.join(folder, "some_shaders", "oob.wgsl")
        ns = generate(DIVERGENT_PY, filename, DIVERGENT_WGSL)
        kernel = ash.compute(workgroup_size=4)(ns["main"])
        with pytest.raises(ash.ShaderError) as err:
            ash.run(kernel, 1, sanitize="off", out=np.zeros(4, np.uint32))
        assert "some_shaders/oob.wgsl:5: out[i + 2u] = i;" in str(err.value)  # (shortened)


SKIP_WGSL = """\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(8)
fn main(@builtin(subgroup_invocation_id) i: u32) {
    var seen = 0u;
    for (var j = 0u; j < 3u; j++) {
        if (i == j) { continue; }
        seen = seen * 10u + subgroupAdd(1u);
    }
    out[i] = seen;
}
"""

SKIP_PY = """\
out = ash.storage(ash.u32, group=0, binding=0)  #@1
async def main(*, subgroup_invocation_id: ash.u32):  #@3
    i = subgroup_invocation_id  #@3
    seen = ash.u32(0)  #@4
    for j in range(3):  #@5
        if i == j:  #@6
            continue  #@6
        seen = seen * ash.u32(10) + await ash.subgroup_add(ash.u32(1))  #@7
    out[i] = seen  #@9
"""


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Reverse(), ash.Random(0),
                                      ash.PCT(4, depth=2)], ids=repr)
def test_generated_subgroup_operations_reconverge_by_loop_iteration(schedule):
    """Lane j skips the subgroupAdd in iteration j and reaches it in iteration j + 1 while the
    others stand in iteration j: maximal reconvergence keeps the two apart in generated code
    as in Python (its loops get their iteration counters)."""
    ns = generate(SKIP_PY, "skip.wgsl", SKIP_WGSL)
    kernel = ash.compute(workgroup_size=8)(ns["main"])
    out = np.zeros(8, np.uint32)
    ash.run(kernel, 1, out=out, subgroup_size=8, schedule=schedule)
    assert out.tolist() == [77, 77, 77, 777, 777, 777, 777, 777]
    assert kernel.shader_fn.__ash_counts__ is True


HELPER_WGSL = """\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn skip_sum(i: u32) -> u32 {
    var seen = 0u;
    for (var j = 0u; j < 3u; j++) {
        if (i == j) { continue; }
        seen = seen * 10u + subgroupAdd(1u);
    }
    return seen;
}
@compute @workgroup_size(8)
fn main(@builtin(subgroup_invocation_id) i: u32) {
    out[i] = skip_sum(i);
}
"""

HELPER_PY = """\
out = ash.storage(ash.u32, group=0, binding=0)  #@1
async def skip_sum(i):  #@2
    seen = ash.u32(0)  #@3
    for j in range(3):  #@4
        if i == j:  #@5
            continue  #@5
        seen = seen * ash.u32(10) + await ash.subgroup_add(ash.u32(1))  #@6
    return seen  #@8
async def main(*, subgroup_invocation_id: ash.u32):  #@11
    out[subgroup_invocation_id] = await skip_sum(subgroup_invocation_id)  #@12
"""


def test_a_generated_helper_reconverges_and_is_checked_too():
    ns = generate(HELPER_PY, "helper.wgsl", HELPER_WGSL)
    kernel = ash.compute(workgroup_size=8)(ns["main"])
    for schedule in (ash.InOrder(), ash.Reverse(), ash.Random(3)):
        out = np.zeros(8, np.uint32)
        ash.run(kernel, 1, out=out, subgroup_size=8, schedule=schedule)
        assert out.tolist() == [77, 77, 77, 777, 777, 777, 777, 777]
    forgot = HELPER_PY.replace("+ await ash.subgroup_add(ash.u32(1))  #@6",
                               " #@6\n        ash.subgroup_add(ash.u32(1))  #@6")
    ns = generate(forgot, "helper.wgsl", HELPER_WGSL)
    with pytest.raises(TypeError, match=r"helper\.wgsl:6: ash\.subgroup_add\(\) is called"):
        ash.compute(workgroup_size=8)(ns["main"])
