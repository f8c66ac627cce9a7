"""What WGSL output and the GPU cross-check cost: ``to_wgsl`` and ``crosscheck`` of the examples'
kernels, each against the CPU run of the same kernel on the same bindings (the example's own
``setup()``), measured in this process, so the figures to compare are the ratios.

    python benchmarks/emit.py [--repeat 5] [--gpu] [--kernels reduce,mip_level]

Columns: the kernel; ``to_wgsl`` in ms and as a share of one CPU dispatch; with ``--gpu``, the
cross-check (CPU run + WGSL compile + GPU dispatch + read-back + compare) in ms and in CPU
dispatches. The wgpu device is opened once, before any timing, and its opening is reported on
its own line. Each row checks itself: the WGSL names the entry point, and with ``--gpu`` the
cross-check agrees (with the tolerance the example's setup() docstring gives).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import asyncshader as ash
from asyncshader.tools.cli import load_target

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")
#: name -> (file, kernel, cross-check options: the tolerance each example documents)
KERNELS = {
    "reduce": ("reduce.py", "block_sum", {}),
    "scan": ("prefix_sum.py", "scan_blocks", {}),
    "matmul": ("matmul.py", "matmul_tiled", {}),
    "subgroup_reduce": ("subgroup_reduce.py", "workgroup_sum", {}),
    "particles": ("particles.py", "step", {"ulp": 32}),
    "fwidth_ring": ("fwidth_ring.py", "ring", {"atol": 3.2e-5}),
    "mip_level": ("mip_level.py", "mip_level", {"atol": 3.8e-6}),
    "quad_downsample": ("quad_downsample.py", "downsample", {"ulp": 0}),
}


def _median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _split(kernel, given: dict) -> tuple[dict, dict]:
    """setup()'s dict as (dispatch options, shader bindings)."""
    bindings = {k: v for k, v in given.items() if k in kernel.params}
    return {k: v for k, v in given.items() if k not in bindings}, bindings


def measure(name: str, repeat: int, gpu: bool) -> dict:
    file, kernel_name, tolerance = KERNELS[name]
    # (as the command line finds them: setup_KERNEL() or setup())
    kernel, setup, *_ = load_target(f"{os.path.join(EXAMPLES, file)}::{kernel_name}")
    _, bindings = _split(kernel, setup())
    if kernel.stage == "compute":
        def cpu():
            o, b = _split(kernel, setup())
            ash.run(kernel, o.get("workgroups", 1), **b)
    else:
        def cpu():
            o, b = _split(kernel, setup())
            ash.run_fragments(kernel, o["width"], o["height"], **b)
    text = ash.to_wgsl(kernel, **bindings)
    assert f"fn {kernel_name}" in text, text  # (the check: the entry point is there)
    row = {"name": name, "emit": _median_time(lambda: ash.to_wgsl(kernel, **bindings), repeat),
           "run": _median_time(cpu, repeat)}
    if gpu:
        def check():
            o, b = _split(kernel, setup())
            if kernel.stage == "compute":
                report = ash.crosscheck(kernel, o.get("workgroups", 1), **tolerance, **b)
            else:
                report = ash.crosscheck_fragments(kernel, o["width"], o["height"],
                                                  **tolerance, **b)
            assert report.ok, report.describe()
        row["crosscheck"] = _median_time(check, repeat)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--gpu", action="store_true", help="time the cross-check too (wgpu)")
    ap.add_argument("--kernels", default=",".join(KERNELS),
                    help=f"comma-separated, of: {', '.join(KERNELS)}")
    args = ap.parse_args()
    names = [n for n in args.kernels.split(",") if n]
    if args.gpu:
        from asyncshader.extra.device import adapter_name, device

        t = time.perf_counter()
        dev = device()
        print(f"opening the wgpu device ({adapter_name(dev)}): "
              f"{time.perf_counter() - t:.2f} s (once per process)")
    print(f"asyncshader to_wgsl and crosscheck, medians of {args.repeat}")
    head = f"{'kernel':16} {'CPU run ms':>10} {'to_wgsl ms':>10} {'/ run':>6}"
    print(head + (f" {'crosscheck ms':>13} {'/ run':>6}" if args.gpu else ""))
    for name in names:
        r = measure(name, args.repeat, args.gpu)
        line = (f"{name:16} {r['run'] * 1e3:10.1f} {r['emit'] * 1e3:10.1f} "
                f"{r['emit'] / r['run']:6.2f}")
        if args.gpu:
            line += f" {r['crosscheck'] * 1e3:13.1f} {r['crosscheck'] / r['run']:6.2f}"
        print(line)


if __name__ == "__main__":
    main()
