"""Puzzle 3, shared-memory sum: load, barrier, then one invocation sums."""

import asyncshader as ash
from asyncshader import f32, u32, vec3u, workgroup_barrier

tile = ash.workgroup(ash.array(f32, 8))


@ash.compute(workgroup_size=8)
async def block_sum(a: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                    workgroup_id: vec3u, global_invocation_id: vec3u):
    i = local_invocation_index
    tile[i] = a[global_invocation_id.x]
    await workgroup_barrier()  # every load lands before invocation 0 reads them
    if i == 0:
        total = f32(0)
        for k in range(8):
            total = total + tile[k]
        out[workgroup_id.x] = total
