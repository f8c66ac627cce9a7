"""wgpu's hello_workgroups example (tests/data/ports/wgpu_hello_workgroups_shader.wgsl), ported:
a workgroup of two invocations, the first adds one to a[workgroup], the second to
b[workgroup]."""

import numpy as np

import asyncshader as ash
from asyncshader import i32, vec3u

ORIGINAL = "wgpu_hello_workgroups_shader.wgsl"
WORKGROUPS = 12


@ash.compute(workgroup_size=(2, 1, 1))
async def main(a: ash.Storage[i32], b: ash.Storage[i32], *, local_invocation_id: vec3u,
               workgroup_id: vec3u):
    if local_invocation_id.x == 0:
        a[workgroup_id.x] += 1
    elif local_invocation_id.x == 1:
        b[workgroup_id.x] += 1


def setup(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {"a": rng.integers(-100, 100, WORKGROUPS).astype(np.int32),
            "b": rng.integers(-100, 100, WORKGROUPS).astype(np.int32)}


def original_bindings(b: dict) -> dict:
    """The original's bindings, by its names, for the same inputs."""
    return dict(b)


KERNELS = {"main": main}
OUTPUTS = {"a": "a", "b": "b"}  # original's name -> the port's

