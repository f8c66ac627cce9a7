"""``ash.load_wgsl``'s statements where WGSL's meaning needs more than Python's statement of
the same name: a ``break`` inside a ``switch`` clause, a ``continuing`` block reading the
loop body's names, ``_ =`` of a const-expression, and out-of-bounds accesses under the race
detector. Values derived by hand and compared with lavapipe on the same bytes."""

import numpy as np
from ports import wgsl_originals

import asyncshader as ash


def run_lavapipe(device, wgsl, workgroups, **bindings):
    return wgsl_originals.run(device, wgsl, "main", workgroups, **bindings)


SWITCH_BREAKS = """\
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main() {
    var total = 0;
    for (var i = 0; i < 9; i++) {
        switch i % 4 {
            case 0: { if (i > 3) { break; } total += 1; }
            case 1: { if (i == 5) { continue; } if (i == 9) { break; } total += 10; }
            case 2: {
                for (var k = 0; k < 3; k++) { if (k == 1) { continue; } total += 100; }
                if (i == 6) { continue; }
                if (i > 6) { break; }
            }
            default: {
                switch i { case 3: { if (total > 0) { break; } total += 5000; } default: {} }
                total += 7;
            }
        }
        total += 100000;
    }
    out[0] = total;
}
"""


def test_a_break_inside_a_switch_clause_leaves_the_switch_and_continue_the_loop(gpu_device):
    out = np.zeros(1, np.int32)
    ash.run(ash.load_wgsl(SWITCH_BREAKS)["main"], 1, out=out)
    # i: 0 +1, 1 +10, 2 +200, 3 +7 (the inner switch's break), 4 leaves the switch, 5 and 6
    # continue the loop (no +100000), 6 +200 first, 7 +7, 8 leaves the switch
    want = 1 + 10 + 200 + 7 + 200 + 7 + 100000 * 7
    assert out.tolist() == [want]
    gpu = run_lavapipe(gpu_device, SWITCH_BREAKS, 1, out=np.zeros(1, np.int32))
    assert gpu["out"].tolist() == [want]


def test_an_abstract_constant_no_i32_holds_is_python_s_number_and_a_phony_use_is_nothing():
    module = ash.load_wgsl("const a = 1 << 30u;\nconst b = a << 10u;\n"
                           "@compute @workgroup_size(1)\nfn main() {\n    _ = b;\n}\n")
    assert module["b"] == 2**40 and type(module["b"]) is int  # (AbstractInt: no i32 holds it)
    assert module["a"] == 2**30 and type(module["a"]) is np.int32
    ash.run(module["main"], 1)


CONTINUING_USES_THE_BODY = """\
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main() {
    var i = 0;
    var s = 0;
    loop {
        let sq = i * i;
        i++;
        continuing {
            s += sq;
            break if sq >= 16;
        }
    }
    out[0] = s;
    out[1] = i;
}
"""


def test_a_continuing_block_reads_the_names_its_loop_body_declared(gpu_device):
    out = np.zeros(2, np.int32)
    ash.run(ash.load_wgsl(CONTINUING_USES_THE_BODY)["main"], 1, out=out)
    assert out.tolist() == [0 + 1 + 4 + 9 + 16, 5]
    gpu = run_lavapipe(gpu_device, CONTINUING_USES_THE_BODY, 1, out=np.zeros(2, np.int32))
    assert gpu["out"].tolist() == out.tolist()


def test_an_out_of_bounds_access_with_the_detector_is_a_finding_at_the_wgsl_line():
    wgsl = """\
@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@compute @workgroup_size(1)
fn main() {
    var k = 5u;
    a[k] = 9u;
    a[0] = a[k + 1u] + b[k] + b[1];
}
"""
    module = ash.load_wgsl(wgsl)
    a = np.zeros(4, np.uint32)
    result = ash.run(module["main"], 1, sanitize="report", a=a,
                     b=np.arange(4, dtype=np.uint32))
    assert a.tolist() == [1, 0, 0, 0]  # the store dropped, the loads zero: 0 + 0 + b[1]
    found = sorted((f.memory, f.index, f.access.kind, f.access.line) for f in result.findings)
    assert found == [("a", 5, "store", 6), ("a", 6, "load", 7), ("b", 5, "load", 7)]


COMPOUND_INDICES = """\
struct S { a: array<vec4<i32>, 4> }
@group(0) @binding(0) var<storage, read_write> buffer: array<S>;
@group(0) @binding(1) var<storage, read_write> log: array<u32>;
var<private> n: u32;

fn note(v: u32) -> u32 {
    log[n] = v;
    n++;
    return v;
}

@compute @workgroup_size(1)
fn main() {
    buffer[note(1u)].a[note(2u)][note(3u)] += i32(note(4u));
    buffer[note(0u)].a[note(1u)].y++;
    var v = array<f32, 3>();
    v[note(2u)] -= 1.5;
    log[7] = u32(-v[2] * 2.0);
}
"""


def test_a_compound_assignment_evaluates_its_target_s_indices_once_and_first(gpu_device):
    module = ash.load_wgsl(COMPOUND_INDICES)
    buffer, log = np.zeros(2, module["S"].dtype), np.zeros(8, np.uint32)
    ash.run(module["main"], 1, buffer=buffer, log=log)
    # each note() once: the target's indices in order, then the value; v[2] = -1.5
    assert log.tolist() == [1, 2, 3, 4, 0, 1, 2, 3]
    assert buffer["a"][1, 2].tolist() == [0, 0, 0, 4]
    assert buffer["a"][0, 1].tolist() == [0, 1, 0, 0]
    assert int(np.abs(buffer["a"]).sum()) == 5
    gpu = run_lavapipe(gpu_device, COMPOUND_INDICES, 1, buffer=np.zeros(2, module["S"].dtype),
                       log=np.zeros(8, np.uint32))
    assert gpu["log"].tolist() == log.tolist()
    assert gpu["buffer"].tobytes() == buffer.tobytes()


def test_a_compound_assignment_through_a_pointer_calls_its_index_once():
    wgsl = """\
@group(0) @binding(0) var<storage, read_write> a: array<u32>;
fn k() -> u32 { a[3] += 1u; return 1u; }
@compute @workgroup_size(1)
fn main() {
    var v = vec2u();
    let p = &v;
    p[k()] += 5u;
    a[0] = v.y;
    a[1] = v.x;
}
"""
    a = np.zeros(4, np.uint32)
    ash.run(ash.load_wgsl(wgsl)["main"], 1, a=a)
    assert a.tolist() == [5, 0, 0, 1]  # k() ran once; the store went through p to v.y
