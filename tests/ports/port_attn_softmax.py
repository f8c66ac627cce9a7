"""webgpu-samples' vision transformer attention softmax
(tests/data/ports/webgpu-samples_visionTransformer_attnSoftmax.wgsl), ported: each invocation
turns one row of attention scores into probabilities (the row's maximum subtracted before
``exp``), in place, and copies them into the layer's slice of ``attn_weights``."""

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec3u

ORIGINAL = "webgpu-samples_visionTransformer_attnSoftmax.wgsl"
N, HEADS, LAYERS, LAYER = 12, 3, 2, 1     # 36 rows: invocations 36..255 return early
WORKGROUPS = 1
#: CPU against lavapipe (exp: up to 13 ulp apart, 1.2e-7 absolute, measured), per entry
TOLERANCE = {"main": (2e-6, 2.5e-7)}


@ash.struct
class Params:
    n: u32
    num_heads: u32
    layer_idx: u32


@ash.compute(workgroup_size=256)
async def main(params: ash.Uniform[Params], score_buf: ash.Storage[f32],
               attn_weights: ash.Storage[f32], *, global_invocation_id: vec3u):
    idx = global_invocation_id.x
    n = params.n
    num_heads = params.num_heads
    total_rows = num_heads * n
    if idx >= total_rows:
        return
    base = idx * n
    # the maximum, for numerical stability
    m = -1e30
    for i in range(n):
        m = ash.max(m, score_buf[base + i])
    # exp and sum
    s = 0.0
    for i in range(n):
        e = ash.exp(score_buf[base + i] - m)
        score_buf[base + i] = e
        s += e
    # normalize and store
    layer_offset = params.layer_idx * num_heads * n * n
    for i in range(n):
        val = score_buf[base + i] / s
        score_buf[base + i] = val
        attn_weights[layer_offset + idx * n + i] = val


def setup(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {"params": Params(n=N, num_heads=HEADS, layer_idx=LAYER),
            "score_buf": rng.normal(0.0, 3.0, HEADS * N * N).astype(np.float32),
            "attn_weights": np.full(LAYERS * HEADS * N * N, -1.0, np.float32)}


def original_bindings(b: dict) -> dict:
    """The original's bindings, by its names, for the same inputs: Params is three u32."""
    p = b["params"]
    return {"params": np.array([p.n, p.num_heads, p.layer_idx], np.uint32).tobytes(),
            "scoreBuf": b["score_buf"], "attnWeights": b["attn_weights"]}


KERNELS = {"main": main}
OUTPUTS = {"scoreBuf": "score_buf", "attnWeights": "attn_weights"}  # original's -> the port's
