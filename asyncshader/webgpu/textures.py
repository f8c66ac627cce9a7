"""Textures, views and samplers on the device (WebGPU's ``GPUTexture``, ``GPUTextureView``,
``GPUSampler``), held as asyncshader's host resources (:class:`asyncshader.Texture`: one numpy
array per mip level, the texture's memory, which storage textures write into), with WebGPU's
creation, copy and binding checks: texel copies between buffers and textures
(:func:`texel_copy`), bind group layout entries for handles (:func:`handle_entry`, and
:func:`auto_entry` from a shader's reflection) and the views and samplers bind groups hold
(:func:`bind_handle`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..front.wgsl.codegen_textures import annotation_class
from ..wgsl.textures.formats import STORAGE_FORMATS, TexelFormat, texel_format
from ..wgsl.textures.resources import Sampler, Texture
from .base import GPUObjectBase
from .buffer import usage_names
from .enums import TextureUsage, flag_value
from .errors import invalid

_TEXTURE = "wgpuDeviceCreateTexture"
_GROUP = "wgpuDeviceCreateBindGroup"
#: formats whose host array is not their memory layout (packed channels): no texel copies
_PACKED = ("rgb10a2unorm", "rgb10a2uint", "rg11b10ufloat")


def extent(size: Any) -> tuple[int, int, int]:
    """wgpu-py's Extent3D (a tuple of 1 to 3 ints or a dict) as (width, height, depth)."""
    if isinstance(size, dict):
        return (int(size["width"]), int(size.get("height", 1)),
                int(size.get("depth_or_array_layers", 1)))
    w, h, d = (*(int(s) for s in size), 1, 1)[:3]
    return w, h, d


def _origin(origin: Any) -> tuple[int, int, int]:
    if isinstance(origin, dict):
        return int(origin.get("x", 0)), int(origin.get("y", 0)), int(origin.get("z", 0))
    x, y, z = (*(int(o) for o in origin), 0, 0, 0)[:3]
    return x, y, z


class GPUTexture(GPUObjectBase):
    """A texture of zeroed texels: ``size`` (width, height, depth or array layers), ``format``,
    ``usage`` (``TextureUsage`` flags), ``dimension``, ``mip_level_count``, ``sample_count``."""

    def __init__(self, label: str, device: Any, size: Any, format: str, usage: int | str,
                 dimension: str, mip_level_count: int, sample_count: int) -> None:
        super().__init__(label, device)
        fmt = texel_format(format)
        usage = flag_value(TextureUsage, usage)
        w, h, d = extent(size)
        _check_texture(device.limits, fmt, usage, dimension, (w, h, d), mip_level_count,
                       sample_count)
        levels = []
        for k in range(mip_level_count):
            lw, lh = max(1, w >> k), max(1, h >> k)
            shape = {"1d": (w,), "3d": (max(1, d >> k), lh, lw)}.get(
                dimension, (lh, lw) if d == 1 and sample_count == 1 else (
                    sample_count if sample_count > 1 else d, lh, lw))
            levels.append(np.zeros((*shape, fmt.channels), fmt.dtype))
        self._texture = Texture(levels, fmt.name, dimension, sample_count)
        self._size, self._usage, self._destroyed = (w, h, d), usage, False

    size = property(lambda self: self._size, doc="(width, height, depth_or_array_layers)")
    width = property(lambda self: self._size[0])
    height = property(lambda self: self._size[1])
    depth_or_array_layers = property(lambda self: self._size[2])
    format = property(lambda self: self._texture.format.name)
    usage = property(lambda self: self._usage)
    dimension = property(lambda self: self._texture.dimension)
    mip_level_count = property(lambda self: self._texture.mip_level_count)
    sample_count = property(lambda self: self._texture.sample_count)

    def create_view(self, *, label: str = "", format: str | None = None,
                    dimension: str | None = None, usage: int = 0, aspect: str = "all",
                    base_mip_level: int = 0, mip_level_count: int | None = None,
                    base_array_layer: int = 0, array_layer_count: int | None = None,
                    **unused: Any) -> GPUTextureView:
        """A view of a range of mip levels and array layers, seen as ``dimension``
        (WebGPU's ``createView``; ``format`` must be the texture's own)."""
        where = "wgpuTextureCreateView"
        if format is not None and format != self.format:
            raise invalid(where, f"Format {format!r} of the view is not the texture's format "
                          f"{self.format!r} (view_formats are not supported here)")
        try:
            view = self._texture.view(dimension, base_mip_level, mip_level_count,
                                      base_array_layer, array_layer_count)
        except ValueError as exc:
            raise invalid(where, str(exc)) from None
        return GPUTextureView(label, self._device, self, view)

    def destroy(self) -> None:
        """Marks the texture destroyed: a later copy or binding of it is a validation error."""
        self._destroyed = True

    def _require(self, flags: int, where: str) -> None:
        if self._destroyed:
            raise invalid(where, f"{self._name()} has been destroyed")
        if self._usage & flags != flags:
            raise invalid(where, f"Usage flags {usage_names(self._usage, TextureUsage)} of "
                          f"{self._name()} do not contain required usage flags "
                          f"{usage_names(flags, TextureUsage)}")


def _check_texture(limits: dict, fmt: TexelFormat, usage: int, dimension: str,
                   size: tuple[int, int, int], levels: int, samples: int) -> None:
    """WebGPU's createTexture rules (validating GPUTextureDescriptor)."""
    w, h, d = size
    if dimension not in ("1d", "2d", "3d"):
        raise ValueError(f"Invalid TextureDimension: {dimension!r}")
    if not usage or usage & ~0x1F:
        raise invalid(_TEXTURE, f"Texture usage {usage} is empty or has unknown flags")
    if min(size) < 1:
        raise invalid(_TEXTURE, f"Dimension {list(size)} is zero")
    key = {"1d": "1d", "2d": "2d", "3d": "3d"}[dimension]
    most = limits[f"max-texture-dimension-{key}"]
    layers = limits["max-texture-array-layers"]
    if (max(w, h, d) if dimension == "3d" else max(w, h)) > most or (
            dimension == "2d" and d > layers):
        raise invalid(_TEXTURE, f"Dimension {list(size)} exceeds the limit {most} "
                      f"(array layers {layers})")
    if dimension == "1d" and (h != 1 or d != 1):
        raise invalid(_TEXTURE, "Dimension Y and Z must be 1 for a 1d texture")
    largest = max(w, h, d if dimension == "3d" else 1)
    if not 1 <= levels <= largest.bit_length() or (dimension == "1d" and levels != 1):
        raise invalid(_TEXTURE, f"Texture mip level count {levels} is invalid (at most "
                      f"{1 if dimension == '1d' else largest.bit_length()})")
    if samples not in (1, 4):
        raise invalid(_TEXTURE, f"Sample count {samples} is invalid")
    if samples == 4 and (dimension != "2d" or levels != 1 or d != 1
                         or usage & TextureUsage.STORAGE_BINDING
                         or not usage & TextureUsage.RENDER_ATTACHMENT):
        raise invalid(_TEXTURE, "A multisampled texture is 2d, one level, one layer, has "
                      "RENDER_ATTACHMENT usage and not STORAGE_BINDING")
    if usage & TextureUsage.STORAGE_BINDING and fmt.name not in STORAGE_FORMATS:
        raise invalid(_TEXTURE, f"Format {fmt.name} does not support usages "
                      "TextureUsages(STORAGE_BINDING)")


class GPUTextureView(GPUObjectBase):
    """A view of a :class:`GPUTexture` (``texture``), made by ``texture.create_view()``."""

    def __init__(self, label: str, device: Any, texture: GPUTexture, view: Any) -> None:
        super().__init__(label, device)
        self._texture, self._view = texture, view

    @property
    def texture(self) -> GPUTexture:
        return self._texture

    @property
    def size(self) -> tuple[int, int, int]:
        return self._texture.size


class GPUSampler(GPUObjectBase):
    """A sampler: WebGPU's sampler descriptor members as wgpu-py spells them, checked and
    held as an :class:`asyncshader.Sampler`."""

    def __init__(self, label: str, device: Any, descriptor: dict) -> None:
        super().__init__(label, device)
        try:
            self._sampler = Sampler(**{k: v for k, v in descriptor.items() if v is not None})
        except ValueError as exc:
            raise invalid("wgpuDeviceCreateSampler", str(exc)) from None


# -- texel copies ---------------------------------------------------------------------------

@dataclass
class TexelCopy:
    """One checked texel copy: the texture region (level, origin, extent) and the buffer
    layout (offset, bytes per row, rows per image)."""

    texture: GPUTexture
    level: int
    origin: tuple[int, int, int]
    extent: tuple[int, int, int]
    offset: int
    bytes_per_row: int
    rows_per_image: int

    @property
    def span(self) -> int:
        """The bytes from ``offset`` to the end of the copy's last texel."""
        w, h, d = self.extent
        bpt = _block_size(self.texture._texture.format)
        bpr = self.bytes_per_row
        return bpr * self.rows_per_image * (d - 1) + bpr * (h - 1) + w * bpt if w * h * d else 0

    def rows(self, raw: np.ndarray) -> np.ndarray:
        """The copy's bytes in ``raw`` (a uint8 array laid out as the buffer layout says), as
        a writable (images, rows, row bytes) view."""
        w, h, d = self.extent
        bpt = _block_size(self.texture._texture.format)
        return as_strided(raw[self.offset:], (d, h, w * bpt),
                          (self.bytes_per_row * self.rows_per_image, self.bytes_per_row, 1))

    def region(self) -> np.ndarray:
        """The copy's texels: a (depth or layers, height, width, C) view of the level."""
        (x, y, z), (w, h, d) = self.origin, self.extent
        return self.texture._texture.block(self.level)[z:z + d, y:y + h, x:x + w]

    def into_texture(self, raw: np.ndarray) -> None:
        region = self.region()
        region[...] = np.ascontiguousarray(self.rows(raw)).view(region.dtype).reshape(
            region.shape)
        self.texture._texture.changed()

    def out_of_texture(self, raw: np.ndarray) -> None:
        rows = self.rows(raw)
        rows[...] = np.ascontiguousarray(self.region()).view(np.uint8).reshape(rows.shape)


def _block_size(fmt: TexelFormat) -> int:
    return fmt.channels * fmt.dtype.itemsize


def texel_copy(texture_info: dict, layout: dict, size: Any, need: int, where: str,
               buffer_size: int | None) -> TexelCopy:
    """A copy between ``texture_info`` (``texture``, ``mip_level``, ``origin``) and bytes laid
    out as ``layout`` says (``offset``, ``bytes_per_row``, ``rows_per_image``), checked as
    WebGPU checks it: the texture's usage ``need``, the region inside the level, the layout's
    rows, and for a buffer (``buffer_size`` given) ``bytes_per_row`` a multiple of 256 and the
    bytes inside the buffer."""
    texture: GPUTexture = texture_info["texture"]
    fmt = texture._texture.format
    if fmt.name in _PACKED:
        raise NotImplementedError(f"asyncshader.webgpu does not copy {fmt.name} texels (a "
                                  "packed format: its host array is not its memory layout)")
    level = int(texture_info.get("mip_level", 0))
    origin = _origin(texture_info.get("origin", (0, 0, 0)))
    w, h, d = size3 = extent(size)
    texture._require(need, where)
    if texture.sample_count > 1:
        raise invalid(where, "Copying a multisampled texture is not allowed")
    if not 0 <= level < texture.mip_level_count:
        raise invalid(where, f"Mip level {level} is out of the texture's "
                      f"{texture.mip_level_count} levels")
    lw, lh, ld = texture._texture.size(level)
    if texture.dimension == "2d":
        ld = texture.depth_or_array_layers
    if any(o < 0 or o + e > s for o, e, s in zip(origin, size3, (lw, lh, ld))):
        raise invalid(where, f"Copy of size {list(size3)} at origin {list(origin)} overruns "
                      f"the texture's mip level {level} of size {[lw, lh, ld]}")
    bpt = _block_size(fmt)
    offset = int(layout.get("offset", 0))
    bpr = layout.get("bytes_per_row")
    rpi = layout.get("rows_per_image")
    if bpr is None:
        if h > 1 or d > 1:
            raise invalid(where, "bytes_per_row must be given when the copy has more than "
                          "one row")
        bpr = w * bpt
    rpi = h if rpi is None else int(rpi)
    bpr = int(bpr)
    if buffer_size is not None:
        if bpr % 256:
            raise invalid(where, f"Bytes per row {bpr} does not respect "
                          "`COPY_BYTES_PER_ROW_ALIGNMENT` (256)")
        if offset % bpt:
            raise invalid(where, f"Buffer offset {offset} is not a multiple of the texel "
                          f"block size {bpt}")
    if bpr < w * bpt:
        raise invalid(where, f"Bytes per row {bpr} is less than the {w * bpt} bytes of a "
                      "row of the copy")
    if rpi < h:
        raise invalid(where, f"Rows per image {rpi} is less than the copy's height {h}")
    copy = TexelCopy(texture, level, origin, size3, offset, bpr, rpi)
    if buffer_size is not None and offset + copy.span > buffer_size:
        raise invalid(where, f"Copy of {copy.span} bytes at offset {offset} would end up "
                      f"overrunning the bounds of the buffer of size {buffer_size}")
    return copy


# -- bindings -------------------------------------------------------------------------------

_SAMPLE_TYPES = {"float": "f32", "unfilterable-float": "f32", "depth": "f32", "sint": "i32",
                 "uint": "u32"}
_ACCESS = {"write": "write-only", "read": "read-only", "read_write": "read-write"}


def handle_entry(entry: dict) -> dict:
    """A bind group layout entry for a texture, storage texture or sampler, with WebGPU's
    defaults filled in."""
    out: dict[str, Any] = {"binding": int(entry["binding"]), "visibility": entry["visibility"]}
    if entry.get("texture") is not None:
        t = entry["texture"]
        out["texture"] = {"sample_type": t.get("sample_type", "float"),
                          "view_dimension": t.get("view_dimension", "2d"),
                          "multisampled": bool(t.get("multisampled", False))}
    elif entry.get("storage_texture") is not None:
        t = entry["storage_texture"]
        if "format" not in t:
            raise ValueError("storage_texture binding layout needs format=")
        out["storage_texture"] = {"access": t.get("access", "write-only"),
                                  "format": t["format"],
                                  "view_dimension": t.get("view_dimension", "2d")}
    elif entry.get("sampler") is not None:
        out["sampler"] = {"type": entry["sampler"].get("type", "filtering")}
    else:
        raise NotImplementedError(f"bind group layout entry {entry.get('binding')}: external "
                                  "textures do not run on asyncshader.webgpu")
    return out


def _view_dimension(wgsl_type: Any) -> str:
    core = wgsl_type.name.removeprefix("texture_")
    for part in ("storage_", "depth_", "multisampled_"):
        core = core.replace(part, "")
    return core.replace("_array", "-array")


def auto_entry(r: Any) -> dict:
    """The layout entry ``layout="auto"`` makes for the handle resource ``r`` (reflection)."""
    if r.kind in ("sampler", "comparison_sampler"):
        kind = "comparison" if r.kind == "comparison_sampler" else "filtering"
        return {"sampler": {"type": kind}}
    ann = annotation_class(r.type)
    if r.kind == "storage_texture":
        return {"storage_texture": {"access": _ACCESS[r.access], "format": ann.format,
                                    "view_dimension": _view_dimension(r.type)}}
    kind = "depth" if ann.depth else {"f32": "float", "i32": "sint", "u32": "uint"}[
        ann.sample_type]
    return {"texture": {"sample_type": kind, "view_dimension": _view_dimension(r.type),
                        "multisampled": "multisampled" in r.type.name}}


def layout_kind(spec: dict) -> str:
    """Which handle a layout entry holds: ``texture``, ``storage_texture`` or ``sampler``."""
    return next(k for k in ("texture", "storage_texture", "sampler") if k in spec)


def bind_handle(spec: dict, resource: Any, binding: int) -> Any:
    """The asyncshader resource (a texture view or a sampler) that a bind group entry's
    ``resource`` gives its layout entry ``spec``, checked as WebGPU's createBindGroup does."""
    kind = layout_kind(spec)
    if kind == "sampler":
        if not isinstance(resource, GPUSampler):
            raise invalid(_GROUP, f"Binding {binding}: the layout declares a sampler, the "
                          f"entry gives {type(resource).__name__}")
        want, compare = spec["sampler"]["type"], resource._sampler.is_comparison
        if (want == "comparison") != compare:
            raise invalid(_GROUP, f"Sampler binding {binding} expects type {want}, but given "
                          f"a sampler (compare={resource._sampler.compare!r})")
        return resource._sampler
    if isinstance(resource, GPUTexture):
        resource = resource.create_view()
    if not isinstance(resource, GPUTextureView):
        raise invalid(_GROUP, f"Binding {binding}: the layout declares a {kind}, the entry "
                      f"gives {type(resource).__name__}")
    texture, view, layout = resource._texture, resource._view, spec[kind]
    texture._require(TextureUsage.TEXTURE_BINDING if kind == "texture"
                     else TextureUsage.STORAGE_BINDING, _GROUP)
    if view.dimension != layout["view_dimension"]:
        raise invalid(_GROUP, f"Texture binding {binding} expects dimension = "
                      f"{layout['view_dimension']}, but given a view with dimension = "
                      f"{view.dimension}")
    fmt = view.format
    if kind == "storage_texture":
        if fmt.name != layout["format"]:
            raise invalid(_GROUP, f"Storage texture binding {binding} expects format = "
                          f"{layout['format']}, but given a view with format = {fmt.name}")
        if view.mip_level_count != 1:
            raise invalid(_GROUP, f"Binding {binding}: a storage texture view has one mip "
                          f"level, this one {view.mip_level_count}")
        return view
    sample = layout["sample_type"]
    ok = (fmt.is_depth and sample in ("depth", "unfilterable-float")) or (
        not fmt.is_depth and _SAMPLE_TYPES[sample] == fmt.sample_type and sample != "depth")
    if not ok or layout["multisampled"] != (texture.sample_count > 1):
        raise invalid(_GROUP, f"Texture binding {binding} expects sample type "
                      f"{sample} (multisampled {layout['multisampled']}), but given a view "
                      f"of a {fmt.name} texture with {texture.sample_count} sample(s)")
    return view
