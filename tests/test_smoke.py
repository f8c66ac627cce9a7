import numpy as np

import asyncshader as ash

tile = ash.workgroup(ash.array(ash.f32, 64))


@ash.compute(workgroup_size=64)
async def block_sum(inp: ash.Storage, out: ash.Storage, *, local_invocation_index, workgroup_id):
    i = local_invocation_index
    tile[i] = inp[workgroup_id.x * 64 + i]
    await ash.workgroup_barrier()
    s = 32
    while s > 0:
        if i < s:
            tile[i] += tile[i + s]
        await ash.workgroup_barrier()
        s //= 2
    if i == 0:
        out[workgroup_id.x] = tile[0]


def test_design_example_block_sum_matches_numpy():
    inp = np.arange(1024, dtype=np.float32)
    out = np.zeros(16, np.float32)
    ash.run(block_sum, workgroups=16, inp=inp, out=out, schedule=ash.Random(seed=7))
    np.testing.assert_array_equal(out, inp.reshape(16, 64).sum(axis=1))
