"""wgpu's hello_workgroups example (tests/data/ports/wgpu_hello_workgroups_shader.wgsl), ported:
a workgroup of two invocations, the first adds one to a[workgroup], the second to
b[workgroup]."""

import numpy as np

import asyncshader as ash
from asyncshader import i32, vec3u

ORIGINAL = "wgpu_hello_workgroups_shader.wgsl"
WORKGROUPS = 12

a = ash.storage(i32, group=0, binding=0)
b = ash.storage(i32, group=0, binding=1)


@ash.compute(workgroup_size=(2, 1, 1))
async def main(*, local_invocation_id: vec3u, workgroup_id: vec3u):
    if local_invocation_id.x == 0:
        # do computation (use your imagination)
        a[workgroup_id.x] += 1
    elif local_invocation_id.x == 1:
        # do computation
        b[workgroup_id.x] += 1


def setup(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {"a": rng.integers(-100, 100, WORKGROUPS).astype(np.int32),
            "b": rng.integers(-100, 100, WORKGROUPS).astype(np.int32)}


def original_bindings(bindings: dict) -> dict:
    """The original's bindings, by its names, for the same inputs."""
    return dict(bindings)


KERNELS = {"main": main}
OUTPUTS = {"a": "a", "b": "b"}  # original's name -> the port's
