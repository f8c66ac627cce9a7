"""What the micro-benchmarks share: two statements timed in turns, so that a change in the
machine's load hits both sides, and one figure per side in nanoseconds per execution."""

from __future__ import annotations

import timeit
from collections.abc import Callable


def alternating(a: str, b: str, *, number: int, repeat: int, globals_a: dict,
                globals_b: dict | None = None,
                pick: Callable[[list[float]], float] = min) -> tuple[float, float]:
    """``a`` (run in ``globals_a``) and ``b`` (in ``globals_b``, by default the same), each
    timed ``repeat`` times over ``number`` executions, alternating; ``pick`` (min by default,
    or statistics.median) reduces each side's timings. Returns (ns per ``a``, ns per ``b``)."""
    times_a: list[float] = []
    times_b: list[float] = []
    for _ in range(repeat):
        times_a.append(timeit.timeit(a, globals=globals_a, number=number))
        times_b.append(timeit.timeit(b, globals=globals_a if globals_b is None else globals_b,
                                     number=number))
    return pick(times_a) / number * 1e9, pick(times_b) / number * 1e9
