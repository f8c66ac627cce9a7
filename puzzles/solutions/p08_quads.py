"""Puzzle 8, quad derivatives: fwidth, called by every invocation of the quad."""

import asyncshader as ash
from asyncshader import f32, vec3u


@ash.compute(workgroup_size=(4, 4), derivatives="quads")
async def edges(out: ash.Storage, *, local_invocation_id: vec3u):
    x, y = f32(local_invocation_id.x), f32(local_invocation_id.y)
    v = x * x + 3 * y
    out[local_invocation_id.y * 4 + local_invocation_id.x] = await ash.fwidth(v)
