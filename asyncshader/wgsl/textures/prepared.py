"""Prepared samplers: the sampling of one 2d view with one sampler, made once into a function
``f(u, v, lod)`` that returns the shader's value, for the common case of the texture built-ins
(``texture_sample_level``, and ``texture_sample`` once the quad has its level of detail).

A sampler's filtering is pure Python in the coroutine path (:mod:`.sampling`), and most of a
sample's cost there is not the arithmetic but what surrounds it: the argument checks, the
per-call lookups of the sampler's modes, the view's sizes and the decoded level, the lists of
taps. A prepared sampler does those once per (view, sampler), as a GPU's descriptor does: it
closes over the decoded planes (nested lists of Python floats, :meth:`Texture.decoded`), the
sizes and the modes, and per call computes only the taps, the weighted sum and the ``vec4f``.

The arithmetic is :func:`.sampling.sample`'s, expression for expression (double, rounded once to
f32 at the end), so a prepared sampler returns bit-identical values; tests compare the two on
every address mode, filter and mip setting. The cases it takes: a "2d" view (not arrays, cubes,
1d or 3d), an f32 sample type (or a depth texture, which samples to one f32), a plain sampler
(no comparison), no offset; anything else goes through the general path. ``texture_load`` of a
2d view of a sampled texture is prepared the same way (:func:`prepare_load`). The prepared
functions are kept per texture (:meth:`Texture.prepared_for`) and forgotten with the decoded
levels whenever the texture's memory changes (a ``texture_store``, a host write).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..types import vec4f, vec4i, vec4u
from .resources import Sampler, TextureView
from .sampling import wrap

#: ``_F32 * x`` is ``x`` (a Python float) rounded to f32, as a ``numpy.float32``: numpy 2
#: converts the Python float to the scalar's type (NEP 50) and multiplies by one, exactly; it
#: is several times quicker than calling ``np.float32(x)``
_F32 = np.float32(1.0)
_MAKE4 = vec4f._make
_new = object.__new__
_INF = math.inf
_floor = math.floor

Level = Callable[[Any, Any], Any]


def prepare(view: TextureView, sampler: Sampler, depth: bool) -> Callable[..., Any] | None:
    """``f(u, v, lod)``: the sampled value (a ``vec4f``; an ``f32`` when ``depth``) of ``view``
    at normalized ``(u, v)`` with level of detail ``lod`` (bias added), as
    :func:`.sampling.sample` with the built-in's result conversion gives it; None where the
    view or sampler is not one a prepared sampler takes (see the module docstring)."""
    if view.dimension != "2d" or sampler.compare is not None or \
            view.format.sample_type != "f32":
        return None
    planes = [view.texture.decoded(view.base_mip_level + k)[view.base_array_layer]
              for k in range(view.mip_level_count)]
    linear = sampler.mag_filter == "linear"
    if len(planes) == 1 and linear == (sampler.min_filter == "linear"):
        w, h, _ = view.size(0)  # (one level, one filter: the level of detail changes nothing)
        return _level(planes[0], w, h, sampler, linear, depth, True)
    levels = [(_level(p, *view.size(k)[:2], sampler, False, depth, False),
               _level(p, *view.size(k)[:2], sampler, True, depth, False))
              for k, p in enumerate(planes)]
    return _mipmapped(levels, sampler, depth)


def prepare_load(view: TextureView, kind: Any) -> Callable[[Any, Any], Any] | None:
    """``f(coords, level)``: WGSL ``textureLoad`` of a 2d view of a sampled texture (``kind``
    its annotation) at integer ``coords`` (a ``vec2i`` or ``vec2u``) of level ``level``, zero
    out of bounds, as the general ``texture_load`` gives it; None for other views and for
    storage and multisampled textures (a storage texture reads its memory, as the race detector
    must see)."""
    if view.dimension != "2d" or kind.storage or kind.multisampled:
        return None
    planes = [view.texture.decoded(view.base_mip_level + k)[view.base_array_layer]
              for k in range(view.mip_level_count)]
    sizes = [view.size(k)[:2] for k in range(view.mip_level_count)]
    finish = _FINISH["depth" if kind.depth else view.format.sample_type]
    count = len(planes)

    def load_2d(coords: Any, level: Any) -> Any:
        x, y, k = int(coords.x), int(coords.y), int(level)
        if 0 <= k < count:
            w, h = sizes[k]
            if 0 <= x < w and 0 <= y < h:
                return finish(*planes[k][y][x])
        return finish(0, 0, 0, 0)
    return load_2d


#: a texel's decoded values (Python numbers) as the shader's value, by sample type: numpy 2
#: converts a Python number to the scalar's type (NEP 50), so ``_I32 + v`` is ``np.int32(v)``
_I32, _U32 = np.int32(0), np.uint32(0)
_FINISH: dict[str, Callable[..., Any]] = {
    "f32": lambda r, g, b, a: _MAKE4(_F32 * r, _F32 * g, _F32 * b, _F32 * a),
    "i32": lambda r, g, b, a: vec4i._make(_I32 + r, _I32 + g, _I32 + b, _I32 + a),
    "u32": lambda r, g, b, a: vec4u._make(_U32 + r, _U32 + g, _U32 + b, _U32 + a),
    "depth": lambda r, g, b, a: _F32 * r}


def _mipmapped(levels: list[tuple[Level, Level]], sampler: Sampler,
               depth: bool) -> Callable[..., Any]:
    """The level selection and mip blending of :func:`.sampling.sample` over per-level filters
    (each returning 4 floats), then the result conversion."""
    lo_clamp, hi_clamp = sampler.lod_min_clamp, sampler.lod_max_clamp
    magnify, minify = (int(sampler.mag_filter == "linear"), int(sampler.min_filter == "linear"))
    last = len(levels) - 1
    q = float(last)
    nearest_mip = sampler.mipmap_filter == "nearest"

    def sample_2d(u: Any, v: Any, lod: Any) -> Any:
        lod = float(lod)
        lam = min(max(lod, lo_clamp), hi_clamp) if lod == lod else lo_clamp
        linear = magnify if lam <= 0 else minify
        d = min(max(lam, 0.0), q)
        if nearest_mip:
            r, g, b, a = levels[math.ceil(d + 0.5) - 1][linear](u, v)
        else:
            lo = _floor(d)
            delta = d - lo
            r, g, b, a = levels[lo][linear](u, v)
            if delta != 0:
                r2, g2, b2, a2 = levels[min(lo + 1, last)][linear](u, v)
                keep = 1.0 - delta
                r, g, b, a = (keep * r + delta * r2, keep * g + delta * g2,
                              keep * b + delta * b2, keep * a + delta * a2)
        return _F32 * r if depth else _MAKE4(_F32 * r, _F32 * g, _F32 * b, _F32 * a)
    return sample_2d


def _wrapped(mode: str, n: int) -> Callable[[int], tuple[int, int]]:
    """The wrapped texel indices ``(i, i + 1)`` of an axis of ``n`` texels, for an ``i`` at the
    edge or outside (inside, they are ``i`` and ``i + 1`` in every mode)."""
    return lambda i: (wrap(i, n, mode), wrap(i + 1, n, mode))


def _tap(x: float) -> tuple[int, float]:
    """The texel index and weight of coordinate ``x`` in texels (0 and 0.0 when not finite)."""
    return (_floor(x), x - _floor(x)) if -_INF < x < _INF else (0, 0.0)


def _level(plane: list, w: int, h: int, sampler: Sampler, linear: bool, depth: bool,
           finish: bool) -> Callable[..., Any]:
    """The filter of one level's plane (nested lists [y][x] -> 4 floats): ``f(u, v)`` -> 4
    floats, or with ``finish`` ``f(u, v, lod)`` -> the result (``lod`` not read: with one level
    and one filter it changes nothing). Inside the level a texel's neighbour is the next one
    along each axis whatever the address mode; at the edges and outside, the mode wraps."""
    mode_u, mode_v = sampler.address_mode_u, sampler.address_mode_v
    wrap_u, wrap_v = _wrapped(mode_u, w), _wrapped(mode_v, h)
    wl, hl = w - 1, h - 1

    if not linear:
        def nearest(u: Any, v: Any, lod: Any = 0.0) -> Any:
            x = float(u) * w
            y = float(v) * h
            try:
                i = _floor(x)
                j = _floor(y)
            except (OverflowError, ValueError):  # (infinite or NaN: texel 0)
                i, j = _tap(x)[0], _tap(y)[0]
            if not 0 <= i < w:
                i = wrap(i, w, mode_u)
            if not 0 <= j < h:
                j = wrap(j, h, mode_v)
            if not finish:
                return plane[j][i]
            r, g, b, a = plane[j][i]
            return _F32 * r if depth else _MAKE4(_F32 * r, _F32 * g, _F32 * b, _F32 * a)
        return nearest

    def bilinear(u: Any, v: Any, lod: Any = 0.0) -> Any:
        x = float(u) * w - 0.5
        y = float(v) * h - 0.5
        try:
            i = _floor(x)
            j = _floor(y)
        except (OverflowError, ValueError):  # (infinite or NaN: texel 0, weight 0)
            (i, a1), (j, b1) = _tap(x), _tap(y)
        else:
            a1, b1 = x - i, y - j
        if 0 <= i < wl:
            i0 = i
            i1 = i + 1
        else:
            i0, i1 = wrap_u(i)
        if 0 <= j < hl:
            row0 = plane[j]
            row1 = plane[j + 1]
        else:
            j0, j1 = wrap_v(j)
            row0, row1 = plane[j0], plane[j1]
        a0, b0 = 1.0 - a1, 1.0 - b1
        r00, g00, b00, al00 = row0[i0]
        r10, g10, b10, al10 = row0[i1]
        r01, g01, b01, al01 = row1[i0]
        r11, g11, b11, al11 = row1[i1]
        w00 = a0 * b0
        w10 = a1 * b0
        w01 = a0 * b1
        w11 = a1 * b1
        r = w00 * r00 + w10 * r10 + w01 * r01 + w11 * r11
        g = w00 * g00 + w10 * g10 + w01 * g01 + w11 * g11
        b = w00 * b00 + w10 * b10 + w01 * b01 + w11 * b11
        a = w00 * al00 + w10 * al10 + w01 * al01 + w11 * al11
        if not finish:
            return r, g, b, a
        if depth:
            return _F32 * r
        out = _new(vec4f)  # (vec4f._make written out, a call less; each channel to f32)
        out.x = _F32 * r
        out.y = _F32 * g
        out.z = _F32 * b
        out.w = _F32 * a
        return out
    return bilinear
