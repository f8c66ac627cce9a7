"""WGSL's f32 matrices over lanes: a ``matCxR`` value is an array of shape ``(C, R, lanes)``
(column ``c`` is ``m[c]``, a ``vecR``). The products are asyncshader's
(:mod:`asyncshader.wgsl.matrices`): each component a sum of exact products in float64, in
column (or row) order, rounded once to f32; ``+``, ``-`` and the product with a scalar are
f32 operations on the components. tests/lockstep fuzz them against it."""

from __future__ import annotations

from typing import Any

import numpy as np

from .builtins import _rounded


def _f64(v: Any) -> np.ndarray:
    return np.asarray(v).astype(np.float64)


def _matrix_vector(m64: np.ndarray, v64: np.ndarray) -> np.ndarray:
    total = m64[0] * v64[0]
    for c in range(1, m64.shape[0]):
        total = total + m64[c] * v64[c]
    return total


def times_vector(m: Any, v: Any) -> np.ndarray:
    """``m * v``: component ``i`` is the sum over columns ``c`` of ``m[c][i] * v[c]``."""
    return _rounded(_matrix_vector(_f64(m), _f64(v)))


def vector_times(v: Any, m: Any) -> np.ndarray:
    """``v * m``: component ``c`` is ``dot(v, m[c])``."""
    v64, m64 = _f64(v), _f64(m)
    cols = []
    for c in range(m64.shape[0]):
        total = m64[c][0] * v64[0]
        for i in range(1, m64.shape[1]):
            total = total + m64[c][i] * v64[i]
        cols.append(total)
    return _rounded(np.stack(np.broadcast_arrays(*cols)))


def times_matrix(a: Any, b: Any) -> np.ndarray:
    """``a * b``: column ``c`` is ``a * b[c]``."""
    a64, b64 = _f64(a), _f64(b)
    cols = [_matrix_vector(a64, b64[c]) for c in range(b64.shape[0])]
    return _rounded(np.stack(np.broadcast_arrays(*cols)))


def build(columns: list, cols: int, rows: int) -> np.ndarray:
    """A matrix from its constructor's arguments: ``cols`` column vectors, or ``cols * rows``
    scalars in column order."""
    parts = [np.asarray(p, np.float32) for p in columns]
    if len(parts) == cols * rows:
        parts = [np.stack(np.broadcast_arrays(*[p.reshape(-1) if p.ndim else p.reshape(1)
                                                for p in parts[c * rows:(c + 1) * rows]]))
                 for c in range(cols)]
    return np.stack(np.broadcast_arrays(*parts))
