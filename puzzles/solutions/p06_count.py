"""Puzzle 6, a lost update: one atomic per odd element."""

import asyncshader as ash
from asyncshader import atomic_add, ptr, vec3u


@ash.compute(workgroup_size=8)
async def count_odd(a: ash.Storage, count: ash.Storage, *, global_invocation_id: vec3u):
    g = global_invocation_id.x
    if a[g] % 2 == 1:
        await atomic_add(ptr(count, 0), 1)
