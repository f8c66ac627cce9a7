"""``ash.load_wgsl`` runs WGSL's composite values with WGSL's meaning (front/wgsl/
codegen_values.py): struct and array values in ``let``/``var``, parameters and return values
are copies; a struct read from memory is loaded at the ``let``; runtime-sized arrays inside
structs (webgpu-samples' boids); ``@align``/``@size`` layouts; ``alias``; matrices; constant
composites indexed at run time; private variables; ``bitcast``; ``frexp``/``modf`` results.
Each shader's outputs are derived by hand and compared with lavapipe running the same text on
the same bytes (tests/ports/wgsl_originals.py)."""

import numpy as np
from ports import port_boids, wgsl_originals

import asyncshader as ash


def run_lavapipe(device, wgsl, workgroups, **bindings):
    return wgsl_originals.run(device, wgsl, "main", workgroups, **bindings)


STRUCT_VALUES = """\
struct Item {
    pos: vec2f,
    hits: array<u32, 3>,
    w: f32,
}
@group(0) @binding(0) var<storage, read_write> items: array<Item>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

fn bump(it: Item, k: u32) -> Item {
    var c = it;
    c.hits[k] += 10u;
    c.pos.y = c.pos.y * 2.0;
    return c;
}

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    let before = items[i];
    var copy = items[i];
    copy.w = 100.0;
    copy.pos.x += 1.0;
    items[i].w = 7.0;
    let b = bump(copy, i);
    items[i + 2u] = b;
    out[i * 4u] = before.w;
    out[i * 4u + 1u] = copy.w;
    out[i * 4u + 2u] = f32(b.hits[i]);
    out[i * 4u + 3u] = items[i].pos.x;
}
"""


def items_of(dtype):
    items = np.zeros(4, dtype)
    items["pos"] = [[1, 2], [3, 4], [0, 0], [0, 0]]
    items["hits"] = [[1, 2, 3], [4, 5, 6], [0, 0, 0], [0, 0, 0]]
    items["w"] = [0.5, 0.25, 0, 0]
    return items


def test_struct_values_are_copies_and_a_let_loads_the_struct_where_it_stands(gpu_device):
    module = ash.load_wgsl(STRUCT_VALUES)
    items, out = items_of(module["Item"].dtype), np.zeros(8, np.float32)
    result = ash.run(module["main"], 1, items=items, out=out)
    assert not result.findings
    # invocation i: `before` is the struct as it was (w 0.5 / 0.25), although items[i].w is
    # stored 7 afterwards; `copy.w = 100` and `copy.pos.x += 1` did not reach memory; bump's
    # parameter is a copy too, returned with hits[i] + 10 and pos.y doubled
    assert items["w"].tolist() == [7.0, 7.0, 100.0, 100.0]
    assert items["pos"].tolist() == [[1, 2], [3, 4], [2, 4], [4, 8]]
    assert items["hits"].tolist() == [[1, 2, 3], [4, 5, 6], [11, 2, 3], [4, 15, 6]]
    assert out.tolist() == [0.5, 100.0, 11.0, 1.0, 0.25, 100.0, 15.0, 3.0]
    gpu = run_lavapipe(gpu_device, STRUCT_VALUES, 1, items=items_of(module["Item"].dtype),
                       out=np.zeros(8, np.float32))
    assert gpu["items"].tobytes() == items.tobytes() and gpu["out"].tolist() == out.tolist()


def test_webgpu_samples_boids_runs_as_the_python_port_and_lavapipe_do(gpu_device):
    wgsl = wgsl_originals.source(port_boids.ORIGINAL)
    module = ash.load_wgsl(wgsl)
    bindings = port_boids.setup()
    start = module["Particles"].zeros(length=port_boids.N)  # (the module's own struct)
    for member in ("pos", "vel"):
        start["particles"][member] = bindings["particles_a"]["particles"][member]
    words = np.frombuffer(port_boids.original_bindings(bindings)["params"], np.float32)
    out = module["Particles"].zeros(length=port_boids.N)
    result = ash.run(module["main"], port_boids.WORKGROUPS,
                     params=module["SimParams"](*words), particlesA=start.copy(),
                     particlesB=out)
    assert not result.findings
    ash.run(port_boids.main, port_boids.WORKGROUPS, **bindings)
    want = bindings["particles_b"]
    for member in ("pos", "vel"):  # the same operations in the same order: the same bits
        assert out["particles"][member].tobytes() == want["particles"][member].tobytes()
    assert np.abs(out["particles"]["vel"]).sum() > 1.0  # (every particle moved)
    gpu = run_lavapipe(gpu_device, wgsl, port_boids.WORKGROUPS, params=words.tobytes(),
                       particlesA=start, particlesB=np.zeros_like(want))
    # (distance, normalize, length: lavapipe is 2 ulp off, as the port's test measured)
    for member in ("pos", "vel"):
        np.testing.assert_allclose(out["particles"][member],
                                   gpu["particlesB"]["particles"][member], rtol=1e-6,
                                   atol=1e-8)


LAYOUT_AND_CONSTANTS = """\
alias Vec = vec2f;
struct Padded {
    a: f32,
    @align(16) b: vec3f,
    @size(12) c: u32,
    d: f32,
}
const TABLE = array<u32, 4>(5u, 7u, 11u, 13u);
const ORIGIN = Padded(1.0, vec3f(2.0), 3u, 4.0);
@group(0) @binding(0) var<storage, read_write> ps: array<Padded>;
@group(0) @binding(1) var<storage, read_write> fl: array<f32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    var p = ORIGIN;
    p.c = TABLE[i] * 100u + TABLE[3u - i];
    ps[i] = p;
    ps[i].b.y = f32(i);
    var m = mat2x2f(1.0, 2.0, 3.0, 4.0);
    m[1] = vec2f(f32(i), 1.0);
    m[0][1] = 9.0;
    let v: Vec = m * vec2f(1.0, 2.0);
    fl[i * 2u] = v.x;
    fl[i * 2u + 1u] = v.y;
}
"""


def test_align_and_size_alias_matrices_and_constant_composites_at_run_time(gpu_device):
    module = ash.load_wgsl(LAYOUT_AND_CONSTANTS)
    padded = module["Padded"]
    # a at 0; b aligned to 16 (12 bytes); c at 28 with @size(12); d at 40; size: 48 (align 16)
    assert padded.offsets == {"a": 0, "b": 16, "c": 28, "d": 40} and padded.size == 48
    # module-scope composite constants are reachable by name, as values of their types
    assert module["TABLE"] == [5, 7, 11, 13]
    assert module["ORIGIN"] == padded(a=1.0, b=ash.vec3f(2.0), c=3, d=4.0)
    ps, fl = np.zeros(4, padded.dtype), np.zeros(8, np.float32)
    ash.run(module["main"], 1, ps=ps, fl=fl)
    table = [5, 7, 11, 13]
    assert ps["c"].tolist() == [table[i] * 100 + table[3 - i] for i in range(4)]
    assert ps["a"].tolist() == [1.0] * 4 and ps["d"].tolist() == [4.0] * 4
    assert ps["b"].tolist() == [[2.0, float(i), 2.0] for i in range(4)]
    # m's columns (1, 9) and (i, 1): m * (1, 2) = (1 + 2i, 11)
    assert fl.tolist() == [x for i in range(4) for x in (1.0 + 2 * i, 11.0)]
    gpu = run_lavapipe(gpu_device, LAYOUT_AND_CONSTANTS, 1, ps=np.zeros(4, padded.dtype),
                       fl=np.zeros(8, np.float32))
    for member in "abcd":  # (lavapipe leaves other bytes in the padding)
        assert gpu["ps"][member].tolist() == ps[member].tolist()
    assert gpu["fl"].tolist() == fl.tolist()


PRIVATES_AND_BUILTINS = """\
var<private> calls: u32 = 2u;
var<private> trail: array<u32, 2>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> fl: array<f32>;

fn count() -> u32 {
    calls += 1u;
    trail[calls % 2u] = calls;
    return calls;
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    let n = count() + count();
    out[i] = n * 100u + trail[0] * 10u + trail[1];
    out[i + 4u] = bitcast<u32>(f32(i) + 0.5);
    let fr = frexp(f32(i) * 3.0 + 1.0);
    let mf = modf(-2.75 + f32(i));
    fl[i * 3u] = fr.fract;
    fl[i * 3u + 1u] = f32(fr.exp);
    fl[i * 3u + 2u] = mf.fract + 10.0 * mf.whole;
}
"""


def test_private_variables_belong_to_each_invocation_and_bitcast_frexp_modf(gpu_device):
    module = ash.load_wgsl(PRIVATES_AND_BUILTINS)
    out, fl = np.zeros(8, np.uint32), np.zeros(12, np.float32)
    result = ash.run(module["main"], 1, schedule=ash.Random(2), out=out, fl=fl)
    assert not result.findings
    # each invocation's calls starts at 2: count() gives 3 (trail[1] = 3), then 4 (trail[0])
    assert out[:4].tolist() == [7 * 100 + 4 * 10 + 3] * 4
    assert out[4:].tolist() == [np.float32(i + 0.5).view(np.uint32) for i in range(4)]
    frexp = {1.0: (0.5, 1), 4.0: (0.5, 3), 7.0: (0.875, 3), 10.0: (0.625, 4)}
    modf = {-2.75: (-0.75, -2.0), -1.75: (-0.75, -1.0), -0.75: (-0.75, -0.0),
            0.25: (0.25, 0.0)}
    want = []
    for i in range(4):
        fract, exp = frexp[i * 3.0 + 1.0]
        m_fract, m_whole = modf[i - 2.75]
        want += [fract, float(exp), m_fract + 10.0 * m_whole]
    assert fl.tolist() == want
    gpu = run_lavapipe(gpu_device, PRIVATES_AND_BUILTINS, 1, out=np.zeros(8, np.uint32),
                       fl=np.zeros(12, np.float32))
    assert gpu["out"].tolist() == out.tolist() and gpu["fl"].tolist() == want


LOCAL_ARRAYS = """\
@group(0) @binding(0) var<storage, read_write> out: array<i32>;
var<workgroup> shared_row: array<i32, 4>;

fn total(a: array<i32, 4>) -> i32 {
    return a[0] + a[1] + a[2] + a[3];
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    shared_row[i] = i32(i) + 1;
    workgroupBarrier();
    var a = shared_row;
    let kept = a;
    for (var k = 0u; k < 4u; k++) {
        a[k] *= 10;
    }
    a[i] = -a[i];
    out[i] = total(a) * 100 + total(kept) + a[i + 10u];
}
"""


def test_arrays_are_values_and_an_index_past_the_end_reads_the_last_element(
        gpu_device):
    out = np.zeros(4, np.int32)
    ash.run(ash.load_wgsl(LOCAL_ARRAYS)["main"], 1, out=out)
    # a = (10, 20, 30, 40) with element i negated; kept: (1, 2, 3, 4); a[i + 10] is past
    # the end: the last element (WGSL allows any element; naga clamps the index, and so
    # does load_wgsl, so that both agree)
    want = [(100 - 2 * 10 * (i + 1)) * 100 + 10 + (-40 if i == 3 else 40) for i in range(4)]
    assert out.tolist() == want
    gpu = run_lavapipe(gpu_device, LOCAL_ARRAYS, 1, out=np.zeros(4, np.int32))
    assert gpu["out"].tolist() == want


VECTOR_COMPARISONS = """\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main() {
    let a = vec3f(1.0, 2.0, 3.0);
    let b = vec3f(1.0, 5.0, 0.0);
    let lt = a < b;
    let n = !lt;
    out[0] = u32(all(a == b)) + 10u * u32(any(a != b)) + 100u * u32(lt.y) + 1000u * u32((a >= b).z)
        + 10000u * u32(n.x);
    let m = vec2i(1, 2) == vec2(1, 3);
    out[1] = u32(m.x) + 2u * u32(m.y);
}
"""


def test_vector_comparisons_and_not_are_component_wise(gpu_device):
    out = np.zeros(2, np.uint32)
    ash.run(ash.load_wgsl(VECTOR_COMPARISONS)["main"], 1, out=out)
    # a == b: (t, f, f): not all; a != b: some; a < b: (f, t, f); a >= b: (t, f, t); !lt.x
    assert out.tolist() == [0 + 10 + 100 + 1000 + 10000, 1]
    gpu = run_lavapipe(gpu_device, VECTOR_COMPARISONS, 1, out=np.zeros(2, np.uint32))
    assert gpu["out"].tolist() == out.tolist()


WORKGROUP_STRUCTS = """\
struct S { a: u32, v: vec2f }
var<workgroup> ws: array<S, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    ws[i].a = i;
    ws[i].v = vec2f(f32(i), 1.0);
    ws[i].v.y = 3.0;
    workgroupBarrier();
    let s = ws[3u - i];
    var t = ws;
    t[0].a = 100u;
    out[i] = f32(s.a) + s.v.x * 10.0 + s.v.y * 100.0 + f32(t[0].a) * 1000.0
        + f32(ws[0].a) * 10000.0;
}
"""


def test_a_workgroup_array_of_structs_is_copied_whole_by_a_var(gpu_device):
    out = np.zeros(4, np.float32)
    result = ash.run(ash.load_wgsl(WORKGROUP_STRUCTS)["main"], 1, out=out)
    assert not result.findings
    # s is element 3 - i: a = v.x = 3 - i, v.y = 3; t[0].a = 100 in the copy, ws[0].a still 0
    assert out.tolist() == [(3 - i) * 11 + 300 + 100000 for i in range(4)]
    gpu = run_lavapipe(gpu_device, WORKGROUP_STRUCTS, 1, out=np.zeros(4, np.float32))
    assert gpu["out"].tolist() == out.tolist()


def test_a_let_of_a_struct_in_memory_reads_every_member_at_its_line():
    wgsl = """\
struct Item { x: f32, w: f32 }
@group(0) @binding(0) var<storage, read_write> items: array<Item>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i == 0u) { items[1].w = 2.0; }
    if (i == 1u) { let s = items[1]; items[0].x = s.x; }
}
"""
    module = ash.load_wgsl(wgsl)
    result = ash.run(module["main"], 1, sanitize="report",
                     items=np.zeros(2, module["Item"].dtype))
    race = next(f for f in result.findings if f.race)
    lines = {race.first.where, race.second.where}
    assert lines == {f"{module.name}:5", f"{module.name}:6"}  # (w, read by the let)


WHOLE_STORES = """\
struct S { a: u32, v: vec2f }
var<workgroup> s: S;
var<workgroup> tile: array<f32, 4>;
var<workgroup> w: mat2x2f;
@group(0) @binding(0) var<storage, read_write> one: S;
@group(0) @binding(1) var<uniform> u: mat2x2f;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i == 0u) {
        s = S(3u, vec2f(1.0, 2.0));
        s.v.y = 5.0;
        tile = array(1.0, 2.0, 3.0, 4.0);
        w = u;
        w[1] = u[0];
        w[0][1] = 9.0;
        one = s;
        one.a += 1u;
    }
    workgroupBarrier();
    let c = s;
    let t = tile;
    let m = w;
    workgroupBarrier();
    if (i == 1u) { s.a = 77u; }
    workgroupBarrier();
    out[i * 7u] = f32(c.a);
    out[i * 7u + 1u] = c.v.y;
    out[i * 7u + 2u] = t[2];
    out[i * 7u + 3u] = m[0][1];
    out[i * 7u + 4u] = m[1][1];
    out[i * 7u + 5u] = f32(s.a);
    out[i * 7u + 6u] = (m * vec2f(1.0, 0.0)).y;
}
"""


def test_whole_structs_arrays_and_matrices_in_workgroup_and_storage_memory(gpu_device):
    module = ash.load_wgsl(WHOLE_STORES)
    out, one = np.zeros(14, np.float32), np.zeros((), module["S"].dtype)
    result = ash.run(module["main"], 1, one=one, u=ash.mat2x2f(1, 2, 3, 4), out=out)
    assert not result.findings
    # w: u's columns (1, 2), (3, 4); then column 1 = u[0], then w[0][1] = 9: (1, 9), (1, 2).
    # c, t and m were loaded before invocation 1 stored s.a = 77
    assert out.tolist() == [3.0, 5.0, 3.0, 9.0, 2.0, 77.0, 9.0] * 2
    assert one["a"] == 4 and one["v"].tolist() == [1.0, 5.0]
    gpu = run_lavapipe(gpu_device, WHOLE_STORES, 1, one=np.zeros((), module["S"].dtype),
                       u=np.array([1, 2, 3, 4], np.float32).tobytes(),
                       out=np.zeros(14, np.float32))
    assert gpu["out"].tolist() == out.tolist()
    assert gpu["one"]["a"] == 4 and gpu["one"]["v"].tolist() == [1.0, 5.0]


ONE_MATRIX = """\
@group(0) @binding(0) var<storage, read_write> m: mat3x2f;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main() {
    let before = m;
    m = mat3x2f(vec2f(1.0, 2.0), vec2f(3.0, 4.0), vec2f(5.0, 6.0));
    m[2][0] = 7.0;
    m[1] = m[0] * 2.0;
    out[0] = before[1][1];
    out[1] = m[2].x;
    out[2] = (m * vec3f(1.0, 1.0, 1.0)).y;
}
"""


def test_a_storage_matrix_is_loaded_whole_and_stored_by_column_and_component(gpu_device):
    m, out = np.full((1, 3, 2), 0.5, np.float32), np.zeros(3, np.float32)
    ash.run(ash.load_wgsl(ONE_MATRIX)["main"], 1, m=m, out=out)
    # columns (1, 2), (3, 4), (5, 6); then m[2][0] = 7; then column 1 = column 0 * 2
    assert m.tolist() == [[[1.0, 2.0], [2.0, 4.0], [7.0, 6.0]]]
    assert out.tolist() == [0.5, 7.0, 2.0 + 4.0 + 6.0]  # before: the matrix as it was
    gpu = run_lavapipe(gpu_device, ONE_MATRIX, 1, m=np.full((1, 3, 2), 0.5, np.float32),
                       out=np.zeros(3, np.float32))
    assert gpu["m"].tolist() == m.tolist() and gpu["out"].tolist() == out.tolist()


CONST_MATRICES = """\
const G = mat2x3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
const T = array(mat2x2f(), mat2x2(vec2(7.0, 8.0), vec2(9.0, 10.0)));
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) q: u32) {
    out[q * 3u] = G[q].z;
    out[q * 3u + 1u] = T[q][1].x;
    let h = mat2x2f(G[0].xy, G[1].yz);
    out[q * 3u + 2u] = h[q][1];
}
"""


def test_constant_matrices_are_indexed_at_run_time(gpu_device):
    out = np.zeros(6, np.float32)
    ash.run(ash.load_wgsl(CONST_MATRICES)["main"], 1, out=out)
    # G's columns (1, 2, 3), (4, 5, 6); T[1]'s (7, 8), (9, 10); h's (1, 2), (5, 6)
    assert out.tolist() == [3.0, 0.0, 2.0, 6.0, 9.0, 6.0]
    gpu = run_lavapipe(gpu_device, CONST_MATRICES, 1, out=np.zeros(6, np.float32))
    assert gpu["out"].tolist() == out.tolist()


APPEND = """\
struct Found { count: atomic<u32>, items: array<u32> }
@group(0) @binding(0) var<storage, read_write> found: Found;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i % 3u != 1u) {
        let slot = atomicAdd(&(found.count), 1u);
        if (slot < arrayLength(&found.items)) {
            found.items[slot] = i * 10u;
        }
    }
}
"""


def test_an_atomic_member_and_the_runtime_sized_array_of_one_struct(gpu_device):
    module = ash.load_wgsl(APPEND)
    for schedule in (ash.InOrder(), ash.Random(5)):
        found = module["Found"].zeros(length=3)
        result = ash.run(module["main"], 1, schedule=schedule, found=found)
        assert not result.findings
        # five invocations append (i = 0, 2, 3, 5, 6); three slots: two values are dropped
        assert found["count"] == 5
        assert set(found["items"].tolist()) < {0, 20, 30, 50, 60}
        assert len(set(found["items"].tolist())) == 3
    gpu = run_lavapipe(gpu_device, APPEND, 1, found=module["Found"].zeros(length=3))
    assert gpu["found"]["count"] == 5 and len(set(gpu["found"]["items"].tolist())) == 3


TILED_MATMUL = """\
struct Dims { n: u32, k: u32, m: u32 }
@group(0) @binding(0) var<uniform> dims: Dims;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;
const T = 4u;
var<workgroup> ta: array<array<f32, 4>, 4>;
var<workgroup> tb: array<array<f32, 4>, 4>;

@compute @workgroup_size(4, 4)
fn main(@builtin(local_invocation_id) l: vec3u, @builtin(workgroup_id) w: vec3u) {
    let row = w.y * T + l.y;
    let col = w.x * T + l.x;
    var acc = 0.0;
    for (var t = 0u; t < dims.k / T; t++) {
        ta[l.y][l.x] = a[row * dims.k + t * T + l.x];
        tb[l.y][l.x] = b[(t * T + l.y) * dims.m + col];
        workgroupBarrier();
        for (var i = 0u; i < T; i++) {
            acc += ta[l.y][i] * tb[i][l.x];
        }
        workgroupBarrier();
    }
    c[row * dims.m + col] = acc;
}
"""


def test_a_tiled_matmul_through_two_dimensional_workgroup_tiles(gpu_device):
    module = ash.load_wgsl(TILED_MATMUL)
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, (8, 12)).astype(np.float32)
    b = rng.integers(-3, 4, (12, 8)).astype(np.float32)
    c = np.zeros(64, np.float32)
    result = ash.run(module["main"], (2, 2), schedule=ash.Random(1),
                     dims=module["Dims"](n=8, k=12, m=8), a=a.ravel(), b=b.ravel(), c=c)
    assert not result.findings
    assert c.reshape(8, 8).tolist() == (a @ b).tolist()  # (small integers: exact)
    gpu = run_lavapipe(gpu_device, TILED_MATMUL, (2, 2),
                       dims=np.array([8, 12, 8], np.uint32).tobytes(), a=a.ravel(),
                       b=b.ravel(), c=np.zeros(64, np.float32))
    assert gpu["c"].tolist() == c.tolist()


CONST_RESULTS = """\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
const R = frexp(vec2(1.25, 12.0));

@compute @workgroup_size(1)
fn main() {
    const res = modf(-2.5);
    let f: f32 = res.fract;
    out[0] = f;
    out[1] = res.whole;
    out[2] = R.fract.y;
    out[3] = f32(R.exp.y);
    let q = modf(1.1);
    out[4] = q.fract;
}
"""


def test_constant_frexp_and_modf_results_are_computed_at_load_in_abstract_precision():
    out = np.zeros(5, np.float32)
    ash.run(ash.load_wgsl(CONST_RESULTS)["main"], 1, out=out)
    # 12 = 0.75 * 2^4; modf(1.1) in abstract float: 0.1 (of f32(1.1) it would be 0.10000002).
    # (No lavapipe here: naga does not implement frexp as a constant expression.)
    assert out.tolist() == [-0.5, -2.0, 0.75, 4.0, float(np.float32(0.1))]


FIXED_STORAGE = """\
struct S { a: u32, v: vec2f }
@group(0) @binding(0) var<storage, read_write> a: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> s: array<S, 2>;

@compute @workgroup_size(1)
fn main() {
    var k = 3u;
    a[k] = 7u;
    s[1].v.y = 2.0;
    let c = s;
    s[0].a = c[1].a + 1u;
    s[1] = c[0];
    a[0] = a[k] + u32(c[1].v.y);
}
"""


def test_storage_arrays_of_a_fixed_size_hold_that_many_elements(gpu_device):
    module = ash.load_wgsl(FIXED_STORAGE)
    a, s = np.zeros(4, np.uint32), np.zeros(2, module["S"].dtype)
    s["a"] = [10, 20]
    ash.run(module["main"], 1, a=a, s=s)
    assert a.tolist() == [9, 0, 0, 7]
    assert s["a"].tolist() == [21, 10] and s["v"].tolist() == [[0, 0], [0, 0]]
    start = np.zeros(2, module["S"].dtype)
    start["a"] = [10, 20]
    gpu = run_lavapipe(gpu_device, FIXED_STORAGE, 1, a=np.zeros(4, np.uint32), s=start)
    assert gpu["a"].tolist() == a.tolist() and gpu["s"]["a"].tolist() == [21, 10]
    # a longer buffer: the array still has 4 elements, so a[5] is out of bounds (the store
    # dropped, the load zero: a[0] = 0 + 2)
    longer = np.zeros(8, np.uint32)
    wgsl = FIXED_STORAGE.replace("var k = 3u;", "var k = 5u;")
    result = ash.run(ash.load_wgsl(wgsl)["main"], 1, sanitize="report", a=longer,
                     s=np.zeros(2, module["S"].dtype))
    assert longer.tolist() == [2] + [0] * 7 and result.findings


ONE_ATOMIC = """\
@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    out[i] = atomicAdd(&counter, 2u);
}
"""


def test_a_storage_buffer_of_one_atomic(gpu_device):
    module = ash.load_wgsl(ONE_ATOMIC)
    for schedule in (ash.InOrder(), ash.Random(2)):
        counter, out = np.zeros(1, np.uint32), np.zeros(8, np.uint32)
        result = ash.run(module["main"], 1, schedule=schedule, counter=counter, out=out)
        assert not result.findings
        assert counter.tolist() == [16] and sorted(out.tolist()) == list(range(0, 16, 2))
    gpu = run_lavapipe(gpu_device, ONE_ATOMIC, 1, counter=np.zeros(1, np.uint32),
                       out=np.zeros(8, np.uint32))
    assert gpu["counter"].tolist() == [16] and sorted(gpu["out"].tolist()) == list(range(0, 16, 2))
