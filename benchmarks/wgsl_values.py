"""What ``ash.load_wgsl``'s code for constants and composite values costs.

1. Constants: a small loop (``LOOP``) as ``load_wgsl`` generates it (each constant a name made
   once in the module's namespace) against the same tree with every such name replaced by the
   conversion call that makes it (``ash.u32(4)`` at each use): one kernel per form, alternating,
   best of ``--repeat``.
2. Struct values: webgpu-samples' boids (tests/data/ports), loaded from its WGSL, against its
   hand-written Python port (tests/ports/port_boids.py) on the same particles.

Both with the race detector on (the default) and off; the figure is the ratio of the two
kernels' speeds in one run (1.0: the same speed). Each run checks its results.

    python benchmarks/wgsl_values.py [--repeat 5] [--groups 8]
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "tests", "ports")]

import port_boids  # noqa: E402
import wgsl_originals  # noqa: E402

import asyncshader as ash  # noqa: E402
from asyncshader.wgsl.generated import compile_generated  # noqa: E402
from asyncshader.wgsl.source import GENERATED  # noqa: E402

LOOP = """\
const N = 64u;
const SCALE = 2.5;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
    var acc = 0.0;
    for (var k = 0u; k < N; k++) {
        acc += f32(k % 4u) * SCALE + f32(N);
    }
    out[gid.x] = acc;
}
"""
PER_INVOCATION = sum((k % 4) * 2.5 + 64.0 for k in range(64))


class _Inline(ast.NodeTransformer):
    """Each constant's name replaced by the call that makes it (``ash.u32(4)``)."""

    def __init__(self, namespace: dict) -> None:
        self.namespace = namespace

    def visit_Name(self, node: ast.Name) -> ast.AST:
        value = self.namespace.get(node.id) if node.id.startswith("__k") else None
        if value is None:
            return node
        name = {np.float32: "f32", np.uint32: "u32", np.int32: "i32"}[type(value)]
        call = ast.Call(ast.Attribute(ast.Name("ash", ast.Load()), name, ast.Load()),
                        [ast.Constant(value.item())], [])
        return ast.copy_location(call, node)


def loop_kernels() -> tuple[ash.ComputeKernel, ash.ComputeKernel]:
    """(the loaded kernel, the same tree with its constants made at every use)."""
    module = ash.load_wgsl(LOOP)
    fn = module.namespace["main"]
    tree = _Inline(module.namespace).visit(getattr(fn, GENERATED))
    namespace = {k: v for k, v in module.namespace.items() if k != "main"}
    source = fn.__code__.co_filename.replace(".wgsl", "-inline.wgsl")
    compile_generated(ast.fix_missing_locations(tree), source, LOOP, namespace)
    return module["main"], ash.compute(workgroup_size=64)(namespace["main"])


def _alternate(kernels: dict, bind: dict, check, repeat: int, groups: int,
               sanitize: str) -> dict[str, float]:
    best = {name: float("inf") for name in kernels}
    for _ in range(repeat):
        for name, kernel in kernels.items():
            bindings = bind[name]()
            t0 = time.perf_counter()
            ash.run(kernel, groups, sanitize=sanitize, **bindings)
            best[name] = min(best[name], time.perf_counter() - t0)
            check(name, bindings)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--groups", type=int, default=8)
    args = parser.parse_args(argv)

    named, inline = loop_kernels()
    n = args.groups * 64

    def loop_check(name: str, b: dict) -> None:
        assert b["out"].tolist() == [PER_INVOCATION] * n, name

    module = ash.load_wgsl(wgsl_originals.source(port_boids.ORIGINAL))
    start = port_boids.setup()
    words = np.frombuffer(port_boids.original_bindings(start)["params"], np.float32)
    particles = module["Particles"].zeros(length=port_boids.N)
    for member in ("pos", "vel"):
        particles["particles"][member] = start["particles_a"]["particles"][member]
    want = {}

    def boids_check(name: str, b: dict) -> None:
        got = b["particles_b"] if name == "port" else b["particlesB"]
        result = {m: got["particles"][m].tobytes() for m in ("pos", "vel")}
        assert want.setdefault("result", result) == result, name  # (the same bits)

    boids = {"port": port_boids.main, "loaded": module["main"]}
    boids_bind = {
        "port": lambda: port_boids.setup(),
        "loaded": lambda: {"params": module["SimParams"](*words), "particlesA": particles,
                           "particlesB": module["Particles"].zeros(length=port_boids.N)}}
    print(f"best of {args.repeat} alternating rounds; ratio: speed of the second column "
          "over the first")
    print(f"{'':<28} {'sanitize=':<10} {'first':>10} {'second':>10} {'ratio':>6}")
    for sanitize in ("report", "off"):
        t = _alternate({"inline": inline, "named": named},
                       {"inline": lambda: {"out": np.zeros(n, np.float32)},
                        "named": lambda: {"out": np.zeros(n, np.float32)}},
                       loop_check, args.repeat, args.groups, sanitize)
        print(f"{'loop: inline calls, named':<28} {sanitize:<10} {t['inline'] * 1e3:>8.1f}ms "
              f"{t['named'] * 1e3:>8.1f}ms {t['inline'] / t['named']:>6.2f}")
    for sanitize in ("report", "off"):
        t = _alternate(boids, boids_bind, boids_check, args.repeat, port_boids.WORKGROUPS,
                       sanitize)
        print(f"{'boids: Python port, loaded':<28} {sanitize:<10} {t['port'] * 1e3:>8.1f}ms "
              f"{t['loaded'] * 1e3:>8.1f}ms {t['port'] / t['loaded']:>6.2f}")


if __name__ == "__main__":
    main()
