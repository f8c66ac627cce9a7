"""The race detector on fragment dispatches in lockstep: the same findings as under InOrder
(kind, memory, lines, how the invocations are named), one phase for the whole dispatch, the
pixels as the invocations; helpers record nothing but their dropped writes (helper side
effects) and their out-of-bounds loads (notes)."""

import inspect
import re

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import vec4f

SCHEDULES = [ash.InOrder(), ash.Lockstep(), ash.Lockstep(max_lanes=8)]
NAMED = re.compile(r"^fragment \(\d+,\d+\) \[quad id \d(, helper \((padding|discarded)\))?\]$")


def line(fn, text):
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, s in enumerate(src) if text in s)


def signature(findings):
    """What every schedule reports alike: each finding's kind, memory, lines and severity."""
    out = []
    for f in findings:
        if isinstance(f, ash.DataRace):
            out.append(("race", f.race, f.memory, f.first.line, f.second.line, f.severity))
        else:
            out.append((type(f).__name__, f.memory, f.access.kind, f.access.line, f.severity))
    return sorted(out)


def accesses(findings):
    return [a for f in findings
            for a in ((f.first, f.second) if isinstance(f, ash.DataRace) else (f.access,))]


@ash.fragment
async def shares_a_slot(out: ash.Storage, hits: ash.Storage, *, position: vec4f):
    x, y = int(position.x), int(position.y)
    out[y * 4 + x] = 1  # own slot: fine
    hits[0] = hits[0] + 1  # everybody: a race between fragments
    await ash.atomic_add(ash.ptr(hits, 1), 1)  # atomic: fine


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_fragments_racing_on_storage_are_found_on_the_racing_line_only(schedule):
    out, hits = np.zeros(8, np.uint32), np.zeros(2, np.uint32)
    r = ash.run_fragments(shares_a_slot, 4, 2, out=out, hits=hits, sanitize="report",
                          schedule=schedule)
    racing = line(shares_a_slot.fn, "everybody")
    assert signature(r.findings) == [("race", "read-write", "hits", racing, racing, "error"),
                                     ("race", "write-write", "hits", racing, racing, "error")]
    assert all(NAMED.match(a.invocation) for a in accesses(r.findings))
    assert out.tolist() == [1] * 8 and hits[1] == 8


@ash.fragment
async def writes_everywhere(out: ash.Storage, *, position: vec4f):
    out[0] = 1  # helpers (the padding column) try too


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_helper_writes_are_helper_side_effects_not_races(schedule):
    out = np.zeros(1, np.uint32)
    r = ash.run_fragments(writes_everywhere, 3, 2, out=out, sanitize="report", schedule=schedule)
    at = line(writes_everywhere.fn, "helpers (the padding")
    assert signature(r.findings) == [("HelperSideEffect", "out", "store", at, "note"),
                                     ("race", "write-write", "out", at, at, "error")]
    helper = next(f for f in r.findings if isinstance(f, ash.HelperSideEffect))
    # the padding column x = 3 of the 3-wide grid: (3,0) and (3,1)
    assert helper.count == 2 and helper.access.invocation == \
        "fragment (3,0) [quad id 1, helper (padding)]"
    race = next(f for f in r.findings if isinstance(f, ash.DataRace))
    # one write-write race per pair of consecutive writers: the 6 pixels' writes, 5 pairs
    assert race.count == 5 and race.same_value
    assert (race.first.invocation, race.second.invocation) == (
        "fragment (0,0) [quad id 0]", "fragment (1,0) [quad id 1]")


@ash.fragment
async def discards_then_writes(out: ash.Storage, counter: ash.Storage, *, position: vec4f):
    x = int(position.x)
    if x == 1:
        ash.discard()
    out[x] = 2  # own slot; the discarded fragments' writes are dropped
    await ash.atomic_add(ash.ptr(counter, 0), 1)  # a discarded fragment's atomic: dropped


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_discarded_fragments_writes_and_atomics_are_helper_side_effects(schedule):
    out, counter = np.zeros(2, np.uint32), np.zeros(1, np.uint32)
    r = ash.run_fragments(discards_then_writes, 2, 1, out=out, counter=counter,
                          sanitize="report", schedule=schedule)
    store = line(discards_then_writes.fn, "own slot")
    add = line(discards_then_writes.fn, "atomic: dropped")
    assert signature(r.findings) == [("HelperSideEffect", "counter", "atomic_add", add, "note"),
                                     ("HelperSideEffect", "out", "store", store, "note")]
    by_memory = {f.memory: f for f in r.findings}
    assert by_memory["out"].access.invocation == "fragment (1,0) [quad id 1, helper (discarded)]"
    # the discarded (1,0) and the padding row y = 1 of the 2x1 grid (its quad is 2x2)
    assert by_memory["out"].count == 3 and by_memory["counter"].count == 3
    assert out.tolist() == [2, 0] and counter.tolist() == [1]


@ash.fragment
async def reads_the_next_pixel(img: ash.Storage, out: ash.Storage, *, position: vec4f):
    x, y = int(position.x), int(position.y)
    v = img[y * 3 + x]  # the padding column x = 3 reads past the end (row 1): a note
    out[y * 3 + x] = v + 1  # the padding's stores: dropped


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_helpers_reading_past_the_edge_are_notes_and_their_reads_race_with_nothing(schedule):
    img, out = np.arange(6, dtype=np.float32), np.zeros(6, np.float32)
    r = ash.run_fragments(reads_the_next_pixel, 3, 2, img=img, out=out, sanitize="report",
                          schedule=schedule)
    at = line(reads_the_next_pixel.fn, "past the end")
    assert signature(r.findings) == [("HelperSideEffect", "out", "store", at + 1, "note"),
                                     ("OutOfBounds", "img", "load", at, "note")]
    oob = next(f for f in r.findings if isinstance(f, ash.OutOfBounds))
    assert oob.index == 6 and oob.length == 6
    assert oob.access.invocation == "fragment (3,1) [quad id 3, helper (padding)]"
    assert out.tolist() == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_allow_races_and_sanitize_error_work_on_fragments(schedule):
    r = ash.run_fragments(shares_a_slot, 4, 2, out=np.zeros(8, np.uint32),
                          hits=np.zeros(2, np.uint32), sanitize="report", allow_races=["hits"],
                          schedule=schedule)
    assert r.findings == []
    with pytest.raises(ash.DataRaceError, match="data race on storage memory hits"):
        ash.run_fragments(shares_a_slot, 4, 2, out=np.zeros(8, np.uint32),
                          hits=np.zeros(2, np.uint32), sanitize="error", schedule=schedule)


WGSL = """
@group(0) @binding(0) var<storage, read_write> total: array<u32, 2>;
@group(0) @binding(1) var<storage, read_write> counts: array<atomic<u32>, 1>;

@fragment
fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
    total[0] = total[0] + 1u;
    atomicAdd(&counts[0], 1u);
    return p;
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_a_loaded_wgsl_fragment_shaders_race_names_its_wgsl_line(schedule):
    module = ash.load_wgsl(WGSL, name="fs.wgsl")
    total, counts = np.zeros(2, np.uint32), np.zeros(1, np.uint32)
    with pytest.warns(ash.DataRaceWarning):  # the default: the detector on, warning
        r = ash.run_fragments(module["fs"], 2, 2, total=total, counts=counts,
                              schedule=schedule)
    assert signature(r.findings) == [("race", "read-write", "total", 7, 7, "error"),
                                     ("race", "write-write", "total", 7, 7, "error")]
    assert counts.tolist() == [4]
