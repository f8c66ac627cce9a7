"""Filtering: what a sampler reads from a texture view at normalized coordinates, by Vulkan's
texel filtering rules (Vulkan §16 "Image Operations", which WebGPU's sampling follows).

* Level of detail: ``lambda = clamp(lod + bias, lod_min_clamp, lod_max_clamp)``; ``lambda <= 0``
  magnifies (``mag_filter``), else minifies (``min_filter``). The level ``d = clamp(lambda, 0,
  q)`` (q the view's last level): ``mipmap_filter="nearest"`` takes level ``ceil(d + 0.5) - 1``
  (halves round down), ``"linear"`` blends levels ``floor(d)`` and ``floor(d) + 1`` by the
  fraction.
* Per level: ``x = u * width`` in texels; nearest takes texel ``floor(x)``, linear the two texels
  ``floor(x - 0.5)`` and the next one, weighted by the fraction; each index is wrapped by the
  axis' address mode (clamp-to-edge, repeat, mirror-repeat), per axis, before the fetch.
* Cube maps: the face is the direction's major axis (Vulkan's table: +X, -X, +Y, -Y, +Z, -Z are
  layers 0..5), face coordinates ``s = (sc / |ma| + 1) / 2``, ``t = (tc / |ma| + 1) / 2``; a
  filter footprint crossing a face edge is clamped to the face (GPUs filter across the seam, so
  linear filtering within half a texel of a face edge may differ from a GPU's).
* Depth comparison: each texel is replaced by 1.0 where ``ref <op> texel`` holds, else 0.0,
  before filtering (percentage-closer filtering).

Arithmetic is done in double and rounded once to f32 by the caller; GPUs quantize the filter
weights (lavapipe to 8 bits of subtexel precision), so results agree with a GPU within the
tolerance docs/textures.md states. Anisotropic filtering is isotropic here, as WebGPU allows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from .resources import Sampler, TextureView

_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "never": lambda r, d: False, "less": lambda r, d: r < d, "equal": lambda r, d: r == d,
    "less-equal": lambda r, d: r <= d, "greater": lambda r, d: r > d,
    "not-equal": lambda r, d: r != d, "greater-equal": lambda r, d: r >= d,
    "always": lambda r, d: True}


def wrap(i: int, n: int, mode: str) -> int:
    """Texel index ``i`` of an axis of ``n`` texels under an address mode."""
    if mode == "repeat":
        return i % n
    if mode == "mirror-repeat":
        m = i % (2 * n)
        return m if m < n else 2 * n - 1 - m
    return 0 if i < 0 else (n - 1 if i >= n else i)


def _floor(x: float) -> int:
    return math.floor(x) if math.isfinite(x) else 0


def axis_taps(u: float, n: int, mode: str, linear: bool, offset: int = 0) -> tuple:
    """The (texel index, weight) pairs one axis contributes at normalized coordinate ``u``."""
    x = u * n + offset
    if not linear:
        return ((wrap(_floor(x), n, mode), 1.0),)
    x -= 0.5
    i = _floor(x)
    a = x - i if math.isfinite(x) else 0.0
    return ((wrap(i, n, mode), 1.0 - a), (wrap(i + 1, n, mode), a))


def cube_face(x: float, y: float, z: float) -> tuple[int, float, float]:
    """The face (0..5: +X, -X, +Y, -Y, +Z, -Z) a direction selects and its (s, t) coordinates,
    by Vulkan's cube map face selection table."""
    ax, ay, az = abs(x), abs(y), abs(z)
    if ax >= ay and ax >= az:
        face, sc, tc, ma = (0, -z, -y, ax) if x >= 0 else (1, z, -y, ax)
    elif ay >= az:
        face, sc, tc, ma = (2, x, z, ay) if y >= 0 else (3, x, -z, ay)
    else:
        face, sc, tc, ma = (4, x, -y, az) if z >= 0 else (5, -x, -y, az)
    if ma == 0:
        return face, 0.5, 0.5
    return face, 0.5 * (sc / ma + 1.0), 0.5 * (tc / ma + 1.0)


def normalized(view: TextureView, coords: Sequence[float], layer: int) -> tuple[list, int]:
    """The per-axis normalized coordinates and the absolute layer (or cube face layer) a
    sample at ``coords`` reads: a cube's direction becomes its face's (s, t). An array index
    outside the view's layers (or cubes) is clamped to them, as Vulkan computes a sampled
    array layer (``clamp(RNE(a), 0, d - 1)``) and lavapipe does."""
    if view.dimension in ("2d-array", "cube-array"):
        count = view.array_layer_count // (6 if view.dimension == "cube-array" else 1)
        layer = min(max(layer, 0), count - 1)
    if view.dimension in ("cube", "cube-array"):
        face, s, t = cube_face(*coords)
        return [s, t], view.base_array_layer + 6 * layer + face
    return list(coords), view.base_array_layer + layer


def filter_level(view: TextureView, sampler: Sampler, uvw: list, layer: int, level: int,
                 linear: bool, offset: Sequence[int] = (), compare: Any = None) -> list:
    """The filtered texel (4 channels) of the view's level ``level`` (relative to the view)."""
    data = view.texture.decoded(view.base_mip_level + level)
    w, h, d = view.size(level)
    off = [*list(offset), 0, 0, 0]
    modes = (sampler.address_mode_u, sampler.address_mode_v, sampler.address_mode_w)
    xs = axis_taps(uvw[0], w, modes[0], linear, off[0])
    ys = axis_taps(uvw[1], h, modes[1], linear, off[1]) if len(uvw) > 1 else ((0, 1.0),)
    zs = axis_taps(uvw[2], d, modes[2], linear, off[2]) if len(uvw) > 2 else ((layer, 1.0),)
    if len(xs) == 1 and len(ys) == 1 and len(zs) == 1:
        texel = data[zs[0][0]][ys[0][0]][xs[0][0]]
        return _compared(texel, compare) if compare else list(texel)
    if len(zs) == 1 and len(xs) == 2 and len(ys) == 2 and not compare:  # bilinear, unrolled
        plane = data[zs[0][0]]
        (x0, a0), (x1, a1) = xs
        (y0, b0), (y1, b1) = ys
        r0, r1 = plane[y0], plane[y1]
        t00, t10, t01, t11 = r0[x0], r0[x1], r1[x0], r1[x1]
        w00, w10, w01, w11 = a0 * b0, a1 * b0, a0 * b1, a1 * b1
        return [w00 * t00[c] + w10 * t10[c] + w01 * t01[c] + w11 * t11[c] for c in range(4)]
    acc = [0.0, 0.0, 0.0, 0.0]
    for z, wz in zs:
        plane = data[z]
        for y, wy in ys:
            row = plane[y]
            for x, wx in xs:
                weight = wz * wy * wx
                if weight:
                    t = _compared(row[x], compare) if compare else row[x]
                    acc[0] += weight * t[0]
                    acc[1] += weight * t[1]
                    acc[2] += weight * t[2]
                    acc[3] += weight * t[3]
    return acc


def _compared(texel: Sequence[float], compare: tuple) -> list:
    op, ref = compare
    v = 1.0 if op(ref, texel[0]) else 0.0
    return [v, v, v, v]


def compare_op(sampler: Sampler) -> Callable[[float, float], bool]:
    """The comparison a ``sampler_comparison`` applies as ``op(ref, texel)``."""
    return _COMPARE[sampler.compare or "never"]


def sample(view: TextureView, sampler: Sampler, coords: Sequence[float], layer: int,
           lod: float, offset: Sequence[int] = (), compare: Any = None) -> list:
    """The sampler's filtered value at ``coords`` (normalized; a direction for cubes) with level
    of detail ``lod`` (bias already added): 4 channels as Python floats."""
    uvw, layer = normalized(view, coords, layer)
    lam = min(max(lod, sampler.lod_min_clamp), sampler.lod_max_clamp) \
        if not math.isnan(lod) else sampler.lod_min_clamp
    linear = (sampler.mag_filter if lam <= 0 else sampler.min_filter) == "linear"
    q = view.mip_level_count - 1
    d = min(max(lam, 0.0), float(q))
    if sampler.mipmap_filter == "nearest":
        return filter_level(view, sampler, uvw, layer, math.ceil(d + 0.5) - 1, linear, offset,
                            compare)
    lo = math.floor(d)
    delta = d - lo
    first = filter_level(view, sampler, uvw, layer, lo, linear, offset, compare)
    if delta == 0:
        return first
    second = filter_level(view, sampler, uvw, layer, min(lo + 1, q), linear, offset, compare)
    return [(1.0 - delta) * a + delta * b for a, b in zip(first, second)]


def gather(view: TextureView, sampler: Sampler, coords: Sequence[float], layer: int,
           component: int, offset: Sequence[int] = (), compare: Any = None) -> list:
    """WGSL textureGather: component ``component`` of the four texels of the bilinear footprint
    at the view's base level, in the order (i0, j1), (i1, j1), (i1, j0), (i0, j0)."""
    uvw, layer = normalized(view, coords, layer)
    data = view.texture.decoded(view.base_mip_level)
    w, h, _ = view.size(0)
    off = [*list(offset), 0, 0]
    (i0, _), (i1, _) = axis_taps(uvw[0], w, sampler.address_mode_u, True, off[0])
    (j0, _), (j1, _) = axis_taps(uvw[1], h, sampler.address_mode_v, True, off[1])
    plane = data[layer]
    texels = [plane[j1][i0], plane[j1][i1], plane[j0][i1], plane[j0][i0]]
    if compare:
        return [_compared(t, compare)[0] for t in texels]
    return [t[component] for t in texels]


def implicit_lod(view: TextureView, ddx: Sequence[float], ddy: Sequence[float]) -> float:
    """The level of detail from the derivatives of the normalized coordinates, scaled by the
    view's base level size (Vulkan's isotropic rho = max of the two scaled gradient lengths)."""
    size = view.size(0)
    rx = math.sqrt(sum((a * n) ** 2 for a, n in zip(ddx, size)))
    ry = math.sqrt(sum((a * n) ** 2 for a, n in zip(ddy, size)))
    rho = max(rx, ry)
    return math.log2(rho) if rho > 0 else -math.inf
