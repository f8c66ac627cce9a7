"""Texture and sampler resources, as WebGPU's ``GPUTexture``, ``GPUTextureView`` and
``GPUSampler`` describe them, held as numpy data.

* :class:`Texture` ``(levels, format="rgba8unorm", dimension="2d")``: one numpy array per mip
  level, shaped ``(width, C)`` for ``"1d"``, ``(height, width, C)`` for ``"2d"``,
  ``(layers, height, width, C)`` for a 2d texture with layers (array textures, cubes: 6 layers
  per cube) and ``(depth, height, width, C)`` for ``"3d"``; ``C`` the format's channels, the
  arrays of the format's host dtype (:mod:`.formats`). Level ``k`` is ``max(1, size >> k)``
  along each axis but the layers, as WebGPU's mip chain. The arrays are the texture's memory:
  a storage texture's ``texture_store`` writes into them; ``texture.levels[k] = array``
  replaces level ``k`` with an array of the same shape and dtype (a chain's sizes are fixed).
* :meth:`Texture.view` makes a :class:`TextureView` (``dimension``, ``base_mip_level``,
  ``mip_level_count``, ``base_array_layer``, ``array_layer_count``); a texture bound without a
  view is bound through WebGPU's default view.
* :class:`Sampler` ``(**descriptor)``: WebGPU's ``GPUSamplerDescriptor`` members in snake case,
  as wgpu-py spells them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .formats import TexelFormat, texel_format

_DIMENSIONS = ("1d", "2d", "3d")
VIEW_DIMENSIONS = ("1d", "2d", "2d-array", "cube", "cube-array", "3d")
_NDIM = {"1d": (2,), "2d": (3, 4), "3d": (4,)}
_SHAPES = {"1d": "(width, C)", "2d": "(height, width, C) or (layers, height, width, C)",
           "3d": "(depth, height, width, C)"}


class Texture:
    """A texture (WebGPU ``GPUTexture``): ``levels`` is a list with one numpy array per mip level
    (a single array is one level), ``format`` a WebGPU texel format name, ``dimension`` WebGPU's
    texture dimension ("1d", "2d" or "3d"). See the module docstring for the shapes."""

    def __init__(self, levels: Any, format: str = "rgba8unorm", dimension: str = "2d",
                 sample_count: int = 1) -> None:
        self.format: TexelFormat = texel_format(format)
        if dimension not in _DIMENSIONS:
            raise ValueError(f"Texture dimension {dimension!r} is not one of {_DIMENSIONS} "
                             "(WebGPU's GPUTextureDimension); for cube and array textures pass "
                             "dimension='2d' with a (layers, height, width, C) array and make a "
                             "view: texture.view(dimension='cube')")
        self.dimension = dimension
        if isinstance(levels, np.ndarray):
            levels = [levels]
        levels = list(levels)
        if not levels:
            raise ValueError("Texture needs at least one mip level: pass [array] or an array")
        self._levels = _Levels(self._check_level(k, a) for k, a in enumerate(levels))
        self._levels.texture = self
        #: samples per texel (WebGPU: 1, or 4 for a multisampled texture, whose one level is
        #: shaped (samples, height, width, C))
        self.sample_count = _check_samples(sample_count, dimension, self.levels)
        self.layered = dimension == "2d" and self.levels[0].ndim == 4 and sample_count == 1
        self._blocks = _blocks(self.levels)
        base = self._blocks[0].shape
        self.depth_or_array_layers, self.height, self.width = base[0], base[1], base[2]
        if sample_count > 1:
            self.depth_or_array_layers = 1  # (the block's first axis holds the samples)
        else:
            self._check_chain()
        self._decoded: dict[int, list] = {}
        self._decoded_from: dict[int, np.ndarray] = {}  # (the host values each was made from)
        self._prepared: dict[tuple, dict] = {}

    def _check_level(self, k: int, a: Any) -> np.ndarray:
        fmt = self.format
        if not isinstance(a, np.ndarray):
            raise TypeError(f"Texture mip level {k} is a {type(a).__name__}; each level is a "
                            f"numpy array shaped {_SHAPES[self.dimension]}")
        if a.ndim not in _NDIM[self.dimension] or a.shape[-1] != fmt.channels:
            raise ValueError(
                f"Texture mip level {k} has shape {a.shape}; a {self.dimension} texture of "
                f"format {fmt.name!r} needs {_SHAPES[self.dimension]} with C = {fmt.channels}. "
                f"Fix: reshape it (a single-channel image: arr[..., None])")
        if a.dtype != fmt.dtype:
            raise TypeError(
                f"Texture mip level {k} is a {a.dtype} array; format {fmt.name!r} holds "
                f"{fmt.dtype} (the values a GPU upload of its bytes gives). Fix: pass "
                f"arr.astype(np.{fmt.dtype})" + (" after scaling floats to 0..255"
                                                  if fmt.dtype == np.uint8 else ""))
        return a

    def _check_chain(self) -> None:
        w, h, d = self.width, self.height, self.depth_or_array_layers
        if self.dimension == "1d" and len(self.levels) > 1:
            raise ValueError("a 1d texture has one mip level (WebGPU: mipLevelCount must be 1 "
                             "for dimension '1d')")
        largest = max(w, h, d if self.dimension == "3d" else 1)
        if len(self.levels) > largest.bit_length():
            raise ValueError(f"Texture has {len(self.levels)} mip levels; a {w}x{h} texture "
                             f"has at most {largest.bit_length()} (down to 1x1)")
        for k, b in enumerate(self._blocks):
            want = (max(1, d >> k) if self.dimension == "3d" else d, max(1, h >> k),
                    max(1, w >> k))
            if b.shape[:3] != want:
                shape = self.levels[k].shape[:-1]
                raise ValueError(f"Texture mip level {k} is {shape}; level {k} of a chain "
                                 f"starting at {self.levels[0].shape[:-1]} must be "
                                 f"{want} "
                                 "(depth or layers, height, width): each level halves the "
                                 "previous one, rounding down, at least 1")

    @property
    def levels(self) -> list[np.ndarray]:
        """The mip levels' arrays, the texture's memory (``levels[k] = array`` replaces one)."""
        return self._levels

    @levels.setter
    def levels(self, levels: Any) -> None:
        raise TypeError(_FIXED)

    @property
    def mip_level_count(self) -> int:
        return len(self.levels)

    def size(self, level: int = 0) -> tuple[int, int, int]:
        """(width, height, depth or layers) of mip level ``level``."""
        d, h, w = self._blocks[level].shape[:3]
        return w, h, self.depth_or_array_layers if self.sample_count > 1 else d

    def block(self, level: int) -> np.ndarray:
        """Level ``level`` as a 4d view (depth, layers or samples, height, width, C) of the
        caller's array."""
        return self._blocks[level]

    def decoded(self, level: int) -> list:
        """Level ``level`` decoded to shader values, padded to 4 channels (g, b = 0, a = 1) as
        nested lists [layer][y][x] -> 4-tuple (kept until the texture changes: a
        texture_store, or a host write that :meth:`refresh` sees)."""
        got = self._decoded.get(level)
        if got is None:
            self._decoded_from[level] = self._blocks[level].copy()
            v = self.format.decode(self._blocks[level])
            if v.shape[-1] < 4:
                pad = np.zeros((*v.shape[:-1], 4 - v.shape[-1]), v.dtype)
                pad[..., -1] = 1
                v = np.concatenate([v, pad], axis=-1)
            got = self._decoded[level] = [[[tuple(p) for p in row] for row in layer]
                                          for layer in v.tolist()]
        return got

    def changed(self) -> None:
        """Forget the decoded levels and the prepared samplers (the host arrays were
        written)."""
        self._decoded.clear()
        self._decoded_from.clear()
        for prepared in self._prepared.values():
            prepared.clear()  # (in place: bound textures hold these dicts)

    def __getstate__(self) -> dict[str, Any]:
        """The texture without what it keeps for speed (decoded levels, prepared samplers:
        closures, which do not pickle) and without its 4d views of the levels, which a copy
        makes again over its own arrays (:meth:`__setstate__`)."""
        state = {**self.__dict__, "_decoded": {}, "_decoded_from": {}, "_prepared": {}}
        del state["_blocks"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._levels = _Levels(self._levels)
        self._levels.texture = self
        self._blocks = _blocks(self._levels)

    def refresh(self) -> None:
        """Forget what was decoded from host arrays that have been written since (a run
        binding the texture calls this, so that a write into ``levels`` between runs
        shows)."""
        for level, was in self._decoded_from.items():
            if not np.array_equal(was, self._blocks[level],
                                  equal_nan=was.dtype.kind == "f"):
                self.changed()
                return

    def prepared_for(self, view: TextureView) -> dict:
        """The prepared samplers of ``view`` (:mod:`.prepared`), by sampler: a dict the
        texture empties when it changes."""
        key = (view.dimension, view.base_mip_level, view.mip_level_count,
               view.base_array_layer, view.array_layer_count)
        return self._prepared.setdefault(key, {})

    def default_view_dimension(self) -> str:
        if self.dimension != "2d":
            return self.dimension
        return "2d-array" if self.depth_or_array_layers > 1 else "2d"

    def view(self, dimension: str | None = None, base_mip_level: int = 0,
             mip_level_count: int | None = None, base_array_layer: int = 0,
             array_layer_count: int | None = None) -> TextureView:
        """A view of the texture (WebGPU ``createView``): a range of mip levels and of array
        layers, seen as ``dimension`` ("2d-array", "cube" and "cube-array" of a layered 2d
        texture)."""
        return TextureView(self, dimension, base_mip_level, mip_level_count, base_array_layer,
                           array_layer_count)

    def __repr__(self) -> str:
        samples = f", {self.sample_count} samples" if self.sample_count > 1 else ""
        return (f"Texture({self.format.name}, {self.dimension}, {self.width}x{self.height}x"
                f"{self.depth_or_array_layers}, {self.mip_level_count} levels{samples})")


_FIXED = ("a texture's mip levels are fixed: replace one with texture.levels[k] = array of "
          "the same shape, or make a new ash.Texture with other levels")


class _Levels(list):
    """A texture's ``levels``: a list whose ``levels[k] = array`` replaces level ``k`` (an
    array of the same shape and dtype; the texture's 4d views and what it decoded follow), and
    that refuses to change its length (a mip chain is fixed: make a new Texture)."""

    texture: Texture

    def __setitem__(self, k: Any, a: Any) -> None:
        if not isinstance(k, (int, np.integer)):
            raise TypeError("texture.levels[k] = array replaces one level; a slice of levels "
                            "cannot be assigned (Fix: assign the levels one by one)")
        k = range(len(self))[k]  # (an IndexError out of range; a negative index counts back)
        t = self.texture
        t._check_level(k, a)
        if a.shape != self[k].shape:
            raise ValueError(f"texture.levels[{k}] = array: the array is shaped {a.shape}, "
                             f"level {k} is {self[k].shape}; a texture's size is fixed. Fix: "
                             "make a new ash.Texture with the new levels")
        list.__setitem__(self, k, a)
        t._blocks[k] = _blocks([a])[0]
        t.changed()

    def _fixed(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(_FIXED)

    __delitem__ = append = extend = insert = pop = remove = clear = _fixed
    __iadd__ = __imul__ = sort = reverse = _fixed

    def __reduce__(self) -> Any:  # (a copy or pickle of a texture is remade by __setstate__)
        return list, (list(self),)


def _blocks(levels: list[np.ndarray]) -> list[np.ndarray]:
    """Each level as a 4d view of its array (leading axes of 1 added): what texture_store
    writes through and what the caller sees."""
    return [a.reshape((1,) * (4 - a.ndim) + a.shape) for a in levels]


def _check_samples(sample_count: int, dimension: str, levels: list[np.ndarray]) -> int:
    """``sample_count`` where WebGPU allows it with these levels (a ValueError otherwise)."""
    if sample_count == 1:
        return 1
    if sample_count != 4:
        raise ValueError(f"Texture sample_count={sample_count}: WebGPU allows 1 or 4")
    if dimension != "2d" or len(levels) != 1 or levels[0].ndim != 4 or \
            levels[0].shape[0] != 4:
        shape = levels[0].shape
        raise ValueError(f"a multisampled texture (sample_count=4) is 2d with one mip level "
                         f"shaped (4, height, width, C), the samples first; got dimension "
                         f"{dimension!r}, {len(levels)} level(s) of shape {shape}")
    return 4


class TextureView:
    """A view of a :class:`Texture` (WebGPU ``GPUTextureView``); make it with
    :meth:`Texture.view`."""

    def __init__(self, texture: Texture, dimension: str | None, base_mip_level: int,
                 mip_level_count: int | None, base_array_layer: int,
                 array_layer_count: int | None) -> None:
        t = texture
        dimension = dimension or t.default_view_dimension()
        if dimension not in VIEW_DIMENSIONS:
            raise ValueError(f"view dimension {dimension!r} is not one of {VIEW_DIMENSIONS}")
        layers = t.depth_or_array_layers if t.dimension == "2d" else 1
        if mip_level_count is None:
            mip_level_count = t.mip_level_count - base_mip_level
        if array_layer_count is None:
            array_layer_count = {"2d": 1, "cube": 6}.get(dimension, layers - base_array_layer)
        if not (0 <= base_mip_level and 1 <= mip_level_count
                and base_mip_level + mip_level_count <= t.mip_level_count):
            last = base_mip_level + mip_level_count - 1
            raise ValueError(f"view mip levels {base_mip_level}..{last} are outside the "
                             f"texture's {t.mip_level_count} levels (0.."
                             f"{t.mip_level_count - 1})")
        if not (0 <= base_array_layer and 1 <= array_layer_count
                and base_array_layer + array_layer_count <= layers):
            raise ValueError(f"view array layers {base_array_layer}.."
                             f"{base_array_layer + array_layer_count - 1} are outside the "
                             f"texture's {layers} layers")
        compatible = {"1d": ("1d",), "3d": ("3d",),
                      "2d": ("2d", "2d-array", "cube", "cube-array")}[t.dimension]
        if dimension not in compatible:
            raise ValueError(f"a {t.dimension} texture has no {dimension!r} view (WebGPU allows "
                             f"{', '.join(compatible)})")
        if dimension == "2d" and array_layer_count != 1:
            raise ValueError("a '2d' view has one array layer: pass array_layer_count=1, or "
                             "dimension='2d-array'")
        if dimension in ("cube", "cube-array"):
            if (array_layer_count != 6 if dimension == "cube" else array_layer_count % 6):
                need = "6" if dimension == "cube" else "a multiple of 6"
                raise ValueError(f"a {dimension!r} view needs {need} array layers (faces "
                                 "+X, -X, +Y, -Y, +Z, -Z), not "
                                 f"{array_layer_count}")
            if t.width != t.height:
                raise ValueError(f"a cube view needs square faces; the texture is "
                                 f"{t.width}x{t.height}")
        self.texture, self.dimension = t, dimension
        self.base_mip_level, self.mip_level_count = base_mip_level, mip_level_count
        self.base_array_layer, self.array_layer_count = base_array_layer, array_layer_count
        self._sizes = [(w, h, d if dimension == "3d" else 1) for w, h, d in (
            t.size(base_mip_level + k) for k in range(mip_level_count))]

    @property
    def format(self) -> TexelFormat:
        return self.texture.format

    def size(self, level: int = 0) -> tuple[int, int, int]:
        """(width, height, depth) of the view's level ``level`` (depth 1 but for 3d)."""
        return self._sizes[level]

    def __repr__(self) -> str:
        return (f"TextureView({self.texture!r}, {self.dimension}, levels "
                f"{self.base_mip_level}+{self.mip_level_count}, layers "
                f"{self.base_array_layer}+{self.array_layer_count})")


def as_view(resource: Texture | TextureView) -> TextureView:
    """A bound texture's view: the resource itself, or a texture's default view."""
    return resource if isinstance(resource, TextureView) else resource.view()


ADDRESS_MODES = ("clamp-to-edge", "repeat", "mirror-repeat")
FILTERS = ("nearest", "linear")
COMPARE_FUNCTIONS = ("never", "less", "equal", "less-equal", "greater", "not-equal",
                     "greater-equal", "always")


class Sampler:
    """A sampler (WebGPU ``GPUSampler``), made from ``GPUSamplerDescriptor``'s members in snake
    case as wgpu-py spells them: ``address_mode_u``/``_v``/``_w`` ("clamp-to-edge", "repeat",
    "mirror-repeat"), ``mag_filter``, ``min_filter``, ``mipmap_filter`` ("nearest", "linear"),
    ``lod_min_clamp`` (0), ``lod_max_clamp`` (32), ``compare`` (None, or a compare function: a
    comparison sampler) and ``max_anisotropy`` (1 to 16; asyncshader filters isotropically, as
    WebGPU allows)."""

    def __init__(self, *, address_mode_u: str = "clamp-to-edge",
                 address_mode_v: str = "clamp-to-edge", address_mode_w: str = "clamp-to-edge",
                 mag_filter: str = "nearest", min_filter: str = "nearest",
                 mipmap_filter: str = "nearest", lod_min_clamp: float = 0.0,
                 lod_max_clamp: float = 32.0, compare: str | None = None,
                 max_anisotropy: int = 1, label: str = "") -> None:
        for member, value, allowed in (
                ("address_mode_u", address_mode_u, ADDRESS_MODES),
                ("address_mode_v", address_mode_v, ADDRESS_MODES),
                ("address_mode_w", address_mode_w, ADDRESS_MODES),
                ("mag_filter", mag_filter, FILTERS), ("min_filter", min_filter, FILTERS),
                ("mipmap_filter", mipmap_filter, FILTERS)):
            if value not in allowed:
                raise ValueError(f"Sampler {member}={value!r} is not one of "
                                 f"{', '.join(allowed)}")
        if compare is not None and compare not in COMPARE_FUNCTIONS:
            raise ValueError(f"Sampler compare={compare!r} is not a compare function: "
                             f"{', '.join(COMPARE_FUNCTIONS)} (or None for a plain sampler)")
        if not (0 <= lod_min_clamp <= lod_max_clamp):
            raise ValueError(f"Sampler needs 0 <= lod_min_clamp <= lod_max_clamp, got "
                             f"{lod_min_clamp} and {lod_max_clamp} (WebGPU's validation)")
        if not 1 <= int(max_anisotropy) <= 16:
            raise ValueError(f"Sampler max_anisotropy={max_anisotropy} must be 1 to 16")
        if max_anisotropy > 1 and (mag_filter, min_filter, mipmap_filter) != ("linear",) * 3:
            raise ValueError("Sampler max_anisotropy > 1 needs mag_filter, min_filter and "
                             "mipmap_filter all 'linear' (WebGPU's validation)")
        self.address_mode_u, self.address_mode_v = address_mode_u, address_mode_v
        self.address_mode_w = address_mode_w
        self.mag_filter, self.min_filter = mag_filter, min_filter
        self.mipmap_filter = mipmap_filter
        self.lod_min_clamp, self.lod_max_clamp = float(lod_min_clamp), float(lod_max_clamp)
        self.compare, self.max_anisotropy, self.label = compare, int(max_anisotropy), label
        self._frozen = True

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_frozen", False):  # (prepared samplers are kept per sampler)
            raise AttributeError(f"a Sampler cannot be changed (WebGPU's GPUSampler is "
                                 f"immutable): make a new one, e.g. ash.Sampler(**{{"
                                 f"**old.descriptor(), {name!r}: {value!r}}})")
        object.__setattr__(self, name, value)

    @property
    def is_comparison(self) -> bool:
        return self.compare is not None

    def descriptor(self) -> dict[str, Any]:
        """The descriptor as wgpu-py's ``create_sampler`` takes it."""
        d = {k: getattr(self, k) for k in (
            "address_mode_u", "address_mode_v", "address_mode_w", "mag_filter", "min_filter",
            "mipmap_filter", "lod_min_clamp", "lod_max_clamp", "max_anisotropy")}
        if self.compare is not None:
            d["compare"] = self.compare
        return d

    def __repr__(self) -> str:
        return f"Sampler({', '.join(f'{k}={v!r}' for k, v in self.descriptor().items())})"
