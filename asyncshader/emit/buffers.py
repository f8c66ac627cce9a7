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
from .values import E
from .wtypes import U32, Array, Matrix, Scalar, Vector, from_dtype

__all__ = ["checked_index", "element_of", "flattened", "from_gpu", "struct_bytes", "to_gpu",
           "whole_element"]


def element_of(array: np.ndarray) -> Any:
    """The WGSL element type of a numpy array bound as a buffer: its dtype's, or a vector's
    where the array has two or more dimensions and the last has 2, 3 or 4 entries (an (n, 4)
    float32 array is ``array<vec4f>``, an (h, w, 3) one ``array<vec3f>``, padded to 16 bytes
    for the GPU): asyncshader's ``buf[i]`` is then a row of 4 values, which a ``vec4f`` is
    stored into as WGSL stores an element, and ``buf[i, c]`` one component of it."""
    s = from_dtype(array.dtype)
    if array.dtype.names is None and array.ndim >= 2 and array.shape[-1] in (2, 3, 4) and \
            isinstance(s, Scalar) and s.kind in "fiu":
        return Vector(array.shape[-1], s)
    return s


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


def _space(element: Any, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The dimensions of a bound array that index its elements: all but the last for vectors,
    all but the last two for matrices (the rest are inside one element)."""
    if isinstance(element, Vector) and shape[-1:] == (element.size,):
        return shape[:-1]
    if isinstance(element, Matrix) and shape[-2:] == (element.cols, element.rows):
        return shape[:-2]
    return shape


def whole_element(fx: Any, node: ast.Subscript, mem: Any) -> None:
    """``buf[i]`` with one index: on an array bound with more dimensions than its elements
    take, that is a numpy sub-array on the CPU (a row), which WGSL has no value for (unless it
    holds one element: an (n, 1) array's ``buf[i]`` is ``buf[i]``)."""
    shape = fx.module.bound_shape(mem.name)
    if shape is None or getattr(node, "flat", False):
        return
    space = _space(fx.module.resolved(mem.element(fx.module)), shape)
    if int(np.prod(space[1:])) != 1:  # (a sub-array of one element is that element)
        fx.fail(node, f"`{ast.unparse(node)}` on {mem.name}, bound as a {shape} array (one index "
                f"gives a sub-array of it, a numpy row)", f"index all its {len(space)} "
                f"dimensions ({mem.name}[{', '.join('ijkl'[:len(space)])}])")


def flattened(fx: Any, node: ast.Subscript) -> ast.expr | None:
    """``buf[y, x]`` on a buffer bound as a multi-dimensional array (asyncshader indexes it so;
    WGSL's arrays have one dimension) as ``buf[y * W + x]``, from the bound array's shape. The
    last dimension of a vector buffer (an (n, 4) float32 array is ``array<vec4f>``:
    :func:`element_of`), or the last two of a matrix buffer, are inside one element: an index
    there stays an index into the element, ``buf[i][c]``, also without a bound array where the
    elements are declared vectors (``Storage[vec3f]``). None where there is no shape to go by
    (or a slice); an error where the indices name a sub-array."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else None
    if not parts or any(isinstance(p, (ast.Slice, ast.Starred)) for p in parts):
        return None
    mem = fx.expr(node.value).memory
    shape = fx.module.bound_shape(mem.name) if mem is not None else None
    if shape is None and mem is not None and len(parts) == 2:
        element = fx.module.resolved(mem.element(fx.module))
        if isinstance(element, Vector):  # buf[i, c] of an array<vecN>: buf[i][c]
            shape = (-1, element.size)
    if shape is None or len(parts) > len(shape):
        return None
    space = _space(fx.module.resolved(mem.element(fx.module)), shape)
    if int(np.prod(space[len(parts):])) != 1:
        fx.fail(node, f"`{ast.unparse(node)}` on {mem.name}, bound as a {shape} array (it "
                f"names a sub-array of it, a numpy row)", f"index all its {len(space)} "
                "dimensions")
    outer, rest = parts[:len(space)], parts[len(space):]
    index: ast.expr = outer[0]
    for size, p in zip(space[1:], outer[1:]):  # ((i * d1) + j) * d2 + k ...
        index = ast.BinOp(ast.BinOp(index, ast.Mult(), ast.Constant(int(size))), ast.Add(), p)
    out: ast.expr = ast.Subscript(node.value, index, ast.Load())
    out.flat = True  # type: ignore[attr-defined]  # (one index into the flattened space)
    out.checks = list(zip(outer[1:], space[1:]))  # type: ignore[attr-defined]
    out.written = ast.unparse(node)  # type: ignore[attr-defined]
    for p in rest:
        out = ast.Subscript(out, p, ast.Load())
    return ast.fix_missing_locations(ast.copy_location(out, node))


#: the flat index of an access that is out of bounds in one of its dimensions (past the end
#: of any buffer: an invalid memory reference, as the access is in the Python kernel)
_OUT = "4294967295u"


def checked_index(fx: Any, node: ast.Subscript, index: Any) -> Any:
    """The flat index of ``buf[y, x]`` (:func:`flattened`) with each inner dimension checked:
    asyncshader bounds every dimension of the numpy array (``img[0, x]`` with ``x`` past the
    end of the row is out of bounds, a dropped store), where ``y * W + x`` alone would reach
    the next row; an index outside its dimension makes the flat index ``4294967295u``, out of
    bounds of any buffer (a GPU and Lockstep then treat the access as WGSL treats an
    out-of-bounds one). ``index`` unchanged where every inner index is a constant in range."""
    conditions = []
    for part, size in getattr(node, "checks", ()):
        e = fx.value(part)
        if e.has_const and isinstance(e.const, (int, np.integer)):
            if not 0 <= e.const < size:  # (as WGSL refuses a constant index past an array)
                fx.fail(part, f"the index {int(e.const)} of `{node.written}`, past the end of "
                        f"its dimension ({size} elements, so 0 to {size - 1})", "index within "
                        "the array (WGSL rejects a constant index out of bounds)")
            continue
        conditions.append(f"{_as_u32(fx, e)} < {int(size)}u")  # (a negative i32: 2**31 up)
    if not conditions:
        return index
    return E(f"select({_OUT}, {_as_u32(fx, index)}, {' && '.join(conditions)})", U32)


def _as_u32(fx: Any, e: Any) -> str:
    return e.text if fx.module.resolved(e.type) == U32 else f"u32({e.text})"
