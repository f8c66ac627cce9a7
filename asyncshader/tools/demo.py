"""The bundled demo: a racy counter whose result depends on the schedule, found, saved, replayed.

``asyncshader demo`` (or ``python -m asyncshader demo``) runs it.
"""

from __future__ import annotations

import os
import tempfile
import textwrap

import numpy as np

from .. import Random, Replay, Storage, atomic_add, compute, ptr, run

INVOCATIONS = 8


@compute(workgroup_size=INVOCATIONS)
async def racy_count(counter: Storage, tickets: Storage):
    """Each invocation adds 1 to counter[0] with a plain read and a plain write, split by an
    atomic (a scheduling point): another invocation may run in between, and updates get lost."""
    seen = counter[0]
    await atomic_add(ptr(tickets, 0), 1)
    counter[0] = seen + 1


@compute(workgroup_size=INVOCATIONS)
async def atomic_count(counter: Storage, tickets: Storage):
    """The fix: the read-modify-write is one atomic."""
    await atomic_add(ptr(tickets, 0), 1)
    await atomic_add(ptr(counter, 0), 1)


def count(kernel, schedule):
    """Runs ``kernel`` once under ``schedule``; returns (final counter, result). The race
    detector runs (``sanitize="report"``, chosen explicitly: main() prints its findings)."""
    counter = np.zeros(1, np.uint32)
    result = run(kernel, counter=counter, tickets=np.zeros(1, np.uint32), schedule=schedule,
                 sanitize="report")
    return int(counter[0]), result


def main(out=print, trace_path: str | os.PathLike | None = None) -> int:
    """Runs the demo, printing through ``out``; saves the failing run's trace to ``trace_path``
    (by default ``asyncshader-demo-trace.json`` in the system's temporary folder: a file, never
    a folder that an ``import asyncshader`` started there could mistake for the package)."""
    out(f"{INVOCATIONS} invocations each add 1 to a counter: read, atomic ticket, write.")
    out("Random schedules, one per seed:")
    results = {}
    for seed in range(8):
        value, result = count(racy_count, Random(seed))
        results[seed] = (value, result)
        lost = INVOCATIONS - value
        out(f"  seed {seed}: counter = {value}" + (f"   ({lost} updates lost)" if lost else ""))
    values = sorted({v for v, _ in results.values()})
    out(f"Distinct results: {values} -- the outcome depends on the schedule.")
    verdicts = {tuple((f.race, f.memory, f.index, tuple(sorted({f.first.line, f.second.line})))
                      for f in r.findings) for _, r in results.values()}
    first = results[0][1].findings[0]
    same = "the same" if len(verdicts) == 1 else "DIFFERENT"
    out(f"The race detector (on by default) reports {same} {len(results[0][1].findings)} "
        "race(s) under every seed, whichever order the run happened to take; the first:")
    out(textwrap.indent(first.render(), "  "))
    seed = min(results, key=lambda s: results[s][0])
    value, result = results[seed]
    path = os.fspath(trace_path if trace_path is not None
                     else os.path.join(tempfile.gettempdir(), "asyncshader-demo-trace.json"))
    result.trace.save(path)
    out(f"Saved the trace of seed {seed} (counter = {value}) to {path}")
    replayed, _ = count(racy_count, Replay(path))
    out(f"Replayed it: counter = {replayed} " + ("(identical)" if replayed == value else
                                                 "(DIFFERENT: determinism broken)"))
    fixed = sorted({count(atomic_count, Random(s))[0] for s in range(8)})
    clean = all(not count(atomic_count, Random(s))[1].findings for s in range(8))
    out(f"With atomic_add for the update, every seed gives {fixed}"
        + (", and the race detector finds nothing." if clean else ", but the race detector "
           "still reports something (a bug)."))
    return 0 if replayed == value and fixed == [INVOCATIONS] and clean and len(verdicts) == 1 \
        else 1
