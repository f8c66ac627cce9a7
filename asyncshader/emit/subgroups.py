"""Subgroup and quad operations whose id, delta or mask WGSL (or this naga) constrains beyond
their value's type, and ``subgroupElect``, which this naga lacks.

* ``subgroupShuffle(e, id)``: WGSL takes an ``i32`` or ``u32`` id, but naga (wgpu 0.32) accepts
  only ``u32`` ("Subgroup gather index type ... expected unsigned int"). An ``i32`` id is
  emitted ``u32(id)``: a negative id becomes 2**32 + id, which no subgroup has (at most 128
  invocations), so it stays what WGSL calls it, an invocation that is not active
  (indeterminate; asyncshader reports it and gives zero), as an id of 8 in a subgroup of 8 is.
  A constant id is a ``u32`` literal, and outside [0, 128) an error (WGSL: a shader-creation
  error).
* ``subgroupBroadcast(e, id)``: the id must be a const-expression in [0, 128); it is emitted as
  a ``u32`` literal (naga refuses an ``i32`` one, and a bare ``0`` is an i32 to naga).
* ``subgroupShuffleUp/Down(e, delta)``, ``subgroupShuffleXor(e, mask)``: WGSL takes a ``u32``
  only. asyncshader's CPU runtime reads a negative delta as the other direction, which a u32
  cannot say, so an ``i32`` is an error naming the fix rather than ``u32(delta)``.
* ``quadBroadcast(e, id)``: a const-expression id in [0, 4), a ``u32`` literal.
* ``subgroupElect()``: ``subgroupBroadcastFirst(subgroup_invocation_id) ==
  subgroup_invocation_id``, the same invocation (the lowest active one)."""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from .values import E
from .wtypes import BOOL, I32, U32, Unknown, scalar_of

__all__ = ["INTEGER_ONLY", "LANE_OPERATIONS", "call", "check_integer"]

#: the operations this module writes: (the argument's name, the largest constant + 1)
LANE_OPERATIONS = {"subgroup_shuffle": ("id", 128), "subgroup_broadcast": ("id", 128),
                   "subgroup_shuffle_up": ("delta", 128), "subgroup_shuffle_down": ("delta", 128),
                   "subgroup_shuffle_xor": ("mask", 128), "quad_broadcast": ("id", 4),
                   "subgroup_elect": ("", 0)}
_CONSTANT = {"subgroup_broadcast", "quad_broadcast"}  # (WGSL: the id is a const-expression)


#: the subgroup operations WGSL defines on integers only (i32, u32 and their vectors)
INTEGER_ONLY = {"subgroup_and", "subgroup_or", "subgroup_xor"}


def check_integer(fx: Any, node: ast.Call, name: str, t: Any) -> None:
    """``subgroup_and(x)`` (or or, xor) of a float or a bool names the line, as the CPU
    runtime refuses it."""
    s = scalar_of(t)
    if s is not None and not isinstance(t, Unknown) and s.kind not in "iu":
        fx.fail(node, f"{name} of a {t.wgsl} (WGSL: i32, u32 or their vectors only)",
                "pass an integer; for a float's bits, bitcast[u32](x)")


def call(fx: Any, node: ast.Call, row: Any) -> E:
    """The WGSL call of ``row`` (one of :data:`LANE_OPERATIONS`)."""
    if row.name == "subgroup_elect":
        if fx.kind == "helper":
            fx.fail(node, "subgroup_elect() in a helper", "call it in the entry point")
        fx.module.needed_builtins.add("subgroup_invocation_id")
        return E("subgroupBroadcastFirst(subgroup_invocation_id) == subgroup_invocation_id",
                 BOOL, "rel")
    what, limit = LANE_OPERATIONS[row.name]
    if len(node.args) != 2:
        fx.fail(node, f"{row.name} with {len(node.args)} arguments", f"{row.name}(e, {what})")
    e, lane = (fx.value(a) for a in node.args)
    return E(f"{row.wgsl}({e.text}, {_lane(fx, node.args[1], row.name, what, limit, lane)})",
             fx.module.resolved(e.type))


def _lane(fx: Any, node: ast.expr, op: str, what: str, limit: int, lane: E) -> str:
    """The text of the id / delta / mask argument, a u32."""
    t, c = fx.module.resolved(lane.type), lane.const
    if lane.has_const and isinstance(c, (int, np.integer)) and not isinstance(c, bool):
        if not 0 <= int(c) < limit:
            below = "; to read a lane below, use subgroup_shuffle_up" if int(c) < 0 and \
                what == "delta" else ""
            fx.fail(node, f"the constant {what} {int(c)} of {op} (WGSL: a constant outside "
                    f"[0, {limit}) is a shader-creation error)", f"pass a {what} from 0 to "
                    f"{limit - 1}{below}")
        return f"{int(c)}u"
    if op in _CONSTANT:
        fix = ("pass a literal or a module constant; to read a lane that depends on the "
               "invocation, use subgroup_shuffle" if op == "subgroup_broadcast" else
               f"pass a literal 0..{limit - 1} or a module constant")
        fx.fail(node, f"a {op} {what} that is not a constant (WGSL: a const-expression)", fix)
    if isinstance(t, Unknown):  # (a Python int local, a buffer element: a u32 from here on)
        fx.module.unify(t, U32, node, fx)
        return lane.text
    if t == U32:
        return lane.text
    if t == I32 and op == "subgroup_shuffle":
        # WGSL allows an i32 id here; naga refuses it. u32(id) keeps the meaning: a negative
        # id is 2**32 + id, an invocation no subgroup has, indeterminate as before.
        return f"u32({lane.text})"
    fix = f"pass a u32 {what}: u32({what})"
    if t == I32 and what == "delta":
        fix += (" (asyncshader reads a negative delta as the other direction; WGSL's u32 "
                "cannot: use subgroup_shuffle_up / subgroup_shuffle_down for that)")
    fx.fail(node, f"the {what} `{ast.unparse(node)}` of type {getattr(t, 'wgsl', t)} for {op} "
            "(WGSL takes a u32)", fix)
    raise AssertionError  # (fail raises)
