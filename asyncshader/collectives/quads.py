"""Quads: groups of four invocations, and the WGSL quad operations.

A quad's members have quad ids 0 (upper-left), 1 (upper-right), 2 (lower-left) and 3
(lower-right). In a fragment dispatch a quad is a 2x2 block of pixels; in a compute dispatch it is
four consecutive local invocation indices, or what the kernel's compute-derivative layout says
(``@compute(derivatives="quads" | "linear")``).

Quad operations (and derivatives, :mod:`asyncshader.derivatives`) are rendezvous of the quad: all
four members, helpers included, must reach the same call, or the dispatch raises
:class:`~asyncshader.DerivativeUniformityError`.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import numpy as np

from .._core.traps import Rendezvous, suspend, trap_function
from ..errors import DerivativeUniformityError, DivergenceError
from ..wgsl.types import Vec

QUAD = "quad"  # the scope of quad operations and derivatives

_HINT = ("call derivatives and quad operations in uniform control flow: all four invocations of "
         "the quad (helper invocations too) must reach the same call; do not return early or "
         "branch on a value that differs inside the quad before it (WGSL: derivative_uniformity "
         "/ subgroup_uniformity)")


class QuadRendezvous(Rendezvous):
    """A rendezvous of the quad; divergence is reported as a uniformity error."""

    __slots__ = ()
    divergence_error = DerivativeUniformityError
    divergence_hint = _HINT
    no_group_hint = ("Quad operations in compute group four consecutive local invocation "
                     "indices; the dispatch sets quads up when the kernel refers to a quad "
                     "operation by name (or has a derivatives= layout).")


def copy_value(v: Any) -> Any:
    """A value as another invocation receives it: vectors are copied (they are mutable)."""
    return v._make(*v) if isinstance(v, Vec) else v


def _swap(mask: int) -> Any:
    def resolve(values: list, group: Any) -> list:
        return [copy_value(values[lane ^ mask]) for lane in range(4)]
    return resolve


_SWAP_X, _SWAP_Y, _SWAP_DIAGONAL = _swap(1), _swap(2), _swap(3)


def _broadcast(values: list, group: Any) -> list:
    """Each member deposits ``(e, id)``; every member gets ``e`` of member ``id``, which must be
    the same id in all four (the scheduler names each member's id on a DivergenceError)."""
    i = values[0][1]
    if any(v[1] != i for v in values):
        raise DivergenceError("The invocations passed different ids; WGSL requires "
                              "quadBroadcast's id to be a const-expression (one id for the "
                              "whole quad)")
    return [copy_value(values[i][0]) for _ in range(4)]


class _QuadBroadcast(QuadRendezvous):
    __slots__ = ()
    describe_value = staticmethod(lambda v: f"id {v[1]}")
    uniform_fix = ("give quad_broadcast() a constant id (0 to 3), the same in every member; to "
                   "read a neighbour that depends on the invocation, use quad_swap_x/y/diagonal")


def _numeric(op: str, e: Any) -> Any:
    if isinstance(e, (str, bytes)) or e is None:
        raise TypeError(f"{op}() takes a numeric scalar or vector, not {type(e).__name__}")
    return e


@trap_function
def quad_broadcast(e: Any, id: int) -> Awaitable[Any]:
    """WGSL ``quadBroadcast(e, id)``: the value of ``e`` from quad invocation ``id`` (a constant
    0 to 3), to every member of the quad."""
    if isinstance(id, (bool, np.bool_)) or not isinstance(id, (int, np.integer)) \
            or not 0 <= id <= 3:
        raise ValueError(f"quad_broadcast(e, id): id must be a constant int from 0 to 3 (an int, "
                         f"i32 or u32; WGSL requires a const-expression), got {id!r}")
    return suspend(_QuadBroadcast("quad_broadcast", QUAD, (_numeric("quad_broadcast", e),
                                                           int(id)), _broadcast))


@trap_function
def quad_swap_x(e: Any) -> Awaitable[Any]:
    """WGSL ``quadSwapX(e)``: the value from the horizontal neighbour (ids 0<->1, 2<->3)."""
    return suspend(QuadRendezvous("quad_swap_x", QUAD, _numeric("quad_swap_x", e), _SWAP_X))


@trap_function
def quad_swap_y(e: Any) -> Awaitable[Any]:
    """WGSL ``quadSwapY(e)``: the value from the vertical neighbour (ids 0<->2, 1<->3)."""
    return suspend(QuadRendezvous("quad_swap_y", QUAD, _numeric("quad_swap_y", e), _SWAP_Y))


@trap_function
def quad_swap_diagonal(e: Any) -> Awaitable[Any]:
    """WGSL ``quadSwapDiagonal(e)``: the value from the diagonal neighbour (ids 0<->3, 1<->2)."""
    return suspend(QuadRendezvous("quad_swap_diagonal", QUAD,
                                  _numeric("quad_swap_diagonal", e), _SWAP_DIAGONAL))


for _fn in (quad_broadcast, quad_swap_x, quad_swap_y, quad_swap_diagonal):
    _fn.__ash_needs_quads__ = True  # type: ignore[attr-defined]
