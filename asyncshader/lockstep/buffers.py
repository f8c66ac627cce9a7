"""A storage buffer whose bytes already are WGSL's layout of its type, seen as Lockstep's
words without a copy: a contiguous array of ``f32``, ``i32`` or ``u32`` bound to such a
scalar, an array of them (atomics included), or an array of ``vec2`` or ``vec4`` of them (no
padding in either). The kernel's stores then land in the caller's array as they happen, as
under the coroutine schedules (which view buffers too); any other buffer is copied into
WGSL's layout and back (:mod:`asyncshader.emit.buffers`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..ir.types import Array, Atomic, Scalar, Vector

_DTYPES = {"f32": np.dtype(np.float32), "i32": np.dtype(np.int32), "u32": np.dtype(np.uint32)}


def word_view(value: Any, t: Any, access: str) -> np.ndarray | None:
    """``value``'s memory as 32-bit words when its bytes are WGSL's layout of ``t`` as they
    are (and it is writable, unless ``access`` is ``"read"``); None when it must be copied."""
    if not isinstance(value, np.ndarray) or not value.flags.c_contiguous or not value.size:
        return None
    if not (value.flags.writeable or access == "read"):
        return None
    element, count = (t.element, t.length) if isinstance(t, Array) else (t, 1)
    width = 1
    if isinstance(element, Vector):
        if element.size not in (2, 4) or value.ndim < 2 or value.shape[-1] != element.size:
            return None  # (a vec3's stride is 16 bytes: padded)
        width, element = element.size, element.scalar
    if isinstance(element, Atomic):
        element = element.scalar
    if not isinstance(element, Scalar) or _DTYPES.get(element.name) != value.dtype:
        return None
    if count is not None and (not isinstance(count, int) or value.size != count * width):
        return None  # (a fixed-size array given another length: padded or cut by the copy)
    return value.reshape(-1).view(np.uint32)
