"""WGSL derivative built-ins: ``dpdx``, ``dpdy``, ``fwidth`` and their ``_coarse``/``_fine``
variants, for f32 and vec2/3/4 f32.

Each is a rendezvous of the quad (:mod:`asyncshader.quads`). With P0..P3 the values at quad ids
0..3, computed in f32 with round-to-nearest-even (Vulkan / SPIR-V, as the WebGPU CTS checks):

* fine: ``dpdx`` = P1 - P0 on the top row, P3 - P2 on the bottom row; ``dpdy`` = P2 - P0 on the
  left column, P3 - P1 on the right column;
* coarse: one value per quad, from quad id 0: ``dpdx`` = P1 - P0, ``dpdy`` = P2 - P0;
* ``fwidth*`` = ``abs(dpdx*) + abs(dpdy*)`` of the same variant;
* the plain ``dpdx``, ``dpdy``, ``fwidth`` follow the dispatch's ``derivatives="coarse"|"fine"``
  option (default ``"coarse"``), the same choice for all three, as SPIR-V requires.

In a compute dispatch, derivatives need a layout (``@compute(derivatives="quads"|"linear")``);
a kernel without one that calls a derivative is refused when it is decorated
(:mod:`asyncshader.sanitizers.creation_checks`), and a call the source does not show there (a
helper reached other than by name) raises :class:`~asyncshader.ShaderCreationError` when it
runs.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Generator
from contextvars import ContextVar
from typing import Any

import numpy as np

from .._core.traps import rendezvous_kind, trap_function
from ..errors import ShaderCreationError
from ..wgsl.types import Vec
from .quads import QUAD, QuadRendezvous, copy_value

_Resolver = Callable[[list, Any], list]


def _fine_x(v: list, group: Any) -> list:
    top, bottom = v[1] - v[0], v[3] - v[2]
    if isinstance(top, Vec):
        return [top, copy_value(top), bottom, copy_value(bottom)]
    return [top, top, bottom, bottom]


def _fine_y(v: list, group: Any) -> list:
    left, right = v[2] - v[0], v[3] - v[1]
    if isinstance(left, Vec):
        return [left, right, copy_value(left), copy_value(right)]
    return [left, right, left, right]


def _coarse_x(v: list, group: Any) -> list:
    d = v[1] - v[0]
    return [d, copy_value(d), copy_value(d), copy_value(d)] if isinstance(d, Vec) else [d] * 4


def _coarse_y(v: list, group: Any) -> list:
    d = v[2] - v[0]
    return [d, copy_value(d), copy_value(d), copy_value(d)] if isinstance(d, Vec) else [d] * 4


def _fwidth(dx: _Resolver, dy: _Resolver) -> _Resolver:
    def resolve(v: list, group: Any) -> list:
        return [abs(a) + abs(b) for a, b in zip(dx(v, group), dy(v, group))]
    return resolve


_RESOLVERS: dict[str, _Resolver] = {
    "dpdx_fine": _fine_x, "dpdy_fine": _fine_y,
    "dpdx_coarse": _coarse_x, "dpdy_coarse": _coarse_y,
    "fwidth_fine": _fwidth(_fine_x, _fine_y), "fwidth_coarse": _fwidth(_coarse_x, _coarse_y),
}


def _f32(op: str, e: Any) -> Any:
    if isinstance(e, Vec):
        if e.kind != "f":
            raise TypeError(f"{op}() takes f32 or vecNf, not {type(e).__name__}: convert with "
                            f"vec{e.size}f(v)")
        return e
    if isinstance(e, (bool, np.bool_)) or not isinstance(e, (int, float, np.integer,
                                                             np.floating)):
        raise TypeError(f"{op}() takes f32 or vecNf, not {type(e).__name__}")
    return np.float32(e)


_F32 = np.float32
_KINDS: dict[str, dict[str, Any]] = {"coarse": {}, "fine": {}}  # mode -> op -> request kind
_NO_LAYOUT: dict[str, Any] = {}  # op -> None: compute without a derivative layout

#: the request kind of each derivative built-in in the running dispatch (None: no derivative
#: layout), the dispatch's ``context_values`` set it; outside a dispatch (a test calling a helper
#: function), the coarse ones. A context variable of its own, not the run's attribute: reading
#: it is the one lookup a derivative makes (they sit in fragment shaders' inner loops)
DERIVATIVE_KINDS: ContextVar[dict[str, Any]] = ContextVar("asyncshader_derivative_kinds",
                                                          default=_KINDS["coarse"])


def derivative_kinds(mode: str | None) -> dict[str, Any]:
    """The request kind of each derivative built-in under ``derivatives=mode`` (None: a compute
    dispatch without a derivative layout, where they have none): what a dispatch sets
    :data:`DERIVATIVE_KINDS` to."""
    return _NO_LAYOUT if mode is None else _KINDS[mode]


def _builtin(op: str, variant: str | None, wgsl: str, what: str) -> Callable[[Any], Any]:
    axis = op.split("_")[0]
    for mode in ("coarse", "fine"):
        _KINDS[mode][op] = rendezvous_kind(op, QUAD, _RESOLVERS[f"{axis}_{variant or mode}"],
                                           QuadRendezvous)
    _NO_LAYOUT[op] = None
    kinds = DERIVATIVE_KINDS

    # one generator function, no wrapper calls: derivatives sit in fragment shaders' inner loops
    @types.coroutine
    def derivative(e: Any) -> Generator[Any, Any, Any]:
        if e.__class__ is not _F32:
            e = _f32(op, e)
        kind = kinds.get()[op]
        if kind is not None:
            return (yield (kind, e))  # the cheap form of kind(e)
        raise ShaderCreationError(
            f"{op}() in a compute kernel without a derivative layout (WGSL has derivatives in "
            "fragment shaders only). Fix: declare @ash.compute(..., derivatives=\"quads\" | "
            "\"linear\") (VK_KHR_compute_shader_derivatives), or exchange the neighbours' "
            "values with quad_swap_x / quad_swap_y and subtract.")
    derivative.__name__ = derivative.__qualname__ = op
    derivative.__ash_derivative__ = True  # (what the decoration-time checks look for)
    derivative.__doc__ = f"WGSL ``{wgsl}(e)``: {what}"
    derivative.__module__ = __name__
    return trap_function(derivative)


_PLAIN = "the fine or coarse variant, as the dispatch's derivatives= option says."
dpdx = _builtin("dpdx", None, "dpdx", "partial derivative along x; " + _PLAIN)
dpdx_coarse = _builtin("dpdx_coarse", "coarse", "dpdxCoarse", "P1 - P0 for the whole quad.")
dpdx_fine = _builtin("dpdx_fine", "fine", "dpdxFine", "P1 - P0 on the top row, P3 - P2 below.")
dpdy = _builtin("dpdy", None, "dpdy", "partial derivative along y; " + _PLAIN)
dpdy_coarse = _builtin("dpdy_coarse", "coarse", "dpdyCoarse", "P2 - P0 for the whole quad.")
dpdy_fine = _builtin("dpdy_fine", "fine", "dpdyFine",
                     "P2 - P0 in the left column, P3 - P1 in the right one.")
fwidth = _builtin("fwidth", None, "fwidth", "abs(dpdx(e)) + abs(dpdy(e)); " + _PLAIN)
fwidth_coarse = _builtin("fwidth_coarse", "coarse", "fwidthCoarse",
                         "abs(dpdxCoarse(e)) + abs(dpdyCoarse(e)).")
fwidth_fine = _builtin("fwidth_fine", "fine", "fwidthFine",
                       "abs(dpdxFine(e)) + abs(dpdyFine(e)).")

DERIVATIVES = (dpdx, dpdx_coarse, dpdx_fine, dpdy, dpdy_coarse, dpdy_fine, fwidth,
               fwidth_coarse, fwidth_fine)
