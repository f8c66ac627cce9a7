"""The WGSL texture built-ins (§17.7) that need no quad: the queries, ``textureLoad``,
``textureStore``, and the sampling functions with an explicit level of detail or gradients.
The implicit-LOD ones (``textureSample``, ``textureSampleBias``, ``textureSampleCompare``) are
quad operations, in :mod:`asyncshader.collectives.textures`.

Arguments come in WGSL's order: the texture, the sampler, the coordinates, the array index for
arrayed textures, then the function's own (level, bias, gradients, depth reference), then an
optional ``offset`` (a vec2i with components in [-8, 7], in texels of the sampled level).

Out-of-bounds ``texture_load`` (coordinates, level, array index or sample index outside the
texture) returns zero, one of the results WGSL allows ("a value of the texture or zero");
an out-of-bounds ``texture_store`` writes nothing, as WGSL allows.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..._core.context import current_run
from ...errors import ShaderTypeError
from ..types import Vec, f32, u32, vec2f, vec2i, vec2u, vec3u, vec4f, vec4i, vec4u
from .annotations import BoundTexture
from .prepared import prepare, prepare_load
from .resources import Sampler
from .sampling import compare_op, cube_face, gather, implicit_lod, sample

#: an argument not given (the built-ins on the hot paths take their optional arguments as
#: parameters with this default rather than ``*args``: Python calls such a function quicker)
_ABSENT: Any = object()
#: the key of the prepared loader among a view's prepared samplers
_LOADER = "texture_load"
_ARRAYED = ("2d-array", "cube-array")
_NO_OFFSET = ("1d", "cube", "cube-array")
_RESULT = {"f32": vec4f, "i32": vec4i, "u32": vec4u}
_COORDS = {"1d": 1, "2d": 2, "2d-array": 2, "3d": 3, "cube": 3, "cube-array": 3}


def texture_arg(fn: str, t: Any) -> BoundTexture:
    if not isinstance(t, BoundTexture):
        raise ShaderTypeError(f"{fn}(): the first argument must be a texture binding (a "
                              f"parameter annotated ash.Texture2D[...] etc.), not "
                              f"{type(t).__name__}")
    return t


def sampler_arg(fn: str, s: Any, comparison: bool) -> Sampler:
    if not isinstance(s, Sampler):
        raise ShaderTypeError(f"{fn}(): the sampler argument must be an ash.Sampler binding, "
                              f"not {type(s).__name__}")
    if comparison != s.is_comparison:
        want = "a sampler_comparison (ash.Sampler(compare=...), annotated " \
               "ash.SamplerComparison)" if comparison else "a plain sampler (no compare=)"
        raise ShaderTypeError(f"{fn}() needs {want}")
    return s


def coords_arg(fn: str, t: BoundTexture, c: Any) -> list:
    n = _COORDS[t.view.dimension]
    values = [float(v) for v in c] if isinstance(c, Vec) else [float(c)]
    if len(values) != n:
        raise ShaderTypeError(f"{fn}(): a {t.kind.wgsl()} takes {n}-component coordinates, "
                              f"got {c!r}")
    return values


def split_args(fn: str, t: BoundTexture, args: Sequence[Any], own: int) -> tuple[int, list, list]:
    """(array index, the function's own arguments, offset) from the arguments after the
    coordinates."""
    arrayed = t.view.dimension in _ARRAYED
    need = own + arrayed
    if len(args) not in (need, need + 1):
        offset = "" if t.view.dimension in _NO_OFFSET else " and an optional offset"
        raise ShaderTypeError(f"{fn}(): a {t.kind.wgsl()} takes {need} argument(s) after the "
                              f"coordinates{' (the array index first)' if arrayed else ''}"
                              f"{offset}, got "
                              f"{len(args)}")
    layer = int(args[0]) if arrayed else 0
    offset = _offset(fn, t, args[need]) if len(args) > need else []
    return layer, list(args[arrayed:need]), offset


def _offset(fn: str, t: BoundTexture, off: Any) -> list:
    if t.view.dimension in _NO_OFFSET:
        raise ShaderTypeError(f"{fn}(): a {t.kind.wgsl()} takes no offset")
    values = [int(v) for v in (off if isinstance(off, Vec) else [off])]
    if len(values) != _COORDS[t.view.dimension] or not all(-8 <= v <= 7 for v in values):
        raise ValueError(f"{fn}(): offset {off!r} must be a const vec{_COORDS[t.view.dimension]}i "
                         "with each component in [-8, 7] (WGSL's shader-creation rule)")
    return values


def result_value(t: BoundTexture, values: list) -> Any:
    if t.kind.depth:
        return f32(values[0])
    return _RESULT[t.view.format.sample_type](*values)


def texture_dimensions(t: Any, level: Any = 0) -> Any:
    """WGSL ``textureDimensions(t[, level])``: the size of mip level ``level`` (u32 for 1d,
    vec2u for 2d, arrays and cubes, vec3u for 3d). A level past the view's chain raises."""
    t = texture_arg("texture_dimensions", t)
    level = int(level)
    if not 0 <= level < t.view.mip_level_count:
        raise ValueError(f"texture_dimensions({t.name}, {level}): the level is outside the "
                         f"view's {t.view.mip_level_count} mip levels (WGSL: the result is "
                         f"indeterminate). Fix: pass a level below texture_num_levels()")
    w, h, d = t.view.size(level)
    dim = t.view.dimension
    return u32(w) if dim == "1d" else vec3u(w, h, d) if dim == "3d" else vec2u(w, h)


def texture_num_levels(t: Any) -> Any:
    """WGSL ``textureNumLevels(t)``: the view's mip level count."""
    return u32(texture_arg("texture_num_levels", t).view.mip_level_count)


def texture_num_samples(t: Any) -> Any:
    """WGSL ``textureNumSamples(t)``: the samples per texel of a multisampled texture."""
    t = texture_arg("texture_num_samples", t)
    if not t.kind.multisampled:
        raise ShaderTypeError(f"texture_num_samples() takes a multisampled texture, not "
                              f"{t.kind.wgsl()}")
    return u32(t.texture.sample_count)


def texture_num_layers(t: Any) -> Any:
    """WGSL ``textureNumLayers(t)``: array layers of an array texture (cubes of a cube array)."""
    t = texture_arg("texture_num_layers", t)
    if t.view.dimension not in _ARRAYED:
        raise ShaderTypeError(f"texture_num_layers() takes an array texture, not "
                              f"{t.kind.wgsl()}")
    n = t.view.array_layer_count
    return u32(n // 6 if t.view.dimension == "cube-array" else n)


def _texel_index(t: BoundTexture, coords: list, layer: int, level: int) -> tuple | None:
    """(z, y, x) of a texel in the texture's level block, or None out of bounds."""
    v = t.view
    if not 0 <= level < v.mip_level_count:
        return None
    w, h, d = v.size(level)
    xyz = [int(c) for c in coords] + [0, 0]
    if not (0 <= xyz[0] < w and 0 <= xyz[1] < h and 0 <= xyz[2] < d):
        return None
    if v.dimension == "3d":
        return xyz[2], xyz[1], xyz[0]
    layers = v.array_layer_count
    if not 0 <= layer < layers:
        return None
    return v.base_array_layer + layer, xyz[1], xyz[0]


def texture_load(t: Any, coords: Any, arg2: Any = _ABSENT, arg3: Any = _ABSENT) -> Any:
    """WGSL ``textureLoad(t, coords[, array_index][, level])``: the texel at integer
    ``coords`` of level ``level``, without a sampler; storage textures (access read or
    read_write) take no level. Out of bounds: zero."""
    if arg3 is _ABSENT and isinstance(coords, (vec2i, vec2u)):
        try:  # (a 2d view of a sampled texture: the prepared loader)
            fn = t.prepared[_LOADER]
        except (AttributeError, KeyError):
            fn = prepared_loader(t)
        if fn is not None and arg2 is not _ABSENT:
            return fn(coords, arg2)
    return load_texel(t, coords, tuple(a for a in (arg2, arg3) if a is not _ABSENT))


def prepared_loader(t: Any) -> Any:
    """The prepared ``texture_load`` (:func:`.prepared.prepare_load`) of bound texture ``t``,
    made on first use and kept with the texture; None where there is none."""
    if not isinstance(t, BoundTexture):
        return None
    fn = t.prepared[_LOADER] = prepare_load(t.view, t.kind)
    return fn


def load_texel(t: Any, coords: Any, args: tuple) -> Any:
    """``texture_load`` of any texture: ``args`` the arguments after the coordinates."""
    t = texture_arg("texture_load", t)
    c = coords_arg("texture_load", t, coords)
    kind = t.kind
    if kind.storage and kind.access == "write":
        raise ShaderTypeError(f"texture_load({t.name}): {kind.wgsl()} is write-only. Fix: "
                              f"declare access 'read_write' (or 'read')")
    if t.view.dimension in ("cube", "cube-array"):
        raise ShaderTypeError(f"texture_load() takes no cube texture ({kind.wgsl()})")
    own = 0 if kind.storage else 1
    arrayed = t.view.dimension in _ARRAYED
    if len(args) != own + arrayed:
        last = "" if kind.storage else "the sample index" if kind.multisampled else "the level"
        raise ShaderTypeError(f"texture_load(): a {kind.wgsl()} takes "
                              f"{'the array index, ' if arrayed else ''}{last} after the "
                              "coordinates")
    layer = int(args[0]) if arrayed else 0
    level = int(args[-1]) if own else 0
    if kind.multisampled:  # (the samples are the block's first axis; one level)
        layer, level = level, 0
        where = _texel_index(t, c, 0, 0) if 0 <= layer < t.texture.sample_count else None
        where = where and (layer, *where[1:])
    else:
        where = _texel_index(t, c, layer, level)
    if where is None:
        return result_value(t, [0, 0, 0, 0])
    if kind.storage:  # read the memory itself: a texture_store earlier in the run shows
        block = t.texture.block(t.view.base_mip_level + level)
        _accessed(t, block, where, "load")
        texel = t.texture.format.decode(block[where][None])[0].tolist()
        return result_value(t, texel + [0, 0, 0, 1][len(texel):])
    z, y, x = where
    return result_value(t, list(t.texture.decoded(t.view.base_mip_level + level)[z][y][x]))


def texture_store(t: Any, coords: Any, *args: Any) -> None:
    """WGSL ``textureStore(t, coords[, array_index], value)``: converts ``value`` to the storage
    texture's format and writes it into the texture's host array. Out of bounds: no write."""
    t = texture_arg("texture_store", t)
    kind = t.kind
    if not kind.storage or kind.access == "read":
        raise ShaderTypeError(f"texture_store({t.name}): {kind.wgsl()} cannot be written. Fix: "
                              "declare a storage texture with access 'write' or 'read_write' "
                              "(ash.StorageTexture2D['rgba8unorm', 'write'])")
    c = coords_arg("texture_store", t, coords)
    arrayed = t.view.dimension in _ARRAYED
    if len(args) != 1 + arrayed:
        raise ShaderTypeError(f"texture_store(): a {kind.wgsl()} takes "
                              f"{'the array index and ' if arrayed else ''}the value after the "
                              "coordinates")
    value = args[-1]
    sample_type = t.view.format.sample_type
    if not (isinstance(value, Vec) and value.size == 4 and value.kind == sample_type[0]):
        raise ShaderTypeError(f"texture_store({t.name}): a {kind.wgsl()} stores a "
                              f"{_RESULT[sample_type].__name__}, got {value!r}")
    where = _texel_index(t, c, int(args[0]) if arrayed else 0, 0)
    if where is None:
        return
    fmt = t.texture.format
    encoded = fmt.encode(np.array(list(value)[:fmt.channels]))
    block = t.texture.block(t.view.base_mip_level)
    if _by_helper(t, block):
        return
    block[where] = encoded
    _accessed(t, block, where, "store")  # (after the store: the detector notes the value)
    t.texture.changed()


def _by_helper(t: BoundTexture, block: np.ndarray) -> bool:
    """Whether the running invocation is a fragment helper (an uncovered pixel of a covered
    quad, the padding, a discarded pixel), whose stores have no effect (WGSL); its store is
    counted and noted as a storage buffer's is (a HelperSideEffect finding)."""
    run = current_run()
    calling = getattr(run, "calling_helper", None)  # (a fragment run's)
    inv = calling(sys._getframe(2)) if calling is not None else None
    if inv is None:
        return False
    run.suppressed_writes += 1
    run.name_texture(block, t.name)
    run.helper_effect(inv, block, "store")
    return True


def _accessed(t: BoundTexture, block: np.ndarray, where: tuple, kind: str) -> None:
    """Reports a storage texture's texel access to the running dispatch's race detector (the
    handle address space, ordered by texture_barrier)."""
    run = current_run()
    if run is not None and getattr(run, "detector", None) is not None:
        run.texture_access(block, where, kind, t.name)


def prepared_sampler(t: Any, s: Any) -> Any:
    """The prepared sampler (:mod:`.prepared`) of bound texture ``t`` with sampler ``s``, made
    on first use and kept with the texture; None where there is none (the general path, and
    its checks, take the call)."""
    try:
        return t.prepared[s]
    except KeyError:
        pass
    except (AttributeError, TypeError):  # (not a bound texture, not a sampler)
        return None
    if not isinstance(s, Sampler):
        return None
    fn = t.prepared[s] = None if t.kind.storage or t.kind.multisampled else \
        prepare(t.view, s, t.kind.depth)
    return fn


def texture_sample_level(t: Any, s: Any, coords: Any, arg3: Any = _ABSENT,
                         arg4: Any = _ABSENT, arg5: Any = _ABSENT) -> Any:
    """WGSL ``textureSampleLevel(t, s, coords[, array_index], level[, offset])``: sampled at
    mip level ``level`` (f32, fractional levels blend with mipmap_filter='linear'; i32 for
    depth textures)."""
    if isinstance(coords, vec2f) and arg4 is _ABSENT:  # (a 2d view, no offset: prepared)
        try:
            fn = t.prepared[s]
        except (AttributeError, KeyError, TypeError):
            fn = prepared_sampler(t, s)
        if fn is not None and arg3 is not _ABSENT:
            return fn(coords.x, coords.y, arg3)
    args = tuple(a for a in (arg3, arg4, arg5) if a is not _ABSENT)
    t = texture_arg("texture_sample_level", t)
    s = sampler_arg("texture_sample_level", s, False)
    c = coords_arg("texture_sample_level", t, coords)
    layer, (level,), offset = split_args("texture_sample_level", t, args, 1)
    return result_value(t, sample(t.view, s, c, layer, float(level), offset))


def texture_sample_grad(t: Any, s: Any, coords: Any, *args: Any) -> Any:
    """WGSL ``textureSampleGrad(t, s, coords[, array_index], ddx, ddy[, offset])``: the level of
    detail from the given derivatives of the coordinates."""
    t = texture_arg("texture_sample_grad", t)
    s = sampler_arg("texture_sample_grad", s, False)
    c = coords_arg("texture_sample_grad", t, coords)
    layer, (ddx, ddy), offset = split_args("texture_sample_grad", t, args, 2)
    dx = list(ddx) if isinstance(ddx, Vec) else [ddx]
    dy = list(ddy) if isinstance(ddy, Vec) else [ddy]
    if t.view.dimension in ("cube", "cube-array"):
        dx, dy = _cube_gradients(c, dx, dy)
    return result_value(t, sample(t.view, s, c, layer, implicit_lod(t.view, dx, dy), offset))


def _cube_gradients(c: list, dx: list, dy: list) -> tuple[list, list]:
    """Gradients of a cube direction as gradients of its face coordinates (finite
    differences of the face projection)."""
    _, s0, t0 = cube_face(*c)
    out = []
    for d in (dx, dy):
        _, s1, t1 = cube_face(*(a + b for a, b in zip(c, d)))
        out.append([s1 - s0, t1 - t0])
    return out[0], out[1]


def texture_sample_compare_level(t: Any, s: Any, coords: Any, *args: Any) -> Any:
    """WGSL ``textureSampleCompareLevel(t, s, coords[, array_index], depth_ref[, offset])``:
    depth comparison at mip level 0, filtered (1.0 where ``depth_ref`` passes the sampler's
    compare function against the texel)."""
    t = texture_arg("texture_sample_compare_level", t)
    s = sampler_arg("texture_sample_compare_level", s, True)
    c = coords_arg("texture_sample_compare_level", t, coords)
    layer, (ref,), offset = split_args("texture_sample_compare_level", t, args, 1)
    return f32(sample(t.view, s, c, layer, 0.0, offset, (compare_op(s), float(ref)))[0])


def texture_gather(*args: Any) -> Any:
    """WGSL ``textureGather([component,] t, s, coords[, array_index][, offset])``: the
    ``component`` channel (0..3; none for depth textures) of the four texels bilinear filtering
    would read at the base level, as (i0 j1, i1 j1, i1 j0, i0 j0)."""
    component = 0
    if args and not isinstance(args[0], BoundTexture):
        component, args = int(args[0]), args[1:]
        if not 0 <= component <= 3:
            raise ValueError(f"texture_gather(): component {component} must be 0..3")
    t = texture_arg("texture_gather", args[0] if args else None)
    s = sampler_arg("texture_gather", args[1], False)
    c = coords_arg("texture_gather", t, args[2])
    layer, _, offset = split_args("texture_gather", t, args[3:], 0)
    values = gather(t.view, s, c, layer, component, offset)
    return vec4f(*values) if t.kind.depth else _RESULT[t.view.format.sample_type](*values)


def texture_gather_compare(t: Any, s: Any, coords: Any, *args: Any) -> Any:
    """WGSL ``textureGatherCompare(t, s, coords[, array_index], depth_ref[, offset])``: the
    comparison results of the four texels textureGather would return."""
    t = texture_arg("texture_gather_compare", t)
    s = sampler_arg("texture_gather_compare", s, True)
    c = coords_arg("texture_gather_compare", t, coords)
    layer, (ref,), offset = split_args("texture_gather_compare", t, args, 1)
    return vec4f(*gather(t.view, s, c, layer, 0, offset, (compare_op(s), float(ref))))


def texture_sample_base_clamp_to_edge(t: Any, s: Any, coords: Any) -> Any:
    """WGSL ``textureSampleBaseClampToEdge(t, s, coords)``: a texture_2d<f32> sampled at its
    base level with the coordinates clamped to half a texel inside the edges."""
    t = texture_arg("texture_sample_base_clamp_to_edge", t)
    s = sampler_arg("texture_sample_base_clamp_to_edge", s, False)
    c = coords_arg("texture_sample_base_clamp_to_edge", t, coords)
    if t.view.dimension != "2d":
        raise ShaderTypeError("texture_sample_base_clamp_to_edge() takes a texture_2d<f32>")
    w, h, _ = t.view.size(0)
    c = [min(max(float(c[0]), 0.5 / w), 1 - 0.5 / w), min(max(float(c[1]), 0.5 / h),
                                                           1 - 0.5 / h)]
    prepared = prepared_sampler(t, s)
    if prepared is not None:
        return prepared(c[0], c[1], 0.0)
    return result_value(t, sample(t.view, s, c, 0, 0.0))
