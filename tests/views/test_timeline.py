"""The Timeline instrument's records and its Chrome trace-event (Perfetto) rendering."""

import json
import re

import numpy as np
import pytest
from helpers import load_example
from recorded import line_of, record, reduce_missing_barrier

import asyncshader as ash


def test_counter_segments_atomics_and_races(counter_run):
    tl, _ = counter_run
    # InOrder: invocation k loads, takes its ticket (a scheduling point, not a block), then
    # stores and returns: steps 2k and 2k+1
    assert tl.steps == 16
    assert [(s.key, s.step, s.ended) for s in tl.segments] == [
        (k, 2 * k + d, ("point", "finished")[d]) for k in range(8) for d in (0, 1)]
    assert [(a.key, a.op, a.memory, a.old, a.new) for a in tl.atomics] == [
        (k, "atomic_add", "tickets", k, k + 1) for k in range(8)]
    assert tl.meetings == []
    races = tl.collect_races()
    assert sorted(f.race for f in tl.findings) == ["read-write", "write-write"]
    # every load of counter[0] races with the 7 other invocations' stores (56 pairs), every
    # store with the 7 other stores (28 pairs)
    kinds = sorted((tl.accesses[r.first].kind, tl.accesses[r.second].kind) for r in races)
    assert len(races) == 84
    assert kinds.count(("store", "store")) == 28
    racy = {(a.memory, a.kind) for a in tl.accesses if a.racy}
    assert racy == {("counter", "load"), ("counter", "store")}
    assert not any(a.racy for a in tl.accesses if a.memory in ("seen", "order"))


def test_missing_barrier_meetings_and_phases(missing_barrier_run):
    tl, _ = missing_barrier_run
    barrier = line_of("BARRIER_LINE")
    # strides 4, 2, 1: three barriers, each met by all 8 invocations
    assert [(m.op, m.line, len(m.arrived)) for m in tl.meetings] == [
        ("workgroup_barrier", barrier, 8)] * 3
    # InOrder: 0..7 arrive one after the other: everybody waits for invocation 7
    assert [m.last for m in tl.meetings] == [7, 7, 7]
    assert tl.meetings[0].arrived == {k: k + 1 for k in range(8)}
    tl.collect_races()
    pairs = {(tl.accesses[r.first].line, tl.accesses[r.second].line, tl.accesses[r.first].key,
              tl.accesses[r.second].key) for r in tl.races}
    load, total = line_of("LOAD_LINE"), line_of("SUM_LINE")
    # invocation k < 4 reads scratch[k + 4] before invocation k + 4 stored it
    assert pairs == {(total, load, k, k + 4) for k in range(4)}
    assert all(tl.accesses[r.first].phase == 0 for r in tl.races)


def test_workgroup_memory_of_two_workgroups_does_not_race():
    """Regression: each workgroup has its own var<workgroup>; accesses of two workgroups to
    the same index were paired as races."""
    tl, _ = record(reduce_missing_barrier, workgroups=2,
                        inp=np.arange(16, dtype=np.float32), partial=np.zeros(2, np.float32))
    tl.collect_races()
    assert len(tl.races) == 8  # 4 per workgroup
    units = {(tl.lanes[tl.accesses[r.first].key].unit, tl.lanes[tl.accesses[r.second].key].unit)
             for r in tl.races}
    assert units == {(0, 0), (1, 1)}


def test_a_timeline_records_one_run(counter_run):
    tl, _ = counter_run
    rc = load_example("racy_counter.py")
    with pytest.raises(RuntimeError, match="one dispatch"):
        ash.run(rc.racy_increment, instruments=[tl], counter=np.zeros(1, np.uint32),
                tickets=np.zeros(1, np.uint32), seen=np.zeros(8, np.uint32),
                order=np.zeros(8, np.uint32))


def test_max_steps_truncates(counter_run):
    rc = load_example("racy_counter.py")
    tl = ash.Timeline(max_steps=5)
    ash.run(rc.racy_increment, instruments=[tl], sanitize="off",
            counter=np.zeros(1, np.uint32), tickets=np.zeros(1, np.uint32),
            seen=np.zeros(8, np.uint32), order=np.zeros(8, np.uint32))
    assert tl.truncated and tl.steps == 5 and len(tl.segments) == 5
    assert "Recording stopped at max_steps" in tl.to_html()


# ---------------------------------------------------------------------------- Perfetto JSON
def check_trace(trace: dict) -> dict:
    """The trace-event format's structure: returns {tid: [X slices]}."""
    assert set(trace) >= {"traceEvents", "displayTimeUnit"}
    slices: dict = {}
    for e in trace["traceEvents"]:
        assert {"ph", "pid", "tid", "name"} <= set(e), e
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int)
        if e["ph"] != "M":
            assert isinstance(e["ts"], int) and e["ts"] >= 0, e
        if e["ph"] == "X":
            assert e["dur"] > 0, e
            slices.setdefault((e["pid"], e["tid"]), []).append(e)
        if e["ph"] == "i":
            assert e["s"] in ("t", "p", "g")
    # slices on a track nest: each one lies inside the one open before it, or after it
    for track in slices.values():
        stack: list = []
        for e in sorted(track, key=lambda e: (e["ts"], -e["dur"])):
            while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"]:
                stack.pop()
            if stack:
                assert e["ts"] + e["dur"] <= stack[-1]["ts"] + stack[-1]["dur"], (e, stack[-1])
            stack.append(e)
    return slices


def flows(trace: dict) -> dict:
    pairs: dict = {}
    for e in trace["traceEvents"]:
        if e["ph"] in ("s", "f"):
            pairs.setdefault(e["id"], []).append(e)
    return pairs


def test_perfetto_counter(counter_run, tmp_path):
    tl, _ = counter_run
    path = tmp_path / "counter.json"
    trace = tl.to_perfetto(path)
    assert json.loads(path.read_text()) == json.loads(json.dumps(trace))
    slices = check_trace(trace)
    names = [e for e in trace["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"]
    assert sorted(e["tid"] for e in names) == list(range(8))  # one track per invocation
    assert {e["pid"] for e in names} == {0}  # grouped by workgroup
    assert len(slices) == 8
    # each track: the invocation > one phase > its two steps
    for track in slices.values():
        assert sorted(e["cat"] for e in track) == ["invocation", "phase", "step", "step"]
    races = [e for e in trace["traceEvents"] if e.get("cat") == "race"]
    assert len(races) == 2 * 84
    assert {e["name"] for e in races} == {"RACE read-write counter[0]",
                                          "RACE write-write counter[0]"}
    atomics = [e for e in trace["traceEvents"] if e.get("cat") == "atomic"]
    assert [(e["tid"], e["args"]["old"], e["args"]["new"]) for e in atomics] == [
        (k, k, k + 1) for k in range(8)]
    assert flows(trace) == {}  # no rendezvous, nobody waited


def test_perfetto_rendezvous_flows(missing_barrier_run):
    tl, _ = missing_barrier_run
    trace = tl.to_perfetto()
    check_trace(trace)
    releases = [e for e in trace["traceEvents"] if e["ph"] == "i" and e["s"] == "p"]
    assert len(releases) == 3
    pairs = flows(trace)
    assert len(pairs) == 3 * 7  # per barrier, the 7 who waited for invocation 7
    for events in pairs.values():
        assert sorted(e["ph"] for e in events) == ["f", "s"]
        start = next(e for e in events if e["ph"] == "s")
        end = next(e for e in events if e["ph"] == "f")
        assert start["tid"] == 7 and end["tid"] != 7 and end["ts"] > start["ts"]
    waits = [e for e in trace["traceEvents"] if e.get("cat") == "wait"]
    assert len(waits) == 3 * 7
    # InOrder: invocation 7 arrives in steps 7, 15 and 23 (8 steps a phase); the others resume
    # in order right after each release (at 8, 16, 24): step k is ts 10k..10k+10
    starts = sorted({e["ts"] for e in trace["traceEvents"] if e["ph"] == "s"})
    assert starts == [75, 155, 235]
    ends = sorted(e["ts"] for e in trace["traceEvents"] if e["ph"] == "f")
    assert ends[:7] == [(8 + k) * 10 + 5 for k in range(7)]


def test_terminal_view(missing_barrier_run, counter_run):
    tl, _ = missing_barrier_run
    text = tl.to_terminal(width=100)
    rows = [line for line in text.splitlines() if line.startswith("  inv ")]
    assert len(rows) == 8
    assert all(row.count("│") == 3 for row in rows)  # three barrier columns
    # invocations 0-3 read late, 4-7 stored late: each has one racing step, before barrier 1
    assert [row.split("│")[0].count("✗") for row in rows] == [1] * 8
    assert "read-write data race on workgroup memory scratch" in text
    assert "\x1b[" not in text and "\x1b[" in tl.to_terminal(color=True)
    tl2, _ = counter_run
    text2 = tl2.to_terminal()
    assert "│" not in text2.split("Data races")[0].split("\n", 2)[2]
    assert text2.count("write-write data race on storage memory counter[0]") == 1


def test_fragment_quads(tmp_path):
    """A fragment dispatch: lanes by quad, one fwidth rendezvous per quad."""
    fr = load_example("fwidth_ring.py")
    tl = ash.Timeline()
    ash.run_fragments(fr.ring, 4, 4, uv=fr.uv_grid(4, 4), instruments=[tl])
    assert len(tl.lanes) == 16 and tl.steps == 32  # 16 invocations, 2 steps each
    assert [(m.op, m.scope, len(m.arrived)) for m in tl.meetings] == [("fwidth", "quad", 4)] * 4
    assert len({m.group for m in tl.meetings}) == 4
    text = tl.to_terminal()
    assert text.count("quad at (") == 4
    trace = tl.to_perfetto(tmp_path / "quads.json")
    check_trace(trace)
    assert len(flows(trace)) == 4 * 3


def test_html_is_self_contained(counter_run, tmp_path):
    """No server, no network: nothing is loaded from elsewhere; the one URL is SVG's
    namespace."""
    tl, _ = counter_run
    page = tl.to_html(tmp_path / "t.html")
    assert re.findall(r"https?://[^\s\"'<>]+", page) == ["http://www.w3.org/2000/svg"]
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", page)
    assert page.count("<script>") == 1 and page.count("<svg") == 1
    # hover text: each step's source line, each race with both lines
    assert "counter[0] = v + 1" in page and page.count('class="seg"') == 16


@ash.compute(workgroup_size=4)
async def barrier_in_branch(out: ash.Storage, *, local_invocation_index: ash.u32):
    i = local_invocation_index
    out[i] = i
    if i < 2:
        await ash.workgroup_barrier()


def test_a_run_that_fails_shows_who_was_left_waiting(tmp_path):
    tl = ash.Timeline()
    with pytest.raises(ash.BarrierDivergenceError):
        ash.run(barrier_in_branch, out=np.zeros(4, np.uint32), instruments=[tl])
    assert tl.steps == 4 and tl.meetings == []
    assert tl.stuck == {0: 1, 1: 2}  # arrived after their first step; never released
    rows = [ln for ln in tl.to_terminal().splitlines() if ln.startswith("  inv ")]
    assert [row[16:] for row in rows] == ["█···", " █··", "  █ ", "   █"]
    trace = tl.to_perfetto()
    check_trace(trace)
    assert [(e["tid"], e["ts"], e["dur"]) for e in trace["traceEvents"]
            if e["name"] == "still waiting when the run ended"] == [(0, 10, 30), (1, 20, 20)]
    assert tl.to_svg().count('class="wait stuck"') == 2
