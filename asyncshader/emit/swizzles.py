"""Stores to a swizzle (``v.xz = w``, ``c.rgb += e``, ``buf[i].xy = w``): WGSL assigns no
swizzle, only single components, so each is written one component at a time through a
``let`` of the value (``let tmp = w; v.x = tmp.x; v.z = tmp.y;``)."""

from __future__ import annotations

import ast
from typing import Any

from ..wgsl.value_rewrite import as_load
from .values import E
from .wtypes import Vector

__all__ = ["augmented", "is_swizzle_store", "store"]


def is_swizzle_store(fx: Any, target: ast.expr) -> bool:
    """Whether ``target`` is a swizzle of several components of a vector."""
    return isinstance(target, ast.Attribute) and len(target.attr) > 1 and isinstance(
        fx.module.resolved(fx.expr(target.value).type), Vector)


def store(fx: Any, target: ast.Attribute, dest: E, value: E) -> None:
    """``v.xz = value``, ``dest`` being the swizzle's own translation."""
    tmp = fx.fresh("tmp")
    base = dest.text.rsplit(".", 1)[0]
    fx.emit(f"let {tmp} = {value.text};")
    for k, c in enumerate(target.attr):
        fx.emit(f"{base}.{c} = {tmp}.{'xyzw'[k]};")


def augmented(fx: Any, node: ast.AugAssign) -> None:
    """``v.xy op= e`` as ``v.xy = v.xy op e``."""
    whole = ast.copy_location(ast.BinOp(as_load(node.target), node.op, node.value), node)
    fx.store(node.target, whole, node)
