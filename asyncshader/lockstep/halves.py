"""f16 in memory under Lockstep: an f16 lies on a 2-byte boundary, so memory of an f16-only
type (an f16 scalar or vector, an array or struct of f16 only) is addressed in half-words
(2-byte units, the words' ``h`` view, :class:`.lanes.Words`), every other memory in words.
The address of a reference is in the unit of its type: stepping from word-addressed memory
into an f16-only part doubles the address (:func:`step`)."""

from __future__ import annotations

from typing import Any

from ..ir.types import Array, Scalar, Struct, Vector


def halves(t: Any) -> bool:
    """Whether memory of type ``t`` is addressed in half-words (it holds f16 only)."""
    if isinstance(t, (Scalar, Vector)):
        return (t.scalar if isinstance(t, Vector) else t).name == "f16"
    if isinstance(t, Array):
        return halves(t.element)
    if isinstance(t, Struct):
        return all(halves(m) for _, m in t.fields)
    return False


def step(at: str, outer: Any, inner: Any, offset_bytes: int) -> str:
    """Code for the address of the part of type ``inner`` at ``offset_bytes`` into memory of
    type ``outer`` at address ``at`` (each in its type's unit)."""
    if halves(inner) and not halves(outer):
        return f"({at} * 2 + {offset_bytes // 2})"
    return f"({at} + {offset_bytes // (2 if halves(inner) else 4)})"


def unit(t: Any) -> int:
    """The bytes of one address step in memory of type ``t``."""
    return 2 if halves(t) else 4


__all__ = ["halves", "step", "unit"]
