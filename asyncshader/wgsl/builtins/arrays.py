"""WGSL ``arrayLength(p)``: the element count of a runtime-sized array in a storage buffer."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..memory import Ptr, WorkgroupVar
from ..readonly import ReadOnlyStorage
from ._intargs import U32, describe

__all__ = ["array_length"]


def array_length(p: Any) -> np.uint32:
    """WGSL ``arrayLength(p: ptr<storage, array<E>, AM>) -> u32``: the number of elements of a
    runtime-sized array, here a storage buffer bound to the dispatch (a numpy array), read_write
    or read-only (``var<storage, read>``).

    Pass the buffer itself, ``array_length(buf)``, or a pointer to it, ``array_length(ptr(buf))``
    (WGSL's ``arrayLength(&buf)``). A 1-D buffer ``array<E>`` has ``len(buf)`` elements; a
    buffer shaped ``(n, m)`` is WGSL's ``array<array<E, m>>`` (``array<vec4<f32>>`` for
    ``(n, 4)``) and its length is ``n``, the outer, runtime-sized dimension. Workgroup arrays
    and uniforms are fixed-size in WGSL, so they are refused, as ``arrayLength`` refuses them.
    A runtime-sized array as the last member of a struct is ``array_length(buf.data)`` or
    ``array_length(ptr(buf.data))`` (WGSL's ``arrayLength(&buf.data)``).
    """
    member = p.memory if isinstance(p, Ptr) and p.index == () else p
    length = getattr(member, "_ash_array_length", None)  # a struct's runtime-sized member
    if length is not None:
        return U32(length())
    memory = p
    if isinstance(p, Ptr):
        if p.index != ():
            raise TypeError(f"array_length(ptr(buf, {p.index!r})): WGSL's arrayLength takes a "
                            "pointer to the whole runtime-sized array: write array_length(buf) "
                            "or array_length(ptr(buf))")
        memory = p.memory
    if isinstance(memory, WorkgroupVar):
        raise TypeError(f"array_length({memory.var_name}): a workgroup array has a fixed size "
                        "(WGSL's arrayLength takes a runtime-sized array in a storage buffer "
                        f"only); its length is {len(memory) if memory.ndim else 'not defined'}, "
                        "known from its declaration")
    if not isinstance(memory, np.ndarray):
        raise TypeError(f"array_length() (WGSL arrayLength) takes a storage buffer (a numpy "
                        f"array bound to the dispatch) or ptr(buffer), not {describe(memory)}")
    if memory.ndim == 0:
        raise TypeError("array_length() (WGSL arrayLength) takes a runtime-sized array, not a "
                        "0-d array (a scalar)")
    if not memory.flags.writeable and not isinstance(memory, ReadOnlyStorage):
        raise TypeError("array_length() (WGSL arrayLength) takes a storage buffer; this array "
                        "is read-only, a uniform binding, and a uniform array has a fixed size "
                        "in WGSL: use len(x)")
    return U32(memory.shape[0])
