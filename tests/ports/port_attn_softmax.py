"""webgpu-samples' vision transformer attention softmax
(tests/data/ports/webgpu-samples_visionTransformer_attnSoftmax.wgsl), ported: each invocation
turns one row of attention scores into probabilities (the row's maximum subtracted before
``exp``), in place, and copies them into the layer's slice of ``attn_weights``."""

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec3u

ORIGINAL = "webgpu-samples_visionTransformer_attnSoftmax.wgsl"
TOKENS, HEADS, LAYERS, LAYER = 12, 3, 2, 1     # 36 rows: invocations 36..255 return early
WORKGROUPS = 1
#: CPU against lavapipe (exp: up to 13 ulp apart, 1.2e-7 absolute, measured), per entry
TOLERANCE = {"main": (2e-6, 2.5e-7)}


@ash.struct
class Params:
    N: u32
    num_heads: u32
    layer_idx: u32


params = ash.uniform(Params, group=0, binding=0)
score_buf = ash.storage(f32, group=0, binding=1)     # (num_heads, N, N)
attn_weights = ash.storage(f32, group=0, binding=2)  # (num_layers, num_heads, N, N)


@ash.compute(workgroup_size=256)
async def main(*, global_invocation_id: vec3u):
    idx = global_invocation_id.x
    N = params.N
    num_heads = params.num_heads
    total_rows = num_heads * N

    if idx >= total_rows:
        return

    base = idx * N

    # find the maximum, for numerical stability
    m = -1e30
    for i in range(N):
        m = ash.max(m, score_buf[base + i])

    # exp and sum
    s = 0.0
    for i in range(N):
        e = ash.exp(score_buf[base + i] - m)
        score_buf[base + i] = e
        s += e

    # normalize and store
    layer_offset = params.layer_idx * num_heads * N * N
    for i in range(N):
        val = score_buf[base + i] / s
        score_buf[base + i] = val
        attn_weights[layer_offset + idx * N + i] = val


def setup(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {"params": Params(N=TOKENS, num_heads=HEADS, layer_idx=LAYER),
            "score_buf": rng.normal(0.0, 3.0, HEADS * TOKENS * TOKENS).astype(np.float32),
            "attn_weights": np.full(LAYERS * HEADS * TOKENS * TOKENS, -1.0, np.float32)}


def original_bindings(bindings: dict) -> dict:
    """The original's bindings, by its names, for the same inputs: Params is three u32."""
    p = bindings["params"]
    return {"params": np.array([p.N, p.num_heads, p.layer_idx], np.uint32).tobytes(),
            "scoreBuf": bindings["score_buf"],
            "attnWeights": bindings["attn_weights"]}


KERNELS = {"main": main}
OUTPUTS = {"scoreBuf": "score_buf", "attnWeights": "attn_weights"}  # original's -> the port's
