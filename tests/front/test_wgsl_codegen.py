"""``ash.load_wgsl``: real WGSL run on the deterministic runtime (asyncshader.front.wgsl.codegen
generates it into Python kernels). Each shader's outputs are checked against values derived by
hand or with numpy, and against lavapipe running the same text on the same bytes
(tests/ports/wgsl_originals.py); a construct outside the supported slice is refused at load
with its file:line:col."""

import numpy as np
import pytest
from ports import wgsl_originals

import asyncshader as ash
from asyncshader.front.wgsl import WGSLWarning

REDUCE = """\
var<workgroup> tile: array<f32, 8>;
@group(0) @binding(0) var<storage, read> inp: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) wid: vec3u) {
    tile[i] = inp[wid.x * 8u + i];
    workgroupBarrier();
    for (var s = 4u; s > 0u; s = s / 2u) {
        if (i < s) {
            tile[i] += tile[i + s];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        out[wid.x] = tile[0];
    }
}
"""

HISTOGRAM = """\
@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;

const BINS = 4u;
var<workgroup> local_bins: array<atomic<u32>, 4>;

@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) gid: vec3u,
        @builtin(local_invocation_index) i: u32) {
    if (i < BINS) {
        atomicStore(&local_bins[i], 0u);  // (a GPU need not zero workgroup memory)
    }
    workgroupBarrier();
    atomicAdd(&local_bins[data[gid.x] % BINS], 1u);
    workgroupBarrier();
    if (i < BINS) {
        atomicAdd(&bins[i], atomicLoad(&local_bins[i]));
    }
}
"""

RACY = """\
@group(0) @binding(0) var<storage, read_write> counter: array<u32>;

@compute @workgroup_size(2)
fn main() {
    let v = counter[0];
    counter[0] = v + 1u;
}
"""

STATEMENTS = """\
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

fn collatz_steps(start: i32) -> i32 {
    var n = start;
    var steps = 0;
    loop {
        if (n == 1) { break; }
        if (n % 2 == 0) { n = n / 2; } else { n = 3 * n + 1; }
        continuing {
            steps++;
            break if steps >= 1000;
        }
    }
    return steps;
}

fn kind(x: i32) -> i32 {
    switch x % 4 {
        case 0, 1: { return 10; }
        case 2: { return -7 / 2; }
        default: { return (-7) % 3; }
    }
}

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    let x = i32(i) + 1;
    var odd_sum = 0;
    for (var k = 0; k <= x; k++) {
        if (k % 2 == 0) { continue; }
        odd_sum += k;
    }
    var w = 0;
    var shifted = 1u << i;
    while (shifted > 1u) { shifted >>= 1u; w--; }
    out[i] = collatz_steps(x) * 10000 + odd_sum * 100 + kind(x) + w * 1000000;
}
"""


def run_lavapipe(device, wgsl, workgroups, **bindings):
    return wgsl_originals.run(device, wgsl, "main", workgroups, **bindings)


def test_a_workgroup_reduction_with_barriers_sums_each_workgroup(gpu_device):
    inp = np.arange(24, dtype=np.float32)
    out = np.zeros(3, np.float32)
    ash.run(ash.load_wgsl(REDUCE)["main"], 3, inp=inp, out=out)
    assert out.tolist() == [28.0, 92.0, 156.0]  # 0+..+7, 8+..+15, 16+..+23
    gpu = run_lavapipe(gpu_device, REDUCE, 3, inp=inp, out=np.zeros(3, np.float32))
    assert gpu["out"].tolist() == out.tolist()


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Reverse(), ash.Random(3)], ids=repr)
def test_a_histogram_with_atomics_counts_every_value(schedule, gpu_device):
    data = (np.arange(64, dtype=np.uint32) * 7 + 3) % 11
    bins = np.zeros(4, np.uint32)
    result = ash.run(ash.load_wgsl(HISTOGRAM)["main"], 4, schedule=schedule,
                     sanitize="report", data=data, bins=bins)
    assert bins.tolist() == np.bincount(data % 4, minlength=4).tolist()
    assert not result.findings
    gpu = run_lavapipe(gpu_device, HISTOGRAM, 4, data=data, bins=np.zeros(4, np.uint32))
    assert gpu["bins"].tolist() == bins.tolist()


def test_statements_loops_switch_and_integer_operators_follow_wgsl(gpu_device):
    out = np.zeros(8, np.int32)
    ash.run(ash.load_wgsl(STATEMENTS)["main"], 1, out=out)

    def steps(n):
        s = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            s += 1
        return s

    # WGSL's i32 / and % truncate toward zero: -7 / 2 == -3, -7 % 3 == -1
    kinds = {0: 10, 1: 10, 2: -3, 3: -1}
    want = [steps(x) * 10000 + sum(range(1, x + 1, 2)) * 100 + kinds[x % 4] - i * 1000000
            for i, x in enumerate(range(1, 9))]
    assert out.tolist() == want
    gpu = run_lavapipe(gpu_device, STATEMENTS, 1, out=np.zeros(8, np.int32))
    assert gpu["out"].tolist() == want


def test_hello_workgroups_runs_as_on_lavapipe(gpu_device):
    wgsl = wgsl_originals.source("wgpu_hello_workgroups_shader.wgsl")
    a, b = np.arange(5, dtype=np.int32), np.arange(5, dtype=np.int32) * 10
    ash.run(ash.load_wgsl(wgsl)["main"], 5, a=a, b=b)
    assert a.tolist() == [1, 2, 3, 4, 5] and b.tolist() == [1, 11, 21, 31, 41]
    gpu = run_lavapipe(gpu_device, wgsl, 5, a=np.arange(5, dtype=np.int32),
                       b=np.arange(5, dtype=np.int32) * 10)
    assert gpu["a"].tolist() == a.tolist() and gpu["b"].tolist() == b.tolist()


def params_bytes(*words):
    return np.array(words, np.uint32)


def test_layer_norm_normalizes_each_row_as_lavapipe_does(gpu_device):
    wgsl = wgsl_originals.source("webgpu-samples_visionTransformer_layerNorm.wgsl")
    module = ash.load_wgsl(wgsl)
    rows, dim = 2, 300
    rng = np.random.default_rng(0)
    x = rng.normal(0.5, 2.0, rows * dim).astype(np.float32)
    gamma = rng.normal(1.0, 0.1, dim).astype(np.float32)
    beta = rng.normal(0.0, 0.1, dim).astype(np.float32)
    out = np.zeros(rows * dim, np.float32)
    params = module["Params"](N=rows, D=dim, eps=1e-6)
    ash.run(module["main"], rows, params=params, input=x, gamma=gamma, beta=beta, output=out)
    rowsx = x.reshape(rows, dim).astype(np.float64)
    mean = rowsx.mean(axis=1, keepdims=True)
    want = (rowsx - mean) / np.sqrt(rowsx.var(axis=1, keepdims=True) + 1e-6) * gamma + beta
    np.testing.assert_allclose(out.reshape(rows, dim), want, rtol=1e-4, atol=1e-4)
    words = np.array([rows, dim, np.float32(1e-6).view(np.uint32)], np.uint32).tobytes()
    gpu = run_lavapipe(gpu_device, wgsl, rows, params=words, input=x, gamma=gamma,
                       beta=beta, output=np.zeros(rows * dim, np.float32))
    np.testing.assert_allclose(out, gpu["output"], rtol=2e-6, atol=2e-6)  # (lavapipe's sqrt)


def test_attention_softmax_matches_numpy_and_lavapipe(gpu_device):
    wgsl = wgsl_originals.source("webgpu-samples_visionTransformer_attnSoftmax.wgsl")
    module = ash.load_wgsl(wgsl)
    n, heads = 5, 2
    scores = np.random.default_rng(1).normal(0, 3, heads * n * n).astype(np.float32)
    buf, weights = scores.copy(), np.zeros(2 * heads * n * n, np.float32)
    params = module["Params"](N=n, numHeads=heads, layerIdx=1)
    ash.run(module["main"], 1, params=params, scoreBuf=buf, attnWeights=weights)
    rows = scores.reshape(-1, n).astype(np.float64)
    e = np.exp(rows - rows.max(axis=1, keepdims=True))
    want = (e / e.sum(axis=1, keepdims=True)).ravel()
    np.testing.assert_allclose(buf, want, rtol=1e-5, atol=1e-7)
    assert weights[:heads * n * n].tolist() == [0.0] * (heads * n * n)  # layer 0: untouched
    assert weights[heads * n * n:].tolist() == buf.tolist()
    gpu = run_lavapipe(gpu_device, wgsl, 1, params=params_bytes(n, heads, 1).tobytes(),
                       scoreBuf=scores.copy(), attnWeights=np.zeros_like(weights))
    np.testing.assert_allclose(buf, gpu["scoreBuf"], rtol=4e-6, atol=1e-9)  # (lavapipe's exp)


def test_a_race_is_reported_at_the_wgsl_line_with_its_text():
    module = ash.load_wgsl(RACY)
    counter = np.zeros(1, np.uint32)
    result = ash.run(module["main"], 1, sanitize="report", counter=counter)
    race = next(f for f in result.findings if f.race == "write-write")
    assert race.first.where == f"{module.name}:6" and race.second.where == f"{module.name}:6"
    assert race.first.source == "counter[0] = v + 1u;"


def test_out_of_bounds_loads_and_stores_are_findings_at_the_wgsl_line():
    wgsl = """\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read> inp: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    out[i + 2u] = 7u + inp[i + 1u];
}
"""
    out = np.zeros(4, np.uint32)
    result = ash.run(ash.load_wgsl(wgsl, name="bounds.wgsl")["main"], 1, sanitize="report",
                     out=out, inp=np.arange(4, dtype=np.uint32))
    assert out.tolist() == [0, 0, 8, 9]  # (out[4], out[5] dropped; inp[4] read as zero)
    found = {(f.memory, f.access.kind, f.access.where, f.count) for f in result.findings}
    assert found == {("out", "store", "bounds.wgsl:5", 2), ("inp", "load", "bounds.wgsl:5", 1)}


def test_a_string_gets_a_file_name_of_its_own_and_loads_are_cached():
    assert ash.load_wgsl(RACY) is ash.load_wgsl(RACY)
    other = ash.load_wgsl(RACY.replace("1u;", "2u;"))
    assert other.name != ash.load_wgsl(RACY).name and other.name.endswith(".wgsl")


def test_a_string_loaded_with_a_name_reports_under_that_name():
    module = ash.load_wgsl(RACY, name="counter.wgsl")
    assert module.name == "counter.wgsl" and module is ash.load_wgsl(RACY, name="counter.wgsl")
    assert module is not ash.load_wgsl(RACY)
    result = ash.run(module["main"], 1, sanitize="report", counter=np.zeros(1, np.uint32))
    assert any("counter.wgsl:" in f.render() for f in result.findings)


def test_a_wgsl_file_is_loaded_by_its_path(tmp_path):
    path = tmp_path / "count.wgsl"
    path.write_text(RACY, encoding="utf-8")
    module = ash.load_wgsl(str(path))
    counter = np.zeros(1, np.uint32)
    ash.run(module["main"], 1, sanitize="off", counter=counter)
    assert module.name == str(path) and counter.tolist() == [2]  # in order: nothing lost


@pytest.mark.parametrize("wgsl, where, construct", [
    ("struct S { x: f32 }\n@group(0) @binding(0) var<storage, read_write> a: "
     "array<array<S, 2>>;\n@compute @workgroup_size(1)\nfn main() {\n    a[0][1].x = 1.0;\n}\n",
     ":2:1:", "a var<storage> of type array<array<S, 2>>"),
    ("fn True() {}\n@compute @workgroup_size(1)\nfn main() {\n    True();\n}\n",
     ":1:1:", "a module-scope name 'True'"),
], ids=["storage-array-of-arrays-of-structs", "python-constant-function-name"])
def test_a_construct_outside_the_slice_is_refused_at_its_place(wgsl, where, construct):
    with pytest.raises(ash.ShaderCreationError) as err:
        ash.load_wgsl(wgsl)
    message = str(err.value)
    assert where in message.splitlines()[0]
    assert f"not supported yet by load_wgsl: {construct}" in message


QUAD_IN_ONE_INVOCATION = """\
enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
fn swapped(x: f32) -> f32 { return quadSwapX(x); }
@compute @workgroup_size(1)
fn main() { o[0] = swapped(o[0]); }
"""


def test_a_quad_operation_in_a_workgroup_of_no_whole_quads_is_refused_at_the_call():
    """Valid WGSL (Tint and Dawn's 160 generated quad tests take it: WGSL asks no
    divisibility of quad operations outside a compute-derivative layout; what a missing
    member would give is indeterminate), but asyncshader forms no partial quad: a WGSLError
    at the call the entry point reaches, not the kernels' check at run time."""
    with pytest.raises(ash.WGSLError) as err:
        ash.load_wgsl(QUAD_IN_ONE_INVOCATION)
    first = str(err.value).splitlines()[0]
    assert ":3:36: error: not supported yet by load_wgsl: quadSwapX in the compute entry " \
           "point 'main' of 1 invocation (valid WGSL" in first
    four = ash.load_wgsl(QUAD_IN_ONE_INVOCATION.replace("workgroup_size(1)",
                                                        "workgroup_size(4)"))
    o = np.array([7.0], np.float32)
    ash.run(four["main"], 1, o=o, sanitize="off")
    assert o.tolist() == [7.0]  # (o[0] read by all four: any member's value is 7.0)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="no WGSL file .*absent.wgsl"):
        ash.load_wgsl(str(tmp_path / "absent.wgsl"))


def test_a_missing_entry_point_names_the_ones_there_are():
    with pytest.raises(KeyError, match="its entry points: main"):
        ash.load_wgsl(RACY)["mian"]


EXPRESSIONS = """\
struct Particle {
    pos: vec2f,
    mass: f32,
}

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<uniform> scale: vec4f;
@group(0) @binding(2) var<storage, read_write> out: array<vec4f>;
var<workgroup> count: atomic<u32>;

fn weigh(i: u32, k: f32) -> vec2f {
    const half = 0.5;
    return particles[i].pos * particles[i].mass * k + vec2f(half);
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    let w = weigh(i, scale.x);
    let v = vec3f(w, f32(i)).zyx;
    _ = atomicAdd(&count, 1u);
    let flag = u32(i % 2u == 0u && v.y > 1.0);
    out[i] = vec4f(v.xy, clamp(v.z - 2.0, 0.0, 4.0), select(-1.0, 1.0, flag == 1u) * scale.w);
}
"""


def test_structs_vectors_swizzles_conversions_and_built_ins(gpu_device):
    module = ash.load_wgsl(EXPRESSIONS)
    particles = np.zeros(4, module["Particle"].dtype)
    particles["pos"] = [[1, 2], [3, -1], [0.5, 0.25], [-2, 4]]
    particles["mass"] = [1, 2, 4, 0.5]
    scale = ash.vec4f(2.0, 0.0, 0.0, 3.0)
    out = np.zeros((4, 4), np.float32)
    ash.run(module["main"], 1, particles=particles, scale=scale, out=out)
    want = []
    for i, (pos, mass) in enumerate(zip(particles["pos"], particles["mass"])):
        w = pos * mass * 2.0 + 0.5
        v = [float(i), w[1], w[0]]                         # vec3f(w, i).zyx
        flag = i % 2 == 0 and v[1] > 1.0
        want.append([v[0], v[1], min(max(v[2] - 2.0, 0.0), 4.0), 3.0 if flag else -3.0])
    assert out.tolist() == want
    gpu = run_lavapipe(gpu_device, EXPRESSIONS, 1, particles=particles,
                       scale=np.array([2, 0, 0, 3], np.float32).tobytes(),
                       out=np.zeros((4, 4), np.float32))
    assert gpu["out"].tolist() == want


def test_a_let_of_a_vector_is_a_copy_of_the_memory_it_was_read_from(gpu_device):
    wgsl = """\
@group(0) @binding(0) var<storage, read_write> pairs: array<vec2u>;
@compute @workgroup_size(1)
fn main() {
    let before = pairs[0];
    pairs[0] = vec2u(7u, 8u);
    pairs[1] = vec2u(before.y, pairs[0].x);
}
"""
    pairs = np.array([[1, 2], [0, 0]], np.uint32)
    ash.run(ash.load_wgsl(wgsl)["main"], 1, pairs=pairs)
    assert pairs.tolist() == [[7, 8], [2, 7]]
    gpu = run_lavapipe(gpu_device, wgsl, 1, pairs=np.array([[1, 2], [0, 0]], np.uint32))
    assert gpu["pairs"].tolist() == pairs.tolist()


def test_scalar_uniforms_negative_switch_cases_and_bitwise_operators(gpu_device):
    wgsl = """\
@group(0) @binding(0) var<uniform> offset: i32;
@group(0) @binding(1) var<storage, read_write> out: array<i32>;
@compute @workgroup_size(6)
fn main(@builtin(local_invocation_index) i: u32) {
    let x = i32(i) + offset;
    var r = 0;
    switch x {
        case -2: { r = 100; }
        case -1, 1: { r = 200; }
        default: { r = (~x ^ (x & 6)) | 1; }
    }
    if (!(x > 2)) { r = -r; }
    out[i] = r;
}
"""
    out = np.zeros(6, np.int32)
    ash.run(ash.load_wgsl(wgsl)["main"], 1, offset=ash.i32(-2), out=out)

    def default(x):
        return (~x ^ (x & 6)) | 1
    want = [-100, -200, -default(0), -200, -default(2), default(3)]
    assert out.tolist() == want
    gpu = run_lavapipe(gpu_device, wgsl, 1, offset=np.array([-2], np.int32).tobytes(),
                       out=np.zeros(6, np.int32))
    assert gpu["out"].tolist() == want


DIVERGENT = """\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    out[i + 2u] = i;
    if (i < 2u) {
        workgroupBarrier();
    }
}
"""


def test_a_divergent_barrier_names_the_wgsl_line_and_text():
    # (WGSL's uniformity analysis rejects it at load: made a warning to watch it diverge)
    with pytest.warns(WGSLWarning, match=":7:9: error: 'workgroupBarrier' must only be "
                      "called from uniform control flow"):
        module = ash.load_wgsl(DIVERGENT, uniformity="warning")
    with pytest.raises(ash.BarrierDivergenceError) as err:
        ash.run(module["main"], 1, out=np.zeros(6, np.uint32))
    assert f"{module.name}:7" in str(err.value) and "workgroupBarrier();" in str(err.value)


def test_an_out_of_bounds_store_without_the_detector_is_dropped_as_wgsl_drops_it():
    out = np.zeros(4, np.uint32)
    ash.run(ash.load_wgsl(DIVERGENT.replace("        workgroupBarrier();\n", "")
                          )["main"], 1, sanitize="off", out=out)
    assert out.tolist() == [0, 0, 0, 1]  # invocations 2 and 3 store past the end: dropped


REPLAYED = """\
@group(0) @binding(0) var<storage, read_write> counter: array<u32>;
var<workgroup> ticks: atomic<u32>;

@compute @workgroup_size(2)
fn main() {
    let v = counter[0];
    atomicAdd(&ticks, 1u);  // (an operation where the schedule may switch invocations)
    counter[0] = v + 1u;
}
"""


def test_a_loaded_kernel_replays_a_random_schedule():
    module = ash.load_wgsl(REPLAYED)
    runs = {}
    for seed in range(8):  # a schedule that loses an update and one that does not
        counter = np.zeros(1, np.uint32)
        result = ash.run(module["main"], 1, schedule=ash.Random(seed), sanitize="report",
                         counter=counter)
        runs.setdefault(int(counter[0]), result.trace)
    assert sorted(runs) == [1, 2]
    for value, trace in runs.items():
        again = np.zeros(1, np.uint32)
        ash.run(module["main"], 1, schedule=ash.Replay(trace), sanitize="report",
                counter=again)
        assert again.tolist() == [value]


def test_game_of_life_with_its_override_made_a_const_steps_as_lavapipe_does(gpu_device):
    original = wgsl_originals.source("webgpu-samples_gameOfLife_compute.wgsl")
    wgsl = original.replace("override blockSize = 8;", "const blockSize = 8;")
    width, height = 16, 8
    cells = (np.random.default_rng(2).random(width * height) < 0.4).astype(np.uint32)
    size = np.array([[width, height]], np.uint32)  # (the vec2u: an array of one)
    nxt = np.zeros(width * height, np.uint32)
    ash.run(ash.load_wgsl(wgsl)["main"], (2, 1), size=size, current=cells, next=nxt)
    grid = cells.reshape(height, width)
    around = sum(np.roll(np.roll(grid, dy, 0), dx, 1)
                 for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
    # (the original wraps x - 1 at x == 0 through u32: 2**32 - 1 % 16 == 15, as np.roll does)
    want = ((around == 3) | ((around == 2) & (grid == 1))).astype(np.uint32).ravel()
    assert nxt.tolist() == want.tolist()
    gpu = run_lavapipe(gpu_device, wgsl, (2, 1), size=size, current=cells,
                       next=np.zeros(width * height, np.uint32))
    assert gpu["next"].tolist() == want.tolist()


def test_a_storage_buffer_of_one_vector_is_read_and_stored_as_on_a_gpu(gpu_device):
    wgsl = """\
@group(0) @binding(0) var<storage, read_write> v: vec2u;
@compute @workgroup_size(1)
fn main() {
    v = v.yx + vec2u(1u);
}
"""
    v = np.array([[3, 9]], np.uint32)
    ash.run(ash.load_wgsl(wgsl)["main"], 1, v=v)
    assert v.tolist() == [[10, 4]]
    gpu = run_lavapipe(gpu_device, wgsl, 1, v=np.array([[3, 9]], np.uint32))
    assert gpu["v"].tolist() == v.tolist()


def test_uniform_arrays_local_vector_indexing_and_module_constants(gpu_device):
    wgsl = """\
const K = 3;
@group(0) @binding(0) var<uniform> table: array<vec4f, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    let v = vec4f(1.0, 2.0, 3.0, 4.0);
    out[i] = v[i] + table[i % 2u][i] * f32(K);
    out[i + 4u] = v[(i + 2u) % 4u];
}
"""
    module = ash.load_wgsl(wgsl)
    assert module["K"] == 3 and isinstance(module["K"], ash.i32)
    table = np.arange(8, dtype=np.float32).reshape(2, 4)
    out = np.zeros(8, np.float32)
    ash.run(module["main"], 1, table=table, out=out)
    want = [1 + 0 * 3, 2 + 5 * 3, 3 + 2 * 3, 4 + 7 * 3, 3, 4, 1, 2]
    assert out.tolist() == want
    gpu = run_lavapipe(gpu_device, wgsl, 1, table=table.tobytes(), out=np.zeros(8, np.float32))
    assert gpu["out"].tolist() == want


def test_explore_finds_the_schedule_that_loses_an_update_of_a_loaded_kernel():
    module = ash.load_wgsl(REPLAYED)
    report = ash.explore(module["main"],
                         lambda: {"counter": np.zeros(1, np.uint32), "workgroups": 1},
                         lambda r: r["counter"].tolist() == [2], runs=20, store=None,
                         progress=False, workers=1)
    assert report.failures
    counter = np.zeros(1, np.uint32)
    ash.run(module["main"], 1, schedule=ash.Replay(report.failures[0].trace),
            sanitize="report", counter=counter)
    assert counter.tolist() == [1]  # (one update lost)


@pytest.mark.parametrize("entry", ["linear", "linearGelu"])
def test_the_mlp_entry_points_match_numpy_and_lavapipe(entry, gpu_device):
    wgsl = wgsl_originals.source("webgpu-samples_visionTransformer_mlp.wgsl")
    module = ash.load_wgsl(wgsl)
    rows, n_in, n_out = 3, 5, 7
    rng = np.random.default_rng(4)
    x = rng.normal(0, 1, rows * n_in).astype(np.float32)
    w = rng.normal(0, 1, n_in * n_out).astype(np.float32)
    b = rng.normal(0, 1, n_out).astype(np.float32)
    out = np.zeros(rows * n_out, np.float32)
    params = module["Params"](numRows=rows, inDim=n_in, outDim=n_out)
    ash.run(module[entry], 1, params=params, input=x, weight=w, bias=b, output=out)
    want = x.reshape(rows, n_in).astype(np.float64) @ w.reshape(n_in, n_out) + b
    if entry == "linearGelu":
        want = 0.5 * want * (1 + np.tanh(0.7978845608 * (want + 0.044715 * want ** 3)))
    np.testing.assert_allclose(out, want.ravel(), rtol=1e-5, atol=1e-5)
    gpu = wgsl_originals.run(gpu_device, wgsl, entry, 1,
                             params=np.array([rows, n_in, n_out], np.uint32).tobytes(),
                             input=x, weight=w, bias=b, output=np.zeros_like(out))
    np.testing.assert_allclose(out, gpu["output"], rtol=4e-6, atol=1e-6)  # (lavapipe's tanh)


def test_structs_and_variables_may_be_used_before_their_declarations(gpu_device):
    wgsl = """\
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    out[i] = Outer(Inner(i + 1u, 2.5), f32(i)).inner.a * 10u;
}
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
struct Outer { inner: Inner, x: f32 }
struct Inner { a: u32, b: f32 }
"""
    out = np.zeros(2, np.uint32)
    ash.run(ash.load_wgsl(wgsl)["main"], 1, out=out)
    assert out.tolist() == [10, 20]
    gpu = run_lavapipe(gpu_device, wgsl, 1, out=np.zeros(2, np.uint32))
    assert gpu["out"].tolist() == [10, 20]


def test_built_ins_take_abstract_arguments_as_their_parameters_need(gpu_device):
    wgsl = """\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> f: array<f32>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) i: u32) {
    let x = f32(i) + 1.5;
    out[0] = pack2x16float(vec2(x, 2.0));
    f[0] = ldexp(x, 2);
    out[1] = countOneBits(7u + i);
}
"""
    out, f = np.zeros(2, np.uint32), np.zeros(1, np.float32)
    ash.run(ash.load_wgsl(wgsl)["main"], 1, out=out, f=f)
    assert out.tolist() == [0x4000_3E00, 3] and f.tolist() == [6.0]  # f16 2.0, 1.5; 1.5 * 4
    gpu = run_lavapipe(gpu_device, wgsl, 1, out=np.zeros(2, np.uint32),
                       f=np.zeros(1, np.float32))
    assert gpu["out"].tolist() == out.tolist() and gpu["f"].tolist() == f.tolist()


def test_built_ins_whose_wgsl_names_have_capitals_after_digits_are_found():
    """pack4xI8 is ash.pack4xi8, dot4I8Packed ash.dot4i8_packed (not pack4x_i8 ...)."""
    module = ash.load_wgsl("""
        @group(0) @binding(0) var<storage, read_write> out: array<u32>;
        @compute @workgroup_size(1)
        fn main() {
            out[0] = pack4xI8(vec4i(1, -1, 2, -2));
            out[1] = u32(dot4I8Packed(out[0], out[0]));
            out[2] = u32(quantizeToF16(1.0) * 2.0);
            out[3] = u32(faceForward(vec2f(1.0, 0.0), vec2f(1.0, 0.0), vec2f(1.0, 0.0)).x + 5.0);
        }
    """)
    out = np.zeros(4, np.uint32)
    ash.run(module["main"], 1, out=out)
    # bytes 01 ff 02 fe; 1 + 1 + 4 + 4; 1.0 * 2; faceForward(e1, e2, e3) = -e1 as dot(e2, e3) > 0
    assert out.tolist() == [0xFE02FF01, 10, 2, 4]


def test_every_compute_built_in_the_runtime_passes_is_taken():
    module = ash.load_wgsl("""
        @group(0) @binding(0) var<storage, read_write> out: array<u32>;
        @compute @workgroup_size(4)
        fn main(@builtin(workgroup_index) w: u32, @builtin(global_invocation_index) g: u32) {
            out[g] = w * 100u + g;
        }
    """)
    out = np.zeros(12, np.uint32)
    ash.run(module["main"], 3, out=out)
    assert out.tolist() == [0, 1, 2, 3, 104, 105, 106, 107, 208, 209, 210, 211]

