"""Sanitizers: data races, out-of-bounds accesses and helper side effects, as findings.

The race detector is an instrument on the memory-access and atomic events. It does not ask
which access happened first, only whether two accesses are *ordered*, and in WGSL only control
barriers order accesses (atomics are relaxed):

* workgroup memory (``var<workgroup>``) is ordered by ``workgroup_barrier()`` and
  ``workgroup_uniform_load()``; storage memory by ``storage_barrier()`` (WGSL memory model:
  each barrier affects its own address space); storage textures (the handle address space,
  each texel a location) by ``texture_barrier()``;
* the invocations of a workgroup cross every barrier together (it is a rendezvous), so the number
  of barriers of the right kind a workgroup has completed, its *phase*, tells whether two of its
  accesses are ordered: the same phase means unordered;
* accesses from different workgroups are never ordered within a dispatch.

Two accesses to one location by different invocations, at least one a write, not both atomic,
and not ordered, are a data race. For the accesses a run executes, every racing pair of source
lines is reported whatever order the schedule ran them in (shadow.py says why); which accesses
run can depend on the schedule when control flow does (a branch on an atomic's result), which
``explore(..., races=True)`` is for.
"""

from __future__ import annotations

import sys
import warnings
from contextvars import ContextVar
from typing import Any

import numpy as np

from .._core.instruments import Instrument
from .._core.sources import internal, position_of, user_stacklevel
from ..wgsl.watched import FlatIndex
from . import conversions
from . import findings as reports
from .findings import (
    Finding,
    _access_at,
    _overflowed_length,
    _plain,
    _unflatten,
    errors_of,
    render_findings,
    settle_hints,
)
from .shadow import (
    _UNSET,
    ATOMIC,
    ATOMIC_READ,
    ATOMIC_WRITE,
    CHUNK_BITS,
    CHUNK_MASK,
    CONFLICTS,
    KEY,
    PHASE_SHIFT,
    PLAIN_READ,
    PLAIN_WRITE,
    SITE_BITS,
    SITE_SHIFT,
    SLOTS,
    WRITE,
    MemoryState,
    _Shadow,
    as_stored,
    check_key_space,
    check_site_space,
    first_conflict,
    push,
    switch_line,
)

_WORKGROUP_ORDERING = frozenset({"workgroup_barrier", "workgroup_uniform_load"})
_STORAGE_ORDERING = frozenset({"storage_barrier"})
#: storage textures are in the handle address space, which textureBarrier orders
_HANDLE_ORDERING = frozenset({"texture_barrier"})


# ----------------------------------------------------------------------------------- detection
# What the detector remembers of each element, and why that finds every racing pair of lines,
# is in shadow.py.


class RaceDetector(Instrument):
    """The data-race detector (an instrument). ``allow`` names bindings or workgroup variables
    whose races are intentional (benign) and not reported."""

    wants_memory_access = True

    def __init__(self, run: Any, allow: Any = ()) -> None:
        self.run = run
        self.allow = set(allow)
        self.findings: list[Finding] = []
        self.scheduler: Any = None
        self.n = 1  # invocations per unit
        self._seen: dict[tuple, Finding] = {}
        self._races: list[tuple[reports.DataRace, bool]] = []  # each race, and if atomic
        self._states: dict[int, MemoryState] = {}
        self._phases: dict[str, dict[int, int]] = {"workgroup": {}, "storage": {},
                                                   "handle": {}}
        self._flat: dict[tuple, np.ndarray] = {}  # shape -> flat positions
        self._sites: list[tuple[str, int]] = [("?", 0)]
        self._site_ids: dict[tuple[str, int], int] = {}
        self._frame_sites: dict[int, tuple] = {}  # instruction -> (code, shifted site)
        self._package_code: dict[Any, bool] = {}

    # ---- events
    def run_started(self, scheduler: Any) -> None:
        self.scheduler = scheduler
        self.n = self.run.unit_size
        config = self.run.config
        if config.get("stage") == "compute":
            check_key_space(int(np.prod(config["workgroups"])) * self.n)
        elif config.get("stage") == "fragment":
            w, h = config["size"]
            check_key_space(4 * ((w + 1) // 2) * ((h + 1) // 2))

    def rendezvous_completed(self, group: Any, op: str, members: list) -> None:
        space = "workgroup" if op in _WORKGROUP_ORDERING else \
            "storage" if op in _STORAGE_ORDERING else \
            "handle" if op in _HANDLE_ORDERING else None
        if space is not None:
            phases = self._phases[space]
            phases[group.index] = phases.get(group.index, 0) + 1

    def memory_access(self, inv: Any, memory: Any, index: Any, kind: str) -> None:
        self._access(inv, memory, index, kind == "store", False, kind, self._site())

    def atomic(self, inv: Any, op: str, memory: Any, index: Any, old: Any, new: Any) -> None:
        # an atomic lands while its invocation is suspended at the await: that is its line
        name, line, _ = position_of(inv)
        self._access(inv, memory, index, op != "atomic_load", True, op, self._intern((name, line)))

    def unit_retired(self, unit: Any) -> None:
        """A workgroup ended: its workgroup memory can no longer race."""
        for state in self._states.values():
            if state.per_unit:
                state.shadows.pop(unit.index, None)

    def out_of_bounds(self, inv: Any, memory: Any, index: Any, kind: str, view: Any = None,
                      waiting: bool = False) -> None:
        """``inv`` accessed ``memory[index]`` (or ``view[index]``, for a sub-array view of
        it) out of bounds; ``waiting``: at a rendezvous, where ``inv`` stands."""
        name, _ = self.run.memory_name(memory)
        shaped = memory
        if view is not None and view is not memory and getattr(view, "_map", None) is not None:
            name, shaped = name + "[...]", view  # the index is the view's
        if waiting:
            file, line, _ = position_of(inv)
            site = self._intern((file, line))
        else:
            site = self._site()
        helper = bool(getattr(inv, "helper", False))

        def make() -> reports.OutOfBounds:
            finding = reports.OutOfBounds(
                memory=name, index=_plain(index), length=_overflowed_length(shaped, index),
                access=_access_at(str(inv), kind, self._sites[site]))
            if helper:  # fragment padding reading past an edge: expected, not a bug
                finding.severity = "note"
            return finding

        self._add(("oob", name, kind, site, helper), make, _plain(index))

    def helper_effect(self, inv: Any, memory: Any, kind: str) -> None:
        name, _ = self.run.memory_name(memory)
        # (an atomic lands while its invocation is suspended at the await: that is its line)
        site = self._intern(position_of(inv)[:2]) if kind.startswith("atomic") else \
            self._site()
        self._add(("helper", name, kind, site), lambda: reports.HelperSideEffect(
            memory=name, access=_access_at(str(inv), kind, self._sites[site])), None)

    def _add(self, key: tuple, make: Any, element: Any) -> None:
        seen = self._seen.get(key)
        if seen is not None:
            if element is not None:
                seen.note(element)
            else:
                seen.count += 1
            return
        finding = self._seen[key] = make()
        if element is not None:
            finding.elements.append(element)
        self.findings.append(finding)

    # ---- the check
    def state_of(self, memory: Any) -> MemoryState:
        """The detector's state for ``memory`` (made on first use)."""
        state = self._states.get(id(memory))
        if state is None:
            name, space = self.run.memory_name(memory)
            state = self._states[id(memory)] = MemoryState(
                memory, name, space, name in self.allow, self._phases[space],
                self.check_fragment if self.run.config.get("stage") == "fragment" else self.check)
        return state

    def _access(self, inv: Any, memory: Any, index: Any, write: bool, atomic: bool,
                op: str, site: int) -> None:
        if inv is None:
            return
        state = self.state_of(memory)
        if state.allowed:
            return
        for flat in self._flat_indices(memory, index):
            if atomic:
                self._check_atomic(state, flat, write, site, inv, op)
            else:
                state.check(state, flat, write, site, inv, op)

    def check(self, state: MemoryState, flat: int, write: bool, where: Any, inv: Any = None,
              op: str | None = None, value: Any = _UNSET) -> None:
        """Checks a plain access to element ``flat`` against the shadow and records it.
        ``where`` is a site id or the accessing frame; ``inv`` defaults to the running
        invocation; ``value`` is what a store stored, if the caller has it at hand. The hot
        path of the detector: watched.py calls it directly for plain element accesses (and
        the caller checks ``state.allowed``)."""
        if inv is None:
            inv = self.scheduler.current
            if inv is None:
                return
        if where.__class__ is int:
            site = where << SITE_SHIFT
        else:  # code objects hash by value (slow): look up by instruction, then compare code
            cached = self._frame_sites.get(where.f_lasti)
            if cached is not None and cached[0] is where.f_code:
                site = cached[1]
            else:
                site = self._site_of(where) << SITE_SHIFT
        key = inv.key
        n = self.n
        wg = key // n
        shadow = state.fixed or state.shadows.get(wg) or state.shadow(wg)
        phase = state.phases.get(wg, 0)
        slots = shadow.chunks[flat >> CHUNK_BITS] or shadow.chunk(flat)
        rec = key | site | (phase << PHASE_SHIFT)
        b = (flat & CHUNK_MASK) * SLOTS
        # against the writes of the last line that wrote (first_conflict, its first test
        # inlined: this runs per access)
        prev = slots[b]
        if prev >= 0:
            k = prev & KEY
            if k != key and (k // n != wg or prev >> PHASE_SHIFT == phase):
                self._report(shadow, prev, flat, state, rec, inv, op, write, slots, b)
            elif slots[b + 1] >= 0 or slots[b + 2] >= 0:
                prev = first_conflict(slots, b, key, wg, n, phase)
                if prev >= 0:
                    self._report(shadow, prev, flat, state, rec, inv, op, write, slots, b)
        if write:
            prev = first_conflict(slots, b + 3, key, wg, n, phase)  # the reads
            if prev >= 0:
                self._report(shadow, prev, flat, state, rec, inv, op, write, slots, b + 3)
            if flat in shadow.extra:  # other lines' and atomics' accesses
                self._against_extra(shadow, flat, state, rec, inv, op, True, False, phase)
            last = slots[b]
            if last >= 0 and last & SITE_BITS != site:
                switch_line(shadow, slots, b, flat, PLAIN_WRITE, site, phase, state.per_unit)
            push(slots, b, rec | WRITE, key, wg, n)
            # what was stored (as given: converted when compared, see _report)
            shadow.value[flat] = state.item(flat) if value is _UNSET else value
        else:
            if flat in shadow.extra:
                self._against_extra(shadow, flat, state, rec, inv, op, False, False, phase)
            b += 3
            last = slots[b]
            if last >= 0:
                if last & SITE_BITS != site:
                    switch_line(shadow, slots, b, flat, PLAIN_READ, site, phase,
                                state.per_unit)
                    last = slots[b]
                if last >= 0 and last & KEY != key:  # push(), inlined
                    slots[b + 1] = last
                    if (last & KEY) // n != wg:
                        slots[b + 2] = last
            slots[b] = rec

    def _against_extra(self, shadow: _Shadow, flat: int, state: MemoryState, rec: int,
                       inv: Any, op: str | None, write: bool, atomic: bool,
                       phase: int) -> None:
        """An access against the triples of the other lines and of the atomics that touched
        ``flat``: each line that conflicts is reported."""
        key, n = inv.key, self.n
        wg = key // n
        kinds = CONFLICTS[(write, atomic)]
        for (_, kind), triple in shadow.extra[flat].items():
            if kind in kinds:
                prev = first_conflict(triple, 0, key, wg, n, phase)
                if prev >= 0:
                    self._report(shadow, prev, flat, state, rec, inv, op, write, triple, 0)

    def check_fragment(self, state: MemoryState, flat: int, write: bool, where: Any,
                       inv: Any = None, op: str | None = None, value: Any = _UNSET) -> None:
        """:meth:`check` for fragment runs: a helper's loads feed derivatives only (its stores
        were dropped before they got here), so they are not checked."""
        if inv is None:
            inv = self.scheduler.current
        if inv is not None and not inv.helper:
            self.check(state, flat, write, where, inv, op, value)

    def _check_atomic(self, state: MemoryState, flat: int, write: bool, site: int, inv: Any,
                      op: str) -> None:
        """Checks an atomic access against the plain accesses and records it."""
        key = inv.key
        n = self.n
        wg = key // n
        shadow = state.shadow(wg)
        phase = state.phases.get(wg, 0)
        site <<= SITE_SHIFT
        rec = key | (phase << PHASE_SHIFT) | site | ATOMIC
        slots = shadow.chunk(flat)
        b = (flat & CHUNK_MASK) * SLOTS
        for base in (b, b + 3) if write else (b,):
            prev = first_conflict(slots, base, key, wg, n, phase)
            if prev >= 0:
                self._report(shadow, prev, flat, state, rec, inv, op, write, slots, base)
        if flat in shadow.extra:
            self._against_extra(shadow, flat, state, rec, inv, op, write, True, phase)
        extra = shadow.extra.setdefault(flat, {})
        kind = ATOMIC_WRITE if write else ATOMIC_READ
        triple = extra.get((site, kind))
        if triple is None:
            triple = extra[(site, kind)] = [-1, -1, -1]
        push(triple, 0, rec | (WRITE if write else 0), key, wg, n)

    def _report(self, shadow: _Shadow, prev: int, flat: int, state: MemoryState, rec: int,
                inv: Any, op: str | None, write: bool, triple: list[int], base: int) -> None:
        """Folds the conflict of the new access ``rec`` with ``prev`` (of the triple at
        ``triple[base:base + 3]``) into its pair of lines' finding. The pair is within workgroups
        only while no occurrence is between workgroups: ``prev`` is the first conflict of the
        triple, and when it is from ``inv``'s workgroup, G (the last access from another
        workgroup than L's, L being of ``inv``'s workgroup then) is one between workgroups if
        there is any, whichever the order (Lockstep's rule)."""
        wg = inv.key // self.n
        far = triple[base + 2]
        within = (prev & KEY) // self.n == wg and not (far >= 0 and (far & KEY) // self.n != wg)
        prev_site = (prev & SITE_BITS) >> SITE_SHIFT
        site = (rec & SITE_BITS) >> SITE_SHIFT
        race = "write-write" if write and prev & WRITE else "read-write"
        # one finding per pair of lines, whichever of the two ran first: the same race folds
        # into one finding under every schedule
        key = (race, state.name, min(prev_site, site), max(prev_site, site))
        memory = state.memory
        seen = self._seen.get(key)
        if seen is not None:
            seen.note(_unflatten(memory, flat))
            if not within:
                seen.same_workgroup = False  # also between workgroups: whatever the order
            return
        prev_op = "store" if prev & WRITE else "load"
        if prev & ATOMIC:
            prev_op = "atomic " + prev_op
        op = op or ("store" if write else "load")
        a, b = self._sites[prev_site], self._sites[site]
        k = prev & KEY
        same_value = race == "write-write" and as_stored(state, shadow.value.get(flat)) == \
            state.item(flat)
        finding = reports.DataRace(
            race=race, memory=state.name, address_space=state.space,
            index=_unflatten(memory, flat),
            first=_access_at(self.run.describe_key(k), prev_op, a),
            second=_access_at(str(inv), op, b), same_workgroup=within,
            hint="", same_value=bool(same_value))
        self._races.append((finding, bool(prev & ATOMIC) or "atomic" in op))
        finding.elements.append(finding.index)
        self._seen[key] = finding
        self.findings.append(finding)

    def _site(self) -> int:
        """The user's source line running now (outside this package), as a small int."""
        return self._site_of(sys._getframe(2))

    def _site_of(self, f: Any) -> int:
        """The site of frame ``f``, or of the first frame outside this package above it; cached
        by (code, instruction) when ``f`` itself is the user's."""
        start = f
        package = self._package_code
        while f is not None:
            code = f.f_code
            inside = package.get(code)
            if inside is None:
                inside = package[code] = internal(code.co_filename)
            if not inside:
                break
            f = f.f_back
        site = self._intern((f.f_code.co_filename, f.f_lineno) if f is not None else ("?", 0))
        if f is start:
            self._frame_sites[f.f_lasti] = (f.f_code, site << SITE_SHIFT)
        return site

    def _intern(self, where: tuple[str, int]) -> int:
        site = self._site_ids.get(where)
        if site is None:
            check_site_space(len(self._sites))
            site = self._site_ids[where] = len(self._sites)
            self._sites.append(where)
        return site

    def _flat_indices(self, memory: Any, index: Any) -> Any:
        """The flat positions ``memory[index]`` covers: arithmetic for integer indices (a
        row of a 2-D buffer is a range), numpy for slices and fancy indices."""
        if isinstance(index, FlatIndex):
            return index.flat.tolist()
        shape = memory.shape
        ints = (index,) if isinstance(index, (int, np.integer)) else index
        if isinstance(ints, tuple) and len(ints) <= len(shape) and all(
                isinstance(i, (int, np.integer)) for i in ints):
            start = 0
            for i, n in zip(ints, shape):
                start = start * n + int(i)
            block = 1
            for n in shape[len(ints):]:
                block *= n
            return range(start * block, (start + 1) * block)
        positions = self._flat.get(shape)
        if positions is None:
            positions = self._flat[shape] = np.arange(memory.size).reshape(shape)
        return np.ravel(positions[index]).tolist()


SANITIZE_MODES = ("report", "error", "off")

#: what ``sanitize=None`` (the dispatch default) means: "report" (with a DataRaceWarning when
#: something is found) unless this says otherwise (the pytest plugin sets "report" inside
#: @pytest.mark.schedules tests, where findings fail the test instead)
DEFAULT_SANITIZE: ContextVar[str | None] = ContextVar("asyncshader_default_sanitize",
                                                      default=None)


def default_off(sanitize: str | None) -> str | None:
    """``sanitize``, or ``"off"`` where it is None and :data:`DEFAULT_SANITIZE` says
    ``"off"`` (the pytest marker's ``races=False``): what a dispatch hands a schedule that
    runs it itself (``ash.Lockstep``)."""
    return "off" if sanitize is None and DEFAULT_SANITIZE.get() == "off" else sanitize


#: where dispatches that took the default sanitize mode put their error-level findings instead
#: of warning (the pytest plugin collects them to fail the test); None: warn
DEFAULT_FINDINGS: ContextVar[list | None] = ContextVar("asyncshader_default_findings",
                                                       default=None)


class _KeyOnly:
    """Stands for a finished invocation when describing it by key."""

    helper = False

    def __init__(self, key: int) -> None:
        self.key = key


class SanitizedRun:
    """Mixin for the dispatch runs: the sanitizer options and what the memory layer reports."""

    detector: RaceDetector | None = None
    sanitize = "off"
    warn_findings = False  # the default applied: say so when something is found
    scheduler: Any
    access_hooks: list
    unit_size: int  # invocations per unit: an invocation's unit is key // unit_size

    def describe_key(self, key: int) -> str:
        """An invocation's description from its key (it may have finished long ago)."""
        inv = self.scheduler.find(key)
        if inv is not None:
            return str(inv)
        return self.ids.describe(_KeyOnly(key))

    def setup_sanitizer(self, sanitize: str | None, allow_races: Any,
                        storage: dict[str, Any], instruments: list, memory: bool = True) -> None:
        """Attaches the race detector as ``sanitize`` says, unless the dispatch has no memory
        to watch (``memory=False``: a fragment shader without storage, where nothing can race,
        go out of bounds or be written by a helper)."""
        if sanitize is None:  # the default: say so when something is found
            sanitize = DEFAULT_SANITIZE.get() or "report"
            self.warn_findings = sanitize == "report"
        if sanitize not in SANITIZE_MODES:
            raise ValueError(f"sanitize= takes 'report' (findings in result.findings), 'error' "
                             f"(raise DataRaceError) or 'off', not {sanitize!r}")
        if isinstance(allow_races, str):
            allow_races = (allow_races,)
        self.sanitize = sanitize
        self._names = {id(v): k for k, v in storage.items()}
        self._handles: dict[int, str] = {}
        if sanitize != "off" and memory:
            self.detector = RaceDetector(self, set(allow_races))
            instruments.append(self.detector)
            if not any(getattr(i, "wants_memory_access", False) for i in instruments[:-1]):
                self.memory_access = self._detector_access  # type: ignore[method-assign]
                self._fast_checks = True

    _fast_checks = False

    def fast_state(self, memory: Any) -> MemoryState | None:
        """The detector's state for a 1-D or 2-D memory object when plain element accesses may
        call the detector directly (it is the only instrument watching memory); else None."""
        if not self._fast_checks or memory.ndim not in (1, 2):
            return None
        state = self.detector.state_of(memory)  # type: ignore[union-attr]
        return None if state.allowed else state

    def _detector_access(self, memory: Any, index: Any, kind: str) -> None:
        """memory_access when the race detector is the only instrument that wants it."""
        det = self.detector
        det._access(self.scheduler.current, memory, index, kind == "store", False, kind,
                    det._site())

    def memory_access(self, memory: Any, index: Any, kind: str) -> None:
        """Reports a plain load or store by the running invocation to the instruments."""
        inv = self.scheduler.current
        for hook in self.access_hooks:
            hook(inv, memory, index, kind)

    def texture_access(self, memory: Any, index: Any, kind: str, name: str) -> None:
        """The running invocation's load or store of a storage texture's texel
        ``memory[index]`` (``memory``: the block of a level, ``name``: the binding): memory of
        the handle address space for the race detector."""
        if self.detector is not None:
            self.name_texture(memory, name)
            self.memory_access(memory, index, kind)

    def name_texture(self, memory: Any, name: str) -> None:
        """Names a storage texture's level block (``memory``) in findings: the binding
        ``name``, of the handle address space."""
        if self.detector is not None:
            self._handles[id(memory)] = name

    def memory_name(self, memory: Any) -> tuple[str, str]:
        """(name, address space) of a workgroup variable, a bound buffer or a storage
        texture's level."""
        handle = self._handles.get(id(memory)) if self.detector is not None else None
        if handle is not None:
            return handle, "handle"
        of = getattr(memory, "_ash_memory_of", None)  # a struct buffer's memory, by granule
        if of is not None:
            memory = of
        name = getattr(memory, "var_name", None)
        if name is not None:
            return name, "workgroup"
        if getattr(memory, "read_only_origin", None) is not None:  # var<storage, read>
            return memory.binding, "storage"
        return self._names.get(id(memory), "buffer"), "storage"

    def out_of_bounds(self, memory: Any, index: Any, kind: str, view: Any = None,
                      waiting: Any = None) -> None:
        """An access out of bounds by the running invocation (or by ``waiting``, an invocation
        standing at a rendezvous that performs the access)."""
        if self.detector is not None:
            inv = waiting if waiting is not None else self.scheduler.current
            self.detector.out_of_bounds(inv, memory, index, kind, view, waiting is not None)

    def helper_effect(self, inv: Any, memory: Any, kind: str) -> None:
        if self.detector is not None:
            self.detector.helper_effect(inv, memory, kind)

    def collective_finding(self, key: tuple, make: Any, element: Any) -> None:
        """A finding of a collective operation (subgroups.py): made once per ``key`` (kind,
        operation, file, line), counted after."""
        found = self.__dict__.setdefault("_collective_findings", {})
        if key in found:
            found[key].note(element)
        else:
            found[key] = make()

    def implicit_conversion(self, memory: Any, index: Any, value: Any, view: Any) -> None:
        """The running invocation stores a float into integer memory (conversions.py)."""
        conversions.report(self, self.scheduler.current, memory, index, value, view)

    def findings(self, trace: Any = None) -> list[Finding]:
        """The run's findings; with ``sanitize="error"`` any finding raises DataRaceError
        (carrying ``trace``, the run's, as ``asyncshader_trace``: replaying it reproduces the
        race, as for every error that ends a dispatch)."""
        found = []
        if self.detector is not None:
            settle_hints(self.detector._races, self.config.get("stage") == "fragment")
            found = list(self.detector.findings)
        found += self.__dict__.get("_collective_findings", {}).values()
        errors = errors_of(found)
        if errors and self.sanitize == "error":
            error = reports.DataRaceError(render_findings(found), found)
            if trace is not None:
                error.asyncshader_trace = trace  # type: ignore[attr-defined]
            raise error
        if not errors or not self.warn_findings:
            return found
        sink = DEFAULT_FINDINGS.get()
        if sink is not None:
            sink.extend(errors)
        else:
            warnings.warn(reports.DataRaceWarning(
                render_findings(errors) + "\n(asyncshader's race detector is on by "
                "default: the findings are in result.findings. Pass sanitize='error' to raise, "
                "allow_races=[name] for an intentional race, or sanitize='off'.)"),
                stacklevel=user_stacklevel())
        return found
