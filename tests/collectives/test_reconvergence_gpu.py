"""Maximal reconvergence against a real WebGPU implementation: each kernel of
reconvergence_cases.py, written in WGSL by hand, runs on wgpu over Mesa's lavapipe (subgroup
size 8); asyncshader must give the same ``inner`` and ``out`` at size 8, in order and under
Random and PCT. Skips, naming what to install, where wgpu or lavapipe is missing."""

from __future__ import annotations

import numpy as np
import pytest
from reconvergence_cases import CASES, HELPERS

import asyncshader as ash

MODULE = """
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> inner: array<u32>;
{helpers}
@compute @workgroup_size(8)
fn main(@builtin(subgroup_invocation_id) i: u32) {{{body}
}}
"""


@pytest.fixture(scope="module")
def subgroup_device(tmp_path_factory):
    from gpu import OracleUnavailable, open_lavapipe

    try:
        return open_lavapipe(tmp_path_factory.mktemp("lavapipe-reconvergence"), ["subgroup"])
    except OracleUnavailable as e:
        pytest.skip(str(e))


def _on_gpu(device, body: str) -> tuple[list, list]:
    import wgpu

    module = device.create_shader_module(code=MODULE.format(helpers=HELPERS, body=body))
    pipeline = device.create_compute_pipeline(layout="auto",
                                              compute={"module": module, "entry_point": "main"})
    usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC
    bufs = [device.create_buffer(size=32, usage=usage) for _ in range(2)]
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": b, "resource": {"buffer": buf, "offset": 0, "size": buf.size}}
        for b, buf in enumerate(bufs)])
    encoder = device.create_command_encoder()
    compute = encoder.begin_compute_pass()
    compute.set_pipeline(pipeline)
    compute.set_bind_group(0, group)
    compute.dispatch_workgroups(1)
    compute.end()
    device.queue.submit([encoder.finish()])
    out, inner = (np.frombuffer(device.queue.read_buffer(b), np.uint32).tolist() for b in bufs)
    return out, inner


@pytest.mark.parametrize("name", list(CASES))
def test_divergent_kernels_match_lavapipe(subgroup_device, name):
    kernel, body, _, _ = CASES[name]
    gpu_out, gpu_inner = _on_gpu(subgroup_device, body)
    for schedule in (ash.InOrder(), ash.Random(7), ash.PCT(3)):
        out = np.zeros(8, np.uint32)
        inner = np.zeros(8, np.uint32)
        ash.run(kernel, 1, out=out, inner=inner, subgroup_size=8, schedule=schedule)
        assert (inner.tolist(), out.tolist()) == (gpu_inner, gpu_out), schedule


@pytest.mark.parametrize("name", list(CASES))
def test_crosscheck_agrees_on_the_divergent_kernels(subgroup_device, name):
    """The same kernels through ``crosscheck``: asyncshader's run against its own emitted WGSL
    on lavapipe (the kernels declare subgroup_size=8, lavapipe's size)."""
    kernel, _, inner, out = CASES[name]
    report = ash.crosscheck(kernel, 1, out=np.zeros(8, np.uint32),
                            inner=np.zeros(8, np.uint32), device=subgroup_device,
                            raise_on_difference=False)
    assert report.differences == {"inner": [], "out": []}
    assert (report.gpu["inner"].tolist(), report.gpu["out"].tolist()) == (inner, out)
    assert (report.cpu["inner"].tolist(), report.cpu["out"].tolist()) == (inner, out)
