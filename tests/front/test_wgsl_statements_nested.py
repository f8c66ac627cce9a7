"""More of ``ash.load_wgsl``'s statements that take more than one Python statement
(test_wgsl_statements.py has the first cases): ``break`` and ``continue`` in switch clauses
with loops and switches nested in them, a switch outside any loop, and compound assignments
and ``++`` whose indices call a function, on a value, on memory and through pointers. Values
derived by hand in the comments, and compared with lavapipe running the same text on the
same bytes."""

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


def test_breaks_and_continues_in_clauses_with_loops_and_switches_nested_in_them(gpu_device):
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
