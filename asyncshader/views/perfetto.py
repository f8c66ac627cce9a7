"""A :class:`~asyncshader.views.timeline.Timeline` as Chrome trace events (the JSON that
ui.perfetto.dev and chrome://tracing open).

* one process per workgroup, one thread (track) per invocation, sorted by lane;
* nested complete slices (``"ph": "X"``): the invocation's life > each stretch between two
  rendezvous ("phase") > each step it ran (its source lines), and a "wait" slice while it stood
  at a rendezvous;
* instants (``"ph": "i"``): a rendezvous' release (process-wide), each atomic, each racing
  access (with both lines of the race);
* flow events (``"s"`` then ``"f"``, one id per pair) from the member that arrived last at a
  rendezvous to each member that waited for it.

One scheduler step is :data:`STEP_US` microseconds of trace time.
"""

from __future__ import annotations

import bisect
import json
import os
from typing import Any

from .._core.diagnostics import _short

#: trace time of one scheduler step, in microseconds
STEP_US = 10


def phases_of(segments: list) -> list[list]:
    """An invocation's segments cut into phases: a phase ends at a rendezvous."""
    phases: list[list] = [[]]
    for seg in segments:
        phases[-1].append(seg)
        if seg.ended == "rendezvous":
            phases.append([])
    return [p for p in phases if p]


def trace_events(tl: Any) -> dict:
    """The Chrome trace-event JSON object (``{"traceEvents": [...], ...}``) of ``tl``."""
    tl.ensure_races()
    events: list[dict] = []
    by_key: dict[int, list] = {}
    for seg in tl.segments:
        by_key.setdefault(seg.key, []).append(seg)
    units = sorted({lane.unit for lane in tl.lanes.values()})
    short: dict[str, str] = {}  # file -> its short name
    for u in units:
        label = next(lane.unit_label for lane in tl.lanes.values() if lane.unit == u)
        events.append({"ph": "M", "name": "process_name", "pid": u, "tid": 0,
                       "args": {"name": label}})
        events.append({"ph": "M", "name": "process_sort_index", "pid": u, "tid": 0,
                       "args": {"sort_index": u}})
    for key, lane in sorted(tl.lanes.items()):
        pid = lane.unit
        events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": key,
                       "args": {"name": f"invocation {lane.lane}"}})
        events.append({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": key,
                       "args": {"sort_index": lane.lane}})
        segs = by_key.get(key, [])
        if not segs:
            continue
        file = short.get(lane.file) or short.setdefault(lane.file, _short(lane.file))
        events.append(_slice(pid, key, f"invocation {lane.lane}", "invocation", segs[0].step,
                             segs[-1].step + 1, {"invocation": lane.label, "file": file}))
        for n, phase in enumerate(phases_of(segs)):
            events.append(_slice(pid, key, f"phase {n}", "phase", phase[0].step,
                                 phase[-1].step + 1, {}))
            for seg in phase:
                lines = (f"line {seg.line_from}" if seg.line_from == seg.line_to
                         else f"lines {seg.line_from}-{seg.line_to}")
                events.append(_slice(pid, key, lines, "step", seg.step, seg.step + 1, {
                    "file": file, "from": seg.line_from, "to": seg.line_to,
                    "then": seg.ended + (f" ({seg.op})" if seg.op else "")}))
    flow = 0
    steps_of = {key: [s.step for s in segs] for key, segs in by_key.items()}
    for m in tl.meetings:
        events.append({"ph": "i", "s": "p", "pid": m.unit, "tid": 0, "ts": m.step * STEP_US,
                       "name": f"{m.op} released (line {m.line})", "cat": "rendezvous",
                       "args": {"group": m.group, "waited for": f"invocation "
                                f"{tl.lanes[m.last].lane}"}})
        for key, at in m.arrived.items():
            if at < m.step:
                events.append(_slice(m.unit, key, f"wait at {m.op} (line {m.line})", "wait",
                                     at, m.step, {"waited for": tl.lanes[m.last].label}))
            steps = steps_of.get(key, ())
            at_next = bisect.bisect_left(steps, m.step)
            end = m.arrived[m.last] - 1  # the step in which the last one arrived
            if key == m.last or at_next == len(steps) or end < 0:
                continue
            resumed = steps[at_next]
            flow += 1
            common = {"name": f"{m.op} (line {m.line})", "cat": "rendezvous", "id": flow}
            events.append({"ph": "s", "pid": m.unit, "tid": m.last,
                           "ts": end * STEP_US + STEP_US // 2, **common})
            events.append({"ph": "f", "bp": "e", "pid": m.unit, "tid": key,
                           "ts": resumed * STEP_US + STEP_US // 2, **common})
    for key, at in tl.stuck.items():
        if at < tl.steps:
            events.append(_slice(tl.lanes[key].unit, key, "still waiting when the run ended",
                                 "wait", at, tl.steps, {}))
    for a in tl.atomics:
        events.append({"ph": "i", "s": "t", "pid": tl.lanes[a.key].unit, "tid": a.key,
                       "ts": a.step * STEP_US, "name": f"{a.op} {a.memory}[{a.index}]",
                       "cat": "atomic", "args": {"old": a.old, "new": a.new, "line": a.line}})
    accesses = tl.accesses
    for r in tl.races:
        f = r.finding
        for mine, other in ((accesses[r.first], accesses[r.second]),
                            (accesses[r.second], accesses[r.first])):
            events.append({
                "ph": "i", "s": "t", "pid": tl.lanes[mine.key].unit, "tid": mine.key,
                "ts": mine.step * STEP_US + STEP_US // 2, "cat": "race",
                "name": f"RACE {f.race} {mine.memory}[{mine.index}]",
                "args": {"this": f"{mine.kind} at line {mine.line}",
                         "other": f"{other.kind} at line {other.line} by invocation "
                                  f"{tl.lanes[other.key].lane}", "hint": f.hint}})
    return {"traceEvents": events, "displayTimeUnit": "ms",
            "metadata": {"kernel": tl.kernel, "steps": tl.steps, "step_us": STEP_US,
                         "races": len(tl.findings), "truncated": tl.truncated}}


def _slice(pid: int, tid: int, name: str, cat: str, start: int, end: int,
           args: dict) -> dict:
    return {"ph": "X", "pid": pid, "tid": tid, "name": name, "cat": cat,
            "ts": start * STEP_US, "dur": (end - start) * STEP_US, "args": args}


def write_json(trace: dict, path: str | os.PathLike) -> None:
    """Writes ``trace`` as JSON to ``path``."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(trace, separators=(",", ":"), default=str))  # (C encoder)
