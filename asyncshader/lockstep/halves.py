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


def access(mem: str, at: str, ok: str, t: Any, mask: str, value: str | None = None) -> str:
    """Code loading (``value`` None) or storing ``value`` in the lanes of ``mask``: an f16
    scalar or vector ``t`` at half-word address ``at`` of the words ``mem``."""
    n = t.size if isinstance(t, Vector) else 0
    if value is None:
        return f"_l.load({mem}.h, {f'_l.vector_at({at}, {n})' if n else at}, {ok})"
    if n:
        return f"_l.store_vector({mem}.h, {at}, {ok}, {mask}, {value}, {n}, L)"
    return f"_l.store({mem}.h, {at}, {ok}, {mask}, {value}, L)"


def unit(t: Any) -> int:
    """The bytes of one address step in memory of type ``t``."""
    return 2 if halves(t) else 4


__all__ = ["access", "halves", "step", "unit"]
