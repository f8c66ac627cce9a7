"""WGSL's texture built-ins (§17.7) over lanes, as Lockstep's generated code calls them: the
queries, ``textureLoad`` (gathers of texels by the lanes' coordinates; out of bounds zero,
as :mod:`asyncshader.wgsl.textures.builtins` reads WGSL's robust access rule),
``textureStore`` (each active lane's value converted to the storage texture's format and
scattered into the texture's host arrays, in lane order), and the sampling functions, whose
filtering is :mod:`asyncshader.wgsl.textures.filtering` (the scalar path's arithmetic over
arrays: bit-identical results).

A texture variable holds a :class:`Handle` (the bound texture as a shader sees it and its
decoded levels, decoded once per dispatch), a sampler variable the :class:`~asyncshader.Sampler`.
Coordinates, layers, levels and references arrive as values over lanes (:mod:`.lanes`); a
``vec4`` result is a ``(4, L)`` array, a depth texture's ``f32`` an ``(L,)`` one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import BindingError
from ..front.wgsl.codegen_textures import annotation_class
from ..wgsl.textures import filtering
from ..wgsl.textures.annotations import BoundTexture, bind_texture
from ..wgsl.textures.resources import Sampler, Texture, TextureView, as_view
from .builtins import DTYPES
from .derivatives import whole
from .lanes import lane_array, last_lanes


class Handle:
    """A texture bound for one dispatch: the :class:`BoundTexture` (view, WGSL type, name) and
    its levels decoded for filtering (a storage texture's read afresh, so that a store shows)."""

    __slots__ = ("bound", "texels", "view")

    def __init__(self, bound: BoundTexture) -> None:
        self.bound, self.view = bound, bound.view
        self.texels = filtering.Texels(bound.view, fresh=bound.kind.storage)

    @property
    def dtype(self) -> Any:
        return np.float32 if self.bound.kind.depth else DTYPES[self.view.format.sample_type]


def bind(kernel: str, name: str, t: Any, value: Any) -> Any:
    """What the handle variable ``name`` of WGSL type ``t`` holds for a dispatch that binds
    ``value``: a :class:`Handle` or the sampler, checked as the coroutine schedules check
    it (a BindingError naming the binding, what it declares and the fix)."""
    ann = annotation_class(t)
    if ann is None:
        raise BindingError(f"{kernel}: not supported by Lockstep: a binding of type {t.wgsl} "
                           f"({name!r})")
    bound = bind_texture(kernel, name, ann, value)
    return bound if isinstance(bound, Sampler) else Handle(bound)


def type_key(value: Texture | TextureView | Sampler) -> tuple:
    """What ``to_wgsl`` reads of a bound texture or sampler (an unannotated parameter's WGSL
    type): a view's dimension, format and samples; whether a sampler compares."""
    if isinstance(value, Sampler):
        return ("sampler", value.is_comparison)
    view = as_view(value)
    return ("texture", view.dimension, view.format.name, view.texture.sample_count)


def written(variables: dict, names: dict[str, str], bindings: dict[str, Any]) -> dict:
    """The storage textures a dispatch may write (access write or read_write), by the name
    the dispatch binds them: the written level of each, as its (layers or depth, height,
    width, C) block, as a coroutine dispatch's outputs hold them."""
    out = {}
    for key, value in bindings.items():
        space, _, t = variables.get(names.get(key, key), (None, None, None))
        if space == "handle" and t.name.startswith("texture_storage") and \
                (*t.params, "write")[1] != "read" and isinstance(value, (Texture, TextureView)):
            view = as_view(value)
            out[key] = view.texture.block(view.base_mip_level)
    return out


def _lanes(v: Any, L: int, dtype: Any) -> list[np.ndarray]:
    """A scalar or vector value over lanes as a list of full ``(L,)`` arrays of ``dtype``,
    one per component."""
    a = np.asarray(v)
    if a.ndim == 2:
        return [lane_array(np.asarray(c, dtype), L) for c in a]
    return [lane_array(np.asarray(a, dtype).reshape(-1), L)]


def _one(v: Any, L: int) -> np.ndarray:
    """An integer scalar over lanes (a layer, a level) as ``(L,)`` int64; 0 for None."""
    return np.zeros(L, np.int64) if v is None else _lanes(v, L, np.int64)[0]


def _result(h: Handle, rows: np.ndarray) -> np.ndarray:
    """Rows of 4 channels (one per lane) as the built-in's value over lanes: ``vec4`` of the
    sample type (``(4, L)``), or a depth texture's ``f32`` (``(L,)``); float64 rounded to
    f32 once, as the scalar path's vec4f and f32 do (a NaN keeps its sign)."""
    if h.bound.kind.depth:
        return rows[:, 0].astype(np.float32)
    return np.ascontiguousarray(rows.T.astype(h.dtype))


def _f32(v: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(v.astype(np.float32))


# --- queries -------------------------------------------------------------------------------

def dimensions(h: Handle, level: Any, m: Any, L: int, where: str) -> Any:
    """``textureDimensions(t[, level])``: u32 for 1d, vec2u, vec3u for 3d (per lane where the
    level is). A level past the view's chain in an active lane (mask ``m``) is an error, as
    in the coroutine path."""
    view = h.view
    sizes = np.array([view.size(k) for k in range(view.mip_level_count)], np.uint32)
    n = {"1d": 1, "3d": 3}.get(view.dimension, 2)
    if level is None:
        got = sizes[0, :n]
        return got[0] if n == 1 else got.reshape(n, 1)
    k = np.asarray(level).astype(np.int64)
    bad = (k < 0) | (k >= view.mip_level_count)
    if m is not None and k.ndim:
        bad &= lane_array(m, L) if m is not False else False
    if bad.any():
        first = int(np.reshape(k[bad] if k.ndim else k, -1)[0])
        raise ValueError(f"{where}: textureDimensions({h.bound.name}, {first}): the level is "
                         f"outside the view's {view.mip_level_count} mip levels (WGSL: the "
                         "result is indeterminate). Fix: pass a level below "
                         "textureNumLevels()")
    got = sizes[np.clip(k, 0, view.mip_level_count - 1)][..., :n]  # (inactive lanes: any)
    if k.ndim == 0:
        return got[0] if n == 1 else got.reshape(n, 1)
    return got[:, 0] if n == 1 else np.ascontiguousarray(got.T)


def num_levels(h: Handle) -> np.uint32:
    """``textureNumLevels(t)``."""
    return np.uint32(h.view.mip_level_count)


def num_layers(h: Handle) -> np.uint32:
    """``textureNumLayers(t)``: layers of an array texture, cubes of a cube array."""
    n = h.view.array_layer_count
    return np.uint32(n // 6 if h.view.dimension == "cube-array" else n)


def num_samples(h: Handle) -> np.uint32:
    """``textureNumSamples(t)``."""
    return np.uint32(h.view.texture.sample_count)


# --- loads and stores ----------------------------------------------------------------------

def _texels(h: Handle, coords: Any, layer: Any, level: Any, L: int) -> tuple:
    """(in-bounds lanes, the (z, y, x) of each lane's texel in the level block, level per
    lane), as :func:`asyncshader.wgsl.textures.builtins._texel_index` reads them."""
    view = h.view
    c = _lanes(coords, L, np.int64) + [np.zeros(L, np.int64)] * 2
    layer, level = _one(layer, L), _one(level, L)
    if h.bound.kind.multisampled:  # (the level argument is the sample index)
        sample, level = level, np.zeros(L, np.int64)
    ok = (level >= 0) & (level < view.mip_level_count)
    k = np.where(ok, level, 0)
    sizes = np.array([view.size(j) for j in range(view.mip_level_count)], np.int64)[k]
    for axis in range(3):
        ok &= (c[axis] >= 0) & (c[axis] < sizes[:, axis])
    if view.dimension == "3d":
        z = c[2]
    elif h.bound.kind.multisampled:
        ok &= (sample >= 0) & (sample < view.texture.sample_count)
        z = sample
    else:
        ok &= (layer >= 0) & (layer < view.array_layer_count)
        z = view.base_array_layer + layer
    return ok, (np.where(ok, z, 0), np.where(ok, c[1], 0), np.where(ok, c[0], 0)), k


def load(h: Handle, coords: Any, layer: Any, level: Any, L: int) -> np.ndarray:
    """``textureLoad(t, coords[, array_index][, level | sample_index])``: each lane's texel,
    zero where out of bounds. A storage texture is read from its host arrays (a store
    earlier in the dispatch shows)."""
    ok, (z, y, x), k = _texels(h, coords, layer, level, L)
    view = h.view
    if h.bound.kind.storage:
        block = view.texture.block(view.base_mip_level)
        rows = filtering.decode_block(view, block[z, y, x])
    elif (k == k[0]).all():
        rows = h.texels.level(int(k[0]))[z, y, x]
    else:
        rows = np.zeros((L, 4), h.texels.level(0).dtype)
        for j in np.unique(k):
            pick = np.flatnonzero(k == j)
            rows[pick] = h.texels.level(int(j))[z[pick], y[pick], x[pick]]
    rows = np.where(ok[:, None], rows, rows.dtype.type(0))
    return _result(h, rows)


def store(h: Handle, coords: Any, layer: Any, value: Any, m: Any, L: int) -> None:
    """``textureStore(t, coords[, array_index], value)``: each active lane's value converted
    to the texture's format (:meth:`~asyncshader.wgsl.textures.formats.TexelFormat.encode`)
    and written into the texture's host array; out of bounds, no write. Lanes storing to one
    texel store in lane order: the highest lane's value stays."""
    if m is False:
        return
    ok, (z, y, x), _ = _texels(h, coords, layer, None, L)
    if m is not None:
        ok &= lane_array(m, L)
    lanes = np.flatnonzero(ok)
    if not lanes.size:
        return
    view = h.view
    fmt = view.format
    block = view.texture.block(view.base_mip_level)
    keep = last_lanes(np.ravel_multi_index((z[lanes], y[lanes], x[lanes]), block.shape[:3]))
    if keep is not None:  # (lanes on one texel: the highest one's value)
        lanes = lanes[keep]
    values = np.stack(_lanes(value, L, h.dtype), axis=1)[lanes, :fmt.channels]
    block[z[lanes], y[lanes], x[lanes]] = fmt.encode(values)
    view.texture.changed()


# --- sampling ------------------------------------------------------------------------------

def _coords(h: Handle, coords: Any, L: int) -> list[np.ndarray]:
    return _lanes(coords, L, np.float64)


def _compare(s: Sampler, ref: Any, L: int) -> tuple:
    return s.compare or "never", _lanes(ref, L, np.float64)[0]


def sample_level(h: Handle, s: Sampler, coords: Any, layer: Any, level: Any,
                 offset: tuple, L: int) -> np.ndarray:
    """``textureSampleLevel(t, s, coords[, array_index], level[, offset])``."""
    lod = _lanes(level, L, np.float64)[0]
    return _result(h, filtering.sample(h.texels, s, _coords(h, coords, L), _one(layer, L), lod,
                                       offset))


def sample_grad(h: Handle, s: Sampler, coords: Any, layer: Any, ddx: Any, ddy: Any,
                offset: tuple, L: int) -> np.ndarray:
    """``textureSampleGrad(t, s, coords[, array_index], ddx, ddy[, offset])``: the level of
    detail from the given derivatives of the coordinates (a cube's, of its face
    coordinates)."""
    c = _coords(h, coords, L)
    dx, dy = _lanes(ddx, L, np.float32), _lanes(ddy, L, np.float32)
    cube = h.view.dimension in ("cube", "cube-array")
    lod = filtering.lod_from_gradients(h.view, dx, dy, c if cube else ())
    return _result(h, filtering.sample(h.texels, s, c, _one(layer, L), lod, offset))


def sample_compare_level(h: Handle, s: Sampler, coords: Any, layer: Any, ref: Any,
                         offset: tuple, L: int) -> np.ndarray:
    """``textureSampleCompareLevel(t, s, coords[, array_index], depth_ref[, offset])``: the
    depth comparison filtered at level 0."""
    rows = filtering.sample(h.texels, s, _coords(h, coords, L), _one(layer, L),
                            np.zeros(L), offset, _compare(s, ref, L))
    return _f32(rows[:, 0])


def gather(component: int, h: Handle, s: Sampler, coords: Any, layer: Any, offset: tuple,
           L: int) -> np.ndarray:
    """``textureGather([component,] t, s, coords[, array_index][, offset])``."""
    rows = filtering.gather(h.texels, s, _coords(h, coords, L), _one(layer, L), component,
                            offset)
    if h.bound.kind.depth:
        return _f32(rows.T)
    return _result(h, rows)


def gather_compare(h: Handle, s: Sampler, coords: Any, layer: Any, ref: Any, offset: tuple,
                   L: int) -> np.ndarray:
    """``textureGatherCompare(t, s, coords[, array_index], depth_ref[, offset])``."""
    rows = filtering.gather(h.texels, s, _coords(h, coords, L), _one(layer, L), 0, offset,
                            _compare(s, ref, L))
    return _f32(rows.T)


def sample_base_clamp_to_edge(h: Handle, s: Sampler, coords: Any, L: int) -> np.ndarray:
    """``textureSampleBaseClampToEdge(t, s, coords)``: level 0, the coordinates clamped to
    half a texel inside the edges."""
    w, hh, _ = h.view.size(0)
    u, v = _coords(h, coords, L)
    c = [np.minimum(np.maximum(u, 0.5 / w), 1 - 0.5 / w),
         np.minimum(np.maximum(v, 0.5 / hh), 1 - 0.5 / hh)]
    return _result(h, filtering.sample(h.texels, s, c, np.zeros(L, np.int64), np.zeros(L)))


def sample_implicit(name: str, h: Handle, s: Sampler, coords: Any, layer: Any, extra: Any,
                    offset: tuple, m: Any, L: int, fine: bool, where: str, quads: Any
                    ) -> np.ndarray:
    """``textureSample``, ``textureSampleBias`` (``extra``: the bias, clamped to [-16,
    15.99]) and ``textureSampleCompare`` (``extra``: the depth reference) in a fragment
    shader: the level of detail of each lane from the quad differences of the normalized
    coordinates (:func:`~asyncshader.wgsl.textures.filtering.quad_lods`), as the coroutine
    path's quad rendezvous takes it. The four lanes of a quad reach it together, or none
    does (a :class:`~asyncshader.DerivativeUniformityError` otherwise)."""
    whole(m, L, where, name, quads)
    c, at = _coords(h, coords, L), _one(layer, L)
    lod = filtering.quad_lods(h.view, c, at, fine)
    if name == "textureSampleCompare":
        rows = filtering.sample(h.texels, s, c, at, lod, offset, _compare(s, extra, L))
        return _f32(rows[:, 0])
    if name == "textureSampleBias":
        bias = _lanes(extra, L, np.float64)[0]
        lod = lod + np.minimum(np.maximum(bias, -16.0), 15.99)
    else:
        lod = lod + 0.0
    return _result(h, filtering.sample(h.texels, s, c, at, lod, offset))


__all__ = ["Handle", "bind", "dimensions", "gather", "gather_compare", "load", "num_layers",
           "num_levels", "num_samples", "sample_base_clamp_to_edge", "sample_compare_level",
           "sample_grad", "sample_implicit", "sample_level", "store", "type_key", "written"]
