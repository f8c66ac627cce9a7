"""ash.Lockstep(): a dispatch run as numpy arrays over lanes leaves the same memory, bit for
bit, as the coroutine runtime under InOrder, for race-free kernels: loaded WGSL and Python
kernels (through to_wgsl), every statement form, integer and float semantics, structs,
workgroup memory and barriers, atomics."""

import numpy as np
import pytest
from helpers import load_example

import asyncshader as ash
from asyncshader import f32, u32, vec2f, vec3b, vec3f, vec3u
from asyncshader.errors import BarrierDivergenceError, DispatchError, OptionError
from asyncshader.front.wgsl.check import Checker
from asyncshader.front.wgsl.parser import parse
from asyncshader.front.wgsl.resolve import resolve
from asyncshader.front.wgsl.source import Source, WGSLError
from asyncshader.lockstep.compile import Compiler
from asyncshader.lockstep.schedule import run_program


def both_ways(kernel, workgroups, **bindings):
    """The storage arrays after an InOrder run and after a Lockstep run, each on copies."""
    results = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        copies = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in bindings.items()}
        ash.run(kernel, workgroups, schedule=schedule, sanitize="off", **copies)
        results.append({k: v for k, v in copies.items() if isinstance(v, np.ndarray)})
    return results


def bits(array):
    """An array's bits, member by member for a struct array (its padding holds nothing)."""
    if array.dtype.names:
        return [np.ascontiguousarray(array[name]).tobytes() for name in array.dtype.names]
    return array.tobytes()


def assert_same_bits(kernel, workgroups, **bindings):
    scalar, lockstep = both_ways(kernel, workgroups, **bindings)
    for name in scalar:
        assert bits(scalar[name]) == bits(lockstep[name]), (name, scalar[name], lockstep[name])
    return lockstep


CONTROL = """
@group(0) @binding(0) var<storage, read_write> out: array<i32>;
@group(0) @binding(1) var<storage, read> inp: array<i32>;

fn classify(x: i32) -> i32 {
  if (x < 0) { return -1; }
  switch (x % 4) {
    case 0: { return 10; }
    case 1, 2: { if (x > 20) { return 25; } return 20; }
    default: { }
  }
  return 30;
}

@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let x = inp[i];
  var acc = 0;
  for (var k = 0; k < x % 9; k++) {
    if (k == 2) { continue; }
    acc += k * classify(x - k);
    if (acc > 200) { break; }
  }
  var n = 0u;
  loop {
    n += 1u;
    if (n == 3u && x > 5) { continue; }
    continuing { break if n >= u32(abs(x) % 5); }
  }
  var w = x;
  while (w > 3) { w = w / 2; }
  if (i == 7u) { return; }
  out[i] = acc * 1000 + i32(n) * 10 + w;
}
"""


def test_control_flow_under_masks_gives_inorder_memory():
    module = ash.load_wgsl(CONTROL)
    inp = np.array([-7, 0, 1, 2, 3, 4, 5, 6, 21, 22, 23, 24, 37, -2, 100, 8] * 2, np.int32)
    out = assert_same_bits(module["main"], 2, out=np.full(32, -99, np.int32), inp=inp)["out"]
    assert out[7] == -99  # (that lane returned before its store)
    # inp[1] == 0: no loop iterations, n runs to 1 (0 % 5 == 0 <= 1), w stays 0
    assert out[1] == 10


def test_break_inside_a_switch_clause_leaves_the_switch_for_that_lane_only():
    program = compile_text(SWITCH_BREAK)
    inp = np.arange(12, dtype=np.int32) * 7 - 20
    out = np.zeros(12, np.int32)
    run_program(program, {}, (1, 1, 1), {"out": out, "inp": inp})

    def expected(x):  # the WGSL below, in Python
        r = 0
        m = x % 3 if x >= 0 else -((-x) % 3)
        if m in (1, -1):
            r = 1
            if x > 10:
                return r + 100
            r = 2
        elif m == 0:
            r = 3
        return r + 100
    assert list(out) == [expected(int(x)) for x in inp]


SWITCH_BREAK = """
@group(0) @binding(0) var<storage, read_write> out: array<i32>;
@group(0) @binding(1) var<storage, read> inp: array<i32>;
@compute @workgroup_size(12)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = inp[i];
  var r = 0;
  switch (x % 3) {
    case 1, -1: { r = 1; if (x > 10) { break; } r = 2; }
    case 0: { r = 3; }
    default: { }
  }
  out[i] = r + 100;
}
"""


INTEGERS = """
@group(0) @binding(0) var<storage, read_write> out: array<i32>;
@group(0) @binding(1) var<storage, read_write> uout: array<u32>;
@group(0) @binding(2) var<storage, read_write> fout: array<f32>;
@group(0) @binding(3) var<storage, read> a: array<i32>;
@group(0) @binding(4) var<storage, read> b: array<i32>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let x = a[i];
  let y = b[i];
  out[6u * i] = x / y;
  out[6u * i + 1u] = x % y;
  out[6u * i + 2u] = x << u32(y);
  out[6u * i + 3u] = x >> u32(y);
  out[6u * i + 4u] = x * y + x - y;
  out[6u * i + 5u] = i32(f32(x) * 1.5);
  let ux = u32(x);
  let uy = u32(y);
  uout[4u * i] = ux / uy;
  uout[4u * i + 1u] = ux % uy;
  uout[4u * i + 2u] = ux >> uy;
  uout[4u * i + 3u] = u32(f32(x) * -0.75) + (ux ^ ~uy);
  fout[2u * i] = f32(x) / f32(y);
  fout[2u * i + 1u] = f32(x) % f32(y);
}
"""


def test_integer_semantics_wrap_and_divide_by_zero_as_wgsl_does():
    module = ash.load_wgsl(INTEGERS)
    a = np.array([7, -7, 2**31 - 1, -2**31, -2**31, 5, 0, -1, 123456789, -9, 100, 3, 0, 1,
                  -5, 2**30], np.int32)
    b = np.array([2, 2, 2, -1, 0, 0, 0, 31, 33, -4, 7, -3, -1, 32, 3, 3], np.int32)
    out = assert_same_bits(module["main"], 2, out=np.zeros(96, np.int32),
                           uout=np.zeros(64, np.uint32), fout=np.zeros(32, np.float32),
                           a=a, b=b)
    assert out["out"][6 * 3] == -2**31       # i32 min / -1 is min
    assert out["out"][6 * 5] == 5            # e / 0 is e
    assert out["out"][6 * 5 + 1] == 0        # e % 0 is 0
    assert out["out"][6 * 1 + 1] == -1       # the sign of the dividend


@ash.struct
class Particle:
    pos: vec2f
    vel: vec2f
    tag: u32


@ash.struct
class Params:
    scale: f32
    offset: vec3f
    count: u32


params = ash.uniform(Params, group=0, binding=0)
src = ash.storage(Particle, group=0, binding=1, access="read")
dst = ash.storage(Particle, group=0, binding=2)
extra = ash.storage(vec3f, group=0, binding=3)


def moved(pos: vec2f, vel: vec2f) -> vec2f:
    q = pos + vel * params.scale
    q.y = -q.y
    return q


@ash.compute(workgroup_size=4)
async def structs(*, global_invocation_id: vec3u):
    i = global_invocation_id.x
    p = moved(src[i].pos, src[i].vel)
    dst[i].pos = p
    dst[i].vel = src[i].vel.yx
    dst[i].tag = src[i].tag * u32(3) + u32(1)
    dst[i].pos.x = dst[i].pos.x + f32(i)
    extra[i] = vec3f(p.x, p.y, f32(dst[i].tag)) + params.offset * f32(params.count)
    extra[i].z = ash.length(extra[i]) + ash.dot(src[i].vel, p)
    v = ash.normalize(vec3f(p.x, p.y, 1.0)).zyx
    extra[i + u32(8)] = ash.select(v, -v, vec3b(i % u32(2) == u32(0), i % u32(3) == u32(0), True))


def test_struct_buffers_uniforms_and_vectors_in_lanes():
    rng = np.random.default_rng(1)
    particles = Particle.zeros(8)
    particles["pos"] = rng.standard_normal((8, 2))
    particles["vel"] = rng.standard_normal((8, 2))
    particles["tag"] = np.arange(8)
    values = Params(scale=0.25, offset=vec3f(1.0, -2.0, 0.5), count=3)
    out = assert_same_bits(structs, 2, params=values, src=particles, dst=Particle.zeros(8),
                           extra=np.zeros((16, 3), np.float32))
    np.testing.assert_array_equal(out["dst"]["tag"], np.arange(8) * 3 + 1)
    np.testing.assert_array_equal(out["dst"]["vel"], particles["vel"][:, ::-1])


VALUES = """
struct Particle { pos: vec2f, vel: vec2f, tag: u32, }
@group(0) @binding(0) var<storage, read> src: array<Particle>;
@group(0) @binding(1) var<storage, read_write> dst: array<Particle>;

fn moved(p: Particle) -> Particle {
  var q = p;
  q.pos += q.vel;
  q.vel.y = -q.vel.y;
  q.tag = q.tag * 3u + 1u;
  return q;
}

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  var local: array<u32, 4>;
  local[i % 4u] = i;
  local[(i + 1u) % 4u] = 100u;
  var p = src[i];
  let before = p;
  p = moved(p);
  p.tag += local[i % 4u] + local[(i + 1u) % 4u] + before.tag;
  dst[i] = p;
}
"""


def test_struct_values_and_local_arrays_have_value_semantics():
    program = compile_text(VALUES)
    given = Particle.zeros(8)
    given["pos"] = np.arange(16, dtype=np.float32).reshape(8, 2) / 4
    given["vel"] = 1.5
    given["tag"] = np.arange(8) + 10
    written = Particle.zeros(8)
    run_program(program, {}, (2, 1, 1), {"src": given, "dst": written})
    np.testing.assert_array_equal(written["pos"], given["pos"] + np.float32(1.5))
    np.testing.assert_array_equal(written["vel"], [[1.5, -1.5]] * 8)
    i = np.arange(8)
    np.testing.assert_array_equal(written["tag"], (i + 10) * 3 + 1 + i + 100 + (i + 10))


ATOMICS = """
@group(0) @binding(0) var<storage, read_write> hist: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> olds: array<u32>;
@group(0) @binding(2) var<storage, read_write> maxes: array<atomic<i32>>;
@group(0) @binding(3) var<storage, read> keys: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let k = keys[gid.x];
  olds[gid.x] = atomicAdd(&hist[k], 2u);
  atomicMax(&maxes[k], i32(gid.x) - 5);
  atomicSub(&hist[3], 1u);
}
"""


def test_atomics_run_in_lane_order_old_values_an_exclusive_prefix_per_address():
    module = ash.load_wgsl(ATOMICS)
    keys = np.array([0, 1, 0, 2, 1, 0, 2, 2, 1, 1, 0, 0, 2, 1, 0, 0], np.uint32)
    hist, olds = np.zeros(4, np.uint32), np.zeros(16, np.uint32)
    maxes = np.full(4, -100, np.int32)
    ash.run(module["main"], 2, schedule=ash.Lockstep(), sanitize="off", hist=hist, olds=olds,
            maxes=maxes, keys=keys)
    seen = {0: 0, 1: 0, 2: 0}
    for lane, k in enumerate(keys):   # lane order: each lane sees the earlier lanes' adds
        assert olds[lane] == seen[int(k)] * 2
        seen[int(k)] += 1
    assert list(hist[:3]) == [2 * seen[0], 2 * seen[1], 2 * seen[2]]
    assert hist[3] == np.uint32(2**32 - 16)  # (16 subtractions of 1 from 0 wrap)
    assert list(maxes[:3]) == [max(i - 5 for i in range(16) if keys[i] == k) for k in range(3)]


REDUCE = """
@group(0) @binding(0) var<storage, read> inp: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> tile: array<f32, 64>;
var<workgroup> total: f32;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) wid: vec3u) {
  tile[i] = inp[wid.x * 64u + i];
  workgroupBarrier();
  for (var s = 32u; s > 0u; s = s >> 1u) {
    if (i < s) { tile[i] += tile[i + s]; }
    workgroupBarrier();
  }
  if (i == 0u) { total = tile[0]; }
  let t = workgroupUniformLoad(&total);
  out[wid.x * 64u + i] = t - tile[i];
}
"""


def test_workgroup_memory_is_per_workgroup_and_barriers_meet():
    module = ash.load_wgsl(REDUCE)
    inp = np.random.default_rng(3).standard_normal(64 * 5).astype(np.float32)
    out = assert_same_bits(module["main"], 5, inp=inp, out=np.zeros(64 * 5, np.float32))
    assert np.allclose(out["out"].reshape(5, 64)[:, 0], 0.0)


def test_a_barrier_in_divergent_control_flow_is_an_error_naming_the_line():
    module = ash.load_wgsl("""
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i < 3u) {
    workgroupBarrier();
  }
  out[i] = i;
}
""", uniformity="off")  # (a compiler rejects it; loaded anyway to see the run-time report)
    with pytest.raises(BarrierDivergenceError, match=r"\.wgsl:6:5.*workgroup_id=\(0,0,0\)"):
        ash.run(module["main"], 1, schedule=ash.Lockstep(), sanitize="off",
                out=np.zeros(8, np.uint32))


def test_a_divergent_barrier_names_the_workgroup_id_in_a_later_chunk():
    """Chunks of 2 workgroups of 4 (max_lanes=8) over 3 x 2 workgroups: workgroup index 3 is
    the second of the second chunk, workgroup_id (0, 1, 0), which the error names, without
    the race detector as with it."""
    module = ash.load_wgsl("""
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) {
  if (w.y == 1u && w.x == 0u && i < 2u) {
    workgroupBarrier();
  }
  out[i] = i;
}
""", uniformity="off")
    for sanitize in ("off", "report"):
        with pytest.raises(BarrierDivergenceError, match=r"workgroup_id=\(0,1,0\)"):
            ash.run(module["main"], (3, 2), schedule=ash.Lockstep(max_lanes=8),
                    sanitize=sanitize, out=np.zeros(8, np.uint32))


def test_out_of_bounds_loads_are_zero_and_stores_are_dropped_as_under_inorder():
    module = ash.load_wgsl("""
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read> inp: array<u32>;
@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[gid.x * 2u] = inp[gid.x * 3u] + 1u;
}
""")
    out = assert_same_bits(module["main"], 1, out=np.zeros(10, np.uint32),
                           inp=np.arange(1, 13, dtype=np.uint32))
    assert list(out["out"]) == [2, 0, 5, 0, 8, 0, 11, 0, 1, 0]


def test_a_python_kernel_runs_through_to_wgsl_with_the_same_bits():
    boids = load_example("boids.py")
    start = boids.start(96)
    scalar, lockstep = both_ways(boids.update, 3, boids_in=start,
                                 boids_out=boids.Boid.zeros(96), params=boids.sim_params())
    assert scalar["boids_out"].tobytes() == lockstep["boids_out"].tobytes()
    assert np.abs(lockstep["boids_out"]["vel"]).max() > 0


def test_lockstep_runs_the_detector_by_default_and_refuses_coroutine_options():
    module = ash.load_wgsl(REDUCE)
    args = dict(inp=np.zeros(64, np.float32), out=np.zeros(64, np.float32))
    assert ash.run(module["main"], 1, schedule=ash.Lockstep(), **args).findings == []
    with pytest.raises(ValueError, match="sanitize= takes"):
        ash.run(module["main"], 1, schedule=ash.Lockstep(), sanitize="loud", **args)
    with pytest.raises(OptionError, match="instruments="):
        ash.run(module["main"], 1, schedule=ash.Lockstep(), sanitize="off",
                instruments=[ash.Footprints()], **args)


def compile_text(text, name="refused.wgsl"):
    source = Source(text, name)
    checker = Checker(resolve(parse(source), source))
    return Compiler(checker, checker.run()).compile("main")


def test_a_construct_lockstep_cannot_run_is_refused_with_its_line():
    with pytest.raises(WGSLError, match=r"refused\.wgsl:5:13.*not supported by Lockstep: "
                       r"a 'let' of type mat2x2h"):
        compile_text("""
enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1)
fn main() { let m = mat2x2<f16>(1.0h, 2.0h, 3.0h, 4.0h); out[0] = f32(m[0].x); }
""")
    with pytest.raises(WGSLError, match=r"refused\.wgsl:5:\d+.*not supported by Lockstep: "
                       r"textureLoad of texture_external"):
        compile_text("""
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var tex: texture_external;
@compute @workgroup_size(1)
fn main() { out[0] = textureLoad(tex, vec2i(0, 0)).x; }
""")


POINTERS = """
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> counts: array<u32>;
override SCALE: u32 = 3u;
@id(7) override BIAS: u32;
var<private> calls: u32;

fn bump(p: ptr<function, u32>, by: u32) -> u32 {
  *p = *p + by;
  calls += 1u;
  return *p * 2u;
}

fn add_into(p: ptr<storage, u32, read_write>, v: u32) {
  *p = *p + v;
}

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  var x = i;
  let twice = bump(&x, SCALE);
  if (i % 2u == 0u) { _ = bump(&x, 100u); }
  let slot = &out[i];
  *slot = x * 1000u + twice + BIAS;
  add_into(&counts[i], calls);
  add_into(&counts[i], 10u);
}
"""


def test_pointers_private_variables_and_constants_give_inorder_bits():
    module = ash.load_wgsl(POINTERS, constants={"BIAS": 5})
    assert_same_bits(module["main"], 2, out=np.zeros(8, np.uint32),
                     counts=np.zeros(8, np.uint32))
    with pytest.raises(OptionError, match="pipeline constants, given at load"):
        ash.run(module["main"], 1, schedule=ash.Lockstep(), sanitize="off",
                out=np.zeros(8, np.uint32), counts=np.zeros(8, np.uint32),
                overrides={"BIAS": 6})


def test_struct_values_give_inorder_bits():
    module = ash.load_wgsl(VALUES)
    given = module["Particle"].zeros(8)
    given["pos"] = np.arange(16, dtype=np.float32).reshape(8, 2) / 4
    given["vel"], given["tag"] = 1.5, np.arange(8) + 10
    assert_same_bits(module["main"], 2, src=given, dst=module["Particle"].zeros(8))


def test_pointers_private_variables_and_overrides():
    program = compile_text(POINTERS)   # (load_wgsl refuses pointer parameters yet)
    out, counts = np.zeros(8, np.uint32), np.zeros(8, np.uint32)
    run_program(program, {}, (2, 1, 1), {"out": out, "counts": counts}, constants={"7": 5})
    i = np.arange(8)
    x = i + 3 + np.where(i % 2 == 0, 100, 0)
    assert list(out) == list(x * 1000 + (i + 3) * 2 + 5)
    calls = np.where(i % 2 == 0, 2, 1)           # each lane's own private counter
    assert list(counts) == list(calls + 10)
    with pytest.raises(DispatchError, match=r"override BIAS has no initializer.*'7'"):
        run_program(program, {}, (1, 1, 1), {"out": out, "counts": counts})


SPIN = """
@group(0) @binding(0) var<storage, read_write> flag: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 1u) {
    while (atomicLoad(&flag[0]) == 0u) { }
  }
  if (i == 0u) { atomicStore(&flag[0], 1u); }
  out[i] = 1u;
}
"""


def test_a_loop_that_waits_for_another_lane_is_an_error_not_a_hang():
    program = compile_text(SPIN, "spin.wgsl")
    with pytest.raises(ash.StepLimitError, match=r"spin\.wgsl:7:5: a loop ran 1000 iterations "
                       r"in lockstep and lanes 1 are still in it.*coroutine schedule"):
        run_program(program, {}, (1, 1, 1), {"flag": np.zeros(1, np.uint32),
                                             "out": np.zeros(2, np.uint32)},
                    max_iterations=1000)


def test_a_lockstep_trace_of_a_loaded_kernel_names_its_schedule_and_replays_it():
    module = ash.load_wgsl(REDUCE)
    inp = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    result = ash.run(module["main"], 1, schedule=ash.Lockstep(max_lanes=128), sanitize="off",
                     inp=inp, out=out)
    assert result.trace.strategy == {"name": "lockstep", "max_lanes": 128,
                                     "max_iterations": 1 << 20}
    assert result.counters.invocations == 64
    assert out[63] == 2016.0 - 63.0  # (the sum 0 + 1 + ... + 63, less tile[63], untouched)
    again = np.zeros(64, np.float32)
    replayed = ash.run(module["main"], 1, schedule=result.trace, sanitize="off", inp=inp,
                       out=again)
    assert again.tobytes() == out.tobytes() and replayed.trace == result.trace


def test_chunks_of_whole_workgroups_give_the_same_memory_as_one_chunk():
    module = ash.load_wgsl(REDUCE)
    inp = np.random.default_rng(4).standard_normal(64 * 7).astype(np.float32)
    outs = []
    for max_lanes in (64, 128, 1 << 16):
        out = np.zeros(64 * 7, np.float32)
        ash.run(module["main"], 7, schedule=ash.Lockstep(max_lanes=max_lanes),
                sanitize="off", inp=inp, out=out)
        outs.append(out.tobytes())
    assert outs[0] == outs[1] == outs[2]


@pytest.mark.parametrize("bad", [0, -3, 2.5, True])
def test_lockstep_options_must_be_positive_ints(bad):
    with pytest.raises(OptionError, match="positive int"):
        ash.Lockstep(max_lanes=bad)
    with pytest.raises(OptionError, match="positive int"):
        ash.Lockstep(max_iterations=bad)


def test_lockstep_is_refused_where_it_cannot_run_the_dispatch_itself():
    module = ash.load_wgsl(REDUCE)
    steps = ash.stepper(module["main"], 1, inp=np.zeros(64, np.float32),
                        out=np.zeros(64, np.float32))
    with pytest.raises(OptionError, match="runs whole dispatches itself"):
        steps.run_with(ash.Lockstep())


def test_an_awaited_dispatch_runs_in_lockstep_too():
    import anyio

    module = ash.load_wgsl(REDUCE)
    inp = np.arange(128, dtype=np.float32)
    out = np.zeros(128, np.float32)

    async def main():
        return await ash.dispatch(module["main"], 2, schedule=ash.Lockstep(), sanitize="off",
                                  inp=inp, out=out)

    result = anyio.run(main)
    assert result.trace.strategy["name"] == "lockstep"
    expected = np.zeros(128, np.float32)
    ash.run(module["main"], 2, sanitize="off", inp=inp, out=expected)
    assert out.tobytes() == expected.tobytes()
    assert out[0] == 0.0 and out[64] == 0.0  # (the total less tile[0], which holds it)


def test_a_binding_the_entry_point_does_not_use_is_refused_as_under_inorder():
    module = ash.load_wgsl(REDUCE)
    args = dict(inp=np.zeros(64, np.float32), out=np.zeros(64, np.float32),
                extra=np.zeros(4, np.float32))
    for schedule in (ash.Lockstep(), ash.InOrder()):  # (the one resolution: the same words)
        with pytest.raises(ash.BindingError, match=r"main uses no binding 'extra'\n.*binds:\n"
                           r".* var<storage, read> inp"):
            ash.run(module["main"], 1, schedule=schedule, sanitize="off", **args)


def test_a_uniform_array_is_bound_from_a_numpy_array():
    program = compile_text("""
@group(0) @binding(0) var<uniform> weights: array<vec4f, 3>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(3)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = dot(weights[i], vec4f(1.0, 2.0, 3.0, 4.0));
}
""")
    weights = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = np.zeros(3, np.float32)
    run_program(program, {}, (1, 1, 1), {"weights": weights, "out": out})
    assert list(out) == list(weights @ np.array([1, 2, 3, 4], np.float32))


def test_a_warning_of_a_run_in_lockstep_names_the_wgsl_line():
    module = ash.load_wgsl("""
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = f32(i) - 2.0;
  out[i] = sqrt(x);
}
""")
    out = np.zeros(4, np.float32)
    with pytest.warns(ash.WGSLIndeterminateWarning) as caught:
        ash.run(module["main"], 1, schedule=ash.Lockstep(), sanitize="off", out=out)
    assert caught[0].filename == module.name and caught[0].lineno == 6
    assert np.isnan(out[:2]).all() and list(out[2:]) == [0.0, 1.0]
