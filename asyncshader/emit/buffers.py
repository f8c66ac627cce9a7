"""A storage buffer's bytes as WGSL lays them out, from and to the numpy array asyncshader binds.

asyncshader keeps a buffer of ``vec3`` values as an (n, 3) array and one of ``matCxR``
matrices as an (n, C, R) array, without padding; WGSL's ``array<vec3f>`` has a 16-byte stride
and each column of a 3-row matrix takes 4 components, so those are padded on the way to the
GPU and unpadded on the way back. A struct buffer's numpy dtype already has WGSL's byte layout
(:mod:`asyncshader.wgsl.layout`), so it copies as bytes; so does every other element type."""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from ..wgsl.struct_buffers import write_value
from ..wgsl.structs import is_struct
from .wtypes import Array, Matrix, Vector, from_dtype

__all__ = ["element_of", "flattened", "from_gpu", "struct_bytes", "to_gpu"]


def element_of(array: np.ndarray) -> Any:
    """The WGSL element type of a numpy array bound as a buffer."""
    return from_dtype(array.dtype)


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


def flattened(fx: Any, node: ast.Subscript) -> ast.expr | None:
    """``buf[y, x]`` on a buffer bound as a multi-dimensional array (asyncshader indexes it so;
    WGSL's arrays have one dimension) as ``buf[y * W + x]``, from the bound array's shape; a
    last index into a vector element (an (n, 3) array of ``array<vec3f>``) stays an index
    into the vector, ``buf[i][c]``. None where there is no bound array to take the shape
    from (or a slice)."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else None
    if not parts or any(isinstance(p, (ast.Slice, ast.Starred)) for p in parts):
        return None
    mem = fx.expr(node.value).memory
    shape = fx.module.bound_shape(mem.name) if mem is not None else None
    if shape is None or len(parts) > len(shape):
        return None
    element = fx.module.resolved(mem.element(fx.module))
    inner = 1 if isinstance(element, Vector) and len(parts) == len(shape) else 0
    outer, rest = parts[:len(parts) - inner], parts[len(parts) - inner:]
    dims = shape[1:len(outer)]
    index: ast.expr = outer[0]
    for size, p in zip(dims, outer[1:]):  # ((i * d1) + j) * d2 + k ...
        index = ast.BinOp(ast.BinOp(index, ast.Mult(), ast.Constant(int(size))), ast.Add(), p)
    if len(shape) > len(outer) + inner:  # (trailing dims of scalars: their row's first)
        index = ast.BinOp(index, ast.Mult(), ast.Constant(int(np.prod(
            shape[len(outer):len(shape) - inner]))))
    out: ast.expr = ast.Subscript(node.value, index, ast.Load())
    for p in rest:
        out = ast.Subscript(out, p, ast.Load())
    return ast.fix_missing_locations(ast.copy_location(out, node))
