"""The in-order loop over active-set rounds (``_core/active_sets.py``) makes exactly the steps,
decisions and errors of the general loop: generated programs mixing subgroup operations (in
uniform and divergent flow, at two call sites), barriers, workgroup-uniform loads, atomics,
early returns and raised exceptions, compared on both loops (an instrument that watches
resumes forces the general one)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32, vec3u

shared = ash.workgroup(u32)

BARRIER, LOAD, RETURN, RAISE, NOTHING, SG_A, SG_B = 0, 4, 5, 6, 7, 8, 9  # 1..3: atomics


async def _program(prog: ash.Storage, out: ash.Storage, width: ash.Uniform, *,
                   local_invocation_index: u32, workgroup_id: vec3u):
    i = int(local_invocation_index)
    acc = u32(0)
    for s in range(len(prog) // width):
        op = int(prog[s * width + i])
        if op == BARRIER:
            await ash.workgroup_barrier()
        elif op <= 3:
            for _ in range(op):
                acc += await ash.atomic_add(ash.ptr(out, 0), 1)
        elif op == LOAD:
            if i == width - 1:
                shared.value = u32(s + 1)
            acc += await ash.workgroup_uniform_load(shared)
        elif op == RETURN:
            return
        elif op == RAISE:
            raise ValueError(f"lane {i} gives up at step {s}")
        elif op == SG_A:
            acc += await ash.subgroup_add(u32(i + 1))
        elif op == SG_B:
            acc += await ash.subgroup_exclusive_add(u32(2 * i + 1))
    out[1 + int(workgroup_id.x) * width + i] = acc


KERNELS = {w: ash.compute(workgroup_size=w)(_program) for w in (1, 3, 4, 8, 13, 16, 33)}


def make_program(case: int) -> tuple[int, int, int, np.ndarray]:
    rng = random.Random(case)
    width = rng.choice(sorted(KERNELS))
    steps = []
    for _ in range(rng.randint(2, 8)):
        kind = rng.random()
        if kind < 0.2:
            row = [BARRIER] * width
        elif kind < 0.3:
            row = [LOAD] * width
        elif kind < 0.55:
            row = [SG_A] * width
        elif kind < 0.7:
            row = [rng.choice([SG_A, SG_B, NOTHING]) for _ in range(width)]
        elif kind < 0.82:
            row = [rng.choice([1, 2, NOTHING, SG_A]) for _ in range(width)]
        elif kind < 0.88:
            row = [rng.choice([BARRIER, SG_A, RETURN, 1]) for _ in range(width)]
        elif kind < 0.93:
            row = [NOTHING] * width
            row[rng.randrange(width)] = RAISE
        else:
            row = [rng.choice([RETURN, SG_B]) for _ in range(width)]
        steps.append(row)
    return width, rng.randint(1, 3), rng.choice([4, 8]), np.array(steps, np.uint32).ravel()


class Observer(ash.Instrument):
    """Watching resumes forces the general loop."""

    def invocation_resumed(self, inv):
        pass


def outcome(width, groups, size, prog, schedule, instruments=(), max_live=1):
    out = np.zeros(1 + 3 * width, np.uint32)
    try:
        r = ash.run(KERNELS[width], groups, prog=prog, out=out, width=width, schedule=schedule,
                    sanitize="off", instruments=list(instruments), subgroup_size=size,
                    max_live_workgroups=max_live)
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc), exc.asyncshader_trace.to_json(),
                out.tolist())
    return ("ok", r.trace.to_json(), r.counters, out.tolist())


@pytest.mark.parametrize("block", range(4))
def test_generated_programs_run_the_same_on_both_loops(block):
    kinds = set()
    for case in range(block * 40, block * 40 + 40):
        width, groups, size, prog = make_program(case)
        for max_live in (1, 2):
            fast = outcome(width, groups, size, prog, ash.InOrder(), max_live=max_live)
            general = outcome(width, groups, size, prog, ash.InOrder(), [Observer()],
                              max_live=max_live)
            assert fast == general, (case, max_live)
            kinds.add(fast[0] if fast[0] == "ok" else fast[1])
    assert "ok" in kinds and len(kinds) >= 2  # the block met errors too


def test_a_failing_run_s_trace_replays_to_the_same_failure():
    replayed = 0
    for case in range(160):
        width, groups, size, prog = make_program(case)
        first = outcome(width, groups, size, prog, ash.InOrder())
        if first[0] != "error":
            continue
        again = outcome(width, groups, size, prog, ash.Replay(ash.Trace.load(first[3])))
        assert again[1:3] == first[1:3], case
        replayed += 1
    assert replayed >= 5


def test_long_rounds_reach_checkpoints_on_both_loops():
    width = 8
    rows = [[1, 3, 2, 1, 3, 2, 1, 3]] * 700 + [[SG_A] * width] + [[2] * width] * 100
    prog = np.array(rows, np.uint32).ravel()
    fast = outcome(width, 1, 4, prog, ash.InOrder())
    general = outcome(width, 1, 4, prog, ash.InOrder(), [Observer()])
    assert fast == general and fast[0] == "ok"
