"""f16 (WGSL's ``enable f16;``) under Lockstep: f16 scalars and vectors as values (locals,
struct and array values, ``var<private>``, parameters and results, overrides), their
arithmetic, conversions and built-ins leave the same bits as the coroutine runtime under
InOrder, whose f16 is numpy's binary16 (each ``+ - * /`` rounded once to f16) and whose f16
built-ins are the f32 kernels rounded to f16. f16 in memory is refused with its line."""

import warnings

import numpy as np
import pytest
from test_lockstep_schedule import compile_text

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


def test_f16_in_memory_is_refused_with_its_line():
    with pytest.raises(WGSLError, match=r"refused\.wgsl:3:\d+.*not supported by Lockstep: "
                       r"a var<workgroup> of type array<f16, 8>"):
        compile_text("""
enable f16;
var<workgroup> tile: array<f16, 8>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) { tile[i] = 1.0h; out[i] = f32(tile[i]); }
""")
    with pytest.raises(WGSLError, match=r"refused\.wgsl:5:\d+.*not supported by Lockstep: "
                       r"a load of f16 from memory"):
        compile_text("""
enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@compute @workgroup_size(1)
fn main() { out[1] = out[0]; }
""")
