"""Puzzle 9, a subgroup vote: two votes, every invocation of the subgroup takes part."""

import asyncshader as ash
from asyncshader import vec3u


@ash.compute(workgroup_size=32)
async def vote(a: ash.Storage, out: ash.Storage, *, global_invocation_id: vec3u):
    g = global_invocation_id.x
    positive = a[g] > 0
    every = await ash.subgroup_all(positive)
    some = await ash.subgroup_any(positive)
    if every:
        out[g] = 1
    elif some:
        out[g] = 2
    else:
        out[g] = 0
