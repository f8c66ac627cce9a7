"""Uniform-control-flow subgroup kernels on a real WebGPU implementation (wgpu on Mesa's
lavapipe, native feature ``subgroup``, subgroup size 8) and in asyncshader at the same size:
the outputs must be equal. The WGSL is written by hand (naga rejects ``enable subgroups;``
there, so it is left out; this naga has no ``subgroupElect``, which the CTS vectors check
instead). Skips, naming what to install, where wgpu or lavapipe is missing."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32

N = 28  # three subgroups of 8 and a partial one of 4 at lavapipe's size (whole quads)
OPS = ["subgroupAdd(v)", "subgroupMul(v % 3u + 1u)", "subgroupMin(v)", "subgroupMax(v)",
       "subgroupAnd(v | 0xf0u)", "subgroupOr(v)", "subgroupXor(v)", "subgroupExclusiveAdd(v)",
       "subgroupInclusiveAdd(v)", "subgroupExclusiveMul(v % 3u + 1u)",
       "subgroupInclusiveMul(v % 3u + 1u)", "select(0u, 1u, subgroupAll(v > 2u))",
       "select(0u, 1u, subgroupAny(v > 250u))", "subgroupBallot(v % 2u == 1u).x",
       "subgroupBroadcast(v, 2u)",
       "subgroupBroadcastFirst(v)", "subgroupShuffleXor(v, 3u)",
       "u32(subgroupAdd(f32(v % 16u)))", "quadSwapX(v)", "quadBroadcast(v, 3u)"]

WGSL = """
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size({n})
fn main(@builtin(local_invocation_index) lid: u32) {{
  let v = inp[lid];
{body}
}}
"""


@ash.compute(workgroup_size=N)
async def kernel(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    lid = local_invocation_index
    v = inp[lid]
    one = u32(1)
    rows = [
        await ash.subgroup_add(v), await ash.subgroup_mul(v % 3 + one),
        await ash.subgroup_min(v), await ash.subgroup_max(v),
        await ash.subgroup_and(v | u32(0xF0)), await ash.subgroup_or(v),
        await ash.subgroup_xor(v), await ash.subgroup_exclusive_add(v),
        await ash.subgroup_inclusive_add(v), await ash.subgroup_exclusive_mul(v % 3 + one),
        await ash.subgroup_inclusive_mul(v % 3 + one),
        ash.select(u32(0), one, await ash.subgroup_all(v > 2)),
        ash.select(u32(0), one, await ash.subgroup_any(v > 250)),
        (await ash.subgroup_ballot(v % 2 == 1)).x,
        await ash.subgroup_broadcast(v, 2), await ash.subgroup_broadcast_first(v),
        await ash.subgroup_shuffle_xor(v, 3),
        u32(await ash.subgroup_add(ash.f32(v % 16))),
        await ash.quad_swap_x(v), await ash.quad_broadcast(v, 3),
    ]
    for k, r in enumerate(rows):
        out[k * N + lid] = r


@pytest.fixture(scope="module")
def subgroup_device(tmp_path_factory):
    from gpu import OracleUnavailable, open_lavapipe

    try:
        return open_lavapipe(tmp_path_factory.mktemp("lavapipe-subgroups"), ["subgroup"])
    except OracleUnavailable as e:
        pytest.skip(str(e))


def _on_gpu(device, inp: np.ndarray) -> np.ndarray:
    import wgpu

    body = "\n".join(f"  out[{k}u * {N}u + lid] = {op};" for k, op in enumerate(OPS))
    module = device.create_shader_module(code=WGSL.format(n=N, body=body))
    pipeline = device.create_compute_pipeline(layout="auto",
                                              compute={"module": module, "entry_point": "main"})
    usage = wgpu.BufferUsage
    src = device.create_buffer_with_data(data=inp, usage=usage.STORAGE)
    dst = device.create_buffer(size=len(OPS) * N * 4, usage=usage.STORAGE | usage.COPY_SRC)
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": b, "resource": {"buffer": buf, "offset": 0, "size": buf.size}}
        for b, buf in enumerate((src, dst))])
    encoder = device.create_command_encoder()
    compute = encoder.begin_compute_pass()
    compute.set_pipeline(pipeline)
    compute.set_bind_group(0, group)
    compute.dispatch_workgroups(1)
    compute.end()
    device.queue.submit([encoder.finish()])
    return np.frombuffer(device.queue.read_buffer(dst), np.uint32).reshape(len(OPS), N)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_uniform_kernels_match_lavapipe(subgroup_device, seed):
    inp = np.random.default_rng(seed).integers(0, 256, N).astype(np.uint32)
    gpu = _on_gpu(subgroup_device, inp)
    # lavapipe's layout is the linear one asyncshader uses (checked, not assumed)
    out = np.zeros(len(OPS) * N, np.uint32)
    r = ash.run(kernel, 1, inp=inp, out=out, subgroup_size=8, sanitize="report")
    assert r.findings == []
    ours = out.reshape(len(OPS), N)
    bad = [f"{op}: lavapipe {gpu[k].tolist()}\n  asyncshader {ours[k].tolist()}"
           for k, op in enumerate(OPS) if not (gpu[k] == ours[k]).all()]
    assert not bad, "\n".join(bad)
