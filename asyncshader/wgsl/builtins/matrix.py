"""WGSL's matrix built-ins (§17.5): ``transpose`` and ``determinant``.

The other built-ins WGSL defines on matrices are none: ``dot``, ``length``, ``abs`` ... take
scalars and vectors only, and the matrix operators (``m * v`` ...) are the matrix types' own
(:mod:`asyncshader.wgsl.matrices`).
"""

from __future__ import annotations

from typing import Any

from ...errors import ShaderTypeError
from ..matrices import Matrix, _transpose

__all__ = ["determinant", "transpose"]


def _refuse(name: str, wgsl: str, e: Any, what: str) -> ShaderTypeError:
    t = type(e).__name__ if not isinstance(e, (int, float)) else f"a Python {type(e).__name__}"
    return ShaderTypeError(f"{name}({t}): WGSL has no such overload of {wgsl}: it takes {what} "
                           f"of f32 or f16 (mat2x2f ... mat4x4f, mat2x2h ... mat4x4h), e.g. "
                           f"{name}(mat3x3f(...)).")


def transpose(e: Matrix) -> Matrix:
    """WGSL ``transpose(e: matRxC<T>) -> matCxR<T>``: the matrix whose column ``i`` is row
    ``i`` of ``e`` (``transpose(e)[i][j] == e[j][i]``), T f32 or f16. Exact (WGSL: correctly
    rounded)."""
    if not isinstance(e, Matrix):
        raise _refuse("transpose", "transpose", e, "a matrix")
    return _transpose(e)


def _det2(a: list[list[float]]) -> float:
    return a[0][0] * a[1][1] - a[1][0] * a[0][1]


def _det3(a: list[list[float]]) -> float:
    (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = a
    return (a00 * (a11 * a22 - a21 * a12) - a10 * (a01 * a22 - a21 * a02)
            + a20 * (a01 * a12 - a11 * a02))


def _det4(a: list[list[float]]) -> float:
    total = 0.0
    for c in range(4):  # cofactor expansion along row 0
        minor = [[a[k][r] for r in (1, 2, 3)] for k in range(4) if k != c]
        term = a[c][0] * _det3(minor)
        total += -term if c % 2 else term
    return total


_DET = {2: _det2, 3: _det3, 4: _det4}


def determinant(e: Matrix) -> Any:
    """WGSL ``determinant(e: matCxC<T>) -> T``: the determinant of a square matrix.

    Computed by cofactor expansion in float64 from the exact elements and rounded once to the
    matrix's scalar type (f32 or f16). WGSL does not bound its accuracy (\"infinite ULP\", it
    should be pragmatically useful); this is exact whenever the float64 expansion is, e.g. for
    integer matrices with ``|e|**4 < 2**21`` (the cases the WebGPU conformance tests check
    exactly)."""
    if not isinstance(e, Matrix) or e.cols != e.rows:
        what = "a square matrix" if isinstance(e, Matrix) else "a matrix"
        raise _refuse("determinant", "determinant", e, f"{what}, 2x2, 3x3 or 4x4")
    a = [[float(x) for x in c] for c in e]
    return e._round(_DET[e.cols](a))
