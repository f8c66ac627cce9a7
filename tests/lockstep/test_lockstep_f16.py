"""f16 (WGSL's ``enable f16;``) under Lockstep: f16 scalars and vectors as values (locals,
struct and array values, ``var<private>``, parameters and results, overrides), their
arithmetic, conversions and built-ins leave the same bits as the coroutine runtime under
InOrder, whose f16 is numpy's binary16 (each ``+ - * /`` rounded once to f16) and whose f16
built-ins are the f32 kernels rounded to f16; f16 in storage, uniform and workgroup memory
too (2-byte addresses), without the race detector (with it, it is refused with its line)."""

import warnings

import numpy as np
import pytest

import asyncshader as ash
from asyncshader.front.wgsl.source import WGSLError
from asyncshader.ir.types import BOOL, F16, Vector
from asyncshader.lockstep import builtins as vb


def run_both(module, n, **bindings):
    """The storage arrays after an InOrder run and after a Lockstep run, on copies, with
    the warnings of out-of-range values (the same in both) silenced."""
    results = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        copies = {k: v.copy() for k, v in bindings.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ash.run(module["main"], n, schedule=schedule, sanitize="off", **copies)
        results.append(copies)
    return results


def edge_inputs(n, seed):
    """f32 inputs whose f16 roundings cover zeros, signs, subnormals, ties, the f16 range's
    end (65504, 65519.99 -> 65504, 65520 -> inf), inf and NaN."""
    rng = np.random.default_rng(seed)
    v = (rng.standard_normal(n) * 10.0 ** rng.integers(-6, 5, n)).astype(np.float32)
    v[:14] = [0.0, -0.0, 1.0, -1.0, 65504.0, 65519.99, 65520.0, -7e4, 6e-8, 3e-5,
              np.inf, np.nan, 2049.0, 0.1]
    return v


ARITHMETIC = """
enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<storage, read> inp: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let a = f16(inp[i]);
  let b = f16(inp[i + 256u]);
  let v = vec3h(a, b, a * b) * 1.5h + vec3h(b / a, a % b, -a - b);
  let k = 16u * i;
  // (each result in its own f32, exactly: no f32 arithmetic on NaNs)
  out[k] = f32(v.x);
  out[k + 1u] = f32(v.y);
  out[k + 2u] = f32(v.z);
  out[k + 3u] = f32(i32(a)) + f32(u32(b)) * 0.5;
  out[k + 4u] = f32(f16(i32(i) - 100) * a);
  out[k + 5u] = f32(select(a, b, a < b) + min(a, b) * 3.0h + floor(v).y);
  out[k + 6u] = f32(sqrt(abs(a)));
  out[k + 7u] = f32(dot(v, v.zxy));
  out[k + 8u] = f32(length(v.xy));
  out[k + 9u] = f32(exp(b * 0.01h));
  out[k + 10u] = f32(pow(abs(a), 0.5h));
  out[k + 11u] = f32(sin(a));
  out[k + 12u] = f32(fma(a, b, 1.0h));
  out[k + 13u] = f32(normalize(v + vec3h(1.0h)).z);
  out[k + 14u] = f32(clamp(a, -2.0h, 3.5h));
  out[k + 15u] = f32(distance(v, vec3h(b)) + f16(u32(i)) * a);
}
"""


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_f16_arithmetic_conversions_and_built_ins_give_inorder_bits(seed):
    module = ash.load_wgsl(ARITHMETIC)
    inp = np.concatenate([edge_inputs(256, seed), edge_inputs(256, seed + 10)[::-1]])
    scalar, lockstep = run_both(module, 4, out=np.zeros(16 * 256, np.float32), inp=inp)
    assert scalar["out"].tobytes() == lockstep["out"].tobytes()
    out = lockstep["out"].reshape(256, 16)
    assert out[4, 0] == np.inf  # (65504 * 1.5 past the f16 range)
    a, b = np.float16(inp[16]), np.float16(inp[272])  # (numpy: one rounding from f32)
    assert out[16, 0] == np.float32(a * np.float16(1.5) + b / a)
    assert out[16, 12] == np.float32(np.float16(np.float64(a) * np.float64(b) + 1.0))


VALUES = """
enable f16;
struct Pair { h: vec2<f16>, w: f32, n: array<f16, 3> }
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<storage, read> inp: array<f32>;
override SCALE: f16 = 0.333h;
var<private> acc: f16;

fn mix3(p: Pair, t: f16) -> vec2h {
  acc += t;
  return p.h * t + vec2h(p.n[1], p.n[2]);
}

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
  var p = Pair(vec2h(f16(inp[i]), 0.25h), inp[i + 32u], array<f16, 3>(1.0h, 2.0h, 3.0h));
  p.n[i % 3u] = f16(p.w) * SCALE;
  var t = 0.0h;
  for (var k = 0u; k < 4u; k++) {
    if (f16(k) > p.h.x) { continue; }
    t += mix3(p, f16(k) * 0.1h).x;
  }
  let m = mat2x2<f32>(1.0, 2.0, 3.0, 4.0) * vec2f(f32(t), f32(acc));
  out[i] = m.x + f32(p.n[0]) * 10.0 + f32(acc) * 100.0;
}
"""


def test_f16_locals_structs_arrays_private_variables_overrides_and_calls():
    module = ash.load_wgsl(VALUES)
    inp = np.concatenate([np.linspace(-1, 5, 32), edge_inputs(32, 6)]).astype(np.float32)
    scalar, lockstep = run_both(module, 1, out=np.zeros(32, np.float32), inp=inp)
    assert scalar["out"].tobytes() == lockstep["out"].tobytes()
    given = ash.load_wgsl(VALUES, constants={"SCALE": 3.0})
    scalar3, lockstep3 = run_both(given, 1, out=np.zeros(32, np.float32), inp=inp)
    assert scalar3["out"].tobytes() == lockstep3["out"].tobytes()
    assert (lockstep3["out"] != lockstep["out"]).any()  # (the pipeline constant is used)


H3 = Vector(3, F16)


@pytest.mark.parametrize("name,types,result", [
    ("min", [F16, F16], F16), ("max", [H3, H3], H3), ("clamp", [F16, F16, F16], F16),
    ("abs", [H3], H3), ("floor", [F16], F16), ("ceil", [H3], H3), ("trunc", [F16], F16),
    ("sqrt", [H3], H3), ("dot", [H3, H3], F16), ("length", [H3], F16),
    ("distance", [H3, H3], F16), ("normalize", [H3], H3), ("select", [H3, H3, BOOL], H3),
])
def test_an_f16_built_in_gives_the_scalar_built_ins_bits(name, types, result):
    L = 200
    args = []
    for seed, t in enumerate(types):
        if t == BOOL:
            args.append(np.random.default_rng(seed).random(L) < 0.5)
            continue
        shape = (t.size, L) if isinstance(t, Vector) else (L,)
        with np.errstate(over="ignore"):
            args.append(edge_inputs(int(np.prod(shape)), seed).astype(np.float16)
                        .reshape(shape))
    if name == "clamp":
        args[1], args[2] = np.minimum(args[1], args[2]), np.maximum(args[1], args[2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            got = vb.call(name, args, types, result, None, L)
            slow = vb.per_lane(vb.scalar_function(name), args, types, result, None, L)
    got = np.asarray(got)
    assert got.dtype == np.float16 or result == BOOL
    assert got.tobytes() == slow.tobytes()


MEMORY = """
enable f16;
struct P { a: f16, b: f16, c: vec3<f16>, w: f32, h: array<f16, 3> }
struct H { x: f16, y: vec2h }
struct U { s: f16, o: vec2h }
var<workgroup> tile: array<f16, 64>;
var<workgroup> hs: array<H, 8>;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@group(0) @binding(1) var<storage, read> inp: array<f16>;
@group(0) @binding(2) var<storage, read_write> ps: array<P>;
@group(0) @binding(3) var<storage, read_write> v2: array<vec2h>;
@group(0) @binding(4) var<uniform> u: U;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32, @builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  tile[l] = inp[i] * u.s;
  if (l < 8u) { hs[l] = H(inp[i], vec2h(f16(l), 1.5h) + u.o); }
  workgroupBarrier();
  if (i < arrayLength(&out)) {
    out[i] = tile[63u - l] + hs[l % 8u].y.x + f16(arrayLength(&out));
  }
  if (i < arrayLength(&ps)) {
    var p = ps[i];
    p.b = p.a + p.h[i % 3u];
    p.c = p.c.zyx * inp[i];
    p.w = f32(p.c.x);
    ps[i] = p;
    ps[i].h[1] = hs[i % 8u].x;
  }
  v2[i] = vec2h(inp[i], -inp[i]);
  v2[i].y += 1.0h;
}
"""


def test_f16_in_storage_uniform_and_workgroup_memory_gives_inorder_bits():
    module = ash.load_wgsl(MEMORY)
    rng = np.random.default_rng(3)
    inp = (rng.standard_normal(128) * 10).astype(np.float16)
    ps = module["P"].zeros(37)  # (f16 members at byte offsets 0, 2, 8, 20; f32 at 16)
    for name in ps.dtype.names:
        ps[name] = rng.standard_normal(ps[name].shape)
    uniform = module["U"].zeros(1)
    uniform["s"], uniform["o"] = 2.0, (0.25, -3.0)
    outs = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        bound = dict(out=np.zeros(127, np.float16), inp=inp, ps=ps.copy(),
                     v2=np.zeros((128, 2), np.float16), u=uniform)
        ash.run(module["main"], 2, schedule=schedule, sanitize="off", **bound)
        outs.append(bound)
    scalar, lockstep = outs
    for name in ("out", "v2"):
        assert scalar[name].tobytes() == lockstep[name].tobytes(), name
    for name in ps.dtype.names:
        assert scalar["ps"][name].tobytes() == lockstep["ps"][name].tobytes(), name
    # by hand: arrayLength is the 127 bound f16s (not the 128 of the padded words)
    assert lockstep["out"][5] == np.float16(inp[63 - 5] * np.float16(2)) + np.float16(5.25) \
        + np.float16(127)
    assert lockstep["v2"].tolist() == np.stack([inp, -inp + np.float16(1)], 1).tolist()
    assert lockstep["ps"]["w"][4] == np.float32(np.float16(ps["c"][4][2] * inp[4]))


def test_f16_in_memory_with_the_race_detector_is_refused_with_its_line():
    module = ash.load_wgsl("""
enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3u) { out[gid.x] = 1.0h; }
""")
    with pytest.raises(WGSLError, match=r"\.wgsl:5:\d+.*not supported by Lockstep: f16 in "
                       r"memory with the race detector \(run it with sanitize=\"off\"\)"):
        ash.run(module["main"], 1, schedule=ash.Lockstep(), out=np.zeros(4, np.float16))
    out = np.zeros(4, np.float16)
    ash.run(module["main"], 1, schedule=ash.Lockstep(), sanitize="off", out=out)
    assert out.tolist() == [1.0] * 4
