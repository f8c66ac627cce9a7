"""The runs the view tests draw: a tree reduction missing its first barrier (a read-write race
on workgroup memory) and the same reduction with the barrier (race-free); ``record`` runs a
kernel with a Timeline."""

import asyncshader as ash
from asyncshader import f32, u32, vec3u, workgroup_barrier

WG = 8
scratch = ash.workgroup(ash.array(f32, WG))


@ash.compute(workgroup_size=WG)
async def reduce_missing_barrier(inp: ash.Storage, partial: ash.Storage, *,
                                 local_invocation_index: u32, workgroup_id: vec3u):
    i = local_invocation_index
    scratch[i] = inp[workgroup_id.x * WG + i]  # LOAD_LINE: no barrier after this store
    stride = WG // 2
    while stride > 0:
        if i < stride:
            scratch[i] += scratch[i + stride]  # SUM_LINE
        await workgroup_barrier()  # BARRIER_LINE
        stride //= 2
    if i == 0:
        partial[workgroup_id.x] = scratch[0]


@ash.compute(workgroup_size=WG)
async def reduce_ok(inp: ash.Storage, partial: ash.Storage, *,
                    local_invocation_index: u32, workgroup_id: vec3u):
    i = local_invocation_index
    scratch[i] = inp[workgroup_id.x * WG + i]
    await workgroup_barrier()
    stride = WG // 2
    while stride > 0:
        if i < stride:
            scratch[i] += scratch[i + stride]
        await workgroup_barrier()
        stride //= 2
    if i == 0:
        partial[workgroup_id.x] = scratch[0]


def line_of(marker: str) -> int:
    """The line of this file that carries ``marker`` (a comment above)."""
    with open(__file__, encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            if marker in text and "line_of" not in text:
                return n
    raise LookupError(marker)


def record(kernel, workgroups=1, schedule=None, **buffers):
    tl = ash.Timeline()
    result = ash.run(kernel, workgroups=workgroups, schedule=schedule, sanitize="report",
                     instruments=[tl], **buffers)
    return tl, result
