"""WGSL's shader-creation errors that the emitter sees with the types it infers: the same rules
the decorators check in the source (:mod:`asyncshader.sanitizers.creation_checks`), with the
same predicates and words (:mod:`asyncshader.sanitizers.creation_rules`), for what
the source alone did not show (a module constant bound after decoration, a local whose integer
type only inference tells). Each names the line and the fix, as on the CPU."""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from ..sanitizers import creation_rules as rules
from .wtypes import Unknown, scalar_of

_SHIFTS = {ast.LShift: "<<", ast.RShift: ">>"}
_DIVISIONS = {ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%"}


def check_operator(fx: Any, node: ast.AST, op: type, divisor: Any, t: Any) -> None:
    """A constant shift count outside [0, 32), or an integer division or remainder (result
    type ``t``) by a constant zero; ``divisor`` is the right operand (an ``E``)."""
    if not divisor.has_const:
        return
    right = node.right if isinstance(node, ast.BinOp) else getattr(node, "value", None)
    written = ast.unparse(right) if isinstance(right, ast.AST) else str(divisor.const)
    found = None
    if op in _SHIFTS:
        found = rules.shift_count(_SHIFTS[op], written, divisor.const)
    s = scalar_of(fx.module.resolved(t))
    if op in _DIVISIONS and s is not None and not isinstance(s, Unknown) and s.kind in "iu":
        found = rules.division_by_zero(_DIVISIONS[op], written, divisor.const)
    if found:
        fx.fail_because(node, *found)


def check_derivative(fx: Any, node: ast.Call, name: str, t: Any) -> None:
    """A derivative of an integer (WGSL's take f32 or vecN<f32>)."""
    s = scalar_of(t)
    if s is not None and not isinstance(t, Unknown) and s.kind in "iu":
        fx.fail_because(node, *rules.derivative_of_integer(name, f"a {t.wgsl}"))


def check_quads(fx: Any, node: ast.Call, name: str) -> None:
    """A quad operation in a compute kernel whose workgroup is not a multiple of 4 invocations
    (and no derivative layout): its quads would not be whole."""
    shader = fx.module.shader
    if fx.module.stage != "compute" or getattr(shader, "derivatives", None) is not None:
        return
    found = rules.quads_not_whole(name, int(np.prod(shader.workgroup_size)))
    if found:
        fx.fail_because(node, *found)
