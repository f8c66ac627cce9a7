"""The Python line of each line of emitted WGSL, for Lockstep's race detector: while
:data:`SOURCE_LINES` holds a list, each line a function's translation emits ends with
``// @ash N``, N indexing the list, which holds the (file, line) of the Python statement the
line comes from; a plain load or store of an atomic buffer (``atomicLoad`` /
``atomicStore`` in WGSL, which has no plain access to an atomic) takes its pointer in
parentheses, ``(&place)``, so that the detector reports the plain access the Python kernel
makes; and a conditional expression ``t if c else f`` or a read through a name that holds
one of several buffers in turn (``select(f, t, c)``, which evaluates both sides) has its
condition in three parentheses, ``(((c)))``, so that the detector records
each side's accesses for the invocations that take it, as Python evaluates one side. Without
the list, the WGSL is the ordinary ``to_wgsl`` output."""

from __future__ import annotations

from contextvars import ContextVar

SOURCE_LINES: ContextVar[list | None] = ContextVar("asyncshader_emit_source_lines",
                                                   default=None)


def plain_pointer(place: str) -> str:
    """``&place`` for the atomicLoad or atomicStore a plain access of an atomic buffer
    becomes (``(&place)`` while lines are marked)."""
    return f"(&{place})" if SOURCE_LINES.get() is not None else f"&{place}"


def conditional(false: str, true: str, condition: str) -> str:
    """WGSL for Python's ``true if condition else false`` (marked while lines are)."""
    if SOURCE_LINES.get() is not None:
        condition = f"((({condition})))"
    return f"select({false}, {true}, {condition})"
