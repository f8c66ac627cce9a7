"""Statements of loaded WGSL that take more than one Python statement
(asyncshader.front.wgsl.codegen_statements): a ``break`` anywhere in a switch clause leaves
the switch (a ``continue`` there the enclosing loop), and a compound assignment or ``++``
whose index calls a function calls it once. Values derived by hand in the comments, and
compared with lavapipe running the same text on the same bytes."""

from pathlib import Path

import numpy as np
from ports import wgsl_originals

import asyncshader as ash

SWITCH_BREAKS = """\
@group(0) @binding(0) var<storage, read_write> o: array<i32>;

@compute @workgroup_size(1)
fn main() {
    for (var i = 0; i < 6; i++) {
        switch (i) {
            case 0, 1: { if (i == 1) { break; } o[i] = 10 + i; }
            case 2: { o[i] = 20; continue; }
            case 3: {
                loop { break; }
                switch (i) { case 3: { if (i == 3) { break; } o[3] = -1; } default: {} }
                o[i] = 30;
            }
            default: { if (i == 5) { continue; } o[i] = 40; break; }
        }
        o[6] += 1;
    }
}
"""


def test_a_break_inside_a_switch_clause_leaves_the_switch_and_continue_the_loop(gpu_device):
    o = np.zeros(7, np.int32)
    ash.run(ash.load_wgsl(SWITCH_BREAKS)["main"], 1, o=o)
    # i=0: o[0]=10; i=1: break before the store; i=2: o[2]=20 and continue (no o[6] += 1);
    # i=3: the loop's and the inner switch's breaks are theirs, o[3]=30; i=4: o[4]=40;
    # i=5: continue. o[6] counts the iterations reaching the end: 0, 1, 3, 4.
    assert o.tolist() == [10, 0, 20, 30, 40, 0, 4]
    gpu = wgsl_originals.run(gpu_device, SWITCH_BREAKS, "main", 1, o=np.zeros(7, np.int32))
    assert gpu["o"].tolist() == o.tolist()


COMPOUND_CALL_INDEX = """\
@group(0) @binding(0) var<storage, read_write> o: array<i32>;
var<private> calls: i32 = 0;

fn pick() -> i32 { calls += 1; return calls; }

@compute @workgroup_size(1)
fn main() {
    var a = array<i32, 4>(1, 2, 3, 4);
    a[pick()] += 100;
    o[pick()] += 1000;
    a[pick()]++;
    o[0] = a[0];
    o[1] = a[1];
    o[3] = a[2];
    o[4] = a[3];
    o[5] = calls;
}
"""


def test_a_compound_assignment_whose_index_calls_a_function_calls_it_once(gpu_device):
    o = np.full(6, 7, np.int32)
    ash.run(ash.load_wgsl(COMPOUND_CALL_INDEX)["main"], 1, o=o)
    # pick() returns 1, 2, 3: a[1] += 100, o[2] += 1000, a[3]++; three calls in all
    assert o.tolist() == [1, 102, 1007, 3, 5, 3]
    gpu = wgsl_originals.run(gpu_device, COMPOUND_CALL_INDEX, "main", 1,
                             o=np.full(6, 7, np.int32))
    assert gpu["o"].tolist() == o.tolist()


THROUGH_POINTERS = """\
@group(0) @binding(0) var<storage, read_write> a: array<u32>;
var<private> n: u32 = 0u;

fn k() -> u32 { n += 1u; return n; }

@compute @workgroup_size(1)
fn main() {
    var v = vec2u(5u, 6u);
    let p = &v;
    p[k()] += 10u;
    let q = &a;
    (*q)[k()] += 100u;
    a[0] = v.y * 1000u + n;
}
"""


def test_a_compound_assignment_through_a_pointer_calls_its_index_once(gpu_device):
    a = np.zeros(3, np.uint32)
    ash.run(ash.load_wgsl(THROUGH_POINTERS)["main"], 1, a=a)
    # k() gives 1 then 2: v.y = 6 + 10, a[2] += 100; n == 2
    assert a.tolist() == [16002, 0, 100]
    gpu = wgsl_originals.run(gpu_device, THROUGH_POINTERS, "main", 1, a=np.zeros(3, np.uint32))
    assert gpu["a"].tolist() == a.tolist()


ARRAY_OF_MATRICES = """\
@group(0) @binding(0) var<uniform> a: array<mat2x2f, 2>;
@group(0) @binding(1) var<storage, read_write> o: array<f32>;
var<workgroup> w: array<mat2x2f, 2>;

@compute @workgroup_size(1)
fn main() {
    let l = a;
    o[0] = l[1][1].y;
    o[1] = l[1][0].x;
    let m = l[0];
    o[2] = m[0][1];
    w = a;
    let k = w;
    o[3] = (k[1] * vec2f(1.0, 0.0)).y;
}
"""


def test_an_array_of_matrices_loaded_whole_holds_matrices(gpu_device):
    a = np.arange(8, dtype=np.float32)  # a[m] column c row r at m*4 + c*2 + r
    o = np.zeros(4, np.float32)
    ash.run(ash.load_wgsl(ARRAY_OF_MATRICES)["main"], 1, a=a, o=o)
    assert o.tolist() == [7.0, 4.0, 1.0, 5.0]  # k[1] * (1, 0) is k[1]'s column 0: (4, 5)
    gpu = wgsl_originals.run(gpu_device, ARRAY_OF_MATRICES, "main", 1, a=a,
                             o=np.zeros(4, np.float32))
    assert gpu["o"].tolist() == o.tolist()


def test_dawns_array_of_f16_matrices_through_pointers_runs():
    path = (Path(__file__).parents[1] / "data" / "tint" / "buffer" / "uniform" / "std140" /
            "array" / "mat4x4_f16" / "dynamic_index_via_ptr.wgsl")
    module = ash.load_wgsl(path.read_text(encoding="utf-8"))
    a = np.arange(64, dtype=np.float16)  # a[m][c][r] at m*16 + c*4 + r
    s = np.zeros(1, np.float16)
    ash.run(module["f"], 1, a=a, s=s)
    # i() gives 1 then 2: a[1][2].x + a[0][0].x + a[1][0].x + a[1][2].x = 24 + 0 + 16 + 24
    assert s.tolist() == [64.0]


SWITCH_OUTSIDE_A_LOOP = """\
@group(0) @binding(0) var<storage, read_write> o: array<i32>;

@compute @workgroup_size(3)
fn main(@builtin(local_invocation_index) i: u32) {
    switch (i) {
        case 0u: { if (o[5] == 0) { o[0] = 1; break; } o[0] = 2; }
        default: { o[i] = 3; }
    }
    o[i] += 10;
}
"""


def test_a_break_in_a_switch_outside_any_loop_leaves_the_switch(gpu_device):
    o = np.zeros(6, np.int32)
    ash.run(ash.load_wgsl(SWITCH_OUTSIDE_A_LOOP)["main"], 1, o=o)
    assert o.tolist() == [11, 13, 13, 0, 0, 0]  # o[0] = 1, the break skips o[0] = 2
    gpu = wgsl_originals.run(gpu_device, SWITCH_OUTSIDE_A_LOOP, "main", 1,
                             o=np.zeros(6, np.int32))
    assert gpu["o"].tolist() == o.tolist()
