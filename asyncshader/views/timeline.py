"""The :class:`Timeline` instrument: what a run did, step by step, kept for pictures.

Attach it to a dispatch (``ash.run(kernel, ..., instruments=[tl])``) and it records, per
invocation, the *segments* it ran between suspensions (one scheduler step each), every rendezvous
(who arrived when, who arrived last: whom the others waited for), every atomic that landed, every
plain load and store (memory, element, source line, barrier phase) and, after the run, the race
detector's findings matched to the accesses that made them. The renderings read these records:
:mod:`~asyncshader.views.perfetto` (Chrome trace events), :mod:`~asyncshader.views.svg` (HTML
page), :mod:`~asyncshader.views.terminal` (rich) and :mod:`~asyncshader.views.access` (access
diagrams).

Time is the scheduler's step count: step ``t`` is the ``t``-th resume of any invocation, so the
pictures show the interleaving the schedule chose, not wall-clock time.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.context import CURRENT_RUN
from .._core.instruments import Instrument
from .._core.sources import internal, user_frames
from .._core.validation import check_int
from ..sanitizers.races import _STORAGE_ORDERING, _WORKGROUP_ORDERING, RaceDetector
from ..wgsl.watched import FlatIndex


@dataclass
class Lane:
    """One invocation: its key (dispatch order), its workgroup (``unit``) and lane in it."""

    key: int
    unit: int
    lane: int
    label: str  # the invocation's full description (its built-in ids)
    unit_label: str
    file: str = "?"
    first_line: int = 0  # the shader's def line


@dataclass
class Segment:
    """``key`` ran at step ``step`` from ``line_from`` to ``line_to``; it then ``ended``:
    ``"point"`` (an atomic or another scheduling point), ``"rendezvous"`` (``op``) or
    ``"finished"``."""

    key: int
    step: int
    line_from: int
    line_to: int
    ended: str = "running"
    op: str = ""


@dataclass
class Meeting:
    """A completed rendezvous: ``op`` of group ``group`` (scope ``scope``) at source ``line``,
    released after step ``step``; ``arrived`` maps each member to the step it arrived at, and
    ``last`` is the member that arrived last (the one the others waited for)."""

    step: int
    op: str
    scope: str
    group: str
    unit: int
    line: int
    arrived: dict[int, int]
    last: int


@dataclass
class AtomicEvent:
    """An atomic that landed at the start of step ``step``: ``old`` became ``new``."""

    step: int
    key: int
    op: str
    memory: str
    index: Any
    old: Any
    new: Any
    line: int


@dataclass
class Access:
    """A plain load or store (or an atomic, ``kind`` = its op) of ``memory`` cells ``cells``
    (flat positions) at ``line``, in step ``step``, in the invocation's barrier ``phase``."""

    seq: int
    step: int
    key: int
    memory: str
    space: str
    index: Any
    cells: tuple[int, ...]
    kind: str
    line: int
    phase: int  # rendezvous that order this address space passed (the race rule)
    panel: int = 0  # rendezvous of its workgroup passed (the access diagram's panel)
    racy: bool = False


@dataclass
class RacePair:
    """Two accesses that race (indices into :attr:`Timeline.accesses`), from ``finding``."""

    first: int
    second: int
    finding: Any


@dataclass
class MemoryInfo:
    """A memory object's name, address space and shape (for the access diagrams' grids)."""

    name: str
    space: str
    shape: tuple[int, ...]
    writes: int = 0
    reads: int = 0


class Timeline(Instrument):
    """An instrument that records a run for pictures: segments, rendezvous, atomics, accesses
    and races. Render with :meth:`to_perfetto`, :meth:`to_html`, :meth:`to_terminal` or
    :func:`~asyncshader.access_diagram`.

    ``max_steps`` bounds what is kept (a timeline is for small dispatches: a few workgroups of
    a few dozen invocations); past it, recording stops and :attr:`truncated` says so. Races
    come from the race detector, on by default (``sanitize="report"``); with
    ``sanitize="off"`` the pictures show no race. One timeline records one dispatch.
    """

    wants_memory_access = True

    def __init__(self, *, max_steps: int = 20_000) -> None:
        self.max_steps = check_int("max_steps", max_steps, 1)
        self.kernel = ""
        self.config: dict[str, Any] = {}
        self.lanes: dict[int, Lane] = {}
        self.segments: list[Segment] = []
        self.meetings: list[Meeting] = []
        self.atomics: list[AtomicEvent] = []
        self.accesses: list[Access] = []
        self.memories: dict[str, MemoryInfo] = {}
        self.races: list[RacePair] = []
        #: access seq -> the seqs of the accesses it races with
        self.partners: dict[int, list[int]] = {}
        #: invocation -> the step it arrived at a rendezvous that never completed (a run that
        #: ended in a divergence or a deadlock)
        self.stuck: dict[int, int] = {}
        self.findings: list = []
        self.truncated = False
        self.steps = 0
        self._open: dict[int, Segment] = {}
        self._phase: dict[int, dict[str, int]] = {}
        self._waiting: dict[int, int] = {}  # key -> step it arrived at its rendezvous
        self._collected = False
        self._job: Any = None
        self._detector: Any = None

    # ------------------------------------------------------------------------------- hooks
    def run_started(self, scheduler: Any) -> None:
        if self._job is not None or self.segments:
            raise RuntimeError("a Timeline records one dispatch; make a new ash.Timeline() for "
                               "each run")
        self._job = job = CURRENT_RUN.get()
        kernel = getattr(job, "kernel", None) or getattr(job, "shader", None)
        self.kernel = kernel.identity["name"] if kernel is not None else ""
        self.config = dict(getattr(job, "config", {}) or {})
        self._detector = next((i for i in scheduler.instruments
                               if isinstance(i, RaceDetector)), None)

    def invocation_resumed(self, inv: Any) -> None:
        if self.steps >= self.max_steps:
            self.truncated = True
            return
        key = inv.key
        if key not in self.lanes:
            unit = inv.unit
            code = inv.frame.f_code
            self.lanes[key] = Lane(key, unit.index, inv.lanes.get(unit.scope, 0), str(inv),
                                   unit.label, code.co_filename, code.co_firstlineno)
            self._phase[key] = {"workgroup": 0, "storage": 0, "panel": 0}
        self._waiting.pop(key, None)
        line = _line(inv)
        seg = Segment(key, self.steps, line, line)
        self.segments.append(seg)
        self._open[key] = seg
        self.steps += 1

    def invocation_suspended(self, inv: Any, request: Any) -> None:
        seg = self._open.pop(inv.key, None)
        if seg is None:
            return
        seg.line_to = _line(inv)
        seg.op = getattr(request, "op", "") or ""
        if getattr(request, "scope", None) is None:
            seg.ended = "point"
        else:
            seg.ended = "rendezvous"
            self._waiting[inv.key] = seg.step + 1

    def invocation_finished(self, inv: Any) -> None:
        seg = self._open.pop(inv.key, None)
        if seg is not None:
            seg.ended = "finished"
            seg.line_to = inv.frame.f_lineno if inv.frame is not None else seg.line_to

    def rendezvous_completed(self, group: Any, op: str, members: list) -> None:
        if self.truncated:
            return
        arrived = {m.key: self._waiting.get(m.key, self.steps) for m in members}
        last = members[-1].key  # members come in the order they arrived
        self.meetings.append(Meeting(self.steps, op, group.scope, group.label,
                                     members[0].unit.index, _line(members[0]),
                                     arrived, last))
        space = "workgroup" if op in _WORKGROUP_ORDERING else \
            "storage" if op in _STORAGE_ORDERING else None
        unit_scope = group is members[0].unit
        for m in members:
            phases = self._phase.get(m.key)
            if phases is not None:
                if space is not None:
                    phases[space] += 1
                if unit_scope:
                    phases["panel"] += 1

    def memory_access(self, inv: Any, memory: Any, index: Any, kind: str) -> None:
        if not self.truncated and inv is not None:
            self._record(inv, memory, index, kind, _user_line())

    def atomic(self, inv: Any, op: str, memory: Any, index: Any, old: Any, new: Any) -> None:
        if self.truncated:
            return
        line = _line(inv)
        name = self._record(inv, memory, index, op, line)
        self.atomics.append(AtomicEvent(self.steps, inv.key, op, name, index, _plain(old),
                                        _plain(new), line))

    def run_finished(self, scheduler: Any) -> None:
        self._open.clear()
        # arrived at a rendezvous that never completed (the run ended in an error)
        self.stuck = {k: at for k, at in self._waiting.items() if k in self.lanes}

    # ------------------------------------------------------------------------ after the run
    def _record(self, inv: Any, memory: Any, index: Any, kind: str, line: int) -> str:
        job = self._job
        name, space = job.memory_name(memory) if job is not None else ("memory", "storage")
        info = self.memories.get(name)
        shape = tuple(getattr(memory, "shape", ()) or (1,))
        if info is None:
            info = self.memories[name] = MemoryInfo(name, space, shape)
        if kind == "load" or kind == "atomic_load":
            info.reads += 1
        else:
            info.writes += 1
        phases = self._phase.get(inv.key, {})
        # an atomic lands before its invocation's next step; a plain access runs in the current
        step = self.steps if kind not in ("load", "store") else max(self.steps - 1, 0)
        self.accesses.append(Access(len(self.accesses), step, inv.key, name, space,
                                    _plain(index), flat_cells(shape, index), kind, line,
                                    phases.get(space, 0), phases.get("panel", 0)))
        return name

    def collect_races(self, findings: list | None = None) -> list[RacePair]:
        """Matches the race detector's findings (this run's, or ``findings``) to the recorded
        accesses: a pair of accesses races when it touches a common cell from two invocations,
        at least one writes, not both are atomic, it sits on the two lines of a finding and
        nothing ordered it (the same barrier phase of one workgroup, or storage memory
        in two workgroups).
        Marks :attr:`Access.racy` and returns the pairs (also in :attr:`races`)."""
        if findings is None:
            findings = list(self._detector.findings) if self._detector is not None else []
        self._collected = True
        self.findings = [f for f in findings if type(f).__name__ == "DataRace"]
        self.races = []
        self.partners = {}
        for a in self.accesses:
            a.racy = False
        by_cell: dict[tuple[str, int], list[Access]] = {}
        for a in self.accesses:
            for c in a.cells:
                by_cell.setdefault((a.memory, c), []).append(a)
        seen: set[tuple[int, int]] = set()
        for f in self.findings:
            line_nos = {f.first.line, f.second.line}
            for (mem, _), group in by_cell.items():
                if mem != f.memory:
                    continue
                cands = [a for a in group if a.line in line_nos]
                for i, a in enumerate(cands):
                    for b in cands[i + 1:]:
                        if (a.seq, b.seq) in seen or not self._races(a, b, line_nos):
                            continue
                        seen.add((a.seq, b.seq))
                        a.racy = b.racy = True
                        self.races.append(RacePair(a.seq, b.seq, f))
                        self.partners.setdefault(a.seq, []).append(b.seq)
                        self.partners.setdefault(b.seq, []).append(a.seq)
        return self.races

    def _races(self, a: Access, b: Access, lines: set[int]) -> bool:
        if a.key == b.key or ({a.line, b.line} != lines and len(lines) == 2):
            return False
        writes = (a.kind not in ("load", "atomic_load"), b.kind not in ("load", "atomic_load"))
        if not any(writes) or (a.kind not in ("load", "store") and b.kind not in
                               ("load", "store")):
            return False
        ua, ub = self.lanes[a.key].unit, self.lanes[b.key].unit
        if ua != ub:  # a workgroup's var<workgroup> is its own; storage is shared, unordered
            return a.space != "workgroup"
        return a.phase == b.phase

    # --------------------------------------------------------------------------- renderings
    def ensure_races(self) -> None:
        """Collects the races once (the renderings call it)."""
        if not self._collected:
            self.collect_races()

    def to_perfetto(self, path: str | os.PathLike | None = None) -> dict:
        """The run as Chrome trace events (open it at ui.perfetto.dev or chrome://tracing): one
        track per invocation, grouped by workgroup. Writes JSON to ``path`` when given;
        returns the trace as a dict."""
        from .perfetto import trace_events, write_json
        trace = trace_events(self)
        if path is not None:
            write_json(trace, path)
        return trace

    def to_svg(self, path: str | os.PathLike | None = None) -> str:
        """The timeline as a standalone SVG picture (the one the HTML page shows)."""
        from .svg import timeline_svg
        text = timeline_svg(self)
        if path is not None:
            _write(path, text)
        return text

    def to_html(self, path: str | os.PathLike | None = None, *, title: str | None = None) -> str:
        """A self-contained HTML page (no server, no network): lanes per invocation, barrier
        columns, races in red with both lines, source lines on hover. Returns the HTML and
        writes it to ``path`` when given."""
        from .svg import timeline_html
        text = timeline_html(self, title=title)
        if path is not None:
            _write(path, text)
        return text

    def to_terminal(self, *, width: int | None = None, color: bool = False) -> str:
        """A compact text view (rich): a row per invocation, a column per step. Returns the
        text (with ANSI colours when ``color``); print it, or call :meth:`print`."""
        from .terminal import render_terminal
        return render_terminal(self, width=width, color=color)

    def print(self, file: Any = None) -> None:
        """Prints :meth:`to_terminal` (in colour on a terminal)."""
        out = file or sys.stdout
        out.write(self.to_terminal(color=getattr(out, "isatty", lambda: False)()))


def _line(inv: Any) -> int:
    """The line where ``inv`` stands: its innermost user frame's (position_of without the
    source text)."""
    frames = user_frames(inv)
    frame = frames[-1] if frames else inv.frame
    return frame.f_lineno if frame is not None else 0


def _user_line() -> int:
    """The line of the innermost user frame running now (the access's source line)."""
    f = sys._getframe(2)
    while f is not None and internal(f.f_code.co_filename):
        f = f.f_back
    return f.f_lineno if f is not None else 0


def _plain(value: Any) -> Any:
    """A JSON-friendly copy of an index or a value."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, slice):
        return str(value)
    if isinstance(value, (int, float, bool, str)) or value is None:
        return value
    try:
        return [_plain(v) for v in value]
    except TypeError:
        return str(value)


def flat_cells(shape: tuple[int, ...], index: Any) -> tuple[int, ...]:
    """The flat positions ``index`` covers in an array of ``shape`` (row-major)."""
    if len(shape) == 1 and hasattr(index, "__index__"):  # ints, numpy and WGSL integers
        i = index.__index__()
        return (i,) if 0 <= i < shape[0] else ()
    if isinstance(index, FlatIndex):  # already flat positions
        return tuple(int(p) for p in np.ravel(index.flat))
    try:
        positions = _positions(shape)
        return tuple(int(p) for p in np.ravel(positions[index]))
    except (IndexError, TypeError, ValueError):
        return ()


_POSITIONS: dict[tuple[int, ...], np.ndarray] = {}


def _positions(shape: tuple[int, ...]) -> np.ndarray:
    got = _POSITIONS.get(shape)
    if got is None:
        if len(_POSITIONS) > 32:
            _POSITIONS.clear()
        got = _POSITIONS[shape] = np.arange(int(np.prod(shape))).reshape(shape)
    return got


def _write(path: str | os.PathLike, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
