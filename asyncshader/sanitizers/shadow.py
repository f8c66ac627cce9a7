"""The race detector's shadow memory: what it remembers of the accesses to every element, and
how an access is encoded (:mod:`asyncshader.sanitizers.races` does the checking).

Every racing pair of source lines must be found whatever order the schedule ran the accesses
in, so for every element the detector keeps, *per source line and kind of access* (plain
write, plain read, atomic write, atomic load), a triple of that line's accesses:

* L, the last one;
* O, the last one by another invocation than L's;
* G, the last one from another workgroup than L's.

For a new access by invocation X of workgroup w in w's phase p, some recorded access of that
line conflicts with it (another invocation's, and from another workgroup or from w's phase p)
if and only if one of L, O, G does: a phase only grows, so the most recent access of w by
another invocation than X (L, or O when L is X's) is in phase p if any is, and the most recent
access from another workgroup than w is L or G. So one triple per line and kind finds every
conflicting line, in bounded memory (the number of lines of a kernel bounds the triples).

The common case is one line per kind and element (a tile loaded at one line and read at
another): the triples of the plain write and the plain read of the line that touched an element
last are kept in chunks of flat lists (six slots per element: W-triple, R-triple), made when
first touched. When another line writes (or reads) the element, the triple it replaces moves to
the element's entry in ``_Shadow.extra`` (element -> {(site bits, kind): triple}), and comes
back when its line does; atomics' triples live there too. A replaced triple of workgroup memory
from an earlier phase is dropped: nothing can race with it any more.

A recorded access is one Python int (-1: an empty slot):
  bits 0-31 the invocation key (its workgroup is key // invocations per unit), bit 32 atomic,
  bit 33 write, bits 34-57 the source-site id, bits 58 and up the phase (unbounded: Python ints
  grow, so no number of barriers overflows it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import AsyncShaderError

KEY = 0xFFFFFFFF
ATOMIC = 1 << 32
WRITE = 1 << 33
SITE_SHIFT = 34
SITE_LIMIT = 1 << 24
SITE_BITS = (SITE_LIMIT - 1) << SITE_SHIFT
PHASE_SHIFT = 58
CHUNK_BITS = 12
CHUNK_MASK = (1 << CHUNK_BITS) - 1
SLOTS = 6  # per element: the W triple, then the R triple

#: the kinds of triples kept in ``_Shadow.extra``
PLAIN_WRITE, PLAIN_READ, ATOMIC_WRITE, ATOMIC_READ = 0, 1, 2, 3
#: the kinds of recorded access a new access conflicts with: (plain read, plain write, atomic
#: load, atomic write) -> kinds
CONFLICTS = {
    (False, False): (PLAIN_WRITE, ATOMIC_WRITE),
    (True, False): (PLAIN_WRITE, PLAIN_READ, ATOMIC_WRITE, ATOMIC_READ),
    (False, True): (PLAIN_WRITE,),
    (True, True): (PLAIN_WRITE, PLAIN_READ),
}


def check_key_space(invocations: int) -> None:
    """Raises an explicit error for a dispatch with more invocations than a record can name."""
    if invocations > KEY + 1:
        raise AsyncShaderError(
            f"the race detector names at most {KEY + 1:,} invocations per dispatch and this "
            f"one has {invocations:,}: split the dispatch, or pass sanitize='off'")


def check_site_space(sites: int) -> None:
    """Raises an explicit error when more source lines than a record can name were seen."""
    if sites >= SITE_LIMIT:
        raise AsyncShaderError(
            f"the race detector names at most {SITE_LIMIT - 1:,} distinct source lines per "
            "dispatch and this one executed more: pass sanitize='off' for it")


class _Shadow:
    """The access triples of every element of one memory object (a storage buffer, or one
    workgroup's instance of a workgroup variable), what the last write stored, and the triples
    of other lines and of atomics (element -> {(site bits, kind): [L, O, G]})."""

    __slots__ = ("chunk_len", "chunks", "extra", "value")

    def __init__(self, size: int) -> None:
        self.chunk_len = min(size, CHUNK_MASK + 1)  # small memory: one chunk of its size
        self.chunks: list[list[int] | None] = [None] * (-(-size // (CHUNK_MASK + 1)))
        self.value: dict[int, Any] = {}  # element -> what its last write stored
        self.extra: dict[int, dict[tuple[int, int], list[int]]] = {}

    def chunk(self, flat: int) -> list[int]:
        """The slots of the chunk holding element ``flat`` (made empty on first use)."""
        slots = self.chunks[flat >> CHUNK_BITS]
        if slots is None:
            slots = self.chunks[flat >> CHUNK_BITS] = [-1] * (SLOTS * self.chunk_len)
        return slots


def first_conflict(t: list[int], b: int, key: int, wg: int, n: int, phase: int) -> int:
    """The first access of the triple at ``t[b:b + 3]`` that a new access by ``key`` (of
    workgroup ``wg`` in phase ``phase``) is not ordered with, or -1 (see the module's
    docstring for why L, O and G are enough)."""
    last = t[b]
    if last < 0:
        return -1
    k = last & KEY
    if k != key:
        if k // n != wg or last >> PHASE_SHIFT == phase:
            return last
    else:
        other = t[b + 1]
        if other >= 0 and ((other & KEY) // n != wg or other >> PHASE_SHIFT == phase):
            return other
    far = t[b + 2]  # the last from another workgroup than L's: L is w's here
    if far >= 0 and (far & KEY) // n != wg:
        return far
    return -1


def push(t: list[int], b: int, rec: int, key: int, wg: int, n: int) -> None:
    """Records ``rec`` (by ``key`` of workgroup ``wg``) in the triple at ``t[b:b + 3]``."""
    last = t[b]
    if last >= 0 and last & KEY != key:
        t[b + 1] = last
        if (last & KEY) // n != wg:
            t[b + 2] = last
    t[b] = rec


def switch_line(shadow: _Shadow, slots: list[int], b: int, flat: int, kind: int, site: int,
                phase: int, per_unit: bool) -> None:
    """The fast triple at ``slots[b:b + 3]`` holds another line's accesses than ``site``'s:
    moves it to ``shadow.extra`` (or drops it, for workgroup memory from an earlier phase) and
    brings back ``site``'s triple (or an empty one)."""
    last = slots[b]
    extra = shadow.extra.get(flat)
    if extra is None:
        extra = shadow.extra[flat] = {}
    if not per_unit or last >> PHASE_SHIFT == phase:
        extra[(last & SITE_BITS, kind)] = slots[b:b + 3]
    slots[b:b + 3] = extra.pop((site, kind), None) or (-1, -1, -1)
    if not extra:
        del shadow.extra[flat]


_UNSET: Any = object()  # check(value=...): not given, read it from memory


def as_stored(state: MemoryState, value: Any) -> Any:
    """``value`` as the memory's element type holds it (a Python float stored into f32
    memory is rounded), or None when that is not possible."""
    try:
        return np.array(value, dtype=state.plain.dtype).item()
    except (TypeError, ValueError, OverflowError):
        return None


class MemoryState:
    """What the detector keeps for one memory object: its name, address space, the phase
    counters of that space, and its shadows (one per workgroup for workgroup memory). Memory
    objects hold it as ``_fast`` so that a plain in-bounds element access calls ``check``
    directly (the detector's fast path, see watched.py)."""

    __slots__ = ("allowed", "check", "cols", "fixed", "item", "length", "memory", "name",
                 "per_unit", "phases", "plain", "rows", "shadows", "size", "space")

    def __init__(self, memory: Any, name: str, space: str, allowed: bool, phases: dict,
                 check: Any) -> None:
        self.memory, self.size = memory, memory.size
        # for watched.py's fast path: the length of a 1-D array, the shape of a 2-D one (else 0)
        self.length = memory.size if memory.ndim == 1 else 0
        self.rows, self.cols = memory.shape if memory.ndim == 2 else (0, 0)
        #: the same memory as a plain ndarray: indexing it calls no Python code
        self.plain = memory.view(np.ndarray)
        self.item = self.plain.item  # an element by flat index, whatever the shape
        self.name, self.space, self.allowed = name, space, allowed
        self.per_unit = space == "workgroup"
        self.phases = phases
        self.shadows: dict[int, _Shadow] = {}
        self.check = check
        #: storage memory has one shadow for the whole dispatch, made at its first access
        self.fixed: _Shadow | None = None

    def shadow(self, unit: int) -> _Shadow:
        key = unit if self.per_unit else -1
        shadow = self.shadows.get(key)
        if shadow is None:
            shadow = self.shadows[key] = _Shadow(self.size)
            if not self.per_unit:
                self.fixed = shadow
        return shadow
