"""The race detector's promises under stress: every racing pair of lines whatever the schedule,
no limit on the number of barriers, aliased bindings refused, hints that do not keep the bug."""

import inspect

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32
from asyncshader.sanitizers.races import RaceDetector

SCHEDULES = [ash.InOrder(), ash.Reverse(), ash.Random(0), ash.Random(1), ash.PCT(2, 3),
             ash.Lockstep()]


def line(fn, text):
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, s in enumerate(src) if text in s)


def pairs(result):
    return sorted({(f.race, *sorted([f.first.line, f.second.line]))
                   for f in result.findings if isinstance(f, ash.DataRace)})


# ------------------------------------------------------------- every racing pair of lines
slot = ash.workgroup(ash.array(ash.u32, 4))


@ash.compute(workgroup_size=4)
async def two_readers_one_writer(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        out[0] = slot[0]  # first reader
    if i == 1:
        out[1] = slot[0]  # second reader
    if i == 2:
        slot[0] = 5  # the writer, unordered with both


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_two_readers_and_a_writer_give_both_pairs_under_every_schedule(schedule):
    r = ash.run(two_readers_one_writer, out=np.zeros(4, np.uint32), schedule=schedule,
                sanitize="report")
    fn = two_readers_one_writer.fn
    writer = line(fn, "# the writer")
    assert pairs(r) == [("read-write", line(fn, "# first reader"), writer),
                        ("read-write", line(fn, "# second reader"), writer)]


@ash.compute(workgroup_size=4)
async def three_writers_one_reader(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        slot[1] = 1  # writer a
    if i == 1:
        slot[1] = 2  # writer b
    if i == 2:
        slot[1] = 3  # writer c
    if i == 3:
        out[0] = slot[1]  # the reader


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_several_writing_lines_each_pair_with_each_other_and_the_reader(schedule):
    r = ash.run(three_writers_one_reader, out=np.zeros(1, np.uint32), schedule=schedule,
                sanitize="report")
    fn = three_writers_one_reader.fn
    a, b, c = (line(fn, f"# writer {x}") for x in "abc")
    reader = line(fn, "# the reader")
    assert pairs(r) == sorted([("write-write", a, b), ("write-write", a, c),
                               ("write-write", b, c), ("read-write", a, reader),
                               ("read-write", b, reader), ("read-write", c, reader)])


@ash.compute(workgroup_size=2)
async def across_phases(buf: ash.Storage, *, local_invocation_index: u32,
                        workgroup_id: ash.vec3u):
    if workgroup_id.x == 0:
        if local_invocation_index == 0:
            buf[0] = 1  # early write
        await ash.storage_barrier()
        if local_invocation_index == 1:
            buf[0] = 2  # late write
    else:
        await ash.storage_barrier()
        if local_invocation_index == 0:
            buf[0] = 3  # other workgroup's write


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_a_write_of_another_workgroup_races_with_both_phases_of_one_workgroup(schedule):
    # the late write is ordered after the early one (a storage barrier between them), but the
    # other workgroup's write is ordered with neither
    r = ash.run(across_phases, 2, buf=np.zeros(1, np.uint32), schedule=schedule,
                sanitize="report", max_live_workgroups=2)
    fn = across_phases.fn
    early, late = line(fn, "# early write"), line(fn, "# late write")
    other = line(fn, "# other workgroup's write")
    assert pairs(r) == sorted([("write-write", early, other), ("write-write", late, other)])


@ash.compute(workgroup_size=4)
async def atomics_and_plain_lines(c: ash.Storage, out: ash.Storage, *,
                                  local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        await ash.atomic_add(ash.ptr(c, 0), 1)  # atomic a
    if i == 1:
        await ash.atomic_max(ash.ptr(c, 0), 5)  # atomic b
    if i == 2:
        out[0] = c[0]  # plain read


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_a_plain_read_races_with_every_atomic_line(schedule):
    r = ash.run(atomics_and_plain_lines, c=np.zeros(1, np.uint32), out=np.zeros(1, np.uint32),
                schedule=schedule, sanitize="report")
    fn = atomics_and_plain_lines.fn
    read = line(fn, "# plain read")
    assert pairs(r) == [("read-write", line(fn, "# atomic a"), read),
                        ("read-write", line(fn, "# atomic b"), read)]


# ----------------------------------------------------------------- no limit on barriers
@ash.compute(workgroup_size=2)
async def race_after_barriers(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        slot[0] = 7  # ordered: a barrier follows
    await ash.workgroup_barrier()
    await ash.storage_barrier()
    out[i] = slot[0]  # racy read
    slot[0] = i + 1  # racy write
    out[2] = i  # racy storage write


@pytest.mark.parametrize("barriers", [0, 2 ** 20 - 1, 2 ** 22 - 1, 2 ** 40])
def test_races_after_any_number_of_barriers_are_found_as_plain_accesses(monkeypatch,
                                                                        barriers):
    # the phase counters start where that many barriers of each kind would have left them
    # (running 2**20 real barriers takes seconds; the counters are what they would change)
    started = RaceDetector.run_started

    def run_started(self, scheduler):
        started(self, scheduler)
        self._phases["workgroup"][0] = self._phases["storage"][0] = barriers

    monkeypatch.setattr(RaceDetector, "run_started", run_started)
    r = ash.run(race_after_barriers, out=np.zeros(3, np.uint32), sanitize="report")
    fn = race_after_barriers.fn
    read, write = line(fn, "# racy read"), line(fn, "# racy write")
    store = line(fn, "# racy storage write")
    assert pairs(r) == sorted([("read-write", read, write), ("write-write", write, write),
                               ("write-write", store, store)])
    for f in r.findings:
        assert {f.first.kind, f.second.kind} <= {"load", "store"}, f.render()


# ------------------------------------------------------------------------ aliased bindings
@ash.compute(workgroup_size=4)
async def through_two_names(x: ash.Storage, y: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    x[i] = i
    y[i] = 10 + i


@pytest.mark.parametrize("views", ["overlapping", "twice", "reshaped"])
def test_overlapping_storage_bindings_are_refused_naming_both(views):
    arr = np.zeros(8, np.uint32)
    x, y = {"overlapping": (arr[0:4], arr[2:6]), "twice": (arr[:4], arr[:4]),
            "reshaped": (arr[:4], arr.reshape(2, 4)[0])}[views]
    with pytest.raises(ash.BindingError) as err:
        ash.run(through_two_names, x=x, y=y, sanitize="report")
    text = str(err.value)
    assert "'x'" in text and "'y'" in text and "share memory" in text and "Fix:" in text
    assert not arr.any(), "refused before anything ran"


@ash.fragment
async def shade_two(x: ash.Storage, y: ash.Storage, *, position: ash.vec4f) -> ash.vec4f:
    x[0] = 1
    y[0] = 2
    return ash.vec4f(0, 0, 0, 1)


def test_fragment_dispatches_refuse_aliased_storage_too():
    arr = np.zeros(4, np.uint32)
    with pytest.raises(ash.BindingError, match="'x' and 'y' share memory"):
        ash.run_fragments(shade_two, 2, 2, x=arr[:2], y=arr[1:3])


def test_disjoint_views_of_one_array_and_read_only_copies_stay_allowed():
    arr = np.zeros(8, np.uint32)
    ash.run(through_two_names, x=arr[0:8:2], y=arr[1:8:2], sanitize="error")
    np.testing.assert_array_equal(arr, [0, 10, 1, 11, 2, 12, 3, 13])

    @ash.compute(workgroup_size=2)
    async def reads_a_uniform(x: ash.Storage, table: ash.Uniform, *,
                              local_invocation_index: u32):
        x[local_invocation_index] = table[local_invocation_index] + 1

    buf = np.arange(4, dtype=np.uint32)
    ash.run(reads_a_uniform, x=buf[:2], table=buf, sanitize="error")  # a copy: no alias
    np.testing.assert_array_equal(buf, [1, 2, 2, 3])


def test_a_dispatch_too_large_for_the_detector_says_so_before_running():
    @ash.compute(workgroup_size=256)
    async def tiny(out: ash.Storage):
        out[0] = 1

    out = np.zeros(1, np.uint32)
    with pytest.raises(ash.AsyncShaderError, match="at most 4,294,967,296 invocations"):
        ash.run(tiny, (1 << 16, 1 << 8, 2), out=out, sanitize="report")
    assert out[0] == 0


# ---------------------------------------------------------------------- hints that fix the bug
@ash.compute(workgroup_size=8)
async def lost_update(c: ash.Storage):
    seen = c[0]  # read
    c[0] = seen + 1  # write back


@ash.compute(workgroup_size=8)
async def update_in_place(c: ash.Storage):
    c[0] += 1  # update


@ash.compute(workgroup_size=4)
async def spin_lock(lock: ash.Storage, total: ash.Storage):
    while True:
        if lock[0] == 0:  # test
            lock[0] = 1  # take
            total[0] = total[0] + 1  # critical section
            lock[0] = 0  # release
            break


@ash.compute(workgroup_size=4)
async def hand_off(flag: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        flag[0] = 7  # one writes
    out[i] = flag[0]  # all read


def _hints(kernel, **buffers):
    hints = set()
    for schedule in SCHEDULES:
        r = ash.run(kernel, **{k: v.copy() for k, v in buffers.items()}, schedule=schedule,
                    sanitize="report")
        hints |= {(f.memory, f.race, tuple(sorted([f.first.line, f.second.line])), f.hint)
                  for f in r.findings}
    return hints


@pytest.mark.parametrize("kernel, buffers", [
    (lost_update, {"c": np.zeros(1, np.uint32)}),
    (update_in_place, {"c": np.zeros(1, np.uint32)}),
    (spin_lock, {"lock": np.zeros(1, np.uint32), "total": np.zeros(1, np.uint32)}),
], ids=["lost update", "+=", "spin lock"])
def test_an_update_by_several_invocations_is_told_atomics_never_a_barrier(kernel, buffers):
    hints = _hints(kernel, **buffers)
    assert hints
    for memory, race, lines, hint in hints:
        assert "barrier()" not in hint.split("a barrier would not fix it")[0], (race, lines, hint)
        assert "atomic_add" in hint and "reduction" in hint, hint
        # the same hint under every schedule
        assert len({h for m, r, ls, h in hints if (m, r, ls) == (memory, race, lines)}) == 1


def test_following_the_update_hint_gives_the_right_count():
    @ash.compute(workgroup_size=8)
    async def fixed(c: ash.Storage):
        await ash.atomic_add(ash.ptr(c, 0), 1)  # what the hint says

    for schedule in SCHEDULES:
        c = np.zeros(1, np.uint32)
        r = ash.run(fixed, c=c, schedule=schedule, sanitize="report")
        assert r.findings == [] and c[0] == 8


def test_a_hand_off_is_told_the_barrier_between_the_lines():
    hints = _hints(hand_off, flag=np.zeros(1, np.uint32), out=np.zeros(4, np.uint32))
    fn = hand_off.fn
    write, read = line(fn, "# one writes"), line(fn, "# all read")
    assert {(m, r, ls) for m, r, ls, _ in hints} == {("flag", "read-write", (write, read))}
    (hint,) = {h for *_, h in hints}
    assert hint.startswith(f"a storage_barrier() between line {write} and line {read} orders")


def test_an_update_across_workgroups_is_told_atomics_or_a_second_dispatch():
    # the pair of lines races within workgroups and between them: the hint (and
    # same_workgroup) must cover both, whichever occurrence came first
    for schedule in SCHEDULES:
        found = ash.run(update_in_place, 3, c=np.zeros(1, np.uint32), schedule=schedule,
                        sanitize="report", max_live_workgroups=3).findings
        assert found and not any(f.same_workgroup for f in found)
        for f in found:
            assert "atomic_add" in f.hint and "second dispatch" in f.hint, f.hint
            assert "barrier()" not in f.hint, f.hint
