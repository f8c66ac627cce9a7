"""webgpu-samples' vision transformer layer normalization
(tests/data/ports/webgpu-samples_visionTransformer_layerNorm.wgsl), ported: one workgroup per
row; invocation 0 computes the row's mean and inverse standard deviation into workgroup
memory, and after a barrier every invocation normalizes its share of the row."""

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec3u

ORIGINAL = "webgpu-samples_visionTransformer_layerNorm.wgsl"
ROWS, DIM = 2, 300              # DIM > 256: the strided loop runs twice for some invocations
WORKGROUPS = ROWS


@ash.struct
class Params:
    N: u32  # number of rows (tokens)
    D: u32  # dimension per row
    eps: f32


params = ash.uniform(Params, group=0, binding=0)
input = ash.storage(f32, group=0, binding=1, access="read")
gamma = ash.storage(f32, group=0, binding=2, access="read")
beta = ash.storage(f32, group=0, binding=3, access="read")
output = ash.storage(f32, group=0, binding=4)

shared_mean = ash.workgroup(f32)
shared_inv_std = ash.workgroup(f32)


@ash.compute(workgroup_size=256)
async def main(*, workgroup_id: vec3u, local_invocation_id: vec3u):
    row = workgroup_id.x
    tid = local_invocation_id.x
    D = params.D
    base = row * D

    # invocation 0 computes mean and variance
    if tid == 0:
        sum = 0.0
        sq_sum = 0.0
        for i in range(D):
            val = input[base + i]
            sum += val
            sq_sum += val * val
        mean = sum / f32(D)
        variance = sq_sum / f32(D) - mean * mean
        shared_mean.value = mean
        shared_inv_std.value = 1.0 / ash.sqrt(variance + params.eps)
    await ash.workgroup_barrier()

    mean = shared_mean.value
    inv_std = shared_inv_std.value

    # every invocation normalizes and applies the affine transform
    for i in range(tid, D, 256):
        val = input[base + i]
        output[base + i] = (val - mean) * inv_std * gamma[i] + beta[i]


def setup(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {"params": Params(N=ROWS, D=DIM, eps=1e-6),
            "input": rng.normal(0.5, 2.0, ROWS * DIM).astype(np.float32),
            "gamma": rng.normal(1.0, 0.1, DIM).astype(np.float32),
            "beta": rng.normal(0.0, 0.1, DIM).astype(np.float32),
            "output": np.zeros(ROWS * DIM, np.float32)}


def original_bindings(bindings: dict) -> dict:
    """The original's bindings, by its names, for the same inputs: Params is u32, u32, f32."""
    p = bindings["params"]
    words = np.array([p.N, p.D, np.float32(p.eps).view(np.uint32)], np.uint32)
    return {"params": words.tobytes(), "input": bindings["input"],
            "gamma": bindings["gamma"], "beta": bindings["beta"], "output": bindings["output"]}


KERNELS = {"main": main}
OUTPUTS = {"output": "output"}  # original's name -> the port's
