"""Lockstep against InOrder and lavapipe, on the same kernels:
webgpu-samples' compute boids (its WGSL, through load_wgsl), a boids step in Python
(examples/boids.py: struct buffers, each invocation looping over every boid), the
256-wide tree reduction (benchmarks/reduce.py), the tiled matmul (examples/matmul.py), a 3x3
blur (benchmarks/detector_kernels.py's, written here with loops WGSL has), the 256x256
fragment dispatch of benchmarks/fragments.py (dpdx and dpdy in every fragment) and of
examples/textured_floor.py's textureSample (its level of detail from the quads), and a
bilinear textureSampleLevel of a 256x256 rgba8unorm texture at each of 256x256 invocations
(WGSL, through load_wgsl) beside the same kernel loading a vec4f storage buffer instead.
Each row checks that Lockstep leaves the same bits as InOrder (memory, or the fragments'
output), then prints both times and their ratio, measured in this run, and lavapipe's time
for the same WGSL (``to_wgsl``) where wgpu is installed: one dispatch (a draw for the
fragments) with its pipeline, buffer (and texture) uploads and read-back, best of
``--repeat`` (at least 3). The first table is ``sanitize="off"`` on both sides; the second
has the race detector on both sides (the default, ``"report"``: the coroutine detector under
InOrder, the vectorised one under Lockstep; the compute rows, as Lockstep's detector watches
compute dispatches) and checks that both find the same (no races here).

    python benchmarks/lockstep.py [--boids 1024] [--groups 64] [--fragments 256]
                                  [--rows 256] [--repeat 3] [--no-gpu]
                                  [--sanitize off|report|both] [--detector-cost]

``--detector-cost`` measures only Lockstep, with its detector and without, alternating within
each round (best of ``--repeat``): what the vectorised detector costs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
sys.path.insert(0, os.path.dirname(__file__))

import boids  # examples/boids.py
import fragments  # benchmarks/fragments.py
import matmul as tiled  # examples/matmul.py
import reduce as reduction
import textured_floor  # examples/textured_floor.py

import asyncshader as ash

H = W = 64


@ash.compute(workgroup_size=(8, 8))
async def blur(src: ash.Storage, dst: ash.Storage, *, global_invocation_id: ash.vec3u):
    """3x3 box blur with clamped edges (benchmarks/detector_kernels.py's, in loops WGSL
    writes)."""
    x, y = ash.i32(global_invocation_id.x), ash.i32(global_invocation_id.y)
    s = ash.f32(0.0)
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            yy = min(max(y + dy, 0), H - 1)
            xx = min(max(x + dx, 0), W - 1)
            s += src[yy * W + xx]
    dst[y * W + x] = s / 9.0


def _bits(a: np.ndarray) -> list[bytes]:
    if a.dtype.names:
        return [np.ascontiguousarray(a[n]).tobytes() for n in a.dtype.names]
    return [a.tobytes()]


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _lavapipe(kernel, groups, bindings, repeat: int) -> float | None:
    if any(isinstance(v, (ash.Texture, ash.Sampler)) for v in bindings.values()):
        return _lavapipe_textures(kernel, groups, bindings, repeat)
    try:
        from asyncshader.emit import emit
        from asyncshader.extra.gpu import _device, _run_compute
        dev = _device()
    except Exception:  # (no wgpu, no adapter: the column stays empty)
        return None
    code = _loaded(kernel) or emit(kernel, **bindings)
    size = groups if isinstance(groups, tuple) else (groups, 1, 1)
    size = tuple(size) + (1,) * (3 - len(size))
    _run_compute(dev, code, size, bindings)  # (the first: the device's start-up)
    return _best(lambda: _run_compute(dev, code, size, bindings), max(repeat, 3))


def _lavapipe_textures(kernel, groups, bindings, repeat: int) -> float | None:
    """lavapipe's time for a loaded WGSL kernel with textures (group 0, 1-d dispatch)."""
    try:
        from asyncshader.extra.textures import run_compute
        from asyncshader.front.wgsl import reflect_wgsl
    except Exception:
        return None
    code = _loaded(kernel)
    entry = reflect_wgsl(code.source).entry_points[code.entry]
    resources = {r.binding: bindings[r.name] for r in entry.resources}
    try:
        run_compute(code.source, resources, groups, code.entry)  # (the device's start-up)
    except Exception:  # (no wgpu, no adapter: the column stays empty)
        return None
    return _best(lambda: run_compute(code.source, resources, groups, code.entry),
                 max(repeat, 3))


SAMPLE_BILINEAR = """\
@group(0) @binding(0) var<storage, read_write> out: array<vec4f>;
@group(0) @binding(1) var tex: texture_2d<f32>;
@group(0) @binding(2) var smp: sampler;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  let uv = (vec2f(f32(i % 256u), f32(i / 256u)) + vec2f(0.3, 0.7)) / 256.0;
  out[i] = textureSampleLevel(tex, smp, uv, 0.0);
}
"""


BUFFER_LOAD = """\
@group(0) @binding(0) var<storage, read_write> out: array<vec4f>;
@group(0) @binding(1) var<storage, read> inp: array<vec4f>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  let uv = (vec2f(f32(i % 256u), f32(i / 256u)) + vec2f(0.3, 0.7)) / 256.0;
  out[i] = inp[u32(uv.y * 256.0) * 256u + u32(uv.x * 256.0)];
}
"""


def buffer_load(size: int) -> tuple:
    """The bilinear row's kernel with a vec4f storage buffer load in place of the sample
    (the cost a sample is measured against)."""
    n = size * 256
    inp = np.random.default_rng(3).random((256 * 256, 4), dtype=np.float32)
    return (f"vec4f buffer load {size}x256", ash.load_wgsl(BUFFER_LOAD)["main"], n // 64,
            dict(out=np.zeros((n, 4), np.float32), inp=inp), "out")


def bilinear(size: int) -> tuple:
    """A bilinear textureSampleLevel per invocation, ``size`` x 256 invocations (256 x 256
    by default) over a 256x256 rgba8unorm texture."""
    rng = np.random.default_rng(3)
    n = size * 256
    texture = ash.Texture([rng.integers(0, 256, (256, 256, 4), dtype=np.uint8)])
    smp = ash.Sampler(mag_filter="linear", min_filter="linear")
    return (f"bilinear textureSampleLevel {size}x256", ash.load_wgsl(SAMPLE_BILINEAR)["main"],
            n // 64, dict(out=np.zeros((n, 4), np.float32), tex=texture, smp=smp), "out")


SAMPLES_BOIDS = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "ports",
                             "webgpu-samples_computeBoids_updateSprites.wgsl")


def samples_boids(n: int) -> tuple:
    """webgpu-samples' compute boids, its WGSL as published (load_wgsl), on ``n`` particles
    (a multiple of its workgroup size, 64)."""
    module = ash.load_wgsl(SAMPLES_BOIDS)
    particle, params = module["Particle"], module["SimParams"]
    rng = np.random.default_rng(0)
    a = particle.zeros(n)
    a["pos"] = rng.random((n, 2)) * 2 - 1
    a["vel"] = (rng.random((n, 2)) * 2 - 1) * 0.1
    values = params(deltaT=0.04, rule1Distance=0.1, rule2Distance=0.025, rule3Distance=0.025,
                    rule1Scale=0.02, rule2Scale=0.05, rule3Scale=0.005)
    return (f"webgpu-samples boids {n} (WGSL)", module["main"], n // 64,
            dict(params=values, particlesA=a, particlesB=particle.zeros(n)), "particlesB")


def _loaded(kernel):
    """A loaded WGSL kernel's own module, as the emitter's result (None for a Python kernel)."""
    import linecache

    from asyncshader.emit.module import Binding, Emitted
    from asyncshader.front.wgsl import reflect_wgsl

    filename = kernel.fn.__code__.co_filename
    if not filename.endswith(".wgsl"):
        return None
    text = "".join(linecache.getlines(filename))
    entry = reflect_wgsl(text).entry_points[kernel.fn.__name__]
    bindings = [Binding(r.name, r.binding, "read" if r.access == "read" else r.kind, r.type,
                        r.name, r.group) for r in entry.resources]
    return Emitted(text, kernel.fn.__name__, "compute", kernel.workgroup_size, bindings)


def cases(n_boids: int, groups: int, rows: int = 256
          ) -> list[tuple[str, object, object, dict, str]]:
    """(title, kernel, workgroups, bindings, output name) per benchmark."""
    rng = np.random.default_rng(5)
    size = 64
    a, b = rng.random(size * size, dtype=np.float32), rng.random(size * size, dtype=np.float32)
    image = rng.random(H * W, dtype=np.float32)
    return [
        samples_boids(max(64, n_boids // 64 * 64)),
        (f"boids {n_boids} (examples/boids.py)", boids.update, -(-n_boids // boids.GROUP),
         dict(boids_in=boids.start(n_boids), boids_out=boids.Boid.zeros(n_boids),
              params=boids.sim_params()), "boids_out"),
        (f"reduce 256-wide x {groups} groups", reduction.reduce256, groups,
         dict(inp=rng.random(256 * groups, dtype=np.float32),
              out=np.zeros(groups, np.float32)), "out"),
        (f"tiled matmul {size}^3 (examples/matmul.py)", tiled.matmul_tiled,
         (size // tiled.TILE, size // tiled.TILE),
         dict(a=a, b=b, c=np.zeros_like(a), m=size, n=size, k=size), "c"),
        (f"3x3 blur {H}x{W}", blur, (W // 8, H // 8),
         dict(src=image, dst=np.zeros_like(image)), "dst"),
        buffer_load(rows),
        bilinear(rows),
    ]


def _lavapipe_fragments(shader, size: int, repeat: int, bindings: dict | None = None
                        ) -> float | None:
    try:
        from asyncshader.extra.gpu import _buffers, _device
        from asyncshader.extra.harness import fragment_harness, read_pixels
        dev = _device()
    except Exception:  # (no wgpu, no adapter: the column stays empty)
        return None
    bindings = bindings or {}
    harness = fragment_harness(shader, size, size, bindings)
    read_pixels(dev, harness, size, size, bindings, _buffers)  # (the device's start-up)
    return _best(lambda: read_pixels(dev, harness, size, size, bindings, _buffers),
                 max(repeat, 3))


def fragment_row(size: int, args) -> tuple[str, float, float, float | None]:
    """The 256x256 fragment dispatch of benchmarks/fragments.py (its ``shade``: dpdx and dpdy
    of position.x * position.y): (title, InOrder's time, Lockstep's, lavapipe's)."""
    outputs = {}

    def run(schedule):
        outputs[type(schedule).__name__] = ash.run_fragments(
            fragments.shade, size, size, schedule=schedule, sanitize="off").output
    run(ash.Lockstep())  # (compiles once)
    slow = _best(lambda: run(ash.InOrder()), args.inorder_repeat)
    fast = _best(lambda: run(ash.Lockstep()), args.repeat)
    if outputs["InOrder"].tobytes() != outputs["Lockstep"].tobytes():
        raise SystemExit("fragments: Lockstep's output differs from InOrder's")
    gpu = None if args.no_gpu else _lavapipe_fragments(fragments.shade, size, args.repeat)
    return f"fragments {size}x{size}, dpdx + dpdy", slow, fast, gpu


def textured_row(size: int, args) -> tuple[str, float, float, float | None]:
    """examples/textured_floor.py's fragment shader (``textureSample``: each quad's level of
    detail from its derivatives) over a ``size`` x ``size`` floor: (title, InOrder's time,
    Lockstep's, lavapipe's)."""
    y, x = np.mgrid[0:size, 0:size]
    below = y + 0.5 - textured_floor.HORIZON
    uv = np.stack([(x + 0.5 - size / 2) * textured_floor.HEIGHT_OVER_TILE / below,
                   textured_floor.HEIGHT_OVER_TILE * textured_floor.FOCAL / below],
                  -1).astype(np.float32)
    given = dict(uv=uv, tex=textured_floor.tinted_chain(),
                 smp=ash.Sampler(address_mode_u="repeat", address_mode_v="repeat"))
    outputs = {}

    def run(schedule):
        outputs[type(schedule).__name__] = ash.run_fragments(
            textured_floor.textured_floor, size, size, schedule=schedule, sanitize="off",
            **given).output
    run(ash.Lockstep())  # (compiles once)
    slow = _best(lambda: run(ash.InOrder()), args.inorder_repeat)
    fast = _best(lambda: run(ash.Lockstep()), args.repeat)
    if outputs["InOrder"].tobytes() != outputs["Lockstep"].tobytes():
        raise SystemExit("textured fragments: Lockstep's output differs from InOrder's")
    gpu = None if args.no_gpu else _lavapipe_fragments(textured_floor.textured_floor, size,
                                                       args.repeat, given)
    return f"textureSample fragments {size}x{size}", slow, fast, gpu


def _row(title: str, slow: float, fast: float, gpu: float | None) -> str:
    gpu_cols = (f"{gpu * 1e3:8.1f}ms {fast / gpu:17.1f}x" if gpu is not None
                else f"{'-':>10s} {'-':>18s}")
    return f"{title:40s} {slow:9.3f}s {fast * 1e3:8.1f}ms {slow / fast:8.0f}x {gpu_cols}"


def _table(sanitize: str, args, rows) -> None:
    """One table: every kernel under InOrder and Lockstep with ``sanitize``."""
    print(f"sanitize={sanitize!r}")
    print(f"{'kernel':40s} {'InOrder':>10s} {'Lockstep':>10s} {'speed-up':>9s} "
          f"{'lavapipe':>10s} {'Lockstep/lavapipe':>18s}")
    for title, kernel, groups, given, out in rows:
        memory, found = {}, {}

        def run(schedule, given=given, kernel=kernel, groups=groups, memory=memory,
                found=found):
            copies = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in given.items()}
            r = ash.run(kernel, groups, schedule=schedule, sanitize=sanitize, **copies)
            memory[type(schedule).__name__] = copies
            found[type(schedule).__name__] = ash.render_findings(r.findings)
        run(ash.Lockstep())  # (compiles once)
        slow = _best(lambda: run(ash.InOrder()), args.inorder_repeat)
        fast = _best(lambda: run(ash.Lockstep()), args.repeat)
        same = _bits(memory["InOrder"][out]) == _bits(memory["Lockstep"][out])
        if not same:
            raise SystemExit(f"{title}: Lockstep's memory differs from InOrder's")
        if found["InOrder"] != found["Lockstep"]:
            raise SystemExit(f"{title}: the detectors differ:\n{found['InOrder']}\n"
                             f"{found['Lockstep']}")
        gpu = None if args.no_gpu else _lavapipe(kernel, groups, given, args.repeat)
        print(_row(title, slow, fast, gpu), flush=True)
    if sanitize == "off":
        print(_row(*fragment_row(args.fragments, args)), flush=True)
        print(_row(*textured_row(args.fragments, args)), flush=True)
    print(f"same memory (and fragment output) and findings as InOrder (sanitize={sanitize!r}) "
          "in every row: yes")


def _detector_cost(args, rows) -> None:
    """Lockstep with its race detector against without, alternating within each round."""
    print("Lockstep: the race detector's cost (sanitize='report' against 'off', alternating)")
    print(f"{'kernel':40s} {'off':>10s} {'report':>10s} {'ratio':>7s}")
    for title, kernel, groups, given, _ in rows:
        best = {"off": float("inf"), "report": float("inf")}
        for round_ in range(args.repeat + 1):  # (the first round compiles)
            for sanitize in best:
                copies = {k: v.copy() if isinstance(v, np.ndarray) else v
                          for k, v in given.items()}
                t = time.perf_counter()
                ash.run(kernel, groups, schedule=ash.Lockstep(), sanitize=sanitize, **copies)
                if round_:
                    best[sanitize] = min(best[sanitize], time.perf_counter() - t)
        print(f"{title:40s} {best['off'] * 1e3:8.1f}ms {best['report'] * 1e3:8.1f}ms "
              f"{best['report'] / best['off']:6.2f}x", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boids", type=int, default=1024)
    ap.add_argument("--fragments", type=int, default=256, help="the fragment grid's side")
    ap.add_argument("--groups", type=int, default=64)
    ap.add_argument("--rows", type=int, default=256,
                    help="rows of 256 invocations of the bilinear sampling row")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--inorder-repeat", type=int, default=1,
                    help="InOrder runs per kernel (the slow side: boids 1024 takes 20-100 s)")
    ap.add_argument("--no-gpu", action="store_true", help="leave lavapipe out")
    ap.add_argument("--sanitize", choices=["off", "report", "both"], default="both",
                    help="the detector on neither side, on both, or a table of each")
    ap.add_argument("--detector-cost", action="store_true",
                    help="only Lockstep with and without its race detector")
    args = ap.parse_args(argv)
    rows = cases(args.boids, args.groups, args.rows)
    if args.detector_cost:
        _detector_cost(args, rows)
        return
    for sanitize in (["off", "report"] if args.sanitize == "both" else [args.sanitize]):
        _table(sanitize, args, rows)


if __name__ == "__main__":
    main()
