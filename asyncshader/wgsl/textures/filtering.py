"""Filtering over arrays of sample points: :mod:`.sampling`'s rules (Vulkan §16, which
WebGPU's sampling follows) computed with numpy for many points at once, for a back-end that
runs lanes as arrays (``ash.Lockstep``).

Every function takes one value per point as a 1-d array (coordinates as a list of arrays,
one per axis) and returns one row per point. The arithmetic is :mod:`.sampling`'s, operation
for operation, in float64 (texel index and weight per axis, the four-texel bilinear sum in
its order, the trilinear and comparison sums skipping zero weights, the mip blend
``(1 - delta) * a + delta * b``), and the caller rounds the result to f32 once, as the
scalar path does: the two give bit-identical values. Points that use different mip levels
or filters (the level of detail decides between ``mag_filter`` and ``min_filter``) are
filtered in groups, one group per (level, filter).

The level of detail of the implicit-LOD built-ins comes from the derivatives of the
normalized coordinates: :func:`quad_lods` takes them across each 2x2 quad (4 consecutive
points: top-left, top-right, bottom-left, bottom-right), fine or coarse, and
:func:`lod_from_gradients` turns derivative arrays into levels (Vulkan's isotropic rho).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from .builtins import _cube_gradients
from .resources import Sampler, TextureView
from .sampling import implicit_lod

_COMPARE = {"never": lambda r, d: np.zeros(np.broadcast(r, d).shape, bool),
            "less": np.less, "equal": np.equal, "less-equal": np.less_equal,
            "greater": np.greater, "not-equal": np.not_equal,
            "greater-equal": np.greater_equal,
            "always": lambda r, d: np.ones(np.broadcast(r, d).shape, bool)}


#: NaN and infinite coordinates and texels are values here as in the scalar path (a NaN
#: coordinate takes texel 0, an infinite texel weighted by 0 gives NaN): no warnings
_quiet = np.errstate(invalid="ignore", divide="ignore", over="ignore")


class Texels:
    """A bound texture view's levels decoded once for a run of many points: ``level(k)`` is
    the view's level ``k`` (relative to the view) as a (layers or depth, height, width, 4)
    array of shader values (g, b = 0 and a = 1 where the format has fewer channels), float32
    for float formats (the texels' values; the filtering's arithmetic with them is float64),
    uint32 or int32 for integer ones. A storage texture's levels are decoded on every read
    (``fresh=True``): a store earlier in the run shows."""

    def __init__(self, view: TextureView, fresh: bool = False) -> None:
        self.view, self.fresh = view, fresh
        self._levels: dict[int, np.ndarray] = {}

    def level(self, k: int) -> np.ndarray:
        got = self._levels.get(k)
        if got is None:
            got = decode_block(self.view, self.view.texture.block(self.view.base_mip_level + k))
            if not self.fresh:
                self._levels[k] = got
        return got


def decode_block(view: TextureView, block: np.ndarray) -> np.ndarray:
    """Host texels ``block`` (last axis the format's channels) as shader values padded to 4
    channels."""
    v = view.format.decode(block)
    if v.shape[-1] < 4:
        pad = np.zeros((*v.shape[:-1], 4 - v.shape[-1]), v.dtype)
        pad[..., -1] = 1
        v = np.concatenate([v, pad], axis=-1)
    return v


def wrap(i: np.ndarray, n: int, mode: str) -> np.ndarray:
    """Texel indices ``i`` (int64) of an axis of ``n`` texels under an address mode
    (:func:`.sampling.wrap`)."""
    if mode == "repeat":
        return i % n
    if mode == "mirror-repeat":
        m = i % (2 * n)
        return np.where(m < n, m, 2 * n - 1 - m)
    return np.clip(i, 0, n - 1)


def _floor(x: np.ndarray) -> np.ndarray:
    """``floor(x)`` as int64, 0 where ``x`` is not finite (:func:`.sampling._floor`)."""
    finite = np.isfinite(x)
    return np.where(finite, np.floor(np.where(finite, x, 0.0)), 0.0).astype(np.int64)


def nearest_tap(u: np.ndarray, n: int, mode: str, offset: int = 0) -> np.ndarray:
    """The texel index nearest filtering reads on one axis at normalized ``u``."""
    return wrap(_floor(u * n + offset), n, mode)


def linear_taps(u: np.ndarray, n: int, mode: str, offset: int = 0) -> tuple:
    """(first index, its weight, second index, its weight) of linear filtering on one axis
    at normalized ``u`` (:func:`.sampling.axis_taps`)."""
    x = u * n + offset
    x = x - 0.5
    i = _floor(x)
    a = np.where(np.isfinite(x), x - i, 0.0)
    return wrap(i, n, mode), 1.0 - a, wrap(i + 1, n, mode), a


@_quiet
def cube_faces(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> tuple:
    """The face (0..5: +X, -X, +Y, -Y, +Z, -Z) each direction selects and its (s, t)
    coordinates (:func:`.sampling.cube_face`)."""
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    on_x = (ax >= ay) & (ax >= az)
    on_y = ~on_x & (ay >= az)
    px, py, pz = x >= 0, y >= 0, z >= 0
    face = np.where(on_x, np.where(px, 0, 1), np.where(on_y, np.where(py, 2, 3),
                                                          np.where(pz, 4, 5)))
    sc = np.where(on_x, np.where(px, -z, z), np.where(on_y, x, np.where(pz, x, -x)))
    tc = np.where(on_x, -y, np.where(on_y, np.where(py, z, -z), -y))
    ma = np.where(on_x, ax, np.where(on_y, ay, az))
    zero = ma == 0
    safe = np.where(zero, 1.0, ma)
    s = np.where(zero, 0.5, 0.5 * (sc / safe + 1.0))
    t = np.where(zero, 0.5, 0.5 * (tc / safe + 1.0))
    return face.astype(np.int64), s, t


def normalized(view: TextureView, coords: Sequence[np.ndarray], layer: np.ndarray
               ) -> tuple[list, np.ndarray]:
    """The per-axis normalized coordinates and the absolute layer (a cube's face layer) of
    each point (:func:`.sampling.normalized`). An array index outside the view's layers (or
    cubes) is clamped into them, as Vulkan's sampling takes the layer (``clamp(a, 0,
    d - 1)``)."""
    cubes = view.dimension in ("cube", "cube-array")
    count = view.array_layer_count // 6 if cubes else view.array_layer_count
    layer = np.clip(layer, 0, count - 1)
    if cubes:
        face, s, t = cube_faces(*coords)
        return [s, t], view.base_array_layer + 6 * layer + face
    return list(coords), view.base_array_layer + layer


def _compared(texel: np.ndarray, compare: tuple) -> np.ndarray:
    """1.0 where ``op(ref, texel's first channel)`` holds, else 0.0, in all 4 channels."""
    op, ref = compare
    v = _COMPARE[op](ref, texel[:, 0]).astype(np.float64)
    return np.repeat(v[:, None], 4, axis=1)


def fetch(data: np.ndarray, z: Any, y: Any, x: Any) -> np.ndarray:
    """The texels ``data[z, y, x]`` (one row per point) of a (layers or depth, height,
    width, 4) level, gathered by flat index."""
    _, h, w, _ = data.shape
    return np.take(data.reshape(-1, 4), (np.asarray(z) * h + y) * w + x, axis=0)


def filter_level(texels: Texels, sampler: Sampler, uvw: list, layer: np.ndarray, level: int,
                 linear: bool, offset: Sequence[int] = (), compare: Any = None) -> np.ndarray:
    """The filtered texels (one row of 4 per point) of the view's level ``level``
    (:func:`.sampling.filter_level`)."""
    view = texels.view
    data = texels.level(level)
    w, h, d = view.size(level)
    off = [*list(offset), 0, 0, 0]
    modes = (sampler.address_mode_u, sampler.address_mode_v, sampler.address_mode_w)
    sizes = (w, h, d)
    if not linear:
        x = nearest_tap(uvw[0], w, modes[0], off[0])
        y = nearest_tap(uvw[1], h, modes[1], off[1]) if len(uvw) > 1 else 0
        z = nearest_tap(uvw[2], d, modes[2], off[2]) if len(uvw) > 2 else layer
        texel = fetch(data, z, y, x)
        return _compared(texel, compare) if compare else texel
    taps = [linear_taps(uvw[k], sizes[k], modes[k], off[k]) for k in range(len(uvw))]
    if len(uvw) == 2 and not compare:  # bilinear, in sampling.py's order
        (x0, a0, x1, a1), (y0, b0, y1, b1) = taps
        row0, row1 = (layer * h + y0) * w, (layer * h + y1) * w
        t00, t10 = fetch(data, 0, 0, row0 + x0), fetch(data, 0, 0, row0 + x1)
        t01, t11 = fetch(data, 0, 0, row1 + x0), fetch(data, 0, 0, row1 + x1)
        w00, w10, w01, w11 = a0 * b0, a1 * b0, a0 * b1, a1 * b1
        return (w00[:, None] * t00 + w10[:, None] * t10 + w01[:, None] * t01
                + w11[:, None] * t11)
    one = ((np.int64(0), 1.0),)
    pairs = [((i0, a0), (i1, a1)) for i0, a0, i1, a1 in taps]
    xs = pairs[0]
    ys = pairs[1] if len(uvw) > 1 else one
    zs = pairs[2] if len(uvw) > 2 else ((layer, 1.0),)
    acc = np.zeros((len(layer) if np.ndim(layer) else len(uvw[0]), 4))
    for z, wz in zs:
        for y, wy in ys:
            for x, wx in xs:
                weight = np.broadcast_to(np.asarray(wz * wy) * wx, acc.shape[:1])
                t = fetch(data, z, y, x)
                if compare:
                    t = _compared(t, compare)
                acc = np.where((weight != 0)[:, None], acc + weight[:, None] * t, acc)
    return acc


def _by_groups(texels: Texels, sampler: Sampler, uvw: list, layer: np.ndarray,
               level: np.ndarray, linear: np.ndarray, offset: Sequence[int],
               compare: Any) -> np.ndarray:
    """:func:`filter_level` for each point at its own level and filter: one call per
    (level, filter) the points use."""
    keys = level * 2 + linear
    first = keys.flat[0] if keys.size else 0
    if keys.size == 0 or (keys == first).all():
        return filter_level(texels, sampler, uvw, layer, int(first) // 2, bool(first % 2),
                            offset, compare)
    out = np.zeros((keys.size, 4))
    for key in np.unique(keys):
        pick = np.flatnonzero(keys == key)
        sub = compare and (compare[0], np.broadcast_to(compare[1], keys.shape)[pick])
        out[pick] = filter_level(texels, sampler, [u[pick] for u in uvw], layer[pick],
                                 int(key) // 2, bool(key % 2), offset, sub)
    return out


@_quiet
def sample(texels: Texels, sampler: Sampler, coords: Sequence[np.ndarray],
           layer: np.ndarray, lod: np.ndarray, offset: Sequence[int] = (),
           compare: Any = None) -> np.ndarray:
    """The sampler's filtered values (one row of 4 per point, float64) at ``coords``
    (normalized; directions for cubes), array ``layer`` and level of detail ``lod`` (bias
    added); ``compare`` is (compare function name, reference per point) for a depth
    comparison (:func:`.sampling.sample`)."""
    view = texels.view
    n = len(coords[0])
    layer = np.broadcast_to(np.asarray(layer, np.int64), (n,))
    uvw, layer = normalized(view, coords, layer)
    lod = np.broadcast_to(np.asarray(lod, np.float64), (n,))
    lam = np.where(np.isnan(lod), sampler.lod_min_clamp,
                   np.minimum(np.maximum(lod, sampler.lod_min_clamp), sampler.lod_max_clamp))
    linear = np.where(lam <= 0, sampler.mag_filter == "linear",
                      sampler.min_filter == "linear").astype(np.int64)
    q = view.mip_level_count - 1
    d = np.minimum(np.maximum(lam, 0.0), float(q))
    if sampler.mipmap_filter == "nearest":
        level = (np.ceil(d + 0.5) - 1).astype(np.int64)
        return _by_groups(texels, sampler, uvw, layer, level, linear, offset,
                          compare).astype(np.float64, copy=False)
    lo = np.floor(d)
    delta = d - lo
    lo = lo.astype(np.int64)
    first = _by_groups(texels, sampler, uvw, layer, lo, linear, offset, compare)
    blend = np.flatnonzero(delta != 0)
    if not blend.size:
        return first.astype(np.float64, copy=False)
    sub = compare and (compare[0], np.broadcast_to(compare[1], (n,))[blend])
    second = _by_groups(texels, sampler, [u[blend] for u in uvw], layer[blend],
                        np.minimum(lo[blend] + 1, q), linear[blend], offset, sub)
    dl = delta[blend][:, None]
    out = first.astype(np.float64)
    out[blend] = (1.0 - dl) * first[blend] + dl * second
    return out


@_quiet
def gather(texels: Texels, sampler: Sampler, coords: Sequence[np.ndarray], layer: np.ndarray,
           component: int, offset: Sequence[int] = (), compare: Any = None) -> np.ndarray:
    """WGSL textureGather over points: component ``component`` of the four texels of each
    bilinear footprint at the view's base level, as (i0 j1, i1 j1, i1 j0, i0 j0); a row of 4
    per point (:func:`.sampling.gather`)."""
    view = texels.view
    n = len(coords[0])
    layer = np.broadcast_to(np.asarray(layer, np.int64), (n,))
    uvw, layer = normalized(view, coords, layer)
    data = texels.level(0)
    w, h, _ = view.size(0)
    off = [*list(offset), 0, 0]
    i0, _, i1, _ = linear_taps(uvw[0], w, sampler.address_mode_u, off[0])
    j0, _, j1, _ = linear_taps(uvw[1], h, sampler.address_mode_v, off[1])
    texels4 = [data[layer, j1, i0], data[layer, j1, i1], data[layer, j0, i1],
               data[layer, j0, i0]]
    if compare:
        return np.stack([_compared(t, compare)[:, 0] for t in texels4], axis=1)
    return np.stack([t[:, component] for t in texels4], axis=1)


#: Python's ``x ** 2`` and ``math.log2`` over arrays of Python floats: the C library's
#: ``pow`` and ``log2``, which the scalar path calls and numpy's own differ from in the last
#: bit for about one value in a thousand
_POW = np.frompyfunc(operator.pow, 2, 1)
_LOG2 = np.frompyfunc(math.log2, 1, 1)


def lod_from_gradients(view: TextureView, ddx: Sequence[np.ndarray],
                       ddy: Sequence[np.ndarray], coords: Sequence[np.ndarray] = ()
                       ) -> np.ndarray:
    """The level of detail of each point from the derivatives of its coordinates (one array
    per axis): Vulkan's isotropic rho, the larger of the two gradient lengths scaled by the
    view's base level size (:func:`.sampling.implicit_lod`, computed as the scalar path
    computes it). float64 derivatives (of normalized coordinates, which the scalar path holds
    as Python floats) are computed over the arrays, with the C library's ``pow`` and
    ``log2``; float32 ones (a WGSL ``vecNf``'s components, whose arithmetic the scalar path
    runs in numpy's float32 scalars) and a cube's (``coords`` given: its derivatives are of
    the direction and become derivatives of the face coordinates first) go to the scalar
    path's own functions once per distinct set of values."""
    parts = [np.asarray(a) for a in (*ddx, *ddy)]
    dtype = np.result_type(*parts)
    if dtype == np.float64 and not len(coords):
        size = view.size(0)
        rx, ry = (np.sqrt(sum(_POW((np.asarray(a, np.float64) * n).astype(object), 2)
                              .astype(np.float64) for a, n in zip(d, size)))
                  for d in (ddx, ddy))
        rho = np.where(ry > rx, ry, rx)  # (Python's max(rx, ry), NaN included)
        lod = np.full(rho.shape, -math.inf)
        positive = rho > 0
        lod[positive] = _LOG2(rho[positive].astype(object)).astype(np.float64)
        return lod
    scalar = float if dtype == np.float64 else np.dtype(dtype).type
    columns = [np.asarray(c, dtype).tolist() for c in coords] + \
        [a.astype(dtype).tolist() for a in parts]
    keys = list(zip(*columns))
    k, c = len(ddx), len(coords)
    lods: dict[tuple, float] = dict.fromkeys(keys)
    for key in lods:
        dx = [scalar(v) for v in key[c:c + k]]
        dy = [scalar(v) for v in key[c + k:]]
        if c:
            dx, dy = _cube_gradients(list(key[:c]), dx, dy)
        lods[key] = implicit_lod(view, dx, dy)
    return np.array([lods[key] for key in keys], np.float64)


@_quiet
def quad_lods(view: TextureView, coords: Sequence[np.ndarray], layer: np.ndarray,
              fine: bool) -> np.ndarray:
    """The implicit level of detail of each point, the points being 2x2 quads (4 consecutive
    points: top-left, top-right, bottom-left, bottom-right): the differences of the
    normalized coordinates across the quad (fine: each point's own row and column; coarse:
    the quad's top-left point's), as textureSample's quad rendezvous takes them."""
    n = len(coords[0])
    uv, _ = normalized(view, coords, np.broadcast_to(np.asarray(layer, np.int64), (n,)))
    quads = [np.asarray(u, np.float64).reshape(-1, 4) for u in uv]
    point = np.arange(4)
    if fine:
        row, col = point & 2, point & 1
        dx = [(q[:, row + 1] - q[:, row]).reshape(-1) for q in quads]
        dy = [(q[:, col + 2] - q[:, col]).reshape(-1) for q in quads]
    else:  # (one level per quad, for its four points)
        dx = [q[:, 1] - q[:, 0] for q in quads]
        dy = [q[:, 2] - q[:, 0] for q in quads]
        return np.repeat(lod_from_gradients(view, dx, dy), 4)
    return lod_from_gradients(view, dx, dy)
