"""WGSL's implicit-LOD texture built-ins: ``textureSample``, ``textureSampleBias`` and
``textureSampleCompare``. Each is a rendezvous of the quad, like ``dpdx``
(:mod:`asyncshader.collectives.derivatives`): the four members (helpers included) deposit their
coordinates, and the level of detail of each comes from the differences of the normalized
coordinates across the quad, scaled by the texture's size (Vulkan's isotropic rho), fine or
coarse as the dispatch's ``derivatives=`` option says. Then each member samples with its own
coordinates and that level (plus its bias). A compute kernel without a derivative layout has
no quad to take derivatives in: these raise there (WGSL allows them in fragment shaders only;
a compute kernel with ``derivatives="quads"|"linear"`` may use them, as
VK_KHR_compute_shader_derivatives allows).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Generator
from typing import Any

from .._core.traps import rendezvous_kind, trap_function
from ..wgsl.textures.builtins import (
    coords_arg,
    prepared_sampler,
    result_value,
    sampler_arg,
    split_args,
    texture_arg,
)
from ..wgsl.textures.sampling import compare_op, implicit_lod, normalized, sample
from ..wgsl.types import f32
from .derivatives import DERIVATIVE_KINDS, derivative_kinds
from .quads import QUAD, QuadRendezvous


def _lods(values: list, fine: bool) -> list[float]:
    """Each member's implicit level of detail from the quad's normalized coordinates."""
    uv = [normalized(v[0].view, v[2], v[3])[0] for v in values]
    view = values[0][0].view
    out = []
    for lane in range(4):
        if fine:
            row, col = lane & 2, lane & 1
            dx = [b - a for a, b in zip(uv[row], uv[row + 1])]
            dy = [b - a for a, b in zip(uv[col], uv[col + 2])]
        else:
            dx = [b - a for a, b in zip(uv[0], uv[1])]
            dy = [b - a for a, b in zip(uv[0], uv[2])]
        out.append(implicit_lod(view, dx, dy))
    return out


def _resolver(fine: bool) -> Callable[[list, Any], list]:
    def resolve(values: list, group: Any) -> list:
        lods = _lods(values, fine)
        return [_finish(v, lod) for v, lod in zip(values, lods)]
    return resolve


def _finish(v: tuple, lod: float) -> Any:
    t, s, coords, layer, offset, bias, ref = v
    if ref is None:
        prepared = prepared_sampler(t, s) if not offset else None  # (2d views)
        if prepared is not None:
            return prepared(coords[0], coords[1], lod + bias)
        return result_value(t, sample(t.view, s, coords, layer, lod + bias, offset))
    return f32(sample(t.view, s, coords, layer, lod, offset,
                      (compare_op(s), ref))[0])


_KINDS = {mode: rendezvous_kind("texture_sample", QUAD, _resolver(mode == "fine"),
                                QuadRendezvous) for mode in ("coarse", "fine")}


def _mode() -> Any:
    kinds = DERIVATIVE_KINDS.get()
    if kinds is derivative_kinds("fine"):
        return _KINDS["fine"]
    if kinds is derivative_kinds("coarse"):
        return _KINDS["coarse"]
    return None


def _builtin(op: str, wgsl: str, own: int, bias: bool, comparison: bool,
             doc: str) -> Callable[..., Any]:
    @types.coroutine
    def texture_sample(t: Any, s: Any, coords: Any, *args: Any) -> Generator[Any, Any, Any]:
        t = texture_arg(op, t)
        s = sampler_arg(op, s, comparison)
        c = coords_arg(op, t, coords)
        layer, rest, offset = split_args(op, t, args, own)
        kind = _mode()
        if kind is None:
            raise TypeError(
                f"{op}() in a compute kernel without a derivative layout: the implicit level of "
                f"detail needs the quad's derivatives (WGSL allows {wgsl} in fragment shaders "
                f"only). Fix: use texture_sample_level(t, s, coords, level) with an explicit "
                f"level, or declare @compute(..., derivatives=\"quads\")")
        b = float(rest[0]) if bias else 0.0
        b = min(max(b, -16.0), 15.99)  # WGSL: bias must be in [-16.0, 15.99]
        ref = float(rest[0]) if comparison else None
        return (yield (kind, (t, s, c, layer, offset, b, ref)))
    texture_sample.__name__ = texture_sample.__qualname__ = op
    texture_sample.__doc__ = doc
    texture_sample.__module__ = __name__
    return trap_function(texture_sample)


texture_sample = _builtin(
    "texture_sample", "textureSample", 0, False, False,
    """WGSL ``textureSample(t, s, coords[, array_index][, offset])``: sampled with the level of
    detail the quad's derivatives of ``coords`` give. Await it; all four quad members must
    reach it (uniform control flow).""")
texture_sample_bias = _builtin(
    "texture_sample_bias", "textureSampleBias", 1, True, False,
    """WGSL ``textureSampleBias(t, s, coords[, array_index], bias[, offset])``: as
    texture_sample with ``bias`` added to the level of detail. Await it.""")
texture_sample_compare = _builtin(
    "texture_sample_compare", "textureSampleCompare", 1, False, True,
    """WGSL ``textureSampleCompare(t, s, coords[, array_index], depth_ref[, offset])``: a
    depth comparison filtered at the implicit level of detail. Await it.""")
