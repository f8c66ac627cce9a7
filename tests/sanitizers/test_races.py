"""The sanitizer: data races (schedule-independent), out-of-bounds accesses, helper effects."""

import inspect
import json

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32, vec3u, vec4f, workgroup_barrier

SCHEDULES = [ash.InOrder(), ash.Random(0), ash.Random(3), ash.Lockstep()]
#: the coroutine detector and Lockstep's vectorised one (tests/lockstep/test_lockstep_races.py)
DETECTORS = [ash.InOrder(), ash.Lockstep()]


def line(fn, text):
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, s in enumerate(src) if text in s)


def races(result):
    return [f for f in result.findings if isinstance(f, ash.DataRace)]


def lines_of(race):
    return sorted({race.first.line, race.second.line})


# ----------------------------------------------------------------- reduction, missing barrier
partial = ash.workgroup(ash.array(ash.f32, 8))


@ash.compute(workgroup_size=8)
async def reduce_missing_barrier(inp: ash.Storage, out: ash.Storage, *,
                                 local_invocation_index: u32):
    i = local_invocation_index
    partial[i] = inp[i]
    await workgroup_barrier()
    s = 4
    while s > 0:
        if i < s:
            partial[i] += partial[i + s]  # reads a neighbour's slot, writes its own
        s //= 2  # the barrier that belongs here is missing
    if i == 0:
        out[0] = partial[0]


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_a_reduction_without_its_loop_barrier_races_whatever_the_schedule(schedule):
    r = ash.run(reduce_missing_barrier, inp=np.ones(8, np.float32), out=np.zeros(1, np.float32),
                schedule=schedule, sanitize="report")
    found = races(r)
    assert found, "the race must be found even when the schedule ran it in a harmless order"
    race = found[0]
    assert race.race == "read-write" and race.memory == "partial"
    assert race.address_space == "workgroup" and race.same_workgroup
    assert lines_of(race) == [line(reduce_missing_barrier.fn, "partial[i] += partial[i + s]")]
    assert "workgroup_barrier()" in race.hint


@ash.compute(workgroup_size=8)
async def reduce_correct(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                         workgroup_id: vec3u):
    i = local_invocation_index
    partial[i] = inp[i]
    await workgroup_barrier()
    s = 4
    while s > 0:
        if i < s:
            partial[i] += partial[i + s]
        await workgroup_barrier()
        s //= 2
    if i == 0:
        out[workgroup_id.x] = partial[0]


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_the_correct_reduction_is_race_free(schedule):
    out = np.zeros(3, np.float32)
    r = ash.run(reduce_correct, 3, inp=np.arange(8, dtype=np.float32), out=out,
                schedule=schedule, sanitize="report", max_live_workgroups=2)
    ash.assert_race_free(r)
    assert out.tolist() == [28, 28, 28]


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_every_workgroup_writing_the_same_result_slot_is_caught(schedule):
    """The same kernel writing out[0] from three workgroups: a write-write race between them."""
    r = ash.run(reduce_missing_barrier, 3, inp=np.ones(8, np.float32),
                out=np.zeros(1, np.float32), sanitize="report", schedule=schedule)
    cross = [f for f in races(r) if not f.same_workgroup]
    assert cross and cross[0].memory == "out" and cross[0].race == "write-write"


# ------------------------------------------------------------ tiled matmul, missing barrier
tile_a = ash.workgroup(ash.array(ash.f32, 4))


@ash.compute(workgroup_size=(2, 2))
async def matmul_missing_barrier(a: ash.Storage, b: ash.Storage, c: ash.Storage, *,
                                 local_invocation_id: vec3u):
    x, y = int(local_invocation_id.x), int(local_invocation_id.y)
    acc = 0.0
    for t in range(2):
        tile_a[y * 2 + x] = a[y * 4 + t * 2 + x]  # load this tile
        await workgroup_barrier()
        for k in range(2):
            acc += tile_a[y * 2 + k] * b[(t * 2 + k) * 2 + x]  # use it
        # missing: await workgroup_barrier() before the next tile overwrites tile_a
    c[y * 2 + x] = acc


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_tiled_matmul_without_the_second_barrier_races_between_use_and_reload(schedule):
    r = ash.run(matmul_missing_barrier, a=np.ones(8, np.float32), b=np.ones(8, np.float32),
                c=np.zeros(4, np.float32), sanitize="report", schedule=schedule)
    race = races(r)[0]
    assert race.memory == "tile_a" and race.race == "read-write"
    assert lines_of(race) == sorted([line(matmul_missing_barrier.fn, "# load this tile"),
                                     line(matmul_missing_barrier.fn, "# use it")])


# ------------------------------------------------------------ between workgroups, atomics
@ash.compute(workgroup_size=2)
async def same_slot_from_every_workgroup(out: ash.Storage, *, local_invocation_index: u32,
                                         workgroup_id: vec3u):
    if local_invocation_index == 0:
        out[0] = workgroup_id.x  # every workgroup writes slot 0


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_write_write_between_workgroups_is_a_race_no_barrier_can_fix(schedule):
    r = ash.run(same_slot_from_every_workgroup, 2, out=np.zeros(1, np.uint32),
                sanitize="report", schedule=schedule)
    race = races(r)[0]
    assert race.race == "write-write" and race.address_space == "storage"
    assert not race.same_workgroup and race.memory == "out"
    assert "different workgroups" in race.hint and not race.same_value
    assert "workgroup_id=(0,0,0)" in race.first.invocation
    assert "workgroup_id=(1,0,0)" in race.second.invocation


@ash.compute(workgroup_size=8)
async def atomic_counter(counter: ash.Storage, hist: ash.Storage, data: ash.Storage, *,
                         global_invocation_id: vec3u):
    await ash.atomic_add(ash.ptr(counter, 0), 1)
    await ash.atomic_add(ash.ptr(hist, data[global_invocation_id.x] % 4), 1)


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_atomic_counter_and_histogram_are_race_free(schedule):
    counter, hist = np.zeros(1, np.uint32), np.zeros(4, np.uint32)
    data = np.arange(32, dtype=np.uint32)
    r = ash.run(atomic_counter, 4, counter=counter, hist=hist, data=data, schedule=schedule,
                sanitize="report", max_live_workgroups=4)
    ash.assert_race_free(r)
    assert counter[0] == 32 and hist.tolist() == [8, 8, 8, 8]


shared_value = ash.workgroup(u32)


@ash.compute(workgroup_size=4)
async def broadcast(out: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index == 3:
        shared_value.value = 42
    out[local_invocation_index] = await ash.workgroup_uniform_load(shared_value)


def test_workgroup_uniform_load_broadcast_is_race_free():
    out = np.zeros(4, np.uint32)
    r = ash.run(broadcast, out=out, sanitize="report", schedule=ash.Random(2))
    ash.assert_race_free(r)
    assert out.tolist() == [42] * 4


@ash.compute(workgroup_size=1)
async def flag_handoff(data: ash.Storage, flag: ash.Storage, out: ash.Storage, *,
                       workgroup_id: vec3u):
    if workgroup_id.x == 0:
        data[0] = 7  # producer writes the payload
        await ash.atomic_store(ash.ptr(flag, 0), 1)
    else:
        if await ash.atomic_load(ash.ptr(flag, 0)) == 1:
            out[0] = data[0]  # consumer reads it: relaxed atomics order nothing


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_a_flag_hand_off_between_workgroups_through_storage_races(schedule):
    r = ash.run(flag_handoff, 2, data=np.zeros(1, np.uint32), flag=np.zeros(1, np.uint32),
                out=np.zeros(1, np.uint32), sanitize="report", schedule=schedule)
    race = races(r)[0]
    assert race.memory == "data" and race.race == "read-write" and not race.same_workgroup
    assert lines_of(race) == sorted([line(flag_handoff.fn, "# producer"),
                                     line(flag_handoff.fn, "# consumer")])


@ash.compute(workgroup_size=4)
async def everyone_writes_one(flag: ash.Storage):
    flag[0] = 1


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_several_invocations_writing_the_same_value_race_and_say_so_or_are_allowed(schedule):
    r = ash.run(everyone_writes_one, flag=np.zeros(1, np.uint32), sanitize="report",
                schedule=schedule)
    race = races(r)[0]
    assert race.race == "write-write" and race.same_value and race.count == 3
    assert "(both wrote the same value)" in race.render()
    allowed = ash.run(everyone_writes_one, flag=np.zeros(1, np.uint32), sanitize="report",
                      allow_races=["flag"], schedule=schedule)
    ash.assert_race_free(allowed)


@ash.compute(workgroup_size=2)
async def storage_only_workgroup_barrier(buf: ash.Storage, *, local_invocation_index: u32):
    buf[local_invocation_index] = 1
    await workgroup_barrier()  # orders workgroup memory only
    _ = buf[1 - local_invocation_index]


@ash.compute(workgroup_size=2)
async def storage_with_storage_barrier(buf: ash.Storage, *, local_invocation_index: u32):
    buf[local_invocation_index] = 1
    await ash.storage_barrier()
    _ = buf[1 - local_invocation_index]


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_storage_is_ordered_by_storage_barrier_not_by_workgroup_barrier(schedule):
    r = ash.run(storage_only_workgroup_barrier, buf=np.zeros(2, np.uint32), sanitize="report",
                schedule=schedule)
    race = races(r)[0]
    assert "storage_barrier()" in race.hint and "does not order storage" in race.hint
    ok = ash.run(storage_with_storage_barrier, buf=np.zeros(2, np.uint32), sanitize="report",
                 schedule=schedule)
    ash.assert_race_free(ok)


# --------------------------------------------------------------------- other findings, modes
@ash.compute(workgroup_size=4)
async def off_by_one(buf: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    out[local_invocation_index] = buf[local_invocation_index + 1]  # reads past the end


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_out_of_bounds_reads_are_findings_and_return_zero(schedule):
    out = np.full(4, 9, np.float32)
    r = ash.run(off_by_one, buf=np.arange(4, dtype=np.float32), out=out, sanitize="report",
                schedule=schedule)
    assert out.tolist() == [1, 2, 3, 0]  # robust access: the bad load gave zero
    oob = [f for f in r.findings if isinstance(f, ash.OutOfBounds)]
    assert len(oob) == 1 and oob[0].memory == "buf" and oob[0].index == 4
    assert oob[0].length == 4 and oob[0].access.line == line(off_by_one.fn, "past the end")


@ash.fragment
async def writes_everywhere(out: ash.Storage, *, position: vec4f):
    out[0] = 1  # helpers (the padding column) try too


def test_helper_writes_are_reported_as_helper_side_effects():
    r = ash.run_fragments(writes_everywhere, 3, 2, out=np.zeros(1, np.uint32),
                          sanitize="report")
    helpers = [f for f in r.findings if isinstance(f, ash.HelperSideEffect)]
    assert len(helpers) == 1 and helpers[0].count == 2 and helpers[0].memory == "out"
    assert "helper (padding)" in helpers[0].access.invocation


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_sanitize_error_raises_with_the_rendered_findings_and_off_finds_nothing(schedule):
    with pytest.raises(ash.DataRaceError) as info:
        ash.run(everyone_writes_one, flag=np.zeros(1, np.uint32), sanitize="error",
                schedule=schedule)
    assert "Write-write data race on storage memory flag[0]" in str(info.value)
    assert len(info.value.findings) == 1
    r = ash.run(everyone_writes_one, flag=np.zeros(1, np.uint32), sanitize="off", schedule=schedule)
    assert r.findings == []
    with pytest.raises(ValueError, match="sanitize= takes"):
        ash.run(everyone_writes_one, flag=np.zeros(1, np.uint32), sanitize="loud",
                schedule=schedule)


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_findings_render_as_text_and_json(schedule):
    r = ash.run(same_slot_from_every_workgroup, 2, out=np.zeros(1, np.uint32),
                sanitize="report", schedule=schedule)
    text = ash.render_findings(r.findings)
    assert text.startswith("Write-write data race on storage memory out[0]")
    assert "First access: store by global_invocation_id=(0,0,0)" in text
    assert "test_races.py:" in text and "out[0] = workgroup_id.x" in text
    doc = json.loads(ash.findings_json(r.findings))
    assert doc[0]["type"] == "DataRace" and doc[0]["race"] == "write-write"
    assert doc[0]["first"]["line"] == line(same_slot_from_every_workgroup.fn, "every workgroup")
    with pytest.raises(AssertionError, match="Write-write data race"):
        ash.assert_race_free(r)


@ash.fragment
async def fragments_share_a_slot(out: ash.Storage, hits: ash.Storage, *, position: vec4f):
    x, y = int(position.x), int(position.y)
    out[y * 4 + x] = 1  # own slot: fine
    hits[0] = hits[0] + 1  # everybody: a race between fragments
    await ash.atomic_add(ash.ptr(hits, 1), 1)  # atomic: fine


def test_fragments_racing_on_storage_are_found_and_own_slots_are_not():
    out, hits = np.zeros(8, np.uint32), np.zeros(2, np.uint32)
    r = ash.run_fragments(fragments_share_a_slot, 4, 2, out=out, hits=hits, sanitize="report")
    found = races(r)
    assert {f.memory for f in found} == {"hits"} and hits[1] == 8
    assert all(f.first.line == f.second.line == line(fragments_share_a_slot.fn,
                                                      "everybody") for f in found)
    assert out.tolist() == [1] * 8


@ash.compute(workgroup_size=2)
async def chained_2d(x: ash.Storage, *, local_invocation_index: u32):
    x[1][local_invocation_index] = 1  # own element, through a row view: fine
    x[0][0] = local_invocation_index  # the same element from both: a race


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_accesses_through_sub_array_views_are_seen_at_the_right_elements(schedule):
    r = ash.run(chained_2d, x=np.zeros((2, 2), np.uint32), sanitize="report", schedule=schedule)
    found = races(r)
    assert len(found) == 1 and found[0].race == "write-write" and found[0].index == (0, 0)
    assert found[0].first.line == line(chained_2d.fn, "the same element")


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_a_folded_finding_names_the_elements_it_covers(schedule):
    @ash.compute(workgroup_size=8)
    async def tail_reads(buf: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
        out[local_invocation_index] = buf[local_invocation_index + 6]

    r = ash.run(tail_reads, buf=np.zeros(8, np.float32), out=np.zeros(8, np.float32),
                sanitize="report", schedule=schedule)
    (oob,) = r.findings
    assert oob.count == 6 and oob.elements == [8, 9, 10, 11, 12, 13]
    assert "(6 times, at [8], [9], [10], [11], [12], [13])" in oob.render()


class CountAccesses(ash.Instrument):
    """Another instrument that watches memory: with it, every access takes the general path."""

    wants_memory_access = True

    def __init__(self):
        self.seen = 0

    def memory_access(self, inv, memory, index, kind):
        self.seen += 1


@ash.compute(workgroup_size=(2, 2))
async def neighbour_2d(img: ash.Storage, *, local_invocation_id: vec3u):
    x, y = local_invocation_id.x, local_invocation_id.y
    img[y, x] = img[y, (x + 1) % 2] + 1  # reads a neighbour's element: races with its store


FAST_AND_GENERAL = [
    (reduce_missing_barrier, 1, lambda: dict(inp=np.ones(8, np.float32),
                                             out=np.zeros(1, np.float32))),
    (matmul_missing_barrier, 1, lambda: dict(a=np.ones(8, np.float32), b=np.ones(8, np.float32),
                                             c=np.zeros(4, np.float32))),
    (same_slot_from_every_workgroup, 3, lambda: dict(out=np.zeros(1, np.uint32))),
    (flag_handoff, 2, lambda: dict(data=np.zeros(1, np.uint32), flag=np.zeros(1, np.uint32),
                                   out=np.zeros(1, np.uint32))),
    (everyone_writes_one, 1, lambda: dict(flag=np.zeros(1, np.uint32))),
    (neighbour_2d, 2, lambda: dict(img=np.zeros((2, 2), np.float32))),
]


@pytest.mark.parametrize("kernel,groups,bindings", FAST_AND_GENERAL,
                         ids=[k.fn.__name__ for k, _, _ in FAST_AND_GENERAL])
def test_the_detectors_fast_path_finds_exactly_what_the_general_path_finds(kernel, groups,
                                                                           bindings):
    # alone, the detector checks plain element accesses directly from memory.py; next to
    # another memory-watching instrument every access goes through the instrument hooks
    fast = ash.run(kernel, groups, sanitize="report", **bindings())
    counter = CountAccesses()
    general = ash.run(kernel, groups, sanitize="report", instruments=[counter], **bindings())
    assert counter.seen > 0
    assert fast.findings, "each of these kernels races"
    assert ash.render_findings(fast.findings) == ash.render_findings(general.findings)
    assert [f.count for f in fast.findings] == [f.count for f in general.findings]


def test_the_fast_path_sees_fragment_storage_too():
    out, hits = np.zeros(8, np.uint32), np.zeros(2, np.uint32)
    fast = ash.run_fragments(fragments_share_a_slot, 4, 2, out=out, hits=hits,
                             sanitize="report")
    general = ash.run_fragments(fragments_share_a_slot, 4, 2, out=np.zeros(8, np.uint32),
                                hits=np.zeros(2, np.uint32), sanitize="report",
                                instruments=[CountAccesses()])
    assert races(fast) and ash.render_findings(fast.findings) == ash.render_findings(
        general.findings)


def test_the_default_reports_and_warns_so_a_race_is_never_silent(recwarn):
    r = ash.run(everyone_writes_one, flag=np.zeros(1, np.uint32))  # no sanitize=
    (race,) = races(r)
    assert race.race == "write-write" and race.count == 3
    (w,) = [w for w in recwarn if w.category is ash.DataRaceWarning]
    assert str(w.message).startswith("Write-write data race on storage memory flag[0]")
    assert "sanitize='off'" in str(w.message)
    assert w.filename == __file__  # points at the dispatch in the user's code
    recwarn.clear()
    ash.run(everyone_writes_one, flag=np.zeros(1, np.uint32), sanitize="report")
    ash.run(reduce_correct, inp=np.ones(8, np.float32), out=np.zeros(1, np.float32))
    assert not [w for w in recwarn if w.category is ash.DataRaceWarning], \
        "explicit 'report' is read by the caller; a clean run has nothing to say"


def test_the_same_race_folds_into_one_finding_whichever_access_ran_first():
    @ash.compute(workgroup_size=4)
    async def read_then_write(buf: ash.Storage):
        seen = buf[0]  # line A
        await ash.atomic_add(ash.ptr(buf, 1), 1)  # a scheduling point between the two
        buf[0] = seen + 1  # line B

    verdicts = set()
    for seed in range(6):
        r = ash.run(read_then_write, buf=np.zeros(2, np.uint32), schedule=ash.Random(seed),
                    sanitize="report")
        # (the count, how many racy accesses the run saw, may differ with the order)
        verdicts.add(tuple((f.race, tuple(sorted({f.first.line, f.second.line})))
                           for f in r.findings))
    assert len(verdicts) == 1, verdicts
    (found,) = verdicts
    assert [(race, len(lines)) for race, lines in found] == [("read-write", 2),
                                                            ("write-write", 1)]


@ash.compute(workgroup_size=2)
async def unpacks_rows(pairs: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    a, b = pairs[local_invocation_index]  # iterating a row: two loads
    out[local_invocation_index] = a + b


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_rows_of_a_watched_buffer_can_be_unpacked(schedule):
    # numpy iterates a subclass through __getitem__ until IndexError, which WGSL's robust
    # access never raises: iteration must stop at the row's end
    out = np.zeros(2, np.uint32)
    r = ash.run(unpacks_rows, pairs=np.array([[1, 2], [3, 4]], np.uint32), out=out,
                sanitize="report", schedule=schedule)
    assert out.tolist() == [3, 7] and r.findings == []


table = ash.workgroup(ash.array(u32, 4))


@ash.compute(workgroup_size=4)
async def uniform_load_of_an_element(out: ash.Storage, *, local_invocation_index: u32):
    table[local_invocation_index] = local_invocation_index * 10
    out[local_invocation_index] = await ash.workgroup_uniform_load(ash.ptr(table, 2))
    table[local_invocation_index] = 0  # after the load's closing barrier: ordered


def test_workgroup_uniform_load_of_an_element_is_ordered_before_and_after():
    # WGSL: workgroupUniformLoad is barrier, load, barrier; its load races with nothing
    out = np.zeros(4, np.uint32)
    r = ash.run(uniform_load_of_an_element, out=out, sanitize="report", schedule=ash.Random(1))
    ash.assert_race_free(r)
    assert out.tolist() == [20] * 4


# ------------------------------------------------------------- plain accesses against atomics
@ash.compute(workgroup_size=4)
async def reset_then_count(counter: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index == 0:
        counter[0] = 0  # plain store
    # missing storage_barrier(): the others' atomic_add races with the plain store
    await ash.atomic_add(ash.ptr(counter, 0), 1)


@ash.compute(workgroup_size=4)
async def peek_then_atomics(counter: ash.Storage, out: ash.Storage, *,
                            local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        out[0] = counter[0]  # plain load
    elif i < 3:
        out[i] = await ash.atomic_load(ash.ptr(counter, 0))  # atomic loads: no race
    else:
        await ash.atomic_add(ash.ptr(counter, 0), 1)  # atomic write


@pytest.mark.parametrize("schedule", [ash.InOrder(), *[ash.Random(s) for s in range(6)],
                                      ash.Lockstep()], ids=repr)
def test_a_plain_access_races_with_an_atomic_one_whatever_came_between(schedule):
    # only atomic-atomic pairs are exempt; an invocation's own atomic after its plain store,
    # or atomic loads after a plain load, must not hide the plain access from later atomics
    r = ash.run(reset_then_count, counter=np.zeros(1, np.uint32), sanitize="report",
                schedule=schedule)
    assert [(f.race, lines_of(f)) for f in races(r)] == [
        ("write-write", sorted([line(reset_then_count.fn, "counter[0] = 0"),
                                line(reset_then_count.fn, "await ash.atomic_add")]))]
    r = ash.run(peek_then_atomics, counter=np.zeros(1, np.uint32), out=np.zeros(4, np.uint32),
                sanitize="report", schedule=schedule)
    assert [(f.race, f.memory, lines_of(f)) for f in races(r)] == [
        ("read-write", "counter", sorted([line(peek_then_atomics.fn, "# plain load"),
                                          line(peek_then_atomics.fn, "# atomic write")]))]


# ------------------------------------------------------------ pointers into sub-array views
@ash.compute(workgroup_size=4)
async def per_group_histogram(counts: ash.Storage, *, workgroup_id: vec3u,
                              local_invocation_index: u32):
    await ash.atomic_add(ash.ptr(counts[workgroup_id.x], local_invocation_index), 1)  # a row


@ash.compute(workgroup_size=4)
async def per_group_slice(counts: ash.Storage, *, workgroup_id: vec3u,
                          local_invocation_index: u32):
    w = workgroup_id.x
    await ash.atomic_add(ash.ptr(counts[4 * w:4 * w + 4], local_invocation_index), 1)


grid = ash.workgroup(ash.array(ash.array(u32, 4), 2))


@ash.compute(workgroup_size=4)
async def uniform_load_from_a_row(out: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index == 0:
        grid[1][2] = 42
    out[local_invocation_index] = await ash.workgroup_uniform_load(ash.ptr(grid[1], 2))


@pytest.mark.parametrize("sanitize", ["off", "report"])
def test_pointers_into_rows_and_slices_name_the_right_element(sanitize):
    counts = np.zeros((2, 4), np.uint32)
    r = ash.run(per_group_histogram, 2, counts=counts, sanitize=sanitize)
    assert counts.tolist() == [[1] * 4] * 2 and r.findings == []
    counts = np.zeros(8, np.uint32)
    r = ash.run(per_group_slice, 2, counts=counts, sanitize=sanitize)
    assert counts.tolist() == [1] * 8 and r.findings == []
    out = np.zeros(4, np.uint32)
    r = ash.run(uniform_load_from_a_row, out=out, sanitize=sanitize)
    assert out.tolist() == [42] * 4 and r.findings == []


small = ash.workgroup(ash.array(u32, 4))


@ash.compute(workgroup_size=4)
async def uniform_load_past_the_end(out: ash.Storage, *, local_invocation_index: u32):
    out[local_invocation_index] = await ash.workgroup_uniform_load(ash.ptr(small, 7))


@ash.compute(workgroup_size=1)
async def past_the_end_of_a_row(img: ash.Storage):
    row = img[1]
    row[3] = 1.0  # a row has 2 elements


def test_out_of_bounds_findings_name_the_shader_line_and_the_view_they_went_through():
    out = np.full(4, 9, np.uint32)
    r = ash.run(uniform_load_past_the_end, out=out, sanitize="report")
    (oob,) = r.findings
    assert oob.access.line == line(uniform_load_past_the_end.fn, "ptr(small, 7)")
    assert (oob.memory, oob.index, oob.length) == ("small", 7, 4)
    assert out.tolist() == [0] * 4  # robust access: the load gave zero
    img = np.zeros((4, 2), np.float32)
    r = ash.run(past_the_end_of_a_row, img=img, sanitize="report")
    (oob,) = r.findings
    assert (oob.memory, oob.index, oob.length) == ("img[...]", 3, 2)
    assert oob.access.line == line(past_the_end_of_a_row.fn, "row[3] = 1.0")
    assert not img.any()


# --------------------------------------------- arrays of vectors, whole rows, robust rows
N_ROWS = 4


@ash.compute(workgroup_size=N_ROWS)
async def rotate_vec4_rows(pos: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    nxt = pos[(i + 1) % N_ROWS] * ash.f32(2)  # loads a neighbour's vec4 (a row)
    pos[i] = nxt  # stores this invocation's row: races with the neighbour's load


@ash.compute(workgroup_size=N_ROWS)
async def copy_vec4_rows(pos: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    pos[i] = pos[(i + 1) % N_ROWS]  # a row copy reads the neighbour's row


@ash.compute(workgroup_size=N_ROWS)
async def own_vec4_rows(pos: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    pos[i] = pos[i] * ash.f32(2)
    pos[i] += ash.f32(1)


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_whole_rows_of_a_vector_buffer_are_loads_and_stores(schedule):
    # an (N, 4) float32 buffer is array<vec4f>: pos[j] is one element, read whole
    r = ash.run(rotate_vec4_rows, pos=np.ones((N_ROWS, 4), np.float32), sanitize="report",
                schedule=schedule)
    assert [(f.race, lines_of(f)) for f in races(r)] == [
        ("read-write", sorted([line(rotate_vec4_rows.fn, "loads a neighbour"),
                               line(rotate_vec4_rows.fn, "stores this invocation's row")]))]
    r = ash.run(copy_vec4_rows, pos=np.ones((N_ROWS, 4), np.float32), sanitize="report",
                schedule=schedule)
    assert [f.race for f in races(r)] == ["read-write"]
    pos = np.ones((N_ROWS, 4), np.float32)
    r = ash.run(own_vec4_rows, pos=pos, sanitize="report", schedule=schedule)
    assert r.findings == [] and (pos == 3).all()


@ash.compute(workgroup_size=4)
async def diagonal_past_the_end(img: ash.Storage, out: ash.Storage, *,
                                local_invocation_index: u32):
    i = local_invocation_index
    out[i] = img[i + 1][i + 1]  # row 4 does not exist


@ash.compute(workgroup_size=4)
async def column_past_the_end(img: ash.Storage, *, local_invocation_index: u32):
    img[0, local_invocation_index + 6] = 2.0  # columns 8 and 9 do not exist


def test_a_row_past_the_end_reads_as_zeros_and_the_length_is_the_overflowed_axis():
    out = np.full(4, 7, np.float32)
    r = ash.run(diagonal_past_the_end, img=np.ones((4, 4), np.float32), out=out,
                sanitize="report")
    assert out.tolist() == [1, 1, 1, 0]
    assert [(f.memory, f.index, f.length) for f in r.findings] == [("img", 4, 4)]
    r = ash.run(column_past_the_end, img=np.zeros((4, 8), np.float32), sanitize="report")
    (oob,) = r.findings
    assert (oob.index, oob.length, oob.count) == ((0, 8), 8, 2)


@ash.fragment
async def adds_to_own_pixel(img: ash.Storage, *, position: vec4f):
    x, y = u32(position.x), u32(position.y)
    img[y, x] += ash.f32(0.5)  # padding helpers of an odd grid read past the edge
    return ash.f32(1)


def test_padding_helpers_reading_past_the_edge_are_notes_not_races(recwarn):
    img = np.ones((3, 5), np.float32)
    r = ash.run_fragments(adds_to_own_pixel, 5, 3, img=img)  # the default: no warning
    assert {(type(f).__name__, f.severity) for f in r.findings} == {
        ("OutOfBounds", "note"), ("HelperSideEffect", "note")}
    assert (img == 1.5).all()
    assert not [w for w in recwarn if w.category is ash.DataRaceWarning]


@ash.compute(workgroup_size=4)
async def three_lines_race(buf: ash.Storage, *, local_invocation_index: u32):
    v = buf[1]  # line A: read
    buf[1] = v + local_invocation_index  # line B: write
    buf[0] = buf[1]  # line C: read, races with B as well (and a write-write race on buf[0])


def test_every_racing_pair_of_lines_is_reported():
    pairs = set()
    for seed in range(4):
        r = ash.run(three_lines_race, buf=np.zeros(2, np.uint32), schedule=ash.Random(seed),
                    sanitize="report")
        pairs |= {(f.race, tuple(lines_of(f))) for f in races(r)}
    a, b, c = (line(three_lines_race.fn, f"# line {x}") for x in "ABC")
    assert pairs == {("read-write", (a, b)), ("write-write", (b,)), ("read-write", (b, c)),
                     ("write-write", (c,))}



def test_the_shadow_of_a_huge_buffer_is_made_only_where_it_is_touched():
    import tracemalloc

    @ash.compute(workgroup_size=2)
    async def ends(data: ash.Storage, *, local_invocation_index: u32):
        data[local_invocation_index * (data.size - 1)] = 1.0  # the first and the last element

    data = np.zeros(1 << 22, np.float32)  # 4M elements: a full shadow would be 128 MB of slots
    tracemalloc.start()
    try:
        r = ash.run(ends, data=data, sanitize="report")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert r.findings == [] and data[0] == data[-1] == 1
    assert peak < 8 * 2**20, f"{peak / 2**20:.0f} MB"


# --------------------------------------------------------- robust access, copies, variables
@ash.compute(workgroup_size=4)
async def right_neighbour(img: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
    x = local_invocation_index
    out[0, x] = img[0, x + 1]  # x = 3 reads img[0, 4]: zero, an element, not a row


@ash.compute(workgroup_size=1)
async def computes_from_a_missing_row(buf: ash.Storage, res: ash.Storage, n: ash.Uniform):
    v = buf[n] + 1  # a row past the end: zeros; arithmetic gives a plain array
    v[0] = 7
    w = buf[n].copy()
    w[1] = 9
    res[0], res[1] = v[0], w[1]


def test_out_of_bounds_loads_give_zero_of_the_element_and_values_made_from_it_are_plain():
    img, out = np.arange(4, dtype=np.float32).reshape(1, 4), np.zeros((1, 4), np.float32)
    r = ash.run(right_neighbour, img=img, out=out, sanitize="report")
    assert out.tolist() == [[1, 2, 3, 0]] and [f.index for f in r.findings] == [(0, 4)]
    res = np.zeros(2, np.float32)
    ash.run(computes_from_a_missing_row, buf=np.ones((2, 4), np.float32), res=res, n=u32(2),
            sanitize="report")
    assert res.tolist() == [7, 9]


@ash.fragment
async def doubles_a_private_copy(img: ash.Storage, out: ash.Storage, *, position: vec4f):
    x, y = int(position.x), int(position.y)
    mine = img[y].copy()  # a private value, no longer the buffer
    mine[0] = 5.0
    out[y, x] = (mine * 2)[x]
    return ash.f32(0)


def test_copies_of_fragment_storage_are_private_values_not_the_buffer():
    img = np.arange(8, dtype=np.float32).reshape(2, 4)
    out = np.zeros((2, 4), np.float32)
    r = ash.run_fragments(doubles_a_private_copy, 4, 2, img=img, out=out, sanitize="report")
    assert r.findings == [] and img.tolist() == np.arange(8).reshape(2, 4).tolist()
    assert out[:, 1:].tolist() == (2 * img[:, 1:]).tolist() and out[:, 0].tolist() == [10, 10]


flag_value = ash.workgroup(u32)


@ash.compute(workgroup_size=2)
async def stores_a_variable(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        flag_value.value = u32(5)  # written by one invocation ...
    out[i] = flag_value  # ... read by both, no barrier between


def test_storing_a_watched_variable_reads_it_on_the_fast_path_too():
    fast = ash.run(stores_a_variable, out=np.zeros(2, np.uint32), sanitize="report")
    general = ash.run(stores_a_variable, out=np.zeros(2, np.uint32), sanitize="report",
                      instruments=[CountAccesses()])
    assert [(f.race, f.memory) for f in races(fast)] == [("read-write", "flag_value")]
    assert ash.render_findings(fast.findings) == ash.render_findings(general.findings)


@ash.compute(workgroup_size=4)
async def writes_a_tenth(buf: ash.Storage, *, local_invocation_index: u32):
    buf[0] = 0.1  # a Python float: every invocation stores the same f32
    buf[1] = 0.1 * float(local_invocation_index)  # different values


@pytest.mark.parametrize("schedule", DETECTORS, ids=repr)
def test_same_value_compares_what_was_stored_after_f32_rounding(schedule):
    r = ash.run(writes_a_tenth, buf=np.zeros(2, np.float32), sanitize="report", schedule=schedule)
    same = {f.index: f.same_value for f in races(r) if f.race == "write-write"}
    assert same == {0: True, 1: False}
