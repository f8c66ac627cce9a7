"""Puzzle 1, map: out[i] = a[i] + 10."""

import asyncshader as ash
from asyncshader import u32


@ash.compute(workgroup_size=8)
async def add_ten(a: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = a[i] + 10.0
