"""Puzzle 10, a spin lock: take it with one atomic exchange, release it with a store."""

import asyncshader as ash
from asyncshader import atomic_exchange, atomic_load, atomic_store, ptr


@ash.compute(workgroup_size=4)
async def locked_update(lock: ash.Storage, data: ash.Storage):
    while await atomic_exchange(ptr(lock, 0), 1) != 0:  # test and set in one atomic
        pass
    d0 = await atomic_load(ptr(data, 0))
    d1 = await atomic_load(ptr(data, 1))
    await atomic_store(ptr(data, 0), d0 + 1)
    await atomic_store(ptr(data, 1), d1 + d0)
    await atomic_store(ptr(lock, 0), 0)  # release
