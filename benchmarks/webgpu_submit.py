"""A submit of one dispatch on asyncshader.webgpu against ``ash.run`` of the same loaded kernel:
what the device's own bookkeeping costs (encoding a pass, WebGPU's checks, viewing the bound
byte ranges through their WGSL types, the dispatch record).

The kernel is a WGSL copy-and-scale over ``--n`` u32 (64 per workgroup). The device side does
everything a program does per frame: a command encoder, a compute pass, set_pipeline,
set_bind_group, dispatch_workgroups, end, finish, submit (pipeline and bind group made once).
The ``ash.run`` side binds numpy arrays made once. The two alternate (``--repeat`` rounds of
``--number`` each); the figure is the median over the rounds of device / ash.run in time per
submit (1.0: no cost), steadier on a loaded machine than a ratio of bests. Last, the
device's own cost alone: the same submits with the runtime's ``run`` replaced by a stub.

    python benchmarks/webgpu_submit.py [--n 64] [--number 200] [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import timeit

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import asyncshader as ash
import asyncshader.webgpu as wgpu

WGSL = """\
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
    dst[id.x] = src[id.x] * 3u + 1u;
}
"""


def device_side(n: int, sanitize: str) -> tuple[dict, np.ndarray]:
    device = wgpu.gpu.request_adapter_sync().request_device_sync(sanitize=sanitize)
    src = device.create_buffer_with_data(data=np.arange(n, dtype=np.uint32), usage="STORAGE")
    dst = device.create_buffer(size=4 * n, usage="STORAGE|COPY_SRC")
    pipeline = device.create_compute_pipeline(layout="auto", compute={
        "module": device.create_shader_module(code=WGSL), "entry_point": "main"})
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": src}}, {"binding": 1, "resource": {"buffer": dst}}])

    def submit() -> None:
        encoder = device.create_command_encoder()
        compute_pass = encoder.begin_compute_pass()
        compute_pass.set_pipeline(pipeline)
        compute_pass.set_bind_group(0, group)
        compute_pass.dispatch_workgroups(n // 64)
        compute_pass.end()
        device.queue.submit([encoder.finish()])
        device.asyncshader.clear()  # (a long-running program forgets its records)

    submit()
    out = np.frombuffer(device.queue.read_buffer(dst), np.uint32)
    return {"submit": submit}, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--number", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    kernel = ash.load_wgsl(WGSL)["main"]
    src, dst = np.arange(args.n, dtype=np.uint32), np.zeros(args.n, np.uint32)
    print(f"asyncshader.webgpu submit of one dispatch / ash.run, {args.n} invocations, best of "
          f"{args.repeat}")
    for sanitize in ("report", "off"):
        ours, out = device_side(args.n, sanitize)

        def plain(sanitize: str = sanitize) -> None:
            ash.run(kernel, args.n // 64, sanitize=sanitize, src=src, dst=dst)

        rounds = [(timeit.timeit(ours["submit"], number=args.number) / args.number,
                   timeit.timeit(plain, number=args.number) / args.number)
                  for _ in range(args.repeat)]  # (alternating: the load hits both sides)
        want = (np.arange(args.n, dtype=np.uint32) * 3 + 1).tolist()
        assert out.tolist() == want and dst.tolist() == want
        ratio = statistics.median(d / r for d, r in rounds)
        print(f"  sanitize={sanitize!r}: ash.run {min(r for _, r in rounds) * 1e6:8.1f} us, "
              f"device submit {min(d for d, _ in rounds) * 1e6:8.1f} us (best of "
              f"{args.repeat}), median ratio of the rounds {ratio:.2f}")
    print(f"  the device's own bookkeeping per submit: "
          f"{bookkeeping(args.n, args.number * 10, args.repeat):.1f} us")


def bookkeeping(n: int, number: int, repeat: int) -> float:
    """Microseconds per submit spent outside ``ash.run`` (the runtime replaced by a stub)."""
    import asyncshader.webgpu.dispatch as dispatch

    class Result:
        findings = ()
        trace = None

    ours, _ = device_side(n, "off")
    real, dispatch.run = dispatch.run, lambda *args, **kwargs: Result()
    try:
        return min(timeit.repeat(ours["submit"], number=number, repeat=repeat)) / number * 1e6
    finally:
        dispatch.run = real


if __name__ == "__main__":
    main()
