"""The in-order loop over active-set rounds (``_core/active_sets.py``) makes exactly the steps,
decisions and errors of the general loop: generated programs mixing subgroup operations (in
uniform and divergent flow, at two call sites of one operation and of two, integer and float
folds in every reduction order, values that do not combine), barriers, workgroup-uniform loads,
atomics, early returns and raised exceptions, compared on both loops (an instrument that
watches resumes forces the general one). Whole-subgroup rounds run lean (one send per member,
nothing noted) and stop at anything else: every way of stopping is generated."""

from __future__ import annotations

import random

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32, vec2u, vec3u

shared = ash.workgroup(u32)

BARRIER, LOAD, RETURN, RAISE, NOTHING, SG_A, SG_B = 0, 4, 5, 6, 7, 8, 9  # 1..3: atomics
SG_A2, SG_F, SG_MIX, SG_ALL = 10, 11, 12, 13  # subgroup_add at a second call site, ...


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
        elif op == SG_A2:  # the same operation as SG_A at another call site
            acc += await ash.subgroup_add(u32(3 * i + 1))
        elif op == SG_F:  # a float fold (the dispatch's reduction order)
            acc += u32(int(float(await ash.subgroup_add(f32(i) * f32(0.1) + f32(s))) * 1000))
        elif op == SG_MIX:  # vec2u and vec3u at one call site: the values do not combine
            acc += (await ash.subgroup_add(vec2u(i, s) if i % 2 else vec3u(i, s, 1))).x
        elif op == SG_ALL:
            acc += u32(await ash.subgroup_all(i % 3 != s % 3))
    out[1 + int(workgroup_id.x) * width + i] = acc


KERNELS = {w: ash.compute(workgroup_size=w)(_program) for w in (1, 3, 4, 8, 13, 16, 33)}


def make_program(case: int) -> tuple[int, int, int, np.ndarray, str]:
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
            row = [rng.choice([SG_A, SG_A, SG_F, SG_ALL])] * width  # uniform: lean rounds
        elif kind < 0.62:
            row = [rng.choice([SG_A, SG_B, SG_A2, NOTHING]) for _ in range(width)]
        elif kind < 0.66:
            row = [rng.choice([SG_A, SG_A2]) for _ in range(width)]  # one kind, two sites
        elif kind < 0.69:
            row = [SG_MIX] * width
        elif kind < 0.8:
            row = [rng.choice([1, 2, NOTHING, SG_A]) for _ in range(width)]
        elif kind < 0.87:
            row = [rng.choice([BARRIER, SG_A, RETURN, 1]) for _ in range(width)]
        elif kind < 0.93:
            row = [rng.choice([SG_A, SG_F])] * width
            row[rng.randrange(width)] = rng.choice([RAISE, 1, BARRIER, RETURN])
        else:
            row = [rng.choice([RETURN, SG_B]) for _ in range(width)]
        steps.append(row)
    return (width, rng.randint(1, 3), rng.choice([4, 8]), np.array(steps, np.uint32).ravel(),
            rng.choice(["lanes", "lanes", "reverse", "tree", "shuffled"]))


class Observer(ash.Instrument):
    """Watching resumes forces the general loop."""

    def invocation_resumed(self, inv):
        pass


def outcome(width, groups, size, prog, schedule, instruments=(), max_live=1, order="lanes",
            sanitize="off"):
    out = np.zeros(1 + 3 * width, np.uint32)
    try:
        r = ash.run(KERNELS[width], groups, prog=prog, out=out, width=width, schedule=schedule,
                    sanitize=sanitize, instruments=list(instruments), subgroup_size=size,
                    max_live_workgroups=max_live, subgroup_reduction=order)
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc), exc.asyncshader_trace.to_json(),
                out.tolist())
    return ("ok", r.trace.to_json(), r.counters, out.tolist(),
            [str(f) for f in r.findings])


@pytest.mark.parametrize("block", range(4))
def test_generated_programs_run_the_same_on_both_loops(block):
    kinds = set()
    for case in range(block * 40, block * 40 + 40):
        width, groups, size, prog, order = make_program(case)
        for max_live in (1, 2):
            fast = outcome(width, groups, size, prog, ash.InOrder(), max_live=max_live,
                           order=order)
            general = outcome(width, groups, size, prog, ash.InOrder(), [Observer()],
                              max_live=max_live, order=order)
            assert fast == general, (case, max_live)
            kinds.add(fast[0] if fast[0] == "ok" else fast[1])
    assert "ok" in kinds and len(kinds) >= 2  # the block met errors too


def test_a_failing_run_s_trace_replays_to_the_same_failure():
    replayed = 0
    for case in range(160):
        width, groups, size, prog, order = make_program(case)
        first = outcome(width, groups, size, prog, ash.InOrder(), order=order)
        if first[0] != "error":
            continue
        again = outcome(width, groups, size, prog, ash.Replay(ash.Trace.load(first[3])),
                        order=order)
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


def test_lean_rounds_meet_checkpoints_on_both_loops():
    """Uniform subgroup rounds (lean) between atomics, over three checkpoints (every 4096
    steps): a lean round that would pass one runs member by member, as the general loop."""
    width = 16
    rows = []
    for k in range(420):
        rows.append([SG_A] * width)
        if k % 7 == 3:
            rows.append([1, 2, 3, NOTHING] * 4)
    prog = np.array(rows, np.uint32).ravel()
    fast = outcome(width, 2, 8, prog, ash.InOrder())
    general = outcome(width, 2, 8, prog, ash.InOrder(), [Observer()])
    assert fast == general and fast[0] == "ok"
    assert fast[2].steps > 3 * 4096


racy = ash.workgroup(u32)


@ash.compute(workgroup_size=16, subgroup_size=8)
async def _racy(out: ash.Storage, *, local_invocation_index: u32):
    s = await ash.subgroup_add(local_invocation_index)
    racy.value = s  # every invocation writes it, unordered: a race
    s = await ash.subgroup_inclusive_add(s)
    out[local_invocation_index] = s + racy.value


def test_the_race_detector_reports_the_same_on_both_loops():
    results = []
    for instruments in ([], [Observer()]):
        out = np.zeros(16, np.uint32)
        with pytest.warns(ash.DataRaceWarning):
            r = ash.run(_racy, 2, out=out, instruments=instruments)
        results.append((r.trace.to_json(), r.counters, [str(f) for f in r.findings]))
    assert results[0] == results[1]
    assert any("memory='racy'" in f for f in results[0][2])


def test_uniform_subgroup_rounds_make_no_request_objects(monkeypatch):
    """A subgroup operation yields the pair (kind, value), and a whole-subgroup round on the
    in-order loop resolves from the pairs: no request object is made per call."""
    yielded = next(ash.subgroup_add(u32(5)))  # (a request object, before the lean rounds)
    kind = yielded[0] if isinstance(yielded, tuple) else type(yielded)
    assert kind.op == "subgroup_add"
    made = []
    init = kind.__init__

    def counting(self, v):
        made.append(v)
        init(self, v)
    monkeypatch.setattr(kind, "__init__", counting)
    out = np.zeros(1 + 3 * 8, np.uint32)
    prog = np.array([[SG_A] * 8] * 5, np.uint32).ravel()
    ash.run(KERNELS[8], 3, prog=prog, out=out, width=8, subgroup_size=4, sanitize="off")
    assert out[1:1 + 8].tolist() == [50] * 4 + [130] * 4  # 5 rounds of 1+2+3+4, of 5+6+7+8
    assert made == []
