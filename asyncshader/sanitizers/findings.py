"""Findings: what the sanitizers report, as data (``DataRace``, ``OutOfBounds``,
``HelperSideEffect``), as text written for the reader, and as JSON; the hints that say what
orders a racy pair; and the pytest helper :func:`assert_race_free`. The detector that makes them
is in :mod:`asyncshader.races`.
"""

from __future__ import annotations

import json
import linecache
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .._core.diagnostics import _short
from ..errors import AsyncShaderError


class DataRaceError(AsyncShaderError):
    """``sanitize="error"``: the dispatch had data races (or other findings); the message is the
    rendered findings, and :attr:`findings` holds them."""

    def __init__(self, message: str, findings: list) -> None:
        super().__init__(message)
        self.findings = findings


class DataRaceWarning(UserWarning):
    """A dispatch that did not choose ``sanitize=`` (so ran with the default, ``"report"``)
    found data races or out-of-bounds accesses. The message is the rendered findings; they are
    also in ``result.findings``. Passing ``sanitize=`` explicitly (``"report"`` to read the
    findings yourself, ``"error"`` to raise, ``"off"``) makes the dispatch quiet."""


@dataclass
class Access:
    """One side of a finding: who accessed, how, and where in the source."""

    invocation: str
    kind: str  # "load", "store", or an atomic operation's name
    file: str
    line: int
    source: str

    @property
    def where(self) -> str:
        return f"{_short(self.file)}:{self.line}"


@dataclass
class Finding:
    """Base of the findings; ``count`` is how many times the same finding occurred. ``severity``
    is ``"error"`` (a bug: data races, out-of-bounds accesses) or ``"note"`` (worth knowing,
    not wrong: a helper's dropped write); only errors fail ``sanitize="error"``, the pytest
    marker and :func:`assert_race_free`."""

    count: int = field(default=1, init=False)
    elements: list = field(default_factory=list, init=False)  # distinct indices, up to 8
    severity = "error"

    def note(self, element: Any) -> None:
        """One more occurrence, at ``element``."""
        self.count += 1
        if element not in self.elements and len(self.elements) < 8:
            self.elements.append(element)

    def times(self) -> str:
        """`` (5 times, at [1], [2], [3])`` for a folded finding; empty for a single one."""
        if self.count == 1:
            return ""
        at = "" if len(self.elements) < 2 else ", at " + ", ".join(
            _at("", e) for e in self.elements) + (", ..." if len(self.elements) == 8 else "")
        return f" ({self.count} times{at})"

    def render(self) -> str:  # pragma: no cover - every subclass renders
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        return {"type": type(self).__name__, **asdict(self)}


@dataclass
class DataRace(Finding):
    """Two unordered accesses to one location, at least one a write, not both atomic."""

    race: str  # "write-write" or "read-write"
    memory: str  # binding or workgroup variable name
    address_space: str  # "workgroup" or "storage"
    index: Any
    first: Access
    second: Access
    same_workgroup: bool  # every occurrence was within one workgroup
    hint: str
    same_value: bool = False

    def render(self) -> str:
        title = (f"{self.race.capitalize()} data race on {self.address_space} memory "
                 + _at(self.memory, self.index))
        if self.same_value:
            title += " (both wrote the same value)"
        lines = [title + self.times() + ":"]
        for label, a in (("First", self.first), ("Second", self.second)):
            lines.append(f"  {label} access: {a.kind} by {a.invocation}")
            lines.append(f"    at {a.where}: {a.source}")
        lines.append(f"  Hint: {self.hint}")
        return "\n".join(lines)


@dataclass
class OutOfBounds(Finding):
    """An access past the end of a buffer or workgroup array. The access then follows WGSL's
    robust-access behaviour as asyncshader implements it: a load returns zero, a store is
    dropped (WGSL allows either these or an in-bounds access)."""

    memory: str
    index: Any
    length: int
    access: Access

    def render(self) -> str:
        return (f"Out-of-bounds {self.access.kind} of {_at(self.memory, self.index)} (length "
                f"{self.length}){self.times()}:\n"
                f"  by {self.access.invocation}\n  at {self.access.where}: "
                f"{self.access.source}\n  The {self.access.kind} was "
                f"{'dropped' if self.access.kind == 'store' else 'given zero'} (WGSL robust "
                "access). " + ("A helper invocation made it (fragment padding or a discarded "
                "fragment: it runs for its neighbours' derivatives only), so this is a note."
                if self.severity == "note" else "Check the index arithmetic (u32 wrap-around: "
                "0 - 1 is 4294967295)."))


@dataclass
class HelperSideEffect(Finding):
    """A helper invocation (fragment padding, or after ``discard()``) tried to write storage or
    run an atomic; WGSL makes that a no-op (a note: correct shaders do this at odd edges)."""

    severity = "note"

    memory: str
    access: Access

    def render(self) -> str:
        return (f"Helper invocation side effect dropped: {self.access.kind} to {self.memory}"
                f"{self.times()}\n  by "
                f"{self.access.invocation}\n  at {self.access.where}: {self.access.source}\n"
                "  Helper invocations (and discarded fragments) run for their neighbours' "
                "derivatives only: their writes and atomics have no effect.")


@dataclass
class ImplicitConversion(Finding):
    """A float value stored into integer memory (``out[i] = lid * 0.5`` into an ``i32``
    buffer): WGSL converts nothing implicitly, so the shader would not compile; numpy truncated
    the value toward zero (:mod:`asyncshader.sanitizers.conversions`)."""

    memory: str
    address_space: str  # "workgroup" or "storage"
    index: Any
    value_type: str  # "f32", "vec3f", ...
    memory_type: str  # "i32", "u32", "vec3i", ...
    conversion: str  # what to write: "i32(...)"
    access: Access

    def render(self) -> str:
        return (f"Implicit conversion on store to {self.address_space} memory "
                f"{_at(self.memory, self.index)}{self.times()}:\n"
                f"  by {self.access.invocation}\n  at {self.access.where}: {self.access.source}\n"
                "  " + self.explain(self.value_type, self.address_space, self.memory,
                                    self.memory_type))

    @staticmethod
    def explain(value_type: str, space: str, memory: str, memory_type: str,
                stored: bool = True) -> str:
        """What happened and the fix (also the message of a strict kernel's TypeError)."""
        widened = "numpy widened" in value_type
        to_f16 = memory_type == "f16" or memory_type.endswith("h>") or (
            memory_type.startswith("vec") and memory_type.endswith("h"))
        if to_f16:
            return (f"The value is {value_type}, and {space} memory {memory} holds {memory_type}: "
                    f"WGSL converts nothing implicitly (this store would not compile)"
                    + (", and the run rounded the value to f16" if stored else "")
                    + f". Fix: convert explicitly, {memory_type}(...).")
        done = "" if not stored else (", and the run wrapped it to 32 bits" if widened else
                                      ", and the run truncated the value toward zero")
        return (f"The value is {value_type}, and {space} memory {memory} holds {memory_type}: "
                f"WGSL converts nothing implicitly (this store would not compile){done}. Fix: "
                + ("give both operands one type, e.g. u32(x) + y or x + i32(y)." if widened else
                   f"convert explicitly, {memory_type}(...) (round first if you mean to round: "
                   f"{memory_type}(round(...)))."))


@dataclass
class NonUniformCollective(Finding):
    """A subgroup operation ran in non-uniform control flow: some invocations of the subgroup
    were inactive (returned, or stood at another call site). WGSL leaves this to the
    implementation (``subgroup_uniformity``); asyncshader's convergence model gives the result
    over the active invocations (docs/concepts.md). A note; ``strict=True`` raises instead."""

    severity = "note"

    op: str
    file: str
    line: int
    source: str
    group: str
    active: list
    inactive: list

    def render(self) -> str:
        return (f"{self.op}() in non-uniform control flow{self.times()}\n"
                f"  at {_short(self.file)}:{self.line}: {self.source}\n"
                f"  in {self.group}: inactive subgroup invocations {self.inactive}, active "
                f"{self.active}\n  WGSL requires subgroup operations in subgroup-uniform "
                "control flow; the result here is over the active invocations only (other "
                "GPUs may group them differently). Fix: call it where every invocation of the "
                "subgroup reaches it.")


@dataclass
class IndeterminateValue(Finding):
    """A subgroup shuffle or broadcast read an invocation that is inactive or outside the
    subgroup: WGSL makes the value indeterminate. asyncshader returns zero; an error finding
    (code that depends on it is wrong on some GPU)."""

    op: str
    file: str
    line: int
    source: str
    group: str
    reader: int
    read: int
    why: str

    def render(self) -> str:
        return (f"{self.op}() read an indeterminate value{self.times()}\n"
                f"  at {_short(self.file)}:{self.line}: {self.source}\n"
                f"  in {self.group}: subgroup invocation {self.reader} read invocation "
                f"{self.read}, which {self.why}. WGSL makes that value indeterminate "
                "(asyncshader gives zero). Fix: read only active invocations inside the "
                "subgroup (check the id against subgroup_size and the branch you are in).")


def render_findings(findings: list[Finding]) -> str:
    """The findings as text, one block each."""
    if not findings:
        return "No findings."
    return "\n\n".join(f.render() for f in findings)


def findings_json(findings: list[Finding]) -> str:
    """The findings as a JSON array."""
    return json.dumps([f.to_dict() for f in findings], indent=1, default=str)


def errors_of(findings: list[Finding]) -> list[Finding]:
    """The findings that are bugs (severity "error"), not notes."""
    return [f for f in findings if f.severity == "error"]


def assert_race_free(result: Any) -> None:
    """Fails (AssertionError) with the rendered findings if ``result`` (or a list of findings)
    has any error-level finding (data races, out-of-bounds accesses); for pytest."""
    findings = getattr(result, "findings", result)
    if errors_of(findings):
        raise AssertionError(render_findings(findings))


def _overflowed_length(memory: Any, index: Any) -> int:
    """The length of the axis an out-of-bounds ``index`` overflowed (the first such axis)."""
    length = getattr(index, "length", None)  # a struct buffer's array member (structs.py)
    if length is not None:
        return int(length)
    shape = np.shape(memory)
    if isinstance(index, tuple):
        for i, n in zip(index, shape):
            if isinstance(i, (int, np.integer)) and not 0 <= i < n:
                return int(n)
    return int(shape[0]) if shape else 0


def _access_at(inv: str, kind: str, site: tuple[str, int]) -> Access:
    return Access(invocation=inv, kind=kind, file=site[0], line=site[1],
                  source=linecache.getline(site[0], site[1]).strip())


def _plain(index: Any) -> Any:
    if hasattr(index, "suffix"):  # a struct member's place (structs.MemberIndex)
        return index
    if isinstance(index, tuple):
        return tuple(_plain(i) for i in index)
    return int(index) if isinstance(index, (int, np.integer)) else repr(index)


_ATOMICS = ("make the update one atomic (atomic_add(ptr(buf, i), v), atomic_store, ...), or "
            "give each invocation its own location")


def _hint(space: str, same_unit: bool, a: tuple, b: tuple, atomic: bool,
          fragment: bool = False, race: str = "read-write", update: bool = False) -> str:
    """What orders a racy pair of lines ``a`` and ``b`` ((file, line) each), or what replaces
    the pattern when nothing can order it. ``update``: the element is updated by several
    invocations at once (a write line of the pair races write-write with itself), a lost
    update, which a barrier would only make deterministically wrong."""
    if fragment:
        return ("fragments are never ordered with each other (the fragment stage has no "
                f"barriers): {_ATOMICS}")
    if update:
        writes = sorted({a[1], b[1]})
        at = " and ".join(f"line {x}" for x in writes)
        return (f"several invocations read and write this element at {at} at once (a "
                "read-modify-write, so updates are lost); a barrier would not fix it, it "
                "would make every run lose the same updates: make the update one atomic "
                "(atomic_add(ptr(buf, i), v), atomic_max, a compare-exchange loop, ...), or "
                "make it a reduction " + (
                    "(each invocation writes its own slot, and after a barrier one invocation "
                    "combines them)" if same_unit else "(each workgroup writes its own slot, "
                    "and a second dispatch combines them: nothing orders workgroups within "
                    "one)"))
    if not same_unit:
        return ("the accesses come from different workgroups, which nothing orders within a "
                f"dispatch: {_ATOMICS}, or split the work into two dispatches")
    if a == b and race == "write-write":
        return (f"several invocations write this element at {_short(a[0])}:{a[1]}; no barrier "
                f"can order that: {_ATOMICS}")
    barrier = {"workgroup": "workgroup_barrier()", "handle": "texture_barrier()"}.get(
        space, "storage_barrier()")
    lines = sorted({a[1], b[1]})
    where = (f"between line {lines[0]} and line {lines[1]}" if len(lines) == 2 else
             f"between two executions of line {lines[0]} (in the loop around it)")
    fix = (f"a {barrier} {where} orders these (reached by every invocation of the workgroup: "
           "not inside a branch some skip)")
    if space == "storage":
        fix += "; a workgroup_barrier() does not order storage memory in WGSL"
    return fix + (", or make the plain access atomic too" if atomic else f"; or {_ATOMICS}")


#: the Python spellings in the hints and their WGSL ones
_WGSL_SPELLINGS = {"atomic_add(ptr(buf, i), v)": "atomicAdd(&buf[i], v)",
                   "atomic_store": "atomicStore", "atomic_max": "atomicMax",
                   "workgroup_barrier()": "workgroupBarrier()",
                   "storage_barrier()": "storageBarrier()"}


def in_wgsl(hint: str) -> str:
    """``hint`` with the operations it names spelled as WGSL writes them (``atomicAdd(&buf[i],
    v)``, ``workgroupBarrier()``): the hint of a race in a kernel loaded from WGSL."""
    for python, wgsl in _WGSL_SPELLINGS.items():
        hint = hint.replace(python, wgsl)
    return hint


def settle_hints(races: list[tuple[DataRace, bool]], fragment: bool) -> None:
    """Gives each race its hint, from all the races of the run. A write line that races
    write-write with itself and is a line of a read-write pair on the same memory (on either
    side: which access of the pair a finding names as the store follows the order when both
    lines store, and the hint must not) is an *update* by several invocations at once
    (``c[0] = c[0] + 1``): its races get the hint of atomics or a reduction, never a barrier
    (which would make every run lose the same updates). The other pairs are hand-offs, which
    a barrier orders. ``races``: (race, whether an access of it is
    atomic)."""
    def site(a: Access) -> tuple:
        return a.file, a.line

    self_writes = {(r.memory, site(r.first)) for r, _ in races
                   if r.race == "write-write" and site(r.first) == site(r.second)}
    # a read-write pair of lines is one finding whichever access came first, and which of the
    # two it names as the store follows the order when both lines store: so every line of a
    # read-write pair counts (a line of self_writes stores), whichever side the finding names
    read_write = {(r.memory, site(a)) for r, _ in races if r.race == "read-write"
                  for a in (r.first, r.second)}
    updated = self_writes & read_write
    for r, atomic in races:
        update = any((r.memory, site(a)) in updated for a in (r.first, r.second))
        r.hint = _hint(r.address_space, r.same_workgroup, site(r.first), site(r.second),
                       atomic, fragment, r.race, update)
        if r.first.file.endswith(".wgsl"):  # (a kernel loaded from WGSL: its fix in WGSL)
            r.hint = in_wgsl(r.hint)


def _at(memory: str, index: Any) -> str:
    """``p[3]``, or for a struct buffer's member ``p[3].velocity.y``."""
    suffix = getattr(index, "suffix", None)
    return memory + suffix if suffix is not None else f"{memory}[{index}]"


def _unflatten(memory: Any, flat: int) -> Any:
    describe = getattr(memory, "_ash_describe", None)  # a struct buffer: the member's place
    if describe is not None:
        return describe(flat)
    shape = np.shape(memory)
    if len(shape) <= 1:
        return flat
    return tuple(int(i) for i in np.unravel_index(flat, shape))
