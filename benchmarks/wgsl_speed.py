"""A loaded WGSL kernel (``ash.load_wgsl``) against the equivalent hand-written Python kernel:
a 256-wide tree reduction (benchmarks/reduce.py's ``reduce256``), the tiled matrix product of
examples/matmul.py (``matmul_tiled``) and an N-body step over a struct buffer (each body
reads every other body's position). The WGSL of each is written as a WGSL author would write
the same algorithm (the same loops, barriers, loads and stores; the same read_write/read
access as the Python kernel's bindings). The two kernels alternate (``--repeat`` rounds, best
of each) with the race detector on (the default) and off; the figure is loaded / hand-written
in invocations per second (1.0: the same speed; the target is >= 0.9). Every run checks its
output against the other kernel's (bit for bit: both run on the same runtime).

Then the load time of a ~300-line module (the three shaders and helper functions; a fresh
text each time, so nothing is cached) and of a cached reload of the same text.

    python benchmarks/wgsl_speed.py [--groups 8] [--bodies 256] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from reduce import N as REDUCE_N
from reduce import reduce256

import asyncshader as ash
from asyncshader import f32, vec3f, vec3u, vec4f

REDUCE = """\
var<workgroup> tile: array<f32, 256>;
@group(0) @binding(0) var<storage, read_write> inp: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(256)
fn reduce(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) wid: vec3u) {
    tile[i] = inp[wid.x * 256u + i];
    workgroupBarrier();
    var s = 128u;
    while (s > 0u) {
        if (i < s) {
            tile[i] += tile[i + s];
        }
        workgroupBarrier();
        s /= 2u;
    }
    if (i == 0u) {
        out[wid.x] = tile[0];
    }
}
"""

MATMUL = """\
const TILE = 8u;
var<workgroup> tile_a: array<f32, 64>;
var<workgroup> tile_b: array<f32, 64>;
@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> m: u32;
@group(0) @binding(4) var<uniform> n: u32;
@group(0) @binding(5) var<uniform> k: u32;

@compute @workgroup_size(8, 8)
fn matmul(@builtin(local_invocation_id) lid: vec3u, @builtin(global_invocation_id) gid: vec3u) {
    let lx = lid.x;
    let ly = lid.y;
    let col = gid.x;
    let row = gid.y;
    var acc = 0.0;
    let num_tiles = (k + TILE - 1u) / TILE;
    for (var t = 0u; t < num_tiles; t++) {
        let a_col = t * TILE + lx;
        let b_row = t * TILE + ly;
        var va = 0.0;
        if (row < m && a_col < k) {
            va = a[row * k + a_col];
        }
        tile_a[ly * TILE + lx] = va;
        var vb = 0.0;
        if (b_row < k && col < n) {
            vb = b[b_row * n + col];
        }
        tile_b[ly * TILE + lx] = vb;
        workgroupBarrier();
        for (var j = 0u; j < TILE; j++) {
            acc += tile_a[ly * TILE + j] * tile_b[j * TILE + lx];
        }
        workgroupBarrier();
    }
    if (row < m && col < n) {
        c[row * n + col] = acc;
    }
}
"""

NBODY = """\
struct Body {
    pos: vec4f,
    vel: vec4f,
}
@group(0) @binding(0) var<storage, read> bodies_in: array<Body>;
@group(0) @binding(1) var<storage, read_write> bodies_out: array<Body>;

@compute @workgroup_size(64)
fn nbody(@builtin(global_invocation_id) gid: vec3u) {
    let i = gid.x;
    let p = bodies_in[i].pos.xyz;
    var acc = vec3f(0.0);
    for (var j = 0u; j < arrayLength(&bodies_in); j++) {
        let q = bodies_in[j].pos;
        let d = q.xyz - p;
        let r2 = dot(d, d) + 0.01;
        acc += d * (q.w * inverseSqrt(r2 * r2 * r2));
    }
    let v = bodies_in[i].vel.xyz + acc * 0.01;
    bodies_out[i] = Body(vec4f(p + v * 0.01, bodies_in[i].pos.w), vec4f(v, 0.0));
}
"""

# ---------------------------------------------------------------- the hand-written kernels
TILE = 8
tile_a = ash.workgroup(ash.array(f32, TILE * TILE))
tile_b = ash.workgroup(ash.array(f32, TILE * TILE))


@ash.compute(workgroup_size=(TILE, TILE))
async def matmul_tiled(a: ash.Storage, b: ash.Storage, c: ash.Storage, m: ash.u32,
                       n: ash.u32, k: ash.u32, *, local_invocation_id: vec3u,
                       global_invocation_id: vec3u):
    """examples/matmul.py's kernel (its module-scope tiles made here: one file to time)."""
    lx, ly = local_invocation_id.x, local_invocation_id.y
    col, row = global_invocation_id.x, global_invocation_id.y
    acc = f32(0)
    num_tiles = (k + TILE - 1) // TILE
    for t in range(num_tiles):
        a_col = t * TILE + lx
        b_row = t * TILE + ly
        tile_a[ly * TILE + lx] = a[row * k + a_col] if row < m and a_col < k else f32(0)
        tile_b[ly * TILE + lx] = b[b_row * n + col] if b_row < k and col < n else f32(0)
        await ash.workgroup_barrier()
        for j in range(TILE):
            acc += tile_a[ly * TILE + j] * tile_b[j * TILE + lx]
        await ash.workgroup_barrier()
    if row < m and col < n:
        c[row * n + col] = acc


@ash.struct
class Body:
    pos: vec4f
    vel: vec4f


@ash.compute(workgroup_size=64)
async def nbody(bodies_in: ash.ReadOnly[Body], bodies_out: ash.Storage[Body], *,
                global_invocation_id: vec3u):
    i = global_invocation_id.x
    p = bodies_in[i].pos.xyz
    acc = vec3f(0.0)
    for j in range(ash.array_length(bodies_in)):
        q = bodies_in[j].pos
        d = q.xyz - p
        r2 = ash.dot(d, d) + 0.01
        acc += d * (q.w * ash.inverse_sqrt(r2 * r2 * r2))
    v = bodies_in[i].vel.xyz + acc * 0.01
    bodies_out[i] = Body(vec4f(p + v * 0.01, bodies_in[i].pos.w), vec4f(v, 0.0))


# ------------------------------------------------------------------------------- the cases
def cases(groups: int, bodies: int) -> list[tuple]:
    """(name, hand-written kernel, loaded kernel, workgroups, invocations, bindings maker)."""
    rng = np.random.default_rng(0)
    inp = rng.random(groups * REDUCE_N, dtype=np.float32)
    side = 8 * groups  # (a side x side product: groups x groups workgroups)
    a, b = rng.random(side * side, np.float32), rng.random(side * side, np.float32)
    start = Body.zeros(bodies)
    start["pos"] = rng.random((bodies, 4), np.float32)
    start["vel"] = rng.random((bodies, 4), np.float32) * 0.1
    loaded_body = ash.load_wgsl(NBODY)["Body"]

    def reduce_args(loaded):
        return {"inp": inp.copy(), "out": np.zeros(groups, np.float32)}

    def matmul_args(loaded):
        return {"a": a.copy(), "b": b.copy(), "c": np.zeros(side * side, np.float32),
                "m": side, "n": side, "k": side}

    def nbody_args(loaded):
        dtype = loaded_body.dtype if loaded else Body.dtype
        return {"bodies_in": start.view(np.ndarray).astype(dtype),
                "bodies_out": np.zeros(bodies, dtype)}

    return [
        ("reduce (256-wide tree)", reduce256, ash.load_wgsl(REDUCE)["reduce"], groups,
         groups * REDUCE_N, reduce_args),
        (f"tiled matmul {side}x{side}", matmul_tiled, ash.load_wgsl(MATMUL)["matmul"],
         (groups, groups), side * side, matmul_args),
        (f"N-body, {bodies} bodies", nbody, ash.load_wgsl(NBODY)["nbody"], bodies // 64,
         bodies, nbody_args),
    ]


def module_300_lines(tag: int) -> str:
    """A ~300-line module: the three shaders and helper functions, made unique by ``tag``
    (a comment) so that each load is a fresh one."""
    helpers = []
    for h in range(12):
        helpers.append(f"""\
fn helper{h}(x: u32, y: f32) -> f32 {{
    var acc = y;
    for (var i = 0u; i < x; i++) {{
        if (i % 3u == {h % 3}u) {{
            acc = acc * 0.5 + f32(i);
        }} else {{
            acc = max(acc - 1.0, f32({h}));
        }}
    }}
    switch x % 4u {{
        case 0u, 1u: {{ acc += 1.0; }}
        default: {{ acc = sqrt(abs(acc)); }}
    }}
    return acc;
}}
""")
    body = "\n".join([REDUCE, MATMUL.replace("@group(0)", "@group(1)"),
                      NBODY.replace("@group(0)", "@group(2)"), *helpers])
    return f"// module {tag}\n" + body


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=8)
    parser.add_argument("--bodies", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"asyncshader: loaded WGSL / hand-written Python, best of {args.repeat} alternating "
          "rounds; invocations/s")
    print(f"{'kernel':<26} {'sanitize=':<10} {'hand-written':>14} {'loaded WGSL':>14} "
          f"{'ratio':>7}")
    for name, hand, loaded, workgroups, invocations, make in cases(args.groups, args.bodies):
        for sanitize in ("report", "off"):
            best = {"hand": float("inf"), "loaded": float("inf")}
            outputs = {}
            for _ in range(args.repeat):
                for side, kernel in (("hand", hand), ("loaded", loaded)):
                    given = make(side == "loaded")
                    t0 = time.perf_counter()
                    ash.run(kernel, workgroups, sanitize=sanitize, **given)
                    best[side] = min(best[side], time.perf_counter() - t0)
                    outputs[side] = {k: v.tobytes() for k, v in given.items()
                                     if isinstance(v, np.ndarray)}
            assert outputs["hand"] == outputs["loaded"], name  # (each run checks the other)
            rate = {k: invocations / t for k, t in best.items()}
            print(f"{name:<26} {sanitize:<10} {rate['hand']:>14,.0f} {rate['loaded']:>14,.0f} "
                  f"{rate['loaded'] / rate['hand']:>7.2f}")
    text = module_300_lines(0)
    lines = text.count("\n")
    cold, cpu = [], []
    for r in range(args.repeat):
        source = module_300_lines(time.perf_counter_ns() + r)
        t0, c0 = time.perf_counter(), time.process_time()
        ash.load_wgsl(source)
        cold.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    ash.load_wgsl(text)
    t0 = time.perf_counter()
    for _ in range(100):
        ash.load_wgsl(text)
    cached = (time.perf_counter() - t0) / 100
    print(f"load_wgsl of a {lines}-line module: {1000 * min(cold):.1f} ms (best of "
          f"{args.repeat} fresh texts; {1000 * min(cpu):.1f} ms of CPU time; target < 200 "
          f"ms), cached reload {1e6 * cached:.1f} us")


if __name__ == "__main__":
    main()
