"""webgpu-samples' bitonic sort step (the WGSL that
tests/data/ports/webgpu-samples_bitonicSort_bitonicCompute.ts generates, ``NaiveBitonicCompute``
for a workgroup of WG invocations), ported: one dispatch runs one step of the sort, chosen by
``uniforms.algo``: a flip or a disperse over a block of ``block_height`` elements, in workgroup
memory (local) or in the storage buffers (global); every swap counts one in ``counter``.

As in the original, the helpers read the workgroup array and the module-scope bindings by
name, and ``counter`` is one ``atomic<u32>``."""

import re

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec2u, vec3u

ORIGINAL = "webgpu-samples_bitonicSort_bitonicCompute.ts"
WG = 8                       # invocations per workgroup; a workgroup sorts 2 * WG elements
WORKGROUPS = 2
N = 2 * WG * WORKGROUPS

#: the steps compared: (algo, block height); 1 local flip, 2 local disperse, 3 global flip,
#: 4 global disperse, 0 none (the workgroup copies its elements through workgroup memory)
STEPS = [(1, 2), (1, 16), (2, 8), (2, 2), (3, 32), (4, 16), (4, 4), (0, 0)]


@ash.struct
class Uniforms:
    width: f32
    height: f32
    algo: u32
    block_height: u32


# the workgroup's data: all of its elements
local_data = ash.workgroup(ash.array(u32, WG * 2))

# the bindings (the functions refer to them by name)
input_data = ash.storage(u32, group=0, binding=0, access="read")
output_data = ash.storage(u32, group=0, binding=1)
uniforms = ash.uniform(Uniforms, group=0, binding=2)
counter = ash.storage(ash.atomic(u32), group=0, binding=3)


async def local_compare_and_swap(idx_before: u32, idx_after: u32):
    """Compares and swaps two values of local_data."""
    # idx_before should always be < idx_after
    if local_data[idx_after] < local_data[idx_before]:
        await ash.atomic_add(ash.ptr(counter), 1)
        temp = local_data[idx_before]
        local_data[idx_before] = local_data[idx_after]
        local_data[idx_after] = temp
    return


def get_flip_indices(invoke_id: u32, block_height: u32) -> vec2u:
    """invoke_id goes from 0 to the workgroup size."""
    # the index offset (moves the indices into their block)
    block_offset = ((2 * invoke_id) // block_height) * block_height
    half_height = block_height // 2
    # the index spacing
    idx = vec2u(invoke_id % half_height, block_height - (invoke_id % half_height) - 1)
    idx.x += block_offset
    idx.y += block_offset
    return idx


def get_disperse_indices(invoke_id: u32, block_height: u32) -> vec2u:
    block_offset = ((2 * invoke_id) // block_height) * block_height
    half_height = block_height // 2
    idx = vec2u(invoke_id % half_height, (invoke_id % half_height) + half_height)
    idx.x += block_offset
    idx.y += block_offset
    return idx


def global_compare_and_swap(idx_before: u32, idx_after: u32):
    if input_data[idx_after] < input_data[idx_before]:
        output_data[idx_before] = input_data[idx_after]
        output_data[idx_after] = input_data[idx_before]


# constants (an enum)
ALGO_NONE = 0
ALGO_LOCAL_FLIP = 1
ALGO_LOCAL_DISPERSE = 2
ALGO_GLOBAL_FLIP = 3


# one invocation for every two elements
@ash.compute(workgroup_size=(WG, 1, 1))
async def compute_main(*, global_invocation_id: vec3u, local_invocation_id: vec3u,
                       workgroup_id: vec3u):
    offset = WG * 2 * workgroup_id.x
    # a local step first copies the workgroup's range of input_data into local_data
    if uniforms.algo <= 2:
        # each invocation copies two elements...
        local_data[local_invocation_id.x * 2] = input_data[offset + local_invocation_id.x * 2]
        local_data[local_invocation_id.x * 2 + 1] = \
            input_data[offset + local_invocation_id.x * 2 + 1]

    # ...and waits for the others to copy theirs
    await ash.workgroup_barrier()

    match uniforms.algo:
        case 1:  # local flip
            idx = get_flip_indices(local_invocation_id.x, uniforms.block_height)
            await local_compare_and_swap(idx.x, idx.y)
        case 2:  # local disperse
            idx = get_disperse_indices(local_invocation_id.x, uniforms.block_height)
            await local_compare_and_swap(idx.x, idx.y)
        case 3:  # global flip
            idx = get_flip_indices(global_invocation_id.x, uniforms.block_height)
            global_compare_and_swap(idx.x, idx.y)
        case 4:
            idx = get_disperse_indices(global_invocation_id.x, uniforms.block_height)
            global_compare_and_swap(idx.x, idx.y)
        case _:
            pass

    # every invocation has swapped its own elements
    await ash.workgroup_barrier()

    if uniforms.algo <= ALGO_LOCAL_DISPERSE:
        # the workgroup's range of output_data from local_data
        output_data[offset + local_invocation_id.x * 2] = local_data[local_invocation_id.x * 2]
        output_data[offset + local_invocation_id.x * 2 + 1] = \
            local_data[local_invocation_id.x * 2 + 1]


def setup(seed: int = 0, step: tuple[int, int] = STEPS[0]) -> dict:
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 1000, N).astype(np.uint32)
    algo, block_height = step
    return {"input_data": data, "output_data": data.copy(),
            "uniforms": Uniforms(width=N, height=1, algo=algo, block_height=block_height),
            "counter": np.zeros(1, np.uint32)}


def original_source() -> str:
    """The WGSL the sample generates: NaiveBitonicCompute(WG)'s template literal."""
    from wgsl_originals import source

    ts = source(ORIGINAL)
    template = re.search(r"NaiveBitonicCompute = .*?return `(.*?)`;", ts, re.S).group(1)
    return template.replace("${workgroupSize * 2}", str(WG * 2)) \
        .replace("${workgroupSize}", str(WG))


def original_bindings(bindings: dict) -> dict:
    """The original's bindings, by its names, for the same inputs: Uniforms is f32, f32, u32,
    u32."""
    u = bindings["uniforms"]
    words = np.array([np.float32(u.width).view(np.uint32), np.float32(u.height).view(np.uint32),
                      u.algo, u.block_height], np.uint32)
    return {"input_data": bindings["input_data"], "output_data": bindings["output_data"],
            "uniforms": words.tobytes(), "counter": bindings["counter"]}


KERNELS = {"computeMain": compute_main}
OUTPUTS = {"output_data": "output_data", "counter": "counter"}  # original's -> the port's
