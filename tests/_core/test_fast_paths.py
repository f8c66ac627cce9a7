"""The scheduler's fast paths make exactly the decisions of its general loop.

A run without instruments takes a fast path (in-order, or Random's random-order rounds); any
instrument that watches resumes forces the general loop, which asks the strategy at every
decision. Equivalence is part of the contract (docs/design.md): the same trace, counters and
outputs, and for a program that fails, the same error, message and partial trace. Each case
here is a small generated program: barriers, workgroup-uniform loads (one request object per
invocation), a varying number of atomics per invocation (scheduling points inside a round),
early returns and raised exceptions, on workgroup sizes on both sides of the size where Random
switches from Python to numpy.
"""

import random
from array import array

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32, vec3u, vec4f
from asyncshader._core.fast_paths import _SMALL, _record_keys, _record_small

shared = ash.workgroup(u32)

BARRIER, LOAD, RETURN, RAISE, NOTHING = 0, 4, 5, 6, 7  # 1..3: that many atomics


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
    out[1 + int(workgroup_id.x) * width + i] = acc


KERNELS = {w: ash.compute(workgroup_size=w)(_program) for w in (1, 2, 3, 5, 8, 16, 17, 33, 64)}


def make_program(case: int) -> tuple[int, int, np.ndarray]:
    """(workgroup size, workgroups, program): mostly valid, sometimes divergent or failing."""
    rng = random.Random(case)
    width = rng.choice(sorted(KERNELS))
    steps = []
    for _ in range(rng.randint(2, 7)):
        kind = rng.random()
        if kind < 0.3:
            row = [BARRIER] * width
        elif kind < 0.45:
            row = [LOAD] * width
        elif kind < 0.85:
            row = [rng.choice([1, 1, 2, 3, NOTHING]) for _ in range(width)]
        elif kind < 0.9:  # non-uniform: a divergence when somebody else meets a rendezvous
            row = [rng.choice([BARRIER, LOAD, RETURN, 1]) for _ in range(width)]
        elif kind < 0.95:
            row = [NOTHING] * width
            row[rng.randrange(width)] = RAISE
        else:
            row = [RETURN] * width
        steps.append(row)
    return width, rng.randint(1, 3), np.array(steps, np.uint32).ravel()


class Observer(ash.Instrument):
    """Watching resumes forces the general loop."""

    def invocation_resumed(self, inv):
        pass


def outcome(width, groups, prog, schedule, instruments=()):
    out = np.zeros(1 + 3 * width, np.uint32)
    try:
        r = ash.run(KERNELS[width], groups, prog=prog, out=out, width=width, schedule=schedule,
                    sanitize="off", instruments=list(instruments))
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc), exc.asyncshader_trace.to_json(),
                out.tolist())
    return ("ok", r.trace.to_json(), r.counters, out.tolist())


@pytest.mark.parametrize("block", range(8))
def test_generated_programs_run_the_same_on_the_fast_path_and_the_general_loop(block):
    kinds = set()
    for case in range(block * 40, block * 40 + 40):
        width, groups, prog = make_program(case)
        for schedule in (ash.Random(case), ash.InOrder()):
            fast = outcome(width, groups, prog, schedule)
            general = outcome(width, groups, prog, schedule, [Observer()])
            assert fast == general, (case, schedule)
            kinds.add(fast[0] if fast[0] == "ok" else fast[1])
    assert "ok" in kinds and len(kinds) >= 2  # the block met errors too


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Random(5)], ids=repr)
def test_a_failing_run_s_trace_replays_to_the_same_failure(schedule):
    """The trace a failing run carries counts its last round's steps exactly: replayed, it
    reaches the same error (the in-order fast path once cut that round's count short)."""
    replayed = 0
    for case in range(120):
        width, groups, prog = make_program(case)
        first = outcome(width, groups, prog, schedule)
        if first[0] != "error":
            continue
        trace = ash.Trace.load(first[3])
        again = outcome(width, groups, prog, ash.Replay(trace))
        assert again[1:3] == first[1:3], case
        replayed += 1
    assert replayed >= 5


@pytest.mark.parametrize("case", range(4))
def test_rounds_longer_than_a_checkpoint_run_the_same_on_both_loops(case):
    """Rounds of thousands of scheduling points reach checkpoints inside the round (the
    random-order round then traces and drops the steps it took so far; the in-order one
    pauses in the middle of an invocation's points): the trace, counters, outputs, and for a
    failing round the error and partial trace, are still the general loop's."""
    rng = random.Random(case)
    width = 3
    long_stretch = [[rng.choice([1, 2, 3, 3, 3, NOTHING]) for _ in range(width)]
                    for _ in range(rng.randint(800, 1000))]
    ending = [[BARRIER] * width, [LOAD] * width, [1, RETURN, 1], [NOTHING, RAISE, NOTHING]]
    rows = [*long_stretch, ending[case], *long_stretch[:100]]
    prog = np.array(rows, np.uint32).ravel()
    for schedule in (ash.Random(case), ash.InOrder()):
        fast = outcome(width, 1, prog, schedule)
        general = outcome(width, 1, prog, schedule, [Observer()])
        assert fast == general, (case, schedule)
        if fast[0] == "ok" or schedule.name == "random":  # (in order, lane 1 raises early)
            trace = ash.Trace.load(fast[1] if fast[0] == "ok" else fast[3])
            assert trace.steps > 4096  # a round longer than a checkpoint


def test_the_generated_programs_cover_both_sizes_and_every_outcome():
    """The cases above are not all alike: small and large rounds, points, every error."""
    widths, outcomes = set(), set()
    for case in range(320):
        width, groups, prog = make_program(case)
        widths.add(width > _SMALL)
        result = outcome(width, groups, prog, ash.Random(case))
        outcomes.add(result[0] if result[0] == "ok" else result[1])
    assert widths == {True, False}
    assert {"ok", "BarrierDivergenceError", "ShaderError"} <= outcomes, outcomes


@ash.fragment
async def mixed_fragment(counter: ash.Storage, *, position: vec4f):
    x, y = int(position.x), int(position.y)
    for _ in range((x * 7 + y * 3) % 3):
        await ash.atomic_add(ash.ptr(counter, 0), 1)
    if (x + 2 * y) % 5 == 0:
        ash.discard()
    d = await ash.dpdx(position.x * position.y)
    old = await ash.atomic_add(ash.ptr(counter, 1), 1)
    return vec4f(d, await ash.dpdy(position.y), float(old), 1.0)


@pytest.mark.parametrize("seed", range(6))
def test_fragments_under_random_take_the_same_decisions_on_both_loops(seed):
    runs = []
    for instruments in ([], [Observer()]):
        counter = np.zeros(2, np.uint32)
        r = ash.run_fragments(mixed_fragment, 7, 5, counter=counter, schedule=ash.Random(seed),
                              instruments=instruments, sanitize="off")
        runs.append((r.trace.to_json(), r.counters, r.output.tolist(), counter.tolist()))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("size", [2, 5, 16, 40, 300])
def test_a_round_is_traced_alike_in_python_and_numpy(size):
    """The two ways of tracing a random-order round follow the rule: a decision is recorded
    unless its key is the least of the steps from there on; repeated steps of one invocation
    (scheduling points) and a round cut short included."""
    rng = random.Random(size)
    for _ in range(50):
        keys = rng.sample(range(1000), size)
        keys += [rng.choice(keys) for _ in range(rng.randint(0, 3))]
        end = rng.randint(1, len(keys) - 1)
        canon = rng.randint(0, 5)
        expected, c = [], canon  # the rule, by hand
        for s in range(end):
            if keys[s] == min(keys[s:]):
                c += 1
            else:
                expected += [c, keys[s]]
                c = 0
        small, large = array("I"), array("I")
        assert _record_small(small, keys, end, canon) == c and small.tolist() == expected
        assert _record_keys(large, np.array(keys), end, canon) == c
        assert large.tolist() == expected


class Rendezvous(ash.Instrument):
    """Watches rendezvous only: the fast paths still run."""

    def __init__(self):
        self.log = []

    def rendezvous_completed(self, group, op, members):
        self.log.append((op, [int(m.key) for m in members]))


@pytest.mark.parametrize("width", [5, 33])
def test_instruments_see_a_rendezvous_s_arrivals_in_the_order_they_came(width):
    """Arrival order, not lane order, on the random-order fast path as on the general loop."""
    prog = np.array([[LOAD] * width, [BARRIER] * width], np.uint32).ravel()
    logs = []
    for extra in ([], [Observer()]):
        seen = Rendezvous()
        ash.run(KERNELS[width], 1, prog=prog, out=np.zeros(1 + 3 * width, np.uint32),
                width=width, schedule=ash.Random(3), sanitize="off", instruments=[seen, *extra])
        logs.append(seen.log)
    assert logs[0] == logs[1]
    assert any(keys != sorted(keys) for _, keys in logs[0])


OPS = {"swap": ash.quad_swap_x}  # reached through a dict: the kernel scan sees no quad op


@ash.compute(workgroup_size=2)
async def points_then_no_group(out: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index == 1:  # the last lane: alone once lane 0 waits
        await ash.atomic_add(ash.ptr(out, 0), 1)
        await ash.atomic_add(ash.ptr(out, 0), 1)
        await OPS["swap"](1)  # no quad group in this dispatch: an error
    await ash.workgroup_barrier()


def test_a_round_cut_after_an_invocation_s_points_counts_them_as_its_own_steps():
    traces = []
    for extra in ([], [Observer()]):
        with pytest.raises(ash.AsyncShaderError) as info:
            ash.run(points_then_no_group, 1, out=np.zeros(1, np.uint32), sanitize="off",
                    instruments=extra)
        traces.append(info.value.asyncshader_trace.to_json())
    assert traces[0] == traces[1]
    assert ash.Trace.load(traces[0]).decision_count == 1  # lane 0's first step only


def test_two_dispatches_sharing_one_random_object_each_follow_its_seed(monkeypatch):
    """Each run's draws belong to the run: interleaved dispatches do not disturb each other."""
    import anyio

    from asyncshader._core.scheduler import Scheduler

    # a checkpoint at every round: the two dispatches take turns
    monkeypatch.setitem(Scheduler.__init__.__kwdefaults__, "checkpoint_every", 8)

    width, groups = 8, 3
    prog = np.array([[BARRIER] * 8, [1, 2, 1, 3, 1, 2, 2, 1], [BARRIER] * 8, [2] * 8],
                    np.uint32).ravel()
    alone = outcome(width, groups, prog, ash.Random(1))
    shared, results = ash.Random(1), []

    async def one():
        out = np.zeros(1 + 3 * width, np.uint32)
        r = await ash.dispatch(KERNELS[width], groups, prog=prog, out=out, width=width,
                               schedule=shared, sanitize="off")
        results.append(r.trace.to_json())

    async def both():
        async with anyio.create_task_group() as tg:
            tg.start_soon(one)
            tg.start_soon(one)

    anyio.run(both)
    assert results == [alone[1], alone[1]]
