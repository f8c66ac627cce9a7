"""WGSL's shader-creation rules that both the decorators (:mod:`.creation_checks`, from the
source) and ``to_wgsl`` (:mod:`asyncshader.emit.creation`, from inferred types) enforce: each
rule is a predicate with its one message, ``(what, fix)``, so that the CPU and the emitter
refuse the same shaders in the same words."""

from __future__ import annotations

from typing import Any

import numpy as np

Message = tuple[str, str]


def shift_count(sym: str, written: str, count: Any) -> Message | None:
    """A shift (``sym``: ``<<`` or ``>>``) by the constant ``count`` outside [0, 32)."""
    if not isinstance(count, (int, np.integer)) or isinstance(count, bool) or 0 <= count < 32:
        return None
    return (f"the shift `{sym} {written}` by the constant {int(count)}: WGSL's integers have 32 "
            "bits, and a constant shift count must be in [0, 32) (a shader-creation error)",
            "shift by 0 to 31; a shift by 32 or more of a 32-bit value is not defined, write "
            "the result you mean (0, or -1 for a negative i32 shifted right)")


def division_by_zero(sym: str, written: str, divisor: Any) -> Message | None:
    """An integer division or remainder (``sym``: ``/``, ``//`` or ``%``) by a constant zero
    (the caller knows the operation is on integers)."""
    if not isinstance(divisor, (int, np.integer)) or isinstance(divisor, bool) or divisor != 0:
        return None
    return (f"`{sym} {written}`: an integer division or remainder by a constant zero (a "
            "shader-creation error in WGSL)",
            "divide by a value that is not zero; for a float division write the divisor as a "
            "float (0.0)")


def derivative_of_integer(name: str, what: str) -> Message:
    """``name()`` (a derivative) of an integer operand, ``what`` naming it."""
    return (f"{name}() of {what} (WGSL's derivatives take f32 or vecN<f32>)",
            f"convert it: {name}(f32(...)) or {name}(vec2f(...))")


def quads_not_whole(name: str, invocations: int) -> Message | None:
    """A quad operation in a compute workgroup of ``invocations`` without a derivative layout:
    its quads are four consecutive local indices, so the count must be a multiple of 4."""
    if invocations % 4 == 0:
        return None
    return (f"{name}() in a compute kernel of {invocations} invocations: without a derivative "
            "layout a quad is 4 consecutive local invocation indices, so the workgroup must "
            "hold a multiple of 4",
            "make the workgroup size a multiple of 4 invocations, or declare "
            "derivatives=\"quads\" | \"linear\"")
