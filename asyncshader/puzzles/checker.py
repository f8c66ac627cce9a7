"""The puzzle checker: runs a student's kernel under several schedules with the race detector,
and says what is wrong in a sentence a student understands.

What it looks at, in this order, for each schedule (in order, reverse, random seeds, and PCT at
depths 1 to 4: the orders a GPU could take, including one invocation stalling while the others
run far ahead, which uniform random choice rarely makes; both are fair, so a correct spin lock
passes them): the
run's error (a barrier in a branch, a deadlock, a spin that never ends...), the race detector's
findings (a missing barrier, a lost update, an access past the end of a buffer), then the
outputs against the puzzle's expected values. The first problem found is the verdict; the
sentence names the line of the student's file and what to change. A solution passes only when
every schedule gives the expected outputs with no finding.
"""

from __future__ import annotations

import importlib.util
import itertools
import linecache
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import asyncshader as ash

#: the schedules every puzzle is checked under (a puzzle may add more random seeds): in order,
#: reverse, Random seeds, and PCT at depths 1 to 4, two seeds each
BASE_SCHEDULES: tuple[Callable[[], Any], ...] = (
    ash.InOrder, ash.Reverse, *(lambda s=s: ash.Random(s) for s in range(1, 7)),
    *(lambda s=s, d=d: ash.PCT(s, depth=d) for d in range(1, 5) for s in (1, 2)))


@dataclass(frozen=True)
class Puzzle:
    """One exercise: ``number``, ``title``, the ``kernel`` name the student's file defines, the
    ``statement``, the ``starter`` file's text, ``setup()`` (fresh bindings and ``workgroups=``),
    ``expected(bindings)`` (the right outputs by name, computed with numpy from the inputs),
    optional ``diagnose(name, got, want)`` (a sentence for a typical wrong output), extra random
    seeds, and ``needs`` (a feature the puzzle needs that may be missing, e.g. subgroups)."""

    number: int
    title: str
    kernel: str
    statement: str
    starter: str
    setup: Callable[[], dict[str, Any]]
    expected: Callable[[dict[str, Any]], dict[str, np.ndarray]]
    diagnose: Callable[[str, np.ndarray, np.ndarray], str | None] | None = None
    seeds: tuple[int, ...] = ()
    needs: str | None = None

    def schedules(self) -> list[Any]:
        """The strategies a solution must pass under."""
        return [make() for make in BASE_SCHEDULES] + [ash.Random(s) for s in self.seeds]


@dataclass
class Verdict:
    """What the checker found: ``passed``, the ``message`` for the student, the ``schedule``
    that showed the problem and the ``trace`` that replays it (None when passed)."""

    puzzle: Puzzle
    passed: bool
    message: str
    schedule: str | None = None
    trace: Any = None
    runs: int = 0
    details: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        head = (f"Puzzle {self.puzzle.number} ({self.puzzle.title}): "
                + ("solved" if self.passed else "not yet"))
        return f"{head}\n{self.message}"


class PuzzleFileError(Exception):
    """The student's file cannot be loaded or has no kernel of the expected name."""


def load_kernel(puzzle: Puzzle, source: Any) -> Any:
    """The kernel to check: ``source`` is a file path, a module or a kernel."""
    if getattr(source, "stage", None) is not None:
        return source
    module = _import(source) if isinstance(source, (str, os.PathLike)) else source
    kernel = getattr(module, puzzle.kernel, None)
    if getattr(kernel, "stage", None) == "compute":
        return kernel
    found = [k for k, v in vars(module).items() if getattr(v, "stage", None) == "compute"]
    if len(found) == 1:
        return getattr(module, found[0])
    raise PuzzleFileError(
        f"puzzle {puzzle.number} needs a @ash.compute kernel named {puzzle.kernel!r}; "
        + (f"the file has {', '.join(found)}" if found else "the file has no compute kernel"))


_counter = itertools.count()


def _import(path: str | os.PathLike) -> Any:
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise PuzzleFileError(f"no such file: {path}")
    name = f"{os.path.splitext(os.path.basename(path))[0]}"
    if name in sys.modules:  # (two checks of files of one name must not share a module)
        name = f"{name}_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise PuzzleFileError(f"cannot import {path}: is it a Python file?")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise PuzzleFileError(f"{os.path.basename(path)} does not load: "
                              f"{type(exc).__name__}: {exc}") from exc
    return module


def check(puzzle: Puzzle, source: Any) -> Verdict:
    """Checks a student's kernel (a file path, a module or the kernel) against ``puzzle``."""
    kernel = load_kernel(puzzle, source)
    runs = 0
    right_under: list[str] = []
    for strategy in puzzle.schedules():
        name = repr(strategy)
        bindings = puzzle.setup()
        want = puzzle.expected({k: np.array(v, copy=True) if isinstance(v, np.ndarray) else v
                                for k, v in bindings.items()})
        runs += 1
        try:
            result = ash.run(kernel, schedule=strategy, sanitize="report", watchdog=5.0,
                             max_points_per_invocation=2000, **bindings)
        except Exception as exc:
            return Verdict(puzzle, False, explain_error(exc), name,
                           getattr(exc, "asyncshader_trace", None), runs)
        errors = [f for f in result.findings if f.severity == "error" or _non_uniform(f)]
        if errors:
            return Verdict(puzzle, False, explain_finding(errors[0]), name, result.trace, runs)
        for out, value in want.items():
            got = np.asarray(result[out])
            if got.shape != value.shape or not np.allclose(got, value, rtol=1e-5, atol=1e-6):
                text = _wrong_output(puzzle, out, got, value, name)
                if right_under:
                    text += (f" (It was right under {right_under[0]}: the result depends on "
                             "the order the invocations run in.)")
                return Verdict(puzzle, False, text, name, result.trace, runs)
        right_under.append(name)
    return Verdict(puzzle, True, f"Solved: the right outputs under {runs} schedules "
                   "(in order, reverse, random and PCT), and the race detector found nothing.",
                   runs=runs)


# ------------------------------------------------------------------------------- the sentences
def explain_error(exc: BaseException) -> str:
    """A run's error as a sentence for a student (the line it names, and the fix)."""
    text = str(exc)
    where = _waits_at(text)
    if isinstance(exc, ash.BarrierDivergenceError):
        return (f"A barrier is reached by only some invocations of the workgroup ({where}): "
                "the others went past it or returned. Every invocation must call the same "
                "barrier, so move `await workgroup_barrier()` out of the `if` (do the "
                "conditional work after the barrier).")
    if isinstance(exc, ash.DerivativeUniformityError):
        return (f"A derivative (dpdx, dpdy, fwidth) is called by only some invocations of a "
                f"2x2 quad ({where}): it needs the value of all four neighbours, so all four "
                "must call it. Call it before the `if`, and use its result inside.")
    if isinstance(exc, ash.DeadlockError):
        return ("The invocations wait for each other forever (a deadlock): "
                + text.splitlines()[0])
    if isinstance(exc, ash.StepLimitError):
        return (f"An invocation spins forever ({_line(text)}): it waits on an atomic for "
                "something that never happens, most often a lock nobody releases. Release "
                "the lock after the critical section (`await atomic_store(ptr(lock, 0), 0)`), "
                "and make sure whoever you wait for can finish.")
    if isinstance(exc, ash.ShaderTimeoutError):
        return (f"A loop runs forever without an `await` ({_line(text)}): nothing else can "
                "run meanwhile. Wait with an atomic (`await atomic_load(...)`) inside the loop.")
    if isinstance(exc, ash.DivergenceError):
        return "The invocations did not all reach the same collective: " + text.splitlines()[0]
    first = text.splitlines()[0] if text else type(exc).__name__
    return f"The shader stopped with an error: {first}"


def explain_finding(f: Any) -> str:
    """A race detector finding as a sentence for a student."""
    if isinstance(f, ash.OutOfBounds):
        a = f.access
        return (f"An invocation {_verb(a.kind)} {f.memory}[{f.index}], past the end of "
                f"{f.memory} (length {f.length}), at {_at(a)}. The dispatch has more "
                "invocations than elements: guard the access with `if i < n:`.")
    if _non_uniform(f):
        return (f"{f.op}() is called by only some invocations of the subgroup (line {f.line}: "
                f"`{f.source}`; invocations {f.inactive} of {f.group} did not reach it), so "
                "its answer covers only the ones that did, and differs between GPUs. Call it "
                "where every invocation of the subgroup reaches it (before the `if`).")
    if not isinstance(f, ash.DataRace):
        return f.render().splitlines()[0]
    first, second = f.first, f.second
    cell = f"{f.memory}[{f.index}]"
    if "read-modify-write" in f.hint:
        return (f"Lost update: several invocations update {cell} at the same time ({_at(first)} "
                f"and {_at(second)}): two can read the same old value and one update is lost. "
                "Make the update one atomic operation, e.g. "
                f"`await atomic_add(ptr({f.memory}, {f.index}), 1)`.")
    if f.race == "write-write":
        return (f"Several invocations write {cell} ({_at(first)} and {_at(second)}) with nothing "
                "ordering them, so which value stays depends on the schedule. Let one "
                "invocation write it (e.g. `if i == 0:`), or give each its own element.")
    if f.address_space == "storage":
        return (f"Invocations read and write {cell} ({_at(first)} and {_at(second)}) with "
                "nothing ordering them. A workgroup_barrier() does not order storage memory: "
                "use workgroup memory (or storage_barrier()), or let each invocation use its "
                "own elements.")
    write, read = (first, second) if first.kind == "store" else (second, first)
    # which barrier is missing: the one between the write and a later read (in source order),
    # unless a barrier stands there already, when a loop brings the read round again (and
    # the other way round)
    reads_after = read.line > write.line
    if read.file == write.file and _barrier_between(write.file, write.line, read.line):
        reads_after = not reads_after
    if reads_after:
        return (f"Missing barrier: one invocation writes {cell} ({_at(write)}) and another "
                f"reads it ({_at(read)}) with no barrier in between, so the read may see the "
                "old value. Put `await workgroup_barrier()` after the writes and before the "
                "reads.")
    return (f"Missing barrier: an invocation overwrites {cell} ({_at(write)}) while another may "
            f"still need to read the old value ({_at(read)}). Put `await workgroup_barrier()` "
            "after the reads and before the next writes.")


def _wrong_output(puzzle: Puzzle, out: str, got: np.ndarray, want: np.ndarray,
                  schedule: str) -> str:
    if puzzle.diagnose is not None:
        said = puzzle.diagnose(out, got, want)
        if said:
            return f"Under {schedule}: {said}"
    if got.shape != want.shape:
        return f"Under {schedule}: {out} has shape {got.shape}, expected {want.shape}."
    bad = np.argwhere(~np.isclose(got, want, rtol=1e-5, atol=1e-6))
    k = tuple(int(v) for v in bad[0])
    idx = k[0] if len(k) == 1 else k
    return (f"Under {schedule}: {out}[{idx}] is {got[k].item()!r} but should be "
            f"{want[k].item()!r} ({len(bad)} of {want.size} elements are wrong).")


def _non_uniform(finding: Any) -> bool:
    """A subgroup operation in non-uniform control flow (a note of the race detector; for a
    puzzle, the mistake to explain)."""
    return type(finding).__name__ == "NonUniformCollective"


def _barrier_between(file: str, a: int, b: int) -> bool:
    """Whether a barrier call stands on a line strictly between lines ``a`` and ``b``."""
    lo, hi = min(a, b), max(a, b)
    return any("barrier(" in linecache.getline(file, n).split("#")[0]
               for n in range(lo + 1, hi))


def _verb(kind: str) -> str:
    return {"load": "reads", "store": "writes"}.get(kind, f"runs {kind} on")


def _at(access: Any) -> str:
    return f"line {access.line}: `{access.source}`"


def _waits_at(text: str) -> str:
    m = re.search(r"waits at ([^:\n]+):(\d+) in \w+\(\): (.*)", text)
    return f"line {m.group(2)}: `{m.group(3).strip()}`" if m else "see the error"


def _line(text: str) -> str:
    m = re.search(r"([\w.]+\.py):(\d+)", text)
    return f"line {m.group(2)}" if m else "see the error"
