"""The examples' race-free kernels, with their own setup() bindings, leave the same bits under
Lockstep (through to_wgsl) as under InOrder; the racy ones are left out (their memory is the
schedule's)."""

import numpy as np
import pytest
from helpers import load_example

import asyncshader as ash

RACE_FREE = [("boids.py", "update"), ("matmul.py", "matmul_tiled"), ("reduce.py", "block_sum"),
             ("speed_bins.py", "histogram"), ("particles.py", "step"),
             ("racy_counter.py", "atomic_increment"), ("stream_compaction.py", "compact"),
             ("subgroup_reduce.py", "workgroup_sum"), ("subgroup_size_bug.py", "buggy_sum")]


def bits(array):
    if array.dtype.names:
        return [np.ascontiguousarray(array[name]).tobytes() for name in array.dtype.names]
    return array.tobytes()


@pytest.mark.parametrize("example,kernel", RACE_FREE)
def test_an_example_kernel_gives_inorder_bits_under_lockstep(example, kernel):
    module = load_example(example)
    memories = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        given = module.setup()
        groups = given.pop("workgroups", 1)
        overrides = given.pop("overrides", None)
        ash.run(getattr(module, kernel), groups, schedule=schedule, sanitize="off",
                overrides=overrides, **given)
        memories.append({k: bits(v) for k, v in given.items() if isinstance(v, np.ndarray)})
    assert memories[0] == memories[1]
    assert memories[0]
