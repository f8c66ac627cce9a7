"""webgpu-samples' vision transformer MLP
(tests/data/ports/webgpu-samples_visionTransformer_mlp.wgsl), ported: its two entry points,
``linearGelu`` (a dense layer and the tanh approximation of GELU) and ``linear`` (a dense
layer), one invocation per output element, over the one set of module-scope bindings both
use. The two kernels repeat one body, as the original's two entry points do."""

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec3u

ORIGINAL = "webgpu-samples_visionTransformer_mlp.wgsl"
ROWS, IN_DIM, OUT_DIM = 5, 24, 40       # 200 outputs: invocations 200..255 return early
WORKGROUPS = 1
#: CPU against lavapipe (tanh: 2.4e-7 absolute near zero, measured), per entry; linear is
#: exact
TOLERANCE = {"linearGelu": (0.0, 5e-7)}


@ash.struct
class Params:
    num_rows: u32  # number of tokens
    in_dim: u32    # input dimension
    out_dim: u32   # output dimension


params = ash.uniform(Params, group=0, binding=0)
input = ash.storage(f32, group=0, binding=1, access="read")
weight = ash.storage(f32, group=0, binding=2, access="read")
bias = ash.storage(f32, group=0, binding=3, access="read")
output = ash.storage(f32, group=0, binding=4)


def gelu(x: f32) -> f32:
    """Tanh-based GELU approximation (WGSL has no erf)."""
    c = 0.7978845608  # sqrt(2/pi)
    inner = c * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + ash.tanh(inner))


# Linear + GELU: output = GELU(input @ weight + bias)
@ash.compute(workgroup_size=256)
async def linear_gelu(*, global_invocation_id: vec3u):
    idx = global_invocation_id.x
    num_rows = params.num_rows
    in_dim = params.in_dim
    out_dim = params.out_dim

    if idx >= num_rows * out_dim:
        return

    row = idx // out_dim
    col = idx % out_dim

    val = bias[col]
    for k in range(in_dim):
        val += input[row * in_dim + k] * weight[k * out_dim + col]
    output[idx] = gelu(val)


# Plain linear: output = input @ weight + bias
@ash.compute(workgroup_size=256)
async def linear(*, global_invocation_id: vec3u):
    idx = global_invocation_id.x
    num_rows = params.num_rows
    in_dim = params.in_dim
    out_dim = params.out_dim

    if idx >= num_rows * out_dim:
        return

    row = idx // out_dim
    col = idx % out_dim

    val = bias[col]
    for k in range(in_dim):
        val += input[row * in_dim + k] * weight[k * out_dim + col]
    output[idx] = val


def setup(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {"params": Params(num_rows=ROWS, in_dim=IN_DIM, out_dim=OUT_DIM),
            "input": rng.normal(0.0, 1.0, ROWS * IN_DIM).astype(np.float32),
            "weight": rng.normal(0.0, 0.3, IN_DIM * OUT_DIM).astype(np.float32),
            "bias": rng.normal(0.0, 0.1, OUT_DIM).astype(np.float32),
            "output": np.zeros(ROWS * OUT_DIM, np.float32)}


def original_bindings(bindings: dict) -> dict:
    """The original's bindings, by its names, for the same inputs: Params is three u32."""
    p = bindings["params"]
    words = np.array([p.num_rows, p.in_dim, p.out_dim], np.uint32)
    return {"params": words.tobytes(), "input": bindings["input"],
            "weight": bindings["weight"], "bias": bindings["bias"], "output": bindings["output"]}


KERNELS = {"linearGelu": linear_gelu, "linear": linear}
OUTPUTS = {"output": "output"}  # original's name -> the port's
