"""Lost updates: a read-modify-write race, exposed by schedules, recorded, replayed and fixed.

What this example teaches (WGSL concepts):

* A plain ``counter[0] = counter[0] + 1`` on a storage buffer is three steps (load, add, store),
  not one. When several invocations run it at once, two can load the same old value and both
  store old + 1: one increment is lost. WGSL calls this a data race; its result is not defined.
* ``atomicAdd`` (``ash.atomic_add``) is one indivisible read-modify-write: it never loses an
  update, whatever the interleaving.
* Scheduling points: asyncshader interleaves invocations only where a shader awaits. A barrier
  is one; so is every atomic, and the *schedule* decides the order in which concurrent atomics
  land. The racy kernel below takes an atomic "ticket" between its load and its store, which
  gives other invocations a chance to run inside its read-modify-write, as a GPU would.
* Schedules: ``InOrder()`` (the default) runs the lowest invocation until it blocks, so here each
  invocation finishes its whole read-modify-write before the next starts: the answer is right
  by luck, which is how such bugs survive testing. ``Random(seed)`` picks among the runnable
  invocations at every scheduling point and exposes the race; each seed is one reproducible
  interleaving.
* Traces: every run records its scheduling decisions. ``result.trace.save(path)`` writes them
  as JSON and ``schedule=ash.Replay(path)`` reruns exactly that interleaving, so a failure found
  once can be debugged forever.

The walk-through is ``main()``; read it top to bottom along with its output::

    python examples/racy_counter.py [trace.json]

(from the repository root, with asyncshader installed or ``PYTHONPATH=.``). The failing
run's trace goes to ``trace.json``, by default ``racy_counter_trace.json`` in the current
directory.
"""

from __future__ import annotations

import os
import sys

import numpy as np

import asyncshader as ash
from asyncshader import atomic_add, ptr, u32

#: Invocations in the (single) workgroup: each one adds 1 to the counter.
N = 8
SEEDS = (1, 2, 3, 4, 5, 6)


# ---------------------------------------------------------------------------------- the kernels
@ash.compute(workgroup_size=N)
async def racy_increment(counter: ash.Storage[u32], tickets: ash.Storage[u32],
                         seen: ash.Storage[u32], order: ash.Storage[u32], *,
                         local_invocation_index: u32):
    """counter[0] += 1, done wrong: a plain load and a plain store, with a scheduling point
    (an atomic ticket) in between."""
    i = local_invocation_index
    v = counter[0]                                   # 1. load (a plain, non-atomic read)
    ticket = await atomic_add(ptr(tickets, 0), 1)    # 2. scheduling point: others may run now
    counter[0] = v + 1                               # 3. store: v may be stale by now
    # For the explanation only: what this invocation read, and when its store landed. The
    # store runs right after the atomic lands (no scheduling point in between), so the
    # ticket numbers give the order of the stores.
    seen[i] = v
    order[i] = ticket


@ash.compute(workgroup_size=N)
async def atomic_increment(counter: ash.Storage[u32], tickets: ash.Storage[u32],
                           seen: ash.Storage[u32], order: ash.Storage[u32], *,
                           local_invocation_index: u32):
    """The fix: the whole read-modify-write is ONE atomic operation, so it cannot be split."""
    i = local_invocation_index
    ticket = await atomic_add(ptr(tickets, 0), 1)    # the same scheduling point as before
    seen[i] = await atomic_add(ptr(counter, 0), 1)   # atomicAdd returns the value it replaced
    order[i] = ticket


def setup() -> dict:
    """One dispatch's bindings, for both kernels on the command line (``asyncshader
    run|explore|wgsl|crosscheck examples/racy_counter.py::racy_increment``)."""
    return {"counter": np.zeros(1, np.uint32), "tickets": np.zeros(1, np.uint32),
            "seen": np.zeros(N, np.uint32), "order": np.zeros(N, np.uint32)}


def run_counter(kernel, schedule=None) -> dict:
    """Dispatches ``kernel`` once (one workgroup of N) under ``schedule``; returns the final
    counter, the ticket total, what each invocation read, the store order, and the result."""
    buffers = setup()
    # sanitize="report": the race detector's findings land in result.findings (it is on by
    # default too, but then a race also raises a DataRaceWarning; here we read them ourselves)
    result = ash.run(kernel, workgroups=1, schedule=schedule, sanitize="report", **buffers)
    return {"counter": int(buffers["counter"][0]), "tickets": int(buffers["tickets"][0]),
            "seen": buffers["seen"].copy(), "order": buffers["order"].copy(), "result": result}


def explain(run: dict) -> list[str]:
    """The stores in the order they landed: who read what, and whose update survived."""
    lines = []
    for i in np.argsort(run["order"], kind="stable"):
        v = int(run["seen"][i])
        lines.append(f"    invocation {i}: read {v}, stored {v + 1}")
    return lines


# ------------------------------------------------------------------------------ the walk-through
def main(trace_path: str | os.PathLike | None = None) -> dict:
    """Runs the walk-through; returns every number it prints (see the keys of the dict)."""
    if trace_path is None:
        trace_path = "racy_counter_trace.json"  # in the current directory
    print(f"{N} invocations each add 1 to counter[0]; the right answer is {N}.\n")

    # Step 1. The default schedule: nothing goes wrong.
    in_order = run_counter(racy_increment)
    print("Step 1. InOrder(): each invocation runs until it blocks, and an atomic does not")
    print("        block, so every read-modify-write completes before the next one starts.")
    print(f"        counter = {in_order['counter']}  (correct, but only by luck)")
    found = in_order["result"].findings
    print(f"        The race detector is not fooled: {len(found)} finding(s) in this very run,")
    for f in found:
        print(f"          {f.race} on counter[0], lines {f.first.line} and {f.second.line}")
    print("        (it asks whether two accesses are ordered, not which came first)\n")

    # Step 2. Random schedules switch invocations at the atomic: updates get lost.
    print("Step 2. Random(seed): at each scheduling point, any runnable invocation may go next.")
    random_runs = {seed: run_counter(racy_increment, ash.Random(seed)) for seed in SEEDS}
    for seed, r in random_runs.items():
        lost = N - r["counter"]
        print(f"        seed {seed}: counter = {r['counter']}, tickets = {r['tickets']}"
              + (f"   <- {lost} update(s) lost" if lost else ""))
    print(f"        The tickets (atomic) always reach {N}; the plain counter does not.")
    distinct = sorted({r["counter"] for r in random_runs.values()})
    print(f"        Distinct counter values: {distinct}\n")

    # Step 3. Look at one failing run: the stores in the order they landed.
    failing_seed = min(random_runs, key=lambda s: (random_runs[s]["counter"], s))
    failing = random_runs[failing_seed]
    print(f"Step 3. Seed {failing_seed} (counter = {failing['counter']}), stores in order:")
    print("\n".join(explain(failing)))
    last = int(np.argmax(failing["order"]))
    print("        Invocations that read the same value stored the same value, so all but one")
    v_last = int(failing["seen"][last])
    print(f"        of their increments vanished. The last store wins: invocation {last} had "
          f"read {v_last},")
    print(f"        so the counter ends at {v_last + 1}, whatever the others stored before.\n")

    # Step 4. Save that run's trace and replay it: the same interleaving, the same answer.
    failing["result"].trace.save(trace_path)
    replayed = run_counter(racy_increment, ash.Replay(trace_path))
    same_schedule = (replayed["result"].trace.choices() == failing["result"].trace.choices())
    identical = (replayed["counter"] == failing["counter"]
                 and np.array_equal(replayed["seen"], failing["seen"])
                 and np.array_equal(replayed["order"], failing["order"]))
    print(f"Step 4. Saved the trace to {trace_path}")
    print(f"        ({failing['result'].trace.decision_count} scheduling decisions) and replayed "
          "it with ash.Replay(path):")
    print(f"        counter = {replayed['counter']}, same reads and store order: "
          f"{'identical' if identical and same_schedule else 'DIFFERENT'}\n")

    # Step 5. The fix: one atomic read-modify-write. Every schedule gives the right answer.
    fixed = {seed: run_counter(atomic_increment, ash.Random(seed))["counter"]
             for seed in SEEDS}
    fixed_in_order = run_counter(atomic_increment)["counter"]
    print("Step 5. With atomic_add(ptr(counter, 0), 1) for the increment:")
    print(f"        InOrder: {fixed_in_order}; Random seeds {list(SEEDS)}: "
          f"{[fixed[s] for s in SEEDS]}")
    clean = all(not run_counter(atomic_increment, ash.Random(s))["result"].findings
                for s in SEEDS)
    print(f"        Race detector on the fixed kernel: {'no findings' if clean else 'FINDINGS'}")
    return {
        "n": N,
        "in_order": in_order["counter"],
        "in_order_races": sorted((f.race, tuple(sorted({f.first.line, f.second.line})))
                                 for f in found),
        "fixed_race_free": clean,
        "random": {s: r["counter"] for s, r in random_runs.items()},
        "random_tickets": {s: r["tickets"] for s, r in random_runs.items()},
        "random_runs": random_runs,
        "failing_seed": failing_seed,
        "failing": failing["counter"],
        "trace_path": os.fspath(trace_path),
        "replayed": replayed["counter"],
        "replay_identical": identical and same_schedule,
        "fixed": fixed,
        "fixed_in_order": fixed_in_order,
    }


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
