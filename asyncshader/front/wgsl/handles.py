"""Textures and samplers bound to a loaded WGSL module's handle variables: what a run gives
for ``var t: texture_2d<f32>`` (an :class:`asyncshader.Texture` or one of its views) and
``var s: sampler`` (an :class:`asyncshader.Sampler`) is checked against the declared type
as WebGPU checks a bind group against its layout, with errors naming the WGSL binding and
the fix (:func:`check_handle`)."""

from __future__ import annotations

from typing import Any

from ...errors import BindingError
from ...wgsl.textures.annotations import bind_texture
from ...wgsl.textures.resources import Sampler, Texture, TextureView, as_view
from .codegen_textures import annotation_class
from .reflect import Resource

__all__ = ["check_handle"]


def check_handle(kernel: str, r: Resource, value: Any) -> Any:
    """``value`` (what a run binds to the handle variable ``r``) when it fits the declared
    texture or sampler type; a :class:`~asyncshader.BindingError` naming the binding, what it
    declares, what was given and the fix otherwise."""
    where = f"{kernel}: @group({r.group}) @binding({r.binding}) var {r.name}: {r.type.wgsl}"
    if r.kind in ("sampler", "comparison_sampler"):
        if not isinstance(value, Sampler):
            raise BindingError(f"{where} needs an ash.Sampler(...), not "
                               f"{type(value).__name__}")
        if r.kind == "comparison_sampler" and not value.is_comparison:
            raise BindingError(f"{where} is a comparison sampler but got a sampler without "
                               "compare. Fix: pass ash.Sampler(compare='less', ...) (the "
                               "depth comparison the shader's textureSampleCompare uses)")
        if r.kind == "sampler" and value.is_comparison:
            raise BindingError(f"{where} is a filtering sampler but got a comparison sampler "
                               f"(compare={value.compare!r}). Fix: drop compare=, or declare "
                               "the variable sampler_comparison")
        return value
    if not isinstance(value, (Texture, TextureView)):
        raise BindingError(f"{where} needs an ash.Texture or a view of one "
                           f"(texture.view(...)), not {type(value).__name__}")
    ann = annotation_class(r.type)
    fmt = as_view(value).format
    given = f"but got a {fmt.name} texture"
    if ann.storage and fmt.name != ann.format:
        wgsl = r.type.wgsl.replace(f"<{ann.format},", f"<{fmt.name},")
        raise BindingError(f"{where} {given}: a storage texture's format must match exactly. "
                           f"Fix: make the texture with format={ann.format!r}, or declare "
                           f"{wgsl}")
    if not ann.storage and not ann.depth and fmt.sample_type != ann.sample_type:
        wgsl = r.type.wgsl.replace(f"<{ann.sample_type}>", f"<{fmt.sample_type}>")
        raise BindingError(f"{where} {given}, whose texels read as {fmt.sample_type}. Fix: "
                           f"declare {wgsl}, or pass a texture whose format reads as "
                           f"{ann.sample_type}")
    try:
        bind_texture(kernel, r.name, ann, value)
    except BindingError as exc:
        raise BindingError(f"{where}: {str(exc).split(': ', 1)[1]}") from None
    return value
