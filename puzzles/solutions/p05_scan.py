"""Puzzle 5, prefix sum: Hillis-Steele with two barriers per round (read all, then write)."""

import asyncshader as ash
from asyncshader import u32, workgroup_barrier

tile = ash.workgroup(ash.array(u32, 8))


@ash.compute(workgroup_size=8)
async def scan(a: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    tile[i] = a[i]
    await workgroup_barrier()
    d = 1
    while d < 8:
        v = tile[i]
        if i >= d:
            v = v + tile[i - d]
        await workgroup_barrier()  # everybody has read before anybody overwrites
        tile[i] = v
        await workgroup_barrier()  # everybody has written before the next round reads
        d = d * 2
    out[i] = tile[i]
