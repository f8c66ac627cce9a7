"""WGSL's derivatives and quad operations over the lanes of a fragment dispatch: lanes 4q to
4q+3 are quad q's quad ids 0 (upper left), 1 (upper right), 2 (lower left) and 3 (lower
right), as :mod:`asyncshader.stages.fragment` forms them.

With P0 ... P3 a quad's values, in f32 rounded to nearest even (numpy's float32 subtraction,
as :mod:`asyncshader.collectives.derivatives` computes them):

- fine: ``dpdx`` is P1 - P0 on the top row, P3 - P2 on the bottom row; ``dpdy`` is P2 - P0
  in the left column, P3 - P1 in the right column;
- coarse: ``dpdx`` is P1 - P0 and ``dpdy`` P2 - P0 for all four;
- ``fwidth`` is ``abs(dpdx) + abs(dpdy)`` of the same variant.

:func:`quad_differences` is the plain function over lanes (a texture sample's implicit level
of detail reads it too); :func:`derivative` and :func:`quad` are what compiled fragment
code calls, with WGSL's uniformity rule checked: the four lanes of a quad, helpers included,
reach a derivative or a quad operation together, or none of them does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import DerivativeUniformityError
from .lanes import lane_array

#: the quad id each lane of a quad reads for a quad operation
_PICK = {"x": np.array([1, 0, 3, 2]), "y": np.array([2, 3, 0, 1]),
         "diagonal": np.array([3, 2, 1, 0])}
_FIX = ("Fix: call derivatives and quad operations in uniform control flow: all four "
        "invocations of the quad (helper invocations too) must reach the same call; do not "
        "return early or branch on a value that differs inside the quad before it (WGSL: "
        "derivative_uniformity)")


def quad_differences(v: Any, L: int, fine: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(dpdx, dpdy)`` of ``v``, a scalar or vector value over ``L`` lanes (``(L,)`` or
    ``(N, L)``, or a uniform value that broadcasts to it), each lane getting its quad's
    difference, fine or coarse, in ``v``'s dtype (f32 for WGSL's derivatives; a texture
    sample's coordinates may be float64). The results have ``v``'s full shape over lanes."""
    full = lane_array(np.asarray(v), L)
    p = full.reshape(*full.shape[:-1], L // 4, 4)
    if fine:
        dx = np.repeat(p[..., 1::2] - p[..., 0::2], 2, axis=-1)       # rows: (1-0, 3-2)
        dy = np.tile(p[..., 2:] - p[..., :2], 2)                      # columns: (2-0, 3-1)
    else:
        dx = np.repeat(p[..., 1:2] - p[..., 0:1], 4, axis=-1)
        dy = np.repeat(p[..., 2:3] - p[..., 0:1], 4, axis=-1)
    return dx.reshape(full.shape), dy.reshape(full.shape)


def derivative(which: str, fine: bool, v: Any, m: Any, L: int, where: str, quads: Any
               ) -> np.ndarray:
    """``dpdx*`` (``which`` "x"), ``dpdy*`` ("y") or ``fwidth*`` ("w") of ``v`` in the
    lanes of mask ``m``, whose quads must be whole (``quads`` names a quad in messages)."""
    whole(m, L, where, which_name(which, fine), quads)
    dx, dy = quad_differences(v, L, fine)
    if which == "x":
        return dx
    if which == "y":
        return dy
    return np.abs(dx) + np.abs(dy)


def which_name(which: str, fine: bool) -> str:
    return {"x": "dpdx", "y": "dpdy", "w": "fwidth"}[which] + ("Fine" if fine else "Coarse")


def quad(kind: str, v: Any, arg: Any, m: Any, L: int, where: str, quads: Any) -> np.ndarray:
    """``quadBroadcast`` (``arg``: the quad id, a constant) and ``quadSwapX/Y/Diagonal``:
    each lane gets the value of a lane of its quad, whose four lanes must all be here."""
    name = {"x": "quadSwapX", "y": "quadSwapY", "diagonal": "quadSwapDiagonal",
            "broadcast": "quadBroadcast"}[kind]
    whole(m, L, where, name, quads)
    full = lane_array(np.asarray(v), L)
    own = np.arange(L) & 3
    pick = np.full(4, int(np.reshape(arg, -1)[0])) if kind == "broadcast" else _PICK[kind]
    return full[..., np.arange(L) - own + pick[own]]


def whole(m: Any, L: int, where: str, name: str, quads: Any) -> None:
    """Raises :class:`~asyncshader.DerivativeUniformityError` where the lanes of mask ``m``
    hold part of a quad."""
    if m is None or m is False:
        return
    per_quad = lane_array(m, L).reshape(L // 4, 4)
    split = np.flatnonzero(per_quad.any(axis=1) & ~per_quad.all(axis=1))
    if not split.size:
        return
    q = int(split[0])
    here = [k for k in range(4) if per_quad[q, k]]
    away = [k for k in range(4) if not per_quad[q, k]]
    label = quads.label(q)
    ids = ", ".join(map(str, here))
    positions = [(f"{where} ({name})", [quads.fragment(q, k) for k in here]),
                 ("returned or in another branch", [quads.fragment(q, k) for k in away])]
    raise DerivativeUniformityError(
        f"DerivativeUniformityError in {label}: quad id {ids} reach {name} at {where}, quad "
        f"id {', '.join(map(str, away))} do not (they returned, or took another branch). "
        f"This is non-uniform control flow ({len(split)} quad(s) split here).\n{_FIX}",
        positions)
