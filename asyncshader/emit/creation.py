"""WGSL's shader-creation errors that the emitter sees with the types it infers: the same rules
the decorators check in the source (:mod:`asyncshader.sanitizers.creation_checks`), for what
the source alone did not show (a module constant bound after decoration, a local whose integer
type only inference tells). Each names the line and the fix, as on the CPU."""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from .wtypes import Unknown, scalar_of

_SHIFTS = {ast.LShift: "<<", ast.RShift: ">>"}
_DIVISIONS = {ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%"}


def check_operator(fx: Any, node: ast.AST, op: type, divisor: Any, t: Any) -> None:
    """A constant shift count outside [0, 32), or an integer division or remainder (result
    type ``t``) by a constant zero; ``divisor`` is the right operand (an ``E``)."""
    if not divisor.has_const or isinstance(divisor.const, (bool, np.bool_)):
        return
    v = divisor.const
    if op in _SHIFTS and isinstance(v, (int, np.integer)) and not 0 <= v < 32:
        fx.fail_because(node, f"the shift `{_SHIFTS[op]} {int(v)}` by a constant count outside "
                        "[0, 32) is a shader-creation error (WGSL's integers have 32 bits)",
                        "shift by 0 to 31; write the result you mean for a larger count")
    s = scalar_of(fx.module.resolved(t))
    if op in _DIVISIONS and v == 0 and s is not None and not isinstance(s, Unknown) \
            and s.kind in "iu":
        fx.fail_because(node, f"`{_DIVISIONS[op]} 0`: an integer division or remainder by a "
                        "constant zero is a shader-creation error in WGSL",
                        "divide by a value that is not zero")


def check_derivative(fx: Any, node: ast.Call, name: str, t: Any) -> None:
    """A derivative of an integer (WGSL's take f32 or vecN<f32>)."""
    s = scalar_of(t)
    if s is not None and not isinstance(t, Unknown) and s.kind in "iu":
        fx.fail_because(node, f"{name}() of a {t.wgsl}: WGSL's derivatives take f32 or "
                        "vecN<f32>", f"convert it: {name}(f32(...))")


def check_quads(fx: Any, node: ast.Call, name: str) -> None:
    """A quad operation in a compute kernel whose workgroup is not a multiple of 4 invocations
    (and no derivative layout): its quads would not be whole."""
    shader = fx.module.shader
    if fx.module.stage != "compute" or getattr(shader, "derivatives", None) is not None:
        return
    n = int(np.prod(shader.workgroup_size))
    if n % 4:
        fx.fail_because(node, f"{name}() in a compute kernel of {n} invocations: a quad is 4 "
                        "consecutive local invocation indices, so the workgroup must hold a "
                        "multiple of 4", "make the workgroup size a multiple of 4 invocations")
