"""Textures and samplers in the emitted WGSL: a texture or sampler parameter becomes a handle
binding (``@group(0) @binding(k) var t: texture_2d<f32>;``), and the texture built-ins are
written as WGSL's camelCase calls with their result types (``vec4<T>`` of the texture's sample
type, ``f32`` for depth textures, ``u32``/``vec2u``/``vec3u`` for the queries)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from ..wgsl.textures.annotations import (
    SamplerComparison,
    TextureType,
    bind_texture,
)
from ..wgsl.textures.resources import Sampler, Texture, TextureView
from .values import E
from .wtypes import F32, I32, U32, Vector

_SCALARS = {"f32": F32, "i32": I32, "u32": U32}


@dataclass(frozen=True)
class Handle:
    """A texture or sampler type: its WGSL spelling and, for a texture, its annotation."""

    wgsl: str
    kind: Any = None
    abstract = False


def handle_type(name: str, ann: Any, given: Any) -> Handle | None:
    """The handle type of a texture or sampler parameter (by annotation, else by the bound
    value), or None for any other parameter."""
    if ann is SamplerComparison or (isinstance(given, Sampler) and given.is_comparison):
        return Handle("sampler_comparison")
    if ann is Sampler or isinstance(given, Sampler):
        return Handle("sampler")
    if isinstance(ann, type) and issubclass(ann, TextureType):
        return Handle(ann.wgsl(), ann)
    if isinstance(given, (Texture, TextureView)):
        kind = bind_texture("to_wgsl", name, None, given).kind
        return Handle(kind.wgsl(), kind)
    return None


def _result(kind: Any, name: str) -> Any:
    dim = kind.dimension
    if name == "texture_dimensions":
        return U32 if dim == "1d" else Vector(3, U32) if dim == "3d" else Vector(2, U32)
    if name in ("texture_num_levels", "texture_num_layers", "texture_num_samples"):
        return U32
    if name in ("texture_gather_compare",) or (name == "texture_gather" and kind.depth):
        return Vector(4, F32)
    if kind.depth:
        return F32
    from ..wgsl.textures.formats import texel_format
    sample = texel_format(kind.format).sample_type if kind.storage else kind.sample_type
    return Vector(4, _SCALARS[sample])


def call(ex: Any, node: ast.Call, row: Any) -> E:
    """A texture built-in's call (``row`` its table row) as WGSL."""
    args = [ex.value(a) for a in node.args]
    first = 1 if row.name == "texture_gather" and not isinstance(
        ex.module.resolved(args[0].type), Handle) else 0
    t = ex.module.resolved(args[first].type) if args else None
    if not isinstance(t, Handle) or t.kind is None:
        ex.fail(node, f"{row.name} without a texture as its "
                f"{'second' if first else 'first'} argument",
                "pass a parameter annotated ash.Texture2D[f32] (or another texture type)")
    text = f"{row.wgsl}({', '.join(a.text for a in args)})"
    if row.name == "texture_store":
        return E(text, None, ref="statement")
    return E(text, _result(t.kind, row.name))
