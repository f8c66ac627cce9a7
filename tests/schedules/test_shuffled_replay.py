"""A run with ``subgroup_reduction="shuffled"`` replays to the same sums: the seed of its fold
orders is in the trace (``dispatch["subgroup_reduction_seed"]``), and a replay, a recording
wrapper and a shrink fold in the recorded orders."""

import numpy as np

import asyncshader as ash
from asyncshader import u32

# f32 sums of these depend on the order: 1e8 + 1 rounds back to 1e8
VALUES = np.array([1e8, 1, -1e8, 1] * 2, np.float32)


@ash.compute(workgroup_size=8)
async def folded(vals: ash.Storage, out: ash.Storage, *, subgroup_invocation_id: u32):
    out[subgroup_invocation_id] = await ash.subgroup_add(vals[subgroup_invocation_id])


def setup():
    return {"vals": VALUES.copy(), "out": np.zeros(8, np.float32), "subgroup_size": 8,
            "subgroup_reduction": "shuffled", "sanitize": "off"}


def not_one(result):
    """Fails on the orders that sum to 1 (a check of nothing but the fold order: the orders
    seed 0 draws sum to 0, so a replay that ignores the recorded seed passes it)."""
    assert result["out"][0] != 1.0, "the sum is 1"


def test_random_runs_0_to_5_replay_to_the_same_sums():
    sums = []
    for seed in range(6):
        first = ash.run(folded, **setup(), schedule=ash.Random(seed))
        text = first.trace.to_string()
        again = ash.run(folded, **setup(), schedule=ash.Replay(text))
        assert again["out"].tolist() == first["out"].tolist(), f"Random({seed}) replays"
        assert again.trace == first.trace
        assert first.trace.dispatch.get("subgroup_reduction_seed", 0) == seed
        sums.append(float(first["out"][0]))
    assert len(set(sums)) > 1  # the seeds fold in different orders: the replay had a choice


def test_explore_failures_replay_and_shrink_to_the_same_failure():
    report = ash.explore(folded, setup, not_one, ash.Random(3), runs=12,
                         stop_on_failure=False, store=None, workers=1)
    assert len(report.failures) > 2, "seeds 3 to 14 must sum to 1 now and then"
    for f in report.failures:  # run i is Random(3 + i)
        direct = ash.run(folded, **setup(), schedule=ash.Random(3 + f.run))
        replayed = ash.run(folded, **setup(), schedule=f.trace)
        assert replayed["out"].tolist() == direct["out"].tolist() == [1.0] * 8
    shrunk = ash.shrink(folded, setup, report.failures[0].trace, not_one)
    assert shrunk.failure == "check"
    assert ash.run(folded, **setup(), schedule=shrunk.trace)["out"].tolist() == [1.0] * 8
