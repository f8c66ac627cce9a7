"""Pointers in ``ash.load_wgsl``: ``&r``, ``*p``, the pointer sugar (``p.x``, ``p[i]``),
``let p = &...;`` and ``ptr<AS, T>`` parameters in the function, workgroup, storage and uniform
address spaces, run with WGSL's meaning (asyncshader.front.wgsl.codegen_pointers): a pointer
names the memory it was made from, so a store through it is that memory's store (seen by the
race detector at the WGSL line), and atomics, ``arrayLength`` and ``workgroupUniformLoad``
take pointers however they were made. Each shader's outputs are derived by hand and compared
with lavapipe running the same text on the same bytes."""

import numpy as np
import pytest
from helpers import ROOT
from ports import wgsl_originals

import asyncshader as ash

FUNCTION_POINTERS = """\
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

fn inc(p: ptr<function, i32>) {
    *p += 1;
}

fn bump(p: ptr<function, vec4f>, by: f32) {
    p.y += by;             // the pointer sugar: (*p).y
    (*p).z = 7.0;
    p[3] = p[0] * 2.0;
}

fn swap(a: ptr<function, i32>, b: ptr<function, i32>) {
    let t = *a;
    *a = *b;
    *b = t;
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    var x = i32(i) * 10;
    inc(&x);
    inc(&x);
    let q = &x;
    *q = *q + 100;
    x -= 1;
    var v = vec4f(1.0, 2.0, 3.0, 4.0);
    bump(&v, 0.5);
    var a = 1;
    var b = 2;
    for (var k = 0u; k < i; k++) {
        swap(&a, &b);
    }
    var steps = 0;
    for (var n = 0; n < 3; inc(&n)) {
        inc(&steps);
    }
    out[i * 6u] = x;
    out[i * 6u + 1u] = i32(v.y * 10.0);
    out[i * 6u + 2u] = i32(v.z * 10.0);
    out[i * 6u + 3u] = i32(v.w * 10.0);
    out[i * 6u + 4u] = a * 10 + b;
    out[i * 6u + 5u] = steps;
}
"""

WORKGROUP_POINTERS = """\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

var<workgroup> tile: array<f32, 4>;
var<workgroup> grid: array<array<f32, 4>, 4>;
var<workgroup> corner: vec4f;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    tile[i] = f32(i);
    for (var j = 0u; j < 4u; j++) {
        grid[i][j] = f32(i * 4u + j);
    }
    if (i == 0u) {
        corner = vec4f(1.0, 2.0, 3.0, 4.0);
    }
    workgroupBarrier();
    if (i == 0u) {
        let a = &tile[0];
        let b = &tile[3];
        let t = *a;
        *a = *b;
        *b = t;
        let c = &corner;
        c.z = c.x + (*c).w;
        let g = &grid[1][2];
        *g += 100.0;
    }
    workgroupBarrier();
    let row = &grid[i];
    out[i] = tile[i];
    out[4u + i] = row[0] + row[1] + (*row)[2] + (*row)[3];
    out[8u + i] = corner[i];
}
"""

STORAGE_POINTERS = """\
struct Particle {
    pos: vec2f,
    mass: f32,
    hits: u32,
}

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> weights: array<f32>;
@group(0) @binding(2) var<uniform> params: vec4f;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    let m = &particles[i].mass;
    *m = *m * 2.0;
    let p = &particles[i];
    p.pos += vec2f(f32(i), 0.5);
    (*p).hits += 1u;
    let u = &params;
    p.pos.y = p.pos.y * u.x * (*u).w;
    let w = &weights;
    out[i] = *m + w[i] * f32(arrayLength(w)) + f32(arrayLength(&weights));
}
"""

#: pointer parameters in the workgroup, storage and uniform address spaces (WGSL's
#: unrestricted_pointer_parameters; naga in wgpu 0.32 refuses them: no lavapipe here)
PARAMETERS = """\
struct Particle {
    pos: vec2f,
    mass: f32,
    hits: u32,
}

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> weights: array<f32>;
@group(0) @binding(2) var<uniform> params: vec4f;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

var<workgroup> tile: array<f32, 4>;
var<workgroup> grid: array<array<f32, 4>, 2>;

fn swap(a: ptr<workgroup, f32>, b: ptr<workgroup, f32>) {
    let t = *a;
    *a = *b;
    *b = t;
}

fn row_sum(r: ptr<workgroup, array<f32, 4>>) -> f32 {
    return r[0] + r[1] + (*r)[2] + (*r)[3];
}

fn kick(p: ptr<storage, Particle, read_write>, dv: vec2f) {
    p.pos += dv;
    (*p).hits += 1u;
}

fn weight(w: ptr<storage, array<f32>, read>, k: u32) -> f32 {
    return w[k] * f32(arrayLength(w));
}

fn scale(u: ptr<uniform, vec4f>) -> f32 {
    return u.x * (*u).w;
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    tile[i] = f32(i);
    grid[i / 2u][i] = f32(i + 1u);
    grid[i / 2u][(i + 2u) % 4u] = 10.0;
    workgroupBarrier();
    if (i == 0u) {
        swap(&tile[0], &tile[3]);
        swap(&grid[0][0], &grid[1][3]);
    }
    workgroupBarrier();
    kick(&particles[i], vec2f(f32(i), 0.5));
    out[i] = tile[i] + row_sum(&grid[i % 2u]) * 100.0;
    out[4u + i] = weight(&weights, i) + scale(&params);
}
"""


def lavapipe(device, wgsl, workgroups, **bindings):
    return wgsl_originals.run(device, wgsl, "main", workgroups, **bindings)


def test_function_pointers_change_the_callers_variables(gpu_device):
    module = ash.load_wgsl(FUNCTION_POINTERS)
    out = np.zeros(24, np.int32)
    ash.run(module["main"], 1, out=out)
    want = []
    for i in range(4):
        x = i * 10 + 2 + 100 - 1                  # two inc(&x), *q + 100, x -= 1
        a, b = (1, 2) if i % 2 == 0 else (2, 1)   # swapped i times
        v = [1.0, 2.5, 7.0, 2.0]                  # y += 0.5, z = 7, w = x * 2
        want += [x, int(v[1] * 10), int(v[2] * 10), int(v[3] * 10), a * 10 + b, 3]
    assert out.tolist() == want
    gpu = lavapipe(gpu_device, FUNCTION_POINTERS, 1, out=np.zeros(24, np.int32))
    assert gpu["out"].tolist() == want


def test_workgroup_pointers_swap_elements_and_read_rows(gpu_device):
    module = ash.load_wgsl(WORKGROUP_POINTERS)
    out = np.zeros(12, np.float32)
    result = ash.run(module["main"], 1, sanitize="report", out=out)
    grid = np.arange(16, dtype=np.float32).reshape(4, 4)
    grid[1, 2] += 100.0
    want = [3, 1, 2, 0, *grid.sum(axis=1), 1, 2, 5, 4]
    assert out.tolist() == want and not result.findings
    gpu = lavapipe(gpu_device, WORKGROUP_POINTERS, 1, out=np.zeros(12, np.float32))
    assert gpu["out"].tolist() == want


def particles_of(module):
    particles = np.zeros(4, module["Particle"].dtype)
    particles["pos"] = [[1, 2], [3, 4], [5, 6], [7, 8]]
    particles["mass"] = [1, 2, 3, 4]
    particles["hits"] = [0, 5, 0, 9]
    return particles


#: 8 elements: a whole number of 16 bytes, so that lavapipe's buffer has the same length
WEIGHTS = np.array([0.5, 0.25, 2.0, 1.0, 3.0, 0.0, 0.0, 1.5], np.float32)


def test_storage_and_uniform_pointers_load_and_store_the_buffers(gpu_device):
    module = ash.load_wgsl(STORAGE_POINTERS)
    particles = particles_of(module)
    given = particles.copy()
    out = np.zeros(4, np.float32)
    ash.run(module["main"], 1, particles=particles, weights=WEIGHTS,
            params=ash.vec4f(2.0, 0.0, 0.0, 3.0), out=out)
    i = np.arange(4)
    assert particles["mass"].tolist() == (given["mass"] * 2).tolist()
    assert particles["hits"].tolist() == (given["hits"] + 1).tolist()
    assert particles["pos"][:, 0].tolist() == (given["pos"][:, 0] + i).tolist()
    assert particles["pos"][:, 1].tolist() == ((given["pos"][:, 1] + 0.5) * 6).tolist()
    assert out.tolist() == (given["mass"] * 2 + WEIGHTS[:4] * 8 + 8).tolist()
    gpu = lavapipe(gpu_device, STORAGE_POINTERS, 1, particles=given, weights=WEIGHTS,
                   params=np.array([2, 0, 0, 3], np.float32).tobytes(),
                   out=np.zeros(4, np.float32))
    assert gpu["particles"].tobytes() == particles.tobytes()  # (16 bytes, no padding)
    assert gpu["out"].tolist() == out.tolist()


def test_pointer_parameters_in_the_workgroup_storage_and_uniform_spaces():
    module = ash.load_wgsl(PARAMETERS)
    particles = particles_of(module)
    given = particles.copy()
    out = np.zeros(8, np.float32)
    result = ash.run(module["main"], 1, sanitize="report", particles=particles,
                     weights=WEIGHTS, params=ash.vec4f(2.0, 0.0, 0.0, 3.0), out=out)
    # grid rows [1, 2, 10, 10] and [10, 10, 3, 4]; then grid[0][0] <-> grid[1][3]
    rows = [4 + 2 + 10 + 10, 10 + 10 + 3 + 1]
    tile = [3, 1, 2, 0]
    assert out[:4].tolist() == [tile[i] + rows[i % 2] * 100 for i in range(4)]
    assert out[4:].tolist() == (WEIGHTS[:4] * 8 + 2 * 3).tolist()
    assert particles["hits"].tolist() == (given["hits"] + 1).tolist()
    assert particles["pos"].tolist() == (given["pos"] + [[i, 0.5] for i in range(4)]).tolist()
    assert not result.findings


PASSED_ON = """\
struct S {
    a: u32,
    b: vec2u,
}

struct U {
    k: u32,
    m: vec4u,
}

@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> u: U;
var<workgroup> ws: S;
var<workgroup> wsa: array<S, 2>;

fn triple(p: ptr<function, u32>) {
    *p = *p * 3u;
}

fn twice_tripled(p: ptr<function, u32>) {
    triple(p);
    triple(&*p);
}

fn fill(p: ptr<workgroup, S>) {
    p.b.y = 7u;
    (*p).a = 2u;
}

fn w_plus_y(p: ptr<uniform, vec4u>) -> u32 {
    return p.w + (*p).y;
}

@compute @workgroup_size(1)
fn main() {
    var x = 1u;
    twice_tripled(&x);
    _ = &x;
    fill(&ws);
    fill(&wsa[1]);
    let um = &u.m;
    let pws = &ws;
    let b = &ws.b;
    out[0] = x;
    out[1] = pws.a * 100u + pws.b.y * 10u + pws.b.x;
    out[2] = wsa[1].a * 100u + wsa[1].b.y * 10u + wsa[0].a;
    out[3] = w_plus_y(um) + w_plus_y(&u.m) + u.k;
    out[4] = b.y + (*b).x;
    var v = vec4u(1u, 2u, 3u, 4u);
    let e = &v;
    for (var i = 0u; i < 4u; i++) {
        e[i] = e[i] * 2u;
    }
    out[5] = v.x + v.y * 10u + v.z * 100u + v.w * 1000u;
    out[6] = e.wzyx.x;
}
"""


def test_pointers_passed_on_to_struct_members_uniforms_and_vector_components():
    module = ash.load_wgsl(PASSED_ON)
    out = np.zeros(7, np.uint32)
    uniform = module["U"](k=5, m=ash.vec4u(1, 2, 3, 4))
    result = ash.run(module["main"], 1, sanitize="report", out=out, u=uniform)
    assert out.tolist() == [
        9,                      # 1 * 3 * 3
        2 * 100 + 7 * 10 + 0,   # ws after fill(&ws)
        2 * 100 + 7 * 10 + 0,   # wsa[1] after fill(&wsa[1]); wsa[0] untouched
        (4 + 2) * 2 + 5,        # w + y of u.m, twice, and u.k
        7 + 0,                  # ws.b through a pointer to it
        2 + 40 + 600 + 8000,    # each component doubled through e[i]
        8,                      # e.wzyx.x: the swizzle of the value e points at
    ]
    assert not result.findings


CONTINUING = """\
@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(1)
fn main() {
    var i = 0u;
    loop {
        if (i >= arrayLength(&data)) { break; }
        let p = &data[i];
        if ((i % 2u) == 0u) { continue; }
        *p = 0u;
        continuing {
            *p = *p * 2u + 1u;  // (the body's pointer, in the continuing block)
            i = i + 1u;
        }
    }
}
"""


def test_a_pointer_declared_in_a_loop_body_is_used_by_its_continuing_block(gpu_device):
    module = ash.load_wgsl(CONTINUING)
    data = np.arange(10, 18, dtype=np.uint32)
    ash.run(module["main"], 1, data=data)
    want = [v * 2 + 1 if i % 2 == 0 else 1 for i, v in enumerate(range(10, 18))]
    assert data.tolist() == want
    gpu = lavapipe(gpu_device, CONTINUING, 1, data=np.arange(10, 18, dtype=np.uint32))
    assert gpu["data"].tolist() == want


MATRIX_COLUMNS = """\
@group(0) @binding(0) var<uniform> a: array<mat2x2f, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> wm: mat2x2f;

@compute @workgroup_size(1)
fn main() {
    let pa = &a;
    let col = &(*pa)[1][1];
    let m = *(&(*pa)[0]);
    out[0] = col.y + (*col).x * 10.0 + m[1].x * 100.0;
    wm = mat2x2f(1.0, 2.0, 3.0, 4.0);
    let wc = &wm[1];
    wc.x = 9.0;
    (*wc)[1] = 8.0;
    out[1] = wm[1].x + wm[1].y * 10.0 + (*wc).x * 100.0;
    out[2] = col.yx.x + wc.yx.y * 10.0;
}
"""


def test_pointers_to_matrices_and_their_columns_in_memory(gpu_device):
    module = ash.load_wgsl(MATRIX_COLUMNS)
    a = np.arange(8, dtype=np.float32)  # a[0]: columns (0, 1), (2, 3); a[1]: (4, 5), (6, 7)
    out = np.zeros(3, np.float32)
    result = ash.run(module["main"], 1, sanitize="report", a=a, out=out)
    assert out.tolist() == [7 + 6 * 10 + 2 * 100, 9 + 8 * 10 + 9 * 100, 7 + 9 * 10]
    assert not result.findings
    gpu = lavapipe(gpu_device, MATRIX_COLUMNS, 1, a=a.tobytes(), out=np.zeros(3, np.float32))
    assert gpu["out"].tolist() == out.tolist()


VALUES = """\
struct S {
    a: u32,
    b: array<u32, 3>,
}

struct Buf {
    n: u32,
    data: array<u32>,
}

@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> buf: Buf;

var<private> pv: vec2u;
var<private> ps: S;
var<private> pc: u32 = 4u;

fn inc(p: ptr<private, u32>) {
    *p += 1u;
}

fn set_a(p: ptr<function, S>, v: u32) {
    p.a = v;
    p.b[1] = v * 2u;
}

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    var arr = array<u32, 4>(1u, 2u, 3u, 4u);
    let e = &arr[2];
    *e = 30u;
    let pa = &arr;
    pa[3] = 40u;
    var s: S;
    set_a(&s, 5u);
    inc(&pc);
    let pvp = &pv;
    pvp.x += 1u;
    let q = &ps;
    q.a += 10u;
    let copy = *q;
    q.a = 0u;
    inc(&ps.b[2]);
    inc(&ps.a);
    let data = &buf.data;
    out[i * 4u] = arr[0] + arr[1] * 10u + arr[2] * 100u + arr[3] * 1000u;
    out[i * 4u + 1u] = s.a * 100u + s.b[1];
    out[i * 4u + 2u] = pv.x + ps.b[2] * 10u + copy.a * 100u + pc * 1000u + ps.a;
    out[i * 4u + 3u] = arrayLength(&buf.data) + arrayLength(data) * 100u;
    data[i] = i + 50u;
}
"""


def test_pointers_to_function_and_private_composites_and_a_runtime_sized_member():
    # (no lavapipe: naga 29's SPIR-V writer panics on this module, "Expression [21] is not
    # cached", which aborts the process)
    module = ash.load_wgsl(VALUES)
    out = np.zeros(8, np.uint32)
    buf = np.zeros(1 + 7, np.uint32)  # n, then 7 elements
    result = ash.run(module["main"], 1, sanitize="report", out=out, buf=buf)
    each = [1 + 2 * 10 + 30 * 100 + 40 * 1000,   # arr through e and pa
            5 * 100 + 10,                         # s.a, s.b[1] through set_a(&s, 5u)
            1 + 1 * 10 + 10 * 100 + 5 * 1000 + 1,  # private pv.x, ps.b[2], copy.a, pc, ps.a
            7 + 7 * 100]                          # arrayLength(&buf.data), through a let
    assert out.tolist() == each * 2 and buf.tolist() == [0, 50, 51, 0, 0, 0, 0, 0]
    assert not result.findings


ATOMICS = """\
struct Hist {
    total: atomic<u32>,
    bins: array<atomic<u32>, 4>,
}

@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> total: atomic<u32>;

var<workgroup> local: Hist;
var<workgroup> largest: atomic<u32>;
var<workgroup> chosen: u32;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32, @builtin(global_invocation_id) gid: vec3u) {
    if (i == 0u) {
        atomicStore(&local.total, 0u);   // (a GPU need not zero workgroup memory)
        atomicStore(&largest, 0u);
        chosen = 7u;
    }
    if (i < 4u) {
        atomicStore(&local.bins[i], 0u);
    }
    workgroupBarrier();
    let d = data[gid.x];
    let bin = &local.bins[d % 4u];
    atomicAdd(bin, 1u);
    let t = &local.total;
    atomicAdd(t, d);
    let big = &largest;
    atomicMax(big, d);
    let c = workgroupUniformLoad(&chosen);
    if (i < 4u) {
        let count = &counts[i];
        atomicAdd(count, atomicLoad(&local.bins[i]));
    }
    if (i == 0u) {
        let all = &total;
        atomicAdd(all, atomicLoad(t) + atomicLoad(big) * 1000u + c * 100000u);
    }
}
"""

#: the same through pointer parameters (naga refuses pointer parameters in the workgroup
#: and storage address spaces: no lavapipe here)
ATOMIC_PARAMETERS = """\
struct Hist {
    total: atomic<u32>,
    bins: array<atomic<u32>, 4>,
}

@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> total: atomic<u32>;

var<workgroup> local: Hist;
var<workgroup> chosen: u32;

fn add(p: ptr<storage, atomic<u32>, read_write>, n: u32) {
    atomicAdd(p, n);
}

fn count(h: ptr<workgroup, Hist>, d: u32) {
    atomicAdd(&h.bins[d % 4u], 1u);
    atomicAdd(&(*h).total, d);
}

fn uniform_value(p: ptr<workgroup, u32>) -> u32 {
    return workgroupUniformLoad(p);
}

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32, @builtin(global_invocation_id) gid: vec3u) {
    if (i == 0u) {
        chosen = 7u;
    }
    workgroupBarrier();
    count(&local, data[gid.x]);
    let c = uniform_value(&chosen);
    if (i < 4u) {
        add(&counts[i], atomicLoad(&local.bins[i]));
    }
    if (i == 0u) {
        add(&total, atomicLoad(&local.total) + c * 100000u);
    }
}
"""


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Reverse(), ash.Random(5)], ids=repr)
def test_atomics_and_workgroup_uniform_load_through_pointers(schedule, gpu_device):
    module = ash.load_wgsl(ATOMICS)
    data = (np.arange(32, dtype=np.uint32) * 7 + 3) % 23
    counts, total = np.zeros(4, np.uint32), np.zeros(1, np.uint32)
    result = ash.run(module["main"], 2, schedule=schedule, sanitize="report", data=data,
                     counts=counts, total=total)
    assert counts.tolist() == np.bincount(data % 4, minlength=4).tolist()
    halves = data.reshape(2, 16)
    assert total.tolist() == [int(data.sum() + halves.max(axis=1).sum() * 1000 + 2 * 700000)]
    assert not result.findings
    gpu = lavapipe(gpu_device, ATOMICS, 2, data=data, counts=np.zeros(4, np.uint32),
                   total=np.zeros(1, np.uint32))
    assert gpu["counts"].tolist() == counts.tolist() and gpu["total"].tolist() == total.tolist()


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Reverse(), ash.Random(5)], ids=repr)
def test_atomics_and_workgroup_uniform_load_through_pointer_parameters(schedule):
    module = ash.load_wgsl(ATOMIC_PARAMETERS)
    data = (np.arange(32, dtype=np.uint32) * 7 + 3) % 23
    counts, total = np.zeros(4, np.uint32), np.zeros(1, np.uint32)
    result = ash.run(module["main"], 2, schedule=schedule, sanitize="report", data=data,
                     counts=counts, total=total)
    assert counts.tolist() == np.bincount(data % 4, minlength=4).tolist()
    assert total.tolist() == [int(data.sum() + 2 * 700000)]
    assert not result.findings


RACES = """\
@group(0) @binding(0) var<storage, read_write> cells: array<u32>;

fn put(p: ptr<storage, u32, read_write>, v: u32) {
    *p = v;
}

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    let p = &cells[0];
    *p = i;
    put(&cells[1], i);
    cells[2] = i;
    if (i == 0u) {
        let q = &cells[3];
        cells[4] = *q;
    } else {
        cells[3] = 9u;
    }
}
"""


def test_a_race_through_a_pointer_is_reported_at_the_wgsl_line_as_a_direct_one_is():
    module = ash.load_wgsl(RACES)
    result = ash.run(module["main"], 1, sanitize="report", cells=np.zeros(5, np.uint32))
    races = {(f.race, f.memory, f.index): f for f in result.findings}
    name = module.name
    through_let = races["write-write", "cells", 0]
    through_parameter = races["write-write", "cells", 1]
    direct = races["write-write", "cells", 2]
    assert (through_let.first.where, through_let.first.source) == (f"{name}:10", "*p = i;")
    assert (through_parameter.first.where, through_parameter.first.source) == \
        (f"{name}:4", "*p = v;")
    assert (direct.first.where, direct.first.source) == (f"{name}:12", "cells[2] = i;")
    assert through_let.second.where == f"{name}:10"
    load = races["read-write", "cells", 3]
    assert {(a.kind, a.where) for a in (load.first, load.second)} == \
        {("load", f"{name}:15"), ("store", f"{name}:17")}
    assert len(result.findings) == 4


OUT_OF_BOUNDS = """\
@group(0) @binding(0) var<storage, read_write> cells: array<u32>;
var<workgroup> tile: array<u32, 2>;

@compute @workgroup_size(1)
fn main() {
    var k = 5u;
    let far = &cells[k + 2u];
    *far = 5u;
    let t = &tile[k];
    *t = 6u;
    var v = vec2u(1u, 2u);
    let pv = &v;
    pv[k] = 3u;
    cells[0] = *far + *t + pv[k] + v.x * 10u + v.y * 100u;
    cells[k] = tile[k + 1u];
}
"""


def test_out_of_bounds_through_a_pointer_follows_robust_access_and_is_reported():
    module = ash.load_wgsl(OUT_OF_BOUNDS)
    cells = np.zeros(2, np.uint32)
    result = ash.run(module["main"], 1, sanitize="report", cells=cells)
    assert cells.tolist() == [212, 0]  # pv[k]: the nearest component, v.y (naga clamps)
    name = module.name
    found = {(f.memory, f.access.kind, f.access.where) for f in result.findings}
    assert found == {("cells", "store", f"{name}:8"), ("cells", "load", f"{name}:14"),
                     ("tile", "store", f"{name}:10"), ("tile", "load", f"{name}:14"),
                     ("cells", "store", f"{name}:15"), ("tile", "load", f"{name}:15")}
    off = np.zeros(2, np.uint32)
    ash.run(module["main"], 1, sanitize="off", cells=off)
    assert off.tolist() == [212, 0]


@pytest.mark.parametrize("wgsl, where, construct", [
    ("struct S { a: u32 }\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
     "var<workgroup> s: S;\n@compute @workgroup_size(1)\nfn main() {\n"
     "    out[0] = workgroupUniformLoad(&s.a);\n}\n", ":6:35:",
     "workgroupUniformLoad of a struct member"),
], ids=["uniform-load-of-a-member"])
def test_what_remains_is_refused_at_its_place(wgsl, where, construct):
    with pytest.raises(ash.ShaderCreationError) as err:
        ash.load_wgsl(wgsl)
    message = str(err.value)
    assert where in message.splitlines()[0]
    assert f"not supported yet by load_wgsl: {construct}" in message


TINT = ROOT / "tests" / "data" / "tint"
DAWN_POINTER_TESTS = sorted([*TINT.glob("ptr_ref/**/*.wgsl"), *TINT.glob("ptr_sugar/*.wgsl"),
                             TINT / "access" / "ptr.wgsl"])


@pytest.mark.parametrize("path", DAWN_POINTER_TESTS, ids=lambda p: str(p.relative_to(TINT)))
def test_dawns_pointer_programs_load_and_run(path):
    module = ash.load_wgsl(path)
    assert module.entry_points
    for name in module.entry_points:
        resources = module.reflection.entry_points[name].resources
        bindings = {r.name: np.zeros(r.min_size + 4 * (r.stride or 0), np.uint8)
                    for r in resources}
        result = ash.run(module[name], 1, sanitize="report", **bindings)
        assert not result.findings
        if path.name == "ptr.wgsl":  # (by hand: every part is zero but v2.a = 2)
            assert bindings["s"].view(np.int32).tolist() == [2]


def test_the_dawn_sample_holds_its_pointer_programs():
    assert len(DAWN_POINTER_TESTS) == 20


LOST_UPDATE = """\
@group(0) @binding(0) var<storage, read_write> counter: array<u32>;
var<workgroup> ticks: atomic<u32>;

fn bump(c: ptr<storage, u32, read_write>, t: ptr<workgroup, atomic<u32>>) {
    let v = *c;
    atomicAdd(t, 1u);  // (an operation where the schedule may switch invocations)
    *c = v + 1u;
}

@compute @workgroup_size(2)
fn main() {
    bump(&counter[0], &ticks);
}
"""


def test_explore_finds_an_update_lost_through_pointers_and_replays_it():
    module = ash.load_wgsl(LOST_UPDATE)
    report = ash.explore(module["main"],
                         lambda: {"counter": np.zeros(1, np.uint32), "workgroups": 1},
                         lambda r: r["counter"].tolist() == [2], runs=20, store=None,
                         progress=False, workers=1)
    assert report.failures
    counter = np.zeros(1, np.uint32)
    result = ash.run(module["main"], 1, schedule=ash.Replay(report.failures[0].trace),
                     sanitize="report", counter=counter)
    assert counter.tolist() == [1]  # (one update lost)
    race = next(f for f in result.findings if f.race == "write-write")
    assert race.first.where == f"{module.name}:7" and race.first.source == "*c = v + 1u;"
