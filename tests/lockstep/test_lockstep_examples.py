"""The examples' race-free kernels, with their own setup() bindings, leave the same bits under
Lockstep (through to_wgsl) as under InOrder; the racy ones are left out (their memory is the
schedule's)."""

import numpy as np
import pytest
from helpers import DATA_DIR, load_example

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


def test_webgpu_samples_boids_as_published_gives_inorder_bits_under_lockstep():
    module = ash.load_wgsl(str(DATA_DIR / "ports" /
                               "webgpu-samples_computeBoids_updateSprites.wgsl"))
    particle = module["Particle"]
    rng = np.random.default_rng(0)
    start = particle.zeros(128)
    start["pos"] = rng.random((128, 2)) * 2 - 1
    start["vel"] = (rng.random((128, 2)) * 2 - 1) * 0.1
    params = module["SimParams"](deltaT=0.04, rule1Distance=0.1, rule2Distance=0.025,
                                 rule3Distance=0.025, rule1Scale=0.02, rule2Scale=0.05,
                                 rule3Scale=0.005)
    memories = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        out = particle.zeros(128)
        ash.run(module["main"], 2, schedule=schedule, sanitize="off", params=params,
                particlesA=start, particlesB=out)
        memories.append(bits(out))
    assert memories[0] == memories[1]
    assert np.abs(out["vel"]).max() > 0
