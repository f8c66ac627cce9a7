"""A lost update that needs two preemptions in the right places.

Each invocation adds 1 to ``total[0]``. The update is guarded by a lock, but the lock is taken
with two atomics, a load to test it and a store to set it, instead of one atomic exchange. Two
invocations can both see the lock free, and if both then read ``total[0]`` before either writes
it back, one update is lost. That takes two preemptions at exactly the right steps:

1. invocation A is preempted between testing the lock and setting it;
2. invocation B tests (free), sets, reads ``total[0]`` and is preempted before writing it;
3. A sets the lock, reads the same value, writes it + 1, releases; B writes the same value.

With one preemption the second invocation runs to the end before the first reads, so nothing is
lost. Invocations that find the lock taken add their 1 to ``total[1]`` with an atomic instead;
the invariant is ``total[0] + total[1] == N``. Invocation ``i`` does ``i * WORK`` atomic steps of
unrelated work first, so invocations reach the lock far apart: uniform random scheduling rarely
lines them up, PCT (which lets one invocation run far ahead of another) often does, and the
in-order schedule never does.

    asyncshader explore examples/lost_update.py::lost_update --strategy pct --runs 2000
    asyncshader explore examples/lost_update.py::lost_update --strategy exhaustive
"""

import numpy as np

import asyncshader as ash
from asyncshader import atomic_add, atomic_load, atomic_store, ptr, u32

N = 2  #: invocations (one workgroup)
WORK = 16  #: atomic steps of unrelated work per invocation index before the update


@ash.compute(workgroup_size=N)
async def lost_update(total: ash.Storage, lock: ash.Storage, work: ash.Storage, *,
                      local_invocation_index: u32):
    i = local_invocation_index
    for _ in range(i * WORK):  # unrelated work: invocation i reaches the lock later
        await atomic_add(ptr(work, i), 1)
    if await atomic_load(ptr(lock, 0)) == 0:  # BUG: test, then set: two atomics, not one
        await atomic_store(ptr(lock, 0), 1)
        old = total[0]
        await atomic_add(ptr(work, i), 1)  # more work inside the critical section
        total[0] = old + 1
        await atomic_store(ptr(lock, 0), 0)
    else:  # the lock is busy: count this invocation's 1 with an atomic instead
        await atomic_add(ptr(total, 1), 1)


def setup():
    """Fresh bindings for one run."""
    return {"total": np.zeros(2, np.uint32), "lock": np.zeros(1, np.uint32),
            "work": np.zeros(N, np.uint32)}


def check(result):
    """Every invocation's 1 is counted exactly once."""
    total = result["total"]
    assert int(total[0]) + int(total[1]) == N, (
        f"lost update: total[0] + total[1] = {int(total[0])} + {int(total[1])}, expected {N}")


def main(out=print):
    """Explores the kernel with each strategy; shrinks and replays the first failure."""
    found = {}
    # Random(13000000) is one of the luckier seeds (233 runs; the median seed needs thousands,
    # see docs/performance.md): a short demonstration
    for strategy in (ash.InOrder(), ash.Random(13000000), ash.PCT(0, depth=3),
                     ash.Exhaustive(max_preemptions=2)):
        report = ash.explore(lost_update, setup, check, strategy, runs=20_000)
        out(report.summary().splitlines()[0])
        found[report.strategy["name"]] = report
    failing = found["exhaustive"].failures[0].trace
    shrunk = ash.shrink(lost_update, setup, found["random"].failures[0].trace, check)
    out(f"shrunk the Random failure: {shrunk.before} -> {shrunk.after}")
    out(f"replay: {shrunk.trace.to_string()}")
    # explore() runs with the race detector off (its verdict does not depend on the schedule);
    # one dispatch with it on names the racy lines whatever the interleaving
    replayed = ash.run(lost_update, **setup(), schedule=failing, sanitize="report")
    total = replayed["total"]
    out(f"replaying the Exhaustive failure: total = {total.tolist()} (lost update: "
        f"{'yes' if int(total[0]) + int(total[1]) != N else 'NO - DIFFERENT'})")
    for f in replayed.findings:
        out(f"race detector: {f.race} on {f.memory}[{f.index}], lines "
            f"{sorted({f.first.line, f.second.line})}")
    return found


if __name__ == "__main__":
    main()
