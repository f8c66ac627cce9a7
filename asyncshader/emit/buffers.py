"""A storage buffer's bytes as WGSL lays them out, from and to the numpy array asyncshader binds.

asyncshader keeps a buffer of ``vec3`` values as an (n, 3) array and one of ``matCxR``
matrices as an (n, C, R) array, without padding; WGSL's ``array<vec3f>`` has a 16-byte stride
and each column of a 3-row matrix takes 4 components, so those are padded on the way to the
GPU and unpadded on the way back. A struct buffer's numpy dtype already has WGSL's byte layout
(:mod:`asyncshader.wgsl.layout`), so it copies as bytes; so does every other element type."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..wgsl.struct_buffers import write_value
from ..wgsl.structs import is_struct
from .wtypes import Array, Matrix, Vector

__all__ = ["from_gpu", "struct_bytes", "to_gpu"]


def _three(t: Any) -> int:
    """How many 3-component groups pad to 4 in one element of ``t`` (0: none)."""
    if isinstance(t, Array):
        t = t.element
    if isinstance(t, Vector) and t.size == 3:
        return 1
    if isinstance(t, Matrix) and t.rows == 3:
        return t.cols
    return 0


def to_gpu(arr: Any, t: Any) -> np.ndarray:
    """The contiguous array whose bytes are the buffer ``arr`` of type ``t`` in WGSL's layout."""
    a = np.ascontiguousarray(arr)
    groups = _three(t)
    if not groups or a.dtype.names is not None or a.size % 3:
        return a
    flat = a.reshape(-1, 3)
    out = np.zeros((flat.shape[0], 4), a.dtype)
    out[:, :3] = flat
    return out


def from_gpu(data: bytes, t: Any, like: np.ndarray) -> np.ndarray:
    """The buffer read back from the GPU (its bytes) as an array shaped like ``like``."""
    values = np.frombuffer(data, like.dtype)
    if _three(t) and like.dtype.names is None and like.size % 3 == 0:
        values = values[:like.size // 3 * 4].reshape(-1, 4)[:, :3]
    return np.ascontiguousarray(values.reshape(-1)[:like.size]).reshape(like.shape)


def struct_bytes(value: Any) -> bytes | None:
    """A struct value (an ``@ash.struct`` instance, or one struct of a struct array) as its
    bytes in WGSL's layout, padded to a multiple of 16 (a uniform buffer's); None for anything
    else."""
    if isinstance(value, np.ndarray) and value.dtype.names is not None:
        data = value.tobytes()
    elif is_struct(type(value)):
        a = type(value).zeros()
        write_value(a, value)
        data = a.tobytes()
    else:
        return None
    return data + bytes(-len(data) % 16)
