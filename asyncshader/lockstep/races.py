"""Lockstep's race detector: the coroutine detector's findings (:mod:`asyncshader.sanitizers`),
computed from the lanes' accesses as arrays.

While a dispatch runs, every plain load and store and every atomic of memory that some line
of the kernel writes is recorded as arrays over its active, in-bounds lanes: the word
address, the invocation (its key: workgroup index * workgroup size + local index), the phase
of its workgroup (the number of barriers of the memory's kind it has crossed), the source
line, the kind (plain write, plain read, atomic write, atomic read) and a store's value. The
records' order is Lockstep's interleaving: operation after operation, lanes in order.

The check (:mod:`.conflicts`) is the coroutine detector's, vectorised: for every access and
every group of recorded accesses of one line and kind at the same word, the last earlier one
(L), the last before it by another invocation (O) and the last from another workgroup (G)
decide whether some access of the group conflicts with it (shadow.py proves that these three
are enough; here they are found by sorting and run starts, not kept per element). So every
racing pair of lines is found, and the findings are the ones the coroutine detector makes for
the same order: kind, memory and lines as under every schedule; the count, the element named
first, the two invocations and ``same_value`` as that order gives them (docs/lockstep.md).
Only the words some access writes and two invocations touch are checked. Workgroup memory is
checked at each barrier the whole chunk of workgroups crosses (no later access can race with
the phase it ends) and when the chunk ends (the memory is its workgroups' only); storage
memory when the dispatch ends (different workgroups are never ordered); either sooner when
its records are many, keeping only the three accesses per word, line and kind that decide
every later conflict (:func:`.conflicts.summary`). Memory that no line
writes cannot race and is not recorded (only its bounds are checked).
"""

from __future__ import annotations

import linecache
from typing import Any

import numpy as np

from .._core.diagnostics import _short
from ..emit.buffers import to_gpu
from ..errors import BarrierDivergenceError
from ..ir.types import Array, Atomic, Scalar, Vector
from ..sanitizers.findings import (
    DataRace,
    HelperSideEffect,
    OutOfBounds,
    _access_at,
    _unflatten,
)
from ..sanitizers.races import SanitizedRun, _KeyOnly
from ..sanitizers.shadow import check_key_space
from ..stages.compute import _Ids
from ..wgsl.struct_buffers import as_struct_binding, describe_granule
from . import lanes as _l
from .conflicts import (
    ATOMIC_WRITE,
    IS_ATOMIC,
    IS_WRITE,
    READ,
    WRITE,
    conflicts,
    gather,
    same_value,
    summary,
)

#: memory with more recorded accesses than this is checked before its phase or the dispatch
#: ends, keeping only what later accesses can conflict with (three per word, line and kind)
KEEP = 1 << 19


class Memory:
    """What the recorder knows of one memory (a storage buffer, or the workgroup variable of
    a chunk's workgroups): the name findings give it, its address space, whether its races
    are recorded, how a word is named (``element``) and the records so far."""

    def __init__(self, name: str, space: str, watched: bool, element: Any,
                 size: int = 0) -> None:
        self.name, self.space, self.watched, self.element = name, space, watched, element
        self.size = size  # words per workgroup (workgroup memory)
        self.records: list[tuple] = []
        self.recorded = 0  # the accesses in the records
        self.kept: dict | None = None  # what an earlier check kept (Detector.check)


class Recorder:
    """``_r`` in Lockstep's generated code when the detector is on: the memory operations,
    recorded, then done as :mod:`.lanes` and :mod:`.atomics` do them; the barriers, counted
    per workgroup (its phase)."""

    def __init__(self, detector: Any, sites: list, ops: list) -> None:
        self.detector = detector
        self.sites, self.ops = sites, ops
        self.memories: dict[int, Memory] = {}
        self.first = 0  # the chunk's first workgroup
        self.n = 1
        self.phases: dict[str, np.ndarray] = {}
        self.lane_phases: dict[str, tuple] = {}  # space -> (every lane's key, phase)
        self.shared: list[Memory] = []  # the chunk's workgroup memories
        #: a fragment chunk's ``H`` (H[0]: its helper lanes, which ``discard`` widens), or
        #: None: helpers' accesses are not recorded (their loads feed derivatives only, their
        #: stores are dropped), their out-of-bounds loads are notes
        self.helpers: list | None = None

    def chunk(self, first: int, count: int, n: int) -> None:
        """A chunk of ``count`` workgroups from ``first`` starts (``n`` invocations each)."""
        self.first, self.n = first, n
        self.phases = {"workgroup": np.zeros(count, np.int64),
                       "storage": np.zeros(count, np.int64)}
        self.lane_phases = {}

    # --- the generated code's calls -------------------------------------------------------

    def load(self, words: Any, view: str, at: Any, ok: Any, m: Any, site: int, idx: Any,
             L: int, kind: int = READ) -> Any:
        """A plain load (``kind``: READ; ATOMIC_READ for atomicLoad; -1 for the load of a
        workgroupUniformLoad, which only its bounds can make wrong)."""
        self.note(words, at, ok, m, site, kind, idx, L)
        return _l.load(getattr(words, view), at, ok)

    def store(self, words: Any, view: str, at: Any, ok: Any, m: Any, value: Any, site: int,
              idx: Any, L: int, n: int = 0, kind: int = WRITE) -> None:
        """A plain store (``n``: a vector's components, 0 for a scalar)."""
        target = getattr(words, view)
        if n:
            at = _l.vector_at(at, n)
            value = np.asarray(value)
        self.note(words, at, ok, m, site, kind, idx, L, value, target.dtype)
        if n:
            for k in range(n):
                _l.store(target, at[k], ok, m, value[k], L)
        else:
            _l.store(target, at, ok, m, value, L)

    def atomic(self, result: Any, words: Any, at: Any, ok: Any, m: Any, site: int, idx: Any,
               L: int) -> Any:
        """An atomic read-modify-write that ran (``result``: what it returned)."""
        self.note(words, at, ok, m, site, ATOMIC_WRITE, idx, L)
        return result

    def helper_effect(self, words: Any, m: Any, site: int, L: int, op: str) -> None:
        """The helper lanes ``m`` tried a store or an atomic (``op``) at ``site``: dropped, a
        helper side effect each (a note)."""
        if m is False or site < 0 or words is None:
            return
        lanes = np.arange(L) if m is None else np.flatnonzero(_l.lane_array(m, L))
        if lanes.size:
            self.detector.helper_effect(self.memories[id(words)], self.first * self.n + lanes,
                                        site, op)

    def barrier(self, space: str, m: Any, L: int, size: int, site: int) -> None:
        """A barrier at ``site``: the workgroups whose lanes reach it enter their next phase
        of ``space`` (``None``: an ordering of no memory the detector watches here)."""
        if m is False:
            return
        if m is not None:
            self.diverged(m.reshape(-1, size), site)
        if space is None:
            return
        phases = self.phases[space]
        self.lane_phases.pop(space, None)
        reached = None if m is None else m.reshape(-1, size).all(axis=1)
        if reached is None or reached.all():
            phases += 1
            if space == "workgroup":  # (a phase no later access can race with: checked now)
                for memory in self.shared:
                    self.detector.check(memory)
        else:
            phases[reached] += 1

    def uniform_load(self, m: Any, L: int, size: int, site: int, load: Any) -> Any:
        """``workgroupUniformLoad``: barrier, load, barrier (WGSL): its load races with
        nothing, and the accesses before and after it are ordered."""
        self.barrier("workgroup", m, L, size, site)
        value = load()
        self.barrier("workgroup", m, L, size, site)
        return value

    def choose(self, f: Any, t: Any, c: Any, m: Any) -> Any:
        """``select(f(), t(), c)`` with ``t``'s accesses recorded for the lanes of ``m``
        where ``c`` holds and ``f``'s for the others (each takes the mask)."""
        taken = _l.cond(c)
        return np.where(c, t(_l.both(m, taken)), f(_l.minus(m, taken)))

    def diverged(self, rows: np.ndarray, site: int) -> None:
        """Raises the coroutine schedules' BarrierDivergenceError when a workgroup's lanes
        (``rows``: one row per workgroup of the chunk) reach the barrier at ``site`` in part
        only."""
        split = np.flatnonzero(rows.any(axis=1) & ~rows.all(axis=1))
        if not split.size:
            return
        w = int(split[0])
        wid, _, _ = self.detector.run.ids.split((self.first + w) * self.n)
        file, line = self.sites[site] if site >= 0 else ("?", 0)
        op = self.ops[site] if site >= 0 else "workgroup_barrier"
        source = linecache.getline(file, line).strip()
        raise BarrierDivergenceError(
            f"BarrierDivergenceError in workgroup_id=({','.join(map(str, wid))}): some "
            "invocations wait at a barrier that others of their workgroup do not reach (in "
            "lockstep). This is non-uniform control flow.\n"
            f"  local_invocation_index {_l._few(np.flatnonzero(rows[w]))}: wait at "
            f"{_short(file)}:{line} in {op}(): {source}\n"
            f"  local_invocation_index {_l._few(np.flatnonzero(~rows[w]))}: do not reach it\n"
            "Fix: call barriers in uniform control flow: every invocation of the workgroup "
            "must reach the same barrier call (no early return, no barrier under a condition "
            "that differs between invocations)")

    # --- recording ------------------------------------------------------------------------

    def note(self, words: Any, at: Any, ok: Any, m: Any, site: int, kind: int, idx: Any,
             L: int, value: Any = None, dtype: Any = None) -> None:
        """Records an access by the lanes of ``m`` at word addresses ``at`` (shape (L,), or
        (components, L)); the lanes out of bounds are an out-of-bounds finding instead."""
        if m is False or site < 0:
            return
        memory = self.memories[id(words)]
        lanes = None  # (None: every lane of the chunk)
        helpers = False if self.helpers is None else self.helpers[0]
        if m is not None or ok is not True or helpers is not False:
            active = np.ones(L, bool) if m is None else np.asarray(m)
            helper = _l.lane_array(helpers, L) if helpers is not False else None
            if ok is not True:
                inside = np.broadcast_to(ok, (L,))
                outside = active & ~inside
                for part, of_helpers in ((outside, False), (outside, True)):
                    if helper is not None:
                        part = part & (helper if of_helpers else ~helper)
                    elif of_helpers:
                        continue
                    if part.any():
                        self.detector.out_of_bounds(memory, np.flatnonzero(part), idx, site,
                                                    kind, self.first * self.n, L, of_helpers)
                active = active & inside
            if helper is not None:
                active = active & ~helper
            if not memory.watched or kind < 0:
                return
            if not active.all():
                lanes = np.flatnonzero(active)
                if not lanes.size:
                    return
        elif not memory.watched or kind < 0:
            return
        at = np.asarray(at)
        addresses = np.broadcast_to(at, (*at.shape[:-1], L) if at.ndim > 1 else (L,))
        if lanes is None:
            keys, phase = self.everyone(L, memory.space)
        else:
            addresses = addresses[..., lanes]
            keys = self.first * self.n + lanes
            phase = self.phases[memory.space][lanes // self.n]
        addresses = addresses.reshape(-1).astype(np.int64)
        if addresses.size > keys.size:  # (a vector's components)
            keys = np.tile(keys, addresses.size // keys.size)
            phase = np.tile(phase, addresses.size // phase.size)
        bits = None
        if value is not None:
            v = np.asarray(value, dtype)
            shape = (*v.shape[:-1], L) if v.ndim > 1 else (L,)
            v = np.broadcast_to(v, shape)
            v = (v if lanes is None else v[..., lanes]).reshape(-1)
            if v.dtype.kind == "f":
                v = v + v.dtype.type(0)  # (-0.0 stores as 0.0: the same value)
            bits = v.view(np.uint32)
        memory.records.append((addresses, keys, phase, site, kind, bits,
                               self.detector.take_order(keys.size)))
        memory.recorded += keys.size
        if memory.recorded > KEEP:  # (checked now, keeping what can still conflict)
            self.detector.check(memory, keep=True)

    def everyone(self, L: int, space: str) -> tuple[np.ndarray, np.ndarray]:
        """Every lane's key and phase of ``space`` (made once per phase)."""
        made = self.lane_phases.get(space)
        if made is None:
            keys = self.first * self.n + np.arange(L, dtype=np.int64)
            made = self.lane_phases[space] = (keys, np.repeat(self.phases[space], self.n))
        return made


class LockstepDetector:
    """The findings of one Lockstep dispatch: out-of-bounds accesses as they happen, races
    from the records (:func:`conflicts`), each folded per pair of lines as the coroutine
    detector folds them. Reads by ``SanitizedRun.findings`` like a ``RaceDetector``."""

    def __init__(self, run: Any, allow: Any) -> None:
        self.run = run
        self.allow = set(allow)
        self.findings: list = []
        self._races: list[tuple[DataRace, bool]] = []
        self._seen: dict[tuple, Any] = {}
        self._first: dict[int, int] = {}  # id(finding) -> order of its first occurrence
        self.order = 0
        self.sites: list[tuple[str, int]] = []
        self.ops: list[str] = []

    def take_order(self, count: int) -> np.ndarray:
        start = self.order
        self.order += count
        return np.arange(start, start + count, dtype=np.int64)

    def describe(self, key: int, helper: bool = False) -> str:
        inv = _KeyOnly(int(key))
        inv.helper = helper
        return self.run.ids.describe(inv)

    def out_of_bounds(self, memory: Memory, lanes: np.ndarray, idx: Any, site: int,
                      kind: int, first_key: int, L: int, helper: bool = False) -> None:
        """The lanes ``lanes`` (of ``L``) accessed ``memory`` out of bounds (``idx()``: the
        index steps of the access, (index over lanes, length) each): one occurrence each,
        the index named up to the step that overflowed; ``helper``: by fragment helpers (a
        note, as the coroutine detector's: padding reading past an edge is expected)."""
        steps = idx()
        index = np.stack([np.broadcast_to(np.asarray(i).reshape(-1), (L,))[lanes]
                          for i, _ in steps]).astype(np.int64) if steps else \
            np.zeros((1, lanes.size), np.int64)
        length = np.stack([np.broadcast_to(np.asarray(k).reshape(-1), (L,))[lanes]
                           for _, k in steps]).astype(np.int64) if steps else index
        overflowed = np.argmax((index < 0) | (index >= length), axis=0)
        op = "store" if IS_WRITE[kind] else "load"
        where = self.sites[site]
        key = ("oob", memory.name, op, where, helper)
        order = self.take_order(lanes.size)

        def named(j: int) -> Any:
            upto = index[:overflowed[j] + 1, j].tolist()
            return upto[0] if len(upto) == 1 else tuple(upto)

        finding = self._seen.get(key)
        rest = range(lanes.size)
        if finding is None:
            finding = self._seen[key] = OutOfBounds(
                memory=memory.name, index=named(0), length=int(length[overflowed[0], 0]),
                access=_access_at(self.describe(first_key + int(lanes[0]), helper), op, where))
            if helper:
                finding.severity = "note"
            finding.elements.append(finding.index)
            self._first[id(finding)] = int(order[0])
            self.findings.append(finding)
            rest = range(1, lanes.size)
        finding.count += len(rest)
        for j in rest[:64]:  # (the elements a finding names: the first 8 distinct)
            e = named(j)
            if e not in finding.elements and len(finding.elements) < 8:
                finding.elements.append(e)

    def helper_effect(self, memory: Memory, keys: np.ndarray, site: int, op: str) -> None:
        """Helper invocations ``keys`` tried a store or atomic ``op``: one
        :class:`HelperSideEffect` per memory, operation and line, counting them."""
        where = self.sites[site]
        key = ("helper", memory.name, op, where)
        finding = self._seen.get(key)
        order = self.take_order(keys.size)
        if finding is None:
            finding = self._seen[key] = HelperSideEffect(
                memory=memory.name, access=_access_at(self.describe(keys[0], True), op, where))
            self._first[id(finding)] = int(order[0])
            self.findings.append(finding)
            finding.count += keys.size - 1
        else:
            finding.count += keys.size

    def check(self, memory: Memory, keep: bool = False) -> None:
        """Finds the races among ``memory``'s records and folds them into findings; ``keep``:
        more records follow (many records before the end of the phase or the dispatch), so
        what later accesses can conflict with is kept (:func:`.conflicts.summary`), not the
        rest."""
        records, memory.records, memory.recorded = memory.records, [], 0
        kept, memory.kept = memory.kept, None
        n = self.run.unit_size
        if not records:
            memory.kept = kept if keep else None
            return
        if kept is None and not keep and not any(r[4] in (WRITE, ATOMIC_WRITE)
                                                 for r in records):
            return  # (reads and atomic reads only: nothing can race)
        a = gather(records, kept)
        if keep:
            memory.kept = summary(a, n)
        alpha, beta, cross = conflicts(a, n)
        if kept is not None:  # (the kept accesses' own conflicts were found before)
            new = alpha >= kept["addr"].size
            alpha, beta, cross = alpha[new], beta[new], cross[new]
        if not alpha.size:
            return
        rank = a["site"][beta] * 4 + a["kind"][beta]  # (one access's groups: by line, kind)
        by = np.lexsort((rank, a["order"][alpha]))
        alpha, beta, cross, rank = alpha[by], beta[by], cross[by], rank[by]
        # the same access twice (an index evaluated for the address and for the bounds) is
        # one access: one conflict per invocation, word, line, kind and phase and group
        fields = [a[k][alpha] for k in ("addr", "key", "site", "kind", "phase")] + [rank]
        same = np.lexsort((np.arange(alpha.size), *reversed(fields)))
        repeated = np.ones(alpha.size - 1, bool)
        for f in fields:
            f = f[same]
            repeated &= f[1:] == f[:-1]
        keep = np.ones(alpha.size, bool)
        keep[same[1:][repeated]] = False
        alpha, beta, cross = alpha[keep], beta[keep], cross[keep]
        kind_a, kind_b = a["kind"][alpha], a["kind"][beta]
        ww = IS_WRITE[kind_a] & IS_WRITE[kind_b]
        site_a, site_b = a["site"][alpha], a["site"][beta]
        lo, hi = np.minimum(site_a, site_b), np.maximum(site_a, site_b)
        code = (lo * (len(self.sites) + 1) + hi) * 2 + ww
        for c in np.unique(code):
            at = np.flatnonzero(code == c)
            self._fold(memory, a, alpha[at], beta[at], bool(ww[at[0]]), bool(cross[at].any()))

    def _fold(self, memory: Memory, a: dict, alpha: np.ndarray, beta: np.ndarray,
              write_write: bool, cross: bool) -> None:
        """One pair of lines' conflicts (in order) into its finding."""
        i, j = int(alpha[0]), int(beta[0])
        race = "write-write" if write_write else "read-write"
        sites = sorted((self.sites[int(a["site"][i])], self.sites[int(a["site"][j])]))
        key = (race, memory.name, *sites)
        seen = self._seen.get(key)
        rest = alpha
        if seen is None:
            seen = DataRace(
                race=race, memory=memory.name, address_space=memory.space,
                index=memory.element(int(a["addr"][i])),
                first=_access_at(self.describe(a["key"][j]), self._op(a, j, False),
                                 self.sites[int(a["site"][j])]),
                second=_access_at(self.describe(a["key"][i]), self._op(a, i, True),
                                  self.sites[int(a["site"][i])]),
                same_workgroup=not cross, hint="",
                same_value=write_write and same_value(a, i))
            seen.elements.append(seen.index)
            self._seen[key] = seen
            self._first[id(seen)] = int(a["order"][i])
            atomic = bool(IS_ATOMIC[a["kind"][i]] or IS_ATOMIC[a["kind"][j]])
            self._races.append((seen, atomic))
            self.findings.append(seen)
            rest = alpha[1:]
        else:
            seen.same_workgroup = seen.same_workgroup and not cross
        seen.count += rest.size
        words = a["addr"][rest]
        _, firsts = np.unique(words, return_index=True)
        for w in words[np.sort(firsts)][:16].tolist():
            e = memory.element(w)
            if e not in seen.elements and len(seen.elements) < 8:
                seen.elements.append(e)

    def _op(self, a: dict, i: int, own: bool) -> str:
        """How a finding names access ``i``: the access that found the race by its
        operation (an atomic by its name), the earlier one by its kind."""
        kind = int(a["kind"][i])
        if own and kind >= ATOMIC_WRITE:
            return self.ops[int(a["site"][i])]
        return ("store", "load", "atomic store", "atomic load")[kind]

    def finish(self) -> None:
        """Puts the findings in the order of their first occurrence."""
        self.findings.sort(key=lambda f: self._first[id(f)])




class LockstepRun(SanitizedRun):
    """What ``SanitizedRun`` (the sanitize modes, the warning, ``DataRaceError``) needs of a
    Lockstep dispatch: its configuration and how to name an invocation."""

    def __init__(self, size: tuple[int, int, int], groups: tuple[int, int, int],
                 sanitize: str | None, allow_races: Any, ids: Any = None,
                 stage: str = "compute") -> None:
        """A compute dispatch of ``groups`` workgroups of ``size``; a fragment dispatch gives
        its quads as workgroups of (4, 1, 1) and its ``ids`` (``FragmentIds``)."""
        self.config = {"stage": stage}
        self.ids = _Ids(size, groups) if ids is None else ids
        self.unit_size = int(np.prod(size))
        if isinstance(allow_races, str):
            allow_races = (allow_races,)
        self.setup_sanitizer(sanitize, allow_races or (), {}, [])
        if self.detector is not None:
            check_key_space(int(np.prod(groups)) * self.unit_size)
            self.detector = LockstepDetector(self, self.detector.allow)  # type: ignore


def elements_of(value: Any, t: Any) -> Any:
    """How the coroutine detector names word ``w`` of a buffer bound as ``value`` (WGSL type
    ``t``): a struct buffer's member (``p[3].vel.x``), an array's element (its flat index,
    or its index tuple for several dimensions; a vec3's padding word by its word)."""
    if isinstance(value, np.ndarray) and value.dtype.names:
        structs = as_struct_binding(value)
        if structs is not None:
            cls, ndim = structs._struct, value.ndim
            return lambda w: describe_granule(cls, ndim, w)
    arr = np.asarray(value)
    if arr.dtype.itemsize != 4:
        return lambda w: w
    made: list = []  # (the map from words to elements, made when a finding names one)

    def element(w: int) -> Any:
        if not made:
            flat = np.arange(1, arr.size + 1, dtype=np.uint32).reshape(arr.shape)
            made.append(to_gpu(flat, t).reshape(-1))
        marks = made[0]
        return _unflatten(arr, int(marks[w]) - 1) if w < marks.size and marks[w] else w
    return element


def shape_of(t: Any) -> tuple | None:
    """The numpy shape of workgroup memory of type ``t`` as the coroutine schedules hold it
    (None: a struct or matrix, named by word)."""
    if isinstance(t, Atomic):
        return ()
    if isinstance(t, Scalar):
        return ()
    if isinstance(t, Vector):
        return (t.size,)
    if isinstance(t, Array) and isinstance(t.length, int):
        inner = shape_of(t.element)
        return None if inner is None else (t.length, *inner)
    return None


def workgroup_elements(t: Any) -> Any:
    """:func:`elements_of` for a workgroup variable of type ``t``."""
    shape = shape_of(t)
    if shape is None:
        return lambda w: w
    return elements_of(np.zeros(shape, np.uint32), t)


def no_index() -> tuple:
    """The index steps of an access without any (a scalar variable)."""
    return ()


def watch_workgroup(recorder: Recorder, program: Any, ns: dict) -> list[Memory]:
    """Registers the workgroup variables of a chunk (their words in ``ns``) with the
    recorder; returns their memories (checked when the chunk ends)."""
    shared = []
    allow = recorder.detector.allow
    for name, size in program.workgroup_words.items():
        t = program.variables[name][2]
        elements = workgroup_elements(t)
        memory = Memory(name, "workgroup", name not in allow and (
            name in program.written or "*" in program.written),
            lambda w, elements=elements, size=size: elements(w % size), size)
        recorder.memories[id(ns[f"g_{name}"])] = memory
        shared.append(memory)
    recorder.shared = shared
    return shared
