"""Puzzle 4, a barrier in a branch: every invocation reaches the barrier; the branch after."""

import asyncshader as ash
from asyncshader import f32, u32, workgroup_barrier

tile = ash.workgroup(ash.array(f32, 8))


@ash.compute(workgroup_size=8)
async def pair_sums(a: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    tile[i] = a[i]
    await workgroup_barrier()
    if i < 4:
        out[i] = tile[i] + tile[7 - i]
