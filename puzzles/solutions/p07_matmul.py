"""Puzzle 7, a tiled matmul: a barrier after loading the tiles, another before reloading."""

import asyncshader as ash
from asyncshader import f32, vec3u, workgroup_barrier

ta = ash.workgroup(ash.array(f32, 4))
tb = ash.workgroup(ash.array(f32, 4))


@ash.compute(workgroup_size=(2, 2))
async def matmul(A: ash.Storage, B: ash.Storage, C: ash.Storage, *,
                 local_invocation_id: vec3u, workgroup_id: vec3u):
    x, y = local_invocation_id.x, local_invocation_id.y
    r, c = 2 * workgroup_id.y + y, 2 * workgroup_id.x + x
    acc = f32(0)
    for t in range(2):
        ta[y * 2 + x] = A[r * 4 + 2 * t + x]
        tb[y * 2 + x] = B[(2 * t + y) * 4 + c]
        await workgroup_barrier()  # the tiles are complete
        for k in range(2):
            acc = acc + ta[y * 2 + k] * tb[k * 2 + x]
        await workgroup_barrier()  # everybody is done with them before the next step
    C[r * 4 + c] = acc
