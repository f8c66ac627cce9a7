"""Puzzle 2, guard: the invocations past the end touch nothing."""

import asyncshader as ash
from asyncshader import u32, vec3u


@ash.compute(workgroup_size=8)
async def double(a: ash.Storage, out: ash.Storage, n: u32, *, global_invocation_id: vec3u):
    g = global_invocation_id.x
    if g < n:
        out[g] = 2.0 * a[g]
